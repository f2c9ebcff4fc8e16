//! Every tool of the registry through the editing session, on the GPU (lavapipe in CI) and on
//! its CPU twin, with the same inputs: the two agree within each tool's stated tolerance;
//! strokes under symmetry give symmetric heights; 200 random strokes undo to the original byte
//! for byte and redo to what a CPU replay gives. Skips with a message when there is no GPU
//! adapter or no compute (the CPU-only checks still run).

use groundwork::edit::brush::{BrushShape, Falloff};
use groundwork::edit::session::reborrow;
use groundwork::edit::tools::{ParamValue, StrokeStyle, TOOLS, Tool, ToolSettings};
use groundwork::edit::{GpuLayers, GridRect, LayerId, Session};
use groundwork::gpu::{BrushKernels, GpuContext, MapScene, Renderer, SceneLayers};
use groundwork::map::{Grid, Map, MapSettings, MapSize, SymmetryMode};

mod tool_support;
use tool_support::{Lcg, cone};

/// A 2x2 map of rolling hills (asymmetric).
fn hills() -> Map {
    with_texture_layers(groundwork::edit::procedural::relief_map(
        MapSize::new(2, 2).unwrap(),
        5,
        "tools",
    ))
}

/// Two texture layers, unpainted, for the texture brush to paint.
fn with_texture_layers(mut m: Map) -> Map {
    use groundwork::map::ground_layers::{Material, TextureLayer};
    m.texture_layers = vec![
        TextureLayer::new(
            "Rock",
            Material::Solid {
                color: [90, 90, 90],
            },
        ),
        TextureLayer::new(
            "Sand",
            Material::Solid {
                color: [200, 190, 140],
            },
        ),
    ];
    m
}

/// A 2x2 map whose heights depend only on the distance from the centre: symmetric under
/// every mode, exactly, vertex for vertex.
fn round_hills(mode: SymmetryMode) -> Map {
    let mut m = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
    let (w, h) = m.heights.dims();
    for z in 0..h {
        for x in 0..w {
            let (dx, dz) = (x as f32 - 64.0, z as f32 - 64.0);
            let r = (dx * dx + dz * dz).sqrt();
            m.heights.set(x, z, 40.0 + 30.0 * (r / 9.0).cos());
        }
    }
    m.symmetry = mode;
    with_texture_layers(m)
}

/// The tool's defaults, small enough for a 2x2 map, with a stamp image where it takes one.
fn settings_for(tool: &dyn Tool) -> ToolSettings {
    let mut s = ToolSettings::defaults(tool);
    s.brush.radius_elmos = 120.0;
    for (key, v) in &mut s.values {
        if let ParamValue::Image(img) = v {
            *img = Some(cone(33));
        }
        if *key == "iterations" {
            *v = ParamValue::Number(6.0);
        }
        if *key == "layer" {
            // the second texture layer: a mask other than the first
            *v = ParamValue::Choice(1);
        }
    }
    s
}

/// A stroke along `path`, on the GPU when given one.
fn stroke(
    session: &mut Session,
    tool: &'static dyn Tool,
    settings: &ToolSettings,
    path: &[[f32; 2]],
    mut gpu: Option<&mut dyn GpuLayers>,
) {
    session
        .begin_stroke(tool, settings.clone(), false, path[0], reborrow(&mut gpu))
        .unwrap();
    for p in &path[1..path.len() - 1] {
        match tool.style() {
            StrokeStyle::Click => session.stroke_dab(*p, reborrow(&mut gpu)).unwrap(),
            _ => session.stroke_to(*p, 0.0, reborrow(&mut gpu)).unwrap(),
        }
    }
    let last = *path.last().unwrap();
    if tool.style() == StrokeStyle::Spaced {
        session.stroke_to(last, 0.0, reborrow(&mut gpu)).unwrap();
    }
    session.end_stroke(last, gpu).unwrap();
}

/// How far GPU and CPU may part, in elmos: float order differs between a GPU compiler and the
/// Rust one (fused multiply-adds, sqrt), and the erosions iterate it.
fn tolerance(tool: &dyn Tool) -> f32 {
    match tool.name() {
        "thermal-erosion" | "hydraulic-erosion" => 2e-2,
        _ => 2e-3,
    }
}

struct Gpu {
    ctx: GpuContext,
    kernels: BrushKernels,
    renderer: Renderer,
}

impl Gpu {
    fn new() -> Option<Gpu> {
        let ctx = groundwork::test_support::gpu_with_compute()?;
        let kernels = BrushKernels::new(&ctx).expect("compute");
        let renderer = Renderer::new(&ctx);
        Some(Gpu {
            ctx,
            kernels,
            renderer,
        })
    }

