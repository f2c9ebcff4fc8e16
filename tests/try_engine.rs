//! `groundwork try` against the real engine: a compiled project loads in spring-headless and
//! the load time is reported; a broken map fails with the engine's own line; a screenshot in
//! the windowed engine under Xvfb shows the map. And, with no engine at all, a fake engine
//! script receives the settings and the start script (last), as the editor's Try button will
//! pass them.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SPRING_HEADLESS: &str = "/usr/games/spring-headless";
const SPRING_GL: &str = "/usr/games/spring";

fn gw() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_groundwork"));
    // the engine's SDL wants no Wayland here; `try` makes its own runtime folder
    c.env_remove("WAYLAND_DISPLAY")
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove(groundwork::engine::discover::ENGINE_VARIABLE);
    c
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Spring's headless engine, or a skip.
fn spring_headless_or_skip() -> Option<PathBuf> {
    let p = PathBuf::from(SPRING_HEADLESS);
    if p.is_file() {
        Some(p)
    } else {
        groundwork::test_support::skip(
            "spring not found (/usr/games/spring-headless: apt-get install -y spring)",
        );
        None
    }
}

/// A new 8 x 8 project with two starts.
fn new_project(dir: &Path, terrain: &str) {
    let mut c = gw();
    c.args([
        "new",
        "--size",
        "8x8",
        "--players",
        "2",
        "--terrain",
        terrain,
    ]);
    if terrain != "flat" {
        c.args(["--seed", "3"]);
    }
    let r = c.arg(dir).output().unwrap();
    assert!(r.status.success(), "{}", text(&r));
}

