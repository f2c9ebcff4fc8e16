//! The contract between a tool, its WGSL kernel and the kernel's CPU twin: the parameter block
//! every kernel reads (`Stroke` in `shaders/brush_prelude.wgsl`), the bindings a kernel
//! declares beyond the prelude's three, the passes it runs, and the CPU twins of the prelude's
//! functions (falloff, dab weight, bilinear sampling) written in the same f32 order.
//!
//! A [`Dispatch`] is one kernel run over one rectangle of one layer: the GPU runs it through
//! `gpu::kernels`, the CPU through [`run_cpu`]. Both read the same [`KernelParams`] bytes.

use std::sync::Arc;

use bytemuck::{Pod, Zeroable};
use rayon::prelude::*;

use super::GridRect;
use super::layer::LayerId;
use crate::map::{Grid, Map};

/// The GPU copy of the layers, as the session needs it. `gpu::kernels` implements it over a
/// map's scene.
pub trait GpuLayers {
    /// Whether kernels run here (compute shaders and read-write storage textures).
    fn can_run(&self) -> bool;
    /// Runs the dispatches in order, in one submission.
    fn run(&mut self, dispatches: &[Dispatch]) -> Result<(), String>;
    /// Reads rectangles of a layer back, all in one go.
    fn read_rects(&mut self, layer: LayerId, rects: &[GridRect]) -> Result<Vec<Vec<f32>>, String>;
    /// Uploads values (row by row) over a rectangle of a layer.
    fn write_rect(&mut self, layer: LayerId, rect: GridRect, values: &[f32]);
    /// The document's layer changed in `rect` (the GPU copy already holds it): refresh what is
    /// derived from it (the terrain chunks' bounds).
    fn changed(&mut self, map: &Map, layer: LayerId, rect: GridRect);
}

/// Dabs one dispatch carries (the `dabs` array's length in the prelude).
pub const MAX_DABS_PER_DISPATCH: usize = 64;

/// The WGSL every kernel starts with: bindings 0-2, the parameter block, falloff, dab weight,
/// bilinear sampling.
const PRELUDE_WGSL: &str = include_str!("../../shaders/brush_prelude.wgsl");
/// The shared `main` of point-wise kernels: every dab, in order, through the tool's `apply`.
const DAB_LOOP_WGSL: &str = include_str!("../../shaders/brush_dab_loop.wgsl");

/// One dab in the layer's index space (32 bytes): local coordinates of a cell `p` are
/// `(dot(p - centre, axis_x), dot(p - centre, axis_z)) / radius`, so mirrored and turned copies
/// carry their own axes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct GpuDab {
    pub center: [f32; 2],
    pub radius: f32,
    /// The tool's per-dab number (height to add, blend, ...).
    pub amount: f32,
    pub axis_x: [f32; 2],
    pub axis_z: [f32; 2],
}

impl GpuDab {
    /// The local coordinates of cell `p`, in radii.
    pub fn local(&self, p: [f32; 2]) -> [f32; 2] {
        let dx = p[0] - self.center[0];
        let dz = p[1] - self.center[1];
        [
            (dx * self.axis_x[0] + dz * self.axis_x[1]) / self.radius,
            (dx * self.axis_z[0] + dz * self.axis_z[1]) / self.radius,
        ]
    }
}

/// The parameter block (`Stroke` in the prelude), 2176 bytes, std140-compatible.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct KernelParams {
    /// The first cell written, and how many (x, z).
    pub origin: [u32; 2],
    pub size: [u32; 2],
    /// The rectangle the source copy (and the state) covers.
    pub src_origin: [u32; 2],
    pub src_size: [u32; 2],
    pub layer_size: [u32; 2],
    pub dab_count: u32,
    /// [`super::brush::Falloff`] code.
    pub falloff: u32,
    /// [`super::brush::BrushShape`] code.
    pub shape: u32,
    pub elmos_per_cell: f32,
    pub mask_size: [u32; 2],
    /// The tool's own numbers; its file says which is which.
    pub tool: [f32; 16],
    pub dabs: [GpuDab; MAX_DABS_PER_DISPATCH],
}

