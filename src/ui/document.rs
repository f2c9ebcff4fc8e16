//! The open document: the map (shared with save jobs, copied on write), where it lives on
//! disk, its undo history and whether it has unsaved changes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::edit::History;
use crate::map::Map;

pub struct Document {
    pub map: Arc<Map>,
    /// The project folder Save writes to; `None` until saved once (a starter or opened map).
    pub project_dir: Option<PathBuf>,
    /// What it was opened from, for the title and the recent list.
    pub opened_from: Option<PathBuf>,
    /// The importer's report for an imported map, saved beside the project.
    pub import_report: Option<String>,
    pub history: History,
    /// Changed since it was opened or last saved.
    pub dirty: bool,
    /// Bumped on every change, so views know to refresh what they derive from the map.
    pub revision: u64,
}

impl Document {
    pub fn new(map: Map, opened_from: Option<PathBuf>) -> Document {
        let is_project = opened_from
            .as_deref()
            .is_some_and(crate::formats::is_project);
        Document {
            map: Arc::new(map),
            project_dir: if is_project {
                opened_from.clone()
            } else {
                None
            },
            opened_from,
            import_report: None,
            history: History::default(),
            dirty: false,
            revision: 0,
        }
    }

    /// The map for editing; copied first only if a save job still holds it.
    pub fn map_mut(&mut self) -> &mut Map {
        self.dirty = true;
        self.revision += 1;
        Arc::make_mut(&mut self.map)
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
            if self.dirty { "*" } else { "" },
            self.map.settings.name,
            file
        )
    }
}

/// Writes `map` as a project folder at `dir`.
pub fn save_project_dir(map: &Map, dir: &Path) -> Result<(), String> {
    crate::formats::save_project(map, dir).map_err(|e| e.to_string())
}
