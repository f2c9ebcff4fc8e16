//! The height field: Warzone corner heights resampled onto the Spring vertex grid, cliff tiles
//! made too steep to climb, water dug below y = 0 and dry land lifted clear of it.
//!
//! * Scale: heights are multiplied by the same factor as distances (`tile_elmos / 128`), then by
//!   the user's height scale. The outermost ring of Warzone vertices is 0, as the game plays it,
//!   and the padding repeats that flattened edge.
//! * Cliffs (type 8): inside each cliff tile the bilinear ramp is squeezed into a band so its
//!   gradient reaches [`CLIFF_GRADIENT`] (1 - normal.y = [`CLIFF_SLOPE`]), never narrower than
//!   [`CLIFF_MIN_BAND_ELMOS`]. Where a cliff tile's own drop is too small for that (decorative or
//!   maze-wall cliffs on flat ground), the cliff region is raised into a ridge whose walls reach
//!   the same gradient (55 elmos over 24). 0.6 is well above the steepest slope any BAR ground unit but spiders
//!   climbs (bots: maxSlope 36 degrees, 1 - cos(54 degrees) = 0.41), with margin for the engine
//!   averaging normals over 16-elmo cells.
//! * Water (type 7): a vertex is sea when every tile touching it is water (as the game decides
//!   its riverbed). Sea vertices fall from the coast to [`SEA_DEPTH_ELMOS`] below 0 over 0.6 of
//!   a tile; land is lifted by the game's own water offset (a third of a tile, 21.3 elmos at 64
//!   elmos per tile), faded to nothing over one tile from the coast, so beaches stay gentle.
//!   48 elmos is deeper than any BAR land unit wades (tanks and bots 22-30), so as in Warzone
//!   only hovers (and BAR's ships and amphibians) cross water.

use rayon::prelude::*;

use super::distance::distance_to;
use super::layout::Layout;
use crate::formats::wz2100::map_file::GameMap;
use crate::formats::wz2100::ttypes::{TER_CLIFFFACE, TER_WATER};
use crate::map::{ELMOS_PER_SQUARE, Grid};

/// How deep the open sea is, in elmos below y = 0.
pub const SEA_DEPTH_ELMOS: f32 = 48.0;
/// The slope (1 - normal.y) cliff faces reach at least.
pub const CLIFF_SLOPE: f32 = 0.6;
/// The same as a gradient (rise over run): tan(acos(1 - CLIFF_SLOPE)).
const CLIFF_GRADIENT: f32 = 2.291_288;
/// The narrowest band a cliff face is squeezed into, so the engine's 16-elmo slope cells see it.
const CLIFF_MIN_BAND_ELMOS: f32 = 24.0;
pub use crate::map::bar::{
    BOT_MAX_SLOPE as BAR_BOT_MAX_SLOPE, TANK_MAX_SLOPE as BAR_TANK_MAX_SLOPE,
};

/// What the height conversion did, for the report.
#[derive(Clone, Debug, Default)]
pub struct TerrainStats {
    pub height_factor: f32,
    pub lift_elmos: f32,
    pub sea_vertices: usize,
    pub cliff_tiles: usize,
    /// Cliff tiles whose own drop was steepened (squeezed into a band).
    pub steepened_tiles: usize,
    /// Cliff tiles that needed raising into a ridge, and the tallest raise.
    pub ridged_tiles: usize,
    pub max_ridge_elmos: f32,
    pub water_tiles: usize,
    /// Water tiles whose corners average more than half a tile above Warzone's zero.
    pub elevated_water_tiles: usize,
    pub highest_water_world: u16,
}