impl Default for KernelParams {
    fn default() -> KernelParams {
        KernelParams::zeroed()
    }
}

impl KernelParams {
    pub fn rect(&self) -> GridRect {
        GridRect::new(
            self.origin[0] as usize,
            self.origin[1] as usize,
            self.size[0] as usize,
            self.size[1] as usize,
        )
    }

    pub fn src_rect(&self) -> GridRect {
        GridRect::new(
            self.src_origin[0] as usize,
            self.src_origin[1] as usize,
            self.src_size[0] as usize,
            self.src_size[1] as usize,
        )
    }

    pub fn active_dabs(&self) -> &[GpuDab] {
        &self.dabs[..self.dab_count as usize]
    }
}

/// A binding a kernel declares after the prelude's three (target, parameters, mask), in order
/// from binding 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extra {
    /// `texture_2d<f32>`: the target layer over `src_origin`/`src_size`, copied before each
    /// pass, so a kernel can read its neighbours without reading what the pass writes.
    Source,
    /// `texture_2d<f32>`, a whole-map image: for a height tool the heights as the map was
    /// opened (restore); for a texture mask the ground's heights as the stroke started (the
    /// texture brush's filters read them).
    Original,
    /// `texture_2d<f32>`: the stamp image (values 0..=1).
    Stamp,
    /// `texture_storage_2d<rgba32float, write>` over the source rectangle: state that lives
    /// across the passes of one dispatch (water, sediment), read through its copy.
    State,
    /// `texture_2d<f32>`: the state, copied before each pass.
    StateSource,
}

/// One entry point and how many times it runs in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassRun {
    pub entry: &'static str,
    pub repeat: u32,
}

impl PassRun {
    pub const fn once(entry: &'static str) -> PassRun {
        PassRun { entry, repeat: 1 }
    }
}

/// A kernel: its WGSL (the prelude, and the dab loop when asked, are put in front), the
/// bindings it declares, and its CPU twin, which is called once per pass with the entry's name.
pub struct KernelSpec {
    /// Unique; names the pipelines.
    pub name: &'static str,
    pub wgsl: &'static str,
    /// Put `brush_dab_loop.wgsl` in front: the kernel then only defines `apply`.
    pub dab_loop: bool,
    /// Its entry points (`main` for the dab loop).
    pub entries: &'static [&'static str],
    pub extras: &'static [Extra],
    pub cpu: fn(entry: &str, pass: &mut CpuPass),
    /// The same twin over a whole dispatch at once, on arrays (each value computed once per
    /// pass, not once per reader), where the per-pass twin is too slow for the whole map. It
    /// writes the same bits as `cpu` pass by pass, and a test of its tool checks that.
    pub cpu_dispatch: Option<fn(d: &Dispatch, target: &mut Grid<f32>)>,
}

impl KernelSpec {
    /// The WGSL module as the GPU compiles it.
    pub fn module_source(&self) -> String {
        let mut s = String::from(PRELUDE_WGSL);
        if self.dab_loop {
            s.push('\n');
            s.push_str(DAB_LOOP_WGSL);
        }
        s.push('\n');
        s.push_str(self.wgsl);
        s
    }

    pub fn uses(&self, extra: Extra) -> bool {
        self.extras.contains(&extra)
    }
}

impl std::fmt::Debug for KernelSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KernelSpec({})", self.name)
    }
}

/// One run of a kernel over one rectangle of one layer, with everything it reads.
#[derive(Clone, Debug)]
pub struct Dispatch {
    pub kernel: &'static KernelSpec,
    pub layer: LayerId,
    pub params: KernelParams,
    pub passes: Vec<PassRun>,
    pub mask: Option<Arc<Grid<f32>>>,
    pub stamp: Option<Arc<Grid<f32>>>,
    pub original: Option<Arc<Grid<f32>>>,
}

impl Dispatch {
    /// Every cell the dispatch may change.
    pub fn rect(&self) -> GridRect {
        self.params.rect()
    }
}

