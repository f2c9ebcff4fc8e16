//! Level entries: which maps exist, their names, player counts and tilesets. Classic maps list
//! them in `.lev` files (`addon.lev`, `<map>.xplayers.lev`); newer maps carry a `level.json`.

use crate::formats::FormatError;

/// The three Warzone 2100 tilesets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tileset {
    Arizona,
    Urban,
    Rockies,
}

impl Tileset {
    pub fn name(self) -> &'static str {
        match self {
            Tileset::Arizona => "arizona",
            Tileset::Urban => "urban",
            Tileset::Rockies => "rockies",
        }
    }

    /// The tile-art folder in `base.wz` at 128 pixels per tile.
    pub fn texpage_dir(self) -> &'static str {
        match self {
            Tileset::Arizona => "texpages/tertilesc1hw-128",
            Tileset::Urban => "texpages/tertilesc2hw-128",
            Tileset::Rockies => "texpages/tertilesc3hw-128",
        }
    }

    /// From a `level.json` `"tileset"` value.
    fn from_name(s: &str) -> Option<Tileset> {
        match s.trim().to_ascii_lowercase().as_str() {
            "arizona" => Some(Tileset::Arizona),
            "urban" => Some(Tileset::Urban),
            "rockies" | "rockie" => Some(Tileset::Rockies),
            _ => None,
        }
    }

    /// From a `.lev` `dataset` (`MULTI_CAM_1`, `MULTI_T2_C2`, `CAM_3`, ...): the campaign number
    /// picks the tileset.
    fn from_dataset(s: &str) -> Option<Tileset> {
        let s = s.trim().to_ascii_uppercase();
        let last = s.chars().last()?;
        let campaign_like = s.contains("CAM_") || s.contains("_C");
        if !campaign_like {
            return None;
        }
        match last {
            '1' => Some(Tileset::Arizona),
            '2' => Some(Tileset::Urban),
            '3' => Some(Tileset::Rockies),
            _ => None,
        }
    }
}

/// One `level` block of a `.lev` file, or a `level.json`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelEntry {
    pub name: String,
    pub players: Option<u32>,
    /// The dataset (`.lev`) or tileset name (`level.json`) as written.
    pub dataset: Option<String>,
    pub tileset: Option<Tileset>,
    /// The `.gam` path from `game "..."`, `/`-separated.
    pub game: Option<String>,
    pub author: Option<String>,
    pub license: Option<String>,
}

/// Parses a `.lev` file: `level`, `players`, `type`, `dataset`, `game` commands, with `/* */`
/// and `//` comments and quoted strings. `campaign` blocks are skipped.
pub fn parse_lev(text: &str) -> Vec<LevelEntry> {
    let tokens = tokenize(text);
    let mut out: Vec<LevelEntry> = Vec::new();
    let mut in_level = false;
    let mut i = 0;
    while i < tokens.len() {
        let cmd = tokens[i].to_ascii_lowercase();
        let arg = tokens.get(i + 1).cloned();
        match cmd.as_str() {
            "level" => {
                out.push(LevelEntry {
                    name: arg.unwrap_or_default(),
                    ..LevelEntry::default()
                });
                in_level = true;
                i += 2;
            }
            "campaign" => {
                in_level = false;
                i += 2;
            }
            "players" | "type" | "dataset" | "game" | "data" => {
                if in_level && let (Some(e), Some(a)) = (out.last_mut(), arg) {
                    match cmd.as_str() {
                        "players" => e.players = a.parse().ok(),
                        "dataset" => {
                            e.tileset = Tileset::from_dataset(&a);
                            e.dataset = Some(a);
                        }
                        "game" => e.game = Some(a.replace('\\', "/")),
                        _ => {}
                    }
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    out
}

fn tokenize(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..]
                .find("*/")
                .map(|p| i + 2 + p + 2)
                .unwrap_or(b.len());
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map(|p| i + p + 1).unwrap_or(b.len());
        } else if c == b'"' {
            let end = text[i + 1..]
                .find('"')
                .map(|p| i + 1 + p)
                .unwrap_or(b.len());
            out.push(text[i + 1..end].to_string());
            i = end + 1;
        } else {
            let start = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'"' {
                if b[i] == b'/' && matches!(b.get(i + 1), Some(b'*') | Some(b'/')) {
                    break;
                }
                i += 1;
            }
            if i == start {
                i += 1;
                continue;
            }
            out.push(text[start..i].to_string());
        }
    }
    out
}

/// Parses a `level.json` (`name`, `type`, `players`, `tileset`, `author.name`).
pub fn parse_level_json(bytes: &[u8]) -> Result<LevelEntry, FormatError> {
    let v: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| FormatError::invalid("level.json", format!("not valid JSON: {e}")))?;
    let s = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_string);
    let dataset = s("tileset");
    Ok(LevelEntry {
        name: s("name").unwrap_or_default(),
        players: v
            .get("players")
            .and_then(|x| x.as_u64())
            .map(|p| p.min(255) as u32),
        tileset: dataset.as_deref().and_then(Tileset::from_name),
        dataset,
        game: None,
        author: v
            .get("author")
            .and_then(|a| a.get("name"))
            .and_then(|n| n.as_str())
            .map(str::to_string),
        license: s("spdx-license-id"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lev_blocks_and_comments() {
        let text = r#"/* header
        level NotThis */
campaign MULTI_CAM_1
data "wrf/basic.wrf"
// level Commented
level Sk-Rush
players 4
type 14
dataset MULTI_CAM_1
game "multiplay/maps/4c-rush.gam"
level Roughness //trailing
players 2 type 14 dataset MULTI_T2_C3
game "multiplay/maps/2c-Roughness.gam"
"#;
        let l = parse_lev(text);
        assert_eq!(l.len(), 2, "{l:?}");
        assert_eq!(l[0].name, "Sk-Rush");
        assert_eq!(l[0].players, Some(4));
        assert_eq!(l[0].tileset, Some(Tileset::Arizona));
        assert_eq!(l[0].game.as_deref(), Some("multiplay/maps/4c-rush.gam"));
        assert_eq!(l[1].tileset, Some(Tileset::Rockies));
    }

    #[test]
    fn level_json() {
        let j = br#"{"name":"Foo","type":"skirmish","players":4,"tileset":"urban","author":{"name":"Me"}}"#;
        let e = parse_level_json(j).unwrap();
        assert_eq!(e.name, "Foo");
        assert_eq!(e.players, Some(4));
        assert_eq!(e.tileset, Some(Tileset::Urban));
        assert_eq!(e.author.as_deref(), Some("Me"));
        assert!(parse_level_json(b"[").is_err());
    }
}
