//! SC2 heights to BAR heights: sheer cliffs between levels, walkable ramps, chasms as deep pits
//! (or sea), all on the engine's 8-elmo vertex grid.
//!
//! The design, at the defaults (32 elmos a cell, height scale 1):
//! - **Scale.** One SC2 world unit up is `cell_elmos * height_scale` elmos, the same as one cell
//!   across, so slopes keep their SC2 angles. A cliff level (2 units) is 64 elmos: about two
//!   tank heights, a plateau that reads clearly from the game camera.
//! - **Cliffs.** SC2 draws cliffs as models; its heightmap just jumps by a level from one vertex
//!   to the next (1 cell = 32 elmos, which would be a 63 degree slope). We make them sheer: each
//!   BAR vertex takes the height of the SC2 surface holding most of its bilinear weight among
//!   the four surrounding SC2 vertices, interpolating only among that surface's vertices (within
//!   half a level of each other); a lone odd corner is cut off diagonally, so diagonal cliffs
//!   run diagonally instead of in 32-elmo steps. The jump then happens
//!   between two BAR vertices 8 elmos apart: 64 elmos over 8 is 83 degrees, far past the ~45
//!   degrees any BAR ground unit can climb.
//! - **Ramps.** `t3SyncCliffLevel` marks ramp cells with values between two levels: a ramp cell
//!   of level L and fraction f is meant to be at `level(L) + 2 f`, rising a quarter level a cell.
//!   SC2's heightmap under its ramp and cliff models is lumpy (30-45 degree bits at the sides and
//!   top), so over ramp cells and one cell around them we rebuild the surface: each vertex starts
//!   at its cell's intended height, neighbours are linked where those differ by at most 0.6
//!   units (so a ramp joins the level it starts from and the one it reaches, while its sides
//!   stay sheer walls), and Laplace's equation is solved on the links (Gauss-Seidel with
//!   over-relaxation). That spreads the rise evenly from end to end: Simple64's ramps come out
//!   at 15-20 degrees, under the ~27 degrees BAR's tanks climb.
//! - **Cliff bases.** Under SC2's cliff models the heightmap holds in-between values; SC2
//!   vertices on a cliff edge (a neighbour of another level) more than a quarter unit off their
//!   level's height are put back on it before anything else, so cliffs have no pockets or lips.
//! - **Chasms.** Level-0 ground (and the padding around the playable area, SC2's hard map edge)
//!   becomes a flat floor 8 units (256 elmos) below the lowest land level, SC2's own depth. As a
//!   pit the floor sits 16 elmos above the water line and the land above it; as a sea the land's
//!   lowest level sits at 32 elmos and the floor is deep water.
//! - Land is never put below 4 elmos, so only chasms in sea mode are ever wet.

use crate::map::{ELMOS_PER_SQUARE, Grid, MapSize};

use super::frame::Frame;
use crate::formats::sc2::heights::CliffCell;

/// Two SC2 vertices more than this apart in height (world units) are on different surfaces.
const SURFACE_GAP: f32 = 1.0;
/// Ramp relaxation links neighbours whose intended heights differ by at most this plus 0.1
/// (world units): a ramp cell's quarter-level steps link, half a level at a ramp's side does not.
const RAMP_LINK: f32 = 0.5;
/// A cliff-edge SC2 vertex further than this (world units) from its level's height is put on it.
const CLIFF_BASE_TOLERANCE: f32 = 0.25;
/// Chasm floor depth below the lowest land level, in SC2 world units.
const CHASM_DEPTH_UNITS: f32 = 8.0;
/// A pit's floor height in elmos (dry: above the water line at 0).
const PIT_FLOOR_ELMOS: f32 = 16.0;
/// The lowest land level's height in elmos when the floor is sea or there is no chasm.
const SHORE_ELMOS: f32 = 32.0;
/// No land is put lower than this.
const MIN_LAND_ELMOS: f32 = 4.0;
/// Most Gauss-Seidel sweeps over a ramp region.
const MAX_RELAX_SWEEPS: usize = 4000;

/// What level-0 ground becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Chasm {
    /// A deep dry pit with sheer walls, and a terrain type no unit can cross.
    #[default]
    Pit,
    /// Deep sea.
    Sea,
}

/// The SC2 surface: heights and levels on the vertex grid, levels and ramps on the cell grid.
pub struct Sc2Surface<'a> {
    pub heights: &'a Grid<f32>,
    pub vertex_levels: &'a Grid<u8>,
    pub cells: Option<&'a Grid<CliffCell>>,
}

