//! The minimal project from the docs, round trips, and images of the wrong size or kind.

use super::*;
use crate::map::{LuaValue, MapSettings, MapSize};

const MINIMAL: &str = r#"
[map]
name = "My Map"
version = "1.0"
size = [8, 8]            # map units
min_height = -100.0      # elmos at height word 0
max_height = 400.0       # elmos at height word 65536 (the engine divides by 65536)
max_metal = 2.0
extractor_radius = 80.0

[[teams]]
start = [1024.0, 1024.0] # x, z in elmos

[[terrain_types]]
name = "Default"

[[terrain_types]]
name = "Rock"
hardness = 1.4
receive_tracks = false
"#;

#[test]
fn the_minimal_project_loads_exactly_as_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("map.toml"), MINIMAL).unwrap();
    let loaded = load_project(dir.path()).unwrap();
    let m = &loaded.map;
    assert_eq!(m.size, MapSize::new(8, 8).unwrap());
    assert_eq!(m.settings.name, "My Map");
    assert_eq!(m.settings.version, "1.0");
    assert_eq!(m.settings.max_metal, 2.0);
    assert_eq!(m.settings.extractor_radius_elmos, 80.0);
    assert_eq!(
        (m.settings.min_height_elmos, m.settings.max_height_elmos),
        (-100.0, 400.0)
    );
    assert_eq!(
        m.teams,
        vec![crate::map::Team {
            start_x_elmos: 1024.0,
            start_z_elmos: 1024.0
        }]
    );
    assert_eq!(m.settings.terrain_types[&1].name, "Rock");
    assert_eq!(m.settings.terrain_types[&1].hardness, 1.4);
    assert!(!m.settings.terrain_types[&1].receive_tracks);
    assert!(m.settings.terrain_types[&0].receive_tracks);
    assert_eq!((m.texture.width(), m.texture.height()), (4096, 4096));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}

fn sample_map() -> Map {
    let size = MapSize::new(2, 4).unwrap();
    let mut s = MapSettings {
        name: "Tall".into(),
        ..MapSettings::default()
    };
    s.water.fresnel_max = Some(0.7);
    s.water.extra.insert("shimmer", LuaValue::Number(3.0));
    s.terrain_types
        .insert(255, crate::map::TerrainType::named("Road"));
    s.custom.insert("fog", LuaValue::numbers(&[0.1, 0.2, 0.3]));
    let mut m = Map::new(size, s);
    for (i, h) in m.heights.data_mut().iter_mut().enumerate() {
        *h = crate::map::word_to_height((i * 37 % 65536) as u16, -100.0, 400.0);
    }
    m.metal.set(3, 4, 200);
    m.grass.set(1, 2, 17);
    m.types.set(0, 0, 255);
    for (i, b) in m.texture.rgba_mut().iter_mut().enumerate() {
        *b = if i % 4 == 3 { 255 } else { (i * 7 % 256) as u8 };
    }
    m.teams.push(crate::map::Team {
        start_x_elmos: 10.0,
        start_z_elmos: 20.0,
    });
    m.features.push(crate::map::Feature {
        name: "GeoVent".into(),
        x_elmos: 5.0,
        z_elmos: 6.0,
        rotation_deg: 45.0,
    });
    m.bundled_files.push(BundledFile::new(
        "mapconfig/mapinfo/a.lua".into(),
        b"return {}".to_vec(),
    ));
    m
}

#[test]
fn save_then_load_gives_the_same_document() {
    let dir = tempfile::tempdir().unwrap();
    let m = sample_map();
    save_project(&m, dir.path()).unwrap();
    let back = load_project(dir.path()).unwrap().map;
    assert_eq!(back.height_words(), m.height_words());
    assert_eq!(back.heights, m.heights);
    assert_eq!(back.metal, m.metal);
    assert_eq!(back.grass, m.grass);
    assert_eq!(back.types, m.types);
    assert_eq!(back.texture, m.texture);
    assert_eq!(back.teams, m.teams);
    assert_eq!(back.features, m.features);
    assert_eq!(back.settings, m.settings);
    assert_eq!(back.bundled_files, m.bundled_files);
    assert_eq!(back.symmetry, crate::map::SymmetryMode::None);
    let text = std::fs::read_to_string(dir.path().join(PROJECT_FILE)).unwrap();
    assert!(
        !text.contains("[editor]"),
        "no symmetry, no [editor]: {text}"
    );
    // the symmetry mode travels in [editor]
    let mut sym = m.clone();
    sym.symmetry = crate::map::SymmetryMode::MirrorXZ;
    save_project(&sym, dir.path()).unwrap();
    let text = std::fs::read_to_string(dir.path().join(PROJECT_FILE)).unwrap();
    assert!(
        text.contains("[editor]\nsymmetry = \"mirror-xz\""),
        "{text}"
    );
    assert_eq!(load_project(dir.path()).unwrap().map.symmetry, sym.symmetry);
    // saving again over the old folder keeps it consistent
    let mut m2 = m.clone();
    m2.bundled_files.clear();
    save_project(&m2, dir.path()).unwrap();
    assert!(!dir.path().join("archive").exists());
}

