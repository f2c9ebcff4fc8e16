//! Ground colour for an SC2 map: the per-texture weight layers of `t3TextureMasks`, each layer
//! given a colour from a documented tileset palette, and, as the alternative, `Minimap.tga`.
//!
//! The ground art itself is in the game's data, not the map, so colours stand in for it.
//! `t3TextureMasks` (`"MASK"`, version, an unknown u32, u32 width and height in mask pixels, 44
//! reserved bytes) holds one layer per texture slot, layer after layer; a layer is blocks of
//! 64 x 64 pixels (2048 bytes, a nibble a pixel, high nibble first), blocks running east then
//! north, pixel rows south first (checked on Simple64: layer 2 is 14.4/15 on level-2 cells and
//! 0.02/15 on level-3 cells read this way, and the reverse read north first). A nibble is the
//! weight (0..15) of that layer's texture; layers blend in order over texture 0, as SC2 paints
//! them: `colour = lerp(colour, layer colour, weight / 15)`.
//!
//! The palette: each texture name is first searched for a material word (snow, sand, dirt, grass,
//! rock, ash, lava, creep, metal ...; see [`MATERIALS`]) after its tileset prefix is removed;
//! failing that, the tileset's four colours in [`TILESETS`] are used, picked by the number the
//! name ends in (`ShakurasTemple4` takes colour 4, wrapping), or by the layer index.

use crate::formats::FormatError;
use crate::formats::bytes::ByteReader;
use crate::map::Grid;

/// Material words in texture names and their colours (sRGB).
const MATERIALS: &[(&str, [u8; 3])] = &[
    ("snow", [228, 232, 238]),
    ("ice", [180, 200, 216]),
    ("sand", [194, 174, 128]),
    ("dirt", [130, 104, 76]),
    ("mud", [96, 80, 60]),
    ("grass", [96, 128, 64]),
    ("moss", [80, 108, 60]),
    ("gravel", [138, 132, 122]),
    ("pebble", [138, 132, 122]),
    ("rock", [118, 114, 108]),
    ("stone", [118, 114, 108]),
    ("cliff", [108, 104, 100]),
    ("ash", [80, 72, 68]),
    ("lava", [180, 80, 36]),
    ("creep", [96, 60, 96]),
    ("crystal", [120, 150, 190]),
    ("metal", [128, 128, 134]),
    ("plate", [128, 128, 134]),
    ("tile", [140, 138, 134]),
    ("floor", [132, 130, 128]),
    ("road", [96, 94, 92]),
    ("water", [60, 90, 120]),
];

/// Tileset name prefixes (lower case) and four ground colours each: main ground, second ground,
/// rock, accent. The last entry is the fallback for tilesets not listed.
const TILESETS: &[(&str, [[u8; 3]; 4])] = &[
    (
        "shakuras",
        [
            [196, 178, 132],
            [128, 132, 140],
            [214, 200, 160],
            [92, 98, 110],
        ],
    ),
    (
        "char",
        [[70, 58, 52], [104, 76, 60], [132, 70, 40], [48, 44, 44]],
    ),
    (
        "agria",
        [
            [94, 124, 64],
            [128, 104, 72],
            [72, 100, 56],
            [120, 116, 104],
        ],
    ),
    (
        "belshir",
        [[70, 110, 54], [100, 84, 56], [110, 134, 70], [112, 112, 96]],
    ),
    (
        "marsara",
        [[170, 104, 68], [140, 86, 60], [112, 90, 78], [190, 140, 96]],
    ),
    (
        "tarsonis",
        [
            [128, 128, 124],
            [84, 84, 86],
            [116, 100, 80],
            [150, 150, 156],
        ],
    ),
    (
        "korhal",
        [
            [128, 128, 124],
            [84, 84, 86],
            [116, 100, 80],
            [150, 150, 156],
        ],
    ),
    (
        "avernus",
        [
            [110, 112, 118],
            [140, 140, 146],
            [80, 78, 76],
            [130, 92, 64],
        ],
    ),
    (
        "spaceplatform",
        [
            [110, 112, 118],
            [140, 140, 146],
            [80, 78, 76],
            [130, 92, 64],
        ],
    ),
    (
        "derelict",
        [
            [110, 112, 118],
            [140, 140, 146],
            [80, 78, 76],
            [130, 92, 64],
        ],
    ),
    (
        "xil",
        [[176, 120, 72], [130, 96, 70], [156, 140, 86], [96, 74, 58]],
    ),
    (
        "zhakul",
        [[96, 88, 112], [60, 58, 70], [80, 92, 120], [120, 112, 120]],
    ),
    (
        "ulnar",
        [[96, 88, 112], [60, 58, 70], [80, 92, 120], [120, 112, 120]],
    ),
    (
        "nerazim",
        [[96, 88, 112], [60, 58, 70], [80, 92, 120], [120, 112, 120]],
    ),
    (
        "aiur",
        [
            [120, 138, 80],
            [170, 150, 100],
            [104, 120, 140],
            [90, 128, 70],
        ],
    ),
    (
        "braxis",
        [
            [226, 230, 236],
            [182, 200, 214],
            [110, 114, 120],
            [120, 110, 100],
        ],
    ),
    (
        "kaldir",
        [
            [226, 230, 236],
            [182, 200, 214],
            [110, 114, 120],
            [120, 110, 100],
        ],
    ),
    (
        "redstone",
        [[150, 72, 52], [96, 54, 44], [110, 96, 90], [170, 80, 40]],
    ),
    (
        "haven",
        [
            [106, 132, 72],
            [170, 156, 110],
            [84, 110, 64],
            [124, 124, 112],
        ],
    ),
    (
        "castanar",
        [
            [106, 132, 72],
            [170, 156, 110],
            [84, 110, 64],
            [124, 124, 112],
        ],
    ),
    (
        "zerus",
        [[76, 112, 60], [110, 80, 110], [96, 80, 60], [110, 110, 100]],
    ),
    (
        "monlyth",
        [[120, 104, 84], [100, 96, 90], [96, 108, 72], [88, 76, 62]],
    ),
    (
        "meinhoff",
        [[120, 104, 84], [100, 96, 90], [96, 108, 72], [88, 76, 62]],
    ),
    (
        "typhon",
        [[120, 104, 84], [100, 96, 90], [96, 108, 72], [88, 76, 62]],
    ),
    (
        "",
        [
            [128, 112, 88],
            [100, 120, 72],
            [120, 118, 112],
            [170, 150, 110],
        ],
    ),
];

