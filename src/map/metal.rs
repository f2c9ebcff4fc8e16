//! Metal as BAR plays it. The metal map is a field of bytes (metal = byte x `maxMetal`); this
//! module is the one dome painter (the metal tool and both importers paint with it), what an
//! extractor standing somewhere is paid (`ExtractorBuilding.cpp`: every cell whose centre lies
//! strictly inside `extractorRadius`, no normalisation), and the spots as BAR's spot finder sees
//! them (`api_resource_spot_finder.lua`), with the warnings a mapmaker needs.

use super::{Grid, Map, SymmetryMode};

pub use super::bar::{MOHO_EXTRACTS_METAL, T1_EXTRACTS_METAL};
/// The side of a metal cell.
pub const METAL_CELL_ELMOS: f32 = 16.0;
/// A spot whose box is wider or taller than this many extractor radii makes BAR call the whole
/// map a metal map (and show no spots).
const METAL_MAP_SPAN_RADII: f32 = 6.0;
/// Spots of fewer cells are called phantoms: stray bytes, not a placed spot.
pub const PHANTOM_SPOT_CELLS: usize = 4;

/// A dome's weight at `d` = distance / radius: `(1 - d^2)^2`, exactly 0 from the rim out.
/// The WGSL `dome` in `brush_metal_dome.wgsl` is the same.
pub fn dome_profile(d: f32) -> f32 {
    if d >= 1.0 {
        return 0.0;
    }
    let t = 1.0 - d * d;
    t * t
}

/// The byte a dome of `peak` centred at (x, z) elmos gives metal cell (i, j).
fn dome_byte(x_elmos: f32, z_elmos: f32, radius_elmos: f32, peak: f32, i: usize, j: usize) -> u8 {
    let cx = (i as f32 + 0.5) * METAL_CELL_ELMOS;
    let cz = (j as f32 + 0.5) * METAL_CELL_ELMOS;
    let (dx, dz) = (cx - x_elmos, cz - z_elmos);
    let d = (dx * dx + dz * dz).sqrt() / radius_elmos.max(1.0);
    (peak * dome_profile(d)).round().clamp(0.0, 255.0) as u8
}

/// The cells (i, j) a dome can touch, clipped to a `w` x `h` grid.
fn dome_cells(
    x_elmos: f32,
    z_elmos: f32,
    radius_elmos: f32,
    (w, h): (usize, usize),
) -> impl Iterator<Item = (usize, usize)> {
    let r = radius_elmos / METAL_CELL_ELMOS + 1.0;
    let (cx, cz) = (x_elmos / METAL_CELL_ELMOS, z_elmos / METAL_CELL_ELMOS);
    let lo = |c: f32| (c - r).floor().max(0.0) as usize;
    let (i0, j0) = (lo(cx), lo(cz));
    let i1 = ((cx + r).ceil().max(0.0) as usize).min(w);
    let j1 = ((cz + r).ceil().max(0.0) as usize).min(h);
    (j0..j1).flat_map(move |j| (i0..i1).map(move |i| (i, j)))
}

/// Paints a smooth dome (`dome_profile`, rounded to bytes) into `metal`; where domes meet the
/// brighter byte wins. Returns the bytes the dome itself holds.
pub fn paint_dome(
    metal: &mut Grid<u8>,
    x_elmos: f32,
    z_elmos: f32,
    radius_elmos: f32,
    peak: f32,
) -> u64 {
    let mut sum = 0u64;
    for (i, j) in dome_cells(x_elmos, z_elmos, radius_elmos, metal.dims()) {
        let b = dome_byte(x_elmos, z_elmos, radius_elmos, peak, i, j);
        sum += b as u64;
        if b > metal.get(i, j) {
            metal.set(i, j, b);
        }
    }
    sum
}

/// One dome to paint: its centre and radius in elmos and its peak byte.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dome {
    pub x_elmos: f32,
    pub z_elmos: f32,
    pub radius_elmos: f32,
    pub peak: f32,
}

