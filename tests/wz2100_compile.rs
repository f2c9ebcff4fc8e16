//! Imported Warzone 2100 maps compile and pass the engine's own loader (unitsync, through
//! `../shared/tools/validate_map.py`) with the start positions, metal and heights we meant.
//! CI runs four representative maps; `GROUNDWORK_ALL_WZ=1` runs every importable map in
//! Debian's `mp.wz` and prints the time and pass count.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use groundwork::compile::{CompileOptions, Progress, compile_map};
use groundwork::formats::wz2100::{self, MapStatus};
use groundwork::import::wz2100::Wz2100Options;
use serde_json::json;

fn mp_wz() -> Option<PathBuf> {
    let p = PathBuf::from(wz2100::SYSTEM_DATA_DIR).join("mp.wz");
    if p.is_file() {
        Some(p)
    } else {
        groundwork::test_support::skip("Warzone 2100 data (mp.wz) not found");
        None
    }
}

/// Imports, compiles to `.sd7` and validates one map; returns (import, compile, validate) s.
fn round_trip(mp: &Path, folder: &str, dir: &Path) -> (f64, f64, f64) {
    let t0 = Instant::now();
    let (map, _) = groundwork::import::wz2100::import(mp, Some(folder), &Wz2100Options::default())
        .unwrap_or_else(|e| panic!("{folder}: import: {e}"));
    let t1 = Instant::now();
    let out = dir.join(format!("{folder}.sd7"));
    compile_map(&map, &out, &CompileOptions::default(), &Progress::none())
        .unwrap_or_else(|e| panic!("{folder}: compile: {e}"));
    let t2 = Instant::now();
    let mut expect = common::engine_expectation(&map);
    expect["versioned_name"] = json!(map.settings.versioned_name());
    expect["mapx"] = json!(map.size.squares_x());
    let v = common::validate_map(&out, Some(&expect), None);
    assert_eq!(v["lint_ok"], true, "{folder}: lint: {}", v["lint"]);
    let t3 = Instant::now();
    std::fs::remove_file(&out).ok();
    (
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        (t3 - t2).as_secs_f64(),
    )
}

#[test]
fn representative_maps_compile_and_validate() {
    let Some(mp) = mp_wz() else { return };
    if common::referee_or_skip().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // arizona without water; urban with a large sea; a 1:2 map; rockies with a raised lake
    for folder in ["4c-rush", "8c-manhattan", "2c-startup", "4c-mountain"] {
        let (i, c, v) = round_trip(&mp, folder, tmp.path());
        eprintln!("{folder}: import {i:.1}s, compile {c:.1}s, validate {v:.1}s");
    }
}

#[test]
fn every_importable_map_when_asked() {
    if std::env::var_os("GROUNDWORK_ALL_WZ").is_none() {
        eprintln!("skipped: set GROUNDWORK_ALL_WZ=1 to import, compile and validate every map");
        return;
    }
    let Some(mp) = mp_wz() else { return };
    if common::referee_or_skip().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let maps = wz2100::list_maps(&mp).unwrap();
    let start = Instant::now();
    let mut passed = 0;
    for m in maps.iter().filter(|m| m.status == MapStatus::Importable) {
        let (i, c, v) = round_trip(&mp, &m.name, tmp.path());
        passed += 1;
        eprintln!(
            "{:<24} {:>9?} tiles: import {i:.1}s, compile {c:.1}s, validate {v:.1}s",
            m.name, m.size_tiles
        );
    }
    eprintln!(
        "{passed} maps imported, compiled and validated in {:.0}s",
        start.elapsed().as_secs_f64()
    );
    assert_eq!(passed, 39);
}

/// The command line: list, refuse a script map with one line, import into a project that
/// keeps the report, and compile that project.
#[test]
fn cli_lists_imports_and_compiles() {
    let Some(mp) = mp_wz() else { return };
    let bin = env!("CARGO_BIN_EXE_groundwork");
    let list = Command::new(bin)
        .args(["import", "wz2100"])
        .arg(&mp)
        .output()
        .unwrap();
    assert!(list.status.success());
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(text.contains("4c-rush") && text.contains("script-generated, cannot import"));
    assert!(text.contains("44 maps, 39 importable"), "{text}");

    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("rush");
    let js = Command::new(bin)
        .args(["import", "wz2100"])
        .arg(&mp)
        .args(["--map", "6c-Entropy", "-o"])
        .arg(&project)
        .output()
        .unwrap();
    assert!(!js.status.success());
    let err = String::from_utf8_lossy(&js.stderr);
    assert_eq!(
        err.lines().filter(|l| l.starts_with("error:")).count(),
        1,
        "{err}"
    );
    assert!(err.contains("script-generated"));

    let imp = Command::new(bin)
        .args(["import", "wz2100"])
        .arg(&mp)
        .args([
            "--map",
            "Sk-Rush",
            "--tile-elmos",
            "48",
            "--height-scale",
            "0.8",
            "-o",
        ])
        .arg(&project)
        .output()
        .unwrap();
    assert!(
        imp.status.success(),
        "{}",
        String::from_utf8_lossy(&imp.stderr)
    );
    let report = std::fs::read_to_string(
        project.join(groundwork::formats::import_report::IMPORT_REPORT_FILE),
    )
    .unwrap();
    assert!(report.contains("48 elmos per tile"), "{report}");
    assert!(String::from_utf8_lossy(&imp.stdout).contains("Import report"));
    let loaded = groundwork::formats::load_project(&project).unwrap();
    // 92 tiles x 48 elmos = 4416 elmos: a 10x10 map
    assert_eq!(loaded.map.size.width_units(), 10);
    assert_eq!(loaded.map.teams.len(), 4);

    if common::referee().is_some() {
        let out = tmp.path().join("rush.sd7");
        common::compile_project(&project, &out);
        let v = common::validate_map(&out, None, None);
        assert_eq!(v["lint_ok"], true);
    }
}