#[test]
fn a_compiled_project_loads_headless_and_the_load_time_is_reported() {
    let Some(engine) = spring_headless_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("proj");
    new_project(&project, "flat");
    let r = gw()
        .args(["try", "--headless", "--start", "1", "--engine"])
        .arg(&engine)
        .arg(&project)
        .output()
        .unwrap();
    let out = text(&r);
    assert!(r.status.success(), "{out}");
    let stdout = String::from_utf8_lossy(&r.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("loaded New map 1.0 in "))
        .unwrap_or_else(|| panic!("no load time in: {out}"));
    let seconds: f64 = line["loaded New map 1.0 in ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(seconds > 0.0 && seconds < 120.0, "{line}");
    eprintln!("{line}");
    // the sandbox is gone after a pass
    assert!(!out.contains("the sandbox:"), "{out}");
}

#[test]
fn a_broken_map_fails_with_the_engines_own_line() {
    let Some(engine) = spring_headless_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("proj");
    new_project(&project, "flat");
    let archive = tmp.path().join("broken_1.0.sdd");
    common::compile_project(&project, &archive);
    // cut the tile file and the map file short: spring-headless never reads the tiles, but the
    // .smf's header it cannot do without
    for e in std::fs::read_dir(archive.join("maps")).unwrap() {
        let p = e.unwrap().path();
        let f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
        f.set_len(40).unwrap();
    }
    let r = gw()
        .args(["try", "--headless", "--engine"])
        .arg(&engine)
        .arg(&archive)
        .output()
        .unwrap();
    let out = text(&r);
    assert!(!r.status.success(), "{out}");
    let stderr = String::from_utf8_lossy(&r.stderr);
    let error = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line: {out}"));
    assert!(
        error.contains("forced quit with exception") && error.contains("corrupt header"),
        "{error}"
    );
    // the sandbox is kept to read the whole log
    assert!(out.contains("the sandbox: "), "{out}");
    let kept = out
        .lines()
        .find_map(|l| l.strip_prefix("the sandbox: "))
        .and_then(|l| l.split(" (").next())
        .unwrap();
    assert!(Path::new(kept).join("write/infolog.txt").is_file());
    std::fs::remove_dir_all(kept).unwrap();
}

#[test]
fn a_map_whose_smt_is_cut_fails_with_the_lints_words_and_the_whole_one_loads() {
    // spring-headless never reads the tiles: a cut .smt "loaded" before the try read them
    let Some(engine) = spring_headless_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("proj");
    new_project(&project, "hills");
    let archive = tmp.path().join("cut_1.0.sdd");
    common::compile_project(&project, &archive);
    let try_headless = |archive: &Path| {
        gw().args(["try", "--headless", "--engine"])
            .arg(&engine)
            .arg(archive)
            .output()
            .unwrap()
    };
    let whole = try_headless(&archive);
    assert!(whole.status.success(), "{}", text(&whole));
    assert!(
        String::from_utf8_lossy(&whole.stdout).contains("loaded "),
        "{}",
        text(&whole)
    );
    let smt = std::fs::read_dir(archive.join("maps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "smt"))
        .unwrap();
    let len = std::fs::metadata(&smt).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&smt).unwrap();
    f.set_len(len / 2).unwrap();
    let cut = try_headless(&archive);
    let out = text(&cut);
    assert!(!cut.status.success(), "{out}");
    assert!(
        out.contains("error[tile-file-unreadable]"),
        "the lint's rule: {out}"
    );
    assert!(out.contains("fix: compile the map again"), "{out}");
    // the engine never started: nothing "loaded"
    assert!(
        !String::from_utf8_lossy(&cut.stdout).contains("loaded "),
        "{out}"
    );
}

#[test]
fn a_screenshot_in_the_windowed_engine_shows_the_map() {
    let xvfb = Path::new("/usr/bin/xvfb-run");
    if !Path::new(SPRING_GL).is_file() || !xvfb.is_file() {
        groundwork::test_support::skip(
            "spring not found (/usr/games/spring and xvfb-run: apt-get install -y spring xvfb)",
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("hills");
    new_project(&project, "hills");
    let shot = tmp.path().join("shot.png");
    let r = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_groundwork"))
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("XDG_RUNTIME_DIR")
        .args(["try", "--cpu-bake", "--engine", SPRING_GL, "--screenshot"])
        .arg(&shot)
        .args(["--camera", "2048,2500,5200,2048,100,1800"])
        .arg(&project)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", text(&r));
    let img = image::open(&shot).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (1024, 768));
    // the ground fills the lower half: many colours there, not one flat fill
    let mut colours = std::collections::BTreeSet::new();
    for y in 500..760 {
        for x in (0..1024).step_by(7) {
            colours.insert(img.get_pixel(x, y).0);
        }
    }
    assert!(colours.len() > 50, "{} colours", colours.len());
}

/// An engine that records its arguments and the start script it is given, and exits.
#[cfg(unix)]
fn fake_engine(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let p = dir.join("fake-spring.sh");
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{0}/args.txt'\nfor last in \"$@\"; do :; done\ncp \"$last\" '{0}/script.txt'\nenv > '{0}/env.txt'\necho 'Error: fake engine, no map loaded'\nexit 3\n",
            dir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[cfg(unix)]
#[test]
fn a_fake_engine_gets_the_settings_and_the_start_script_last() {
    let tmp = tempfile::tempdir().unwrap();
    let fake = fake_engine(tmp.path());
    let project = tmp.path().join("proj");
    new_project(&project, "flat");
    let r = gw()
        .env(groundwork::engine::discover::ENGINE_VARIABLE, &fake)
        .args(["try", "--start", "1"])
        .arg(&project)
        .output()
        .unwrap();
    let out = text(&r);
    assert!(!r.status.success(), "{out}");
    assert!(
        out.contains("error: the engine exited (exit status: 3) without loading New map 1.0: the engine says: Error: fake engine, no map loaded"),
        "{out}"
    );
    // a failed try keeps its sandbox, and says where
    let kept = out
        .lines()
        .find_map(|l| l.strip_prefix("the sandbox: "))
        .and_then(|l| l.split(" (").next())
        .unwrap_or_else(|| panic!("no sandbox named: {out}"));
    std::fs::remove_dir_all(kept).unwrap();
    let args = std::fs::read_to_string(tmp.path().join("args.txt")).unwrap();
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(args.len(), 3, "{args:?}");
    assert_eq!(args[0], "--config");
    assert!(args[1].ends_with("springsettings.cfg") && args[2].ends_with("script.txt"));
    let script = std::fs::read_to_string(tmp.path().join("script.txt")).unwrap();
    assert!(script.contains("MapName=New map 1.0;"), "{script}");
    assert!(script.contains("GameType=Groundwork Try 1;"));
    assert!(script.contains("StartPosType=3;"));
    // start 1 of the 8 x 8 two-player map: the second team's position, mirrored
    let map = groundwork::formats::open_map(&project).unwrap().map;
    let t = &map.teams[1];
    assert!(
        script.contains(&format!(
            "[TEAM0] {{ TeamLeader=0; AllyTeam=0; StartPosX={}; StartPosZ={}; }}",
            t.start_x_elmos.round(),
            t.start_z_elmos.round()
        )),
        "{script}"
    );
    let env = std::fs::read_to_string(tmp.path().join("env.txt")).unwrap();
    assert!(env.lines().any(|l| l.starts_with("SPRING_WRITEDIR=")));
    assert!(env.lines().any(|l| l.starts_with("SPRING_DATADIR=")));
    // a start the map lacks is refused before anything runs
    let r = gw()
        .env(groundwork::engine::discover::ENGINE_VARIABLE, &fake)
        .args(["try", "--start", "5"])
        .arg(&project)
        .output()
        .unwrap();
    assert!(!r.status.success());
    assert!(
        text(&r).contains("error: --start 5: the map has 2 start positions (0 to 1)"),
        "{}",
        text(&r)
    );
}

#[cfg(unix)]
#[test]
fn the_editors_launch_runs_in_the_background_and_reports_when_the_engine_exits() {
    use groundwork::compile::Progress;
    use groundwork::engine::{MapSource, Mode, TryOptions, launch};
    let tmp = tempfile::tempdir().unwrap();
    let fake = fake_engine(tmp.path());
    let map = groundwork::assets::starter_map().unwrap();
    let mut options = TryOptions::new(Mode::Play);
    options.engine = Some(fake);
    let mut running = launch(MapSource::Document(&map), &options, &Progress::none()).unwrap();
    assert!(running.sandbox.script.is_file());
    let report = loop {
        if let Some(r) = running.try_finish() {
            break r;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(report.exit_code, Some(3));
    assert!(!report.loaded);
    assert_eq!(report.errors, ["Error: fake engine, no map loaded"]);
    assert!(report.failure().unwrap().contains("without loading"));
    assert!(report.sandbox.data.join("maps").read_dir().unwrap().count() == 1);
    report.sandbox.remove();
    assert!(!report.sandbox.root.exists());
}

#[test]
fn a_noisy_ground_packed_as_literals_is_drawn_by_the_windowed_engine() {
    let xvfb = Path::new("/usr/bin/xvfb-run");
    if !Path::new(SPRING_GL).is_file() || !xvfb.is_file() {
        groundwork::test_support::skip(
            "spring not found (/usr/games/spring and xvfb-run: apt-get install -y spring xvfb)",
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("noisy");
    new_project(&project, "flat");
    // a red ground with noise in every channel: its BC1 indices are noise, which the compiler
    // packs as LZMA literals (by byte position) rather than with matches
    let side = 4096u32;
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let rgb: Vec<u8> = (0..side * side)
        .flat_map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let d = |c: u32| ((x >> (8 * c)) & 0xFF) as f32 / 8.0 - 16.0;
            [
                (180.0 + d(0)) as u8,
                (60.0 + d(1)) as u8,
                (50.0 + d(2)) as u8,
            ]
        })
        .collect();
    image::save_buffer(
        project.join("texture.png"),
        &rgb,
        side,
        side,
        image::ExtendedColorType::Rgb8,
    )
    .unwrap();
    let archive = tmp.path().join("noisy_1.0.sd7");
    common::compile_project(&project, &archive);
    // the tile file went as literals: its LZMA2 stream (coder 21) holds a part per block of
    // tile rows, each opening with a chunk whose properties are lc=0, lp=3, pb=3
    let seven = sevenz_rust2::Archive::open(&archive).unwrap();
    let smt = seven
        .files
        .iter()
        .position(|f| f.name().ends_with(".smt"))
        .unwrap();
    let block = seven
        .stream_map
        .block_first_file_index
        .iter()
        .position(|&f| f == smt)
        .unwrap();
    assert!(
        seven.blocks[block]
            .coders
            .iter()
            .any(|c| c.encoder_method_id() == [0x21]),
        "the .smt is LZMA2"
    );
    let start = 32 + seven.pack_pos() + seven.pack_sizes()[..block].iter().sum::<u64>();
    let bytes = std::fs::read(&archive).unwrap();
    let stream = &bytes[start as usize..][..seven.pack_sizes()[block] as usize];
    let (mut at, mut literal_parts) = (0, 0);
    while stream[at] != 0 {
        let control = stream[at];
        let be16 = |i: usize| u16::from_be_bytes([stream[i], stream[i + 1]]) as usize + 1;
        if control < 0x80 {
            at += 3 + be16(at + 1);
            continue;
        }
        let with_props = control >= 0xC0;
        if with_props && stream[at + 5] == (3 * 5 + 3) * 9 {
            literal_parts += 1;
        }
        at += 5 + usize::from(with_props) + be16(at + 3);
    }
    assert!(literal_parts >= 8, "{literal_parts} literal parts");
    // the engine unpacks every tile (a bad one fails the load) and draws the red ground
    let shot = tmp.path().join("shot.png");
    let r = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_groundwork"))
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("XDG_RUNTIME_DIR")
        .args(["try", "--engine", SPRING_GL, "--screenshot"])
        .arg(&shot)
        .args(["--camera", "2048,2500,5200,2048,0,1800"])
        .arg(&archive)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", text(&r));
    let img = image::open(&shot).unwrap().to_rgb8();
    let mut sum = [0u64; 3];
    let mut n = 0;
    for y in 500..760 {
        for x in (0..1024).step_by(7) {
            let p = img.get_pixel(x, y).0;
            for c in 0..3 {
                sum[c] += p[c] as u64;
            }
            n += 1;
        }
    }
    // fog and light pale it (about 138, 94, 100 under Spring 106), but it stays red
    let mean = sum.map(|s| s as f64 / n as f64);
    assert!(
        mean[0] > mean[1] + 25.0 && mean[0] > mean[2] + 25.0,
        "the ground is not red: mean {mean:?}"
    );
}
