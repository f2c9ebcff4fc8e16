//! The tags BAR's lobby filters maps by (maps-metadata's `gameType` and `terrain`), read from
//! the map itself: the game types from its starts and start boxes; water, sea and shallows
//! from the ground under the sea; island from land that water too deep for tanks cuts apart; flat and
//! hills from the height spread of the land; chokepoints from the tank paths between starts
//! that only narrow passages keep open.

use std::collections::VecDeque;

use super::move_class::{MoveClass, bar_classes};
use super::reach::{nearest_passable, square_of};
use super::report::{ClassMaps, ISLAND_MIN_SQUARES, SNAP_SQUARES};
pub use crate::formats::lobby_metadata::LobbyTags;
use crate::map::Map;

/// The share of the map under water from which it has `water`, and `sea`.
const WATER_SHARE: f32 = 0.01;
const SEA_SHARE: f32 = 0.3;
/// The share of the map under shallow water (tanks cross it) that makes `shallows`.
const SHALLOWS_SHARE: f32 = 0.05;
/// The spread of the land's heights (5th to 95th percentile) at most `flat`, at least `hills`.
const FLAT_SPREAD_ELMOS: f32 = 60.0;
const HILLS_SPREAD_ELMOS: f32 = 150.0;
/// A passage narrower than twice this share of the map's shorter side (at least
/// `CHOKE_MIN_SQUARES` squares each side of its middle) counts as a chokepoint.
const CHOKE_SIDE_SHARE: f32 = 1.0 / 40.0;
const CHOKE_MIN_SQUARES: usize = 8;

/// The tags of `map` with BAR's move classes (tanks: `TANK2`).
pub fn lobby_tags(map: &Map) -> LobbyTags {
    LobbyTags {
        game_type: game_types(map),
        terrain: terrain_tags(map, &bar_classes()),
    }
}

/// 1v1 for two starts; ffa for three or more; team where sides of two or more can be made
/// (an even count of four or more starts, or start boxes that hold several players).
pub fn game_types(map: &Map) -> Vec<&'static str> {
    let n = map.teams.len();
    let mut out = Vec::new();
    if n == 2 || map.start_boxes.iter().any(|s| s.teams == 2) && n >= 2 {
        out.push("1v1");
    }
    if n >= 3 {
        out.push("ffa");
    }
    let boxes_for_teams = map
        .start_boxes
        .iter()
        .any(|s| s.max_players_per_box >= 2 && s.boxes.len() >= 2);
    if (n >= 4 && n.is_multiple_of(2)) || boxes_for_teams {
        out.push("team");
    }
    out
}

/// The terrain tags, with `classes` naming the tanks (`TANK2`; the first tank when it is
/// missing).
pub fn terrain_tags(map: &Map, classes: &[MoveClass]) -> Vec<&'static str> {
    use super::move_class::MoveKind;
    let pick = |name: &str, kind: MoveKind| {
        classes
            .iter()
            .find(|c| c.name == name)
            .or_else(|| classes.iter().find(|c| c.kind == kind))
            .cloned()
    };
    let Some(tank) = pick("TANK2", MoveKind::Tank) else {
        return Vec::new();
    };
    let maps = ClassMaps::new(map, std::slice::from_ref(&tank));
    let g = &maps.ground;
    let squares = (g.mapx * g.mapy).max(1);
    let mut under = 0usize;
    let mut shallow = 0usize;
    let mut land = Vec::new();
    for z in 0..g.mapy {
        for x in 0..g.mapx {
            let h = g.square_height(x, z);
            if h < 0.0 {
                under += 1;
                if -h <= tank.max_water_depth {
                    shallow += 1;
                }
            } else {
                land.push(h);
            }
        }
    }
    let mut out = Vec::new();
    let under_share = under as f32 / squares as f32;
    if under_share >= SEA_SHARE {
        out.push("sea");
    }
    if under_share >= WATER_SHARE {
        out.push("water");
    }
    if shallow as f32 / squares as f32 >= SHALLOWS_SHARE {
        out.push("shallows");
    }
    if is_island(map, &maps, &tank) {
        out.push("island");
    }
    if chokepoints(map, &maps) {
        out.push("chokepoints");
    }
    if !land.is_empty() {
        land.sort_by(f32::total_cmp);
        let at = |q: f32| land[((land.len() - 1) as f32 * q) as usize];
        let spread = at(0.95) - at(0.05);
        if spread <= FLAT_SPREAD_ELMOS {
            out.push("flat");
        } else if spread >= HILLS_SPREAD_ELMOS {
            out.push("hills");
        }
    }
    out
}

