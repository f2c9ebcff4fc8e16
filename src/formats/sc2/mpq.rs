//! Guarded access to the MPQ archive a `.SC2Map` is: our own bounds-checked look at the header and
//! the tables it points to, then the `wow-mpq` crate behind `catch_unwind`, with every file's
//! claimed size checked before it is read. Bad archives give a [`FormatError`], never a panic or a
//! huge allocation.
//!
//! Why both: `wow-mpq` reads real SC2 maps (MPQ v4, HET/BET and classic tables, zlib sectors) but
//! sizes some buffers from header and table fields before it knows the bytes are there. So before
//! it runs we read the header ourselves and reject any table whose on-disk extent leaves the file
//! or whose unpacked size is absurd for the file, and we decode the HET and BET headers (decrypt,
//! inflate with a bounded size) to check their counts against the bytes they come in.

use std::fs::File;
use std::io::{Read, Seek};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::formats::FormatError;
use crate::formats::bytes::ByteReader;

use super::mpq_tables as tables;
pub use super::mpq_tables::{CheckError, FileClaims, MAX_TABLE_BYTES};
use super::mpq_tables::{TABLE_EXPANSION, bad, read_at};

const WHAT: &str = "SC2Map (MPQ archive)";

/// The largest embedded file we read. A 256 x 256 map's biggest layer is well under 2 MiB.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// An embedded file may unpack to at most this many times the archive's size (zlib's ceiling is
/// about 1000:1; real map layers are far below it).
const FILE_EXPANSION: u64 = 1100;

const MPQ_MAGIC: &[u8; 4] = b"MPQ\x1a";
const USERDATA_MAGIC: &[u8; 4] = b"MPQ\x1b";

/// Where the header's tables are, as our own reading of it found them (all offsets from the
/// start of the file).
#[derive(Clone, Debug, Default, PartialEq)]
struct HeaderFacts {
    /// Where the MPQ header starts in the file.
    pub archive_offset: u64,
    pub format_version: u16,
    pub sector_bytes: u64,
    pub hash_entries: u32,
    pub block_entries: u32,
    pub het: Option<TableExtent>,
    pub bet: Option<TableExtent>,
}

/// One table's place and on-disk size in the file.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TableExtent {
    pub pos: u64,
    pub size: u64,
}

/// An open `.SC2Map`, guarded.
pub struct Sc2Archive {
    path: PathBuf,
    file_len: u64,
    facts: HeaderFacts,
    inner: wow_mpq::Archive,
}

/// Runs `f` and turns a panic inside the MPQ crate into an error about `what`.
pub(super) fn guarded<T>(
    what: &str,
    f: impl FnOnce() -> Result<T, FormatError>,
) -> Result<T, FormatError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => Err(FormatError::invalid(
            WHAT,
            format!("{what}: the archive is corrupt (the MPQ reader gave up)"),
        )),
    }
}

