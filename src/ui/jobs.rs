//! Long jobs (open, import, save, export) on a worker thread, with progress the window shows while it
//! stays responsive. A job ends with one [`Outcome`], picked up by polling each frame.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::formats::import_report::{IMPORT_REPORT_FILE, ImportReport};
use crate::gpu::{GpuContext, MapScene, Renderer};
use crate::import::{Listing, Settings};
use crate::map::Map;

/// What the worker is doing, shared with the window.
#[derive(Debug, Default)]
pub struct Progress {
    stage: Mutex<String>,
    done: AtomicU64,
    total: AtomicU64,
}

impl Progress {
    fn set_stage(&self, stage: &str) {
        if let Ok(mut s) = self.stage.lock() {
            *s = stage.to_string();
        }
        self.done.store(0, Ordering::Relaxed);
        self.total.store(0, Ordering::Relaxed);
    }
    pub fn set(&self, done: u64, total: u64) {
        self.done.store(done, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }
    pub fn stage(&self) -> String {
        self.stage.lock().map(|s| s.clone()).unwrap_or_default()
    }
    /// (done, total) of the stage.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
    /// 0..1, or `None` while the stage cannot say how far it is.
    pub fn fraction(&self) -> Option<f32> {
        let total = self.total.load(Ordering::Relaxed);
        (total > 0).then(|| self.done.load(Ordering::Relaxed) as f32 / total as f32)
    }
}

/// Where a map comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The starter map shipped with the editor.
    Starter,
    /// A new map (File > New).
    New(Box<crate::edit::new_map::NewMap>),
    /// A project folder or a map the readers open (`.sd7`, `.sdz`, `.sdd`, `.smf`).
    Path(PathBuf),
    /// One map of another game's source, imported by the importer registered as `importer`
    /// (`None`: the only map the source holds).
    Import {
        importer: &'static str,
        path: PathBuf,
        map: Option<String>,
        settings: Settings,
    },
}

impl Source {
    pub fn describe(&self) -> String {
        match self {
            Source::Starter => "the starter map".into(),
            Source::New(spec) => format!("a new {}x{} map", spec.width_units, spec.depth_units),
            Source::Path(p) => p.display().to_string(),
            Source::Import {
                importer,
                path,
                map,
                ..
            } => {
                let game = crate::import::find(importer).map_or("imported", |i| i.game());
                match map {
                    Some(map) => format!("{game} map {map} from {}", path.display()),
                    None => format!("{game} map {}", path.display()),
                }
            }
        }
    }

    /// The file it was read from, for the title (`None` for the starter map).
    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::Starter | Source::New(_) => None,
            Source::Path(p) | Source::Import { path: p, .. } => Some(p),
        }
    }

    /// Whether it goes through an importer (the result is a new, unsaved map).
    fn is_import(&self) -> bool {
        matches!(self, Source::Import { .. })
    }
}

/// What a path given to the editor (command line, drop, recent list) is: a map to open, or
/// another game's source, whose maps the importer lists first (one importable map imports at
/// once).
#[derive(Clone, Debug, PartialEq)]
pub enum PathKind {
    Open(PathBuf),
    Import(&'static str, PathBuf),
}

/// Sorts a path by its name and, for folders, by what they hold.
pub fn classify(path: &Path) -> PathKind {
    match crate::import::recognise(path) {
        Some(importer) => PathKind::Import(importer.id(), path.to_path_buf()),
        None => PathKind::Open(path.to_path_buf()),
    }
}

/// How a job ended.
pub enum Outcome {
    Opened {
        source: Source,
        map: Box<Map>,
        /// `None` when there is no GPU (the window then shows no view).
        scene: Option<Box<MapScene>>,
        warnings: Vec<String>,
        /// The importer's report (converted, dropped, guessed), for an imported map.
        report: Option<ImportReport>,
        seconds: f32,
    },
    /// The maps another game's source holds, for the user to pick one.
    Listed {
        importer: &'static str,
        source: PathBuf,
        maps: Vec<Listing>,
    },
    Saved {
        dir: PathBuf,
        seconds: f32,
    },
    /// An export wrote its archive into a maps folder and read it back.
    Exported(Box<crate::install::Installed>),
    /// An export found a map of that name and version there and was not to overwrite it.
    ExportRefused {
        existing: PathBuf,
        next_version: String,
    },
    /// An export was cancelled; the folder is as it was.
    ExportCancelled,
    Failed {
        what: String,
        error: String,
        source: Option<Source>,
    },
}

/// A running job.
pub struct Job {
    pub label: String,
    pub progress: Arc<Progress>,
    pub started: Instant,
    rx: Receiver<Outcome>,
}

impl Job {
    /// The outcome, once the worker has finished.
    pub fn poll(&self) -> Option<Outcome> {
        match self.rx.try_recv() {
            Ok(o) => Some(o),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Outcome::Failed {
                what: self.label.clone(),
                error: "the worker thread stopped without an answer".into(),
                source: None,
            }),
        }
    }
}

