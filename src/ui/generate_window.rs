//! Map > Generate: the open map's generator recipe, step by step (each step's settings, moved
//! up or down, removed, added; a preset to start from; the seed), with a preview that follows
//! every change: the recipe runs on a worker thread on a miniature of the map (the same
//! recipe with every distance scaled down, its ground steps only), drawn as shaded relief
//! with its starts. Apply hands the recipe to the app, which runs it at full size (the metal
//! and vents too) as one undo step.

use std::sync::mpsc;

use crate::edit::generate::generate;
use crate::map::recipe::{MAX_STEPS, NoiseKind, Preset, Recipe, Step};
use crate::map::{Map, MapSize, Team};

/// A finished preview: the picture and what the run said.
struct Preview {
    recipe: Recipe,
    texture: egui::TextureHandle,
    size: MapSize,
    notes: Vec<String>,
    seconds: f32,
}

/// A preview being made.
struct Running {
    recipe: Recipe,
    rx: mpsc::Receiver<Result<Made, String>>,
}

/// What the worker sends back.
struct Made {
    image: egui::ColorImage,
    size: MapSize,
    notes: Vec<String>,
    seconds: f32,
}

#[derive(Default)]
pub struct GenerateWindow {
    pub open: bool,
    recipe: Option<Recipe>,
    preview: Option<Preview>,
    running: Option<Running>,
    /// Why the recipe cannot run (checked as it is edited), or the preview failed.
    error: Option<String>,
}

impl GenerateWindow {
    /// Opens the window on the map's recipe (or the continental preset's).
    pub fn show(&mut self, map: &Map) {
        self.recipe = Some(
            map.generator
                .clone()
                .unwrap_or_else(|| Recipe::preset(Preset::Continental, 1)),
        );
        self.preview = None;
        self.error = None;
        self.open = true;
    }

    /// Whether a preview is being made (tests wait for it).
    pub fn previewing(&self) -> bool {
        self.running.is_some()
    }

    /// The recipe the last finished preview shows, and its notes.
    pub fn previewed(&self) -> Option<(&Recipe, &[String])> {
        self.preview
            .as_ref()
            .map(|p| (&p.recipe, p.notes.as_slice()))
    }

