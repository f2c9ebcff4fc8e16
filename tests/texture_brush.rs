//! The texture brush does what a mapmaker asks: its filters leave exactly the ground they
//! exclude untouched (on the CPU and the GPU), what it paints shows in the baked texture and in
//! the live view's weights at once, and undo puts the mask back byte for byte.

use groundwork::edit::session::reborrow;
use groundwork::edit::tools::{ParamValue, ToolSettings, find};
use groundwork::edit::{GpuLayers, LayerId, Session};
use groundwork::gpu::shared::Layouts;
use groundwork::gpu::{BrushKernels, GpuContext, MapScene, SceneLayers};
use groundwork::map::ground_bake::bake;
use groundwork::map::ground_layers::{MASK_NEUTRAL, Material, TextureLayer, material_images};
use groundwork::map::{Map, MapSettings, MapSize};

/// A 2x2 map: a sea (-40) on the west, a plain at 20, a 45-degree ramp up to a plateau at 220
/// on the east; grass everywhere and a rock layer whose rule selects nothing.
fn terrain() -> Map {
    let mut m = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
    m.settings.min_height_elmos = -100.0;
    let (w, d) = m.heights.dims();
    for j in 0..d {
        for i in 0..w {
            let x = i as f32 * 8.0;
            let h = if x < 250.0 {
                -40.0
            } else if x < 300.0 {
                -40.0 + (x - 250.0) * 1.2
            } else {
                20.0 + (x - 600.0).clamp(0.0, 200.0)
            };
            m.heights.set(i, j, h);
        }
    }
    let mut rock = TextureLayer::new(
        "Rock",
        Material::Solid {
            color: [250, 0, 250],
        },
    );
    // a rule that selects nothing here (nothing is steeper than 51 degrees): only paint shows it
    rock.rules.slope_deg = Some(groundwork::map::ground_layers::Band {
        min: 85.0,
        max: 90.0,
        soft: 0.0,
    });
    m.texture_layers = vec![
        TextureLayer::new(
            "Grass",
            Material::Solid {
                color: [40, 160, 40],
            },
        ),
        rock,
    ];
    m
}

fn settings(tool: &str, filters: &[(&str, ParamValue)]) -> ToolSettings {
    let t = find(tool).unwrap();
    let mut s = ToolSettings::defaults(t);
    s.brush.radius_elmos = 2000.0;
    s.brush.strength = 1.0;
    s.brush.falloff = groundwork::edit::brush::Falloff::Flat;
    *s.value_mut("layer").unwrap() = ParamValue::Choice(1);
    for (k, v) in filters {
        *s.value_mut(k).unwrap() = v.clone();
    }
    s
}

/// One stroke over the whole map.
fn paint(session: &mut Session, tool: &str, s: &ToolSettings, gpu: Option<&mut dyn GpuLayers>) {
    let t = find(tool).unwrap();
    let mut gpu = gpu;
    session
        .begin_stroke(t, s.clone(), false, [512.0, 512.0], reborrow(&mut gpu))
        .unwrap();
    session.end_stroke([512.0, 512.0], gpu).unwrap();
}

/// The ground at mask cell (i, j) as the filters see it, worked out on its own: height at the
/// cell centre, slope in degrees from the heights 8 elmos either side.
fn ground(map: &Map, i: usize, j: usize) -> (f32, f32) {
    let (u, v) = ((i as f32 + 0.5) * 2.0, (j as f32 + 0.5) * 2.0);
    let h = |u: f32, v: f32| map.heights.sample_bilinear(u, v);
    let gx = (h(u + 1.0, v) - h(u - 1.0, v)) / 16.0;
    let gz = (h(u, v + 1.0) - h(u, v - 1.0)) / 16.0;
    (h(u, v), (gx * gx + gz * gz).sqrt().atan().to_degrees())
}

fn gpu() -> Option<(GpuContext, BrushKernels)> {
    let ctx = groundwork::test_support::gpu_with_compute()?;
    let k = BrushKernels::new(&ctx).expect("compute");
    Some((ctx, k))
}

