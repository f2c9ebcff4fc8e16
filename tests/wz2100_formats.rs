//! The Warzone 2100 importer on map folders built here: the version-40 `game.map` and the
//! `{"version": 2}` JSON forms, a missing `base.wz`, and bad input of every kind. The last test
//! rewrites a real map from Debian's data in the newer forms and checks nothing changes.

use std::io::Read;
use std::path::{Path, PathBuf};

use groundwork::formats::wz2100;
use groundwork::formats::wz2100::map_file::{self, GameMap, MapTile};
use groundwork::formats::wz2100::ttypes::{self, TileTypes};
use groundwork::import::wz2100::Wz2100Options;

/// Writes a 16x16-tile map folder: a plateau of height `plateau` (world units) on the east
/// half, a cliff column between, a water strip in the south-west, two HQs, oil, trees.
fn write_map(dir: &Path, version: u32, plateau: u16) {
    std::fs::create_dir_all(dir).unwrap();
    let (w, h) = (16u32, 16u32);
    let tiles = (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let tile = if x == 7 {
                2 // cliff
            } else if x < 4 && y >= 12 {
                1 // water
            } else {
                0
            };
            MapTile {
                texture: tile | if x % 2 == 0 { 0x8000 } else { 0x1000 },
                height: if x >= 8 { plateau } else { 0 },
            }
        })
        .collect();
    let map = GameMap {
        version,
        width: w,
        height: h,
        tiles,
        gateways: vec![],
        trailing_bytes: 0,
    };
    std::fs::write(dir.join("game.map"), map_file::write(&map)).unwrap();
    let tt = TileTypes {
        version: 8,
        types: vec![0, 7, 8],
    };
    std::fs::write(dir.join("ttypes.ttp"), ttypes::write(&tt)).unwrap();
    std::fs::write(
        dir.join("struct.json"),
        r#"{"version": 2, "structures": [
            {"name": "A0CommandCentre", "position": [320, 320], "rotation": 0, "startpos": 0},
            {"name": "A0CommandCentre", "position": [1728, 1728], "rotation": 0, "startpos": 1},
            {"name": "A0ResourceExtractor", "position": [1216, 448], "rotation": 0, "startpos": 1},
            {"name": "A0HardcreteMk1Wall", "position": [600, 600], "rotation": 0, "player": "scavenger"}
        ]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("feature.json"),
        r#"{
            "feature_1": {"name": "OilResource", "position": [448, 448, 0], "rotation": [0, 0, 0]},
            "feature_2": {"name": "Tree1", "position": [832, 1600, 0], "rotation": [16384, 0, 0]},
            "feature_3": {"name": "Boulder3", "position": [900, 1500, 0], "rotation": [0, 0, 0]},
            "feature_4": {"name": "WreckedTankerV", "position": [500, 900, 0], "rotation": [0, 0, 0]}
        }"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("droid.json"),
        r#"{"version": 2, "droids": [
            {"template": "ConstructorDroid", "position": [400, 400], "rotation": 0, "startpos": 0}
        ]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("level.json"),
        r#"{"name": "Made Here", "type": "skirmish", "players": 2, "tileset": "rockies",
            "author": {"name": "Groundwork tests"}}"#,
    )
    .unwrap();
}

fn no_art() -> Wz2100Options {
    Wz2100Options {
        base_wz: Some(PathBuf::from("/nonexistent/base.wz")),
        ..Wz2100Options::default()
    }
}

