//! Mineral lines to BAR metal spots.
//!
//! - **Lines.** Mineral patches closer than [`LINE_LINK_CELLS`] to another patch of the line are
//!   one line (single linkage): patches in a line sit 1 to 2 cells apart, bases 10 or more.
//! - **How many spots.** Half a spot per patch, 2 to 4 per line, fewer when the line is too short
//!   to hold them [`MIN_SPOT_SPACING_ELMOS`] (144) apart: the extractor radius (90) plus a dome's
//!   reach (45) and a little, so one extractor never takes metal from the next spot and every
//!   spot yields exactly the standard amount. Simple64's 8-patch lines give 3 each.
//! - **Where.** The patches are moved one cell towards the line's hub (the nearest start
//!   location, else the centre of a circle fitted through the patches), off the back edge of the
//!   base, and put in order around it (along the line's main axis when there is no hub); the
//!   spots spread at equal distances along that path from its first patch to its last and are
//!   snapped to metal cell centres, where a BAR extractor's footprint centres.
//! - **Yield.** Each spot is the project's smooth dome (`map::metal::paint_dome`,
//!   `peak * (1 - (d / R)^2)^2`) with R = 3 metal cells (48 elmos), so it lies well inside the extractor radius (90 elmos, BAR's map template).
//!   `max_metal` is chosen so a standard spot (peak byte [`STANDARD_PEAK`]) gives
//!   [`STANDARD_SPOT_METAL_PER_S`] metal a second to a T1 extractor (`extractsMetal` 0.001); a
//!   line of mostly rich patches gets peak [`RICH_PEAK`], twice that. Where two domes would
//!   touch, the dimmer cells at the seam are cleared (`map::metal::paint_domes_apart`), so a
//!   ring of zeros keeps them two spots in BAR's finder.

pub use crate::map::metal::T1_EXTRACTS_METAL;
use crate::map::metal::{Dome, METAL_CELL_ELMOS, extractor_income, paint_domes_apart};
use crate::map::{Grid, MapSize};

/// Patches closer than this (cells) belong to one line.
pub const LINE_LINK_CELLS: f32 = 3.5;
/// Spots in a line are at least this far apart (elmos).
const MIN_SPOT_SPACING_ELMOS: f32 = 144.0;
/// The dome radius in metal cells (16 elmos each).
pub const SPOT_RADIUS_CELLS: f32 = 3.0;
const STANDARD_PEAK: u8 = 128;
const RICH_PEAK: u8 = 255;
/// What a standard spot yields to a T1 extractor, metal per second.
pub const STANDARD_SPOT_METAL_PER_S: f32 = 2.0;
pub use crate::map::bar::EXTRACTOR_RADIUS_ELMOS;

/// A mineral patch in elmos.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Patch {
    pub x_elmos: f32,
    pub z_elmos: f32,
    pub rich: bool,
}

/// A metal spot centre in elmos.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spot {
    pub x_elmos: f32,
    pub z_elmos: f32,
    pub rich: bool,
}

/// One mineral line and the spots made of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub patches: usize,
    pub rich: bool,
    pub spots: Vec<Spot>,
    /// How the patch order was found: "start location", "fitted circle" or "main axis".
    pub hub: &'static str,
}

/// Groups patches into lines (single linkage at `link_elmos`).
pub fn group_lines(patches: &[Patch], link_elmos: f32) -> Vec<Vec<Patch>> {
    let n = patches.len();
    let mut group: Vec<usize> = (0..n).collect();
    fn root(g: &mut [usize], mut i: usize) -> usize {
        while g[i] != i {
            g[i] = g[g[i]];
            i = g[i];
        }
        i
    }
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (patches[i], patches[j]);
            if (a.x_elmos - b.x_elmos).hypot(a.z_elmos - b.z_elmos) < link_elmos {
                let (ri, rj) = (root(&mut group, i), root(&mut group, j));
                group[ri.max(rj)] = ri.min(rj);
            }
        }
    }
    let mut lines: Vec<Vec<Patch>> = Vec::new();
    let mut index_of = std::collections::BTreeMap::new();
    for (i, &p) in patches.iter().enumerate() {
        let r = root(&mut group, i);
        let k = *index_of.entry(r).or_insert_with(|| {
            lines.push(Vec::new());
            lines.len() - 1
        });
        lines[k].push(p);
    }
    lines
}

