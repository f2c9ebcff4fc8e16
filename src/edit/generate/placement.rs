//! The generator's placement steps on the finished ground: a fair metal layout (a base ring,
//! expansions and contested spots per start, chosen in the symmetry's first copy and copied to
//! the others) and geothermal vents; and the income each team can reach.
//!
//! A spot is only placed where it and every copy of it stand on land, on ground a building can
//! stand on (BAR's build slope, under the extractor's footprint), inside the ring BAR's spot finder
//! scans, and at least 2 x extractorRadius + one metal cell from every other spot, so no two
//! extractors share metal.

use crate::edit::symmetry::Isometry;
use crate::map::bar::{BUILD_MAX_SLOPE_DEG, GEOVENT};
use crate::map::metal::{Dome, METAL_CELL_ELMOS, paint_domes_apart, peak_for_t1_income};
use crate::map::recipe::{MetalStep, VentsStep};
use crate::map::{ELMOS_PER_SQUARE, Feature, Grid, Map};

/// A spot's dome radius (elmos): small enough that the extractor takes all of it.
const DOME_RADIUS_ELMOS: f32 = 48.0;
/// The half side of an extractor's footprint (BAR's are 3x3 squares, about 24 elmos), with a
/// margin: the ground there must be buildable.
const EXTRACTOR_FOOTPRINT_ELMOS: f32 = 32.0;
/// How close to a start (elmos) no spot or vent goes: the commander's own base.
const START_CLEARANCE_ELMOS: f32 = 240.0;
/// Land means this high above the water (elmos).
const LAND_ELMOS: f32 = 4.0;

/// The slope (`1 - normal.y`) of the steepest square within `radius` elmos of `p`.
pub fn steepest_slope(heights: &Grid<f32>, p: [f32; 2], radius_elmos: f32) -> f32 {
    let sq = ELMOS_PER_SQUARE as f32;
    let (w, h) = heights.dims();
    let r = (radius_elmos / sq).ceil() as i64 + 1;
    let (cx, cz) = ((p[0] / sq) as i64, (p[1] / sq) as i64);
    let mut worst = 0.0f32;
    for z in cz - r..=cz + r {
        for x in cx - r..=cx + r {
            if x < 0 || z < 0 || x + 1 >= w as i64 || z + 1 >= h as i64 {
                continue;
            }
            let (dx, dz) = ((x as f32 + 0.5) * sq - p[0], (z as f32 + 0.5) * sq - p[1]);
            if dx * dx + dz * dz > (radius_elmos + sq) * (radius_elmos + sq) {
                continue;
            }
            let (x, z) = (x as usize, z as usize);
            let (a, b) = (heights.get(x, z), heights.get(x + 1, z));
            let (c, d) = (heights.get(x, z + 1), heights.get(x + 1, z + 1));
            let gx = ((b - a) + (d - c)) * 0.5 / sq;
            let gz = ((c - a) + (d - b)) * 0.5 / sq;
            let ny = 1.0 / (1.0 + gx * gx + gz * gz).sqrt();
            worst = worst.max(1.0 - ny);
        }
    }
    worst
}

/// BAR's build slope as the engine compares it (`1 - normal.y`).
pub fn build_max_slope() -> f32 {
    1.0 - BUILD_MAX_SLOPE_DEG.to_radians().cos()
}

/// The centre of the metal cell holding `v` elmos.
fn snap(v: f32) -> f32 {
    ((v / METAL_CELL_ELMOS).floor() + 0.5) * METAL_CELL_ELMOS
}

fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// What a placement must keep clear of.
struct Site<'a> {
    map: &'a Map,
    isos: &'a [Isometry],
    starts: Vec<[f32; 2]>,
    /// Everything placed so far, every copy.
    taken: Vec<[f32; 2]>,
    /// How far apart (elmos) a new point must be from `taken` and from its own copies.
    spacing_elmos: f32,
    /// The flat ground it needs around it (elmos).
    footprint_elmos: f32,
    /// The ring BAR's scan and the map's edge leave free (elmos).
    edge_elmos: f32,
}

