//! Bad input through the CLI: every case ends with one clear line and a non-zero exit (or, for
//! a missing tile file, a clear warning), never a panic, a hang or a huge allocation.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use groundwork::compile::{CompileOptions, Progress, compile_map};
use groundwork::map::{Map, MapSettings, MapSize, Team};

fn groundwork(args: &[&std::ffi::OsStr]) -> (bool, String, Duration) {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    (out.status.success(), stderr, t.elapsed())
}

/// Runs `info PATH` and expects failure with one `error:` line containing `want`.
fn expect_error(path: &Path, want: &str) {
    let (ok, stderr, took) = groundwork(&["info".as_ref(), path.as_os_str()]);
    assert!(!ok, "{} was accepted", path.display());
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "more than one line: {stderr}");
    assert!(
        lines[0].starts_with("error: ") && lines[0].contains(want),
        "{want:?} not in {stderr}"
    );
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

/// A small valid map compiled into `dir/name` (a .sdd, so files can be swapped).
fn valid_sdd(dir: &Path, name: &str) -> PathBuf {
    let mut m = Map::new(
        MapSize::new(2, 2).unwrap(),
        MapSettings {
            name: "Bad Input".into(),
            ..MapSettings::default()
        },
    );
    m.teams = vec![Team {
        start_x_elmos: 100.0,
        start_z_elmos: 100.0,
    }];
    let out = dir.join(name);
    compile_map(&m, &out, &CompileOptions::default(), &Progress::none()).unwrap();
    out
}

