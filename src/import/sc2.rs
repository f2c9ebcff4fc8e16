//! StarCraft II through the importer interface: a `.SC2Map` archive. The conversion is
//! `formats::sc2`'s.

use std::path::Path;

use super::{ImportProgress, Importer, Listing, SettingKind, SettingSpec, Settings};
use crate::formats::FormatError;
use crate::formats::import_report::ImportReport;
use crate::formats::sc2::{self, Chasm, Sc2Options, TextureSource};
use crate::map::Map;

pub struct Sc2;

/// The registered importer.
pub static SC2: Sc2 = Sc2;

const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "cell_elmos",
        label: "per cell",
        help: "Default 32. Bigger cells make a bigger map; it must fit in 64 x 64 map units.",
        kind: SettingKind::Number {
            min: 8.0,
            max: 256.0,
            step: 8.0,
            default: 32.0,
            suffix: " elmos",
        },
    },
    SettingSpec {
        key: "height_scale",
        label: "heights",
        help: "Multiplies heights (1: one SC2 unit up is one cell across).",
        kind: SettingKind::Number {
            min: 0.25,
            max: 4.0,
            step: 0.0,
            default: 1.0,
            suffix: "x",
        },
    },
    SettingSpec {
        key: "chasm",
        label: "Chasms:",
        help: "What level-0 chasms become.",
        kind: SettingKind::Choice {
            options: &[("pit", "deep pit"), ("sea", "sea")],
            default: 0,
        },
    },
    SettingSpec {
        key: "texture",
        label: "Ground:",
        help: "Where the ground colours come from.",
        kind: SettingKind::Choice {
            options: &[("layers", "texture layers"), ("minimap", "Minimap.tga")],
            default: 0,
        },
    },
];

/// The typed options for `settings`.
pub fn options(settings: &Settings) -> Sc2Options {
    Sc2Options {
        cell_elmos: settings.number(SETTINGS, "cell_elmos").round() as u32,
        height_scale: settings.number(SETTINGS, "height_scale"),
        chasm: match settings.word(SETTINGS, "chasm") {
            "sea" => Chasm::Sea,
            _ => Chasm::Pit,
        },
        texture: match settings.word(SETTINGS, "texture") {
            "minimap" => TextureSource::Minimap,
            _ => TextureSource::Layers,
        },
    }
}

impl Importer for Sc2 {
    fn id(&self) -> &'static str {
        "sc2"
    }
    fn game(&self) -> &'static str {
        "StarCraft II"
    }
    fn file_kinds(&self) -> &'static [(&'static str, &'static [&'static str])] {
        &[("StarCraft II map (.SC2Map)", &["SC2Map", "sc2map"])]
    }
    fn recognises(&self, path: &Path) -> bool {
        path.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sc2map"))
    }
    fn list(&self, path: &Path) -> Result<Vec<Listing>, FormatError> {
        // one archive, one map; its header is checked now, so a broken file says so here
        let importable = sc2::mpq::Sc2Archive::open(path)
            .map(|_| ())
            .map_err(|e| e.to_string());
        let title = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(vec![Listing {
            name: title.clone(),
            title,
            facts: Vec::new(),
            importable,
        }])
    }
    fn settings(&self) -> &'static [SettingSpec] {
        SETTINGS
    }
    fn import(
        &self,
        path: &Path,
        _name: Option<&str>,
        settings: &Settings,
        progress: &mut ImportProgress,
    ) -> Result<(Map, ImportReport), FormatError> {
        sc2::import_with_progress(path, &options(settings), progress)
    }
}
