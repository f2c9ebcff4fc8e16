//! Features end to end: `groundwork edit --ops` places, scatters (the same seed, the same
//! features) and erases them with symmetry; a compiled map with scattered features loads in the
//! real engine with every feature where the document put it (name, x, z, heading), from the
//! `.smf` block and from BAR's feature placer.

mod common;

use std::path::Path;
use std::process::Command;

use groundwork::formats::smf::SmfFeature;
use groundwork::map::{Feature, Map};

fn gw() -> Command {
    Command::new(env!("CARGO_BIN_EXE_groundwork"))
}

fn run_ops(project: &Path, out: &Path, ops: &str) -> Map {
    let ops_path = project.with_extension("ops.toml");
    std::fs::write(&ops_path, ops).unwrap();
    let r = gw()
        .arg("edit")
        .arg(project)
        .arg("--ops")
        .arg(&ops_path)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        r.status.success(),
        "edit failed: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    groundwork::formats::open_map(out).unwrap().map
}

fn new_project(dir: &Path, symmetry: &str) {
    let r = gw()
        .args([
            "new",
            "--size",
            "8x8",
            "--players",
            "2",
            "--symmetry",
            symmetry,
        ])
        .arg(dir)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
}

const SCATTER: &str = r#"
[[op]]
tool = "feature-scatter"
names = ["rocks30_def_01", "lowpoly_tree_pinetree1medium"]
weights = [1, 3]
path = [[1000, 1000], [1600, 1200]]
radius_elmos = 400
density = 30
spacing_elmos = 60
seed = 11
slope_deg = [0, 30]
avoid_water = true
"#;

