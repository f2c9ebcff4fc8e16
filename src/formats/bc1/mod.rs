//! BC1 (DXT1) compression and decompression of RGBA8 images, and the box-filter mip chain.
//! Fast mode uses Intel's ISPC kernels (`ispc` feature) or texpresso's range fit without them,
//! optionally followed by [`refine_bc1`]; best mode uses texpresso's cluster fit.

mod lanes;
mod refine;

pub use refine::{NUDGE_MAX_MSE, REFINE_MIN_MSE, refine_bc1, refine_bc1_above, refine_bc1_with};

/// Bytes per 4x4 BC1 block.
pub const BC1_BLOCK_BYTES: usize = 8;

/// How hard the encoder tries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bc1Quality {
    /// ISPC BC1 where available (a fraction of a second for 8192²), otherwise texpresso's range
    /// fit. The compiler refines the full-resolution level of the ground texture with
    /// [`refine_bc1`] (about +0.2 dB on noisy ground, about a second for 8192² on 2 cores).
    #[default]
    Fast,
    /// texpresso's cluster fit on every level: on noisy ground about as good as fast mode's
    /// refined top level and better on its mips, and a hundred times slower.
    Best,
}

/// The BC1 size of a `width` x `height` image (each a multiple of 4).
pub fn bc1_size(width: usize, height: usize) -> usize {
    width.div_ceil(4) * height.div_ceil(4) * BC1_BLOCK_BYTES
}

/// Compresses a tightly packed RGBA8 image whose sides are multiples of 4 into `out`
/// (`bc1_size` bytes), blocks in row-major order. Single-threaded: callers parallelise over strips.
pub fn encode_bc1_into(
    rgba: &[u8],
    width: usize,
    height: usize,
    quality: Bc1Quality,
    out: &mut [u8],
) {
    debug_assert!(width.is_multiple_of(4) && height.is_multiple_of(4));
    debug_assert_eq!(rgba.len(), width * height * 4);
    debug_assert_eq!(out.len(), bc1_size(width, height));
    match quality {
        #[cfg(feature = "ispc")]
        Bc1Quality::Fast => {
            let surface = intel_tex_2::RgbaSurface {
                data: rgba,
                width: width as u32,
                height: height as u32,
                stride: (width * 4) as u32,
            };
            intel_tex_2::bc1::compress_blocks_into(&surface, out);
        }
        #[cfg(not(feature = "ispc"))]
        Bc1Quality::Fast => {
            texpresso_encode(rgba, width, height, texpresso::Algorithm::RangeFit, out)
        }
        Bc1Quality::Best => {
            texpresso_encode(rgba, width, height, texpresso::Algorithm::ClusterFit, out)
        }
    }
}

fn texpresso_encode(
    rgba: &[u8],
    width: usize,
    _height: usize,
    algorithm: texpresso::Algorithm,
    out: &mut [u8],
) {
    let params = texpresso::Params {
        algorithm,
        weights: texpresso::COLOUR_WEIGHTS_UNIFORM,
        weigh_colour_by_alpha: false,
    };
    // one block row at a time, so the caller's parallelism is the only parallelism
    let row_bytes = width / 4 * BC1_BLOCK_BYTES;
    for (by, out_row) in out.chunks_mut(row_bytes).enumerate() {
        let strip = &rgba[by * 4 * width * 4..(by * 4 + 4) * width * 4];
        for (bx, block_out) in out_row.chunks_mut(BC1_BLOCK_BYTES).enumerate() {
            let mut block = [[0u8; 4]; 16];
            for py in 0..4 {
                let row = &strip[py * width * 4..];
                for px in 0..4 {
                    let i = (bx * 4 + px) * 4;
                    block[py * 4 + px].copy_from_slice(&row[i..i + 4]);
                    block[py * 4 + px][3] = 255;
                }
            }
            texpresso::Format::Bc1.compress_block_masked(block, 0xFFFF, params, block_out);
        }
    }
}

/// Compresses an RGBA8 image (sides multiples of 4) into a new buffer.
pub fn encode_bc1(rgba: &[u8], width: usize, height: usize, quality: Bc1Quality) -> Vec<u8> {
    let mut out = vec![0u8; bc1_size(width, height)];
    encode_bc1_into(rgba, width, height, quality, &mut out);
    out
}