    fn scene(&self, map: &Map) -> MapScene {
        MapScene::new(&self.ctx, &self.renderer.layouts, map, &mut |_, _| {}).unwrap()
    }
}

/// Every layer of a map, as floats.
fn layers_of(map: &Map) -> Vec<Grid<f32>> {
    let masks = (0..map.texture_layers.len()).map(|k| LayerId::TextureMask(k as u8));
    LayerId::ALL
        .iter()
        .copied()
        .chain(masks)
        .map(|l| l.to_grid(map))
        .collect()
}

fn largest_layer_difference(a: &Map, b: &Map) -> f32 {
    layers_of(a)
        .iter()
        .zip(layers_of(b).iter())
        .map(|(x, y)| largest_difference(x, y))
        .fold(0.0, f32::max)
}

fn largest_difference(a: &Grid<f32>, b: &Grid<f32>) -> f32 {
    a.data()
        .iter()
        .zip(b.data())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn every_kernel_matches_its_cpu_twin() {
    let Some(gpu) = Gpu::new() else { return };
    let path = [
        [150.0, 220.0],
        [420.0, 380.0],
        [700.0, 520.0],
        [1010.0, 1000.0],
    ];
    for mode in [
        SymmetryMode::None,
        SymmetryMode::MirrorX,
        SymmetryMode::Rotate(4),
        SymmetryMode::Rotate(8),
        SymmetryMode::Rotate(3),
    ] {
        for &tool in TOOLS {
            let mut map = hills();
            map.symmetry = mode;
            let mut settings = settings_for(tool);
            if tool.name() == "raise" {
                // the mask shape, bilinear on both sides
                settings.brush.shape = BrushShape::Mask(cone(17));
                settings.brush.falloff = Falloff::Flat;
            }
            // restore and the erasers need something to undo: their counterpart first
            let before = prep(tool).map(|t| (t, settings_for(t)));
            let mut cpu = Session::new(map.clone());
            if let Some((t, b)) = &before {
                stroke(&mut cpu, *t, b, &path, None);
            }
            let reference = tool.layer_for(&settings).to_grid(cpu.map());
            stroke(&mut cpu, tool, &settings, &path, None);

            let mut scene = gpu.scene(&map);
            let mut on_gpu = Session::new(map);
            let mut layers = SceneLayers {
                ctx: &gpu.ctx,
                kernels: Some(&gpu.kernels),
                scene: &mut scene,
            };
            if let Some((t, b)) = &before {
                stroke(&mut on_gpu, *t, b, &path, Some(&mut layers));
            }
            stroke(&mut on_gpu, tool, &settings, &path, Some(&mut layers));

            let layer = tool.layer_for(&settings);
            let (a, b) = (layer.to_grid(cpu.map()), layer.to_grid(on_gpu.map()));
            let changed = a
                .data()
                .iter()
                .zip(reference.data())
                .filter(|(x, y)| (*x - *y).abs() > 1e-3)
                .count();
            let worst = largest_difference(&a, &b);
            eprintln!(
                "{:>18} {mode:>9}: {changed:>5} {} cells changed, GPU vs CPU up to {worst:.2e}",
                tool.name(),
                layer.name()
            );
            assert!(changed > 20, "{} changed only {changed} cells", tool.name());
            assert!(
                worst <= tolerance(tool),
                "{} under {mode}: GPU and CPU differ by {worst}",
                tool.name()
            );
            // the GPU copy holds what the document holds
            let (w, h) = b.dims();
            let back = scene
                .read_rect(&gpu.ctx, layer, GridRect::new(0, 0, w, h))
                .unwrap();
            assert_eq!(back, b.data(), "{}: the GPU copy", tool.name());
        }
    }
}

/// The tool to run first so that `tool` has something to do: restore and the erasers.
fn prep(tool: &dyn Tool) -> Option<&'static dyn Tool> {
    let name = match tool.name() {
        "restore" => "raise",
        "metal-erase" => "metal-paint",
        "grass-erase" => "grass",
        "texture-erase" => "texture-paint",
        _ => return None,
    };
    groundwork::edit::tools::find(name)
}

