//! Thermal erosion: wherever the ground is steeper than the talus angle, material slides to the
//! lower neighbours, `iterations` times a dab. Each iteration a cell sheds half its largest
//! excess over the talus, times the brush weight and strength, shared among its lower
//! neighbours by their excess: mass is kept. With symmetry on, the sector's result is copied.

use super::{
    KernelSpec, ParamKind, ParamSpec, PassRun, Reach, StrokeStart, Tool, ToolSettings, ToolSetup,
};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::kernel::{CellView, CpuPass, Extra};

pub struct ThermalErosion;
pub static THERMAL_EROSION: ThermalErosion = ThermalErosion;

static KERNEL: KernelSpec = KernelSpec {
    name: "thermal-erosion",
    wgsl: include_str!("../../../shaders/brush_erosion_thermal.wgsl"),
    dab_loop: false,
    entries: &["main"],
    extras: &[Extra::Source],
    cpu: cpu_twin,
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
        let mut gain = 0.0f32;
        for k in 0..9 {
            if k == 4 {
                continue;
            }
            let (dx, dz) = (k % 3 - 1, k / 3 - 1);
            let (qx, qz) = (x + dx, z + dz);
            if !inside(view, qx, qz) {
                continue;
            }
            let dist = if dx != 0 && dz != 0 { DIAGONAL } else { 1.0 };
            let d = view.source_at(qx, qz) - h - talus * dist;
            if d > 0.0 {
                let (qmax, qtot) = stats(view, qx, qz, talus);
                gain += 0.5 * weight(qx, qz) * qmax * d / qtot;
            }
        }
        h - out + gain
    });
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
