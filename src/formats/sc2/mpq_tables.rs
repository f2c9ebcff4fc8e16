//! The contents of an MPQ archive's tables, checked before the MPQ crate trusts them: the HET
//! and BET tables (decrypted, unpacked with a bounded size, their counts checked against their
//! bytes) and every file entry of the BET and classic block tables (its data inside the
//! archive, its unpacked size sane). The crate reads some files, `(attributes)` among them,
//! while it opens an archive, so no entry may go unchecked.

use std::io::{Read, Seek, SeekFrom};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::formats::FormatError;
use crate::formats::bytes::{ByteReader, le_words};

/// The largest table (hash, block, HET, BET) we unpack: 16 MiB holds about a million entries,
/// far beyond any map.
pub const MAX_TABLE_BYTES: u64 = 16 << 20;
/// A table may unpack to at most this many times the whole archive's size.
pub(super) const TABLE_EXPANSION: u64 = 64;

/// What the archive can hold: every file's data must end within `avail` bytes of the archive's
/// start and unpack to at most `max_file_bytes`.
#[derive(Clone, Copy, Debug)]
pub struct FileClaims {
    pub avail: u64,
    pub max_file_bytes: u64,
}

/// What went wrong while checking: the file could not be read, or it is not valid.
#[derive(Debug)]
pub enum CheckError {
    Io(std::io::Error),
    Bad(String),
}

impl From<std::io::Error> for CheckError {
    fn from(e: std::io::Error) -> CheckError {
        CheckError::Io(e)
    }
}

impl From<FormatError> for CheckError {
    fn from(e: FormatError) -> CheckError {
        match e {
            FormatError::Invalid { detail, .. } => CheckError::Bad(detail),
            FormatError::Io { source, .. } => CheckError::Io(source),
            FormatError::Cancelled => CheckError::Bad("cancelled".into()),
            e @ FormatError::DiskFull { .. } => CheckError::Bad(e.to_string()),
        }
    }
}

pub(super) fn bad<T>(d: impl Into<String>) -> Result<T, CheckError> {
    Err(CheckError::Bad(d.into()))
}

/// Reads exactly `len` bytes at `pos`, which the caller has checked lie inside the file.
pub(super) fn read_at<R: Read + Seek>(r: &mut R, pos: u64, len: usize) -> std::io::Result<Vec<u8>> {
    r.seek(SeekFrom::Start(pos))?;
    let mut buf = vec![0u8; len];
    r.read_exact(&mut buf)?;
    Ok(buf)
}

/// A file entry's flag: the file exists.
const FILE_EXISTS: u32 = 0x8000_0000;
/// A HET or BET table as the archive holds it, decrypted and unpacked (without its 12-byte
/// extended header).
pub(super) struct ExtTable {
    pub name: &'static str,
    pub disk_size: u64,
    pub data: Vec<u8>,
}

