//! The bake through the compile cache: the texture is baked in blocks of 256x256 texels
//! (`map::ground_bake`), each kept under a key of everything its texels come from. A block
//! whose key the cache holds is not baked: its tiles are known by their keys (the tile cache
//! holds their BC1) and its share of the minimap by its sums, so a compile after a stroke
//! bakes only the blocks under it and around it, and one with nothing changed bakes nothing.
//! Should the tile cache have lost a block's tiles, the block is baked after all. The bytes
//! are those of a compile without the cache.
//!
//! On disk (`bakes/*.gwb`): `GWBAKES1`, the entry count (u64), then per entry its key (16
//! bytes), its length (u32), the entry, and `xxh3_64` of key and entry. An entry: its tile
//! count and sum count (u32 each), the tiles' keys, then the sums (4 u32 each).

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use super::cached::{KEY_BYTES, TileKey, hex};
use crate::formats::smt::TILE_TEXELS;
use crate::map::GroundTexture;
use crate::map::ground_bake::{BAKE_BLOCK_TEXELS, block_grid};
use crate::map::texture::box_range;

const MAGIC: &[u8; 8] = b"GWBAKES1";
/// A bake segment larger than this is no segment of ours.
const MAX_SEGMENT_BYTES: u64 = 1 << 30;

/// What the cache keeps of one baked block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BakeEntry {
    /// The keys of the block's tiles, row-major within the block.
    pub(crate) tile_keys: Vec<TileKey>,
    /// For each minimap pixel the block overlaps (row-major, as [`block_minimap_sums`] walks
    /// them), the sums of the block's texels in it, RGBA.
    pub(crate) minimap_sums: Vec<[u32; 4]>,
}

impl BakeEntry {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.tile_keys.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.minimap_sums.len() as u32).to_le_bytes());
        out.extend_from_slice(self.tile_keys.as_flattened());
        for s in &self.minimap_sums {
            for v in s {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }

    fn decode(bytes: &[u8]) -> Option<BakeEntry> {
        let u32_at = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
        };
        let tiles = u32_at(0)? as usize;
        let sums = u32_at(4)? as usize;
        let keys_end = 8usize.checked_add(tiles.checked_mul(KEY_BYTES)?)?;
        let end = keys_end.checked_add(sums.checked_mul(16)?)?;
        if end != bytes.len() {
            return None;
        }
        let tile_keys = bytes[8..keys_end]
            .chunks_exact(KEY_BYTES)
            .map(|k| k.try_into().expect("a key's bytes"))
            .collect();
        let minimap_sums = bytes[keys_end..]
            .chunks_exact(16)
            .map(|c| {
                [0, 1, 2, 3].map(|i| u32::from_le_bytes(c[i * 4..i * 4 + 4].try_into().unwrap()))
            })
            .collect();
        Some(BakeEntry {
            tile_keys,
            minimap_sums,
        })
    }
}

fn entry_check(key: &TileKey, entry: &[u8]) -> [u8; 8] {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(key);
    h.update(entry);
    h.digest().to_le_bytes()
}

/// What a bake segment gave.
pub(crate) struct SegmentRead {
    pub(crate) entries: Vec<(TileKey, BakeEntry)>,
    /// Entries that failed their check.
    pub(crate) rejected: usize,
}

/// The entries of the segment at `path` whose keys `wanted` asks for, each checked. A file
/// that is not a segment gives an error; an entry that fails its check is left out.
pub(crate) fn read_bake_segment(
    path: &Path,
    wanted: &mut dyn FnMut(&TileKey) -> bool,
) -> std::io::Result<SegmentRead> {
    let bad = || std::io::Error::other("not a bake segment");
    let len = std::fs::metadata(path)?.len();
    if len > MAX_SEGMENT_BYTES {
        return Err(bad());
    }
    let bytes = std::fs::read(path)?;
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(bad());
    }
    let count = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    // the entries' places first (each within the file, so the count cannot run away), then
    // the wanted ones checked and decoded on every core
    let mut at = 16usize;
    let mut places = Vec::new();
    for _ in 0..count {
        let head = bytes.get(at..at + KEY_BYTES + 4).ok_or_else(bad)?;
        let key: TileKey = head[..KEY_BYTES].try_into().expect("a key's bytes");
        let n = u32::from_le_bytes(head[KEY_BYTES..].try_into().expect("4 bytes")) as usize;
        let body_at = at + KEY_BYTES + 4;
        let body = bytes.get(body_at..body_at + n).ok_or_else(bad)?;
        let check = bytes.get(body_at + n..body_at + n + 8).ok_or_else(bad)?;
        at = body_at + n + 8;
        if wanted(&key) {
            places.push((key, body, check));
        }
    }
    let decoded: Vec<(TileKey, Option<BakeEntry>)> = places
        .into_par_iter()
        .map(|(key, body, check)| {
            let entry = (entry_check(&key, body) == check)
                .then(|| BakeEntry::decode(body))
                .flatten();
            (key, entry)
        })
        .collect();
    let mut read = SegmentRead {
        entries: Vec::with_capacity(decoded.len()),
        rejected: 0,
    };
    for (key, entry) in decoded {
        match entry {
            Some(e) => read.entries.push((key, e)),
            None => read.rejected += 1,
        }
    }
    Ok(read)
}