/// The converted heights and what the report says about them.
#[derive(Clone, Debug)]
pub struct Terrain {
    pub heights_elmos: Grid<f32>,
    /// Vertices that are chasm floor or padding.
    pub chasm: Grid<bool>,
    /// Elmos per SC2 world unit up.
    pub vertical_elmos: f32,
    /// One cliff level in elmos.
    pub level_step_elmos: f32,
    /// SC2 height (world units) put at `land_floor_elmos`.
    pub base_height: f32,
    pub land_floor_elmos: f32,
    pub chasm_floor_elmos: f32,
    pub ramp_vertices: usize,
    pub relax_sweeps: usize,
    /// SC2 vertices on a cliff edge put back at their level's height.
    pub flattened_cliff_bases: usize,
    pub has_chasm: bool,
}

/// The height of an SC2 cliff level in world units (level 1 at 8, each level 2 more).
fn level_height(level: u8) -> f32 {
    8.0 + 2.0 * (level as f32 - 1.0)
}

/// Converts the SC2 surface into BAR vertex heights.
pub fn convert(
    frame: &Frame,
    surface: &Sc2Surface,
    height_scale: f32,
    chasm_mode: Chasm,
) -> Terrain {
    let size: MapSize = frame.size;
    let (vw, vh) = size.height_vertices();
    let vertical = frame.cell_elmos * height_scale;
    let (cleaned, flattened) = flatten_cliff_bases(surface.heights, surface.vertex_levels);
    let sc2 = &cleaned;
    let (sw, sh) = (sc2.width(), sc2.height());

    // 1. Sheer surfaces: every playable BAR vertex takes the SC2 surface that holds most of it.
    let mut h = Grid::filled(vw, vh, 0.0f32);
    let mut chasm = Grid::filled(vw, vh, true);
    let mut min_land_level = u8::MAX;
    let mut land_heights = Vec::new();
    for v in 0..vh {
        for u in 0..vw {
            let (x, z) = (
                (u as u32 * ELMOS_PER_SQUARE) as f32,
                (v as u32 * ELMOS_PER_SQUARE) as f32,
            );
            if !frame.in_playable(x, z) {
                continue;
            }
            let (sx, sy) = frame.to_sc2(x, z);
            let ci = (sx.floor() as i64).clamp(0, sw as i64 - 2).max(0) as usize;
            let cj = (sy.floor() as i64).clamp(0, sh as i64 - 2).max(0) as usize;
            let (fx, fy) = (
                (sx - ci as f32).clamp(0.0, 1.0),
                (sy - cj as f32).clamp(0.0, 1.0),
            );
            let corners = [
                (ci, cj, (1.0 - fx) * (1.0 - fy)),
                (ci + 1, cj, fx * (1.0 - fy)),
                (ci, cj + 1, (1.0 - fx) * fy),
                (ci + 1, cj + 1, fx * fy),
            ];
            let at = |i: usize, j: usize| {
                (
                    sc2.get_clamped(i as i64, j as i64),
                    surface.vertex_levels.get_clamped(i as i64, j as i64),
                )
            };
            // the surface holding most of the point's bilinear weight (chasm corners are one
            // surface, land corners one per height within SURFACE_GAP); ties go to the higher
            // surface, so plateaus keep their edge. Unlike the nearest corner this cuts a lone
            // odd corner off diagonally, so diagonal cliffs are not staircases.
            let c: [(f32, u8, f32); 4] = corners.map(|(i, j, w)| {
                let (hc, lc) = at(i, j);
                (hc, lc, w)
            });
            let same = |a: &(f32, u8, f32), b: &(f32, u8, f32)| {
                (a.1 == 0) == (b.1 == 0) && (a.1 == 0 || (a.0 - b.0).abs() < SURFACE_GAP)
            };
            let weight = |k: usize| {
                c.iter()
                    .filter(|o| same(&c[k], o))
                    .map(|o| o.2)
                    .sum::<f32>()
            };
            let rank = |k: usize| {
                if c[k].1 == 0 {
                    f32::NEG_INFINITY
                } else {
                    c[k].0
                }
            };
            let mut n = 0;
            for k in 1..4 {
                let (wk, wn) = (weight(k), weight(n));
                if wk > wn + 1e-5 || ((wk - wn).abs() <= 1e-5 && rank(k) > rank(n)) {
                    n = k;
                }
            }
            let (hn, ln, _) = c[n];
            if ln == 0 {
                continue; // chasm
            }
            let (mut sum, mut wsum) = (0.0f32, 0.0f32);
            for o in c.iter().filter(|o| same(&c[n], o)) {
                sum += o.2 * o.0;
                wsum += o.2;
            }
            let value = if wsum > 0.0 { sum / wsum } else { hn };
            h.set(u, v, value);
            chasm.set(u, v, false);
            min_land_level = min_land_level.min(ln);
            if land_heights.len() < 4096 {
                land_heights.push(value);
            }
        }
    }

    // 2. Ramps: over ramp cells and one cell around them, a harmonic surface between the ends.
    let (ramp_vertices, relax_sweeps) = match surface.cells {
        Some(cells) => relax_ramps(frame, cells, &mut h, &chasm),
        None => (0, 0),
    };

    // 3. Into elmos.
    let has_chasm = chasm.data().iter().any(|&c| c);
    let base_height = if min_land_level != u8::MAX {
        level_height(min_land_level)
    } else {
        land_heights.sort_by(|a, b| a.total_cmp(b));
        land_heights
            .get(land_heights.len() / 2)
            .copied()
            .unwrap_or(8.0)
    };
    let depth = CHASM_DEPTH_UNITS * vertical;
    let (land_floor, chasm_floor) = match (has_chasm, chasm_mode) {
        (false, _) => (SHORE_ELMOS, SHORE_ELMOS - depth),
        (true, Chasm::Pit) => (PIT_FLOOR_ELMOS + depth, PIT_FLOOR_ELMOS),
        (true, Chasm::Sea) => (SHORE_ELMOS, SHORE_ELMOS - depth),
    };
    for (hv, &c) in h.data_mut().iter_mut().zip(chasm.data()) {
        *hv = if c {
            chasm_floor
        } else {
            (land_floor + (*hv - base_height) * vertical).max(MIN_LAND_ELMOS)
        };
    }
    Terrain {
        heights_elmos: h,
        chasm,
        vertical_elmos: vertical,
        level_step_elmos: 2.0 * vertical,
        base_height,
        land_floor_elmos: land_floor,
        chasm_floor_elmos: chasm_floor,
        ramp_vertices,
        relax_sweeps,
        flattened_cliff_bases: flattened,
        has_chasm,
    }
}

