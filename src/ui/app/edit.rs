//! The editor's document-changing commands outside strokes: undo and redo, heightmap import and
//! export, the symmetry mode, and the question a stroke asks when it leaves the height range.

use super::{EditorApp, GpuState};
use crate::gpu::{MapScene, SceneLayers};
use crate::ui::tools_panel::PanelAction;

/// The open map's layers on the GPU, for the session; `None` without a GPU.
pub(super) fn scene_layers<'a>(
    scene: &'a mut Option<MapScene>,
    gpu: &'a Option<GpuState>,
) -> Option<SceneLayers<'a>> {
    match (scene, gpu) {
        (Some(scene), Some(gpu)) => Some(SceneLayers {
            ctx: &gpu.ctx,
            kernels: gpu.kernels.as_ref(),
            scene,
        }),
        _ => None,
    }
}

impl EditorApp {
    pub(super) fn undo(&mut self, redo: bool) {
        let Some(doc) = &mut self.doc else { return };
        let mut layers = scene_layers(&mut self.scene, &self.gpu);
        let gpu = layers
            .as_mut()
            .map(|l| l as &mut dyn crate::edit::GpuLayers);
        let what = if redo {
            doc.session.redo(gpu)
        } else {
            doc.session.undo(gpu)
        };
        if let Some(w) = what {
            self.log
                .info(format!("{} {w}", if redo { "redid" } else { "undid" }));
            if let Some(scene) = &mut self.scene {
                scene.apply_settings(&doc.map().settings);
            }
        }
    }

    pub(super) fn panel_action(&mut self, action: PanelAction) {
        let Some(doc) = &mut self.doc else { return };
        match action {
            PanelAction::SetSymmetry(mode) => {
                let m = doc.map();
                match mode.check_map(m.size.width_units(), m.size.height_units()) {
                    Ok(()) => {
                        doc.session.map_mut().symmetry = mode;
                        self.log.info(format!("symmetry: {}", mode.label()));
                    }
                    Err(e) => self.log.warn(e),
                }
            }
        }
    }

    pub(super) fn import_heightmap(&mut self, path: &std::path::Path) {
        let Some(doc) = &mut self.doc else { return };
        let image = match crate::formats::project::read_grey_unit(path) {
            Ok(g) => g,
            Err(e) => {
                self.log.error(format!("import heightmap: {e}"));
                return;
            }
        };
        let mut layers = scene_layers(&mut self.scene, &self.gpu);
        let gpu = layers
            .as_mut()
            .map(|l| l as &mut dyn crate::edit::GpuLayers);
        match doc.session.import_heightmap(&image, gpu) {
            Ok(note) => {
                self.log.info(format!(
                    "imported the heightmap {} (Ctrl+Z undoes){}",
                    path.display(),
                    note.map(|n| format!("; {n}")).unwrap_or_default()
                ));
            }
            Err(e) => self.log.error(format!("import heightmap: {e}")),
        }
    }

    pub(super) fn export_heightmap(&mut self, path: &std::path::Path) {
        let Some(doc) = &self.doc else { return };
        let map = doc.map();
        let (w, h) = map.heights.dims();
        match crate::formats::project::write_height_words(path, w, h, &map.height_words()) {
            Ok(()) => self.log.info(format!(
                "exported the heightmap ({w}x{h}, 16-bit words over {:.0} .. {:.0} elmos) to {}",
                map.settings.min_height_elmos,
                map.settings.max_height_elmos,
                path.display()
            )),
            Err(e) => self.log.error(format!("export heightmap: {e}")),
        }
    }

    /// After a stroke left the height range: widen the range, clip the heights, or not yet.
    pub(super) fn range_dialog(&mut self, ctx: &egui::Context) {
        let Some((lo, hi)) = self.range_offer else {
            return;
        };
        let Some(doc) = &mut self.doc else {
            self.range_offer = None;
            return;
        };
        let (wlo, whi) = crate::edit::session::widened_range(doc.map(), lo, hi);
        let s = &doc.map().settings;
        let (min, max) = (s.min_height_elmos, s.max_height_elmos);
        let mut choice = None;
        egui::Window::new("Heights outside the range")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
            .show(ctx, |ui| {
                ui.label(format!(
                    "The heights now run {lo:.1} .. {hi:.1} elmos; the map's range is {min:.0} .. {max:.0}. \
                     The engine stores heights as 16-bit words within that range, so outside it they would be clipped."
                ));
                ui.horizontal(|ui| {
                    if ui
                        .button(format!("Widen the range to {wlo:.0} .. {whi:.0}"))
                        .clicked()
                    {
                        choice = Some(0);
                    }
                    if ui.button("Clip to the range").clicked() {
                        choice = Some(1);
                    }
                    if ui.button("Not now").clicked() {
                        choice = Some(2);
                    }
                });
            });
        let Some(choice) = choice else { return };
        self.range_offer = None;
        let mut layers = scene_layers(&mut self.scene, &self.gpu);
        let gpu = layers
            .as_mut()
            .map(|l| l as &mut dyn crate::edit::GpuLayers);
        let result = match choice {
            0 => doc
                .session
                .set_height_range(wlo, whi)
                .map(|_| format!("height range now {wlo:.0} .. {whi:.0} elmos (Ctrl+Z undoes)")),
            1 => doc
                .session
                .clip_heights_to_range(gpu)
                .map(|_| "clipped the heights to the range (Ctrl+Z undoes)".to_string()),
            _ => return,
        };
        match result {
            Ok(line) => self.log.info(line),
            Err(e) => self.log.error(e),
        }
        if let Some(scene) = &mut self.scene {
            scene.apply_settings(&doc.map().settings);
        }
    }
}
