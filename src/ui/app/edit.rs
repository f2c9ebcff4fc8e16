//! The editor's document-changing commands outside strokes: undo and redo, heightmap import and
//! export, the symmetry mode, Map > Resize and Map > Generate, and the question a stroke asks
//! when it leaves the height range.

use super::{EditorApp, GpuState};
use crate::gpu::{MapScene, SceneLayers};
use crate::map::Map;
use crate::ui::layers_panel::{LayersChange, LayersInput};
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

/// The question a stroke asked when it left the height range, kept in step with the heights:
/// undo, redo and later strokes change what the range has to hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RangeOffer {
    /// The heights' lowest and highest, in elmos, at `revision`.
    lo: f32,
    hi: f32,
    /// The document revision they were read at.
    revision: u64,
}

impl RangeOffer {
    /// The offer for the map as it is at `revision` (after a stroke left the range); `None`
    /// when the heights fit the range.
    pub(super) fn read(map: &Map, revision: u64) -> Option<RangeOffer> {
        let (lo, hi) = map.heights.min_max();
        let s = &map.settings;
        (lo < s.min_height_elmos || hi > s.max_height_elmos).then_some(RangeOffer {
            lo,
            hi,
            revision,
        })
    }

    /// The offer for the map at `revision`: the same while nothing changed, read again after
    /// a change, and `None` once the heights fit the range again.
    fn follow(self, map: &Map, revision: u64) -> Option<RangeOffer> {
        if revision == self.revision {
            Some(self)
        } else {
            RangeOffer::read(map, revision)
        }
    }

