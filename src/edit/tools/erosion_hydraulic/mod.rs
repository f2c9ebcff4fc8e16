//! Hydraulic erosion, the pipe model of Mei, Decaudin and Hu (2007, "Fast Hydraulic Erosion
//! Simulation and Visualization on GPU"): rain falls inside the brush (by the dab's weight
//! times the strength), flows through virtual pipes between 4-neighbours, erodes where it can
//! carry more than it holds and drops sediment where it can carry less, and dries up.
//!
//! Each dab runs `iterations` steps over its **domain**: the cells within `REACH_RADII` brush
//! radii (+ `REACH_CELLS`) of its centre, the tool's stated reach; nothing outside changes.
//! Between the brush's edge and the domain's the storm fades (`storm`): the water keeps less
//! of itself each step (it drains away, so no lake stands against the domain's edge) and can
//! carry less, so the flow drops its load before it leaves. Ground is kept: what is eroded
//! becomes sediment, what is deposited was sediment, sediment moves by a conservative
//! semi-Lagrangian scheme, and when the flow ends the load still carried spreads (swapped with
//! the cells 1, 2 and 4 away in turn) and is laid under the limits of `erode` (`settle_k`,
//! `SETTLE_PASSES` times), and what is left then settles where it is (`finish`). So the
//! ground's total is the same before and after, to f32 rounding.
//!
//! One step is two passes (every cell works from copies taken before the pass, so GPU and CPU
//! agree):
//! - `flow`: the sediment moves along the last step's velocity (each cell's load is traced
//!   forward and shared among the up to four cells around where it lands, bilinearly, so the
//!   shares sum to one: a load landing outside the domain stays put); the last step's water
//!   evaporates and the rain falls; each pipe's flux (signed, on the cell's +x and +z edges)
//!   keeps `FLUX_KEEP` of itself and gains `PIPE` times the drop of the water's surface, then
//!   every cell scales its outflows so it never sends more water than it has.
//! - `erode`: the water's depth follows the fluxes; the velocity is the mean flux through the
//!   cell over the mean depth (at most one cell a step); the flow can carry
//!   `capacity x sin(tilt) x speed x depth` (the tilt down to the lowest neighbour, at least
//!   `MIN_SIN_TILT`); the ground gives `EROSION_RATE` of the shortfall (at most half its drop
//!   to its lowest neighbour) or takes `DEPOSITION_RATE` of the excess.
//!
//! Two limits keep the ground from growing spikes, each a local rule: no step between
//! neighbours grows past the angle of repose (`repose_deg`) or past what it already is (each
//! cell of a pair uses half the pair's room, so the pair holds however both move), and no cell
//! moves further than `BEND_ELMOS` from its neighbours' mean in a step. What cannot settle
//! under them stays carried until the settling passes, which keep to the same rules (as no
//! cell falls there, a pair's upper cell may take the pair's whole room) and raise no cell
//! above its highest neighbour; only the little they leave is laid without the limits. On the
//! test hill the largest step does not grow at all (dropping the whole load in place grew it
//! 26%; settling with nearest neighbours alone, 1.4%).
//!
//! Pipes on the cell's edges hold the net flux of Mei's two opposite pipes, so the state is
//! four floats a cell: water depth, sediment (elmos), flux across the +x and +z edges (elmos of
//! water a step). Cells outside the domain hold a water depth of -1. With symmetry on, the
//! sector's result is copied to the others.

mod arrays;

use super::{
    KernelSpec, ParamKind, ParamSpec, PassRun, Reach, StrokeStart, Tool, ToolSettings, ToolSetup,
};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::kernel::{CellView, CpuPass, Extra};

pub struct HydraulicErosion;
pub static HYDRAULIC_EROSION: HydraulicErosion = HydraulicErosion;

static KERNEL: KernelSpec = KernelSpec {
    name: "hydraulic-erosion",
    wgsl: include_str!("../../../../shaders/brush_erosion_hydraulic.wgsl"),
    dab_loop: false,
    entries: &[
        "init", "flow", "erode", "settle_1", "settle_2", "settle_4", "finish",
    ],
    extras: &[Extra::Source, Extra::State, Extra::StateSource],
    cpu: cpu_twin,
    cpu_dispatch: Some(arrays::run_dispatch),
};

