//! Importers: other games' maps turned into a document, beside the model as Tiled keeps its
//! plugins. Each game is one module implementing [`Importer`] and one line in [`IMPORTERS`];
//! the command line's `import` and the editor's File > Import both go through it. An importer
//! recognises a path, lists the maps it holds (with the reason one cannot be imported),
//! describes its settings (the editor draws them, the command line takes them as flags), and
//! imports one map with progress. The file parsers stay in `formats/<game>/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::formats::FormatError;
use crate::formats::import_report::ImportReport;
use crate::map::Map;

pub mod sc2;
pub mod wz2100;

/// Every importer, in the order File > Import shows them.
pub static IMPORTERS: &[&dyn Importer] = &[&wz2100::WZ2100, &sc2::SC2];

/// The importer registered as `id` (`wz2100`, `sc2`).
pub fn find(id: &str) -> Option<&'static dyn Importer> {
    IMPORTERS.iter().copied().find(|i| i.id() == id)
}

/// The importer that takes `path`, if one does.
pub fn recognise(path: &Path) -> Option<&'static dyn Importer> {
    IMPORTERS.iter().copied().find(|i| i.recognises(path))
}

/// One map a source holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    /// What `import` takes as the map's name.
    pub name: String,
    /// A title for people.
    pub title: String,
    /// Players, size, tileset: what the chooser shows beside the title.
    pub facts: Vec<(&'static str, String)>,
    /// `Err(why)` when it cannot be imported.
    pub importable: Result<(), String>,
}

/// One setting an importer takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SettingSpec {
    /// The command line's and [`Settings`]' key, with its unit (`tile_elmos`).
    pub key: &'static str,
    pub label: &'static str,
    pub help: &'static str,
    pub kind: SettingKind,
}

