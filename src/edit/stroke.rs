//! One stroke of one tool, from the button going down to it coming up: the path becomes world
//! dabs (the tool's spacing), each dab is copied by the map's symmetry, and the copies become
//! kernel dispatches over small rectangles. Copies whose rectangles meet run in one dispatch
//! (so overlapping mirror images stay symmetric); point-wise kernels take up to 64 dabs a
//! dispatch and more are cut into further dispatches, never dropped. Position-dependent tools
//! end each batch with the symmetrize kernel.

use std::sync::Arc;

use super::GridRect;
use super::brush::PathSpacer;
use super::kernel::{Dispatch, GpuDab, KernelParams, MAX_DABS_PER_DISPATCH, PassRun};
use super::layer::LayerId;
use super::symmetry::{self, Isometry, SYMMETRIZE};
use super::tools::{Reach, StrokeStart, StrokeStyle, Tool, ToolSettings, ToolSetup};
use crate::map::{Grid, Map, SymmetryMode};

/// A stroke in progress.
pub struct Stroke {
    pub tool: &'static dyn Tool,
    pub settings: ToolSettings,
    pub inverted: bool,
    mode: SymmetryMode,
    isos: Vec<Isometry>,
    spacer: PathSpacer,
    start: [f32; 2],
    start_height: f32,
    end: [f32; 2],
    end_height: f32,
    setup: ToolSetup,
    /// Dab positions not yet dispatched.
    pending: Vec<[f32; 2]>,
    /// Dabs dispatched so far (before symmetry).
    pub dabs: usize,
}

impl Stroke {
    /// Starts a stroke at `at` (elmos) on `map`, with its symmetry. Refuses points off the map
    /// and a symmetry the map's shape does not allow.
    pub fn begin(
        tool: &'static dyn Tool,
        settings: ToolSettings,
        inverted: bool,
        map: &Map,
        at: [f32; 2],
    ) -> Result<Stroke, String> {
        check_on_map(map, at)?;
        map.symmetry
            .check_map(map.size.width_units(), map.size.height_units())?;
        let start_height = map.height_at(at[0], at[1]);
        let mut stroke = Stroke {
            tool,
            settings,
            inverted,
            mode: map.symmetry,
            isos: symmetry::images(map.symmetry, map.size.width_elmos(), map.size.depth_elmos()),
            spacer: PathSpacer::new(at, 1.0),
            start: at,
            start_height,
            end: at,
            end_height: start_height,
            setup: ToolSetup::dab_amount(0.0),
            pending: Vec::new(),
            dabs: 0,
        };
        stroke.spacer = PathSpacer::new(at, stroke.settings.brush.spacing_elmos());
        stroke.setup = tool.setup(&stroke.start_ctx(map))?;
        if tool.style() != StrokeStyle::Segment {
            stroke.pending.push(at);
        }
        Ok(stroke)
    }

    fn start_ctx<'a>(&'a self, map: &'a Map) -> StrokeStart<'a> {
        StrokeStart {
            settings: &self.settings,
            map,
            inverted: self.inverted,
            start_elmos: self.start,
            start_height_elmos: self.start_height,
            end_elmos: self.end,
            end_height_elmos: self.end_height,
        }
    }

    /// The cursor moved to `at` (held `held_s` seconds since the last call): spaced tools lay
    /// dabs along the way, segment tools move their end.
    pub fn move_to(&mut self, map: &Map, at: [f32; 2], held_s: f32) {
        match self.tool.style() {
            StrokeStyle::Spaced => self.pending.extend(self.spacer.advance(at, held_s)),
            StrokeStyle::Click => {}
            StrokeStyle::Segment => {
                self.end = at;
                self.end_height = map.height_at(at[0], at[1]);
            }
        }
    }

    /// One more dab at `at` (a click tool's next point in a scripted path).
    pub fn add_dab(&mut self, at: [f32; 2]) {
        self.pending.push(at);
    }

