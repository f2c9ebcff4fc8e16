//! Writing and reading `mapinfo.lua` through real Lua, and the BAR template.

use super::*;
use crate::map::{MapSettings, Team};

struct NoFiles;
impl Vfs for NoFiles {
    fn paths(&self) -> Vec<String> {
        vec![]
    }
    fn read(&self, _: &str) -> Option<Vec<u8>> {
        None
    }
}

fn sample_settings() -> MapSettings {
    let mut s = MapSettings {
        name: "Round Trip".into(),
        description: "a \"quoted\" map".into(),
        author: "me".into(),
        max_metal: 1.5,
        extractor_radius_elmos: 85.0,
        min_height_elmos: -120.5,
        max_height_elmos: 600.0,
        tidal_strength: 18.0,
        ..MapSettings::default()
    };
    s.water.fresnel_min = Some(0.3);
    s.water.extra.insert("shimmerScale", LuaValue::Number(2.5));
    s.lighting.ground_diffuse_color = Some([0.9, 0.8, 0.7]);
    s.atmosphere.min_wind = Some(5.0);
    s.terrain_types.insert(255, {
        let mut t = TerrainType::named("Roads");
        t.move_speeds.tank = 1.25;
        t.receive_tracks = false;
        t
    });
    let mut grass = LuaTable::new();
    grass.insert("grassMaxSize", LuaValue::Number(2.0));
    s.custom.insert("grassConfig", LuaValue::Table(grass));
    s.extra.insert("notDeformable", LuaValue::Bool(true));
    s
}

#[test]
fn written_mapinfo_reads_back_through_lua() {
    let s = sample_settings();
    let teams = vec![
        Team {
            start_x_elmos: 100.0,
            start_z_elmos: 200.0,
        },
        Team {
            start_x_elmos: 3000.5,
            start_z_elmos: 400.0,
        },
    ];
    let src = write_mapinfo(&mapinfo_table(
        &s,
        &teams,
        "maps/rt.smf",
        &["maps/rt.smt".into()],
    ));
    let table = eval_mapinfo(src.as_bytes(), &NoFiles, LuaLimits::default()).unwrap();
    let info = mapinfo_from_table(&table);
    assert_eq!(info.teams, teams);
    assert_eq!(info.map_file.as_deref(), Some("maps/rt.smf"));
    assert_eq!(info.smt_file_names, vec!["maps/rt.smt".to_string()]);
    assert_eq!(info.min_height_override, Some(-120.5));
    assert_eq!(info.max_height_override, Some(600.0));
    let r = info.settings;
    assert_eq!(r.name, s.name);
    assert_eq!(r.description, s.description);
    assert_eq!(r.max_metal, 1.5);
    assert_eq!(r.extractor_radius_elmos, 85.0);
    assert_eq!(r.tidal_strength, 18.0);
    assert_eq!(r.water.fresnel_min, Some(0.3));
    assert_eq!(
        r.water.extra.get("shimmerscale"),
        Some(&LuaValue::Number(2.5))
    );
    assert_eq!(r.lighting.ground_diffuse_color, Some([0.9, 0.8, 0.7]));
    // lighting is always written, with the engine defaults filled in
    assert_eq!(r.lighting.sun_dir, Some([0.0, 1.0, 2.0, 1.0]));
    assert_eq!(r.atmosphere.min_wind, Some(5.0));
    assert_eq!(r.terrain_types[&255].name, "Roads");
    assert_eq!(r.terrain_types[&255].move_speeds.tank, 1.25);
    assert!(!r.terrain_types[&255].receive_tracks);
    assert_eq!(r.terrain_types[&0].name, "Default");
    assert_eq!(
        r.custom
            .get_table("grassconfig")
            .unwrap()
            .get_number("grassmaxsize"),
        Some(2.0)
    );
    assert_eq!(r.extra.get("notdeformable"), Some(&LuaValue::Bool(true)));
}