/// The four colours of `tileset` and whether it was found in the table.
pub fn tileset_colours(tileset: &str) -> ([[u8; 3]; 4], bool) {
    let t = tileset.to_ascii_lowercase().replace(['\'', ' ', '_'], "");
    for (prefix, colours) in TILESETS {
        if !prefix.is_empty() && t.starts_with(prefix) {
            return (*colours, true);
        }
    }
    (TILESETS[TILESETS.len() - 1].1, false)
}

/// How a texture got its colour, for the report.
#[derive(Clone, Debug, PartialEq)]
pub struct PaletteEntry {
    pub texture: String,
    pub colour: [u8; 3],
    pub why: String,
}

/// The colour of each texture layer.
pub fn palette(tileset: &str, textures: &[String]) -> Vec<PaletteEntry> {
    let (colours, known) = tileset_colours(tileset);
    let ts_lower = tileset.to_ascii_lowercase();
    textures
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let lower = name.to_ascii_lowercase();
            let rest = lower.strip_prefix(&ts_lower).unwrap_or(&lower);
            if let Some((word, c)) = MATERIALS.iter().find(|(w, _)| rest.contains(w)) {
                return PaletteEntry {
                    texture: name.clone(),
                    colour: *c,
                    why: format!("material word \"{word}\""),
                };
            }
            let digits: String = rest
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let slot = digits
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .map(|n| (n - 1) % 4)
                .unwrap_or(i % 4);
            PaletteEntry {
                texture: name.clone(),
                colour: colours[slot],
                why: if known {
                    format!("tileset colour {}", slot + 1)
                } else {
                    format!(
                        "fallback colour {} (tileset \"{tileset}\" not in the table)",
                        slot + 1
                    )
                },
            }
        })
        .collect()
}

/// The decoded weight layers, row 0 at the south edge.
#[derive(Clone, Debug)]
pub struct TextureMasks {
    pub width: usize,
    pub height: usize,
    /// One weight (0..=15) per pixel per layer.
    pub layers: Vec<Vec<u8>>,
}

/// Decodes `t3TextureMasks`.
pub fn parse_masks(bytes: &[u8]) -> Result<TextureMasks, FormatError> {
    const WHAT: &str = "SC2Map t3TextureMasks";
    if bytes.len() < 64 || &bytes[0..4] != b"MASK" {
        return Err(FormatError::invalid(WHAT, "no `MASK` header"));
    }
    let mut r = ByteReader::at(bytes, 12, WHAT, "size")?;
    let (w, h) = (r.u32("width")? as usize, r.u32("height")? as usize);
    if w == 0 || h == 0 || w % 64 != 0 || h % 64 != 0 || w > 4096 || h > 4096 {
        return Err(FormatError::invalid(
            WHAT,
            format!("size {w} x {h} is not a multiple of 64 up to 4096"),
        ));
    }
    let layer_bytes = w * h / 2;
    let n = (bytes.len() - 64) / layer_bytes;
    if n == 0 || n > 16 {
        return Err(FormatError::invalid(
            WHAT,
            format!(
                "{} bytes of data hold {n} layers of {w} x {h}",
                bytes.len() - 64
            ),
        ));
    }
    let bx = w / 64;
    let mut layers = Vec::with_capacity(n);
    for l in 0..n {
        let data = &bytes[64 + l * layer_bytes..64 + (l + 1) * layer_bytes];
        let mut px = vec![0u8; w * h];
        for (k, block) in data.chunks_exact(2048).enumerate() {
            let (x0, y0) = ((k % bx) * 64, (k / bx) * 64);
            for (r, row) in block.chunks_exact(32).enumerate() {
                let dst = &mut px[(y0 + r) * w + x0..(y0 + r) * w + x0 + 64];
                for (i, &b) in row.iter().enumerate() {
                    dst[2 * i] = b >> 4;
                    dst[2 * i + 1] = b & 15;
                }
            }
        }
        layers.push(px);
    }
    Ok(TextureMasks {
        width: w,
        height: h,
        layers,
    })
}

