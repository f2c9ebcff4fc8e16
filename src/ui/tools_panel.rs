//! The tool and layer panel: the tools from the registry (`edit::tools::TOOLS`), the brush and
//! the chosen tool's own settings (drawn from its parameter list, so a new tool needs no UI
//! code), the symmetry mode, and which overlays are blended over the ground, with their legends.

use crate::edit::brush::{BrushShape, Falloff, MaskImage};
use crate::edit::tools::{ParamKind, ParamValue, StrokeStyle, TOOLS, Tool, ToolSettings};
use crate::gpu::ViewOptions;
use crate::gpu::view::{metal_overlay_rgba, type_colour};
use crate::map::{MapSettings, SymmetryMode};
use crate::ui::file_dialog::{Answer, FileDialogs, Pick, Request};

/// How the mouse and keys move the camera, for the Navigate tool's help (and the README).
pub const CAMERA_CONTROLS: &str = "Scroll zooms toward the ground under the cursor. \
Right-drag pans; middle-drag (or Alt+left-drag) orbits, Shift+middle-drag pans. \
W A S D move (Shift faster), E and Q zoom in and out, T toggles the top-down view, \
F or Home frames the whole map. These work with every tool.";

/// Where an image picked in a file dialog goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ImageSlot {
    /// The brush's shape mask.
    Mask,
    /// A tool's image setting.
    Param(&'static str),
}

#[derive(Debug)]
pub struct ToolsPanel {
    /// The map's texture layers by name, bottom first (the texture brush's choice of layer);
    /// the app sets it each frame.
    pub texture_layer_names: Vec<String>,
    /// The tool the left button uses (an index into `TOOLS`); `None` navigates.
    pub tool: Option<usize>,
    /// Each tool's settings, kept while the user switches between tools.
    pub settings: Vec<ToolSettings>,
    /// The dialog picking an image, for which tool and setting.
    picking: FileDialogs<(usize, ImageSlot)>,
    /// The last problem loading an image.
    pub image_error: Option<String>,
    /// The feature tools (place, scatter, erase, select): when one is chosen, `tool` is `None`.
    pub features: super::features_panel::FeatureSettings,
    /// The document, for the feature tools' palette and layers; the app sets it each frame.
    pub map: Option<std::sync::Arc<crate::map::Map>>,
    /// The features' models, for the palette's pictures and the view.
    pub models: super::feature_models::ModelCache,
}

impl Default for ToolsPanel {
    fn default() -> ToolsPanel {
        ToolsPanel {
            texture_layer_names: Vec::new(),
            tool: Some(0),
            settings: TOOLS.iter().map(|t| ToolSettings::defaults(*t)).collect(),
            picking: FileDialogs::default(),
            image_error: None,
            features: Default::default(),
            map: None,
            models: Default::default(),
        }
    }
}

/// What the panel asks the app to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PanelAction {
    SetSymmetry(SymmetryMode),
}

fn rgb(c: [f32; 3]) -> egui::Color32 {
    let b = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    egui::Color32::from_rgb(b(c[0]), b(c[1]), b(c[2]))
}

/// " elmos" for `radius_elmos`, "°" for `talus_deg`: the unit a key names.
fn unit_suffix(key: &str) -> &'static str {
    if key.ends_with("_elmos") {
        " elmos"
    } else if key.ends_with("_deg") {
        "°"
    } else {
        ""
    }
}

impl ToolsPanel {
    /// The chosen tool and its settings.
    pub fn current(&self) -> Option<(&'static dyn Tool, &ToolSettings)> {
        let i = self.tool?;
        Some((TOOLS[i], &self.settings[i]))
    }

    /// Selects the tool registered as `name`, or a feature tool by its label.
    pub fn select(&mut self, name: &str) {
        self.tool = TOOLS.iter().position(|t| t.name() == name);
        self.features.tool = super::features_panel::FeatureTool::ALL
            .into_iter()
            .find(|f| f.label() == name);
    }