#[test]
fn images_of_the_wrong_size_name_the_file_and_the_size() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("map.toml"), MINIMAL).unwrap();
    image::GrayImage::new(100, 100)
        .save(dir.path().join("metal.png"))
        .unwrap();
    let e = load_project(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("metal.png") && e.contains("is 100x100, but it must be 256x256"),
        "{e}"
    );
    std::fs::remove_file(dir.path().join("metal.png")).unwrap();
    image::RgbImage::new(4096, 4095)
        .save(dir.path().join("texture.png"))
        .unwrap();
    let e = load_project(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("texture.png") && e.contains("must be 4096x4096"),
        "{e}"
    );
    std::fs::remove_file(dir.path().join("texture.png")).unwrap();
    image::RgbImage::new(128, 128)
        .save(dir.path().join("type.png"))
        .unwrap();
    let e = load_project(dir.path()).unwrap_err().to_string();
    assert!(e.contains("type.png"), "{e}");
    image::RgbImage::new(256, 256)
        .save(dir.path().join("type.png"))
        .unwrap();
    let e = load_project(dir.path()).unwrap_err().to_string();
    assert!(e.contains("greyscale"), "{e}");
}

#[test]
fn eight_bit_heights_load_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("map.toml"), MINIMAL).unwrap();
    let mut img = image::GrayImage::new(513, 513);
    img.put_pixel(0, 0, image::Luma([255]));
    img.save(dir.path().join("height.png")).unwrap();
    let l = load_project(dir.path()).unwrap();
    assert_eq!(l.map.height_words()[0], 65535);
    assert!(
        l.warnings.iter().any(|w| w.contains("8-bit")),
        "{:?}",
        l.warnings
    );
}

#[test]
fn bad_settings_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    for (text, want) in [
        (
            MINIMAL.replace("size = [8, 8]", "size = [7, 8]"),
            "even number of map units",
        ),
        (
            MINIMAL.replace("max_metal = 2.0", "max_metl = 2.0"),
            "max_metl",
        ),
        (
            MINIMAL.replace("max_height = 400.0", "max_height = -200.0"),
            "must be above min_height",
        ),
        (MINIMAL.replace("[map]", "[mapp]"), "mapp"),
        ("garbage = [".to_string(), "map.toml"),
    ] {
        std::fs::write(dir.path().join("map.toml"), &text).unwrap();
        let e = load_project(dir.path()).unwrap_err().to_string();
        assert!(e.contains(want), "{want}: {e}");
    }
    let e = load_project(&dir.path().join("nowhere"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("map.toml"), "{e}");
}

#[test]
fn a_symmetry_the_map_cannot_have_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let oblong = MINIMAL.replace("size = [8, 8]", "size = [8, 4]");
    std::fs::write(
        dir.path().join(PROJECT_FILE),
        format!("{oblong}\n[editor]\nsymmetry = \"rotate-4\"\n"),
    )
    .unwrap();
    let e = load_project(dir.path()).unwrap_err().to_string();
    assert!(e.contains("[editor]") && e.contains("square"), "{e}");
    std::fs::write(
        dir.path().join(PROJECT_FILE),
        format!("{MINIMAL}\n[editor]\nsymmetry = \"spiral\"\n"),
    )
    .unwrap();
    let e = load_project(dir.path()).unwrap_err().to_string();
    assert!(e.contains("unknown symmetry"), "{e}");
}

#[test]
fn engine_defaults_left_in_place_are_the_lints_to_tell() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("map.toml"),
        "[map]\nname = \"x\"\nsize = [2, 2]\n",
    )
    .unwrap();
    let l = load_project(dir.path()).unwrap();
    assert_eq!(l.map.settings.max_metal, 0.02);
    // the loader says nothing the lint says: `info` prints one list
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    let (_, findings) =
        crate::lint::lint_path(dir.path(), &crate::lint::LintContext::default()).unwrap();
    let mut rules: Vec<&str> = findings.iter().map(|f| f.rule).collect();
    rules.sort_unstable();
    assert_eq!(
        rules,
        [
            "extractor-radius-default",
            "max-metal-default",
            "no-start-positions"
        ]
    );
}

