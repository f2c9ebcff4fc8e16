//! The feature tools in the 3D view: a click places, a drag scatters or erases (one undo step
//! for the whole drag), and Select picks by click or box and moves or turns the selection with
//! a gizmo (drag a selected feature to move it, the ring's handle to turn it; Delete removes
//! it). The work is `edit::features`'; this module turns the pointer into its calls.

use std::collections::BTreeSet;

use glam::Vec3;

use super::features_panel::{FeatureSettings, FeatureTool};
use super::log_panel::LogPanel;
use crate::edit::Session;
use crate::edit::features;
use crate::map::Map;

/// How near (points) a click must be to a feature to pick it.
const PICK_POINTS: f32 = 14.0;
/// The gizmo ring's radius around the selection's centre (points).
const RING_POINTS: f32 = 46.0;

/// What a drag in the view is doing.
#[derive(Clone, Debug, PartialEq)]
enum Drag {
    /// Scatter or erase dabs, one live edit; the last dab's place.
    Paint { last: [f32; 2] },
    /// A selection box in window points.
    Box { from: egui::Pos2, to: egui::Pos2 },
    /// The selection moving: where the press was, where it is now (elmos).
    Move { from: [f32; 2], to: [f32; 2] },
    /// The selection turning about `centre` (elmos): the pointer's angle at the press and now.
    Turn {
        centre: [f32; 2],
        from_rad: f32,
        to_rad: f32,
    },
}

/// The view's state for the feature tools.
#[derive(Debug, Default)]
pub struct FeatureView {
    drag: Option<Drag>,
}

/// Projects a ground point to the window (points), if in front of the eye.
pub type Project<'a> = &'a dyn Fn(Vec3) -> Option<egui::Pos2>;

fn ground(map: &Map, x: f32, z: f32) -> f32 {
    map.height_at(x, z).max(0.0)
}

fn feature_screen(map: &Map, i: usize, project: Project) -> Option<egui::Pos2> {
    let f = map.features.get(i)?;
    project(Vec3::new(
        f.x_elmos,
        ground(map, f.x_elmos, f.z_elmos) + 8.0,
        f.z_elmos,
    ))
}

/// The feature drawn nearest `pos` (points), within a click.
fn feature_near(map: &Map, pos: egui::Pos2, project: Project) -> Option<usize> {
    (0..map.features.len())
        .filter_map(|i| {
            let d = feature_screen(map, i, project)?.distance(pos);
            (d <= PICK_POINTS).then_some((d, i))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, i)| i)
}

/// The selection's centre on the ground (elmos).
fn centre(map: &Map, selection: &BTreeSet<usize>) -> Option<[f32; 2]> {
    let pts: Vec<[f32; 2]> = selection
        .iter()
        .filter_map(|&i| map.features.get(i))
        .map(|f| [f.x_elmos, f.z_elmos])
        .collect();
    if pts.is_empty() {
        return None;
    }
    let n = pts.len() as f32;
    Some([
        pts.iter().map(|p| p[0]).sum::<f32>() / n,
        pts.iter().map(|p| p[1]).sum::<f32>() / n,
    ])
}

/// The gizmo's turn handle (points): on the ring, to the right of the centre.
fn handle_at(c: egui::Pos2) -> egui::Pos2 {
    c + egui::vec2(RING_POINTS, 0.0)
}

impl FeatureView {
    /// Whether a drag of the feature tools is under way.
    pub fn dragging(&self) -> bool {
        self.drag.is_some()
    }