#[test]
fn newer_forms_import_without_tile_art() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("2c-madehere");
    write_map(&dir, 40, 300);
    let listed = wz2100::list_maps(&dir).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].title, "Made Here");
    assert_eq!(listed[0].tileset, Some(wz2100::Tileset::Rockies));
    let (map, report) = groundwork::import::wz2100::import(&dir, None, &no_art()).unwrap();
    map.check_layers().unwrap();
    let text = report.to_text();
    assert!(text.contains("plain colours"), "{text}");
    assert!(text.contains("tileset rockies from level.json"), "{text}");
    assert!(text.contains("WreckedTankerV x1"), "{text}");
    assert!(text.contains("A0HardcreteMk1Wall (scavenger) x1"), "{text}");
    assert_eq!(map.settings.name, "WZ2100 Made Here");
    assert_eq!(map.settings.author, "Groundwork tests");
    // 16 tiles x 64 elmos = 1024 = 2 map units: no padding
    assert_eq!(map.size.width_units(), 2);
    assert_eq!(map.teams.len(), 2);
    assert_eq!(
        (map.teams[0].start_x_elmos, map.teams[0].start_z_elmos),
        (160.0, 160.0)
    );
    assert_eq!(
        (map.teams[1].start_x_elmos, map.teams[1].start_z_elmos),
        (864.0, 864.0)
    );
    // one oil feature and one derrick not on oil: two spots
    let sum: u64 = map.metal.data().iter().map(|&b| b as u64).sum();
    assert!((sum as f64 / 2.0 - 2000.0).abs() < 40.0, "{sum}");
    let names: Vec<&str> = map.features.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["treetype1", "rocks30_snow_24"]);
    assert_eq!(map.features[0].rotation_deg, 90.0);
    // version 40 heights: 300 world units at half scale plus the lift, on the plateau
    let plateau = map.heights.get(12 * 8, 4 * 8);
    assert!((plateau - (150.0 + 64.0 / 3.0)).abs() < 0.01, "{plateau}");
    // the water strip is sea
    assert!(map.heights.get(8, 15 * 8) < -40.0);
    // the plain texture shows water blue-ish in the strip
    let px = map.texture.pixel(40, 15 * 64);
    assert!(px[2] > px[0], "{px:?}");
}

#[test]
fn byte_heights_match_u16_heights() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    write_map(&a, 10, 300);
    write_map(&b, 40, 300);
    let (ma, _) = groundwork::import::wz2100::import(&a, None, &no_art()).unwrap();
    let (mb, _) = groundwork::import::wz2100::import(&b, None, &no_art()).unwrap();
    assert_eq!(ma.heights, mb.heights);
    assert_eq!(ma.metal, mb.metal);
}

fn import_err(dir: &Path) -> String {
    groundwork::import::wz2100::import(dir, None, &no_art())
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_input_gives_one_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("2c-bad");
    write_map(&dir, 10, 100);
    let good = std::fs::read(dir.join("game.map")).unwrap();

    std::fs::write(dir.join("game.map"), &good[..good.len() / 2]).unwrap();
    let e = import_err(&dir);
    assert!(e.contains("game.map") && e.contains("truncated"), "{e}");

    let mut magic = good.clone();
    magic[0..4].copy_from_slice(b"PAM ");
    std::fs::write(dir.join("game.map"), &magic).unwrap();
    assert!(import_err(&dir).contains("wrong magic"));

    let mut absurd = good.clone();
    absurd[8..12].copy_from_slice(&1_000_000u32.to_le_bytes());
    absurd[12..16].copy_from_slice(&1_000_000u32.to_le_bytes());
    std::fs::write(dir.join("game.map"), &absurd).unwrap();
    assert!(import_err(&dir).contains("not valid"));

    std::fs::write(dir.join("game.map"), &good).unwrap();
    std::fs::write(dir.join("ttypes.ttp"), b"ttyp\x08\0\0\0\xff\xff\0\0").unwrap();
    assert!(import_err(&dir).contains("ttypes.ttp"));

    write_map(&dir, 10, 100);
    std::fs::write(dir.join("struct.json"), b"{ not json").unwrap();
    assert!(import_err(&dir).contains("struct.json"));

    // script-only map folder
    let js = tmp.path().join("4c-script");
    std::fs::create_dir_all(&js).unwrap();
    std::fs::write(js.join("game.js"), b"setMapData(...)").unwrap();
    std::fs::write(
        js.join("ttypes.ttp"),
        ttypes::write(&TileTypes {
            version: 8,
            types: vec![0],
        }),
    )
    .unwrap();
    let e = import_err(&js);
    assert!(e.contains("script-generated"), "{e}");
    let l = wz2100::list_maps(&js).unwrap();
    assert_eq!(l[0].status.describe(), "script-generated, cannot import");

    // not an archive at all
    let junk = tmp.path().join("junk.wz");
    std::fs::write(&junk, b"this is not a zip").unwrap();
    assert!(
        wz2100::list_maps(&junk)
            .unwrap_err()
            .to_string()
            .contains("not a Warzone")
    );

    // options out of range
    write_map(&dir, 10, 100);
    let bad_scale = Wz2100Options {
        tile_elmos: 4,
        ..no_art()
    };
    assert!(
        groundwork::import::wz2100::import(&dir, None, &bad_scale)
            .unwrap_err()
            .to_string()
            .contains("out of range")
    );
}

