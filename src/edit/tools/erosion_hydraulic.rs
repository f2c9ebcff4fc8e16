//! Hydraulic erosion: rain falls over the brush's rectangle and runs downhill for `iterations`
//! steps; the flow picks up sediment where it can carry more than it holds (more down steeper
//! ground, never digging below a cell's lowest neighbour) and drops it where it can carry less
//! (never piling above the highest neighbour); what is still carried settles at the end. The
//! result is blended in by the brush's weight times the strength, so the brush's edge is soft.
//! A grid model: each cell's water, sediment and outflows come from its neighbours' values
//! before the step (a source copy and a state copy), so GPU and CPU agree. With symmetry on,
//! the sector's result is copied to the others.

use super::{
    KernelSpec, ParamKind, ParamSpec, PassRun, Reach, StrokeStart, Tool, ToolSettings, ToolSetup,
};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::kernel::{CellView, CpuPass, Extra};

pub struct HydraulicErosion;
pub static HYDRAULIC_EROSION: HydraulicErosion = HydraulicErosion;

static KERNEL: KernelSpec = KernelSpec {
    name: "hydraulic-erosion",
    wgsl: include_str!("../../../shaders/brush_erosion_hydraulic.wgsl"),
    dab_loop: false,
    entries: &["init", "flow", "finish"],
    extras: &[Extra::Source, Extra::State, Extra::StateSource],
    cpu: cpu_twin,
};

/// Share of the gap to the carrying capacity picked up or dropped per step.
const EXCHANGE_RATE: f32 = 0.3;
/// The slope flat ground counts as, so still water still carries a little.
const MIN_SLOPE: f32 = 0.05;
/// Share of its surface's drop to its lower neighbours a cell's water moves per step (under
/// 1/4, so water does not slosh back and forth between cells).
const FLOW_SHARE: f32 = 0.2;

/// The four neighbours water flows to: -x, +x, -z, +z (the opposite of k is k ^ 1).
const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

struct Model<'a, 'b> {
    view: &'a CellView<'b>,
    rain: f32,
}

impl Model<'_, '_> {
    fn in_rect(&self, x: i32, z: i32) -> bool {
        let p = self.view.params;
        x >= p.origin[0] as i32
            && z >= p.origin[1] as i32
            && x < (p.origin[0] + p.size[0]) as i32
            && z < (p.origin[1] + p.size[1]) as i32
    }

    fn inside(&self, x: i32, z: i32) -> bool {
        let s = self.view.params.layer_size;
        x >= 0 && z >= 0 && x < s[0] as i32 && z < s[1] as i32
    }

    /// Water on a cell after this step's rain (none outside the rectangle).
    fn water(&self, x: i32, z: i32) -> f32 {
        if !self.in_rect(x, z) {
            return 0.0;
        }
        self.view.state_at(x, z)[0] + self.rain
    }

    fn surface(&self, x: i32, z: i32) -> f32 {
        self.view.source_at(x, z) + self.water(x, z)
    }

    /// The water a cell sends to each of its four neighbours this step.
    fn outflows(&self, x: i32, z: i32) -> [f32; 4] {
        let s = self.surface(x, z);
        let wa = self.water(x, z);
        let mut f = [0.0f32; 4];
        let mut total = 0.0f32;
        for (k, (dx, dz)) in DIRS.iter().enumerate() {
            if self.inside(x + dx, z + dz) {
                f[k] = (s - self.surface(x + dx, z + dz)).max(0.0);
                total += f[k];
            }
        }
        if total <= 0.0 || wa <= 0.0 {
            return [0.0; 4];
        }
        let scale = wa.min(FLOW_SHARE * total) / total;
        [f[0] * scale, f[1] * scale, f[2] * scale, f[3] * scale]
    }
}