    /// Shows the window; returns the recipe when Apply is pressed.
    pub fn ui(&mut self, ctx: &egui::Context, map: &Map) -> Option<Recipe> {
        if !self.open {
            return None;
        }
        self.poll(ctx);
        let mut recipe = self.recipe.clone()?;
        let mut open = self.open;
        let mut apply = false;
        egui::Window::new("Generate")
            .open(&mut open)
            .default_width(560.0)
            .show(ctx, |ui| {
                ui.horizontal_top(|ui| {
                    ui.vertical(|ui| {
                        ui.set_width(300.0);
                        edit_recipe(ui, &mut recipe);
                    });
                    ui.vertical(|ui| self.preview_ui(ui));
                });
                ui.separator();
                if let Some(e) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(self.error.is_none(), egui::Button::new("Apply to the map"))
                        .on_hover_text("runs the recipe at full size: one undo step")
                        .clicked()
                    {
                        apply = true;
                    }
                    ui.weak(format!(
                        "{} players, symmetry {}",
                        map.teams.len().max(2),
                        map.symmetry.label()
                    ));
                });
            });
        self.open = open;
        if Some(&recipe) != self.recipe.as_ref() {
            self.recipe = Some(recipe.clone());
        }
        self.error = recipe.check().err();
        if self.error.is_none() {
            self.start_preview(ctx, map, &recipe);
        }
        (apply && self.error.is_none()).then_some(recipe)
    }

    fn preview_ui(&self, ui: &mut egui::Ui) {
        match &self.preview {
            Some(p) => {
                let side = 240.0;
                let (w, h) = (p.size.width_units() as f32, p.size.height_units() as f32);
                let size = egui::vec2(side * w / w.max(h), side * h / w.max(h));
                ui.image((p.texture.id(), size));
                ui.weak(format!(
                    "the ground at {} ({:.1} s); Apply lays out the metal and vents",
                    p.size, p.seconds
                ));
                for n in p.notes.iter().take(3) {
                    ui.weak(n);
                }
            }
            None => {
                ui.label("making the preview ...");
            }
        }
        if self.running.is_some() && self.preview.is_some() {
            ui.weak("updating ...");
        }
    }

    /// Starts a preview of `recipe` unless one is running or already shows it; a change made
    /// while one runs starts the next as soon as it ends, so dragging a slider keeps it moving.
    fn start_preview(&mut self, ctx: &egui::Context, map: &Map, recipe: &Recipe) {
        if self.running.is_some() || self.preview.as_ref().is_some_and(|p| &p.recipe == recipe) {
            return;
        }
        let (size, factor) = preview_size(map.size);
        let mut mini = Map::new(size, map.settings.clone());
        mini.symmetry = map.symmetry;
        mini.teams = vec![
            Team {
                start_x_elmos: 0.0,
                start_z_elmos: 0.0
            };
            map.teams.len()
        ];
        // the ground only: metal spots and vents keep their real sizes and spacing, which a
        // miniature cannot hold, so they are laid out on Apply
        let mut scaled = recipe.scaled(factor);
        scaled.steps.retain(|s| !s.places());
        let (tx, rx) = mpsc::channel();
        let repaint = ctx.clone();
        std::thread::spawn(move || {
            let t0 = std::time::Instant::now();
            let made = generate(&mut mini, &scaled, None).map(|outcome| Made {
                image: relief_image(&mini),
                size,
                notes: outcome.notes,
                seconds: t0.elapsed().as_secs_f32(),
            });
            let _ = tx.send(made);
            repaint.request_repaint();
        });
        self.running = Some(Running {
            recipe: recipe.clone(),
            rx,
        });
    }

    fn poll(&mut self, ctx: &egui::Context) {
        let Some(r) = &self.running else { return };
        let got = match r.rx.try_recv() {
            Ok(got) => got,
            Err(mpsc::TryRecvError::Empty) => return,
            Err(mpsc::TryRecvError::Disconnected) => Err("the preview stopped".into()),
        };
        let recipe = self.running.take().expect("running").recipe;
        match got {
            Ok(m) => {
                let texture =
                    ctx.load_texture("generator preview", m.image, egui::TextureOptions::LINEAR);
                self.preview = Some(Preview {
                    recipe,
                    texture,
                    size: m.size,
                    notes: m.notes,
                    seconds: m.seconds,
                });
            }
            Err(e) => self.error = Some(format!("preview: {e}")),
        }
    }
}

/// The miniature a preview runs on, and the scale of its distances: the smallest even-unit
/// size with the map's shape whose longer side is at least 4 units; for a map over 8 units
/// with no such size, the smallest there is; else the map itself.
fn preview_size(size: MapSize) -> (MapSize, f32) {
    let (w, h) = (size.width_units(), size.height_units());
    let gcd = |mut a: u32, mut b: u32| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let common = gcd(w / 2, h / 2);
    let divisors: Vec<u32> = (1..=common).filter(|d| common % d == 0).collect();
    let pick = divisors
        .iter()
        .rev()
        .copied()
        .find(|&d| w.max(h) / d >= 4)
        .filter(|&d| d > 1 || w.max(h) <= 8)
        .or(divisors.last().copied())
        .unwrap_or(1);
    let mini = MapSize::new(w / pick, h / pick).unwrap_or(size);
    (mini, 1.0 / pick as f32)
}

