//! File > New: the size (BAR's usual sizes, or any even size up to 32 x 32), the height range
//! and a start height, a sea level or no water, the players and the symmetry, a name and an
//! author, and the ground flat, from a heightmap PNG or from the generator (a preset and a
//! seed: its ground, metal and vents). Create hands the request to the app,
//! which builds the map on a worker thread; a request `new_map` refuses keeps the dialog open
//! with the reason.

use std::path::PathBuf;

use super::file_dialog::{Answer, FileDialogs, Pick, Request};
use crate::edit::new_map::{BAR_SIZES, MAX_NEW_UNITS, MAX_PLAYERS, NewMap};
use crate::map::SymmetryMode;
use crate::map::recipe::{Preset, Recipe};

#[derive(Debug, Default)]
pub struct NewMapDialog {
    /// Shown now.
    pub open: bool,
    spec: NewMap,
    water: bool,
    sea_level_elmos: f32,
    /// The heightmap chosen (its path, and the image read from it).
    heightmap: Option<PathBuf>,
    /// The generator's preset (`None`: flat or the heightmap), and its seed.
    terrain: Option<Preset>,
    seed: u32,
    picking: FileDialogs<()>,
    /// Why the last Create was refused, or the heightmap could not be read.
    pub error: Option<String>,
}

impl NewMapDialog {
    /// Opens the dialog with what it held last time (or the defaults).
    pub fn show(&mut self) {
        if !self.open && self.spec.name.is_empty() {
            self.spec = NewMap::default();
        }
        if self.sea_level_elmos == 0.0 {
            self.sea_level_elmos = 50.0;
        }
        self.open = true;
        self.error = None;
    }

    /// The heightmap browser uses the in-app dialog (tests).
    pub fn use_in_app_dialogs(&mut self) {
        self.picking = FileDialogs::in_app_only("asked for");
    }

    /// What Create asks for, read and checked: the map spec with its heightmap loaded.
    fn request(&self) -> Result<NewMap, String> {
        let mut spec = self.spec.clone();
        spec.sea_level_elmos = self.water.then_some(self.sea_level_elmos);
        spec.heightmap = match &self.heightmap {
            Some(p) => Some(
                crate::formats::project::read_grey_unit(p)
                    .map_err(|e| format!("the heightmap {}: {e}", p.display()))?,
            ),
            None => None,
        };
        if let Some(p) = self.terrain {
            if spec.heightmap.is_some() {
                return Err(
                    "a heightmap and the generator each make the ground: choose one".into(),
                );
            }
            let mut r = Recipe::preset(p, self.seed);
            if let Some(sea) = spec.sea_level_elmos {
                r.set_sea_level(sea - spec.min_height_elmos);
            }
            spec.recipe = Some(r);
        }
        Ok(spec)
    }

