//! BAR's own tools read every map Groundwork writes: a generated map with texture layers and
//! features, compiled to `.sd7`, is one `.smt` that 7-Zip, sevenz-rust2 (our reader), BAR's
//! map parser (its pictures equal ours, and its texture is the painted one), unitsync and the
//! engine all read; an `.sdz` carries an `.smd` the parser reads with mapinfo.lua's values,
//! which the engine ignores for mapinfo.lua; a map from elsewhere with its tiles in several
//! `.smt` files opens, is linted, and compiles back to one.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use groundwork::formats::archive::ArchiveContents;

fn gw() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_groundwork"));
    c.env_remove("WAYLAND_DISPLAY");
    c
}

/// 7-Zip on the PATH (`7zz`, `7z` or `7za`), or a skip.
fn seven_zip_or_skip() -> Option<PathBuf> {
    let found = ["7zz", "7z", "7za"].into_iter().find(|b| {
        Command::new(b)
            .arg("i")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found.is_none() {
        groundwork::test_support::skip("7-Zip not found (apt-get install -y 7zip)");
    }
    found.map(PathBuf::from)
}

/// The `.smt` entries of an archive.
fn smts(archive: &Path) -> Vec<String> {
    ArchiveContents::read(archive)
        .unwrap()
        .files()
        .iter()
        .filter(|f| f.path.to_ascii_lowercase().ends_with(".smt"))
        .map(|f| f.path.clone())
        .collect()
}

/// `rgba` (w x h) averaged over `k` x `k` cells.
fn box_down(rgba: &[u8], w: usize, h: usize, k: usize) -> Vec<u8> {
    let (ow, oh) = (w / k, h / k);
    let mut out = vec![0u8; ow * oh * 4];
    for y in 0..oh {
        for x in 0..ow {
            let mut sum = [0u32; 4];
            for dy in 0..k {
                for dx in 0..k {
                    let p = ((y * k + dy) * w + x * k + dx) * 4;
                    for c in 0..4 {
                        sum[c] += rgba[p + c] as u32;
                    }
                }
            }
            for c in 0..4 {
                out[(y * ow + x) * 4 + c] = (sum[c] / (k * k) as u32) as u8;
            }
        }
    }
    out
}

#[test]
fn a_generated_layered_map_reads_in_bars_tools_as_painted() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("hills");
    common::new_project(
        &project,
        &["--size", "8x8", "--terrain", "hills", "--seed", "11"],
    );
    let map = groundwork::formats::open_map(&project).unwrap().map;
    assert!(
        !map.texture_layers.is_empty(),
        "the generator paints layers"
    );
    assert!(!map.features.is_empty(), "the generator places features");
    let archive = dir.path().join("hills.sd7");
    // on the CPU, as build_map_files below bakes, so the bytes can be compared
    groundwork::compile::compile_map(
        &map,
        &archive,
        &Default::default(),
        &groundwork::compile::Progress::none(),
    )
    .unwrap();
    // one tile file, as BAR's lobby reads
    assert_eq!(smts(&archive).len(), 1, "{:?}", smts(&archive));

    // 7-Zip tests every entry's CRC through its own LZMA2 decoder
    if let Some(seven) = seven_zip_or_skip() {
        let t = Command::new(&seven)
            .arg("t")
            .arg(&archive)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&t.stdout);
        assert!(
            t.status.success() && said.contains("Everything is Ok"),
            "{said}"
        );
    }
    // sevenz-rust2 (our reader) gives back the tiles the compile made
    let contents = ArchiveContents::read(&archive).unwrap();
    let smt = contents.find(&smts(&archive)[0]).unwrap().bytes().unwrap();
    let compiled = groundwork::compile::build_map_files(
        &map,
        &Default::default(),
        &groundwork::compile::Progress::none(),
    )
    .unwrap();
    let parts: Vec<u8> = compiled
        .smt_parts
        .iter()
        .flat_map(|p| p.iter().copied())
        .collect();
    assert!(*smt == parts[..], "the .smt read back is the one compiled");

    if !common::bar_parser::installed_or_skip() {
        return;
    }
    common::bar_parser::check(&archive);
    // and what BAR's lobby draws is the ground as painted: the baked layers, 8 x 8 texels a
    // pixel, against the parser's 4 px a tile (BC1 and its 565 widening in between)
    let parsed = common::bar_parser::parse(&archive).unwrap();
    let (theirs, tw, th) = parsed.picture("texture").unwrap();
    let baked = groundwork::compile::bake_texture(&map).unwrap();
    let painted = box_down(baked.rgba(), baked.width(), baked.height(), 8);
    assert_eq!((tw, th), (baked.width() / 8, baked.height() / 8));
    let db = common::bar_parser::psnr_rgb(&painted, &theirs);
    eprintln!("BAR's parser's texture against the painted ground: {db:.1} dB PSNR");
    assert!(db >= 25.0, "{db:.1} dB");

    if common::referee_or_skip().is_none() {
        return;
    }
    common::validate_map(&archive, Some(&common::engine_expectation(&map)), None);
    let r = common::run_engine(&archive, &[]);
    assert_eq!(r["engine_fatal"].as_array().map_or(0, Vec::len), 0, "{r}");
}