/// The domain's radius in brush radii (times the shape's reach factor), and in cells beyond.
const REACH_RADII: f32 = 1.5;
const REACH_CELLS: u32 = 2;
/// Flux gained per elmo of drop in the water's surface, per step (dt x A x g / l, in cells).
const PIPE: f32 = 0.2;
/// Share of a pipe's flux kept from the last step (1 is Mei's frictionless pipe).
const FLUX_KEEP: f32 = 0.9;
/// The gentlest tilt the capacity counts (about 3°), so slow water on flat ground still
/// carries a little.
const MIN_SIN_TILT: f32 = 0.05;
/// Share of the gap to the capacity the ground gives (erosion) or takes (deposition) a step.
const EROSION_RATE: f32 = 0.3;
const DEPOSITION_RATE: f32 = 0.3;
/// The depth (elmos) under which water counts as a film: its velocity is its flux over this.
const FILM_ELMOS: f32 = 0.5;
/// How far (elmos) erosion and deposition may take a cell from its four neighbours' mean.
const BEND_ELMOS: f32 = 0.25;
/// Fastest flow, in cells a step (the sediment's trace then stays among the 8 neighbours).
const MAX_SPEED: f32 = 1.0;
/// Settling passes after the flow: the sediment still carried spreads to its neighbours and
/// is laid where no step grows, so little is left for the last pass to drop in place.
const SETTLE_PASSES: usize = 64;
/// Share of the difference to each neighbour's load that a settling pass exchanges.
const SETTLE_SPREAD: f32 = 0.25;
/// The settling passes in turn: each swaps load with the cells this many away (`settle_k` in
/// the WGSL), so in 3 passes the load reaches 7 cells where nearest neighbours alone reach 3.
/// (Reaching further, 8 cells, carries the load of a crest's flanks onto its top, where it
/// has no room and ends above the ground that was highest.)
const SETTLE_ENTRIES: [&str; 3] = ["settle_1", "settle_2", "settle_4"];

/// The numbers a dispatch's kernel reads (`tool`), by name.
struct Numbers {
    strength: f32,
    rain: f32,
    capacity: f32,
    evaporation: f32,
    /// One over twice the elmos per cell (central differences).
    inv_span: f32,
    reach_scale: f32,
    reach_cells: f32,
    /// The angle of repose as a step between neighbours, in elmos.
    repose_step: f32,
}

impl Numbers {
    fn of(t: &[f32; 16]) -> Numbers {
        Numbers {
            strength: t[0],
            rain: t[1],
            capacity: t[2],
            evaporation: t[3],
            inv_span: t[4],
            reach_scale: t[5],
            reach_cells: t[6],
            repose_step: t[7],
        }
    }
}

/// What one cell sees of the simulation (the WGSL's free functions).
struct Sim<'a, 'b> {
    view: &'a CellView<'b>,
    n: Numbers,
}

/// How far a cell at `h` may fall and rise this step (`(down, up)`, elmos) so that no step to
/// a neighbour grows beyond `repose_step` or beyond what it already is: each side of a pair
/// may use half of the pair's room, so the pair stays within it however both move.
fn slack(h: f32, neighbours: [f32; 4], repose_step: f32) -> (f32, f32) {
    let (mut down, mut up) = (f32::MAX, f32::MAX);
    for n in neighbours {
        let room = (h - n).abs().max(repose_step);
        up = up.min(0.5 * (room - (h - n)));
        down = down.min(0.5 * (room - (n - h)));
    }
    (down, up)
}

/// How far a cell may move this step, with its height and its lowest neighbour's (elmos).
struct Room {
    h: f32,
    lowest: f32,
    down: f32,
    up: f32,
}

/// No step grows past the angle of repose or what it is (`slack`), and the cell at `h` moves
/// no further than BEND_ELMOS from its neighbours' (-x, +x, -z, +z) mean (or than it already
/// is): rills one cell wide would otherwise feed on themselves into a checkerboard. `erode` and
/// `settle` both keep to it.
fn room_of(h: f32, around: [f32; 4], repose_step: f32) -> Room {
    let [hl, hr, hn, hs] = around;
    let (down, up) = slack(h, around, repose_step);
    let mean = 0.25 * (hl + hr + hn + hs);
    Room {
        h,
        lowest: hl.min(hr).min(hn).min(hs),
        down: down.min(h - (mean - BEND_ELMOS).min(h)),
        up: up.min((mean + BEND_ELMOS).max(h) - h),
    }
}

