//! The pathing overlay on the GPU against its CPU twin (`codes_rect`) for every BAR class under
//! both height rules, what it must show on the 40 degree wall map (tanks blocked on the wall,
//! bots over it, hovers across the sea, tanks stopped by it), and that it follows a stroke live
//! over the stroke's rectangle only, before the document knows the new heights.

use groundwork::analyze::ground::HeightRule;
use groundwork::analyze::move_class::bar_classes;
use groundwork::analyze::passability::{WaterRules, codes_rect};
use groundwork::edit::tools::ToolSettings;
use groundwork::edit::{GridRect, LayerId, Session};
use groundwork::gpu::pathing::PathingChoice;
use groundwork::gpu::shared::Layouts;
use groundwork::gpu::{BrushKernels, GpuContext, MapScene, SceneLayers};
use groundwork::map::{Grid, Map};

fn choice(name: &str, rule: HeightRule) -> PathingChoice {
    PathingChoice {
        class: bar_classes().into_iter().find(|c| c.name == name).unwrap(),
        water: WaterRules::for_damage(0.0),
        rule,
    }
}

/// The wall map's heights, with a few rough patches so every slope size occurs.
fn rough_wall() -> Map {
    let mut m = groundwork::test_support::wall_map();
    let (w, h) = m.heights.dims();
    for z in 0..h {
        for x in 0..w {
            if (x / 40 + z / 40) % 3 == 0 {
                let v = m.heights.get(x, z) + ((x * 7 + z * 13) % 11) as f32 * 1.7;
                m.heights.set(x, z, v);
            }
        }
    }
    m
}

#[test]
fn the_gpu_codes_agree_with_their_cpu_twin_for_every_class_and_rule() {
    let Some(ctx) = groundwork::test_support::gpu_with_compute() else {
        return;
    };
    let map = rough_wall();
    let layouts = Layouts::new(&ctx);
    let mut scene = MapScene::new(&ctx, &layouts, &map, &mut |_, _| {}).unwrap();
    assert!(scene.pathing.on_gpu());
    let (mx, mz) = scene.pathing.squares;
    let mut classes_seen = 0;
    for rule in [HeightRule::HighestCorner, HeightRule::CellMean] {
        for class in bar_classes() {
            let c = PathingChoice {
                class: class.clone(),
                water: WaterRules::for_damage(0.0),
                rule,
            };
            scene.pathing.set_choice(&ctx, &map, Some(c.clone()));
            let got = scene.pathing.read_codes(&ctx).unwrap();
            let want = codes_rect(&map.heights, &c.class, c.water, rule, 0, 0, mx, mz);
            let mut worst = 0.0f32;
            let mut flips = 0;
            for (a, b) in got.iter().zip(&want) {
                if (*a > 0.0) != (*b > 0.0) || (*a < -0.5) != (*b < -0.5) {
                    flips += 1;
                } else {
                    worst = worst.max((a - b).abs());
                }
            }
            assert!(
                worst < 1e-4 && flips == 0,
                "{} {rule:?}: {flips} squares differ in state, speeds by up to {worst}",
                class.name
            );
            classes_seen += 1;
        }
    }
    eprintln!("{classes_seen} class x rule overlays: GPU = CPU twin on all {mx} x {mz} squares");
}

#[test]
fn the_wall_stops_tanks_lets_bots_over_and_hovers_round_by_sea() {
    let Some(ctx) = groundwork::test_support::gpu_with_compute() else {
        return;
    };
    let map = groundwork::test_support::wall_map();
    let layouts = Layouts::new(&ctx);
    let mut scene = MapScene::new(&ctx, &layouts, &map, &mut |_, _| {}).unwrap();
    let (mx, _) = scene.pathing.squares;
    let mut codes_of = |name: &str| {
        scene
            .pathing
            .set_choice(&ctx, &map, Some(choice(name, HeightRule::HighestCorner)));
        scene.pathing.read_codes(&ctx).unwrap()
    };
    let at = |codes: &[f32], x_elmos: f32, z_elmos: f32| {
        codes[(z_elmos / 8.0) as usize * mx + (x_elmos / 8.0) as usize]
    };
    let (tank, bot, hover) = (codes_of("TANK2"), codes_of("BOT3"), codes_of("HOVER2"));
    // on the wall's face, half way up
    let face = (2048.0 - 80.0, 600.0);
    assert_eq!(
        at(&tank, face.0, face.1),
        0.0,
        "the wall is too steep for tanks"
    );
    let b = at(&bot, face.0, face.1);
    assert!(b > 0.0 && b < 1.0, "bots climb it, slowed: {b}");
    assert_eq!(at(&hover, face.0, face.1), 0.0, "hovers do not climb it");
    // the sea past the wall's end, 100 elmos deep
    let sea = (2048.0, 1900.0);
    assert_eq!(
        at(&tank, sea.0, sea.1),
        -1.0,
        "the sea is too deep for tanks"
    );
    assert_eq!(at(&hover, sea.0, sea.1), 1.0, "hovers cross the sea");
    // the plain by each start
    for p in [(800.0, 600.0), (3296.0, 600.0)] {
        assert_eq!(at(&tank, p.0, p.1), 1.0);
        assert_eq!(at(&bot, p.0, p.1), 1.0);
    }
}

