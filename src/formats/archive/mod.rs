//! Map archives: `.sdd` (a folder), `.sdz` (zip) and `.sd7` (7z, non-solid). Reading loads every
//! entry with sizes checked and names made safe; lookups ignore case, as the engine's do.
//! Writing is deterministic (sorted entries, no timestamps) and goes through a temporary name
//! that is renamed into place only when complete.

use std::io::{Read, Seek, Write};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::FormatError;
use super::mapinfo::Vfs;

/// The three containers the engine accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveKind {
    Sdd,
    Sdz,
    Sd7,
}

impl ArchiveKind {
    /// The kind a path's extension names (case-insensitive).
    pub fn from_path(path: &Path) -> Option<ArchiveKind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "sdd" => Some(ArchiveKind::Sdd),
            "sdz" => Some(ArchiveKind::Sdz),
            "sd7" => Some(ArchiveKind::Sd7),
            _ => None,
        }
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ArchiveKind::Sdd => "sdd",
            ArchiveKind::Sdz => "sdz",
            ArchiveKind::Sd7 => "sd7",
        }
    }
}

/// One file inside an archive: its path (with `/`) and bytes.
pub use crate::map::BundledFile as ArchiveFile;

/// More entries than any map has: a guard against hostile archives.
const MAX_ARCHIVE_ENTRIES: usize = 100_000;
/// The most bytes we unpack from one archive (a 32x32 map's tiles are about 170 MB).
const MAX_ARCHIVE_BYTES: u64 = 4 << 30;
/// The most bytes one entry may unpack to (a 64x64 map's tiles, all distinct, are 0.7 GB).
pub const MAX_ENTRY_BYTES: u64 = 1 << 30;
/// Entries (and archives) unpacking to more than this are held to [`MAX_PACK_RATIO`].
const RATIO_CHECKED_BYTES: u64 = 64 << 20;
/// The most an entry or archive may grow on unpacking: real maps' BC1 tiles pack to about
/// 0.6 of their size and flat pictures to a few hundredths; a bomb of zeros packs a
/// thousandfold.
const MAX_PACK_RATIO: u64 = 200;

/// Every file of an archive, in memory.
#[derive(Clone, Debug, Default)]
pub struct ArchiveContents {
    files: Vec<ArchiveFile>,
}

/// An entry name made safe: `/` separators, no leading `./`, and an error for absolute paths
/// and `..` (a zip entry named `../../x` must not escape the folder it is unpacked into).
pub fn normalize_entry_path(name: &str, what: &str) -> Result<String, FormatError> {
    let unified = name.replace('\\', "/");
    let bad = || {
        FormatError::invalid(
            what,
            format!("entry {name:?} points outside the archive (absolute path or \"..\")"),
        )
    };
    if unified.starts_with('/') || unified.get(1..2) == Some(":") {
        return Err(bad());
    }
    let mut parts = Vec::new();
    for part in unified.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(bad()),
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err(FormatError::invalid(
            what,
            format!("entry {name:?} has an empty name"),
        ));
    }
    Ok(parts.join("/"))
}

impl ArchiveContents {
    fn from_files(mut files: Vec<ArchiveFile>) -> ArchiveContents {
        files.sort_by(|a, b| a.path.cmp(&b.path));
        ArchiveContents { files }
    }

    /// Reads a `.sdd` folder, `.sdz` or `.sd7`.
    pub fn read(path: &Path) -> Result<ArchiveContents, FormatError> {
        let what = path.display().to_string();
        let kind = ArchiveKind::from_path(path).ok_or_else(|| {
            FormatError::invalid(
                &what,
                "not a map archive: the name must end in .sdd, .sdz or .sd7",
            )
        })?;
        let files = match kind {
            ArchiveKind::Sdd => read_sdd(path, &what)?,
            ArchiveKind::Sdz => read_sdz(path, &what)?,
            ArchiveKind::Sd7 => read_sd7(path, &what)?,
        };
        Ok(ArchiveContents::from_files(files))
    }