/// Reads a HET/BET table: the 12-byte extended header (signature, version, unpacked size), then
/// the encrypted and maybe zlib-packed rest, with every size checked first.
pub(super) fn read_ext_table<R: Read + Seek>(
    r: &mut R,
    name: &'static str,
    archive_offset: u64,
    pos: u64,
    disk: Option<u64>,
    avail: u64,
    key: u32,
) -> Result<ExtTable, CheckError> {
    if pos.checked_add(12).is_none_or(|e| e > avail) {
        return bad(format!("the {name} at {pos} lies outside the file"));
    }
    let ext = read_at(r, archive_offset + pos, 12)?;
    let sig: &[u8; 4] = if name == "HET table" {
        b"HET\x1a"
    } else {
        b"BET\x1a"
    };
    if &ext[0..4] != sig {
        return bad(format!(
            "the {name} at {pos} has no `{}` signature",
            &name[..3]
        ));
    }
    let data_size = u64::from(ByteReader::at(&ext, 8, name, "size")?.u32("unpacked size")?);
    if data_size > MAX_TABLE_BYTES.min(avail.saturating_mul(TABLE_EXPANSION)) {
        return bad(format!(
            "the {name} claims {data_size} bytes, absurd for this file"
        ));
    }
    // v4 states the on-disk size; v3 tables are stored whole.
    let disk_size = disk.filter(|&d| d > 0).unwrap_or(data_size + 12);
    if disk_size < 12 || pos.checked_add(disk_size).is_none_or(|e| e > avail) {
        return bad(format!(
            "the {name} ({disk_size} bytes at {pos}) runs past the end of the file"
        ));
    }
    if disk_size > MAX_TABLE_BYTES {
        return bad(format!("the {name} is {disk_size} bytes on disk: absurd"));
    }
    let mut body = read_at(r, archive_offset + pos + 12, (disk_size - 12) as usize)?;
    let mut buf = le_words(&body);
    wow_mpq::decrypt_block(&mut buf, key);
    for (i, w) in buf.iter().enumerate() {
        body[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    let data = if data_size + 12 > disk_size {
        // packed: a compression-method byte, then the packed bytes
        let Some((&method, packed)) = body.split_first() else {
            return bad(format!("the {name} is packed but empty"));
        };
        if packed.is_empty() {
            return bad(format!("the {name} is packed but empty"));
        }
        let out = guarded_unpack(packed, method, data_size as usize)
            .map_err(|d| CheckError::Bad(format!("the {name} does not unpack: {d}")))?;
        if out.len() as u64 != data_size {
            return bad(format!(
                "the {name} unpacks to {} bytes, not the {data_size} it claims",
                out.len()
            ));
        }
        out
    } else {
        body.truncate(data_size as usize);
        body
    };
    Ok(ExtTable {
        name,
        disk_size,
        data,
    })
}

/// The crate's decompressor, its output size bounded by the caller, panics caught.
pub(super) fn guarded_unpack(packed: &[u8], method: u8, size: usize) -> Result<Vec<u8>, String> {
    match catch_unwind(AssertUnwindSafe(|| {
        wow_mpq::decompress(packed, method, size)
    })) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("the decompressor gave up".into()),
    }
}

/// The upper bound on the number of files a table may describe.
const MAX_FILES: u64 = 1 << 20;

pub(super) fn check_het(t: &ExtTable) -> Result<(), CheckError> {
    let d = &t.data;
    if d.len() < 32 {
        return bad(format!("the {} is too short for its header", t.name));
    }
    let mut hr = ByteReader::at(d, 4, t.name, "header")?;
    let max_files = u64::from(hr.u32("max files")?);
    let hash_bytes = u64::from(hr.u32("hash table size")?);
    let hash_entry_bits = u64::from(hr.u32("hash entry bits")?);
    hr.skip(8, "total and extra index bits")?;
    let index_bits = u64::from(hr.u32("index bits")?);
    if max_files > MAX_FILES || hash_entry_bits > 64 || index_bits > 32 {
        return bad(format!(
            "the {} claims {max_files} files with {hash_entry_bits}-bit hashes and {index_bits}-bit indices: absurd",
            t.name
        ));
    }
    let need = 32 + hash_bytes + (hash_bytes * index_bits).div_ceil(8);
    if need > d.len() as u64 {
        return bad(format!(
            "the {} needs {need} bytes but holds {}",
            t.name,
            d.len()
        ));
    }
    Ok(())
}

/// Reads `count` bits (at most 64) starting at bit `at` of `d`, least significant first; `None`
/// past the end.
fn bits(d: &[u8], at: u64, count: u32) -> Option<u64> {
    if count > 64 {
        return None;
    }
    let end = at.checked_add(u64::from(count))?;
    if end > d.len() as u64 * 8 {
        return None;
    }
    let mut v = 0u64;
    for k in 0..u64::from(count) {
        let b = at + k;
        if (d[(b / 8) as usize] >> (b % 8)) & 1 == 1 {
            v |= 1 << k;
        }
    }
    Some(v)
}

/// A file entry as a table gives it; `pos` from the archive's start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Entry {
    pub pos: u64,
    pub packed: u64,
    pub size: u64,
    pub flags: u32,
}

const FLAG_IMPLODE: u32 = 0x0000_0100;
const FLAG_COMPRESS: u32 = 0x0000_0200;
const FLAG_ENCRYPTED: u32 = 0x0001_0000;
const FLAG_FIX_KEY: u32 = 0x0002_0000;
const FLAG_SINGLE_UNIT: u32 = 0x0100_0000;