    /// Where a segment tool runs from and to, while dragging.
    pub fn segment(&self) -> Option<([f32; 2], [f32; 2])> {
        (self.tool.style() == StrokeStyle::Segment).then_some((self.start, self.end))
    }

    /// The tool's line about the stroke in progress (a ramp's slope).
    pub fn describe(&self, map: &Map) -> Option<String> {
        self.tool.describe(&self.start_ctx(map))
    }

    /// What the tool has to say about this stroke on `map` (an undefined terrain type).
    pub fn warnings(&self, map: &Map) -> Vec<String> {
        self.tool.stroke_warnings(&self.start_ctx(map))
    }

    /// The dispatches for the dabs laid since the last call.
    pub fn take(&mut self, map: &Map, original: Option<&Arc<Grid<f32>>>) -> Vec<Dispatch> {
        let pending = std::mem::take(&mut self.pending);
        self.dispatches(map, &pending, original)
    }

    /// Ends the stroke at `at`: a segment tool makes its one shape now.
    pub fn finish(
        &mut self,
        map: &Map,
        at: [f32; 2],
        original: Option<&Arc<Grid<f32>>>,
    ) -> Result<Vec<Dispatch>, String> {
        if self.tool.style() == StrokeStyle::Segment {
            check_on_map(map, at)?;
            self.move_to(map, at, 0.0);
            self.setup = self.tool.setup(&self.start_ctx(map))?;
            let mid = [
                0.5 * (self.start[0] + self.end[0]),
                0.5 * (self.start[1] + self.end[1]),
            ];
            self.pending.push(mid);
        }
        Ok(self.take(map, original))
    }

    fn dispatches(
        &mut self,
        map: &Map,
        positions: &[[f32; 2]],
        original: Option<&Arc<Grid<f32>>>,
    ) -> Vec<Dispatch> {
        if positions.is_empty() {
            return Vec::new();
        }
        self.dabs += positions.len();
        let layer = self.tool.layer_for(&self.settings);
        let dims = layer.dims(map);
        let reach = self.tool.reach(&self.settings);
        let ctx = self.start_ctx(map);
        // each dab's copies, in the layer's cells
        let groups: Vec<Vec<GpuDab>> = positions
            .iter()
            .map(|&p| {
                let d = self.tool.dab(&ctx, &self.setup, p);
                self.isos
                    .iter()
                    .map(|iso| {
                        let c = iso.apply(d.center_elmos);
                        GpuDab {
                            center: layer.to_cells(c[0], c[1]),
                            radius: (d.radius_elmos / layer.elmos_per_cell()).max(0.5),
                            amount: d.amount,
                            axis_x: iso.turn(d.axis_x),
                            axis_z: iso.turn(d.axis_z),
                        }
                    })
                    .collect()
            })
            .collect();
        let plan = Plan {
            stroke: self,
            layer,
            dims,
            reach,
            original: original.filter(|_| self.tool.kernel().uses(super::kernel::Extra::Original)),
        };
        let mut out = Vec::new();
        if self.tool.kernel().dab_loop {
            // every copy's path as one cluster member; clusters of copies that meet
            let n = self.isos.len();
            let image_rects: Vec<GridRect> = (0..n)
                .map(|k| {
                    groups
                        .iter()
                        .fold(GridRect::default(), |r, g| r.union(&plan.dab_rect(&g[k])))
                })
                .collect();
            let clusters = clusters(&image_rects);
            let batches: Vec<Vec<GpuDab>> = clusters
                .iter()
                .map(|c| {
                    groups
                        .iter()
                        .flat_map(|g| c.iter().map(move |&k| g[k]))
                        .collect()
                })
                .collect();
            for dabs in &batches {
                for chunk in dabs.chunks(MAX_DABS_PER_DISPATCH) {
                    out.push(plan.dispatch(chunk));
                }
            }
            if plan.symmetrize() {
                for dabs in &batches {
                    for chunk in dabs.chunks(MAX_DABS_PER_DISPATCH) {
                        out.push(plan.symmetrize_dispatch(chunk));
                    }
                }
            }
        } else {
            for g in &groups {
                let rects: Vec<GridRect> = g.iter().map(|d| plan.dab_rect(d)).collect();
                let clusters = clusters(&rects);
                let batches: Vec<Vec<GpuDab>> = clusters
                    .iter()
                    .map(|c| c.iter().map(|&k| g[k]).collect())
                    .collect();
                for dabs in &batches {
                    out.push(plan.dispatch(dabs));
                }
                if plan.symmetrize() {
                    for dabs in &batches {
                        out.push(plan.symmetrize_dispatch(dabs));
                    }
                }
            }
        }
        out
    }
}