/// A cell's height and how far it may rise in `settle`, where no cell falls: the upper cell
/// of a pair may take the whole of the pair's room (its neighbour can only rise, which narrows
/// the step), under the bend limit of `room_of`, and no higher than its highest neighbour
/// (loose ground rolls off a top: no cell becomes a new peak).
fn settle_room_of(h: f32, around: [f32; 4], repose_step: f32) -> (f32, f32) {
    let [hl, hr, hn, hs] = around;
    let (_, up) = slack(h, around, repose_step);
    let mean = 0.25 * (hl + hr + hn + hs);
    let highest = hl.max(hr).max(hn).max(hs);
    let up = (2.0 * up)
        .min((mean + BEND_ELMOS).max(h) - h)
        .min(highest - h);
    (h, up.max(0.0))
}

/// Water gained this step through the four pipes, from the fluxes across the cell's -x, +x,
/// -z and +z edges.
fn net_inflow_of(edges: [f32; 4]) -> f32 {
    let [l, r, n, s] = edges;
    l - r + n - s
}

/// The velocity (cells a step) of a cell whose depth after the step is `depth`, from the
/// fluxes across its four edges.
fn velocity_of(depth: f32, edges: [f32; 4]) -> [f32; 2] {
    let [l, r, n, s] = edges;
    let mean = (depth - 0.5 * net_inflow_of(edges)).max(FILM_ELMOS);
    let u = 0.5 * (l + r) / mean;
    let v = 0.5 * (n + s) / mean;
    [
        u.clamp(-MAX_SPEED, MAX_SPEED),
        v.clamp(-MAX_SPEED, MAX_SPEED),
    ]
}

/// One `erode` step of a domain cell: `here` its state, `edges` the fluxes across its edges,
/// `room` how far it may move, `storm` its share of the storm. The new height and state.
fn erode_cell(
    here: [f32; 4],
    edges: [f32; 4],
    room: Room,
    storm: f32,
    n: &Numbers,
) -> (f32, [f32; 4]) {
    let depth = (here[0] + net_inflow_of(edges)).max(0.0);
    let vel = velocity_of(depth, edges);
    let speed = (vel[0] * vel[0] + vel[1] * vel[1]).sqrt();
    let Room {
        mut h,
        lowest,
        down,
        up,
    } = room;
    // the tilt down to the lowest neighbour: one-sided, so a bump or a pit one cell wide is
    // seen (central differences are blind to it, and it would grow)
    let drop = (h - lowest).max(0.0) * 2.0 * n.inv_span;
    let sin_tilt = (drop * drop / (1.0 + drop * drop)).sqrt().max(MIN_SIN_TILT);
    let cap = n.capacity * sin_tilt * speed * depth * storm;
    let mut s = here[1];
    if cap > s {
        let ero = (EROSION_RATE * (cap - s))
            .min(0.5 * (h - lowest).max(0.0))
            .min(down);
        h -= ero;
        s += ero;
    } else {
        let dep = (DEPOSITION_RATE * (s - cap)).min(up);
        h += dep;
        s -= dep;
    }
    (h, [depth, s, here[2], here[3]])
}

/// The load a domain cell holds after a settling pass, from its own and those of the cells
/// `k` away that are in the domain (None for the others), in the order -x, +x, -z, +z.
fn spread_load(own: f32, others: [Option<f32>; 4]) -> f32 {
    let mut s = own;
    for o in others.into_iter().flatten() {
        s += SETTLE_SPREAD * (o - own);
    }
    s
}

/// The hat function of bilinear weights: 1 at 0, 0 from one cell away.
fn hat(d: f32) -> f32 {
    (1.0 - d.abs()).max(0.0)
}

impl Sim<'_, '_> {
    fn new<'a, 'b>(view: &'a CellView<'b>) -> Sim<'a, 'b> {
        Sim {
            view,
            n: Numbers::of(&view.params.tool),
        }
    }