/// SC2 heights with the vertices on a cliff edge (a neighbour of another level) that stray more
/// than [`CLIFF_BASE_TOLERANCE`] from their level's height put back on it: under SC2's cliff
/// models the heightmap holds in-between values that would otherwise leave pockets and lips.
fn flatten_cliff_bases(heights: &Grid<f32>, levels: &Grid<u8>) -> (Grid<f32>, usize) {
    let mut out = heights.clone();
    let (w, h) = heights.dims();
    let mut n = 0;
    for y in 0..h {
        for x in 0..w {
            let l = levels.get_clamped(x as i64, y as i64);
            if l == 0 {
                continue;
            }
            let mut edge = false;
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    edge |= levels.get_clamped(x as i64 + dx, y as i64 + dy) != l;
                }
            }
            let want = level_height(l);
            if edge && (heights.get(x, y) - want).abs() > CLIFF_BASE_TOLERANCE {
                out.set(x, y, want);
                n += 1;
            }
        }
    }
    (out, n)
}

/// The height a cell is meant to have: its level's, plus its share of the rise on a ramp.
fn cell_target(c: CliffCell) -> f32 {
    level_height(c.level) + 2.0 * c.ramp_fraction
}

/// Relaxes the ramps. The region is every non-chasm vertex in or next to a ramp cell; each
/// region vertex gets the target height of the cell it lies on (on a cell edge, the touching
/// cell whose target is nearest its height). Neighbours are linked when their targets (or, for
/// a neighbour outside the region, its height) are within [`RAMP_LINK`] + 0.1 units: so a ramp
/// joins the level it starts from and the level it climbs to, while its sides stay walls.
/// Gauss-Seidel with over-relaxation then solves Laplace's equation on the links, which spreads
/// the rise evenly from end to end. Returns (region vertices, sweeps).
fn relax_ramps(
    frame: &Frame,
    cells: &Grid<CliffCell>,
    h: &mut Grid<f32>,
    chasm: &Grid<bool>,
) -> (usize, usize) {
    let (cw, ch) = cells.dims();
    let mut near_ramp = Grid::filled(cw, ch, false);
    let mut any = false;
    for j in 0..ch {
        for i in 0..cw {
            if cells.get(i, j).is_ramp() {
                any = true;
                for dj in -1i64..=1 {
                    for di in -1i64..=1 {
                        let (a, b) = (i as i64 + di, j as i64 + dj);
                        if a >= 0 && b >= 0 && (a as usize) < cw && (b as usize) < ch {
                            near_ramp.set(a as usize, b as usize, true);
                        }
                    }
                }
            }
        }
    }
    if !any {
        return (0, 0);
    }
    let (w, hh) = h.dims();
    let link = RAMP_LINK + 0.1;
    // each region vertex's target
    let mut target: Vec<Option<f32>> = vec![None; w * hh];
    for v in 0..hh {
        for u in 0..w {
            if chasm.get(u, v) {
                continue;
            }
            let (sx, sy) = frame.to_sc2(
                (u as u32 * ELMOS_PER_SQUARE) as f32,
                (v as u32 * ELMOS_PER_SQUARE) as f32,
            );
            let (i, j) = (sx.floor() as i64, sy.floor() as i64);
            let mut touching = vec![(i, j)];
            let edge_x = (sx - sx.round()).abs() < 1e-4;
            let edge_y = (sy - sy.round()).abs() < 1e-4;
            if edge_x {
                touching.push((i - 1, j));
            }
            if edge_y {
                touching.push((i, j - 1));
            }
            if edge_x && edge_y {
                touching.push((i - 1, j - 1));
            }
            let here = h.get(u, v);
            let mut best: Option<(f32, bool)> = None;
            for (a, b) in touching {
                if a < 0 || b < 0 || a as usize >= cw || b as usize >= ch {
                    continue;
                }
                let c = cells.get(a as usize, b as usize);
                if c.level == 0 {
                    continue;
                }
                let t = cell_target(c);
                let in_region = near_ramp.get(a as usize, b as usize);
                if best.is_none_or(|(bt, _)| (t - here).abs() < (bt - here).abs()) {
                    best = Some((t, in_region));
                }
            }
            if let Some((t, true)) = best {
                target[v * w + u] = Some(t);
            }
        }
    }
    // the links, from targets inside the region and heights outside it
    let mut nodes: Vec<(usize, [usize; 4], usize)> = Vec::new();
    for v in 0..hh {
        for u in 0..w {
            let i = v * w + u;
            let Some(t) = target[i] else { continue };
            let mut links = [0usize; 4];
            let mut n = 0;
            for (du, dv) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                let (a, b) = (u as i64 + du, v as i64 + dv);
                if a < 0 || b < 0 || a as usize >= w || b as usize >= hh {
                    continue;
                }
                let j = b as usize * w + a as usize;
                if chasm.get(a as usize, b as usize) {
                    continue;
                }
                let other = target[j].unwrap_or_else(|| h.get(a as usize, b as usize));
                if (other - t).abs() <= link {
                    links[n] = j;
                    n += 1;
                }
            }
            nodes.push((i, links, n));
        }
    }
    let data = h.data_mut();
    for &(i, _, _) in &nodes {
        if let Some(t) = target[i] {
            data[i] = t;
        }
    }
    const OMEGA: f32 = 1.8;
    for sweep in 1..=MAX_RELAX_SWEEPS {
        let mut change = 0.0f32;
        for &(i, links, n) in &nodes {
            if n == 0 {
                continue;
            }
            let mean = links[..n].iter().map(|&j| data[j]).sum::<f32>() / n as f32;
            let step = OMEGA * (mean - data[i]);
            change = change.max(step.abs());
            data[i] += step;
        }
        if change < 1e-4 {
            return (nodes.len(), sweep);
        }
    }
    (nodes.len(), MAX_RELAX_SWEEPS)
}