#[test]
fn textures_read_from_memory_as_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut img = image::RgbImage::new(512, 512);
    for (x, y, p) in img.enumerate_pixels_mut() {
        *p = image::Rgb([(x % 256) as u8, (y % 253) as u8, ((x * y) % 11) as u8]);
    }
    // the plain BMP reader, the general decoder (TGA has no signature: named by its extension)
    // and PNG
    for name in ["texture.bmp", "texture.tga", "texture.png"] {
        let path = dir.path().join(name);
        img.save(&path).unwrap();
        let from_file =
            images::read_texture(images::LayerFile::open(&path).unwrap(), (512, 512)).unwrap();
        let bytes: &'static [u8] = Vec::leak(std::fs::read(&path).unwrap());
        let in_memory = images::read_texture(
            images::LayerFile::in_memory(std::path::PathBuf::from(name), bytes),
            (512, 512),
        )
        .unwrap();
        assert_eq!(from_file, in_memory, "{name}");
        let want = image::DynamicImage::ImageRgb8(img.clone())
            .into_rgba8()
            .into_raw();
        assert_eq!(from_file, want, "{name}");
    }
}

#[test]
fn bmp_textures_read_the_right_way_up() {
    let dir = tempfile::tempdir().unwrap();
    let mut img = image::RgbImage::new(1024, 1024);
    for (x, y, p) in img.enumerate_pixels_mut() {
        *p = image::Rgb([(x % 256) as u8, (y % 251) as u8, ((x + y) % 7) as u8]);
    }
    let path = dir.path().join("texture.bmp");
    img.save(&path).unwrap();
    let rgba = images::read_texture(images::LayerFile::open(&path).unwrap(), (1024, 1024)).unwrap();
    let want = image::DynamicImage::ImageRgb8(img).into_rgba8().into_raw();
    assert_eq!(rgba, want);
    let e = images::read_texture(images::LayerFile::open(&path).unwrap(), (2048, 1024))
        .unwrap_err()
        .to_string();
    assert!(e.contains("is 1024x1024, but it must be 2048x1024"), "{e}");
}

#[test]
fn the_maps_own_water_presets_travel_in_editor() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = sample_map();
    let water = crate::map::WaterSettings {
        surface_color: Some([0.1, 0.2, 0.3]),
        fresnel_max: Some(0.5),
        ..Default::default()
    };
    m.water_presets = vec![crate::map::water::WaterPreset {
        name: "Lagoon".into(),
        water,
    }];
    save_project(&m, dir.path()).unwrap();
    let text = std::fs::read_to_string(dir.path().join(PROJECT_FILE)).unwrap();
    assert!(text.contains("[[editor.water_presets]]"), "{text}");
    let back = load_project(dir.path()).unwrap().map;
    assert_eq!(back.water_presets, m.water_presets);
    // and they stay out of the compiled map's settings
    assert_eq!(back.settings, m.settings);
}

#[test]
fn start_boxes_load_save_and_refuse_what_the_lobby_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{MINIMAL}\n[[start_boxes]]\nteams = 2\nmax_players_per_box = 4\nboxes = [[0, 0, 40, 200], [160, 0, 200, 200]]\n"
    );
    std::fs::write(dir.path().join("map.toml"), &text).unwrap();
    let loaded = load_project(dir.path()).unwrap();
    let want = vec![crate::map::start_boxes::StartBoxSet {
        teams: 2,
        max_players_per_box: 4,
        boxes: vec![[0, 0, 40, 200], [160, 0, 200, 200]],
    }];
    assert_eq!(loaded.map.start_boxes, want);
    // saved and read back
    let out = tempfile::tempdir().unwrap();
    let dest = out.path().join("p");
    save_project(&loaded.map, &dest).unwrap();
    let saved = std::fs::read_to_string(dest.join("map.toml")).unwrap();
    assert!(saved.contains("[[start_boxes]]"), "{saved}");
    assert_eq!(load_project(&dest).unwrap().map.start_boxes, want);
    for (bad, why) in [
        ("[160, 0, 200, 200]", "list 1 boxes"),
        ("[160, 0, 200, 200], [10, 50, 5, 60]", "x1 < x2"),
        ("[160, 0, 200, 200], [10, 50, 30, 260]", "0..200"),
    ] {
        let t = text.replace("[0, 0, 40, 200], [160, 0, 200, 200]", bad);
        std::fs::write(dir.path().join("map.toml"), &t).unwrap();
        let e = load_project(dir.path())
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
    let twice =
        format!("{text}\n[[start_boxes]]\nteams = 2\nboxes = [[0, 0, 10, 10], [20, 20, 30, 30]]\n");
    std::fs::write(dir.path().join("map.toml"), &twice).unwrap();
    let e = load_project(dir.path())
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("two arrangements for 2 teams"), "{e}");
}
