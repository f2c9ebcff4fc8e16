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
        FormatError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