/// The layer's values (heights as words, bytes as they are) at (x, z) and at each of its
/// symmetric images differ by at most one, over the whole map.
fn assert_symmetric(map: &Map, layer: LayerId, what: &str) {
    let (w, h) = layer.dims(map);
    let e = (w - 1) as i64;
    let words: Vec<i32> = match layer {
        LayerId::Heights => map.height_words().iter().map(|&v| v as i32).collect(),
        _ => layer
            .to_grid(map)
            .data()
            .iter()
            .map(|&v| v as i32)
            .collect(),
    };
    let at = |x: i64, z: i64| words[z as usize * w + x as usize];
    let images = |x: i64, z: i64| -> Vec<(i64, i64)> {
        match map.symmetry {
            SymmetryMode::MirrorX => vec![(e - x, z)],
            SymmetryMode::MirrorZ => vec![(x, e - z)],
            SymmetryMode::MirrorXZ => vec![(e - x, z), (x, e - z), (e - x, e - z)],
            SymmetryMode::Diagonal => vec![(z, x)],
            SymmetryMode::AntiDiagonal => vec![(e - z, e - x)],
            SymmetryMode::Rotate(2) => vec![(e - x, e - z)],
            SymmetryMode::Rotate(4) => vec![(e - z, x), (e - x, e - z), (z, e - x)],
            _ => vec![],
        }
    };
    let mut worst = 0;
    for z in 0..h as i64 {
        for x in 0..w as i64 {
            for (ix, iz) in images(x, z) {
                worst = worst.max((at(x, z) - at(ix, iz)).abs());
            }
        }
    }
    assert!(worst <= 1, "{what}: symmetric only to {worst} height words");
}

#[test]
fn strokes_under_symmetry_are_symmetric_to_one_height_word() {
    let modes = [
        SymmetryMode::MirrorX,
        SymmetryMode::MirrorZ,
        SymmetryMode::MirrorXZ,
        SymmetryMode::Diagonal,
        SymmetryMode::AntiDiagonal,
        SymmetryMode::Rotate(2),
        SymmetryMode::Rotate(4),
    ];
    // near the middle, so the copies overlap, and out to a corner
    let path = [
        [430.0, 470.0],
        [560.0, 500.0],
        [700.0, 650.0],
        [980.0, 900.0],
    ];
    let gpu = Gpu::new();
    for mode in modes {
        for &tool in TOOLS {
            let settings = settings_for(tool);
            let mut cpu = Session::new(round_hills(mode));
            stroke(&mut cpu, tool, &settings, &path, None);
            assert_symmetric(
                cpu.map(),
                tool.layer_for(&settings),
                &format!("{} under {mode} (CPU)", tool.name()),
            );
            if let Some(g) = &gpu {
                let map = round_hills(mode);
                let mut scene = g.scene(&map);
                let mut s = Session::new(map);
                let mut layers = SceneLayers {
                    ctx: &g.ctx,
                    kernels: Some(&g.kernels),
                    scene: &mut scene,
                };
                stroke(&mut s, tool, &settings, &path, Some(&mut layers));
                assert_symmetric(
                    s.map(),
                    tool.layer_for(&settings),
                    &format!("{} under {mode} (GPU)", tool.name()),
                );
            }
        }
    }
}

#[test]
fn turns_by_three_six_and_eight_copy_each_dab_about_the_centre() {
    // on a square grid these turns cannot land on vertices: the copies are checked where they
    // land, between vertices, within the bilinear error of a smooth bump
    for n in [3u8, 6, 8] {
        let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        map.symmetry = SymmetryMode::Rotate(n);
        let mut s = Session::new(map);
        let raise = groundwork::edit::tools::find("raise").unwrap();
        let mut set = ToolSettings::defaults(raise);
        set.brush.radius_elmos = 160.0;
        stroke(&mut s, raise, &set, &[[700.0, 520.0], [700.0, 520.0]], None);
        let m = s.map();
        let (c, p) = (512.0f32, [700.0f32, 520.0f32]);
        let top = m.height_at(p[0], p[1]);
        assert!(top > 5.0, "{top}");
        for k in 1..n {
            let a = std::f32::consts::TAU * k as f32 / n as f32;
            let (sn, cs) = a.sin_cos();
            let q = [
                c + (p[0] - c) * cs - (p[1] - c) * sn,
                c + (p[0] - c) * sn + (p[1] - c) * cs,
            ];
            let h = m.height_at(q[0], q[1]);
            assert!((h - top).abs() < 0.1, "rotate-{n}, copy {k}: {h} vs {top}");
        }
    }
}

