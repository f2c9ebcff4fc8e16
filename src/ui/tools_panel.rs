//! The tool and layer panel: which tool the left mouse button uses and its settings, and which
//! overlays are blended over the ground, with their legends (metal in metal units, terrain
//! types by name).

use crate::edit::RaiseLowerBrush;
use crate::gpu::ViewOptions;
use crate::gpu::view::{metal_overlay_rgba, type_colour};
use crate::map::MapSettings;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// The left button pans; nothing is edited.
    Navigate,
    /// Raise (or lower, with Shift) the ground under the cursor.
    RaiseLower,
}

#[derive(Debug)]
pub struct ToolsPanel {
    pub tool: Tool,
    pub brush: RaiseLowerBrush,
    /// Lower instead of raise (Shift flips it while painting).
    pub lower: bool,
}

impl Default for ToolsPanel {
    fn default() -> ToolsPanel {
        ToolsPanel {
            tool: Tool::RaiseLower,
            brush: RaiseLowerBrush::default(),
            lower: false,
        }
    }
}

fn rgb(c: [f32; 3]) -> egui::Color32 {
    let b = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    egui::Color32::from_rgb(b(c[0]), b(c[1]), b(c[2]))
}

impl ToolsPanel {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        view: &mut ViewOptions,
        settings: &MapSettings,
        gpu_brushes: bool,
    ) {
        ui.heading("Tools");
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tool, Tool::Navigate, "Navigate");
            ui.selectable_value(&mut self.tool, Tool::RaiseLower, "Raise / lower");
        });
        if self.tool == Tool::RaiseLower {
            let b = &mut self.brush;
            egui::Grid::new("brush").num_columns(2).show(ui, |ui| {
                let l = ui.label("Radius").id;
                ui.add(
                    egui::DragValue::new(&mut b.radius_elmos)
                        .range(RaiseLowerBrush::RADIUS_RANGE_ELMOS)
                        .speed(2.0)
                        .suffix(" elmos"),
                )
                .labelled_by(l);
                ui.end_row();
                let l = ui.label("Rate").id;
                ui.add(
                    egui::DragValue::new(&mut b.rate_elmos_per_s)
                        .range(RaiseLowerBrush::RATE_RANGE_ELMOS_PER_S)
                        .speed(1.0)
                        .suffix(" elmos/s"),
                )
                .labelled_by(l);
                ui.end_row();
                let l = ui.label("Hardness").id;
                ui.add(egui::Slider::new(&mut b.hardness, 0.0..=1.0))
                    .labelled_by(l);
                ui.end_row();
            });
            ui.checkbox(&mut self.lower, "Lower (Shift flips)");
            ui.weak(if gpu_brushes {
                "Runs on the GPU; read back when you let go."
            } else {
                "No GPU compute here: runs on the CPU."
            });
        }
        ui.separator();
        ui.heading("Layers");
        ui.checkbox(&mut view.water, "Water plane");
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
        ui.checkbox(&mut view.grass, "Grass");
        ui.checkbox(&mut view.types, "Terrain types");
        if view.types {
            for (i, t) in &settings.terrain_types {
                ui.horizontal(|ui| {
                    let (r, _) =
                        ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
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
