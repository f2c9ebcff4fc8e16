//! The Starts tab: each team's start in
//! elmos (moving one moves its symmetric partners), Add team and Remove; the lobby's start box
//! arrangements, one per team count, each box's corners in the lobby's 0..200 units (editing a
//! box edits its symmetric images), shown over the ground; and Copy lobby metadata, the block
//! for BAR's maps-metadata on the clipboard. Changes come back as whole new lists for the app
//! to apply: buttons as undo steps, drags as one live edit.

use crate::edit::starts::{boxes_around_starts, move_start, set_box, symmetric_set};
use crate::map::start_boxes::{LOBBY_UNITS, MAX_PLAYERS_PER_BOX, StartBoxSet};
use crate::map::{Map, SymmetryMode, Team};

/// What the section changed.
#[derive(Clone, Debug, PartialEq)]
pub struct StartsChange {
    pub what: String,
    pub teams: Vec<Team>,
    pub start_boxes: Vec<StartBoxSet>,
    /// A value being dragged: one live edit until the pointer is let go.
    pub live: bool,
}

#[derive(Debug, Default)]
pub struct StartsPanel {
    /// The arrangement drawn over the ground.
    pub shown: Option<usize>,
    /// The team count a new arrangement is for.
    new_teams: u32,
}

/// The first box of a new arrangement for `teams` teams under `mode`.
fn first_box(mode: SymmetryMode, teams: u32) -> [u32; 4] {
    match (mode, teams) {
        (SymmetryMode::MirrorZ, _) => [0, 0, 200, 40],
        (SymmetryMode::MirrorX | SymmetryMode::Rotate(2) | SymmetryMode::None, 2) => {
            [0, 0, 40, 200]
        }
        _ => [0, 0, 60, 60],
    }
}

