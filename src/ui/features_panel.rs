//! The feature tools (place, scatter, erase, select) as the Tools panel shows them: the
//! palette of names (the engine's built-ins, the map's own `features/*.lua`, the installed
//! game's definitions or, without one, BAR's standard names), and each tool's settings. The
//! viewport sends the clicks; `edit::features` does the work as one undo step each.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::feature_models::ModelCache;
use crate::edit::features::{Scatter, ScatterFilters};
use crate::map::Map;

/// A palette row's model picture, in points.
const THUMB_POINTS: f32 = 28.0;

/// A feature tool: what the left button does to features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureTool {
    Place,
    Scatter,
    Erase,
    Select,
}

impl FeatureTool {
    pub const ALL: [FeatureTool; 4] = [
        FeatureTool::Place,
        FeatureTool::Scatter,
        FeatureTool::Erase,
        FeatureTool::Select,
    ];

    pub fn label(self) -> &'static str {
        match self {
            FeatureTool::Place => "Place feature",
            FeatureTool::Scatter => "Scatter features",
            FeatureTool::Erase => "Erase features",
            FeatureTool::Select => "Select features",
        }
    }

    pub fn help(self) -> &'static str {
        match self {
            FeatureTool::Place => {
                "Click to place the chosen feature, turned by the rotation; symmetry places its copies."
            }
            FeatureTool::Scatter => {
                "Paint to fill the brush with features up to the density, never closer than the spacing, where the filters allow."
            }
            FeatureTool::Erase => {
                "Paint to remove the features under the brush (and its symmetric images)."
            }
            FeatureTool::Select => {
                "Click a feature or drag a box to select (Shift adds). Drag a selected feature to move, the ring's handle to turn; Delete removes. Partners follow."
            }
        }
    }
}

/// Where a palette name comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// The map's own `features/*.lua`.
    Map,
    /// Built into the engine.
    Engine,
    /// The installed game's definitions.
    Game,
    /// BAR's standard names, known without BAR installed.
    Standard,
}

impl Source {
    pub fn label(self) -> &'static str {
        match self {
            Source::Map => "map",
            Source::Engine => "engine",
            Source::Game => "BAR",
            Source::Standard => "BAR (standard)",
        }
    }
}

/// The engine's built-in feature definitions.
pub const ENGINE_FEATURES: &[&str] = &["geovent"];

/// Every name the palette offers for `map`, each once, the map's own first.
pub fn palette(map: &Map) -> Vec<(String, Source)> {
    let mut out: Vec<(String, Source)> = Vec::new();
    let mut push = |n: String, s: Source| {
        if !out.iter().any(|(o, _)| o.eq_ignore_ascii_case(&n)) {
            out.push((n, s));
        }
    };
    let own = crate::formats::features::defined_feature_names(&map.bundled_files);
    for n in own.names {
        push(n, Source::Map);
    }
    for n in ENGINE_FEATURES {
        push(n.to_string(), Source::Engine);
    }
    match crate::install::installed_game_features() {
        Some((defs, _)) => defs
            .names()
            .names
            .into_iter()
            .for_each(|n| push(n, Source::Game)),
        None => crate::map::bar::standard_feature_names()
            .into_iter()
            .for_each(|n| push(n, Source::Standard)),
    }
    out
}

/// The feature tools' settings and the selection.
#[derive(Clone, Debug)]
pub struct FeatureSettings {
    pub tool: Option<FeatureTool>,
    /// The palette of the map it was made for (by the document's files' count and name).
    palette: Arc<Vec<(String, Source)>>,
    palette_key: Option<(String, usize)>,
    pub search: String,
    /// The name Place uses.
    pub place_name: String,
    pub rotation_deg: f32,
    /// Scatter's names with their weights.
    pub scatter_names: Vec<(String, f32)>,
    pub radius_elmos: f32,
    pub density_per_mega_elmo2: f32,
    pub spacing_elmos: f32,
    pub seed: u64,
    pub random_rotation: bool,
    pub slope_on: bool,
    pub slope_deg: [f32; 2],
    pub height_on: bool,
    pub height_elmos: [f32; 2],
    pub avoid_water: bool,
    pub layer: Option<String>,
    /// Selected features (indices into the map's list).
    pub selection: BTreeSet<usize>,
}