impl Site<'_> {
    /// The copies of `p`, each snapped to its metal cell centre, or `None` when one of them
    /// cannot stand there.
    fn copies(&self, p: [f32; 2]) -> Option<Vec<[f32; 2]>> {
        let (w, d) = (self.map.size.width_elmos(), self.map.size.depth_elmos());
        let mut out: Vec<[f32; 2]> = Vec::new();
        for iso in self.isos {
            let q = iso.apply(p);
            let q = [snap(q[0]), snap(q[1])];
            if out.iter().any(|o| dist(*o, q) < 1.0) {
                // a point on a mirror line or at the centre is its own copy
                continue;
            }
            let e = self.edge_elmos;
            if q[0] < e || q[1] < e || q[0] > w - e || q[1] > d - e {
                return None;
            }
            if out.iter().any(|o| dist(*o, q) < self.spacing_elmos) {
                return None;
            }
            if self.taken.iter().any(|t| dist(*t, q) < self.spacing_elmos) {
                return None;
            }
            if self
                .starts
                .iter()
                .any(|s| dist(*s, q) < START_CLEARANCE_ELMOS)
            {
                return None;
            }
            if self.map.height_at(q[0], q[1]) < LAND_ELMOS {
                return None;
            }
            if steepest_slope(&self.map.heights, q, self.footprint_elmos) > build_max_slope() {
                return None;
            }
            out.push(q);
        }
        Some(out)
    }

    /// The nearest place to `target` (searched in rings of one metal cell out to `search`
    /// elmos) where a point and its copies fit; they are taken.
    fn place(&mut self, target: [f32; 2], search_elmos: f32) -> Option<Vec<[f32; 2]>> {
        let steps = (search_elmos / METAL_CELL_ELMOS).ceil() as i32;
        for ring in 0..=steps {
            let mut best: Option<(f32, Vec<[f32; 2]>)> = None;
            for dz in -ring..=ring {
                for dx in -ring..=ring {
                    if dx.abs().max(dz.abs()) != ring {
                        continue;
                    }
                    let p = [
                        snap(target[0] + dx as f32 * METAL_CELL_ELMOS),
                        snap(target[1] + dz as f32 * METAL_CELL_ELMOS),
                    ];
                    let off = dist(p, target);
                    if best.as_ref().is_some_and(|(b, _)| *b <= off) {
                        continue;
                    }
                    if let Some(c) = self.copies(p) {
                        best = Some((off, c));
                    }
                }
            }
            if let Some((_, c)) = best {
                self.taken.extend(c.iter().copied());
                return Some(c);
            }
        }
        None
    }
}

/// Every start position, in team order (elmos).
pub fn start_points(map: &Map) -> Vec<[f32; 2]> {
    map.teams
        .iter()
        .map(|t| [t.start_x_elmos, t.start_z_elmos])
        .collect()
}

/// The first-copy starts: one per group of copies (the generator lays out teams as each
/// first-copy start followed by its images).
pub fn sector_starts(map: &Map, copies: usize) -> Vec<[f32; 2]> {
    map.teams
        .iter()
        .step_by(copies.max(1))
        .map(|t| [t.start_x_elmos, t.start_z_elmos])
        .collect()
}

/// A seeded turn in [0, 1).
fn unit_hash(seed: u32, k: u32) -> f32 {
    let mut h = seed ^ k.wrapping_mul(0x9e37_79b9);
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^= h >> 16;
    (h & 0xffffff) as f32 / 16_777_216.0
}

/// Paints the metal step's layout; returns how many spots it placed and what it could not.
pub fn place_metal(
    map: &mut Map,
    step: &MetalStep,
    isos: &[Isometry],
    seed: u32,
) -> (usize, Vec<String>) {
    let copies = isos.len();
    let sector = sector_starts(map, copies);
    let starts = start_points(map);
    let r = map.settings.extractor_radius_elmos;
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let centre = [w * 0.5, d * 0.5];
    let mut site = Site {
        map,
        isos,
        starts,
        taken: Vec::new(),
        spacing_elmos: 2.0 * r + METAL_CELL_ELMOS,
        footprint_elmos: EXTRACTOR_FOOTPRINT_ELMOS,
        edge_elmos: DOME_RADIUS_ELMOS + 2.0 * METAL_CELL_ELMOS,
    };
    let mut missed = Vec::new();
    let mut spots = Vec::new();
    for (k, s) in sector.iter().enumerate() {
        let toward = (centre[1] - s[1]).atan2(centre[0] - s[0]);
        let phase = unit_hash(seed, k as u32) * std::f32::consts::TAU;
        let at =
            |a: f32, dist_elmos: f32| [s[0] + dist_elmos * a.cos(), s[1] + dist_elmos * a.sin()];
        for j in 0..step.base_spots {
            let a = phase + j as f32 * std::f32::consts::TAU / step.base_spots as f32;
            let t = at(a, step.base_distance_elmos);
            match site.place(t, 0.45 * step.base_distance_elmos) {
                Some(c) => spots.extend(c),
                None => missed.push(format!(
                    "a base spot of the start at ({:.0}, {:.0})",
                    s[0], s[1]
                )),
            }
        }
        let n = step.expansion_spots as f32;
        for j in 0..step.expansion_spots {
            // fanned out over 140 degrees facing the middle
            let spread = 140f32.to_radians();
            let a = toward
                + if n > 1.0 {
                    (j as f32 / (n - 1.0) - 0.5) * spread
                } else {
                    0.0
                };
            let t = at(a, step.expansion_distance_elmos);
            match site.place(t, 0.35 * step.expansion_distance_elmos) {
                Some(c) => spots.extend(c),
                None => missed.push(format!(
                    "an expansion of the start at ({:.0}, {:.0})",
                    s[0], s[1]
                )),
            }
        }
        let to_centre = dist(*s, centre);
        for j in 0..step.contested_spots {
            // along the way to the middle, either side of it
            let along = (step.contested_along + 0.1 * (j / 2) as f32).min(0.95);
            let side = if j % 2 == 0 { 1.0 } else { -1.0 };
            let base = [
                s[0] + (centre[0] - s[0]) * along,
                s[1] + (centre[1] - s[1]) * along,
            ];
            let off = 0.18 * to_centre * side;
            let t = [base[0] - toward.sin() * off, base[1] + toward.cos() * off];
            match site.place(t, 0.2 * to_centre) {
                Some(c) => spots.extend(c),
                None => missed.push(format!(
                    "a contested spot of the start at ({:.0}, {:.0})",
                    s[0], s[1]
                )),
            }
        }
    }
    let max_metal = map.settings.max_metal;
    let (peak, _, _) = peak_for_t1_income(step.income_per_spot, DOME_RADIUS_ELMOS, max_metal, r);
    let domes: Vec<Dome> = spots
        .iter()
        .map(|p| Dome {
            x_elmos: p[0],
            z_elmos: p[1],
            radius_elmos: DOME_RADIUS_ELMOS,
            peak: peak as f32,
        })
        .collect();
    map.metal.data_mut().fill(0);
    paint_domes_apart(&mut map.metal, &domes);
    (spots.len(), missed)
}

