//! Thermal erosion: wherever the ground is steeper than the talus angle, material slides to the
//! lower neighbours, `iterations` times a dab. Each iteration a cell sheds half its largest
//! excess over the talus, times the brush weight and strength, shared among its lower
//! neighbours by their excess: mass is kept. With symmetry on, the sector's result is copied.

use super::{
    KernelSpec, ParamKind, ParamSpec, PassRun, Reach, StrokeStart, Tool, ToolSettings, ToolSetup,
};
use crate::edit::brush::{Brush, Falloff};
use rayon::prelude::*;

use crate::edit::kernel::{CellView, CpuPass, Dispatch, Extra};
use crate::map::Grid;

pub struct ThermalErosion;
pub static THERMAL_EROSION: ThermalErosion = ThermalErosion;

static KERNEL: KernelSpec = KernelSpec {
    name: "thermal-erosion",
    wgsl: include_str!("../../../shaders/brush_erosion_thermal.wgsl"),
    dab_loop: false,
    entries: &["main"],
    extras: &[Extra::Source],
    cpu: cpu_twin,
    cpu_dispatch: Some(cpu_dispatch),
};

const DIAGONAL: f32 = std::f32::consts::SQRT_2;

fn inside(view: &CellView, x: i32, z: i32) -> bool {
    let s = view.params.layer_size;
    x >= 0 && z >= 0 && x < s[0] as i32 && z < s[1] as i32
}

/// A cell's largest and total excess over its 8 neighbours (`stats` in the WGSL).
fn stats(view: &CellView, x: i32, z: i32, talus: f32) -> (f32, f32) {
    let h = view.source_at(x, z);
    let (mut dmax, mut dtot) = (0.0f32, 0.0f32);
    for k in 0..9 {
        if k == 4 {
            continue;
        }
        let (dx, dz) = (k % 3 - 1, k / 3 - 1);
        if !inside(view, x + dx, z + dz) {
            continue;
        }
        let dist = if dx != 0 && dz != 0 { DIAGONAL } else { 1.0 };
        let d = h - view.source_at(x + dx, z + dz) - talus * dist;
        if d > 0.0 {
            dtot += d;
            dmax = dmax.max(d);
        }
    }
    (dmax, dtot)
}

/// The CPU twin of `brush_erosion_thermal.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    let (strength, talus) = (pass.params.tool[0], pass.params.tool[1]);
    pass.map_cells(|view, i, _| {
        let (x, z) = (i[0] as i32, i[1] as i32);
        let h = view.source_at(x, z);
        let weight = |cx: i32, cz: i32| view.group_weight([cx as f32, cz as f32]) * strength;
        let (dmax, dtot) = stats(view, x, z, talus);
        let out = if dtot > 0.0 {
            0.5 * weight(x, z) * dmax
        } else {
            0.0
        };
        let height_at = |qx, qz| inside(view, qx, qz).then(|| view.source_at(qx, qz));
        let shed_at = |qx, qz| {
            let (qmax, qtot) = stats(view, qx, qz, talus);
            (0.5 * weight(qx, qz) * qmax, qtot)
        };
        h - out + gain_from_neighbours(x, z, h, talus, height_at, shed_at)
    });
}

/// What a cell at (`x`, `z`) of height `h` gains in a pass: from each neighbour above it by
/// more than the talus, its share of what the neighbour sheds. `height_at` gives a
/// neighbour's height (`None` outside the layer), `shed_at` its half weighted largest excess
/// and its total excess; the two twins share this so they do the same f32 arithmetic.
#[inline(always)]
fn gain_from_neighbours(
    x: i32,
    z: i32,
    h: f32,
    talus: f32,
    height_at: impl Fn(i32, i32) -> Option<f32>,
    shed_at: impl Fn(i32, i32) -> (f32, f32),
) -> f32 {
    let mut gain = 0.0f32;
    for k in 0..9 {
        if k == 4 {
            continue;
        }
        let (dx, dz) = (k % 3 - 1, k / 3 - 1);
        let (qx, qz) = (x + dx, z + dz);
        let Some(q_height) = height_at(qx, qz) else {
            continue;
        };
        let dist = if dx != 0 && dz != 0 { DIAGONAL } else { 1.0 };
        let d = q_height - h - talus * dist;
        if d > 0.0 {
            let (shed, qtot) = shed_at(qx, qz);
            gain += shed * d / qtot;
        }
    }
    gain
}

