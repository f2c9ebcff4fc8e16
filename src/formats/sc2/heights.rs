//! The terrain layers of an SC2 map, decoded in SC2 units (1 cell = 1 world unit, Y north):
//! `t3Terrain.xml` (tileset, quantize values, texture names), `t3HeightMap` (vertex heights and
//! each vertex's cliff level), `t3SyncHeightMap` (the game's own heights, for a cross-check) and
//! `t3SyncCliffLevel` (each cell's cliff level, and which cells are ramps).
//!
//! Heights: `h = (q0 * quantizeScale - quantizeBias) + (q1 * quantizeScale - quantizeBias)`, the
//! form IMPORT-FACTS verified against the sync heights on every fixture. (The spec's
//! `(q0 + q1) * scale - bias - standardHeight - 1` is 8 units off on maps whose bias is 1.)
//! Flat ground sits at 8; cliff levels 1, 2, 3 at 8, 10, 12; level 0 is a chasm.

use crate::formats::FormatError;
use crate::formats::bytes::ByteReader;
use crate::map::Grid;

/// Decoded heights are clamped to +-this many world units (real maps stay within -16..64).
const MAX_ABS_HEIGHT: f32 = 256.0;

/// `t3Terrain.xml`'s facts the importer uses.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainXml {
    pub tileset: String,
    pub quantize_bias: f32,
    pub quantize_scale: f32,
    pub standard_height: f32,
    /// Texture names by layer index (empty names dropped from the end).
    pub textures: Vec<String>,
    /// How many ramps `<rampList>` declares.
    pub ramp_count: usize,
}

/// Parses `t3Terrain.xml`.
pub fn parse_terrain_xml(bytes: &[u8]) -> Result<TerrainXml, FormatError> {
    const WHAT: &str = "SC2Map t3Terrain.xml";
    let text = std::str::from_utf8(bytes)
        .map_err(|_| FormatError::invalid(WHAT, "not UTF-8 text"))?
        .trim_start_matches('\u{feff}');
    let doc = roxmltree::Document::parse(text)
        .map_err(|e| FormatError::invalid(WHAT, format!("not valid XML: {e}")))?;
    let hm = doc
        .descendants()
        .find(|n| n.has_tag_name("heightMap"))
        .ok_or_else(|| FormatError::invalid(WHAT, "no <heightMap> element"))?;
    let vert = hm
        .children()
        .find(|n| n.has_tag_name("vertData"))
        .ok_or_else(|| FormatError::invalid(WHAT, "no <vertData> element"))?;
    let num = |name: &str| -> Result<f32, FormatError> {
        let v = vert
            .attribute(name)
            .ok_or_else(|| FormatError::invalid(WHAT, format!("<vertData> has no {name}")))?;
        v.trim()
            .parse::<f32>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| FormatError::invalid(WHAT, format!("{name}=\"{v}\" is not a number")))
    };
    let quantize_scale = num("quantizeScale")?;
    if !(quantize_scale > 0.0 && quantize_scale < 1.0) {
        return Err(FormatError::invalid(
            WHAT,
            format!("quantizeScale {quantize_scale} is out of range"),
        ));
    }
    let mut textures: Vec<(usize, String)> = Vec::new();
    if let Some(list) = hm.children().find(|n| n.has_tag_name("textureList")) {
        for t in list.children().filter(|n| n.has_tag_name("texture")) {
            if let Some(i) = t.attribute("i").and_then(|i| i.parse::<usize>().ok())
                && i < 64
            {
                textures.push((i, t.attribute("name").unwrap_or("").to_string()));
            }
        }
    }
    let len = textures.iter().map(|(i, _)| i + 1).max().unwrap_or(0);
    let mut names = vec![String::new(); len];
    for (i, n) in textures {
        names[i] = n;
    }
    while names.last().is_some_and(|n| n.is_empty()) {
        names.pop();
    }
    let ramp_count = hm
        .children()
        .find(|n| n.has_tag_name("rampList"))
        .map(|r| r.children().filter(|n| n.has_tag_name("ramp")).count())
        .unwrap_or(0);
    Ok(TerrainXml {
        tileset: hm.attribute("tileSet").unwrap_or("").to_string(),
        quantize_bias: num("quantizeBias")?,
        quantize_scale,
        standard_height: num("standardHeight").unwrap_or(8.0),
        textures: names,
        ramp_count,
    })
}

