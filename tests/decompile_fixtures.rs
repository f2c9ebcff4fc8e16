//! Real maps decompile, recompile and load in the engine with the same heights, metal, grass,
//! types, start positions and features: BAR's own template (`Map_Blueprint_V1.sdd`) and a bare
//! `.smf` whose `.smt` is missing (`Great_Divide.smf`).

mod common;

use std::path::Path;
use std::process::Command;

fn groundwork(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(args)
        .output()
        .unwrap()
}

fn run_ok(args: &[&std::ffi::OsStr]) -> String {
    let out = groundwork(args);
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        args,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// Reads a section of an `.smf` directly (independently of the reader under test).
fn smf_section(smf: &[u8], ptr_offset: usize, len: usize) -> Vec<u8> {
    let ptr = i32::from_le_bytes(smf[ptr_offset..ptr_offset + 4].try_into().unwrap()) as usize;
    smf[ptr..ptr + len].to_vec()
}

#[test]
fn bar_template_round_trips_through_a_project() {
    let Some(original) = common::fixture("bar/Map_Blueprint_V1.sdd") else {
        groundwork::test_support::skip("fixtures not found");
        return;
    };
    if common::referee_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("blueprint");
    run_ok(&[
        os("decompile"),
        original.as_os_str(),
        os("-o"),
        project.as_os_str(),
    ]);
    for f in [
        "map.toml",
        "height.png",
        "texture.png",
        "metal.png",
        "grass.png",
        "type.png",
        "minimap.png",
    ] {
        assert!(project.join(f).is_file(), "{f} missing");
    }
    // the template's extra files come along: DNTS textures, mapconfig overrides, feature models
    assert!(
        project
            .join("archive/mapconfig/mapinfo/0_apply_options.lua")
            .is_file()
    );
    assert!(
        project
            .join("archive/maps/Map_Blueprint_V1_normals.dds")
            .is_file()
    );
    let toml = std::fs::read_to_string(project.join("map.toml")).unwrap();
    assert!(
        toml.contains("max_metal = 0.9") && toml.contains("extractor_radius = 90.0"),
        "{toml}"
    );

    let recompiled = dir.path().join("MAP_BLUEPRINT_V1_rt.sd7");
    common::compile_project(&project, &recompiled);

    let (d0, d1) = (dir.path().join("dump0"), dir.path().join("dump1"));
    let before = common::validate_map(&original, None, Some(&d0));
    let after = common::validate_map(&recompiled, None, Some(&d1));
    assert_eq!(after["lint_ok"], true, "{}", after["lint"]);
    let (u0, u1) = (&before["unitsync"], &after["unitsync"]);
    for key in ["GetMapMinHeight", "GetMapMaxHeight", "startPositions"] {
        assert_eq!(u0[key], u1[key], "{key}");
    }
    // the template's own wind (1..20), as the lobby shows it
    for key in ["minWind", "maxWind"] {
        assert_eq!(u0["mapInfo"][key], u1["mapInfo"][key], "{key}");
    }
    assert_eq!(u1["mapInfo"]["maxWind"], 20);
    for layer in ["height_", "metal_", "type_", "grass_"] {
        assert_eq!(
            common::dumped(&d0, layer),
            common::dumped(&d1, layer),
            "{layer}"
        );
    }
    let (f0, f1) = (&before["smf_features"], &after["smf_features"]);
    assert_eq!(f0["count"], f1["count"]);
    for (a, b) in f0["records"]
        .as_array()
        .unwrap()
        .iter()
        .zip(f1["records"].as_array().unwrap())
    {
        let name = |v: &serde_json::Value, f: &serde_json::Value| {
            f["types"][v[0].as_u64().unwrap() as usize].clone()
        };
        assert_eq!(name(a, f0), name(b, f1));
        assert_eq!((&a[1], &a[3]), (&b[1], &b[3]), "feature position");
    }
    // the map still carries its own mapinfo values through our writer
    assert_eq!(
        u0["mapInfo"], u1["mapInfo"],
        "name, description, gravity, maxMetal, extractorRadius, wind"
    );
    assert_eq!(u1["GetMapName"], u0["GetMapName"]);
}

#[test]
fn bare_smf_without_tiles_decompiles_from_its_minimap() {
    let Some(smf_path) = common::fixture("bar/Great_Divide.smf") else {
        groundwork::test_support::skip("fixtures not found");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("divide");
    let stderr = run_ok(&[
        os("decompile"),
        smf_path.as_os_str(),
        os("-o"),
        project.as_os_str(),
    ]);
    assert!(stderr.contains("minimap scaled up"), "{stderr}");
    let tex = image::open(project.join("texture.png")).unwrap();
    assert_eq!((tex.width(), tex.height()), (3072, 4096));
    // the texture is the map's picture, not a flat fill
    let rgb = tex.to_rgb8();
    let distinct: std::collections::HashSet<_> = rgb.pixels().step_by(997).collect();
    assert!(distinct.len() > 200, "{} colours", distinct.len());

    if common::referee_or_skip().is_none() {
        return;
    }
    // a bare .smf has no mapinfo: give it start positions so the game can use it
    let mut toml = std::fs::read_to_string(project.join("map.toml")).unwrap();
    toml.push_str("\n[[teams]]\nstart = [500.0, 500.0]\n\n[[teams]]\nstart = [2500.0, 3500.0]\n");
    std::fs::write(project.join("map.toml"), toml).unwrap();
    let archive = dir.path().join("Great_Divide.sdz");
    common::compile_project(&project, &archive);
    let dump = dir.path().join("dump");
    let v = common::validate_map(&archive, None, Some(&dump));
    assert_eq!(v["lint_ok"], true, "{}", v["lint"]);

    // the engine sees the original's height words, metal and types, read straight from the file
    let smf = std::fs::read(&smf_path).unwrap();
    let (mx, my) = (384usize, 512usize);
    assert_eq!(
        common::dumped(&dump, "height_"),
        smf_section(&smf, 52, (mx + 1) * (my + 1) * 2)
    );
    assert_eq!(
        common::dumped(&dump, "type_"),
        smf_section(&smf, 56, mx / 2 * my / 2)
    );
    assert_eq!(
        common::dumped(&dump, "metal_"),
        smf_section(&smf, 68, mx / 2 * my / 2)
    );
    let min = f32::from_le_bytes(smf[44..48].try_into().unwrap());
    let max = f32::from_le_bytes(smf[48..52].try_into().unwrap());
    assert_eq!(
        v["unitsync"]["GetMapMinHeight"].as_f64().unwrap() as f32,
        min
    );
    assert_eq!(
        v["unitsync"]["GetMapMaxHeight"].as_f64().unwrap() as f32,
        max
    );
    // and its features, by name and place
    let groundwork::formats::LoadedMap { map, .. } =
        groundwork::formats::read_map(Path::new(&smf_path)).unwrap();
    assert_eq!(v["smf_features"]["count"], map.features.len());
}
