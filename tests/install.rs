//! `groundwork compile PROJECT --install` and `groundwork lint` as a user runs them: the starter
//! map into a faked BAR maps folder (found from a faked home), named as BAR names maps, read
//! by the engine's unitsync; a taken name refused with the next free version, `--force`
//! overwriting; lint errors stopping an install; `lint --json` giving each rule.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn groundwork(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_STATE_HOME")
        .output()
        .expect("run groundwork")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The starter map saved as a project in `dir`.
fn starter_project(dir: &Path) -> groundwork::map::Map {
    let map = groundwork::assets::starter_map().unwrap();
    groundwork::formats::save_project(&map, dir).unwrap();
    map
}

#[test]
fn install_into_the_detected_bar_folder_then_refuse_then_force() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let map = starter_project(project.path());
    let p = project.path().to_str().unwrap();
    // no game on this home: a clear error naming where we looked
    let o = groundwork(home.path(), &["compile", p, "--install", "-q"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("Beyond All Reason"), "{}", text(&o));

    // BAR installed (its data folder in the XDG state folder); a stale partial from a killed run
    let data = home.path().join(".local/state/Beyond All Reason");
    std::fs::create_dir_all(data.join("maps")).unwrap();
    let stale = data.join("maps/old_map_1.0.sd7.partial-4294967295");
    std::fs::write(&stale, b"half an archive").unwrap();
    let o = groundwork(home.path(), &["compile", p, "--install", "-q"]);
    assert!(o.status.success(), "{}", text(&o));
    let path = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let want = data.join("maps/groundwork_starter_1.0.sd7");
    assert_eq!(Path::new(&path), want);
    assert!(want.is_file());
    assert!(!stale.exists(), "the stale temporary file stays");
    let left: Vec<String> = std::fs::read_dir(data.join("maps"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(left, ["groundwork_starter_1.0.sd7"]);

    // again: refused, naming the next free version, the file untouched
    let before = std::fs::read(&want).unwrap();
    let o = groundwork(home.path(), &["compile", p, "--install", "-q"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("next free version is 1.1"),
        "{}",
        text(&o)
    );
    // --force overwrites, and a .sdz of the same map goes with it
    std::fs::write(data.join("maps/groundwork_starter_1.0.sdz"), b"old").unwrap();
    let o = groundwork(home.path(), &["compile", p, "--install", "--force", "-q"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read(&want).unwrap(),
        before,
        "same document, same bytes"
    );
    assert!(!data.join("maps/groundwork_starter_1.0.sdz").exists());

    // an explicit folder and container
    let other = tempfile::tempdir().unwrap();
    let o = groundwork(
        home.path(),
        &[
            "compile",
            p,
            "--install",
            "--maps-dir",
            other.path().to_str().unwrap(),
            "--container",
            "sdd",
            "-q",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        other
            .path()
            .join("groundwork_starter_1.0.sdd/mapinfo.lua")
            .is_file()
    );

    let Some(_) = common::referee_or_skip() else {
        return;
    };
    common::validate_map(&want, Some(&common::engine_expectation(&map)), None);
}

#[test]
fn lint_errors_stop_an_install_and_lint_json_names_the_rules() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let mut map = groundwork::assets::starter_map().unwrap();
    map.settings.max_metal = 0.02;
    map.teams.clear();
    map.settings.water.fresnel_min = Some(0.4);
    map.settings.water.fresnel_max = Some(0.8);
    groundwork::formats::save_project(&map, project.path()).unwrap();
    let p = project.path().to_str().unwrap();

    let o = groundwork(home.path(), &["lint", p, "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules: Vec<(&str, &str)> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap(), f["severity"].as_str().unwrap()))
        .collect();
    for want in [
        ("max-metal-default", "error"),
        ("no-start-positions", "error"),
        ("fresnel-saturated", "warning"),
    ] {
        assert!(rules.contains(&want), "{want:?} not in {rules:?}");
    }
    for f in json.as_array().unwrap() {
        assert!(f["message"].as_str().is_some_and(|m| !m.is_empty()));
        assert!(f.get("fix").is_some());
    }

    let maps = tempfile::tempdir().unwrap();
    let o = groundwork(
        home.path(),
        &[
            "compile",
            p,
            "--install",
            "--maps-dir",
            maps.path().to_str().unwrap(),
            "-q",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("error[max-metal-default]"),
        "{}",
        text(&o)
    );
    assert_eq!(std::fs::read_dir(maps.path()).unwrap().count(), 0);

    // the starter map itself is clean: exit 0
    let clean = tempfile::tempdir().unwrap();
    starter_project(clean.path());
    let o = groundwork(home.path(), &["lint", clean.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
}