    pub fn files(&self) -> &[ArchiveFile] {
        &self.files
    }
    pub fn into_files(self) -> Vec<ArchiveFile> {
        self.files
    }

    /// The file at `path`, compared case-insensitively with `\` read as `/`.
    pub fn find(&self, path: &str) -> Option<&ArchiveFile> {
        let want = path.replace('\\', "/");
        let want = want.trim_start_matches("./");
        self.files
            .iter()
            .find(|f| f.path.eq_ignore_ascii_case(want))
    }
}

impl Vfs for ArchiveContents {
    fn paths(&self) -> Vec<String> {
        self.files.iter().map(|f| f.path.clone()).collect()
    }
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        self.find(path)
            .and_then(|f| f.bytes().ok())
            .map(|b| b.into_owned())
    }
}

/// Adds up unpacked bytes and entries and fails once a limit is passed.
struct Budget<'a> {
    what: &'a str,
    bytes: u64,
    entries: usize,
}

impl Budget<'_> {
    /// Counts one entry `name` that declares `bytes` unpacked from `packed` bytes (when the
    /// container says), refusing it past the limits with a message naming it.
    fn take(&mut self, name: &str, bytes: u64, packed: Option<u64>) -> Result<(), FormatError> {
        self.bytes = self.bytes.saturating_add(bytes);
        self.entries += 1;
        let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
        if self.entries > MAX_ARCHIVE_ENTRIES {
            return Err(FormatError::invalid(
                self.what,
                format!("more than {MAX_ARCHIVE_ENTRIES} entries"),
            ));
        }
        if bytes > MAX_ENTRY_BYTES {
            return Err(FormatError::invalid(
                self.what,
                format!(
                    "entry {name} unpacks to {:.0} MiB, more than the {} MiB one entry may",
                    mib(bytes),
                    MAX_ENTRY_BYTES >> 20
                ),
            ));
        }
        if let Some(packed) = packed
            && bytes > RATIO_CHECKED_BYTES
            && bytes / packed.max(1) > MAX_PACK_RATIO
        {
            return Err(FormatError::invalid(
                self.what,
                format!(
                    "entry {name} unpacks to {:.0} MiB from {:.1} KiB ({}:1, more than {MAX_PACK_RATIO}:1): refused as an archive bomb",
                    mib(bytes),
                    packed as f64 / 1024.0,
                    bytes / packed.max(1)
                ),
            ));
        }
        if self.bytes > MAX_ARCHIVE_BYTES {
            return Err(FormatError::invalid(
                self.what,
                format!(
                    "unpacks to more than {} MiB (entry {name} passes it)",
                    MAX_ARCHIVE_BYTES >> 20
                ),
            ));
        }
        Ok(())
    }

    /// Holds the whole archive to the ratio limit against its size on disk.
    fn check_total(&self, archive_bytes: u64) -> Result<(), FormatError> {
        if self.bytes > RATIO_CHECKED_BYTES && self.bytes / archive_bytes.max(1) > MAX_PACK_RATIO {
            return Err(FormatError::invalid(
                self.what,
                format!(
                    "unpacks to {} MiB from a {:.1} KiB archive ({}:1, more than {MAX_PACK_RATIO}:1): refused as an archive bomb",
                    self.bytes >> 20,
                    archive_bytes as f64 / 1024.0,
                    self.bytes / archive_bytes.max(1)
                ),
            ));
        }
        Ok(())
    }
}

fn read_sdd(dir: &Path, what: &str) -> Result<Vec<ArchiveFile>, FormatError> {
    if !dir.is_dir() {
        return Err(FormatError::invalid(what, "a .sdd map must be a folder"));
    }
    read_folder(dir, what)
}

