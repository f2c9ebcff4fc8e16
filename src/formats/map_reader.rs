//! Opens an existing map (`.sd7`, `.sdz`, `.sdd`, or a bare `.smf` with its `.smt` beside it)
//! as a document: exact height words, metal, grass and types, the texture decoded from the
//! tiles (or, when the tiles are missing, scaled up from the minimap), features, and every
//! `mapinfo.lua` setting including unknown keys. Other archive files ride along unchanged.

use std::path::Path;

use rayon::prelude::*;

use super::FormatError;
use super::archive::{ArchiveContents, ArchiveKind};
use super::mapinfo::{LuaLimits, MapInfo, eval_mapinfo, mapinfo_from_table};
use super::minimap::{MINIMAP_TEXELS, decode_minimap, upscale_bilinear};
use super::smf::{SmfFile, read_smf};
use super::smt::{SMT_TILE_BYTES, TILE_MIP_BYTES, TILE_TEXELS, read_smt};
use crate::formats::bc1::decode_bc1_into;
use crate::map::{BundledFile, Feature, Grid, GroundTexture, Map, MapSettings, MapSize};

/// A map read from disk, with what the reader had to guess or could not find.
#[derive(Debug)]
pub struct LoadedMap {
    pub map: Map,
    pub warnings: Vec<String>,
    /// The minimap stored in the `.smf`, decoded (1024 x 1024 RGBA); `None` for a project.
    pub minimap_rgba: Option<Vec<u8>>,
    /// Tile counts of a compiled map: (index cells, distinct tiles); `None` for a project.
    pub tile_counts: Option<(usize, usize)>,
    /// Why a compiled map's tile files cannot give the ground texture (missing, not a tile
    /// file, fewer tiles than the map uses): the engine then draws red tiles or aborts the
    /// load. `None` when they are whole, and for a project.
    pub tile_problem: Option<String>,
    /// The tile files a compiled map's `.smf` names, in order (BAR's lobby reads the first
    /// alone); empty for a project.
    pub tile_files: Vec<String>,
}

/// Reads a map archive or a bare `.smf`.
pub fn read_map(path: &Path) -> Result<LoadedMap, FormatError> {
    let is_smf = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("smf"));
    if is_smf {
        read_bare_smf(path)
    } else if ArchiveKind::from_path(path).is_some() {
        read_archive(path)
    } else {
        Err(FormatError::invalid(
            path.display().to_string(),
            "not a map: expected a .sd7, .sdz, .sdd or .smf",
        ))
    }
}

fn read_bare_smf(path: &Path) -> Result<LoadedMap, FormatError> {
    let what = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| FormatError::io(path, e))?;
    let smf = read_smf(&bytes, &what)?;
    drop(bytes);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let listing: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| FormatError::io(dir, e))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let mut tile_sources = Vec::new();
    for f in &smf.tile_files {
        let base = f.name.replace('\\', "/");
        let base = base.rsplit('/').next().unwrap_or(&base).to_string();
        let found = listing.iter().find(|n| n.eq_ignore_ascii_case(&base));
        tile_sources.push((
            f.name.clone(),
            found.and_then(|n| std::fs::read(dir.join(n)).ok()),
        ));
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut info = MapInfo {
        settings: MapSettings {
            name: stem,
            version: String::new(),
            max_metal: 0.02,
            extractor_radius_elmos: 500.0,
            ..MapSettings::default()
        },
        ..MapInfo::default()
    };
    info.warnings.push(
        "no mapinfo.lua (a bare .smf): name, maxMetal, extractorRadius, water, lighting and start positions are engine defaults; set them before compiling".into(),
    );
    build_map(smf, info, tile_sources, Vec::new())
}

/// Builds the document from a `.smf`'s bytes with `smt` as every tile file it lists, as
/// opening a map does after finding the files: the tile path included (the fuzz target's way
/// in, so counts claimed by the `.smf` meet real tile files).
pub fn read_smf_with_tiles(smf: &[u8], smt: &[u8]) -> Result<LoadedMap, FormatError> {
    let smf = read_smf(smf, "map.smf")?;
    let tile_sources = smf
        .tile_files
        .iter()
        .map(|f| (f.name.clone(), Some(smt.to_vec())))
        .collect();
    build_map(smf, MapInfo::default(), tile_sources, Vec::new())
}