/// What every dispatch of one batch shares.
struct Plan<'a> {
    stroke: &'a Stroke,
    layer: LayerId,
    dims: (usize, usize),
    reach: Reach,
    original: Option<&'a Arc<Grid<f32>>>,
}

impl Plan<'_> {
    /// The cells a dab writes.
    fn dab_rect(&self, d: &GpuDab) -> GridRect {
        GridRect::around(
            d.center[0],
            d.center[1],
            d.radius * self.reach.scale + self.reach.grow_cells as f32,
            self.dims.0,
            self.dims.1,
        )
    }

    fn symmetrize(&self) -> bool {
        self.stroke.tool.position_dependent() && self.stroke.isos.len() > 1
    }

    fn params(&self, dabs: &[GpuDab], halo: usize, tool: [f32; 16]) -> KernelParams {
        let rect = dabs
            .iter()
            .fold(GridRect::default(), |r, d| r.union(&self.dab_rect(d)));
        let src = rect.grown(halo, self.dims.0, self.dims.1);
        let brush = &self.stroke.settings.brush;
        let mask_size = brush
            .shape
            .mask()
            .map(|m| [m.values.width() as u32, m.values.height() as u32])
            .unwrap_or([1, 1]);
        let mut p = KernelParams {
            origin: [rect.x0 as u32, rect.z0 as u32],
            size: [rect.w as u32, rect.h as u32],
            src_origin: [src.x0 as u32, src.z0 as u32],
            src_size: [src.w as u32, src.h as u32],
            layer_size: [self.dims.0 as u32, self.dims.1 as u32],
            dab_count: dabs.len() as u32,
            falloff: brush.falloff as u32,
            shape: brush.shape.code(),
            elmos_per_cell: self.layer.elmos_per_cell(),
            mask_size,
            tool,
            ..Default::default()
        };
        p.dabs[..dabs.len()].copy_from_slice(dabs);
        p
    }

    fn dispatch(&self, dabs: &[GpuDab]) -> Dispatch {
        let s = self.stroke;
        Dispatch {
            kernel: s.tool.kernel(),
            layer: self.layer,
            params: self.params(dabs, self.reach.halo_cells as usize, s.setup.tool),
            passes: s.setup.passes.clone(),
            mask: s.settings.brush.shape.mask().map(|m| m.values.clone()),
            stamp: s.setup.stamp.clone(),
            original: self.original.cloned(),
        }
    }

    fn symmetrize_dispatch(&self, dabs: &[GpuDab]) -> Dispatch {
        let tool = symmetry::symmetrize_tool_params(
            self.stroke.mode,
            self.reach.scale,
            self.reach.grow_cells as f32,
        );
        Dispatch {
            kernel: &SYMMETRIZE,
            layer: self.layer,
            params: self.params(dabs, 0, tool),
            passes: vec![PassRun::once("main")],
            mask: None,
            stamp: None,
            original: None,
        }
    }
}