/// Reads a fixed header's magic and the two u32 dimensions at `dims_at`, and checks that `n`
/// records of `record` bytes each follow `header` bytes.
fn layer_dims(
    bytes: &[u8],
    what: &str,
    magic: &[u8; 4],
    dims_at: usize,
    header: usize,
    record: usize,
) -> Result<(usize, usize), FormatError> {
    if bytes.len() < header || &bytes[0..4] != magic {
        return Err(FormatError::invalid(
            what,
            format!(
                "no `{}` header ({} bytes)",
                String::from_utf8_lossy(magic),
                bytes.len()
            ),
        ));
    }
    let mut r = ByteReader::at(bytes, dims_at, what, "size")?;
    let (w, h) = (r.u32("width")? as usize, r.u32("height")? as usize);
    if w == 0 || h == 0 || w > 1025 || h > 1025 {
        return Err(FormatError::invalid(
            what,
            format!("size {w} x {h} is absurd"),
        ));
    }
    let need = header + w * h * record;
    if bytes.len() < need {
        return Err(FormatError::invalid(
            what,
            format!(
                "{w} x {h} needs {need} bytes but the file has {}",
                bytes.len()
            ),
        ));
    }
    Ok((w, h))
}

/// Vertex heights in SC2 world units, row 0 at the south edge, and each vertex's cliff level
/// (the low two bits of the record's mask word).
#[derive(Clone, Debug)]
pub struct VertexHeights {
    pub heights: Grid<f32>,
    pub levels: Grid<u8>,
}

/// Decodes `t3HeightMap` with the quantize values of `t3Terrain.xml`.
pub fn parse_height_map(bytes: &[u8], xml: &TerrainXml) -> Result<VertexHeights, FormatError> {
    let (w, h) = layer_dims(bytes, "SC2Map t3HeightMap", b"HMAP", 8, 32, 6)?;
    let (qs, qb) = (xml.quantize_scale, xml.quantize_bias);
    let mut heights = Vec::with_capacity(w * h);
    let mut levels = Vec::with_capacity(w * h);
    for rec in bytes[32..32 + w * h * 6].chunks_exact(6) {
        let q0 = u16::from_le_bytes([rec[0], rec[1]]) as f32;
        let q1 = u16::from_le_bytes([rec[2], rec[3]]) as f32;
        let mask = u16::from_le_bytes([rec[4], rec[5]]);
        // real maps stay within about -16..64; absurd quantize values cannot run away
        let h = (q0 * qs - qb) + (q1 * qs - qb);
        heights.push(if h.is_finite() {
            h.clamp(-MAX_ABS_HEIGHT, MAX_ABS_HEIGHT)
        } else {
            0.0
        });
        levels.push((mask & 3) as u8);
    }
    Ok(VertexHeights {
        heights: Grid::from_vec(w, h, heights)
            .ok_or_else(|| FormatError::invalid("t3HeightMap", "size"))?,
        levels: Grid::from_vec(w, h, levels)
            .ok_or_else(|| FormatError::invalid("t3HeightMap", "size"))?,
    })
}

/// Decodes `t3SyncHeightMap`: signed 8.8 fixed-point heights, row 0 south.
pub fn parse_sync_height_map(bytes: &[u8]) -> Result<Grid<f32>, FormatError> {
    let (w, h) = layer_dims(bytes, "SC2Map t3SyncHeightMap", b"SMAP", 8, 64, 4)?;
    let v = bytes[64..64 + w * h * 4]
        .chunks_exact(4)
        .map(|r| i16::from_le_bytes([r[0], r[1]]) as f32 / 256.0)
        .collect();
    Grid::from_vec(w, h, v).ok_or_else(|| FormatError::invalid("t3SyncHeightMap", "size"))
}

/// One cell's cliff level, and whether it is a ramp cell (a value between two levels).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CliffCell {
    pub level: u8,
    /// 0 on plain ground; on ramp cells, how far towards the next level (0..1).
    pub ramp_fraction: f32,
}

impl CliffCell {
    pub fn is_ramp(&self) -> bool {
        self.ramp_fraction > 0.0
    }
}

