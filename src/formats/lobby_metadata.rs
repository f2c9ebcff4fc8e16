//! The block a mapmaker submits to BAR's maps-metadata `map_list.yaml` (its schema
//! `schemas/map_list.yaml`, checked further by `check_startboxes.ts` and `check_startpos.ts`):
//! the names, the player count, `startPos` (every start by name, in elmos, and the team
//! arrangements that place players on them) and `startboxesSet` (one arrangement of boxes per
//! team count, in the lobby's 0..200 units), the lobby's tags (`gameType`, `terrain`: from
//! `analyze::lobby_tags`), `certified` and `inPool` false, and the uploads (`photo`, the shots)
//! left for the uploader, named in the YAML's comments. Built as JSON values, written as YAML.

use serde_json::{Value, json};

use crate::map::Map;
use crate::map::start_boxes::contains;

/// The name of start `i` in `startPos.positions`.
pub fn position_name(i: usize) -> String {
    format!("P{}", i + 1)
}

/// `gameType` and `terrain`, in the schema's words (`analyze::lobby_tags` reads them from a
/// map).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LobbyTags {
    pub game_type: Vec<&'static str>,
    pub terrain: Vec<&'static str>,
}

/// The uploads an entry needs that only the uploader can add (through the maps-metadata
/// site, which stores them): each key, whether the schema requires one, and what it shows.
pub const UPLOADS: &[(&str, bool, &str)] = &[
    (
        "photo",
        true,
        "the map seen from above (groundwork metadata --shots DIR writes one)",
    ),
    (
        "backgroundImage",
        false,
        "a picture for the lobby's background",
    ),
    (
        "perspectiveShot",
        false,
        "the map at an angle (--shots writes one)",
    ),
    ("inGameShots", false, "screenshots from games on the map"),
];

/// The map's entry: `{springName: {...}}`. maps-metadata keys its entries by a database id;
/// the map's name stands in for it until the entry is made. The uploads are left out: `photo`
/// (which the schema requires) is for the uploader to add, the other three are empty.
pub fn entry(map: &Map, tags: &LobbyTags) -> Value {
    let s = &map.settings;
    let spring_name = format!("{} {}", s.name.trim(), s.version.trim())
        .trim()
        .to_string();
    let players = map.teams.len();
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let mut positions = serde_json::Map::new();
    for (i, t) in map.teams.iter().enumerate() {
        positions.insert(
            position_name(i),
            json!({
                "x": t.start_x_elmos.round().max(0.0) as i64,
                "y": t.start_z_elmos.round().max(0.0) as i64,
            }),
        );
    }
    // the arrangements: every player for themselves, then one per start box set whose boxes
    // hold the same number of starts each
    let mut team = Vec::new();
    if players >= 2 {
        team.push(json!({
            "playersPerTeam": 1,
            "teamCount": players,
            "sides": (0..players)
                .map(|i| json!({"starts": [{"spawnPoint": position_name(i)}]}))
                .collect::<Vec<_>>(),
        }));
    }
    let mut boxes = serde_json::Map::new();
    for set in &map.start_boxes {
        boxes.insert(
            format!("teams{}", set.teams),
            json!({
                "maxPlayersPerStartbox": set.max_players_per_box,
                "startboxes": set.boxes.iter().map(|b| json!({
                    "poly": [{"x": b[0], "y": b[1]}, {"x": b[2], "y": b[3]}],
                })).collect::<Vec<_>>(),
            }),
        );
        let members: Vec<Vec<usize>> = set
            .boxes
            .iter()
            .map(|b| {
                (0..players)
                    .filter(|&i| {
                        let t = &map.teams[i];
                        contains(*b, [t.start_x_elmos, t.start_z_elmos], w, d)
                    })
                    .take(set.max_players_per_box as usize)
                    .collect()
            })
            .collect();
        let per = members.iter().map(Vec::len).min().unwrap_or(0);
        let already = per == 1 && set.boxes.len() == players;
        if per >= 1 && set.boxes.len() >= 2 && !already {
            team.push(json!({
                "playersPerTeam": per,
                "teamCount": set.boxes.len(),
                "sides": members.iter().map(|m| json!({
                    "starts": m.iter().take(per).map(|&i| json!({"spawnPoint": position_name(i)})).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            }));
        }
    }
    let team_count = map
        .start_boxes
        .iter()
        .map(|s| s.teams)
        .filter(|&t| t >= 2)
        .min()
        .unwrap_or(2);
    let mut info = serde_json::Map::new();
    info.insert("springName".into(), json!(spring_name));
    info.insert("displayName".into(), json!(s.name.trim()));
    info.insert("author".into(), json!(s.author.trim()));
    if !s.description.trim().is_empty() {
        info.insert("description".into(), json!(s.description.trim()));
    }
    info.insert("gameType".into(), json!(tags.game_type));
    info.insert("terrain".into(), json!(tags.terrain));
    info.insert("playerCount".into(), json!(players));
    info.insert("teamCount".into(), json!(team_count));
    info.insert("certified".into(), json!(false));
    info.insert("inPool".into(), json!(false));
    for (key, required, _) in UPLOADS {
        if !required {
            info.insert((*key).into(), json!([]));
        }
    }
    info.insert("startPosActive".into(), json!(players > 0));
    info.insert(
        "startPos".into(),
        json!({"positions": positions, "team": team}),
    );
    if !boxes.is_empty() {
        info.insert("startboxesSet".into(), Value::Object(boxes));
    }
    let mut out = serde_json::Map::new();
    out.insert(spring_name, Value::Object(info));
    Value::Object(out)
}

/// The entry as the YAML text to paste into `map_list.yaml`, with lines saying so first and
/// naming the uploads to add.
pub fn entry_yaml(map: &Map, tags: &LobbyTags) -> String {
    let mut out = String::from(
        "# for BAR's maps-metadata map_list.yaml: replace the first key with the entry's id\n",
    );
    out.push_str("# uploads to add on the maps-metadata site before the entry is valid:\n");
    for (key, required, what) in UPLOADS {
        let need = if *required { "required" } else { "optional" };
        out.push_str(&format!("#   {key} ({need}): {what}\n"));
    }
    write_yaml(&entry(map, tags), 0, &mut out);
    out
}

/// A scalar as YAML: strings in double quotes (JSON's escapes are YAML's).
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => serde_json::to_string(s).expect("a string serialises"),
        other => other.to_string(),
    }
}

fn key(k: &str) -> String {
    let plain = !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !k
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '-');
    if plain {
        k.to_string()
    } else {
        serde_json::to_string(k).expect("a string serialises")
    }
}

