//! Maps the compiler writes, as the engine sees them: unitsync (validate_map.py) must report
//! exactly the heights, metal, grass, types, start positions, features and height range we
//! wrote, for several sizes including non-square ones; spring-headless must agree on one.

mod common;

use std::path::Path;

use groundwork::map::{Feature, Map, MapSettings, MapSize, Team, TerrainType};
use serde_json::json;

/// A map with every layer patterned, so a misplaced byte shows.
fn patterned_map(w_units: u32, h_units: u32, name: &str) -> Map {
    let size = MapSize::new(w_units, h_units).unwrap();
    let mut s = MapSettings {
        name: name.into(),
        version: "1.0".into(),
        description: "compiler test".into(),
        max_metal: 1.5,
        extractor_radius_elmos: 85.0,
        min_height_elmos: -120.0,
        max_height_elmos: 530.0,
        ..MapSettings::default()
    };
    s.terrain_types.insert(1, TerrainType::named("Sand"));
    s.terrain_types.insert(7, TerrainType::named("Rock"));
    let mut m = Map::new(size, s);
    let (hw, hh) = m.heights.dims();
    for z in 0..hh {
        for x in 0..hw {
            let (fx, fz) = (x as f32 / hw as f32, z as f32 / hh as f32);
            let h =
                -100.0 + 600.0 * fx * fz + 40.0 * (x as f32 * 0.09).sin() * (z as f32 * 0.05).cos();
            m.heights.set(x, z, h);
        }
    }
    let (mw, mh) = m.metal.dims();
    for z in 0..mh {
        for x in 0..mw {
            m.metal.set(
                x,
                z,
                if (x / 9 + z / 7) % 5 == 0 {
                    ((x * 3 + z) % 255) as u8
                } else {
                    0
                },
            );
            m.types.set(x, z, [0u8, 1, 7][(x / 13 + z / 17) % 3]);
        }
    }
    let (gw, gh) = m.grass.dims();
    for z in 0..gh {
        for x in 0..gw {
            m.grass.set(x, z, ((x * 7 + z * 3) % 255) as u8);
        }
    }
    let tw = m.texture.width();
    for (i, px) in m.texture.rgba_mut().chunks_exact_mut(4).enumerate() {
        let (x, y) = (i % tw, i / tw);
        px.copy_from_slice(&[
            (x / 3 % 256) as u8,
            (y / 5 % 256) as u8,
            ((x ^ y) % 256) as u8,
            255,
        ]);
    }
    let (we, de) = (size.width_elmos(), size.depth_elmos());
    m.teams = vec![
        Team {
            start_x_elmos: 300.0,
            start_z_elmos: 400.0,
        },
        Team {
            start_x_elmos: we - 300.0,
            start_z_elmos: de - 400.0,
        },
        Team {
            start_x_elmos: we / 2.0,
            start_z_elmos: 123.5,
        },
    ];
    m.features = vec![
        Feature {
            name: "GeoVent".into(),
            x_elmos: 512.0,
            z_elmos: 512.0,
            rotation_deg: 0.0,
        },
        Feature {
            name: "TreeType3".into(),
            x_elmos: 200.0,
            z_elmos: 700.0,
            rotation_deg: 90.0,
        },
        Feature {
            name: "TreeType3".into(),
            x_elmos: 260.0,
            z_elmos: 720.0,
            rotation_deg: -45.0,
        },
    ];
    m
}

/// Saves `map` as a project, compiles it with the CLI to `out`, and returns the archive path.
fn compile_via_cli(map: &Map, dir: &Path, out_name: &str) -> std::path::PathBuf {
    let project = dir.join(format!("{out_name}.project"));
    groundwork::formats::save_project(map, &project).unwrap();
    let out = dir.join(out_name);
    common::compile_project(&project, &out);
    out
}

/// Checks everything unitsync reports against the document.
fn check_engine_sees(map: &Map, archive: &Path) {
    let dump = tempfile::tempdir().unwrap();
    let words = map.height_words();
    let (hw, hh) = map.heights.dims();
    let mut samples = serde_json::Map::new();
    for (x, z) in [(0, 0), (hw / 2, hh / 2), (hw / 4, hh / 2), (hw / 4, hh / 4)] {
        samples.insert(format!("{x},{z}"), json!(words[z * hw + x]));
    }
    let mut expect = common::engine_expectation(map);
    expect["versioned_name"] = json!(map.settings.versioned_name());
    expect["height_sum"] = json!(words.iter().map(|&w| w as u64).sum::<u64>());
    expect["grass_sum"] = json!(map.grass.data().iter().map(|&b| b as u64).sum::<u64>());
    expect["mapx"] = json!(map.size.squares_x());
    expect["height_u16_samples"] = json!(samples);
    let v = common::validate_map(archive, Some(&expect), Some(dump.path()));
    assert_eq!(v["lint_ok"], true, "lint: {}", v["lint"]);
    // the wind BAR's lobby shows is unitsync's, which has no defaults of its own: the engine's
    // (5..25) unless the map sets it
    let info = &v["unitsync"]["mapInfo"];
    let a = &map.settings.atmosphere;
    assert_eq!(
        info["minWind"].as_f64(),
        Some(a.min_wind_or_default() as f64),
        "{info}"
    );
    assert_eq!(
        info["maxWind"].as_f64(),
        Some(a.max_wind_or_default() as f64),
        "{info}"
    );
    assert!(v["expect"].as_array().unwrap().len() >= 12);
    // and byte for byte, every grid
    assert_eq!(
        common::words(&common::dumped(dump.path(), "height_")),
        words,
        "heights"
    );
    assert_eq!(
        common::dumped(dump.path(), "metal_"),
        map.metal.data(),
        "metal"
    );
    assert_eq!(
        common::dumped(dump.path(), "type_"),
        map.types.data(),
        "types"
    );
    assert_eq!(
        common::dumped(dump.path(), "grass_"),
        map.grass.data(),
        "grass"
    );
    let feats = &v["smf_features"];
    assert_eq!(feats["count"], map.features.len());
    let types: Vec<String> = serde_json::from_value(feats["types"].clone()).unwrap();
    assert_eq!(
        types.len(),
        17,
        "the 17 built-in types, and TreeType3/GeoVent are among them"
    );
    for (rec, f) in feats["records"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&map.features)
    {
        assert_eq!(types[rec[0].as_u64().unwrap() as usize], f.name);
        assert_eq!(rec[1].as_f64().unwrap() as f32, f.x_elmos);
        assert_eq!(rec[3].as_f64().unwrap() as f32, f.z_elmos);
    }
}

