//! The ground texture to SMT tiles: each 32x32 tile BC1-compressed with its 16, 8 and 4 texel
//! mips (in fast mode the full-resolution level is then refined), strips of 32 texture rows
//! compressed in parallel on all cores. The tiles go to one `.smt` file, in blocks of one map
//! unit of rows (`TILE_ROWS_PER_BLOCK`), exact duplicates dropped within each block in a stable
//! order, so a block's bytes depend on its own rows alone and an edit changes only the blocks it
//! touches (the `.sd7` packer packs and caches each block on its own).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::cache::CompileCache;
use super::cached::{NO_TILE, TileBlock, TileKey};
use super::progress::{Progress, Stage};
use crate::formats::FormatError;
use crate::formats::bc1::{BC1_BLOCK_BYTES, Bc1Quality, downsample_2x, encode_bc1, refine_bc1};
use crate::formats::smt::{SMT_TILE_BYTES, TILE_TEXELS, smt_header};
use crate::map::GroundTexture;

/// Rows of tiles per block of the `.smt` file: one map unit (512 texels), so a 16x16 map has
/// 16 blocks of 2.8 MB and a texture edit re-packs only the blocks under it.
pub const TILE_ROWS_PER_BLOCK: usize = 16;

/// Distinct tiles, block by block, and the index that places them.
pub struct TileSet {
    /// Each block's distinct tiles of [`SMT_TILE_BYTES`], in order; shared with the compile
    /// cache, which hands a block whose tiles are all unchanged to the next compile as it is.
    pub blocks: Vec<Arc<Vec<u8>>>,
    /// One entry per 32x32 texel cell, row-major: tile numbers counted across the blocks in
    /// order, as the `.smf` wants them.
    pub index: Vec<u32>,
    /// How many distinct tiles each block holds.
    pub block_tiles: Vec<u32>,
    /// A hash of the texture's size and every tile's key (so of its texels and the encoder):
    /// what the minimap is kept under. `None` without a cache, which alone hashes texels.
    pub texture_key: Option<TileKey>,
    /// Every tile's key, row-major (empty without a cache).
    pub(crate) tile_keys: Vec<TileKey>,
}

impl TileSet {
    pub fn distinct_count(&self) -> usize {
        self.block_tiles.iter().map(|&n| n as usize).sum()
    }

    /// The one `.smt` file, in parts: its header, then each block's tiles. Their concatenation
    /// is the file; the parts are shared, not copied.
    pub fn smt_parts(&self) -> Vec<Arc<Vec<u8>>> {
        let header = Arc::new(smt_header(self.distinct_count() as u32));
        std::iter::once(header)
            .chain(self.blocks.iter().cloned())
            .collect()
    }

    /// Tile `n`, counted across the blocks as the index counts; `None` past the last.
    pub fn tile(&self, n: usize) -> Option<&[u8]> {
        let mut first = 0;
        for (file, &count) in self.blocks.iter().zip(&self.block_tiles) {
            let count = count as usize;
            if n < first + count {
                return Some(&file[(n - first) * SMT_TILE_BYTES..][..SMT_TILE_BYTES]);
            }
            first += count;
        }
        None
    }
}

