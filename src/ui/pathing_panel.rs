//! The Pathing tab: which move class the view's pathing overlay shows (blocked red, speed as
//! shading, water it may not enter blue), the start whose reachable region is flooded (a click
//! on a start in the view, or its button here), and the fairness table team by team with the
//! figures that differ past their thresholds, from `analyze::analyze` run on a worker thread
//! whenever the document changed while the tab is shown.

use std::sync::Arc;
use std::sync::mpsc;

use crate::analyze::ground::GroundMaps;
use crate::analyze::ground::HeightRule;
use crate::analyze::move_class::{MoveClassTable, classes_for};
use crate::analyze::passability::Passability;
use crate::analyze::reach::flood_mask;
use crate::analyze::report::{
    Analysis, BUILDABLE_TOLERANCE, DISTANCE_TOLERANCE, INCOME_TOLERANCE, SNAP_SQUARES, analyze_with,
};
use crate::gpu::pathing::{PathingChoice, pathing_rgba};
use crate::gpu::{GpuContext, MapScene};
use crate::map::Map;

/// What a flood mask was made from: the document revision, the class, the rule and the team.
type FloodKey = (u64, String, HeightRule, usize);

pub struct PathingPanel {
    /// BAR's classes (read from BAR's movedefs when installed), loaded on first use.
    table: Option<MoveClassTable>,
    /// The class the overlay shows, by name; `None`: the overlay is off.
    pub class: Option<String>,
    /// The team whose start's region is flooded.
    pub flood_team: Option<usize>,
    /// Whose pathing the overlay and the table follow: Recoil's (BAR) or Spring 106's.
    pub rule: HeightRule,
    flood_made: Option<FloodKey>,
    /// The last analysis and the revision and rule it is of.
    analysis: Option<(u64, HeightRule, Arc<Analysis>)>,
    /// A running analysis: the revision and rule it is of and where its answer comes.
    running: Option<(u64, HeightRule, mpsc::Receiver<Analysis>)>,
}

impl Default for PathingPanel {
    fn default() -> PathingPanel {
        PathingPanel {
            table: None,
            class: None,
            flood_team: None,
            rule: HeightRule::HighestCorner,
            flood_made: None,
            analysis: None,
            running: None,
        }
    }
}

impl PathingPanel {
    /// Uses `table` instead of looking for BAR (tests).
    pub fn set_table(&mut self, table: MoveClassTable) {
        self.table = Some(table);
    }

    /// The move class table: BAR's movedefs when BAR is installed, else the built-in one.
    pub fn table(&mut self) -> &MoveClassTable {
        self.table
            .get_or_insert_with(|| classes_for(crate::install::bar_data_dir().as_deref()))
    }

    /// Another map opened: its figures are not this one's.
    pub fn new_map(&mut self) {
        self.flood_team = None;
        self.flood_made = None;
        self.analysis = None;
        self.running = None;
    }

    /// What the overlay shows on `map`, or `None` when it is off.
    pub fn choice(&mut self, map: &Map) -> Option<PathingChoice> {
        let name = self.class.clone()?;
        let class = self
            .table()
            .classes
            .iter()
            .find(|c| c.name == name)?
            .clone();
        let mut c = PathingChoice::for_map(&class, map);
        c.rule = self.rule;
        Some(c)
    }

    /// Floods from team `team`'s start (the view's click).
    pub fn flood_from(&mut self, team: usize) {
        self.flood_team = Some(team);
    }

    /// Brings the scene's overlay and flooded region up to the document at `revision`.
    pub fn follow(&mut self, ctx: &GpuContext, scene: &mut MapScene, map: &Map, revision: u64) {
        let choice = self.choice(map);
        let flood = match (&choice, self.flood_team) {
            (Some(c), Some(team)) if team < map.teams.len() => Some((c.clone(), team)),
            _ => None,
        };
        scene.pathing.set_choice(ctx, map, choice);
        let Some((c, team)) = flood else {
            if scene.pathing.flooded {
                scene.pathing.set_flood(ctx, None);
            }
            self.flood_made = None;
            return;
        };
        let key = (revision, c.class.name.clone(), c.rule, team);
        if self.flood_made.as_ref() == Some(&key) && scene.pathing.flooded {
            return;
        }
        let mut ground = GroundMaps::from_heights(&map.heights);
        ground.height_rule = c.rule;
        let pass = Passability::of(&c.class, c.water, &ground);
        let t = &map.teams[team];
        let mask = flood_mask(&pass, [t.start_x_elmos, t.start_z_elmos], SNAP_SQUARES);
        scene.pathing.set_flood(ctx, mask.as_deref());
        self.flood_made = Some(key);
    }

