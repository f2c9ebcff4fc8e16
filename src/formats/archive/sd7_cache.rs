//! The large entries of a `.sd7`, each packed on its own as a 7z archive of one entry (in
//! parallel, then copied block by block into the archive) and kept in the compile cache, keyed
//! by the hash of the entry's bytes and the packer's settings. A kept stream is used only when
//! it reads as one block of one entry whose size and CRC are the entry's (and, from disk, when
//! the file's own hash matches its name), so a damaged or foreign file is packed again, never
//! trusted.

use std::io::{Cursor, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::{PackCancelled, Sd7Method, lzma_literals, sd7_method};
use crate::compile::CompileCache;
use crate::compile::cache::PackKey;

/// Entries at least this big are packed on their own (and kept); smaller ones (mapinfo.lua and
/// the like) are packed in place each time.
pub(super) const OWN_PACK_MIN_BYTES: usize = 256 << 10;

/// A large entry's one-entry 7z, read, and whether it was packed by this compile.
pub(super) struct OwnPack {
    pub key: PackKey,
    pub bytes: Arc<Vec<u8>>,
    pub archive: sevenz_rust2::Archive,
    pub fresh: bool,
}

/// A packed entry for the cache to keep: its key, its one-entry 7z, and whether it was packed
/// by this compile ([`CompileCache::keep_packs`]).
pub(super) type PackedEntry = (PackKey, Arc<Vec<u8>>, bool);

/// The key of an entry's packed stream: its bytes and everything that picks the packing.
fn pack_key(data: &[u8], threads: u32) -> PackKey {
    let tag = format!(
        "groundwork sd7 entry v3; groundwork {}; threads {threads}",
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

/// `data` as a one-entry 7z of literals, coded a MiB at a time so that `cancel` is seen and
/// `done` counts.
fn literal_pack(
    name: &str,
    data: &[u8],
    cancel: &AtomicBool,
    done: &AtomicU64,
) -> Result<Vec<u8>, sevenz_rust2::Error> {
    let mut encoder = lzma_literals::LiteralEncoder::new(data.len());
    for chunk in data.chunks(1 << 20) {
        if cancel.load(Ordering::Relaxed) {
            return Err(std::io::Error::other(PackCancelled).into());
        }
        encoder.write(chunk);
        done.fetch_add(chunk.len() as u64, Ordering::Relaxed);
    }
    let packed = encoder.finish();
    Ok(lzma_literals::one_entry_7z(
        name,
        &packed,
        data.len() as u64,
        crc32fast::hash(data),
    ))
}

/// A reader over an entry's bytes that counts them into `done` and fails once `cancel` is set.
struct Shared<'a> {
    data: &'a [u8],
    pos: usize,
    done: &'a AtomicU64,
    cancel: &'a AtomicBool,
}

impl Read for Shared<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(std::io::Error::other(PackCancelled));
        }
        let n = buf.len().min(self.data.len() - self.pos).min(1 << 20);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        self.done.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The entry `name` with bytes `data`, packed as a one-entry 7z with `threads`: the one
/// `cache` holds when it checks out, else packed here. `done` counts the bytes dealt with.
pub(super) fn own_pack(
    name: &str,
    data: &[u8],
    threads: u32,
    cache: Option<&CompileCache>,
    cancel: &AtomicBool,
    done: &AtomicU64,
) -> Result<OwnPack, sevenz_rust2::Error> {
    let key = pack_key(data, threads);
    if let Some(c) = cache {
        let crc = crc32fast::hash(data);
        if let Some(bytes) = c.pack_bytes(&key, |b| read_pack(b, data, crc).is_some())
            && let Some(archive) = read_pack(&bytes, data, crc)
        {
            done.fetch_add(data.len() as u64, Ordering::Relaxed);
            return Ok(OwnPack {
                key,
                bytes,
                archive,
                fresh: false,
            });
        }
    }
    let bytes = match sd7_method(data, threads) {
        Sd7Method::Literals => literal_pack(name, data, cancel, done)?,
        Sd7Method::Lzma2(options) => {
            let mut one = sevenz_rust2::ArchiveWriter::new(Cursor::new(Vec::new()))?;
            one.set_content_methods(vec![options.into()]);
            let reader = Shared {
                data,
                pos: 0,
                done,
                cancel,
            };
            one.push_archive_entry(sevenz_rust2::ArchiveEntry::new_file(name), Some(reader))?;
            one.finish()?.into_inner()
        }
    };
    let archive =
        sevenz_rust2::Archive::read(&mut Cursor::new(&bytes), &sevenz_rust2::Password::empty())?;
    Ok(OwnPack {
        key,
        bytes: Arc::new(bytes),
        archive,
        fresh: true,
    })
}