fn read_archive(path: &Path) -> Result<LoadedMap, FormatError> {
    let what = path.display().to_string();
    let contents = ArchiveContents::read(path)?;
    let info = match contents.find("mapinfo.lua") {
        Some(f) => {
            let table = eval_mapinfo(&f.data, &contents, LuaLimits::default())?;
            mapinfo_from_table(&table)
        }
        None => {
            let mut i = MapInfo::default();
            i.settings.max_metal = 0.02;
            i.settings.extractor_radius_elmos = 500.0;
            i.warnings
                .push("the archive has no mapinfo.lua: settings are engine defaults".into());
            i
        }
    };
    let smf_file = match &info.map_file {
        Some(p) => contents.find(p),
        None => None,
    }
    .or_else(|| {
        contents.files().iter().find(|f| {
            let l = f.path.to_ascii_lowercase();
            l.starts_with("maps/") && l.ends_with(".smf")
        })
    })
    .ok_or_else(|| FormatError::invalid(&what, "no maps/*.smf in the archive"))?;
    let smf_path = smf_file.path.clone();
    let smf = read_smf(&smf_file.data, &format!("{what}: {smf_path}"))?;
    let smf_dir = smf_path.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    // mapinfo's smtFileName0..N override the .smf's names, which are relative to its folder
    let names: Vec<String> = if info.smt_file_names.len() == smf.tile_files.len() {
        info.smt_file_names.clone()
    } else {
        smf.tile_files.iter().map(|f| f.name.clone()).collect()
    };
    let mut used = vec![smf_path.to_ascii_lowercase(), "mapinfo.lua".to_string()];
    let mut tile_sources = Vec::new();
    for name in names {
        let candidates = [
            if smf_dir.is_empty() {
                name.clone()
            } else {
                format!("{smf_dir}/{name}")
            },
            name.clone(),
        ];
        let found = candidates.iter().find_map(|c| contents.find(c));
        if let Some(f) = found {
            used.push(f.path.to_ascii_lowercase());
        }
        tile_sources.push((name, found.map(|f| f.data.clone())));
    }
    let bundled: Vec<BundledFile> = contents
        .into_files()
        .into_iter()
        .filter(|f| !used.contains(&f.path.to_ascii_lowercase()))
        .collect();
    build_map(smf, info, tile_sources, bundled)
}

