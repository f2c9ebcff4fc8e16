//! The editing session, without a window: the document, its revision, the undo history, the
//! heights as opened (for restore), and the stroke in progress. The editor, `groundwork edit
//! --ops` and the tests all drive it the same way.
//!
//! A stroke runs on the GPU when a [`GpuLayers`] that can run kernels is given: the document
//! waits, and when the stroke ends its touched tiles are read back once and become one undo
//! step. Otherwise the CPU twins edit the document as the stroke goes (and, when there is a
//! GPU to show it, the changed rectangles are uploaded).

use std::sync::Arc;

use super::GridRect;
use super::generate::{Outcome, generate_with};
use super::history::{Change, EditState, History, TilePatch, TileValues, Touched, WholeMap};
use super::kernel::{CpuScratch, Dispatch, run_cpu};
use super::layer::{LayerId, TileSet, tile_rect};
use super::stroke::Stroke;
use super::tools::{Tool, ToolSettings};
use crate::map::recipe::Recipe;
use crate::map::resize::{Resize, Resized, resize, resize_heights};
use crate::map::{Grid, GroundTexture, Map};

pub use super::kernel::GpuLayers;

/// Where a stroke's kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Runner {
    Gpu,
    Cpu,
}

struct LiveStroke {
    stroke: Stroke,
    layer: LayerId,
    runner: Runner,
    tiles: TileSet,
    /// CPU runner: each tile's values before the stroke first wrote it.
    before: Vec<((usize, usize), Vec<f32>)>,
    /// CPU runner on a byte layer: the layer as floats while the stroke runs.
    work: Option<Grid<f32>>,
    /// A texture mask's stroke: the ground's heights as it starts, which the texture brush's
    /// filters read (through the kernel's `Original` binding).
    ground: Option<Arc<Grid<f32>>>,
}

/// What to do to a metal spot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpotEdit {
    /// Move it by whole cells so the point pressed lands at `to` (elmos).
    Move {
        to: [f32; 2],
    },
    /// Replace it with a dome of this radius and peak, at its centre.
    Reshape {
        radius_elmos: f32,
        peak: f32,
    },
    Delete,
}

/// How a stroke ended.
#[derive(Clone, Debug, PartialEq)]
pub struct StrokeReport {
    /// The undo step's description.
    pub what: String,
    pub dabs: usize,
    pub tiles: usize,
    /// The heights now reach outside the map's range (lowest, highest); the caller offers to
    /// widen the range or clip.
    pub out_of_range: Option<(f32, f32)>,
    /// What the user should hear (an undefined terrain type, a grass map BAR misreads).
    pub warnings: Vec<String>,
}

impl StrokeReport {
    /// The message for the user when the stroke left the height range.
    pub fn range_warning(&self, map: &Map) -> Option<String> {
        let (lo, hi) = self.out_of_range?;
        let s = &map.settings;
        let (wlo, whi) = widened_range(map, lo, hi);
        Some(format!(
            "the heights now run {lo:.1} .. {hi:.1} elmos, outside the map's range {:.0} .. {:.0}: \
             widen the range to {wlo:.0} .. {whi:.0} (the height words are re-encoded) or clip them",
            s.min_height_elmos, s.max_height_elmos
        ))
    }
}

/// The range that holds the map's and `lo..hi`, rounded out to 10 elmos.
pub fn widened_range(map: &Map, lo: f32, hi: f32) -> (f32, f32) {
    let s = &map.settings;
    (
        (s.min_height_elmos.min(lo) / 10.0).floor() * 10.0,
        (s.max_height_elmos.max(hi) / 10.0).ceil() * 10.0,
    )
}

pub struct Session {
    map: Arc<Map>,
    history: History,
    revision: u64,
    saved_revision: u64,
    /// The heights when the map was opened (restore's target).
    original_heights: Arc<Grid<f32>>,
    stroke: Option<LiveStroke>,
    scratch: CpuScratch,
    /// A live edit in progress (a slider held): its name and the state before it began.
    live: Option<(String, EditState)>,
    /// Bumped whenever the whole document is replaced (a resize, its undo and redo): the
    /// GPU copy has to be made again.
    replacements: u64,
}

