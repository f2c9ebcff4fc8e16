//! The compile cache: each 32x32 tile's BC1 (with its mips) kept under a hash of its source
//! texels and the encoder that made it (xxh3-128: fast enough that hashing the whole texture
//! costs little beside decoding it), and each part of a large `.sd7` entry packed (LZMA2 chunks) under a hash of
//! its bytes and the packer's settings, in memory for this process and on disk in the user's
//! cache folder under a size cap (least recently used first out). A compile after a small edit
//! only encodes and packs what changed. Nothing read from disk is trusted: an entry whose
//! checksum, header or encoder tag does not match is ignored and the work done again, so a
//! compile through the cache gives the same bytes as one without it.

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::bake_cache::{BakeEntry, read_bake_segment, write_bake_segment};
pub use super::cached::{KEY_BYTES, TileKey};
use super::cached::{NO_TILE, TileBlock, hex};
use crate::formats::smt::SMT_TILE_BYTES;

/// A packed part's key: the part's bytes and the packer's settings (blake3).
pub use crate::formats::archive::PackKey;
use crate::formats::archive::PackStore;

/// The disk cache's default size: a few 16x16 maps' tiles and packs.
pub const DEFAULT_CAP_BYTES: u64 = 2 << 30;
/// Tile segments start with this, then the encoder tag's hash.
const SEGMENT_MAGIC: &[u8; 8] = b"GWTILES2";
const SEGMENT_HEADER_BYTES: usize = 8 + KEY_BYTES + 8;
/// Each entry: the tile, then `xxh3_64(key, tile)`.
const ENTRY_CHECK_BYTES: usize = 8;
const ENTRY_BYTES: usize = SMT_TILE_BYTES + ENTRY_CHECK_BYTES;
const TILES_DIR: &str = "tiles";
const PACKS_DIR: &str = "packs";
const BAKES_DIR: &str = "bakes";
/// The cache folder of this user: `$GROUNDWORK_CACHE_DIR` when set (tests, scripts).
pub const CACHE_DIR_ENV: &str = "GROUNDWORK_CACHE_DIR";

/// The tiles of the last compile in this process and, with a folder, the disk cache.
pub struct CompileCache {
    dir: Option<PathBuf>,
    cap_bytes: u64,
    /// The last compile's tiles (an editor re-exporting after a stroke finds them here).
    memory: Mutex<Option<MemoryTiles>>,
    /// Whether `memory` is kept (a one-shot compile, as the command line's, has no use for it).
    keep_in_memory: bool,
    /// The last compile's `.smt` blocks by the key of their tiles' keys.
    tile_blocks: Mutex<HashMap<TileKey, Arc<TileBlock>>>,
    /// The last compile's minimap, under its texture's key.
    minimap: Mutex<Option<(TileKey, Arc<Vec<u8>>)>>,
    /// The last compile's packed parts by key (LZMA2 chunks).
    packs: Mutex<HashMap<PackKey, std::sync::Arc<Vec<u8>>>>,
    /// The last compile's baked blocks by the key of their inputs.
    bakes: Mutex<HashMap<TileKey, Arc<BakeEntry>>>,
    /// What the cache did in the last compile.
    stats: Mutex<CacheStats>,
}

impl std::fmt::Debug for CompileCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompileCache")
            .field("dir", &self.dir)
            .field("cap_bytes", &self.cap_bytes)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

/// The last compile's tiles, in the order of its texture: the buffer is handed to the next
/// compile, which finds the tiles still in their places already written.
struct MemoryTiles {
    tag: TileKey,
    /// One per tile; the zero key where the tile was never finished (a cancelled compile).
    keys: Vec<TileKey>,
    /// [`SMT_TILE_BYTES`] per key.
    tiles: Vec<u8>,
}