/// Paints every dome (brighter wins where they meet, as [`paint_dome`]), then keeps a ring of
/// zeros between domes: wherever a cell of one dome touches a cell of another (diagonals too),
/// the dimmer of the two is set to 0, until no two domes touch. BAR's spot finder joins
/// touching non-zero cells into one spot, so without the gap two domes become one spot.
pub fn paint_domes_apart(metal: &mut Grid<u8>, domes: &[Dome]) {
    let (w, h) = metal.dims();
    // which dome each cell's byte came from (u32::MAX: none of these domes)
    let mut owner = vec![u32::MAX; w * h];
    for (n, d) in domes.iter().enumerate() {
        for (i, j) in dome_cells(d.x_elmos, d.z_elmos, d.radius_elmos, (w, h)) {
            let b = dome_byte(d.x_elmos, d.z_elmos, d.radius_elmos, d.peak, i, j);
            if b > metal.get(i, j) {
                metal.set(i, j, b);
                owner[j * w + i] = n as u32;
            }
        }
    }
    loop {
        let mut cleared = Vec::new();
        for j in 0..h {
            for i in 0..w {
                let (a, b) = (owner[j * w + i], metal.get(i, j));
                if a == u32::MAX || b == 0 {
                    continue;
                }
                let dimmer = neighbours(i, j, w, h).any(|(x, z)| {
                    let (o, c) = (owner[z * w + x], metal.get(x, z));
                    // the dimmer cell gives way; of two equal ones, the later dome's
                    o != u32::MAX && o != a && c > 0 && (c > b || (c == b && o < a))
                });
                if dimmer {
                    cleared.push((i, j));
                }
            }
        }
        if cleared.is_empty() {
            break;
        }
        for (i, j) in cleared {
            metal.set(i, j, 0);
        }
    }
}

/// The up to 8 cells around (i, j) inside a `w` x `h` grid.
fn neighbours(i: usize, j: usize, w: usize, h: usize) -> impl Iterator<Item = (usize, usize)> {
    (-1i64..=1)
        .flat_map(|dz| (-1i64..=1).map(move |dx| (dx, dz)))
        .filter(|&d| d != (0, 0))
        .map(move |(dx, dz)| (i as i64 + dx, j as i64 + dz))
        .filter(move |&(x, z)| x >= 0 && z >= 0 && x < w as i64 && z < h as i64)
        .map(|(x, z)| (x as usize, z as usize))
}

/// The sum of a dome's bytes, alone on an empty map, centred on a cell centre.
pub fn dome_byte_sum(radius_elmos: f32, peak: f32) -> u64 {
    let n = (2.0 * radius_elmos / METAL_CELL_ELMOS).ceil() as usize + 4;
    let c = (n / 2) as f32 * METAL_CELL_ELMOS + 0.5 * METAL_CELL_ELMOS;
    let mut g = Grid::filled(n, n, 0u8);
    paint_dome(&mut g, c, c, radius_elmos, peak)
}

/// Metal per second an extractor with `extracts_metal` standing at (x, z) elmos is paid: every
/// cell whose centre lies strictly inside `radius_elmos`, byte x `max_metal`.
pub fn extractor_income(
    metal: &Grid<u8>,
    max_metal: f32,
    radius_elmos: f32,
    x_elmos: f32,
    z_elmos: f32,
    extracts_metal: f32,
) -> f32 {
    let mut sum = 0u64;
    let r2 = radius_elmos * radius_elmos;
    for (i, j) in dome_cells(x_elmos, z_elmos, radius_elmos, metal.dims()) {
        let cx = (i as f32 + 0.5) * METAL_CELL_ELMOS - x_elmos;
        let cz = (j as f32 + 0.5) * METAL_CELL_ELMOS - z_elmos;
        if cx * cx + cz * cz < r2 {
            sum += metal.get(i, j) as u64;
        }
    }
    sum as f32 * max_metal * extracts_metal
}

/// The dome peak (a byte) whose T1 income, for an extractor at the dome's centre on an empty
/// map, comes closest to `target_per_s`; and that income. `None` when even 255 falls short.
pub fn peak_for_t1_income(
    target_per_s: f32,
    radius_elmos: f32,
    max_metal: f32,
    extractor_radius_elmos: f32,
) -> (u8, f32, bool) {
    let n = (2.0 * radius_elmos.max(extractor_radius_elmos) / METAL_CELL_ELMOS).ceil() as usize + 4;
    let c = (n / 2) as f32 * METAL_CELL_ELMOS + 0.5 * METAL_CELL_ELMOS;
    let income = |peak: u8| {
        let mut g = Grid::filled(n, n, 0u8);
        paint_dome(&mut g, c, c, radius_elmos, peak as f32);
        extractor_income(
            &g,
            max_metal,
            extractor_radius_elmos,
            c,
            c,
            T1_EXTRACTS_METAL,
        )
    };
    let mut best = (1u8, income(1));
    for peak in 1..=255u8 {
        let v = income(peak);
        if (v - target_per_s).abs() < (best.1 - target_per_s).abs() {
            best = (peak, v);
        }
        if v >= target_per_s {
            break;
        }
    }
    let reached = best.1 >= target_per_s * 0.99;
    (best.0, best.1, reached)
}