/// Every regular file below `dir`, with paths relative to it, within the archive limits.
/// Symbolic links are not followed.
pub fn read_folder(dir: &Path, what: &str) -> Result<Vec<ArchiveFile>, FormatError> {
    let mut budget = Budget {
        what,
        bytes: 0,
        entries: 0,
    };
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| FormatError::io(&d, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| FormatError::io(&d, e))?;
            let p = entry.path();
            let ft = entry.file_type().map_err(|e| FormatError::io(&p, e))?;
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file() {
                let len = entry.metadata().map_err(|e| FormatError::io(&p, e))?.len();
                let rel = p
                    .strip_prefix(dir)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned();
                budget.take(&rel, len, None)?;
                let data = std::fs::read(&p).map_err(|e| FormatError::io(&p, e))?;
                files.push(ArchiveFile::new(normalize_entry_path(&rel, what)?, data));
            }
            // symbolic links are not followed: they could point anywhere
        }
    }
    Ok(files)
}

/// Whether an entry is streamed to a scratch file rather than held in memory: large files
/// the map readers do not parse (the `.smf`, `.smt` and Lua are always read).
fn spills(path: &str, size: u64) -> bool {
    let lower = path.to_ascii_lowercase();
    size > ArchiveFile::SPILL_BYTES
        && ![".smf", ".smt", ".lua"]
            .iter()
            .any(|ext| lower.ends_with(ext))
}

fn read_sdz(path: &Path, what: &str) -> Result<Vec<ArchiveFile>, FormatError> {
    let file = std::fs::File::open(path).map_err(|e| FormatError::io(path, e))?;
    let mut zip = zip::ZipArchive::new(std::io::BufReader::new(file))
        .map_err(|e| FormatError::invalid(what, format!("not a readable zip: {e}")))?;
    let mut budget = Budget {
        what,
        bytes: 0,
        entries: 0,
    };
    let archive_bytes = std::fs::metadata(path).map_or(u64::MAX, |m| m.len());
    let mut files = Vec::new();
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| FormatError::invalid(what, format!("zip entry {i}: {e}")))?;
        if entry.is_dir() {
            continue;
        }
        let name = entry
            .name()
            .map_err(|e| FormatError::invalid(what, format!("zip entry {i}: {e}")))?
            .into_owned();
        let path = normalize_entry_path(&name, what)?;
        let size = entry.size();
        budget.take(&name, size, Some(entry.compressed_size()))?;
        if spills(&path, size) {
            let file = ArchiveFile::spilled(path, &mut entry, size)
                .map_err(|e| FormatError::invalid(what, format!("zip entry {name}: {e}")))?;
            files.push(file);
            budget.check_total(archive_bytes)?;
            continue;
        }
        let mut data = Vec::with_capacity(size.min(1 << 28) as usize);
        (&mut entry)
            .take(size + 1)
            .read_to_end(&mut data)
            .map_err(|e| FormatError::invalid(what, format!("zip entry {name}: {e}")))?;
        if data.len() as u64 != size {
            return Err(FormatError::invalid(
                what,
                format!(
                    "zip entry {name} unpacks to {} bytes, not the {size} it declares",
                    data.len()
                ),
            ));
        }
        files.push(ArchiveFile::new(path, data));
        budget.check_total(archive_bytes)?;
    }
    Ok(files)
}

