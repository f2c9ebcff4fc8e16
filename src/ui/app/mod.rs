//! The editor app: owns the document, the GPU, the panels and the running job, and lays the
//! window out (menu, tools and minimap on the left, properties on the right, the 3D view in
//! the middle, log and status bar at the bottom).

mod edit;
mod export;
mod import;
mod menu;
mod screenshot;
mod try_game;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use crate::gpu::{BrushKernels, GpuContext, MapScene, Renderer};

use super::EditorOptions;
use super::document::Document;
use super::file_dialog::{Answer, FileDialogs, Pick, Request};
use super::jobs::{self, Job, Outcome, PathKind, Source, WorkerGpu};
use super::layers_panel::LayersPanel;
use super::log_panel::LogPanel;
use super::metal_panel::MetalPanel;
use super::minimap_panel::MinimapPanel;
use super::properties_panel::PropertiesPanel;
use super::recent::RecentFiles;
use super::status_bar::{JobStatus, StatusBar};
use super::tools_panel::ToolsPanel;
use super::viewport::{ViewGpu, Viewport};
use crate::gpu::FeatureModelData;

/// The GPU the window gave us.
pub struct GpuState {
    pub ctx: GpuContext,
    pub renderer: Arc<Renderer>,
    pub kernels: Option<BrushKernels>,
    pub egui_renderer: Arc<egui::mutex::RwLock<egui_wgpu::Renderer>>,
}

/// Something that would throw away unsaved changes, waiting for the user's answer.
#[derive(Clone, Debug, PartialEq)]
enum Pending {
    Open(Source),
    Dialog(DialogKind),
    Quit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DialogKind {
    OpenFile,
    OpenFolder,
    SaveAs,
    ImportHeightmap,
    ExportHeightmap,
    /// One of an importer's `file_kinds`.
    Import {
        importer: &'static str,
        kind: usize,
    },
    ExportFolder,
}

/// The right panel's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum RightTab {
    #[default]
    Properties,
    Layers,
    Pathing,
    Starts,
}

/// `--screenshot`: frames still to draw, and then the picture.
struct ScreenshotPlan {
    path: PathBuf,
    frames_left: u32,
    requested: bool,
    done: Arc<AtomicBool>,
}

pub struct EditorApp {
    gpu: Option<GpuState>,
    doc: Option<Document>,
    scene: Option<MapScene>,
    viewport: Viewport,
    tools: ToolsPanel,
    properties: PropertiesPanel,
    /// The texture stack, in the right panel's second tab.
    layers: LayersPanel,
    /// Which tab the right panel shows.
    right_tab: RightTab,
    /// The pathing overlay, the flooded start and the fairness table, in the third tab.
    pathing: super::pathing_panel::PathingPanel,
    /// When the view last took up the features' models: the revision, the feature count and
    /// the models the scene held.
    feature_models_key: Option<(u64, usize, usize)>,
    /// Start positions and start boxes, under the map properties.
    starts: super::starts_panel::StartsPanel,
    /// File > New.
    new_map: super::new_map_dialog::NewMapDialog,
    /// Map > Resize.
    resize: super::resize_dialog::ResizeDialog,
    /// Map > Generate.
    generate: super::generate_window::GenerateWindow,
    /// The session's [`crate::edit::Session::replacements`] the GPU scene was made at.
    scene_replacements: u64,
    minimap: MinimapPanel,
    metal: MetalPanel,
    status: StatusBar,
    log: LogPanel,
    recent: RecentFiles,
    job: Option<Job>,
    pending: Option<Pending>,
    after_save: Option<Pending>,
    /// The file dialog open now: the system's, or the in-app browser where it cannot open.
    dialogs: FileDialogs<DialogKind>,
    screenshot: Option<ScreenshotPlan>,
    /// A Warzone 2100 source's maps, waiting for the user to pick one.
    import_choice: Option<import::ImportChoice>,
    /// How the importers scale and convert, as set in File > Import.
    import_settings: import::ImportSettings,
    outcome: Arc<Mutex<Option<Result<(), String>>>>,
    /// The revision a running save writes.
    saving_revision: Option<u64>,
    /// A stroke left the height range, waiting for the user's choice.
    range_offer: Option<edit::RangeOffer>,
    /// File > Export, made on first use.
    export: Option<crate::ui::export_dialog::ExportDialog>,
    /// Where exports go when the command line or a test says (no looking for the games).
    /// Try in game: the engine started on the map, or starting.
    try_game: try_game::TryGame,
    /// The engine's picture from the view's camera.
    engine_view: try_game::EngineView,
    /// The engine Try in game runs, instead of looking for one (tests, `--engine`).
    engine_path: Option<PathBuf>,
    /// The tiles and packed streams of the last exports, so a re-export after a stroke
    /// encodes only what changed.
    compile_cache: Arc<crate::compile::CompileCache>,
    maps_folder: Option<PathBuf>,
    /// Where the editor keeps its own files, when not the user's config folder.
    config_dir: Option<PathBuf>,
    autosave: crate::ui::autosave::Autosave,
    /// An autosave from a session that did not end cleanly, waiting for the user's answer.
    recovery: Option<crate::ui::autosave::Recovery>,
    /// The window `--window` opens once the map is shown.
    pending_window: Option<String>,
    /// The autosave being opened, to put its origin back on the document.
    recovering: Option<crate::ui::autosave::Recovery>,
    quitting: bool,
    show_log: bool,
    title: String,
    /// Frames drawn while the current job ran, and the longest gap between two of them: the
    /// window's responsiveness during long jobs, reported when the job ends.
    job_frames: u32,
    job_longest_frame: std::time::Duration,
    last_frame: std::time::Instant,
}

