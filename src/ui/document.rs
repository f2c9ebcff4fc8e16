//! The open document: the editing session (the map, its undo history and revision, the stroke
//! in progress), where it lives on disk, and the import report it came with.

use std::path::{Path, PathBuf};

use crate::edit::Session;
use crate::map::Map;

pub struct Document {
    pub session: Session,
    /// The project folder Save writes to; `None` until saved once (a starter or opened map).
    pub project_dir: Option<PathBuf>,
    /// What it was opened from, for the title and the recent list.
    pub opened_from: Option<PathBuf>,
    /// The importer's report for an imported map, saved beside the project.
    pub import_report: Option<String>,
}

impl Document {
    pub fn new(map: Map, opened_from: Option<PathBuf>) -> Document {
        let is_project = opened_from
            .as_deref()
            .is_some_and(crate::formats::is_project);
        Document {
            session: Session::new(map),
            project_dir: if is_project {
                opened_from.clone()
            } else {
                None
            },
            opened_from,
            import_report: None,
        }
    }

    pub fn map(&self) -> &Map {
        self.session.map()
    }

    /// Changed since it was opened or last saved.
    pub fn dirty(&self) -> bool {
        self.session.dirty()
    }

    /// For the window title: the map's name, its file, and a star when unsaved.
    pub fn title(&self) -> String {
        let file = self
            .project_dir
            .as_ref()
            .or(self.opened_from.as_ref())
            .map(|p| format!(" ({})", p.display()))
            .unwrap_or_default();
        format!(
            "{}{}{} - Groundwork",
            if self.dirty() { "*" } else { "" },
            self.map().settings.name,
            file
        )
    }
}

/// Writes `map` as a project folder at `dir`.
pub fn save_project_dir(map: &Map, dir: &Path) -> Result<(), String> {
    crate::formats::save_project(map, dir).map_err(|e| e.to_string())
}
