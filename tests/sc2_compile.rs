//! Imported SC2 maps compiled and checked by the engine: unitsync (validate_map.py) for every
//! fixture, and the running engine (run_engine.py) for Simple64's heights, slopes, chasm type,
//! metal and vents.

mod common;
mod sc2_support;

use groundwork::compile::{CompileOptions, Progress, compile_map};
use groundwork::import::sc2::Sc2Options;
use groundwork::map::Map;

fn compile(map: &Map, dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let out = dir.join(format!("{name}.sd7"));
    compile_map(map, &out, &CompileOptions::default(), &Progress::none()).unwrap();
    out
}

#[test]
fn every_fixture_compiles_and_passes_the_referee() {
    if common::referee_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, path) in sc2_support::fixtures() {
        let (map, _) = groundwork::import::sc2::import(&path, &Sc2Options::default()).unwrap();
        let archive = compile(&map, dir.path(), &name);
        let words = map.height_words();
        let mut expect = common::engine_expectation(&map);
        expect["height_sum"] = serde_json::json!(words.iter().map(|&w| w as u64).sum::<u64>());
        let r = common::validate_map(&archive, Some(&expect), None);
        assert!(
            r["expect"].as_array().is_some_and(|a| !a.is_empty()),
            "{name}: {r}"
        );
    }
}

#[test]
fn simple64_runs_in_the_engine_with_its_cliffs_ramps_and_pits() {
    if common::referee_or_skip().is_none() {
        return;
    }
    let Some(path) = sc2_support::fixture("Simple64") else {
        return;
    };
    let (map, _) = groundwork::import::sc2::import(&path, &Sc2Options::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let archive = compile(&map, dir.path(), "Simple64");
    // SC2 (x, y) to elmos: playable (12, 12)-(76, 76), 32 elmos a cell
    let e = |x: f32, y: f32| ((x - 12.0) * 32.0, (76.0 - y) * 32.0);
    let level3 = e(59.5, 27.5); // the first start location
    let level2 = e(44.5, 48.5);
    let ramp = e(40.5, 22.5); // t3SyncCliffLevel 152: the middle of a ramp
    let cliff = (1036.0, e(44.0, 18.5).1); // the square where level 2 (x <= 44) meets level 3
    let chasm = e(20.5, 74.5); // level 0 along the north edge
    let spot = map
        .metal
        .data()
        .iter()
        .position(|&m| m == *map.metal.data().iter().max().unwrap())
        .map(|i| {
            (
                (i % map.metal.width()) as f32 * 16.0 + 8.0,
                (i / map.metal.width()) as f32 * 16.0 + 8.0,
            )
        })
        .unwrap();
    let pts = [level3, level2, ramp, cliff, chasm, spot];
    let args: Vec<String> = pts.iter().map(|(x, z)| format!("{x},{z}")).collect();
    let mut argv: Vec<&str> = vec!["--points"];
    argv.extend(args.iter().map(String::as_str));
    let r = common::run_engine(&archive, &argv);
    let got = r["probe"]["frame1"]["points"].as_array().unwrap();
    assert_eq!(got.len(), pts.len(), "{r}");
    eprintln!("engine probe: {got:?}");
    let slope = |i: usize| got[i]["slope"].as_f64().unwrap();
    let height = |i: usize| got[i]["groundHeight"].as_f64().unwrap() as f32;
    // the engine's heights are the document's
    for (i, &(x, z)) in pts.iter().enumerate() {
        let want = map.heights.sample_bilinear(x / 8.0, z / 8.0);
        assert!(
            (height(i) - want).abs() < 0.6,
            "point {i}: engine {} document {want}",
            height(i)
        );
    }
    assert!(
        (height(0) - height(1) - 64.0).abs() < 1.0,
        "one cliff level apart"
    );
    assert!(height(1) - height(4) > 200.0, "the chasm is deep");
    // plateaus flat, the ramp drivable (1 - cos 27 degrees = 0.11), the cliff sheer
    assert!(slope(0) < 0.01 && slope(1) < 0.01, "{got:?}");
    assert!(
        slope(2) > 0.005 && slope(2) < 0.11,
        "ramp slope {}",
        slope(2)
    );
    assert!(slope(3) > 0.5, "cliff slope {}", slope(3));
    // the pit floor is the impassable terrain type, the spot has metal
    let info = got[4]["groundInfo"].as_str().unwrap();
    assert!(info.contains("Chasm"), "{info}");
    assert!(got[5]["metal"].as_f64().unwrap() > 0.0);
    // the geysers' vents are the engine's own feature; BAR's rocks are not in the bare engine
    assert_eq!(
        r["probe"]["frame1"]["features"], 8,
        "{}",
        r["probe"]["frame1"]
    );
}