impl SettingSpec {
    /// The help with the range and the default, for a flag's help and a control's tooltip.
    pub fn described(&self) -> String {
        match self.kind {
            SettingKind::Number {
                min,
                max,
                default,
                suffix,
                ..
            } => format!("{} ({min} to {max}{suffix}; default {default})", self.help),
            SettingKind::Choice { options, default } => format!(
                "{} ({}; default {})",
                self.help,
                options
                    .iter()
                    .map(|(w, label)| format!("{w}: {label}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                options.get(default).map_or("", |o| o.0)
            ),
            SettingKind::Path => self.help.to_string(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SettingKind {
    Number {
        min: f32,
        max: f32,
        step: f32,
        default: f32,
        suffix: &'static str,
    },
    /// One of a few words (`options`: the word and its label).
    Choice {
        options: &'static [(&'static str, &'static str)],
        default: usize,
    },
    /// A file; unset, the importer looks for it itself.
    Path,
}

/// The values of an importer's settings, by key; a missing key takes its default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings(BTreeMap<String, SettingValue>);

#[derive(Clone, Debug, PartialEq)]
enum SettingValue {
    Number(f32),
    Word(String),
}

impl Settings {
    pub fn set_number(&mut self, key: &str, v: f32) {
        self.0.insert(key.to_string(), SettingValue::Number(v));
    }
    pub fn set_word(&mut self, key: &str, v: &str) {
        self.0
            .insert(key.to_string(), SettingValue::Word(v.to_string()));
    }

    /// A path set for `key`, if one was.
    pub fn path(&self, key: &str) -> Option<std::path::PathBuf> {
        match self.0.get(key) {
            Some(SettingValue::Word(w)) if !w.is_empty() => Some(w.into()),
            _ => None,
        }
    }

    /// The number `key` of `specs`, or its default.
    pub fn number(&self, specs: &[SettingSpec], key: &str) -> f32 {
        match self.0.get(key) {
            Some(SettingValue::Number(v)) => *v,
            _ => specs
                .iter()
                .find(|s| s.key == key)
                .and_then(|s| match s.kind {
                    SettingKind::Number { default, .. } => Some(default),
                    SettingKind::Choice { .. } | SettingKind::Path => None,
                })
                .unwrap_or(0.0),
        }
    }

    /// The word `key` of `specs`, or its default.
    pub fn word<'a>(&'a self, specs: &'a [SettingSpec], key: &str) -> &'a str {
        match self.0.get(key) {
            Some(SettingValue::Word(w)) => w,
            _ => specs
                .iter()
                .find(|s| s.key == key)
                .and_then(|s| match s.kind {
                    SettingKind::Choice { options, default } => options.get(default).map(|o| o.0),
                    SettingKind::Number { .. } | SettingKind::Path => None,
                })
                .unwrap_or(""),
        }
    }
}

/// A source this machine has installed (a game's own maps), for File > Import to offer.
#[derive(Clone, Debug, PartialEq)]
pub struct InstalledSource {
    /// The button's words.
    pub label: String,
    /// Where it is, or why it was not found (what to install).
    pub path: Result<PathBuf, String>,
}

/// Where an import is: a stage's name, and how far through it (`total` 0: cannot say).
pub type ImportProgress<'a> = dyn FnMut(&str, u64, u64) + 'a;

/// How many bands [`rows_with_progress`] cuts an image into: one progress report each.
const PROGRESS_BANDS: usize = 64;

/// Fills the rows of `bytes` (`row_bytes` each) with `fill_row(y, row)` on every core, a band
/// of rows at a time, telling `progress` the rows done under `stage` after each band: a long
/// texture bake shows how far it is without the callback having to be shared across threads.
pub(crate) fn rows_with_progress(
    bytes: &mut [u8],
    row_bytes: usize,
    stage: &str,
    progress: &mut ImportProgress,
    fill_row: impl Fn(usize, &mut [u8]) + Sync,
) {
    use rayon::prelude::*;
    let row_bytes = row_bytes.max(1);
    let rows = bytes.len() / row_bytes;
    let band_rows = rows.div_ceil(PROGRESS_BANDS).max(1);
    progress(stage, 0, rows as u64);
    for (band, chunk) in bytes.chunks_mut(band_rows * row_bytes).enumerate() {
        chunk
            .par_chunks_mut(row_bytes)
            .enumerate()
            .for_each(|(i, row)| fill_row(band * band_rows + i, row));
        progress(
            stage,
            ((band + 1) * band_rows).min(rows) as u64,
            rows as u64,
        );
    }
}

/// One game's importer.
pub trait Importer: Sync {
    /// The command line's name (`groundwork import ID`).
    fn id(&self) -> &'static str;
    /// The game, for people.
    fn game(&self) -> &'static str;
    /// What File > Import offers to open: (label, extensions; empty for a folder).
    fn file_kinds(&self) -> &'static [(&'static str, &'static [&'static str])];
    /// Whether `path` is this game's (a map file, an archive, a data folder).
    fn recognises(&self, path: &Path) -> bool;
    /// The maps `path` holds.
    fn list(&self, path: &Path) -> Result<Vec<Listing>, FormatError>;
    /// The settings it takes.
    fn settings(&self) -> &'static [SettingSpec];
    /// The sources installed on this machine it can list (none by default).
    fn installed(&self) -> Vec<InstalledSource> {
        Vec::new()
    }
    /// A line the map chooser shows above the list (what cannot be imported, and why).
    fn chooser_note(&self) -> Option<&'static str> {
        None
    }
    /// Imports the map `name` of `path` (`None`: the only one).
    fn import(
        &self,
        path: &Path,
        name: Option<&str>,
        settings: &Settings,
        progress: &mut ImportProgress,
    ) -> Result<(Map, ImportReport), FormatError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_importer_is_found_by_its_id_and_its_defaults_are_in_range() {
        for i in IMPORTERS {
            assert_eq!(find(i.id()).map(|f| f.id()), Some(i.id()));
            let none = Settings::default();
            for s in i.settings() {
                if let SettingKind::Number { min, max, .. } = s.kind {
                    let v = none.number(i.settings(), s.key);
                    assert!((min..=max).contains(&v), "{}.{}", i.id(), s.key);
                }
            }
        }
        for i in IMPORTERS {
            for source in i.installed() {
                if let Ok(p) = &source.path {
                    assert!(
                        i.recognises(p),
                        "{} does not take its own {}",
                        i.id(),
                        p.display()
                    );
                }
            }
        }
        assert!(find("nope").is_none());
        assert_eq!(
            recognise(Path::new("maps/x.SC2Map")).map(|i| i.id()),
            Some("sc2")
        );
        assert_eq!(
            recognise(Path::new("mp.wz")).map(|i| i.id()),
            Some("wz2100")
        );
        assert!(recognise(Path::new("x.sd7")).is_none());
    }

    #[test]
    fn banded_rows_fill_every_row_once_and_count_up_to_the_total() {
        let (row_bytes, rows) = (12, 200);
        let mut bytes = vec![0u8; row_bytes * rows];
        let mut seen = Vec::new();
        rows_with_progress(
            &mut bytes,
            row_bytes,
            "texture",
            &mut |stage, done, total| seen.push((stage.to_string(), done, total)),
            |y, row| {
                row.iter_mut()
                    .for_each(|b| *b = b.wrapping_add(y as u8 + 1))
            },
        );
        for (y, row) in bytes.chunks(row_bytes).enumerate() {
            assert!(row.iter().all(|&b| b == y as u8 + 1), "row {y}");
        }
        assert_eq!(seen.first(), Some(&("texture".into(), 0, rows as u64)));
        assert_eq!(
            seen.last(),
            Some(&("texture".into(), rows as u64, rows as u64))
        );
        assert!(seen.windows(2).all(|w| w[0].1 < w[1].1), "{seen:?}");
        assert!(seen.len() > 30, "{} reports", seen.len());
    }
}