/// The cells of the 8-connected patch of non-zero metal holding cell (i, j), or nearest to it
/// within `reach` cells; `None` when there is none.
pub fn patch_at(metal: &Grid<u8>, i: usize, j: usize, reach: usize) -> Option<Vec<(usize, usize)>> {
    let (w, h) = metal.dims();
    let mut start = None;
    let mut best = usize::MAX;
    for z in j.saturating_sub(reach)..(j + reach + 1).min(h) {
        for x in i.saturating_sub(reach)..(i + reach + 1).min(w) {
            let d = x.abs_diff(i).pow(2) + z.abs_diff(j).pow(2);
            if metal.get(x, z) > 0 && d < best {
                best = d;
                start = Some((x, z));
            }
        }
    }
    let start = start?;
    let mut seen = vec![false; w * h];
    let mut out = Vec::new();
    let mut stack = vec![start];
    seen[start.1 * w + start.0] = true;
    while let Some((x, z)) = stack.pop() {
        out.push((x, z));
        for dz in -1i64..=1 {
            for dx in -1i64..=1 {
                let (nx, nz) = (x as i64 + dx, z as i64 + dz);
                if nx < 0 || nz < 0 || nx >= w as i64 || nz >= h as i64 {
                    continue;
                }
                let (nx, nz) = (nx as usize, nz as usize);
                if !seen[nz * w + nx] && metal.get(nx, nz) > 0 {
                    seen[nz * w + nx] = true;
                    stack.push((nx, nz));
                }
            }
        }
    }
    out.sort_unstable_by_key(|&(x, z)| (z, x));
    Some(out)
}

/// The centre of a patch's bounding box in elmos (where BAR puts the spot).
pub fn patch_centre(cells: &[(usize, usize)]) -> [f32; 2] {
    let (mut i0, mut j0, mut i1, mut j1) = (usize::MAX, usize::MAX, 0, 0);
    for &(x, z) in cells {
        (i0, j0, i1, j1) = (i0.min(x), j0.min(z), i1.max(x), j1.max(z));
    }
    [
        (i0 + i1 + 1) as f32 * 0.5 * METAL_CELL_ELMOS,
        (j0 + j1 + 1) as f32 * 0.5 * METAL_CELL_ELMOS,
    ]
}

/// One spot as BAR's spot finder sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct BarSpot {
    /// The centre of the spot's bounding box, in elmos.
    pub x_elmos: f32,
    pub z_elmos: f32,
    pub cells: usize,
    /// Sum of byte x maxMetal over the spot's cells.
    pub worth: f32,
    /// Metal per second of a T1 extractor and of a moho standing at the centre.
    pub t1_income: f32,
    pub moho_income: f32,
    /// The bounding box in cells, inclusive: (i0, j0, i1, j1).
    pub cell_box: (usize, usize, usize, usize),
    /// How many domes the spot's cells hold ([`domes_in`]): over 1 when domes touch and BAR
    /// joined them into this one spot.
    pub domes: usize,
}

/// Where two extractors of radius `radius_elmos` standing at `a` and `b` (elmos) would both
/// mine: the cells whose centres lie strictly inside both discs (the engine's rule), and the
/// bytes those cells hold.
pub fn shared_cells(metal: &Grid<u8>, radius_elmos: f32, a: [f32; 2], b: [f32; 2]) -> (usize, u64) {
    let r2 = radius_elmos * radius_elmos;
    let inside = |p: [f32; 2], i: usize, j: usize| {
        let cx = (i as f32 + 0.5) * METAL_CELL_ELMOS - p[0];
        let cz = (j as f32 + 0.5) * METAL_CELL_ELMOS - p[1];
        cx * cx + cz * cz < r2
    };
    let (mut cells, mut bytes) = (0, 0u64);
    for (i, j) in dome_cells(a[0], a[1], radius_elmos, metal.dims()) {
        if inside(a, i, j) && inside(b, i, j) {
            cells += 1;
            bytes += metal.get(i, j) as u64;
        }
    }
    (cells, bytes)
}