/// Slope in degrees of the steepest edge of each square (8 elmos), `(mapx) x (mapy)`.
pub fn square_slopes_deg(heights: &Grid<f32>) -> Grid<f32> {
    let (w, h) = heights.dims();
    let (sw, sh) = (w.saturating_sub(1), h.saturating_sub(1));
    let mut out = Grid::filled(sw, sh, 0.0f32);
    let sq = ELMOS_PER_SQUARE as f32;
    for z in 0..sh {
        for x in 0..sw {
            let a = heights.get(x, z);
            let b = heights.get(x + 1, z);
            let c = heights.get(x, z + 1);
            let d = heights.get(x + 1, z + 1);
            let rise = (b - a)
                .abs()
                .max((d - c).abs())
                .max((c - a).abs())
                .max((d - b).abs());
            out.set(x, z, (rise / sq).atan().to_degrees());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::sc2::map_info::Bounds;

    /// A 16 x 16 cell map: level 2 in the west, level 3 in the east (x >= 8), a ramp in rows
    /// 6..10 rising unevenly from x = 4 to x = 10 (18 degrees on average, 37 at its steepest),
    /// with SC2-like ramp cells (fraction 1/8 .. 6/8) from x = 4 to 9.
    fn plateau_and_ramp() -> (Grid<f32>, Grid<u8>, Grid<CliffCell>) {
        let n = 16;
        let mut hts = Grid::filled(n + 1, n + 1, 10.0f32);
        let mut lv = Grid::filled(n + 1, n + 1, 2u8);
        let mut cells = Grid::filled(
            n,
            n,
            CliffCell {
                level: 2,
                ramp_fraction: 0.0,
            },
        );
        for j in 0..=n {
            for i in 0..=n {
                if i >= 8 {
                    hts.set(i, j, 12.0);
                    lv.set(i, j, 3);
                }
                if (6..=10).contains(&j) && (4..=10).contains(&i) {
                    let t = [0.0, 0.25, 0.5, 0.75, 1.5, 1.75, 2.0][i - 4];
                    hts.set(i, j, 10.0 + t);
                    lv.set(i, j, 2);
                }
            }
        }
        for j in 0..n {
            for i in 8..n {
                cells.set(
                    i,
                    j,
                    CliffCell {
                        level: 3,
                        ramp_fraction: 0.0,
                    },
                );
            }
        }
        for j in 6..10 {
            for i in 4..10 {
                let f = (i - 3) as f32 / 8.0;
                cells.set(
                    i,
                    j,
                    CliffCell {
                        level: 2,
                        ramp_fraction: f,
                    },
                );
            }
            cells.set(
                10,
                j,
                CliffCell {
                    level: 3,
                    ramp_fraction: 0.0,
                },
            );
        }
        (hts, lv, cells)
    }

    #[test]
    fn cliffs_are_sheer_and_ramps_gentle() {
        let (hts, lv, cells) = plateau_and_ramp();
        let b = Bounds {
            left: 0,
            bottom: 0,
            right: 16,
            top: 16,
        };
        let frame = Frame::new(b, 64).unwrap(); // 1024 elmos: 2 x 2 units, no padding
        let s = Sc2Surface {
            heights: &hts,
            vertex_levels: &lv,
            cells: Some(&cells),
        };
        let t = convert(&frame, &s, 1.0, Chasm::Pit);
        assert!(!t.has_chasm);
        let slopes = square_slopes_deg(&t.heights_elmos);
        // along the cliff (row at SC2 y = 2, far from the ramp) the steepest square is sheer
        let z = ((16.0 - 2.0) * 64.0 / 8.0) as usize;
        let cliff = (0..slopes.width())
            .map(|x| slopes.get(x, z))
            .fold(0.0f32, f32::max);
        assert!(cliff > 80.0, "cliff {cliff}");
        // through the middle of the ramp (SC2 y = 8) no square is steeper than 20 degrees
        let z = ((16.0 - 8.0) * 64.0 / 8.0) as usize;
        let ramp = (0..slopes.width())
            .map(|x| slopes.get(x, z))
            .fold(0.0f32, f32::max);
        assert!(ramp < 20.0, "ramp {ramp}");
        // the lower and upper plateaus are one level apart
        let lo = t.heights_elmos.get(8, 16);
        let hi = t.heights_elmos.get(120, 16);
        assert!((hi - lo - 2.0 * 64.0).abs() < 0.5, "{lo} {hi}");
    }

    #[test]
    fn level_zero_becomes_a_pit_or_a_sea() {
        let (mut hts, mut lv, _) = plateau_and_ramp();
        for j in 0..4 {
            for i in 0..=16 {
                hts.set(i, j, 0.0);
                lv.set(i, j, 0);
            }
        }
        let b = Bounds {
            left: 0,
            bottom: 0,
            right: 16,
            top: 16,
        };
        let frame = Frame::new(b, 32).unwrap(); // 512 elmos: padded to 2 x 2 units
        let s = Sc2Surface {
            heights: &hts,
            vertex_levels: &lv,
            cells: None,
        };
        let pit = convert(&frame, &s, 1.0, Chasm::Pit);
        assert!(pit.has_chasm);
        let (lo, _) = pit.heights_elmos.min_max();
        assert_eq!(lo, PIT_FLOOR_ELMOS);
        assert!(pit.land_floor_elmos - pit.chasm_floor_elmos >= 256.0);
        let sea = convert(&frame, &s, 1.0, Chasm::Sea);
        let (lo, _) = sea.heights_elmos.min_max();
        assert!(lo < -200.0);
        // padding is chasm too
        assert!(sea.chasm.get(0, 0));
    }
}
