//! The texture layers' live rule evaluation on the GPU against its CPU twin, everywhere and
//! over a stroke's rectangle only, and what it must do: a cliff raised under a slope rule turns
//! to rock where it is steep and nowhere else.

use groundwork::edit::GridRect;
use groundwork::gpu::MapScene;
use groundwork::gpu::ground_layers::weights_cpu;
use groundwork::gpu::shared::Layouts;
use groundwork::map::ground_layers::{
    Band, Bend, Breakup, Curvature, Material, Rules, TerrainFields, TextureLayer,
};
use groundwork::map::materials::BuiltinMaterial;
use groundwork::map::{Grid, Map, MapSettings, MapSize};

fn builtin(kind: BuiltinMaterial) -> Material {
    Material::Builtin {
        kind,
        scale_elmos: 256.0,
        tint: [1.0, 1.0, 1.0],
    }
}

/// A 2x2 map with a sea in one corner, a ramp, a bump, metal and one of every rule.
fn varied_map() -> Map {
    let mut m = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
    let (w, d) = m.heights.dims();
    for j in 0..d {
        for i in 0..w {
            let (x, z) = (i as f32 * 8.0, j as f32 * 8.0);
            let ramp = (x - 300.0).clamp(0.0, 160.0);
            let bump = 90.0 * (-((x - 700.0).powi(2) + (z - 300.0).powi(2)) / 8000.0).exp();
            let sea = if x < 200.0 && z > 700.0 { -40.0 } else { 0.0 };
            m.heights
                .set(i, j, ramp + bump + sea + (z * 0.05).sin() * 3.0);
        }
    }
    let (mw, mh) = m.metal.dims();
    for j in 20..26 {
        for i in 40..47 {
            if i < mw && j < mh {
                m.metal.set(i, j, 200);
            }
        }
    }
    let band = |min, max, soft| Some(Band { min, max, soft });
    let mut rock = TextureLayer::new("Rock", builtin(BuiltinMaterial::Rock));
    rock.rules.slope_deg = band(30.0, 90.0, 8.0);
    let mut snow = TextureLayer::new("Snow", builtin(BuiltinMaterial::Snow));
    snow.rules = Rules {
        height_elmos: band(120.0, 1000.0, 20.0),
        noise: Some(Breakup {
            seed: 7,
            scale_elmos: 90.0,
            amount: 0.6,
        }),
        ..Rules::default()
    };
    let mut ridge = TextureLayer::new(
        "Ridge",
        Material::Solid {
            color: [200, 40, 40],
        },
    );
    ridge.rules.curvature = Some(Curvature {
        bend: Bend::Ridges,
        min_elmos: 0.5,
        soft_elmos: 0.5,
    });
    let mut sand = TextureLayer::new("Sand", builtin(BuiltinMaterial::Sand));
    sand.rules.near_water = band(0.0, 60.0, 30.0);
    let mut ore = TextureLayer::new(
        "Ore",
        Material::Solid {
            color: [30, 30, 30],
        },
    );
    ore.rules.under_metal = true;
    ore.opacity = 0.5;
    let mut painted = TextureLayer::new("Painted", builtin(BuiltinMaterial::Mud));
    painted.rules.slope_deg = band(0.0, 5.0, 2.0);
    let mut mask = Grid::filled(mw, mh, 128u8);
    for j in 0..mh {
        for i in 0..mw {
            if i < 10 {
                mask.set(i, j, 255);
            } else if j < 6 {
                mask.set(i, j, 0);
            } else if i < 14 {
                mask.set(i, j, 170);
            }
        }
    }
    painted.mask = Some(mask);
    m.texture_layers = vec![rock, snow, ridge, sand, ore, painted];
    m
}

fn max_diff(a: &[Vec<u8>], b: &[Vec<u8>]) -> (u8, usize) {
    let mut worst = (0u8, 0usize);
    for (sa, sb) in a.iter().zip(b) {
        for (i, (&x, &y)) in sa.iter().zip(sb).enumerate() {
            let d = x.abs_diff(y);
            if d > worst.0 {
                worst = (d, i);
            }
        }
    }
    worst
}

fn whole(map: &Map) -> GridRect {
    let (w, h) = map.heights.dims();
    GridRect::new(0, 0, w, h)
}