/// How many domes a spot's cells hold: peaks that rise at least half their own height above
/// the lowest cell that joins them to a higher peak (a persistence count over the spot's
/// cells, 8-connected). One painted dome counts 1 however its bytes were rounded; two domes
/// whose rims touch count 2.
pub fn domes_in(metal: &Grid<u8>, cells: &[(usize, usize)]) -> usize {
    let w = metal.dims().0;
    let mut order: Vec<(usize, usize)> = cells.to_vec();
    order.sort_unstable_by_key(|&(i, j)| std::cmp::Reverse(metal.get(i, j)));
    let index: std::collections::HashMap<usize, usize> = order
        .iter()
        .enumerate()
        .map(|(n, &(i, j))| (j * w + i, n))
        .collect();
    // union-find over cells added brightest first; each root remembers its peak
    let mut parent: Vec<usize> = (0..order.len()).collect();
    let mut peak: Vec<u8> = order.iter().map(|&(i, j)| metal.get(i, j)).collect();
    let mut added = vec![false; order.len()];
    let mut domes = 0;
    fn root(parent: &mut [usize], mut n: usize) -> usize {
        while parent[n] != n {
            parent[n] = parent[parent[n]];
            n = parent[n];
        }
        n
    }
    let (w_cells, h_cells) = metal.dims();
    for n in 0..order.len() {
        let (i, j) = order[n];
        let level = metal.get(i, j);
        added[n] = true;
        for (x, z) in neighbours(i, j, w_cells, h_cells) {
            let Some(&m) = index.get(&(z * w + x)) else {
                continue;
            };
            if !added[m] {
                continue;
            }
            let (ra, rb) = (root(&mut parent, n), root(&mut parent, m));
            if ra == rb {
                continue;
            }
            // the lower peak dies here, at this cell's level
            let (keep, die) = if peak[ra] >= peak[rb] {
                (ra, rb)
            } else {
                (rb, ra)
            };
            if peak[die] as u32 >= 2 * level as u32 && peak[die] >= 2 {
                domes += 1;
            }
            parent[die] = keep;
            peak[keep] = peak[keep].max(peak[die]);
        }
    }
    // the highest peak never dies
    domes + usize::from(!order.is_empty())
}

/// The metal map read the way BAR reads it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetalReport {
    pub spots: Vec<BarSpot>,
    /// BAR would call this a metal map (a spot too big) and show no spots.
    pub metal_map: bool,
    /// T1 income per side, by symmetry sector, when the map has a symmetry mode.
    pub income_per_side: Vec<f32>,
    pub warnings: Vec<MetalWarning>,
}

/// A way the metal goes wrong in BAR: the lint's rule id and what to tell the mapmaker.
#[derive(Clone, Debug, PartialEq)]
pub struct MetalWarning {
    /// `metal-map-detected`, `metal-spots-share`, `metal-spots-merged`, `metal-phantom-spots`,
    /// `metal-edge-ring` or `metal-sides-unequal`.
    pub rule: &'static str,
    pub message: String,
}

impl std::fmt::Display for MetalWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Spots by BAR's rules: 8-connected non-zero cells, the outermost ring never scanned.
pub fn bar_spots(metal: &Grid<u8>, max_metal: f32, extractor_radius_elmos: f32) -> Vec<BarSpot> {
    let (w, h) = metal.dims();
    let scanned = |i: usize, j: usize| i >= 1 && j >= 1 && i + 1 < w && j + 1 < h;
    let mut seen = vec![false; w * h];
    let mut spots = Vec::new();
    let mut stack = Vec::new();
    for j in 0..h {
        for i in 0..w {
            let start = j * w + i;
            if seen[start] || !scanned(i, j) || metal.get(i, j) == 0 {
                continue;
            }
            seen[start] = true;
            stack.push((i, j));
            let mut bytes = 0u64;
            let mut cells = Vec::new();
            let mut bx = (i, j, i, j);
            while let Some((x, z)) = stack.pop() {
                bytes += metal.get(x, z) as u64;
                cells.push((x, z));
                bx = (bx.0.min(x), bx.1.min(z), bx.2.max(x), bx.3.max(z));
                for dz in -1i64..=1 {
                    for dx in -1i64..=1 {
                        let (nx, nz) = (x as i64 + dx, z as i64 + dz);
                        if nx < 0 || nz < 0 || nx >= w as i64 || nz >= h as i64 {
                            continue;
                        }
                        let (nx, nz) = (nx as usize, nz as usize);
                        let k = nz * w + nx;
                        if !seen[k] && scanned(nx, nz) && metal.get(nx, nz) != 0 {
                            seen[k] = true;
                            stack.push((nx, nz));
                        }
                    }
                }
            }
            let x = (bx.0 + bx.2 + 1) as f32 * 0.5 * METAL_CELL_ELMOS;
            let z = (bx.1 + bx.3 + 1) as f32 * 0.5 * METAL_CELL_ELMOS;
            let pay = |e| extractor_income(metal, max_metal, extractor_radius_elmos, x, z, e);
            spots.push(BarSpot {
                x_elmos: x,
                z_elmos: z,
                cells: cells.len(),
                worth: bytes as f32 * max_metal,
                t1_income: pay(T1_EXTRACTS_METAL),
                moho_income: pay(MOHO_EXTRACTS_METAL),
                cell_box: bx,
                domes: domes_in(metal, &cells),
            });
        }
    }
    spots
}