/// Block-style YAML of `v` at `indent` spaces.
fn write_yaml(v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (k, val) in m {
                match val {
                    Value::Object(o) if !o.is_empty() => {
                        out.push_str(&format!("{pad}{}:\n", key(k)));
                        write_yaml(val, indent + 2, out);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push_str(&format!("{pad}{}:\n", key(k)));
                        write_yaml(val, indent + 2, out);
                    }
                    Value::Object(_) => out.push_str(&format!("{pad}{}: {{}}\n", key(k))),
                    Value::Array(_) => out.push_str(&format!("{pad}{}: []\n", key(k))),
                    _ => out.push_str(&format!("{pad}{}: {}\n", key(k), scalar(val))),
                }
            }
        }
        Value::Array(a) => {
            for item in a {
                match item {
                    Value::Object(o) if !o.is_empty() => {
                        // the first key on the dash's line, the rest under it
                        let mut text = String::new();
                        write_yaml(item, indent + 2, &mut text);
                        let body = text.trim_start_matches(' ');
                        out.push_str(&format!("{pad}- {body}"));
                    }
                    Value::Array(_) => {
                        out.push_str(&format!("{pad}-\n"));
                        write_yaml(item, indent + 2, out);
                    }
                    _ => out.push_str(&format!("{pad}- {}\n", scalar(item))),
                }
            }
        }
        _ => out.push_str(&format!("{pad}{}\n", scalar(v))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::start_boxes::StartBoxSet;
    use crate::map::{MapSettings, MapSize, Team};

    fn four_player() -> Map {
        let settings = MapSettings {
            name: "Test Map".into(),
            author: "someone".into(),
            ..MapSettings::default()
        };
        let mut m = Map::new(MapSize::new(8, 8).unwrap(), settings);
        for p in [
            [500.0, 500.0],
            [900.0, 500.0],
            [3596.0, 3596.0],
            [3196.0, 3596.0],
        ] {
            m.teams.push(Team {
                start_x_elmos: p[0],
                start_z_elmos: p[1],
            });
        }
        m.start_boxes = vec![StartBoxSet {
            teams: 2,
            max_players_per_box: 2,
            boxes: vec![[0, 0, 60, 60], [140, 140, 200, 200]],
        }];
        m
    }

    /// maps-metadata's `check_startboxes.ts` and `check_startpos.ts`, over an entry.
    fn lobby_checks(info: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        let players = info["playerCount"].as_u64().unwrap();
        let mut counts = std::collections::HashSet::new();
        for (_, set) in info["startboxesSet"].as_object().into_iter().flatten() {
            let boxes = set["startboxes"].as_array().unwrap();
            if !counts.insert(boxes.len()) {
                errors.push(format!("two arrangements for {} teams", boxes.len()));
            }
            for b in boxes {
                let p = b["poly"].as_array().unwrap();
                let (a, c) = (&p[0], &p[1]);
                for q in [a, c] {
                    for k in ["x", "y"] {
                        let v = q[k].as_u64().unwrap();
                        if v > 200 {
                            errors.push(format!("{k} {v} past 200"));
                        }
                    }
                }
                if a["x"].as_u64() >= c["x"].as_u64() || a["y"].as_u64() >= c["y"].as_u64() {
                    errors.push(format!("invalid box {b}"));
                }
            }
            let per = set["maxPlayersPerStartbox"].as_u64().unwrap();
            if !(1..=16).contains(&per) {
                errors.push(format!("maxPlayersPerStartbox {per}"));
            }
            if boxes.len() as u64 * per > players {
                errors.push("boxes x players per box past the player count".into());
            }
        }
        let positions = info["startPos"]["positions"].as_object().unwrap();
        let mut confs = std::collections::HashSet::new();
        for t in info["startPos"]["team"].as_array().unwrap() {
            let (count, per) = (
                t["teamCount"].as_u64().unwrap(),
                t["playersPerTeam"].as_u64().unwrap(),
            );
            if !confs.insert((count, per)) {
                errors.push(format!("duplicate arrangement {count} x {per}"));
            }
            let sides = t["sides"].as_array().unwrap();
            if sides.len() as u64 != count {
                errors.push("wrong number of sides".into());
            }
            for side in sides {
                let starts = side["starts"].as_array().unwrap();
                if starts.len() as u64 != per {
                    errors.push("wrong number of players on a side".into());
                }
                for s in starts {
                    if !positions.contains_key(s["spawnPoint"].as_str().unwrap()) {
                        errors.push(format!("unknown spawn point {s}"));
                    }
                }
            }
        }
        errors
    }

    #[test]
    fn the_entry_passes_the_lobbys_own_checks() {
        let m = four_player();
        let e = entry(&m, &LobbyTags::default());
        let info = &e["Test Map 1.0"];
        assert_eq!(info["playerCount"], 4);
        assert_eq!(
            info["startPos"]["positions"]["P3"],
            json!({"x": 3596, "y": 3596})
        );
        assert_eq!(
            info["startboxesSet"]["teams2"]["startboxes"][1]["poly"],
            json!([{"x": 140, "y": 140}, {"x": 200, "y": 200}])
        );
        // free for all, and 2 v 2 from the boxes
        let teams = info["startPos"]["team"].as_array().unwrap();
        assert_eq!(teams.len(), 2);
        assert_eq!(teams[1]["playersPerTeam"], 2);
        assert_eq!(
            teams[1]["sides"][0]["starts"],
            json!([{"spawnPoint": "P1"}, {"spawnPoint": "P2"}])
        );
        assert_eq!(lobby_checks(info), Vec::<String>::new());
        // the checks are not vacuous: a box too crowded for the map fails them
        let mut bad = m.clone();
        bad.start_boxes[0].max_players_per_box = 3;
        assert!(!lobby_checks(&entry(&bad, &LobbyTags::default())["Test Map 1.0"]).is_empty());
    }

    #[test]
    fn the_yaml_is_block_style_with_quoted_strings() {
        let y = entry_yaml(&four_player(), &LobbyTags::default());
        assert!(y.starts_with("# for BAR's maps-metadata"), "{y}");
        assert!(y.contains("\"Test Map 1.0\":\n"), "{y}");
        assert!(y.contains("\n  springName: \"Test Map 1.0\"\n"), "{y}");
        assert!(
            y.contains("      P1:\n        x: 500\n        y: 500\n"),
            "{y}"
        );
        assert!(
            y.contains("        - poly:\n            - x: 0\n              y: 0\n"),
            "{y}"
        );
        assert!(y.contains("maxPlayersPerStartbox: 2"), "{y}");
    }
}
