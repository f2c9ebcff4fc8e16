//! `groundwork metadata` on a project with start boxes: the YAML it prints reads back (through
//! Python's YAML reader, as maps-metadata's tools read `map_list.yaml`) as exactly the entry the
//! library builds, and that entry passes the lobby's checks (tested in `formats::lobby_metadata`).

mod common;

use std::path::Path;
use std::process::Command;

fn groundwork() -> Command {
    Command::new(env!("CARGO_BIN_EXE_groundwork"))
}

/// Whether python3 imports `modules` (comma-separated).
fn python_has(modules: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_printed_yaml_is_the_entry() {
    if !python_has("yaml") {
        groundwork::test_support::skip("python3 with its yaml module (python3-yaml) not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("p");
    common::new_project(
        &project,
        &["--size", "8x8", "--players", "4", "--symmetry", "mirror-xz"],
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
        groundwork::formats::lobby_metadata::entry(
            &map,
            &groundwork::analyze::lobby_tags::lobby_tags(&map)
        ),
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

/// maps-metadata's `schemas/map_list.yaml` (2026), made here as JSON Schema: each entry's keys,
/// their types and enums, which are required, and no others allowed.
fn map_list_schema() -> serde_json::Value {
    use serde_json::json;
    let uploads = json!({"type": "array", "items": {"$ref": "#/$defs/uploadedFile"}});
    let mut photo = uploads.clone();
    photo["minItems"] = json!(1);
    photo["maxItems"] = json!(1);
    let mut one_upload = uploads.clone();
    one_upload["maxItems"] = json!(1);
    let point = json!({
        "type": "object",
        "properties": {
            "x": {"type": "integer", "minimum": 0, "maximum": 200},
            "y": {"type": "integer", "minimum": 0, "maximum": 200},
        },
        "required": ["x", "y"],
        "additionalProperties": false,
    });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "properties": {
                "springName": {"type": "string"},
                "displayName": {"type": "string"},
                "author": {"type": "string"},
                "title": {"type": "string"},
                "description": {"type": "string"},
                "gameType": {"type": "array", "uniqueItems": true,
                    "items": {"type": "string", "enum": ["ffa", "1v1", "team", "pve"]}},
                "terrain": {"type": "array", "uniqueItems": true,
                    "items": {"$ref": "#/$defs/terrainType"}},
                "playerCount": {"type": "integer"},
                "teamCount": {"type": "integer"},
                "certified": {"type": "boolean"},
                "inPool": {"type": "boolean"},
                "special": {"type": "string"},
                "photo": photo,
                "backgroundImage": one_upload.clone(),
                "perspectiveShot": one_upload,
                "inGameShots": uploads,
                "mapLists": {"type": "array", "items": {"type": "string"}},
                "startboxesSet": {"type": "object",
                    "additionalProperties": {"$ref": "#/$defs/startboxesInfo"}},
                "startPos": {"$ref": "#/$defs/startPos"},
                "startPosActive": {"type": "boolean"},
                "minPlayerCount": {"type": "integer"},
            },
            "additionalProperties": false,
            "required": ["springName", "displayName", "author", "gameType", "terrain",
                "playerCount", "teamCount", "certified", "inPool", "photo",
                "backgroundImage", "perspectiveShot", "inGameShots"],
        },
        "$defs": {
            "terrainType": {"type": "string", "enum": ["lava", "ice", "acidic", "alien",
                "asteroid", "space", "desert", "forests", "grassy", "tropical", "swamp",
                "jungle", "wasteland", "metal", "industrial", "ruins", "sea", "water",
                "island", "shallows", "chokepoints", "asymmetrical", "flat", "hills"]},
            "startboxesInfo": {
                "type": "object",
                "properties": {
                    "startboxes": {"type": "array", "minItems": 1, "items": {
                        "type": "object",
                        "properties": {"poly": {"type": "array", "minItems": 2,
                            "maxItems": 2, "items": point}},
                        "additionalProperties": false,
                        "required": ["poly"],
                    }},
                    "maxPlayersPerStartbox": {"type": "integer", "minimum": 1, "maximum": 16},
                },
                "additionalProperties": false,
                "required": ["startboxes", "maxPlayersPerStartbox"],
            },
            "uploadedFile": {
                "type": "object",
                "properties": {
                    "ref": {"type": "string"},
                    "downloadURL": {"type": "string", "format": "uri"},
                    "name": {"type": "string"},
                    "type": {"type": "string"},
                    "lastModifiedTS": {"type": "integer"},
                },
                "required": ["ref", "downloadURL", "name", "type", "lastModifiedTS"],
                "additionalProperties": false,
            },
            "startPos": {
                "type": "object",
                "properties": {
                    "positions": {"type": "object",
                        "patternProperties": {"^[a-zA-Z0-9 _.-]+$": {
                            "type": "object",
                            "properties": {
                                "x": {"type": "integer", "minimum": 0},
                                "y": {"type": "integer", "minimum": 0},
                            },
                            "required": ["x", "y"],
                            "additionalProperties": false,
                        }},
                        "additionalProperties": false},
                    "team": {"type": "array", "items": {
                        "type": "object",
                        "properties": {
                            "playersPerTeam": {"type": "integer", "minimum": 1},
                            "teamCount": {"type": "integer", "minimum": 1},
                            "sides": {"type": "array", "items": {
                                "type": "object",
                                "properties": {"starts": {"type": "array", "items": {
                                    "type": "object",
                                    "properties": {"spawnPoint": {"type": "string"}},
                                }}},
                            }},
                        },
                    }},
                },
            },
        },
    })
}

/// The schema's complaints about the YAML at `yaml_path`, by Python's jsonschema (as
/// maps-metadata's own checks read the file with a YAML reader).
fn schema_errors(schema: &serde_json::Value, yaml_path: &Path) -> Vec<String> {
    let dir = yaml_path.parent().unwrap();
    let schema_path = dir.join("map_list.schema.json");
    std::fs::write(&schema_path, serde_json::to_vec(schema).unwrap()).unwrap();
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys, json, yaml, jsonschema\n\
             schema = json.load(open(sys.argv[1]))\n\
             doc = yaml.safe_load(open(sys.argv[2]))\n\
             v = jsonschema.Draft202012Validator(schema)\n\
             print(json.dumps([e.message for e in v.iter_errors(doc)]))",
        ])
        .arg(&schema_path)
        .arg(yaml_path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_entry_is_valid_against_maps_metadatas_schema_but_for_the_photo_to_upload() {
    if !python_has("yaml, jsonschema") {
        groundwork::test_support::skip(
            "python3 with yaml and jsonschema (python3-yaml python3-jsonschema) not found",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("isles");
    common::new_project(
        &project,
        &[
            "--size",
            "8x8",
            "--players",
            "4",
            "--symmetry",
            "rotate-4",
            "--terrain",
            "islands",
            "--seed",
            "5",
        ],
    );
    let out = groundwork().arg("metadata").arg(&project).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let yaml = String::from_utf8(out.stdout).unwrap();
    assert!(yaml.contains("#   photo (required):"), "{yaml}");
    let yaml_path = dir.path().join("entry.yaml");
    std::fs::write(&yaml_path, &yaml).unwrap();
    let schema = map_list_schema();
    // the only complaint: the photo, which the uploader adds on the site
    let errors = schema_errors(&schema, &yaml_path);
    assert_eq!(errors, ["'photo' is a required property"], "{yaml}");
    // the tags come from the map: an islands map of four has water and islands, and plays
    // free-for-all and in teams
    let map = groundwork::formats::open_map(&project).unwrap().map;
    let tags = groundwork::analyze::lobby_tags::lobby_tags(&map);
    for t in ["water", "island"] {
        assert!(tags.terrain.contains(&t), "{tags:?}");
    }
    assert_eq!(tags.game_type, ["ffa", "team"]);
    assert!(yaml.contains("  certified: false\n") && yaml.contains("  inPool: false\n"));
    // with a photo added, nothing is wrong: the check is not vacuous, and a wrong tag fails
    let with_photo = yaml.replace(
        "  certified: false\n",
        "  certified: false\n  photo:\n    - ref: \"p\"\n      downloadURL: \"https://x.example/p.png\"\n      name: \"p.png\"\n      type: \"image/png\"\n      lastModifiedTS: 1\n",
    );
    std::fs::write(&yaml_path, &with_photo).unwrap();
    assert_eq!(schema_errors(&schema, &yaml_path), Vec::<String>::new());
    std::fs::write(
        &yaml_path,
        with_photo.replace("- \"water\"", "- \"puddles\""),
    )
    .unwrap();
    assert_eq!(schema_errors(&schema, &yaml_path).len(), 1);
}

#[test]
fn shots_are_written_by_our_renderer_and_the_engine() {
    let xvfb = Path::new("/usr/bin/xvfb-run");
    if !xvfb.is_file() || !Path::new("/usr/games/spring").is_file() {
        groundwork::test_support::skip(
            "xvfb-run and spring not found (apt-get install -y xvfb xauth spring)",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("p");
    common::new_project(&project, &["--size", "4x4", "--players", "2"]);
    let shots = dir.path().join("shots");
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_groundwork"))
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove(groundwork::engine::discover::ENGINE_VARIABLE)
        .arg("metadata")
        .arg(&project)
        .arg("--shots")
        .arg(&shots)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    for (name, w, h) in [
        ("photo.png", 1024, 1024),
        ("perspective.png", 1280, 720),
        ("photo-engine.png", 0, 0),
        ("perspective-engine.png", 0, 0),
    ] {
        let img = image::open(shots.join(name))
            .unwrap_or_else(|e| panic!("{name}: {e}; {said}"))
            .to_rgb8();
        if w > 0 {
            assert_eq!(img.dimensions(), (w, h), "{name}");
        }
        // a picture of the map, not one flat colour
        let first = img.get_pixel(0, 0);
        let differ = img.pixels().filter(|p| *p != first).count();
        assert!(differ > img.pixels().len() / 4, "{name} is nearly flat");
    }
}
