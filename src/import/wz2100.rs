//! Warzone 2100 through the importer interface: a `.wz` archive, a game data folder (with
//! `multiplay/maps/`) or one map's folder. The conversion is `formats::wz2100`'s.

use std::path::Path;

use super::{ImportProgress, Importer, Listing, SettingKind, SettingSpec, Settings};
use crate::formats::FormatError;
use crate::formats::import_report::ImportReport;
use crate::formats::wz2100::{self, MapStatus, Wz2100Options};
use crate::map::Map;

pub struct Wz2100;

/// The registered importer.
pub static WZ2100: Wz2100 = Wz2100;

const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "tile_elmos",
        label: "per tile",
        help: "Default 64. Bigger tiles make a bigger map; it must fit in 64 x 64 map units.",
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
            max: 4.0,
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
        Ok(wz2100::list_maps(path)?
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
    fn import(
        &self,
        path: &Path,
        name: Option<&str>,
        settings: &Settings,
        progress: &mut ImportProgress,
    ) -> Result<(Map, ImportReport), FormatError> {
        wz2100::import_with_progress(path, name, &options(settings), progress)
    }
}
