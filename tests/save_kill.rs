//! A save killed halfway (a child process, `groundwork edit` writing the project in place,
//! killed once its new folder is being written) leaves the previous save whole: the project
//! loads with the old heights and the old metal, not a mix. A save killed between its two
//! renames is put back by the next load. The next save clears what the killed one left.

use std::process::Command;
use std::time::{Duration, Instant};

use groundwork::edit::procedural::relief_map;
use groundwork::formats::{load_project, save_project};
use groundwork::map::MapSize;

const OPS: &str = r#"
[[op]]
tool = "raise"
path = [[2000.0, 2000.0], [6000.0, 6000.0]]
radius_elmos = 800.0
strength = 1.0

[[op]]
tool = "metal-dome"
path = [[4000.0, 4000.0]]
radius_elmos = 64.0
peak = 200
"#;

fn leftovers(parent: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.contains(".saving-") || n.contains(".old-"))
        .collect()
}

#[test]
fn a_save_killed_halfway_leaves_the_previous_save_whole() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("Big");
    // 16x16: its 8192 x 8192 texture takes the save long enough to be caught in the act
    let old = relief_map(MapSize::new(16, 16).unwrap(), 1, "Big");
    save_project(&old, &project).unwrap();
    let ops = root.path().join("ops.toml");
    std::fs::write(&ops, OPS).unwrap();

    let mut child = Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args([
            "edit",
            project.to_str().unwrap(),
            "--ops",
            ops.to_str().unwrap(),
            "--cpu",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let caught = loop {
        if !leftovers(root.path()).is_empty() {
            // the new folder is being written: kill it now
            child.kill().unwrap();
            break true;
        }
        if child.try_wait().unwrap().is_some() {
            break false;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "the edit never saved"
        );
        std::thread::sleep(Duration::from_millis(2));
    };
    child.wait().unwrap();
    assert!(
        caught,
        "the edit finished before it could be killed mid-save"
    );

    let back = load_project(&project).unwrap().map;
    assert_eq!(back.height_words(), old.height_words(), "the old heights");
    assert_eq!(back.metal, old.metal, "the old metal");
    // the next save clears the killed one's folder and writes the new document whole
    let mut new = old.clone();
    new.metal.set(10, 10, 99);
    save_project(&new, &project).unwrap();
    assert!(
        leftovers(root.path()).is_empty(),
        "{:?}",
        leftovers(root.path())
    );
    assert_eq!(load_project(&project).unwrap().map.metal, new.metal);
}

#[test]
fn a_save_killed_between_its_renames_is_put_back() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("Small");
    let map = relief_map(MapSize::new(2, 2).unwrap(), 3, "Small");
    save_project(&map, &project).unwrap();
    std::fs::write(project.join("notes.txt"), b"mine").unwrap();
    // the old folder renamed away, the new one not yet in place
    let aside = root.path().join("Small.old-4294967295");
    std::fs::rename(&project, &aside).unwrap();
    let loaded = groundwork::formats::open_map(&project).unwrap();
    assert!(
        loaded.warnings.iter().any(|w| w.contains("interrupted")),
        "{:?}",
        loaded.warnings
    );
    assert_eq!(loaded.map.height_words(), map.height_words());
    assert!(project.join("map.toml").is_file() && !aside.exists());
    // a save keeps the user's own files
    save_project(&map, &project).unwrap();
    assert_eq!(std::fs::read(project.join("notes.txt")).unwrap(), b"mine");
}