/// What the CPU twin of one pass reads and writes.
pub struct CpuPass<'a> {
    pub params: &'a KernelParams,
    /// The whole layer.
    pub target: &'a mut Grid<f32>,
    /// The source copy over the source rectangle.
    pub source: Option<&'a Grid<f32>>,
    pub state: Option<&'a mut Grid<[f32; 4]>>,
    pub state_source: Option<&'a Grid<[f32; 4]>>,
    pub mask: Option<&'a Grid<f32>>,
    pub stamp: Option<&'a Grid<f32>>,
    pub original: Option<&'a Grid<f32>>,
    /// The layer's cells [`CpuPass::map_cells`] computes, where not all of them: the others
    /// keep their values (a symmetrize pass after it overwrites them unread).
    pub only: Option<&'a [bool]>,
}

/// What a CPU twin sees of one cell's surroundings: everything but the target's other cells.
pub struct CellView<'a> {
    pub params: &'a KernelParams,
    pub source: Option<&'a Grid<f32>>,
    pub state_source: Option<&'a Grid<[f32; 4]>>,
    pub mask: Option<&'a Grid<f32>>,
    pub stamp: Option<&'a Grid<f32>>,
    pub original: Option<&'a Grid<f32>>,
}

impl<'a> CpuPass<'a> {
    pub fn view(&self) -> CellView<'_> {
        CellView {
            params: self.params,
            source: self.source,
            state_source: self.state_source,
            mask: self.mask,
            stamp: self.stamp,
            original: self.original,
        }
    }

    /// Sets every cell of the rectangle to `f(view, cell, its value)`, all computed from the
    /// values before the pass (rows in parallel).
    pub fn map_cells(&mut self, f: impl Fn(&CellView, [u32; 2], f32) -> f32 + Sync) {
        let rect = self.params.rect();
        if rect.is_empty() {
            return;
        }
        let stride = self.target.width();
        let view = CellView {
            params: self.params,
            source: self.source,
            state_source: self.state_source,
            mask: self.mask,
            stamp: self.stamp,
            original: self.original,
        };
        let only = self.only;
        let data = self.target.data_mut();
        data.par_chunks_mut(stride)
            .enumerate()
            .skip(rect.z0)
            .take(rect.h)
            .for_each(|(z, row)| {
                let wanted = only.map(|o| &o[z * stride..(z + 1) * stride]);
                for (x, v) in row.iter_mut().enumerate().take(rect.x1()).skip(rect.x0) {
                    if wanted.is_none_or(|w| w[x]) {
                        *v = f(&view, [x as u32, z as u32], *v);
                    }
                }
            });
    }

    /// Like [`CpuPass::map_cells`], also writing the state cell (at the cell's place in the
    /// source rectangle).
    pub fn map_cells_with_state(
        &mut self,
        f: impl Fn(&CellView, [u32; 2], f32) -> (f32, [f32; 4]) + Sync,
    ) {
        let rect = self.params.rect();
        if rect.is_empty() {
            return;
        }
        let view = self.view();
        let src = view.params.src_rect();
        let stride = self.target.width();
        type Row = (usize, Vec<(f32, [f32; 4])>);
        let results: Vec<Row> = (rect.z0..rect.z1())
            .into_par_iter()
            .map(|z| {
                let row = &self.target.row(z)[rect.x0..rect.x1()];
                let vals = row
                    .iter()
                    .enumerate()
                    .map(|(k, &v)| f(&view, [(rect.x0 + k) as u32, z as u32], v))
                    .collect();
                (z, vals)
            })
            .collect();
        let state = self
            .state
            .as_deref_mut()
            .expect("a kernel writing state declares Extra::State");
        let sw = state.width();
        for (z, vals) in results {
            for (k, (v, s)) in vals.into_iter().enumerate() {
                let x = rect.x0 + k;
                self.target.data_mut()[z * stride + x] = v;
                state.data_mut()[(z - src.z0) * sw + (x - src.x0)] = s;
            }
        }
    }

    /// The dab loop (`brush_dab_loop.wgsl`): every dab with weight above 0, in order, through
    /// `apply(value, cell, dab, weight)`.
    pub fn dab_loop(
        &mut self,
        apply: impl Fn(&CellView, f32, [u32; 2], &GpuDab, f32) -> f32 + Sync,
    ) {
        self.map_cells(|view, i, v0| {
            let p = [i[0] as f32, i[1] as f32];
            let mut v = v0;
            for dab in view.params.active_dabs() {
                let w = view.dab_weight(dab, p);
                if w > 0.0 {
                    v = apply(view, v, i, dab, w);
                }
            }
            v
        });
    }
}