/// Blends the layers with their colours into a colour image (linear 0..255 floats), row 0 south.
/// Layers without a texture name are skipped.
pub fn compose(masks: &TextureMasks, colours: &[[u8; 3]]) -> Grid<[f32; 3]> {
    let base = colours.first().copied().unwrap_or([128, 112, 88]);
    let f = |c: [u8; 3]| [c[0] as f32, c[1] as f32, c[2] as f32];
    let mut out = Grid::filled(masks.width, masks.height, f(base));
    for (layer, colour) in masks.layers.iter().zip(colours).skip(1) {
        let c = f(*colour);
        for (px, &w) in out.data_mut().iter_mut().zip(layer) {
            if w > 0 {
                let t = w as f32 / 15.0;
                for k in 0..3 {
                    px[k] += (c[k] - px[k]) * t;
                }
            }
        }
    }
    out
}

/// `Minimap.tga` decoded to a colour image, row 0 at the NORTH edge (as images are stored).
pub fn decode_minimap(bytes: &[u8]) -> Result<Grid<[f32; 3]>, FormatError> {
    const WHAT: &str = "SC2Map Minimap.tga";
    let mut reader =
        image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Tga);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(4096);
    limits.max_image_height = Some(4096);
    limits.max_alloc = Some(128 << 20);
    reader.limits(limits);
    let img = reader
        .decode()
        .map_err(|e| FormatError::invalid(WHAT, format!("cannot decode: {e}")))?
        .into_rgb8();
    let (w, h) = (img.width() as usize, img.height() as usize);
    let px = img
        .pixels()
        .map(|p| [p.0[0] as f32, p.0[1] as f32, p.0[2] as f32])
        .collect();
    Grid::from_vec(w, h, px).ok_or_else(|| FormatError::invalid(WHAT, "size"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_uses_materials_then_tileset_numbers() {
        let p = palette(
            "ShakurasTemple",
            &[
                "ShakurasTemple1".into(),
                "ShakurasTemple4".into(),
                "XilDirt".into(),
            ],
        );
        let (sh, known) = tileset_colours("ShakurasTemple");
        assert!(known);
        assert_eq!(p[0].colour, sh[0]);
        assert_eq!(p[1].colour, sh[3]);
        assert_eq!(p[2].colour, [130, 104, 76]);
        // an unknown tileset falls back, and says so
        let q = palette("Nowhere", &["Nowhere2".into()]);
        assert!(q[0].why.contains("not in the table"), "{}", q[0].why);
        // the tileset's own name does not count as a material ("Redstone" is not "stone")
        let r = palette("Redstone", &["Redstone1".into()]);
        assert!(r[0].why.starts_with("tileset"), "{}", r[0].why);
    }

    fn masks_file(w: u32, h: u32, layers: usize, fill: u8) -> Vec<u8> {
        let mut b = b"MASK".to_vec();
        b.extend(102u32.to_le_bytes());
        b.extend(0u32.to_le_bytes());
        b.extend(w.to_le_bytes());
        b.extend(h.to_le_bytes());
        b.extend([0u8; 44]);
        b.extend(vec![fill; (w * h / 2) as usize * layers]);
        b
    }

    #[test]
    fn masks_decode_blocks_and_nibbles() {
        let mut b = masks_file(128, 64, 2, 0);
        // layer 1, block 1 (x 64..128), row 0, first byte: pixels (64, 0) = 15, (65, 0) = 3
        let at = 64 + 128 * 64 / 2 + 2048;
        b[at] = 0xf3;
        let m = parse_masks(&b).unwrap();
        assert_eq!(m.layers.len(), 2);
        assert_eq!(m.layers[1][64], 15);
        assert_eq!(m.layers[1][65], 3);
        assert_eq!(m.layers[1][63], 0);
        let img = compose(&m, &[[0, 0, 0], [255, 255, 255]]);
        assert_eq!(img.get(64, 0), [255.0; 3]);
        assert_eq!(img.get(0, 0), [0.0; 3]);
    }

    #[test]
    fn bad_masks_are_errors() {
        assert!(parse_masks(&masks_file(100, 64, 1, 0)).is_err());
        assert!(parse_masks(&masks_file(64, 64, 1, 0)[..100]).is_err());
        let mut huge = masks_file(64, 64, 1, 0);
        huge[12..16].copy_from_slice(&0x4000_0000u32.to_le_bytes());
        assert!(parse_masks(&huge).is_err());
    }
}