    /// Shows the dialog; returns the map to make when Create is pressed and the request holds.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<NewMap> {
        if let Some(Answer::Picked((), path)) = self.picking.poll(ctx) {
            self.heightmap = Some(path);
        }
        if !self.open {
            return None;
        }
        let mut open = self.open;
        let mut create = false;
        egui::Window::new("New map")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::Grid::new("new map").num_columns(2).show(ui, |ui| {
                    let s = &mut self.spec;
                    let l = ui.label("Name").id;
                    ui.text_edit_singleline(&mut s.name).labelled_by(l);
                    ui.end_row();
                    let l = ui.label("Author").id;
                    ui.text_edit_singleline(&mut s.author).labelled_by(l);
                    ui.end_row();

                    let l = ui.label("Size").id;
                    ui.horizontal(|ui| {
                        egui::ComboBox::from_id_salt("bar sizes")
                            .selected_text(format!("{}x{}", s.width_units, s.depth_units))
                            .show_ui(ui, |ui| {
                                for (w, d) in BAR_SIZES {
                                    let text = format!("{w}x{d}");
                                    if ui
                                        .selectable_label(
                                            (s.width_units, s.depth_units) == (w, d),
                                            text,
                                        )
                                        .clicked()
                                    {
                                        s.width_units = w;
                                        s.depth_units = d;
                                    }
                                }
                            })
                            .response
                            .labelled_by(l);
                        let range = 2..=MAX_NEW_UNITS;
                        let w = ui.add(
                            egui::DragValue::new(&mut s.width_units)
                                .range(range.clone())
                                .speed(0.1)
                                .prefix("width "),
                        );
                        let d = ui.add(
                            egui::DragValue::new(&mut s.depth_units)
                                .range(range)
                                .speed(0.1)
                                .prefix("depth "),
                        );
                        // map units come in twos
                        if w.changed() || d.changed() {
                            s.width_units += s.width_units % 2;
                            s.depth_units += s.depth_units % 2;
                        }
                    });
                    ui.end_row();

                    let l = ui.label("Heights").id;
                    ui.horizontal(|ui| {
                        ui.add(
                            egui::DragValue::new(&mut s.min_height_elmos)
                                .speed(1.0)
                                .prefix("from ")
                                .suffix(" elmos"),
                        )
                        .labelled_by(l);
                        ui.add(
                            egui::DragValue::new(&mut s.max_height_elmos)
                                .speed(1.0)
                                .prefix("to ")
                                .suffix(" elmos"),
                        );
                    });
                    ui.end_row();
                    let l = ui.label("Start height").id;
                    ui.add_enabled(
                        self.heightmap.is_none(),
                        egui::DragValue::new(&mut s.start_height_elmos)
                            .speed(1.0)
                            .suffix(" elmos"),
                    )
                    .labelled_by(l)
                    .on_hover_text(
                        "the flat ground's height (a heightmap sets the ground instead)",
                    );
                    ui.end_row();

                    let l = ui.label("Water").id;
                    ui.horizontal(|ui| {
                        ui.checkbox(&mut self.water, "sea level at").labelled_by(l);
                        ui.add_enabled(
                            self.water,
                            egui::DragValue::new(&mut self.sea_level_elmos)
                                .speed(1.0)
                                .suffix(" elmos"),
                        );
                    });
                    ui.end_row();

                    let l = ui.label("Players").id;
                    ui.add(egui::DragValue::new(&mut s.players).range(1..=MAX_PLAYERS))
                        .labelled_by(l);
                    ui.end_row();
                    let l = ui.label("Map symmetry").id;
                    egui::ComboBox::from_id_salt("new symmetry")
                        .selected_text(s.symmetry.label())
                        .show_ui(ui, |ui| {
                            for m in SymmetryMode::ALL {
                                ui.selectable_value(&mut s.symmetry, m, m.label());
                            }
                        })
                        .response
                        .labelled_by(l);
                    ui.end_row();

                    let l = ui.label("Ground").id;
                    ui.horizontal(|ui| {
                        let text = match &self.heightmap {
                            Some(p) => format!(
                                "from {}",
                                p.file_name().unwrap_or_default().to_string_lossy()
                            ),
                            None => "flat".into(),
                        };
                        ui.label(text).labelled_by(l);
                        if ui.button("Heightmap PNG…").clicked() {
                            self.picking.open(
                                (),
                                Request::new(
                                    "A greyscale heightmap",
                                    Pick::File(vec![("PNG images".into(), vec!["png".into()])]),
                                ),
                                ui.ctx(),
                            );
                        }
                        if self.heightmap.is_some() && ui.button("Flat").clicked() {
                            self.heightmap = None;
                        }
                    });
                    ui.end_row();

                    let l = ui.label("Generator").id;
                    ui.horizontal(|ui| {
                        let name =
                            |t: Option<Preset>| t.map_or("off".to_string(), |p| p.to_string());
                        egui::ComboBox::from_id_salt("new terrain")
                            .selected_text(name(self.terrain))
                            .show_ui(ui, |ui| {
                                ui.selectable_value(&mut self.terrain, None, name(None));
                                for p in Preset::ALL {
                                    ui.selectable_value(&mut self.terrain, Some(p), name(Some(p)));
                                }
                            })
                            .response
                            .labelled_by(l);
                        let sl = ui.label("seed").id;
                        ui.add_enabled(
                            self.terrain.is_some(),
                            egui::DragValue::new(&mut self.seed).range(0..=999_999),
                        )
                        .labelled_by(sl);
                    });
                    ui.end_row();
                });
                if let Some(e) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, e.as_str());
                }
                ui.horizontal(|ui| {
                    if ui.button("Create").clicked() {
                        create = true;
                    }
                    ui.weak("mapinfo gets BAR's defaults; File > Save As writes the project");
                });
            });
        self.open = open;
        if !create {
            return None;
        }
        match self
            .request()
            .and_then(|spec| crate::edit::new_map::check(&spec).map(|_| spec))
        {
            Ok(spec) => {
                self.error = None;
                self.open = false;
                Some(spec)
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }
}