    /// The chosen tool's settings, to change them.
    pub fn current_settings_mut(&mut self) -> Option<&mut ToolSettings> {
        let i = self.tool?;
        Some(&mut self.settings[i])
    }

    /// `[` and `]`: the brush radius down or up.
    pub fn step_radius(&mut self, up: bool) {
        if let Some(s) = self.current_settings_mut() {
            s.brush.step_radius(up);
        } else if self.features.brush_radius().is_some() {
            let mut b = crate::edit::Brush {
                radius_elmos: self.features.radius_elmos,
                ..Default::default()
            };
            b.step_radius(up);
            self.features.radius_elmos = b.radius_elmos;
        }
    }

    /// Image dialogs use the in-app browser even where the system's could open (tests).
    pub fn use_in_app_dialogs(&mut self) {
        self.picking = FileDialogs::in_app_only("asked for");
    }

    /// Lines for the log: the image dialog could not open and the in-app browser is used.
    pub fn take_dialog_notices(&mut self) -> Vec<String> {
        self.picking.take_notices()
    }

    /// Takes an image the file dialog picked.
    fn poll_picked(&mut self, ctx: &egui::Context) {
        let Some(Answer::Picked((tool, slot), path)) = self.picking.poll(ctx) else {
            return;
        };
        match crate::formats::project::read_grey_unit(&path) {
            Ok(grid) => {
                self.image_error = None;
                let image = MaskImage {
                    name: path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    values: std::sync::Arc::new(grid),
                };
                let s = &mut self.settings[tool];
                match slot {
                    ImageSlot::Mask => s.brush.shape = BrushShape::Mask(image),
                    ImageSlot::Param(key) => {
                        if let Some(v) = s.value_mut(key) {
                            *v = ParamValue::Image(Some(image));
                        }
                    }
                }
            }
            Err(e) => self.image_error = Some(e.to_string()),
        }
    }

    fn pick_image(&mut self, tool: usize, slot: ImageSlot, ctx: &egui::Context) {
        let request = Request::new(
            "Pick a greyscale PNG",
            Pick::File(vec![("PNG images".into(), vec!["png".into()])]),
        );
        self.picking.open((tool, slot), request, ctx);
    }