impl Entry {
    /// The key the crate decrypts this file with, for a file called `name`.
    pub fn key(&self, name: &str) -> u32 {
        let base = wow_mpq::hash_string(name, wow_mpq::hash_type::FILE_KEY);
        if self.flags & FLAG_FIX_KEY != 0 {
            base.wrapping_add(self.pos as u32) ^ (self.size as u32)
        } else {
            base
        }
    }
}

/// Checks a packed file's sector offset table: every offset must lie within the file's packed
/// bytes, or the crate would size a sector buffer from it. Encrypted tables are checked only
/// when the file's name (and so its key) is known.
pub(super) fn check_sectors<R: Read + Seek>(
    r: &mut R,
    archive_offset: u64,
    e: &Entry,
    sector_bytes: u64,
    name: Option<&str>,
) -> Result<(), CheckError> {
    let packed_kinds = FLAG_IMPLODE | FLAG_COMPRESS;
    if e.flags & packed_kinds == 0 || e.flags & FLAG_SINGLE_UNIT != 0 || e.size == 0 {
        return Ok(());
    }
    let key = if e.flags & FLAG_ENCRYPTED != 0 {
        match name {
            Some(n) => Some(e.key(n).wrapping_sub(1)),
            None => return Ok(()),
        }
    } else {
        None
    };
    let what = name.unwrap_or("a file");
    let n = e.size.div_ceil(sector_bytes) + 1;
    if n * 4 > e.packed {
        return bad(format!(
            "{what}: its sector table ({n} entries) is larger than its {} packed bytes",
            e.packed
        ));
    }
    let raw = read_at(r, archive_offset + e.pos, (n * 4) as usize)?;
    let mut words = le_words(&raw);
    if let Some(k) = key {
        wow_mpq::decrypt_block(&mut words, k);
    }
    if let Some(bad_at) = words.iter().position(|&o| u64::from(o) > e.packed) {
        return bad(format!(
            "{what}: sector {bad_at} is said to start or end at {}, past its {} packed bytes",
            words[bad_at], e.packed
        ));
    }
    Ok(())
}

/// One file entry's claims against what the archive can hold.
fn check_entry(
    table: &str,
    i: u64,
    pos: u64,
    packed: u64,
    size: u64,
    c: &FileClaims,
) -> Result<(), CheckError> {
    if pos.checked_add(packed).is_none_or(|e| e > c.avail) {
        return bad(format!(
            "the {table} puts file {i}'s {packed} bytes at {pos}, past the end of the archive"
        ));
    }
    if size > c.max_file_bytes {
        return bad(format!(
            "the {table} says file {i} unpacks to {size} bytes, absurd for this archive"
        ));
    }
    Ok(())
}

/// Checks the BET table's header against its bytes, then every existing file's entry.
pub(super) fn check_bet(t: &ExtTable, claims: &FileClaims) -> Result<Vec<Entry>, CheckError> {
    let d = &t.data;
    const HEADER: u64 = 19 * 4;
    if (d.len() as u64) < HEADER {
        return bad(format!("the {} is too short for its header", t.name));
    }
    let mut hr = ByteReader::new(d, t.name);
    let mut header = [0u32; 19];
    for w in &mut header {
        *w = hr.u32("header")?;
    }
    let word = |k: usize| header[k];
    let files = u64::from(word(1));
    let entry_bits = u64::from(word(3));
    let hash_array_bytes = u64::from(word(17));
    let flags = u64::from(word(18));
    if files > MAX_FILES || entry_bits > 320 || flags > MAX_FILES || (9..14).any(|k| word(k) > 64) {
        return bad(format!(
            "the {} claims {files} files of {entry_bits} bits and {flags} flag sets: absurd",
            t.name
        ));
    }
    let table_bytes = (files * entry_bits).div_ceil(8);
    let need = HEADER + flags * 4 + table_bytes + hash_array_bytes;
    if need > d.len() as u64 {
        return bad(format!(
            "the {} needs {need} bytes but holds {}",
            t.name,
            d.len()
        ));
    }
    let flag_sets = le_words(&d[HEADER as usize..(HEADER + flags * 4) as usize]);
    let table = &d[(HEADER + flags * 4) as usize..(HEADER + flags * 4 + table_bytes) as usize];
    let (ipos, isize, icmp, iflag) = (word(4), word(5), word(6), word(7));
    let (cpos, csize, ccmp, cflag) = (word(9), word(10), word(11), word(12));
    let mut out = Vec::new();
    for i in 0..files {
        let base = i * entry_bits;
        let field = |idx: u32, count: u32| bits(table, base + u64::from(idx), count);
        let (Some(pos), Some(size), Some(packed), Some(fi)) = (
            field(ipos, cpos),
            field(isize, csize),
            field(icmp, ccmp),
            field(iflag, cflag),
        ) else {
            return bad(format!("the {}'s entry {i} lies outside its bytes", t.name));
        };
        if fi >= flags {
            continue; // no flags: the crate treats the entry as absent
        }
        let flags = flag_sets[fi as usize];
        if flags & FILE_EXISTS != 0 {
            check_entry(t.name, i, pos, packed, size, claims)?;
            out.push(Entry {
                pos,
                packed,
                size,
                flags,
            });
        }
    }
    Ok(out)
}