/// Land cut off by water for tanks: the land (with the water shallow enough for tanks to
/// ford) falls apart into pieces, two starts on different pieces or a piece of island size
/// with no start. Cliffs do not cut land off: only water does.
fn is_island(map: &Map, maps: &ClassMaps, tank: &MoveClass) -> bool {
    let g = &maps.ground;
    let (w, h) = (g.mapx, g.mapy);
    let land = |i: usize| g.square_height(i % w, i / w) >= -tank.max_water_depth;
    let (piece, sizes) = pieces(w, h, land);
    let pass = &maps.passes[0];
    let held: std::collections::BTreeSet<u32> = map
        .teams
        .iter()
        .filter_map(|t| {
            let (x, z) = square_of(pass, t.start_x_elmos, t.start_z_elmos);
            let p = piece[z.min(h - 1) * w + x.min(w - 1)];
            (p != 0).then_some(p)
        })
        .collect();
    held.len() > 1
        || sizes
            .iter()
            .enumerate()
            .any(|(k, &n)| n >= ISLAND_MIN_SQUARES && !held.contains(&(k as u32 + 1)))
}

/// Whether starts that tanks join are joined only through passages narrower than the
/// chokepoint width: the tank ground shrunk by that half width (squares nearer a blocked one
/// taken away) splits them.
fn chokepoints(map: &Map, maps: &ClassMaps) -> bool {
    let pass = &maps.passes[0];
    let (w, h) = (pass.mapx, pass.mapy);
    let radius = ((w.min(h) as f32 * CHOKE_SIDE_SHARE) as usize).max(CHOKE_MIN_SQUARES);
    // each square's chessboard distance to the nearest blocked one (the map's edge counts as
    // open: a passage along it is not narrowed by it)
    let mut dist = vec![u32::MAX; w * h];
    let mut queue = VecDeque::new();
    for (i, s) in pass.states.iter().enumerate() {
        if !s.passable() {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        let (x, z) = ((i % w) as i64, (i / w) as i64);
        for dz in -1..=1 {
            for dx in -1..=1 {
                let (nx, nz) = (x + dx, z + dz);
                if nx < 0 || nz < 0 || nx >= w as i64 || nz >= h as i64 {
                    continue;
                }
                let j = nz as usize * w + nx as usize;
                if dist[j] == u32::MAX {
                    dist[j] = dist[i] + 1;
                    queue.push_back(j);
                }
            }
        }
    }
    let wide = |i: usize| dist[i] > radius as u32;
    // the wide ground's pieces, and each start's: that of its nearest wide square
    let (label, _) = pieces(w, h, wide);
    let start_label: Vec<Option<u32>> = map
        .teams
        .iter()
        .map(|t| {
            let (x, z) = square_of(pass, t.start_x_elmos, t.start_z_elmos);
            let (sx, sz) = nearest_passable(pass, x, z, SNAP_SQUARES)?;
            nearest_wide(&wide, w, h, sx, sz, 2 * radius).map(|i| label[i])
        })
        .collect();
    let tank_at: Vec<u32> = map
        .teams
        .iter()
        .map(|t| maps.region_at(0, [t.start_x_elmos, t.start_z_elmos]))
        .collect();
    let n = map.teams.len();
    (0..n).any(|i| {
        (i + 1..n).any(|j| {
            tank_at[i] != 0
                && tank_at[i] == tank_at[j]
                && matches!((start_label[i], start_label[j]), (Some(a), Some(b)) if a != b)
        })
    })
}

/// The pieces of the `w` x `h` squares that `open` accepts, joined by their four sides: each
/// square's piece (0 where closed, else 1-based) and each piece's size in squares.
fn pieces(w: usize, h: usize, open: impl Fn(usize) -> bool) -> (Vec<u32>, Vec<usize>) {
    let mut piece = vec![0u32; w * h];
    let mut sizes = Vec::new();
    let mut q = VecDeque::new();
    for seed in 0..w * h {
        if piece[seed] != 0 || !open(seed) {
            continue;
        }
        sizes.push(0usize);
        let id = sizes.len() as u32;
        piece[seed] = id;
        q.push_back(seed);
        while let Some(i) = q.pop_front() {
            sizes[id as usize - 1] += 1;
            let (x, z) = (i % w, i / w);
            let sides = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (z > 0).then(|| i - w),
                (z + 1 < h).then(|| i + w),
            ];
            for j in sides.into_iter().flatten() {
                if piece[j] == 0 && open(j) {
                    piece[j] = id;
                    q.push_back(j);
                }
            }
        }
    }
    (piece, sizes)
}

