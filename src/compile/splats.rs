//! The engine's splat detail normals (DNTS) from the texture layers on splat channels: the
//! distribution (one channel per layer, its weight over the map, the sum at most 1), a detail
//! normal per channel (a built-in material's own, a picture's derived from its luminance, flat
//! for a solid colour), all DDS BC3 with mips, and the `mapinfo` keys that switch DNTS on
//! (`resources.splatDistrTex`, a named `splatDetailTex`, `splatDetailNormalTex = {..., alpha =
//! true}`, `splats.texScales` / `texMults`).

use crate::formats::FormatError;
use crate::formats::dds::{flip_rows, write_dds_bc3};
use crate::map::ground_layers::{
    Material, MaterialImage, TerrainFields, TextureLayer, flat_detail_normal, layer_weight,
    material_detail_normal,
};
use crate::map::{LuaTable, LuaValue, Map};

/// The distribution in the archive.
pub const DISTRIBUTION_FILE: &str = "maps/splat_distribution.dds";
/// Texels a side of each channel's detail normal.
const NORMAL_TEXELS: usize = 512;
/// The engine's `texScales` default, for a channel no layer takes.
const UNUSED_TEX_SCALE: f64 = 0.02;
/// `splatDetailTex` must be named, even to a file that is not there, or the engine never loads
/// the distribution (TOOL-FACTS); BAR's template does the same.
const DETAIL_TEX_NAME: &str = "groundwork_dnts_on.tga";

/// The archive files and the `mapinfo` keys DNTS needs; `None` when no layer takes a channel.
pub struct Splats {
    pub files: Vec<(String, Vec<u8>)>,
    pub resources: Vec<(&'static str, LuaValue)>,
    pub splats: LuaTable,
}

/// The detail-normal file of channel `k`.
fn normal_file(k: usize) -> String {
    format!("maps/splat_detail_normal_{k}.dds")
}

/// The distribution's side for `cells` metal cells (16 elmos each): the next power of two.
fn side(cells: usize) -> usize {
    cells.next_power_of_two().min(4096)
}

/// The layer's detail normal, RGBA, [`NORMAL_TEXELS`] a side (a picture's decoded here).
fn detail_normal(map: &Map, layer: &TextureLayer) -> Result<Vec<u8>, FormatError> {
    let image = match &layer.material {
        Material::Picture { file, .. } => {
            let f = map
                .bundled_files
                .iter()
                .find(|f| f.path.eq_ignore_ascii_case(file))
                .ok_or_else(|| {
                    FormatError::invalid(
                        "texture layers",
                        format!("the picture {file} is not among the map's files"),
                    )
                })?;
            let bytes = f
                .bytes()
                .map_err(|e| FormatError::invalid(file.as_str(), e.to_string()))?;
            let (rgba, width, height) =
                crate::formats::image_file::decode_rgba(&bytes, file, 4096)?;
            Some(MaterialImage {
                width,
                height,
                rgba,
            })
        }
        _ => None,
    };
    Ok(material_detail_normal(
        &layer.material,
        image.as_ref(),
        NORMAL_TEXELS,
    ))
}

/// DNTS for `map`'s splat layers, or `None` when no layer takes a channel.
pub fn build_splats(map: &Map) -> Result<Option<Splats>, FormatError> {
    let mut channels: [Option<&TextureLayer>; 4] = [None; 4];
    for l in &map.texture_layers {
        if let Some(c) = l.splat_channel
            && let Some(slot) = channels.get_mut(c as usize)
        {
            *slot = Some(l);
        }
    }
    if channels.iter().all(Option::is_none) {
        return Ok(None);
    }
    let (mw, mh) = map.metal.dims();
    let (dw, dh) = (side(mw), side(mh));
    let fields = TerrainFields::new(
        map,
        channels
            .iter()
            .flatten()
            .any(|l| l.rules.near_water.is_some()),
    );
    let (we, de) = (map.size.width_elmos(), map.size.depth_elmos());
    // row 0 is z = 0 (north), as the engine's uv = world xz / map size reads a picture that
    // is not flipped; the DDS loader flips rows, so the file gets them reversed
    let mut rgba = vec![0u8; dw * dh * 4];
    for y in 0..dh {
        let z = (y as f32 + 0.5) / dh as f32 * de;
        for x in 0..dw {
            let xe = (x as f32 + 0.5) / dw as f32 * we;
            let mut w = [0.0f32; 4];
            for (k, l) in channels.iter().enumerate() {
                if let Some(l) = l {
                    w[k] = layer_weight(map, &fields, l, xe, z) * l.opacity;
                }
            }
            let sum: f32 = w.iter().sum();
            let scale = if sum > 1.0 { 1.0 / sum } else { 1.0 };
            for k in 0..4 {
                rgba[(y * dw + x) * 4 + k] = (w[k] * scale * 255.0).round() as u8;
            }
        }
    }
    let mut files = vec![(
        DISTRIBUTION_FILE.to_string(),
        write_dds_bc3(&flip_rows(&rgba, dw, dh)?, dw, dh)?,
    )];
    let mut names = LuaTable::new();
    let (mut scales, mut mults) = (Vec::new(), Vec::new());
    for (k, l) in channels.iter().enumerate() {
        let normal = match l {
            Some(l) => detail_normal(map, l)?,
            None => flat_detail_normal(NORMAL_TEXELS),
        };
        let n = NORMAL_TEXELS;
        files.push((
            normal_file(k),
            write_dds_bc3(&flip_rows(&normal, n, n)?, n, n)?,
        ));
        names.insert((k + 1) as i64, LuaValue::String(normal_file(k)));
        let repeat = l.and_then(|l| match &l.material {
            Material::Builtin { scale_elmos, .. } | Material::Picture { scale_elmos, .. } => {
                Some(*scale_elmos as f64)
            }
            Material::Solid { .. } => None,
        });
        scales.push(LuaValue::Number(
            repeat.map_or(UNUSED_TEX_SCALE, |r| 1.0 / r),
        ));
        mults.push(LuaValue::Number(if l.is_some() { 1.0 } else { 0.0 }));
    }
    names.insert("alpha", LuaValue::Bool(true));
    let mut splats = LuaTable::new();
    splats.insert("texScales", LuaValue::Table(LuaTable::sequence(scales)));
    splats.insert("texMults", LuaValue::Table(LuaTable::sequence(mults)));
    Ok(Some(Splats {
        files,
        resources: vec![
            ("splatDistrTex", LuaValue::String(DISTRIBUTION_FILE.into())),
            ("splatDetailTex", LuaValue::String(DETAIL_TEX_NAME.into())),
            ("splatDetailNormalTex", LuaValue::Table(names)),
        ],
        splats,
    }))
}

/// Puts the DNTS keys into a `mapinfo` table, over any the map set itself.
pub fn add_to_mapinfo(table: &mut LuaTable, s: &Splats) {
    let mut resources = table.get_table("resources").cloned().unwrap_or_default();
    for (k, v) in &s.resources {
        resources.insert(*k, v.clone());
    }
    table.insert("resources", LuaValue::Table(resources));
    table.insert("splats", LuaValue::Table(s.splats.clone()));
}
