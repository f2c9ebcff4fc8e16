//! Warzone 2100 skirmish maps to Groundwork maps: lists the maps in a `.wz` archive, a folder
//! holding `multiplay/maps/`, or one map folder, and imports one as a [`Map`] plus an
//! [`ImportReport`] of what was converted, dropped or guessed.
//!
//! The files: `game.map` (versions 10..=40, byte or u16 heights, gateways, trailing bytes),
//! `ttypes.ttp`, the `.gam` or `gam.json`, `struct.json` / `feature.json` / `droid.json` in the
//! keyed and the `{"version": 2}` forms, and the level entry (`.lev` or `level.json`) that names
//! the tileset. Script-generated maps (`game.js` only) are listed and refused with a clear
//! message. The tile art comes from the game's `base.wz`.
//!
//! The choices, each documented where it is made:
//! - Scale ([`layout`]): one tile is `tile_elmos` (64 by default) elmos; heights get the same
//!   factor (`tile_elmos / 128`) times `height_scale`. The map is padded to the next even number
//!   of map units with the Warzone area centred (so symmetric maps stay symmetric), the padding
//!   repeating the edge tiles on flat ground at the game's flattened edge height.
//! - Water, cliffs, lifted land ([`terrain`]): sea 48 elmos deep; land lifted a third of a
//!   tile; cliff faces at least slope 0.6 (1 - normal.y), flat cliffs raised into ridges.
//! - Metal, start positions, features ([`objects_convert`]): one standard dome per oil (2.0
//!   metal/s with a tech-1 extractor at maxMetal 1.0, extractorRadius 90); the HQ (else first
//!   constructor) is each player's start; trees and boulders through a fixed table of names BAR
//!   defines; structures, walls, droids and props listed and dropped.
//! - Terrain types ([`terrain_types`]): the twelve Warzone types as BAR terrain types.
//! - Texture ([`tileset`]): the tileset's own tile art with flips and rotations.

pub mod catalog;
pub mod convert;
pub mod distance;
pub mod gam;
pub mod layout;
pub mod level;
pub mod map_file;
pub mod objects;
pub mod objects_convert;
pub mod source;
pub mod terrain;
pub mod terrain_types;
pub mod tileset;
pub mod ttypes;

use std::path::{Path, PathBuf};

use crate::formats::{FormatError, ImportReport};
use crate::map::Map;

pub use level::Tileset;
use source::Source;

/// Where Debian's `warzone2100-data` puts the game data.
pub const SYSTEM_DATA_DIR: &str = "/usr/share/games/warzone2100";

/// How to import.
#[derive(Clone, Debug, PartialEq)]
pub struct Wz2100Options {
    /// Elmos per Warzone tile (16..=256).
    pub tile_elmos: u32,
    /// Extra factor on heights, after the tile scale.
    pub height_scale: f32,
    /// The game's `base.wz` (tile art); `None` looks beside the source, then in the system's
    /// game data. Missing art is not an error: the texture is then plain colours.
    pub base_wz: Option<PathBuf>,
}

impl Default for Wz2100Options {
    fn default() -> Wz2100Options {
        Wz2100Options {
            tile_elmos: 64,
            height_scale: 1.0,
            base_wz: None,
        }
    }
}

/// Whether a listed map can be imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapStatus {
    Importable,
    /// Only `game.js`: the game generates the terrain by running JavaScript.
    ScriptGenerated,
    /// Something needed is missing or unreadable.
    Broken(String),
}

impl MapStatus {
    pub fn describe(&self) -> String {
        match self {
            MapStatus::Importable => "importable".into(),
            MapStatus::ScriptGenerated => "script-generated, cannot import".into(),
            MapStatus::Broken(why) => format!("cannot import: {why}"),
        }
    }
}

/// One map a source holds.
#[derive(Clone, Debug, PartialEq)]
pub struct MapListing {
    /// The map folder's name (`4c-rush`); `import` also accepts the title.
    pub name: String,
    /// The level's name (`Sk-Rush`), else the folder name.
    pub title: String,
    pub players: Option<u32>,
    /// Width and height in tiles, when `game.map` is there.
    pub size_tiles: Option<(u32, u32)>,
    pub tileset: Option<Tileset>,
    pub status: MapStatus,
}