/// Shaded relief of `map`'s heights: sea blue under the water line, land from green to brown
/// to pale by height, lit from the north-west; the starts marked in their teams' colours.
fn relief_image(map: &Map) -> egui::ColorImage {
    let (w, h) = map.size.metal_cells();
    let (lo, hi) = map.heights.min_max();
    let span = (hi.max(1.0) - 0.0).max(1.0);
    let mut rgba = Vec::with_capacity(w * h * 4);
    for j in 0..h {
        for i in 0..w {
            let (x, z) = (i as f32 * 16.0 + 8.0, j as f32 * 16.0 + 8.0);
            let hgt = map.height_at(x, z);
            let dx = map.height_at(x + 8.0, z) - map.height_at(x - 8.0, z);
            let dz = map.height_at(x, z + 8.0) - map.height_at(x, z - 8.0);
            let light = (1.0 - (dx + dz) / 40.0).clamp(0.4, 1.4);
            let base = if hgt < 0.0 {
                let d = (-hgt / (-lo).max(1.0)).clamp(0.0, 1.0);
                [40.0 - 20.0 * d, 90.0 - 40.0 * d, 160.0 - 40.0 * d]
            } else {
                let t = (hgt / span).clamp(0.0, 1.0);
                let lerp = |a: [f32; 3], b: [f32; 3], t: f32| {
                    [
                        a[0] + (b[0] - a[0]) * t,
                        a[1] + (b[1] - a[1]) * t,
                        a[2] + (b[2] - a[2]) * t,
                    ]
                };
                if t < 0.5 {
                    lerp([90.0, 130.0, 60.0], [140.0, 115.0, 75.0], t * 2.0)
                } else {
                    lerp([140.0, 115.0, 75.0], [225.0, 220.0, 210.0], t * 2.0 - 1.0)
                }
            };
            let lit = if hgt < 0.0 { 1.0 } else { light };
            for c in base {
                rgba.push((c * lit).clamp(0.0, 255.0) as u8);
            }
            rgba.push(255);
        }
    }
    let mut mark = |x_elmos: f32, z_elmos: f32, radius: i64, colour: [u8; 3]| {
        let (ci, cj) = ((x_elmos / 16.0) as i64, (z_elmos / 16.0) as i64);
        for j in cj - radius..=cj + radius {
            for i in ci - radius..=ci + radius {
                if (0..w as i64).contains(&i) && (0..h as i64).contains(&j) {
                    let k = (j as usize * w + i as usize) * 4;
                    rgba[k..k + 3].copy_from_slice(&colour);
                }
            }
        }
    };
    for (t, team) in map.teams.iter().enumerate() {
        let c = crate::map::team_colour(t).map(|v| (v * 255.0) as u8);
        mark(team.start_x_elmos, team.start_z_elmos, 3, c);
    }
    egui::ColorImage::from_rgba_unmultiplied([w, h], &rgba)
}

/// The recipe's seed, its steps with their settings, and the Add and preset controls.
fn edit_recipe(ui: &mut egui::Ui, recipe: &mut Recipe) {
    ui.horizontal(|ui| {
        let l = ui.label("Seed").id;
        ui.add(egui::DragValue::new(&mut recipe.seed))
            .labelled_by(l);
        if ui.button("New seed").clicked() {
            recipe.seed = recipe
                .seed
                .wrapping_mul(747_796_405)
                .wrapping_add(2_891_336_453)
                >> 8;
        }
        let l = ui.label("Start from").id;
        egui::ComboBox::from_id_salt("generate preset")
            .selected_text("a preset…")
            .show_ui(ui, |ui| {
                for p in Preset::ALL {
                    if ui.selectable_label(false, p.to_string()).clicked() {
                        *recipe = Recipe::preset(p, recipe.seed);
                    }
                }
            })
            .response
            .labelled_by(l);
    });
    let mut remove = None;
    let mut swap = None;
    let count = recipe.steps.len();
    egui::ScrollArea::vertical()
        .max_height(420.0)
        .show(ui, |ui| {
            for (i, step) in recipe.steps.iter_mut().enumerate() {
                let id = ui.make_persistent_id(("recipe step", i));
                egui::collapsing_header::CollapsingState::load_with_default_open(
                    ui.ctx(),
                    id,
                    false,
                )
                .show_header(ui, |ui| {
                    ui.label(format!("{}. {}", i + 1, step.name()));
                    if ui.small_button("up").on_hover_text("earlier").clicked() && i > 0 {
                        swap = Some(i - 1);
                    }
                    if ui.small_button("down").on_hover_text("later").clicked() && i + 1 < count {
                        swap = Some(i);
                    }
                    if ui.small_button("remove").clicked() {
                        remove = Some(i);
                    }
                })
                .body(|ui| edit_step(ui, i, step));
            }
        });
    if let Some(i) = swap {
        recipe.steps.swap(i, i + 1);
    }
    if let Some(i) = remove {
        recipe.steps.remove(i);
    }
    let l = ui.label("Add a step").id;
    egui::ComboBox::from_id_salt("add step")
        .selected_text("choose")
        .show_ui(ui, |ui| {
            for s in Step::all_defaults() {
                if ui.selectable_label(false, s.name()).clicked() && recipe.steps.len() < MAX_STEPS
                {
                    // height steps go before the placement steps, which run last
                    let at = if s.places() {
                        recipe.steps.len()
                    } else {
                        recipe
                            .steps
                            .iter()
                            .position(|s| s.places())
                            .unwrap_or(recipe.steps.len())
                    };
                    recipe.steps.insert(at, s);
                }
            }
        })
        .response
        .labelled_by(l);
}

