//! Warzone 2100's files, read: lists the maps in a `.wz` archive, a folder holding
//! `multiplay/maps/`, or one map folder. The conversion to a Groundwork map is
//! `import::wz2100`'s.
//!
//! The files: `game.map` (versions 10..=40, byte or u16 heights, gateways, trailing bytes),
//! `ttypes.ttp`, the `.gam` or `gam.json`, `struct.json` / `feature.json` / `droid.json` in the
//! keyed and the `{"version": 2}` forms, and the level entry (`.lev` or `level.json`) that names
//! the tileset. Script-generated maps (`game.js` only) are listed as such.

pub mod catalog;
pub mod gam;
pub mod level;
pub mod map_file;
pub mod objects;
pub mod source;
pub mod ttypes;

use std::path::Path;

use crate::formats::FormatError;

pub use level::Tileset;
use source::Source;

/// Where Debian's `warzone2100-data` puts the game data.
pub const SYSTEM_DATA_DIR: &str = "/usr/share/games/warzone2100";

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