fn smf_in(sdd: &Path) -> PathBuf {
    std::fs::read_dir(sdd.join("maps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "smf"))
        .unwrap()
}

fn patch(bytes: &mut [u8], at: usize, v: i32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn broken_smf_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let sdd = valid_sdd(dir.path(), "good.sdd");
    let good = std::fs::read(smf_in(&sdd)).unwrap();
    let bare = dir.path().join("bad.smf");
    let mut b = good.clone();
    b[..6].copy_from_slice(b"garbag");
    std::fs::write(&bare, &b).unwrap();
    expect_error(&bare, "not a Spring map file");
    // truncated inside every section
    let hp = i32::from_le_bytes(good[52..56].try_into().unwrap()) as usize;
    let tp = i32::from_le_bytes(good[60..64].try_into().unwrap()) as usize;
    let fp = i32::from_le_bytes(good[72..76].try_into().unwrap()) as usize;
    for cut in [
        0,
        40,
        79,
        90,
        hp + 10,
        hp + 700_000,
        tp + 3,
        tp + 30,
        fp + 2,
        good.len() - 5,
    ] {
        std::fs::write(&bare, &good[..cut.min(good.len() - 1)]).unwrap();
        expect_error(&bare, "bad.smf");
    }
    // absurd sizes in the header
    for (at, v, want) in [
        (24, 1 << 30, "multiple of 128"),
        (28, -128, "negative"),
        (76, 1 << 30, "numExtraHeaders"),
        (tp, i32::MAX, "numTileFiles"),
        (fp + 4, i32::MAX, "numFeatures"),
    ] {
        let mut b = good.clone();
        patch(&mut b, at, v);
        std::fs::write(&bare, &b).unwrap();
        expect_error(&bare, want);
    }
    // a tile index past the tile count
    let mut b = good.clone();
    // past the tile files' counts and names
    let files = i32::from_le_bytes(good[tp..tp + 4].try_into().unwrap()) as usize;
    let mut index_at = tp + 8;
    for _ in 0..files {
        let name_len = good[index_at + 4..].iter().position(|&c| c == 0).unwrap();
        index_at += 4 + name_len + 1;
    }
    patch(&mut b, index_at + 4 * 5, 999);
    std::fs::write(&bare, &b).unwrap();
    expect_error(&bare, "tile index at (5, 0) is 999");
}

/// The first of the map's tile files, by name.
fn first_smt(sdd: &std::path::Path) -> std::path::PathBuf {
    let mut smts: Vec<_> = std::fs::read_dir(sdd.join("maps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "smt"))
        .collect();
    smts.sort();
    smts.remove(0)
}

#[test]
fn missing_misnamed_and_broken_tile_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let sdd = valid_sdd(dir.path(), "tiles.sdd");
    let smt = first_smt(&sdd);
    let name = smt.file_name().unwrap().to_string_lossy().into_owned();
    // other case: found anyway, as the engine finds it
    let upper = smt.with_file_name(smt.file_name().unwrap().to_string_lossy().to_uppercase());
    std::fs::rename(&smt, &upper).unwrap();
    let (ok, stderr, _) = groundwork(&["info".as_ref(), sdd.as_os_str()]);
    assert!(ok && !stderr.contains("tile file"), "{stderr}");
    // misnamed: a warning that names the file, and the texture comes from the minimap
    let other = smt.with_file_name("elsewhere.smt");
    std::fs::rename(&upper, &other).unwrap();
    let (ok, stderr, _) = groundwork(&["info".as_ref(), sdd.as_os_str()]);
    assert!(ok && stderr.is_empty(), "{stderr}");
    let project = dir.path().join("p");
    let (ok, stderr, _) = groundwork(&[
        "decompile".as_ref(),
        sdd.as_os_str(),
        "-o".as_ref(),
        project.as_os_str(),
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(&format!("{name} is missing")) && stderr.contains("minimap"),
        "{stderr}"
    );
    // a broken magic
    std::fs::write(&smt, b"spring tilefilX\0\x01\0\0\0").unwrap();
    std::fs::remove_file(&other).unwrap();
    let (ok, stderr, _) = groundwork(&[
        "decompile".as_ref(),
        sdd.as_os_str(),
        "-o".as_ref(),
        dir.path().join("q").as_os_str(),
    ]);
    assert!(ok && stderr.contains("not a Spring tile file"), "{stderr}");
}

#[test]
fn hostile_mapinfo_is_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let sdd = valid_sdd(dir.path(), "lua.sdd");
    let mapinfo = sdd.join("mapinfo.lua");
    std::fs::write(&mapinfo, "while true do end").unwrap();
    expect_error(&sdd, "instructions");
    let marker = dir.path().join("pwned");
    std::fs::write(
        &mapinfo,
        format!("os.execute('touch {}') return {{}}", marker.display()),
    )
    .unwrap();
    expect_error(&sdd, "os");
    assert!(!marker.exists());
    std::fs::write(&mapinfo, "io.open('/etc/passwd') return {}").unwrap();
    expect_error(&sdd, "io");
    std::fs::write(&mapinfo, "local t = {} while true do t[#t + 1] = {} end").unwrap();
    expect_error(&sdd, "mapinfo.lua");
    std::fs::write(&mapinfo, "return VFS.Include('../../../etc/passwd')").unwrap();
    expect_error(&sdd, "not found");
}

#[test]
fn archive_escapes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("evil.sdz");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
    z.start_file("mapinfo.lua", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut z, b"return {}").unwrap();
    z.start_file("../../x", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut z, b"boom").unwrap();
    z.finish().unwrap();
    expect_error(&p, "\"../../x\" points outside the archive");
    let project = dir.path().join("out");
    let (ok, _, _) = groundwork(&[
        "decompile".as_ref(),
        p.as_os_str(),
        "-o".as_ref(),
        project.as_os_str(),
    ]);
    assert!(!ok);
    assert!(!dir.path().join("x").exists() && !project.exists());
}

#[test]
fn bad_cli_use_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    expect_error(&dir.path().join("nothing.sd7"), "nothing.sd7");
    expect_error(&dir.path().join("picture.png"), "not a map");
    let (ok, stderr, _) = groundwork(&[
        "compile".as_ref(),
        dir.path().as_os_str(),
        "-o".as_ref(),
        "x.zip".as_ref(),
    ]);
    assert!(!ok && stderr.lines().count() == 1, "{stderr}");
}

/// Runs `groundwork ARGS` and gives (exit code, stdout, stderr); a panic or an abort fails.
fn run_code(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("memory allocation"),
        "{args:?}: {stderr}"
    );
    (out.status.code(), stdout, stderr)
}