    /// Takes a finished analysis; starts one when the document moved on and none runs.
    fn follow_analysis(&mut self, ui: &egui::Ui, map: &Arc<Map>, revision: u64) {
        if let Some((rev, rule, rx)) = &self.running {
            match rx.try_recv() {
                Ok(a) => {
                    self.analysis = Some((*rev, *rule, Arc::new(a)));
                    self.running = None;
                }
                Err(mpsc::TryRecvError::Empty) => {
                    ui.ctx()
                        .request_repaint_after(std::time::Duration::from_millis(100));
                }
                Err(mpsc::TryRecvError::Disconnected) => self.running = None,
            }
        }
        let current = self
            .analysis
            .as_ref()
            .is_some_and(|(r, rule, _)| *r == revision && *rule == self.rule);
        if current || self.running.is_some() {
            return;
        }
        let table = self.table().clone();
        let (tx, rx) = mpsc::channel();
        let map = map.clone();
        let ctx = ui.ctx().clone();
        let rule = self.rule;
        std::thread::spawn(move || {
            let a = analyze_with(&map, &table.classes, &table.source, rule);
            let _ = tx.send(a);
            ctx.request_repaint();
        });
        self.running = Some((revision, rule, rx));
    }

    /// Whether an analysis is running (tests wait for it).
    pub fn analysing(&self) -> bool {
        self.running.is_some()
    }