/// A filter's name, its settings, and which cells it lets through (given height and slope;
/// `None`: too close to a limit to judge).
type Case = (
    &'static str,
    Vec<(&'static str, ParamValue)>,
    Box<dyn Fn(f32, f32) -> Option<bool>>,
);

/// Each filter on its own, then together: a cell the filters exclude keeps 128 exactly, a
/// cell they let through is painted to 255; cells within half a degree or an elmo of a limit
/// are not judged.
#[test]
fn filters_leave_exactly_the_ground_they_exclude() {
    let gpu = gpu();
    let cases: Vec<Case> = vec![
        (
            "avoid water",
            vec![("avoid_water", ParamValue::Choice(1))],
            Box::new(|h, _| (h.abs() > 1.0).then_some(h >= 0.0)),
        ),
        (
            "max slope 30",
            vec![("max_slope_deg", ParamValue::Number(30.0))],
            Box::new(|_, s| ((s - 30.0).abs() > 0.5).then_some(s <= 30.0)),
        ),
        (
            "slope band 20..50",
            vec![("slope_deg", ParamValue::Range(20.0, 50.0))],
            Box::new(|_, s| {
                ((s - 20.0).abs() > 0.5 && (s - 50.0).abs() > 0.5)
                    .then_some((20.0..=50.0).contains(&s))
            }),
        ),
        (
            "height band 0..100, no water",
            vec![
                ("height_elmos", ParamValue::Range(0.0, 100.0)),
                ("avoid_water", ParamValue::Choice(1)),
            ],
            Box::new(|h, _| {
                (h.abs() > 1.0 && (h - 100.0).abs() > 1.0).then_some((0.0..=100.0).contains(&h))
            }),
        ),
    ];
    for (what, filters, expect) in &cases {
        let map = terrain();
        let s = settings("texture-paint", filters);
        let mut cpu = Session::new(map.clone());
        paint(&mut cpu, "texture-paint", &s, None);
        let mut results = vec![("CPU", LayerId::TextureMask(1).to_grid(cpu.map()))];
        if let Some((ctx, kernels)) = &gpu {
            let layouts = Layouts::new(ctx);
            let mut scene = MapScene::new(ctx, &layouts, &map, &mut |_, _| {}).unwrap();
            let mut on_gpu = Session::new(map.clone());
            let mut layers = SceneLayers {
                ctx,
                kernels: Some(kernels),
                scene: &mut scene,
            };
            paint(&mut on_gpu, "texture-paint", &s, Some(&mut layers));
            results.push(("GPU", LayerId::TextureMask(1).to_grid(on_gpu.map())));
        }
        for (side, mask) in &results {
            let (w, h) = mask.dims();
            let (mut kept, mut painted) = (0, 0);
            for j in 0..h {
                for i in 0..w {
                    let (hh, slope) = ground(&map, i, j);
                    let v = mask.get(i, j);
                    match expect(hh, slope) {
                        Some(true) => {
                            assert_eq!(
                                v, 255.0,
                                "{what} ({side}): ({i}, {j}) at {hh} elmos, {slope} deg"
                            );
                            painted += 1;
                        }
                        Some(false) => {
                            assert_eq!(
                                v, MASK_NEUTRAL as f32,
                                "{what} ({side}): ({i}, {j}) at {hh} elmos, {slope} deg"
                            );
                            kept += 1;
                        }
                        None => {}
                    }
                }
            }
            eprintln!("{what} ({side}): {painted} cells painted, {kept} left alone");
            assert!(
                painted > 100 && kept > 100,
                "{what}: {painted} painted, {kept} kept"
            );
        }
    }
}

#[test]
fn what_is_painted_shows_in_the_bake_and_undo_puts_the_mask_back() {
    let map = terrain();
    let mut session = Session::new(map.clone());
    // a small stroke on the plain: Rock (magenta) forced on there, and nowhere else
    let t = find("texture-paint").unwrap();
    let mut s = settings("texture-paint", &[]);
    s.brush.radius_elmos = 100.0;
    session
        .begin_stroke(t, s.clone(), false, [450.0, 500.0], None)
        .unwrap();
    session.end_stroke([450.0, 500.0], None).unwrap();
    let images = material_images(&session.map().texture_layers, &|_| Err("none".into())).unwrap();
    let baked = bake(session.map(), &images);
    let tw = baked.width();
    let px = |x: usize, z: usize| &baked.rgba()[(z * tw + x) * 4..(z * tw + x) * 4 + 3];
    assert_eq!(
        px(450, 500),
        &[250, 0, 250],
        "the centre of the stroke is rock"
    );
    assert_eq!(
        px(450, 200),
        &[40, 160, 40],
        "away from it, the grass below"
    );
    assert_eq!(px(800, 500), &[40, 160, 40]);
    // erase the same place: forced off, the grass shows again
    let e = find("texture-erase").unwrap();
    session
        .begin_stroke(e, s.clone(), false, [450.0, 500.0], None)
        .unwrap();
    session.end_stroke([450.0, 500.0], None).unwrap();
    assert_eq!(
        LayerId::TextureMask(1).to_grid(session.map()).get(28, 31),
        0.0,
        "erased to 0"
    );
    session.undo(None);
    session.undo(None);
    let (mw, mh) = map.metal.dims();
    let all = groundwork::edit::GridRect::new(0, 0, mw, mh);
    assert_eq!(
        LayerId::TextureMask(1).read_rect(session.map(), all),
        LayerId::TextureMask(1).read_rect(&map, all),
        "undone, the mask is as it was"
    );
    session.redo(None);
    assert_eq!(
        LayerId::TextureMask(1).to_grid(session.map()).get(28, 31),
        255.0
    );
}

#[test]
fn the_view_follows_the_texture_brush_as_it_paints() {
    let Some((ctx, kernels)) = gpu() else { return };
    let map = terrain();
    let layouts = Layouts::new(&ctx);
    let mut scene = MapScene::new(&ctx, &layouts, &map, &mut |_, _| {}).unwrap();
    let before = scene.ground.read_weights(&ctx);
    let w = map.heights.width();
    // vertex (56, 62) is at (448, 496) elmos: Rock's weight (layer 1, channel 1) is 0
    assert_eq!(before[0][(62 * w + 56) * 4 + 1], 0);
    let mut session = Session::new(map.clone());
    let mut s = settings("texture-paint", &[]);
    s.brush.radius_elmos = 100.0;
    let t = find("texture-paint").unwrap();
    let mut layers = SceneLayers {
        ctx: &ctx,
        kernels: Some(&kernels),
        scene: &mut scene,
    };
    session
        .begin_stroke(t, s, false, [450.0, 500.0], Some(&mut layers))
        .unwrap();
    // mid-stroke, before the document knows: the weights already show it
    let mid = layers.scene.ground.read_weights(&ctx);
    assert_eq!(
        mid[0][(62 * w + 56) * 4 + 1],
        255,
        "the view shows the paint at once"
    );
    assert_eq!(
        mid[0][(62 * w + 10) * 4 + 1],
        0,
        "and only where it was painted"
    );
    session
        .end_stroke([450.0, 500.0], Some(&mut layers))
        .unwrap();
}