impl Default for FeatureSettings {
    fn default() -> FeatureSettings {
        FeatureSettings {
            tool: None,
            palette: Arc::new(Vec::new()),
            palette_key: None,
            search: String::new(),
            place_name: "geovent".into(),
            rotation_deg: 0.0,
            scatter_names: Vec::new(),
            radius_elmos: 400.0,
            density_per_mega_elmo2: 20.0,
            spacing_elmos: 64.0,
            seed: 1,
            random_rotation: true,
            slope_on: false,
            slope_deg: [0.0, 20.0],
            height_on: false,
            height_elmos: [0.0, 500.0],
            avoid_water: true,
            layer: None,
            selection: BTreeSet::new(),
        }
    }
}

impl FeatureSettings {
    /// Scatter's settings as `edit::features` takes them; `None` without a name.
    pub fn scatter(&self) -> Option<Scatter> {
        if self.scatter_names.is_empty() {
            return None;
        }
        Some(Scatter {
            names: self.scatter_names.clone(),
            density_per_mega_elmo2: self.density_per_mega_elmo2,
            spacing_elmos: self.spacing_elmos,
            seed: self.seed,
            rotation_deg: (!self.random_rotation).then_some(self.rotation_deg),
            filters: ScatterFilters {
                slope_deg: self.slope_on.then_some(self.slope_deg),
                height_elmos: self.height_on.then_some(self.height_elmos),
                avoid_water: self.avoid_water,
                layer: self.layer.clone(),
            },
        })
    }

    /// The brush radius the view draws for the tool, if it paints.
    pub fn brush_radius(&self) -> Option<f32> {
        match self.tool {
            Some(FeatureTool::Scatter | FeatureTool::Erase) => Some(self.radius_elmos),
            _ => None,
        }
    }

    fn refresh_palette(&mut self, map: &Map) {
        let key = (map.settings.name.clone(), map.bundled_files.len());
        if self.palette_key.as_ref() != Some(&key) {
            self.palette = Arc::new(palette(map));
            self.palette_key = Some(key);
        }
    }

    /// Drops selected indices the map no longer has.
    pub fn follow(&mut self, map: &Map) {
        let n = map.features.len();
        self.selection.retain(|&i| i < n);
    }

    /// The settings of the chosen feature tool.
    pub fn ui(&mut self, ui: &mut egui::Ui, map: &Map, models: &mut ModelCache) {
        let Some(tool) = self.tool else { return };
        self.refresh_palette(map);
        self.follow(map);
        ui.weak(tool.help());
        match tool {
            FeatureTool::Place => {
                self.palette_ui(ui, false, map, models);
                egui::Grid::new("place").num_columns(2).show(ui, |ui| {
                    let l = ui.label("Rotation").id;
                    ui.add(egui::Slider::new(&mut self.rotation_deg, 0.0..=359.0).suffix("°"))
                        .labelled_by(l);
                    ui.end_row();
                });
            }
            FeatureTool::Scatter => {
                self.palette_ui(ui, true, map, models);
                self.scatter_ui(ui, map);
            }
            FeatureTool::Erase => {
                egui::Grid::new("erase")
                    .num_columns(2)
                    .show(ui, |ui| radius_row(ui, &mut self.radius_elmos));
            }
            FeatureTool::Select => {
                ui.label(format!(
                    "{} of {} features selected",
                    self.selection.len(),
                    map.features.len()
                ));
                if let Some(&i) = self.selection.iter().next()
                    && let Some(f) = map.features.get(i)
                {
                    ui.label(format!(
                        "{} at ({:.0}, {:.0}), {:.0}°",
                        f.name, f.x_elmos, f.z_elmos, f.rotation_deg
                    ));
                }
            }
        }
    }

