//! Try in game (F5, or the menu bar's button): the document compiled through the compile cache
//! to a scratch `.sdd` and the engine started on it (`crate::engine`), on a worker thread; when
//! the engine exits, its errors and map warnings go to the log. "Engine view": the engine's
//! own picture from the view's camera, shown in a window beside the view.

use std::path::PathBuf;
use std::thread::JoinHandle;

use super::EditorApp;
use crate::compile::{CompileOptions, Progress};
use crate::engine::{Camera, MapSource, Mode, RunningEngine, TryOptions};

/// Where Try in game stands.
#[derive(Default)]
pub(super) enum TryGame {
    #[default]
    Idle,
    /// Compiling and starting the engine.
    Starting(JoinHandle<Result<RunningEngine, String>>),
    /// The engine runs; the editor stays usable.
    Running(Box<RunningEngine>),
}

/// The engine's picture of the view's camera.
#[derive(Default)]
pub(super) struct EngineView {
    job: Option<JoinHandle<Result<PathBuf, String>>>,
    texture: Option<egui::TextureHandle>,
    /// The size of the picture, in pixels.
    size: [usize; 2],
    error: Option<String>,
    open: bool,
}

impl EditorApp {
    /// Whether Try in game or the engine view is busy.
    pub fn engine_busy(&self) -> bool {
        !matches!(self.try_game, TryGame::Idle) || self.engine_view.job.is_some()
    }

    /// The compile options a try uses: the export's cache and the GPU's baker when there is one.
    fn try_compile_options(&self, map: &crate::map::Map) -> CompileOptions {
        CompileOptions {
            baker: crate::gpu::bake::baker_for(map),
            cache: Some(self.compile_cache.clone()),
            ..Default::default()
        }
    }

    /// F5: compiles the document and starts the engine on it, the player at the first start.
    pub(super) fn try_in_game(&mut self, ctx: &egui::Context) {
        let Some(doc) = &self.doc else { return };
        if !matches!(self.try_game, TryGame::Idle) {
            self.log
                .warn("the engine is already running the map; quit it first");
            return;
        }
        let map = doc.session.map_arc().clone();
        let mut options = TryOptions::new(Mode::Play);
        options.engine = self.engine_path.clone();
        options.compile = self.try_compile_options(&map);
        self.log
            .info("Try in game: compiling the map and starting the engine …");
        let repaint = ctx.clone();
        self.try_game = TryGame::Starting(std::thread::spawn(move || {
            // the lint runs first (its errors stop the try); BAR's features looked up here,
            // off the frame
            options.lint = crate::lint::LintContext::for_this_computer();
            let started =
                crate::engine::launch(MapSource::Document(&map), &options, &Progress::none());
            repaint.request_repaint();
            started
        }));
    }

    /// Each frame: a started engine taken over, a finished one's log read back.
    pub(super) fn poll_try_game(&mut self, ctx: &egui::Context) {
        match std::mem::take(&mut self.try_game) {
            TryGame::Idle => {}
            TryGame::Starting(job) if !job.is_finished() => {
                self.try_game = TryGame::Starting(job);
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
            }
            TryGame::Starting(job) => match job.join() {
                Ok(Ok(running)) => {
                    for f in &running.lint_warnings {
                        self.log.warn(format!("lint [{}]: {}", f.rule, f.message));
                    }
                    self.log.info(format!(
                        "the engine ({}) runs {} with {}",
                        running.engine.binary.display(),
                        running.map.name,
                        running.game_name
                    ));
                    self.try_game = TryGame::Running(Box::new(running));
                    ctx.request_repaint_after(std::time::Duration::from_millis(250));
                }
                Ok(Err(e)) => self.log.error(format!("Try in game: {e}")),
                Err(_) => self.log.error("Try in game: the worker thread failed"),
            },
            TryGame::Running(mut running) => match running.try_finish() {
                None => {
                    self.try_game = TryGame::Running(running);
                    ctx.request_repaint_after(std::time::Duration::from_millis(250));
                }
                Some(report) => {
                    for e in report.errors.iter().take(5) {
                        self.log.warn(format!("engine: {e}"));
                    }
                    for w in &report.map_warnings {
                        self.log.warn(format!("engine: {w}"));
                    }
                    match report.failure() {
                        Some(why) => self.log.error(format!(
                            "{why} (the engine's log: {})",
                            report.log_path.display()
                        )),
                        None => {
                            let load = report.load_time.map_or(String::new(), |t| {
                                format!(", loaded in {:.1} s", t.as_secs_f64())
                            });
                            self.log
                                .info(format!("the engine closed ({}{load})", report.exit));
                            report.sandbox.remove();
                        }
                    }
                }
            },
        }
    }

