//! Finds the skirmish maps in a source: the folders under `multiplay/maps/` (or the one map
//! folder given), joined with their level entries, `.gam` files and what files they carry.

use super::level::{self, LevelEntry, Tileset};
use super::source::Source;
use crate::formats::FormatError;

const MAPS_DIR: &str = "multiplay/maps/";

/// One map a source holds.
#[derive(Clone, Debug)]
pub struct MapEntry {
    /// The map folder's name, e.g. `4c-rush`.
    pub folder: String,
    /// Path prefix of the folder's files in the source (`multiplay/maps/4c-rush/`, or empty when
    /// the source is the map folder itself).
    pub prefix: String,
    /// The `.gam` or `gam.json`, when present.
    pub gam: Option<String>,
    /// The level entry, when a `.lev` or `level.json` names this map.
    pub level: Option<LevelEntry>,
    /// Where the level entry came from (a file name).
    pub level_file: Option<String>,
    pub has_game_map: bool,
    pub has_game_js: bool,
}

impl MapEntry {
    /// The level's own name (`Sk-Rush`), else the folder name.
    pub fn title(&self) -> String {
        match &self.level {
            Some(l) if !l.name.is_empty() => l.name.clone(),
            _ => self.folder.clone(),
        }
    }

    /// Players from the level entry, else from the folder name's `Nc-` prefix.
    pub fn players(&self) -> Option<u32> {
        self.level
            .as_ref()
            .and_then(|l| l.players)
            .or_else(|| players_from_folder(&self.folder))
    }

    pub fn tileset(&self) -> Option<Tileset> {
        self.level.as_ref().and_then(|l| l.tileset)
    }