fn read_sd7(path: &Path, what: &str) -> Result<Vec<ArchiveFile>, FormatError> {
    let file = std::fs::File::open(path).map_err(|e| FormatError::io(path, e))?;
    let seven =
        |e: sevenz_rust2::Error| FormatError::invalid(what, format!("not a readable 7z: {e}"));
    // the decoder's own memory use (dictionaries), in KiB
    let mut reader = sevenz_rust2::ArchiveReader::new_with_memory_limit(
        std::io::BufReader::new(file),
        sevenz_rust2::Password::empty(),
        1 << 20,
    )
    .map_err(seven)?;
    let mut budget = Budget {
        what,
        bytes: 0,
        entries: 0,
    };
    // the declared sizes, before anything is unpacked
    for e in &reader.archive().files {
        if !e.is_directory() {
            normalize_entry_path(e.name(), what)?;
            budget.take(e.name(), e.size(), None)?;
        }
    }
    budget.check_total(std::fs::metadata(path).map_or(u64::MAX, |m| m.len()))?;
    let mut files = Vec::new();
    let mut failure = None;
    reader
        .for_each_entries(|entry, r| {
            if entry.is_directory() {
                return Ok(true);
            }
            let path = match normalize_entry_path(entry.name(), what) {
                Ok(p) => p,
                Err(e) => {
                    failure = Some(e);
                    return Ok(false);
                }
            };
            if spills(&path, entry.size()) {
                match ArchiveFile::spilled(path, r, entry.size()) {
                    Ok(f) => files.push(f),
                    Err(e) => {
                        failure = Some(FormatError::invalid(
                            what,
                            format!("7z entry {}: {e}", entry.name()),
                        ));
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
            let mut data = Vec::with_capacity(entry.size().min(1 << 28) as usize);
            r.take(entry.size() + 1).read_to_end(&mut data)?;
            // the real bytes, not only the declared ones
            if data.len() as u64 != entry.size() {
                failure = Some(FormatError::invalid(
                    what,
                    format!(
                        "7z entry {} unpacks to {} bytes, not the {} it declares",
                        entry.name(),
                        data.len(),
                        entry.size()
                    ),
                ));
                return Ok(false);
            }
            files.push(ArchiveFile::new(path, data));
            Ok(true)
        })
        .map_err(seven)?;
    match failure {
        Some(e) => Err(e),
        None => Ok(files),
    }
}

// -------------------------------------------------------------------------------------------
// writing

/// The key of a packed part of a `.sd7` entry: a hash of its bytes and of everything that
/// picks its packing.
pub type PackKey = [u8; 32];

/// Where the `.sd7` writer keeps the packed parts of large entries between writes, so a
/// re-export packs only the parts whose bytes changed. The compile cache is one.
pub trait PackStore: Sync {
    /// The part kept under `key`, if `check` (whole chunks of the part's size) accepts it.
    fn get(&self, key: &PackKey, check: &dyn Fn(&[u8]) -> bool) -> Option<Arc<Vec<u8>>>;
    /// Keeps this write's parts, each with its key and whether this write packed it (else it
    /// came from the store), in place of the last write's.
    fn keep(&self, packs: Vec<(PackKey, Arc<Vec<u8>>, bool)>);
    /// Counts parts taken from the store.
    fn count_reused(&self, parts: usize);
}

/// The LZMA2 level for `.sd7` (0..=9) and its chunk size: chunks are fixed, so the bytes do
/// not depend on the thread count.
const SD7_LEVEL: u32 = 1;
const SD7_CHUNK_BYTES: u64 = 2 << 20;
/// Dictionary and nice match length for data that packs well (smooth ground: tiles that
/// repeat far apart pay for the larger dictionary) and for data that does not (noisy ground:
/// BC1 blocks repeat only nearby and in short runs, and level 1's defaults spend 3.5x the
/// time for 0.5% fewer bytes). Measured on 16x16 maps, 2 cores, against 7-Zip's `-mx=1`
/// (`cargo bench --bench compile`).
const SD7_PACKABLE: (u32, u32) = (1 << 20, 32);
const SD7_NOISY: (u32, u32) = (64 << 10, 16);
/// Files bigger than this are sampled to decide; smaller ones always take `SD7_PACKABLE`.
const SD7_SAMPLE_BYTES: usize = 128 << 10;
/// A sample packing below this share of its size counts as packable.
const SD7_PACKABLE_RATIO: f64 = 0.5;
/// How much bigger, as a share of an entry's size, the literal-only stream may pack its
/// sample than LZMA with matches does and still be chosen: it is 3-5x as fast. Noisy BC1 tiles
/// pack smaller as literals (0.77 against 0.88); a real map's tiles, 0.64 against 0.63.
const SD7_LITERALS_SLACK: f64 = 0.02;

/// How one part of a large `.sd7` entry is packed ([`lzma2_parts`]).
enum Sd7Method {
    /// Every byte a literal in the context of its position ([`lzma_literals`]).
    Literals,
    /// LZMA2 with matches, by lzma-rust2, with this dictionary and nice length.
    Lzma2((u32, u32)),
}

/// LZMA2 at `SD7_LEVEL` with a dictionary and nice length, on `threads`.
fn sd7_lzma2(
    (dict, nice): (u32, u32),
    threads: u32,
) -> sevenz_rust2::encoder_options::Lzma2Options {
    let mut o = sevenz_rust2::encoder_options::Lzma2Options::from_level_mt(
        SD7_LEVEL,
        threads,
        SD7_CHUNK_BYTES,
    );
    o.set_dictionary_size(dict);
    o.set_nice_len(nice);
    o
}

/// The dictionary for a small entry: `SD7_PACKABLE`'s, or the entry's size rounded up to a
/// power of two where that is less (LZMA2's least is 4 KiB). No match reaches further back
/// than the entry's start, so a larger one packs nothing better; the coder clears all of it
/// for every entry, and a reader (the engine's too) allocates all the header declares.
fn small_entry_dict_bytes(entry_bytes: usize) -> u32 {
    let bytes = u32::try_from(entry_bytes).unwrap_or(u32::MAX);
    bytes
        .checked_next_power_of_two()
        .unwrap_or(u32::MAX)
        .clamp(4096, SD7_PACKABLE.0)
}

/// The packing of one part: a sample from its middle, packed with the fast LZMA2 settings and
/// as literals, decides between literals, `SD7_PACKABLE` and `SD7_NOISY`. The same bytes
/// always get the same method.
fn sd7_method(data: &[u8]) -> Sd7Method {
    if data.len() <= 2 * SD7_SAMPLE_BYTES {
        return Sd7Method::Lzma2(SD7_PACKABLE);
    }
    let mid = data.len() / 2 - SD7_SAMPLE_BYTES / 2;
    let sample = &data[mid..mid + SD7_SAMPLE_BYTES];
    let mut fast = lzma_rust2::Lzma2Options::with_preset(SD7_LEVEL);
    fast.lzma_options.dict_size = SD7_NOISY.0;
    fast.lzma_options.nice_len = SD7_NOISY.1;
    let mut w = lzma_rust2::Lzma2Writer::new(Vec::new(), fast);
    let packed = std::io::Write::write_all(&mut w, sample)
        .ok()
        .and_then(|()| w.finish().ok());
    let ratio = packed.map_or(1.0, |p| p.len() as f64 / sample.len() as f64);
    let literal_ratio = lzma_literals::encode(sample).len() as f64 / sample.len() as f64;
    if literal_ratio <= ratio + SD7_LITERALS_SLACK {
        Sd7Method::Literals
    } else if ratio < SD7_PACKABLE_RATIO {
        Sd7Method::Lzma2(SD7_PACKABLE)
    } else {
        Sd7Method::Lzma2(SD7_NOISY)
    }
}

/// Reports packing progress in bytes; returns false to cancel.
type PackProgress<'a> = dyn FnMut(u64, u64) -> bool + 'a;

/// The marker inside the I/O error a cancelled pack fails with. (Not `Interrupted`: `io::copy`
/// retries those forever.)
#[derive(Debug)]
struct PackCancelled;

impl std::fmt::Display for PackCancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("packing cancelled")
    }
}

impl std::error::Error for PackCancelled {}

fn is_cancel(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<PackCancelled>())
}