/// Checks every existing file in the classic block table (decrypted, unpacked when the v4
/// header says it is packed), with the hi-block table's high position bits when there is one.
pub(super) fn check_block_entries<R: Read + Seek>(
    r: &mut R,
    archive_offset: u64,
    pos: u64,
    disk: u64,
    entries: u32,
    hi_block_pos: Option<u64>,
    claims: &FileClaims,
) -> Result<Vec<Entry>, CheckError> {
    let unpacked = u64::from(entries) * 16;
    let raw = read_at(r, archive_offset + pos, disk as usize)?;
    let key = wow_mpq::hash_string("(block table)", wow_mpq::hash_type::FILE_KEY);
    let mut words = le_words(&raw);
    wow_mpq::decrypt_block(&mut words, key);
    let mut plain: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    if disk < unpacked {
        // packed: a method byte, then the packed table; if it does not unpack, the crate cannot
        // use this table either (it falls back to the BET table, checked on its own)
        let Some((&method, rest)) = plain.split_first() else {
            return Ok(Vec::new());
        };
        match guarded_unpack(rest, method, unpacked as usize) {
            Ok(v) if v.len() as u64 == unpacked => plain = v,
            _ => return Ok(Vec::new()),
        }
    }
    let hi = match hi_block_pos {
        Some(p) => {
            let n = u64::from(entries) * 2;
            if p.checked_add(n).is_none_or(|e| e > claims.avail) {
                return bad(format!(
                    "the hi-block table ({n} bytes at {p}) runs past the end of the archive"
                ));
            }
            Some(read_at(r, archive_offset + p, n as usize)?)
        }
        None => None,
    };
    let mut out = Vec::new();
    for i in 0..entries as usize {
        let mut er = ByteReader::at(&plain, i * 16, "block table", "entry")?;
        let (pos, packed, size) = (er.u32("position")?, er.u32("packed size")?, er.u32("size")?);
        let flags = er.u32("flags")?;
        if flags & FILE_EXISTS == 0 {
            continue;
        }
        let high = match &hi {
            Some(h) => ByteReader::at(h, 2 * i, "hi-block table", "entry")?.u16("high bits")?,
            None => 0,
        };
        let entry = Entry {
            pos: u64::from(pos) | (u64::from(high) << 32),
            packed: u64::from(packed),
            size: u64::from(size),
            flags,
        };
        check_entry(
            "block table",
            i as u64,
            entry.pos,
            entry.packed,
            entry.size,
            claims,
        )?;
        out.push(entry);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_read_least_significant_first_and_stop_at_the_end() {
        let d = [0b1011_0110u8, 0b0000_0001];
        assert_eq!(bits(&d, 1, 3), Some(0b011));
        assert_eq!(bits(&d, 6, 3), Some(0b110));
        assert_eq!(bits(&d, 8, 8), Some(1));
        assert_eq!(bits(&d, 9, 8), None);
        assert_eq!(bits(&d, u64::MAX - 2, 8), None);
    }

    #[test]
    fn entries_past_the_archive_or_absurdly_large_are_refused() {
        let c = FileClaims {
            avail: 1000,
            max_file_bytes: 5000,
        };
        assert!(check_entry("t", 0, 100, 900, 4000, &c).is_ok());
        assert!(check_entry("t", 0, 100, 901, 10, &c).is_err());
        assert!(check_entry("t", 0, u64::MAX, 2, 10, &c).is_err());
        assert!(check_entry("t", 0, 0, 10, 5001, &c).is_err());
    }
}
