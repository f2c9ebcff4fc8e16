//! Each rule triggered by the smallest change to a clean map, and quiet on the clean map; each
//! one-click fix clears its finding.

use super::*;
use crate::map::metal::paint_dome;
use crate::map::{BundledFile, Feature, MapSettings, MapSize, SymmetryMode};

/// A 4x4 map BAR plays well: metal and extractor radius set, two starts, two domes far
/// apart, graded grass.
fn clean() -> Map {
    let settings = MapSettings {
        max_metal: 2.0,
        extractor_radius_elmos: 90.0,
        min_height_elmos: -100.0,
        max_height_elmos: 400.0,
        ..MapSettings::default()
    };
    let mut m = Map::new(MapSize::new(4, 4).unwrap(), settings);
    m.teams = vec![
        Team {
            start_x_elmos: 300.0,
            start_z_elmos: 300.0,
        },
        Team {
            start_x_elmos: 1748.0,
            start_z_elmos: 1748.0,
        },
    ];
    paint_dome(&mut m.metal, 24.5 * 16.0, 24.5 * 16.0, 48.0, 120.0);
    paint_dome(&mut m.metal, 103.5 * 16.0, 103.5 * 16.0, 48.0, 120.0);
    m.grass.data_mut()[..200].fill(100);
    m
}

fn rules(m: &Map) -> Vec<&'static str> {
    lint_map(m, &LintContext::default())
        .iter()
        .map(|f| f.rule)
        .collect()
}

/// `change` makes `rule` fire (and nothing else that `clean` lacks); its fix, if one click,
/// clears it.
fn fires(rule: &str, change: impl FnOnce(&mut Map)) {
    let mut m = clean();
    assert!(rules(&m).is_empty(), "the clean map: {:?}", rules(&m));
    change(&mut m);
    let found = lint_map(&m, &LintContext::default());
    let f = found
        .iter()
        .find(|f| f.rule == rule)
        .unwrap_or_else(|| panic!("{rule} did not fire: {found:?}"));
    assert!(!f.message.is_empty() && f.fix.is_some(), "{f:?}");
    assert_eq!(f.severity, severity(rule));
    if let Some(a) = &f.action {
        apply_fix(&mut m, a);
        assert!(
            !rules(&m).contains(&f.rule),
            "the fix left {rule}: {:?}",
            rules(&m)
        );
    }
}

#[test]
fn every_rule_is_listed_once() {
    let mut ids: Vec<&str> = RULES.iter().map(|r| r.0).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n);
}

#[test]
fn the_clean_map_is_clean() {
    assert_eq!(rules(&clean()), Vec::<&str>::new());
}

#[test]
fn max_metal_default() {
    fires("max-metal-default", |m| m.settings.max_metal = 0.02);
}

#[test]
fn extractor_radius_default() {
    fires("extractor-radius-default", |m| {
        m.settings.extractor_radius_elmos = 500.0
    });
}

#[test]
fn no_start_positions() {
    fires("no-start-positions", |m| m.teams.clear());
    // the fix follows the symmetry: four corners under mirror-xz
    let mut m = clean();
    m.teams.clear();
    m.symmetry = SymmetryMode::MirrorXZ;
    apply_fix(&mut m, &FixAction::AddStartPositions);
    assert_eq!(m.teams.len(), 4);
}

#[test]
fn start_outside_map() {
    fires("start-outside-map", |m| m.teams[1].start_x_elmos = 2100.0);
    fires("start-outside-map", |m| m.teams[0].start_z_elmos = -1.0);
    // on the edge is on the map
    let mut m = clean();
    m.teams[0].start_x_elmos = 0.0;
    m.teams[1].start_z_elmos = 2048.0;
    assert!(!rules(&m).contains(&"start-outside-map"));
}

#[test]
fn grass_255_and_legacy() {
    fires("grass-255", |m| m.grass.set(3, 3, 255));
    fires("grass-legacy-binary", |m| {
        m.grass
            .data_mut()
            .iter_mut()
            .filter(|g| **g > 0)
            .for_each(|g| *g = 1)
    });
    // a map with a 1 among graded bytes is not legacy
    let mut m = clean();
    m.grass.set(40, 40, 1);
    assert!(rules(&m).is_empty());
}

