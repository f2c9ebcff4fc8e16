//! StarCraft II maps (`.SC2Map`) to Groundwork maps, through the importer interface: [`import`]
//! reads the MPQ archive (guarded, `formats::sc2`),
//! decodes `MapInfo`, the terrain layers and `Objects`, and builds a [`Map`] with an
//! [`ImportReport`] of what was converted, dropped and guessed.
//!
//! The choices, in short (each module's doc has the detail):
//! - **Frame.** The playable area only, Y flipped, `cell_elmos` (32) a cell, centred in the
//!   smallest even-unit map; the padding is chasm, SC2's hard map edge.
//! - **Heights.** One SC2 unit up = one cell across x `height_scale`, so slopes keep their
//!   angles; a cliff level is 64 elmos. Cliffs are sheer (one 8-elmo square per level: ~80
//!   degrees); ramps are rebuilt from `t3SyncCliffLevel`'s fractions as even slopes (~15-20
//!   degrees); level 0 is a pit 256 elmos deep with an impassable terrain type, or sea.
//! - **Metal.** Mineral lines (patches within 3.5 cells) give 2-4 spots 144 elmos apart, each a
//!   dome of radius 3 metal cells yielding 2.0 metal/s to a T1 extractor (rich: twice);
//!   `maxMetal` follows (1.12), `extractorRadius` 90 (BAR's template).
//! - **Features.** Geysers become `GeoVent`; destructible rocks BAR's `rocks30_<biome>_NN`;
//!   other doodads are counted in the report and dropped.
//! - **Texture.** `t3TextureMasks` weights coloured by a tileset palette, cliff faces darker,
//!   chasms near black; or `Minimap.tga` when its shape fits.
//!
//! One module per idea (the file readers are `formats::sc2`'s): [`frame`] (crop, flip, scale, pad), [`terrain`] (sheer
//! cliffs, ramps, chasms), [`metal`] (mineral lines to spots), [`features`] (vents and rocks),
//! [`ground`] (texture baking) and [`convert`] (assembly).

pub mod convert;
pub mod features;
pub mod frame;
pub mod ground;
pub mod metal;
pub mod terrain;

use std::path::Path;

use super::{ImportProgress, Importer, Listing, SettingKind, SettingSpec, Settings};
use crate::formats::sc2::{heights, map_info, mpq, objects, texture};
use crate::formats::{FormatError, ImportReport};
use crate::map::{Grid, Map};

pub use terrain::Chasm;

/// Where the ground colours come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TextureSource {
    /// `t3TextureMasks` coloured by the tileset palette.
    #[default]
    Layers,
    /// `Minimap.tga`, when its shape matches the playable area or the whole map.
    Minimap,
}

/// How to import.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sc2Options {
    /// Elmos per SC2 cell, a multiple of 8 from 8 to 256 (default 32).
    pub cell_elmos: u32,
    /// Multiplies heights (default 1: one SC2 unit up = one cell across).
    pub height_scale: f32,
    pub chasm: Chasm,
    pub texture: TextureSource,
}

impl Default for Sc2Options {
    fn default() -> Sc2Options {
        Sc2Options {
            cell_elmos: 32,
            height_scale: 1.0,
            chasm: Chasm::Pit,
            texture: TextureSource::Layers,
        }
    }
}

impl Sc2Options {
    /// Checks the options; the error says which one and why.
    pub fn check(&self) -> Result<(), FormatError> {
        if !(8..=256).contains(&self.cell_elmos) || !self.cell_elmos.is_multiple_of(8) {
            return Err(FormatError::invalid(
                "SC2 import options",
                format!(
                    "cell elmos {} must be a multiple of 8 from 8 to 256",
                    self.cell_elmos
                ),
            ));
        }
        if !(self.height_scale.is_finite() && self.height_scale > 0.0 && self.height_scale <= 16.0)
        {
            return Err(FormatError::invalid(
                "SC2 import options",
                format!(
                    "height scale {} must be above 0 and at most 16",
                    self.height_scale
                ),
            ));
        }
        Ok(())
    }
}