/// The CPU twin of `brush_erosion_hydraulic.wgsl`, pass by pass.
fn cpu_twin(entry: &str, pass: &mut CpuPass) {
    let t = pass.params.tool;
    let (strength, rain, capacity, evaporation, inv_span) = (t[0], t[1], t[2], t[3], t[4]);
    match entry {
        // the state: water, sediment, the height before the dab
        "init" => pass.map_cells_with_state(|_, _, v| (v, [0.0, 0.0, v, 0.0])),
        "flow" => pass.map_cells_with_state(|view, i, _| {
            let m = Model { view, rain };
            let (x, z) = (i[0] as i32, i[1] as i32);
            let here = view.state_at(x, z);
            let o = m.outflows(x, z);
            let out = o[0] + o[1] + o[2] + o[3];
            let wa = m.water(x, z);
            let (mut in_w, mut in_s) = (0.0f32, 0.0f32);
            for (k, (dx, dz)) in DIRS.iter().enumerate() {
                let (qx, qz) = (x + dx, z + dz);
                if !m.inside(qx, qz) {
                    continue;
                }
                let f = m.outflows(qx, qz)[k ^ 1];
                in_w += f;
                let wq = m.water(qx, qz);
                if wq > 0.0 {
                    in_s += view.state_at(qx, qz)[1] * f / wq;
                }
            }
            let s_out = if wa > 0.0 { here[1] * out / wa } else { 0.0 };
            let mut w_new = wa - out + in_w;
            let mut s_new = here[1] - s_out + in_s;
            let mut h = view.source_at(x, z);
            let (hl, hr) = (view.source_at(x - 1, z), view.source_at(x + 1, z));
            let (hn, hs) = (view.source_at(x, z - 1), view.source_at(x, z + 1));
            let gx = (hr - hl) * inv_span;
            let gz = (hs - hn) * inv_span;
            let slope = (gx * gx + gz * gz).sqrt().max(MIN_SLOPE);
            let cap = capacity * (out + in_w) * slope;
            if s_new > cap {
                let highest = hl.max(hr).max(hn).max(hs);
                let dep = (EXCHANGE_RATE * (s_new - cap)).min((highest - h).max(0.0));
                h += dep;
                s_new -= dep;
            } else {
                let lowest = hl.min(hr).min(hn).min(hs);
                let ero = (EXCHANGE_RATE * (cap - s_new)).min((0.5 * (h - lowest)).max(0.0));
                h -= ero;
                s_new += ero;
            }
            w_new *= 1.0 - evaporation;
            (h, [w_new, s_new, here[2], 0.0])
        }),
        _ => pass.map_cells(|view, i, v| {
            let (x, z) = (i[0] as i32, i[1] as i32);
            let st = view.state_at(x, z);
            let w = view.group_weight([x as f32, z as f32]) * strength;
            st[2] + (v + st[1] - st[2]) * w
        }),
    }
}

static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "rain",
        label: "Rain",
        help: "water falling on each cell per step, in elmos",
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
        help: "sediment the flow can carry per elmo of water moved down a 45° slope",
        kind: ParamKind::Number {
            min: 0.0,
            max: 100.0,
            default: 10.0,
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
        "Rain runs downhill, carving gullies and dropping sediment in the hollows. Strength blends the result in; the falloff softens its edge."
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
            grow_cells: 0,
            halo_cells: 2,
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let st = s.settings;
        let mut tool = [0.0; 16];
        tool[0] = st.brush.strength.clamp(0.0, 1.0);
        tool[1] = st.number("rain").max(0.0);
        tool[2] = st.number("capacity").max(0.0);
        tool[3] = st.number("evaporation").clamp(0.0, 1.0);
        // central differences over two cells: one over their distance in elmos
        tool[4] = 0.5 / self.layer().elmos_per_cell();
        let iterations = st.number("iterations").clamp(1.0, 500.0) as u32;
        Ok(ToolSetup {
            amount: 0.0,
            tool,
            passes: vec![
                PassRun::once("init"),
                PassRun {
                    entry: "flow",
                    repeat: iterations,
                },
                PassRun::once("finish"),
            ],
            stamp: None,
        })
    }
}