#[test]
fn size_not_even_units_on_a_project() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("map.toml"),
        "[map]\nname = \"Odd\"\nversion = \"1\"\nsize = [3, 4]\n",
    )
    .unwrap();
    let (map, found) = lint_path(dir.path(), &LintContext::default()).unwrap();
    assert!(map.is_none());
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, "size-not-even-units");
    assert_eq!(found[0].severity, Severity::Error);
    // an even one loads and lints
    std::fs::write(
        dir.path().join("map.toml"),
        "[map]\nname = \"Even\"\nversion = \"1\"\nsize = [4, 4]\nmax_metal = 2.0\nextractor_radius = 90.0\n",
    )
    .unwrap();
    let (map, found) = lint_path(dir.path(), &LintContext::default()).unwrap();
    assert!(map.is_some());
    assert!(!found.iter().any(|f| f.rule == "size-not-even-units"));
}

fn tree(name: &str) -> Feature {
    Feature {
        name: name.into(),
        x_elmos: 500.0,
        z_elmos: 500.0,
        rotation_deg: 0.0,
    }
}

#[test]
fn feature_unknown_and_where_names_come_from() {
    fires("feature-unknown", |m| m.features.push(tree("MysteryRock")));
    // built in, in any case
    let mut m = clean();
    m.features.push(tree("treetype3"));
    m.features.push(tree("GeoVent"));
    assert!(rules(&m).is_empty(), "{:?}", rules(&m));
    // defined by the map's features/
    m.features.push(tree("MysteryRock"));
    m.bundled_files.push(BundledFile::new(
        "features/rocks.lua".into(),
        b"return { mysteryrock = { object = 'rock.s3o' } }".to_vec(),
    ));
    assert!(rules(&m).is_empty(), "{:?}", rules(&m));
    // or by the installed game
    m.features.push(tree("bar_seasonal_rock_2"));
    assert_eq!(rules(&m), ["feature-unknown"]);
    let mut game = FeatureNames::default();
    game.names.insert("bar_seasonal_rock_2".into());
    let ctx = LintContext {
        game_features: Some(game),
        ..LintContext::default()
    };
    assert!(lint_map(&m, &ctx).is_empty());
}

#[test]
fn feature_name_too_long() {
    fires("feature-name-too-long", |m| {
        m.features.push(tree(&"x".repeat(32)));
        m.bundled_files.push(BundledFile::new(
            "features/x.lua".into(),
            format!("return {{ {} = {{}} }}", "x".repeat(32)).into_bytes(),
        ));
    });
    let mut m = clean();
    m.features.push(tree("TreeType1"));
    assert!(rules(&m).is_empty());
    // the feature placer takes long names
    let mut m = clean();
    m.settings.feature_placement = crate::map::FeaturePlacement::FeaturePlacer;
    m.features.push(tree(&"x".repeat(32)));
    m.bundled_files.push(BundledFile::new(
        "features/x.lua".into(),
        format!("return {{ {} = {{}} }}", "x".repeat(32)).into_bytes(),
    ));
    assert!(rules(&m).is_empty(), "{:?}", rules(&m));
}

#[test]
fn metal_rules() {
    // 112 elmos apart: the dome at cell 24 reaches cell 26, inside both extractors' discs
    fires("metal-spots-share", |m| {
        paint_dome(&mut m.metal, 31.5 * 16.0, 24.5 * 16.0, 40.0, 120.0);
    });
    // domes whose rims touch: one spot to BAR
    fires("metal-spots-merged", |m| {
        paint_dome(&mut m.metal, 29.5 * 16.0, 24.5 * 16.0, 48.0, 120.0);
    });
    fires("metal-phantom-spots", |m| m.metal.set(60, 60, 3));
    fires("metal-map-detected", |m| {
        for i in 10..100 {
            m.metal.set(i, 70, 50);
        }
    });
    fires("metal-edge-ring", |m| m.metal.set(0, 50, 40));
    fires("metal-sides-unequal", |m| {
        m.symmetry = SymmetryMode::Rotate(2);
        paint_dome(&mut m.metal, 60.5 * 16.0, 24.5 * 16.0, 48.0, 100.0);
    });
}

#[test]
fn height_precision() {
    fires("height-precision", |m| {
        m.settings.min_height_elmos = -4000.0;
        m.settings.max_height_elmos = 4000.0;
    });
    // 6553 elmos is still within 0.1 elmo a word
    let mut m = clean();
    m.settings.min_height_elmos = -500.0;
    m.settings.max_height_elmos = 6000.0;
    assert!(rules(&m).is_empty());
}

