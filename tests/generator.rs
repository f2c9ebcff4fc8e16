//! The generator. Every preset makes a 12x12 4-player rotate-4 map that lints without errors,
//! compiles, loads in unitsync and in the engine, has heights symmetric to the 16-bit word, and
//! gives every team the same income within 1000 and 2000 elmos (within 1%) from at least 6
//! spots within 2000. The GPU runs the height steps as the CPU twin does, and symmetric too.
//! `groundwork new --terrain/--seed/--recipe` writes the same bytes every run, another seed
//! another map, and a bad request is one line and no files.

mod common;

use std::path::Path;
use std::process::Command;

use groundwork::edit::GpuLayers;
use groundwork::edit::generate::{generate, placement};
use groundwork::edit::new_map::{NewMap, new_map_generated};
use groundwork::gpu::{BrushKernels, GpuContext, MapScene, Renderer, SceneLayers};
use groundwork::map::recipe::{Preset, Recipe, Step};
use groundwork::map::{Map, SymmetryMode};

fn groundwork(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(args)
        .output()
        .expect("run groundwork")
}

fn spec(size: u32, players: u32, mode: SymmetryMode, recipe: Recipe) -> NewMap {
    NewMap {
        width_units: size,
        depth_units: size,
        players,
        symmetry: mode,
        name: "Generated".into(),
        recipe: Some(recipe),
        ..NewMap::default()
    }
}

/// The cells whose word differs from the word at their quarter-turned place.
fn rotate4_mismatches(map: &Map) -> usize {
    let words = map.height_words();
    let (w, d) = map.heights.dims();
    assert_eq!(w, d);
    let n = w - 1;
    let at = |x: usize, z: usize| words[z * w + x];
    let mut bad = 0;
    for z in 0..d {
        for x in 0..w {
            // a quarter turn about the centre: (x, z) -> (n - z, x)
            if at(x, z) != at(n - z, x) {
                bad += 1;
            }
        }
    }
    bad
}

fn spread(v: &[f32]) -> f32 {
    let hi = v.iter().copied().fold(f32::MIN, f32::max);
    let lo = v.iter().copied().fold(f32::MAX, f32::min);
    (hi - lo) / hi.max(1e-6)
}

fn preset_makes_a_fair_map(preset: Preset) {
    let s = spec(12, 4, SymmetryMode::Rotate(4), Recipe::preset(preset, 7));
    let (map, outcome) = new_map_generated(&s).unwrap();
    assert!(outcome.notes.is_empty(), "{preset}: {:?}", outcome.notes);
    assert_eq!(map.teams.len(), 4);
    assert_eq!(
        rotate4_mismatches(&map),
        0,
        "{preset}: heights not symmetric"
    );
    let (lo, hi) = map.heights.min_max();
    assert!(hi - lo > 60.0, "{preset}: only {lo}..{hi} of relief");
    if preset.has_sea() {
        assert!(lo < -20.0, "{preset} has a sea: lowest {lo}");
    } else {
        assert!(lo > 0.0, "{preset} has no sea: lowest {lo}");
    }
    // every start on dry, buildable ground
    for t in &map.teams {
        let p = [t.start_x_elmos, t.start_z_elmos];
        assert!(
            map.height_at(p[0], p[1]) > 10.0,
            "{preset}: start {p:?} wet"
        );
        let slope = placement::steepest_slope(&map.heights, p, 160.0);
        assert!(
            slope <= placement::build_max_slope(),
            "{preset}: start {p:?} slope {slope}"
        );
    }
    let near = placement::team_spots(&map, 2000.0);
    assert!(
        near.iter().all(|&n| n >= 6),
        "{preset}: spots within 2000: {near:?}"
    );
    for r in [1000.0, 2000.0] {
        let inc = placement::team_income(&map, r);
        assert!(
            inc.iter().all(|&v| v > 0.0),
            "{preset}: income within {r}: {inc:?}"
        );
        assert!(spread(&inc) <= 0.01, "{preset}: income within {r}: {inc:?}");
    }
    let report = map.metal_report();
    assert!(
        report.warnings.is_empty(),
        "{preset}: {:?}",
        report.warnings
    );

    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("Gen");
    groundwork::formats::save_project(&map, &project).unwrap();
    assert!(project.join("generator.toml").is_file());
    let lint = groundwork(&["lint", project.to_str().unwrap()]);
    assert!(
        lint.status.success(),
        "{preset}: lint found errors: {}{}",
        String::from_utf8_lossy(&lint.stdout),
        String::from_utf8_lossy(&lint.stderr)
    );
    let back = groundwork::formats::load_project(&project).unwrap().map;
    assert_eq!(
        back.generator, map.generator,
        "the recipe comes back from map.toml"
    );
    if common::referee_or_skip().is_none() {
        return;
    }
    let out = dir.path().join("gen.sd7");
    common::compile_project(&project, &out);
    common::validate_map(&out, Some(&common::engine_expectation(&back)), None);
    let r = common::run_engine(&out, &[]);
    let fatal = r["engine_fatal"].as_array().map_or(0, Vec::len);
    assert_eq!(fatal, 0, "{preset}: {}", r["engine_fatal"]);
    assert_eq!(
        r["probe"]["load"]["features"], 4,
        "{preset}: the four vents"
    );
}

