//! Shared test helpers: where `../shared` is, and the referee scripts (the engine's unitsync,
//! the engine itself, and BAR's map parser) run on a map archive.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub mod bar_parser;

/// `../shared` beside the repository, or `$GROUNDWORK_SHARED`; `None` when absent.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("GROUNDWORK_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    dir.is_dir().then_some(dir)
}

/// A fixture under `../shared/fixtures`, or `None` (the caller prints "skipped: fixtures not found").
pub fn fixture(rel: &str) -> Option<PathBuf> {
    let p = shared_dir()?.join("fixtures").join(rel);
    p.exists().then_some(p)
}

/// The referee can run: the scripts are there and Spring's unitsync is installed.
pub fn referee() -> Option<PathBuf> {
    let tools = shared_dir()?.join("tools");
    let ok = tools.join("validate_map.py").is_file()
        && Path::new("/usr/lib/spring/libunitsync.so").is_file()
        && Path::new("/usr/bin/python3").is_file();
    ok.then_some(tools)
}

/// Prints why a test is skipped and returns `None` when the referee is missing.
pub fn referee_or_skip() -> Option<PathBuf> {
    let r = referee();
    if r.is_none() {
        groundwork::test_support::skip(
            "fixtures not found (../shared/tools, or spring's libunitsync: apt-get install -y spring)",
        );
    }
    r
}

/// What the engine must report for `map`, in `validate_map.py --expect` terms: size, height
/// range, start positions and the metal and type sums. Tests add the keys they check beyond it.
pub fn engine_expectation(map: &groundwork::map::Map) -> serde_json::Value {
    let sum = |v: &[u8]| v.iter().map(|&b| b as u64).sum::<u64>();
    serde_json::json!({
        "width_elmos": map.size.width_elmos() as i64,
        "height_elmos": map.size.depth_elmos() as i64,
        "minHeight": map.settings.min_height_elmos,
        "maxHeight": map.settings.max_height_elmos,
        "startPos": map.teams.iter().map(|t| [t.start_x_elmos, t.start_z_elmos]).collect::<Vec<_>>(),
        "metal_sum": sum(map.metal.data()),
        "type_sum": sum(map.types.data()),
    })
}

/// Runs `validate_map.py` on `archive` (with `--expect` when given, and `--dump DIR` when
/// given) and returns its JSON. Panics with the script's stderr when it exits non-zero. A
/// `.sd7` or `.sdz` also goes through BAR's map parser ([`bar_parser::check`]), whose pictures
/// must match ours.
pub fn validate_map(
    archive: &Path,
    expect: Option<&serde_json::Value>,
    dump: Option<&Path>,
) -> serde_json::Value {
    let ext = archive
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if matches!(ext.as_deref(), Some("sd7" | "sdz")) && bar_parser::installed_or_skip() {
        bar_parser::check(archive);
    }
    let tools = referee().expect("the referee is installed");
    let tmp = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("/usr/bin/python3");
    cmd.arg(tools.join("validate_map.py")).arg(archive);
    if let Some(e) = expect {
        let p = tmp.path().join("expect.json");
        std::fs::write(&p, serde_json::to_vec(e).unwrap()).unwrap();
        cmd.arg("--expect").arg(p);
    }
    if let Some(d) = dump {
        cmd.arg("--dump").arg(d);
    }
    let out = cmd.output().expect("run validate_map.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null);
    if !out.status.success() {
        let failed: Vec<&serde_json::Value> = json["expect"]
            .as_array()
            .map(|a| a.iter().filter(|c| c["ok"] == false).collect())
            .unwrap_or_default();
        panic!(
            "validate_map.py {} exited {:?}\nstderr: {}\nfailed checks: {failed:?}\nlint: {}",
            archive.display(),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr),
            json["lint"]
        );
    }
    json
}

/// Runs `run_engine.py` (spring-headless) on `archive` with extra arguments; returns its JSON.
pub fn run_engine(archive: &Path, args: &[&str]) -> serde_json::Value {
    run_referee(Command::new("/usr/bin/python3"), archive, args)
}

/// Runs `run_engine.py` in the full GL engine under Xvfb (`--binary /usr/games/spring`, for
/// `--screenshot`); returns its JSON.
pub fn run_engine_gl(archive: &Path, args: &[&str]) -> serde_json::Value {
    let mut cmd = Command::new("/usr/bin/xvfb-run");
    cmd.args(["-a", "-s", "-screen 0 1280x800x24", "/usr/bin/python3"]);
    let mut all = vec!["--binary", "/usr/games/spring"];
    all.extend_from_slice(args);
    run_referee(cmd, archive, &all)
}

/// `cmd` (python3, perhaps behind a wrapper) with `run_engine.py ARCHIVE ARGS`; its JSON.
fn run_referee(mut cmd: Command, archive: &Path, args: &[&str]) -> serde_json::Value {
    let tools = referee().expect("the referee is installed");
    let out = cmd
        .arg(tools.join("run_engine.py"))
        .arg(archive)
        .args(args)
        .output()
        .expect("run run_engine.py");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "run_engine.py printed no JSON: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(
        out.status.success(),
        "run_engine.py failed: fatal {} warnings {} compare {}",
        json["engine_fatal"],
        json["engine_map_warnings"],
        json["compare"]
    );
    json
}

/// A file `validate_map.py --dump` wrote, by prefix (`height_`, `metal_`, `grass_`, `type_`).
pub fn dumped(dir: &Path, prefix: &str) -> Vec<u8> {
    let name = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix}* in the dump"));
    std::fs::read(dir.join(name)).unwrap()
}

/// Little-endian u16 words from bytes.
pub fn words(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

/// `groundwork new PROJECT ARGS` with the CLI; panics with its error when it fails.
pub fn new_project(project: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .arg("new")
        .arg(project)
        .args(args)
        .output()
        .expect("run groundwork new");
    assert!(
        out.status.success(),
        "new failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles the project folder `project` to the archive `out` with the CLI, quietly; panics
/// with the CLI's error when it fails.
pub fn compile_project(project: &Path, out: &Path) {
    let r = Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .arg("compile")
        .arg(project)
        .arg("-o")
        .arg(out)
        .arg("-q")
        .output()
        .expect("run groundwork compile");
    assert!(
        r.status.success(),
        "compile failed: {}",
        String::from_utf8_lossy(&r.stderr)
    );
}