/// A reader that reports bytes read and fails when the job is cancelled.
struct Counted<'a, 'b> {
    data: &'a [u8],
    pos: usize,
    done: &'a mut u64,
    total: u64,
    progress: &'a mut PackProgress<'b>,
}

impl Read for Counted<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.data.len() - self.pos).min(1 << 20);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        *self.done += n as u64;
        if !(self.progress)(*self.done, self.total) {
            return Err(std::io::Error::other(PackCancelled));
        }
        Ok(n)
    }
}

/// A sibling path for work in progress.
fn temp_sibling(out: &Path, tag: &str) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{tag}-{}", std::process::id()));
    out.with_file_name(name)
}

/// Writes `files` as the archive `out` (its kind from the extension), entries sorted by path.
/// Nothing appears at `out` unless the whole archive was written.
pub fn write_archive(
    out: &Path,
    files: &[ArchiveFile],
    progress: &mut PackProgress,
) -> Result<(), FormatError> {
    write_archive_cached(out, files, progress, None)
}

/// [`write_archive`], reusing what is already there: a `.sdd` folder at `out` keeps the files
/// whose bytes are unchanged (the changed ones are written beside theirs and renamed over
/// them at the end); a `.sd7` takes the packed stream of every large entry that `cache` holds
/// for its bytes instead of packing it again. The bytes are the same either way.
pub fn write_archive_cached(
    out: &Path,
    files: &[ArchiveFile],
    progress: &mut PackProgress,
    cache: Option<&dyn PackStore>,
) -> Result<(), FormatError> {
    let what = out.display().to_string();
    let kind = ArchiveKind::from_path(out)
        .ok_or_else(|| FormatError::invalid(&what, "the output must end in .sd7, .sdz or .sdd"))?;
    let mut sorted: Vec<&ArchiveFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    if kind == ArchiveKind::Sdd && out.is_dir() {
        return update_sdd(out, &sorted, progress).map_err(|e| e.disk_full_as(out));
    }
    let tmp = temp_sibling(out, "partial");
    let mut packed = Vec::new();
    let result = match kind {
        ArchiveKind::Sdd => write_sdd(&tmp, &sorted, progress),
        ArchiveKind::Sdz => write_sdz(&tmp, &sorted, progress),
        ArchiveKind::Sd7 => write_sd7(&tmp, &sorted, progress, cache, &mut packed),
    };
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        let _ = std::fs::remove_file(&tmp);
        return Err(e.disk_full_as(out));
    }
    replace_with(&tmp, out, kind == ArchiveKind::Sdd)?;
    if let Some(c) = cache {
        c.keep(packed);
    }
    Ok(())
}