/// The maps in `source` (a `.wz` archive, a folder holding `multiplay/maps/`, or a map folder).
pub fn list_maps(source: &Path) -> Result<Vec<MapListing>, FormatError> {
    let mut src = Source::open(source)?;
    let entries = catalog::discover(&mut src)?;
    let mut out = Vec::new();
    for e in entries {
        let (size_tiles, status) = if e.has_game_map {
            match src.read(&e.file("game.map")) {
                Ok(Some(b)) => match map_file::read_header(&b) {
                    Ok((_, w, h)) if src.exists(&e.file("ttypes.ttp")) => {
                        (Some((w, h)), MapStatus::Importable)
                    }
                    Ok((_, w, h)) => (Some((w, h)), MapStatus::Broken("no ttypes.ttp".into())),
                    Err(err) => (None, MapStatus::Broken(err.to_string())),
                },
                Ok(None) => (None, MapStatus::Broken("no game.map".into())),
                Err(err) => (None, MapStatus::Broken(err.to_string())),
            }
        } else if e.has_game_js {
            (None, MapStatus::ScriptGenerated)
        } else {
            (None, MapStatus::Broken("no game.map".into()))
        };
        out.push(MapListing {
            title: e.title(),
            players: e.players(),
            tileset: e.tileset(),
            name: e.folder.clone(),
            size_tiles,
            status,
        });
    }
    Ok(out)
}

/// Imports one map. `map_name` may be omitted when the source holds exactly one map.
pub fn import(
    source: &Path,
    map_name: Option<&str>,
    options: &Wz2100Options,
) -> Result<(Map, ImportReport), FormatError> {
    import_with_progress(source, map_name, options, &mut |_, _, _| {})
}

/// [`import`], reporting (stage, done, total) as it goes: the source opened and its maps
/// found, the tile art opened, then the conversion.
pub fn import_with_progress(
    source: &Path,
    map_name: Option<&str>,
    options: &Wz2100Options,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<(Map, ImportReport), FormatError> {
    progress("reading the source", 0, 2);
    let mut src = Source::open(source)?;
    let entries = catalog::discover(&mut src)?;
    let entry = match map_name {
        Some(q) => entries.iter().find(|e| e.matches(q)).ok_or_else(|| {
            FormatError::invalid(
                src.label(),
                format!(
                    "has no map named \"{q}\" (it holds: {})",
                    entries
                        .iter()
                        .map(|e| e.folder.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?,
        None if entries.len() == 1 => &entries[0],
        None => {
            return Err(FormatError::invalid(
                src.label(),
                format!("holds {} maps; name one", entries.len()),
            ));
        }
    };
    progress("reading the source", 1, 2);
    let (base, problem) = open_base(source, options);
    progress("reading the source", 2, 2);
    progress("converting", 0, 1);
    let out = convert::convert(&mut src, entry, options, base, problem)?;
    progress("converting", 1, 1);
    Ok(out)
}

/// Finds `base.wz`: beside the source (or inside it, for a game data folder), then in the
/// system's game data.
pub fn find_base_wz(source: &Path) -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if source.is_dir() {
        candidates.push(source.join("base.wz"));
        candidates.push(source.join("base"));
    }
    let mut dir = source.parent();
    for _ in 0..4 {
        let Some(d) = dir else { break };
        candidates.push(d.join("base.wz"));
        dir = d.parent();
    }
    candidates.push(Path::new(SYSTEM_DATA_DIR).join("base.wz"));
    candidates
        .into_iter()
        .find(|p| p.is_file() || (p.is_dir() && p.join("texpages").is_dir()))
}

fn open_base(source: &Path, options: &Wz2100Options) -> (convert::BaseArt, Option<String>) {
    let path = match &options.base_wz {
        Some(p) => p.clone(),
        None => match find_base_wz(source) {
            Some(p) => p,
            None => {
                return (
                    None,
                    Some(format!(
                        "no base.wz beside the source or in {SYSTEM_DATA_DIR} (the tile art)"
                    )),
                );
            }
        },
    };
    match Source::open(&path) {
        Ok(s) => {
            let name = s.label();
            (Some((s, name)), None)
        }
        Err(e) => (None, Some(format!("base.wz unreadable: {e}"))),
    }
}
