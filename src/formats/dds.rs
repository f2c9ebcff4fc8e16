//! DDS writers for the engine's splat textures: BC3 (DXT5, RGB plus its own alpha block) and
//! BC1 (DXT1, opaque), each with a full mip chain down to 1x1, every level the 2x2 box filter
//! of the one above (`bc1::downsample_2x`). Both sides must be powers of two, so each level is
//! exactly half the one above (a side of 1 stays 1: 256x64 has 9 levels, the last three 4x1,
//! 2x1 and 1x1). Spring uses the levels a DDS carries and makes its own only when it has none.
//!
//! Rows: the first row of `rgba` is the first row in the file, the one DDS viewers (and
//! `image_dds`, ImageMagick) show at the top. Spring loads a DDS through nv_dds with flipping
//! on (every path but `unitpics`), so in GL that row lands at t = 1, the far end of the
//! texture. Pictures loaded through DevIL (PNG, TGA, ...) are not flipped: their first row is at
//! t = 0. The splat distribution is sampled at `t = z / map height`, so a PNG's first row lies
//! along the north edge (z = 0) and a DDS's first row along the south edge (the test
//! `tests/dds_engine.rs` sees this in Spring 106). To write a DDS that the engine shows the
//! way up a PNG of the same picture shows, pass the picture through [`flip_rows`] first. The
//! detail-normal textures go through the same loader: one made with its rows running towards
//! +z wants the same flip, or its pattern is mirrored in z while its green channel still says
//! +z.
//!
//! The colour blocks are texpresso's, every one refined by `bc1::refine_bc1_above` with no threshold (see `encode_level`);
//! a 1024x1024 BC3 with its mips takes about 50 ms on two cores.

use super::FormatError;
use super::bc1::{BC1_BLOCK_BYTES, downsample_2x, refine_bc1_above};

/// The widest or tallest texture written, in texels (GL's usual maximum texture size).
pub const MAX_DDS_SIDE: usize = 16384;

const DDS_HEADER_BYTES: usize = 124;
const DDSD_CAPS: u32 = 0x1;
const DDSD_HEIGHT: u32 = 0x2;
const DDSD_WIDTH: u32 = 0x4;
const DDSD_PIXELFORMAT: u32 = 0x1000;
const DDSD_MIPMAPCOUNT: u32 = 0x2_0000;
const DDSD_LINEARSIZE: u32 = 0x8_0000;
const DDPF_FOURCC: u32 = 0x4;
const DDSCAPS_COMPLEX: u32 = 0x8;
const DDSCAPS_TEXTURE: u32 = 0x1000;
const DDSCAPS_MIPMAP: u32 = 0x40_0000;

/// The number of mip levels from `width` x `height` down to 1x1, the top level included.
pub fn mip_count(width: usize, height: usize) -> usize {
    let side = width.max(height).max(1);
    (usize::BITS - side.leading_zeros()) as usize
}

/// Reverses the order of the rows of a tightly packed RGBA8 picture (see the module's note on
/// which row the engine puts where). Errors if `rgba` is not `width * height * 4` bytes.
pub fn flip_rows(rgba: &[u8], width: usize, height: usize) -> Result<Vec<u8>, FormatError> {
    check_len(rgba, width, height, "picture")?;
    let row_bytes = width * 4;
    let mut out = Vec::with_capacity(rgba.len());
    for row in rgba.chunks_exact(row_bytes.max(1)).rev() {
        out.extend_from_slice(row);
    }
    Ok(out)
}

/// Writes `rgba` (`width` x `height`, tightly packed RGBA8, first row first in the file) as a
/// DDS file compressed with BC3 (DXT5), with every mip level down to 1x1, each the 2x2 box
/// filter of the one above. Both sides must be powers of two, at most [`MAX_DDS_SIDE`].
pub fn write_dds_bc3(rgba: &[u8], width: usize, height: usize) -> Result<Vec<u8>, FormatError> {
    write_dds(rgba, width, height, texpresso::Format::Bc3, *b"DXT5")
}