/// The GPU handles a worker needs to build a scene (wgpu devices are shared across threads).
#[derive(Clone)]
pub struct WorkerGpu {
    pub ctx: GpuContext,
    pub renderer: Arc<Renderer>,
}

fn spawn(
    label: String,
    repaint: egui::Context,
    work: impl FnOnce(&Progress) -> Outcome + Send + 'static,
) -> Job {
    let progress = Arc::new(Progress::default());
    let (tx, rx) = channel();
    let p = progress.clone();
    let what = label.clone();
    let spawned = std::thread::Builder::new()
        .name("groundwork job".into())
        .spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&p)))
                .unwrap_or_else(|e| Outcome::Failed {
                    what,
                    error: format!(
                        "internal error: {}",
                        e.downcast_ref::<String>()
                            .map(String::as_str)
                            .or_else(|| e.downcast_ref::<&str>().copied())
                            .unwrap_or("panic")
                    ),
                    source: None,
                });
            let _ = tx.send(outcome);
            repaint.request_repaint();
        });
    if let Err(e) = spawned {
        eprintln!("error: cannot start a worker thread: {e}");
    }
    Job {
        label,
        progress,
        started: Instant::now(),
        rx,
    }
}

/// Opens `source` and, given a GPU, puts it on the GPU too, all off the UI thread.
pub fn open(source: Source, gpu: Option<WorkerGpu>, repaint: egui::Context) -> Job {
    let label = format!("Opening {}", source.describe());
    let r = repaint.clone();
    spawn(label.clone(), repaint, move |p| {
        let t0 = Instant::now();
        p.set_stage(if source.is_import() {
            "importing"
        } else {
            "reading"
        });
        let read = match &source {
            Source::Starter => crate::assets::starter_map().map(|m| (m, Vec::new(), None)),
            Source::New(spec) => crate::edit::new_map::new_map(spec).map(|m| (m, Vec::new(), None)),
            Source::Path(path) => crate::formats::open_map(path)
                .map(|l| (l.map, l.warnings, None))
                .map_err(|e| e.to_string()),
            Source::Import {
                importer,
                path,
                map,
                settings,
            } => match crate::import::find(importer) {
                Some(i) => {
                    let mut progress = |stage: &str, done: u64, total: u64| {
                        if p.stage() != stage {
                            p.set_stage(stage);
                        }
                        p.set(done, total);
                        r.request_repaint();
                    };
                    i.import(path, map.as_deref(), settings, &mut progress)
                        .map(|(m, r)| (m, Vec::new(), Some(r)))
                        .map_err(|e| e.to_string())
                }
                None => Err(format!("no importer called {importer}")),
            },
        };
        let (map, warnings, report) = match read {
            Ok(x) => x,
            Err(error) => {
                return Outcome::Failed {
                    what: label,
                    error,
                    source: Some(source),
                };
            }
        };
        let scene = match gpu {
            Some(g) => {
                p.set_stage("uploading to the GPU");
                let mut report = |done: u64, total: u64| {
                    p.set(done, total);
                    r.request_repaint();
                };
                match MapScene::new(&g.ctx, &g.renderer.layouts, &map, &mut report) {
                    Ok(s) => Some(Box::new(s)),
                    Err(e) => {
                        return Outcome::Failed {
                            what: label,
                            error: e.to_string(),
                            source: Some(source),
                        };
                    }
                }
            }
            None => None,
        };
        Outcome::Opened {
            source,
            map: Box::new(map),
            scene,
            warnings,
            report,
            seconds: t0.elapsed().as_secs_f32(),
        }
    })
}