impl Sc2Archive {
    /// Opens `path` after checking its header and tables.
    pub fn open(path: &Path) -> Result<Sc2Archive, FormatError> {
        let mut file = File::open(path).map_err(|e| FormatError::io(path, e))?;
        let file_len = file.metadata().map_err(|e| FormatError::io(path, e))?.len();
        let facts = check_archive(&mut file, file_len).map_err(|e| check_error(path, e))?;
        let inner = guarded("opening the archive", || {
            wow_mpq::Archive::open(path)
                .map_err(|e| FormatError::invalid(WHAT, format!("cannot open: {e}")))
        })?;
        Ok(Sc2Archive {
            path: path.to_path_buf(),
            file_len,
            facts,
            inner,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The embedded file `name`, or `None` when the archive does not hold it.
    pub fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, FormatError> {
        let file_len = self.file_len;
        let (path, facts) = (&self.path, &self.facts);
        let inner = &mut self.inner;
        guarded(name, move || {
            let info = match inner.find_file(name) {
                Ok(Some(info)) => info,
                Ok(None) | Err(wow_mpq::Error::FileNotFound(_)) => return Ok(None),
                Err(e) => {
                    return Err(FormatError::invalid(
                        WHAT,
                        format!("{name}: cannot look it up: {e}"),
                    ));
                }
            };
            check_file_claims(name, &info, file_len)?;
            let entry = tables::Entry {
                pos: info.file_pos.saturating_sub(facts.archive_offset),
                packed: info.compressed_size,
                size: info.file_size,
                flags: info.flags,
            };
            let mut file = File::open(path).map_err(|e| FormatError::io(path, e))?;
            tables::check_sectors(
                &mut file,
                facts.archive_offset,
                &entry,
                facts.sector_bytes,
                Some(name),
            )
            .map_err(|e| check_error(path, e))?;
            inner
                .read_file(name)
                .map(Some)
                .map_err(|e| FormatError::invalid(WHAT, format!("{name}: cannot read: {e}")))
        })
    }

    /// Like [`Sc2Archive::read`], but a missing file is an error naming it.
    pub fn read_required(&mut self, name: &str) -> Result<Vec<u8>, FormatError> {
        self.read(name)?.ok_or_else(|| {
            FormatError::invalid(WHAT, format!("the map has no `{name}` file inside"))
        })
    }

    /// The names the archive's `(listfile)` gives; empty when it has none.
    pub fn list(&mut self) -> Vec<String> {
        match self.read("(listfile)") {
            Ok(Some(bytes)) => String::from_utf8_lossy(&bytes)
                .split(['\r', '\n', ';'])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            _ => Vec::new(),
        }
    }
}

fn check_error(path: &Path, e: CheckError) -> FormatError {
    match e {
        CheckError::Io(e) => FormatError::io(path, e),
        CheckError::Bad(d) => FormatError::invalid(WHAT, d),
    }
}

/// Rejects a file whose table entry claims more than the archive can hold.
fn check_file_claims(
    name: &str,
    info: &wow_mpq::FileInfo,
    file_len: u64,
) -> Result<(), FormatError> {
    let bad = |d: String| Err(FormatError::invalid(WHAT, format!("{name}: {d}")));
    let end = info.file_pos.checked_add(info.compressed_size);
    if end.is_none_or(|e| e > file_len) {
        return bad(format!(
            "its data ({} bytes at {}) runs past the end of the {file_len}-byte archive",
            info.compressed_size, info.file_pos
        ));
    }
    let cap = MAX_FILE_BYTES.min(file_len.saturating_mul(FILE_EXPANSION));
    if info.file_size > cap {
        return bad(format!(
            "claims to unpack to {} bytes, more than this {file_len}-byte archive can hold",
            info.file_size
        ));
    }
    Ok(())
}

/// Checks the MPQ header and every table it points to against `file_len`, the bytes there are.
fn check_archive<R: Read + Seek>(r: &mut R, file_len: u64) -> Result<HeaderFacts, CheckError> {
    if file_len < 32 {
        return bad(format!(
            "only {file_len} bytes: too short for an MPQ header"
        ));
    }
    let start = read_at(r, 0, 16)?;
    let archive_offset = if &start[0..4] == MPQ_MAGIC {
        0
    } else if &start[0..4] == USERDATA_MAGIC {
        let off =
            u64::from(ByteReader::at(&start, 8, WHAT, "user data")?.u32("MPQ header offset")?);
        if off == 0 || off.checked_add(32).is_none_or(|e| e > file_len) {
            return bad(format!(
                "the user-data header points to an MPQ header at {off}, outside the file"
            ));
        }
        let sig = read_at(r, off, 4)?;
        if sig != MPQ_MAGIC {
            return bad(format!("no MPQ header at {off}, where the user data says"));
        }
        off
    } else {
        return bad("not an MPQ archive (no `MPQ\\x1a` signature at the start)");
    };
    let avail = file_len - archive_offset;
    let head32 = read_at(r, archive_offset, 32)?;
    let mut hr = ByteReader::new(&head32, WHAT);
    hr.skip(4, "signature")?;
    let header_size = u64::from(hr.u32("header size")?);
    hr.skip(4, "archive size")?;
    let format_version = hr.u16("format version")?;
    let min_header = match format_version {
        0 => 32,
        1 => 44,
        2 => 68,
        3 => 208,
        v => {
            return bad(format!(
                "MPQ format version {} is unknown",
                u32::from(v) + 1
            ));
        }
    };
    if header_size < min_header || header_size > 1024 || header_size > avail {
        return bad(format!(
            "header size {header_size} does not fit MPQ v{} in a {file_len}-byte file",
            format_version + 1
        ));
    }
    let h = read_at(r, archive_offset, min_header as usize)?;
    let mut hr = ByteReader::at(&h, 14, WHAT, "sector size shift")?;
    let sector_shift = hr.u16("sector size shift")?;
    if sector_shift > 15 {
        return bad(format!("sector size 512 << {sector_shift} is absurd"));
    }
    let mut hash_pos = u64::from(hr.u32("hash table position")?);
    let mut block_pos = u64::from(hr.u32("block table position")?);
    let mut facts = HeaderFacts {
        archive_offset,
        format_version,
        sector_bytes: 512u64 << sector_shift,
        hash_entries: hr.u32("hash table entries")?,
        block_entries: hr.u32("block table entries")?,
        het: None,
        bet: None,
    };
    let mut hi_block_pos = 0;
    if format_version >= 1 {
        hi_block_pos = hr.u64("hi-block table position")?;
        hash_pos |= u64::from(hr.u16("hash table position, high bits")?) << 32;
        block_pos |= u64::from(hr.u16("block table position, high bits")?) << 32;
    }
    let (mut bet_pos, mut het_pos) = (0, 0);
    if format_version >= 2 {
        hr.skip(8, "archive size, 64 bits")?;
        bet_pos = hr.u64("BET table position")?;
        het_pos = hr.u64("HET table position")?;
    }
    // On-disk sizes: v4 states them (tables may be compressed); before that they are raw.
    let (mut hash_disk, mut block_disk) = (
        u64::from(facts.hash_entries) * 16,
        u64::from(facts.block_entries) * 16,
    );
    let mut hi_block_disk = u64::from(facts.block_entries) * 2;
    let (mut het_disk, mut bet_disk) = (None, None);
    if format_version >= 3 {
        hash_disk = hr.u64("hash table size")?;
        block_disk = hr.u64("block table size")?;
        hi_block_disk = hr.u64("hi-block table size")?;
        het_disk = Some(hr.u64("HET table size")?);
        bet_disk = Some(hr.u64("BET table size")?);
    }
    let unpack_cap = MAX_TABLE_BYTES.min(file_len.saturating_mul(TABLE_EXPANSION));
    let extent = |name: &str, pos: u64, size: u64| -> Result<(), CheckError> {
        let end = pos.checked_add(size);
        if end.is_none_or(|e| e > avail) {
            return bad(format!(
                "the {name} ({size} bytes at {pos}) runs past the end of the {file_len}-byte file"
            ));
        }
        Ok(())
    };
    for (name, entries, pos, disk, entry_bytes) in [
        ("hash table", facts.hash_entries, hash_pos, hash_disk, 16u64),
        (
            "block table",
            facts.block_entries,
            block_pos,
            block_disk,
            16,
        ),
    ] {
        let unpacked = u64::from(entries) * entry_bytes;
        if unpacked > unpack_cap {
            return bad(format!(
                "the header claims a {name} of {entries} entries, absurd for a {file_len}-byte file"
            ));
        }
        if entries > 0 {
            extent(name, pos, disk)?;
        }
    }
    if hi_block_pos != 0 && facts.block_entries > 0 {
        extent("hi-block table", hi_block_pos, hi_block_disk)?;
    }
    let claims = FileClaims {
        avail,
        max_file_bytes: MAX_FILE_BYTES.min(file_len.saturating_mul(FILE_EXPANSION)),
    };
    let mut entries = Vec::new();
    if facts.block_entries > 0 {
        let hi = (hi_block_pos != 0).then_some(hi_block_pos);
        entries = tables::check_block_entries(
            r,
            archive_offset,
            block_pos,
            block_disk,
            facts.block_entries,
            hi,
            &claims,
        )?;
    }
    if format_version >= 2 {
        // Some writers (wow-mpq's own builder among them) swap the two positions; the crate
        // reads such archives, so accept them when the signatures say so.
        let sig_at = |r: &mut R, p: u64| -> Option<Vec<u8>> {
            (p != 0 && p.checked_add(4).is_some_and(|e| e <= avail))
                .then(|| read_at(r, archive_offset + p, 4).ok())
                .flatten()
        };
        if sig_at(r, het_pos).as_deref() == Some(b"BET\x1a")
            && sig_at(r, bet_pos).as_deref() == Some(b"HET\x1a")
        {
            std::mem::swap(&mut bet_pos, &mut het_pos);
        }
        let key_het = wow_mpq::hash_string("(hash table)", wow_mpq::hash_type::FILE_KEY);
        let key_bet = wow_mpq::hash_string("(block table)", wow_mpq::hash_type::FILE_KEY);
        if het_pos != 0 {
            let t = tables::read_ext_table(
                r,
                "HET table",
                archive_offset,
                het_pos,
                het_disk,
                avail,
                key_het,
            )?;
            tables::check_het(&t)?;
            facts.het = Some(TableExtent {
                pos: het_pos,
                size: t.disk_size,
            });
        }
        if bet_pos != 0 {
            let t = tables::read_ext_table(
                r,
                "BET table",
                archive_offset,
                bet_pos,
                bet_disk,
                avail,
                key_bet,
            )?;
            entries.extend(tables::check_bet(&t, &claims)?);
            facts.bet = Some(TableExtent {
                pos: bet_pos,
                size: t.disk_size,
            });
        }
    }
    for e in &entries {
        tables::check_sectors(r, archive_offset, e, facts.sector_bytes, None)?;
    }
    Ok(facts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn header_v1(hash_entries: u32, block_entries: u32) -> Vec<u8> {
        let mut b = vec![0u8; 64];
        b[0..4].copy_from_slice(MPQ_MAGIC);
        b[4..8].copy_from_slice(&32u32.to_le_bytes());
        b[8..12].copy_from_slice(&64u32.to_le_bytes());
        b[14..16].copy_from_slice(&3u16.to_le_bytes());
        b[16..20].copy_from_slice(&32u32.to_le_bytes());
        b[20..24].copy_from_slice(&48u32.to_le_bytes());
        b[24..28].copy_from_slice(&hash_entries.to_le_bytes());
        b[28..32].copy_from_slice(&block_entries.to_le_bytes());
        // an empty block entry, encrypted as archives store it
        let mut entry = [0u32; 4];
        let key = wow_mpq::hash_string("(block table)", wow_mpq::hash_type::FILE_KEY);
        wow_mpq::encrypt_block(&mut entry, key);
        for (i, w) in entry.iter().enumerate() {
            b[48 + 4 * i..52 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    fn check(bytes: &[u8]) -> Result<HeaderFacts, String> {
        check_archive(&mut Cursor::new(bytes), bytes.len() as u64).map_err(|e| match e {
            CheckError::Bad(d) => d,
            CheckError::Io(e) => format!("io: {e}"),
        })
    }

    #[test]
    fn a_small_valid_header_passes() {
        let f = check(&header_v1(1, 1)).unwrap();
        assert_eq!(
            (f.hash_entries, f.block_entries, f.sector_bytes),
            (1, 1, 4096)
        );
    }

    #[test]
    fn huge_table_claims_are_rejected_before_any_allocation() {
        let e = check(&header_v1(0x1000_0000, 1)).unwrap_err();
        assert!(e.contains("hash table"), "{e}");
        let e = check(&header_v1(1, u32::MAX)).unwrap_err();
        assert!(e.contains("block table"), "{e}");
        // two entries of 16 bytes at 48 would end at 80 > 64
        let e = check(&header_v1(1, 2)).unwrap_err();
        assert!(e.contains("past the end"), "{e}");
    }

    #[test]
    fn a_block_entry_claiming_gigabytes_is_rejected() {
        let mut b = header_v1(1, 1);
        // an existing, packed file at 0, 16 bytes on disk, 3 GB unpacked
        let mut entry = [0u32, 16, 3 << 30, 0x8000_0200];
        let key = wow_mpq::hash_string("(block table)", wow_mpq::hash_type::FILE_KEY);
        wow_mpq::encrypt_block(&mut entry, key);
        for (i, w) in entry.iter().enumerate() {
            b[48 + 4 * i..52 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        let e = check(&b).unwrap_err();
        assert!(e.contains("unpacks to"), "{e}");
    }

    #[test]
    fn wrong_magic_and_short_files_are_rejected() {
        assert!(check(b"PK\x03\x04 not an mpq at all, but long enough").is_err());
        assert!(check(&header_v1(1, 1)[..20]).is_err());
        let mut b = header_v1(1, 1);
        b[12] = 9;
        assert!(check(&b).unwrap_err().contains("version"));
    }
}