    fn palette_ui(
        &mut self,
        ui: &mut egui::Ui,
        weighted: bool,
        map: &Map,
        models: &mut ModelCache,
    ) {
        ui.horizontal(|ui| {
            let l = ui.label("Find").id;
            ui.text_edit_singleline(&mut self.search).labelled_by(l);
        });
        let want = self.search.to_ascii_lowercase();
        let palette = self.palette.clone();
        let shown: Vec<&(String, Source)> = palette
            .iter()
            .filter(|(n, _)| want.is_empty() || n.to_ascii_lowercase().contains(&want))
            .collect();
        // each row shows its model; the models of the rows in view are found as they scroll in
        egui::ScrollArea::vertical()
            .id_salt("palette")
            .max_height(200.0)
            .show_rows(ui, THUMB_POINTS + 4.0, shown.len(), |ui, rows| {
                for (name, source) in &shown[rows] {
                    let chosen = if weighted {
                        self.scatter_names.iter().any(|(n, _)| n == name)
                    } else {
                        &self.place_name == name
                    };
                    let clicked = ui
                        .horizontal(|ui| {
                            if !models.thumbnail(ui, map, name, THUMB_POINTS) {
                                let (r, _) = ui.allocate_exact_size(
                                    egui::vec2(THUMB_POINTS, THUMB_POINTS),
                                    egui::Sense::hover(),
                                );
                                ui.painter().circle_filled(
                                    r.center(),
                                    THUMB_POINTS * 0.2,
                                    egui::Color32::from_rgb(26, 90, 26),
                                );
                            }
                            ui.selectable_label(chosen, name.as_str())
                                .on_hover_text(source.label())
                                .clicked()
                        })
                        .inner;
                    if clicked {
                        if weighted {
                            if chosen {
                                self.scatter_names.retain(|(n, _)| n != name);
                            } else {
                                self.scatter_names.push((name.clone(), 1.0));
                            }
                        } else {
                            self.place_name = name.clone();
                        }
                    }
                }
            });
        if !weighted {
            ui.horizontal(|ui| {
                models.thumbnail(ui, map, &self.place_name.clone(), 64.0);
                ui.vertical(|ui| {
                    ui.label(format!("Places: {}", self.place_name));
                    match models.model(map, &self.place_name) {
                        Ok(m) => ui.weak(format!(
                            "{}, {} triangles, {:.0} elmos tall",
                            m.model_path,
                            m.mesh.indices.len() / 3,
                            m.height_elmos
                        )),
                        Err(e) => ui.weak(format!("drawn as a marker: {e}")),
                    };
                });
            });
        }
    }

