//! The hydraulic erosion brush's physics, on its CPU twin and on the GPU (skipped without an
//! adapter with compute): one stroke with the defaults keeps the ground's total (what it
//! erodes it deposits), raises no cell above the highest ground before the stroke, changes
//! nothing beyond the tool's stated reach, grows no needles (the largest step between
//! neighbours stays within 1.5 times what it was; on the smooth hill it does not grow at all),
//! and does erode: cells in the brush go down by more than an elmo and the sediment lands
//! lower down. The ridge is the issue's: one stroke once grew it from 608 elmos into needles
//! reaching 934.

use groundwork::edit::session::reborrow;
use groundwork::edit::tools::{Tool, ToolSettings, find};
use groundwork::edit::{GpuLayers, Session};
use groundwork::gpu::{BrushKernels, GpuContext, MapScene, Renderer, SceneLayers};
use groundwork::map::{Grid, Map, MapSettings, MapSize};

/// Elmos per height cell.
const CELL_ELMOS: f32 = 8.0;

fn tool() -> &'static dyn Tool {
    find("hydraulic-erosion").expect("registered")
}

/// A 4 x 4 map (2048 elmos a side) with heights `f(x, z)` in elmos.
fn map_of(f: impl Fn(f32, f32) -> f32) -> Map {
    let settings = MapSettings {
        min_height_elmos: -100.0,
        max_height_elmos: 1200.0,
        ..MapSettings::default()
    };
    let mut m = Map::new(MapSize::new(4, 4).unwrap(), settings);
    let (w, h) = m.heights.dims();
    for z in 0..h {
        for x in 0..w {
            m.heights
                .set(x, z, f(x as f32 * CELL_ELMOS, z as f32 * CELL_ELMOS));
        }
    }
    m
}

/// A smooth gaussian hill, 300 elmos high, in the middle of the map.
fn gaussian_hill() -> Map {
    map_of(|x, z| {
        let (dx, dz) = (x - 1024.0, z - 1024.0);
        300.0 * (-(dx * dx + dz * dz) / (2.0 * 380.0 * 380.0)).exp()
    })
}

/// The ridge: it runs along x, peaks near 608 elmos and falls away to both sides, a
/// little uneven along its crest.
fn ridge() -> Map {
    map_of(|x, z| {
        let dz = z - 1024.0;
        let crest = 600.0 + 8.0 * (x / 170.0).sin();
        crest * (-(dz * dz) / (2.0 * 300.0 * 300.0)).exp()
    })
}

struct Gpu {
    ctx: GpuContext,
    kernels: BrushKernels,
    renderer: Renderer,
}

fn gpu() -> Option<Gpu> {
    let ctx = groundwork::test_support::gpu_with_compute()?;
    let kernels = BrushKernels::new(&ctx).expect("compute");
    let renderer = Renderer::new(&ctx);
    Some(Gpu {
        ctx,
        kernels,
        renderer,
    })
}

/// One stroke along `path` (elmos), on the GPU when given one; the heights after it.
fn stroke(map: &Map, settings: &ToolSettings, path: &[[f32; 2]], gpu: Option<&Gpu>) -> Grid<f32> {
    let mut session = Session::new(map.clone());
    let mut scene = gpu
        .map(|g| MapScene::new(&g.ctx, &g.renderer.layouts, map, &mut |_, _| {}).expect("a scene"));
    let mut layers = match (gpu, scene.as_mut()) {
        (Some(g), Some(scene)) => Some(SceneLayers {
            ctx: &g.ctx,
            kernels: Some(&g.kernels),
            scene,
        }),
        _ => None,
    };
    let mut gpu_layers: Option<&mut dyn GpuLayers> = layers.as_mut().map(|l| l as _);
    session
        .begin_stroke(
            tool(),
            settings.clone(),
            false,
            path[0],
            reborrow(&mut gpu_layers),
        )
        .unwrap();
    for p in &path[1..] {
        session
            .stroke_to(*p, 0.0, reborrow(&mut gpu_layers))
            .unwrap();
    }
    session
        .end_stroke(*path.last().unwrap(), gpu_layers)
        .unwrap();
    session.map().heights.clone()
}

/// The largest height difference between 4-neighbours.
fn largest_step(h: &Grid<f32>) -> f32 {
    let (w, d) = h.dims();
    let mut worst = 0.0f32;
    for z in 0..d {
        for x in 0..w {
            let v = h.get(x, z);
            if x + 1 < w {
                worst = worst.max((v - h.get(x + 1, z)).abs());
            }
            if z + 1 < d {
                worst = worst.max((v - h.get(x, z + 1)).abs());
            }
        }
    }
    worst
}

fn highest(h: &Grid<f32>) -> f32 {
    h.data().iter().copied().fold(f32::MIN, f32::max)
}

fn sum(h: &Grid<f32>) -> f64 {
    h.data().iter().map(|&v| v as f64).sum()
}