    /// One frame of the chosen feature tool. `hover` is the ground under the pointer (elmos),
    /// `pointer` the pointer in the window.
    #[allow(clippy::too_many_arguments)]
    pub fn handle(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        session: &mut Session,
        settings: &mut FeatureSettings,
        hover: Option<[f32; 2]>,
        project: Project,
        log: &mut LogPanel,
    ) {
        let Some(tool) = settings.tool else { return };
        let (pressed, down, shift) = ui.input(|i| {
            (
                i.pointer.primary_pressed(),
                i.pointer.primary_down(),
                i.modifiers.shift,
            )
        });
        let pointer = response
            .hover_pos()
            .or(ui.input(|i| i.pointer.latest_pos()));
        let on_view = response.is_pointer_button_down_on();
        settings.follow(session.map());
        if tool == FeatureTool::Select
            && !settings.selection.is_empty()
            && response.hovered()
            && !ui.ctx().egui_wants_keyboard_input()
            && ui.input(|i| i.key_pressed(egui::Key::Delete) || i.key_pressed(egui::Key::Backspace))
        {
            let sel = settings.selection.clone();
            let mut n = 0;
            match session.edit(
                "delete features",
                |m| n = features::delete_selected(m, &sel),
                None,
            ) {
                Ok(()) => log.info(format!("deleted {n} features (Ctrl+Z undoes)")),
                Err(e) => log.error(format!("deleting features: {e}")),
            }
            settings.selection.clear();
            return;
        }
        match (tool, self.drag.clone()) {
            (FeatureTool::Place, _) => {
                if pressed
                    && on_view
                    && let Some(at) = hover
                {
                    let (name, rot) = (settings.place_name.clone(), settings.rotation_deg);
                    let mut result = Ok(0);
                    let r = session.edit(
                        &format!("place {name}"),
                        |m| result = features::place(m, &name, at, rot),
                        None,
                    );
                    match r.and(result) {
                        Ok(n) => log.info(format!(
                            "placed {n} × {name} at ({:.0}, {:.0}) (Ctrl+Z undoes)",
                            at[0], at[1]
                        )),
                        Err(e) => log.warn(format!("Place feature: {e}")),
                    }
                }
            }
            (FeatureTool::Scatter | FeatureTool::Erase, drag) => {
                let painting = matches!(drag, Some(Drag::Paint { .. }));
                if down && (painting || (pressed && on_view)) {
                    let Some(at) = hover else { return };
                    let far_enough = match drag {
                        Some(Drag::Paint { last }) => {
                            let step = (settings.radius_elmos * 0.5).max(8.0);
                            (at[0] - last[0]).hypot(at[1] - last[1]) >= step
                        }
                        _ => true,
                    };
                    if far_enough {
                        self.dab(tool, session, settings, at, log);
                        self.drag = Some(Drag::Paint { last: at });
                    }
                    ui.ctx().request_repaint();
                } else if painting {
                    session.end_live_edit();
                    self.drag = None;
                    log.info(format!("{} (Ctrl+Z undoes)", tool.label()));
                }
            }
            (FeatureTool::Select, None) => {
                if !(pressed && on_view) {
                    return;
                }
                let Some(pos) = pointer else { return };
                let map = session.map();
                let c = centre(map, &settings.selection);
                let c_screen =
                    c.and_then(|c| project(Vec3::new(c[0], ground(map, c[0], c[1]), c[1])));
                if let (Some(c), Some(cs)) = (c, c_screen)
                    && handle_at(cs).distance(pos) <= PICK_POINTS
                {
                    let a = (pos - cs).angle();
                    self.drag = Some(Drag::Turn {
                        centre: c,
                        from_rad: a,
                        to_rad: a,
                    });
                    return;
                }
                match feature_near(map, pos, project) {
                    Some(i) if settings.selection.contains(&i) && !shift => {
                        let at =
                            hover.unwrap_or([map.features[i].x_elmos, map.features[i].z_elmos]);
                        self.drag = Some(Drag::Move { from: at, to: at });
                    }
                    _ => self.drag = Some(Drag::Box { from: pos, to: pos }),
                }
            }
            (FeatureTool::Select, Some(drag)) => {
                if down {
                    self.drag = Some(match drag {
                        Drag::Box { from, .. } => Drag::Box {
                            from,
                            to: pointer.unwrap_or(from),
                        },
                        Drag::Move { from, to } => Drag::Move {
                            from,
                            to: hover.unwrap_or(to),
                        },
                        Drag::Turn {
                            centre,
                            from_rad,
                            to_rad,
                        } => {
                            let map = session.map();
                            let cs = project(Vec3::new(
                                centre[0],
                                ground(map, centre[0], centre[1]),
                                centre[1],
                            ));
                            let a = match (cs, pointer) {
                                (Some(cs), Some(p)) => (p - cs).angle(),
                                _ => to_rad,
                            };
                            Drag::Turn {
                                centre,
                                from_rad,
                                to_rad: a,
                            }
                        }
                        other => other,
                    });
                    ui.ctx().request_repaint();
                    return;
                }
                self.drag = None;
                self.finish_select(drag, session, settings, shift, project, log);
            }
        }
    }

    fn dab(
        &self,
        tool: FeatureTool,
        session: &mut Session,
        settings: &FeatureSettings,
        at: [f32; 2],
        log: &mut LogPanel,
    ) {
        let radius = settings.radius_elmos;
        let result = if tool == FeatureTool::Erase {
            session.edit_live("erase features", |m| {
                features::erase(m, at, radius);
            })
        } else {
            let Some(scatter) = settings.scatter() else {
                log.warn("Scatter features: pick one or more names in the palette");
                return;
            };
            if let Err(e) = scatter.check(session.map()) {
                log.warn(format!("Scatter features: {e}"));
                return;
            }
            let mut err = None;
            let r = session.edit_live("scatter features", |m| {
                if let Err(e) = features::scatter(m, at, radius, &scatter) {
                    err = Some(e);
                }
            });
            r.and(err.map_or(Ok(()), Err))
        };
        if let Err(e) = result {
            log.warn(format!("{}: {e}", tool.label()));
        }
    }