/// Places the vents step's geothermal vents, clear of spots and starts; returns how many and
/// what it could not place.
pub fn place_vents(
    map: &mut Map,
    step: &VentsStep,
    isos: &[Isometry],
    seed: u32,
) -> (usize, Vec<String>) {
    let copies = isos.len();
    let sector = sector_starts(map, copies);
    let starts = start_points(map);
    let spots: Vec<[f32; 2]> = map
        .metal_report()
        .spots
        .iter()
        .map(|s| [s.x_elmos, s.z_elmos])
        .collect();
    let r = map.settings.extractor_radius_elmos;
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    map.features
        .retain(|f| !f.name.eq_ignore_ascii_case(GEOVENT));
    let mut site = Site {
        map,
        isos,
        starts,
        taken: spots,
        spacing_elmos: r + 64.0,
        footprint_elmos: 48.0,
        edge_elmos: 96.0,
    };
    let mut vents = Vec::new();
    let mut missed = Vec::new();
    for (k, s) in sector.iter().enumerate() {
        // away from the middle, turned a little by the seed
        let away = (s[1] - d * 0.5).atan2(s[0] - w * 0.5);
        for j in 0..step.per_start {
            let a =
                away + (unit_hash(seed ^ 0x7e57, (k * 8) as u32 + j) - 0.5) * 1.6 + j as f32 * 1.2;
            let t = [
                s[0] + step.distance_elmos * a.cos(),
                s[1] + step.distance_elmos * a.sin(),
            ];
            match site.place(t, 0.5 * step.distance_elmos) {
                Some(c) => vents.extend(c),
                None => missed.push(format!("a vent of the start at ({:.0}, {:.0})", s[0], s[1])),
            }
        }
    }
    let n = vents.len();
    for v in vents {
        map.features.push(Feature {
            name: GEOVENT.into(),
            x_elmos: v[0],
            z_elmos: v[1],
            rotation_deg: 0.0,
        });
    }
    (n, missed)
}

/// For each team, the T1 incomes of the spots BAR finds within `radius_elmos` of its start.
fn spots_within(map: &Map, radius_elmos: f32) -> Vec<Vec<f32>> {
    let spots = map.metal_report().spots;
    start_points(map)
        .into_iter()
        .map(|start| {
            spots
                .iter()
                .filter(|s| dist([s.x_elmos, s.z_elmos], start) <= radius_elmos)
                .map(|s| s.t1_income)
                .collect()
        })
        .collect()
}

/// Each team's tech-1 income (metal/s) from the spots BAR finds within `radius_elmos` of its
/// start, in team order.
pub fn team_income(map: &Map, radius_elmos: f32) -> Vec<f32> {
    spots_within(map, radius_elmos)
        .iter()
        .map(|v| v.iter().sum())
        .collect()
}

/// How many spots BAR finds within `radius_elmos` of each start.
pub fn team_spots(map: &Map, radius_elmos: f32) -> Vec<usize> {
    spots_within(map, radius_elmos)
        .iter()
        .map(Vec::len)
        .collect()
}
