//! The ground's material layers from `map.toml` to the engine: a layer's rules follow the
//! terrain in the compiled tiles (a ramp turns to rock under a slope rule, checked by reading the
//! compiled map back and by the engine's unitsync), a stack that selects nothing compiles byte
//! for byte as the picture alone, and a project keeps its layers and masks.

use groundwork::compile::{CompileOptions, Progress, build_map_files, compile_map};
use groundwork::map::ground_layers::{Band, MASK_NEUTRAL, Material, TextureLayer};
use groundwork::map::materials::BuiltinMaterial;
use groundwork::map::{Grid, Map, MapSettings, MapSize, Team};

mod common;

/// A 2x2 map: flat at 0 up to x = 400 elmos, a 45-degree ramp to x = 600, flat at 200 beyond,
/// on the default texture.
fn ramp_map() -> Map {
    let mut m = Map::new(
        MapSize::new(2, 2).unwrap(),
        MapSettings {
            name: "Layer Ramp".into(),
            max_metal: 2.0,
            extractor_radius_elmos: 90.0,
            min_height_elmos: -50.0,
            max_height_elmos: 300.0,
            ..MapSettings::default()
        },
    );
    let (w, d) = m.heights.dims();
    for j in 0..d {
        for i in 0..w {
            m.heights
                .set(i, j, (i as f32 * 8.0 - 400.0).clamp(0.0, 200.0));
        }
    }
    m.teams = vec![
        Team {
            start_x_elmos: 200.0,
            start_z_elmos: 200.0,
        },
        Team {
            start_x_elmos: 800.0,
            start_z_elmos: 800.0,
        },
    ];
    m
}

const ROCK: [u8; 3] = [150, 60, 40];

fn rock_on_slopes(min_deg: f32) -> TextureLayer {
    let mut rock = TextureLayer::new("Cliffs", Material::Solid { color: ROCK });
    rock.rules.slope_deg = Some(Band {
        min: min_deg,
        max: 90.0,
        soft: 0.0,
    });
    rock
}

#[test]
fn a_stack_that_selects_nothing_compiles_byte_for_byte_as_the_picture() {
    let plain = ramp_map();
    let mut layered = ramp_map();
    // nothing on this map is steeper than 46 degrees
    layered.texture_layers.push(rock_on_slopes(80.0));
    let o = CompileOptions::default();
    let a = build_map_files(&plain, &o, &Progress::none()).unwrap();
    let b = build_map_files(&layered, &o, &Progress::none()).unwrap();
    assert!(a.smt_parts == b.smt_parts, "the tiles differ");
    assert!(a.smf == b.smf, "the .smf differs");
}

#[test]
fn a_ramp_turns_to_rock_under_a_slope_rule_in_the_compiled_map() {
    let mut m = ramp_map();
    m.texture_layers.push(rock_on_slopes(40.0));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("layer_ramp.sdd");
    compile_map(&m, &out, &CompileOptions::default(), &Progress::none()).unwrap();
    // read the tiles back: rock on the ramp, the original picture elsewhere (BC1's error)
    let back = groundwork::formats::open_map(&out).unwrap().map;
    let near =
        |a: [u8; 4], b: [u8; 3], tol: i32| (0..3).all(|k| (a[k] as i32 - b[k] as i32).abs() <= tol);
    for tz in (16..1008).step_by(64) {
        for tx in (0..1024).step_by(8) {
            let x = tx as f32 + 0.5;
            let got = back.texture.pixel(tx, tz);
            if (424.0..576.0).contains(&x) {
                assert!(near(got, ROCK, 12), "({tx}, {tz}): {got:?} is not rock");
            } else if !(368.0..632.0).contains(&x) {
                let orig = m.texture.pixel(tx, tz);
                assert!(
                    near(got, [orig[0], orig[1], orig[2]], 12),
                    "({tx}, {tz}): {got:?} is not the picture's {orig:?}"
                );
            }
        }
    }
    if common::referee_or_skip().is_some() {
        common::validate_map(&out, Some(&common::engine_expectation(&m)), None);
    }
}