#[test]
fn water_rules() {
    fires("fresnel-saturated", |m| {
        m.settings.water.fresnel_min = Some(0.4);
        m.settings.water.fresnel_max = Some(0.8);
    });
    let mut m = clean();
    m.settings.water.fresnel_min = Some(0.3);
    m.settings.water.fresnel_max = Some(0.75);
    assert!(rules(&m).is_empty());
    fires("void-water-plane-colour", |m| {
        m.settings.void_water = true;
        m.settings.water.plane_color = Some([0.0, 0.2, 0.4]);
    });
    let mut m = clean();
    m.settings.water.plane_color = Some([0.0, 0.2, 0.4]);
    assert!(rules(&m).is_empty());
}

#[test]
fn splat_detail_tex_missing() {
    use crate::map::{LuaTable, LuaValue};
    let with = |keys: &[&str]| {
        let mut r = LuaTable::new();
        for k in keys {
            r.insert(*k, LuaValue::String("a.dds".into()));
        }
        let mut m = clean();
        m.settings.extra.insert("resources", LuaValue::Table(r));
        rules(&m)
    };
    assert_eq!(
        with(&["splatDetailNormalTex1"]),
        ["splat-detail-tex-missing"]
    );
    assert_eq!(
        with(&["splatDetailNormalTex"]),
        ["splat-detail-tex-missing"]
    );
    assert!(with(&["splatDetailNormalTex1", "splatDetailTex"]).is_empty());
    assert!(with(&["detailTex"]).is_empty());
}

#[test]
fn errors_come_first() {
    let mut m = clean();
    m.settings.water.fresnel_min = Some(0.5);
    m.settings.water.fresnel_max = Some(0.9);
    m.teams.clear();
    let f = lint_map(&m, &LintContext::default());
    assert_eq!(f[0].severity, Severity::Error);
    assert_eq!(f.last().unwrap().severity, Severity::Warning);
}

#[test]
fn spots_closer_than_two_radii_that_share_no_metal_are_quiet() {
    // 160 elmos apart, under 2 x 90: the discs overlap, but every cell inside both is empty,
    // so neither extractor loses anything
    let mut m = clean();
    paint_dome(&mut m.metal, 34.5 * 16.0, 24.5 * 16.0, 40.0, 120.0);
    assert_eq!(m.metal_report().spots.len(), 3);
    // (one side now has more metal, which is another rule's business)
    assert_eq!(rules(&m), ["unfair-metal"]);
    // and when metal is shared, the finding says how much
    let mut m = clean();
    paint_dome(&mut m.metal, 31.5 * 16.0, 24.5 * 16.0, 40.0, 120.0);
    let f = lint_map(&m, &LintContext::default());
    let share = f.iter().find(|f| f.rule == "metal-spots-share").unwrap();
    let (cells, bytes) = crate::map::metal::shared_cells(
        &m.metal,
        90.0,
        [24.5 * 16.0, 24.5 * 16.0],
        [31.5 * 16.0, 24.5 * 16.0],
    );
    assert!(cells > 0 && bytes > 0);
    let metal = format!("{:.2} metal", bytes as f32 * 2.0);
    assert!(
        share.message.contains(&format!("share {cells} cells")) && share.message.contains(&metal),
        "{}: want {cells} cells, {metal}",
        share.message
    );
}

#[test]
fn a_metal_map_is_told_as_intended_when_it_is() {
    let mut m = clean();
    for i in 10..100 {
        m.metal.set(i, 70, 50);
    }
    let f = lint_map(&m, &LintContext::default());
    let found = f.iter().find(|f| f.rule == "metal-map-detected").unwrap();
    let fix = found.fix.as_deref().unwrap();
    assert!(fix.contains("intended on a metal map"), "{fix}");
    // a metal map's joined cells are no "merged domes"
    assert!(!f.iter().any(|f| f.rule == "metal-spots-merged"), "{f:?}");
}

#[test]
fn bars_standard_feature_names_are_known_without_bar() {
    let mut m = clean();
    for name in [
        "rocks30_desert_08",
        "rocks30_def_30",
        "geovent",
        "treecluster_fir_s1",
    ] {
        m.features.push(tree(name));
    }
    assert!(rules(&m).is_empty(), "{:?}", rules(&m));
    m.features.push(tree("rocks30_def_31"));
    let f = lint_map(&m, &LintContext::default());
    let unknown = f.iter().find(|f| f.rule == "feature-unknown").unwrap();
    assert!(
        unknown.message.starts_with("1 feature names"),
        "{}",
        unknown.message
    );
    assert!(unknown.message.contains("rocks30_def_31"));
}