    /// The ground of the four neighbours: -x, +x, -z, +z.
    fn around(&self, x: i32, z: i32) -> [f32; 4] {
        [
            self.ground(x - 1, z),
            self.ground(x + 1, z),
            self.ground(x, z - 1),
            self.ground(x, z + 1),
        ]
    }

    fn room(&self, x: i32, z: i32) -> Room {
        room_of(self.ground(x, z), self.around(x, z), self.n.repose_step)
    }

    fn settle_room(&self, x: i32, z: i32) -> (f32, f32) {
        settle_room_of(self.ground(x, z), self.around(x, z), self.n.repose_step)
    }

    fn in_rect(&self, x: i32, z: i32) -> bool {
        let p = self.view.params;
        x >= p.origin[0] as i32
            && z >= p.origin[1] as i32
            && x < (p.origin[0] + p.size[0]) as i32
            && z < (p.origin[1] + p.size[1]) as i32
    }

    /// Within the reach of a dab (`init` works it out; the state keeps it).
    fn reached(&self, x: i32, z: i32) -> bool {
        if !self.in_rect(x, z) {
            return false;
        }
        let (px, pz) = (x as f32, z as f32);
        for d in self.view.params.active_dabs() {
            let dx = px - d.center[0];
            let dz = pz - d.center[1];
            if (dx * dx + dz * dz).sqrt() <= d.radius * self.n.reach_scale + self.n.reach_cells {
                return true;
            }
        }
        false
    }

    /// How much of the storm a cell gets: 1 within the brush, falling linearly to 0 at the
    /// domain's edge. The water keeps that share of itself a step (the rest drains away, so no
    /// lake stands against the edge) and the capacity scales by it, so the flow drops its load
    /// before it leaves.
    fn storm(&self, x: i32, z: i32) -> f32 {
        let (px, pz) = (x as f32, z as f32);
        let mut best = 0.0f32;
        for d in self.view.params.active_dabs() {
            let dx = px - d.center[0];
            let dz = pz - d.center[1];
            let dist = (dx * dx + dz * dz).sqrt();
            let inner = d.radius * (self.n.reach_scale / REACH_RADII);
            let outer = d.radius * self.n.reach_scale + self.n.reach_cells;
            best = best.max(((outer - dist) / (outer - inner)).clamp(0.0, 1.0));
        }
        best
    }

    fn state(&self, x: i32, z: i32) -> [f32; 4] {
        self.view.state_at(x, z)
    }

    fn in_domain(&self, x: i32, z: i32) -> bool {
        self.in_rect(x, z) && self.state(x, z)[0] >= 0.0
    }

    fn ground(&self, x: i32, z: i32) -> f32 {
        self.view.source_at(x, z)
    }

    /// Water on a domain cell this step: the last step's after evaporation, and the rain.
    fn water(&self, x: i32, z: i32) -> f32 {
        let w = self.view.group_weight([x as f32, z as f32]) * self.n.strength;
        let keep = (1.0 - self.n.evaporation) * self.storm(x, z);
        self.state(x, z)[0] * keep + self.n.rain * w
    }

    /// The pipe from (x, z) to its +x (`axis` 0) or +z (1) neighbour, before scaling: the
    /// last step's flux kept, plus the drop of the water's surface.
    fn tentative(&self, x: i32, z: i32, axis: usize) -> f32 {
        let (qx, qz) = if axis == 0 { (x + 1, z) } else { (x, z + 1) };
        if !self.in_domain(x, z) || !self.in_domain(qx, qz) {
            return 0.0;
        }
        let a = self.ground(x, z) + self.water(x, z);
        let b = self.ground(qx, qz) + self.water(qx, qz);
        self.state(x, z)[2 + axis] * FLUX_KEEP + PIPE * (a - b)
    }

    /// The share of its outflows a cell sends: all, unless they add up to more water than it
    /// has.
    fn outflow_scale(&self, x: i32, z: i32) -> f32 {
        let out = self.tentative(x, z, 0).max(0.0)
            + self.tentative(x, z, 1).max(0.0)
            + (-self.tentative(x - 1, z, 0)).max(0.0)
            + (-self.tentative(x, z - 1, 1)).max(0.0);
        let w = self.water(x, z);
        if out > w { w / out } else { 1.0 }
    }

