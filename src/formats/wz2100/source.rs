//! Where Warzone 2100 files come from: a `.wz` archive (zip) or a folder, read through one
//! interface with every read bounded, so a hostile archive cannot make us allocate gigabytes.

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::formats::FormatError;

/// The largest single file we read out of a source. The biggest real file (a 256x256 `game.map`
/// of version 40) is about 256 KiB; tile art is a few KiB; JSON a few hundred KiB.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;
/// The most entries we look at in an archive or folder listing.
const MAX_ENTRIES: usize = 200_000;

/// A `.wz` archive or a folder, with its file names relative to its root, `/`-separated.
pub enum Source {
    Zip {
        path: PathBuf,
        archive: zip::ZipArchive<File>,
        /// lower-cased name -> (real name, index)
        index: HashMap<String, (String, usize)>,
    },
    Dir {
        root: PathBuf,
    },
}

impl Source {
    /// Opens a `.wz` (zip) file or a folder.
    pub fn open(path: &Path) -> Result<Source, FormatError> {
        let meta = std::fs::metadata(path).map_err(|e| FormatError::io(path, e))?;
        if meta.is_dir() {
            return Ok(Source::Dir {
                root: path.to_path_buf(),
            });
        }
        let file = File::open(path).map_err(|e| FormatError::io(path, e))?;
        let archive = zip::ZipArchive::new(file).map_err(|e| {
            FormatError::invalid(
                path.display().to_string(),
                format!("not a Warzone 2100 .wz archive (a zip file) nor a folder: {e}"),
            )
        })?;
        if archive.len() > MAX_ENTRIES {
            return Err(FormatError::invalid(
                path.display().to_string(),
                format!(
                    "archive lists {} entries, more than we accept",
                    archive.len()
                ),
            ));
        }
        let mut index = HashMap::new();
        for (i, name) in archive.file_names_raw().enumerate() {
            let name = String::from_utf8_lossy(name).replace('\\', "/");
            if name.ends_with('/') {
                continue;
            }
            index.insert(name.to_ascii_lowercase(), (name, i));
        }
        Ok(Source::Zip {
            path: path.to_path_buf(),
            archive,
            index,
        })
    }

    /// A short name for messages: the archive or folder name.
    pub fn label(&self) -> String {
        let p = match self {
            Source::Zip { path, .. } => path,
            Source::Dir { root } => root,
        };
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.display().to_string())
    }

    pub fn is_dir(&self) -> bool {
        matches!(self, Source::Dir { .. })
    }

    /// The folder a `Dir` source is rooted at.
    pub fn root_dir(&self) -> Option<&Path> {
        match self {
            Source::Dir { root } => Some(root),
            Source::Zip { .. } => None,
        }
    }

    /// Every file name in an archive (real spelling), sorted.
    pub fn archive_names(&self) -> Vec<String> {
        match self {
            Source::Zip { index, .. } => {
                let mut v: Vec<String> = index.values().map(|(n, _)| n.clone()).collect();
                v.sort();
                v
            }
            Source::Dir { .. } => Vec::new(),
        }
    }

    /// The names in folder `rel` ("" for the root) of a `Dir` source: (name, is_dir), sorted.
    pub fn dir_entries(&self, rel: &str) -> Vec<(String, bool)> {
        let Source::Dir { root } = self else {
            return Vec::new();
        };
        let dir = if rel.is_empty() {
            root.clone()
        } else {
            root.join(rel)
        };
        let Ok(rd) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut v: Vec<(String, bool)> = rd
            .take(MAX_ENTRIES)
            .filter_map(|e| e.ok())
            .map(|e| {
                let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
                (e.file_name().to_string_lossy().into_owned(), is_dir)
            })
            .collect();
        v.sort();
        v
    }

    /// Whether `rel` exists (case-insensitively in an archive).
    pub fn exists(&self, rel: &str) -> bool {
        match self {
            Source::Zip { index, .. } => index.contains_key(&rel.to_ascii_lowercase()),
            Source::Dir { root } => root.join(rel).is_file(),
        }
    }

    /// Reads `rel` whole; `Ok(None)` when it is not there. Files larger than
    /// [`MAX_FILE_BYTES`] are an error, checked before reading.
    pub fn read(&mut self, rel: &str) -> Result<Option<Vec<u8>>, FormatError> {
        match self {
            Source::Zip {
                path,
                archive,
                index,
            } => {
                let Some((name, i)) = index.get(&rel.to_ascii_lowercase()).cloned() else {
                    return Ok(None);
                };
                let what = format!("{}: {name}", path.display());
                let entry = archive
                    .by_index(i)
                    .map_err(|e| FormatError::invalid(&what, format!("cannot read: {e}")))?;
                if entry.size() > MAX_FILE_BYTES {
                    return Err(FormatError::invalid(
                        what,
                        format!("{} bytes, more than we read from one file", entry.size()),
                    ));
                }
                let mut buf = Vec::with_capacity(entry.size() as usize);
                entry
                    .take(MAX_FILE_BYTES + 1)
                    .read_to_end(&mut buf)
                    .map_err(|e| FormatError::invalid(&what, format!("cannot unpack: {e}")))?;
                if buf.len() as u64 > MAX_FILE_BYTES {
                    return Err(FormatError::invalid(what, "larger than its header says"));
                }
                Ok(Some(buf))
            }
            Source::Dir { root } => {
                let p = root.join(rel);
                let meta = match std::fs::metadata(&p) {
                    Ok(m) if m.is_file() => m,
                    Ok(_) => return Ok(None),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                    Err(e) => return Err(FormatError::io(&p, e)),
                };
                if meta.len() > MAX_FILE_BYTES {
                    return Err(FormatError::invalid(
                        p.display().to_string(),
                        format!("{} bytes, more than we read from one file", meta.len()),
                    ));
                }
                std::fs::read(&p)
                    .map(Some)
                    .map_err(|e| FormatError::io(&p, e))
            }
        }
    }
}