#[test]
fn a_loaded_maps_tile_problem_is_an_error_and_its_notes_are_findings() {
    let map = clean();
    let loaded = crate::formats::LoadedMap {
        map,
        warnings: vec![
            "the tile file m.smt is missing: the ground texture is the minimap scaled up".into(),
            "terrainTypes has an entry Str(\"x\") outside 0..255, dropped".into(),
        ],
        minimap_rgba: None,
        tile_counts: None,
        tile_problem: Some("the tile file m.smt is missing".into()),
        tile_files: Vec::new(),
    };
    let f = lint_loaded(&loaded, &LintContext::default());
    let rules: Vec<&str> = f.iter().map(|f| f.rule).collect();
    assert_eq!(rules, ["tile-file-unreadable", "load-note"], "{f:?}");
    assert_eq!(f[0].severity, Severity::Error);
    assert!(
        f[0].message
            .starts_with("the tile file m.smt is missing: the engine")
    );
    assert!(f[1].message.contains("terrainTypes"));
}

#[test]
fn tiles_in_several_files_are_an_error_with_the_fix_and_one_file_is_none() {
    let loaded = |files: &[&str]| crate::formats::LoadedMap {
        map: clean(),
        warnings: Vec::new(),
        minimap_rgba: None,
        tile_counts: None,
        tile_problem: None,
        tile_files: files.iter().map(|f| f.to_string()).collect(),
    };
    let rules = |l: &crate::formats::LoadedMap| -> Vec<Finding> {
        lint_loaded(l, &LintContext::default())
            .into_iter()
            .filter(|f| f.rule == "tile-files-several")
            .collect()
    };
    assert!(rules(&loaded(&["m.smt"])).is_empty());
    let f = rules(&loaded(&["m_00.smt", "m_01.smt"]));
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].severity, Severity::Error);
    assert!(f[0].message.contains("2 .smt files (m_00.smt, m_01.smt)"));
    let fix = f[0].fix.as_deref().unwrap_or_default();
    assert!(fix.contains("compile the map again"), "{fix}");
}

/// Sets every height corner at (x, z) elmos that `inside` accepts to `h`.
fn raise(m: &mut Map, h: f32, inside: impl Fn(f32, f32) -> bool) {
    let (w, d) = m.heights.dims();
    for z in 0..d {
        for x in 0..w {
            if inside(x as f32 * 8.0, z as f32 * 8.0) {
                m.heights.set(x, z, h);
            }
        }
    }
}

/// Only the pathing rules named fire (the clean map's starts, spots and ground otherwise).
fn pathing_rules(m: &Map) -> Vec<&'static str> {
    let pathing = [
        "start-unreachable",
        "start-on-slope",
        "metal-unreachable",
        "unfair-metal",
    ];
    rules(m)
        .into_iter()
        .filter(|r| pathing.contains(r))
        .collect()
}

#[test]
fn start_unreachable_fires_across_a_cliff_and_is_quiet_over_a_ramp() {
    fires("start-unreachable", |m| {
        raise(m, 300.0, |x, _| (960.0..1088.0).contains(&x))
    });
    let mut m = clean();
    raise(&mut m, 300.0, |x, _| (960.0..1088.0).contains(&x));
    assert_eq!(pathing_rules(&m), ["start-unreachable"]);
    // a gap in the cliff lets everyone through
    let mut m = clean();
    raise(&mut m, 300.0, |x, z| {
        (960.0..1088.0).contains(&x) && z > 400.0
    });
    assert!(pathing_rules(&m).is_empty(), "{:?}", pathing_rules(&m));
}

#[test]
fn start_on_slope_fires_on_broken_ground_and_not_on_the_flat() {
    let saw = |m: &mut Map| {
        let (w, d) = m.heights.dims();
        let rise = 30f32.to_radians().tan();
        for z in 0..d {
            for x in 0..w {
                let (xe, ze) = (x as f32 * 8.0, z as f32 * 8.0);
                if xe < 600.0 && ze < 600.0 {
                    m.heights.set(x, z, rise * (xe % 64.0));
                }
            }
        }
    };
    fires("start-on-slope", saw);
    let mut m = clean();
    saw(&mut m);
    assert_eq!(pathing_rules(&m), ["start-on-slope"]);
}