/// Decodes one 8-byte BC1 block into 16 RGBA texels (row-major), opaque as the engine draws it:
/// the palette's thirds and halves truncated, as texpresso (and the peers' decoders) do.
fn decode_bc1_block(block: &[u8]) -> [[u8; 4]; 16] {
    decode_with_palette(block, 0)
}

/// The 8-bit red, green and blue of an RGB565 colour (each field's bits repeated).
pub(crate) fn expand_565(c: u16) -> [u32; 3] {
    let (r, g, b) = ((c >> 11) as u32, ((c >> 5) & 63) as u32, (c & 31) as u32);
    [
        (r << 3) | (r >> 2),
        (g << 2) | (g >> 4),
        (b << 3) | (b >> 2),
    ]
}

/// Decodes one block with the palette's thirds rounded to nearest, as D3D's reference does.
fn decode_bc1_block_rounded(block: &[u8]) -> [[u8; 4]; 16] {
    decode_with_palette(block, 1)
}

/// Decodes one block, opaque, with `round` (0 or 1) added before the palette's thirds and
/// halves are divided.
#[inline(always)]
fn decode_with_palette(block: &[u8], round: u32) -> [[u8; 4]; 16] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let (a, b) = (expand_565(c0), expand_565(c1));
    let mut pal = [[0u8, 0, 0, 255]; 4];
    for c in 0..3 {
        pal[0][c] = a[c] as u8;
        pal[1][c] = b[c] as u8;
        if c0 > c1 {
            pal[2][c] = ((2 * a[c] + b[c] + round) / 3) as u8;
            pal[3][c] = ((a[c] + 2 * b[c] + round) / 3) as u8;
        } else {
            pal[2][c] = ((a[c] + b[c] + round) / 2) as u8;
            pal[3][c] = 0;
        }
    }
    let bits = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    std::array::from_fn(|i| pal[((bits >> (2 * i)) & 3) as usize])
}

/// Decodes a row-major BC1 image into RGBA8, thirds rounded.
pub fn decode_bc1_rounded(blocks: &[u8], width: usize, height: usize) -> Vec<u8> {
    decode_blocks(blocks, width, height, decode_bc1_block_rounded)
}

/// Decodes a row-major BC1 image into RGBA8.
pub fn decode_bc1(blocks: &[u8], width: usize, height: usize) -> Vec<u8> {
    decode_blocks(blocks, width, height, decode_bc1_block)
}

/// Decodes a row-major BC1 image of `width` x `height` (multiples of 4) into the RGBA8 image
/// `out`, whose rows are `out_stride` bytes apart: a tile straight into its place in the map.
pub fn decode_bc1_into(
    blocks: &[u8],
    width: usize,
    height: usize,
    out: &mut [u8],
    out_stride: usize,
) {
    let bw = width / 4;
    for (i, block) in blocks
        .chunks_exact(BC1_BLOCK_BYTES)
        .take(bw * (height / 4))
        .enumerate()
    {
        let (bx, by) = (i % bw, i / bw);
        let px = decode_bc1_block(block);
        for (py, texels) in px.chunks_exact(4).enumerate() {
            let o = (by * 4 + py) * out_stride + bx * 16;
            out[o..o + 16].copy_from_slice(texels.as_flattened());
        }
    }
}

/// Places each block's texels, as `decode_block` gives them, into an RGBA8 image.
fn decode_blocks(
    blocks: &[u8],
    width: usize,
    height: usize,
    decode_block: fn(&[u8]) -> [[u8; 4]; 16],
) -> Vec<u8> {
    let mut out = vec![0u8; width * height * 4];
    let bw = width.div_ceil(4);
    for (i, block) in blocks.chunks_exact(BC1_BLOCK_BYTES).enumerate() {
        let (bx, by) = (i % bw, i / bw);
        if by * 4 >= height {
            break;
        }
        let px = decode_block(block);
        for py in 0..4 {
            let y = by * 4 + py;
            if y >= height {
                break;
            }
            for pxi in 0..4 {
                let x = bx * 4 + pxi;
                if x < width {
                    let o = (y * width + x) * 4;
                    out[o..o + 4].copy_from_slice(&px[py * 4 + pxi]);
                }
            }
        }
    }
    out
}

