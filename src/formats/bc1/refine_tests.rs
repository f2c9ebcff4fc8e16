//! Tests of the BC1 refinement: never worse, a clear gain on noise, the AVX2, SSE2 and plain
//! array kernels alike, exact blocks kept exact.

use super::*;
use crate::formats::bc1::{Bc1Quality, decode_bc1, encode_bc1, psnr_rgb};

/// Smooth colour fields with per-texel noise in every channel (deterministic).
fn noisy(side: usize) -> Vec<u8> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = vec![255u8; side * side * 4];
    for (i, px) in out.chunks_exact_mut(4).enumerate() {
        let (x, y) = ((i % side) as f32, (i / side) as f32);
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let base = [
            120.0 + 60.0 * (x * 0.013).sin() * (y * 0.007).cos(),
            110.0 + 50.0 * (x * 0.05 + y * 0.09).sin(),
            90.0 + 40.0 * (y * 0.11).cos(),
        ];
        for c in 0..3 {
            let noise = ((state >> (c * 16)) & 0xff) as f32 - 128.0;
            px[c] = (base[c] + noise * 0.12).clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// Each block's squared error against the exact palette (thirds unrounded), times nine.
fn block_errors(rgba: &[u8], side: usize, blocks: &[u8]) -> Vec<u64> {
    let bw = side / 4;
    blocks
        .chunks_exact(8)
        .enumerate()
        .map(|(n, b)| {
            let c0 = u16::from_le_bytes([b[0], b[1]]);
            let c1 = u16::from_le_bytes([b[2], b[3]]);
            let ex = |c: u16| {
                let (r, g, b) = ((c >> 11) as i64, ((c >> 5) & 63) as i64, (c & 31) as i64);
                [
                    (r << 3) | (r >> 2),
                    (g << 2) | (g >> 4),
                    (b << 3) | (b >> 2),
                ]
            };
            let (a, z) = (ex(c0), ex(c1));
            let palette: [[i64; 3]; 4] = if c0 > c1 {
                [
                    a.map(|v| 3 * v),
                    z.map(|v| 3 * v),
                    std::array::from_fn(|c| 2 * a[c] + z[c]),
                    std::array::from_fn(|c| a[c] + 2 * z[c]),
                ]
            } else {
                let mid = std::array::from_fn(|c| 3 * (a[c] + z[c]) / 2);
                [a.map(|v| 3 * v), z.map(|v| 3 * v), mid, [0; 3]]
            };
            let bits = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
            let (bx, by) = (n % bw, n / bw);
            let mut error = 0u64;
            for i in 0..16 {
                let o = ((by * 4 + i / 4) * side + bx * 4 + i % 4) * 4;
                let p = palette[((bits >> (2 * i)) & 3) as usize];
                for c in 0..3 {
                    let d = 3 * rgba[o + c] as i64 - p[c];
                    error += (d * d) as u64;
                }
            }
            error
        })
        .collect()
}

#[test]
fn refined_blocks_are_never_worse_and_noise_gains_clearly() {
    let side = 128;
    let img = noisy(side);
    let fast = encode_bc1(&img, side, side, Bc1Quality::Fast);
    let mut refined = fast.clone();
    refine_bc1(&img, side, side, &mut refined);
    let before = block_errors(&img, side, &fast);
    let after = block_errors(&img, side, &refined);
    for (n, (b, a)) in before.iter().zip(&after).enumerate() {
        assert!(a <= b, "block {n}: error {b} -> {a}");
    }
    let gain = psnr_rgb(&img, &decode_bc1(&refined, side, side))
        - psnr_rgb(&img, &decode_bc1(&fast, side, side));
    assert!(gain > 0.15, "only {gain:.3} dB better");
}

#[test]
fn avx2_sse2_and_array_kernels_write_the_same_bytes() {
    // a width of 7 blocks leaves a short group of lanes at the end of every row
    let (w, h) = (28, 16);
    let img: Vec<u8> = noisy(32)
        .chunks_exact(32 * 4)
        .take(h)
        .flat_map(|row| row[..w * 4].to_vec())
        .collect();
    let fast = encode_bc1(&img, w, h, Bc1Quality::Fast);
    let mut portable = fast.clone();
    portable::refine_all(&img, w, h, &mut portable, 0.0, NUDGE);
    let mut dispatched = fast.clone();
    refine_bc1(&img, w, h, &mut dispatched);
    assert_eq!(portable, dispatched);
    assert_ne!(portable, fast, "nothing was refined");
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        let mut vector = fast.clone();
        // SAFETY: the CPU has AVX2, checked just above
        unsafe { with_avx2::refine_all(&img, w, h, &mut vector, 0.0, NUDGE) };
        assert_eq!(portable, vector);
    }
}

/// The nudge bound as the kernels take it (a sum over 16 texels, 3 channels, times 9).
const NUDGE: f32 = NUDGE_MAX_MSE * 16.0 * 3.0 * 9.0;

/// A block refines to the same bytes whichever blocks share its lanes: the whole picture at
/// once, and each block alone, under a nudge bound that some blocks of a group are under and
/// some over.
#[test]
fn each_block_refines_alone_whatever_shares_its_lanes() {
    let (w, h) = (32, 16);
    // smooth on the left, noisy on the right: both sides of the nudge bound in each group
    let noise = noisy(32);
    let mut img = vec![0u8; w * h * 4];
    for y in 0..h {
        for x in 0..w {
            let o = (y * w + x) * 4;
            for c in 0..3 {
                img[o + c] = if x < 16 {
                    (40 + 5 * x + 3 * y + 20 * c) as u8
                } else {
                    noise[(y * 32 + x) * 4 + c]
                };
            }
            img[o + 3] = 255;
        }
    }
    let fast = encode_bc1(&img, w, h, Bc1Quality::Fast);
    let mut whole = fast.clone();
    refine_bc1_with(&img, w, h, &mut whole, 0.0, NUDGE_MAX_MSE);
    let blocks_x = w / 4;
    for n in 0..(w / 4) * (h / 4) {
        let (bx, by) = (n % blocks_x, n / blocks_x);
        let alone_img: Vec<u8> = (0..4)
            .flat_map(|y| img[((by * 4 + y) * w + bx * 4) * 4..][..16].to_vec())
            .collect();
        let mut alone = fast[n * 8..n * 8 + 8].to_vec();
        refine_bc1_with(&alone_img, 4, 4, &mut alone, 0.0, NUDGE_MAX_MSE);
        assert_eq!(alone, whole[n * 8..n * 8 + 8], "block {n}");
    }
    // the bound decides: without nudges the smooth side comes out otherwise
    let mut unnudged = fast.clone();
    refine_bc1_with(&img, w, h, &mut unnudged, 0.0, 0.0);
    assert_ne!(unnudged, whole);
}

#[test]
fn flat_and_two_colour_blocks_stay_exact() {
    // one flat 565 colour, and two 565 colours in a checkerboard: both have exact encodings
    let mut img = vec![0u8; 8 * 4 * 4];
    for y in 0..4 {
        for x in 0..8 {
            let o = (y * 8 + x) * 4;
            let px = if x < 4 {
                [0x84, 0x82, 0x84, 255]
            } else if (x + y) % 2 == 0 {
                [0xff, 0x00, 0x00, 255]
            } else {
                [0x00, 0x00, 0xff, 255]
            };
            img[o..o + 4].copy_from_slice(&px);
        }
    }
    let mut blocks = encode_bc1(&img, 8, 4, Bc1Quality::Fast);
    refine_bc1(&img, 8, 4, &mut blocks);
    assert_eq!(decode_bc1(&blocks, 8, 4), img);
}
