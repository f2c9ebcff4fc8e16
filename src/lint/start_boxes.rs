//! The start box rules, from BAR's maps-metadata checks (`check_startboxes.ts`) and the lobby's
//! in-game rules: boxes times players per box within the player count, every start inside a box
//! of the full arrangement, allied starts (one box) at least 350 elmos apart, no overlapping
//! boxes in an arrangement, and an arrangement for every team count from 2 to the player count.

use super::{Finding, finding};
use crate::map::Map;
use crate::map::start_boxes::{contains, overlap};

/// The lobby refuses a start nearer than this to an ally's (choose-in-game mode).
pub const ALLY_SPACING_ELMOS: f32 = 350.0;

/// The start box findings for `map` (none when it has no boxes).
pub fn check(map: &Map) -> Vec<Finding> {
    let mut out = Vec::new();
    if map.start_boxes.is_empty() {
        return out;
    }
    let players = map.teams.len() as u32;
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let starts: Vec<[f32; 2]> = map
        .teams
        .iter()
        .map(|t| [t.start_x_elmos, t.start_z_elmos])
        .collect();
    for set in &map.start_boxes {
        let n = set.boxes.len() as u32;
        if n * set.max_players_per_box > players {
            out.push(finding(
                "startbox-too-many-players",
                format!(
                    "the {}-team start boxes hold {} players each: {} in all, but the map has {players} start positions",
                    set.teams,
                    set.max_players_per_box,
                    n * set.max_players_per_box
                ),
                "lower max_players_per_box, or add start positions",
                None,
            ));
        }
        for i in 0..set.boxes.len() {
            for j in i + 1..set.boxes.len() {
                if overlap(set.boxes[i], set.boxes[j]) {
                    out.push(finding(
                        "startbox-overlap",
                        format!(
                            "in the {}-team arrangement, boxes {} and {} overlap: players of two teams could start side by side",
                            set.teams,
                            i + 1,
                            j + 1
                        ),
                        "move the boxes apart",
                        None,
                    ));
                }
            }
        }
        // each start belongs to the first box that holds it; allies share a box
        let mut allies: Vec<Vec<usize>> = vec![Vec::new(); set.boxes.len()];
        for (s, p) in starts.iter().enumerate() {
            match set.boxes.iter().position(|b| contains(*b, *p, w, d)) {
                Some(b) => allies[b].push(s),
                None if set.teams == players => out.push(finding(
                    "start-outside-box",
                    format!(
                        "start {} ({:.0}, {:.0}) lies in none of the {}-team start boxes: a player placed there could not start there",
                        s + 1,
                        p[0],
                        p[1],
                        set.teams
                    ),
                    "move the start into its box, or the box over it",
                    None,
                )),
                None => {}
            }
        }
        for (b, members) in allies.iter().enumerate() {
            for (k, &s) in members.iter().enumerate() {
                for &t in &members[k + 1..] {
                    let dist = (starts[s][0] - starts[t][0]).hypot(starts[s][1] - starts[t][1]);
                    if dist < ALLY_SPACING_ELMOS {
                        out.push(finding(
                            "allied-starts-too-close",
                            format!(
                                "starts {} and {} share box {} of the {}-team arrangement {dist:.0} elmos apart: the lobby wants allies {ALLY_SPACING_ELMOS:.0} apart",
                                s + 1,
                                t + 1,
                                b + 1,
                                set.teams
                            ),
                            "move one of them further away",
                            None,
                        ));
                    }
                }
            }
        }
        for (b, members) in allies.iter().enumerate() {
            if members.is_empty() && set.teams == players {
                out.push(finding(
                    "start-outside-box",
                    format!(
                        "box {} of the {}-team arrangement holds no start position",
                        b + 1,
                        set.teams
                    ),
                    "move the box over a start",
                    None,
                ));
            }
        }
    }
    for n in 2..=players {
        if !map.start_boxes.iter().any(|s| s.teams == n) {
            out.push(finding(
                "startbox-missing-arrangement",
                format!("no start boxes for {n} teams: the lobby has none to offer for a {n}-team game"),
                "add an arrangement for that team count (the Starts tab, or [[start_boxes]] in map.toml)",
                None,
            ));
        }
    }
    out
}