#[test]
fn a_project_keeps_its_layers_and_masks() {
    let mut m = ramp_map();
    let mut sand = TextureLayer::new(
        "Low sand",
        Material::Builtin {
            kind: BuiltinMaterial::Sand,
            scale_elmos: 128.0,
            tint: [1.0, 0.9, 0.8],
        },
    );
    sand.rules.height_elmos = Some(Band {
        min: -50.0,
        max: 20.0,
        soft: 10.0,
    });
    let (mw, mh) = m.metal.dims();
    let mut mask = Grid::filled(mw, mh, MASK_NEUTRAL);
    mask.set(3, 4, 255);
    mask.set(40, 50, 0);
    sand.mask = Some(mask);
    sand.splat_channel = Some(2);
    m.texture_layers.push(sand);
    m.texture_layers.push(rock_on_slopes(35.0));
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("Layers");
    groundwork::formats::save_project(&m, &p).unwrap();
    assert!(p.join("texture/Low sand.png").is_file());
    let back = groundwork::formats::load_project(&p).unwrap();
    assert_eq!(back.map.texture_layers, m.texture_layers);
    // and the same bake from either
    let a = groundwork::compile::bake_texture(&m).unwrap();
    let b = groundwork::compile::bake_texture(&back.map).unwrap();
    assert!(a == b);
}

#[test]
fn a_bad_layer_in_map_toml_is_one_line_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("map.toml"),
        "[map]\nname = \"x\"\nsize = [2, 2]\n\n[[texture.layers]]\nname = \"Rock\"\nmaterial = \"rock\"\n[texture.layers.rules]\nsoft_deg = 4.0\n",
    )
    .unwrap();
    let e = groundwork::formats::load_project(dir.path())
        .unwrap_err()
        .to_string();
    assert!(e.contains("Rock") && e.contains("soft_deg"), "{e}");
    std::fs::write(
        dir.path().join("map.toml"),
        "[map]\nname = \"x\"\nsize = [2, 2]\n\n[[texture.layers]]\nname = \"A\"\nmaterial = \"rock\"\nsplat_channel = 1\n\n[[texture.layers]]\nname = \"B\"\nmaterial = \"mud\"\nsplat_channel = 1\n",
    )
    .unwrap();
    let e = groundwork::formats::load_project(dir.path())
        .unwrap_err()
        .to_string();
    assert!(e.contains("splat channel 1"), "{e}");
}