impl CellView<'_> {
    /// The prelude's `dab_weight`: the falloff of the distance in local coordinates (circle:
    /// Euclidean; square and mask: the larger axis), times the mask.
    fn dab_weight(&self, dab: &GpuDab, p: [f32; 2]) -> f32 {
        dab_weight(self.params, self.mask, dab, p)
    }

    /// The prelude's `group_weight`: the largest weight any dab gives `p`.
    pub fn group_weight(&self, p: [f32; 2]) -> f32 {
        let mut w = 0.0f32;
        for dab in self.params.active_dabs() {
            w = w.max(self.dab_weight(dab, p));
        }
        w
    }

    /// The prelude's `source_at`: the source copy at layer cell (x, z), clamped to the layer.
    pub fn source_at(&self, x: i32, z: i32) -> f32 {
        let src = self.source.expect("the kernel declares Extra::Source");
        let p = self.params;
        let cx = x.clamp(0, p.layer_size[0] as i32 - 1) - p.src_origin[0] as i32;
        let cz = z.clamp(0, p.layer_size[1] as i32 - 1) - p.src_origin[1] as i32;
        src.get_clamped(cx as i64, cz as i64)
    }

    /// The state copy at layer cell (x, z) (stored at its place in the source rectangle);
    /// zero outside the written rectangle, where no pass ever writes it.
    pub fn state_at(&self, x: i32, z: i32) -> [f32; 4] {
        let st = self
            .state_source
            .expect("the kernel declares Extra::StateSource");
        let p = self.params;
        let (x0, z0) = (p.origin[0] as i32, p.origin[1] as i32);
        if x < x0 || z < z0 || x >= x0 + p.size[0] as i32 || z >= z0 + p.size[1] as i32 {
            return [0.0; 4];
        }
        st.get(
            (x - p.src_origin[0] as i32) as usize,
            (z - p.src_origin[1] as i32) as usize,
        )
    }
}

/// The prelude's `falloff_curve` for a code.
pub fn falloff_curve(code: u32, d: f32) -> f32 {
    use super::brush::Falloff;
    let f = match code {
        0 => Falloff::Smooth,
        1 => Falloff::Linear,
        2 => Falloff::Sharp,
        _ => Falloff::Flat,
    };
    f.weight(d)
}

/// The prelude's `dab_weight`.
fn dab_weight(params: &KernelParams, mask: Option<&Grid<f32>>, dab: &GpuDab, p: [f32; 2]) -> f32 {
    let l = dab.local(p);
    let d = if params.shape == 0 {
        (l[0] * l[0] + l[1] * l[1]).sqrt()
    } else {
        l[0].abs().max(l[1].abs())
    };
    let mut w = falloff_curve(params.falloff, d);
    if params.shape == 2
        && w > 0.0
        && let Some(m) = mask
    {
        w *= sample_unit(m, l);
    }
    w
}

/// The prelude's `sample_unit`: an image spread over local coordinates -1..=1 (bilinear,
/// texel centres at (i + 0.5) / size).
pub fn sample_unit(image: &Grid<f32>, l: [f32; 2]) -> f32 {
    let (w, h) = image.dims();
    let x = (l[0] * 0.5 + 0.5) * w as f32 - 0.5;
    let z = (l[1] * 0.5 + 0.5) * h as f32 - 0.5;
    image.sample_bilinear(x, z)
}