/// Brings the `.sdd` folder `dir` in step with `files`: unchanged files stay untouched, changed
/// and new ones are written beside their place and renamed into it once all are written (a
/// cancel before then leaves the folder as it was), and files that are no longer in the map go.
fn update_sdd(
    dir: &Path,
    files: &[&ArchiveFile],
    progress: &mut PackProgress,
) -> Result<(), FormatError> {
    let total = total_bytes(files);
    let mut done = 0;
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut keep = std::collections::HashSet::new();
    let unstage = |staged: &[(PathBuf, PathBuf)]| {
        for (tmp, _) in staged {
            let _ = std::fs::remove_file(tmp);
        }
    };
    for f in files {
        let rel = normalize_entry_path(&f.path, "archive")?;
        let p = dir.join(&rel);
        keep.insert(p.clone());
        let same = std::fs::metadata(&p).is_ok_and(|m| m.is_file() && m.len() == f.len())
            && match (std::fs::read(&p), f.bytes()) {
                (Ok(old), Ok(new)) => old == *new,
                _ => false,
            };
        if !same {
            if let Some(parent) = p.parent()
                && let Err(e) = std::fs::create_dir_all(parent)
            {
                unstage(&staged);
                return Err(FormatError::io(parent, e));
            }
            let tmp = temp_sibling(&p, "partial");
            if let Err(e) = f.write_to(&tmp) {
                let _ = std::fs::remove_file(&tmp);
                unstage(&staged);
                return Err(FormatError::io(&p, e));
            }
            staged.push((tmp, p));
        }
        done += f.len();
        if !progress(done, total) {
            unstage(&staged);
            return Err(FormatError::Cancelled);
        }
    }
    for (tmp, p) in &staged {
        if p.is_dir() {
            let _ = std::fs::remove_dir_all(p);
        }
        std::fs::rename(tmp, p).map_err(|e| FormatError::io(p, e))?;
    }
    remove_others(dir, &keep);
    Ok(())
}