/// As [`write_dds_bc3`] in BC1 (DXT1), half the size; alpha is not kept (the file is opaque).
pub fn write_dds_bc1(rgba: &[u8], width: usize, height: usize) -> Result<Vec<u8>, FormatError> {
    write_dds(rgba, width, height, texpresso::Format::Bc1, *b"DXT1")
}

fn check_len(rgba: &[u8], width: usize, height: usize, what: &str) -> Result<(), FormatError> {
    let want = width.checked_mul(height).and_then(|n| n.checked_mul(4));
    if want != Some(rgba.len()) {
        return Err(FormatError::invalid(
            what,
            format!(
                "{} bytes of RGBA for {width} x {height} texels (want {})",
                rgba.len(),
                want.map_or_else(|| "more than fits in memory".into(), |n| n.to_string())
            ),
        ));
    }
    Ok(())
}

fn write_dds(
    rgba: &[u8],
    width: usize,
    height: usize,
    format: texpresso::Format,
    four_cc: [u8; 4],
) -> Result<Vec<u8>, FormatError> {
    let what = format!("DDS {}", String::from_utf8_lossy(&four_cc));
    for (side, name) in [(width, "width"), (height, "height")] {
        if !side.is_power_of_two() || side > MAX_DDS_SIDE {
            return Err(FormatError::invalid(
                &what,
                format!(
                    "{name} {side} texels: each side must be a power of two from 1 to {MAX_DDS_SIDE}"
                ),
            ));
        }
    }
    check_len(rgba, width, height, &what)?;

    let levels = mip_count(width, height);
    let level_sizes: Vec<(usize, usize)> = (0..levels)
        .map(|i| ((width >> i).max(1), (height >> i).max(1)))
        .collect();
    let data_bytes: usize = level_sizes
        .iter()
        .map(|&(w, h)| format.compressed_size(w, h))
        .sum();
    let mut out = Vec::with_capacity(4 + DDS_HEADER_BYTES + data_bytes);
    write_header(&mut out, width, height, levels, format, four_cc);

    let opaque: Vec<u8>;
    let mut level: &[u8] = if format == texpresso::Format::Bc1 {
        // BC1 would spend an index on transparency for texels under alpha 128
        opaque = rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect();
        &opaque
    } else {
        rgba
    };
    let mut smaller: Vec<u8>;
    for (i, &(w, h)) in level_sizes.iter().enumerate() {
        out.extend_from_slice(&encode_level(level, w, h, format));
        if i + 1 < levels {
            smaller = downsample_2x(level, w, h);
            level = &smaller;
        }
    }
    debug_assert_eq!(out.len(), 4 + DDS_HEADER_BYTES + data_bytes);
    Ok(out)
}

/// One level's blocks. texpresso's fits take their axis from a power iteration started at
/// (1, 1, 1), which finds nothing when the texels differ only across it (red beside green, or
/// any splat weights whose R + G + B is constant) and collapses such blocks to one colour, so
/// every colour block is refined (no threshold) with [`refine_bc1_above`], whose axis does not depend on a start.
fn encode_level(level: &[u8], w: usize, h: usize, format: texpresso::Format) -> Vec<u8> {
    use rayon::prelude::*;
    // a level under 4 texels a side is one block wide or tall: pad it by repeating its edge,
    // so the refinement sees whole blocks; decoders read only the texels that exist
    let (pw, ph) = (w.max(4), h.max(4));
    let padded: Vec<u8>;
    let px: &[u8] = if (pw, ph) == (w, h) {
        level
    } else {
        padded = (0..ph)
            .flat_map(|y| (0..pw).map(move |x| (y.min(h - 1) * w + x.min(w - 1)) * 4))
            .flat_map(|i| level[i..i + 4].to_vec())
            .collect();
        &padded
    };
    let params = texpresso::Params {
        algorithm: texpresso::Algorithm::RangeFit,
        weights: texpresso::COLOUR_WEIGHTS_UNIFORM,
        weigh_colour_by_alpha: false,
    };
    let mut blocks = vec![0u8; format.compressed_size(pw, ph)];
    format.compress(px, pw, ph, params, &mut blocks);

    let block_bytes = format.block_size();
    let colour_at = block_bytes - BC1_BLOCK_BYTES; // BC3 keeps alpha first, then colour
    let mut colour: Vec<u8> = blocks
        .chunks_exact(block_bytes)
        .flat_map(|b| b[colour_at..].to_vec())
        .collect();
    // strips of 4 block rows, refined in parallel
    const STRIP_BLOCK_ROWS: usize = 4;
    let strip_texels = pw * 4 * STRIP_BLOCK_ROWS;
    let strip_blocks = pw / 4 * STRIP_BLOCK_ROWS;
    colour
        .par_chunks_mut(strip_blocks * BC1_BLOCK_BYTES)
        .zip(px.par_chunks(strip_texels * 4))
        .for_each(|(out, strip)| refine_bc1_above(strip, pw, strip.len() / (pw * 4), out, 0.0));
    for (b, c) in blocks
        .chunks_exact_mut(block_bytes)
        .zip(colour.chunks_exact(BC1_BLOCK_BYTES))
    {
        b[colour_at..].copy_from_slice(c);
    }
    blocks
}