/// Scratch the CPU path keeps between dispatches (the state grids).
#[derive(Default)]
pub struct CpuScratch {
    state: Option<Grid<[f32; 4]>>,
}

/// Runs `d` on the CPU over `target` (the whole layer), as the GPU does: through the kernel's
/// whole-dispatch twin when it has one, else pass by pass.
pub fn run_cpu(d: &Dispatch, target: &mut Grid<f32>, scratch: &mut CpuScratch) {
    match d.kernel.cpu_dispatch {
        Some(run) => run(d, target),
        None => run_cpu_per_pass(d, target, scratch),
    }
}

/// Runs `d` on the CPU pass by pass through the kernel's per-pass twin (the reference the
/// whole-dispatch twins are tested against).
pub fn run_cpu_per_pass(d: &Dispatch, target: &mut Grid<f32>, scratch: &mut CpuScratch) {
    run_passes(d, target, scratch, None);
}

/// Runs `d`, a dispatch of point-wise passes, pass by pass on only the cells marked in
/// `only` (one flag a cell of the layer); the others keep their values.
pub fn run_cpu_on(d: &Dispatch, target: &mut Grid<f32>, scratch: &mut CpuScratch, only: &[bool]) {
    run_passes(d, target, scratch, Some(only));
}

fn run_passes(
    d: &Dispatch,
    target: &mut Grid<f32>,
    scratch: &mut CpuScratch,
    only: Option<&[bool]>,
) {
    let k = d.kernel;
    let src = d.params.src_rect();
    if k.uses(Extra::State) {
        scratch.state = Some(Grid::filled(src.w.max(1), src.h.max(1), [0.0; 4]));
    }
    for pass in &d.passes {
        for _ in 0..pass.repeat {
            let source = k
                .uses(Extra::Source)
                .then(|| target.copy_rect(src.x0, src.z0, src.w, src.h));
            let state_source = if k.uses(Extra::StateSource) {
                scratch.state.clone()
            } else {
                None
            };
            let mut cpu = CpuPass {
                params: &d.params,
                target: &mut *target,
                source: source.as_ref(),
                state: scratch.state.as_mut(),
                state_source: state_source.as_ref(),
                mask: d.mask.as_deref(),
                stamp: d.stamp.as_deref(),
                original: d.original.as_deref(),
                only,
            };
            (k.cpu)(pass.entry, &mut cpu);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_is_the_size_the_prelude_declares() {
        assert_eq!(std::mem::size_of::<GpuDab>(), 32);
        assert_eq!(
            std::mem::size_of::<KernelParams>(),
            128 + 32 * MAX_DABS_PER_DISPATCH
        );
        assert_eq!(std::mem::offset_of!(KernelParams, tool), 64);
        assert_eq!(std::mem::offset_of!(KernelParams, dabs), 128);
    }

    #[test]
    fn weights_follow_shape_and_axes() {
        let mut p = KernelParams {
            falloff: 3,
            ..Default::default()
        };
        let dab = GpuDab {
            center: [10.0, 10.0],
            radius: 4.0,
            amount: 1.0,
            axis_x: [1.0, 0.0],
            axis_z: [0.0, 1.0],
        };
        assert_eq!(
            dab_weight(&p, None, &dab, [13.0, 13.0]),
            0.0,
            "outside the circle"
        );
        p.shape = 1;
        assert_eq!(
            dab_weight(&p, None, &dab, [13.0, 13.0]),
            1.0,
            "inside the square"
        );
        // a mask that is white on its +x half
        p.shape = 2;
        let mask = Grid::from_vec(2, 1, vec![0.0, 1.0]).unwrap();
        assert_eq!(dab_weight(&p, Some(&mask), &dab, [13.0, 10.0]), 1.0);
        assert_eq!(dab_weight(&p, Some(&mask), &dab, [7.0, 10.0]), 0.0);
        // mirrored axes see the mask mirrored
        let mirrored = GpuDab {
            axis_x: [-1.0, 0.0],
            ..dab
        };
        assert_eq!(dab_weight(&p, Some(&mask), &mirrored, [7.0, 10.0]), 1.0);
    }
}