/// What the cache did in one compile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub tiles_from_memory: usize,
    pub tiles_from_disk: usize,
    pub tiles_encoded: usize,
    /// Blocks of the `.smt` whose tiles were all unchanged, taken whole from memory.
    pub tile_blocks_reused: usize,
    /// Whether the minimap was taken from memory (the texture unchanged).
    pub minimap_reused: bool,
    /// Disk entries that failed their check or belonged to another encoder, ignored.
    pub entries_rejected: usize,
    /// Parts of large `.sd7` entries taken packed from the cache, and packed anew.
    pub packs_reused: usize,
    pub packs_made: usize,
    /// Blocks of the baked texture whose inputs were unchanged (their tiles known by key), and
    /// blocks baked.
    pub bake_blocks_reused: usize,
    pub bake_blocks_baked: usize,
}

/// This user's cache folder: `$GROUNDWORK_CACHE_DIR`, else the platform's (`$XDG_CACHE_HOME`
/// or `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows) with
/// `groundwork` under it.
pub fn default_cache_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var(CACHE_DIR_ENV) {
        return Some(d);
    }
    let base = if cfg!(windows) {
        var("LOCALAPPDATA")
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| h.join("Library").join("Caches"))
    } else {
        var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|h| h.join(".cache")))
    }?;
    Some(base.join("groundwork"))
}

impl CompileCache {
    /// A cache in memory only.
    pub fn memory_only() -> CompileCache {
        CompileCache {
            dir: None,
            cap_bytes: 0,
            memory: Mutex::new(None),
            tile_blocks: Mutex::new(HashMap::new()),
            minimap: Mutex::new(None),
            keep_in_memory: true,
            packs: Mutex::new(HashMap::new()),
            bakes: Mutex::new(HashMap::new()),
            stats: Mutex::new(CacheStats::default()),
        }
    }

    /// A cache in memory and in the folder `dir`, kept under `cap_bytes` there.
    pub fn on_disk(dir: PathBuf, cap_bytes: u64) -> CompileCache {
        CompileCache {
            dir: Some(dir),
            cap_bytes,
            ..CompileCache::memory_only()
        }
    }

    /// The user's cache ([`default_cache_dir`]), or memory only when there is no home.
    pub fn for_user() -> CompileCache {
        match default_cache_dir() {
            Some(d) => CompileCache::on_disk(d, DEFAULT_CAP_BYTES),
            None => CompileCache::memory_only(),
        }
    }