    /// The last analysis, with the revision it is of.
    pub fn analysis(&self) -> Option<(u64, &Analysis)> {
        self.analysis.as_ref().map(|(r, _, a)| (*r, a.as_ref()))
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, map: &Arc<Map>, revision: u64) {
        ui.heading("Pathing");
        let names: Vec<(String, String)> = self
            .table()
            .classes
            .iter()
            .map(|c| {
                let kind = format!("{:?}", c.kind).to_lowercase();
                (
                    c.name.clone(),
                    format!("{} ({kind}, {:.0}°)", c.name, c.max_slope_deg),
                )
            })
            .collect();
        let shown = self
            .class
            .as_ref()
            .and_then(|n| names.iter().find(|(k, _)| k == n))
            .map_or("off".to_string(), |(_, label)| label.clone());
        ui.horizontal(|ui| {
            let l = ui.label("Overlay for").id;
            egui::ComboBox::from_id_salt("pathing class")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.class, None, "off");
                    for (name, label) in &names {
                        ui.selectable_value(&mut self.class, Some(name.clone()), label);
                    }
                })
                .response
                .labelled_by(l);
        });
        ui.horizontal(|ui| {
            let l = ui.label("Pathing of").id;
            egui::ComboBox::from_id_salt("pathing engine")
                .selected_text(self.rule.engine_label())
                .show_ui(ui, |ui| {
                    for r in [HeightRule::HighestCorner, HeightRule::CellMean] {
                        ui.selectable_value(&mut self.rule, r, r.engine_label());
                    }
                })
                .response
                .labelled_by(l)
                .on_hover_text(
                    "Where the water depth is read: Recoil (BAR's engine) at each square's highest corner, Spring 106 at the mean of its 2 x 2-square cell",
                );
        });
        let source = self.table().source.clone();
        ui.small(format!("Move classes: {source}"));
        if self.class.is_some() {
            legend(ui);
            ui.label("Click a start in the view to flood the ground it reaches:");
            ui.horizontal_wrapped(|ui| {
                for i in 0..map.teams.len() {
                    let on = self.flood_team == Some(i);
                    if ui
                        .selectable_label(on, format!("Start {}", i + 1))
                        .clicked()
                    {
                        self.flood_team = if on { None } else { Some(i) };
                    }
                }
                if self.flood_team.is_some() && ui.button("Clear flood").clicked() {
                    self.flood_team = None;
                }
            });
        }
        ui.separator();
        self.follow_analysis(ui, map, revision);
        self.fairness_ui(ui, revision);
    }

    fn fairness_ui(&mut self, ui: &mut egui::Ui, revision: u64) {
        let Some((rev, rule, a)) = self.analysis.clone() else {
            ui.heading("Fairness");
            ui.spinner();
            ui.label("analysing the map…");
            return;
        };
        ui.horizontal(|ui| {
            ui.heading("Fairness");
            if rev != revision || rule != self.rule || self.running.is_some() {
                ui.spinner();
                ui.weak("updating…");
            }
        });
        ui.small(format!(
            "Team figures by {} (path distance, not straight lines); flagged past {:.0}% income, {:.0}% distance, {:.0} points buildable.",
            a.fairness_class,
            INCOME_TOLERANCE * 100.0,
            DISTANCE_TOLERANCE * 100.0,
            BUILDABLE_TOLERANCE * 100.0
        ));
        egui::Grid::new("fairness teams")
            .num_columns(5)
            .striped(true)
            .show(ui, |ui| {
                for h in ["team", "metal ≤1000", "≤2000", "to enemy", "buildable"] {
                    ui.strong(h);
                }
                ui.end_row();
                for (i, t) in a.teams.iter().enumerate() {
                    let c = crate::map::team_colour(i);
                    ui.colored_label(rgb(c), format!("{}", i + 1))
                        .on_hover_text(format!("start at {:.0}, {:.0}", t.start[0], t.start[1]));
                    ui.label(format!("{:.1}/s", t.income_1000));
                    ui.label(format!("{:.1}/s", t.income_2000));
                    ui.label(match t.nearest_enemy_path_elmos {
                        Some(d) => format!("{d:.0}"),
                        None => "none".into(),
                    });
                    ui.label(format!("{:.0}%", t.buildable_share * 100.0));
                    ui.end_row();
                }
            });
        if a.unfair.is_empty() && a.teams.len() > 1 {
            ui.label("Every team's figures are within the thresholds.");
        }
        for u in &a.unfair {
            ui.colored_label(ui.visuals().warn_fg_color, u);
        }
        if !a.unreachable_spots.is_empty() {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "{} metal spot(s) no land class reaches",
                    a.unreachable_spots.len()
                ),
            );
        }
        for &(i, j, sea) in &a.land_cut_pairs {
            let how = if sea {
                "only by sea (hovers)"
            } else {
                "not at all"
            };
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("starts {} and {} meet {how}", i + 1, j + 1),
            );
        }
        ui.add_space(4.0);
        ui.strong("Move classes");
        egui::Grid::new("fairness classes")
            .num_columns(4)
            .striped(true)
            .show(ui, |ui| {
                for h in ["class", "passable", "regions", "starts joined"] {
                    ui.strong(h);
                }
                ui.end_row();
                for c in &a.move_classes {
                    ui.label(&c.name);
                    ui.label(format!("{:.0}%", c.passable_share * 100.0));
                    ui.label(if c.islands > 0 {
                        format!("{} ({} islands)", c.regions, c.islands)
                    } else {
                        c.regions.to_string()
                    });
                    let all = c.reachable.iter().all(|row| row.iter().all(|&b| b));
                    ui.label(if all { "all" } else { "not all" });
                    ui.end_row();
                }
            });
    }
}

fn rgb(c: [f32; 3]) -> egui::Color32 {
    let b = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    egui::Color32::from_rgb(b(c[0]), b(c[1]), b(c[2]))
}

/// The overlay's colours, as `terrain.wgsl` draws them.
fn legend(ui: &mut egui::Ui) {
    let swatch = |ui: &mut egui::Ui, code: f32, text: &str| {
        ui.horizontal(|ui| {
            let (r, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            let c = pathing_rgba(code);
            ui.painter().rect_filled(r, 2.0, rgb([c[0], c[1], c[2]]));
            ui.label(text);
        });
    };
    swatch(ui, 1.0, "full speed");
    swatch(ui, 0.3, "slowed by slope or water (30%)");
    swatch(ui, 0.0, "too steep");
    swatch(ui, -1.0, "water too deep (or too shallow for ships)");
    ui.horizontal(|ui| {
        let (r, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
        ui.painter().rect_filled(r, 2.0, rgb([0.35, 0.95, 1.0]));
        ui.label("the flooded start's region");
    });
}
