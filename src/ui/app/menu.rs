//! The menu bar, the keyboard shortcuts and the "unsaved changes" question.

use super::{DialogKind, EditorApp, Pending, Source};

impl EditorApp {
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let cmd = Modifiers::COMMAND;
        let cmd_shift = Modifiers::COMMAND | Modifiers::SHIFT;
        let pressed = |m, k| ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(m, k)));
        // the longer shortcut first, or Ctrl+Z would swallow Ctrl+Shift+Z
        let redo = pressed(cmd_shift, Key::Z) || pressed(cmd, Key::Y);
        let undo = pressed(cmd, Key::Z);
        let save_as = pressed(cmd_shift, Key::S);
        let save = pressed(cmd, Key::S);
        let open = pressed(cmd, Key::O);
        let quit = pressed(cmd, Key::Q);
        let export = pressed(cmd, Key::E);
        let try_game = pressed(Modifiers::NONE, Key::F5);
        if redo {
            self.undo(true);
        } else if undo {
            self.undo(false);
        }
        if save_as {
            self.start_dialog(DialogKind::SaveAs, ctx);
        } else if save {
            self.save(ctx);
        }
        if open {
            self.request(Pending::Dialog(DialogKind::OpenFile), ctx);
        }
        if quit {
            self.request(Pending::Quit, ctx);
        }
        if export {
            self.open_export();
        }
        if try_game {
            self.try_in_game(ctx);
        }
    }

    pub(super) fn menu(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("New map…").clicked() {
                    self.new_map.show();
                }
                if ui.button("Open map…  (Ctrl+O)").clicked() {
                    self.request(Pending::Dialog(DialogKind::OpenFile), &ctx);
                }
                if ui.button("Open folder (project or .sdd)…").clicked() {
                    self.request(Pending::Dialog(DialogKind::OpenFolder), &ctx);
                }
                ui.menu_button("Open recent", |ui| {
                    if self.recent.paths().is_empty() {
                        ui.weak("nothing yet");
                    }
                    for p in self.recent.paths().to_vec() {
                        if ui.button(p.display().to_string()).clicked() {
                            self.open_path(p, &ctx);
                        }
                    }
                });
                if ui.button("Open the starter map").clicked() {
                    self.request(Pending::Open(Source::Starter), &ctx);
                }
                ui.separator();
                if ui.button("Save  (Ctrl+S)").clicked() {
                    self.save(&ctx);
                }
                if ui.button("Save as…  (Ctrl+Shift+S)").clicked() {
                    self.start_dialog(DialogKind::SaveAs, &ctx);
                }
                if ui
                    .add_enabled(
                        self.doc.is_some(),
                        egui::Button::new("Export to the game…  (Ctrl+E)"),
                    )
                    .clicked()
                {
                    self.open_export();
                }
                ui.separator();
                // Each importer is a job like `jobs::open`, reading through its converter.
                ui.menu_button("Import", |ui| self.import_menu(ui, &ctx));
                let has_map = self.doc.is_some();
                if ui
                    .add_enabled(has_map, egui::Button::new("Import heightmap (16-bit PNG)…"))
                    .clicked()
                {
                    self.start_dialog(DialogKind::ImportHeightmap, &ctx);
                }
                if ui
                    .add_enabled(has_map, egui::Button::new("Export heightmap (16-bit PNG)…"))
                    .clicked()
                {
                    self.start_dialog(DialogKind::ExportHeightmap, &ctx);
                }
                ui.separator();
                if ui.button("Quit  (Ctrl+Q)").clicked() {
                    self.request(Pending::Quit, &ctx);
                }
            });
            ui.menu_button("Edit", |ui| {
                let (undo, redo) = self
                    .doc
                    .as_ref()
                    .map(|d| {
                        let h = d.session.history();
                        (
                            h.next_undo().map(|c| c.describe()),
                            h.next_redo().map(|c| c.describe()),
                        )
                    })
                    .unwrap_or((None, None));
                if ui
                    .add_enabled(
                        undo.is_some(),
                        egui::Button::new(format!("Undo {}  (Ctrl+Z)", undo.unwrap_or_default())),
                    )
                    .clicked()
                {
                    self.undo(false);
                }
                if ui
                    .add_enabled(
                        redo.is_some(),
                        egui::Button::new(format!(
                            "Redo {}  (Ctrl+Shift+Z)",
                            redo.unwrap_or_default()
                        )),
                    )
                    .clicked()
                {
                    self.undo(true);
                }
            });
            ui.menu_button("Map", |ui| {
                let map = self.doc.as_ref().map(|d| d.map());
                if ui
                    .add_enabled(map.is_some(), egui::Button::new("Resize…"))
                    .clicked()
                    && let Some(m) = map
                {
                    self.resize.show(m.size);
                }
                if ui
                    .add_enabled(map.is_some(), egui::Button::new("Generate…"))
                    .on_hover_text("the generator's recipe, step by step, with a live preview")
                    .clicked()
                    && let Some(m) = map
                {
                    self.generate.show(m);
                }
            });
            ui.menu_button("View", |ui| {
                if let Some(doc) = &self.doc {
                    if ui.button("Frame the whole map  (F)").clicked() {
                        self.viewport.frame_map(doc.map());
                    }
                    let label = if self.viewport.camera.ortho {
                        "Perspective  (T)"
                    } else {
                        "Top-down  (T)"
                    };
                    if ui.button(label).clicked() {
                        self.viewport.toggle_top_down(doc.map());
                    }
                    ui.separator();
                    use crate::gpu::CameraPreset;
                    for (text, preset) in [
                        ("Overhead", CameraPreset::Top),
                        ("45 degrees", CameraPreset::FortyFive),
                        ("Grazing over the water", CameraPreset::Grazing),
                    ] {
                        if ui.button(text).clicked() {
                            self.viewport.set_preset(doc.map(), preset);
                        }
                    }
                    ui.checkbox(&mut self.viewport.animate_water, "Animate the water");
                }
                ui.checkbox(&mut self.show_log, "Log");
            });
            ui.separator();
            let has_map = self.doc.is_some();
            let starting = matches!(self.try_game, super::try_game::TryGame::Starting(_));
            let running = matches!(self.try_game, super::try_game::TryGame::Running(_));
            let label = if starting {
                "Starting the engine …"
            } else if running {
                "In game"
            } else {
                "Try in game  (F5)"
            };
            if ui
                .add_enabled(has_map && !starting && !running, egui::Button::new(label))
                .on_hover_text(
                    "Compiles the map to a scratch folder and starts the engine on it: you alone \
                     in a skirmish at the first start, cheats on. Errors from the engine's log \
                     come to the log when it closes.",
                )
                .clicked()
            {
                self.try_in_game(&ctx);
            }
            if ui
                .add_enabled(
                    has_map && !self.engine_busy(),
                    egui::Button::new("Engine view"),
                )
                .on_hover_text("The engine's own picture of the map from this view's camera")
                .clicked()
            {
                self.engine_screenshot(&ctx);
            }
        });
    }

    pub(super) fn discard_dialog(&mut self, ctx: &egui::Context) {
        let Some(action) = self.pending.clone() else {
            return;
        };
        let what = match &action {
            Pending::Quit => "quitting",
            _ => "opening another map",
        };
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("discard changes")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            ui.label(format!(
                "The map has changes that are not saved. Save them before {what}?"
            ));
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    choice = Some(0);
                }
                if ui.button("Discard changes").clicked() {
                    choice = Some(1);
                }
                if ui.button("Cancel").clicked() {
                    choice = Some(2);
                }
            });
        });
        match choice {
            Some(0) => {
                self.pending = None;
                self.after_save = Some(action);
                self.save(ctx);
            }
            Some(1) => {
                self.pending = None;
                if let Some(d) = &mut self.doc {
                    let r = d.session.revision();
                    d.session.mark_saved(r);
                }
                self.perform(action, ctx);
            }
            Some(2) => self.pending = None,
            _ => {}
        }
    }
}
