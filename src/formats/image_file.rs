//! A picture a map's archive carries (a grass blade texture, say) decoded to RGBA8: DDS (the
//! engine's usual container: uncompressed or BC1/2/3) by `image_dds`, PNG, TGA, BMP and JPEG
//! by `image`. Sizes are checked against a cap before any pixel is decoded.

use std::io::Cursor;

use super::FormatError;

/// Decodes `bytes` (the file `name`, whose extension picks the decoder) to RGBA8 rows, top row
/// first: (pixels, width, height). Pictures wider or taller than `max_side` are refused.
pub fn decode_rgba(
    bytes: &[u8],
    name: &str,
    max_side: u32,
) -> Result<(Vec<u8>, usize, usize), FormatError> {
    let lower = name.to_ascii_lowercase();
    let img = if lower.ends_with(".dds") || bytes.starts_with(b"DDS ") {
        decode_dds(bytes, name, max_side)?
    } else {
        let mut reader = image::ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| FormatError::invalid(name, e.to_string()))?;
        let mut limits = image::Limits::default();
        limits.max_image_width = Some(max_side);
        limits.max_image_height = Some(max_side);
        reader.limits(limits);
        reader
            .decode()
            .map_err(|e| FormatError::invalid(name, e.to_string()))?
            .into_rgba8()
    };
    let (w, h) = img.dimensions();
    Ok((img.into_raw(), w as usize, h as usize))
}

fn decode_dds(bytes: &[u8], name: &str, max_side: u32) -> Result<image::RgbaImage, FormatError> {
    let dds = image_dds::ddsfile::Dds::read(Cursor::new(bytes))
        .map_err(|e| FormatError::invalid(name, format!("not a DDS file: {e}")))?;
    let (w, h) = (dds.get_width(), dds.get_height());
    if w == 0 || h == 0 || w > max_side || h > max_side {
        return Err(FormatError::invalid(
            name,
            format!("{w} x {h} texels; at most {max_side} a side is read"),
        ));
    }
    // a map's pictures are flat textures: the decoder would stack every face, layer and slice
    // into one tall picture, sized by multiplying the header's counts unchecked
    let cube = dds
        .header
        .caps2
        .contains(image_dds::ddsfile::Caps2::CUBEMAP)
        || dds.header10.as_ref().is_some_and(|h| {
            h.misc_flag
                .contains(image_dds::ddsfile::MiscFlag::TEXTURECUBE)
        });
    let (layers, depth) = (dds.get_num_array_layers(), dds.get_depth());
    if cube || layers > 1 || depth > 1 {
        let what = if cube {
            "a cube map".to_string()
        } else if layers > 1 {
            format!("an array of {layers} textures")
        } else {
            format!("a volume {depth} slices deep")
        };
        return Err(FormatError::invalid(
            name,
            format!("{what}: only a flat 2D texture is read"),
        ));
    }
    // the decoder works from the header's sizes; keep a malformed file from taking the
    // process down with it
    std::panic::catch_unwind(|| image_dds::image_from_dds(&dds, 0))
        .map_err(|_| FormatError::invalid(name, "the DDS data does not match its header"))?
        .map_err(|e| FormatError::invalid(name, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A DDS header for uncompressed 32-bit BGRA, as the BAR template's grass blades use.
    fn bgra_dds(w: u32, h: u32, pixels: &[[u8; 4]]) -> Vec<u8> {
        let mut d = b"DDS ".to_vec();
        let mut put = |v: u32| d.extend_from_slice(&v.to_le_bytes());
        put(124); // header size
        put(0x1 | 0x2 | 0x4 | 0x1000 | 0x8); // caps, height, width, pixel format, pitch
        put(h);
        put(w);
        put(w * 4); // pitch
        put(0); // depth
        put(1); // mips
        for _ in 0..11 {
            put(0);
        }
        put(32); // pixel format size
        put(0x41); // RGB | ALPHAPIXELS
        put(0); // fourcc
        put(32); // bits
        put(0x00ff_0000);
        put(0x0000_ff00);
        put(0x0000_00ff);
        put(0xff00_0000);
        put(0x1000); // caps: texture
        for _ in 0..4 {
            put(0);
        }
        for p in pixels {
            // B, G, R, A in memory
            d.extend_from_slice(&[p[2], p[1], p[0], p[3]]);
        }
        d
    }

    #[test]
    fn uncompressed_dds_reads_as_rgba_top_row_first() {
        let px = [
            [255, 0, 0, 255],
            [0, 255, 0, 128],
            [0, 0, 255, 0],
            [10, 20, 30, 40],
        ];
        let (rgba, w, h) = decode_rgba(&bgra_dds(2, 2, &px), "blades.dds", 64).unwrap();
        assert_eq!((w, h), (2, 2));
        assert_eq!(rgba, px.concat());
    }

    /// A cube map or a volume is refused in words before the decoder multiplies its counts
    /// (a cube map's six faces times a huge layer count overflowed inside it).
    #[test]
    fn cube_maps_and_volumes_are_refused_in_words() {
        let plain = bgra_dds(2, 2, &[[1, 2, 3, 4]; 4]);
        assert!(decode_rgba(&plain, "a.dds", 64).is_ok());
        let mut cube = plain.clone();
        cube[112..116].copy_from_slice(&0x200u32.to_le_bytes()); // caps2: cube map
        let e = decode_rgba(&cube, "a.dds", 64).unwrap_err().to_string();
        assert!(e.contains("cube map"), "{e}");
        let mut volume = plain.clone();
        let flags = u32::from_le_bytes(volume[8..12].try_into().unwrap()) | 0x80_0000;
        volume[8..12].copy_from_slice(&flags.to_le_bytes()); // flags: depth
        volume[24..28].copy_from_slice(&3u32.to_le_bytes());
        let e = decode_rgba(&volume, "a.dds", 64).unwrap_err().to_string();
        assert!(e.contains("3 slices"), "{e}");
        // the fuzzer's input: a DX10 cube map whose layer count times six overflowed
        let found = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fuzz/regressions/dds/cube-layers-overflow.dds"),
        )
        .unwrap();
        let e = decode_rgba(&found, "a.dds", 4096).unwrap_err().to_string();
        assert!(!e.contains("does not match its header"), "{e}");
    }

    #[test]
    fn short_oversized_or_foreign_files_are_errors() {
        let mut short = bgra_dds(2, 2, &[[1, 2, 3, 4]; 4]);
        short.truncate(short.len() - 6);
        assert!(decode_rgba(&short, "a.dds", 64).is_err());
        let big = bgra_dds(4096, 4096, &[]);
        let e = decode_rgba(&big, "big.dds", 1024).unwrap_err().to_string();
        assert!(e.contains("4096 x 4096"), "{e}");
        assert!(decode_rgba(b"not a picture", "x.png", 64).is_err());
    }

    #[test]
    fn the_template_blades_decode_when_the_fixtures_are_there() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "../shared/fixtures/bar/Map_Blueprint_V1.sdd/maps/grass_field_dry.dds.cached.dds",
        );
        let Ok(bytes) = std::fs::read(&path) else {
            crate::test_support::skip("fixtures not found");
            return;
        };
        let (rgba, w, h) = decode_rgba(&bytes, "grass_field_dry.dds.cached.dds", 4096).unwrap();
        assert_eq!((w, h), (128, 64));
        // blades on see-through ground
        let alpha: Vec<u8> = rgba.chunks_exact(4).map(|p| p[3]).collect();
        assert!(alpha.iter().any(|&a| a < 16) && alpha.iter().any(|&a| a > 240));
    }
}