/// The distance from cell (x, z) to the path, in cells.
fn cells_from_path(path: &[[f32; 2]], x: usize, z: usize) -> f32 {
    let p = [x as f32 * CELL_ELMOS, z as f32 * CELL_ELMOS];
    let mut best = f32::MAX;
    for k in 0..path.len() {
        let a = path[k];
        let b = path[(k + 1).min(path.len() - 1)];
        let ab = [b[0] - a[0], b[1] - a[1]];
        let len2 = ab[0] * ab[0] + ab[1] * ab[1];
        let t = if len2 > 0.0 {
            (((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let q = [a[0] + ab[0] * t - p[0], a[1] + ab[1] * t - p[1]];
        best = best.min((q[0] * q[0] + q[1] * q[1]).sqrt());
    }
    best / CELL_ELMOS
}

/// What one stroke did, and the physics checks on it.
struct Outcome {
    what: String,
    before_highest: f32,
    after_highest: f32,
    before_step: f32,
    after_step: f32,
    /// |sum after - sum before| over the material moved (half the total of |change|).
    mass_error: f64,
    moved_elmo_cells: f64,
    changed_beyond_reach: usize,
    /// Cells inside the brush lowered by more than an elmo, and the deepest cut.
    cut_cells: usize,
    deepest_cut: f32,
    /// The mean height before the stroke of the cells that went down by more than 0.1 elmo,
    /// and of those that went up by more than 0.1 elmo.
    cut_from: f32,
    fill_at: f32,
    fill_cells: usize,
}

fn outcome(
    what: &str,
    before: &Grid<f32>,
    after: &Grid<f32>,
    settings: &ToolSettings,
    path: &[[f32; 2]],
) -> Outcome {
    let reach = tool().reach(settings);
    let radius_cells = settings.brush.radius_elmos / CELL_ELMOS;
    // the cells a dab may write: within radius x scale + grow of its centre, and the
    // rectangle's rounding
    let reach_cells = radius_cells * reach.scale + reach.grow_cells as f32 + 1.5;
    let (w, d) = before.dims();
    let mut moved = 0.0f64;
    let mut beyond = 0;
    let (mut cut_cells, mut deepest) = (0, 0.0f32);
    let (mut cut_sum, mut cut_n, mut fill_sum, mut fill_n) = (0.0f64, 0, 0.0f64, 0);
    for z in 0..d {
        for x in 0..w {
            let (b, a) = (before.get(x, z), after.get(x, z));
            moved += (a - b).abs() as f64;
            let dist = cells_from_path(path, x, z);
            if a != b && dist > reach_cells {
                beyond += 1;
            }
            if dist < radius_cells && b - a > 1.0 {
                cut_cells += 1;
            }
            deepest = deepest.max(b - a);
            if b - a > 0.1 {
                cut_sum += b as f64;
                cut_n += 1;
            }
            if a - b > 0.1 {
                fill_sum += b as f64;
                fill_n += 1;
            }
        }
    }
    moved *= 0.5;
    if std::env::var("EROSION_DEBUG").is_ok() {
        let mut worst = (0.0f32, 0, 0, 0, 0);
        for z in 0..d - 1 {
            for x in 0..w - 1 {
                for (qx, qz) in [(x + 1, z), (x, z + 1)] {
                    let st = (after.get(x, z) - after.get(qx, qz)).abs();
                    if st > worst.0 {
                        worst = (st, x, z, qx, qz);
                    }
                }
            }
        }
        let (st, x, z, qx, qz) = worst;
        eprintln!(
            "worst step {st} between ({x},{z}) {} -> {} and ({qx},{qz}) {} -> {}, {} cells from the path",
            before.get(x, z),
            after.get(x, z),
            before.get(qx, qz),
            after.get(qx, qz),
            cells_from_path(path, x, z)
        );
        for zz in z.saturating_sub(3)..(z + 4).min(d) {
            let row: Vec<String> = (x.saturating_sub(3)..(x + 4).min(w))
                .map(|xx| format!("{:+7.1}", after.get(xx, zz) - before.get(xx, zz)))
                .collect();
            eprintln!("  {}", row.join(" "));
        }
    }
    Outcome {
        what: what.to_string(),
        before_highest: highest(before),
        after_highest: highest(after),
        before_step: largest_step(before),
        after_step: largest_step(after),
        mass_error: (sum(after) - sum(before)).abs() / moved.max(1e-9),
        moved_elmo_cells: moved,
        changed_beyond_reach: beyond,
        cut_cells,
        deepest_cut: deepest,
        cut_from: (cut_sum / cut_n.max(1) as f64) as f32,
        fill_at: (fill_sum / fill_n.max(1) as f64) as f32,
        fill_cells: fill_n,
    }
}

impl Outcome {
    fn print(&self) {
        eprintln!(
            "{}: highest {:.2} -> {:.2} elmos, largest step {:.3} -> {:.3} elmos, mass error \
             {:.2e} of {:.0} elmo-cells moved, {} cells changed beyond the reach, {} cells cut \
             by over an elmo (deepest {:.2}), cut from {:.1} elmos on average, {} cells filled \
             at {:.1}",
            self.what,
            self.before_highest,
            self.after_highest,
            self.before_step,
            self.after_step,
            self.mass_error,
            self.moved_elmo_cells,
            self.changed_beyond_reach,
            self.cut_cells,
            self.deepest_cut,
            self.cut_from,
            self.fill_cells,
            self.fill_at,
        );
    }

    /// The checks every stroke passes.
    fn check_conserved_bounded_and_local(&self) {
        assert!(
            self.moved_elmo_cells > 10.0,
            "{}: it moved only {} elmo-cells",
            self.what,
            self.moved_elmo_cells
        );
        assert!(
            self.mass_error <= 1e-3,
            "{}: the ground's total changed by {:.3e} of what moved",
            self.what,
            self.mass_error
        );
        assert!(
            self.after_highest <= self.before_highest + 1e-3,
            "{}: a cell rose to {} elmos, above the highest ground before ({})",
            self.what,
            self.after_highest,
            self.before_highest
        );
        assert_eq!(
            self.changed_beyond_reach, 0,
            "{}: cells changed beyond the reach",
            self.what
        );
    }

    /// No needles: the largest step between neighbours stays within `NEEDLE_FACTOR` of what
    /// it was (the broken erosion grew a 10-elmo step into 300).
    fn check_no_needles(&self) {
        assert!(
            self.after_step <= NEEDLE_FACTOR * self.before_step,
            "{}: the largest step grew from {} to {} elmos",
            self.what,
            self.before_step,
            self.after_step
        );
    }

    /// The rule on a smooth hill: the largest step does not grow at all.
    fn check_no_step_grows(&self) {
        assert!(
            self.after_step <= self.before_step + 1e-3,
            "{}: the largest step grew from {} to {} elmos",
            self.what,
            self.before_step,
            self.after_step
        );
    }

    /// No needles, and it erodes: cuts in the brush, deposits lower down.
    fn check_eroding_without_needles(&self) {
        self.check_no_needles();
        assert!(
            self.cut_cells >= 20,
            "{}: only {} cells in the brush went down by over an elmo",
            self.what,
            self.cut_cells
        );
        assert!(
            self.fill_cells >= 10 && self.fill_at < self.cut_from,
            "{}: {} cells filled, at {} elmos on average, not below the cuts at {}",
            self.what,
            self.fill_cells,
            self.fill_at,
            self.cut_from
        );
    }
}

/// How much the largest step between neighbours may grow before it counts as a needle.
const NEEDLE_FACTOR: f32 = 1.5;

/// The hill's upper flank, across and down.
const HILL_PATH: [[f32; 2]; 2] = [[860.0, 900.0], [1180.0, 960.0]];
/// Along the ridge's crest.
const RIDGE_PATH: [[f32; 2]; 2] = [[700.0, 1030.0], [1300.0, 1010.0]];

fn run_checks(gpu: Option<&Gpu>, on: &str) -> (Outcome, Outcome) {
    let settings = ToolSettings::defaults(tool());
    let hill = gaussian_hill();
    let after = stroke(&hill, &settings, &HILL_PATH, gpu);
    let o = outcome(
        &format!("gaussian hill ({on})"),
        &hill.heights,
        &after,
        &settings,
        &HILL_PATH,
    );
    o.print();

    let ridge = ridge();
    let after_ridge = stroke(&ridge, &settings, &RIDGE_PATH, gpu);
    let r = outcome(
        &format!("the issue's ridge ({on})"),
        &ridge.heights,
        &after_ridge,
        &settings,
        &RIDGE_PATH,
    );
    r.print();

    o.check_conserved_bounded_and_local();
    o.check_eroding_without_needles();
    o.check_no_step_grows();
    r.check_conserved_bounded_and_local();
    r.check_no_needles();
    (o, r)
}

#[test]
fn the_reach_is_stated_and_near_the_brush() {
    let settings = ToolSettings::defaults(tool());
    let reach = tool().reach(&settings);
    let past = reach.scale * settings.brush.radius_elmos + reach.grow_cells as f32 * CELL_ELMOS;
    assert!(
        past <= 2.0 * settings.brush.radius_elmos,
        "water runs {past} elmos from a dab of radius {}",
        settings.brush.radius_elmos
    );
}

#[test]
fn hydraulic_erosion_keeps_the_ground_on_the_cpu() {
    run_checks(None, "CPU");
}

#[test]
fn hydraulic_erosion_keeps_the_ground_on_the_gpu() {
    let Some(g) = gpu() else { return };
    run_checks(Some(&g), "GPU");
}
