//! The ground texture to SMT tiles: each 32x32 tile BC1-compressed with its 16, 8 and 4 texel
//! mips (in fast mode the full-resolution level is then refined), strips of 32 texture rows
//! compressed in parallel on all cores, exact duplicates dropped in a stable order.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::progress::{Progress, Stage};
use crate::formats::FormatError;
use crate::formats::bc1::{BC1_BLOCK_BYTES, Bc1Quality, downsample_2x, encode_bc1, refine_bc1};
use crate::formats::smt::{SMT_TILE_BYTES, TILE_TEXELS};
use crate::map::GroundTexture;

/// Distinct tiles and the index that places them.
pub struct TileSet {
    /// `distinct_count()` tiles of [`SMT_TILE_BYTES`] each.
    pub tiles: Vec<u8>,
    /// One entry per 32x32 texel cell, row-major.
    pub index: Vec<u32>,
}

impl TileSet {
    pub fn distinct_count(&self) -> usize {
        self.tiles.len() / SMT_TILE_BYTES
    }
}

/// Compresses one strip of 32 texture rows into its tiles, 680 bytes each, left to right.
fn compress_strip(rows: &[u8], width: usize, quality: Bc1Quality) -> Vec<u8> {
    let tiles_x = width / TILE_TEXELS;
    let mut out = vec![0u8; tiles_x * SMT_TILE_BYTES];
    let mut level = std::borrow::Cow::Borrowed(rows);
    let (mut w, mut h) = (width, TILE_TEXELS);
    let mut offset_in_tile = 0;
    for mip in 0..4 {
        let mut blocks = encode_bc1(&level, w, h, quality);
        if mip == 0 && quality == Bc1Quality::Fast {
            // the full-resolution level, the one seen up close, gets the refinement
            refine_bc1(&level, w, h, &mut blocks);
        }
        let blocks_per_row = w / 4;
        let tile_blocks = TILE_TEXELS >> mip >> 2; // blocks per tile side at this level
        for tx in 0..tiles_x {
            let dst = &mut out[tx * SMT_TILE_BYTES + offset_in_tile..];
            for by in 0..tile_blocks {
                let src = (by * blocks_per_row + tx * tile_blocks) * BC1_BLOCK_BYTES;
                let len = tile_blocks * BC1_BLOCK_BYTES;
                dst[by * len..(by + 1) * len].copy_from_slice(&blocks[src..src + len]);
            }
        }
        offset_in_tile += tile_blocks * tile_blocks * BC1_BLOCK_BYTES;
        if mip < 3 {
            level = std::borrow::Cow::Owned(downsample_2x(&level, w, h));
            w /= 2;
            h /= 2;
        }
    }
    debug_assert_eq!(offset_in_tile, SMT_TILE_BYTES);
    out
}

/// Every tile of the texture, compressed and deduplicated.
pub fn build_tiles(
    texture: &GroundTexture,
    quality: Bc1Quality,
    progress: &Progress,
) -> Result<TileSet, FormatError> {
    let width = texture.width();
    let strips = texture.height() / TILE_TEXELS;
    let tiles_x = width / TILE_TEXELS;
    let done = AtomicU64::new(0);
    let strip_bytes = width * TILE_TEXELS * 4;
    let compressed: Vec<Option<Vec<u8>>> = texture
        .rgba()
        .par_chunks(strip_bytes)
        .map(|rows| {
            if progress.is_cancelled() {
                return None;
            }
            let tiles = compress_strip(rows, width, quality);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress.report(Stage::Tiles, n, strips as u64);
            Some(tiles)
        })
        .collect();
    progress.check()?;
    let mut seen: HashMap<&[u8], u32> = HashMap::with_capacity(strips * tiles_x);
    let mut tiles = Vec::new();
    let mut index = Vec::with_capacity(strips * tiles_x);
    for strip in compressed.iter().flatten() {
        for tile in strip.chunks_exact(SMT_TILE_BYTES) {
            let next = seen.len() as u32;
            let n = *seen.entry(tile).or_insert_with(|| {
                tiles.extend_from_slice(tile);
                next
            });
            index.push(n);
        }
    }
    Ok(TileSet { tiles, index })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::bc1::decode_bc1;

    #[test]
    fn tiles_hold_their_own_pixels_and_duplicates_collapse() {
        // 64x64: four tiles, the two left ones alike, the right ones distinct
        let mut tex = GroundTexture::filled(64, 64, [40, 80, 120, 255]);
        for y in 0..64 {
            for x in 32..64 {
                let v = ((x * 4 + y) % 256) as u8;
                tex.rgba_mut()[(y * 64 + x) * 4..][..3].copy_from_slice(&[v, 255 - v, y as u8]);
            }
        }
        let set = build_tiles(&tex, Bc1Quality::Fast, &Progress::none()).unwrap();
        assert_eq!(set.index.len(), 4);
        assert_eq!(set.index[0], set.index[2]);
        assert_eq!(set.distinct_count(), 3);
        // the top-right tile decodes to (nearly) the pixels it came from
        let t = set.index[1] as usize;
        let px = decode_bc1(&set.tiles[t * SMT_TILE_BYTES..][..512], 32, 32);
        let src = |x: usize, y: usize| tex.pixel(32 + x, y);
        let err: i32 = (0..32)
            .flat_map(|y| (0..32).map(move |x| (x, y)))
            .map(|(x, y)| (px[(y * 32 + x) * 4] as i32 - src(x, y)[0] as i32).abs())
            .max()
            .unwrap();
        assert!(err < 24, "max error {err}");
        // the smallest mip of the flat tile is the flat colour
        let flat = set.index[0] as usize;
        let mip3 = decode_bc1(&set.tiles[flat * SMT_TILE_BYTES + 672..][..8], 4, 4);
        assert!(
            mip3[..3]
                .iter()
                .zip([40u8, 80, 120])
                .all(|(a, b)| a.abs_diff(b) <= 4),
            "{:?}",
            &mip3[..4]
        );
    }
}