/// Lists the maps in another game's source, off the UI thread.
pub fn list(importer: &'static str, source: PathBuf, repaint: egui::Context) -> Job {
    let game = crate::import::find(importer).map_or("imported", |i| i.game());
    let label = format!("Listing the {game} maps in {}", source.display());
    spawn(label.clone(), repaint, move |p| {
        p.set_stage("reading the archive");
        let listed = match crate::import::find(importer) {
            Some(i) => i.list(&source).map_err(|e| e.to_string()),
            None => Err(format!("no importer called {importer}")),
        };
        match listed {
            Ok(maps) => Outcome::Listed {
                importer,
                source,
                maps,
            },
            Err(error) => Outcome::Failed {
                what: label,
                error,
                source: Some(Source::Path(source)),
            },
        }
    })
}

/// Saves `map` as a project folder at `dir`, off the UI thread, with the import report of an
/// imported map beside it. The map is shared, not copied: edits made meanwhile copy it on write.
pub fn save(map: Arc<Map>, report: Option<String>, dir: PathBuf, repaint: egui::Context) -> Job {
    let label = format!("Saving {}", dir.display());
    spawn(label.clone(), repaint, move |p| {
        let t0 = Instant::now();
        p.set_stage("writing the project folder");
        let saved = super::document::save_project_dir(&map, &dir).and_then(|()| match &report {
            Some(text) => {
                let path = dir.join(IMPORT_REPORT_FILE);
                std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
            }
            None => Ok(()),
        });
        match saved {
            Ok(()) => Outcome::Saved {
                dir,
                seconds: t0.elapsed().as_secs_f32(),
            },
            Err(error) => Outcome::Failed {
                what: label,
                error,
                source: None,
            },
        }
    })
}