    #[allow(clippy::too_many_arguments)]
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        view: &mut ViewOptions,
        settings: &MapSettings,
        symmetry: SymmetryMode,
        square_map: bool,
        gpu_brushes: bool,
        stroke_note: Option<String>,
    ) -> Option<PanelAction> {
        self.poll_picked(ui.ctx());
        let mut action = None;
        ui.heading("Tools");
        ui.horizontal_wrapped(|ui| {
            let navigating = self.tool.is_none() && self.features.tool.is_none();
            if ui
                .selectable_label(navigating, "Navigate")
                .on_hover_text(CAMERA_CONTROLS)
                .clicked()
            {
                self.tool = None;
                self.features.tool = None;
            }
            for (i, t) in TOOLS.iter().enumerate() {
                if ui
                    .selectable_label(self.tool == Some(i), t.label())
                    .on_hover_text(t.help())
                    .clicked()
                {
                    self.tool = Some(i);
                    self.features.tool = None;
                }
            }
            for f in super::features_panel::FeatureTool::ALL {
                if ui
                    .selectable_label(self.features.tool == Some(f), f.label())
                    .on_hover_text(f.help())
                    .clicked()
                {
                    self.tool = None;
                    self.features.tool = Some(f);
                }
            }
        });
        if self.tool.is_none() && self.features.tool.is_none() {
            ui.weak(CAMERA_CONTROLS);
        }
        if self.features.tool.is_some() {
            match self.map.clone() {
                Some(map) => self.features.ui(ui, &map, &mut self.models),
                None => {
                    ui.weak("Open a map to place features.");
                }
            }
        }
        if let Some(i) = self.tool {
            let tool = TOOLS[i];
            ui.weak(tool.help());
            self.brush_ui(ui, i);
            self.params_ui(ui, i);
            if let Some(note) = tool.settings_note(&self.settings[i], settings) {
                match note.strip_prefix("warning: ") {
                    Some(w) => ui.colored_label(ui.visuals().warn_fg_color, w),
                    None => ui.label(note),
                };
            }
            if let Some(inv) = tool.inverse() {
                ui.weak(format!("Shift: {inv}"));
            }
            if let Some(note) = stroke_note {
                ui.label(note);
            }
            if let Some(e) = &self.image_error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            ui.weak(if gpu_brushes {
                "Runs on the GPU; read back when you let go."
            } else {
                "No GPU compute here: runs on the CPU."
            });
        }
        ui.horizontal(|ui| {
            let l = ui.label("Symmetry").id;
            let mut mode = symmetry;
            egui::ComboBox::from_id_salt("symmetry")
                .selected_text(mode.label())
                .show_ui(ui, |ui| {
                    for m in SymmetryMode::ALL {
                        let ok = square_map || !m.needs_square();
                        ui.add_enabled_ui(ok, |ui| {
                            ui.selectable_value(&mut mode, m, m.label())
                                .on_disabled_hover_text("needs a square map");
                        });
                    }
                })
                .response
                .labelled_by(l);
            if mode != symmetry {
                action = Some(PanelAction::SetSymmetry(mode));
            }
        });
        ui.separator();
        layers_ui(ui, view, settings);
        action
    }

    fn brush_ui(&mut self, ui: &mut egui::Ui, i: usize) {
        let segment = TOOLS[i].style() == StrokeStyle::Segment;
        let controls = TOOLS[i].brush_controls();
        let mut pick = None;
        let strength_off = TOOLS[i]
            .overridden(&self.settings[i])
            .into_iter()
            .find(|(k, _)| *k == "strength")
            .map(|(_, why)| format!("no effect: {why}"));
        let b = &mut self.settings[i].brush;
        egui::Grid::new("brush").num_columns(2).show(ui, |ui| {
            if !segment && controls.radius {
                let l = ui.label("Radius").id;
                ui.add(
                    egui::DragValue::new(&mut b.radius_elmos)
                        .range(crate::edit::Brush::RADIUS_RANGE_ELMOS)
                        .speed(2.0)
                        .suffix(" elmos"),
                )
                .labelled_by(l)
                .on_hover_text("[ and ] change it");
                ui.end_row();
            }
            if controls.strength {
                let on = strength_off.is_none();
                let why = strength_off.clone().unwrap_or_default();
                let l = ui
                    .add_enabled_ui(on, |ui| ui.label("Strength").on_disabled_hover_text(&why))
                    .inner
                    .id;
                ui.add_enabled_ui(on, |ui| {
                    ui.add(egui::Slider::new(&mut b.strength, 0.0..=1.0))
                        .labelled_by(l)
                        .on_disabled_hover_text(&why)
                });
                ui.end_row();
            }
            if controls.falloff {
                let l = ui.label("Falloff").id;
                egui::ComboBox::from_id_salt("falloff")
                    .selected_text(b.falloff.name())
                    .show_ui(ui, |ui| {
                        for f in Falloff::ALL {
                            ui.selectable_value(&mut b.falloff, f, f.name());
                        }
                    })
                    .response
                    .labelled_by(l);
                ui.end_row();
            }
            if !segment && controls.shape {
                ui.label("Shape");
                ui.horizontal(|ui| {
                    if ui
                        .selectable_label(matches!(b.shape, BrushShape::Circle), "circle")
                        .clicked()
                    {
                        b.shape = BrushShape::Circle;
                    }
                    if ui
                        .selectable_label(matches!(b.shape, BrushShape::Square), "square")
                        .clicked()
                    {
                        b.shape = BrushShape::Square;
                    }
                    let name = b.shape.mask().map(|m| m.name.clone());
                    let text = name.unwrap_or_else(|| "mask PNG…".into());
                    if ui
                        .selectable_label(matches!(b.shape, BrushShape::Mask(_)), text)
                        .clicked()
                    {
                        pick = Some(ImageSlot::Mask);
                    }
                });
                ui.end_row();
            }
        });
        if let Some(slot) = pick {
            self.pick_image(i, slot, ui.ctx());
        }
    }

    fn params_ui(&mut self, ui: &mut egui::Ui, i: usize) {
        let layer_names = self.texture_layer_names.clone();
        let tool = TOOLS[i];
        let mut pick = None;
        let s = &mut self.settings[i];
        // settings that do nothing under the tool's current choices are greyed out
        let overridden = tool.overridden(s);
        let applies: Vec<bool> = tool
            .params()
            .iter()
            .map(|p| p.applies(tool, s) && !overridden.iter().any(|(k, _)| *k == p.key))
            .collect();
        egui::Grid::new(("tool params", tool.name()))
            .num_columns(2)
            .show(ui, |ui| {
                for (p, &applies) in tool.params().iter().zip(&applies) {
                    let off = p.applies_when.filter(|_| !applies).map(|w| {
                        let only = w.options.join(" or ");
                        format!("only with {} = {only}", w.key)
                    });
                    let off = off.or_else(|| {
                        let (_, why) = overridden.iter().find(|(k, _)| *k == p.key)?;
                        Some(format!("no effect: {why}"))
                    });
                    let off = off.unwrap_or_default();
                    let l = ui
                        .add_enabled_ui(applies, |ui| {
                            ui.label(p.label)
                                .on_hover_text(p.help)
                                .on_disabled_hover_text(&off)
                        })
                        .inner
                        .id;
                    let Some(v) = s.value_mut(p.key) else {
                        continue;
                    };
                    ui.add_enabled_ui(applies, |ui| match (p.kind, v) {
                        (
                            ParamKind::Number {
                                min, max, integer, ..
                            },
                            ParamValue::Number(x),
                        ) => {
                            let speed = if integer {
                                1.0
                            } else {
                                ((max - min) / 500.0).max(0.01)
                            };
                            let mut dv = egui::DragValue::new(x)
                                .range(min..=max)
                                .speed(speed)
                                .suffix(unit_suffix(p.key));
                            if integer {
                                dv = dv.fixed_decimals(0);
                            }
                            ui.add(dv)
                                .labelled_by(l)
                                .on_hover_text(p.help)
                                .on_disabled_hover_text(&off);
                        }
                        (ParamKind::Choice { options, .. }, ParamValue::Choice(c)) => {
                            ui.horizontal(|ui| {
                                for (k, o) in options.iter().enumerate() {
                                    ui.selectable_value(c, k, *o);
                                }
                            });
                        }
                        (ParamKind::Toggle { .. }, ParamValue::Choice(c)) => {
                            let mut on = *c != 0;
                            ui.checkbox(&mut on, "").labelled_by(l);
                            *c = on as usize;
                        }
                        (ParamKind::Range { lo, hi, .. }, ParamValue::Range(a, b)) => {
                            ui.horizontal(|ui| {
                                let speed = ((hi - lo) / 500.0).max(0.01);
                                let suffix = unit_suffix(p.key);
                                ui.add(egui::DragValue::new(a).range(lo..=*b).speed(speed).suffix(suffix))
                                    .labelled_by(l);
                                ui.label("to");
                                ui.add(egui::DragValue::new(b).range(*a..=hi).speed(speed).suffix(suffix));
                            });
                        }
                        (ParamKind::TextureLayer, ParamValue::Choice(c)) => {
                            if layer_names.is_empty() {
                                ui.weak("the map has no texture layers: add one in the Layers panel or map.toml");
                            } else {
                                *c = (*c).min(layer_names.len() - 1);
                                egui::ComboBox::from_id_salt(("texture layer", p.key))
                                    .selected_text(layer_names[*c].as_str())
                                    .show_ui(ui, |ui| {
                                        for (k, n) in layer_names.iter().enumerate() {
                                            ui.selectable_value(c, k, n.as_str());
                                        }
                                    })
                                    .response
                                    .labelled_by(l);
                            }
                        }
                        (ParamKind::Image, ParamValue::Image(img)) => {
                            let text = img
                                .as_ref()
                                .map(|m| m.name.clone())
                                .unwrap_or_else(|| "pick a PNG…".into());
                            if ui.button(text).labelled_by(l).clicked() {
                                pick = Some(ImageSlot::Param(p.key));
                            }
                        }
                        _ => {
                            ui.label("?");
                        }
                    });
                    ui.end_row();
                }
            });
        if let Some(slot) = pick {
            self.pick_image(i, slot, ui.ctx());
        }
    }
}