/// Files the importer reads; everything else in the archive is listed as dropped.
const USED_FILES: &[&str] = &[
    "MapInfo",
    "t3Terrain.xml",
    "t3HeightMap",
    "t3SyncHeightMap",
    "t3SyncCliffLevel",
    "t3TextureMasks",
    "Objects",
    "Minimap.tga",
    "enUS.SC2Data\\LocalizedData\\GameStrings.txt",
];

/// Imports the `.SC2Map` at `path`.
pub fn import(path: &Path, options: &Sc2Options) -> Result<(Map, ImportReport), FormatError> {
    import_with_progress(path, options, &mut |_, _, _| {})
}

/// The files [`import_with_progress`] counts while reading.
const READ_STEPS: u64 = 6;

/// [`import`], reporting (stage, done, total) as it goes: the archive's files read, the
/// heights, the objects, then the texture row by row.
pub fn import_with_progress(
    path: &Path,
    options: &Sc2Options,
    progress: &mut ImportProgress,
) -> Result<(Map, ImportReport), FormatError> {
    options.check()?;
    let mut read = |n: u64| progress("reading the archive", n, READ_STEPS);
    read(0);
    let file_name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map.SC2Map".into());
    let mut report = ImportReport::new(format!("StarCraft II: {file_name}"));
    let mut ar = mpq::Sc2Archive::open(path)?;

    let xml = match ar.read("t3Terrain.xml")? {
        Some(b) => match heights::parse_terrain_xml(&b) {
            Ok(x) => Some(x),
            Err(e) => {
                report.dropped(format!("t3Terrain.xml: {e}"));
                None
            }
        },
        None => {
            report.dropped("t3Terrain.xml is missing: no quantize values or texture names");
            None
        }
    };
    let info = map_info::parse(
        &ar.read_required("MapInfo")?,
        xml.as_ref().map(|x| x.tileset.as_str()),
    )?;
    read(1);
    let (cw, ch) = (info.width_cells as usize, info.height_cells as usize);

    // heights: t3HeightMap, cross-checked against (or replaced by) t3SyncHeightMap
    let sync = match ar.read("t3SyncHeightMap")? {
        Some(b) => match heights::parse_sync_height_map(&b) {
            Ok(g) => Some(g),
            Err(e) => {
                report.dropped(format!("{e}"));
                None
            }
        },
        None => None,
    };
    let hmap = match (&xml, ar.read("t3HeightMap")?) {
        (Some(x), Some(b)) => match heights::parse_height_map(&b, x) {
            Ok(v) => Some(v),
            Err(e) => {
                report.dropped(format!("{e}"));
                None
            }
        },
        (None, Some(_)) => None,
        (_, None) => {
            report.dropped("t3HeightMap is missing");
            None
        }
    };
    read(2);
    let fits = |g: &Grid<f32>| g.width() > cw && g.height() > ch;
    let (vertex_heights, vertex_levels) = match (hmap, sync) {
        (Some(v), sync) if fits(&v.heights) => {
            match sync.as_ref().and_then(|s| heights::cross_check(&v.heights, s)) {
                Some(c) if c.median_abs_diff > 0.25 => {
                    report.guessed(format!(
                        "heights: t3HeightMap disagrees with t3SyncHeightMap (median {:.3}, 99th percentile {:.3} world units over {} vertices); the quantize values may be wrong, t3HeightMap is used",
                        c.median_abs_diff, c.p99_abs_diff, c.compared
                    ));
                }
                Some(c) => report.converted(format!(
                    "heights: t3HeightMap decoded with t3Terrain.xml's quantize values; matches t3SyncHeightMap to a median of {:.4} world units (99th percentile {:.3}) over {} vertices",
                    c.median_abs_diff, c.p99_abs_diff, c.compared
                )),
                None => report.guessed("heights: t3HeightMap used without a t3SyncHeightMap to check it against"),
            }
            (v.heights, v.levels)
        }
        (_, Some(s)) if fits(&s) => {
            report.guessed("heights: from t3SyncHeightMap (t3HeightMap missing, unreadable or too small); cliff levels from the heights");
            let levels = s.data().iter().map(|&h| level_of_height(h)).collect();
            let levels = Grid::from_vec(s.width(), s.height(), levels)
                .ok_or_else(|| FormatError::invalid("t3SyncHeightMap", "size"))?;
            (s, levels)
        }
        _ => {
            return Err(FormatError::invalid(
                "SC2Map",
                format!(
                    "no usable heights: t3HeightMap (with t3Terrain.xml) or t3SyncHeightMap covering the {cw} x {ch} cell map is needed"
                ),
            ));
        }
    };
    let cells = match ar.read("t3SyncCliffLevel")? {
        Some(b) => match heights::parse_cliff_levels(&b) {
            Ok(g) if g.width() >= cw && g.height() >= ch => Some(g),
            Ok(g) => {
                report.dropped(format!(
                    "t3SyncCliffLevel is {} x {}, smaller than the map: ramps not found",
                    g.width(),
                    g.height()
                ));
                None
            }
            Err(e) => {
                report.dropped(format!("{e}; ramps not found"));
                None
            }
        },
        None => {
            report.dropped("t3SyncCliffLevel is missing: ramps not found");
            None
        }
    };
    read(3);
    let objects = match ar.read("Objects")? {
        Some(b) => match objects::parse(&b) {
            Ok(o) => Some(o),
            Err(e) => {
                report.dropped(format!(
                    "{e}: no start locations, minerals, geysers or rocks"
                ));
                None
            }
        },
        None => None,
    };
    read(4);
    let masks = match ar.read("t3TextureMasks")? {
        Some(b) => match texture::parse_masks(&b) {
            Ok(m) => Some(m),
            Err(e) => {
                report.dropped(format!("{e}"));
                None
            }
        },
        None => None,
    };
    let minimap = if options.texture == TextureSource::Minimap {
        match ar.read("Minimap.tga")? {
            Some(b) => match texture::decode_minimap(&b) {
                Ok(m) => Some(m),
                Err(e) => {
                    report.dropped(format!("{e}"));
                    None
                }
            },
            None => None,
        }
    } else {
        None
    };
    let strings = ar
        .read("enUS.SC2Data\\LocalizedData\\GameStrings.txt")?
        .map(|b| map_info::parse_game_strings(&b))
        .unwrap_or_default();

    let mut unused: Vec<String> = ar
        .list()
        .into_iter()
        .filter(|n| !USED_FILES.iter().any(|u| u.eq_ignore_ascii_case(n)))
        .filter(|n| !n.ends_with(".version") && !n.starts_with('('))
        .collect();
    unused.sort();

    read(READ_STEPS);
    let sources = convert::Sources {
        file_name,
        info,
        xml,
        heights: vertex_heights,
        vertex_levels,
        cells,
        objects,
        masks,
        minimap,
        strings,
    };
    let map = convert::build(sources, options, &mut report, progress)?;
    // the map's frame reads best first; the height source line came before it
    if let Some(i) = report.converted.iter().position(|l| l.starts_with("map:")) {
        report.converted[..=i].rotate_right(1);
    }
    if !unused.is_empty() {
        report.dropped(format!("files not used: {}", unused.join(", ")));
    }
    for w in map.settings.playability_warnings(map.teams.len()) {
        report.guessed(format!("check: {w}"));
    }
    Ok((map, report))
}

/// The cliff level a height (world units) is on, for maps without level data: level 0 below 7.
fn level_of_height(h: f32) -> u8 {
    if h < 7.0 {
        0
    } else {
        (((h - 8.0) / 2.0).round() + 1.0).clamp(1.0, 3.0) as u8
    }
}

pub struct Sc2;

/// The registered importer.
pub static SC2: Sc2 = Sc2;

const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "cell_elmos",
        label: "per cell",
        help: "Bigger cells make a bigger map; it must fit in 64 x 64 map units.",
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
            max: 16.0,
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
        let importable = mpq::Sc2Archive::open(path)
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
        import_with_progress(path, &options(settings), progress)
    }
}