#[test]
fn ops_place_scatter_and_erase_features_with_symmetry_and_the_seed_repeats() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    new_project(&base, "mirror-x");
    let a = run_ops(&base, &tmp.path().join("a"), SCATTER);
    let b = run_ops(&base, &tmp.path().join("b"), SCATTER);
    assert!(a.features.len() > 40, "{} features", a.features.len());
    assert_eq!(
        a.features, b.features,
        "the same seed scatters the same features"
    );
    // mirror-x: every feature has its image at (w - x, z), heading mirrored
    let w = a.size.width_elmos();
    for f in &a.features {
        let want = (360.0 - f.rotation_deg).rem_euclid(360.0);
        assert!(
            a.features.iter().any(|o| o.name == f.name
                && (o.x_elmos - (w - f.x_elmos)).abs() < 0.01
                && (o.z_elmos - f.z_elmos).abs() < 0.01
                && ((o.rotation_deg - want + 180.0).rem_euclid(360.0) - 180.0).abs() < 0.01),
            "{f:?} has no mirror image"
        );
    }
    let placed = run_ops(
        &base,
        &tmp.path().join("c"),
        r#"
[[op]]
tool = "feature"
name = "geovent"
path = [[700, 900]]
rotation_deg = 90
"#,
    );
    assert_eq!(
        placed.features,
        vec![
            Feature {
                name: "geovent".into(),
                x_elmos: 700.0,
                z_elmos: 900.0,
                rotation_deg: 90.0
            },
            Feature {
                name: "geovent".into(),
                x_elmos: w - 700.0,
                z_elmos: 900.0,
                rotation_deg: 270.0
            },
        ]
    );
    let erased = run_ops(
        &tmp.path().join("a"),
        &tmp.path().join("d"),
        r#"
[[op]]
tool = "feature-erase"
path = [[1300, 1100]]
radius_elmos = 2000
"#,
    );
    assert!(erased.features.is_empty(), "{:?}", erased.features.len());
    // one-line errors
    for (ops, want) in [
        (
            "[[op]]\ntool = \"feature\"\nname = \"x\"\npath = [[1, 2], [3, 4]]\n",
            "one point",
        ),
        (
            "[[op]]\ntool = \"feature-scatter\"\npath = [[1, 2]]\nradius_elmos = 100\n",
            "names",
        ),
        (
            "[[op]]\ntool = \"feature-scatter\"\nnames = [\"a\"]\npath = [[1, 2]]\nradius_elmos = 100\nlayer = \"snow\"\n",
            "texture layer",
        ),
        (
            "[[op]]\ntool = \"feature-erase\"\npath = [[1, 2]]\nradius_elmos = 100\nseed = 3\n",
            "unknown key",
        ),
    ] {
        let p = tmp.path().join("bad.ops.toml");
        std::fs::write(&p, ops).unwrap();
        let r = gw()
            .arg("edit")
            .arg(&base)
            .arg("--ops")
            .arg(&p)
            .arg("-o")
            .arg(tmp.path().join("bad"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success() && err.contains(want), "{ops}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// The heading the engine reports for a document's degrees (a short, 65536 a turn).
fn engine_heading(rotation_deg: f32) -> i64 {
    SmfFeature::heading_from_deg(rotation_deg) as i64
}

/// Runs the feature probe on `archive` and checks the engine placed exactly `features`.
fn engine_reports(archive: &Path, name: &str, features: &[Feature]) {
    let out = Command::new("/usr/bin/python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine_probe/feature_probe.py"))
        .arg(archive)
        .arg(name)
        .output()
        .expect("run the feature probe");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "the probe printed no JSON: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(
        json["ok"], true,
        "the probe did not finish: {}",
        json["log"]
    );
    let mut engine: Vec<(String, f64, f64, i64)> = json["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f[0].as_str().unwrap().to_ascii_lowercase(),
                f[1].as_f64().unwrap(),
                f[2].as_f64().unwrap(),
                f[3].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        engine.len(),
        features.len(),
        "the engine placed {} of {} features; log: {}",
        engine.len(),
        features.len(),
        json["log"]
    );
    let mut unmatched = Vec::new();
    for f in features {
        let h = engine_heading(f.rotation_deg);
        let pos = engine.iter().position(|(n, x, z, eh)| {
            *n == f.name.to_ascii_lowercase()
                && (x - f.x_elmos as f64).abs() < 0.5
                && (z - f.z_elmos as f64).abs() < 0.5
                && ((eh - h).rem_euclid(65536)).min((h - eh).rem_euclid(65536)) <= 1
        });
        match pos {
            Some(i) => {
                engine.swap_remove(i);
            }
            None => unmatched.push(format!("{f:?} (heading {h})")),
        }
    }
    assert!(
        unmatched.is_empty(),
        "{} features not where the document put them, e.g. {:?}; engine left {:?}",
        unmatched.len(),
        &unmatched[..unmatched.len().min(5)],
        &engine[..engine.len().min(5)]
    );
    eprintln!(
        "{name}: the engine placed all {} features where the document put them",
        features.len()
    );
}

#[test]
fn the_engine_places_scattered_features_where_the_document_put_them() {
    let Some(template) = common::fixture("bar/Map_Blueprint_V1.sdd") else {
        groundwork::test_support::skip("fixtures not found");
        return;
    };
    if common::referee_or_skip().is_none() {
        return;
    }
    if !Path::new("/usr/games/spring-headless").exists() {
        groundwork::test_support::skip("spring-headless not found");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("template");
    let r = gw()
        .arg("decompile")
        .arg(&template)
        .arg("-o")
        .arg(&project)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    // the .smf block keeps 31 bytes of a name, and the template's tree has 33: a short def of
    // the same model for the block, the template's own for the feature placer
    std::fs::write(
        project.join("archive/features/gw_fir.lua"),
        "return { gw_fir = { object = \"fir_tree_small_1()tree_fir_tall_5.s3o\", \
         footprintx = 1, footprintz = 1, blocking = false, upright = true } }\n",
    )
    .unwrap();
    let scattered_dir = tmp.path().join("scattered");
    let scattered = run_ops(
        &project,
        &scattered_dir,
        r#"
symmetry = "rotate-4"

[[op]]
tool = "feature-scatter"
names = ["gw_fir"]
path = [[300, 300], [700, 350]]
radius_elmos = 250
density = 60
spacing_elmos = 40
seed = 5

[[op]]
tool = "feature"
name = "geovent"
path = [[200, 800]]
rotation_deg = 30
"#,
    );
    assert!(
        scattered.features.len() >= 40,
        "{}",
        scattered.features.len()
    );
    let archive = tmp.path().join("scattered.sdd");
    common::compile_project(&scattered_dir, &archive);
    let v = common::validate_map(&archive, None, None);
    let name = v["unitsync"]["GetMapName"].as_str().unwrap().to_string();
    engine_reports(&archive, &name, &scattered.features);

    // BAR's feature placer instead of the .smf block, which also takes the template's long name
    let toml_path = scattered_dir.join("map.toml");
    let text = std::fs::read_to_string(&toml_path).unwrap();
    let text = text.replacen(
        "[map]\n",
        "[map]\nfeature_placement = \"featureplacer\"\n",
        1,
    );
    std::fs::write(&toml_path, text).unwrap();
    let placer_dir = tmp.path().join("placer");
    let placed = run_ops(
        &scattered_dir,
        &placer_dir,
        r#"
[[op]]
tool = "feature-scatter"
names = ["fir_tree_small_1()tree_fir_tall_5"]
path = [[512, 700]]
radius_elmos = 200
density = 100
spacing_elmos = 30
seed = 9
"#,
    );
    assert!(placed.features.len() > scattered.features.len());
    assert!(
        placed
            .features
            .iter()
            .any(|f| f.name == "fir_tree_small_1()tree_fir_tall_5")
    );
    let archive = tmp.path().join("placer.sdd");
    common::compile_project(&placer_dir, &archive);
    assert!(archive.join("mapconfig/featureplacer/set.lua").is_file());
    let smf = std::fs::read_dir(archive.join("maps"))
        .unwrap()
        .flatten()
        .find(|e| e.path().extension().is_some_and(|x| x == "smf"))
        .unwrap()
        .path();
    let read = groundwork::formats::open_map(&smf).unwrap().map;
    assert!(read.features.is_empty(), "the .smf block is empty then");
    common::validate_map(&archive, None, None);
    engine_reports(&archive, &name, &placed.features);
}
