//! Reachability over one class's passable squares: connected regions (8 neighbours), and
//! path distances in elmos from a square (Dijkstra, 8 elmos a straight step, 8 x sqrt 2 a
//! diagonal one).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::passability::Passability;

/// Elmos a square.
const SQUARE_ELMOS: f32 = 8.0;
/// Path lengths are counted in thousandths of a square.
const STRAIGHT_COST: u32 = 1000;
const DIAGONAL_COST: u32 = 1414;

const NEIGHBOURS: [(i64, i64, u32); 8] = [
    (1, 0, STRAIGHT_COST),
    (-1, 0, STRAIGHT_COST),
    (0, 1, STRAIGHT_COST),
    (0, -1, STRAIGHT_COST),
    (1, 1, DIAGONAL_COST),
    (1, -1, DIAGONAL_COST),
    (-1, 1, DIAGONAL_COST),
    (-1, -1, DIAGONAL_COST),
];

/// The connected regions of a class's passable squares.
#[derive(Clone, Debug, PartialEq)]
pub struct Regions {
    /// Per square: 0 blocked, else its region's number (1-based).
    pub label: Vec<u32>,
    /// Squares per region; `sizes[k]` is region k + 1's.
    pub sizes: Vec<usize>,
}

impl Regions {
    pub fn of(pass: &Passability) -> Regions {
        let (w, h) = (pass.mapx, pass.mapy);
        let mut label = vec![0u32; w * h];
        let mut sizes = Vec::new();
        let mut queue = VecDeque::new();
        for start in 0..w * h {
            if label[start] != 0 || !pass.states[start].passable() {
                continue;
            }
            let id = sizes.len() as u32 + 1;
            label[start] = id;
            queue.push_back(start);
            let mut n = 0;
            while let Some(i) = queue.pop_front() {
                n += 1;
                let (x, z) = ((i % w) as i64, (i / w) as i64);
                for (dx, dz, _) in NEIGHBOURS {
                    let (nx, nz) = (x + dx, z + dz);
                    if nx < 0 || nz < 0 || nx >= w as i64 || nz >= h as i64 {
                        continue;
                    }
                    let j = nz as usize * w + nx as usize;
                    if label[j] == 0 && pass.states[j].passable() {
                        label[j] = id;
                        queue.push_back(j);
                    }
                }
            }
            sizes.push(n);
        }
        Regions { label, sizes }
    }

    /// The region of square (x, z), or 0 when it is blocked.
    pub fn at(&self, w: usize, x: usize, z: usize) -> u32 {
        self.label[z * w + x]
    }
}

/// The region of passable squares reached from `from` (elmos; from the passable ground
/// within `snap` squares when it stands on a blocked one), as one byte a square: 255 inside,
/// 0 elsewhere. `None` when no passable square is near.
pub fn flood_mask(pass: &Passability, from: [f32; 2], snap: usize) -> Option<Vec<u8>> {
    let (x, z) = square_of(pass, from[0], from[1]);
    let (x, z) = nearest_passable(pass, x, z, snap)?;
    let w = pass.mapx;
    let mut mask = vec![0u8; pass.mapx * pass.mapy];
    let mut queue = VecDeque::new();
    mask[z * w + x] = 255;
    queue.push_back(z * w + x);
    while let Some(i) = queue.pop_front() {
        let (x, z) = ((i % w) as i64, (i / w) as i64);
        for (dx, dz, _) in NEIGHBOURS {
            let (nx, nz) = (x + dx, z + dz);
            if nx < 0 || nz < 0 || nx >= w as i64 || nz >= pass.mapy as i64 {
                continue;
            }
            let j = nz as usize * w + nx as usize;
            if mask[j] == 0 && pass.states[j].passable() {
                mask[j] = 255;
                queue.push_back(j);
            }
        }
    }
    Some(mask)
}

/// The square holding a point in elmos, clamped to the map.
pub fn square_of(pass: &Passability, x_elmos: f32, z_elmos: f32) -> (usize, usize) {
    let c = |v: f32, n: usize| ((v / SQUARE_ELMOS).floor().max(0.0) as usize).min(n - 1);
    (c(x_elmos, pass.mapx), c(z_elmos, pass.mapy))
}

