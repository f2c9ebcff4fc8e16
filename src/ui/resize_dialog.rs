//! Map > Resize: the new size in map units (BAR's usual sizes or any even size), and how to get
//! there: crop or extend the canvas (anchored at a side, a corner or the centre) or scale the
//! whole map. Resize hands the request to the app, which makes it one undo step; a request
//! the map refuses keeps the dialog open with the reason.

use crate::edit::new_map::{BAR_SIZES, MAX_NEW_UNITS};
use crate::map::MapSize;
use crate::map::resize::{Anchor, Resize, ResizeHow};

#[derive(Debug, Default)]
pub struct ResizeDialog {
    /// Shown now.
    pub open: bool,
    width_units: u32,
    depth_units: u32,
    scale: bool,
    anchor: (Anchor, Anchor),
    /// Why the last Resize was refused.
    pub error: Option<String>,
}

/// The anchor grid's buttons (north is z = 0, at the top of the view and the minimap), row by
/// row, column by column (x).
const ARROWS: [[&str; 3]; 3] = [["NW", "N", "NE"], ["W", "centre", "E"], ["SW", "S", "SE"]];

impl ResizeDialog {
    /// Opens the dialog on the map's own size.
    pub fn show(&mut self, size: MapSize) {
        self.width_units = size.width_units();
        self.depth_units = size.height_units();
        self.open = true;
        self.error = None;
    }

    /// Shows the dialog; returns the request when Resize is pressed.
    pub fn ui(&mut self, ctx: &egui::Context, current: MapSize) -> Option<Resize> {
        if !self.open {
            return None;
        }
        let mut open = self.open;
        let mut go = false;
        egui::Window::new("Resize map")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(format!("Now {current}."));
                egui::Grid::new("resize").num_columns(2).show(ui, |ui| {
                    let l = ui.label("New size").id;
                    ui.horizontal(|ui| {
                        egui::ComboBox::from_id_salt("resize bar sizes")
                            .selected_text(format!("{}x{}", self.width_units, self.depth_units))
                            .show_ui(ui, |ui| {
                                for (w, d) in BAR_SIZES {
                                    if ui
                                        .selectable_label(
                                            (self.width_units, self.depth_units) == (w, d),
                                            format!("{w}x{d}"),
                                        )
                                        .clicked()
                                    {
                                        self.width_units = w;
                                        self.depth_units = d;
                                    }
                                }
                            })
                            .response
                            .labelled_by(l);
                        let w = ui.add(
                            egui::DragValue::new(&mut self.width_units)
                                .range(2..=MAX_NEW_UNITS)
                                .speed(0.1)
                                .prefix("width "),
                        );
                        let d = ui.add(
                            egui::DragValue::new(&mut self.depth_units)
                                .range(2..=MAX_NEW_UNITS)
                                .speed(0.1)
                                .prefix("depth "),
                        );
                        if w.changed() || d.changed() {
                            self.width_units += self.width_units % 2;
                            self.depth_units += self.depth_units % 2;
                        }
                    });
                    ui.end_row();
                    let l = ui.label("How").id;
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut self.scale, false, "Crop or extend")
                            .labelled_by(l);
                        ui.radio_value(&mut self.scale, true, "Scale the whole map");
                    });
                    ui.end_row();
                    if !self.scale {
                        ui.label("Keep the map at");
                        egui::Grid::new("resize anchor").show(ui, |ui| {
                            for (zi, row) in ARROWS.iter().enumerate() {
                                for (xi, arrow) in row.iter().enumerate() {
                                    let a = (Anchor::ALL[xi], Anchor::ALL[zi]);
                                    ui.selectable_value(&mut self.anchor, a, *arrow)
                                        .on_hover_text(anchor_words(a));
                                }
                                ui.end_row();
                            }
                        });
                        ui.end_row();
                    }
                });
                ui.weak(if self.scale {
                    "Every layer stretches to the new size; heights keep their elmos, metal spots keep their shape and yield."
                } else {
                    "New ground continues the edge; metal and grass start empty there. Features outside the new map are removed."
                });
                if let Some(e) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                if ui.button("Resize").clicked() {
                    go = true;
                }
            });
        self.open = open;
        if !go {
            return None;
        }
        match MapSize::new(self.width_units, self.depth_units) {
            Ok(size) => Some(Resize {
                size,
                how: if self.scale {
                    ResizeHow::Scale
                } else {
                    ResizeHow::Canvas {
                        x: self.anchor.0,
                        z: self.anchor.1,
                    }
                },
            }),
            Err(e) => {
                self.error = Some(e.to_string());
                None
            }
        }
    }
}

/// "the top-left corner", "the centre", ... for an anchor pair.
fn anchor_words((x, z): (Anchor, Anchor)) -> String {
    let side_x = match x {
        Anchor::Start => "left",
        Anchor::Centre => "",
        Anchor::End => "right",
    };
    let side_z = match z {
        Anchor::Start => "top",
        Anchor::Centre => "",
        Anchor::End => "bottom",
    };
    match (side_z, side_x) {
        ("", "") => "the old map in the centre".into(),
        ("", s) | (s, "") => format!("the old map at the {s} edge"),
        (a, b) => format!("the old map in the {a}-{b} corner"),
    }
}