fn write_header(
    out: &mut Vec<u8>,
    width: usize,
    height: usize,
    levels: usize,
    format: texpresso::Format,
    four_cc: [u8; 4],
) {
    let mut put = |v: u32| out.extend_from_slice(&v.to_le_bytes());
    put(u32::from_le_bytes(*b"DDS "));
    put(DDS_HEADER_BYTES as u32);
    put(DDSD_CAPS
        | DDSD_HEIGHT
        | DDSD_WIDTH
        | DDSD_PIXELFORMAT
        | DDSD_MIPMAPCOUNT
        | DDSD_LINEARSIZE);
    put(height as u32);
    put(width as u32);
    put(format.compressed_size(width, height) as u32); // the top level's bytes
    put(0); // depth
    put(levels as u32);
    for _ in 0..11 {
        put(0); // reserved
    }
    put(32); // pixel format size
    put(DDPF_FOURCC);
    put(u32::from_le_bytes(four_cc));
    for _ in 0..5 {
        put(0); // bit count and masks: unused with a FourCC
    }
    let complex = if levels > 1 {
        DDSCAPS_COMPLEX | DDSCAPS_MIPMAP
    } else {
        0
    };
    put(DDSCAPS_TEXTURE | complex);
    for _ in 0..4 {
        put(0); // caps2, caps3, caps4, reserved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image_dds::SurfaceRgba8;
    use image_dds::ddsfile::{D3DFormat, Dds};

    /// A smooth picture whose colours lie on one line (they change together along the
    /// diagonal, as BC1's four colours a block can follow) and whose alpha runs across it.
    fn gradient(w: usize, h: usize) -> Vec<u8> {
        let mut px = Vec::with_capacity(w * h * 4);
        for y in 0..h {
            for x in 0..w {
                let u = x as f32 / w as f32;
                let t = (u + y as f32 / h as f32) / 2.0;
                px.extend_from_slice(&[
                    (40.0 + 180.0 * t) as u8,
                    (20.0 + 200.0 * t) as u8,
                    (160.0 - 100.0 * t) as u8,
                    (250.0 - 200.0 * u) as u8,
                ]);
            }
        }
        px
    }

    /// The reference chain: the top level and each 2x2 box filter of the one above.
    fn chain(rgba: &[u8], w: usize, h: usize) -> Vec<(Vec<u8>, usize, usize)> {
        let mut levels = vec![(rgba.to_vec(), w, h)];
        while let Some((px, w, h)) = levels.last().cloned().filter(|l| l.1 > 1 || l.2 > 1) {
            levels.push((downsample_2x(&px, w, h), (w / 2).max(1), (h / 2).max(1)));
        }
        levels
    }

    fn decode(file: &[u8]) -> (Dds, SurfaceRgba8<Vec<u8>>) {
        let dds = Dds::read(std::io::Cursor::new(file)).expect("a DDS image_dds reads");
        let surface = SurfaceRgba8::decode_dds(&dds).expect("decodes");
        (dds, surface)
    }

    /// The largest difference per channel (R, G, B, A) between two pictures.
    fn max_diff(a: &[u8], b: &[u8]) -> [u8; 4] {
        assert_eq!(a.len(), b.len());
        let mut d = [0u8; 4];
        for (pa, pb) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
            for c in 0..4 {
                d[c] = d[c].max(pa[c].abs_diff(pb[c]));
            }
        }
        d
    }

    /// Checks every texel of `got` against `want` (`w` x `h`) within what BC1's and BC3's
    /// blocks can hold: a colour block has four colours on a line between two RGB565
    /// endpoints, so a channel that spreads over `s` levels in a block is off by up to about
    /// `s / 6` plus the endpoints' rounding (4 levels in 5 bits); an alpha block has eight
    /// values between two 8-bit endpoints, off by up to `s / 14` plus one. Also checks the
    /// mean error of the first `channels` channels is at most a third of that bound.
    fn assert_within_bc_error(
        got: &[u8],
        want: &[u8],
        w: usize,
        h: usize,
        channels: usize,
        what: &str,
    ) {
        assert_eq!(got.len(), want.len(), "{what}");
        let (mut sum_err, mut sum_bound) = ([0f32; 4], [0f32; 4]);
        for by in (0..h).step_by(4) {
            for bx in (0..w).step_by(4) {
                let texels: Vec<usize> = (by..(by + 4).min(h))
                    .flat_map(|y| (bx..(bx + 4).min(w)).map(move |x| (y * w + x) * 4))
                    .collect();
                for c in 0..channels {
                    let values = texels.iter().map(|&i| want[i + c]);
                    let spread = (values.clone().max().unwrap() - values.min().unwrap()) as f32;
                    let bound = if c == 3 {
                        spread / 14.0 + 1.5
                    } else {
                        spread / 6.0 + 5.0
                    };
                    for &i in &texels {
                        let e = got[i + c].abs_diff(want[i + c]) as f32;
                        assert!(
                            e <= bound,
                            "{what}: texel {} channel {c} is {} for {} (spread {spread})",
                            i / 4,
                            got[i + c],
                            want[i + c]
                        );
                        sum_err[c] += e;
                        sum_bound[c] += bound;
                    }
                }
            }
        }
        for c in 0..channels {
            assert!(
                sum_err[c] <= sum_bound[c] / 3.0,
                "{what}: channel {c} is off by {} on average",
                sum_err[c] / (w * h) as f32
            );
        }
    }

    #[test]
    fn bc3_keeps_a_full_mip_chain_of_a_non_square_picture_within_bc3s_error() {
        let (w, h) = (256, 64);
        let input = gradient(w, h);
        let file = write_dds_bc3(&input, w, h).unwrap();
        let (dds, surface) = decode(&file);
        assert_eq!(dds.get_d3d_format(), Some(D3DFormat::DXT5));
        let flags = u32::from_le_bytes(file[8..12].try_into().unwrap());
        assert_ne!(
            flags & DDSD_MIPMAPCOUNT,
            0,
            "the mip count is marked as set"
        );
        assert_eq!(&file[84..88], b"DXT5");
        assert_eq!((dds.get_width(), dds.get_height()), (256, 64));
        assert_eq!(dds.get_num_mipmap_levels(), 9, "256 x 64 down to 1 x 1");
        assert_eq!(mip_count(w, h), 9);
        let want = chain(&input, w, h);
        let sizes: Vec<(usize, usize)> = want.iter().map(|l| (l.1, l.2)).collect();
        assert_eq!(
            sizes,
            [
                (256, 64),
                (128, 32),
                (64, 16),
                (32, 8),
                (16, 4),
                (8, 2),
                (4, 1),
                (2, 1),
                (1, 1)
            ]
        );
        // every level is there, no byte more or less
        let blocks: usize = sizes
            .iter()
            .map(|&(w, h)| w.div_ceil(4) * h.div_ceil(4))
            .sum();
        assert_eq!(file.len(), 128 + blocks * 16);
        for (level, (px, lw, lh)) in want.iter().enumerate() {
            let got = surface.get(0, 0, level as u32).expect("the level is there");
            assert_eq!(got.len(), lw * lh * 4, "level {level} is {lw} x {lh}");
            assert_within_bc_error(got, px, *lw, *lh, 4, &format!("level {level}"));
        }
    }

    #[test]
    fn bc3_keeps_alpha_apart_from_colour() {
        // one colour, alpha running 0..255 across: BC1 could not hold this, BC3 must
        let (w, h) = (64, 8);
        let mut input = Vec::new();
        for _y in 0..h {
            for x in 0..w {
                input.extend_from_slice(&[90, 140, 200, (x * 255 / (w - 1)) as u8]);
            }
        }
        let (_, surface) = decode(&write_dds_bc3(&input, w, h).unwrap());
        let got = surface.get(0, 0, 0).unwrap();
        let d = max_diff(got, &input);
        assert!(d[3] <= 2, "alpha off by {}", d[3]);
        assert!(d[0] <= 4 && d[1] <= 2 && d[2] <= 4, "colour off by {d:?}");
        assert_eq!(got[3], 0, "the first texel is transparent");
        assert_eq!(got[(w - 1) * 4 + 3], 255, "the last is opaque");
    }

    #[test]
    fn the_first_row_in_the_file_is_the_first_row_given_and_flip_rows_reverses_them() {
        // top half white, bottom half black: asymmetric up and down
        let (w, h) = (8, 8);
        let input: Vec<u8> = (0..w * h)
            .flat_map(|i| {
                if i < w * h / 2 {
                    [255; 4]
                } else {
                    [0, 0, 0, 255]
                }
            })
            .collect();
        let (_, surface) = decode(&write_dds_bc3(&input, w, h).unwrap());
        let got = surface.get(0, 0, 0).unwrap();
        assert_eq!(&got[..4], &[255; 4], "the top row is the white one");
        assert_eq!(&got[got.len() - 4..], &[0, 0, 0, 255]);

        let flipped = flip_rows(&input, w, h).unwrap();
        assert_eq!(&flipped[..4], &[0, 0, 0, 255], "the black rows come first");
        assert_eq!(&flipped[flipped.len() - 4..], &[255; 4]);
        let (_, surface) = decode(&write_dds_bc3(&flipped, w, h).unwrap());
        assert_eq!(&surface.get(0, 0, 0).unwrap()[..4], &[0, 0, 0, 255]);
        let g = gradient(16, 4);
        assert_eq!(flip_rows(&flip_rows(&g, 16, 4).unwrap(), 16, 4).unwrap(), g);
        assert_eq!(&flip_rows(&g, 16, 4).unwrap()[..16 * 4], &g[3 * 16 * 4..]);
        assert!(flip_rows(&g, 16, 5).is_err(), "the wrong number of bytes");
    }

    #[test]
    fn pictures_of_one_to_four_texels_a_side_have_every_level() {
        for (w, h) in [(1, 1), (2, 2), (4, 4), (2, 1), (1, 4), (4, 2)] {
            let colour = [200u8, 60, 30, 77];
            let input: Vec<u8> = (0..w * h).flat_map(|_| colour).collect();
            let file = write_dds_bc3(&input, w, h).unwrap();
            let (dds, surface) = decode(&file);
            assert_eq!((dds.get_width(), dds.get_height()), (w as u32, h as u32));
            assert_eq!(dds.get_num_mipmap_levels() as usize, mip_count(w, h));
            assert_eq!(file.len(), 128 + mip_count(w, h) * 16, "one block a level");
            for level in 0..mip_count(w, h) {
                let (lw, lh) = ((w >> level).max(1), (h >> level).max(1));
                let got = surface.get(0, 0, level as u32).unwrap();
                assert_eq!(got.len(), lw * lh * 4, "{w} x {h}, level {level}");
                let want: Vec<u8> = (0..lw * lh).flat_map(|_| colour).collect();
                let d = max_diff(got, &want);
                assert!(d.iter().all(|&e| e <= 4), "{w} x {h} level {level}: {d:?}");
            }
        }
    }

    #[test]
    fn the_small_levels_follow_a_left_right_picture() {
        // left half red, right half blue, 256 x 64: the 2 x 1 level keeps red left of blue
        // and the 1 x 1 level is their mean
        let (w, h) = (256, 64);
        let input: Vec<u8> = (0..w * h)
            .flat_map(|i| {
                if i % w < w / 2 {
                    [255, 0, 0, 255]
                } else {
                    [0, 0, 255, 255]
                }
            })
            .collect();
        let (_, surface) = decode(&write_dds_bc3(&input, w, h).unwrap());
        let two = surface.get(0, 0, 7).unwrap();
        assert_eq!(two.len(), 2 * 4);
        assert_eq!(two, &[255, 0, 0, 255, 0, 0, 255, 255]);
        let one = surface.get(0, 0, 8).unwrap();
        assert!(
            one[0].abs_diff(128) <= 4 && one[2].abs_diff(128) <= 4,
            "{one:?}"
        );
    }

    #[test]
    fn splat_weights_that_sum_to_one_keep_their_channels_apart() {
        // a distribution as the splat export writes it: R + G + B = 255 everywhere, so every
        // block's texels differ only across (1, 1, 1) (here red beside green), which texpresso's own fit cannot see
        let (w, h) = (64, 64);
        let mut input = Vec::with_capacity(w * h * 4);
        for y in 0..h {
            for x in 0..w {
                let r = [255u8, 0][(x / 2 + y / 2) % 2];
                let g = 255 - r;
                input.extend_from_slice(&[r, g, 0, 200]);
            }
        }
        for file in [write_dds_bc3(&input, w, h), write_dds_bc1(&input, w, h)] {
            let (_, surface) = decode(&file.unwrap());
            let d = max_diff(surface.get(0, 0, 0).unwrap(), &input);
            assert!(d[0] <= 8 && d[1] <= 6 && d[2] <= 8, "off by {d:?}");
        }
    }

    #[test]
    fn bc1_is_opaque_and_has_every_level() {
        let (w, h) = (64, 256);
        let mut input = gradient(w, h);
        for p in input.chunks_exact_mut(4) {
            p[3] = 0; // transparent in, opaque out: DXT1 here carries no alpha
        }
        let file = write_dds_bc1(&input, w, h).unwrap();
        let (dds, surface) = decode(&file);
        assert_eq!(dds.get_d3d_format(), Some(D3DFormat::DXT1));
        assert_eq!(dds.get_num_mipmap_levels(), 9);
        for (level, (px, lw, lh)) in chain(&input, w, h).iter().enumerate() {
            let got = surface.get(0, 0, level as u32).unwrap();
            assert_eq!(got.len(), lw * lh * 4);
            assert_within_bc_error(got, px, *lw, *lh, 3, &format!("level {level}"));
            assert!(got.chunks_exact(4).all(|p| p[3] == 255), "level {level}");
        }
    }

    #[test]
    fn sizes_that_are_not_powers_of_two_or_do_not_match_the_bytes_are_refused() {
        for (w, h) in [
            (0, 4),
            (4, 0),
            (3, 4),
            (12, 12),
            (256, 96),
            (MAX_DDS_SIDE * 2, 1),
        ] {
            let input = vec![0u8; w * h * 4];
            let e = write_dds_bc3(&input, w, h).unwrap_err().to_string();
            assert!(e.contains("power of two"), "{w} x {h}: {e}");
            assert!(write_dds_bc1(&input, w, h).is_err(), "{w} x {h}");
        }
        let e = write_dds_bc3(&[0u8; 63], 4, 4).unwrap_err().to_string();
        assert!(e.contains("63 bytes"), "{e}");
        assert!(write_dds_bc3(&[], usize::MAX / 2 + 1, 1).is_err());
        assert!(flip_rows(&[0u8; 4], usize::MAX, 2).is_err());
    }
}
