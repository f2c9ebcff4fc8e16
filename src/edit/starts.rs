//! Start positions and start boxes as the editor changes them, following the map's symmetry:
//! a start moved takes its partners along (the teams whose starts are its images under one of
//! the symmetry's transforms), and a box moved takes the boxes that are its images the same
//! way. Adding and removing teams. Pure functions on a [`Map`]; `Session::edit` makes each one
//! undo step.

use super::symmetry::{Isometry, images, near};
use crate::map::start_boxes::{StartBoxSet, box_from_elmos, box_to_elmos, to_elmos, to_units};
use crate::map::{Map, MapSize, SymmetryMode, Team};

/// Two starts closer than this are the same place (elmos).
const SAME_PLACE_ELMOS: f32 = 2.0;
/// Two boxes whose corners are this close are the same box (lobby units).
const SAME_BOX_UNITS: f32 = 1.5;
/// The most players a new map is laid out for.
pub const MAX_PLAYERS: u32 = 16;
/// Starts closer than this (elmos) leave no room for a base.
const MIN_START_SPACING_ELMOS: f32 = 384.0;

fn start(map: &Map, i: usize) -> [f32; 2] {
    let t = &map.teams[i];
    [t.start_x_elmos, t.start_z_elmos]
}

/// The symmetry's transforms other than the identity.
fn transforms(map: &Map) -> Vec<Isometry> {
    images(map.symmetry, map.size.width_elmos(), map.size.depth_elmos())
        .into_iter()
        .skip(1)
        .collect()
}

/// The teams whose starts are images of team `team`'s under the map's symmetry, each with the
/// transform that takes `team`'s start there. A team counts once, by the first transform.
pub fn partners(map: &Map, team: usize) -> Vec<(usize, Isometry)> {
    let p = start(map, team);
    let mut out: Vec<(usize, Isometry)> = Vec::new();
    for g in transforms(map) {
        let q = g.apply(p);
        if near(q, p, SAME_PLACE_ELMOS) {
            // the start sits on this transform's axis: it is its own image
            continue;
        }
        if let Some(u) =
            (0..map.teams.len()).find(|&u| u != team && near(start(map, u), q, SAME_PLACE_ELMOS))
            && !out.iter().any(|(v, _)| *v == u)
        {
            out.push((u, g));
        }
    }
    out
}

/// Moves team `team`'s start to `to` (elmos, kept on the map) and its partners to the images
/// of `to`. Returns the teams moved, `team` first.
pub fn move_start(map: &mut Map, team: usize, to: [f32; 2]) -> Result<Vec<usize>, String> {
    if team >= map.teams.len() {
        return Err(format!(
            "there is no team {}: the map has {}",
            team + 1,
            map.teams.len()
        ));
    }
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let clamp = |p: [f32; 2]| [p[0].clamp(0.0, w), p[1].clamp(0.0, d)];
    let to = clamp(to);
    let moves: Vec<(usize, [f32; 2])> = std::iter::once((team, to))
        .chain(
            partners(map, team)
                .into_iter()
                .map(|(u, g)| (u, clamp(g.apply(to)))),
        )
        .collect();
    for &(u, p) in &moves {
        map.teams[u] = Team {
            start_x_elmos: p[0],
            start_z_elmos: p[1],
        };
    }
    Ok(moves.into_iter().map(|(u, _)| u).collect())
}

/// Adds a team with its start at `at` (kept on the map); returns its index.
pub fn add_team(map: &mut Map, at: [f32; 2]) -> usize {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    map.teams.push(Team {
        start_x_elmos: at[0].clamp(0.0, w),
        start_z_elmos: at[1].clamp(0.0, d),
    });
    map.teams.len() - 1
}

/// Removes team `team`; the teams after it move up one.
pub fn remove_team(map: &mut Map, team: usize) -> Result<(), String> {
    if team >= map.teams.len() {
        return Err(format!(
            "there is no team {}: the map has {}",
            team + 1,
            map.teams.len()
        ));
    }
    map.teams.remove(team);
    Ok(())
}

/// A box in lobby units through a transform, as the lobby's rectangle around the image.
fn box_image(map: &Map, g: &Isometry, b: [u32; 4]) -> [u32; 4] {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let e = box_to_elmos(b, w, d);
    let corners = [[e[0], e[1]], [e[2], e[1]], [e[0], e[3]], [e[2], e[3]]].map(|p| g.apply(p));
    let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
    for c in corners {
        lo = [lo[0].min(c[0]), lo[1].min(c[1])];
        hi = [hi[0].max(c[0]), hi[1].max(c[1])];
    }
    box_from_elmos([lo[0], lo[1], hi[0], hi[1]], w, d)
}