#[test]
fn an_sdz_carries_an_smd_for_bars_parser_and_the_engine_reads_mapinfo() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("flat");
    common::new_project(&project, &["--size", "4x4", "--players", "2"]);
    let map = groundwork::formats::open_map(&project).unwrap().map;
    let archive = dir.path().join("flat.sdz");
    common::compile_project(&project, &archive);
    let contents = ArchiveContents::read(&archive).unwrap();
    let smd = contents
        .files()
        .iter()
        .find(|f| f.path.ends_with(".smd"))
        .expect("an .smd under maps/");
    assert!(smd.path.starts_with("maps/"), "{}", smd.path);
    if !common::bar_parser::installed_or_skip() {
        return;
    }
    // the parser sees no mapinfo.lua in a zip: it takes the .smd's values, mapinfo.lua's
    let parsed = common::bar_parser::parse(&archive).unwrap();
    let read = &parsed.summary["smd"];
    let s = &map.settings;
    assert_eq!(read["maxMetal"].as_f64().unwrap() as f32, s.max_metal);
    assert_eq!(
        read["minHeight"].as_f64().unwrap() as f32,
        s.min_height_elmos
    );
    assert_eq!(
        read["maxHeight"].as_f64().unwrap() as f32,
        s.max_height_elmos
    );
    let starts = read["startPositions"].as_array().unwrap();
    assert_eq!(starts.len(), map.teams.len());
    for (p, t) in starts.iter().zip(&map.teams) {
        assert_eq!(p["x"].as_f64().unwrap() as f32, t.start_x_elmos);
        assert_eq!(p["z"].as_f64().unwrap() as f32, t.start_z_elmos);
    }
    common::bar_parser::check(&archive);
    if common::referee_or_skip().is_none() {
        return;
    }
    // the engine reads mapinfo.lua, not the .smd: an .smd that says otherwise changes nothing
    let mut files = contents.into_files();
    for f in &mut files {
        if f.path.ends_with(".smd") {
            let text = String::from_utf8(f.data.clone()).unwrap();
            f.data = text
                .replace(&format!("MaxMetal={};", s.max_metal), "MaxMetal=9.5;")
                .into_bytes();
            assert!(String::from_utf8_lossy(&f.data).contains("MaxMetal=9.5;"));
        }
    }
    let lying = dir.path().join("lying.sdz");
    groundwork::formats::archive::write_archive(&lying, &files, &mut |_, _| true).unwrap();
    let v = common::validate_map(&lying, None, None);
    let max_metal = v["unitsync"]["mapInfo"]["maxMetal"].as_f64().unwrap();
    assert_eq!(max_metal as f32, s.max_metal, "unitsync reads mapinfo.lua");
}