/// The wide square nearest (x, z) within `reach` squares, by rings.
fn nearest_wide(
    wide: &impl Fn(usize) -> bool,
    w: usize,
    h: usize,
    x: usize,
    z: usize,
    reach: usize,
) -> Option<usize> {
    for r in 0..=reach as i64 {
        for dz in -r..=r {
            for dx in -r..=r {
                if dx.abs() != r && dz.abs() != r {
                    continue;
                }
                let (nx, nz) = (x as i64 + dx, z as i64 + dz);
                if nx < 0 || nz < 0 || nx >= w as i64 || nz >= h as i64 {
                    continue;
                }
                let i = nz as usize * w + nx as usize;
                if wide(i) {
                    return Some(i);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize, Team};

    /// A 4 x 4 map at 100 elmos, starts at opposite corners, heights set by `f(x, z)` elmos.
    fn map_of(f: impl Fn(f32, f32) -> f32) -> Map {
        let settings = MapSettings {
            min_height_elmos: -200.0,
            max_height_elmos: 800.0,
            ..MapSettings::default()
        };
        let mut m = Map::new(MapSize::new(4, 4).unwrap(), settings);
        let (w, d) = m.heights.dims();
        for z in 0..d {
            for x in 0..w {
                m.heights.set(x, z, f(x as f32 * 8.0, z as f32 * 8.0));
            }
        }
        m.teams = vec![
            Team {
                start_x_elmos: 300.0,
                start_z_elmos: 300.0,
            },
            Team {
                start_x_elmos: 1748.0,
                start_z_elmos: 1748.0,
            },
        ];
        m
    }

    #[test]
    fn flat_ground_is_flat_and_nothing_else() {
        let tags = lobby_tags(&map_of(|_, _| 100.0));
        assert_eq!(tags.terrain, ["flat"]);
        assert_eq!(tags.game_type, ["1v1"]);
    }

    #[test]
    fn rolling_hills_are_hills() {
        let m = map_of(|x, z| 200.0 + 150.0 * (x / 300.0).sin() * (z / 300.0).cos());
        assert_eq!(terrain_tags(&m, &bar_classes()), ["hills"]);
    }

    #[test]
    fn a_deep_channel_between_the_starts_is_sea_water_and_island() {
        // a channel 60 elmos deep across the map between the starts
        let shore = |d: f32| -60.0 + 90.0 * ((d - 150.0) / 300.0).clamp(0.0, 1.0);
        let m = map_of(move |x, z| shore((x + z - 2048.0).abs() / std::f32::consts::SQRT_2));
        let tags = terrain_tags(&m, &bar_classes());
        assert!(tags.contains(&"water"), "{tags:?}");
        assert!(tags.contains(&"island"), "{tags:?}");
        // the same channel 10 elmos deep: shallows tanks ford, so no island
        let ford = map_of(|x, z| {
            let d = (x + z - 2048.0).abs() / std::f32::consts::SQRT_2;
            -10.0 + 40.0 * ((d - 150.0) / 300.0).clamp(0.0, 1.0)
        });
        let tags = terrain_tags(&ford, &bar_classes());
        assert!(
            tags.contains(&"shallows") && tags.contains(&"water"),
            "{tags:?}"
        );
        assert!(!tags.contains(&"island"), "{tags:?}");
        // a lake in a corner: water, no island, no sea
        let lake = map_of(|x, z| {
            if (x - 1800.0).hypot(z - 250.0) < 200.0 {
                -80.0
            } else {
                100.0
            }
        });
        let tags = terrain_tags(&lake, &bar_classes());
        assert!(
            tags.contains(&"water") && !tags.contains(&"island"),
            "{tags:?}"
        );
        assert!(!tags.contains(&"sea"), "{tags:?}");
        // mostly sea with the starts on two islands
        let sea = map_of(move |x, z| {
            let d = (x - 300.0)
                .hypot(z - 300.0)
                .min((x - 1748.0).hypot(z - 1748.0));
            shore(600.0 - d)
        });
        let tags = terrain_tags(&sea, &bar_classes());
        assert!(
            tags.contains(&"sea") && tags.contains(&"island"),
            "{tags:?}"
        );
    }

    #[test]
    fn a_wall_with_a_narrow_gap_has_chokepoints_and_a_wide_gap_does_not() {
        // a cliff wall 300 elmos high across the middle, with a gap `gap` elmos wide
        let wall = |gap: f32| {
            map_of(move |x, z| {
                let in_wall = (z - 1024.0).abs() < 64.0;
                let in_gap = (x - 1024.0).abs() < gap / 2.0;
                if in_wall && !in_gap { 400.0 } else { 100.0 }
            })
        };
        let narrow = terrain_tags(&wall(96.0), &bar_classes());
        assert!(narrow.contains(&"chokepoints"), "{narrow:?}");
        let wide = terrain_tags(&wall(900.0), &bar_classes());
        assert!(!wide.contains(&"chokepoints"), "{wide:?}");
        // no gap: the starts are apart, which is no chokepoint either
        let shut = terrain_tags(&wall(0.0), &bar_classes());
        assert!(!shut.contains(&"chokepoints"), "{shut:?}");
    }

    #[test]
    fn game_types_follow_the_starts_and_boxes() {
        let mut m = map_of(|_, _| 100.0);
        assert_eq!(game_types(&m), ["1v1"]);
        let t = m.teams[0];
        m.teams = vec![t; 3];
        assert_eq!(game_types(&m), ["ffa"]);
        m.teams.push(m.teams[0]);
        assert_eq!(game_types(&m), ["ffa", "team"]);
    }
}