    pub fn file(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// Whether `query` names this map: the folder or the level name, case-insensitively, with
    /// or without the `Sk-` prefix and a tech-level suffix.
    pub fn matches(&self, query: &str) -> bool {
        let norm = |s: &str| {
            let s = s.trim().to_ascii_lowercase();
            let s = s.strip_prefix("sk-").unwrap_or(&s).to_string();
            for t in ["-t1", "-t2", "-t3"] {
                if let Some(x) = s.strip_suffix(t) {
                    return x.to_string();
                }
            }
            s
        };
        let q = norm(query);
        q == norm(&self.folder) || q == norm(&self.title())
    }
}

/// `4c-rush` -> 4.
fn players_from_folder(folder: &str) -> Option<u32> {
    let (n, rest) = folder.split_once('c')?;
    (rest.starts_with('-') && !n.is_empty())
        .then(|| n.parse().ok())
        .flatten()
}

/// Every map in the source, sorted by folder name.
pub fn discover(src: &mut Source) -> Result<Vec<MapEntry>, FormatError> {
    let (levels, mut maps) = if src.is_dir() && !src.exists("multiplay") && is_map_folder(src) {
        single_folder(src)?
    } else {
        tree(src)?
    };
    for m in &mut maps {
        if m.level.is_none() {
            let lower_gam = m.gam.as_deref().map(|g| g.to_ascii_lowercase());
            let folder_gam = format!("{MAPS_DIR}{}.gam", m.folder.to_ascii_lowercase());
            for (file, l) in &levels {
                let g = l.game.as_deref().map(|g| g.to_ascii_lowercase());
                if g.is_some() && (g == lower_gam || g.as_deref() == Some(folder_gam.as_str())) {
                    m.level = Some(l.clone());
                    m.level_file = Some(file.clone());
                    break;
                }
            }
        }
    }
    maps.sort_by(|a, b| {
        a.folder
            .to_ascii_lowercase()
            .cmp(&b.folder.to_ascii_lowercase())
    });
    Ok(maps)
}

fn is_map_folder(src: &Source) -> bool {
    ["game.map", "game.js", "ttypes.ttp", "level.json"]
        .iter()
        .any(|f| src.exists(f))
}

fn read_levels(src: &mut Source, files: &[String]) -> Vec<(String, LevelEntry)> {
    let mut out = Vec::new();
    for f in files {
        if let Ok(Some(bytes)) = src.read(f) {
            for l in level::parse_lev(&String::from_utf8_lossy(&bytes)) {
                out.push((f.clone(), l));
            }
        }
    }
    out
}

type Found = (Vec<(String, LevelEntry)>, Vec<MapEntry>);

/// A `.wz` archive or a folder holding `multiplay/maps/`.
fn tree(src: &mut Source) -> Result<Found, FormatError> {
    // (folder name, files in it), root .lev files, .gam files beside the folders
    let mut folders: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut lev_files = Vec::new();
    let mut gams: Vec<String> = Vec::new();
    if src.is_dir() {
        for (name, is_dir) in src.dir_entries("") {
            if !is_dir && name.to_ascii_lowercase().ends_with(".lev") {
                lev_files.push(name);
            }
        }
        for (name, is_dir) in src.dir_entries("multiplay/maps") {
            if is_dir {
                let files = src
                    .dir_entries(&format!("multiplay/maps/{name}"))
                    .into_iter()
                    .filter(|(_, d)| !d)
                    .map(|(f, _)| f)
                    .collect();
                folders.insert(name, files);
            } else if name.to_ascii_lowercase().ends_with(".gam") {
                gams.push(format!("{MAPS_DIR}{name}"));
            }
        }
    } else {
        for name in src.archive_names() {
            let lower = name.to_ascii_lowercase();
            if !name.contains('/') && lower.ends_with(".lev") {
                lev_files.push(name);
            } else if let Some(rest) = lower.strip_prefix(MAPS_DIR) {
                let real_rest = &name[MAPS_DIR.len()..];
                match rest.split_once('/') {
                    Some((_, file)) if !file.contains('/') && !file.is_empty() => {
                        let (folder, file) = real_rest.split_once('/').unwrap_or((real_rest, ""));
                        folders
                            .entry(folder.to_string())
                            .or_default()
                            .push(file.to_string());
                    }
                    None if rest.ends_with(".gam") => gams.push(name.clone()),
                    _ => {}
                }
            }
        }
    }
    if folders.is_empty() {
        return Err(FormatError::invalid(
            src.label(),
            "holds no Warzone 2100 skirmish maps (no multiplay/maps/ folder)",
        ));
    }
    let levels = read_levels(src, &lev_files);
    let mut maps = Vec::new();
    for (folder, files) in folders {
        let has = |f: &str| files.iter().any(|x| x.eq_ignore_ascii_case(f));
        let prefix = format!("{MAPS_DIR}{folder}/");
        let gam_name = format!("{MAPS_DIR}{folder}.gam").to_ascii_lowercase();
        let gam = if has("gam.json") {
            Some(format!("{prefix}gam.json"))
        } else {
            gams.iter()
                .find(|g| g.to_ascii_lowercase() == gam_name)
                .cloned()
        };
        let (level, level_file) = if has("level.json") {
            let lj = format!("{prefix}level.json");
            match src.read(&lj)? {
                Some(b) => match level::parse_level_json(&b) {
                    Ok(l) => (Some(l), Some(lj)),
                    Err(_) => (None, None),
                },
                None => (None, None),
            }
        } else {
            (None, None)
        };
        maps.push(MapEntry {
            has_game_map: has("game.map"),
            has_game_js: has("game.js"),
            folder,
            prefix,
            gam,
            level,
            level_file,
        });
    }
    Ok((levels, maps))
}

/// A single map folder: its `.gam` sits beside it, its `.lev` (if any) three levels up when it
/// lives in `<root>/multiplay/maps/<name>/`.
fn single_folder(src: &mut Source) -> Result<Found, FormatError> {
    let root = src.root_dir().map(|p| p.to_path_buf()).unwrap_or_default();
    let folder = root
        .canonicalize()
        .unwrap_or(root.clone())
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".into());
    let gam = if src.exists("gam.json") {
        Some("gam.json".to_string())
    } else {
        let g = format!("../{folder}.gam");
        src.exists(&g).then_some(g)
    };
    let mut lev_files = Vec::new();
    if let Some(up3) = root
        .canonicalize()
        .ok()
        .and_then(|p| p.parent()?.parent()?.parent().map(|p| p.to_path_buf()))
        && let Ok(rd) = std::fs::read_dir(&up3)
    {
        for e in rd.flatten().take(10_000) {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.to_ascii_lowercase().ends_with(".lev") {
                lev_files.push(format!("../../../{n}"));
            }
        }
    }
    let levels = read_levels(src, &lev_files);
    let (level, level_file) = match src.read("level.json")? {
        Some(b) => match level::parse_level_json(&b) {
            Ok(l) => (Some(l), Some("level.json".to_string())),
            Err(_) => (None, None),
        },
        None => (None, None),
    };
    let entry = MapEntry {
        has_game_map: src.exists("game.map"),
        has_game_js: src.exists("game.js"),
        folder,
        prefix: String::new(),
        gam,
        level,
        level_file,
    };
    Ok((levels, vec![entry]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_from_folder_names() {
        assert_eq!(players_from_folder("4c-rush"), Some(4));
        assert_eq!(players_from_folder("10c-WaterLoop"), Some(10));
        assert_eq!(players_from_folder("rush"), None);
        assert_eq!(players_from_folder("c-x"), None);
    }

    #[test]
    fn names_match_loosely() {
        let e = MapEntry {
            folder: "4c-rush".into(),
            prefix: String::new(),
            gam: None,
            level: Some(LevelEntry {
                name: "Sk-Rush".into(),
                ..LevelEntry::default()
            }),
            level_file: None,
            has_game_map: true,
            has_game_js: false,
        };
        for q in ["4c-rush", "4C-RUSH", "Sk-Rush", "rush", "Rush-T1"] {
            assert!(e.matches(q), "{q}");
        }
        assert!(!e.matches("rush2"));
    }
}