#[test]
fn a_layer_on_a_splat_channel_writes_dnts_the_engine_loads() {
    let mut m = ramp_map();
    let mut rock = TextureLayer::new(
        "Cliffs",
        Material::Builtin {
            kind: BuiltinMaterial::Rock,
            scale_elmos: 200.0,
            tint: [1.0; 3],
        },
    );
    rock.rules.slope_deg = Some(Band {
        min: 40.0,
        max: 90.0,
        soft: 0.0,
    });
    rock.splat_channel = Some(0);
    m.texture_layers.push(rock);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("layer_dnts.sdd");
    compile_map(&m, &out, &CompileOptions::default(), &Progress::none()).unwrap();
    let mapinfo = std::fs::read_to_string(out.join("mapinfo.lua")).unwrap();
    for key in [
        "splatDistrTex",
        "splatDetailTex",
        "splatDetailNormalTex",
        "alpha = true",
        "texScales",
        "texMults",
    ] {
        assert!(mapinfo.contains(key), "{key} not in mapinfo.lua");
    }
    // the distribution: channel 0 on the ramp only; the DDS rows run south to north (the
    // engine flips them on load)
    let bytes = std::fs::read(out.join("maps/splat_distribution.dds")).unwrap();
    let dds = image_dds::ddsfile::Dds::read(&mut std::io::Cursor::new(&bytes)).unwrap();
    let s = image_dds::SurfaceRgba8::decode_dds(&dds).unwrap();
    let (w, h) = (s.width as usize, s.height as usize);
    assert_eq!((w, h), (64, 64));
    for row in [0, h / 2, h - 1] {
        for x in 0..w {
            let r = s.data[(row * w + x) * 4] as i32;
            let xe = (x as f32 + 0.5) * 16.0;
            if (430.0..570.0).contains(&xe) {
                assert!(r > 200, "x {xe}: {r}");
            } else if !(380.0..620.0).contains(&xe) {
                assert!(r < 20, "x {xe}: {r}");
            }
        }
    }
    for k in 0..4 {
        assert!(
            out.join(format!("maps/splat_detail_normal_{k}.dds"))
                .is_file()
        );
    }
    // the lint still holds: splatDetailTex is named, so DNTS is on
    let (_, findings) =
        groundwork::lint::lint_path(&out, &groundwork::lint::LintContext::default()).unwrap();
    assert!(
        !findings
            .iter()
            .any(|f| f.rule == "splat-detail-tex-missing"),
        "{findings:?}"
    );
    if common::referee_or_skip().is_some() {
        common::validate_map(&out, Some(&common::engine_expectation(&m)), None);
    }

    // decompiled, the map keeps its DNTS files and keys; compiled again it still has DNTS on
    let project = dir.path().join("project");
    let run = |args: &[&std::ffi::OsStr]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_groundwork"))
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&[
        "decompile".as_ref(),
        out.as_os_str(),
        "-o".as_ref(),
        project.as_os_str(),
    ]);
    let again = dir.path().join("again.sdd");
    run(&[
        "compile".as_ref(),
        project.as_os_str(),
        "-o".as_ref(),
        again.as_os_str(),
    ]);
    // (the engine lowercases every key, as BAR's `lowerkeys` tail does when we read it back)
    let mapinfo = std::fs::read_to_string(again.join("mapinfo.lua"))
        .unwrap()
        .to_lowercase();
    for key in [
        "splatdistrtex",
        "splatdetailtex",
        "splatdetailnormaltex",
        "texscales",
    ] {
        assert!(mapinfo.contains(key), "{key} lost in decompile and compile");
    }
    for file in std::iter::once("maps/splat_distribution.dds".to_string())
        .chain((0..4).map(|k| format!("maps/splat_detail_normal_{k}.dds")))
    {
        assert_eq!(
            std::fs::read(again.join(&file)).ok(),
            std::fs::read(out.join(&file)).ok(),
            "{file} not kept byte for byte"
        );
    }
    let (_, findings) =
        groundwork::lint::lint_path(&again, &groundwork::lint::LintContext::default()).unwrap();
    assert!(
        !findings
            .iter()
            .any(|f| f.rule == "splat-detail-tex-missing"),
        "{findings:?}"
    );
}

#[test]
fn an_opened_real_map_left_untouched_recompiles_byte_for_byte() {
    let Some(path) = common::fixture("bar/Map_Blueprint_V1.sdd") else {
        groundwork::test_support::skip("fixtures not found");
        return;
    };
    let map = groundwork::formats::map_reader::read_map(&path)
        .unwrap()
        .map;
    // opened, the map is its picture alone ("Original", 1:1): no layers
    assert!(map.texture_layers.is_empty());
    assert!(
        groundwork::compile::bake_texture(&map).unwrap() == map.texture,
        "the bake changed the picture"
    );
    let o = CompileOptions::default();
    let a = build_map_files(&map, &o, &Progress::none()).unwrap();
    // saved as a project and opened again, still no layers and the same bytes
    let dir = tempfile::tempdir().unwrap();
    groundwork::formats::save_project(&map, &dir.path().join("p")).unwrap();
    let again = groundwork::formats::load_project(&dir.path().join("p"))
        .unwrap()
        .map;
    assert!(again.texture_layers.is_empty());
    let b = build_map_files(&again, &o, &Progress::none()).unwrap();
    assert!(
        a.smt_parts == b.smt_parts,
        "the tiles differ after a save and open"
    );
    assert!(a.smf == b.smf, "the .smf differs after a save and open");
    // and a layer that selects nothing (the template is nowhere steeper than 89 degrees)
    let mut layered = map.clone();
    layered.texture_layers.push(rock_on_slopes(89.5));
    let c = build_map_files(&layered, &o, &Progress::none()).unwrap();
    assert!(
        a.smt_parts == c.smt_parts,
        "a layer that selects nothing changed the tiles"
    );
}

