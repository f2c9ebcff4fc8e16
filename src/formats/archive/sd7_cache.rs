//! The packed streams of large `.sd7` entries, kept in the compile cache as 7z archives of
//! one entry each, keyed by the hash of the entry's bytes and the packer's settings. A kept
//! stream is used only when it reads as one block of one entry whose size and CRC are the
//! entry's (and, from disk, when the file's own hash matches its name), so a damaged or
//! foreign file is packed again, never trusted.

use std::io::{Cursor, Seek};
use std::path::Path;
use std::sync::Arc;

use crate::compile::CompileCache;
use crate::compile::cache::PackKey;

/// Entries smaller than this are packed each time (mapinfo.lua and the like take no time).
pub(super) const CACHED_ENTRY_MIN_BYTES: usize = 1 << 20;

/// A large entry of the archive being written: its key, its block in the archive, and its
/// kept packed stream when it came from the cache.
pub(super) struct PackedEntry {
    pub key: PackKey,
    pub block: usize,
    pub kept: Option<Arc<Vec<u8>>>,
}

/// A kept packed stream, read and checked.
pub(super) struct CachedPack {
    pub bytes: Arc<Vec<u8>>,
    pub archive: sevenz_rust2::Archive,
}

/// The key of an entry's packed stream: its bytes and everything that picks the packing.
pub(super) fn pack_key(data: &[u8], threads: u32) -> PackKey {
    let tag = format!(
        "groundwork sd7 entry v1; groundwork {}; threads {threads}",
        env!("CARGO_PKG_VERSION")
    );
    let mut h = blake3::Hasher::new_keyed(blake3::hash(tag.as_bytes()).as_bytes());
    h.update(data);
    *h.finalize().as_bytes()
}

/// Reads a one-entry 7z and checks that its entry is `data`'s size and CRC.
fn read_pack(bytes: &[u8], data: &[u8], crc: u32) -> Option<sevenz_rust2::Archive> {
    let archive =
        sevenz_rust2::Archive::read(&mut Cursor::new(bytes), &sevenz_rust2::Password::empty())
            .ok()?;
    let [entry] = archive.files.as_slice() else {
        return None;
    };
    let whole = archive.blocks.len() == 1
        && entry.has_stream
        && entry.size == data.len() as u64
        && entry.has_crc
        && entry.crc == crc as u64;
    whole.then_some(archive)
}

/// The kept packed stream of `data` under `key`, when one is there and checks out.
pub(super) fn cached_pack(cache: &CompileCache, key: &PackKey, data: &[u8]) -> Option<CachedPack> {
    let crc = crc32fast::hash(data);
    let bytes = cache.pack_bytes(key, |b| read_pack(b, data, crc).is_some())?;
    let archive = read_pack(&bytes, data, crc)?;
    Some(CachedPack { bytes, archive })
}

/// Hands the cache this compile's large entries: those packed here are cut out of the
/// archive just written at `out` as one-entry 7z archives.
pub(super) fn keep_packs(
    out: &Path,
    entries: Vec<PackedEntry>,
    cache: &CompileCache,
) -> std::io::Result<()> {
    let mut source = None;
    let mut packs = Vec::with_capacity(entries.len());
    for e in entries {
        if let Some(bytes) = e.kept {
            packs.push((e.key, bytes, false));
            continue;
        }
        if source.is_none() {
            let mut f = std::fs::File::open(out)?;
            let archive = sevenz_rust2::Archive::read(&mut f, &sevenz_rust2::Password::empty())
                .map_err(std::io::Error::other)?;
            source = Some((f, archive));
        }
        let (f, archive) = source.as_mut().expect("opened just above");
        f.rewind()?;
        let mut one = sevenz_rust2::ArchiveWriter::new(Cursor::new(Vec::new()))
            .map_err(std::io::Error::other)?;
        one.push_raw_block(archive, e.block, f, |entry| entry.name.clone())
            .map_err(std::io::Error::other)?;
        packs.push((e.key, Arc::new(one.finish()?.into_inner()), true));
    }
    cache.keep_packs(packs);
    Ok(())
}
