//! File > Import: the Warzone 2100 and StarCraft II importers in the window, and the chooser
//! for a Warzone 2100 source that holds more than one map.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::formats::sc2::{Chasm, Sc2Options, TextureSource};
use crate::formats::wz2100::{MapListing, MapStatus, SYSTEM_DATA_DIR, Wz2100Options};

use super::{DialogKind, EditorApp, Pending, Source, jobs};

/// The maps of one Warzone 2100 source, shown for the user to pick one.
pub struct Wz2100Choice {
    pub source: PathBuf,
    pub maps: Vec<MapListing>,
}

/// How the importers scale and convert: the command line's options, kept for the session.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    pub wz2100: Wz2100Options,
    pub sc2: Sc2Options,
}

fn wz2100_options_ui(ui: &mut egui::Ui, o: &mut Wz2100Options) {
    ui.add(
        egui::Slider::new(&mut o.tile_elmos, 16..=256)
            .step_by(16.0)
            .suffix(" elmos")
            .text("per tile"),
    )
    .on_hover_text("Default 64. Bigger tiles make a bigger map; it must fit in 64 x 64 map units.");
    ui.add(
        egui::Slider::new(&mut o.height_scale, 0.25..=4.0)
            .suffix("x")
            .text("heights"),
    );
}

fn sc2_options_ui(ui: &mut egui::Ui, o: &mut Sc2Options) {
    ui.add(
        egui::Slider::new(&mut o.cell_elmos, 8..=256)
            .step_by(8.0)
            .suffix(" elmos")
            .text("per cell"),
    )
    .on_hover_text("Default 32. Bigger cells make a bigger map; it must fit in 64 x 64 map units.");
    ui.add(
        egui::Slider::new(&mut o.height_scale, 0.25..=4.0)
            .suffix("x")
            .text("heights"),
    );
    ui.horizontal(|ui| {
        ui.label("Chasms:");
        ui.radio_value(&mut o.chasm, Chasm::Pit, "deep pit");
        ui.radio_value(&mut o.chasm, Chasm::Sea, "sea");
    });
    ui.horizontal(|ui| {
        ui.label("Ground:");
        ui.radio_value(&mut o.texture, TextureSource::Layers, "texture layers");
        ui.radio_value(&mut o.texture, TextureSource::Minimap, "Minimap.tga");
    });
}

/// The game's own skirmish maps, where Debian's `warzone2100-data` puts them; looked for once,
/// not on every frame the menu is open.
fn system_mp_wz() -> Option<&'static Path> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let p = Path::new(SYSTEM_DATA_DIR).join("mp.wz");
            p.is_file().then_some(p)
        })
        .as_deref()
}

impl EditorApp {
    pub(super) fn import_menu(&mut self, ui: &mut egui::Ui, ctx: &egui::Context) {
        ui.strong("Warzone 2100");
        if ui.button("Warzone 2100 map (.wz archive)…").clicked() {
            self.start_dialog(DialogKind::ImportWz2100File, ctx);
        }
        if ui.button("Warzone 2100 map (folder)…").clicked() {
            self.start_dialog(DialogKind::ImportWz2100Folder, ctx);
        }
        let system = system_mp_wz();
        let hover = match &system {
            Some(p) => format!("the skirmish maps in {}", p.display()),
            None => format!("no mp.wz in {SYSTEM_DATA_DIR} (install warzone2100-data)"),
        };
        let button = ui
            .add_enabled(
                system.is_some(),
                egui::Button::new("Warzone 2100: the game's skirmish maps…"),
            )
            .on_hover_text(&hover)
            .on_disabled_hover_text(&hover);
        if button.clicked()
            && let Some(p) = system
        {
            self.start_list_wz2100(p.to_path_buf(), ctx);
        }
        wz2100_options_ui(ui, &mut self.import_options.wz2100);
        ui.separator();
        ui.strong("StarCraft II");
        if ui.button("StarCraft II map (.SC2Map)…").clicked() {
            self.request(Pending::Dialog(DialogKind::ImportSc2), ctx);
        }
        sc2_options_ui(ui, &mut self.import_options.sc2);
    }

    /// A StarCraft II import of `path` with the options set in File > Import.
    pub(super) fn sc2_source(&self, path: PathBuf) -> Source {
        Source::Sc2 {
            path,
            options: self.import_options.sc2,
        }
    }

    fn wz2100_source(&self, source: PathBuf, map: String) -> Source {
        Source::Wz2100 {
            source,
            map,
            options: self.import_options.wz2100.clone(),
        }
    }

    pub(super) fn start_list_wz2100(&mut self, source: PathBuf, ctx: &egui::Context) {
        if self.busy() {
            self.log.warn("wait for the running job to finish");
            return;
        }
        self.job = Some(jobs::list_wz2100(source, ctx.clone()));
    }

    /// A listing came back: one importable map imports at once, several ask which.
    pub(super) fn offer_wz2100_maps(
        &mut self,
        source: PathBuf,
        maps: Vec<MapListing>,
        ctx: &egui::Context,
    ) {
        let importable: Vec<&MapListing> = maps
            .iter()
            .filter(|m| m.status == MapStatus::Importable)
            .collect();
        match importable.as_slice() {
            [] => self.log.error(format!(
                "{}: no importable Warzone 2100 map ({} found{})",
                source.display(),
                maps.len(),
                maps.first()
                    .map(|m| format!("; {}: {}", m.name, m.status.describe()))
                    .unwrap_or_default()
            )),
            [only] if maps.len() == 1 => {
                let source = self.wz2100_source(source, only.name.clone());
                self.request(Pending::Open(source), ctx);
            }
            _ => self.wz_choice = Some(Wz2100Choice { source, maps }),
        }
    }

    /// The window listing a Warzone 2100 source's maps; picking one imports it.
    pub(super) fn wz2100_chooser(&mut self, ctx: &egui::Context) {
        let Some(choice) = &self.wz_choice else {
            return;
        };
        let options = &mut self.import_options.wz2100;
        let mut open = true;
        let mut picked = None;
        egui::Window::new("Import a Warzone 2100 map")
            .open(&mut open)
            .collapsible(false)
            .default_size([560.0, 560.0])
            .show(ctx, |ui| {
                ui.label(format!("{}", choice.source.display()));
                ui.weak("Script-generated maps (game.js only) have no terrain to import.");
                wz2100_options_ui(ui, options);
                ui.separator();
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::Grid::new("wz2100 maps")
                        .striped(true)
                        .num_columns(5)
                        .show(ui, |ui| {
                            ui.strong("map");
                            ui.strong("players");
                            ui.strong("tiles");
                            ui.strong("tileset");
                            ui.strong("");
                            ui.end_row();
                            for m in &choice.maps {
                                ui.label(&m.title);
                                ui.label(m.players.map(|p| p.to_string()).unwrap_or("?".into()));
                                ui.label(
                                    m.size_tiles
                                        .map(|(w, h)| format!("{w} x {h}"))
                                        .unwrap_or("-".into()),
                                );
                                ui.label(m.tileset.map(|t| t.name()).unwrap_or("?"));
                                if m.status == MapStatus::Importable {
                                    if ui.button("Import").clicked() {
                                        picked = Some(m.name.clone());
                                    }
                                } else {
                                    ui.weak(m.status.describe());
                                }
                                ui.end_row();
                            }
                        });
                });
            });
        if let Some(map) = picked {
            let source = self.wz2100_source(choice.source.clone(), map);
            self.wz_choice = None;
            self.request(Pending::Open(source), ctx);
        } else if !open {
            self.wz_choice = None;
        }
    }
}