/// Which symmetry sector a point lies in (0 when the map has none).
fn sector(mode: SymmetryMode, w: f32, d: f32, x: f32, z: f32) -> usize {
    let (cx, cz) = (w * 0.5, d * 0.5);
    match mode {
        SymmetryMode::None => 0,
        SymmetryMode::MirrorX => (x > cx) as usize,
        SymmetryMode::MirrorZ => (z > cz) as usize,
        SymmetryMode::MirrorXZ => (x > cx) as usize + 2 * (z > cz) as usize,
        SymmetryMode::Diagonal => (x > z) as usize,
        SymmetryMode::AntiDiagonal => (x + z > w) as usize,
        SymmetryMode::Rotate(n) => {
            let a = (z - cz).atan2(x - cx).rem_euclid(std::f32::consts::TAU);
            ((a / (std::f32::consts::TAU / n as f32)) as usize).min(n as usize - 1)
        }
    }
}

impl Map {
    /// The metal spots BAR finds, their incomes, and what a mapmaker should be warned of.
    pub fn metal_report(&self) -> MetalReport {
        let s = &self.settings;
        let r = s.extractor_radius_elmos;
        let spots = bar_spots(&self.metal, s.max_metal, r);
        let mut warnings = Vec::new();
        let span = METAL_MAP_SPAN_RADII * r;
        let too_big: Vec<&BarSpot> = spots
            .iter()
            .filter(|p| {
                let (i0, j0, i1, j1) = p.cell_box;
                (i1 - i0 + 1) as f32 * METAL_CELL_ELMOS > span
                    || (j1 - j0 + 1) as f32 * METAL_CELL_ELMOS > span
            })
            .collect();
        let metal_map = !too_big.is_empty();
        if let Some(p) = too_big.first() {
            warnings.push(MetalWarning {
 rule: "metal-map-detected",
 message: format!(
                "the spot at ({:.0}, {:.0}) spans more than {span:.0} elmos (6 x extractorRadius): BAR calls this a metal map and shows no spots",
                p.x_elmos, p.z_elmos
            ),
 });
        }
        for (a, p) in spots.iter().enumerate() {
            for q in &spots[a + 1..] {
                if (p.x_elmos - q.x_elmos).hypot(p.z_elmos - q.z_elmos) >= 2.0 * r {
                    continue;
                }
                let (cells, bytes) = shared_cells(
                    &self.metal,
                    r,
                    [p.x_elmos, p.z_elmos],
                    [q.x_elmos, q.z_elmos],
                );
                if bytes == 0 {
                    continue;
                }
                let shared = bytes as f32 * s.max_metal;
                warnings.push(MetalWarning {
                    rule: "metal-spots-share",
                    message: format!(
                        "extractors on the spots at ({:.0}, {:.0}) and ({:.0}, {:.0}) share {cells} cells holding {shared:.2} metal ({:.3} of T1 income a second), which only one of them is paid",
                        p.x_elmos,
                        p.z_elmos,
                        q.x_elmos,
                        q.z_elmos,
                        shared * T1_EXTRACTS_METAL
                    ),
                });
            }
        }
        // on a metal map BAR shows no spots at all, so how they join does not matter
        let merged: Vec<&BarSpot> = spots.iter().filter(|p| p.domes > 1).collect();
        if !merged.is_empty() && !metal_map {
            let list: Vec<String> = merged
                .iter()
                .take(6)
                .map(|p| format!("{} at ({:.0}, {:.0})", p.domes, p.x_elmos, p.z_elmos))
                .collect();
            let domes: usize = merged.iter().map(|p| p.domes).sum();
            warnings.push(MetalWarning {
                rule: "metal-spots-merged",
                message: format!(
                    "{domes} domes touch in {} places, so BAR's spot finder joins them into {} spots: {}{}",
                    merged.len(),
                    merged.len(),
                    list.join(", "),
                    if merged.len() > 6 { ", ..." } else { "" }
                ),
            });
        }
        let phantoms = spots
            .iter()
            .filter(|p| p.cells < PHANTOM_SPOT_CELLS)
            .count();
        if phantoms > 0 {
            warnings.push(MetalWarning {
 rule: "metal-phantom-spots",
 message: format!(
                "{phantoms} spot{} of fewer than {PHANTOM_SPOT_CELLS} cells: stray metal bytes that BAR shows as phantom spots",
                if phantoms == 1 { "" } else { "s" }
            ),
 });
        }
        let (w, h) = self.metal.dims();
        let ring = (0..w)
            .flat_map(|i| [(i, 0), (i, h - 1)])
            .chain((0..h).flat_map(|j| [(0, j), (w - 1, j)]))
            .filter(|&(i, j)| self.metal.get(i, j) > 0)
            .count();
        if ring > 0 {
            warnings.push(MetalWarning {
 rule: "metal-edge-ring",
 message: format!(
                "{ring} metal cells lie in the map's outermost ring, which BAR's spot finder never scans"
            ),
 });
        }
        let mut income_per_side = Vec::new();
        if self.symmetry != SymmetryMode::None {
            income_per_side = vec![0.0; self.symmetry.copies()];
            let (mw, md) = (self.size.width_elmos(), self.size.depth_elmos());
            for p in &spots {
                income_per_side[sector(self.symmetry, mw, md, p.x_elmos, p.z_elmos)] += p.t1_income;
            }
            let hi = income_per_side.iter().cloned().fold(0.0f32, f32::max);
            let lo = income_per_side.iter().cloned().fold(f32::MAX, f32::min);
            if hi > 0.0 && (hi - lo) / hi > 0.01 {
                let list: Vec<String> = income_per_side.iter().map(|v| format!("{v:.2}")).collect();
                warnings.push(MetalWarning {
                    rule: "metal-sides-unequal",
                    message: format!(
                        "the sides' T1 metal income differs by more than 1%: {} metal/s",
                        list.join(" / ")
                    ),
                });
            }
        }
        MetalReport {
            spots,
            metal_map,
            income_per_side,
            warnings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize};

    #[test]
    fn a_dome_falls_to_zero_at_its_rim() {
        let mut g = Grid::filled(32, 32, 0u8);
        let sum = paint_dome(&mut g, 256.0 + 8.0, 256.0 + 8.0, 64.0, 200.0);
        assert_eq!(g.get(16, 16), 200);
        // 4 cells out the centre is 64 elmos away: exactly at the rim
        assert_eq!(g.get(20, 16), 0);
        assert!(g.get(19, 16) > 0);
        assert_eq!(sum, g.data().iter().map(|&b| b as u64).sum::<u64>());
        assert_eq!(sum, dome_byte_sum(64.0, 200.0));
        // brighter wins where domes meet
        paint_dome(&mut g, 264.0, 264.0, 32.0, 50.0);
        assert_eq!(g.get(16, 16), 200);
    }

    #[test]
    fn extractors_count_cells_strictly_inside_the_radius() {
        // a hand-made field: one cell of 10 at the centre and four of 7 whose centres are
        // exactly 32 elmos away
        let mut g = Grid::filled(16, 16, 0u8);
        g.set(8, 8, 10); // centre (136, 136)
        for (i, j) in [(10, 8), (6, 8), (8, 10), (8, 6)] {
            g.set(i, j, 7); // 32 elmos away
        }
        let (x, z) = (136.0, 136.0);
        // radius 32: the four at exactly 32 are not strictly inside
        let at32 = extractor_income(&g, 2.0, 32.0, x, z, T1_EXTRACTS_METAL);
        assert_eq!(at32, 10.0 * 2.0 * 0.001);
        let at33 = extractor_income(&g, 2.0, 32.01, x, z, T1_EXTRACTS_METAL);
        assert!((at33 - (10.0 + 28.0) * 2.0 * 0.001).abs() < 1e-6);
        let moho = extractor_income(&g, 2.0, 33.0, x, z, MOHO_EXTRACTS_METAL);
        assert!((moho - 38.0 * 2.0 * 0.004).abs() < 1e-6);
    }

    #[test]
    fn a_dome_counted_by_hand_pays_what_the_report_says() {
        // radius 40 elmos, peak 100, centred on cell (20, 20): the cells 16 d elmos out get
        // round(100 (1 - (16 d / 40)^2)^2): d 0 -> 100; 1 -> 71 (x4); sqrt 2 -> 46 (x4);
        // 2 -> 13 (x4); sqrt 5 -> 4 (x8); farther -> 0. 21 cells, 652 bytes in all.
        let mut m = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        m.settings.max_metal = 0.5;
        let c = 20.5 * 16.0;
        assert_eq!(paint_dome(&mut m.metal, c, c, 40.0, 100.0), 652);
        assert_eq!(m.metal.get(20, 20), 100);
        assert_eq!(m.metal.get(21, 20), 71);
        assert_eq!(m.metal.get(21, 21), 46);
        assert_eq!(m.metal.get(22, 20), 13);
        assert_eq!(m.metal.get(22, 21), 4);
        // extractorRadius 32: the 13s sit exactly 32 out, not strictly inside; nor the 4s
        for (radius, bytes) in [(32.0, 568.0f32), (32.5, 620.0), (36.0, 652.0)] {
            m.settings.extractor_radius_elmos = radius;
            let r = m.metal_report();
            assert_eq!(r.spots.len(), 1);
            let s = &r.spots[0];
            assert_eq!((s.x_elmos, s.z_elmos, s.cells), (c, c, 21));
            assert_eq!(s.t1_income, bytes * 0.5 * 0.001, "radius {radius}");
            assert_eq!(s.moho_income, bytes * 0.5 * 0.004, "radius {radius}");
            assert_eq!(s.worth, 652.0 * 0.5);
        }
    }

    #[test]
    fn a_target_income_picks_the_peak() {
        let (peak, got, ok) = peak_for_t1_income(2.0, 48.0, 2.0, 80.0);
        assert!(ok, "{peak} {got}");
        assert!((got - 2.0).abs() < 0.05, "{peak} gives {got}");
        let (peak, _, ok) = peak_for_t1_income(1000.0, 48.0, 2.0, 80.0);
        assert!(!ok);
        assert_eq!(peak, 255);
    }

    #[test]
    fn a_patch_is_found_under_or_beside_a_point() {
        let mut g = Grid::filled(32, 32, 0u8);
        paint_dome(&mut g, 104.0, 104.0, 40.0, 100.0);
        g.set(25, 25, 7);
        let p = patch_at(&g, 6, 6, 0).unwrap();
        assert_eq!(p.len(), g.data().iter().filter(|&&b| b > 0).count() - 1);
        assert_eq!(patch_centre(&p), [104.0, 104.0]);
        assert_eq!(patch_at(&g, 24, 24, 1).unwrap(), vec![(25, 25)]);
        assert!(patch_at(&g, 20, 20, 1).is_none());
    }

    #[test]
    fn spots_follow_bars_finder() {
        let mut m = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        m.settings.max_metal = 1.0;
        m.settings.extractor_radius_elmos = 80.0;
        paint_dome(&mut m.metal, 200.0, 200.0, 48.0, 200.0);
        paint_dome(&mut m.metal, 800.0, 300.0, 48.0, 200.0);
        m.metal.set(0, 30, 9); // in the outer ring: never a spot
        m.metal.set(40, 60, 3); // a phantom
        let r = m.metal_report();
        assert_eq!(r.spots.len(), 3, "{:?}", r.spots);
        let a = &r.spots[0];
        // the box centre, not the centre of mass
        let (i0, j0, i1, j1) = a.cell_box;
        assert_eq!(a.x_elmos, (i0 + i1 + 1) as f32 * 8.0);
        assert_eq!(a.z_elmos, (j0 + j1 + 1) as f32 * 8.0);
        let bytes: u64 = (j0..=j1)
            .flat_map(|j| (i0..=i1).map(move |i| (i, j)))
            .map(|(i, j)| m.metal.get(i, j) as u64)
            .sum();
        assert_eq!(a.worth, bytes as f32);
        assert!((a.moho_income - 4.0 * a.t1_income).abs() < 1e-5);
        assert!(
            r.warnings.iter().any(|w| w.rule == "metal-phantom-spots"),
            "{:?}",
            r.warnings
        );
        assert!(r.warnings.iter().any(|w| w.rule == "metal-edge-ring"));
        assert!(!r.metal_map);
        // a long streak: a metal map
        for i in 5..60 {
            m.metal.set(i, 50, 40);
        }
        assert!(m.metal_report().metal_map);
    }

    #[test]
    fn sides_are_compared_under_symmetry() {
        let mut m = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        m.symmetry = SymmetryMode::MirrorX;
        paint_dome(&mut m.metal, 200.0, 500.0, 48.0, 200.0);
        paint_dome(&mut m.metal, 1024.0 - 200.0, 500.0, 48.0, 200.0);
        let r = m.metal_report();
        assert_eq!(r.income_per_side.len(), 2);
        assert!((r.income_per_side[0] - r.income_per_side[1]).abs() < 1e-6);
        assert!(!r.warnings.iter().any(|w| w.rule == "metal-sides-unequal"));
        paint_dome(&mut m.metal, 200.0, 800.0, 48.0, 100.0);
        assert!(
            m.metal_report()
                .warnings
                .iter()
                .any(|w| w.rule == "metal-sides-unequal")
        );
    }

    #[test]
    fn one_dome_is_one_dome_wherever_it_sits() {
        for (radius, peak) in [(24.0, 60.0), (40.0, 120.0), (48.0, 255.0), (90.0, 200.0)] {
            for offset in [0.0, 3.0, 8.0, 11.5] {
                let mut g = Grid::filled(40, 40, 0u8);
                let c = 320.0 + offset;
                paint_dome(&mut g, c, c - offset * 0.5, radius, peak);
                let spots = bar_spots(&g, 1.0, 90.0);
                assert_eq!(spots.len(), 1);
                assert_eq!(
                    spots[0].domes, 1,
                    "radius {radius} peak {peak} offset {offset}"
                );
            }
        }
    }

    #[test]
    fn touching_domes_are_counted_and_painting_apart_keeps_them_two_spots() {
        // rims 5 cells apart with radius 3 cells: the cells touch
        let domes = [
            Dome {
                x_elmos: 24.5 * 16.0,
                z_elmos: 24.5 * 16.0,
                radius_elmos: 48.0,
                peak: 120.0,
            },
            Dome {
                x_elmos: 29.5 * 16.0,
                z_elmos: 25.5 * 16.0,
                radius_elmos: 48.0,
                peak: 90.0,
            },
        ];
        let mut joined = Grid::filled(64, 64, 0u8);
        for d in &domes {
            paint_dome(&mut joined, d.x_elmos, d.z_elmos, d.radius_elmos, d.peak);
        }
        let spots = bar_spots(&joined, 1.0, 90.0);
        assert_eq!(spots.len(), 1);
        assert_eq!(spots[0].domes, 2);
        let mut apart = Grid::filled(64, 64, 0u8);
        paint_domes_apart(&mut apart, &domes);
        let spots = bar_spots(&apart, 1.0, 90.0);
        assert_eq!(spots.len(), 2, "{spots:?}");
        assert!(spots.iter().all(|p| p.domes == 1));
        // no cell of one touches a cell of the other, and only seam cells were cleared
        for j in 0..64 {
            for i in 0..64 {
                let (a, b) = (apart.get(i, j), joined.get(i, j));
                assert!(a == b || a == 0, "({i}, {j}): {a} vs {b}");
            }
        }
        let total: u64 = joined.data().iter().map(|&b| b as u64).sum();
        let lost = total - apart.data().iter().map(|&b| b as u64).sum::<u64>();
        assert!(
            lost > 0 && lost * 10 < total,
            "lost {lost} of {total} bytes at the seam"
        );
        // far apart, painting apart is painting
        let mut one = Grid::filled(64, 64, 0u8);
        let mut two = Grid::filled(64, 64, 0u8);
        let far = [
            domes[0],
            Dome {
                x_elmos: 45.5 * 16.0,
                ..domes[1]
            },
        ];
        paint_domes_apart(&mut one, &far);
        for d in &far {
            paint_dome(&mut two, d.x_elmos, d.z_elmos, d.radius_elmos, d.peak);
        }
        assert_eq!(one, two);
    }

    #[test]
    fn shared_cells_lie_strictly_inside_both_discs() {
        let mut g = Grid::filled(32, 32, 0u8);
        g.set(10, 10, 9); // centre (168, 168)
        // extractors 32 elmos either side of the cell's centre, radius 32: exactly on both rims
        let (a, b) = ([136.0, 168.0], [200.0, 168.0]);
        assert_eq!(shared_cells(&g, 32.0, a, b), (0, 0));
        assert_eq!(shared_cells(&g, 32.5, a, b), (1, 9));
    }
}