#[test]
fn a_map_with_several_tile_files_opens_is_linted_and_compiles_back_to_one() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("p");
    common::new_project(
        &project,
        &["--size", "4x4", "--terrain", "hills", "--seed", "2"],
    );
    let one = dir.path().join("one.sdd");
    common::compile_project(&project, &one);
    // as other compilers write it: the tiles split into two .smt files, the .smf naming both
    let maps = one.join("maps");
    let smf_path = std::fs::read_dir(&maps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "smf"))
        .unwrap();
    let stem = smf_path.file_stem().unwrap().to_string_lossy().into_owned();
    let smt_path = maps.join(format!("{stem}.smt"));
    let smt = std::fs::read(&smt_path).unwrap();
    let mut smf =
        groundwork::formats::smf::read_smf(&std::fs::read(&smf_path).unwrap(), "smf").unwrap();
    let total = smf.tile_files[0].tile_count;
    let first = total / 3;
    use groundwork::formats::smt::{SMT_HEADER_BYTES, SMT_TILE_BYTES, smt_header};
    let tiles = &smt[SMT_HEADER_BYTES..];
    let cut = first as usize * SMT_TILE_BYTES;
    let names = [format!("{stem}_a.smt"), format!("{stem}_b.smt")];
    let mut a = smt_header(first);
    a.extend_from_slice(&tiles[..cut]);
    let mut b = smt_header(total - first);
    b.extend_from_slice(&tiles[cut..]);
    std::fs::remove_file(&smt_path).unwrap();
    std::fs::write(maps.join(&names[0]), a).unwrap();
    std::fs::write(maps.join(&names[1]), b).unwrap();
    smf.tile_files = vec![
        groundwork::formats::smf::SmfTileFile {
            tile_count: first,
            name: names[0].clone(),
        },
        groundwork::formats::smf::SmfTileFile {
            tile_count: total - first,
            name: names[1].clone(),
        },
    ];
    std::fs::write(&smf_path, groundwork::formats::smf::write_smf(&smf)).unwrap();
    let info = one.join("mapinfo.lua");
    let text = std::fs::read_to_string(&info).unwrap();
    let text = text.replace(
        &format!("smtFileName0 = \"maps/{stem}.smt\","),
        &format!(
            "smtFileName0 = \"maps/{}\",\n\t\tsmtFileName1 = \"maps/{}\",",
            names[0], names[1]
        ),
    );
    std::fs::write(&info, text).unwrap();
    let several = dir.path().join("several.sdd");
    std::fs::rename(&one, &several).unwrap();

    // it opens whole: every tile found across the two files
    let loaded = groundwork::formats::open_map(&several).unwrap();
    assert!(loaded.tile_problem.is_none(), "{:?}", loaded.tile_problem);
    assert_eq!(loaded.tile_files.len(), 2, "{:?}", loaded.tile_files);
    for (read, name) in loaded.tile_files.iter().zip(&names) {
        assert!(read.ends_with(name.as_str()), "{read} against {name}");
    }
    // the lint names the trouble and the fix
    let lint = gw().arg("lint").arg(&several).output().unwrap();
    let said = String::from_utf8_lossy(&lint.stderr);
    assert!(!lint.status.success(), "{said}");
    assert!(said.contains("error[tile-files-several]"), "{said}");
    assert!(said.contains("compile the map again"), "{said}");
    // compiled again: one .smt, the same ground
    let back = dir.path().join("back.sd7");
    let out = gw()
        .args(["compile", "-q"])
        .arg(&several)
        .arg("-o")
        .arg(&back)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(smts(&back).len(), 1);
    let again = groundwork::formats::open_map(&back).unwrap();
    assert_eq!(again.tile_files.len(), 1);
    let db = common::bar_parser::psnr_rgb(again.map.texture.rgba(), loaded.map.texture.rgba());
    assert!(db >= 40.0, "the ground is kept: {db:.1} dB");
    let lint = gw().arg("lint").arg(&back).output().unwrap();
    assert!(
        !String::from_utf8_lossy(&lint.stderr).contains("tile-files-several"),
        "{}",
        String::from_utf8_lossy(&lint.stderr)
    );
    if common::referee_or_skip().is_some() {
        // the engine loads the split map, as it loads other compilers' maps
        common::validate_map(&several, None, None);
        common::validate_map(&back, None, None);
    }
}