    /// The same cache without its memory of the last compile's tiles: for one compile and exit.
    pub fn without_memory(mut self) -> CompileCache {
        self.keep_in_memory = false;
        self
    }

    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// What the cache did in the last compile.
    pub fn stats(&self) -> CacheStats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn reset_stats(&self) {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner()) = CacheStats::default();
    }

    fn add_stats(&self, f: impl FnOnce(&mut CacheStats)) {
        f(&mut self.stats.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Finds the tiles of `keys`: returns [`SMT_TILE_BYTES`] per key and which were found.
    /// Memory first (the last compile's buffer is taken over, so a tile in the same place
    /// costs nothing), then the disk's segments, newest first.
    pub(crate) fn lookup(&self, tag: &TileKey, keys: &[TileKey]) -> (Vec<u8>, Vec<bool>) {
        use std::collections::hash_map::Entry;
        let total = keys.len();
        let mut found = vec![false; total];
        let last = self
            .memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .filter(|m| m.tag == *tag);
        let mut out = match last {
            Some(last) => {
                let in_place = last.keys.len() == total;
                let mut elsewhere = Vec::new();
                for (i, k) in keys.iter().enumerate() {
                    if in_place && last.keys[i] == *k && *k != NO_TILE {
                        found[i] = true;
                    } else {
                        elsewhere.push(i);
                    }
                }
                // tiles that moved: gathered from the old buffer before it is written over
                let mut moved: Vec<(usize, usize)> = Vec::new();
                if !elsewhere.is_empty() {
                    let mut first: HashMap<TileKey, usize, xxhash_rust::xxh3::Xxh3Builder> =
                        HashMap::with_capacity_and_hasher(
                            last.keys.len(),
                            xxhash_rust::xxh3::Xxh3Builder::new(),
                        );
                    for (j, k) in last.keys.iter().enumerate() {
                        if *k != NO_TILE {
                            first.entry(*k).or_insert(j);
                        }
                    }
                    moved = elsewhere
                        .iter()
                        .filter_map(|&i| first.get(&keys[i]).map(|&j| (i, j)))
                        .collect();
                }
                let gathered: Vec<u8> = moved
                    .iter()
                    .flat_map(|&(_, j)| &last.tiles[j * SMT_TILE_BYTES..][..SMT_TILE_BYTES])
                    .copied()
                    .collect();
                let mut out = if in_place {
                    last.tiles
                } else {
                    vec![0u8; total * SMT_TILE_BYTES]
                };
                for (n, &(i, _)) in moved.iter().enumerate() {
                    out[i * SMT_TILE_BYTES..][..SMT_TILE_BYTES]
                        .copy_from_slice(&gathered[n * SMT_TILE_BYTES..][..SMT_TILE_BYTES]);
                    found[i] = true;
                }
                out
            }
            None => vec![0u8; total * SMT_TILE_BYTES],
        };
        let from_memory = found.iter().filter(|&&f| f).count();
        let mut from_disk = 0;
        let mut rejected = 0;
        if let Some(dir) = &self.dir
            && from_memory < total
        {
            // each missing key by its first place; later places of the same key are copied after
            let mut missing: Missing = HashMap::with_capacity_and_hasher(
                total - from_memory,
                xxhash_rust::xxh3::Xxh3Builder::new(),
            );
            let mut repeats: Vec<(usize, usize)> = Vec::new();
            for (i, k) in keys.iter().enumerate().filter(|&(i, _)| !found[i]) {
                match missing.entry(*k) {
                    Entry::Occupied(first) => repeats.push((i, *first.get())),
                    Entry::Vacant(v) => {
                        v.insert(i);
                    }
                }
            }
            for segment in files_newest_first(&dir.join(TILES_DIR), "gwt") {
                if missing.is_empty() {
                    break;
                }
                let Ok(hits) = read_segment(&segment, tag, &mut missing, &mut out, &mut found)
                else {
                    continue;
                };
                from_disk += hits.found;
                rejected += hits.rejected;
                if hits.found > 0 {
                    touch(&segment);
                }
            }
            for (i, first) in repeats {
                if found[first] {
                    out.copy_within(
                        first * SMT_TILE_BYTES..(first + 1) * SMT_TILE_BYTES,
                        i * SMT_TILE_BYTES,
                    );
                    found[i] = true;
                    from_disk += 1;
                }
            }
        }
        self.add_stats(|s| {
            s.tiles_from_memory += from_memory;
            s.tiles_from_disk += from_disk;
            s.entries_rejected += rejected;
        });
        (out, found)
    }

    /// Keeps this compile's tiles (`tiles`: [`SMT_TILE_BYTES`] per key, [`NO_TILE`] for any not
    /// finished) in memory, and writes those that were encoded (`encoded[i]`) to disk as a new
    /// segment.
    pub(crate) fn store(
        &self,
        tag: &TileKey,
        keys: Vec<TileKey>,
        tiles: Vec<u8>,
        encoded: &[bool],
    ) {
        let fresh: Vec<usize> = {
            let mut seen = std::collections::HashSet::new();
            (0..keys.len())
                .filter(|&i| encoded[i] && keys[i] != NO_TILE && seen.insert(keys[i]))
                .collect()
        };
        self.add_stats(|s| s.tiles_encoded += encoded.iter().filter(|&&e| e).count());
        if let Some(dir) = &self.dir
            && !fresh.is_empty()
        {
            // a cache that cannot be written is no error: the next compile encodes again
            let _ = write_segment(&dir.join(TILES_DIR), tag, &keys, &tiles, &fresh);
        }
        if self.keep_in_memory {
            *self.memory.lock().unwrap_or_else(|e| e.into_inner()) = Some(MemoryTiles {
                tag: *tag,
                keys,
                tiles,
            });
        }
        self.evict();
    }

    /// The `.smt` blocks of the last compile kept under `keys` (each block's tiles' keys
    /// hashed), where the cache keeps memory.
    pub(crate) fn tile_blocks(&self, keys: &[TileKey]) -> Vec<Option<Arc<TileBlock>>> {
        let blocks = self.tile_blocks.lock().unwrap_or_else(|e| e.into_inner());
        let found: Vec<Option<Arc<TileBlock>>> =
            keys.iter().map(|k| blocks.get(k).cloned()).collect();
        let reused = found.iter().flatten().count();
        self.add_stats(|s| s.tile_blocks_reused += reused);
        found
    }

    /// Whether the last compile's `.smt` blocks include each of `keys`.
    pub(crate) fn has_tile_blocks(&self, keys: &[TileKey]) -> Vec<bool> {
        let blocks = self.tile_blocks.lock().unwrap_or_else(|e| e.into_inner());
        keys.iter().map(|k| blocks.contains_key(k)).collect()
    }

    /// Keeps this compile's `.smt` blocks, in place of the last compile's.
    pub(crate) fn keep_tile_blocks(&self, blocks: Vec<(TileKey, Arc<TileBlock>)>) {
        if self.keep_in_memory {
            *self.tile_blocks.lock().unwrap_or_else(|e| e.into_inner()) =
                blocks.into_iter().collect();
        }
    }

    /// The minimap of the texture `key`: the last compile's when its texture was the same,
    /// else `encode()`'s, which is kept.
    pub(crate) fn minimap(&self, key: &TileKey, encode: impl FnOnce() -> Vec<u8>) -> Arc<Vec<u8>> {
        let last = self
            .minimap
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some((k, bytes)) = last
            && k == *key
        {
            self.add_stats(|s| s.minimap_reused = true);
            return bytes;
        }
        let bytes = Arc::new(encode());
        if self.keep_in_memory {
            *self.minimap.lock().unwrap_or_else(|e| e.into_inner()) = Some((*key, bytes.clone()));
        }
        bytes
    }

    /// The packed part kept under `key` with the name check `check` passes: from memory,
    /// else from the disk (the file named `<key>-<hash of its bytes>.lzma2`, whose hash is checked).
    pub(crate) fn pack_bytes(
        &self,
        key: &PackKey,
        check: impl Fn(&[u8]) -> bool,
    ) -> Option<std::sync::Arc<Vec<u8>>> {
        let in_memory = self
            .packs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned();
        if let Some(bytes) = in_memory.filter(|b| check(b)) {
            return Some(bytes);
        }
        let dir = self.dir.as_ref()?.join(PACKS_DIR);
        let prefix = format!("{}-", hex(key));
        let path = std::fs::read_dir(&dir).ok()?.flatten().find_map(|e| {
            let name = e.file_name().into_string().ok()?;
            (name.starts_with(&prefix) && name.ends_with(".lzma2")).then(|| e.path())
        })?;
        let own_hash = path
            .file_name()?
            .to_str()?
            .strip_prefix(&prefix)?
            .strip_suffix(".lzma2")?
            .to_string();
        let bytes = std::fs::read(&path).ok()?;
        touch(&path);
        if hex(&blake3::hash(&bytes).as_bytes()[..16]) != own_hash || !check(&bytes) {
            self.add_stats(|s| s.entries_rejected += 1);
            return None;
        }
        Some(std::sync::Arc::new(bytes))
    }

    /// Keeps the packed streams of this compile (`packs`: key and LZMA2 chunks) in memory, in
    /// place of the last compile's, and writes the new ones to disk.
    pub(crate) fn keep_packs(&self, packs: Vec<(PackKey, std::sync::Arc<Vec<u8>>, bool)>) {
        let mut memory = HashMap::new();
        for (key, bytes, fresh) in packs {
            if fresh {
                self.add_stats(|s| s.packs_made += 1);
                if let Some(dir) = &self.dir {
                    // a cache that cannot be written is no error: the next compile packs again
                    let _ = write_pack(&dir.join(PACKS_DIR), &key, &bytes);
                }
            }
            memory.insert(key, bytes);
        }
        *self.packs.lock().unwrap_or_else(|e| e.into_inner()) = memory;
        self.evict();
    }

    /// The baked blocks kept under `keys`: the last compile's from memory, then the disk's
    /// segments, newest first (an entry whose check fails is ignored).
    pub(crate) fn bake_entries(&self, keys: &[TileKey]) -> Vec<Option<Arc<BakeEntry>>> {
        let mut found: Vec<Option<Arc<BakeEntry>>> = {
            let memory = self.bakes.lock().unwrap_or_else(|e| e.into_inner());
            keys.iter().map(|k| memory.get(k).cloned()).collect()
        };
        if let Some(dir) = &self.dir {
            let mut missing: HashMap<TileKey, Vec<usize>> = HashMap::new();
            for (i, k) in keys.iter().enumerate().filter(|(i, _)| found[*i].is_none()) {
                missing.entry(*k).or_default().push(i);
            }
            for segment in files_newest_first(&dir.join(BAKES_DIR), "gwb") {
                if missing.is_empty() {
                    break;
                }
                let Ok(read) = read_bake_segment(&segment, &mut |k| missing.contains_key(k)) else {
                    continue;
                };
                let mut hits = 0;
                for (k, entry) in read.entries {
                    if let Some(places) = missing.remove(&k) {
                        let entry = Arc::new(entry);
                        for p in places {
                            found[p] = Some(entry.clone());
                        }
                        hits += 1;
                    }
                }
                self.add_stats(|s| s.entries_rejected += read.rejected);
                if hits > 0 {
                    touch(&segment);
                }
            }
        }
        found
    }

    /// Keeps this compile's baked blocks in memory (in place of the last compile's) and
    /// writes the `fresh` ones to disk as a new segment.
    pub(crate) fn keep_bake_entries(&self, entries: Vec<(TileKey, Arc<BakeEntry>, bool)>) {
        let reused = entries.iter().filter(|e| !e.2).count();
        let fresh: Vec<(TileKey, &BakeEntry)> = entries
            .iter()
            .filter(|e| e.2)
            .map(|e| (e.0, e.1.as_ref()))
            .collect();
        self.add_stats(|s| {
            s.bake_blocks_reused += reused;
            s.bake_blocks_baked += fresh.len();
        });
        if let Some(dir) = &self.dir
            && !fresh.is_empty()
        {
            // a cache that cannot be written is no error: the next compile bakes again
            let _ = write_bake_segment(&dir.join(BAKES_DIR), &fresh);
        }
        drop(fresh);
        if self.keep_in_memory {
            *self.bakes.lock().unwrap_or_else(|e| e.into_inner()) =
                entries.into_iter().map(|(k, e, _)| (k, e)).collect();
        }
        self.evict();
    }

    pub(crate) fn count_packs_reused(&self, parts: usize) {
        self.add_stats(|s| s.packs_reused += parts);
    }

    /// Removes the least recently used files until the disk cache fits its cap.
    pub fn evict(&self) {
        let Some(dir) = &self.dir else { return };
        let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> =
            [TILES_DIR, PACKS_DIR, BAKES_DIR]
                .iter()
                .flat_map(|sub| std::fs::read_dir(dir.join(sub)).into_iter().flatten())
                .flatten()
                .filter_map(|e| {
                    let m = e.metadata().ok()?;
                    m.is_file().then_some(())?;
                    Some((m.modified().ok()?, m.len(), e.path()))
                })
                .collect();
        files.sort_by_key(|f| std::cmp::Reverse(f.0));
        let mut total = 0u64;
        for (_, len, path) in files {
            total += len;
            if total > self.cap_bytes {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// The `.sd7` writer keeps its packed parts here (memory, then disk).
impl PackStore for CompileCache {
    fn get(&self, key: &PackKey, check: &dyn Fn(&[u8]) -> bool) -> Option<Arc<Vec<u8>>> {
        self.pack_bytes(key, check)
    }

    fn keep(&self, packs: Vec<(PackKey, Arc<Vec<u8>>, bool)>) {
        self.keep_packs(packs);
    }

    fn count_reused(&self, parts: usize) {
        self.count_packs_reused(parts);
    }
}

/// Marks a cache file as just used, for the eviction order.
fn touch(path: &Path) {
    if let Ok(f) = std::fs::File::options().append(true).open(path) {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
}

/// The files ending in `.ext` in `dir`, most recently used first.
fn files_newest_first(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == ext))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    files.into_iter().map(|(_, p)| p).collect()
}

/// The check of one entry.
fn entry_check(key: &TileKey, tile: &[u8]) -> [u8; ENTRY_CHECK_BYTES] {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(key);
    h.update(tile);
    h.digest().to_le_bytes()
}

/// The keys still looked for, each by its first place.
type Missing = HashMap<TileKey, usize, xxhash_rust::xxh3::Xxh3Builder>;

struct SegmentHits {
    found: usize,
    rejected: usize,
}

/// Reads the entries of `missing` that the segment at `path` holds into `out`, checking each,
/// and takes them off `missing`. A segment of another encoder, or one whose size does not
/// match its count, gives nothing.
fn read_segment(
    path: &Path,
    tag: &TileKey,
    missing: &mut Missing,
    out: &mut [u8],
    found: &mut [bool],
) -> std::io::Result<SegmentHits> {
    let bad = || std::io::Error::other("not a tile segment of this encoder");
    let mut f = std::fs::File::open(path)?;
    let len = f.metadata()?.len();
    let mut header = [0u8; SEGMENT_HEADER_BYTES];
    f.read_exact(&mut header)?;
    let tag_end = 8 + KEY_BYTES;
    if &header[..8] != SEGMENT_MAGIC || header[8..tag_end] != tag[..] {
        return Err(bad());
    }
    let count = u64::from_le_bytes(header[tag_end..].try_into().expect("8 bytes"));
    let expected = count
        .checked_mul((KEY_BYTES + ENTRY_BYTES) as u64)
        .and_then(|b| b.checked_add(SEGMENT_HEADER_BYTES as u64));
    if expected != Some(len) {
        return Err(bad());
    }
    let count = count as usize;
    let mut keys = vec![0u8; count * KEY_BYTES];
    f.read_exact(&mut keys)?;
    let wanted: Vec<(usize, TileKey)> = keys
        .chunks_exact(KEY_BYTES)
        .enumerate()
        .filter_map(|(i, k)| {
            let k: TileKey = k.try_into().expect("a key's bytes");
            missing.contains_key(&k).then_some((i, k))
        })
        .collect();
    let mut hits = SegmentHits {
        found: 0,
        rejected: 0,
    };
    if wanted.is_empty() {
        return Ok(hits);
    }
    let entries_at = (SEGMENT_HEADER_BYTES + count * KEY_BYTES) as u64;
    // many wanted: one read of every entry; few: one read each
    let whole = if wanted.len() * 8 > count {
        let mut all = vec![0u8; count * ENTRY_BYTES];
        f.read_exact(&mut all)?;
        Some(all)
    } else {
        None
    };
    let mut entry = [0u8; ENTRY_BYTES];
    for (i, key) in wanted {
        let bytes: &[u8] = match &whole {
            Some(all) => &all[i * ENTRY_BYTES..][..ENTRY_BYTES],
            None => {
                f.seek(SeekFrom::Start(entries_at + (i * ENTRY_BYTES) as u64))?;
                f.read_exact(&mut entry)?;
                &entry
            }
        };
        let (tile, check) = bytes.split_at(SMT_TILE_BYTES);
        if entry_check(&key, tile) != check {
            hits.rejected += 1;
            continue;
        }
        let Some(p) = missing.remove(&key) else {
            continue;
        };
        out[p * SMT_TILE_BYTES..][..SMT_TILE_BYTES].copy_from_slice(tile);
        found[p] = true;
        hits.found += 1;
    }
    Ok(hits)
}

/// Writes a packed part as `<key>-<hash of its bytes>.lzma2` in `dir`, through a temporary name.
fn write_pack(dir: &Path, key: &PackKey, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let name = format!(
        "{}-{}.lzma2",
        hex(key),
        hex(&blake3::hash(bytes).as_bytes()[..16])
    );
    let tmp = dir.join(format!("{name}.partial-{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, dir.join(name)).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Writes the tiles `which` of `keys`/`tiles` as a new segment in `dir`, through a temporary
/// name so a reader never sees half of one.
fn write_segment(
    dir: &Path,
    tag: &TileKey,
    keys: &[TileKey],
    tiles: &[u8],
    which: &[usize],
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut bytes =
        Vec::with_capacity(SEGMENT_HEADER_BYTES + which.len() * (KEY_BYTES + ENTRY_BYTES));
    bytes.extend_from_slice(SEGMENT_MAGIC);
    bytes.extend_from_slice(tag);
    bytes.extend_from_slice(&(which.len() as u64).to_le_bytes());
    for &i in which {
        bytes.extend_from_slice(&keys[i]);
    }
    for &i in which {
        let tile = &tiles[i * SMT_TILE_BYTES..][..SMT_TILE_BYTES];
        bytes.extend_from_slice(tile);
        bytes.extend_from_slice(&entry_check(&keys[i], tile));
    }
    let name = hex(&blake3::hash(&bytes).as_bytes()[..16]);
    let path = dir.join(format!("{name}.gwt"));
    let tmp = dir.join(format!("{name}.gwt.partial-{}", std::process::id()));
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&bytes)?;
    drop(f);
    std::fs::rename(&tmp, &path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(v: u8) -> Vec<u8> {
        (0..SMT_TILE_BYTES)
            .map(|i| v.wrapping_add(i as u8))
            .collect()
    }

    #[test]
    fn tiles_come_back_from_disk_and_damaged_or_foreign_entries_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let tag = [7u8; KEY_BYTES];
        let keys: Vec<TileKey> = (1..21u8).map(|i| [i; KEY_BYTES]).collect();
        let tiles: Vec<u8> = (1..21u8).flat_map(tile).collect();
        let cache = CompileCache::on_disk(dir.path().to_path_buf(), 1 << 30);
        cache.store(&tag, keys.clone(), tiles.clone(), &[true; 20]);
        // a fresh process: nothing in memory, everything on disk
        let fresh = CompileCache::on_disk(dir.path().to_path_buf(), 1 << 30);
        let (out, found) = fresh.lookup(&tag, &keys);
        assert!(found.iter().all(|&f| f));
        assert_eq!(out, tiles);
        assert_eq!(fresh.stats().tiles_from_disk, 20);
        // another encoder's tag finds nothing
        let other = CompileCache::on_disk(dir.path().to_path_buf(), 1 << 30);
        let (_, found) = other.lookup(&[8u8; KEY_BYTES], &keys);
        assert!(found.iter().all(|&f| !f));
        // flip one byte of entry 3's tile: that entry alone is rejected
        let seg = files_newest_first(&dir.path().join(TILES_DIR), "gwt").remove(0);
        let mut bytes = std::fs::read(&seg).unwrap();
        let at = SEGMENT_HEADER_BYTES + 20 * KEY_BYTES + 3 * ENTRY_BYTES + 100;
        bytes[at] ^= 0x40;
        std::fs::write(&seg, &bytes).unwrap();
        let damaged = CompileCache::on_disk(dir.path().to_path_buf(), 1 << 30);
        let (_, found) = damaged.lookup(&tag, &keys);
        assert_eq!(found.iter().filter(|&&f| !f).count(), 1);
        assert!(!found[3]);
        assert_eq!(damaged.stats().entries_rejected, 1);
        // a truncated segment gives nothing
        std::fs::write(&seg, &bytes[..bytes.len() - 5]).unwrap();
        let cut = CompileCache::on_disk(dir.path().to_path_buf(), 1 << 30);
        let (_, found) = cut.lookup(&tag, &keys);
        assert!(found.iter().all(|&f| !f));
    }

    #[test]
    fn the_least_recently_used_segments_go_first() {
        let dir = tempfile::tempdir().unwrap();
        let tag = [1u8; KEY_BYTES];
        let segment_bytes = (SEGMENT_HEADER_BYTES + 4 * (KEY_BYTES + ENTRY_BYTES)) as u64;
        let cache = CompileCache::on_disk(dir.path().to_path_buf(), 2 * segment_bytes);
        let mut all = Vec::new();
        for s in 0..3u8 {
            let keys: Vec<TileKey> = (1..5u8).map(|i| [s * 10 + i; KEY_BYTES]).collect();
            let tiles: Vec<u8> = (1..5u8).flat_map(|i| tile(s * 10 + i)).collect();
            cache.store(&tag, keys.clone(), tiles, &[true; 4]);
            all.push(keys);
            // distinct modification times
            std::thread::sleep(std::time::Duration::from_millis(20));
            if s == 1 {
                // the first segment is used again: the second becomes the oldest
                let reader = CompileCache::on_disk(dir.path().to_path_buf(), 1 << 30);
                assert!(reader.lookup(&tag, &all[0]).1.iter().all(|&f| f));
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        }
        let left = files_newest_first(&dir.path().join(TILES_DIR), "gwt");
        assert_eq!(left.len(), 2);
        let reader = CompileCache::on_disk(dir.path().to_path_buf(), 1 << 30);
        assert!(reader.lookup(&tag, &all[0]).1.iter().all(|&f| f));
        assert!(reader.lookup(&tag, &all[1]).1.iter().all(|&f| !f));
        assert!(reader.lookup(&tag, &all[2]).1.iter().all(|&f| f));
    }

    #[test]
    fn memory_gives_tiles_in_place_and_moved_but_not_unfinished_or_foreign_ones() {
        let tag = [3u8; KEY_BYTES];
        let keys: Vec<TileKey> = (1..9u8).map(|i| [i; KEY_BYTES]).collect();
        let tiles: Vec<u8> = (1..9u8).flat_map(tile).collect();
        let cache = CompileCache::memory_only();
        cache.store(&tag, keys.clone(), tiles.clone(), &[true; 8]);
        // the same texture: every tile where it was
        let (out, found) = cache.lookup(&tag, &keys);
        assert!(found.iter().all(|&f| f));
        assert_eq!(out, tiles);
        assert_eq!(cache.stats().tiles_from_memory, 8);
        cache.store(&tag, keys.clone(), out, &[false; 8]);
        // shifted by one tile, and a new tile at the start: the seven old ones move along
        let mut shifted = vec![[99u8; KEY_BYTES]];
        shifted.extend_from_slice(&keys[..7]);
        let (out, found) = cache.lookup(&tag, &shifted);
        assert!(!found[0] && found[1..].iter().all(|&f| f));
        assert_eq!(
            &out[SMT_TILE_BYTES..],
            &tiles[..7 * SMT_TILE_BYTES],
            "each moved tile carries its own bytes"
        );
        // a compile cancelled before tile 2 was done leaves no tile there
        let mut unfinished = keys.clone();
        unfinished[2] = NO_TILE;
        cache.store(&tag, unfinished, tiles.clone(), &[false; 8]);
        let (_, found) = cache.lookup(&tag, &keys);
        assert_eq!(found.iter().filter(|&&f| !f).count(), 1);
        assert!(!found[2]);
        // another encoder's tag: nothing from memory
        cache.store(&tag, keys.clone(), tiles, &[false; 8]);
        let (_, found) = cache.lookup(&[4u8; KEY_BYTES], &keys);
        assert!(found.iter().all(|&f| !f));
    }
}