/// The document from a parsed `.smf`, its mapinfo and its tile files (name, bytes if found).
fn build_map(
    smf: SmfFile,
    info: MapInfo,
    tile_sources: Vec<(String, Option<Vec<u8>>)>,
    bundled_files: Vec<BundledFile>,
) -> Result<LoadedMap, FormatError> {
    let mut warnings = info.warnings;
    let tile_counts = Some((smf.tile_index.len(), smf.tile_count() as usize));
    let size = MapSize::from_squares(smf.mapx, smf.mapy)
        .map_err(|e| FormatError::invalid("map", e.to_string()))?;
    let mut settings = info.settings;
    settings.min_height_elmos = info.min_height_override.unwrap_or(smf.min_height_elmos);
    settings.max_height_elmos = info.max_height_override.unwrap_or(smf.max_height_elmos);
    let (hw, hh) = size.height_vertices();
    let (mw, mh) = size.metal_cells();
    let (gw, gh) = size.grass_cells();
    let mut heights = Grid::filled(hw, hh, 0.0f32);
    for (h, &w) in heights.data_mut().iter_mut().zip(&smf.heights) {
        *h = crate::map::word_to_height(w, settings.min_height_elmos, settings.max_height_elmos);
    }
    let minimap_rgba = decode_minimap(&smf.minimap);
    let tile_files = tile_sources.iter().map(|(name, _)| name.clone()).collect();
    let (texture, tile_problem) = match decode_tiles(&smf, &tile_sources) {
        Ok(t) => (t, None),
        Err(why) => {
            warnings.push(format!(
                "{why}: the ground texture is the minimap scaled up, so it is blurry; paint or import a texture before compiling"
            ));
            let (tw, th) = size.texture_texels();
            let rgba = upscale_bilinear(&minimap_rgba, MINIMAP_TEXELS, tw, th);
            let texture =
                GroundTexture::from_rgba(tw, th, rgba).expect("upscaled to the texture size");
            (texture, Some(why))
        }
    };
    let grass = match smf.grass {
        Some(g) => Grid::from_vec(gw, gh, g),
        None => Some(Grid::filled(gw, gh, 0)),
    }
    .expect("the reader checked the grass size");
    let features = smf
        .features
        .iter()
        .map(|f| Feature {
            name: smf.feature_types[f.type_index as usize].clone(),
            x_elmos: f.x_elmos,
            z_elmos: f.z_elmos,
            rotation_deg: f.rotation_deg(),
        })
        .collect();
    let map = Map {
        size,
        heights,
        metal: Grid::from_vec(mw, mh, smf.metal).expect("checked by the reader"),
        types: Grid::from_vec(mw, mh, smf.types).expect("checked by the reader"),
        grass,
        texture,
        features,
        teams: info.teams,
        start_boxes: Vec::new(),
        settings,
        bundled_files,
        symmetry: crate::map::SymmetryMode::None,
        water_presets: Vec::new(),
        texture_layers: Vec::new(),
        texture_ao: None,
        generator: None,
    };
    Ok(LoadedMap {
        map,
        warnings,
        minimap_rgba: Some(minimap_rgba),
        tile_counts,
        tile_problem,
        tile_files,
    })
}

/// The ground texture from the tile files, or why it cannot be made.
fn decode_tiles(
    smf: &SmfFile,
    sources: &[(String, Option<Vec<u8>>)],
) -> Result<GroundTexture, String> {
    if sources.len() != smf.tile_files.len() || sources.is_empty() {
        return Err("the map lists no tile files".into());
    }
    // every file is read and its tile count checked against the tiles it holds before any
    // room is made for the count the .smf claims
    let mut files = Vec::with_capacity(sources.len());
    for ((name, data), listed) in sources.iter().zip(&smf.tile_files) {
        let data = data
            .as_ref()
            .ok_or_else(|| format!("the tile file {name} is missing"))?;
        let smt = read_smt(data, name).map_err(|e| e.to_string())?;
        if smt.len() < listed.tile_count as usize {
            return Err(format!(
                "{name} holds {} tiles, but the map uses {}",
                smt.len(),
                listed.tile_count
            ));
        }
        files.push((smt, listed.tile_count as usize));
    }
    // every tile's bytes, in the global numbering the index uses
    let mut tiles: Vec<&[u8]> = Vec::with_capacity(files.iter().map(|(_, n)| n).sum());
    for (smt, count) in files {
        tiles.extend((0..count).map(|i| smt.tile(i).expect("length checked")));
    }
    let tiles_x = smf.mapx as usize / 4;
    let width = smf.mapx as usize * 8;
    let height = smf.mapy as usize * 8;
    let mut rgba = vec![0u8; width * height * 4];
    rgba.par_chunks_mut(width * 4 * TILE_TEXELS)
        .enumerate()
        .for_each(|(tz, stripe)| {
            for tx in 0..tiles_x {
                let n = smf.tile_index[tz * tiles_x + tx] as usize;
                let tile = &tiles[n][..TILE_MIP_BYTES[0]];
                debug_assert_eq!(tiles[n].len(), SMT_TILE_BYTES);
                decode_bc1_into(
                    tile,
                    TILE_TEXELS,
                    TILE_TEXELS,
                    &mut stripe[tx * TILE_TEXELS * 4..],
                    width * 4,
                );
            }
        });
    Ok(GroundTexture::from_rgba(width, height, rgba).expect("sized above"))
}