    /// The pipe's flux this step, scaled by the cell it leaves.
    fn flux(&self, x: i32, z: i32, axis: usize) -> f32 {
        let g = self.tentative(x, z, axis);
        if g > 0.0 {
            g * self.outflow_scale(x, z)
        } else if g < 0.0 {
            let (qx, qz) = if axis == 0 { (x + 1, z) } else { (x, z + 1) };
            g * self.outflow_scale(qx, qz)
        } else {
            0.0
        }
    }

    /// The stored flux across the cell's +x or +z edge (none off the rectangle).
    fn edge(&self, x: i32, z: i32, axis: usize) -> f32 {
        self.state(x, z)[2 + axis]
    }

    /// The fluxes across the cell's -x, +x, -z and +z edges.
    fn edges(&self, x: i32, z: i32) -> [f32; 4] {
        [
            self.edge(x - 1, z, 0),
            self.edge(x, z, 0),
            self.edge(x, z - 1, 1),
            self.edge(x, z, 1),
        ]
    }

    /// The velocity (cells a step) of a cell whose depth after the step is `depth`.
    fn velocity(&self, x: i32, z: i32, depth: f32) -> [f32; 2] {
        velocity_of(depth, self.edges(x, z))
    }

    /// The sediment a domain cell holds after it moves along the velocity: each cell's load
    /// lands at its position plus its velocity and is shared bilinearly among the cells around
    /// it; the shares that would land outside the domain stay where they were.
    fn advected(&self, x: i32, z: i32) -> f32 {
        let here = self.state(x, z);
        let v = self.velocity(x, z, here[0]);
        let mut s = 0.0f32;
        let mut kept = 0.0f32;
        for dz in -1..=1 {
            for dx in -1..=1 {
                let (jx, jz) = (x + dx, z + dz);
                if self.in_domain(jx, jz) {
                    let st = self.state(jx, jz);
                    if st[1] != 0.0 {
                        let vj = self.velocity(jx, jz, st[0]);
                        s += st[1] * (hat(dx as f32 + vj[0]) * hat(dz as f32 + vj[1]));
                    }
                } else {
                    kept += hat(v[0] - dx as f32) * hat(v[1] - dz as f32);
                }
            }
        }
        s + here[1] * kept
    }
}

/// The CPU twin of `brush_erosion_hydraulic.wgsl`, pass by pass.
fn cpu_twin(entry: &str, pass: &mut CpuPass) {
    match entry {
        // the domain: water 0 inside, -1 outside
        "init" => pass.map_cells_with_state(|view, i, v| {
            let sim = Sim::new(view);
            let inside = sim.reached(i[0] as i32, i[1] as i32);
            (v, [if inside { 0.0 } else { -1.0 }, 0.0, 0.0, 0.0])
        }),
        "flow" => pass.map_cells_with_state(|view, i, v| {
            let sim = Sim::new(view);
            let (x, z) = (i[0] as i32, i[1] as i32);
            if !sim.in_domain(x, z) {
                return (v, [-1.0, 0.0, 0.0, 0.0]);
            }
            let s = sim.advected(x, z);
            let w = sim.water(x, z);
            (v, [w, s, sim.flux(x, z, 0), sim.flux(x, z, 1)])
        }),
        "erode" => pass.map_cells_with_state(|view, i, v| {
            let sim = Sim::new(view);
            let (x, z) = (i[0] as i32, i[1] as i32);
            if !sim.in_domain(x, z) {
                return (v, [-1.0, 0.0, 0.0, 0.0]);
            }
            erode_cell(
                sim.state(x, z),
                sim.edges(x, z),
                sim.room(x, z),
                sim.storm(x, z),
                &sim.n,
            )
        }),
        // the load spreads (a conservative exchange with the cells `k` away in the domain:
        // each pair swaps the same share both ways) and is laid where `settle_room` lets the
        // ground rise
        settle if settle.starts_with("settle_") => {
            let k: i32 = settle["settle_".len()..].parse().expect("settle_<stride>");
            pass.map_cells_with_state(|view, i, v| {
                let sim = Sim::new(view);
                let (x, z) = (i[0] as i32, i[1] as i32);
                if !sim.in_domain(x, z) {
                    return (v, [-1.0, 0.0, 0.0, 0.0]);
                }
                let here = sim.state(x, z);
                let others = [(-k, 0), (k, 0), (0, -k), (0, k)].map(|(dx, dz)| {
                    sim.in_domain(x + dx, z + dz)
                        .then(|| sim.state(x + dx, z + dz)[1])
                });
                let s = spread_load(here[1], others);
                let (h, up) = sim.settle_room(x, z);
                let dep = s.min(up).max(0.0);
                (h + dep, [here[0], s - dep, here[2], here[3]])
            })
        }
        // every grain still carried settles where it is
        _ => pass.map_cells(|view, i, v| {
            let sim = Sim::new(view);
            let (x, z) = (i[0] as i32, i[1] as i32);
            if !sim.in_domain(x, z) {
                return v;
            }
            v + sim.state(x, z)[1]
        }),
    }
}