/// Groups of indices whose rectangles meet (directly or through others), in index order.
fn clusters(rects: &[GridRect]) -> Vec<Vec<usize>> {
    let n = rects.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..n {
        for j in i + 1..n {
            if rects[i].intersects(&rects[j]) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut slot = vec![usize::MAX; n];
    for (i, r) in rects.iter().enumerate() {
        if r.is_empty() {
            continue;
        }
        let r = root(&mut parent, i);
        if slot[r] == usize::MAX {
            slot[r] = out.len();
            out.push(Vec::new());
        }
        out[slot[r]].push(i);
    }
    out
}

/// `Ok` when (x, z) elmos lies on the map.
pub fn check_on_map(map: &Map, at: [f32; 2]) -> Result<(), String> {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    // (NaN is in no range)
    if !(0.0..=w).contains(&at[0]) || !(0.0..=d).contains(&at[1]) {
        return Err(format!(
            "({}, {}) is off the {w} x {d} elmo map",
            at[0], at[1]
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::tools;
    use crate::map::{MapSettings, MapSize};

    fn map(mode: SymmetryMode) -> Map {
        let mut m = Map::new(MapSize::new(4, 4).unwrap(), MapSettings::default());
        m.symmetry = mode;
        m
    }

    #[test]
    fn many_dabs_are_cut_into_dispatches_not_dropped() {
        let m = map(SymmetryMode::None);
        let raise = tools::find("raise").unwrap();
        let mut s = ToolSettings::defaults(raise);
        s.brush.radius_elmos = 40.0;
        let mut st = Stroke::begin(raise, s, false, &m, [10.0, 10.0]).unwrap();
        st.move_to(&m, [2000.0, 10.0], 0.0);
        let ds = st.take(&m, None);
        let total: u32 = ds.iter().map(|d| d.params.dab_count).sum();
        assert_eq!(total as usize, st.dabs);
        assert!(st.dabs > 150, "{}", st.dabs);
        assert!(ds.len() >= 3);
        assert!(
            ds.iter()
                .all(|d| d.params.dab_count as usize <= MAX_DABS_PER_DISPATCH)
        );
    }

    #[test]
    fn mirrored_copies_far_apart_run_in_their_own_rectangles() {
        let m = map(SymmetryMode::MirrorXZ);
        let raise = tools::find("raise").unwrap();
        let mut s = ToolSettings::defaults(raise);
        s.brush.radius_elmos = 64.0;
        let mut st = Stroke::begin(raise, s.clone(), false, &m, [200.0, 200.0]).unwrap();
        let ds = st.take(&m, None);
        assert_eq!(ds.len(), 4, "four corners, four small dispatches");
        for d in &ds {
            assert!(d.rect().area() < 40 * 40, "{:?}", d.rect());
        }
        // in the middle the copies meet and run together
        let mut st = Stroke::begin(raise, s, false, &m, [1020.0, 1020.0]).unwrap();
        let ds = st.take(&m, None);
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].params.dab_count, 4);
    }

    #[test]
    fn position_dependent_tools_end_with_symmetrize() {
        let m = map(SymmetryMode::MirrorX);
        let noise = tools::find("noise").unwrap();
        let mut st = Stroke::begin(
            noise,
            ToolSettings::defaults(noise),
            false,
            &m,
            [300.0, 300.0],
        )
        .unwrap();
        let ds = st.take(&m, None);
        assert_eq!(ds.last().unwrap().kernel.name, "symmetrize");
        let off = Stroke::begin(
            noise,
            ToolSettings::defaults(noise),
            false,
            &m,
            [3000.0, 30.0],
        );
        assert!(off.err().unwrap().contains("off the"));
    }

    #[test]
    fn clusters_join_through_chains() {
        let r = |x| GridRect::new(x, 0, 10, 10);
        assert_eq!(
            clusters(&[r(0), r(50), r(8), r(100), r(55)]),
            vec![vec![0, 2], vec![1, 4], vec![3]]
        );
    }
}