/// Removes what under `dir` is not in `keep` (files, then folders left empty).
fn remove_others(dir: &Path, keep: &std::collections::HashSet<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => {
                remove_others(&p, keep);
                let _ = std::fs::remove_dir(&p); // only when empty
            }
            Ok(_) if !keep.contains(&p) => {
                let _ = std::fs::remove_file(&p);
            }
            _ => {}
        }
    }
}

/// Moves the finished `tmp` to `out`, replacing what was there.
fn replace_with(tmp: &Path, out: &Path, is_dir: bool) -> Result<(), FormatError> {
    if is_dir && out.exists() {
        let old = temp_sibling(out, "old");
        std::fs::rename(out, &old).map_err(|e| FormatError::io(out, e))?;
        if let Err(e) = std::fs::rename(tmp, out) {
            let _ = std::fs::rename(&old, out);
            return Err(FormatError::io(out, e));
        }
        std::fs::remove_dir_all(&old).map_err(|e| FormatError::io(&old, e))
    } else {
        std::fs::rename(tmp, out).map_err(|e| FormatError::io(out, e))
    }
}

fn total_bytes(files: &[&ArchiveFile]) -> u64 {
    files.iter().map(|f| f.len()).sum()
}

fn cancelled_or(e: std::io::Error, path: &Path) -> FormatError {
    if is_cancel(&e) {
        FormatError::Cancelled
    } else {
        FormatError::io(path, e)
    }
}

fn write_sdd(
    dir: &Path,
    files: &[&ArchiveFile],
    progress: &mut PackProgress,
) -> Result<(), FormatError> {
    let total = total_bytes(files);
    let mut done = 0;
    std::fs::create_dir_all(dir).map_err(|e| FormatError::io(dir, e))?;
    for f in files {
        let p = dir.join(normalize_entry_path(&f.path, "archive")?);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| FormatError::io(parent, e))?;
        }
        f.write_to(&p).map_err(|e| FormatError::io(&p, e))?;
        done += f.len();
        if !progress(done, total) {
            return Err(FormatError::Cancelled);
        }
    }
    Ok(())
}

fn write_sdz(
    path: &Path,
    files: &[&ArchiveFile],
    progress: &mut PackProgress,
) -> Result<(), FormatError> {
    let total = total_bytes(files);
    let mut done = 0;
    let file = std::fs::File::create(path).map_err(|e| FormatError::io(path, e))?;
    let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(file));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default())
        .large_file(total > u32::MAX as u64);
    let zerr = |e: zip::result::ZipError| match e {
        zip::result::ZipError::Io(io) => cancelled_or(io, path),
        e => FormatError::invalid(path.display().to_string(), e.to_string()),
    };
    for f in files {
        zip.start_file(f.path.as_str(), options).map_err(zerr)?;
        // a spilled file is read back for packing, one at a time
        let data = f.bytes().map_err(|e| FormatError::io(path, e))?;
        let mut r = Counted {
            data: &data,
            pos: 0,
            done: &mut done,
            total,
            progress,
        };
        std::io::copy(&mut r, &mut zip).map_err(|e| cancelled_or(e, path))?;
    }
    let mut inner = zip.finish().map_err(zerr)?;
    inner.flush().map_err(|e| FormatError::io(path, e))?;
    Ok(())
}

fn write_sd7(
    path: &Path,
    files: &[&ArchiveFile],
    progress: &mut PackProgress,
    cache: Option<&dyn PackStore>,
    packed: &mut Vec<sd7_cache::PackedEntry>,
) -> Result<(), FormatError> {
    let file = std::fs::File::create(path).map_err(|e| FormatError::io(path, e))?;
    write_sd7_to(
        std::io::BufWriter::new(file),
        path,
        files,
        progress,
        cache,
        packed,
    )
}