#[test]
fn the_gpu_rules_agree_with_their_cpu_twin_everywhere() {
    let Some(ctx) = groundwork::test_support::gpu_with_compute() else {
        return;
    };
    let map = varied_map();
    let layouts = Layouts::new(&ctx);
    let scene = MapScene::new(&ctx, &layouts, &map, &mut |_, _| {}).unwrap();
    assert!(scene.ground.on_gpu());
    let gpu = scene.ground.read_weights(&ctx);
    let fields = TerrainFields::new(&map, true);
    let cpu = weights_cpu(&map, &fields, whole(&map));
    assert_eq!(gpu.len(), 2, "six layers take two slices");
    let (d, at) = max_diff(&gpu, &cpu);
    eprintln!("rule evaluation: GPU vs CPU differ by at most {d} level(s) (texel byte {at})");
    assert!(d <= 1, "GPU and CPU weights differ by {d} at byte {at}");
    // every rule selects something and leaves something out, so agreement is not vacuous
    for k in 0..6 {
        let channel: Vec<u8> = cpu[k / 4].iter().skip(k % 4).step_by(4).copied().collect();
        let on = channel.iter().filter(|&&v| v > 200).count();
        let off = channel.iter().filter(|&&v| v < 50).count();
        assert!(on > 0 && off > 0, "layer {k}: {on} on, {off} off");
    }
}

#[test]
fn a_raised_cliff_turns_to_rock_over_the_strokes_rectangle_only() {
    let Some(ctx) = groundwork::test_support::gpu_with_compute() else {
        return;
    };
    let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
    let mut rock = TextureLayer::new("Rock", builtin(BuiltinMaterial::Rock));
    rock.rules.slope_deg = Some(Band {
        min: 40.0,
        max: 90.0,
        soft: 5.0,
    });
    map.texture_layers = vec![rock];
    let layouts = Layouts::new(&ctx);
    let scene = MapScene::new(&ctx, &layouts, &map, &mut |_, _| {}).unwrap();
    let flat = scene.ground.read_weights(&ctx);
    assert!(
        flat[0].iter().step_by(4).all(|&w| w == 0),
        "flat ground is not rock"
    );

    // a stroke raises a block 200 elmos high on the GPU copy of the heights: its sides are
    // cliffs; the document does not know yet (as mid-stroke)
    let rect = GridRect::new(40, 40, 30, 30);
    let mut raised = map.clone();
    for j in 40..70 {
        for i in 40..70 {
            raised.heights.set(i, j, 200.0);
        }
    }
    let values: Vec<f32> = (40..70)
        .flat_map(|j| (40..70).map(move |i| (i, j)))
        .map(|(i, j)| raised.heights.get(i, j))
        .collect();
    scene.write_rect(&ctx, groundwork::edit::LayerId::Heights, rect, &values);
    // a second block far away whose rectangle is not evaluated: its weights must stay
    let far = GridRect::new(100, 100, 20, 20);
    scene.write_rect(&ctx, groundwork::edit::LayerId::Heights, far, &[300.0; 400]);
    scene.ground.evaluate(&ctx, &[rect]);
    let after = scene.ground.read_weights(&ctx);

    let fields = TerrainFields::new(&raised, false);
    let cpu = weights_cpu(&raised, &fields, whole(&raised));
    let (d, at) = max_diff(&after, &cpu);
    assert!(
        d <= 1,
        "after the stroke GPU and CPU differ by {d} at byte {at}"
    );
    let w = raised.heights.width();
    assert_eq!(
        after[0][(100 * w + 100) * 4],
        0,
        "outside the rectangle nothing was evaluated"
    );
    let weight = |i: usize, j: usize| after[0][(j * w + i) * 4];
    // the block's rim is a 200-elmo step over one square: rock; its top and the plain are not
    assert!(
        weight(40, 55) > 250 && weight(69, 55) > 250,
        "the cliff is rock"
    );
    assert_eq!(weight(55, 55), 0, "the block's flat top is not rock");
    assert_eq!(weight(10, 10), 0, "the plain is not rock");
    let rock_vertices = after[0].iter().step_by(4).filter(|&&v| v > 128).count();
    // the rim: the vertices within one of the block's edge (central differences)
    assert!(
        (200..=400).contains(&rock_vertices),
        "{rock_vertices} rock vertices"
    );
}