fn layers_ui(ui: &mut egui::Ui, view: &mut ViewOptions, settings: &MapSettings) {
    ui.heading("Layers");
    ui.checkbox(&mut view.water, "Water (as BumpWater draws it)");
    if view.water {
        ui.checkbox(&mut view.water_reflection, "Water reflects the terrain");
    }
    ui.checkbox(&mut view.markers, "Start positions and features");
    ui.checkbox(&mut view.grid, "Grid (128 squares)");
    ui.horizontal(|ui| {
        let l = ui.checkbox(&mut view.contours, "Contours every").id;
        ui.add(
            egui::DragValue::new(&mut view.contour_interval_elmos)
                .range(2.0..=500.0)
                .suffix(" elmos"),
        )
        .labelled_by(l);
    });
    ui.checkbox(&mut view.metal, "Metal");
    if view.metal {
        metal_legend(ui, settings.max_metal);
    }
    ui.checkbox(&mut view.grass, "Grass cells");
    ui.checkbox(&mut view.grass_blades, "Grass blades (as BAR grows them)");
    ui.checkbox(&mut view.types, "Terrain types");
    if view.types {
        for (i, t) in &settings.terrain_types {
            ui.horizontal(|ui| {
                let (r, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                ui.painter().rect_filled(r, 2.0, rgb(type_colour(*i)));
                ui.label(format!("{i}: {}", t.name));
            });
        }
    }
    ui.horizontal(|ui| {
        let l = ui.checkbox(&mut view.slope, "Slope over").id;
        ui.add(
            egui::DragValue::new(&mut view.slope_threshold_deg)
                .range(1.0..=89.0)
                .suffix("°"),
        )
        .labelled_by(l);
    });
    ui.add(egui::Slider::new(&mut view.overlay_opacity, 0.1..=1.0).text("overlay opacity"));
    ui.add(
        egui::Slider::new(&mut view.lod_pixels_per_square, 1.0..=16.0)
            .text("detail (px per square)"),
    );
}

/// A colour bar from no metal to a full byte, labelled in metal units (byte x maxMetal).
fn metal_legend(ui: &mut egui::Ui, max_metal: f32) {
    let width = ui.available_width().clamp(120.0, 240.0);
    let (r, _) = ui.allocate_exact_size(egui::vec2(width, 14.0), egui::Sense::hover());
    let steps = 32;
    for s in 0..steps {
        let byte = ((s as f32 + 0.5) / steps as f32 * 255.0) as u8;
        let c = metal_overlay_rgba(byte);
        let x0 = r.left() + r.width() * s as f32 / steps as f32;
        let x1 = r.left() + r.width() * (s + 1) as f32 / steps as f32;
        ui.painter().rect_filled(
            egui::Rect::from_min_max(egui::pos2(x0, r.top()), egui::pos2(x1, r.bottom())),
            0.0,
            rgb([c[0], c[1], c[2]]),
        );
    }
    ui.horizontal(|ui| {
        ui.small("0");
        ui.add_space((width - 90.0).max(4.0));
        ui.small(format!("{:.1} metal", 255.0 * max_metal));
    });
    ui.small(format!("metal = byte x maxMetal ({max_metal})"));
}