/// Packs `files` as a 7z into `out`; `path` names it in errors. Entries of at least
/// `OWN_PACK_MIN_BYTES` are packed first, part by part on all the cores
/// ([`sd7_cache::own_packs`]), each as a one-entry 7z whose block is then copied into the
/// archive; with a `cache`, the parts it holds are taken instead of packed, and the parts of
/// this compile are listed in `packed` for it to keep.
fn write_sd7_to<W: Write + Seek>(
    out: W,
    path: &Path,
    files: &[&ArchiveFile],
    progress: &mut PackProgress,
    cache: Option<&dyn PackStore>,
    packed: &mut Vec<sd7_cache::PackedEntry>,
) -> Result<(), FormatError> {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let total = total_bytes(files);
    let serr = |e: sevenz_rust2::Error| match e {
        sevenz_rust2::Error::Io(io, _) => cancelled_or(io, path),
        e if e.to_string().contains("packing cancelled") => FormatError::Cancelled,
        e => FormatError::invalid(path.display().to_string(), format!("7z: {e}")),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
    let own: Vec<usize> = (0..files.len())
        .filter(|&i| files[i].len() >= sd7_cache::OWN_PACK_MIN_BYTES as u64)
        .collect();
    let own_files: Vec<&ArchiveFile> = own.iter().map(|&i| files[i]).collect();
    let done = AtomicU64::new(0);
    let cancel = AtomicBool::new(false);
    let own_packs = std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let mut kept = Vec::new();
            sd7_cache::own_packs(&own_files, cache, &cancel, &done, &mut kept)
                .map(|packs| (packs, kept))
        });
        while !worker.is_finished() {
            std::thread::sleep(std::time::Duration::from_millis(20));
            if !progress(done.load(Ordering::Relaxed), total) {
                cancel.store(true, Ordering::Relaxed);
            }
        }
        worker
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    });
    let (mut own_packs, kept) = own_packs.map_err(serr)?;
    if cancel.load(Ordering::Relaxed) {
        return Err(FormatError::Cancelled);
    }
    let mut done = done.into_inner();
    let mut sz = sevenz_rust2::ArchiveWriter::new(out).map_err(serr)?;
    let mut next_own = own.iter().zip(own_packs.iter_mut()).peekable();
    for (i, f) in files.iter().enumerate() {
        if let Some((_, pack)) = next_own.next_if(|(j, _)| **j == i) {
            let mut reader = std::io::Cursor::new(pack.bytes.as_slice());
            sz.push_raw_block(&pack.archive, 0, &mut reader, |_| f.path.clone())
                .map_err(serr)?;
            if let Some(c) = cache {
                c.count_reused(pack.parts_reused);
            }
            continue;
        }
        let data = f.bytes().map_err(|e| FormatError::io(path, e))?;
        // small entries (mapinfo.lua and the like) are never sampled
        let packing = (small_entry_dict_bytes(data.len()), SD7_PACKABLE.1);
        sz.set_content_methods(vec![sd7_lzma2(packing, cores).into()]);
        // non-solid: one stream per entry, so the engine can read mapinfo.lua alone
        let r = Counted {
            data: &data,
            pos: 0,
            done: &mut done,
            total,
            progress,
        };
        sz.push_archive_entry(sevenz_rust2::ArchiveEntry::new_file(&f.path), Some(r))
            .map_err(serr)?;
    }
    packed.extend(kept);
    let mut inner = sz.finish().map_err(|e| cancelled_or(e, path))?;
    inner.flush().map_err(|e| FormatError::io(path, e))?;
    inner
        .seek(std::io::SeekFrom::Start(0))
        .map_err(|e| FormatError::io(path, e))?;
    Ok(())
}

pub(crate) mod lzma2_parts;
mod lzma_literals;
mod sd7_cache;

#[cfg(test)]
mod tests;
