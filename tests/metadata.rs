//! `groundwork metadata` on a project with start boxes: the YAML it prints reads back (through
//! Python's YAML reader, as maps-metadata's tools read `map_list.yaml`) as exactly the entry the
//! library builds, and that entry passes the lobby's checks (tested in `formats::lobby_metadata`).

use std::path::Path;
use std::process::Command;

fn groundwork() -> Command {
    Command::new(env!("CARGO_BIN_EXE_groundwork"))
}

fn python_has_yaml() -> bool {
    Command::new("python3")
        .args(["-c", "import yaml"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_printed_yaml_is_the_entry() {
    if !python_has_yaml() {
        groundwork::test_support::skip("python3 with its yaml module (python3-yaml) not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("p");
    let out = groundwork()
        .arg("new")
        .arg(&project)
        .args(["--size", "8x8", "--players", "4", "--symmetry", "mirror-xz"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let toml_path = project.join("map.toml");
    let mut text = std::fs::read_to_string(&toml_path).unwrap();
    text.push_str(
        "\n[[start_boxes]]\nteams = 2\nmax_players_per_box = 2\nboxes = [[0, 0, 100, 200], [100, 0, 200, 200]]\n\n[[start_boxes]]\nteams = 4\nboxes = [[0, 0, 60, 60], [140, 0, 200, 60], [0, 140, 60, 200], [140, 140, 200, 200]]\n",
    );
    std::fs::write(&toml_path, text).unwrap();
    let out = groundwork().arg("metadata").arg(&project).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let yaml = String::from_utf8(out.stdout).unwrap();
    let yaml_path = dir.path().join("entry.yaml");
    std::fs::write(&yaml_path, &yaml).unwrap();
    let json = Command::new("python3")
        .args([
            "-c",
            "import sys, json, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
        ])
        .arg(&yaml_path)
        .output()
        .unwrap();
    assert!(
        json.status.success(),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    let read: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let map = groundwork::formats::open_map(Path::new(&project))
        .unwrap()
        .map;
    assert_eq!(
        read,
        groundwork::formats::lobby_metadata::entry(&map),
        "{yaml}"
    );
    let info = read.as_object().unwrap().values().next().unwrap();
    assert_eq!(info["playerCount"], 4);
    assert_eq!(info["startboxesSet"].as_object().unwrap().len(), 2);
    // the generator's starts sit one in each quarter: the 4-team boxes hold one each
    assert!(
        String::from_utf8_lossy(&out.stderr).is_empty()
            || !String::from_utf8_lossy(&out.stderr).contains("error"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