/// The block of `cells` (their tiles, [`SMT_TILE_BYTES`] each, row-major): exact duplicates
/// dropped in a stable order (the tiles' own bytes decide, hashed with xxh3: SipHash over
/// 45 MB costs more than the rest of a cached compile).
fn dedup_block(cells: &[u8]) -> TileBlock {
    let count = cells.len() / SMT_TILE_BYTES;
    let mut seen: HashMap<&[u8], u32, xxhash_rust::xxh3::Xxh3Builder> =
        HashMap::with_capacity_and_hasher(count, xxhash_rust::xxh3::Xxh3Builder::new());
    let mut tiles = Vec::with_capacity(cells.len());
    let mut local = Vec::with_capacity(count);
    for tile in cells.chunks_exact(SMT_TILE_BYTES) {
        let next = seen.len() as u32;
        let n = *seen.entry(tile).or_insert_with(|| {
            tiles.extend_from_slice(tile);
            next
        });
        local.push(n);
    }
    if tiles.capacity() > 2 * tiles.len() {
        tiles.shrink_to_fit();
    }
    TileBlock {
        tiles: Arc::new(tiles),
        local,
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

/// The tag a tile's key starts from: the encoder, its settings and what picks its code paths
/// (a tile encoded by another encoder, or on a CPU that takes other kernels, is another tile).
pub(crate) fn encoder_tag(quality: Bc1Quality) -> TileKey {
    let avx2 = cfg!(target_arch = "x86_64") && detect_avx2();
    let avx512 = cfg!(target_arch = "x86_64") && detect_avx512();
    let tag = format!(
        "groundwork smt tile v1; {quality:?}; ispc {}; refine {} above {}; avx2 {avx2}; avx512 {avx512}",
        cfg!(feature = "ispc"),
        quality == Bc1Quality::Fast,
        crate::formats::bc1::REFINE_MIN_MSE,
    );
    xxhash_rust::xxh3::xxh3_128(tag.as_bytes()).to_le_bytes()
}

fn detect_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx2");
    #[allow(unreachable_code)]
    false
}

fn detect_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx512f");
    #[allow(unreachable_code)]
    false
}

/// The key of every tile of one strip of 32 rows: the tile's texels hashed, seeded by the tag.
fn strip_keys(tag: &TileKey, rows: &[u8], width: usize) -> Vec<TileKey> {
    let row_bytes = TILE_TEXELS * 4;
    let seed = u64::from_le_bytes(tag[..8].try_into().expect("8 bytes"))
        ^ u64::from_le_bytes(tag[8..16].try_into().expect("8 bytes"));
    let mut texels = [0u8; TILE_TEXELS * TILE_TEXELS * 4];
    (0..width / TILE_TEXELS)
        .map(|tx| {
            for y in 0..TILE_TEXELS {
                texels[y * row_bytes..][..row_bytes]
                    .copy_from_slice(&rows[(y * width + tx * TILE_TEXELS) * 4..][..row_bytes]);
            }
            xxhash_rust::xxh3::xxh3_128_with_seed(&texels, seed).to_le_bytes()
        })
        .collect()
}

/// The key of a block of the `.smt`: its tiles' keys, in order, hashed.
fn block_key(tile_keys: &[TileKey]) -> TileKey {
    xxhash_rust::xxh3::xxh3_128(tile_keys.as_flattened()).to_le_bytes()
}

/// The key of tile `i` (row-major over the cells) of a texture `width` texels across.
fn tile_key(tag: &TileKey, rgba: &[u8], width: usize, i: usize) -> TileKey {
    let tiles_x = width / TILE_TEXELS;
    let (tx, ty) = (i % tiles_x, i / tiles_x);
    let strip = &rgba[ty * TILE_TEXELS * width * 4..][..TILE_TEXELS * width * 4];
    let row_bytes = TILE_TEXELS * 4;
    let mut narrow = vec![0u8; TILE_TEXELS * row_bytes];
    for y in 0..TILE_TEXELS {
        narrow[y * row_bytes..][..row_bytes]
            .copy_from_slice(&strip[(y * width + tx * TILE_TEXELS) * 4..][..row_bytes]);
    }
    strip_keys(tag, &narrow, TILE_TEXELS)[0]
}