    fn scatter_ui(&mut self, ui: &mut egui::Ui, map: &Map) {
        if self.scatter_names.is_empty() {
            ui.weak("Pick one or more names above.");
        }
        let mut drop = None;
        egui::Grid::new("scatter names")
            .num_columns(3)
            .show(ui, |ui| {
                for (i, (n, w)) in self.scatter_names.iter_mut().enumerate() {
                    ui.label(n.as_str());
                    ui.add(
                        egui::DragValue::new(w)
                            .range(0.1..=100.0)
                            .speed(0.1)
                            .prefix("weight "),
                    );
                    if ui.small_button("x").on_hover_text("remove").clicked() {
                        drop = Some(i);
                    }
                    ui.end_row();
                }
            });
        if let Some(i) = drop {
            self.scatter_names.remove(i);
        }
        egui::Grid::new("scatter").num_columns(2).show(ui, |ui| {
            radius_row(ui, &mut self.radius_elmos);
            let l = ui.label("Density").id;
            ui.add(
                egui::DragValue::new(&mut self.density_per_mega_elmo2)
                    .range(0.0..=2000.0)
                    .suffix(" / 1000²"),
            )
            .labelled_by(l)
            .on_hover_text("features per 1000 x 1000 elmos");
            ui.end_row();
            let l = ui.label("Spacing").id;
            ui.add(
                egui::DragValue::new(&mut self.spacing_elmos)
                    .range(0.0..=2000.0)
                    .suffix(" elmos"),
            )
            .labelled_by(l);
            ui.end_row();
            let l = ui.label("Seed").id;
            ui.add(egui::DragValue::new(&mut self.seed)).labelled_by(l);
            ui.end_row();
            ui.checkbox(&mut self.random_rotation, "Random rotation");
            ui.add_enabled(
                !self.random_rotation,
                egui::Slider::new(&mut self.rotation_deg, 0.0..=359.0).suffix("°"),
            );
            ui.end_row();
            ui.checkbox(&mut self.slope_on, "Slope");
            ui.horizontal(|ui| {
                ui.add_enabled(
                    self.slope_on,
                    egui::DragValue::new(&mut self.slope_deg[0])
                        .range(0.0..=90.0)
                        .suffix("°"),
                );
                ui.add_enabled(
                    self.slope_on,
                    egui::DragValue::new(&mut self.slope_deg[1])
                        .range(0.0..=90.0)
                        .suffix("°"),
                );
            });
            ui.end_row();
            ui.checkbox(&mut self.height_on, "Height");
            ui.horizontal(|ui| {
                ui.add_enabled(
                    self.height_on,
                    egui::DragValue::new(&mut self.height_elmos[0]).suffix(" elmos"),
                );
                ui.add_enabled(
                    self.height_on,
                    egui::DragValue::new(&mut self.height_elmos[1]).suffix(" elmos"),
                );
            });
            ui.end_row();
            ui.checkbox(&mut self.avoid_water, "Avoid water");
            ui.end_row();
            let l = ui.label("On layer").id;
            egui::ComboBox::from_id_salt("scatter layer")
                .selected_text(self.layer.clone().unwrap_or_else(|| "anywhere".into()))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.layer, None, "anywhere");
                    for t in &map.texture_layers {
                        ui.selectable_value(&mut self.layer, Some(t.name.clone()), &t.name);
                    }
                })
                .response
                .labelled_by(l);
            ui.end_row();
        });
        if self.slope_deg[0] > self.slope_deg[1] {
            self.slope_deg.swap(0, 1);
        }
        if self.height_elmos[0] > self.height_elmos[1] {
            self.height_elmos.swap(0, 1);
        }
        if let Some(l) = &self.layer
            && !map.texture_layers.iter().any(|t| &t.name == l)
        {
            self.layer = None;
        }
    }
}

/// The brush radius as a row of a two-column grid.
fn radius_row(ui: &mut egui::Ui, radius_elmos: &mut f32) {
    let l = ui.label("Radius").id;
    ui.add(
        egui::DragValue::new(radius_elmos)
            .range(crate::edit::Brush::RADIUS_RANGE_ELMOS)
            .suffix(" elmos"),
    )
    .labelled_by(l)
    .on_hover_text("[ and ] change it");
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize};

    #[test]
    fn the_palette_offers_the_engines_vent_and_each_name_once() {
        let map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        let p = palette(&map);
        assert!(
            p.iter()
                .any(|(n, s)| n == "geovent" && *s == Source::Engine)
        );
        let mut names: Vec<String> = p.iter().map(|(n, _)| n.to_ascii_lowercase()).collect();
        let before = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), before);
        assert!(before > 10, "BAR's names, installed or standard");
    }

    #[test]
    fn scatter_settings_carry_the_filters_that_are_on() {
        let mut s = FeatureSettings {
            scatter_names: vec![("a".into(), 2.0)],
            ..Default::default()
        };
        assert_eq!(s.scatter().unwrap().filters.slope_deg, None);
        s.slope_on = true;
        s.random_rotation = false;
        s.rotation_deg = 90.0;
        let sc = s.scatter().unwrap();
        assert_eq!(sc.filters.slope_deg, Some([0.0, 20.0]));
        assert_eq!(sc.rotation_deg, Some(90.0));
        assert!(FeatureSettings::default().scatter().is_none());
    }
}