/// Halves an RGBA8 image with a 2x2 box filter, rounding; each side is even or 1 (a side of
/// 1 stays 1). The one box filter: mipmaps here and the viewer's ground tiles use it.
pub fn downsample_2x(rgba: &[u8], width: usize, height: usize) -> Vec<u8> {
    use rayon::prelude::*;
    let (w2, h2) = ((width / 2).max(1), (height / 2).max(1));
    let mut out = vec![0u8; w2 * h2 * 4];
    out.par_chunks_mut(w2 * 4).enumerate().for_each(|(y, row)| {
        let y0 = (2 * y).min(height - 1);
        let y1 = (2 * y + 1).min(height - 1);
        for x in 0..w2 {
            let x0 = (2 * x).min(width - 1);
            let x1 = (2 * x + 1).min(width - 1);
            for c in 0..4 {
                let s = rgba[(y0 * width + x0) * 4 + c] as u32
                    + rgba[(y0 * width + x1) * 4 + c] as u32
                    + rgba[(y1 * width + x0) * 4 + c] as u32
                    + rgba[(y1 * width + x1) * 4 + c] as u32;
                row[x * 4 + c] = ((s + 2) / 4) as u8;
            }
        }
    });
    out
}

/// Peak signal-to-noise ratio of two RGB(A) images over the RGB channels, in dB.
pub fn psnr_rgb(a: &[u8], b: &[u8]) -> f64 {
    let mut se = 0u64;
    let mut n = 0u64;
    for (pa, pb) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        for c in 0..3 {
            let d = pa[c] as i64 - pb[c] as i64;
            se += (d * d) as u64;
        }
        n += 3;
    }
    if se == 0 {
        return f64::INFINITY;
    }
    let mse = se as f64 / n as f64;
    10.0 * (255.0f64 * 255.0 / mse).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gradient(w: usize, h: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(w * h * 4);
        for y in 0..h {
            for x in 0..w {
                v.extend_from_slice(&[(x * 255 / w) as u8, (y * 255 / h) as u8, 90, 255]);
            }
        }
        v
    }

    #[test]
    fn blocks_decode_as_texpresso_decodes_them_opaque() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for i in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut block = x.to_le_bytes();
            if i % 3 == 0 {
                // the three-colour mode: c0 <= c1
                block.swap(0, 2);
                block.swap(1, 3);
                if u16::from_le_bytes([block[0], block[1]])
                    > u16::from_le_bytes([block[2], block[3]])
                {
                    block.swap(0, 2);
                    block.swap(1, 3);
                }
            }
            let mut want = texpresso::Format::Bc1.decompress_block(&block);
            for p in want.iter_mut() {
                p[3] = 255;
            }
            assert_eq!(decode_bc1_block(&block), want, "{block:?}");
        }
    }

    #[test]
    fn flat_colour_survives_exactly_in_both_modes() {
        // a colour exactly representable in RGB565
        let px = [0x84u8, 0x82, 0x84, 255];
        let img: Vec<u8> = (0..64).flat_map(|_| px).collect();
        for q in [Bc1Quality::Fast, Bc1Quality::Best] {
            let enc = encode_bc1(&img, 8, 8, q);
            assert_eq!(enc.len(), 32);
            assert_eq!(decode_bc1(&enc, 8, 8), img, "{q:?}");
        }
    }

    #[test]
    fn gradients_compress_well() {
        let img = gradient(64, 64);
        for q in [Bc1Quality::Fast, Bc1Quality::Best] {
            let dec = decode_bc1(&encode_bc1(&img, 64, 64, q), 64, 64);
            let p = psnr_rgb(&img, &dec);
            assert!(p > 38.0, "{q:?}: {p} dB");
        }
    }

    #[test]
    fn downsample_averages_quads() {
        let img = [
            0u8, 0, 0, 255, 4, 8, 12, 255, 8, 16, 24, 255, 12, 24, 36, 255,
        ];
        assert_eq!(downsample_2x(&img, 2, 2), vec![6, 12, 18, 255]);
    }
}
