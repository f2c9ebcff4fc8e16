//! The lint on real maps: BAR's own template is clean (the metal rule that measured distance
//! called two of its spots sharing), and cases built from it at test time (a dome touching
//! one of its spots, BAR's standard rocks placed on it) fire exactly the rule they should.

use groundwork::lint::{LintContext, lint_map, lint_path};
use groundwork::map::Feature;
use groundwork::map::metal::paint_dome;

mod common;

fn blueprint() -> Option<std::path::PathBuf> {
    let p = common::fixture("bar/Map_Blueprint_V1.sdd");
    if p.is_none() {
        groundwork::test_support::skip("fixtures not found");
    }
    p
}

#[test]
fn bars_template_shares_no_metal_and_merges_no_domes() {
    let Some(path) = blueprint() else { return };
    let (map, findings) = lint_path(&path, &LintContext::default()).unwrap();
    assert!(findings.is_empty(), "{findings:?}");
    let map = map.unwrap();
    let report = map.metal_report();
    assert_eq!(report.spots.len(), 6);
    // some of its spots stand closer than two extractor radii: the old rule's false alarms
    let r = map.settings.extractor_radius_elmos;
    let close = report
        .spots
        .iter()
        .enumerate()
        .flat_map(|(a, p)| report.spots[a + 1..].iter().map(move |q| (p, q)))
        .filter(|(p, q)| (p.x_elmos - q.x_elmos).hypot(p.z_elmos - q.z_elmos) < 2.0 * r)
        .count();
    assert!(close > 0, "no close pair to be quiet about");
}

#[test]
fn a_dome_touching_a_real_spot_is_merged_and_bars_rocks_are_known() {
    let Some(path) = blueprint() else { return };
    let mut map = groundwork::formats::open_map(&path).unwrap().map;
    // the spot at (152, 88): a dome whose rim reaches its cells
    let spot = map
        .metal_report()
        .spots
        .into_iter()
        .find(|p| (p.x_elmos, p.z_elmos) == (152.0, 88.0))
        .unwrap();
    let (_, _, i1, _) = spot.cell_box;
    let x = (i1 as f32 + 3.5) * 16.0;
    paint_dome(&mut map.metal, x, 88.0, 48.0, 150.0);
    let rules: Vec<&str> = lint_map(&map, &LintContext::default())
        .iter()
        .map(|f| f.rule)
        .collect();
    assert!(rules.contains(&"metal-spots-merged"), "{rules:?}");
    let mut map = groundwork::formats::open_map(&path).unwrap().map;
    for name in ["rocks30_desert_08", "rocks30_def_30"] {
        map.features.push(Feature {
            name: name.into(),
            x_elmos: 500.0,
            z_elmos: 500.0,
            rotation_deg: 0.0,
        });
    }
    let findings = lint_map(&map, &LintContext::default());
    assert!(findings.is_empty(), "{findings:?}");
}
