//! The raise/lower brush: its settings, the dabs a stroke lays down, the parameter block its
//! WGSL kernel (`shaders/brush_raise_lower.wgsl`) reads, and the CPU twin of that kernel.
//!
//! The parameter block is shared byte for byte: the GPU path uploads [`StrokeParams`] as a
//! uniform, the CPU path ([`apply_raise_lower`]) reads the same struct and does the same f32
//! arithmetic in the same order, so a test can hold the two side by side.

use bytemuck::{Pod, Zeroable};

use super::GridRect;
use crate::map::{ELMOS_PER_SQUARE, HeightGrid};

/// How many dabs one kernel dispatch applies (the uniform array's length in the WGSL).
pub const MAX_DABS_PER_DISPATCH: usize = 64;

/// The raise/lower brush as the user set it up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaiseLowerBrush {
    pub radius_elmos: f32,
    /// Height added per second at the centre while the button is held (negative lowers).
    pub rate_elmos_per_s: f32,
    /// 0: soft all the way from the centre; 1: a flat-topped cylinder.
    pub hardness: f32,
}

impl Default for RaiseLowerBrush {
    fn default() -> RaiseLowerBrush {
        RaiseLowerBrush {
            radius_elmos: 256.0,
            rate_elmos_per_s: 120.0,
            hardness: 0.3,
        }
    }
}

impl RaiseLowerBrush {
    /// Valid radius range, in elmos.
    pub const RADIUS_RANGE_ELMOS: std::ops::RangeInclusive<f32> = 8.0..=4096.0;
    /// Valid rate range, in elmos per second.
    pub const RATE_RANGE_ELMOS_PER_S: std::ops::RangeInclusive<f32> = 1.0..=2000.0;

    /// The dabs for a cursor that moved from `from` to `to` (elmos, x and z) over `dt_s`
    /// seconds, spaced a quarter radius apart, sharing the height the time step adds.
    /// `lower` flips the sign.
    pub fn dabs_along(&self, from: [f32; 2], to: [f32; 2], dt_s: f32, lower: bool) -> Vec<Dab> {
        let radius = self.radius_elmos.max(1.0);
        let len = ((to[0] - from[0]).powi(2) + (to[1] - from[1]).powi(2)).sqrt();
        let n = ((len / (radius * 0.25)).ceil() as usize).clamp(1, MAX_DABS_PER_DISPATCH);
        let total = self.rate_elmos_per_s * dt_s * if lower { -1.0 } else { 1.0 };
        (1..=n)
            .map(|i| {
                let t = i as f32 / n as f32;
                Dab {
                    x_elmos: from[0] + (to[0] - from[0]) * t,
                    z_elmos: from[1] + (to[1] - from[1]) * t,
                    radius_elmos: radius,
                    amount_elmos: total / n as f32,
                    hardness: self.hardness.clamp(0.0, 1.0),
                }
            })
            .collect()
    }
}

/// One stamp of a brush at one place, in world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dab {
    pub x_elmos: f32,
    pub z_elmos: f32,
    pub radius_elmos: f32,
    /// Height added at the centre (negative lowers).
    pub amount_elmos: f32,
    pub hardness: f32,
}

/// One dab in heightmap-vertex units, as the kernel reads it (32 bytes, std140-friendly).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct DabParams {
    pub center_x: f32,
    pub center_z: f32,
    pub radius: f32,
    pub amount_elmos: f32,
    pub hardness: f32,
    pub pad: [f32; 3],
}

/// The uniform block one dispatch of a height kernel reads: the rectangle of vertices it
/// covers, the height range to clamp to, and up to [`MAX_DABS_PER_DISPATCH`] dabs.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct StrokeParams {
    pub origin: [u32; 2],
    pub size: [u32; 2],
    pub min_height_elmos: f32,
    pub max_height_elmos: f32,
    pub dab_count: u32,
    pub pad: u32,
    pub dabs: [DabParams; MAX_DABS_PER_DISPATCH],
}

impl StrokeParams {
    /// The parameters for `dabs` (at most [`MAX_DABS_PER_DISPATCH`]; more are dropped) on a
    /// heightmap of `width` x `height` vertices, clamping results to `[min, max]` elmos.
    /// Returns `None` when no dab touches the map.
    pub fn new(
        dabs: &[Dab],
        width: usize,
        height: usize,
        min_height_elmos: f32,
        max_height_elmos: f32,
    ) -> Option<StrokeParams> {
        let mut p = StrokeParams {
            origin: [0; 2],
            size: [0; 2],
            min_height_elmos,
            max_height_elmos,
            dab_count: 0,
            pad: 0,
            dabs: [DabParams::default(); MAX_DABS_PER_DISPATCH],
        };
        let mut rect = GridRect::default();
        let sq = ELMOS_PER_SQUARE as f32;
        for d in dabs.iter().take(MAX_DABS_PER_DISPATCH) {
            let dp = DabParams {
                center_x: d.x_elmos / sq,
                center_z: d.z_elmos / sq,
                radius: (d.radius_elmos / sq).max(0.5),
                amount_elmos: d.amount_elmos,
                hardness: d.hardness.clamp(0.0, 1.0),
                pad: [0.0; 3],
            };
            let r = GridRect::around(dp.center_x, dp.center_z, dp.radius, width, height);
            if r.is_empty() {
                continue;
            }
            rect = rect.union(&r);
            p.dabs[p.dab_count as usize] = dp;
            p.dab_count += 1;
        }
        if rect.is_empty() {
            return None;
        }
        p.origin = [rect.x0 as u32, rect.z0 as u32];
        p.size = [rect.w as u32, rect.h as u32];
        Some(p)
    }