#[test]
fn continental_makes_a_fair_symmetric_map_the_engine_loads() {
    preset_makes_a_fair_map(Preset::Continental);
}

#[test]
fn islands_makes_a_fair_symmetric_map_the_engine_loads() {
    preset_makes_a_fair_map(Preset::Islands);
}

#[test]
fn canyon_makes_a_fair_symmetric_map_the_engine_loads() {
    preset_makes_a_fair_map(Preset::Canyon);
}

#[test]
fn hills_makes_a_fair_symmetric_map_the_engine_loads() {
    preset_makes_a_fair_map(Preset::Hills);
}

#[test]
fn plateaus_makes_a_fair_symmetric_map_the_engine_loads() {
    preset_makes_a_fair_map(Preset::Plateaus);
}

#[test]
fn valley_lane_makes_a_fair_symmetric_map_the_engine_loads() {
    preset_makes_a_fair_map(Preset::ValleyLane);
}

#[test]
fn every_symmetry_mode_gets_symmetric_starts_metal_and_ground() {
    for (mode, players) in [
        (SymmetryMode::MirrorX, 2),
        (SymmetryMode::MirrorXZ, 4),
        (SymmetryMode::Diagonal, 2),
        (SymmetryMode::AntiDiagonal, 2),
        (SymmetryMode::Rotate(2), 2),
        (SymmetryMode::Rotate(3), 3),
    ] {
        let mut r = Recipe::preset(Preset::Hills, 5);
        // erosion is the slow part and the preset tests cover it
        r.steps
            .retain(|s| !matches!(s, Step::ThermalErosion(_) | Step::HydraulicErosion(_)));
        let (map, _) = new_map_generated(&spec(8, players, mode, r)).unwrap();
        let isos = groundwork::edit::symmetry::images(mode, 4096.0, 4096.0);
        // the ground: each vertex against its copies (to the word for the exact modes)
        let words = map.height_words();
        let (w, _) = map.heights.dims();
        let exact = !matches!(mode, SymmetryMode::Rotate(3));
        let mut worst = 0i32;
        for z in (0..w).step_by(7) {
            for x in (0..w).step_by(5) {
                for iso in &isos {
                    let q = iso.apply([x as f32, z as f32].map(|v| v * 8.0));
                    let (qx, qz) = ((q[0] / 8.0).round(), (q[1] / 8.0).round());
                    if qx < 0.0 || qz < 0.0 || qx >= w as f32 || qz >= w as f32 {
                        // a turn by a third takes corners off the map
                        continue;
                    }
                    let (qx, qz) = (qx as usize, qz as usize);
                    let d = words[z * w + x] as i32 - words[qz * w + qx] as i32;
                    worst = worst.max(d.abs());
                }
            }
        }
        if exact {
            assert_eq!(worst, 0, "{mode}");
        }
        let inc = placement::team_income(&map, 2000.0);
        assert!(spread(&inc) <= 0.01, "{mode}: {inc:?}");
        assert!(
            map.metal_report().spots.len() >= 6 * players as usize,
            "{mode}"
        );
    }
}