    /// The range the Widen button sets: the map's and the heights', rounded out to 10 elmos.
    fn widened(&self, map: &Map) -> (f32, f32) {
        crate::edit::session::widened_range(map, self.lo, self.hi)
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

    /// Makes the GPU copy of the map again when the session replaced the whole document (a
    /// resize, or its undo or redo), and frames the view on it.
    pub(super) fn follow_replacements(&mut self) {
        let Some(doc) = &self.doc else { return };
        if doc.session.replacements() == self.scene_replacements {
            return;
        }
        self.scene_replacements = doc.session.replacements();
        if let Some(gpu) = &self.gpu {
            match MapScene::new(&gpu.ctx, &gpu.renderer.layouts, doc.map(), &mut |_, _| {}) {
                Ok(s) => self.scene = Some(s),
                Err(e) => {
                    self.scene = None;
                    self.log.error(format!("the view cannot show the map: {e}"));
                }
            }
        }
        self.viewport.frame_map(doc.map());
        self.minimap.invalidate();
        self.metal.invalidate();
        self.range_offer = None;
    }

    /// Map > Resize and Map > Generate: shows whichever is open and carries out what it asks.
    pub(super) fn map_windows(&mut self, ctx: &egui::Context) {
        let Some(doc) = &mut self.doc else { return };
        let size = doc.map().size;
        if let Some(request) = self.resize.ui(ctx, size) {
            match doc.session.resize(request) {
                Ok(notes) => {
                    self.resize.open = false;
                    self.log.info(format!(
                        "resized the map from {size} to {} (Ctrl+Z undoes)",
                        request.size
                    ));
                    for n in notes {
                        self.log.warn(n);
                    }
                    self.follow_replacements();
                }
                Err(e) => self.resize.error = Some(e),
            }
        }
        let Some(doc) = &mut self.doc else { return };
        if let Some(recipe) = self.generate.ui(ctx, doc.map()) {
            let t0 = std::time::Instant::now();
            let mut layers = scene_layers(&mut self.scene, &self.gpu);
            let gpu = layers
                .as_mut()
                .map(|l| l as &mut dyn crate::edit::GpuLayers);
            match doc.session.generate(&recipe, "generate the map", gpu) {
                Ok(outcome) => {
                    self.log.info(format!(
                        "generated the map in {:.1} s ({}): {} metal spots, {} vents (Ctrl+Z undoes)",
                        t0.elapsed().as_secs_f32(),
                        if outcome.on_gpu { "GPU" } else { "CPU" },
                        outcome.spots,
                        outcome.vents
                    ));
                    for n in outcome.notes {
                        self.log.warn(n);
                    }
                    if let (Some(scene), Some(gpu)) = (&mut self.scene, &self.gpu) {
                        scene.apply_settings(&doc.map().settings);
                        scene.set_markers(&gpu.ctx, doc.map());
                    }
                    self.minimap.invalidate();
                    self.metal.invalidate();
                }
                Err(e) => self.log.error(format!("generate: {e}")),
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
        let Some(doc) = &mut self.doc else {
            self.range_offer = None;
            return;
        };
        // undo, redo and strokes since change what there is to hold
        self.range_offer = self
            .range_offer
            .and_then(|o| o.follow(doc.map(), doc.session.revision()));
        let Some(offer) = self.range_offer else {
            return;
        };
        let (lo, hi) = (offer.lo, offer.hi);
        let (wlo, whi) = offer.widened(doc.map());
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

impl EditorApp {
    /// The right panel's Layers tab: the texture stack, edited through the session (buttons are
    /// one undo step each, a slider's drag one live edit closed when the pointer is let go);
    /// hide and solo go to the view only (the central view applies them).
    pub(super) fn layers_tab(&mut self, ui: &mut egui::Ui) {
        let Some(doc) = &mut self.doc else {
            ui.weak("No map is open.");
            return;
        };
        let map = doc.map();
        let pictures: Vec<String> = map
            .bundled_files
            .iter()
            .map(|f| f.path.clone())
            .filter(|p| {
                let l = p.to_ascii_lowercase();
                [".png", ".jpg", ".jpeg", ".tga", ".bmp"]
                    .iter()
                    .any(|e| l.ends_with(e))
            })
            .collect();
        let input = LayersInput {
            layers: &map.texture_layers,
            mask_dims: map.metal.dims(),
            original: &map.texture,
            pictures: &pictures,
            bundled: &map.bundled_files,
            height_range_elmos: (map.settings.min_height_elmos, map.settings.max_height_elmos),
        };
        let change = egui::ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| self.layers.ui(ui, &input))
            .inner;
        let result = match change {
            Some(LayersChange::Step { what, layers }) => doc
                .session
                .edit(&what, |m| m.texture_layers = layers, None)
                .map(|()| Some(what)),
            Some(LayersChange::Live { what, layers }) => doc
                .session
                .edit_live(&what, |m| m.texture_layers = layers)
                .map(|()| None),
            None => Ok(None),
        };
        match result {
            Ok(Some(what)) => self.log.info(what),
            Ok(None) => {}
            Err(e) => self.log.warn(e),
        }
        if doc.session.editing_live() && !ui.input(|i| i.pointer.any_down()) {
            doc.session.end_live_edit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RangeOffer;
    use crate::edit::tools::{self, ToolSettings};
    use crate::edit::{Session, session::widened_range};
    use crate::map::{Map, MapSettings, MapSize};

    /// A `set` dab to `height` at `at`.
    fn set(s: &mut Session, at: [f32; 2], height: f32) {
        let t = tools::find("set").unwrap();
        let mut v = ToolSettings::defaults(t);
        v.set_number("height_elmos", height);
        v.brush.radius_elmos = 60.0;
        v.brush.strength = 1.0;
        s.begin_stroke(t, v, false, at, None).unwrap();
        s.end_stroke(at, None).unwrap();
    }

    #[test]
    fn the_offer_follows_undo_and_goes_when_the_heights_fit() {
        let mut s = Session::new(Map::new(
            MapSize::new(2, 2).unwrap(),
            MapSettings::default(),
        ));
        let max = s.map().settings.max_height_elmos;
        set(&mut s, [300.0, 300.0], max + 95.0);
        let first = RangeOffer::read(s.map(), s.revision()).expect("outside the range");
        set(&mut s, [700.0, 700.0], max + 263.0);
        let offer = first.follow(s.map(), s.revision()).unwrap();
        assert_eq!(offer.hi, max + 263.0);
        assert_eq!(
            offer.widened(s.map()).1,
            widened_range(s.map(), 0.0, max + 263.0).1
        );
        // the same revision reads nothing again
        assert_eq!(offer.follow(s.map(), s.revision()), Some(offer));
        s.undo(None).unwrap();
        let offer = offer.follow(s.map(), s.revision()).unwrap();
        assert_eq!(offer.hi, max + 95.0);
        assert_eq!(
            offer.widened(s.map()).1,
            ((max + 95.0) / 10.0).ceil() * 10.0
        );
        s.undo(None).unwrap();
        assert_eq!(offer.follow(s.map(), s.revision()), None);
    }
}