/// The centre of the least-squares circle through the points, when there is a sensible one.
fn fit_circle(pts: &[(f32, f32)]) -> Option<(f32, f32, f32)> {
    if pts.len() < 3 {
        return None;
    }
    let n = pts.len() as f64;
    let (mx, my) = pts
        .iter()
        .fold((0.0, 0.0), |(a, b), p| (a + p.0 as f64, b + p.1 as f64));
    let (mx, my) = (mx / n, my / n);
    let (mut suu, mut svv, mut suv, mut suuu, mut svvv, mut suvv, mut svuu) =
        (0.0f64, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for p in pts {
        let (u, v) = (p.0 as f64 - mx, p.1 as f64 - my);
        suu += u * u;
        svv += v * v;
        suv += u * v;
        suuu += u * u * u;
        svvv += v * v * v;
        suvv += u * v * v;
        svuu += v * u * u;
    }
    let det = suu * svv - suv * suv;
    if det.abs() < 1e-9 * (suu + svv).powi(2).max(1e-12) {
        return None;
    }
    let (b1, b2) = (0.5 * (suuu + suvv), 0.5 * (svvv + svuu));
    let uc = (b1 * svv - b2 * suv) / det;
    let vc = (suu * b2 - suv * b1) / det;
    let r = (uc * uc + vc * vc + (suu + svv) / n).sqrt();
    Some(((uc + mx) as f32, (vc + my) as f32, r as f32))
}

/// Makes the spots of one line. `starts` are start positions in elmos; `cell_elmos` the scale.
pub fn spots_for_line(line: &[Patch], starts: &[(f32, f32)], cell_elmos: f32) -> Line {
    let n = line.len();
    let rich = line.iter().filter(|p| p.rich).count() * 2 > n;
    let pts: Vec<(f32, f32)> = line.iter().map(|p| (p.x_elmos, p.z_elmos)).collect();
    let (cx, cz) = pts.iter().fold((0.0, 0.0), |(a, b), p| (a + p.0, b + p.1));
    let (cx, cz) = (cx / n as f32, cz / n as f32);
    // the hub the patches wrap around
    let near_start = starts
        .iter()
        .map(|&(x, z)| ((x, z), (x - cx).hypot(z - cz)))
        .filter(|&(_, d)| d < 12.0 * cell_elmos)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(p, _)| p);
    let circle =
        fit_circle(&pts).filter(|&(_, _, r)| r > 3.0 * cell_elmos && r < 15.0 * cell_elmos);
    let (hub, how) = match (near_start, circle) {
        (Some(p), _) => (Some(p), "start location"),
        (None, Some((x, z, _))) => (Some((x, z)), "fitted circle"),
        _ => (None, "main axis"),
    };
    // one cell towards the hub, off the back edge of the base
    let shifted: Vec<(f32, f32)> = pts
        .iter()
        .map(|&(x, z)| match hub {
            Some((hx, hz)) => {
                let (dx, dz) = (hx - x, hz - z);
                let d = dx.hypot(dz);
                if d > 2.0 * cell_elmos {
                    (x + dx / d * cell_elmos, z + dz / d * cell_elmos)
                } else {
                    (x, z)
                }
            }
            None => (x, z),
        })
        .collect();
    // order the patches along the line
    let mut ordered = shifted;
    match hub {
        Some((hx, hz)) => {
            let mean = (cz - hz).atan2(cx - hx);
            let angle = |p: &(f32, f32)| {
                let a = (p.1 - hz).atan2(p.0 - hx) - mean;
                (a + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI
            };
            ordered.sort_by(|a, b| angle(a).total_cmp(&angle(b)));
        }
        None => {
            let (mut sxx, mut szz, mut sxz) = (0.0f32, 0.0, 0.0);
            for p in &pts {
                let (dx, dz) = (p.0 - cx, p.1 - cz);
                sxx += dx * dx;
                szz += dz * dz;
                sxz += dx * dz;
            }
            let theta = 0.5 * (2.0 * sxz).atan2(sxx - szz);
            let (ax, az) = (theta.cos(), theta.sin());
            ordered.sort_by(|a, b| (a.0 * ax + a.1 * az).total_cmp(&(b.0 * ax + b.1 * az)));
        }
    }
    // arc length along the ordered patches
    let mut cum = vec![0.0f32];
    for w in ordered.windows(2) {
        let l = cum[cum.len() - 1] + (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1);
        cum.push(l);
    }
    let length = cum[cum.len() - 1];
    let wanted = n.div_ceil(2).clamp(2, 4);
    let fit = (length / MIN_SPOT_SPACING_ELMOS).floor() as usize + 1;
    let k = wanted.min(fit).max(2);
    let point_at = |s: f32| -> (f32, f32) {
        let i = cum
            .partition_point(|&c| c < s)
            .clamp(1, ordered.len().max(2) - 1);
        if ordered.len() == 1 {
            return ordered[0];
        }
        let (a, b) = (ordered[i - 1], ordered[i]);
        let seg = (cum[i] - cum[i - 1]).max(1e-6);
        let t = ((s - cum[i - 1]) / seg).clamp(0.0, 1.0);
        (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
    };
    let mut spots: Vec<(f32, f32)> = (0..k)
        .map(|i| point_at(length * i as f32 / (k - 1) as f32))
        .collect();
    // two spots too close together (a short line): push them apart along their axis
    if k == 2 {
        let (a, b) = (spots[0], spots[1]);
        let d = (b.0 - a.0).hypot(b.1 - a.1);
        if d < MIN_SPOT_SPACING_ELMOS {
            let (mx, mz) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let (ux, uz) = if d > 1e-3 {
                ((b.0 - a.0) / d, (b.1 - a.1) / d)
            } else {
                // one patch, or all on one spot: spread across the hub direction
                match hub {
                    Some((hx, hz)) => {
                        let (dx, dz) = (mx - hx, mz - hz);
                        let l = dx.hypot(dz).max(1e-3);
                        (-dz / l, dx / l)
                    }
                    None => (1.0, 0.0),
                }
            };
            let half = MIN_SPOT_SPACING_ELMOS / 2.0;
            spots = vec![
                (mx - ux * half, mz - uz * half),
                (mx + ux * half, mz + uz * half),
            ];
        }
    }
    let spots = spots
        .into_iter()
        .map(|(x, z)| {
            let snap =
                |v: f32| (v / METAL_CELL_ELMOS).floor() * METAL_CELL_ELMOS + METAL_CELL_ELMOS / 2.0;
            Spot {
                x_elmos: snap(x),
                z_elmos: snap(z),
                rich,
            }
        })
        .collect();
    Line {
        patches: n,
        rich,
        spots,
        hub: how,
    }
}

/// The dome's radius in elmos.
const SPOT_RADIUS_ELMOS: f32 = SPOT_RADIUS_CELLS * METAL_CELL_ELMOS;

/// The sum of a dome's bytes as a metal grid holds it (centred on a cell).
pub fn dome_byte_sum(peak: u8) -> u32 {
    crate::map::metal::dome_byte_sum(SPOT_RADIUS_ELMOS, peak as f32) as u32
}

/// `max_metal` that makes a standard spot yield [`STANDARD_SPOT_METAL_PER_S`].
pub fn max_metal() -> f32 {
    STANDARD_SPOT_METAL_PER_S / (T1_EXTRACTS_METAL * dome_byte_sum(STANDARD_PEAK) as f32)
}

/// Paints the spots' domes into a metal map with the project's one dome painter, a ring of
/// zero cells kept between domes so BAR's spot finder sees each as its own spot.
pub fn paint(size: MapSize, spots: &[Spot]) -> Grid<u8> {
    let (w, h) = size.metal_cells();
    let mut g = Grid::filled(w, h, 0u8);
    let domes: Vec<Dome> = spots
        .iter()
        .map(|s| Dome {
            x_elmos: s.x_elmos,
            z_elmos: s.z_elmos,
            radius_elmos: SPOT_RADIUS_ELMOS,
            peak: if s.rich { RICH_PEAK } else { STANDARD_PEAK } as f32,
        })
        .collect();
    paint_domes_apart(&mut g, &domes);
    g
}

/// Metal per second a T1 extractor at (x, z) gets from `metal` (bytes x `max_metal`), counting
/// the cells whose centres lie within the extractor radius.
pub fn yield_at(metal: &Grid<u8>, max_metal: f32, x_elmos: f32, z_elmos: f32) -> f32 {
    extractor_income(
        metal,
        max_metal,
        EXTRACTOR_RADIUS_ELMOS,
        x_elmos,
        z_elmos,
        T1_EXTRACTS_METAL,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spots_of_neighbouring_lines_stay_apart_in_bars_finder() {
        // two spots 80 elmos apart (domes of radius 48): painted on their own their rims
        // touch and BAR would see one spot
        let size = MapSize::new(2, 2).unwrap();
        let spot = |x: f32| Spot {
            x_elmos: x,
            z_elmos: 200.5,
            rich: false,
        };
        let g = paint(size, &[spot(200.5), spot(280.5)]);
        let spots = crate::map::metal::bar_spots(&g, 1.0, 90.0);
        assert_eq!(spots.len(), 2, "{spots:?}");
        assert!(spots.iter().all(|p| p.domes == 1));
    }

    fn arc(cx: f32, cz: f32, r: f32, n: usize, rich: bool) -> Vec<Patch> {
        (0..n)
            .map(|i| {
                let a = 0.3 + 1.4 * i as f32 / (n - 1) as f32;
                Patch {
                    x_elmos: cx + r * a.cos(),
                    z_elmos: cz + r * a.sin(),
                    rich,
                }
            })
            .collect()
    }

    #[test]
    fn two_bases_make_two_lines_of_spaced_spots() {
        let mut p = arc(1000.0, 1000.0, 384.0, 8, false);
        p.extend(arc(3000.0, 3000.0, 224.0, 8, true));
        let lines = group_lines(&p, LINE_LINK_CELLS * 32.0);
        assert_eq!(lines.len(), 2);
        for l in &lines {
            let line = spots_for_line(l, &[(1000.0, 1000.0)], 32.0);
            assert!((2..=4).contains(&line.spots.len()), "{line:?}");
            for (i, a) in line.spots.iter().enumerate() {
                for b in &line.spots[i + 1..] {
                    let d = (a.x_elmos - b.x_elmos).hypot(a.z_elmos - b.z_elmos);
                    assert!(d >= MIN_SPOT_SPACING_ELMOS - 23.0, "{d}");
                }
            }
        }
        let first = spots_for_line(&lines[0], &[(1000.0, 1000.0)], 32.0);
        assert_eq!(first.hub, "start location");
        assert_eq!(first.spots.len(), 4);
        let second = spots_for_line(&lines[1], &[], 32.0);
        assert_eq!(second.hub, "fitted circle");
        assert!(second.rich);
    }

    #[test]
    fn a_standard_spot_yields_the_standard_amount_and_rich_about_twice() {
        let mm = max_metal();
        assert!((0.9..4.2).contains(&mm), "max metal {mm}");
        let size = MapSize::new(2, 2).unwrap();
        let s = Spot {
            x_elmos: 504.0,
            z_elmos: 504.0,
            rich: false,
        };
        let g = paint(size, &[s]);
        let y = yield_at(&g, mm, s.x_elmos, s.z_elmos);
        assert!((y - STANDARD_SPOT_METAL_PER_S).abs() < 0.01, "{y}");
        let g = paint(size, &[Spot { rich: true, ..s }]);
        let y = yield_at(&g, mm, s.x_elmos, s.z_elmos);
        assert!((y / STANDARD_SPOT_METAL_PER_S - 2.0).abs() < 0.05, "{y}");
    }

    #[test]
    fn a_lone_patch_still_gives_two_spots_apart() {
        let p = [Patch {
            x_elmos: 300.0,
            z_elmos: 300.0,
            rich: false,
        }];
        let l = spots_for_line(&p, &[], 32.0);
        assert_eq!(l.spots.len(), 2);
        let (a, b) = (l.spots[0], l.spots[1]);
        assert!(
            (a.x_elmos - b.x_elmos).hypot(a.z_elmos - b.z_elmos) >= MIN_SPOT_SPACING_ELMOS - 23.0
        );
    }
}