/// One step's settings: every number as a drag value, the preset and the noise kind as lists.
/// The step goes through its TOML table, so every setting a step has is shown with no code
/// per step.
fn edit_step(ui: &mut egui::Ui, index: usize, step: &mut Step) {
    let Ok(toml::Value::Table(mut table)) = toml::Value::try_from(&*step) else {
        return;
    };
    let mut changed = false;
    egui::Grid::new(("step settings", index))
        .num_columns(2)
        .show(ui, |ui| {
            for (key, value) in table.iter_mut() {
                if key == "step" {
                    continue;
                }
                let l = ui.label(key.replace('_', " ")).id;
                changed |= match value {
                    toml::Value::Float(f) => {
                        let speed = if key.ends_with("_elmos") { 1.0 } else { 0.01 };
                        ui.add(egui::DragValue::new(f).speed(speed))
                            .labelled_by(l)
                            .changed()
                    }
                    toml::Value::Integer(n) => ui
                        .add(egui::DragValue::new(n).range(0..=500))
                        .labelled_by(l)
                        .changed(),
                    toml::Value::String(s) => {
                        let names: Vec<String> = match key.as_str() {
                            "preset" => Preset::ALL.iter().map(|p| p.to_string()).collect(),
                            "kind" => NoiseKind::ALL
                                .iter()
                                .map(|k| {
                                    toml::Value::try_from(k)
                                        .ok()
                                        .and_then(|v| v.as_str().map(str::to_string))
                                        .unwrap_or_default()
                                })
                                .collect(),
                            _ => vec![s.clone()],
                        };
                        let before = s.clone();
                        egui::ComboBox::from_id_salt((index, key.as_str()))
                            .selected_text(s.as_str())
                            .show_ui(ui, |ui| {
                                for n in names {
                                    ui.selectable_value(s, n.clone(), n);
                                }
                            })
                            .response
                            .labelled_by(l);
                        *s != before
                    }
                    _ => {
                        ui.label(value.to_string());
                        false
                    }
                };
                ui.end_row();
            }
        });
    if changed && let Ok(s) = toml::Value::Table(table).try_into::<Step>() {
        *step = s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_run_on_a_miniature_of_the_same_shape() {
        let m = |w, h| MapSize::new(w, h).unwrap();
        assert_eq!(preview_size(m(12, 12)), (m(4, 4), 1.0 / 3.0));
        assert_eq!(preview_size(m(16, 8)), (m(4, 2), 0.25));
        assert_eq!(preview_size(m(10, 10)), (m(2, 2), 0.2));
        assert_eq!(preview_size(m(4, 4)), (m(4, 4), 1.0));
        assert_eq!(preview_size(m(14, 10)), (m(14, 10), 1.0));
    }
}