static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "rain_elmos",
        label: "Rain",
        help: "water falling per step where the brush is full, in elmos of depth",
        kind: ParamKind::Number {
            min: 0.0,
            max: 5.0,
            default: 0.1,
            integer: false,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "capacity",
        label: "Capacity",
        help: "sediment a depth of water carries, as a share of that depth, when it moves a cell a step down a vertical tilt (it carries sin(tilt) x speed of that)",
        kind: ParamKind::Number {
            min: 0.0,
            max: 100.0,
            default: 1.0,
            integer: false,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "evaporation",
        label: "Evaporation",
        help: "share of the water that dries up each step (0-1)",
        kind: ParamKind::Number {
            min: 0.0,
            max: 1.0,
            default: 0.02,
            integer: false,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "repose_deg",
        label: "Angle of repose",
        help: "the steepest the erosion cuts or piles loose ground (true degrees); ground \
               already steeper is never made steeper",
        kind: ParamKind::Number {
            min: 5.0,
            max: 60.0,
            default: 25.0,
            integer: false,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "iterations",
        label: "Iterations",
        help: "flow steps per dab",
        kind: ParamKind::Number {
            min: 1.0,
            max: 500.0,
            default: 60.0,
            integer: true,
        },
        applies_when: None,
    },
];

impl Tool for HydraulicErosion {
    fn name(&self) -> &'static str {
        "hydraulic-erosion"
    }
    fn label(&self) -> &'static str {
        "Hydraulic erosion"
    }
    fn help(&self) -> &'static str {
        "Rain falls in the brush, runs downhill carving gullies and drops its sediment where it slows; nothing beyond 1.5 radii changes and no ground is lost. Strength scales the rain."
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
            scale: settings.brush.shape.reach_factor() * REACH_RADII,
            grow_cells: REACH_CELLS,
            halo_cells: 2,
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let st = s.settings;
        let reach = self.reach(st);
        let mut tool = [0.0; 16];
        tool[0] = st.brush.strength.clamp(0.0, 1.0);
        tool[1] = st.number("rain_elmos").max(0.0);
        tool[2] = st.number("capacity").max(0.0);
        tool[3] = st.number("evaporation").clamp(0.0, 1.0);
        // central differences over two cells: one over their distance in elmos
        tool[4] = 0.5 / self.layer().elmos_per_cell();
        tool[5] = reach.scale;
        tool[6] = reach.grow_cells as f32;
        tool[7] = st.number("repose_deg").clamp(5.0, 60.0).to_radians().tan()
            * self.layer().elmos_per_cell();
        let iterations = st.number("iterations").clamp(1.0, 500.0) as usize;
        let mut passes = vec![PassRun::once("init")];
        for _ in 0..iterations {
            passes.push(PassRun::once("flow"));
            passes.push(PassRun::once("erode"));
        }
        for p in 0..SETTLE_PASSES {
            passes.push(PassRun::once(SETTLE_ENTRIES[p % SETTLE_ENTRIES.len()]));
        }
        passes.push(PassRun::once("finish"));
        Ok(ToolSetup {
            amount: 0.0,
            tool,
            passes,
            stamp: None,
        })
    }
}