/// Builds the height grid for `layout` from the map and the terrain type of every tile.
pub fn build_heights(
    map: &GameMap,
    tile_types: &[u8],
    layout: &Layout,
    height_scale: f32,
) -> (Grid<f32>, TerrainStats) {
    let (w, h) = (map.width as usize, map.height as usize);
    let te = layout.tile_elmos as f32;
    let factor = (layout.elmos_per_world_unit() as f32) * height_scale;
    let lift = (te / 3.0 * height_scale).max(ELMOS_PER_SQUARE as f32);
    let mut stats = TerrainStats {
        height_factor: factor,
        lift_elmos: lift,
        ..TerrainStats::default()
    };

    // Warzone vertex heights in elmos, (w + 1) x (h + 1), edge ring at 0.
    let (vw, vh) = (w + 1, h + 1);
    let mut corner = vec![0f32; vw * vh];
    for y in 0..vh {
        for x in 0..vw {
            corner[y * vw + x] = map.vertex_height(x as u32, y as u32) as f32 * factor;
        }
    }

    // Per cliff tile: how far it needs raising to reach the cliff gradient within the band.
    let band = CLIFF_MIN_BAND_ELMOS.min(te);
    let need = CLIFF_GRADIENT * band;
    let mut ridge = vec![0f32; w * h];
    for ty in 0..h {
        for tx in 0..w {
            let t = tile_types[ty * w + tx];
            if t == TER_WATER {
                stats.water_tiles += 1;
                let hs = [(tx, ty), (tx + 1, ty), (tx, ty + 1), (tx + 1, ty + 1)]
                    .map(|(x, y)| map.vertex_height(x as u32, y as u32));
                let avg = hs.iter().map(|&v| v as u32).sum::<u32>() / 4;
                if avg > 64 {
                    stats.elevated_water_tiles += 1;
                }
                stats.highest_water_world = stats
                    .highest_water_world
                    .max(map.tile(tx as u32, ty as u32).height);
            }
            if t != TER_CLIFFFACE {
                continue;
            }
            stats.cliff_tiles += 1;
            let (lo, hi) = corners_lo_hi(&corner, vw, tx, ty);
            let drop = hi - lo;
            if drop < CLIFF_GRADIENT * te && drop > 0.0 {
                stats.steepened_tiles += 1;
            }
            // A ridge's walls rise its full height over the band on both sides, whatever the
            // drop across it, so a cliff too flat to block on its own gets the full height.
            if drop < need {
                ridge[ty * w + tx] = need;
                stats.ridged_tiles += 1;
                stats.max_ridge_elmos = need;
            }
        }
    }

    let (gw, gh) = layout.size.height_vertices();
    let sq = ELMOS_PER_SQUARE as i64;
    let mut heights = vec![0f32; gw * gh];
    let mut sea = vec![false; gw * gh];
    let mut cliff = vec![false; gw * gh];
    heights
        .par_chunks_mut(gw)
        .zip(sea.par_chunks_mut(gw))
        .zip(cliff.par_chunks_mut(gw))
        .enumerate()
        .for_each(|(j, ((hrow, srow), crow))| {
            let z = j as i64 * sq;
            for i in 0..gw {
                let x = i as i64 * sq;
                let u = ((x - layout.offset_x_elmos) as f32 / te).clamp(0.0, w as f32);
                let v = ((z - layout.offset_z_elmos) as f32 / te).clamp(0.0, h as f32);
                let tx = (u.floor() as usize).min(w - 1);
                let ty = (v.floor() as usize).min(h - 1);
                let (fu, fv) = (u - tx as f32, v - ty as f32);
                let c = |dx: usize, dy: usize| corner[(ty + dy) * vw + tx + dx];
                let top = c(0, 0) + (c(1, 0) - c(0, 0)) * fu;
                let bottom = c(0, 1) + (c(1, 1) - c(0, 1)) * fu;
                let mut hgt = top + (bottom - top) * fv;
                let inside = layout.inside(x, z);
                if inside && tile_types[ty * w + tx] == TER_CLIFFFACE {
                    let (lo, hi) = corners_lo_hi(&corner, vw, tx, ty);
                    let drop = hi - lo;
                    if drop > 1e-3 {
                        let frac = (drop / (CLIFF_GRADIENT * te)).clamp(band / te, 1.0);
                        let t = ((hgt - lo) / drop - 0.5) / frac + 0.5;
                        hgt = lo + drop * t.clamp(0.0, 1.0);
                    }
                }
                hrow[i] = hgt;
                let (tiles, n) = layout.tiles_touching(x, z);
                let all = |ty_: u8| {
                    tiles[..n]
                        .iter()
                        .all(|&(a, b)| tile_types[b as usize * w + a as usize] == ty_)
                };
                srow[i] = all(TER_WATER);
                crow[i] = inside && all(TER_CLIFFFACE);
            }
        });

    // Ridges on cliffs too flat to block on their own.
    if stats.ridged_tiles > 0 {
        let not_cliff: Vec<bool> = cliff.iter().map(|&c| !c).collect();
        let d = distance_to(&not_cliff, gw, gh);
        heights.par_chunks_mut(gw).enumerate().for_each(|(j, row)| {
            for (i, hv) in row.iter_mut().enumerate() {
                let k = j * gw + i;
                if !cliff[k] {
                    continue;
                }
                let (tx, ty) = layout.tile_at(i as i64 * sq, j as i64 * sq);
                let r = ridge[ty as usize * w + tx as usize];
                if r > 0.0 {
                    *hv += r * smoothstep(0.0, band, d[k] * ELMOS_PER_SQUARE as f32);
                }
            }
        });
    }

    // Sea and lifted land.
    stats.sea_vertices = sea.iter().filter(|&&s| s).count();
    if stats.sea_vertices == 0 {
        heights.par_iter_mut().for_each(|h| *h += lift);
    } else {
        let to_water = distance_to(&sea, gw, gh);
        let land: Vec<bool> = sea.iter().map(|&s| !s).collect();
        let to_land = distance_to(&land, gw, gh);
        let shore = 0.6 * te;
        let sqf = ELMOS_PER_SQUARE as f32;
        heights.par_iter_mut().enumerate().for_each(|(k, hv)| {
            if sea[k] {
                let t = smoothstep(0.0, shore, to_land[k] * sqf);
                *hv = *hv * (1.0 - t) - SEA_DEPTH_ELMOS * t;
            } else {
                let d = (to_water[k] * sqf - sqf).max(0.0);
                *hv += lift * smoothstep(0.0, te, d);
            }
        });
    }
    let grid = Grid::from_vec(gw, gh, heights).unwrap_or_else(|| Grid::filled(gw, gh, 0.0));
    (grid, stats)
}