/// Exports `map` (a snapshot: edits made meanwhile copy the document on write and stay out)
/// into the maps folder `dir` as BAR names it, in container `kind`, overwriting only when
/// told. `cancel` stops it within a stage's step; the folder is then as it was.
pub fn export(
    map: Arc<Map>,
    dir: PathBuf,
    kind: crate::formats::archive::ArchiveKind,
    overwrite: bool,
    cache: Arc<crate::compile::CompileCache>,
    cancel: Arc<std::sync::atomic::AtomicBool>,
    repaint: egui::Context,
) -> Job {
    use crate::install::{InstallError, install_map};
    let label = format!("Exporting {}", map.settings.name);
    let r = repaint.clone();
    spawn(label.clone(), repaint, move |p| {
        let report = |stage: crate::compile::Stage, done: u64, total: u64| {
            if p.stage() != stage.label() {
                p.set_stage(stage.label());
            }
            p.set(done, total);
            r.request_repaint();
        };
        let progress = crate::compile::Progress::new(&report, &cancel);
        // the texture layers bake on a GPU that runs compute when there is one (a headless
        // device of its own, made once), else on the CPU: the same texture within a level
        let options = crate::compile::CompileOptions {
            baker: crate::gpu::bake::baker_for(&map),
            cache: Some(cache),
            ..Default::default()
        };
        match install_map(&map, &dir, kind, overwrite, &options, &progress) {
            Ok(done) => Outcome::Exported(Box::new(done)),
            Err(InstallError::Exists {
                existing,
                next_version,
            }) => Outcome::ExportRefused {
                existing,
                next_version,
            },
            Err(InstallError::Cancelled) => Outcome::ExportCancelled,
            Err(InstallError::Failed(error)) => Outcome::Failed {
                what: label,
                error,
                source: None,
            },
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::MapSize;

    #[test]
    fn paths_sort_into_open_import_and_list() {
        let dir = tempfile::tempdir().unwrap();
        let wz_map = dir.path().join("2c-Test");
        std::fs::create_dir_all(&wz_map).unwrap();
        std::fs::write(wz_map.join("game.map"), b"map ").unwrap();
        let wz_data = dir.path().join("data");
        std::fs::create_dir_all(wz_data.join("multiplay").join("maps")).unwrap();
        let project = dir.path().join("Project");
        std::fs::create_dir_all(&project).unwrap();
        let p = |s: &str| PathBuf::from(s);
        assert_eq!(
            classify(&p("a/B.SC2Map")),
            PathKind::Import("sc2", p("a/B.SC2Map"))
        );
        assert_eq!(
            classify(&p("mp.wz")),
            PathKind::Import("wz2100", p("mp.wz"))
        );
        assert_eq!(
            classify(&wz_map),
            PathKind::Import("wz2100", wz_map.clone())
        );
        assert_eq!(
            classify(&wz_data),
            PathKind::Import("wz2100", wz_data.clone())
        );
        assert_eq!(classify(&project), PathKind::Open(project.clone()));
        assert_eq!(classify(&p("x/Map.sd7")), PathKind::Open(p("x/Map.sd7")));
    }

    fn wait(job: &Job) -> Outcome {
        let t0 = Instant::now();
        loop {
            if let Some(o) = job.poll() {
                return o;
            }
            assert!(t0.elapsed().as_secs() < 120, "{} never finished", job.label);
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    #[test]
    fn an_export_uses_its_snapshot_and_a_cancel_leaves_the_folder_as_it_was() {
        use std::sync::atomic::AtomicBool;
        let maps = tempfile::tempdir().unwrap();
        let ctx = egui::Context::default();
        let mut map = crate::edit::procedural::relief_map(MapSize::new(2, 2).unwrap(), 4, "Snap");
        map.settings.version = "1.0".into();
        let snapshot = Arc::new(map.clone());
        let kind = crate::formats::archive::ArchiveKind::Sd7;
        // cancelled from the start: nothing appears
        let cancel = Arc::new(AtomicBool::new(true));
        let job = export(
            snapshot.clone(),
            maps.path().into(),
            kind,
            false,
            Arc::new(crate::compile::CompileCache::memory_only()),
            cancel,
            ctx.clone(),
        );
        assert!(matches!(wait(&job), Outcome::ExportCancelled));
        assert_eq!(std::fs::read_dir(maps.path()).unwrap().count(), 0);
        // cancelled while the tiles are compressed: stops, and nothing appears
        let big = Arc::new(crate::edit::procedural::relief_map(
            MapSize::new(8, 8).unwrap(),
            5,
            "Big",
        ));
        let cancel = Arc::new(AtomicBool::new(false));
        let job = export(
            big,
            maps.path().into(),
            kind,
            false,
            Arc::new(crate::compile::CompileCache::memory_only()),
            cancel.clone(),
            ctx.clone(),
        );
        let t0 = Instant::now();
        while job.progress.stage() != "tiles" {
            assert!(t0.elapsed().as_secs() < 60, "the tiles stage never came");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        let asked = Instant::now();
        assert!(matches!(wait(&job), Outcome::ExportCancelled));
        eprintln!(
            "stopped {:.0} ms after Cancel",
            asked.elapsed().as_secs_f64() * 1000.0
        );
        assert_eq!(std::fs::read_dir(maps.path()).unwrap().count(), 0);
        // the document edited after the click: the archive holds the snapshot
        let mut live = snapshot.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let job = export(
            snapshot.clone(),
            maps.path().into(),
            kind,
            false,
            Arc::new(crate::compile::CompileCache::memory_only()),
            cancel,
            ctx.clone(),
        );
        Arc::make_mut(&mut live).heights.data_mut().fill(123.0);
        let Outcome::Exported(done) = wait(&job) else {
            panic!("the export failed");
        };
        assert_eq!(done.path, maps.path().join("snap_1.0.sd7"));
        let back = crate::formats::read_map(&done.path).unwrap().map;
        assert_eq!(back.height_words(), map.height_words());
        assert_ne!(live.height_words(), map.height_words());
        // again: refused with the next version
        let cancel = Arc::new(AtomicBool::new(false));
        let cache = Arc::new(crate::compile::CompileCache::memory_only());
        let job = export(
            snapshot,
            maps.path().into(),
            kind,
            false,
            cache,
            cancel,
            ctx,
        );
        match wait(&job) {
            Outcome::ExportRefused { next_version, .. } => assert_eq!(next_version, "1.1"),
            _ => panic!("a taken name was not refused"),
        }
    }

    #[test]
    fn save_then_open_on_worker_threads() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("Saved");
        let map = crate::edit::procedural::relief_map(MapSize::new(2, 2).unwrap(), 4, "Saved");
        let ctx = egui::Context::default();
        let saved = wait(&save(
            Arc::new(map.clone()),
            None,
            project.clone(),
            ctx.clone(),
        ));
        assert!(matches!(saved, Outcome::Saved { .. }));
        let opened = wait(&open(Source::Path(project.clone()), None, ctx.clone()));
        let Outcome::Opened {
            map: back, scene, ..
        } = opened
        else {
            panic!("the saved project did not open");
        };
        assert!(scene.is_none(), "no GPU was given");
        assert_eq!(back.metal, map.metal);
        assert_eq!(back.teams, map.teams);
        let missing = wait(&open(Source::Path(dir.path().join("nope")), None, ctx));
        assert!(matches!(missing, Outcome::Failed { .. }));
    }
}