    /// "Engine view": the engine's screenshot from the view's camera, on a worker thread.
    pub(super) fn engine_screenshot(&mut self, ctx: &egui::Context) {
        let Some(doc) = &self.doc else { return };
        if self.engine_view.job.is_some() {
            return;
        }
        let map = doc.session.map_arc().clone();
        let camera = Camera {
            position_elmos: self.viewport.camera.eye().to_array(),
            target_elmos: self.viewport.camera.target.to_array(),
        };
        let out =
            std::env::temp_dir().join(format!("groundwork-engine-view-{}.png", std::process::id()));
        let engine = self.engine_path.clone();
        let compile = self.try_compile_options(&map);
        let repaint = ctx.clone();
        self.log
            .info("Engine view: the engine draws the map from the view's camera …");
        self.engine_view.open = true;
        self.engine_view.error = None;
        self.engine_view.job = Some(std::thread::spawn(move || {
            let shot = crate::engine::screenshot(
                MapSource::Document(&map),
                Some(camera),
                &out,
                engine.as_deref(),
                compile,
                &Progress::none(),
            );
            repaint.request_repaint();
            shot
        }));
    }

    /// Each frame: a finished engine screenshot loaded, and its window.
    pub(super) fn engine_view_ui(&mut self, ctx: &egui::Context) {
        let v = &mut self.engine_view;
        if let Some(job) = v.job.take_if(|j| j.is_finished()) {
            let loaded = job
                .join()
                .map_err(|_| "the worker thread failed".to_string())
                .and_then(|r| r)
                .and_then(|path| {
                    let img = image::open(&path).map_err(|e| format!("{}: {e}", path.display()));
                    let _ = std::fs::remove_file(&path);
                    img
                });
            match loaded {
                Ok(img) => {
                    let rgba = img.to_rgba8();
                    v.size = [rgba.width() as usize, rgba.height() as usize];
                    let pixels = egui::ColorImage::from_rgba_unmultiplied(v.size, &rgba);
                    v.texture = Some(ctx.load_texture("engine view", pixels, Default::default()));
                    self.log.info("Engine view: the engine's picture is shown");
                }
                Err(e) => {
                    self.log.error(format!("Engine view: {e}"));
                    v.error = Some(e);
                }
            }
        } else if v.job.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(200));
        }
        let v = &mut self.engine_view;
        if !v.open {
            return;
        }
        let mut open = v.open;
        // beside the view: over the right-hand panels, the view's camera left in sight
        let right = ctx.content_rect().right();
        egui::Window::new("Engine view")
            .open(&mut open)
            .default_pos(egui::pos2(right - 540.0, 40.0))
            .default_width(520.0)
            .resizable(true)
            .show(ctx, |ui| {
                if v.job.is_some() {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("the engine is drawing the map …");
                    });
                }
                if let Some(e) = &v.error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                if let Some(t) = &v.texture {
                    let w = ui.available_width().max(200.0);
                    let h = w * v.size[1] as f32 / v.size[0].max(1) as f32;
                    ui.image((t.id(), egui::vec2(w, h)));
                    ui.weak(
                        "The engine's own picture from the view's camera, as the game draws it.",
                    );
                }
            });
        v.open = open;
    }
}