/// Writes `entries` as one new segment in `dir` (whole or not at all).
pub(crate) fn write_bake_segment(
    dir: &Path,
    entries: &[(TileKey, &BakeEntry)],
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut bytes = Vec::new();
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    let mut body = Vec::new();
    for (key, e) in entries {
        body.clear();
        e.encode(&mut body);
        bytes.extend_from_slice(key);
        bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes.extend_from_slice(&entry_check(key, &body));
    }
    let name = hex(&blake3::hash(&bytes).as_bytes()[..16]);
    let path = dir.join(format!("{name}.gwb"));
    let tmp = dir.join(format!("{name}.gwb.partial-{}", std::process::id()));
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&bytes)?;
    drop(f);
    std::fs::rename(&tmp, &path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// The texel rectangle of block `b` of a `width` x `height` texture: x0, y0, x1, y1.
pub(crate) fn block_rect(b: usize, width: usize, height: usize) -> (usize, usize, usize, usize) {
    let bx = block_grid(width, height).0;
    let (x0, y0) = ((b % bx) * BAKE_BLOCK_TEXELS, (b / bx) * BAKE_BLOCK_TEXELS);
    (
        x0,
        y0,
        (x0 + BAKE_BLOCK_TEXELS).min(width),
        (y0 + BAKE_BLOCK_TEXELS).min(height),
    )
}

/// The tiles of block `b`, row-major within it: their numbers in the texture's row-major
/// order of 32x32 cells.
pub(crate) fn block_tiles(b: usize, width: usize, height: usize) -> Vec<usize> {
    let (x0, y0, x1, y1) = block_rect(b, width, height);
    let tiles_x = width / TILE_TEXELS;
    (y0 / TILE_TEXELS..y1.div_ceil(TILE_TEXELS))
        .flat_map(|ty| {
            (x0 / TILE_TEXELS..x1.div_ceil(TILE_TEXELS)).map(move |tx| ty * tiles_x + tx)
        })
        .collect()
}

/// The minimap pixels (of `side`) along one axis whose box overlaps texels `lo..hi` of `n`:
/// each pixel and the overlap.
fn overlapping(lo: usize, hi: usize, n: usize, side: usize) -> Vec<(usize, usize, usize)> {
    // the first pixel that can reach `lo`, then on while the boxes start before `hi`
    let first = (lo * side / n).saturating_sub(1);
    (first..side)
        .map(|o| (o, box_range(o, n, side)))
        .skip_while(|&(_, (_, end))| end <= lo)
        .take_while(|&(_, (start, _))| start < hi)
        .filter_map(|(o, (start, end))| {
            let (a, b) = (start.max(lo), end.min(hi));
            (a < b).then_some((o, a, b))
        })
        .collect()
}

/// How many minimap pixels (of `side`) block `b` overlaps: its entry's sums.
pub(crate) fn block_minimap_count(b: usize, width: usize, height: usize, side: usize) -> usize {
    let (x0, y0, x1, y1) = block_rect(b, width, height);
    overlapping(x0, x1, width, side).len() * overlapping(y0, y1, height, side).len()
}

/// The sums of block `b`'s texels (from `rgba`, the texture) in each minimap pixel it
/// overlaps, row-major.
pub(crate) fn block_minimap_sums(
    rgba: &[u8],
    width: usize,
    height: usize,
    b: usize,
    side: usize,
) -> Vec<[u32; 4]> {
    let (x0, y0, x1, y1) = block_rect(b, width, height);
    let xs = overlapping(x0, x1, width, side);
    let ys = overlapping(y0, y1, height, side);
    let mut out = Vec::with_capacity(xs.len() * ys.len());
    for &(_, ya, yb) in &ys {
        for &(_, xa, xb) in &xs {
            let mut sum = [0u32; 4];
            for y in ya..yb {
                for p in rgba[(y * width + xa) * 4..(y * width + xb) * 4].chunks_exact(4) {
                    for c in 0..4 {
                        sum[c] += p[c] as u32;
                    }
                }
            }
            out.push(sum);
        }
    }
    out
}

/// The minimap's largest level (`side` a side, RGBA) from every block's sums: the same
/// pixels [`GroundTexture::box_filtered_square`] gives the whole texture. `None` when an
/// entry's sums do not fit its block.
pub(crate) fn minimap_from_sums(
    sums: &[&[[u32; 4]]],
    width: usize,
    height: usize,
    side: usize,
) -> Option<Vec<u8>> {
    let mut total = vec![[0u32; 4]; side * side];
    for (b, s) in sums.iter().enumerate() {
        let (x0, y0, x1, y1) = block_rect(b, width, height);
        let xs = overlapping(x0, x1, width, side);
        let ys = overlapping(y0, y1, height, side);
        if s.len() != xs.len() * ys.len() {
            return None;
        }
        let mut it = s.iter();
        for &(oy, _, _) in &ys {
            for &(ox, _, _) in &xs {
                let v = it.next().expect("counted");
                let t = &mut total[oy * side + ox];
                for c in 0..4 {
                    t[c] += v[c];
                }
            }
        }
    }
    let mut out = vec![0u8; side * side * 4];
    for oy in 0..side {
        let (ya, yb) = box_range(oy, height, side);
        for ox in 0..side {
            let (xa, xb) = box_range(ox, width, side);
            let n = ((yb - ya) * (xb - xa)) as u32;
            let t = &total[oy * side + ox];
            for c in 0..4 {
                out[(oy * side + ox) * 4 + c] = ((t[c] + n / 2) / n) as u8;
            }
        }
    }
    Some(out)
}

/// Blocks of `texture` copied from `from` where `which` says (the GPU bakes the whole
/// texture; the blocks wanted are taken from it).
pub(crate) fn copy_blocks(texture: &mut GroundTexture, from: &GroundTexture, which: &[bool]) {
    let (w, h) = (texture.width(), texture.height());
    let src = from.rgba();
    let dst = texture.rgba_mut();
    for (b, _) in which.iter().enumerate().filter(|(_, w)| **w) {
        let (x0, y0, x1, y1) = block_rect(b, w, h);
        for y in y0..y1 {
            let r = (y * w + x0) * 4..(y * w + x1) * 4;
            dst[r.clone()].copy_from_slice(&src[r]);
        }
    }
}

/// The entries of this compile's blocks, each marked fresh where baked.
pub(crate) fn entries_after(
    texture: &GroundTexture,
    tile_keys: &[TileKey],
    keys: &[TileKey],
    known: Vec<Option<Arc<BakeEntry>>>,
    baked: &[bool],
    side: usize,
) -> Vec<(TileKey, Arc<BakeEntry>, bool)> {
    let (w, h) = (texture.width(), texture.height());
    known
        .into_par_iter()
        .enumerate()
        .map(|(b, k)| match k {
            Some(e) if !baked[b] => (keys[b], e, false),
            _ => {
                let entry = BakeEntry {
                    tile_keys: block_tiles(b, w, h).iter().map(|&t| tile_keys[t]).collect(),
                    minimap_sums: block_minimap_sums(texture.rgba(), w, h, b, side),
                };
                (keys[b], Arc::new(entry), true)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_minimap_from_block_sums_is_the_box_filter_of_the_whole() {
        // sizes whose boxes do and do not line up with the blocks, larger and smaller than
        // the minimap
        for (w, h, side) in [
            (1024, 512, 1024),
            (768, 1280, 200),
            (512, 256, 1024),
            (1536, 1536, 1024),
        ] {
            let rgba: Vec<u8> = (0..w * h * 4)
                .map(|i| ((i * 2_654_435_761usize) >> 13) as u8)
                .collect();
            let tex = GroundTexture::from_rgba(w, h, rgba).unwrap();
            let (bx, by) = block_grid(w, h);
            let sums: Vec<Vec<[u32; 4]>> = (0..bx * by)
                .map(|b| block_minimap_sums(tex.rgba(), w, h, b, side))
                .collect();
            let refs: Vec<&[[u32; 4]]> = sums.iter().map(|s| s.as_slice()).collect();
            let got = minimap_from_sums(&refs, w, h, side).unwrap();
            assert!(got == tex.box_filtered_square(side), "{w}x{h} to {side}");
            // a block's sums that do not fit it are refused
            let mut short = refs.clone();
            short[0] = &sums[0][1..];
            assert!(minimap_from_sums(&short, w, h, side).is_none());
        }
    }

    #[test]
    fn entries_survive_the_disk_and_a_damaged_one_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let a = BakeEntry {
            tile_keys: vec![[7; 16], [9; 16]],
            minimap_sums: vec![[1, 2, 3, 4], [5, 6, 7, 8]],
        };
        let b = BakeEntry {
            tile_keys: vec![[1; 16]],
            minimap_sums: vec![],
        };
        write_bake_segment(dir.path(), &[([1; 16], &a), ([2; 16], &b)]).unwrap();
        let path = std::fs::read_dir(dir.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let read = read_bake_segment(&path, &mut |_| true).unwrap();
        assert_eq!(read.entries, vec![([1; 16], a.clone()), ([2; 16], b)]);
        let only_a = read_bake_segment(&path, &mut |k| *k == [1; 16]).unwrap();
        assert_eq!(only_a.entries.len(), 1);
        // a flipped byte in the first entry's sums: that entry is refused, the other kept
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[16 + 16 + 4 + 8 + 2 * 16 + 3] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let read = read_bake_segment(&path, &mut |_| true).unwrap();
        assert_eq!((read.entries.len(), read.rejected), (1, 1));
        // a cut file is no segment
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(read_bake_segment(&path, &mut |_| true).is_err());
        std::fs::write(&path, b"GWBAKES1\xff\xff\xff\xff\xff\xff\xff\xff").unwrap();
        assert!(read_bake_segment(&path, &mut |_| true).is_err());
    }
}
