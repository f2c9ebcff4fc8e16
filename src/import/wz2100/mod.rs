//! Warzone 2100 skirmish maps to Groundwork maps, through the importer interface: a `.wz`
//! archive, a game data folder (with `multiplay/maps/`) or one map's folder, imported as a
//! [`Map`] plus an [`ImportReport`] of what was converted, dropped or guessed. The files are
//! read by `formats::wz2100`.
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

pub mod convert;
pub mod distance;
pub mod layout;
pub mod objects_convert;
pub mod terrain;
pub mod terrain_types;
pub mod tileset;

use std::path::{Path, PathBuf};

use super::{
    ImportProgress, Importer, InstalledSource, Listing, SettingKind, SettingSpec, Settings,
};
use crate::formats::wz2100::source::Source;
use crate::formats::wz2100::{self as files, MapStatus, SYSTEM_DATA_DIR, catalog};
use crate::formats::{FormatError, ImportReport};
use crate::map::Map;

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

/// Imports one map. `map_name` may be omitted when the source holds exactly one map.
pub fn import(
    source: &Path,
    map_name: Option<&str>,
    options: &Wz2100Options,
) -> Result<(Map, ImportReport), FormatError> {
    import_with_progress(source, map_name, options, &mut |_, _, _| {})
}

/// [`import`], reporting (stage, done, total) as it goes: the source opened and its maps
/// found, the map's files read, the heights, the tile art (tile by tile), the texture (row by
/// row), then the objects.
pub fn import_with_progress(
    source: &Path,
    map_name: Option<&str>,
    options: &Wz2100Options,
    progress: &mut ImportProgress,
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
    convert::convert(&mut src, entry, options, base, problem, progress)
}

/// Finds `base.wz`: beside the source (or inside it, for a game data folder), then in the
/// system's game data.
fn find_base_wz(source: &Path) -> Option<PathBuf> {
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

pub struct Wz2100;

/// The registered importer.
pub static WZ2100: Wz2100 = Wz2100;

const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "tile_elmos",
        label: "per tile",
        help: "Bigger tiles make a bigger map; it must fit in 64 x 64 map units.",
        kind: SettingKind::Number {
            min: 16.0,
            max: 256.0,
            step: 16.0,
            default: 64.0,
            suffix: " elmos",
        },
    },
    SettingSpec {
        key: "height_scale",
        label: "heights",
        help: "An extra factor on heights, after the tile scale.",
        kind: SettingKind::Number {
            min: 0.25,
            max: 16.0,
            step: 0.0,
            default: 1.0,
            suffix: "x",
        },
    },
    SettingSpec {
        key: "base_wz",
        label: "base.wz",
        help: "The game's tile art; unset, looked for beside the source, then in the game's data.",
        kind: SettingKind::Path,
    },
];

/// The typed options for `settings`.
pub fn options(settings: &Settings) -> Wz2100Options {
    Wz2100Options {
        tile_elmos: settings.number(SETTINGS, "tile_elmos").round() as u32,
        height_scale: settings.number(SETTINGS, "height_scale"),
        base_wz: settings.path("base_wz"),
    }
}

impl Importer for Wz2100 {
    fn id(&self) -> &'static str {
        "wz2100"
    }
    fn game(&self) -> &'static str {
        "Warzone 2100"
    }
    fn file_kinds(&self) -> &'static [(&'static str, &'static [&'static str])] {
        &[
            ("Warzone 2100 map (.wz archive)", &["wz"]),
            ("Warzone 2100 map (folder)", &[]),
        ]
    }
    fn recognises(&self, path: &Path) -> bool {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        ext.as_deref() == Some("wz")
            || (path.is_dir()
                && (path.join("multiplay").join("maps").is_dir()
                    || path.join("game.map").is_file()))
    }
    fn list(&self, path: &Path) -> Result<Vec<Listing>, FormatError> {
        Ok(files::list_maps(path)?
            .into_iter()
            .map(|m| Listing {
                facts: vec![
                    (
                        "players",
                        m.players.map(|p| p.to_string()).unwrap_or("?".into()),
                    ),
                    (
                        "tiles",
                        m.size_tiles
                            .map(|(w, h)| format!("{w} x {h}"))
                            .unwrap_or("-".into()),
                    ),
                    ("tileset", m.tileset.map(|t| t.name()).unwrap_or("?").into()),
                ],
                importable: match &m.status {
                    MapStatus::Importable => Ok(()),
                    other => Err(other.describe()),
                },
                name: m.name,
                title: m.title,
            })
            .collect())
    }
    fn settings(&self) -> &'static [SettingSpec] {
        SETTINGS
    }
    /// The game's own skirmish maps, where Debian's `warzone2100-data` puts them.
    fn installed(&self) -> Vec<InstalledSource> {
        let p = Path::new(SYSTEM_DATA_DIR).join("mp.wz");
        vec![InstalledSource {
            label: "Warzone 2100: the game's skirmish maps".into(),
            path: if p.is_file() {
                Ok(p)
            } else {
                Err(format!(
                    "no mp.wz in {SYSTEM_DATA_DIR} (install warzone2100-data)"
                ))
            },
        }]
    }
    fn chooser_note(&self) -> Option<&'static str> {
        Some("Script-generated maps (game.js only) have no terrain to import.")
    }
    fn import(
        &self,
        path: &Path,
        name: Option<&str>,
        settings: &Settings,
        progress: &mut ImportProgress,
    ) -> Result<(Map, ImportReport), FormatError> {
        import_with_progress(path, name, &options(settings), progress)
    }
}
