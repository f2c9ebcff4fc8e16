//! Hydraulic erosion: rain falls under the brush, runs downhill over `iterations` steps a dab,
//! picks up sediment where the flow can carry more than it holds and drops it where it can
//! carry less; whatever is still carried settles at the end of the dab. A grid model: each
//! cell's water, sediment and outflows are worked out from its neighbours' values before the
//! step (a source copy and a state copy), so GPU and CPU agree. With symmetry on, the sector's
//! result is copied to the others.

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

/// The four neighbours water flows to: -x, +x, -z, +z (the opposite of k is k ^ 1).
const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

struct Model<'a, 'b> {
    view: &'a CellView<'b>,
    strength: f32,
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

    fn weight(&self, x: i32, z: i32) -> f32 {
        self.view.group_weight([x as f32, z as f32]) * self.strength
    }

    /// Water on a cell after this step's rain (none outside the rectangle).
    fn water(&self, x: i32, z: i32) -> f32 {
        if !self.in_rect(x, z) {
            return 0.0;
        }
        self.view.state_at(x, z)[0] + self.rain * self.weight(x, z)
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
        let scale = wa.min(0.5 * total) / total;
        [f[0] * scale, f[1] * scale, f[2] * scale, f[3] * scale]
    }
}

/// The CPU twin of `brush_erosion_hydraulic.wgsl`, pass by pass.
fn cpu_twin(entry: &str, pass: &mut CpuPass) {
    let t = pass.params.tool;
    let (strength, rain, capacity, evaporation) = (t[0], t[1], t[2], t[3]);
    match entry {
        "init" => pass.map_cells_with_state(|_, _, v| (v, [0.0; 4])),
        "flow" => pass.map_cells_with_state(|view, i, _| {
            let m = Model {
                view,
                strength,
                rain,
            };
            let (x, z) = (i[0] as i32, i[1] as i32);
            let o = m.outflows(x, z);
            let out = o[0] + o[1] + o[2] + o[3];
            let wa = m.water(x, z);
            let sed = view.state_at(x, z)[1];
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
            let s_out = if wa > 0.0 { sed * out / wa } else { 0.0 };
            let mut w_new = wa - out + in_w;
            let mut s_new = sed - s_out + in_s;
            let cap = capacity * (out + in_w);
            let mut h = view.source_at(x, z);
            if s_new > cap {
                let dep = EXCHANGE_RATE * (s_new - cap);
                h += dep;
                s_new -= dep;
            } else {
                let ero = EXCHANGE_RATE * (cap - s_new) * m.weight(x, z);
                h -= ero;
                s_new += ero;
            }
            w_new *= 1.0 - evaporation;
            (h, [w_new, s_new, 0.0, 0.0])
        }),
        _ => pass.map_cells(|view, i, v| v + view.state_at(i[0] as i32, i[1] as i32)[1]),
    }
}

static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "rain",
        label: "Rain",
        help: "water falling per step at the brush's centre, in elmos",
        kind: ParamKind::Number {
            min: 0.0,
            max: 20.0,
            default: 1.0,
            integer: false,
        },
    },
    ParamSpec {
        key: "capacity",
        label: "Capacity",
        help: "sediment the flow can carry per elmo of water moved",
        kind: ParamKind::Number {
            min: 0.0,
            max: 10.0,
            default: 0.5,
            integer: false,
        },
    },
    ParamSpec {
        key: "evaporation",
        label: "Evaporation",
        help: "share of the water that dries up each step (0-1)",
        kind: ParamKind::Number {
            min: 0.0,
            max: 1.0,
            default: 0.05,
            integer: false,
        },
    },
    ParamSpec {
        key: "iterations",
        label: "Iterations",
        help: "flow steps per dab",
        kind: ParamKind::Number {
            min: 1.0,
            max: 500.0,
            default: 30.0,
            integer: true,
        },
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
        "Rain under the brush runs downhill, carving channels and dropping sediment in the hollows. Strength scales how much the water digs."
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
            grow_cells: 4,
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