/// One scripted stroke: the symmetry, the tool, its settings and the path.
type Scripted = (SymmetryMode, &'static dyn Tool, ToolSettings, Vec<[f32; 2]>);

/// 200 random strokes.
fn random_strokes() -> Vec<Scripted> {
    let mut rng = Lcg(7);
    let modes = SymmetryMode::ALL;
    (0..200)
        .map(|_| {
            let mode = modes[(rng.unit() * modes.len() as f32) as usize % modes.len()];
            let tool = TOOLS[(rng.unit() * TOOLS.len() as f32) as usize % TOOLS.len()];
            let mut s = settings_for(tool);
            s.brush.radius_elmos = 40.0 + rng.unit() * 200.0;
            s.brush.strength = 0.1 + rng.unit() * 0.9;
            s.brush.falloff = Falloff::ALL[(rng.unit() * 4.0) as usize % 4];
            let n = 2 + (rng.unit() * 4.0) as usize;
            let path = (0..n)
                .map(|_| [rng.unit() * 1024.0, rng.unit() * 1024.0])
                .collect();
            (mode, tool, s, path)
        })
        .collect()
}

fn run_all(session: &mut Session, strokes: &[Scripted], mut gpu: Option<&mut dyn GpuLayers>) {
    for (mode, tool, settings, path) in strokes {
        session.map_mut().symmetry = *mode;
        stroke(session, *tool, settings, path, reborrow(&mut gpu));
    }
}

#[test]
fn two_hundred_random_strokes_undo_byte_for_byte_and_redo_to_the_cpu_replay() {
    let strokes = random_strokes();
    let start = hills();

    let mut replay = Session::new(start.clone());
    run_all(&mut replay, &strokes, None);
    assert_eq!(replay.history().undo_len(), 200);

    let mut cpu = Session::new(start.clone());
    run_all(&mut cpu, &strokes, None);
    assert_eq!(
        cpu.map().heights,
        replay.map().heights,
        "the CPU is deterministic"
    );
    while cpu.undo(None).is_some() {}
    assert_eq!(
        cpu.map().heights.data(),
        start.heights.data(),
        "undo restores every byte"
    );
    while cpu.redo(None).is_some() {}
    assert_eq!(
        cpu.map().heights,
        replay.map().heights,
        "redo matches the replay"
    );

    // on the GPU: each stroke against its CPU twin run from the same heights (a GPU's float
    // order differs a little, and erosion would grow a small difference stroke by stroke);
    // then all undone and redone
    let Some(g) = Gpu::new() else { return };
    let mut scene = g.scene(&start);
    let mut s = Session::new(start.clone());
    let mut layers = SceneLayers {
        ctx: &g.ctx,
        kernels: Some(&g.kernels),
        scene: &mut scene,
    };
    let mut worst = 0.0f32;
    for (mode, tool, settings, path) in &strokes {
        s.map_mut().symmetry = *mode;
        let mut twin =
            Session::with_original_heights(s.map().clone(), s.original_heights().clone());
        stroke(&mut s, *tool, settings, path, Some(&mut layers));
        stroke(&mut twin, *tool, settings, path, None);
        let d = largest_layer_difference(s.map(), twin.map());
        assert!(
            d <= tolerance(*tool),
            "{} under {mode}: GPU and CPU twin differ by {d} elmos",
            tool.name()
        );
        worst = worst.max(d);
    }
    eprintln!("200 strokes: each GPU stroke within {worst:.3e} elmos of its CPU twin");
    let ran = s.map().heights.clone();
    while s.undo(Some(&mut layers)).is_some() {}
    assert_eq!(
        s.map().heights.data(),
        start.heights.data(),
        "GPU: undo restores every byte"
    );
    let (w, h) = start.heights.dims();
    let all = GridRect::new(0, 0, w, h);
    assert_eq!(
        layers
            .scene
            .read_rect(&g.ctx, LayerId::Heights, all)
            .unwrap(),
        start.heights.data(),
        "and the GPU copy with it"
    );
    while s.redo(Some(&mut layers)).is_some() {}
    assert_eq!(
        s.map().heights,
        ran,
        "GPU: redo restores what the strokes made"
    );
    assert_eq!(
        layers
            .scene
            .read_rect(&g.ctx, LayerId::Heights, all)
            .unwrap(),
        ran.data(),
        "and the GPU copy with it"
    );
}

#[test]
fn every_layer_goes_up_and_comes_back_by_rectangle() {
    let Some(g) = Gpu::new() else { return };
    let map = hills();
    let scene = g.scene(&map);
    for layer in LayerId::ALL {
        let (w, h) = layer.dims(&map);
        let all = GridRect::new(0, 0, w, h);
        assert_eq!(
            scene.read_rect(&g.ctx, layer, all).unwrap(),
            layer.read_rect(&map, all),
            "{layer:?} as uploaded"
        );
        let r = GridRect::new(3, 5, 9, 4);
        let vals: Vec<f32> = (0..r.area()).map(|i| i as f32).collect();
        scene.write_rect(&g.ctx, layer, r, &vals);
        let rects = [r, GridRect::new(0, 0, 2, 2)];
        let back = scene.read_rects(&g.ctx, layer, &rects).unwrap();
        assert_eq!(back[0], vals);
        assert_eq!(back[1], layer.read_rect(&map, rects[1]));
    }
}

#[test]
fn a_gpu_stroke_waits_in_the_document_and_reads_back_only_its_tiles() {
    let Some(g) = Gpu::new() else { return };
    let mut map = hills();
    map.symmetry = SymmetryMode::MirrorXZ;
    let original = map.heights.clone();
    let mut scene = g.scene(&map);
    let mut s = Session::new(map);
    let mut layers = SceneLayers {
        ctx: &g.ctx,
        kernels: Some(&g.kernels),
        scene: &mut scene,
    };
    let raise = groundwork::edit::tools::find("raise").unwrap();
    let mut set = ToolSettings::defaults(raise);
    set.brush.radius_elmos = 60.0;
    s.begin_stroke(raise, set, false, [100.0, 100.0], Some(&mut layers))
        .unwrap();
    s.stroke_to([160.0, 130.0], 0.0, Some(&mut layers)).unwrap();
    assert_eq!(
        s.map().heights,
        original,
        "the document waits for the stroke's end"
    );
    let report = s
        .end_stroke([160.0, 130.0], Some(&mut layers))
        .unwrap()
        .unwrap();
    // four corners, one tile each: not the whole map (3 x 3 tiles)
    assert_eq!(report.tiles, 4, "{report:?}");
    assert_ne!(s.map().heights, original);
    s.undo(Some(&mut layers)).unwrap();
    assert_eq!(s.map().heights, original);
}

#[test]
fn without_compute_the_cpu_twin_edits_and_uploads() {
    let ctx = match GpuContext::headless() {
        Ok(c) => c,
        Err(e) => {
            groundwork::test_support::skip(&format!("no GPU adapter ({e})"));
            return;
        }
    };
    let map = hills();
    let original = map.heights.clone();
    let renderer = Renderer::new(&ctx);
    let mut scene = MapScene::new(&ctx, &renderer.layouts, &map, &mut |_, _| {}).unwrap();
    let mut s = Session::new(map);
    let mut layers = SceneLayers {
        ctx: &ctx,
        kernels: None,
        scene: &mut scene,
    };
    let lower = groundwork::edit::tools::find("lower").unwrap();
    s.begin_stroke(
        lower,
        ToolSettings::defaults(lower),
        false,
        [500.0, 500.0],
        Some(&mut layers),
    )
    .unwrap();
    s.stroke_to([640.0, 520.0], 0.0, Some(&mut layers)).unwrap();
    assert_ne!(
        s.map().heights,
        original,
        "the CPU path edits the document at once"
    );
    let (w, h) = original.dims();
    let all = GridRect::new(0, 0, w, h);
    assert_eq!(
        layers.scene.read_rect(&ctx, LayerId::Heights, all).unwrap(),
        s.map().heights.data(),
        "and uploads what it changed"
    );
    s.end_stroke([640.0, 520.0], Some(&mut layers))
        .unwrap()
        .unwrap();
    s.undo(Some(&mut layers)).unwrap();
    assert_eq!(s.map().heights, original);
    assert_eq!(
        layers.scene.read_rect(&ctx, LayerId::Heights, all).unwrap(),
        original.data()
    );
}

#[test]
fn strokes_do_not_depend_on_the_frame_rate() {
    let raise = groundwork::edit::tools::find("smooth").unwrap();
    let settings = settings_for(raise);
    let run = |frames: usize| {
        let mut s = Session::new(hills());
        s.begin_stroke(raise, settings.clone(), false, [200.0, 300.0], None)
            .unwrap();
        for f in 1..=frames {
            let t = f as f32 / frames as f32;
            s.stroke_to([200.0 + 600.0 * t, 300.0 + 400.0 * t], 0.0, None)
                .unwrap();
        }
        s.end_stroke([800.0, 700.0], None).unwrap();
        s.map().heights.clone()
    };
    let (slow, fast) = (run(3), run(60));
    let worst = largest_difference(&slow, &fast);
    assert!(
        worst < 1e-2,
        "3 frames vs 60 frames differ by {worst} elmos"
    );
}