fn same_box(a: [u32; 4], b: [u32; 4]) -> bool {
    a.iter()
        .zip(&b)
        .all(|(x, y)| (*x as f32 - *y as f32).abs() <= SAME_BOX_UNITS)
}

/// Sets box `index` of `set` to `to`, and each box that was an image of the old box under the
/// map's symmetry to the same image of `to`. Returns the boxes changed, `index` first.
pub fn set_box(map: &Map, set: &mut StartBoxSet, index: usize, to: [u32; 4]) -> Vec<usize> {
    let Some(&old) = set.boxes.get(index) else {
        return Vec::new();
    };
    let mut changed = vec![index];
    let mut updates = vec![(index, to)];
    for g in transforms(map) {
        let image = box_image(map, &g, old);
        if same_box(image, old) {
            continue;
        }
        if let Some(j) =
            (0..set.boxes.len()).find(|&j| !changed.contains(&j) && same_box(set.boxes[j], image))
        {
            changed.push(j);
            updates.push((j, box_image(map, &g, to)));
        }
    }
    for (j, b) in updates {
        set.boxes[j] = b;
    }
    changed
}

/// An arrangement for `teams` teams: the first box `first` and the rest its images under the
/// map's symmetry (as many as the symmetry makes; boxes it cannot make are copies of `first`
/// for the mapmaker to move).
pub fn symmetric_set(
    map: &Map,
    teams: u32,
    max_players_per_box: u32,
    first: [u32; 4],
) -> StartBoxSet {
    let mut boxes = vec![first];
    for g in transforms(map) {
        if boxes.len() >= teams as usize {
            break;
        }
        let image = box_image(map, &g, first);
        if !boxes.iter().any(|b| same_box(*b, image)) {
            boxes.push(image);
        }
    }
    while boxes.len() < teams as usize {
        boxes.push(first);
    }
    StartBoxSet {
        teams,
        max_players_per_box,
        boxes,
    }
}

/// Boxes of `half_units` around each start, for an arrangement of one player a box.
pub fn boxes_around_starts(map: &Map, half_units: u32) -> StartBoxSet {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let boxes = map
        .teams
        .iter()
        .map(|t| {
            let u = to_units([t.start_x_elmos, t.start_z_elmos], w, d);
            let h = half_units as f32;
            let lo = to_elmos([u[0] - h, u[1] - h], w, d);
            let hi = to_elmos([u[0] + h, u[1] + h], w, d);
            box_from_elmos([lo[0], lo[1], hi[0], hi[1]], w, d)
        })
        .collect();
    StartBoxSet {
        teams: map.teams.len() as u32,
        max_players_per_box: 1,
        boxes,
    }
}