#[test]
fn sixteen_layers_on_a_32x32_map_fit_the_memory_budget() {
    use groundwork::gpu::ground_layers::GroundLayers;
    use groundwork::gpu::ground_rules::mask_array_texture;
    use groundwork::gpu::shared::{texture_2d, write_texture_rect};
    let Some(ctx) = groundwork::test_support::gpu_with_compute() else {
        return;
    };
    let mut map = Map::new(MapSize::new(32, 32).unwrap(), MapSettings::default());
    let (w, d) = map.heights.dims();
    for j in 0..d {
        for i in 0..w {
            map.heights.set(
                i,
                j,
                ((i as f32 * 0.01).sin() + (j as f32 * 0.013).cos()) * 90.0,
            );
        }
    }
    let (mw, mh) = map.metal.dims();
    let kinds = [
        BuiltinMaterial::Grass,
        BuiltinMaterial::Rock,
        BuiltinMaterial::Sand,
        BuiltinMaterial::Dirt,
    ];
    map.texture_layers = (0..16)
        .map(|k| {
            let mut l = TextureLayer::new(&format!("Layer {k}"), builtin(kinds[k % 4]));
            l.rules.height_elmos = Some(Band {
                min: -100.0 + 12.0 * k as f32,
                max: 200.0,
                soft: 10.0,
            });
            l.mask = Some(Grid::filled(mw, mh, 128u8));
            l.splat_channel = (k < 4).then_some(k as u8);
            l
        })
        .collect();
    // the document's side: the masks
    let cpu_bytes: usize = map
        .texture_layers
        .iter()
        .map(|l| l.mask.as_ref().map_or(0, |m| m.data().len()))
        .sum();
    let usage = wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::STORAGE_BINDING;
    let heights = texture_2d(
        &ctx,
        "heights",
        (w, d),
        wgpu::TextureFormat::R32Float,
        usage,
    );
    write_texture_rect(
        &ctx,
        &heights,
        GridRect::new(0, 0, w, d),
        map.heights.data(),
    );
    let metal = texture_2d(
        &ctx,
        "metal",
        (mw, mh),
        wgpu::TextureFormat::R32Float,
        usage,
    );
    let masks = mask_array_texture(&ctx, &map, true);
    let layouts = Layouts::new(&ctx);
    let ground = GroundLayers::new(&ctx, &layouts, &map, &heights, &metal, &masks);
    let m = masks.size();
    let mask_bytes = m.width as u64 * m.height as u64 * m.depth_or_array_layers as u64 * 4;
    let gpu_bytes = ground.gpu_bytes() + mask_bytes;
    let mib = |b: u64| b as f64 / 1048576.0;
    eprintln!(
        "16 layers on 32x32: GPU {:.0} MiB (masks {:.0} MiB), document masks {:.0} MiB",
        mib(gpu_bytes),
        mib(mask_bytes),
        mib(cpu_bytes as u64)
    );
    assert!(gpu_bytes <= 512 << 20, "GPU {:.0} MiB", mib(gpu_bytes));
    assert!(
        cpu_bytes <= 256 << 20,
        "CPU {:.0} MiB",
        mib(cpu_bytes as u64)
    );
    // and the weights were made: the lowest layer covers the lowest ground
    let weights = ground.read_weights(&ctx);
    assert_eq!(weights.len(), 4);
    assert!(weights[0].iter().step_by(4).any(|&v| v == 255));
}

#[test]
fn without_compute_the_cpu_twin_fills_the_weights_and_follows_the_document() {
    let Some(mut ctx) = groundwork::test_support::gpu_with_compute() else {
        return;
    };
    // as on a GL device without compute shaders
    ctx.compute = false;
    let mut map = varied_map();
    let layouts = Layouts::new(&ctx);
    let mut scene = MapScene::new(&ctx, &layouts, &map, &mut |_, _| {}).unwrap();
    assert!(!scene.ground.on_gpu());
    let fields = TerrainFields::new(&map, true);
    assert_eq!(
        scene.ground.read_weights(&ctx),
        weights_cpu(&map, &fields, whole(&map))
    );
    // the document's heights change (a stroke ended): the rectangle follows
    for j in 60..80 {
        for i in 60..80 {
            map.heights.set(i, j, 250.0);
        }
    }
    let rect = GridRect::new(60, 60, 20, 20);
    scene.write_rect(
        &ctx,
        groundwork::edit::LayerId::Heights,
        rect,
        &[250.0; 400],
    );
    let (h, m, k) = (
        scene.layer(groundwork::edit::LayerId::Heights).clone(),
        scene.layer(groundwork::edit::LayerId::Metal).clone(),
        scene.masks.clone(),
    );
    scene.ground.heights_changed(&ctx, &map, rect, &h, &m, &k);
    let fields = TerrainFields::new(&map, true);
    assert_eq!(
        scene.ground.read_weights(&ctx),
        weights_cpu(&map, &fields, whole(&map))
    );
}

