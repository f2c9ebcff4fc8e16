//! The packed streams of large `.sd7` entries, kept in the compile cache: a 7z of one entry
//! named by the hash of the entry's bytes and the packer's settings, and by the hash of the
//! 7z itself. A kept stream is used only when both hashes and the entry's size and CRC check
//! out, so a damaged or foreign file is packed again, never trusted.

use std::io::{Cursor, Write};
use std::path::Path;

use crate::compile::CompileCache;
use crate::compile::cache::{TileKey, hex};

/// Entries smaller than this are packed each time (mapinfo.lua and the like take no time).
pub(super) const CACHED_ENTRY_MIN_BYTES: usize = 1 << 20;

/// A block this compile packed, to be kept.
pub(super) struct FreshPack {
    pub key: TileKey,
    /// The block's index in the written archive.
    pub block: usize,
}

/// A kept packed stream, read and checked.
pub(super) struct CachedPack {
    pub archive: sevenz_rust2::Archive,
    pub reader: Cursor<Vec<u8>>,
}

/// The key of an entry's packed stream: its bytes and everything that picks the packing.
pub(super) fn pack_key(data: &[u8], threads: u32) -> TileKey {
    let tag = format!(
        "groundwork sd7 entry v1; groundwork {}; threads {threads}",
        env!("CARGO_PKG_VERSION")
    );
    let mut h = blake3::Hasher::new_keyed(blake3::hash(tag.as_bytes()).as_bytes());
    h.update(data);
    *h.finalize().as_bytes()
}

/// The kept packed stream of `data` under `key`, when one is there and checks out.
pub(super) fn cached_pack(cache: &CompileCache, key: &TileKey, data: &[u8]) -> Option<CachedPack> {
    let dir = cache.dir()?.join("packs");
    let prefix = format!("{}-", hex(key));
    let path = std::fs::read_dir(&dir).ok()?.flatten().find_map(|e| {
        let name = e.file_name().into_string().ok()?;
        (name.starts_with(&prefix) && name.ends_with(".7z")).then(|| e.path())
    })?;
    let checked = check_pack(&path, &prefix, data);
    if checked.is_none() {
        cache.reject_entry();
    }
    cache.touch_file(&path);
    checked
}

fn check_pack(path: &Path, prefix: &str, data: &[u8]) -> Option<CachedPack> {
    let name = path.file_name()?.to_str()?;
    let own_hash = name.strip_prefix(prefix)?.strip_suffix(".7z")?;
    let bytes = std::fs::read(path).ok()?;
    if hex(&blake3::hash(&bytes).as_bytes()[..16]) != own_hash {
        return None;
    }
    let mut reader = Cursor::new(bytes);
    let archive =
        sevenz_rust2::Archive::read(&mut reader, &sevenz_rust2::Password::empty()).ok()?;
    let [entry] = archive.files.as_slice() else {
        return None;
    };
    let whole = archive.blocks.len() == 1
        && entry.has_stream
        && entry.size == data.len() as u64
        && entry.has_crc
        && entry.crc == crc32fast::hash(data) as u64;
    whole.then_some(CachedPack { archive, reader })
}

/// Keeps the blocks `fresh` of the archive just written at `out` as packed streams.
pub(super) fn keep_packs(
    out: &Path,
    fresh: &[FreshPack],
    cache: &CompileCache,
) -> std::io::Result<()> {
    if fresh.is_empty() {
        return Ok(());
    }
    let mut source = std::fs::File::open(out)?;
    let archive = sevenz_rust2::Archive::read(&mut source, &sevenz_rust2::Password::empty())
        .map_err(std::io::Error::other)?;
    for pack in fresh {
        let mut one = sevenz_rust2::ArchiveWriter::new(Cursor::new(Vec::new()))
            .map_err(std::io::Error::other)?;
        one.push_raw_block(&archive, pack.block, &mut source, |e| e.name.clone())
            .map_err(std::io::Error::other)?;
        let bytes = one.finish()?.into_inner();
        let Some(dir) = cache.pack_dir() else {
            return Ok(());
        };
        let name = format!(
            "{}-{}.7z",
            hex(&pack.key),
            hex(&blake3::hash(&bytes).as_bytes()[..16])
        );
        let tmp = dir.join(format!("{name}.partial-{}", std::process::id()));
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        drop(f);
        std::fs::rename(&tmp, dir.join(name))?;
        cache.count_pack(false);
    }
    cache.evict();
    Ok(())
}