impl StartsPanel {
    /// Another map opened.
    pub fn new_map(&mut self) {
        self.shown = None;
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, map: &Map) -> Option<StartsChange> {
        let mut change = None;
        let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
        ui.heading("Start positions");
        if map.symmetry != SymmetryMode::None {
            ui.small(format!(
                "Moving a start moves its {} partners too.",
                map.symmetry.label()
            ));
        }
        let mut remove = None;
        egui::Grid::new("starts").num_columns(4).show(ui, |ui| {
            for (i, t) in map.teams.iter().enumerate() {
                let (mut x, mut z) = (t.start_x_elmos, t.start_z_elmos);
                ui.label(format!("Start {}", i + 1));
                let rx = ui.add(
                    egui::DragValue::new(&mut x)
                        .range(0.0..=w)
                        .speed(8.0)
                        .prefix("x ")
                        .suffix(" elmos"),
                );
                let rz = ui.add(
                    egui::DragValue::new(&mut z)
                        .range(0.0..=d)
                        .speed(8.0)
                        .prefix("z ")
                        .suffix(" elmos"),
                );
                if rx.changed() || rz.changed() {
                    let mut m = map.clone();
                    if move_start(&mut m, i, [x, z]).is_ok() {
                        change = Some(StartsChange {
                            what: format!("move start {}", i + 1),
                            teams: m.teams,
                            start_boxes: map.start_boxes.clone(),
                            live: rx.dragged() || rz.dragged(),
                        });
                    }
                }
                if ui.small_button("Remove").clicked() {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
        if let Some(i) = remove {
            let mut teams = map.teams.clone();
            teams.remove(i);
            change = Some(StartsChange {
                what: format!("remove start {}", i + 1),
                teams,
                start_boxes: map.start_boxes.clone(),
                live: false,
            });
        }
        if ui.button("Add team").clicked() {
            let mut teams = map.teams.clone();
            teams.push(Team {
                start_x_elmos: w * 0.5,
                start_z_elmos: d * 0.5,
            });
            change = Some(StartsChange {
                what: format!("add start {}", teams.len()),
                teams,
                start_boxes: map.start_boxes.clone(),
                live: false,
            });
        }
        ui.separator();
        ui.heading("Start boxes");
        ui.small("As BAR's lobby reads them: one arrangement per team count, corners in 0..200 of each side (x across, y down).");
        let players = map.teams.len() as u32;
        let mut remove_set = None;
        for (k, set) in map.start_boxes.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.strong(format!("{} teams", set.teams));
                let shown = self.shown == Some(k);
                if ui.selectable_label(shown, "Show").clicked() {
                    self.shown = if shown { None } else { Some(k) };
                }
                if ui.small_button("Remove").clicked() {
                    remove_set = Some(k);
                }
            });
            let mut per = set.max_players_per_box;
            let r = ui.add(
                egui::DragValue::new(&mut per)
                    .range(1..=MAX_PLAYERS_PER_BOX)
                    .prefix("players a box "),
            );
            if r.changed() {
                let mut boxes = map.start_boxes.clone();
                boxes[k].max_players_per_box = per;
                change = Some(StartsChange {
                    what: format!("players a box ({} teams)", set.teams),
                    teams: map.teams.clone(),
                    start_boxes: boxes,
                    live: r.dragged(),
                });
            }
            for (b, bx) in set.boxes.iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(format!("box {}", b + 1));
                    let mut v = *bx;
                    let mut live = false;
                    let mut edited = false;
                    for (c, name) in ["x1", "y1", "x2", "y2"].iter().enumerate() {
                        let r = ui.add(
                            egui::DragValue::new(&mut v[c])
                                .range(0..=LOBBY_UNITS)
                                .prefix(format!("{name} ")),
                        );
                        edited |= r.changed();
                        live |= r.dragged();
                    }
                    if edited && v[0] < v[2] && v[1] < v[3] {
                        let mut boxes = map.start_boxes.clone();
                        set_box(map, &mut boxes[k], b, v);
                        change = Some(StartsChange {
                            what: format!("start box {} ({} teams)", b + 1, set.teams),
                            teams: map.teams.clone(),
                            start_boxes: boxes,
                            live,
                        });
                    }
                });
            }
        }
        if let Some(k) = remove_set {
            let mut boxes = map.start_boxes.clone();
            let gone = boxes.remove(k);
            if self.shown == Some(k) {
                self.shown = None;
            }
            change = Some(StartsChange {
                what: format!("remove the {}-team start boxes", gone.teams),
                teams: map.teams.clone(),
                start_boxes: boxes,
                live: false,
            });
        }
        if players >= 1 {
            if self.new_teams < 2 || self.new_teams > players.max(2) {
                self.new_teams = players.max(2);
            }
            ui.horizontal(|ui| {
                let taken = map.start_boxes.iter().any(|s| s.teams == self.new_teams);
                let add = ui.add_enabled(!taken, egui::Button::new("New arrangement for"));
                ui.add(
                    egui::DragValue::new(&mut self.new_teams)
                        .range(2..=players.max(2))
                        .suffix(" teams"),
                );
                if add.clicked() {
                    let n = self.new_teams;
                    let set = if n == players {
                        boxes_around_starts(map, 20)
                    } else {
                        symmetric_set(map, n, (players / n).max(1), first_box(map.symmetry, n))
                    };
                    let mut boxes = map.start_boxes.clone();
                    boxes.push(set);
                    boxes.sort_by_key(|s| s.teams);
                    self.shown = boxes.iter().position(|s| s.teams == n);
                    change = Some(StartsChange {
                        what: format!("add start boxes for {n} teams"),
                        teams: map.teams.clone(),
                        start_boxes: boxes,
                        live: false,
                    });
                }
            });
        }
        if ui
            .button("Copy lobby metadata")
            .on_hover_text("The block for BAR's maps-metadata map_list.yaml: start positions, arrangements and boxes (groundwork metadata prints the same)")
            .clicked()
        {
            ui.ctx()
                .copy_text(crate::formats::lobby_metadata::entry_yaml(map, &crate::analyze::lobby_tags::lobby_tags(map)));
        }
        change
    }
}