#[test]
fn wind_is_written_with_the_engine_defaults_unless_the_map_sets_it() {
    let read_back = |s: &MapSettings| {
        let src = write_mapinfo(&mapinfo_table(s, &[], "maps/w.smf", &["maps/w.smt".into()]));
        let table = eval_mapinfo(src.as_bytes(), &NoFiles, LuaLimits::default()).unwrap();
        let a = mapinfo_from_table(&table).settings.atmosphere;
        (a.min_wind, a.max_wind)
    };
    let mut s = MapSettings::default();
    assert_eq!(s.atmosphere.min_wind, None);
    assert_eq!(read_back(&s), (Some(5.0), Some(25.0)));
    s.atmosphere.min_wind = Some(0.0);
    s.atmosphere.max_wind = Some(12.5);
    assert_eq!(read_back(&s), (Some(0.0), Some(12.5)));
    s.atmosphere.min_wind = None;
    assert_eq!(read_back(&s), (Some(5.0), Some(12.5)));
}

#[test]
fn void_water_drops_the_plane_colour() {
    let mut s = sample_settings();
    s.void_water = true;
    s.water.plane_color = Some([0.1, 0.2, 0.3]);
    let t = mapinfo_table(&s, &[], "a", &["b".into()]);
    assert!(t.get_table("water").unwrap().get("planeColor").is_none());
}

#[test]
fn absent_keys_mean_engine_defaults() {
    let info = mapinfo_from_table(&LuaTable::new());
    assert_eq!(info.settings.max_metal, 0.02);
    assert_eq!(info.settings.extractor_radius_elmos, 500.0);
    assert_eq!(info.settings.playability_warnings(0).len(), 3);
}

#[test]
fn bar_template_reads_with_its_overrides() {
    let dir = std::env::var_os("GROUNDWORK_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
        .join("fixtures/bar/Map_Blueprint_V1.sdd");
    if !dir.exists() {
        crate::test_support::skip("fixtures not found");
        return;
    }
    struct Dir(std::path::PathBuf);
    impl Vfs for Dir {
        fn paths(&self) -> Vec<String> {
            vec!["mapconfig/mapinfo/0_apply_options.lua".into()]
        }
        fn read(&self, path: &str) -> Option<Vec<u8>> {
            std::fs::read(self.0.join(path)).ok()
        }
    }
    let src = std::fs::read(dir.join("mapinfo.lua")).unwrap();
    let table = eval_mapinfo(&src, &Dir(dir), LuaLimits::default()).unwrap();
    let info = mapinfo_from_table(&table);
    let s = &info.settings;
    assert_eq!(s.name, "MAP_BLUEPRINT_V1");
    assert_eq!(s.max_metal, 0.9);
    assert_eq!(s.extractor_radius_elmos, 90.0);
    assert_eq!(s.map_hardness, 200.0);
    assert_eq!(s.gravity, 100.0);
    assert_eq!(info.min_height_override, Some(-340.0));
    assert_eq!(info.max_height_override, Some(760.0));
    assert_eq!(
        info.smt_file_names,
        vec!["maps/MAP_BLUEPRINT_V1.smt".to_string()]
    );
    assert_eq!(
        info.teams,
        vec![
            Team {
                start_x_elmos: 50.0,
                start_z_elmos: 900.0
            },
            Team {
                start_x_elmos: 900.0,
                start_z_elmos: 50.0
            }
        ]
    );
    assert_eq!(s.water.fresnel_min, Some(0.08));
    assert_eq!(s.water.damage, Some(0.0)); // set by the override file through Spring.GetMapOptions
    assert_eq!(s.lighting.sun_dir, Some([0.8, 1.0, -0.7, 1.0]));
    assert_eq!(s.terrain_types[&255].name, "Roads");
    assert!(s.custom.get_table("grassconfig").is_some());
    assert!(s.extra.get("resources").is_some());
    assert!(s.extra.get("mapfile").is_none());
}