fn channel_diff(
    a: &groundwork::map::GroundTexture,
    b: &groundwork::map::GroundTexture,
) -> (u8, usize) {
    let mut worst = (0u8, 0usize);
    for (i, (&x, &y)) in a.rgba().iter().zip(b.rgba()).enumerate() {
        let d = x.abs_diff(y);
        if d > worst.0 {
            worst = (d, i);
        }
    }
    worst
}

#[test]
fn the_gpu_bake_agrees_with_the_cpu_bake_within_one_level() {
    use groundwork::gpu::bake::{bake_on_gpu, bake_on_gpu_in_chunks};
    use groundwork::map::ground_bake::bake;
    use groundwork::map::ground_layers::material_images;
    let Some(ctx) = groundwork::test_support::gpu_with_compute() else {
        return;
    };
    let mut map = varied_map();
    // a picture that is not the same everywhere, and a tint
    let (tw, th) = (map.texture.width(), map.texture.height());
    let rgba: Vec<u8> = (0..tw * th)
        .flat_map(|i| {
            let (x, y) = (i % tw, i / tw);
            [(x / 4) as u8, (y / 4) as u8, ((x + y) / 8) as u8, 255]
        })
        .collect();
    map.texture = groundwork::map::GroundTexture::from_rgba(tw, th, rgba).unwrap();
    if let Material::Builtin { tint, .. } = &mut map.texture_layers[1].material {
        *tint = [0.9, 1.0, 1.1];
    }
    map.texture_layers[0].opacity = 0.8;
    let images = material_images(&map.texture_layers, &|_| Err("no pictures".into())).unwrap();
    let cpu = bake(&map, &images);
    let gpu = bake_on_gpu(&ctx, &map, &images).unwrap();
    let (d, at) = channel_diff(&cpu, &gpu);
    eprintln!("bake: GPU vs CPU differ by at most {d} level(s) (byte {at})");
    assert!(d <= 1, "the bakes differ by {d} at byte {at}");
    assert!(cpu != map.texture, "the stack changed the picture");
    // small chunks (37 rows: seams inside squares and metal cells) give the same texture
    let chunked = bake_on_gpu_in_chunks(&ctx, &map, &images, 37).unwrap();
    assert!(chunked == gpu, "chunks change the bake");
    // a layer painted only in the north-west corner stays there: no axis is flipped
    let mut corner = map.clone();
    let (mw, mh) = corner.metal.dims();
    let mut mask = Grid::filled(mw, mh, 0u8);
    for j in 0..mh / 4 {
        for i in 0..mw / 8 {
            mask.set(i, j, 255);
        }
    }
    let mut l = TextureLayer::new(
        "Corner",
        Material::Solid {
            color: [255, 0, 255],
        },
    );
    l.mask = Some(mask);
    corner.texture_layers = vec![l];
    let images = material_images(&corner.texture_layers, &|_| Err("none".into())).unwrap();
    let g = bake_on_gpu_in_chunks(&ctx, &corner, &images, 100).unwrap();
    let px = |x: usize, y: usize| &g.rgba()[(y * tw + x) * 4..(y * tw + x) * 4 + 3];
    assert_eq!(px(10, 10), &[255, 0, 255], "north-west is painted");
    assert_ne!(px(tw - 10, 10), &[255, 0, 255], "north-east is not");
    assert_ne!(px(10, th - 10), &[255, 0, 255], "south-west is not");
    assert!(channel_diff(&bake(&corner, &images), &g).0 <= 1);
}

#[test]
fn no_layers_bake_to_the_picture_without_the_gpu() {
    use groundwork::gpu::bake::bake_on_gpu;
    let Some(mut ctx) = groundwork::test_support::gpu_with_compute() else {
        return;
    };
    ctx.compute = false;
    let map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
    assert!(bake_on_gpu(&ctx, &map, &[]).unwrap() == map.texture);
}