/// Decodes `t3SyncCliffLevel`: a u16 per cell, level x 64 (in-between values on ramps); values
/// under 64 are levels written directly (the spec's older form).
pub fn parse_cliff_levels(bytes: &[u8]) -> Result<Grid<CliffCell>, FormatError> {
    let (w, h) = layer_dims(bytes, "SC2Map t3SyncCliffLevel", b"CLIF", 8, 32, 2)?;
    let v = bytes[32..32 + w * h * 2]
        .chunks_exact(2)
        .map(|r| {
            let raw = u16::from_le_bytes([r[0], r[1]]);
            if raw < 64 {
                CliffCell {
                    level: raw.min(15) as u8,
                    ramp_fraction: 0.0,
                }
            } else {
                CliffCell {
                    level: (raw >> 6).min(15) as u8,
                    ramp_fraction: (raw & 63) as f32 / 64.0,
                }
            }
        })
        .collect();
    Grid::from_vec(w, h, v).ok_or_else(|| FormatError::invalid("t3SyncCliffLevel", "size"))
}

/// How well the decoded heights agree with the game's sync heights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrossCheck {
    pub median_abs_diff: f32,
    pub p99_abs_diff: f32,
    pub compared: usize,
}

/// Compares heights and sync heights over the vertices both have.
pub fn cross_check(heights: &Grid<f32>, sync: &Grid<f32>) -> Option<CrossCheck> {
    let w = heights.width().min(sync.width());
    let h = heights.height().min(sync.height());
    let mut d: Vec<f32> = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            d.push((heights.get(x, y) - sync.get(x, y)).abs());
        }
    }
    if d.is_empty() {
        return None;
    }
    d.sort_by(|a, b| a.total_cmp(b));
    Some(CrossCheck {
        median_abs_diff: d[d.len() / 2],
        p99_abs_diff: d[(d.len() * 99 / 100).min(d.len() - 1)],
        compared: d.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xml() -> TerrainXml {
        parse_terrain_xml(
            br#"<?xml version="1.0"?><terrain version="114"><heightMap tileSet="Char2" dim="3 3">
            <vertData quantizeBias="1.0" quantizeScale="1.525902e-04" standardHeight="8.0" name="t3HeightMap"/>
            <textureList num="3"><texture i="0" name="Char2_1"/><texture i="1" name="Char2_3"/><texture i="2" name=""/></textureList>
            </heightMap></terrain>"#,
        )
        .unwrap()
    }

    #[test]
    fn terrain_xml_gives_quantize_values_and_textures() {
        let x = xml();
        assert_eq!(x.tileset, "Char2");
        assert_eq!(x.textures, vec!["Char2_1", "Char2_3"]);
        assert!((x.quantize_scale - 1.525902e-4).abs() < 1e-9);
        assert!(parse_terrain_xml(b"<terrain/>").is_err());
        assert!(parse_terrain_xml(b"<terrain").is_err());
    }

    #[test]
    fn height_records_decode_to_world_units() {
        let mut b = b"HMAP".to_vec();
        b.extend(101u32.to_le_bytes());
        b.extend(1u32.to_le_bytes());
        b.extend(1u32.to_le_bytes());
        b.extend([0u8; 16]);
        // the flat-ground record of the fixtures: 58981 + 6553 at scale 1.525902e-4, bias 1
        b.extend(58981u16.to_le_bytes());
        b.extend(6553u16.to_le_bytes());
        b.extend(1u16.to_le_bytes());
        let v = parse_height_map(&b, &xml()).unwrap();
        assert!((v.heights.get(0, 0) - 8.0).abs() < 0.01);
        assert_eq!(v.levels.get(0, 0), 1);
        assert!(parse_height_map(&b[..b.len() - 1], &xml()).is_err());
        let mut huge = b.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(parse_height_map(&huge, &xml()).is_err());
    }

    #[test]
    fn cliff_values_give_levels_and_ramps() {
        let mut b = b"CLIF".to_vec();
        b.extend(100u32.to_le_bytes());
        b.extend(3u32.to_le_bytes());
        b.extend(1u32.to_le_bytes());
        b.extend([0u8; 16]);
        for v in [128u16, 152, 2] {
            b.extend(v.to_le_bytes());
        }
        let g = parse_cliff_levels(&b).unwrap();
        assert_eq!(g.get(0, 0).level, 2);
        assert!(!g.get(0, 0).is_ramp());
        assert_eq!(g.get(1, 0).level, 2);
        assert!((g.get(1, 0).ramp_fraction - 0.375).abs() < 1e-6);
        assert_eq!(g.get(2, 0).level, 2);
    }
}