impl EditorApp {
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        options: EditorOptions,
        outcome: Arc<Mutex<Option<Result<(), String>>>>,
    ) -> EditorApp {
        let mut log = LogPanel::default();
        let gpu = cc.wgpu_render_state.as_ref().map(|rs| {
            let ctx = GpuContext::new(&rs.adapter, rs.device.clone(), rs.queue.clone());
            log.info(format!("GPU: {}", ctx.describe()));
            if !ctx.compute {
                log.warn("this GPU has no compute shaders here: brushes run on the CPU");
            }
            GpuState {
                renderer: Arc::new(Renderer::new(&ctx)),
                kernels: BrushKernels::new(&ctx),
                egui_renderer: rs.renderer.clone(),
                ctx,
            }
        });
        if gpu.is_none() {
            log.error("no wgpu device: the 3D view is off");
        }
        let recent = if options.screenshot.is_some() {
            RecentFiles::default()
        } else {
            match &options.config_dir {
                Some(dir) => RecentFiles::load(dir.join("recent.txt")),
                None => RecentFiles::load_default(),
            }
        };
        // a screenshot run keeps nothing of the user's
        let autosave_dir = if options.screenshot.is_some() {
            None
        } else {
            options
                .config_dir
                .clone()
                .or_else(super::recent::config_dir)
        };
        let mut app = EditorApp {
            gpu,
            doc: None,
            scene: None,
            viewport: Viewport::default(),
            tools: ToolsPanel::default(),
            properties: PropertiesPanel::default(),
            layers: LayersPanel::default(),
            right_tab: RightTab::default(),
            pathing: Default::default(),
            feature_models_key: None,
            starts: Default::default(),
            new_map: Default::default(),
            resize: Default::default(),
            generate: Default::default(),
            scene_replacements: 0,
            minimap: MinimapPanel::default(),
            metal: MetalPanel::default(),
            status: StatusBar,
            log,
            recent,
            job: None,
            pending: None,
            after_save: None,
            dialogs: if options.in_app_file_dialogs {
                FileDialogs::in_app_only("asked for")
            } else {
                FileDialogs::default()
            },
            screenshot: options.screenshot.map(|(path, frames)| ScreenshotPlan {
                path,
                frames_left: frames,
                requested: false,
                done: Arc::new(AtomicBool::new(false)),
            }),
            import_choice: None,
            import_settings: import::ImportSettings::default(),
            outcome,
            saving_revision: None,
            range_offer: None,
            export: None,
            // tests give the editor a folder of its own: its cache goes there too
            try_game: Default::default(),
            engine_view: Default::default(),
            engine_path: options.engine.clone(),
            compile_cache: Arc::new(match &options.config_dir {
                Some(d) => crate::compile::CompileCache::on_disk(
                    d.join("cache"),
                    crate::compile::cache::DEFAULT_CAP_BYTES,
                ),
                None => crate::compile::CompileCache::for_user(),
            }),
            maps_folder: options.maps_folder.clone(),
            config_dir: options.config_dir.clone(),
            autosave: crate::ui::autosave::Autosave::new(autosave_dir.as_deref()),
            recovery: None,
            pending_window: options.window.clone(),
            recovering: None,
            quitting: false,
            show_log: true,
            title: String::new(),
            job_frames: 0,
            job_longest_frame: std::time::Duration::ZERO,
            last_frame: std::time::Instant::now(),
        };
        app.viewport.animate_water = options.animate_water;
        if options.in_app_file_dialogs {
            app.tools.use_in_app_dialogs();
            app.new_map.use_in_app_dialogs();
        }
        if let Some(tool) = &options.tool {
            app.tools.select(tool);
        }
        app.recovery = app.autosave.recovery();
        match options.open {
            Some(path) => app.open_path(path, &cc.egui_ctx),
            None => app.start_open(Source::Starter, &cc.egui_ctx),
        }
        app
    }

    /// A map is open and shown, and no job is running.
    pub fn is_ready(&self) -> bool {
        self.doc.is_some() && self.job.is_none() && (self.gpu.is_none() || self.scene.is_some())
    }

    /// The ground of the open map under a window position (points).
    pub fn ground_under(&self, pos: egui::Pos2) -> Option<glam::Vec3> {
        self.viewport.ground_under(self.doc.as_ref()?.map(), pos)
    }

    /// The tools panel (which tool, its settings).
    pub fn tools(&mut self) -> &mut ToolsPanel {
        &mut self.tools
    }

    /// The log's lines, oldest first.
    pub fn log_lines(&self) -> Vec<String> {
        self.log.entries().iter().map(|e| e.text.clone()).collect()
    }

    /// Whether an export (asked for or live) is running.
    pub fn export_running(&self) -> bool {
        self.export.as_ref().is_some_and(|d| d.running())
    }

    /// The open document, if any.
    pub fn document(&self) -> Option<&Document> {
        self.doc.as_ref()
    }

    /// The Pathing tab (its overlay class, flooded start and fairness analysis), for tests.
    pub fn pathing(&mut self) -> &mut super::pathing_panel::PathingPanel {
        &mut self.pathing
    }

    /// Where team `i`'s start marker is in the window (points), when it is in view.
    pub fn start_on_screen(&self, i: usize) -> Option<egui::Pos2> {
        self.viewport.start_on_screen(self.doc.as_ref()?.map(), i)
    }

    /// Whether the view's pathing overlay is drawn (a class chosen in the Pathing tab).
    pub fn pathing_overlay_on(&self) -> bool {
        self.scene
            .as_ref()
            .is_some_and(|s| s.pathing.choice().is_some())
    }

    /// Whether the view shows a flooded start region.
    pub fn flood_shown(&self) -> bool {
        self.scene.as_ref().is_some_and(|s| s.pathing.flooded)
    }

    /// Map > Generate's window, for tests: whether a preview is being made, and the last one.
    pub fn generate_window(&self) -> &crate::ui::generate_window::GenerateWindow {
        &self.generate
    }

    /// The GPU copy of the map: its heightmap's size in vertices (`None` without a GPU).
    pub fn scene_heights_dims(&self) -> Option<(u32, u32)> {
        self.scene.as_ref().map(|s| {
            let t = s.layer(crate::edit::layer::LayerId::Heights);
            (t.width(), t.height())
        })
    }

    /// The window title the app asks for.
    pub fn title(&self) -> String {
        self.doc
            .as_ref()
            .map(|d| d.title())
            .unwrap_or_else(|| "Groundwork".into())
    }

    fn worker_gpu(&self) -> Option<WorkerGpu> {
        self.gpu.as_ref().map(|g| WorkerGpu {
            ctx: g.ctx.clone(),
            renderer: g.renderer.clone(),
        })
    }

    fn busy(&self) -> bool {
        self.job.is_some()
    }

    fn start_open(&mut self, source: Source, ctx: &egui::Context) {
        if self.busy() {
            self.log.warn("wait for the running job to finish");
            return;
        }
        self.job = Some(jobs::open(source, self.worker_gpu(), ctx.clone()));
    }

    /// Opens a path the user gave (command line, drop, dialog, recent list): maps and projects
    /// open, a `.SC2Map` imports, a Warzone 2100 source lists its maps to pick from.
    fn open_path(&mut self, path: PathBuf, ctx: &egui::Context) {
        match jobs::classify(&path) {
            PathKind::Open(p) => self.request(Pending::Open(Source::Path(p)), ctx),
            PathKind::Import(importer, source) => self.start_list(importer, source, ctx),
        }
    }

    fn start_save(&mut self, dir: PathBuf, ctx: &egui::Context) {
        if self.busy() {
            self.log.warn("wait for the running job to finish");
            return;
        }
        if let Some(doc) = &self.doc {
            let report = doc.import_report.clone();
            self.saving_revision = Some(doc.session.revision());
            let map = doc.session.map_arc().clone();
            self.job = Some(jobs::save(map, report, dir, ctx.clone()));
        }
    }

    /// Saves the map as a project folder at `dir`, as Save As does once a folder is picked.
    pub fn save_to(&mut self, dir: PathBuf, ctx: &egui::Context) {
        self.start_save(dir, ctx);
    }

    fn save(&mut self, ctx: &egui::Context) {
        match self.doc.as_ref().and_then(|d| d.project_dir.clone()) {
            Some(dir) => self.start_save(dir, ctx),
            None => self.start_dialog(DialogKind::SaveAs, ctx),
        }
    }

    /// Does `action` now, or asks first when it would drop unsaved changes.
    fn request(&mut self, action: Pending, ctx: &egui::Context) {
        if self.doc.as_ref().is_some_and(|d| d.dirty()) {
            self.pending = Some(action);
        } else {
            self.perform(action, ctx);
        }
    }

    fn perform(&mut self, action: Pending, ctx: &egui::Context) {
        match action {
            Pending::Open(source) => self.start_open(source, ctx),
            Pending::Dialog(kind) => self.start_dialog(kind, ctx),
            Pending::Quit => {
                self.quitting = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Opens a file dialog: the system's on its own thread so the window keeps drawing, or the
    /// in-app browser where the system's cannot open.
    fn start_dialog(&mut self, kind: DialogKind, ctx: &egui::Context) {
        let stem = self
            .doc
            .as_ref()
            .map(|d| d.map().settings.file_stem())
            .unwrap_or_else(|| "map".into());
        let png = || vec![("PNG images".to_string(), vec!["png".to_string()])];
        let strings = |e: &[&str]| e.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let request = match kind {
            DialogKind::OpenFile => Request::new(
                "Open a map",
                Pick::File(vec![
                    ("Spring maps".into(), strings(&["sd7", "sdz", "smf"])),
                    ("Maps to import".into(), import::import_extensions()),
                ]),
            ),
            DialogKind::OpenFolder => {
                Request::new("Open a project folder or an .sdd", Pick::Folder)
            }
            DialogKind::Import { importer, kind } => {
                match crate::import::find(importer)
                    .and_then(|i| Some((i.game(), *i.file_kinds().get(kind)?)))
                {
                    Some((game, (label, []))) => {
                        Request::new(format!("Import a {game} map: {label}"), Pick::Folder)
                    }
                    Some((game, (label, extensions))) => Request::new(
                        format!("Import a {game} map: {label}"),
                        Pick::File(vec![(label.to_string(), strings(extensions))]),
                    ),
                    None => return,
                }
            }
            DialogKind::SaveAs => Request::new("Save as a project folder", Pick::Save(stem)),
            DialogKind::ImportHeightmap => {
                Request::new("Import a heightmap (16-bit grey PNG)", Pick::File(png()))
            }
            DialogKind::ExportHeightmap => Request::new(
                "Export the heightmap (16-bit grey PNG)",
                Pick::Save(format!("{stem}_height.png")),
            ),
            DialogKind::ExportFolder => {
                Request::new("The game's maps folder to export into", Pick::Folder)
            }
        };
        self.dialogs.open(kind, request, ctx);
        for line in self.dialogs.take_notices() {
            self.log.warn(line);
        }
    }

    fn poll_dialog(&mut self, ctx: &egui::Context) {
        let answer = self.dialogs.poll(ctx);
        for line in self.dialogs.take_notices() {
            self.log.warn(line);
        }
        let (kind, path) = match answer {
            Some(Answer::Picked(kind, path)) => (kind, path),
            Some(Answer::Cancelled(_)) => {
                // whatever waited for a save does not happen
                self.after_save = None;
                return;
            }
            None => return,
        };
        match kind {
            DialogKind::OpenFile | DialogKind::OpenFolder => self.open_path(path, ctx),
            DialogKind::Import { importer, .. } => self.start_list(importer, path, ctx),
            DialogKind::SaveAs => self.start_save(path, ctx),
            DialogKind::ImportHeightmap => self.import_heightmap(&path),
            DialogKind::ExportHeightmap => self.export_heightmap(&path),
            DialogKind::ExportFolder => self.export_folder_picked(path),
        }
    }

    fn poll_job(&mut self, ctx: &egui::Context) {
        let Some(outcome) = self.job.as_ref().and_then(|j| j.poll()) else {
            return;
        };
        self.job = None;
        match outcome {
            Outcome::Opened {
                source,
                map,
                scene,
                warnings,
                report,
                seconds,
            } => {
                let path = source.path().map(|p| p.to_path_buf());
                let mb = |b: u64| b as f64 / (1u64 << 20) as f64;
                let gpu_mib = scene.as_ref().map(|s| mb(s.gpu_bytes())).unwrap_or(0.0);
                let line = format!(
                    "opened {} ({} map) in {seconds:.1} s; {:.0} MiB on the GPU; the window drew {} frames meanwhile, the longest {:.0} ms",
                    source.describe(),
                    map.size,
                    gpu_mib,
                    self.job_frames,
                    self.job_longest_frame.as_secs_f64() * 1000.0
                );
                eprintln!("{line}");
                self.log.info(line);
                for w in warnings {
                    self.log.warn(w);
                }
                if let Some(p) = &path
                    && let Err(e) = self.recent.push(p)
                {
                    self.log.warn(e);
                }
                let is_new = matches!(source, Source::New(_));
                let mut doc = Document::new(*map, path);
                if is_new {
                    doc.session.mark_unsaved();
                    self.log
                        .info("a new map: not saved yet; File > Save As writes the project folder");
                }
                if let Some(report) = report {
                    let text = report.to_text();
                    for line in text.lines().filter(|l| !l.trim().is_empty()) {
                        self.log.info(line.to_string());
                    }
                    self.log.info(
                        "imported: not saved yet; File > Save As writes the project folder and the report",
                    );
                    doc.import_report = Some(text);
                    doc.session.mark_unsaved();
                }
                if let Some(r) = self.recovering.take() {
                    // the autosave's map, back where it came from, still to be saved
                    doc.project_dir = r.origin.clone().filter(|p| crate::formats::is_project(p));
                    doc.opened_from = r.origin;
                    doc.session.mark_unsaved();
                    self.log
                        .info("recovered the autosaved map: not saved yet (File > Save)");
                }
                self.viewport.reset();
                self.range_offer = None;
                self.viewport.frame_map(doc.map());
                self.minimap.invalidate();
                self.metal.invalidate();
                self.properties.new_map();
                self.layers.new_map();
                self.pathing.new_map();
                self.starts.new_map();
                self.scene_replacements = doc.session.replacements();
                self.generate.open = false;
                self.resize.open = false;
                self.doc = Some(doc);
                self.scene = scene.map(|s| *s);
            }
            Outcome::Listed {
                importer,
                source,
                maps,
            } => self.offer_maps(importer, source, maps, ctx),
            // exports run in the Export dialog, not here
            Outcome::Exported(_) | Outcome::ExportRefused { .. } | Outcome::ExportCancelled => {}
            Outcome::Saved { dir, seconds } => {
                self.log
                    .info(format!("saved {} in {seconds:.1} s", dir.display()));
                self.autosave.clear();
                if let Err(e) = self.recent.push(&dir) {
                    self.log.warn(e);
                }
                if let Some(doc) = &mut self.doc {
                    doc.project_dir = Some(dir);
                    if let Some(r) = self.saving_revision.take() {
                        doc.session.mark_saved(r);
                    }
                }
                if let Some(next) = self.after_save.take() {
                    self.perform(next, ctx);
                }
            }
            Outcome::Failed {
                what,
                error,
                source,
            } => {
                self.log.error(format!("{what}: {error}"));
                self.after_save = None;
                self.saving_revision = None;
                if let Some(Source::Path(p)) = source
                    && !p.exists()
                {
                    let _ = self.recent.remove(&p);
                }
                if self.screenshot.is_some() && self.doc.is_none() {
                    self.finish(Err(format!("{what}: {error}")), ctx);
                }
            }
        }
    }

    pub(super) fn finish(&mut self, result: Result<(), String>, ctx: &egui::Context) {
        if let Ok(mut o) = self.outcome.lock() {
            *o = Some(result);
        }
        self.quitting = true;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }

    fn view_corners(&self) -> Option<[[f32; 2]; 4]> {
        let [w, h] = self.viewport.size_px;
        if w == 0 || h == 0 {
            return None;
        }
        let aspect = w as f32 / h as f32;
        let y = self.viewport.camera.target.y;
        let mut out = [[0.0; 2]; 4];
        for (i, (nx, ny)) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .into_iter()
            .enumerate()
        {
            let (o, d) = self.viewport.camera.ray(nx, ny, aspect);
            // rays above the horizon stop at a far distance
            let t = if d.y < -1e-3 { (y - o.y) / d.y } else { 1e5 };
            let p = o + d * t.min(1e5);
            out[i] = [p.x, p.z];
        }
        Some(out)
    }
}

impl EditorApp {
    /// Autosaves a changed map now and then, and offers an earlier session's autosave back.
    fn autosave_ui(&mut self, ctx: &egui::Context) {
        if let Some(doc) = &self.doc {
            // the event, not the state: a window can start unfocused
            let lost_focus = ctx.input(|i| {
                i.events
                    .iter()
                    .any(|e| matches!(e, egui::Event::WindowFocused(false)))
            });
            let origin = doc.project_dir.as_deref().or(doc.opened_from.as_deref());
            self.autosave.tick(
                doc.session.map_arc(),
                doc.session.revision(),
                doc.dirty(),
                origin,
                lost_focus,
                std::time::Instant::now(),
            );
        }
        match self.autosave.poll() {
            Some(Ok(line)) => self.log.info(line),
            Some(Err(e)) => self.log.warn(e),
            None => {}
        }
        if self.autosave.busy() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        let Some(r) = self.recovery.clone() else {
            return;
        };
        if !self.is_ready() {
            return;
        }
        let when = r
            .saved_at
            .elapsed()
            .map(|d| format!("{} minutes ago", d.as_secs() / 60))
            .unwrap_or_else(|_| "earlier".into());
        let from = r
            .origin
            .as_ref()
            .map(|p| format!(" (from {})", p.display()))
            .unwrap_or_default();
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("recover autosave")).show(ctx, |ui| {
            ui.heading("Recover the autosaved map?");
            ui.label(format!(
                "The editor did not close cleanly. A map with unsaved changes was autosaved {when}{from}."
            ));
            ui.horizontal(|ui| {
                if ui.button("Recover").clicked() {
                    choice = Some(true);
                }
                if ui.button("Discard it").clicked() {
                    choice = Some(false);
                }
            });
        });
        match choice {
            Some(true) => {
                self.recovery = None;
                self.recovering = Some(r.clone());
                self.start_open(Source::Path(r.project), ctx);
            }
            Some(false) => {
                self.recovery = None;
                self.autosave.clear();
                self.log.info("discarded the autosaved map");
            }
            None => {}
        }
    }
}

impl eframe::App for EditorApp {
    /// A clean end: with nothing unsaved, the autosave has nothing left to offer.
    fn on_exit(&mut self) {
        if self.doc.as_ref().is_none_or(|d| !d.dirty()) && self.recovery.is_none() {
            self.autosave.clear();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let now = std::time::Instant::now();
        if self.job.is_some() {
            if self.job_frames > 0 {
                self.job_longest_frame = self.job_longest_frame.max(now - self.last_frame);
            }
            self.job_frames += 1;
        } else {
            self.job_frames = 0;
            self.job_longest_frame = std::time::Duration::ZERO;
        }
        self.last_frame = now;
        self.poll_job(&ctx);
        self.poll_dialog(&ctx);
        if self.job.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        self.shortcuts(&ctx);
        self.export_ui(&ctx);
        self.poll_try_game(&ctx);
        self.engine_view_ui(&ctx);
        self.autosave_ui(&ctx);

        // drag and drop
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(p) = dropped.into_iter().next() {
            self.open_path(p, &ctx);
        }
        // closing the window with unsaved changes asks first
        if ctx.input(|i| i.viewport().close_requested())
            && !self.quitting
            && self.doc.as_ref().is_some_and(|d| d.dirty())
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }

        egui::Panel::top("menu").show(ui, |ui| self.menu(ui));
        let job_status = self.job.as_ref().map(|j| JobStatus {
            label: j.label.clone(),
            stage: j.progress.stage(),
            fraction: j.progress.fraction(),
        });
        let fps = 1.0 / ctx.input(|i| i.stable_dt).max(1e-4);
        let right = match (&self.gpu, &self.scene) {
            (Some(g), Some(s)) => format!(
                "{} chunks, {}k triangles, {:.0} fps, {:.0} MiB GPU · {}",
                self.viewport.stats.chunks,
                self.viewport.stats.triangles / 1000,
                fps,
                (s.gpu_bytes() + g.renderer.gpu_bytes()) as f64 / 1048576.0,
                g.ctx.info.name
            ),
            _ => String::new(),
        };
        let hover = self.viewport.hover;
        let map = self.doc.as_ref().map(|d| d.map());
        egui::Panel::bottom("status")
            .show(ui, |ui| self.status.ui(ui, map, hover, job_status, &right));
        if self.show_log {
            egui::Panel::bottom("log")
                .resizable(true)
                .default_size(110.0)
                .show(ui, |ui| self.log.ui(ui));
        }
        egui::Panel::left("tools")
            .default_size(250.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    let compute = self.gpu.as_ref().is_some_and(|g| g.kernels.is_some());
                    let default_settings;
                    let (settings, symmetry, square) = match &self.doc {
                        Some(d) => {
                            let m = d.map();
                            let sq = m.size.width_units() == m.size.height_units();
                            (&m.settings, m.symmetry, sq)
                        }
                        None => {
                            default_settings = crate::map::MapSettings::default();
                            (&default_settings, crate::map::SymmetryMode::None, true)
                        }
                    };
                    let note = self
                        .doc
                        .as_ref()
                        .and_then(|d| d.session.stroke().and_then(|s| s.describe(d.map())));
                    self.tools.texture_layer_names = self
                        .doc
                        .as_ref()
                        .map(|d| {
                            d.map()
                                .texture_layers
                                .iter()
                                .map(|l| l.name.clone())
                                .collect()
                        })
                        .unwrap_or_default();
                    self.tools.map = self.doc.as_ref().map(|d| d.session.map_arc().clone());
                    let action = self.tools.ui(
                        ui,
                        &mut self.viewport.view,
                        settings,
                        symmetry,
                        square,
                        compute,
                        note,
                    );
                    if let Some(action) = action {
                        self.panel_action(action);
                    }
                    for line in self.tools.take_dialog_notices() {
                        self.log.warn(line);
                    }
                    let metal_tool = self
                        .tools
                        .current()
                        .is_some_and(|(t, _)| t.layer() == crate::edit::LayerId::Metal);
                    if let Some(doc) = &self.doc
                        && (self.viewport.view.metal || metal_tool)
                    {
                        ui.separator();
                        ui.heading("Metal spots");
                        self.metal.ui(ui, doc.map(), doc.session.revision());
                    }
                    ui.separator();
                    ui.heading("Minimap");
                    let corners = self.view_corners();
                    if let Some(doc) = &self.doc {
                        let t = self.viewport.camera.target;
                        let (map, revision) = (doc.map(), doc.session.revision());
                        let view = &self.viewport.view;
                        if let Some(p) =
                            self.minimap
                                .ui(ui, map, revision, view, [t.x, t.z], corners)
                        {
                            self.viewport.camera.target.x = p[0];
                            self.viewport.camera.target.z = p[1];
                        }
                    }
                });
            });
        // one width whatever the content: its scroll area scrolls sideways instead, so
        // neither a wide section nor a narrow one moves the map view
        egui::Panel::right("properties")
            .exact_size(330.0)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.right_tab, RightTab::Properties, "Properties");
                    ui.selectable_value(&mut self.right_tab, RightTab::Layers, "Textures");
                    ui.selectable_value(&mut self.right_tab, RightTab::Pathing, "Pathing");
                    ui.selectable_value(&mut self.right_tab, RightTab::Starts, "Starts");
                });
                ui.separator();
                if self.right_tab == RightTab::Layers {
                    self.layers_tab(ui);
                    return;
                }
                if self.right_tab == RightTab::Starts {
                    let Some(doc) = &mut self.doc else {
                        ui.weak("No map is open.");
                        return;
                    };
                    egui::ScrollArea::both()
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            if let Some(c) = self.starts.ui(ui, doc.map()) {
                                let apply = |m: &mut crate::map::Map| {
                                    m.teams = c.teams.clone();
                                    m.start_boxes = c.start_boxes.clone();
                                };
                                let result = if c.live {
                                    doc.session.edit_live(&c.what, apply)
                                } else {
                                    doc.session.edit(&c.what, apply, None)
                                };
                                match result {
                                    Ok(()) if !c.live => {
                                        self.log.info(format!("{} (Ctrl+Z undoes)", c.what))
                                    }
                                    Ok(()) => {}
                                    Err(e) => self.log.warn(e),
                                }
                            }
                            if doc.session.editing_live() && !ui.input(|i| i.pointer.any_down()) {
                                doc.session.end_live_edit();
                            }
                        });
                    return;
                }
                if self.right_tab == RightTab::Pathing {
                    match &self.doc {
                        Some(doc) => {
                            let (map, revision) =
                                (doc.session.map_arc().clone(), doc.session.revision());
                            egui::ScrollArea::both()
                                .auto_shrink([false, false])
                                .show(ui, |ui| self.pathing.ui(ui, &map, revision));
                        }
                        None => {
                            ui.weak("No map is open.");
                        }
                    }
                    return;
                }
                if let Some(doc) = &mut self.doc {
                    let teams = doc.map().teams.len();
                    let files: Vec<&str> = doc
                        .map()
                        .bundled_files
                        .iter()
                        .map(|f| f.path.as_str())
                        .collect();
                    let change = self.properties.ui(
                        ui,
                        &doc.map().settings,
                        teams,
                        &files,
                        &doc.map().water_presets,
                    );
                    if let Some(presets) = change.presets {
                        doc.session.map_mut().water_presets = presets;
                    }

                    if let Some(new) = change.settings {
                        doc.session.map_mut().settings = new;
                        if let Some(scene) = &mut self.scene {
                            scene.apply_settings(&doc.map().settings);
                            if let Some(gpu) = &self.gpu {
                                scene.reload_grass_blades(
                                    &gpu.ctx,
                                    &gpu.renderer.layouts,
                                    doc.map(),
                                );
                            }
                        }
                    }
                }
            });
        self.follow_replacements();
        egui::CentralPanel::no_frame().show(ui, |ui| {
            match (&mut self.doc, &mut self.scene, &self.gpu) {
                (Some(doc), Some(scene), Some(gpu)) => {
                    let vg = ViewGpu {
                        ctx: &gpu.ctx,
                        renderer: &gpu.renderer,
                        kernels: gpu.kernels.as_ref(),
                        egui_renderer: &gpu.egui_renderer,
                    };
                    let key = (
                        doc.session.revision(),
                        doc.map().features.len(),
                        scene.features.model_count(),
                    );
                    if self.feature_models_key != Some(key) {
                        // each name's model is found once; the scene uploads the new ones
                        let models: std::collections::HashMap<String, FeatureModelData> = self
                            .tools
                            .models
                            .models_of(doc.map())
                            .into_iter()
                            .filter(|(n, _)| !scene.has_feature_model(n))
                            .filter_map(|(n, f)| {
                                f.ok().map(|m| (n, FeatureModelData::from_loaded(&m)))
                            })
                            .collect();
                        if !models.is_empty() {
                            for problem in scene.set_feature_models(&gpu.ctx, models) {
                                self.log.warn(problem);
                            }
                            scene.set_markers(&gpu.ctx, doc.map());
                        }
                        self.feature_models_key =
                            Some((key.0, key.1, scene.features.model_count()));
                    }
                    scene.follow_document(&gpu.ctx, doc.map(), doc.session.revision());
                    let layers = &doc.map().texture_layers;
                    let visibility = self.layers.visibility(layers);
                    scene
                        .ground
                        .set_visibility(&gpu.ctx, doc.map(), &visibility);
                    self.viewport.spot_labels = if self.viewport.view.metal {
                        self.metal
                            .report(doc.map(), doc.session.revision())
                            .spots
                            .iter()
                            .map(|s| ([s.x_elmos, s.z_elmos], format!("{:.1}", s.t1_income)))
                            .collect()
                    } else {
                        Vec::new()
                    };
                    self.pathing
                        .follow(&gpu.ctx, scene, doc.map(), doc.session.revision());
                    self.viewport.pathing_on = scene.pathing.choice().is_some();
                    self.viewport.boxes_shown = self.starts.shown;
                    let report =
                        self.viewport
                            .ui(ui, doc, scene, &vg, &mut self.tools, &mut self.log);
                    if let Some(team) = self.viewport.flood_request.take() {
                        self.pathing.flood_from(team);
                        self.right_tab = RightTab::Pathing;
                        self.log.info(format!(
                            "flooded the ground start {} reaches as {}",
                            team + 1,
                            self.pathing.class.as_deref().unwrap_or("?")
                        ));
                    }
                    if let Some(r) = report
                        && r.out_of_range.is_some()
                    {
                        if let Some(w) = r.range_warning(doc.map()) {
                            self.log.warn(w);
                        }
                        self.range_offer =
                            edit::RangeOffer::read(doc.map(), doc.session.revision());
                    }
                }
                _ => {
                    let fill = ui.visuals().panel_fill;
                    ui.painter().rect_filled(ui.max_rect(), 0.0, fill);
                    ui.centered_and_justified(|ui| {
                        if let Some(j) = &self.job {
                            let percent = j
                                .progress
                                .fraction()
                                .map(|f| format!(" {:.0}%", f * 100.0))
                                .unwrap_or_default();
                            ui.label(format!("{} … {}{percent}", j.label, j.progress.stage()));
                        } else if self.gpu.is_none() {
                            ui.label("No GPU device: the 3D view is off.");
                        } else {
                            ui.label("Open a map with File > Open, or drop one here.");
                        }
                    });
                }
            }
        });
        if let Some(spec) = self.new_map.ui(&ctx) {
            self.request(Pending::Open(Source::New(Box::new(spec))), &ctx);
        }
        self.map_windows(&ctx);
        self.import_chooser(&ctx);
        self.range_dialog(&ctx);
        self.discard_dialog(&ctx);
        if self.is_ready()
            && let Some(w) = self.pending_window.take()
            && let Some(m) = self.doc.as_ref().map(|d| d.map().clone())
        {
            match w.as_str() {
                "generate" => self.generate.show(&m),
                _ => self.resize.show(m.size),
            }
        }
        self.screenshot_step(&ctx);

        let title = self
            .doc
            .as_ref()
            .map(|d| d.title())
            .unwrap_or_else(|| "Groundwork".into());
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }
}