#[test]
fn tile_counts_far_beyond_the_tile_file_are_refused_without_reserving_them() {
    let dir = tempfile::tempdir().unwrap();
    let sdd = valid_sdd(dir.path(), "huge.sdd");
    let smf = smf_in(&sdd);
    let mut b = std::fs::read(&smf).unwrap();
    let tp = i32::from_le_bytes(b[60..64].try_into().unwrap()) as usize;
    // numTiles 2^31 - 1, the first tile file's count what the others leave of it: the .smt
    // holds 1 tile
    let files = i32::from_le_bytes(b[tp..tp + 4].try_into().unwrap()) as usize;
    let (mut at, mut others) = (tp + 8, 0);
    for k in 0..files {
        if k > 0 {
            others += i32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        }
        at += 4 + b[at + 4..].iter().position(|&c| c == 0).unwrap() + 1;
    }
    patch(&mut b, tp + 4, i32::MAX);
    patch(&mut b, tp + 8, i32::MAX - others);
    std::fs::write(&smf, &b).unwrap();
    let (code, stdout, stderr) = run_code(&["info".as_ref(), sdd.as_os_str()]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let uses = format!("but the map uses {}", i32::MAX - others);
    assert!(stdout.contains(&uses), "{stdout}");
    let (code, _, stderr) = run_code(&["lint".as_ref(), sdd.as_os_str()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("error[tile-file-unreadable]") && stderr.contains(&uses),
        "{stderr}"
    );
    let out = dir.path().join("back");
    let (code, _, stderr) = run_code(&[
        "decompile".as_ref(),
        sdd.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn the_lint_calls_a_missing_bad_or_short_tile_file_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let sdd = valid_sdd(dir.path(), "lint.sdd");
    let (code, _, stderr) = run_code(&["lint".as_ref(), sdd.as_os_str()]);
    assert_eq!(code, Some(0), "the whole map: {stderr}");
    let smt = first_smt(&sdd);
    let good = std::fs::read(&smt).unwrap();
    let name = smt.file_name().unwrap().to_string_lossy().into_owned();
    let mut bad_magic = good.clone();
    bad_magic[14] = b'X';
    let cases: [(&str, Option<Vec<u8>>, String); 3] = [
        ("missing", None, format!("{name} is missing")),
        (
            "bad magic",
            Some(bad_magic),
            "not a Spring tile file".into(),
        ),
        (
            "truncated",
            Some(good[..good.len() - 100].to_vec()),
            "tiles, but the map uses".into(),
        ),
    ];
    for (case, bytes, want) in cases {
        match &bytes {
            Some(b) => std::fs::write(&smt, b).unwrap(),
            None => std::fs::remove_file(&smt).unwrap(),
        }
        let (code, _, stderr) = run_code(&["lint".as_ref(), sdd.as_os_str()]);
        assert_eq!(code, Some(1), "{case}: {stderr}");
        let line = stderr
            .lines()
            .find(|l| l.starts_with("error[tile-file-unreadable]"))
            .unwrap_or_else(|| panic!("{case}: {stderr}"));
        assert!(line.contains(&want), "{case}: {line}");
        std::fs::write(&smt, &good).unwrap();
    }
}

#[test]
fn info_prints_each_finding_once_with_the_lints_rule() {
    let dir = tempfile::tempdir().unwrap();
    // engine defaults left in place and a start off the map: the project loader and the
    // lint both used to say so, in two wordings
    std::fs::write(
        dir.path().join("map.toml"),
        "[map]\nname = \"x\"\nsize = [2, 2]\n\n[[teams]]\nstart = [5000.0, 10.0]\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run_code(&["info".as_ref(), dir.path().as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    for (word, rule) in [
        ("maxMetal", "max-metal-default"),
        ("extractorRadius", "extractor-radius-default"),
        ("5000", "start-outside-map"),
    ] {
        let lines: Vec<&str> = stdout.lines().filter(|l| l.contains(word)).collect();
        // the teams list shows the start's coordinates too
        let findings: Vec<&&str> = lines
            .iter()
            .filter(|l| {
                l.trim_start().starts_with("error") || l.trim_start().starts_with("warning")
            })
            .collect();
        assert_eq!(findings.len(), 1, "{word}: {stdout}");
        assert!(findings[0].contains(&format!("[{rule}]")), "{stdout}");
    }
}
