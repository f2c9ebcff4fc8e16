//! The metal spots panel: the spots BAR's spot finder sees, each with its worth and what a T1
//! extractor and a moho standing at it are paid, the income per side under symmetry, and the
//! warnings (shared discs, phantom spots, a metal map, metal in the outer ring). Read again only
//! when the document changes.

use crate::map::{Map, MetalReport};

#[derive(Debug, Default)]
pub struct MetalPanel {
    /// The report and the document revision it was read at.
    cached: Option<(u64, MetalReport)>,
}

impl MetalPanel {
    /// The report for `map` at `revision`, read again only when the revision moved.
    pub fn report(&mut self, map: &Map, revision: u64) -> &MetalReport {
        if self.cached.as_ref().is_none_or(|(r, _)| *r != revision) {
            self.cached = Some((revision, map.metal_report()));
        }
        &self.cached.as_ref().expect("just set").1
    }

    /// Forget the report (another map opened).
    pub fn invalidate(&mut self) {
        self.cached = None;
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, map: &Map, revision: u64) {
        let r = self.report(map, revision).clone();
        let total: f32 = r.spots.iter().map(|s| s.t1_income).sum();
        ui.label(format!(
            "{} spots, {total:.1} metal/s to T1 extractors in all",
            r.spots.len()
        ));
        if !r.income_per_side.is_empty() {
            let sides: Vec<String> = r
                .income_per_side
                .iter()
                .map(|v| format!("{v:.2}"))
                .collect();
            ui.label(format!("per side: {} metal/s", sides.join(" / ")));
        }
        for w in &r.warnings {
            ui.colored_label(ui.visuals().warn_fg_color, w.message.as_str());
        }
        if r.spots.is_empty() {
            return;
        }
        // every row, in the panel's own scroll: a nested scroll area there gets only the space
        // left below the tools, two or three rows
        egui::Grid::new("spot list")
            .num_columns(5)
            .striped(true)
            .show(ui, |ui| {
                for h in ["x, z", "cells", "worth", "T1/s", "moho/s"] {
                    ui.strong(h);
                }
                ui.end_row();
                for s in &r.spots {
                    ui.label(format!("{:.0}, {:.0}", s.x_elmos, s.z_elmos));
                    ui.label(s.cells.to_string());
                    ui.label(format!("{:.2}", s.worth));
                    ui.label(format!("{:.2}", s.t1_income));
                    ui.label(format!("{:.2}", s.moho_income));
                    ui.end_row();
                }
            });
    }
}