fn corners_lo_hi(corner: &[f32], vw: usize, tx: usize, ty: usize) -> (f32, f32) {
    let c = [
        corner[ty * vw + tx],
        corner[ty * vw + tx + 1],
        corner[(ty + 1) * vw + tx],
        corner[(ty + 1) * vw + tx + 1],
    ];
    (
        c.iter().copied().fold(f32::INFINITY, f32::min),
        c.iter().copied().fold(f32::NEG_INFINITY, f32::max),
    )
}

pub fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The slope (1 - normal.y) of the 16-elmo cell (cx, cz) the way the engine's slope map sees
/// it: the plane through the cell's corner heights.
pub fn cell_slope(h: &Grid<f32>, cx: usize, cz: usize) -> f32 {
    let (x0, z0) = (cx * 2, cz * 2);
    let (x2, z2) = ((x0 + 2).min(h.width() - 1), (z0 + 2).min(h.height() - 1));
    let span = 2.0 * 16.0;
    let gx = ((h.get(x2, z0) + h.get(x2, z2)) - (h.get(x0, z0) + h.get(x0, z2))) / span;
    let gz = ((h.get(x0, z2) + h.get(x2, z2)) - (h.get(x0, z0) + h.get(x2, z0))) / span;
    1.0 - 1.0 / (1.0 + gx * gx + gz * gz).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::wz2100::map_file::MapTile;

    /// An 8x8 map, a 4-tile-wide plateau step from height `lo` to `hi` world units at column 4,
    /// with column 3 a cliff tile, and optionally column 7 water.
    fn step_map(lo: u16, hi: u16, water: bool) -> (GameMap, Vec<u8>) {
        let (w, h) = (8u32, 8u32);
        let tiles = (0..w * h)
            .map(|i| MapTile {
                texture: 0,
                height: if i % w >= 4 { hi } else { lo },
            })
            .collect();
        let types = (0..w * h)
            .map(|i| match i % w {
                3 => TER_CLIFFFACE,
                6 | 7 if water => TER_WATER,
                _ => 0,
            })
            .collect();
        (
            GameMap {
                version: 10,
                width: w,
                height: h,
                tiles,
                gateways: vec![],
                trailing_bytes: 0,
            },
            types,
        )
    }

    fn max_cliff_slope(g: &Grid<f32>, layout: &Layout) -> f32 {
        // cells inside tile column 3, rows 2..6
        let cells_per_tile = layout.tile_elmos as usize / 16;
        let x0 = (layout.offset_x_elmos as usize + 3 * layout.tile_elmos as usize) / 16;
        let z0 = (layout.offset_z_elmos as usize + 2 * layout.tile_elmos as usize) / 16;
        let mut m = 0f32;
        for cz in z0..z0 + 4 * cells_per_tile {
            let mut row_max = 0f32;
            for cx in x0..x0 + cells_per_tile {
                row_max = row_max.max(cell_slope(g, cx, cz));
            }
            // every row crossing the cliff must meet a steep cell
            assert!(row_max > BAR_BOT_MAX_SLOPE, "row {cz}: {row_max}");
            m = m.max(row_max);
        }
        m
    }

    #[test]
    fn cliffs_block_bots_both_tall_and_flat() {
        let layout = Layout::new(8, 8, 64).unwrap();
        for (lo, hi) in [(100u16, 300u16), (100, 140), (100, 100)] {
            let (m, types) = step_map(lo, hi, false);
            let (g, stats) = build_heights(&m, &types, &layout, 1.0);
            assert_eq!(stats.cliff_tiles, 8);
            let s = max_cliff_slope(&g, &layout);
            assert!(s >= CLIFF_SLOPE * 0.9, "{lo}->{hi}: {s}");
        }
    }

    #[test]
    fn water_is_below_zero_and_land_above() {
        let layout = Layout::new(8, 8, 64).unwrap();
        let (m, types) = step_map(0, 0, true);
        let (g, stats) = build_heights(&m, &types, &layout, 1.0);
        assert!(stats.sea_vertices > 0);
        let off = layout.offset_x_elmos as usize / 8;
        let mid_z = g.height() / 2;
        // deep inside the two water columns (tile 6.5 from the west edge of the map)
        let deep = g.get(off + 6 * 8 + 8, mid_z);
        assert!((deep + SEA_DEPTH_ELMOS).abs() < 1.0, "{deep}");
        // land far from water is lifted by a third of a tile
        let land = g.get(off + 8, mid_z);
        assert!((land - 64.0 / 3.0).abs() < 0.5, "{land}");
        // every land vertex stays >= 0, every interior sea vertex < 0
        for z in 0..g.height() {
            for x in 0..g.width() {
                assert!(g.get(x, z) > -SEA_DEPTH_ELMOS - 0.01);
            }
        }
    }

    #[test]
    fn no_water_lifts_everything() {
        let layout = Layout::new(8, 8, 64).unwrap();
        let (m, mut types) = step_map(50, 50, false);
        types.iter_mut().for_each(|t| *t = 0);
        let (g, _) = build_heights(&m, &types, &layout, 2.0);
        let (lo, hi) = g.min_max();
        assert!(lo > 0.0, "{lo}");
        // 50 world units x 0.5 x 2 + lift
        assert!((hi - (50.0 + 64.0 / 3.0 * 2.0)).abs() < 0.01, "{hi}");
    }
}