    fn finish_select(
        &mut self,
        drag: Drag,
        session: &mut Session,
        settings: &mut FeatureSettings,
        shift: bool,
        project: Project,
        log: &mut LogPanel,
    ) {
        match drag {
            Drag::Box { from, to } => {
                let map = session.map();
                let picked: BTreeSet<usize> = if from.distance(to) < 4.0 {
                    feature_near(map, to, project).into_iter().collect()
                } else {
                    let r = egui::Rect::from_two_pos(from, to);
                    (0..map.features.len())
                        .filter(|&i| feature_screen(map, i, project).is_some_and(|p| r.contains(p)))
                        .collect()
                };
                if !shift {
                    settings.selection.clear();
                }
                settings.selection.extend(picked);
            }
            Drag::Move { from, to } => {
                let delta = [to[0] - from[0], to[1] - from[1]];
                if delta[0].hypot(delta[1]) < 1.0 {
                    return;
                }
                let sel = settings.selection.clone();
                let mut n = 0;
                let r = session.edit(
                    "move features",
                    |m| n = features::transform_selected(m, &sel, delta, 0.0).len(),
                    None,
                );
                match r {
                    Ok(()) => log.info(format!(
                        "moved {n} features by ({:.0}, {:.0}) (Ctrl+Z undoes)",
                        delta[0], delta[1]
                    )),
                    Err(e) => log.error(format!("moving features: {e}")),
                }
            }
            Drag::Turn {
                centre: _,
                from_rad,
                to_rad,
            } => {
                // the screen's angle grows clockwise; the heading grows from +z towards +x
                let turn_deg = -(to_rad - from_rad).to_degrees();
                let turn_deg = (turn_deg / 5.0).round() * 5.0;
                if turn_deg == 0.0 {
                    return;
                }
                let sel = settings.selection.clone();
                let r = session.edit(
                    "turn features",
                    |m| {
                        features::transform_selected(m, &sel, [0.0, 0.0], turn_deg);
                    },
                    None,
                );
                match r {
                    Ok(()) => log.info(format!(
                        "turned the selection by {turn_deg:.0}° (Ctrl+Z undoes)"
                    )),
                    Err(e) => log.error(format!("turning features: {e}")),
                }
            }
            Drag::Paint { .. } => {}
        }
    }

    /// The selection's rings, the gizmo and a drag's box or line, over the view.
    pub fn paint(
        &self,
        ui: &egui::Ui,
        clip: egui::Rect,
        map: &Map,
        settings: &FeatureSettings,
        project: Project,
    ) {
        if settings.tool != Some(FeatureTool::Select) {
            return;
        }
        let painter = ui.painter().with_clip_rect(clip);
        let yellow = egui::Color32::from_rgb(255, 210, 60);
        for &i in &settings.selection {
            if let Some(p) = feature_screen(map, i, project) {
                painter.circle_stroke(p, 9.0, egui::Stroke::new(2.0, yellow));
            }
        }
        if let Some(c) = centre(map, &settings.selection)
            && let Some(cs) = project(Vec3::new(c[0], ground(map, c[0], c[1]), c[1]))
        {
            painter.circle_stroke(cs, RING_POINTS, egui::Stroke::new(1.5, yellow));
            painter.circle_filled(handle_at(cs), 6.0, yellow);
            if let Some(Drag::Turn {
                from_rad, to_rad, ..
            }) = &self.drag
            {
                let deg = (-(to_rad - from_rad).to_degrees() / 5.0).round() * 5.0;
                painter.text(
                    cs + egui::vec2(0.0, -RING_POINTS - 8.0),
                    egui::Align2::CENTER_BOTTOM,
                    format!("{deg:.0}°"),
                    egui::FontId::proportional(15.0),
                    yellow,
                );
            }
        }
        match &self.drag {
            Some(Drag::Box { from, to }) => {
                painter.rect_stroke(
                    egui::Rect::from_two_pos(*from, *to),
                    0.0,
                    egui::Stroke::new(1.5, yellow),
                    egui::StrokeKind::Middle,
                );
            }
            Some(Drag::Move { from, to }) => {
                let a = project(Vec3::new(from[0], ground(map, from[0], from[1]), from[1]));
                let b = project(Vec3::new(to[0], ground(map, to[0], to[1]), to[1]));
                if let (Some(a), Some(b)) = (a, b) {
                    painter.arrow(a, b - a, egui::Stroke::new(2.5, yellow));
                }
            }
            _ => {}
        }
    }
}