/// Rewrites Debian's 4c-rush as a version-40 map with version-2 JSON in a folder tree and
/// checks the import is the same as from `mp.wz`.
#[test]
fn real_map_in_newer_forms_imports_the_same() {
    let mp = PathBuf::from(wz2100::SYSTEM_DATA_DIR).join("mp.wz");
    if !mp.is_file() {
        groundwork::test_support::skip("Warzone 2100 data (mp.wz) not found");
        return;
    }
    let mut z = zip::ZipArchive::new(std::fs::File::open(&mp).unwrap()).unwrap();
    let mut read = |name: &str| {
        let mut v = Vec::new();
        z.by_name(name).unwrap().read_to_end(&mut v).unwrap();
        v
    };
    let tmp = tempfile::tempdir().unwrap();
    let maps = tmp.path().join("multiplay/maps");
    let dir = maps.join("4c-rush");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(tmp.path().join("addon.lev"), read("addon.lev")).unwrap();
    std::fs::write(maps.join("4c-rush.gam"), read("multiplay/maps/4c-rush.gam")).unwrap();
    std::fs::write(
        dir.join("ttypes.ttp"),
        read("multiplay/maps/4c-rush/ttypes.ttp"),
    )
    .unwrap();
    let mut m = map_file::parse(&read("multiplay/maps/4c-rush/game.map")).unwrap();
    m.version = 40;
    std::fs::write(dir.join("game.map"), map_file::write(&m)).unwrap();
    for (file, list) in [
        ("struct.json", "structures"),
        ("feature.json", "features"),
        ("droid.json", "droids"),
    ] {
        let v: serde_json::Value =
            serde_json::from_slice(&read(&format!("multiplay/maps/4c-rush/{file}"))).unwrap();
        let items: Vec<serde_json::Value> = v
            .as_object()
            .unwrap()
            .values()
            .map(|o| {
                let mut o = o.clone();
                let pos = o["position"].as_array().unwrap()[..2].to_vec();
                o["position"] = serde_json::Value::Array(pos);
                o["rotation"] = o["rotation"][0].clone();
                o
            })
            .collect();
        let out = serde_json::json!({"version": 2, list: items});
        std::fs::write(dir.join(file), serde_json::to_vec(&out).unwrap()).unwrap();
    }
    let opts = no_art();
    let (a, ra) = groundwork::import::wz2100::import(&mp, Some("4c-rush"), &opts).unwrap();
    let (b, rb) = groundwork::import::wz2100::import(tmp.path(), Some("Sk-Rush"), &opts).unwrap();
    // and as a single map folder
    let (c, _) = groundwork::import::wz2100::import(&dir, None, &opts).unwrap();
    assert_eq!(a.heights, b.heights);
    assert_eq!(a.metal, b.metal);
    assert_eq!(a.teams, b.teams);
    assert_eq!(a.features, b.features);
    assert_eq!(a.texture, b.texture);
    assert_eq!(a.heights, c.heights);
    assert_eq!(
        a.settings.name, c.settings.name,
        "the .lev three folders up names it"
    );
    assert_eq!(ra.converted.len(), rb.converted.len());
}
