//! The hydraulic erosion's twin over a whole dispatch, on arrays: the per-cell twin (which
//! follows the WGSL) works out a cell's water, pipes and outflow scale again for every
//! neighbour that reads them, some twenty times a cell a step; here each is computed once a
//! pass into an array, with the same f32 arithmetic in the same order (the shared functions of
//! the parent module), rows on every core. The storm and the rain, fixed for a dispatch, are
//! computed once. A test checks the bits against the per-pass twin.
//!
//! The arrays cover the dispatch's rectangle with a border of [`PAD`] cells that hold what the
//! per-cell twin reads off the rectangle (no water, so outside the domain; no flux), so the
//! loops index neighbours without bounds tests. The ground is read from the source rectangle
//! through per-row and per-column tables of the prelude's clamped `source_at`.

use rayon::prelude::*;

use super::{
    FLUX_KEEP, Numbers, PIPE, Sim, erode_cell, hat, room_of, settle_room_of, spread_load,
    velocity_of,
};
use crate::edit::kernel::{CellView, Dispatch};
use crate::map::Grid;

/// A cell's state: water depth (-1 outside the domain), sediment, flux across +x and +z.
type State = [f32; 4];

/// What the per-cell twin reads off the rectangle: outside the domain, nothing carried.
const OFF: State = [-1.0, 0.0, 0.0, 0.0];

/// The border around the rectangle: the farthest any pass reads (`settle_4`).
const PAD: usize = 4;

/// The rectangle with its border, and where the ground of each of its cells lies.
struct Frame {
    x0: i32,
    z0: i32,
    w: usize,
    h: usize,
    /// The padded width (a row's stride).
    pw: usize,
    /// The source rectangle's width (the ground's stride).
    src_w: usize,
    /// Per row j of the rectangle, from j = -1 to h: the offset of the ground's row.
    ground_rows: Vec<usize>,
    /// Per column i, from i = -1 to w: the ground's column.
    ground_cols: Vec<usize>,
}

impl Frame {
    /// The index of the rectangle's cell (i, j) in a padded array.
    #[inline]
    fn cell(&self, i: usize, j: usize) -> usize {
        (j + PAD) * self.pw + i + PAD
    }

    fn padded_len(&self) -> usize {
        self.pw * (self.h + 2 * PAD)
    }

    /// The ground index of cell (i + di, j + dj), di and dj in -1..=1.
    #[inline]
    fn ground(&self, i: usize, j: usize, di: usize, dj: usize) -> usize {
        self.ground_rows[j + dj] + self.ground_cols[i + di]
    }
}

/// Fills the rectangle's cells of the padded `out`, a row at a time on every core, with
/// `cell(i, j, index)`.
fn fill<T: Send>(out: &mut [T], f: &Frame, cell: impl Fn(usize, usize, usize) -> T + Sync) {
    out.par_chunks_mut(f.pw)
        .skip(PAD)
        .take(f.h)
        .enumerate()
        .for_each(|(j, row)| {
            for (i, v) in row[PAD..PAD + f.w].iter_mut().enumerate() {
                *v = cell(i, j, f.cell(i, j));
            }
        });
}

/// Fills the rectangle's cells of `ground` (over the source rectangle) and of the padded
/// `state`, a row at a time on every core, with `cell(i, j, index)`.
fn fill_both(
    ground: &mut [f32],
    state: &mut [State],
    f: &Frame,
    cell: impl Fn(usize, usize, usize) -> (f32, State) + Sync,
) {
    // the rectangle's rows lie whole in the source rectangle
    let (first, col0) = (f.ground_rows[1], f.ground_cols[1]);
    ground[first..]
        .par_chunks_mut(f.src_w)
        .take(f.h)
        .zip(state.par_chunks_mut(f.pw).skip(PAD))
        .enumerate()
        .for_each(|(j, (g_row, s_row))| {
            for i in 0..f.w {
                let (h, st) = cell(i, j, f.cell(i, j));
                g_row[col0 + i] = h;
                s_row[PAD + i] = st;
            }
        });
}