#[test]
fn compile_bakes_on_the_gpu_when_there_is_one_and_on_the_cpu_when_asked() {
    let mut m = ramp_map();
    m.texture_layers.push(rock_on_slopes(40.0));
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("p");
    groundwork::formats::save_project(&m, &project).unwrap();
    let compile = |out: &std::path::Path, extra: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_groundwork"))
            .arg("compile")
            .arg(&project)
            .arg("-o")
            .arg(out)
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(o.status.success(), "{stderr}");
        stderr
    };
    let (gpu_out, cpu_out) = (dir.path().join("gpu.sdd"), dir.path().join("cpu.sdd"));
    // the adapter even when it is a CPU (lavapipe), where the CLI takes the CPU twin itself
    let on_gpu = compile(&gpu_out, &["--gpu-bake"]);
    let on_cpu = compile(&cpu_out, &["--cpu-bake"]);
    assert!(on_cpu.contains("on the CPU") || !on_cpu.contains("on the GPU"));
    if !on_gpu.contains("baking the texture layers on ") || on_gpu.contains("on the CPU (") {
        groundwork::test_support::skip(&format!("no GPU that runs compute: {on_gpu}"));
        return;
    }
    // the same ground within the bakes' level and the tiles' compression
    let read = |p: &std::path::Path| groundwork::formats::read_map(p).unwrap().map.texture;
    let (g, c) = (read(&gpu_out), read(&cpu_out));
    let worst = g
        .rgba()
        .iter()
        .zip(c.rgba())
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap();
    assert!(worst <= 16, "GPU and CPU compiles differ by {worst} levels");
    if common::referee_or_skip().is_some() {
        common::validate_map(&gpu_out, Some(&common::engine_expectation(&m)), None);
    }
}

#[test]
fn ambient_occlusion_is_off_unless_asked_and_darkens_a_pit_when_it_is() {
    let mut m = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
    m.settings.min_height_elmos = -200.0;
    for j in 54..75 {
        for i in 54..75 {
            m.heights.set(i, j, -150.0);
        }
    }
    let o = CompileOptions::default();
    let plain = build_map_files(&m, &o, &Progress::none()).unwrap();
    // asked for in map.toml, kept by a save and an open
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p");
    groundwork::formats::save_project(&m, &p).unwrap();
    let toml = std::fs::read_to_string(p.join("map.toml")).unwrap();
    assert!(!toml.contains("ambient_occlusion"), "off by default");
    std::fs::write(
        p.join("map.toml"),
        format!(
            "{toml}\n[texture]\nambient_occlusion = 0.8\nambient_occlusion_radius_elmos = 200\n"
        ),
    )
    .unwrap();
    let opened = groundwork::formats::load_project(&p).unwrap().map;
    let ao = opened.texture_ao.expect("read");
    assert_eq!((ao.strength, ao.radius_elmos), (0.8, 200.0));
    let baked = groundwork::compile::bake_texture(&opened).unwrap();
    let tw = baked.width();
    let lum = |t: &groundwork::map::GroundTexture, x: usize, z: usize| {
        let p = &t.rgba()[(z * tw + x) * 4..];
        p[0] as u32 + p[1] as u32 + p[2] as u32
    };
    assert!(
        lum(&baked, 512, 512) < lum(&m.texture, 512, 512) * 3 / 4,
        "the pit is darker"
    );
    assert_eq!(
        lum(&baked, 100, 100),
        lum(&m.texture, 100, 100),
        "open ground is not"
    );
    let shaded = build_map_files(&opened, &o, &Progress::none()).unwrap();
    assert!(
        shaded.smt_parts != plain.smt_parts,
        "the compiled tiles carry it"
    );
    // a radius without the strength does nothing: an error naming it
    std::fs::write(
        p.join("map.toml"),
        format!("{toml}\n[texture]\nambient_occlusion_radius_elmos = 200\n"),
    )
    .unwrap();
    let Err(err) = groundwork::formats::load_project(&p) else {
        panic!("a radius alone was accepted");
    };
    let err = err.to_string();
    assert!(err.contains("ambient_occlusion_radius_elmos"), "{err}");
    if common::referee_or_skip().is_some() {
        let out = dir.path().join("ao.sdd");
        compile_map(&opened, &out, &o, &Progress::none()).unwrap();
        common::validate_map(&out, Some(&common::engine_expectation(&opened)), None);
    }
}
