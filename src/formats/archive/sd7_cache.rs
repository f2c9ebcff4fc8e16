//! The large entries of a `.sd7`, packed part by part ([`super::lzma2_parts`]): every part of
//! every large entry at once on the cores, each kept in the compile cache under the hash of its
//! bytes and the packer's settings, so a re-export packs only the parts whose bytes changed.
//! A kept part is used only when its chunks are whole and unpack to the part's size (and, from
//! disk, when the file's own hash matches its name), so a damaged or foreign one is packed
//! again, never trusted.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::lzma2_parts::{PART_MAX_BYTES, chunks_unpacked_len, one_entry_7z, pack_part};
use super::{ArchiveFile, PackCancelled, PackKey, PackStore};

/// Entries at least this big are packed part by part (and kept); smaller ones (mapinfo.lua and
/// the like) are packed in place each time.
pub(super) const OWN_PACK_MIN_BYTES: usize = 256 << 10;

/// A large entry packed: its one-entry 7z, read, and how many of its parts were packed by this
/// compile and how many came from the cache.
pub(super) struct OwnPack {
    pub bytes: Vec<u8>,
    pub archive: sevenz_rust2::Archive,
    pub parts_reused: usize,
}

/// A packed part for the cache to keep: its key, its LZMA2 chunks, and whether it was packed
/// by this compile ([`PackStore::keep`]).
pub(super) type PackedEntry = (PackKey, Arc<Vec<u8>>, bool);

/// The key of a part's chunks: its bytes and everything that picks the packing.
fn part_key(data: &[u8]) -> PackKey {
    let tag = format!(
        "groundwork sd7 lzma2 part v1; groundwork {}",
        env!("CARGO_PKG_VERSION")
    );
    let mut h = blake3::Hasher::new_keyed(blake3::hash(tag.as_bytes()).as_bytes());
    h.update(data);
    *h.finalize().as_bytes()
}

/// An entry's bytes as the packer sees them: its own parts (an `.smt`'s header and blocks),
/// or the whole file.
enum Source<'a> {
    Parts(&'a [Arc<Vec<u8>>]),
    Whole(Cow<'a, [u8]>),
}

impl Source<'_> {
    /// The pieces it is packed in: each part, cut at [`PART_MAX_BYTES`].
    fn pieces(&self) -> Vec<&[u8]> {
        let parts: Vec<&[u8]> = match self {
            Source::Parts(p) => p.iter().map(|b| b.as_slice()).collect(),
            Source::Whole(b) => vec![b],
        };
        parts
            .into_iter()
            .flat_map(|p| p.chunks(PART_MAX_BYTES))
            .collect()
    }
}

/// Packs the large entries `files` (each at least [`OWN_PACK_MIN_BYTES`]) part by part, all
/// parts on the cores at once, taking from `cache` the parts it holds. `done` counts the bytes
/// dealt with; `cancel` stops between parts. The parts packed or found are added to `kept`.
pub(super) fn own_packs(
    files: &[&ArchiveFile],
    cache: Option<&dyn PackStore>,
    cancel: &AtomicBool,
    done: &AtomicU64,
    kept: &mut Vec<PackedEntry>,
) -> Result<Vec<OwnPack>, sevenz_rust2::Error> {
    let sources: Vec<Source> = files
        .iter()
        .map(|f| match f.parts() {
            Some(p) => Ok(Source::Parts(p)),
            None => f.bytes().map(Source::Whole),
        })
        .collect::<Result<_, _>>()?;
    let pieces: Vec<Vec<&[u8]>> = sources.iter().map(Source::pieces).collect();
    let flat: Vec<&[u8]> = pieces.iter().flatten().copied().collect();
    let keys: Vec<PackKey> = flat.par_iter().map(|p| part_key(p)).collect();
    // each distinct part once (a map of one colour has blocks alike), largest first so the
    // cores finish together
    let mut order: Vec<usize> = (0..flat.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(flat[i].len()), keys[i]));
    order.dedup_by_key(|i| keys[*i]);
    let packed: Vec<(usize, Arc<Vec<u8>>, bool)> = order
        .par_iter()
        .map(|&i| {
            let data = flat[i];
            let check = |b: &[u8]| chunks_unpacked_len(b) == Some(data.len() as u64);
            if let Some(bytes) = cache.and_then(|c| c.get(&keys[i], &check)) {
                done.fetch_add(data.len() as u64, Ordering::Relaxed);
                return Ok((i, bytes, false));
            }
            if cancel.load(Ordering::Relaxed) {
                return Err(std::io::Error::other(PackCancelled).into());
            }
            let chunks = pack_part(data);
            done.fetch_add(data.len() as u64, Ordering::Relaxed);
            Ok((i, Arc::new(chunks), true))
        })
        .collect::<Result<_, sevenz_rust2::Error>>()?;
    let by_key: std::collections::HashMap<PackKey, (Arc<Vec<u8>>, bool)> = packed
        .into_iter()
        .map(|(i, bytes, fresh)| (keys[i], (bytes, fresh)))
        .collect();
    let mut at = 0;
    let mut packs = Vec::with_capacity(files.len());
    for (f, pieces) in files.iter().zip(&pieces) {
        let chunks: Vec<&[u8]> = keys[at..at + pieces.len()]
            .iter()
            .map(|k| by_key[k].0.as_slice())
            .collect();
        let parts_reused = keys[at..at + pieces.len()]
            .iter()
            .filter(|k| !by_key[*k].1)
            .count();
        at += pieces.len();
        let mut crc = crc32fast::Hasher::new();
        for p in pieces {
            crc.update(p);
        }
        let bytes = one_entry_7z(&f.path, &chunks, f.len(), crc.finalize());
        let archive = sevenz_rust2::Archive::read(
            &mut std::io::Cursor::new(&bytes),
            &sevenz_rust2::Password::empty(),
        )?;
        packs.push(OwnPack {
            bytes,
            archive,
            parts_reused,
        });
    }
    kept.extend(
        by_key
            .into_iter()
            .map(|(key, (bytes, fresh))| (key, bytes, fresh)),
    );
    Ok(packs)
}
