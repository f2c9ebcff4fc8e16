//! Reads an `.smf`, checking every pointer and count against the bytes that are there, so a
//! truncated or lying file gives a clear error and never a huge allocation.

use super::{
    MEH_VEGETATION, MINIMAP_BYTES, SMF_HEADER_BYTES, SMF_MAGIC, SmfFeature, SmfFile, SmfTileFile,
};
use crate::formats::FormatError;
use crate::formats::bytes::ByteReader;
use crate::map::MapSize;

/// The longest tile-file or feature name we accept (the engine keeps 31 feature characters).
const MAX_NAME_BYTES: usize = 1024;
/// More extra headers than any real map has; a guard against lying counts.
const MAX_EXTRA_HEADERS: i32 = 1024;

/// Parses `bytes` as an `.smf`; `what` names the file in errors.
pub fn read_smf(bytes: &[u8], what: &str) -> Result<SmfFile, FormatError> {
    let bad = |detail: String| FormatError::invalid(what, detail);
    let mut r = ByteReader::new(bytes, what);
    let magic = r.take(16, "magic")?;
    if magic != SMF_MAGIC {
        return Err(bad(format!(
            "not a Spring map file: the magic is {:?}, not \"spring map file\"",
            String::from_utf8_lossy(magic).trim_end_matches('\0')
        )));
    }
    let version = r.i32("version")?;
    let map_id = r.i32("mapid")?;
    let mapx = r.i32("mapx")?;
    let mapy = r.i32("mapy")?;
    let square_size = r.i32("squareSize")?;
    let texels = r.i32("texelsPerSquare")?;
    let tile_size = r.i32("tileSize")?;
    let min_height_elmos = r.f32("minHeight")?;
    let max_height_elmos = r.f32("maxHeight")?;
    let heightmap_ptr = r.i32("heightmapPtr")?;
    let typemap_ptr = r.i32("typeMapPtr")?;
    let tiles_ptr = r.i32("tilesPtr")?;
    let minimap_ptr = r.i32("minimapPtr")?;
    let metalmap_ptr = r.i32("metalmapPtr")?;
    let feature_ptr = r.i32("featurePtr")?;
    let num_extra = r.i32("numExtraHeaders")?;
    if version != 1 {
        return Err(bad(format!(
            "version {version}, the engine reads only version 1"
        )));
    }
    if (square_size, texels, tile_size) != (8, 8, 32) {
        return Err(bad(format!(
            "squareSize/texelsPerSquare/tileSize are {square_size}/{texels}/{tile_size}; the engine needs 8/8/32"
        )));
    }
    if mapx < 0 || mapy < 0 {
        return Err(bad(format!("negative map size {mapx}x{mapy} squares")));
    }
    let size = MapSize::from_squares(mapx as u32, mapy as u32).map_err(|e| bad(e.to_string()))?;
    if !(min_height_elmos.is_finite() && max_height_elmos.is_finite()) {
        return Err(bad("min/max height is not a finite number".into()));
    }
    let (mx, my) = (mapx as usize, mapy as usize);

    // extra headers: only the vegetation one matters; unknown ones are skipped by their size
    if !(0..=MAX_EXTRA_HEADERS).contains(&num_extra) {
        return Err(bad(format!("numExtraHeaders is {num_extra}")));
    }
    let mut grass_ptr = None;
    let mut pos = SMF_HEADER_BYTES;
    // read as the engine reads them: the vegetation header's pointer follows its type at once
    // (mapcompile writes its size as 4), and other headers are skipped by their size
    for i in 0..num_extra {
        let mut h = ByteReader::at(bytes, pos, what, "extra header")?;
        let size_bytes = h.i32(&format!("extra header {i} size"))?;
        let kind = h.i32(&format!("extra header {i} type"))?;
        if kind == MEH_VEGETATION {
            grass_ptr = Some(h.i32("grass pointer")?);
            break;
        }
        if size_bytes < 8 || pos + size_bytes as usize > bytes.len() {
            return Err(bad(format!(
                "extra header {i} at offset {pos} has size {size_bytes}, outside the file"
            )));
        }
        pos += size_bytes as usize;
    }

    let section = |ptr: i32, len: usize, name: &str| -> Result<&[u8], FormatError> {
        if ptr < 0 || (ptr as usize) < SMF_HEADER_BYTES {
            return Err(bad(format!("{name} pointer {ptr} points into the header")));
        }
        let start = ptr as usize;
        match start.checked_add(len) {
            Some(end) if end <= bytes.len() => Ok(&bytes[start..end]),
            _ => Err(bad(format!(
                "truncated: the {name} needs {len} bytes at offset {start}, but the file ends at {}",
                bytes.len()
            ))),
        }
    };
    let (hw, hh) = size.height_vertices();
    let heights = section(heightmap_ptr, hw * hh * 2, "heightmap")?
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let half = (mx / 2) * (my / 2);
    let types = section(typemap_ptr, half, "type map")?.to_vec();
    let minimap = section(minimap_ptr, MINIMAP_BYTES, "minimap")?.to_vec();
    let metal = section(metalmap_ptr, half, "metal map")?.to_vec();
    let quarter = (mx / 4) * (my / 4);
    let grass = match grass_ptr {
        Some(p) => Some(section(p, quarter, "grass map")?.to_vec()),
        None => None,
    };

    // tile index
    let mut t = ByteReader::at(bytes, tiles_ptr.max(0) as usize, what, "tile section")?;
    if tiles_ptr < SMF_HEADER_BYTES as i32 {
        return Err(bad(format!(
            "tile section pointer {tiles_ptr} points into the header"
        )));
    }
    let num_files = t.count(5, "numTileFiles")?;
    let num_tiles = t.i32("numTiles")?;
    let mut tile_files = Vec::with_capacity(num_files);
    let mut total: u64 = 0;
    for i in 0..num_files {
        let count = t.i32(&format!("tile file {i} count"))?;
        if count < 0 {
            return Err(bad(format!(
                "tile file {i} has a negative tile count {count}"
            )));
        }
        let name = t.c_string(MAX_NAME_BYTES, &format!("tile file {i} name"))?;
        total += count as u64;
        tile_files.push(SmfTileFile {
            tile_count: count as u32,
            name,
        });
    }
    if num_tiles < 0 || num_tiles as u64 != total {
        return Err(bad(format!(
            "numTiles is {num_tiles} but the tile files hold {total} tiles"
        )));
    }
    let raw_index = t.take(quarter * 4, "tile index")?;
    let mut tile_index = Vec::with_capacity(quarter);
    for (i, c) in raw_index.chunks_exact(4).enumerate() {
        let v = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        if v < 0 || v as u64 >= total {
            return Err(bad(format!(
                "tile index at ({}, {}) is {v}, but the map has only {total} tiles",
                i % (mx / 4),
                i / (mx / 4)
            )));
        }
        tile_index.push(v as u32);
    }

    // features
    if feature_ptr < SMF_HEADER_BYTES as i32 {
        return Err(bad(format!(
            "feature pointer {feature_ptr} points into the header"
        )));
    }
    let mut f = ByteReader::at(bytes, feature_ptr as usize, what, "feature section")?;
    let num_types = f.count(1, "numFeatureTypes")?;
    let num_features = f.count(24, "numFeatures")?;
    if num_types > super::MAX_FEATURE_TYPES {
        return Err(bad(format!(
            "{num_types} feature types; the engine holds at most {}",
            super::MAX_FEATURE_TYPES
        )));
    }
    let mut feature_types = Vec::with_capacity(num_types);
    for i in 0..num_types {
        feature_types.push(f.c_string(MAX_NAME_BYTES, &format!("feature type {i} name"))?);
    }
    let mut features = Vec::with_capacity(num_features.min(f.remaining() / 24));
    for i in 0..num_features {
        let field = format!("feature {i}");
        let type_index = f.i32(&field)?;
        if type_index < 0 || type_index as usize >= num_types {
            return Err(bad(format!(
                "feature {i} has type {type_index}, but there are {num_types} feature types"
            )));
        }
        features.push(SmfFeature {
            type_index: type_index as u32,
            x_elmos: f.f32(&field)?,
            y_elmos: f.f32(&field)?,
            z_elmos: f.f32(&field)?,
            heading: f.f32(&field)?,
            relative_size: f.f32(&field)?,
        });
    }

    Ok(SmfFile {
        map_id,
        mapx: mapx as u32,
        mapy: mapy as u32,
        min_height_elmos,
        max_height_elmos,
        heights,
        types,
        minimap,
        metal,
        grass,
        tile_files,
        tile_index,
        feature_types,
        features,
    })
}