/// The twin over a whole dispatch on arrays: each cell's excess (`stats`) and weight computed
/// once a pass (the per-cell twin computes them for the cell and again for each of its 8
/// neighbours), the same f32 arithmetic in the same order, rows on every core.
fn cpu_dispatch(d: &Dispatch, target: &mut Grid<f32>) {
    let p = &d.params;
    let (rect, src) = (p.rect(), p.src_rect());
    if rect.is_empty() {
        return;
    }
    let (strength, talus) = (p.tool[0], p.tool[1]);
    let (sw, sh) = (src.w, src.h);
    let (sx0, sz0) = (src.x0 as i32, src.z0 as i32);
    let layer = [p.layer_size[0] as i32, p.layer_size[1] as i32];
    let inside = |x: i32, z: i32| x >= 0 && z >= 0 && x < layer[0] && z < layer[1];
    let view = CellView {
        params: p,
        source: None,
        state_source: None,
        mask: d.mask.as_deref(),
        stamp: None,
        original: None,
    };
    // the weight of every source cell (a neighbour of the rectangle reads its own)
    let mut weight = vec![0.0f32; sw * sh];
    weight.par_chunks_mut(sw).enumerate().for_each(|(j, row)| {
        let z = (sz0 + j as i32) as f32;
        for (i, w) in row.iter_mut().enumerate() {
            *w = view.group_weight([(sx0 + i as i32) as f32, z]) * strength;
        }
    });
    let mut ground = target.copy_rect(src.x0, src.z0, sw, sh).into_vec();
    let mut next = ground.clone();
    let mut excess = vec![(0.0f32, 0.0f32); sw * sh];
    // the prelude's source_at, clamped to the layer then to the source rectangle, as tables:
    // the ground's row offset and column of source cells -1..=sh and -1..=sw
    let clamp = |v: i32, layer: i32, origin: i32, size: usize| {
        (v.clamp(0, layer - 1) - origin).clamp(0, size as i32 - 1) as usize
    };
    let rows: Vec<usize> = (-1..=sh as i32)
        .map(|j| clamp(sz0 + j, layer[1], sz0, sh) * sw)
        .collect();
    let cols: Vec<usize> = (-1..=sw as i32)
        .map(|i| clamp(sx0 + i, layer[0], sx0, sw))
        .collect();
    let steps: u32 = d.passes.iter().map(|r| r.repeat).sum();
    for _ in 0..steps {
        let g = &ground;
        excess.par_chunks_mut(sw).enumerate().for_each(|(j, row)| {
            let z = sz0 + j as i32;
            for (i, e) in row.iter_mut().enumerate() {
                let x = sx0 + i as i32;
                let h = g[rows[j + 1] + cols[i + 1]];
                let (mut dmax, mut dtot) = (0.0f32, 0.0f32);
                for k in 0..9 {
                    if k == 4 {
                        continue;
                    }
                    let (dx, dz) = (k % 3 - 1, k / 3 - 1);
                    if !inside(x + dx, z + dz) {
                        continue;
                    }
                    let dist = if dx != 0 && dz != 0 { DIAGONAL } else { 1.0 };
                    let q = rows[(j as i32 + 1 + dz) as usize] + cols[(i as i32 + 1 + dx) as usize];
                    let dd = h - g[q] - talus * dist;
                    if dd > 0.0 {
                        dtot += dd;
                        dmax = dmax.max(dd);
                    }
                }
                *e = (dmax, dtot);
            }
        });
        // the rectangle's neighbours inside the layer lie in the source rectangle (its halo)
        let local = |x: i32, z: i32| ((z - sz0) as usize) * sw + (x - sx0) as usize;
        next.par_chunks_mut(sw)
            .enumerate()
            .skip(rect.z0 - src.z0)
            .take(rect.h)
            .for_each(|(j, row)| {
                let z = sz0 + j as i32;
                for (i, out_h) in row
                    .iter_mut()
                    .enumerate()
                    .skip(rect.x0 - src.x0)
                    .take(rect.w)
                {
                    let x = sx0 + i as i32;
                    let c = local(x, z);
                    let h = ground[c];
                    let (dmax, dtot) = excess[c];
                    let out = if dtot > 0.0 {
                        0.5 * weight[c] * dmax
                    } else {
                        0.0
                    };
                    let height_at = |qx, qz| inside(qx, qz).then(|| ground[local(qx, qz)]);
                    let shed_at = |qx, qz| {
                        let q = local(qx, qz);
                        let (qmax, qtot) = excess[q];
                        (0.5 * weight[q] * qmax, qtot)
                    };
                    *out_h = h - out + gain_from_neighbours(x, z, h, talus, height_at, shed_at);
                }
            });
        std::mem::swap(&mut ground, &mut next);
    }
    let stride = target.width();
    for z in rect.z0..rect.z1() {
        let from = (z - src.z0) * sw + (rect.x0 - src.x0);
        target.data_mut()[z * stride + rect.x0..z * stride + rect.x1()]
            .copy_from_slice(&ground[from..from + rect.w]);
    }
}

static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "talus_deg",
        label: "Talus angle",
        help: "slopes steeper than this shed material, in degrees",
        kind: ParamKind::Number {
            min: 1.0,
            max: 80.0,
            default: 30.0,
            integer: false,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "iterations",
        label: "Iterations",
        help: "settling steps per dab",
        kind: ParamKind::Number {
            min: 1.0,
            max: 200.0,
            default: 10.0,
            integer: true,
        },
        applies_when: None,
    },
];

impl Tool for ThermalErosion {
    fn name(&self) -> &'static str {
        "thermal-erosion"
    }
    fn label(&self) -> &'static str {
        "Thermal erosion"
    }
    fn help(&self) -> &'static str {
        "Slopes steeper than the talus angle crumble onto their lower neighbours. Strength scales how much moves per iteration."
    }
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }
    fn default_brush(&self) -> Brush {
        super::brush_with(Falloff::Smooth, 0.8)
    }
    fn position_dependent(&self) -> bool {
        true
    }
    fn reach(&self, settings: &ToolSettings) -> Reach {
        Reach {
            scale: settings.brush.shape.reach_factor(),
            grow_cells: 1,
            halo_cells: 2,
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let epc = self.layer().elmos_per_cell();
        let mut tool = [0.0; 16];
        tool[0] = s.settings.brush.strength.clamp(0.0, 1.0);
        tool[1] = s
            .settings
            .number("talus_deg")
            .clamp(0.1, 89.0)
            .to_radians()
            .tan()
            * epc;
        Ok(ToolSetup {
            amount: 0.0,
            tool,
            passes: vec![PassRun {
                entry: "main",
                repeat: s.settings.number("iterations").clamp(1.0, 200.0) as u32,
            }],
            stamp: None,
        })
    }
}