/// Runs every pass of `d` (a hydraulic erosion dispatch) over `target`.
pub(super) fn run_dispatch(d: &Dispatch, target: &mut Grid<f32>) {
    let p = &d.params;
    let (rect, src) = (p.rect(), p.src_rect());
    if rect.is_empty() {
        return;
    }
    let n = Numbers::of(&p.tool);
    let view = CellView {
        params: p,
        source: None,
        state_source: None,
        mask: d.mask.as_deref(),
        stamp: None,
        original: None,
    };
    let sim = Sim {
        view: &view,
        n: Numbers::of(&p.tool),
    };
    // the prelude's source_at: clamped to the layer, then to the source rectangle
    let clamp = |v: i32, layer: u32, origin: usize, size: usize| {
        (v.clamp(0, layer as i32 - 1) - origin as i32).clamp(0, size as i32 - 1) as usize
    };
    let (x0, z0) = (rect.x0 as i32, rect.z0 as i32);
    let f = Frame {
        x0,
        z0,
        w: rect.w,
        h: rect.h,
        pw: rect.w + 2 * PAD,
        src_w: src.w,
        ground_rows: (-1..=rect.h as i32)
            .map(|j| clamp(z0 + j, p.layer_size[1], src.z0, src.h) * src.w)
            .collect(),
        ground_cols: (-1..=rect.w as i32)
            .map(|i| clamp(x0 + i, p.layer_size[0], src.x0, src.w))
            .collect(),
    };
    let len = f.padded_len();
    let pos = |i: usize, j: usize| (f.x0 + i as i32, f.z0 + j as i32);
    // fixed for the dispatch: the storm, and the share of the water kept and the rain
    let mut storm = vec![0.0f32; len];
    fill(&mut storm, &f, |i, j, _| {
        let (x, z) = pos(i, j);
        sim.storm(x, z)
    });
    let mut keep_rain = vec![[0.0f32; 2]; len];
    fill(&mut keep_rain, &f, |i, j, c| {
        let (x, z) = pos(i, j);
        let w = view.group_weight([x as f32, z as f32]) * n.strength;
        [(1.0 - n.evaporation) * storm[c], n.rain * w]
    });

    let mut ground = target.copy_rect(src.x0, src.z0, src.w, src.h).into_vec();
    let mut ground_next = ground.clone();
    // the state starts at zero on the rectangle, as the per-pass twin's scratch does
    let mut state: Vec<State> = vec![OFF; len];
    fill(&mut state, &f, |_, _, _| [0.0; 4]);
    let mut state_next = state.clone();
    // the flow's arrays: water, tentative pipes (+x, +z), outflow scale, velocity
    let mut water = vec![0.0f32; len];
    let mut pipes = vec![[0.0f32; 2]; len];
    let mut scale = vec![0.0f32; len];
    let mut velocity = vec![[0.0f32; 2]; len];
    let pw = f.pw;

    for run in &d.passes {
        for _ in 0..run.repeat {
            let g = &ground;
            let st = &state;
            let edges = |c: usize| [st[c - 1][2], st[c][2], st[c - pw][3], st[c][3]];
            let around = |i: usize, j: usize| {
                [
                    g[f.ground(i, j, 0, 1)],
                    g[f.ground(i, j, 2, 1)],
                    g[f.ground(i, j, 1, 0)],
                    g[f.ground(i, j, 1, 2)],
                ]
            };
            match run.entry {
                "init" => fill(&mut state_next, &f, |i, j, _| {
                    let (x, z) = pos(i, j);
                    if sim.reached(x, z) { [0.0; 4] } else { OFF }
                }),
                "flow" => {
                    fill(&mut water, &f, |_, _, c| {
                        let [keep, rain] = keep_rain[c];
                        st[c][0] * keep + rain
                    });
                    let wat = &water;
                    fill(&mut pipes, &f, |i, j, c| {
                        let mut t = [0.0f32; 2];
                        if st[c][0] >= 0.0 {
                            let a = g[f.ground(i, j, 1, 1)] + wat[c];
                            for (axis, (q, gq)) in [
                                (c + 1, f.ground(i, j, 2, 1)),
                                (c + pw, f.ground(i, j, 1, 2)),
                            ]
                            .into_iter()
                            .enumerate()
                            {
                                if st[q][0] >= 0.0 {
                                    let b = g[gq] + wat[q];
                                    t[axis] = st[c][2 + axis] * FLUX_KEEP + PIPE * (a - b);
                                }
                            }
                        }
                        t
                    });
                    let tp = &pipes;
                    fill(&mut scale, &f, |_, _, c| {
                        let out = tp[c][0].max(0.0)
                            + tp[c][1].max(0.0)
                            + (-tp[c - 1][0]).max(0.0)
                            + (-tp[c - pw][1]).max(0.0);
                        let w = wat[c];
                        if out > w { w / out } else { 1.0 }
                    });
                    fill(&mut velocity, &f, |_, _, c| velocity_of(st[c][0], edges(c)));
                    let (sc, vel) = (&scale, &velocity);
                    fill(&mut state_next, &f, |_, _, c| {
                        let here = st[c];
                        if here[0] < 0.0 {
                            return OFF;
                        }
                        // the sediment traced along the velocity (`advected`)
                        let v = vel[c];
                        let (mut s, mut kept) = (0.0f32, 0.0f32);
                        for dz in -1..=1isize {
                            for dx in -1..=1isize {
                                let q = c.wrapping_add_signed(dz * pw as isize + dx);
                                if st[q][0] >= 0.0 {
                                    if st[q][1] != 0.0 {
                                        let vq = vel[q];
                                        s += st[q][1]
                                            * (hat(dx as f32 + vq[0]) * hat(dz as f32 + vq[1]));
                                    }
                                } else {
                                    kept += hat(v[0] - dx as f32) * hat(v[1] - dz as f32);
                                }
                            }
                        }
                        let advected = s + here[1] * kept;
                        // each pipe scaled by the cell it leaves (`flux`)
                        let flux = |axis: usize, next: usize| {
                            let t = tp[c][axis];
                            if t > 0.0 {
                                t * sc[c]
                            } else if t < 0.0 {
                                t * sc[next]
                            } else {
                                0.0
                            }
                        };
                        [wat[c], advected, flux(0, c + 1), flux(1, c + pw)]
                    });
                }
                "erode" => fill_both(&mut ground_next, &mut state_next, &f, |i, j, c| {
                    let h = g[f.ground(i, j, 1, 1)];
                    let here = st[c];
                    if here[0] < 0.0 {
                        return (h, OFF);
                    }
                    let room = room_of(h, around(i, j), n.repose_step);
                    erode_cell(here, edges(c), room, storm[c], &n)
                }),
                settle if settle.starts_with("settle_") => {
                    let k: usize = settle["settle_".len()..].parse().unwrap_or(1);
                    fill_both(&mut ground_next, &mut state_next, &f, |i, j, c| {
                        let h = g[f.ground(i, j, 1, 1)];
                        let here = st[c];
                        if here[0] < 0.0 {
                            return (h, OFF);
                        }
                        let others = [c - k, c + k, c - k * pw, c + k * pw]
                            .map(|q| (st[q][0] >= 0.0).then_some(st[q][1]));
                        let s = spread_load(here[1], others);
                        let (h, up) = settle_room_of(h, around(i, j), n.repose_step);
                        let dep = s.min(up).max(0.0);
                        (h + dep, [here[0], s - dep, here[2], here[3]])
                    })
                }
                // "finish": every grain still carried settles where it is
                _ => fill_both(&mut ground_next, &mut state_next, &f, |i, j, c| {
                    let h = g[f.ground(i, j, 1, 1)];
                    let here = st[c];
                    (if here[0] >= 0.0 { h + here[1] } else { h }, here)
                }),
            }
            // init and flow leave the ground as it is
            if run.entry != "flow" && run.entry != "init" {
                std::mem::swap(&mut ground, &mut ground_next);
            }
            std::mem::swap(&mut state, &mut state_next);
        }
    }
    let stride = target.width();
    for j in 0..f.h {
        let from = f.ground(0, j, 1, 1);
        let z = rect.z0 + j;
        target.data_mut()[z * stride + rect.x0..z * stride + rect.x1()]
            .copy_from_slice(&ground[from..from + rect.w]);
    }
}