#[test]
fn the_gpu_runs_the_height_steps_as_the_cpu_twin_does() {
    let ctx = match GpuContext::headless() {
        Ok(c) => c,
        Err(e) => {
            groundwork::test_support::skip(&format!("no GPU adapter ({e})"));
            return;
        }
    };
    if !ctx.compute {
        groundwork::test_support::skip(&format!("{} has no compute shaders", ctx.describe()));
        return;
    }
    let kernels = BrushKernels::new(&ctx).expect("compute");
    let renderer = Renderer::new(&ctx);
    for preset in Preset::ALL {
        let mut recipe = Recipe::preset(preset, 11);
        if preset != Preset::Canyon {
            // erosion once, on one preset: it is slow on a software GPU
            recipe
                .steps
                .retain(|s| !matches!(s, Step::ThermalErosion(_) | Step::HydraulicErosion(_)));
        }
        let s = spec(
            4,
            4,
            SymmetryMode::Rotate(4),
            Recipe {
                seed: 0,
                steps: vec![],
            },
        );
        let (base, _) = new_map_generated(&NewMap { recipe: None, ..s }).unwrap();
        let mut cpu = base.clone();
        generate(&mut cpu, &recipe, None).unwrap();
        let mut gpu = base.clone();
        let mut scene = MapScene::new(&ctx, &renderer.layouts, &gpu, &mut |_, _| {}).unwrap();
        let mut layers = SceneLayers {
            ctx: &ctx,
            kernels: Some(&kernels),
            scene: &mut scene,
        };
        let out = generate(&mut gpu, &recipe, Some(&mut layers as &mut dyn GpuLayers)).unwrap();
        assert!(out.on_gpu);
        let (a, b) = (cpu.heights.data(), gpu.heights.data());
        let mut worst = 0.0f32;
        let mut sum = 0.0f64;
        for (x, y) in a.iter().zip(b) {
            worst = worst.max((x - y).abs());
            sum += (x - y).abs() as f64;
        }
        let mean = sum / a.len() as f64;
        let eroded = preset == Preset::Canyon;
        let (max_ok, mean_ok) = if eroded { (8.0, 0.3) } else { (0.5, 0.01) };
        assert!(
            worst <= max_ok && mean <= mean_ok,
            "{preset}: GPU and CPU differ by up to {worst} elmos, {mean} on average"
        );
        assert_eq!(
            rotate4_mismatches(&gpu),
            0,
            "{preset}: the GPU's heights not symmetric"
        );
    }
}

/// Every file under `dir`, relative path and bytes, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            let rel = p.file_name().unwrap().to_string_lossy().into_owned();
            out.push((rel, std::fs::read(&p).unwrap()));
        }
    }
    out.sort();
    out
}

#[test]
fn new_with_a_seed_writes_the_same_bytes_and_another_seed_another_map() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, seed: &str| {
        let out = dir.path().join(name);
        let r = groundwork(&[
            "new",
            out.to_str().unwrap(),
            "--size",
            "6x6",
            "--players",
            "2",
            "--symmetry",
            "mirror-x",
            "--terrain",
            "islands",
            "--seed",
            seed,
            "--sea-level",
            "90",
        ]);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let stdout = String::from_utf8_lossy(&r.stdout).into_owned();
        assert!(stdout.contains("islands, seed"), "{stdout}");
        tree(&out)
    };
    let (a, b, c) = (run("A", "3"), run("B", "3"), run("C", "4"));
    assert!(a == b, "two runs with seed 3 wrote different files");
    let height =
        |t: &[(String, Vec<u8>)]| t.iter().find(|(p, _)| p == "height.png").unwrap().1.clone();
    assert_ne!(
        height(&a),
        height(&c),
        "seed 4 made the same ground as seed 3"
    );
    let recipe = String::from_utf8_lossy(&a.iter().find(|(p, _)| p == "generator.toml").unwrap().1)
        .into_owned();
    let r = Recipe::from_toml(&recipe).unwrap();
    assert_eq!(r.seed, 3);
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Coast(c) if c.sea_level_elmos == 90.0)),
        "{recipe}"
    );
    // the recipe file makes the same map again
    let again = dir.path().join("D");
    let recipe_path = dir.path().join("recipe.toml");
    std::fs::write(&recipe_path, &recipe).unwrap();
    let rr = groundwork(&[
        "new",
        again.to_str().unwrap(),
        "--size",
        "6x6",
        "--players",
        "2",
        "--symmetry",
        "mirror-x",
        "--recipe",
        recipe_path.to_str().unwrap(),
    ]);
    assert!(
        rr.status.success(),
        "{}",
        String::from_utf8_lossy(&rr.stderr)
    );
    assert_eq!(height(&tree(&again)), height(&a));
}

#[test]
fn an_impossible_generator_request_is_one_line_and_no_files() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("typo.toml");
    std::fs::write(&typo, "[[steps]]\nstep = \"noise\"\namplitude = 3\n").unwrap();
    for (args, want) in [
        (
            vec![
                "--players",
                "3",
                "--symmetry",
                "mirror-x",
                "--terrain",
                "hills",
            ],
            "multiple of 2",
        ),
        (vec!["--terrain", "marsh"], "valley-lane"),
        (vec!["--recipe", typo.to_str().unwrap()], "amplitude"),
        (vec!["--size", "13x12", "--seed", "1"], "even number"),
    ] {
        let out = dir.path().join("Bad");
        let mut all = vec!["new", out.to_str().unwrap()];
        all.extend_from_slice(&args);
        let r = groundwork(&all);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{args:?} was accepted");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} left files");
    }
}