#[test]
fn maps_of_several_sizes_load_exactly_as_written() {
    if common::referee_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (w, h, ext) in [(2, 2, "sd7"), (4, 2, "sdz"), (2, 6, "sdd"), (8, 8, "sd7")] {
        let mut map = patterned_map(w, h, &format!("Pattern {w}x{h}"));
        if w == 4 {
            // a map's own wind is kept (whole numbers: unitsync reports wind as integers)
            map.settings.atmosphere.min_wind = Some(2.0);
            map.settings.atmosphere.max_wind = Some(18.0);
        }
        let archive = compile_via_cli(&map, dir.path(), &format!("pattern_{w}x{h}.{ext}"));
        check_engine_sees(&map, &archive);
    }
}

#[test]
fn the_engine_agrees_on_every_height_and_metal_cell() {
    if common::referee_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let map = patterned_map(4, 2, "Engine Probe");
    let archive = compile_via_cli(&map, dir.path(), "engine_probe.sd7");
    let r = common::run_engine(&archive, &["--compare"]);
    let c = &r["compare"];
    assert!(c["height_max_abs_diff"].as_f64().unwrap() < 1e-2, "{c}");
    assert_eq!(c["metal_pattern_identical"], true, "{c}");
    let ratio = c["metal_engine_over_raw_ratio (=maxMetal)"]
        .as_f64()
        .unwrap();
    assert!(
        (ratio - 1.5).abs() < 1e-3,
        "maxMetal the engine uses: {ratio}"
    );
    // the probe plays teams 0 and 1 (and Gaia), placed where mapinfo says once the game runs
    let starts = r["probe"]["frame1"]["starts"].as_array().unwrap();
    for (team, t) in map.teams.iter().take(2).enumerate() {
        let s = starts
            .iter()
            .find(|s| s[0] == team)
            .unwrap_or_else(|| panic!("team {team}: {starts:?}"));
        assert_eq!(s[1].as_f64().unwrap() as f32, t.start_x_elmos);
        assert_eq!(s[3].as_f64().unwrap() as f32, t.start_z_elmos);
    }
    let game = &r["probe"]["load"]["game"];
    assert_eq!(game["mapSizeX"], "2048");
    assert!(game["extractorRadius"].as_str().unwrap().starts_with("85."));
}

#[test]
fn compiling_twice_gives_identical_archives() {
    let dir = tempfile::tempdir().unwrap();
    let map = patterned_map(2, 2, "Twice");
    for ext in ["sd7", "sdz"] {
        let a = compile_via_cli(&map, dir.path(), &format!("a.{ext}"));
        let b = compile_via_cli(&map, dir.path(), &format!("b.{ext}"));
        assert_eq!(
            std::fs::read(a).unwrap(),
            std::fs::read(b).unwrap(),
            "{ext}"
        );
    }
}

#[test]
fn a_cancelled_compile_leaves_nothing_behind() {
    use groundwork::compile::{CompileOptions, Progress, Stage, compile_map};
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let map = patterned_map(4, 4, "Cancelled");
    for (cancel_at, ext) in [
        (Stage::Tiles, "sd7"),
        (Stage::Minimap, "sdz"),
        (Stage::Pack, "sdd"),
        (Stage::Pack, "sd7"),
    ] {
        let cancel = AtomicBool::new(false);
        let stages = std::sync::Mutex::new(Vec::new());
        let report = |stage: Stage, done: u64, total: u64| {
            stages.lock().unwrap().push((stage, done, total));
            if stage == cancel_at && done * 2 >= total {
                cancel.store(true, Ordering::Relaxed);
            }
        };
        let out = dir.path().join(format!("c.{ext}"));
        let r = compile_map(
            &map,
            &out,
            &CompileOptions::default(),
            &Progress::new(&report, &cancel),
        );
        assert!(
            matches!(r, Err(groundwork::formats::FormatError::Cancelled)),
            "{cancel_at:?}: {r:?}"
        );
        assert!(!out.exists());
        let seen = stages.lock().unwrap();
        assert!(seen.iter().all(|&(_, d, t)| d <= t));
        assert!(seen.iter().any(|&(s, _, _)| s == cancel_at));
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "temporary files left"
    );
    // and progress runs through every stage in order on a full compile
    let seen = std::sync::Mutex::new(Vec::new());
    let report = |stage: Stage, _: u64, _: u64| {
        let mut s = seen.lock().unwrap();
        if s.last() != Some(&stage) {
            s.push(stage);
        }
    };
    let never = AtomicBool::new(false);
    compile_map(
        &map,
        &dir.path().join("ok.sdz"),
        &CompileOptions::default(),
        &Progress::new(&report, &never),
    )
    .unwrap();
    assert_eq!(*seen.lock().unwrap(), Stage::ALL.to_vec());
}