#[test]
fn the_overlay_follows_a_stroke_live_over_its_rectangle_only() {
    let Some(ctx) = groundwork::test_support::gpu_with_compute() else {
        return;
    };
    let kernels = BrushKernels::new(&ctx).expect("compute");
    let map = groundwork::test_support::wall_map();
    let layouts = Layouts::new(&ctx);
    let mut scene = MapScene::new(&ctx, &layouts, &map, &mut |_, _| {}).unwrap();
    let c = choice("TANK2", HeightRule::HighestCorner);
    scene.pathing.set_choice(&ctx, &map, Some(c.clone()));
    let before = scene.pathing.read_codes(&ctx).unwrap();
    let (mx, mz) = scene.pathing.squares;

    // a raise stroke on the plain by start 1: steep sides appear mid-stroke
    let mut s = Session::new(map.clone());
    let raise = groundwork::edit::tools::find("raise").unwrap();
    let mut set = ToolSettings::defaults(raise);
    set.brush.radius_elmos = 64.0;
    set.brush.strength = 1.0;
    let mut layers = SceneLayers {
        ctx: &ctx,
        kernels: Some(&kernels),
        scene: &mut scene,
    };
    s.begin_stroke(raise, set, false, [1000.0, 800.0], Some(&mut layers))
        .unwrap();
    for k in 0..30 {
        s.stroke_to([1000.0, 800.0 + 4.0 * k as f32], 0.05, Some(&mut layers))
            .unwrap();
    }
    assert_eq!(s.map().heights, map.heights, "the document waits");
    let live = layers.scene.pathing.read_codes(&ctx).unwrap();
    // what the CPU twin says of the heights on the GPU now
    let (vw, vh) = map.heights.dims();
    let gpu_heights = layers
        .scene
        .read_rect(&ctx, LayerId::Heights, GridRect::new(0, 0, vw, vh))
        .unwrap();
    let gpu_heights = Grid::from_vec(vw, vh, gpu_heights).unwrap();
    let want = codes_rect(&gpu_heights, &c.class, c.water, c.rule, 0, 0, mx, mz);
    let changed: Vec<usize> = (0..before.len())
        .filter(|&i| live[i] != before[i])
        .collect();
    assert!(!changed.is_empty(), "the stroke changed the overlay live");
    let blocked_now = changed.iter().filter(|&&i| live[i] == 0.0).count();
    assert!(blocked_now > 0, "the raised bump's sides block tanks");
    for (i, (a, b)) in live.iter().zip(&want).enumerate() {
        assert!(
            (a - b).abs() < 1e-4,
            "square {i}: live {a}, the twin of the GPU heights {b}"
        );
    }
    // every change lies within the brush's reach of the path (the stroke's rectangle)
    for &i in &changed {
        let (x, z) = ((i % mx) as f32 * 8.0 + 4.0, (i / mx) as f32 * 8.0 + 4.0);
        let d = (x - 1000.0).abs().max((z - z.clamp(800.0, 916.0)).abs());
        assert!(
            d < 64.0 + 40.0,
            "square at {x}, {z} changed, far from the stroke"
        );
    }
    s.end_stroke([1000.0, 916.0], Some(&mut layers)).unwrap();
    // and an undo brings the overlay back with the heights
    s.undo(Some(&mut layers)).unwrap();
    let undone = layers.scene.pathing.read_codes(&ctx).unwrap();
    assert_eq!(undone, before, "undo restores the overlay");
}

#[test]
fn without_compute_the_cpu_twin_fills_the_overlay() {
    // the same scene on any adapter: the CPU path uploads what the twin computes
    let ctx = match GpuContext::headless() {
        Ok(c) => c,
        Err(e) => {
            groundwork::test_support::skip(&format!("no GPU adapter ({e})"));
            return;
        }
    };
    let map = groundwork::test_support::wall_map();
    let layouts = Layouts::new(&ctx);
    let mut scene = MapScene::new(&ctx, &layouts, &map, &mut |_, _| {}).unwrap();
    let c = choice("BOT3", HeightRule::HighestCorner);
    scene.pathing.set_choice(&ctx, &map, Some(c.clone()));
    let (mx, mz) = scene.pathing.squares;
    let all = GridRect::new(0, 0, mx, mz);
    // the CPU twin's upload, whatever the device: same codes as the kernel's
    let gpu = scene.pathing.read_codes(&ctx).unwrap();
    scene.pathing.evaluate_cpu(&ctx, &map, all);
    let cpu = scene.pathing.read_codes(&ctx).unwrap();
    let worst = gpu
        .iter()
        .zip(&cpu)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(worst < 1e-4, "{worst}");
    assert!(cpu.contains(&1.0) && cpu.contains(&-1.0));
}