/// `players` start positions on a map of `size` under `mode`: a share of them chosen in the
/// mode's first copy and the rest its images, so each copy holds the same layout. Chosen in
/// turn from a grid inset from the edges, each as far as it can be from the centre, from the
/// starts already placed and from its own images; the nearest to the centre wins a tie.
pub fn start_positions(
    size: MapSize,
    mode: SymmetryMode,
    players: u32,
) -> Result<Vec<[f32; 2]>, String> {
    if !(1..=MAX_PLAYERS).contains(&players) {
        return Err(format!(
            "a new map has 1 to {MAX_PLAYERS} players, not {players}"
        ));
    }
    let copies = mode.copies() as u32;
    if !players.is_multiple_of(copies) {
        return Err(format!(
            "{players} players cannot share symmetry {mode}'s {copies} copies fairly: use a \
             multiple of {copies}, or another symmetry"
        ));
    }
    let (w, d) = (size.width_elmos(), size.depth_elmos());
    let isos = images(mode, w, d);
    let centre = [w / 2.0, d / 2.0];
    let dist = |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    const STEPS: usize = 24;
    let mut candidates = Vec::with_capacity((STEPS + 1) * (STEPS + 1));
    for j in 0..=STEPS {
        for i in 0..=STEPS {
            let t = |k: usize, side: f32| side * (0.12 + 0.76 * k as f32 / STEPS as f32);
            candidates.push([t(i, w), t(j, d)]);
        }
    }
    let mut placed: Vec<[f32; 2]> = Vec::new();
    for _ in 0..players / copies {
        let mut best: Option<(f32, f32, Vec<[f32; 2]>)> = None;
        for &c in &candidates {
            let own: Vec<[f32; 2]> = isos.iter().map(|m| m.apply(c)).collect();
            // a turn by a third or an eighth takes a corner off the map
            let on_map = |p: &[f32; 2]| {
                p[0] >= 0.1 * w && p[0] <= 0.9 * w && p[1] >= 0.1 * d && p[1] <= 0.9 * d
            };
            if !own.iter().all(on_map) {
                continue;
            }
            let mut score = 2.0 * dist(c, centre);
            for (a, p) in own.iter().enumerate() {
                for q in &own[a + 1..] {
                    score = score.min(dist(*p, *q));
                }
                for q in &placed {
                    score = score.min(dist(*p, *q));
                }
            }
            let near = dist(c, centre);
            let better = match &best {
                None => true,
                Some((s, n, _)) => score > *s + 1e-3 || ((score - *s).abs() <= 1e-3 && near < *n),
            };
            if better {
                best = Some((score, near, own));
            }
        }
        let Some((score, _, own)) = best else {
            return Err(format!("no start fits on a {size} map under {mode}"));
        };
        if score < MIN_START_SPACING_ELMOS {
            return Err(format!(
                "{players} players do not fit on a {size} map under {mode}: starts would be \
                 {score:.0} elmos apart"
            ));
        }
        placed.extend(own);
    }
    Ok(placed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize, SymmetryMode};

    fn four_corners(mode: SymmetryMode) -> Map {
        let mut m = Map::new(MapSize::new(8, 8).unwrap(), MapSettings::default());
        m.symmetry = mode;
        for p in [
            [500.0, 500.0],
            [3596.0, 500.0],
            [500.0, 3596.0],
            [3596.0, 3596.0],
        ] {
            add_team(&mut m, p);
        }
        m
    }

    #[test]
    fn a_moved_start_takes_its_mirror_images_along() {
        let mut m = four_corners(SymmetryMode::MirrorXZ);
        let moved = move_start(&mut m, 0, [700.0, 600.0]).unwrap();
        assert_eq!(moved.len(), 4, "{moved:?}");
        let at = |m: &Map, i| start(m, i);
        assert_eq!(at(&m, 0), [700.0, 600.0]);
        assert_eq!(at(&m, 1), [4096.0 - 700.0, 600.0]);
        assert_eq!(at(&m, 2), [700.0, 4096.0 - 600.0]);
        assert_eq!(at(&m, 3), [4096.0 - 700.0, 4096.0 - 600.0]);
        // without symmetry only the one start moves
        let mut m = four_corners(SymmetryMode::None);
        assert_eq!(move_start(&mut m, 2, [10.0, 9000.0]).unwrap(), vec![2]);
        assert_eq!(at(&m, 2), [10.0, 4096.0], "kept on the map");
        assert_eq!(at(&m, 3), [3596.0, 3596.0]);
        assert!(move_start(&mut m, 4, [0.0, 0.0]).is_err());
    }

    #[test]
    fn a_half_turn_moves_the_opposite_start_only() {
        let mut m = four_corners(SymmetryMode::Rotate(2));
        let moved = move_start(&mut m, 1, [3000.0, 1000.0]).unwrap();
        assert_eq!(moved, vec![1, 2]);
        assert_eq!(start(&m, 2), [1096.0, 3096.0]);
        assert_eq!(start(&m, 0), [500.0, 500.0]);
    }

    #[test]
    fn teams_come_and_go() {
        let mut m = four_corners(SymmetryMode::None);
        assert_eq!(add_team(&mut m, [-5.0, 100.0]), 4);
        assert_eq!(start(&m, 4), [0.0, 100.0]);
        remove_team(&mut m, 0).unwrap();
        assert_eq!(m.teams.len(), 4);
        assert_eq!(start(&m, 0), [3596.0, 500.0]);
        assert!(remove_team(&mut m, 9).is_err());
    }

    #[test]
    fn boxes_follow_the_symmetry() {
        let m = four_corners(SymmetryMode::MirrorX);
        let mut set = symmetric_set(&m, 2, 2, [0, 0, 40, 200]);
        assert_eq!(set.boxes, vec![[0, 0, 40, 200], [160, 0, 200, 200]]);
        let changed = set_box(&m, &mut set, 0, [10, 20, 60, 180]);
        assert_eq!(changed, vec![0, 1]);
        assert_eq!(set.boxes[1], [140, 20, 190, 180]);
        assert!(set.check().is_ok());
        // around the starts: each start inside its own box
        let around = boxes_around_starts(&m, 20);
        assert_eq!(around.boxes.len(), 4);
        for (i, b) in around.boxes.iter().enumerate() {
            assert!(crate::map::start_boxes::contains(
                *b,
                start(&m, i),
                4096.0,
                4096.0
            ));
        }
    }
}