#[test]
fn metal_unreachable_fires_on_a_mesa_and_not_on_the_plain() {
    let mesa = |m: &mut Map| {
        raise(m, 300.0, |x, z| {
            (900.0..1148.0).contains(&x) && (900.0..1148.0).contains(&z)
        });
        crate::map::metal::paint_dome(&mut m.metal, 1024.0, 1024.0, 48.0, 120.0);
    };
    fires("metal-unreachable", mesa);
    let mut m = clean();
    mesa(&mut m);
    assert_eq!(pathing_rules(&m), ["metal-unreachable"]);
    // the same spot on the plain is reached (and both sides have it within 2000 elmos)
    let mut m = clean();
    crate::map::metal::paint_dome(&mut m.metal, 1024.0, 1024.0, 48.0, 120.0);
    assert!(!pathing_rules(&m).contains(&"metal-unreachable"));
}

#[test]
fn unfair_metal_fires_for_one_sides_extra_spot_and_not_for_a_mirrored_pair() {
    fires("unfair-metal", |m| {
        crate::map::metal::paint_dome(&mut m.metal, 600.0, 300.0, 48.0, 120.0);
    });
    let mut m = clean();
    crate::map::metal::paint_dome(&mut m.metal, 600.0, 300.0, 48.0, 120.0);
    crate::map::metal::paint_dome(&mut m.metal, 2048.0 - 600.0, 2048.0 - 300.0, 48.0, 120.0);
    assert!(pathing_rules(&m).is_empty(), "{:?}", pathing_rules(&m));
}

/// The clean map (4x4, starts at 300 and 1748) with a 2-team arrangement around its starts.
fn boxed() -> Map {
    let mut m = clean();
    // 2048 elmos a side: 1 unit = 10.24 elmos; the starts are at units 29.3 and 170.7
    m.start_boxes = vec![crate::map::start_boxes::StartBoxSet {
        teams: 2,
        max_players_per_box: 1,
        boxes: vec![[0, 0, 60, 60], [140, 140, 200, 200]],
    }];
    m
}

#[test]
fn start_boxes_that_follow_the_lobbys_rules_are_quiet() {
    let m = boxed();
    assert!(rules(&m).is_empty(), "{:?}", rules(&m));
}

#[test]
fn start_box_rules_fire_on_what_the_lobby_refuses() {
    let with = |f: &dyn Fn(&mut Map)| {
        let mut m = boxed();
        f(&mut m);
        rules(&m)
    };
    // two boxes of 2 players each on a 2-player map
    let r = with(&|m| m.start_boxes[0].max_players_per_box = 2);
    assert_eq!(r, vec!["startbox-too-many-players"]);
    // start 2 out of every box, and box 2 empty
    let r = with(&|m| m.teams[1].start_x_elmos = 1000.0);
    assert!(
        r.iter().filter(|&&x| x == "start-outside-box").count() == 2,
        "{r:?}"
    );
    // overlapping boxes
    let r = with(&|m| m.start_boxes[0].boxes[0] = [0, 0, 150, 150]);
    assert_eq!(r, vec!["startbox-overlap"]);
    // a third player: the 3-team arrangement is missing, and the 2-team boxes may hold two
    // players, who share box 1 at 200 elmos: too close
    let r = with(&|m| {
        m.teams.push(Team {
            start_x_elmos: 500.0,
            start_z_elmos: 300.0,
        });
        m.start_boxes[0].max_players_per_box = 1;
    });
    assert!(r.contains(&"startbox-missing-arrangement"), "{r:?}");
    assert!(r.contains(&"allied-starts-too-close"), "{r:?}");
    // far enough apart, allies are fine
    let r = with(&|m| {
        m.start_boxes[0].boxes[0] = [0, 0, 80, 80];
        m.teams.push(Team {
            start_x_elmos: 300.0 + 360.0,
            start_z_elmos: 300.0,
        });
    });
    assert!(r.contains(&"startbox-missing-arrangement"), "{r:?}");
    assert!(!r.contains(&"allied-starts-too-close"), "{r:?}");
    // every finding has a fix in words
    let mut m = boxed();
    m.start_boxes[0].max_players_per_box = 2;
    for f in lint_map(&m, &LintContext::default()) {
        assert!(f.fix.is_some(), "{f:?}");
    }
}
