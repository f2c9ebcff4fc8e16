//! The generator's height kernel (`shaders/generate.wgsl`, one entry per height step) and its
//! CPU twin in the same f32 order, and the whole-map dispatches the generator runs: a step over
//! every cell, and the symmetrize kernel over every cell.

use crate::map::float::floor;
use std::sync::Arc;

use crate::edit::LayerId;
use crate::edit::kernel::PassRun;
use crate::edit::kernel::{CellView, CpuPass, Dispatch, Extra, GpuDab, KernelParams, KernelSpec};
use crate::edit::symmetry::{Isometry, SYMMETRIZE, symmetrize_tool_params};
use crate::edit::tools::noise::fbm;
use crate::map::{Grid, SymmetryMode};

pub static GENERATE: KernelSpec = KernelSpec {
    name: "generate",
    wgsl: concat!(
        include_str!("../../../shaders/noise_lib.wgsl"),
        include_str!("../../../shaders/generate.wgsl")
    ),
    dab_loop: false,
    entries: &[
        "base",
        "noise",
        "terrace",
        "plateau",
        "clamp_heights",
        "coast",
        "starts",
    ],
    extras: &[Extra::Source, Extra::Stamp],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// A dispatch of `entry` over the whole heights layer (`dims` vertices, `elmos_per_cell`
/// apart), with the kernel's numbers and its [`table`].
pub fn whole_map(
    entry: &'static str,
    dims: (usize, usize),
    elmos_per_cell: f32,
    tool: [f32; 16],
    starts: &Arc<Grid<f32>>,
) -> Dispatch {
    Dispatch {
        kernel: &GENERATE,
        layer: LayerId::Heights,
        params: whole_params(dims, elmos_per_cell, tool),
        passes: vec![PassRun::once(entry)],
        mask: None,
        stamp: Some(starts.clone()),
        original: None,
    }
}

/// The parameter block of a pass over every cell, with one dab over the whole layer.
fn whole_params(dims: (usize, usize), elmos_per_cell: f32, tool: [f32; 16]) -> KernelParams {
    let (w, h) = (dims.0 as u32, dims.1 as u32);
    let mut p = KernelParams {
        origin: [0, 0],
        size: [w, h],
        src_origin: [0, 0],
        src_size: [w, h],
        layer_size: [w, h],
        dab_count: 1,
        falloff: 3,
        shape: 0,
        elmos_per_cell,
        mask_size: [1, 1],
        tool,
        ..Default::default()
    };
    p.dabs[0] = GpuDab {
        center: [(w as f32 - 1.0) * 0.5, (h as f32 - 1.0) * 0.5],
        radius: (w as f32).hypot(h as f32),
        amount: 0.0,
        axis_x: [1.0, 0.0],
        axis_z: [0.0, 1.0],
    };
    p
}

/// The symmetrize kernel over the whole layer: every cell outside the fundamental sector takes
/// its image's value, so the heights are symmetric to the bit under mirrors, diagonals and
/// quarter turns.
pub fn symmetrize_whole(mode: SymmetryMode, dims: (usize, usize), elmos_per_cell: f32) -> Dispatch {
    Dispatch {
        kernel: &SYMMETRIZE,
        layer: LayerId::Heights,
        params: whole_params(dims, elmos_per_cell, symmetrize_tool_params(mode, 1.0, 0.0)),
        passes: vec![PassRun::once("main")],
        mask: None,
        stamp: None,
        original: None,
    }
}

/// `smoothstep`, as `step01` in the WGSL.
fn step01(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

fn dist2(a: [f32; 2], b: [f32; 2]) -> f32 {
    let dx = a[0] - b[0];
    let dz = a[1] - b[1];
    (dx * dx + dz * dz).sqrt()
}

fn segment_dist(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let abx = b[0] - a[0];
    let abz = b[1] - a[1];
    let len2 = (abx * abx + abz * abz).max(1e-6);
    let t = (((p[0] - a[0]) * abx + (p[1] - a[1]) * abz) / len2).clamp(0.0, 1.0);
    dist2(p, [a[0] + abx * t, a[1] + abz * t])
}

fn near_cell(v: f32) -> i32 {
    floor(v + 0.5) as i32
}

/// The kernel's table: row 0 the start count and the starts (elmos), row 1 the symmetry's
/// copy count and its copies (a00, a01, a10, a11, b0, b1 each).
pub fn table(starts: &[[f32; 2]], copies: &[Isometry]) -> Arc<Grid<f32>> {
    let w = (1 + 2 * starts.len()).max(1 + 6 * copies.len());
    let mut g = Grid::filled(w, 2, 0.0f32);
    g.set(0, 0, starts.len() as f32);
    for (k, s) in starts.iter().enumerate() {
        g.set(1 + 2 * k, 0, s[0]);
        g.set(2 + 2 * k, 0, s[1]);
    }
    g.set(0, 1, copies.len() as f32);
    for (k, c) in copies.iter().enumerate() {
        let v = [c.a[0][0], c.a[0][1], c.a[1][0], c.a[1][1], c.b[0], c.b[1]];
        for (j, x) in v.into_iter().enumerate() {
            g.set(1 + 6 * k + j, 1, x);
        }
    }
    Arc::new(g)
}

/// What the CPU twin reads from the table.
struct Table {
    starts: Vec<[f32; 2]>,
    /// (a00, a01, a10, a11, b0, b1).
    copies: Vec<[f32; 6]>,
}

impl Table {
    fn of(view: &CellView) -> Table {
        let t = view.stamp.expect("the generator reads its table");
        let n = t.get(0, 0) as usize;
        let m = (t.get(0, 1) as usize).max(1);
        Table {
            starts: (0..n)
                .map(|k| [t.get(1 + 2 * k, 0), t.get(2 + 2 * k, 0)])
                .collect(),
            copies: (0..m)
                .map(|k| std::array::from_fn(|j| t.get(1 + 6 * k + j, 1)))
                .collect(),
        }
    }

    fn copy_of(&self, k: usize, p: [f32; 2]) -> [f32; 2] {
        let c = &self.copies[k];
        [
            c[0] * p[0] + c[1] * p[1] + c[4],
            c[2] * p[0] + c[3] * p[1] + c[5],
        ]
    }

    /// `orbit` in the WGSL: the field averaged over the copies of `p`.
    fn orbit(&self, field: impl Fn([f32; 2]) -> f32, p: [f32; 2]) -> f32 {
        let m = self.copies.len();
        let mut sum = 0.0f32;
        for k in 0..m {
            sum += field(self.copy_of(k, p));
        }
        sum / m as f32 * (m as f32).sqrt().sqrt()
    }
}

/// `field` in the WGSL, for the tool numbers `t`.
fn field(which: u32, t: &[f32; 16], q: [f32; 2]) -> f32 {
    match which {
        0 => fbm(q, t[6], 4, t[1] as u32),
        1 => fbm([q[0] + 1733.0, q[1] - 911.0], t[6], 3, t[1] as u32 ^ 0x51),
        _ => {
            let seed = t[1] as u32;
            let (wl, warp) = (t[3], t[5]);
            let wx = fbm(q, wl * 1.7, 3, seed ^ 0x1234);
            let wz = fbm(q, wl * 1.7, 3, seed ^ 0x4321);
            fbm([q[0] + warp * wx, q[1] + warp * wz], wl, t[4] as u32, seed)
        }
    }
}

/// The preset's shape at `p` (elmos), 0..1: `shape` in the WGSL.
fn shape(preset: u32, p: [f32; 2], t: &[f32; 16], table: &Table) -> f32 {
    let (w, d) = (t[4], t[5]);
    let starts = &table.starts;
    let u = p[0] / w;
    let v = p[1] / d;
    let c = [0.5 * w, 0.5 * d];
    let side = w.min(d);
    let n = (0.5 + 0.5 * table.orbit(|q| field(0, t, q), p)).clamp(0.0, 1.0);
    match preset {
        1 => {
            let e = u.min(1.0 - u).min(v.min(1.0 - v)) * 2.0;
            let land = step01(0.0, 0.2, e + 0.25 * (n - 0.5));
            0.1 + 0.45 * land + 0.25 * land * n
        }
        2 => {
            let r = 0.2 * side;
            let mut near = 1e9f32;
            for s in starts {
                near = near.min(dist2(p, *s) / r);
            }
            let wobble = 0.3 * (n - 0.5);
            let own = 1.0 - step01(0.45, 1.1, near + wobble);
            let middle = 0.85 * (1.0 - step01(0.3, 0.9, dist2(p, c) / r + wobble));
            let isl = own.max(middle);
            0.08 + 0.55 * isl + 0.2 * isl * n
        }
        3 => {
            let q = table.orbit(|q| field(1, t, q), p).abs();
            let cut = 1.0 - step01(0.04, 0.14, q);
            0.85 - 0.6 * cut + 0.08 * (n - 0.5)
        }
        4 => 0.2 + 0.55 * n,
        5 => {
            let q = n * 3.0;
            let lv = floor(q).min(2.0);
            let f = q - lv;
            0.15 + 0.25 * (lv + step01(0.35, 0.65, f))
        }
        6 => {
            let lane = 0.09 * side;
            let mut near = 1e9f32;
            for s in starts {
                near = near.min(segment_dist(p, *s, c) / lane);
            }
            0.2 + 0.55 * step01(1.0, 3.0, near + 0.8 * (n - 0.5)) + 0.1 * n
        }
        _ => 0.33,
    }
}

/// The CPU twin of `generate.wgsl`, entry by entry.
fn cpu_twin(entry: &str, pass: &mut CpuPass) {
    let t = pass.params.tool;
    let epc = pass.params.elmos_per_cell;
    let world = move |i: [u32; 2]| [i[0] as f32 * epc, i[1] as f32 * epc];
    match entry {
        "base" => {
            let table = Table::of(&pass.view());
            pass.map_cells(|_, i, _| {
                let s = shape(t[0] as u32, world(i), &t, &table);
                t[2] + (t[3] - t[2]) * s
            });
        }
        "noise" => {
            let table = Table::of(&pass.view());
            pass.map_cells(|_, i, h| {
                let mut n = table.orbit(|q| field(2, &t, q), world(i));
                match t[0] as u32 {
                    1 => n = 1.0 - 2.0 * n.abs(),
                    2 => n = 2.0 * n.abs() - 1.0,
                    _ => {}
                }
                h + t[2] * n
            });
        }
        "terrace" => pass.map_cells(|_, _, h| {
            let s = t[0];
            let k = 1.0 - 0.95 * t[1];
            let q = h / s;
            let fl = floor(q);
            let f = q - fl;
            (fl + step01(1.0 - k, 1.0, f)) * s
        }),
        "plateau" => pass.map_cells(|_, _, h| {
            let (level, soft) = (t[0], t[1]);
            if h > level {
                level + soft * (1.0 - (-(h - level) / soft).exp())
            } else {
                h
            }
        }),
        "clamp_heights" => pass.map_cells(|_, _, h| h.clamp(t[0], t[1])),
        "coast" => pass.map_cells(|_, _, h| {
            let b = t[1];
            let mut h = h - t[0];
            if b > 0.0 && h > 0.0 && h < 2.0 * b {
                h *= step01(0.0, 2.0 * b, h);
            }
            h
        }),
        "starts" => {
            let starts = Table::of(&pass.view()).starts;
            let (r, min_land) = (t[0], t[1]);
            pass.map_cells(|view, i, _| {
                let p = world(i);
                let mut h = view.source_at(i[0] as i32, i[1] as i32);
                for s in &starts {
                    let d = dist2(p, *s);
                    if d < r {
                        let w = 1.0 - step01(0.5 * r, r, d);
                        let level = base_level(view, *s, r, min_land, epc);
                        h += (level - h) * w;
                    }
                }
                h
            });
        }
        other => unreachable!("generate has no entry {other}"),
    }
}

fn base_level(view: &CellView, s: [f32; 2], r: f32, min_land: f32, epc: f32) -> f32 {
    let q = 0.25 * r / epc;
    let (cx, cz) = (s[0] / epc, s[1] / epc);
    let mut sum = 0.0f32;
    sum += view.source_at(near_cell(cx), near_cell(cz));
    sum += view.source_at(near_cell(cx + q), near_cell(cz));
    sum += view.source_at(near_cell(cx - q), near_cell(cz));
    sum += view.source_at(near_cell(cx), near_cell(cz + q));
    sum += view.source_at(near_cell(cx), near_cell(cz - q));
    (sum / 5.0).max(min_land)
}