    /// The vertices this dispatch may change.
    pub fn rect(&self) -> GridRect {
        GridRect::new(
            self.origin[0] as usize,
            self.origin[1] as usize,
            self.size[0] as usize,
            self.size[1] as usize,
        )
    }

    pub fn active_dabs(&self) -> &[DabParams] {
        &self.dabs[..self.dab_count as usize]
    }
}

/// The brush's weight at `d` = distance / radius: 1 inside `hardness`, easing to 0 at the rim.
/// Written exactly as the WGSL `falloff` is.
pub fn falloff(d: f32, hardness: f32) -> f32 {
    if d >= 1.0 {
        return 0.0;
    }
    let edge0 = hardness.min(0.999);
    let t = ((d - edge0) / (1.0 - edge0)).clamp(0.0, 1.0);
    1.0 - t * t * (3.0 - 2.0 * t)
}

/// The CPU twin of `brush_raise_lower.wgsl`: applies every dab, in order, to each vertex of
/// the rectangle, clamping after each one.
pub fn apply_raise_lower(heights: &mut HeightGrid, params: &StrokeParams) {
    let rect = params.rect();
    let w = heights.width();
    let data = heights.data_mut();
    for z in rect.z0..rect.z1() {
        for x in rect.x0..rect.x1() {
            let idx = z * w + x;
            let mut h = data[idx];
            for d in params.active_dabs() {
                let dx = x as f32 - d.center_x;
                let dz = z as f32 - d.center_z;
                let dist = (dx * dx + dz * dz).sqrt() / d.radius;
                let wgt = falloff(dist, d.hardness);
                h = (h + d.amount_elmos * wgt)
                    .clamp(params.min_height_elmos, params.max_height_elmos);
            }
            data[idx] = h;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Grid;

    #[test]
    fn params_are_the_size_the_shader_expects() {
        assert_eq!(std::mem::size_of::<DabParams>(), 32);
        assert_eq!(
            std::mem::size_of::<StrokeParams>(),
            32 + 32 * MAX_DABS_PER_DISPATCH
        );
    }

    #[test]
    fn falloff_is_one_inside_and_zero_outside() {
        assert_eq!(falloff(0.0, 0.3), 1.0);
        assert_eq!(falloff(0.2, 0.3), 1.0);
        assert_eq!(falloff(1.0, 0.3), 0.0);
        let mid = falloff(0.65, 0.3);
        assert!(mid > 0.3 && mid < 0.7, "{mid}");
    }

    #[test]
    fn raising_raises_the_centre_most_and_leaves_the_rest() {
        let mut g = Grid::filled(65, 65, 10.0f32);
        let dab = Dab {
            x_elmos: 256.0,
            z_elmos: 256.0,
            radius_elmos: 64.0,
            amount_elmos: 5.0,
            hardness: 0.0,
        };
        let p = StrokeParams::new(&[dab], 65, 65, -100.0, 400.0).unwrap();
        apply_raise_lower(&mut g, &p);
        assert_eq!(g.get(32, 32), 15.0);
        assert!(g.get(36, 32) > 10.0 && g.get(36, 32) < 15.0);
        assert_eq!(g.get(41, 32), 10.0);
        assert_eq!(g.get(0, 0), 10.0);
        // the rectangle covers the disc
        let r = p.rect();
        assert!(r.x0 <= 24 && r.x1() >= 41, "{r:?}");
    }

    #[test]
    fn heights_are_clamped_to_the_map_range() {
        let mut g = Grid::filled(17, 17, 390.0f32);
        let dab = Dab {
            x_elmos: 64.0,
            z_elmos: 64.0,
            radius_elmos: 32.0,
            amount_elmos: 50.0,
            hardness: 1.0,
        };
        let p = StrokeParams::new(&[dab], 17, 17, -100.0, 400.0).unwrap();
        apply_raise_lower(&mut g, &p);
        assert_eq!(g.get(8, 8), 400.0);
    }

    #[test]
    fn dabs_off_the_map_give_nothing() {
        let dab = Dab {
            x_elmos: -1000.0,
            z_elmos: 64.0,
            radius_elmos: 32.0,
            amount_elmos: 5.0,
            hardness: 0.5,
        };
        assert!(StrokeParams::new(&[dab], 17, 17, -100.0, 400.0).is_none());
    }

    #[test]
    fn a_stroke_spreads_its_height_over_spaced_dabs() {
        let b = RaiseLowerBrush {
            radius_elmos: 100.0,
            rate_elmos_per_s: 100.0,
            hardness: 0.5,
        };
        let dabs = b.dabs_along([0.0, 0.0], [100.0, 0.0], 0.5, true);
        assert_eq!(dabs.len(), 4);
        let total: f32 = dabs.iter().map(|d| d.amount_elmos).sum();
        assert!((total + 50.0).abs() < 1e-4);
        assert_eq!(dabs.last().unwrap().x_elmos, 100.0);
    }
}