/// The passable square nearest (x, z) within `reach` squares (a start or a spot on a rock
/// still counts from the ground beside it), or `None`.
pub fn nearest_passable(
    pass: &Passability,
    x: usize,
    z: usize,
    reach: usize,
) -> Option<(usize, usize)> {
    let mut best: Option<(usize, (usize, usize))> = None;
    let r = reach as i64;
    for dz in -r..=r {
        for dx in -r..=r {
            let (nx, nz) = (x as i64 + dx, z as i64 + dz);
            if nx < 0 || nz < 0 || nx >= pass.mapx as i64 || nz >= pass.mapy as i64 {
                continue;
            }
            let d = (dx * dx + dz * dz) as usize;
            if pass.passable(nx as usize, nz as usize) && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, (nx as usize, nz as usize)));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// The one path search (Dijkstra over the 8 neighbours, diagonals at their length) from square
/// `from` over the passable squares: the cost of every square reached (`u32::MAX` where it is
/// not), expanding no square past `limit`, and stopping at the first square `stop` accepts
/// (its cost returned). Nothing when `from` is blocked.
fn search(
    pass: &Passability,
    from: (usize, usize),
    limit: u32,
    mut stop: impl FnMut(usize) -> bool,
) -> (Vec<u32>, Option<u32>) {
    let (w, h) = (pass.mapx, pass.mapy);
    let mut cost = vec![u32::MAX; w * h];
    let start = from.1 * w + from.0;
    if !pass.states[start].passable() {
        return (cost, None);
    }
    let mut heap = BinaryHeap::new();
    cost[start] = 0;
    heap.push(Reverse((0u32, start as u32)));
    while let Some(Reverse((c, i))) = heap.pop() {
        let i = i as usize;
        if c > cost[i] || c > limit {
            continue;
        }
        if stop(i) {
            return (cost, Some(c));
        }
        let (x, z) = ((i % w) as i64, (i / w) as i64);
        for (dx, dz, step) in NEIGHBOURS {
            let (nx, nz) = (x + dx, z + dz);
            if nx < 0 || nz < 0 || nx >= w as i64 || nz >= h as i64 {
                continue;
            }
            let j = nz as usize * w + nx as usize;
            let nc = c + step;
            if nc < cost[j] && pass.states[j].passable() {
                cost[j] = nc;
                heap.push(Reverse((nc, j as u32)));
            }
        }
    }
    (cost, None)
}

/// A search cost in elmos.
fn cost_elmos(c: u32) -> f32 {
    c as f32 / STRAIGHT_COST as f32 * SQUARE_ELMOS
}

/// Path distances in elmos from square `from` to every square, `f32::INFINITY` where it
/// cannot go; the search stops past `max_elmos`, leaving farther squares infinite.
pub fn path_distances(pass: &Passability, from: (usize, usize), max_elmos: f32) -> Vec<f32> {
    let limit = (max_elmos / SQUARE_ELMOS * STRAIGHT_COST as f32).min(u32::MAX as f32 / 2.0) as u32;
    let (cost, _) = search(pass, from, limit, |_| false);
    cost.into_iter()
        .map(|c| {
            if c == u32::MAX || c > limit {
                f32::INFINITY
            } else {
                cost_elmos(c)
            }
        })
        .collect()
}

/// The path distance in elmos from `from` to the nearest of `targets` (square indices), or
/// `None` when none can be reached.
pub fn path_to_nearest(pass: &Passability, from: (usize, usize), targets: &[usize]) -> Option<f32> {
    if targets.is_empty() {
        return None;
    }
    let mut is_target = vec![false; pass.mapx * pass.mapy];
    for &t in targets {
        is_target[t] = true;
    }
    search(pass, from, u32::MAX, |i| is_target[i])
        .1
        .map(cost_elmos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::passability::SquareState;

    fn grid(rows: &[&str]) -> Passability {
        let states = rows
            .iter()
            .flat_map(|r| r.chars())
            .map(|c| {
                if c == '#' {
                    SquareState::TooSteep
                } else {
                    SquareState::Speed(1.0)
                }
            })
            .collect();
        Passability {
            mapx: rows[0].len(),
            mapy: rows.len(),
            states,
        }
    }

    #[test]
    fn a_wall_splits_the_ground_and_a_gap_joins_it() {
        let p = grid(&["..#..", "..#..", "..#.."]);
        let r = Regions::of(&p);
        assert_eq!(r.sizes, vec![6, 6]);
        assert_ne!(r.at(5, 0, 0), r.at(5, 4, 2));
        let p = grid(&["..#..", ".....", "..#.."]);
        assert_eq!(Regions::of(&p).sizes, vec![13]);
        // a diagonal step joins corners
        let p = grid(&[".#", "#."]);
        assert_eq!(Regions::of(&p).sizes, vec![2]);
    }

    #[test]
    fn a_flood_fills_its_region_only_and_snaps_off_a_blocked_start() {
        let p = grid(&["..#..", "..#..", "..#.."]);
        let m = flood_mask(&p, [4.0, 4.0], 0).unwrap();
        let inside: Vec<usize> = (0..15).filter(|&i| m[i] == 255).collect();
        assert_eq!(inside, vec![0, 1, 5, 6, 10, 11]);
        assert_eq!(Regions::of(&p).sizes[0], inside.len());
        // a start on the wall floods from the ground beside it, or not at all without a snap
        assert!(flood_mask(&p, [20.0, 12.0], 0).is_none());
        assert_eq!(
            flood_mask(&p, [20.0, 12.0], 1)
                .unwrap()
                .iter()
                .filter(|&&b| b == 255)
                .count(),
            6
        );
    }

    #[test]
    fn a_path_goes_round_the_wall() {
        let p = grid(&["..#..", "..#..", "....."]);
        let d = path_distances(&p, (0, 0), f32::INFINITY);
        // straight line would be 4 squares; the path dips to the bottom row and back
        let far = d[4];
        assert!(far > 4.0 * 8.0, "{far}");
        assert!(
            (far - (2.0 * 1.414 + 2.0 * 1.414) * 8.0).abs() < 0.1,
            "{far}"
        );
        assert!(d[2].is_infinite());
        let near = path_distances(&p, (0, 0), 10.0);
        assert!(near[1].is_finite() && near[4].is_infinite());
    }
}