impl Session {
    pub fn new(map: Map) -> Session {
        let original_heights = Arc::new(map.heights.clone());
        Session {
            map: Arc::new(map),
            history: History::default(),
            revision: 0,
            saved_revision: 0,
            original_heights,
            stroke: None,
            scratch: CpuScratch::default(),
            live: None,
            replacements: 0,
        }
    }

    /// A session whose restore target is `original` (the heights of an earlier session).
    pub fn with_original_heights(map: Map, original: Arc<Grid<f32>>) -> Session {
        Session {
            original_heights: original,
            ..Session::new(map)
        }
    }

    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The map, shared (save jobs hold it while the editor goes on).
    pub fn map_arc(&self) -> &Arc<Map> {
        &self.map
    }

    /// The map for a change that is not an undo step (settings, symmetry); bumps the revision.
    /// Copied first only if a save job still holds it.
    pub fn map_mut(&mut self) -> &mut Map {
        self.revision += 1;
        Arc::make_mut(&mut self.map)
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    /// Bumped on every change.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Changed since opened or last saved.
    pub fn dirty(&self) -> bool {
        self.revision != self.saved_revision
    }

    /// The current revision is what is on disk.
    pub fn mark_saved(&mut self, revision: u64) {
        self.saved_revision = revision;
    }

    /// Marks the document changed without a change (a new import not yet saved).
    pub fn mark_unsaved(&mut self) {
        if !self.dirty() {
            self.revision += 1;
        }
    }

    pub fn original_heights(&self) -> &Arc<Grid<f32>> {
        &self.original_heights
    }

    pub fn stroking(&self) -> bool {
        self.stroke.is_some()
    }

    /// The stroke in progress.
    pub fn stroke(&self) -> Option<&Stroke> {
        self.stroke.as_ref().map(|s| &s.stroke)
    }

    /// Starts a stroke of `tool` at `at` (elmos). It runs on `gpu` when that can run kernels.
    pub fn begin_stroke(
        &mut self,
        tool: &'static dyn Tool,
        settings: ToolSettings,
        inverted: bool,
        at: [f32; 2],
        gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<(), String> {
        if self.stroke.is_some() {
            return Err("a stroke is already running".into());
        }
        self.end_live_edit();
        let layer = tool.layer_for(&settings);
        let stroke = Stroke::begin(tool, settings, inverted, &self.map, at)?;
        let ground =
            matches!(layer, LayerId::TextureMask(_)).then(|| Arc::new(self.map.heights.clone()));
        let (tx, tz) = layer.tiles(&self.map);
        let runner = if gpu.as_ref().is_some_and(|g| g.can_run()) {
            Runner::Gpu
        } else {
            Runner::Cpu
        };
        let work = (runner == Runner::Cpu && layer.is_bytes()).then(|| layer.to_grid(&self.map));
        self.stroke = Some(LiveStroke {
            stroke,
            layer,
            runner,
            tiles: TileSet::new(tx, tz),
            before: Vec::new(),
            work,
            ground,
        });
        self.flush(gpu)
    }

    /// The cursor moved on to `at`, `held_s` seconds after the last call.
    pub fn stroke_to(
        &mut self,
        at: [f32; 2],
        held_s: f32,
        gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<(), String> {
        let Some(live) = &mut self.stroke else {
            return Err("no stroke is running".into());
        };
        live.stroke.move_to(&self.map, at, held_s);
        self.flush(gpu)
    }

    /// One more dab at `at` (a click tool's next point in a scripted path).
    pub fn stroke_dab(
        &mut self,
        at: [f32; 2],
        gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<(), String> {
        let Some(live) = &mut self.stroke else {
            return Err("no stroke is running".into());
        };
        super::stroke::check_on_map(&self.map, at)?;
        live.stroke.add_dab(at);
        self.flush(gpu)
    }

    /// What a kernel's `Original` binding shows: the heights as opened for a height tool,
    /// the heights as the stroke started for a texture mask's.
    fn original_for(&self, layer: LayerId) -> Option<Arc<Grid<f32>>> {
        match layer {
            LayerId::Heights => Some(self.original_heights.clone()),
            LayerId::TextureMask(_) => self.stroke.as_ref().and_then(|l| l.ground.clone()),
            _ => None,
        }
    }

    /// Runs the dabs laid so far.
    fn flush(&mut self, gpu: Option<&mut dyn GpuLayers>) -> Result<(), String> {
        let Some(layer) = self.stroke.as_ref().map(|l| l.layer) else {
            return Ok(());
        };
        let original = self.original_for(layer);
        let live = self.stroke.as_mut().expect("checked above");
        let dispatches = live.stroke.take(&self.map, original.as_ref());
        self.run(dispatches, gpu)
    }

    fn run(
        &mut self,
        dispatches: Vec<Dispatch>,
        gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<(), String> {
        if dispatches.is_empty() {
            return Ok(());
        }
        let Some(live) = &mut self.stroke else {
            return Ok(());
        };
        match live.runner {
            Runner::Gpu => {
                let g = gpu.ok_or("the stroke started on the GPU, which is gone")?;
                for d in &dispatches {
                    live.tiles.mark(d.rect());
                }
                g.run(&dispatches)
            }
            Runner::Cpu => {
                let layer = live.layer;
                let map = Arc::make_mut(&mut self.map);
                let target: &mut Grid<f32> = match &mut live.work {
                    Some(w) => w,
                    None => &mut map.heights,
                };
                let dims = target.dims();
                for d in &dispatches {
                    for t in live.tiles.mark(d.rect()) {
                        let r = tile_rect(dims, t.0, t.1);
                        live.before
                            .push((t, target.copy_rect(r.x0, r.z0, r.w, r.h).into_vec()));
                    }
                    run_cpu(d, target, &mut self.scratch);
                }
                if let Some(g) = gpu {
                    let rect = dispatches
                        .iter()
                        .fold(GridRect::default(), |r, d| r.union(&d.rect()));
                    let values = target
                        .copy_rect(rect.x0, rect.z0, rect.w, rect.h)
                        .into_vec();
                    g.write_rect(layer, rect, &values);
                }
                Ok(())
            }
        }
    }

    /// Ends the stroke at `at`: segment tools make their shape, the touched tiles are read back
    /// (GPU) and the whole stroke becomes one undo step. `None` when nothing changed.
    pub fn end_stroke(
        &mut self,
        at: [f32; 2],
        mut gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<Option<StrokeReport>, String> {
        let Some(layer) = self.stroke.as_ref().map(|l| l.layer) else {
            return Ok(None);
        };
        let original = self.original_for(layer);
        let live = self.stroke.as_mut().expect("checked above");
        let last = match live.stroke.finish(&self.map, at, original.as_ref()) {
            Ok(d) => d,
            Err(e) => {
                self.cancel_stroke(gpu);
                return Err(e);
            }
        };
        if let Err(e) = self.run(last, reborrow(&mut gpu)) {
            self.cancel_stroke(gpu);
            return Err(e);
        }
        let live = self.stroke.take().expect("checked above");
        let layer = live.layer;
        let tiles = live.tiles.list();
        if tiles.is_empty() {
            return Ok(None);
        }
        let dims = layer.dims(&self.map);
        let rects: Vec<GridRect> = tiles.iter().map(|t| tile_rect(dims, t.0, t.1)).collect();
        let mut patches = Vec::with_capacity(tiles.len());
        match live.runner {
            Runner::Gpu => {
                let g = gpu.ok_or("the stroke started on the GPU, which is gone")?;
                let after = g.read_rects(layer, &rects)?;
                let map = Arc::make_mut(&mut self.map);
                for (rect, after) in rects.iter().zip(after) {
                    let before = layer.read_rect(map, *rect);
                    layer.write_rect(map, *rect, &after);
                    if layer.is_bytes() {
                        // the GPU keeps what the document keeps: whole bytes
                        g.write_rect(layer, *rect, &layer.read_rect(map, *rect));
                    }
                    patches.push(TilePatch {
                        layer,
                        rect: *rect,
                        before: TileValues::from_f32(layer, before),
                        after: TileValues::from_f32(layer, after),
                    });
                }
                let all = rects.iter().fold(GridRect::default(), |r, t| r.union(t));
                g.changed(map, layer, all);
            }
            Runner::Cpu => {
                let map = Arc::make_mut(&mut self.map);
                // the stroke met the tiles in its own order; the list runs row by row
                let mut befores = live.before;
                befores.sort_by_key(|(t, _)| (t.1, t.0));
                for ((_, before), rect) in befores.into_iter().zip(&rects) {
                    let after = match &live.work {
                        Some(w) => w.copy_rect(rect.x0, rect.z0, rect.w, rect.h).into_vec(),
                        None => layer.read_rect(map, *rect),
                    };
                    if live.work.is_some() {
                        layer.write_rect(map, *rect, &after);
                    }
                    patches.push(TilePatch {
                        layer,
                        rect: *rect,
                        before: TileValues::from_f32(layer, before),
                        after: TileValues::from_f32(layer, after),
                    });
                }
                if let Some(g) = gpu {
                    let all = rects.iter().fold(GridRect::default(), |r, t| r.union(t));
                    if layer.is_bytes() {
                        for rect in &rects {
                            g.write_rect(layer, *rect, &layer.read_rect(map, *rect));
                        }
                    }
                    g.changed(map, layer, all);
                }
            }
        }
        let out_of_range = if layer == LayerId::Heights {
            self.heights_outside_range(&patches)
        } else {
            None
        };
        let mut warnings = live.stroke.warnings(&self.map);
        if layer == LayerId::Grass {
            let max = self.map.grass.data().iter().copied().max().unwrap_or(0);
            warnings.extend(crate::map::grass::grass_map_warning(max));
        }
        let change = Change::Tiles {
            what: format!("{} stroke", live.stroke.tool.label().to_lowercase()),
            patches,
        };
        let report = StrokeReport {
            what: change.describe(),
            dabs: live.stroke.dabs,
            tiles: tiles.len(),
            out_of_range,
            warnings,
        };
        self.history.push(change);
        self.revision += 1;
        Ok(Some(report))
    }

    /// Drops the stroke in progress and puts back what it changed.
    pub fn cancel_stroke(&mut self, gpu: Option<&mut dyn GpuLayers>) {
        let Some(live) = self.stroke.take() else {
            return;
        };
        let layer = live.layer;
        let dims = layer.dims(&self.map);
        match live.runner {
            Runner::Gpu => {
                if let Some(g) = gpu {
                    for t in live.tiles.list() {
                        let r = tile_rect(dims, t.0, t.1);
                        g.write_rect(layer, r, &layer.read_rect(&self.map, r));
                    }
                }
            }
            Runner::Cpu => {
                let map = Arc::make_mut(&mut self.map);
                let touched: Vec<GridRect> = live
                    .before
                    .iter()
                    .map(|(t, _)| tile_rect(dims, t.0, t.1))
                    .collect();
                if live.work.is_none() {
                    for ((_, before), r) in live.before.iter().zip(&touched) {
                        layer.write_rect(map, *r, before);
                    }
                }
                if let Some(g) = gpu {
                    for r in &touched {
                        g.write_rect(layer, *r, &layer.read_rect(map, *r));
                    }
                }
            }
        }
    }

    fn heights_outside_range(&self, patches: &[TilePatch]) -> Option<(f32, f32)> {
        let s = &self.map.settings;
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        for p in patches {
            if let TileValues::Heights(v) = &p.after {
                for &h in v {
                    lo = lo.min(h);
                    hi = hi.max(h);
                }
            }
        }
        (lo < s.min_height_elmos || hi > s.max_height_elmos).then_some((lo, hi))
    }

    /// Reverts the last step; returns its description.
    pub fn undo(&mut self, gpu: Option<&mut dyn GpuLayers>) -> Option<String> {
        self.step(false, gpu)
    }

    /// Re-applies the last undone step; returns its description.
    pub fn redo(&mut self, gpu: Option<&mut dyn GpuLayers>) -> Option<String> {
        self.step(true, gpu)
    }

    fn step(&mut self, forward: bool, gpu: Option<&mut dyn GpuLayers>) -> Option<String> {
        if self.stroke.is_some() {
            return None;
        }
        self.end_live_edit();
        let map = Arc::make_mut(&mut self.map);
        let (what, touched) = if forward {
            self.history.redo(map)?
        } else {
            self.history.undo(map)?
        };
        self.revision += 1;
        match touched {
            Touched::Tiles(rects) => {
                if let Some(g) = gpu {
                    upload(g, map, &rects);
                }
            }
            Touched::Document(original) => {
                self.original_heights = original;
                self.replacements += 1;
            }
            Touched::Settings => {}
        }
        Some(what)
    }

    /// Records a whole-layer replacement (an imported heightmap) as one undo step; only tiles
    /// that differ are kept.
    pub fn replace_layer(
        &mut self,
        layer: LayerId,
        values: &Grid<f32>,
        what: &str,
        gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<(), String> {
        if self.stroke.is_some() {
            return Err("finish the stroke first".into());
        }
        let dims = layer.dims(&self.map);
        if values.dims() != dims {
            return Err(format!(
                "the new {} are {}x{}, the map's are {}x{}",
                layer.name(),
                values.width(),
                values.height(),
                dims.0,
                dims.1
            ));
        }
        let (tx, tz) = layer.tiles(&self.map);
        let map = Arc::make_mut(&mut self.map);
        let mut patches = Vec::new();
        for t in 0..tx * tz {
            let rect = tile_rect(dims, t % tx, t / tx);
            let before = layer.read_rect(map, rect);
            let after = values
                .copy_rect(rect.x0, rect.z0, rect.w, rect.h)
                .into_vec();
            if before != after {
                layer.write_rect(map, rect, &after);
                patches.push(TilePatch {
                    layer,
                    rect,
                    before: TileValues::from_f32(layer, before),
                    after: TileValues::from_f32(layer, after),
                });
            }
        }
        if patches.is_empty() {
            return Ok(());
        }
        if let Some(g) = gpu {
            let rects: Vec<(LayerId, GridRect)> =
                patches.iter().map(|p| (p.layer, p.rect)).collect();
            upload(g, map, &rects);
        }
        self.history.push(Change::Tiles {
            what: what.to_string(),
            patches,
        });
        self.revision += 1;
        Ok(())
    }

    /// Replaces the heights with a heightmap image (values 0..=1 = height words 0..=65535 in
    /// the map's range, as `height.png`), resampled when its size is not the map's, as one
    /// undo step. Returns a note when it was resampled.
    pub fn import_heightmap(
        &mut self,
        image: &Grid<f32>,
        gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<Option<String>, String> {
        let (w, h) = self.map.heights.dims();
        let (iw, ih) = image.dims();
        let (lo, hi) = (
            self.map.settings.min_height_elmos,
            self.map.settings.max_height_elmos,
        );
        let grid = crate::map::heights_from_unit_image(image, (w, h), lo, hi);
        self.replace_layer(LayerId::Heights, &grid, "import heightmap", gpu)?;
        Ok(((iw, ih) != (w, h))
            .then(|| format!("the image is {iw}x{ih}; resampled to the map's {w}x{h} vertices")))
    }

    /// Moves, reshapes or deletes the metal spot under `at` (elmos), and its symmetric copies,
    /// as one undo step. Returns what it did, or `None` when no spot is there.
    pub fn edit_spot(
        &mut self,
        at: [f32; 2],
        edit: SpotEdit,
        gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<Option<String>, String> {
        use crate::map::metal::{METAL_CELL_ELMOS, paint_dome, patch_at, patch_centre};
        if self.stroke.is_some() {
            return Err("finish the stroke first".into());
        }
        super::stroke::check_on_map(&self.map, at)?;
        let m = &self.map;
        let isos = super::symmetry::images(m.symmetry, m.size.width_elmos(), m.size.depth_elmos());
        let (w, h) = m.metal.dims();
        let cell = |p: [f32; 2]| {
            (
                ((p[0] / METAL_CELL_ELMOS) as usize).min(w - 1),
                ((p[1] / METAL_CELL_ELMOS) as usize).min(h - 1),
            )
        };
        // the patch under each copy of the point, each once, with its copy of the move
        type Cells = Vec<(usize, usize)>;
        let mut patches: Vec<(Cells, [f32; 2])> = Vec::new();
        for iso in &isos {
            let p = iso.apply(at);
            let (i, j) = cell(p);
            let Some(cells) = patch_at(&m.metal, i, j, 1) else {
                continue;
            };
            let delta = match edit {
                SpotEdit::Move { to } => iso.turn([to[0] - at[0], to[1] - at[1]]),
                _ => [0.0, 0.0],
            };
            if !patches.iter().any(|(c, _)| c[0] == cells[0]) {
                patches.push((cells, delta));
            }
        }
        if patches.is_empty() {
            return Ok(None);
        }
        let mut metal = m.metal.clone();
        let old = m.metal.clone();
        for (cells, _) in &patches {
            for &(x, z) in cells {
                metal.set(x, z, 0);
            }
        }
        for (cells, delta) in &patches {
            match edit {
                SpotEdit::Delete => {}
                SpotEdit::Move { .. } => {
                    let (dx, dz) = (
                        (delta[0] / METAL_CELL_ELMOS).round() as i64,
                        (delta[1] / METAL_CELL_ELMOS).round() as i64,
                    );
                    for &(x, z) in cells {
                        let (nx, nz) = (x as i64 + dx, z as i64 + dz);
                        if nx >= 0 && nz >= 0 && (nx as usize) < w && (nz as usize) < h {
                            let b = old.get(x, z).max(metal.get(nx as usize, nz as usize));
                            metal.set(nx as usize, nz as usize, b);
                        }
                    }
                }
                SpotEdit::Reshape { radius_elmos, peak } => {
                    let c = patch_centre(cells);
                    paint_dome(&mut metal, c[0], c[1], radius_elmos, peak);
                }
            }
        }
        let what = match edit {
            SpotEdit::Move { .. } => "move metal spot",
            SpotEdit::Delete => "delete metal spot",
            SpotEdit::Reshape { .. } => "reshape metal spot",
        };
        let values =
            Grid::from_vec(w, h, metal.data().iter().map(|&b| b as f32).collect()).expect("sized");
        self.replace_layer(LayerId::Metal, &values, what, gpu)?;
        let n = patches.len();
        Ok(Some(if n == 1 {
            what.to_string()
        } else {
            format!("{what} and its {} copies", n - 1)
        }))
    }

    /// Sets the height range (elmos at word 0 and 65536) as an undo step; the heights stay.
    pub fn set_height_range(&mut self, min_elmos: f32, max_elmos: f32) -> Result<(), String> {
        if !(min_elmos.is_finite() && max_elmos.is_finite() && max_elmos > min_elmos) {
            return Err(format!(
                "the height range {min_elmos} .. {max_elmos} is not a range"
            ));
        }
        let s = &self.map.settings;
        let before = (s.min_height_elmos, s.max_height_elmos);
        let after = (min_elmos, max_elmos);
        if before == after {
            return Ok(());
        }
        let map = Arc::make_mut(&mut self.map);
        map.settings.min_height_elmos = min_elmos;
        map.settings.max_height_elmos = max_elmos;
        self.history.push(Change::HeightRange { before, after });
        self.revision += 1;
        Ok(())
    }

    /// Runs `edit` on the document's settings, start positions, texture stack and byte layers
    /// (metal, grass, type) as one undo step called `what`; only byte-layer tiles that changed
    /// are kept, and the painted masks only when the edit changed them.
    pub fn edit(
        &mut self,
        what: &str,
        edit: impl FnOnce(&mut Map),
        gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<(), String> {
        if self.stroke.is_some() {
            return Err("finish the stroke first".into());
        }
        self.end_live_edit();
        let layers = [LayerId::Metal, LayerId::Grass, LayerId::Types];
        let before_layers: Vec<Vec<f32>> = layers
            .iter()
            .map(|l| {
                let (w, h) = l.dims(&self.map);
                l.read_rect(&self.map, GridRect::new(0, 0, w, h))
            })
            .collect();
        let before = EditState::of(&self.map);
        let map = Arc::make_mut(&mut self.map);
        edit(map);
        let heights_dims = map.heights.dims();
        let mut patches = Vec::new();
        for (&layer, old) in layers.iter().zip(&before_layers) {
            let width = layer.dims(map).0;
            let was = |rect: GridRect| -> Vec<f32> {
                (rect.z0..rect.z0 + rect.h)
                    .flat_map(|z| old[z * width + rect.x0..z * width + rect.x0 + rect.w].to_vec())
                    .collect()
            };
            patches.extend(changed_tiles(layer, map, was, |rect| {
                layer.read_rect(map, rect)
            }));
        }
        debug_assert_eq!(
            heights_dims,
            map.heights.dims(),
            "edits keep the map's size"
        );
        let after = EditState::of(map);
        if patches.is_empty() && before == after {
            return Ok(());
        }
        self.commit_edit(what, before, after, patches, gpu);
        Ok(())
    }

    /// The end of every whole-document edit: one undo step called `what` from `before` to
    /// `after` with the changed tiles, the tiles uploaded to the GPU copy, a new revision.
    fn commit_edit(
        &mut self,
        what: &str,
        before: EditState,
        after: EditState,
        patches: Vec<TilePatch>,
        gpu: Option<&mut dyn GpuLayers>,
    ) {
        let (before, after) = EditState::step(before, after);
        if let Some(g) = gpu {
            let rects: Vec<(LayerId, GridRect)> =
                patches.iter().map(|p| (p.layer, p.rect)).collect();
            upload(g, &self.map, &rects);
        }
        self.history.push(Change::Edit {
            what: what.to_string(),
            before,
            after,
            patches,
        });
        self.revision += 1;
    }

    /// Changes the settings, start positions or texture stack now, as part of one undo step
    /// called `what` that [`Session::end_live_edit`] closes: a slider being dragged changes
    /// the document (and the view) every frame, and undo takes the whole drag back. A live
    /// edit of another name closes the one before; byte layers are not kept (use
    /// [`Session::edit`] for those).
    pub fn edit_live(&mut self, what: &str, edit: impl FnOnce(&mut Map)) -> Result<(), String> {
        if self.stroke.is_some() {
            return Err("finish the stroke first".into());
        }
        if self.live.as_ref().is_some_and(|(w, _)| w != what) {
            self.end_live_edit();
        }
        if self.live.is_none() {
            self.live = Some((what.to_string(), EditState::of(&self.map)));
        }
        edit(Arc::make_mut(&mut self.map));
        self.revision += 1;
        Ok(())
    }

    /// Whether a live edit is open.
    pub fn editing_live(&self) -> bool {
        self.live.is_some()
    }

    /// Closes the live edit: all of it becomes one undo step (none when it came back to where
    /// it began). Undo, redo, edits and strokes close it first.
    pub fn end_live_edit(&mut self) {
        let Some((what, before)) = self.live.take() else {
            return;
        };
        let after = EditState::of(&self.map);
        if before == after {
            return;
        }
        let (before, after) = EditState::step(before, after);
        self.history.push(Change::Edit {
            what,
            before,
            after,
            patches: Vec::new(),
        });
    }

    /// Runs the generator's `recipe` on the document as one undo step called `what`: the
    /// heights, the metal, the start positions, the vents, the height range, the texture layers
    /// and the recipe itself; the ground picture under the layers stays. The height steps run
    /// on `gpu` when it runs kernels.
    pub fn generate(
        &mut self,
        recipe: &Recipe,
        what: &str,
        mut gpu: Option<&mut dyn GpuLayers>,
    ) -> Result<Outcome, String> {
        if self.stroke.is_some() {
            return Err("finish the stroke first".into());
        }
        self.end_live_edit();
        // work on a copy without the ground picture (the biggest layer, and it stays)
        let current = Arc::make_mut(&mut self.map);
        let picture = std::mem::replace(&mut current.texture, GroundTexture::filled(1, 1, [0; 4]));
        let mut work = current.clone();
        current.texture = picture;
        let outcome = generate_with(&mut work, recipe, reborrow(&mut gpu), false)?;
        let before = EditState::of(&self.map);
        let mut patches = Vec::new();
        for layer in [LayerId::Heights, LayerId::Metal] {
            patches.extend(changed_tiles(
                layer,
                &self.map,
                |rect| layer.read_rect(&self.map, rect),
                |rect| layer.read_rect(&work, rect),
            ));
        }
        let map = Arc::make_mut(&mut self.map);
        for p in &patches {
            p.layer.write_rect(map, p.rect, &p.after.to_f32());
        }
        EditState::of(&work).restore(map);
        let after = EditState::of(map);
        self.commit_edit(what, before, after, patches, gpu);
        Ok(outcome)
    }

    /// How many times the whole document has been replaced (a resize, its undo or redo);
    /// when this changes, the GPU copy of the map has to be made again.
    pub fn replacements(&self) -> u64 {
        self.replacements
    }

    /// Resizes the map (Map > Resize) as one undo step: every layer, the features and the
    /// starts move with it, and the restore tool's heights too. Returns what the mapmaker
    /// should know (features dropped, starts moved). The GPU copy must be made again
    /// ([`Session::replacements`] changes).
    pub fn resize(&mut self, request: Resize) -> Result<Vec<String>, String> {
        if self.stroke.is_some() {
            return Err("finish the stroke first".into());
        }
        self.end_live_edit();
        let Resized { map, notes } = resize(&self.map, request)?;
        let original = resize_heights(&self.original_heights, self.map.size, request);
        let before = WholeMap {
            map: self.map.clone(),
            original_heights: self.original_heights.clone(),
        };
        let after = WholeMap {
            map: Arc::new(map),
            original_heights: Arc::new(original),
        };
        self.map = after.map.clone();
        self.original_heights = after.original_heights.clone();
        self.history.push(Change::Document {
            what: format!("resize to {}", request.size),
            before,
            after,
        });
        self.revision += 1;
        self.replacements += 1;
        Ok(notes)
    }

    /// Widens the height range to hold every height (after a stroke left it).
    pub fn widen_range_to_fit(&mut self) -> Result<(), String> {
        let (lo, hi) = self.map.heights.min_max();
        let (wlo, whi) = widened_range(&self.map, lo, hi);
        self.set_height_range(wlo, whi)
    }

    /// Clips every height into the map's range, as an undo step.
    pub fn clip_heights_to_range(&mut self, gpu: Option<&mut dyn GpuLayers>) -> Result<(), String> {
        let s = &self.map.settings;
        let (lo, hi) = (s.min_height_elmos, s.max_height_elmos);
        let mut clipped = self.map.heights.clone();
        for h in clipped.data_mut() {
            *h = h.clamp(lo, hi);
        }
        self.replace_layer(LayerId::Heights, &clipped, "clip heights to the range", gpu)
    }
}

/// A shorter loan of the GPU, so it can be handed on more than once.
pub fn reborrow<'a>(g: &'a mut Option<&mut dyn GpuLayers>) -> Option<&'a mut dyn GpuLayers> {
    match g {
        Some(g) => Some(&mut **g),
        None => None,
    }
}

/// Uploads the document's values of each rectangle and refreshes what derives from them.
fn upload(g: &mut dyn GpuLayers, map: &Map, rects: &[(LayerId, GridRect)]) {
    for &(layer, r) in rects {
        g.write_rect(layer, r, &layer.read_rect(map, r));
    }
    let mut layers: Vec<LayerId> = rects.iter().map(|(l, _)| *l).collect();
    layers.sort();
    layers.dedup();
    for layer in layers {
        let all = rects
            .iter()
            .filter(|(l, _)| *l == layer)
            .fold(GridRect::default(), |a, (_, r)| a.union(r));
        if !all.is_empty() {
            g.changed(map, layer, all);
        }
    }
}

/// A patch for every tile of `layer` (its tiling on `map`) whose values differ between
/// `was` and `now` (each reads a tile's rectangle).
fn changed_tiles(
    layer: LayerId,
    map: &Map,
    was: impl Fn(GridRect) -> Vec<f32>,
    now: impl Fn(GridRect) -> Vec<f32>,
) -> Vec<TilePatch> {
    let dims = layer.dims(map);
    let (tx, tz) = layer.tiles(map);
    (0..tx * tz)
        .filter_map(|t| {
            let rect = tile_rect(dims, t % tx, t / tx);
            let (before, after) = (was(rect), now(rect));
            (before != after).then(|| TilePatch {
                layer,
                rect,
                before: TileValues::from_f32(layer, before),
                after: TileValues::from_f32(layer, after),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
