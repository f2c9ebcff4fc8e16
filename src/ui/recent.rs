//! The recent-files list, kept in a small text file (one path a line) under the user's config
//! folder: `$XDG_CONFIG_HOME/groundwork/recent.txt`, `~/.config/...`, `%APPDATA%\groundwork\`,
//! or `~/Library/Application Support/groundwork/`.

use std::path::{Path, PathBuf};

/// How many paths the list keeps.
const MAX_RECENT: usize = 10;

#[derive(Debug, Default)]
pub struct RecentFiles {
    /// Where the list is stored; `None` keeps it in memory only.
    file: Option<PathBuf>,
    paths: Vec<PathBuf>,
}

/// The editor's config folder for this user, if one can be found.
pub fn config_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        env("APPDATA")
    } else if cfg!(target_os = "macos") {
        env("HOME").map(|h| h.join("Library/Application Support"))
    } else {
        env("XDG_CONFIG_HOME").or_else(|| env("HOME").map(|h| h.join(".config")))
    };
    base.map(|b| b.join("groundwork"))
}

impl RecentFiles {
    /// The user's list, read from their config folder (empty when there is none yet).
    pub fn load_default() -> RecentFiles {
        match config_dir() {
            Some(dir) => RecentFiles::load(dir.join("recent.txt")),
            None => RecentFiles::default(),
        }
    }

    /// The list stored in `file`.
    pub fn load(file: PathBuf) -> RecentFiles {
        let paths = std::fs::read_to_string(&file)
            .map(|s| {
                s.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(PathBuf::from)
                    .take(MAX_RECENT)
                    .collect()
            })
            .unwrap_or_default();
        RecentFiles {
            file: Some(file),
            paths,
        }
    }

    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Puts `path` first and stores the list; the error says why it could not be stored.
    pub fn push(&mut self, path: &Path) -> Result<(), String> {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.paths.retain(|p| p != &path);
        self.paths.insert(0, path);
        self.paths.truncate(MAX_RECENT);
        self.store()
    }

    /// Drops `path` (it could not be opened) and stores the list.
    pub fn remove(&mut self, path: &Path) -> Result<(), String> {
        self.paths.retain(|p| p != path);
        self.store()
    }

    fn store(&self) -> Result<(), String> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let mut text = String::new();
        for p in &self.paths {
            text.push_str(&p.to_string_lossy());
            text.push('\n');
        }
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let tmp = file.with_extension("txt.tmp");
        std::fs::write(&tmp, text)
            .and_then(|_| std::fs::rename(&tmp, file))
            .map_err(|e| format!("cannot store recent files in {}: {e}", file.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_persist_newest_first_without_duplicates() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cfg/recent.txt");
        let a = dir.path().join("a.sd7");
        let b = dir.path().join("b");
        std::fs::write(&a, b"x").unwrap();
        std::fs::create_dir(&b).unwrap();
        let mut r = RecentFiles::load(file.clone());
        assert!(r.paths().is_empty());
        r.push(&a).unwrap();
        r.push(&b).unwrap();
        r.push(&a).unwrap();
        let again = RecentFiles::load(file);
        assert_eq!(again.paths().len(), 2);
        assert!(again.paths()[0].ends_with("a.sd7"));
        assert!(again.paths()[1].ends_with("b"));
    }

    #[test]
    fn the_list_is_capped() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = RecentFiles::load(dir.path().join("recent.txt"));
        for i in 0..15 {
            r.push(&dir.path().join(format!("m{i}.sd7"))).unwrap();
        }
        assert_eq!(r.paths().len(), MAX_RECENT);
        assert!(r.paths()[0].ends_with("m14.sd7"));
    }
}
