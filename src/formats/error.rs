//! The one error type every reader and writer returns: which file or format, and what is wrong.

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The bytes do not make a valid file of this format.
    #[error("{what}: {detail}")]
    Invalid { what: String, detail: String },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The disk filled up while writing `path` (what was there before is left as it was).
    #[error("no space left on device while writing {}", path.display())]
    DiskFull { path: PathBuf },
    /// A job was cancelled before it finished; nothing was written.
    #[error("cancelled")]
    Cancelled,
}

impl FormatError {
    /// An invalid-input error about `what` (a file name or format).
    pub fn invalid(what: impl Into<String>, detail: impl Into<String>) -> FormatError {
        FormatError::Invalid {
            what: what.into(),
            detail: detail.into(),
        }
    }

    pub fn io(path: &Path, source: std::io::Error) -> FormatError {
        if is_disk_full(&source) {
            return FormatError::DiskFull {
                path: path.to_path_buf(),
            };
        }
        FormatError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The same error, a full disk told as writing `path` (the name the user asked for rather
    /// than the temporary one being written).
    pub fn disk_full_as(self, path: &Path) -> FormatError {
        match self {
            FormatError::DiskFull { .. } => FormatError::DiskFull {
                path: path.to_path_buf(),
            },
            e => e,
        }
    }
}

/// Whether an I/O error means the disk (or the user's quota) is full.
pub fn is_disk_full(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
    )
}
