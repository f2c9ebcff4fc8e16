//! Autosave and recovery. Every [`AUTOSAVE_INTERVAL`] and whenever the window loses focus, a
//! map with unsaved changes is saved as a project into the editor's config folder
//! (`autosave/`), from a snapshot of the document on a worker thread, so no frame waits; the
//! project save is atomic, so a kill mid-autosave keeps the previous one. `origin.txt` beside
//! it says where the map came from. A save, or quitting with nothing unsaved, removes it; one
//! found at start means the editor did not end cleanly, and the user is offered to recover it
//! or discard it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant, SystemTime};

use crate::map::Map;

/// How often a changed map is autosaved.
const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(180);
/// The folder under the config folder, and the file naming where the map came from.
const AUTOSAVE_DIR: &str = "autosave";
const ORIGIN_FILE: &str = "origin.txt";

/// An autosave left by a session that did not end cleanly.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovery {
    /// The autosaved project folder.
    pub project: PathBuf,
    /// Where the map lived (a project folder or a map), when it was saved or opened from one.
    pub origin: Option<PathBuf>,
    pub saved_at: SystemTime,
}

#[derive(Debug)]
pub struct Autosave {
    /// The autosave folder; `None` when there is no config folder (nothing is autosaved).
    dir: Option<PathBuf>,
    /// The document revision the last autosave wrote, and when it started.
    saved_revision: Option<u64>,
    last: Instant,
    running: Option<(u64, Receiver<Result<(), String>>)>,
}

impl Autosave {
    /// Autosaves under `config_dir` (the editor's config folder).
    pub fn new(config_dir: Option<&Path>) -> Autosave {
        Autosave {
            dir: config_dir.map(|d| d.join(AUTOSAVE_DIR)),
            saved_revision: None,
            last: Instant::now(),
            running: None,
        }
    }

    /// The autosave a previous session left, if it is a whole project.
    pub fn recovery(&self) -> Option<Recovery> {
        let dir = self.dir.as_ref()?;
        let toml = dir.join(crate::formats::project::PROJECT_FILE);
        let saved_at = std::fs::metadata(&toml).ok()?.modified().ok()?;
        let origin = std::fs::read_to_string(dir.join(ORIGIN_FILE))
            .ok()
            .map(|s| PathBuf::from(s.trim()))
            .filter(|p| !p.as_os_str().is_empty());
        Some(Recovery {
            project: dir.clone(),
            origin,
            saved_at,
        })
    }

    /// Called every frame: starts an autosave of `map` (at `revision`, with unsaved changes
    /// when `dirty`) when the interval has passed or the window lost focus this frame.
    pub fn tick(
        &mut self,
        map: &Arc<Map>,
        revision: u64,
        dirty: bool,
        origin: Option<&Path>,
        lost_focus: bool,
        now: Instant,
    ) {
        let due = lost_focus || now.duration_since(self.last) >= AUTOSAVE_INTERVAL;
        if !due || !dirty || self.running.is_some() || self.saved_revision == Some(revision) {
            return;
        }
        let Some(dir) = self.dir.clone() else { return };
        self.last = now;
        let snapshot = map.clone();
        let origin = origin.map(|p| p.to_path_buf());
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("autosave".into())
            .spawn(move || {
                let saved = crate::formats::save_project(&snapshot, &dir)
                    .map_err(|e| e.to_string())
                    .and_then(|()| {
                        let text = origin.map(|p| p.display().to_string()).unwrap_or_default();
                        std::fs::write(dir.join(ORIGIN_FILE), text).map_err(|e| e.to_string())
                    });
                let _ = tx.send(saved);
            });
        if spawned.is_ok() {
            self.running = Some((revision, rx));
        }
    }

    /// Picks up a finished autosave; returns a line for the log.
    pub fn poll(&mut self) -> Option<Result<String, String>> {
        let (revision, rx) = self.running.as_ref()?;
        let result = match rx.try_recv() {
            Ok(r) => r,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => Err("the autosave thread stopped".into()),
        };
        let revision = *revision;
        self.running = None;
        Some(match result {
            Ok(()) => {
                self.saved_revision = Some(revision);
                Ok("autosaved".to_string())
            }
            Err(e) => Err(format!("autosave failed: {e}")),
        })
    }

    /// Whether an autosave is being written.
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// Removes the autosave (the map was saved, or the session ends with nothing unsaved, or
    /// the user discarded it).
    pub fn clear(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        self.saved_revision = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait(a: &mut Autosave) -> Result<String, String> {
        let t0 = Instant::now();
        loop {
            if let Some(r) = a.poll() {
                return r;
            }
            assert!(t0.elapsed().as_secs() < 60);
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn losing_focus_or_the_interval_autosaves_changes_once() {
        let config = tempfile::tempdir().unwrap();
        let mut a = Autosave::new(Some(config.path()));
        assert!(a.recovery().is_none());
        let map = Arc::new(crate::edit::procedural::relief_map(
            crate::map::MapSize::new(2, 2).unwrap(),
            2,
            "Autosaved",
        ));
        let now = Instant::now();
        // nothing unsaved: nothing written
        a.tick(&map, 1, false, None, true, now);
        assert!(!a.busy());
        // focus lost with changes: written, with where it came from
        let origin = Path::new("/maps/Autosaved");
        a.tick(&map, 2, true, Some(origin), false, now);
        assert!(!a.busy(), "focus was not lost yet");
        a.tick(&map, 2, true, Some(origin), true, now);
        assert!(a.busy());
        assert_eq!(wait(&mut a).unwrap(), "autosaved");
        let r = a.recovery().unwrap();
        assert_eq!(r.origin.as_deref(), Some(origin));
        let back = crate::formats::load_project(&r.project).unwrap().map;
        assert_eq!(back.height_words(), map.height_words());
        // the same revision again: not written again; the interval with a new one: written
        a.tick(&map, 2, true, None, false, now + AUTOSAVE_INTERVAL * 2);
        assert!(!a.busy());
        a.tick(&map, 3, true, None, false, now + AUTOSAVE_INTERVAL * 3);
        assert!(a.busy());
        wait(&mut a).unwrap();
        a.clear();
        assert!(a.recovery().is_none());
    }
}