/// Compresses the tiles `which` of a strip (tile columns), as one narrower strip of just
/// those tiles: each tile's blocks and mips depend on its own texels alone, so the bytes are
/// the ones a whole-strip encode gives.
fn compress_tiles_of_strip(
    rows: &[u8],
    width: usize,
    which: &[usize],
    quality: Bc1Quality,
) -> Vec<u8> {
    let row_bytes = TILE_TEXELS * 4;
    let narrow = which.len() * TILE_TEXELS;
    let mut picked = vec![0u8; narrow * TILE_TEXELS * 4];
    for y in 0..TILE_TEXELS {
        for (n, &tx) in which.iter().enumerate() {
            picked[(y * narrow + n * TILE_TEXELS) * 4..][..row_bytes]
                .copy_from_slice(&rows[(y * width + tx * TILE_TEXELS) * 4..][..row_bytes]);
        }
    }
    compress_strip(&picked, narrow, quality)
}

/// Every tile of the texture, compressed and deduplicated.
pub fn build_tiles(
    texture: &GroundTexture,
    quality: Bc1Quality,
    progress: &Progress,
) -> Result<TileSet, FormatError> {
    build_tiles_cached(texture, quality, progress, None)
}

/// [`build_tiles`], taking from `cache` the blocks whose tiles are all unchanged and
/// the tiles whose texels are unchanged, and keeping the new ones there. The bytes are the
/// same with or without it.
pub fn build_tiles_cached(
    texture: &GroundTexture,
    quality: Bc1Quality,
    progress: &Progress,
    cache: Option<&CompileCache>,
) -> Result<TileSet, FormatError> {
    build_tiles_known(
        &mut std::borrow::Cow::Borrowed(texture),
        quality,
        progress,
        cache,
        None,
    )
}

/// Puts the texels of the tiles marked `true` into the texture (baking the blocks they lie in).
pub(crate) type FillBlocks<'f> =
    dyn Fn(&mut GroundTexture, &[bool]) -> Result<(), FormatError> + Sync + 'f;

/// Tiles whose texels the texture does not hold, known by their keys (blocks the compile
/// cache did not bake again), and how to get their texels should the tile cache have lost
/// them.
pub(crate) struct KnownTiles<'a> {
    /// Per tile (row-major over the texture's cells): its key, when its texels are not there.
    pub(crate) keys: Vec<Option<TileKey>>,
    /// Puts the texels of the tiles marked into the texture.
    pub(crate) fill: &'a FillBlocks<'a>,
}

