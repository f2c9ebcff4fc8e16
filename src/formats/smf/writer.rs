//! Writes an [`SmfFile`] in the conventional block order, every pointer computed from the
//! sizes before it.

use super::{MEH_VEGETATION, MINIMAP_BYTES, SMF_HEADER_BYTES, SMF_MAGIC, SmfFile};
use crate::formats::bytes::PutLe;

/// The file's bytes. The caller guarantees the grids have the sizes `mapx`/`mapy` imply.
pub fn write_smf(smf: &SmfFile) -> Vec<u8> {
    let (mx, my) = (smf.mapx as usize, smf.mapy as usize);
    debug_assert_eq!(smf.heights.len(), (mx + 1) * (my + 1));
    debug_assert_eq!(smf.minimap.len(), MINIMAP_BYTES);
    let extra_bytes = if smf.grass.is_some() { 12 } else { 0 };
    let heightmap_ptr = SMF_HEADER_BYTES + extra_bytes;
    let typemap_ptr = heightmap_ptr + smf.heights.len() * 2;
    let minimap_ptr = typemap_ptr + smf.types.len();
    let metalmap_ptr = minimap_ptr + smf.minimap.len();
    let grass_ptr = metalmap_ptr + smf.metal.len();
    let tiles_ptr = grass_ptr + smf.grass.as_ref().map_or(0, Vec::len);
    let tile_header_bytes: usize = 8 + smf
        .tile_files
        .iter()
        .map(|f| 4 + f.name.len() + 1)
        .sum::<usize>();
    let feature_ptr = tiles_ptr + tile_header_bytes + smf.tile_index.len() * 4;
    let feature_bytes =
        8 + smf.feature_types.iter().map(|n| n.len() + 1).sum::<usize>() + smf.features.len() * 24;

    let mut out = Vec::with_capacity(feature_ptr + feature_bytes);
    out.extend_from_slice(SMF_MAGIC);
    out.put_i32(1); // version
    out.put_i32(smf.map_id);
    out.put_i32(smf.mapx as i32);
    out.put_i32(smf.mapy as i32);
    out.put_i32(8); // squareSize
    out.put_i32(8); // texelsPerSquare
    out.put_i32(32); // tileSize
    out.put_f32(smf.min_height_elmos);
    out.put_f32(smf.max_height_elmos);
    for ptr in [
        heightmap_ptr,
        typemap_ptr,
        tiles_ptr,
        minimap_ptr,
        metalmap_ptr,
        feature_ptr,
    ] {
        out.put_i32(ptr as i32);
    }
    out.put_i32(i32::from(smf.grass.is_some()));
    if smf.grass.is_some() {
        out.put_i32(12);
        out.put_i32(MEH_VEGETATION);
        out.put_i32(grass_ptr as i32);
    }
    for &h in &smf.heights {
        out.put_u16(h);
    }
    out.extend_from_slice(&smf.types);
    out.extend_from_slice(&smf.minimap);
    out.extend_from_slice(&smf.metal);
    if let Some(g) = &smf.grass {
        out.extend_from_slice(g);
    }
    debug_assert_eq!(out.len(), tiles_ptr);
    out.put_i32(smf.tile_files.len() as i32);
    out.put_i32(smf.tile_count() as i32);
    for f in &smf.tile_files {
        out.put_i32(f.tile_count as i32);
        out.extend_from_slice(f.name.as_bytes());
        out.push(0);
    }
    for &t in &smf.tile_index {
        out.put_i32(t as i32);
    }
    debug_assert_eq!(out.len(), feature_ptr);
    out.put_i32(smf.feature_types.len() as i32);
    out.put_i32(smf.features.len() as i32);
    for n in &smf.feature_types {
        out.extend_from_slice(n.as_bytes());
        out.push(0);
    }
    for f in &smf.features {
        out.put_i32(f.type_index as i32);
        out.put_f32(f.x_elmos);
        out.put_f32(f.y_elmos);
        out.put_f32(f.z_elmos);
        out.put_f32(f.heading);
        out.put_f32(f.relative_size);
    }
    out
}