/// [`build_tiles_cached`] over a texture some of whose tiles are `known` by key alone.
pub(crate) fn build_tiles_known(
    texture: &mut std::borrow::Cow<'_, GroundTexture>,
    quality: Bc1Quality,
    progress: &Progress,
    cache: Option<&CompileCache>,
    known_tiles: Option<&KnownTiles>,
) -> Result<TileSet, FormatError> {
    let width = texture.width();
    let strips = texture.height() / TILE_TEXELS;
    let tiles_x = width / TILE_TEXELS;
    let strip_bytes = width * TILE_TEXELS * 4;
    let total = strips * tiles_x;
    let block_cells = tiles_x * TILE_ROWS_PER_BLOCK;
    let block_count = total.div_ceil(block_cells);
    // without a cache every tile is encoded; with one, only those it does not hold
    let tag = encoder_tag(quality);
    let (keys, mut all, found) = match cache {
        Some(c) => {
            let known = known_tiles.map(|k| &k.keys);
            let mut keys: Vec<TileKey> = texture
                .rgba()
                .par_chunks(strip_bytes)
                .enumerate()
                .flat_map_iter(|(s, rows)| {
                    let row = known.map(|k| &k[s * tiles_x..(s + 1) * tiles_x]);
                    match row {
                        // a strip whose tiles are all known is not hashed
                        Some(r) if r.iter().all(Option::is_some) => {
                            r.iter().flatten().copied().collect()
                        }
                        _ => {
                            let mut k = strip_keys(&tag, rows, width);
                            for (t, key) in k.iter_mut().enumerate() {
                                if let Some(Some(known)) = row.map(|r| r[t]) {
                                    *key = known;
                                }
                            }
                            k
                        }
                    }
                })
                .collect();
            progress.check()?;
            let (all, found) = c.lookup(&tag, &keys);
            if let Some(k) = known_tiles {
                // tiles known by key that the tile cache lost: their texels are made after all
                // (the .smt blocks kept whole need none)
                let held =
                    c.has_tile_blocks(&keys.chunks(block_cells).map(block_key).collect::<Vec<_>>());
                let lost: Vec<bool> = (0..total)
                    .map(|i| k.keys[i].is_some() && !found[i] && !held[i / block_cells])
                    .collect();
                if lost.contains(&true) {
                    (k.fill)(texture.to_mut(), &lost)?;
                    progress.check()?;
                    let rgba = texture.rgba();
                    let fresh: Vec<(usize, TileKey)> = (0..total)
                        .into_par_iter()
                        .filter(|&i| lost[i])
                        .map(|i| (i, tile_key(&tag, rgba, width, i)))
                        .collect();
                    for (i, key) in fresh {
                        keys[i] = key;
                    }
                }
            }
            (keys, all, found)
        }
        None => (
            Vec::new(),
            vec![0u8; total * SMT_TILE_BYTES],
            vec![false; total],
        ),
    };
    // each block's key: its tiles' keys, in order
    let block_keys: Vec<TileKey> = keys.chunks(block_cells).map(block_key).collect();
    let known: Vec<Option<Arc<TileBlock>>> = match cache {
        Some(c) => c.tile_blocks(&block_keys),
        None => vec![None; block_count],
    };
    // the strips of a block the cache holds whole need no tiles
    let strip_needed = |s: usize| known[s / TILE_ROWS_PER_BLOCK].is_none();
    let to_encode = (0..total)
        .filter(|&i| !found[i] && strip_needed(i / tiles_x))
        .count()
        .max(1) as u64;
    let done = AtomicU64::new(0);
    let encoded_strips: Vec<bool> = texture
        .rgba()
        .par_chunks(strip_bytes)
        .zip(all.par_chunks_mut(tiles_x * SMT_TILE_BYTES))
        .zip(found.par_chunks(tiles_x))
        .enumerate()
        .map(|(s, ((rows, out), found))| {
            if progress.is_cancelled() || !strip_needed(s) {
                return false;
            }
            let which: Vec<usize> = (0..tiles_x).filter(|&t| !found[t]).collect();
            if which.len() == tiles_x {
                out.copy_from_slice(&compress_strip(rows, width, quality));
            } else if !which.is_empty() {
                let tiles = compress_tiles_of_strip(rows, width, &which, quality);
                for (n, &t) in which.iter().enumerate() {
                    out[t * SMT_TILE_BYTES..][..SMT_TILE_BYTES]
                        .copy_from_slice(&tiles[n * SMT_TILE_BYTES..][..SMT_TILE_BYTES]);
                }
            }
            let n = done.fetch_add(which.len() as u64, Ordering::Relaxed) + which.len() as u64;
            progress.report(Stage::Tiles, n, to_encode);
            true
        })
        .collect();
    // which tiles `all` now holds: found, or in a strip encoded whole
    let held = |i: usize| found[i] || encoded_strips[i / tiles_x];
    let keep_tiles = |all: Vec<u8>| {
        if let Some(c) = cache {
            let kept = (0..total)
                .map(|i| if held(i) { keys[i] } else { NO_TILE })
                .collect();
            let encoded: Vec<bool> = (0..total)
                .map(|i| !found[i] && encoded_strips[i / tiles_x])
                .collect();
            c.store(&tag, kept, all, &encoded);
        }
    };
    if progress.is_cancelled() {
        // what was finished stays in the cache's memory for the next compile
        keep_tiles(all);
        return Err(FormatError::Cancelled);
    }
    // the blocks the cache did not hold, in parallel
    let made: Vec<Option<TileBlock>> = all
        .par_chunks(block_cells * SMT_TILE_BYTES)
        .zip(known.par_iter())
        .map(|(cells, known)| known.is_none().then(|| dedup_block(cells)))
        .collect();
    keep_tiles(all);
    let made_blocks: Vec<Arc<TileBlock>> = known
        .into_iter()
        .zip(made)
        .map(|(k, m)| k.unwrap_or_else(|| Arc::new(m.expect("made where not known"))))
        .collect();
    if let Some(c) = cache {
        c.keep_tile_blocks(
            block_keys
                .into_iter()
                .zip(made_blocks.iter().cloned())
                .collect(),
        );
    }
    let texture_key = cache.map(|_| {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&(width as u64).to_le_bytes());
        h.update(&(texture.height() as u64).to_le_bytes());
        h.update(keys.as_flattened());
        h.digest128().to_le_bytes()
    });
    let mut index = Vec::with_capacity(total);
    let mut block_tiles = Vec::with_capacity(made_blocks.len());
    let mut blocks = Vec::with_capacity(made_blocks.len());
    let mut first = 0;
    for b in made_blocks {
        let count = (b.tiles.len() / SMT_TILE_BYTES) as u32;
        index.extend(b.local.iter().map(|n| first + n));
        block_tiles.push(count);
        blocks.push(b.tiles.clone());
        first += count;
    }
    Ok(TileSet {
        blocks,
        index,
        block_tiles,
        texture_key,
        tile_keys: keys,
    })
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
        let px = decode_bc1(&set.tile(t).unwrap()[..512], 32, 32);
        let src = |x: usize, y: usize| tex.pixel(32 + x, y);
        let err: i32 = (0..32)
            .flat_map(|y| (0..32).map(move |x| (x, y)))
            .map(|(x, y)| (px[(y * 32 + x) * 4] as i32 - src(x, y)[0] as i32).abs())
            .max()
            .unwrap();
        assert!(err < 24, "max error {err}");
        // the smallest mip of the flat tile is the flat colour
        let flat = set.index[0] as usize;
        let mip3 = decode_bc1(&set.tile(flat).unwrap()[672..], 4, 4);
        assert!(
            mip3[..3]
                .iter()
                .zip([40u8, 80, 120])
                .all(|(a, b)| a.abs_diff(b) <= 4),
            "{:?}",
            &mip3[..4]
        );
    }

    #[test]
    fn a_cancelled_compile_leaves_its_finished_tiles_and_the_next_gives_the_same_bytes() {
        use std::sync::atomic::AtomicBool;
        // 4 strips of 2 distinct tiles each
        let mut tex = GroundTexture::filled(64, 128, [0, 0, 0, 255]);
        for (i, px) in tex.rgba_mut().chunks_exact_mut(4).enumerate() {
            px[..3].copy_from_slice(&[(i % 251) as u8, (i / 64 % 256) as u8, (i * 7 % 253) as u8]);
        }
        let cold = build_tiles(&tex, Bc1Quality::Fast, &Progress::none()).unwrap();
        let cache = CompileCache::memory_only();
        // cancelled as soon as the first strip reports
        let cancel = AtomicBool::new(false);
        let report = |stage: Stage, done: u64, _| {
            if stage == Stage::Tiles && done > 0 {
                cancel.store(true, Ordering::Relaxed);
            }
        };
        let progress = Progress::new(&report, &cancel);
        let cancelled = build_tiles_cached(&tex, Bc1Quality::Fast, &progress, Some(&cache));
        assert!(matches!(cancelled, Err(FormatError::Cancelled)));
        let finished = cache.stats().tiles_encoded;
        assert!((2..8).contains(&finished), "{finished} tiles finished");
        cache.reset_stats();
        let again =
            build_tiles_cached(&tex, Bc1Quality::Fast, &Progress::none(), Some(&cache)).unwrap();
        assert_eq!(cache.stats().tiles_from_memory, finished);
        assert_eq!(cache.stats().tiles_encoded, 8 - finished);
        assert_eq!(again.blocks, cold.blocks);
        assert_eq!(again.index, cold.index);
    }

    #[test]
    fn a_block_whose_tiles_are_unchanged_is_taken_whole_and_a_changed_one_is_made_again() {
        // 64 wide, 40 tile rows: three blocks (16, 16 and 8 rows)
        let mut tex = GroundTexture::filled(64, 40 * TILE_TEXELS, [0, 0, 0, 255]);
        for (i, px) in tex.rgba_mut().chunks_exact_mut(4).enumerate() {
            px[..3].copy_from_slice(&[(i % 13 * 19) as u8, (i / 64 % 7 * 31) as u8, 90]);
        }
        let cache = CompileCache::memory_only();
        let first =
            build_tiles_cached(&tex, Bc1Quality::Fast, &Progress::none(), Some(&cache)).unwrap();
        assert_eq!(first.blocks.len(), 3);
        // one texel of the second block changes
        tex.rgba_mut()[(20 * TILE_TEXELS * 64 + 5) * 4] ^= 0x80;
        cache.reset_stats();
        let again =
            build_tiles_cached(&tex, Bc1Quality::Fast, &Progress::none(), Some(&cache)).unwrap();
        let s = cache.stats();
        assert_eq!(s.tile_blocks_reused, 2);
        assert_eq!(s.tiles_encoded, 1, "the changed tile alone is encoded");
        assert!(Arc::ptr_eq(&first.blocks[0], &again.blocks[0]));
        assert!(!Arc::ptr_eq(&first.blocks[1], &again.blocks[1]));
        assert!(Arc::ptr_eq(&first.blocks[2], &again.blocks[2]));
        assert_ne!(first.blocks[1], again.blocks[1]);
        let cold = build_tiles(&tex, Bc1Quality::Fast, &Progress::none()).unwrap();
        assert_eq!(again.blocks, cold.blocks);
        assert_eq!(again.index, cold.index);
        assert_eq!(again.block_tiles, cold.block_tiles);
        assert_ne!(first.texture_key, again.texture_key);
    }

    #[test]
    fn each_block_holds_its_own_rows_and_a_change_touches_only_its_block() {
        // 64 wide, 20 tile rows: a block of 16 rows and one of 4, each of one flat colour
        // but for one painted tile in the second
        let rows = 20 * TILE_TEXELS;
        let mut tex = GroundTexture::filled(64, rows, [90, 60, 30, 255]);
        let paint = |tex: &mut GroundTexture, ty: usize, v: u8| {
            for y in ty * TILE_TEXELS..(ty + 1) * TILE_TEXELS {
                for x in 0..TILE_TEXELS {
                    tex.rgba_mut()[(y * 64 + x) * 4..][..3].copy_from_slice(&[v, v, v]);
                }
            }
        };
        paint(&mut tex, 17, 200);
        let set = build_tiles(&tex, Bc1Quality::Fast, &Progress::none()).unwrap();
        // the flat tile once in each block (no sharing across blocks), the painted one once
        assert_eq!(set.block_tiles, vec![1, 2]);
        assert_eq!(set.index.len(), 40);
        assert!(set.index[..32].iter().all(|&n| n == 0));
        assert_eq!(set.index[32], 1);
        assert_eq!(set.index[34], 2);
        assert_eq!(set.blocks[0][..], set.blocks[1][..SMT_TILE_BYTES]);
        // the one file: the header counts every block's tiles, and the blocks follow it
        let parts = set.smt_parts();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0][..], smt_header(3)[..]);
        assert!(Arc::ptr_eq(&parts[2], &set.blocks[1]));
        // painting in the second block leaves the first block's bytes as they were
        paint(&mut tex, 18, 10);
        let again = build_tiles(&tex, Bc1Quality::Fast, &Progress::none()).unwrap();
        assert_eq!(again.block_tiles, vec![1, 3]);
        assert_eq!(again.blocks[0], set.blocks[0]);
    }
}
