//! Ramp: drag from A to B for a straight ramp `width_elmos` wide, running from the ground's
//! height at A to the height at B. The brush's falloff softens its sides; strength is the blend
//! (1: exactly the ramp). The panel shows the slope in degrees while dragging.

use super::{
    KernelSpec, ParamKind, ParamSpec, Reach, StrokeStart, StrokeStyle, Tool, ToolSettings,
    ToolSetup, WorldDab,
};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::kernel::{CpuPass, PassRun, falloff_curve};

pub struct Ramp;
pub static RAMP: Ramp = Ramp;

static KERNEL: KernelSpec = KernelSpec {
    name: "ramp",
    wgsl: include_str!("../../../shaders/brush_ramp.wgsl"),
    dab_loop: false,
    entries: &["main"],
    extras: &[],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// The CPU twin of `brush_ramp.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    let t = pass.params.tool;
    let (ha, hb, half_len, half_w, strength) = (t[0], t[1], t[2], t[3], t[4]);
    let falloff = pass.params.falloff;
    pass.map_cells(|view, i, v0| {
        let p = [i[0] as f32, i[1] as f32];
        let mut v = v0;
        for dab in view.params.active_dabs() {
            let l = dab.local(p);
            let along = l[0] * dab.radius;
            let across = l[1] * dab.radius;
            let f = if half_len > 0.0 {
                along / (2.0 * half_len) + 0.5
            } else {
                0.5
            };
            if !(0.0..=1.0).contains(&f) {
                continue;
            }
            let w = falloff_curve(falloff, across.abs() / half_w) * strength;
            if w <= 0.0 {
                continue;
            }
            let target = ha + (hb - ha) * f;
            v += (target - v) * w;
        }
        v
    });
}

static PARAMS: &[ParamSpec] = &[ParamSpec {
    key: "width_elmos",
    label: "Width",
    help: "the ramp's width, in elmos",
    kind: ParamKind::Number {
        min: 16.0,
        max: 8192.0,
        default: 256.0,
        integer: false,
    },
    applies_when: None,
}];

fn half_len_elmos(s: &StrokeStart) -> f32 {
    let (dx, dz) = (
        s.end_elmos[0] - s.start_elmos[0],
        s.end_elmos[1] - s.start_elmos[1],
    );
    0.5 * (dx * dx + dz * dz).sqrt()
}

/// The slope from A to B in degrees.
fn slope_deg(s: &StrokeStart) -> f32 {
    let run = 2.0 * half_len_elmos(s);
    let rise = (s.end_height_elmos - s.start_height_elmos).abs();
    if run <= 0.0 {
        return if rise > 0.0 { 90.0 } else { 0.0 };
    }
    (rise / run).atan().to_degrees()
}

impl Tool for Ramp {
    fn name(&self) -> &'static str {
        "ramp"
    }
    fn label(&self) -> &'static str {
        "Ramp"
    }
    fn help(&self) -> &'static str {
        "Drag from A to B: a straight ramp from the ground at A to the ground at B. The falloff softens its sides; strength 1 is exactly the ramp."
    }
    fn style(&self) -> StrokeStyle {
        StrokeStyle::Segment
    }
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }
    fn default_brush(&self) -> Brush {
        super::brush_with(Falloff::Smooth, 1.0)
    }
    /// Copies that overlap (a ramp across the mirror line) blend toward different heights, so
    /// the order they land in shows: the sector's result is copied instead.
    fn position_dependent(&self) -> bool {
        true
    }
    fn reach(&self, _settings: &ToolSettings) -> Reach {
        Reach {
            scale: 1.0,
            grow_cells: 1,
            halo_cells: 0,
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let epc = self.layer().elmos_per_cell();
        let mut tool = [0.0; 16];
        tool[0] = s.start_height_elmos;
        tool[1] = s.end_height_elmos;
        tool[2] = half_len_elmos(s) / epc;
        tool[3] = (0.5 * s.settings.number("width_elmos") / epc).max(0.5);
        tool[4] = s.settings.brush.strength.clamp(0.0, 1.0);
        Ok(ToolSetup {
            amount: 0.0,
            tool,
            passes: vec![PassRun::once("main")],
            stamp: None,
        })
    }
    fn dab(&self, s: &StrokeStart, _setup: &ToolSetup, _at: [f32; 2]) -> WorldDab {
        let (a, b) = (s.start_elmos, s.end_elmos);
        let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dz * dz).sqrt();
        let (ux, uz) = if len > 0.0 {
            (dx / len, dz / len)
        } else {
            (1.0, 0.0)
        };
        let half_w = 0.5 * s.settings.number("width_elmos");
        let half_len = 0.5 * len;
        WorldDab {
            center_elmos: [0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])],
            radius_elmos: (half_len * half_len + half_w * half_w).sqrt().max(1.0),
            amount: 0.0,
            axis_x: [ux, uz],
            axis_z: [-uz, ux],
        }
    }
    fn describe(&self, s: &StrokeStart) -> Option<String> {
        Some(format!(
            "slope {:.1}° ({:.0} -> {:.0} elmos over {:.0} elmos)",
            slope_deg(s),
            s.start_height_elmos,
            s.end_height_elmos,
            2.0 * half_len_elmos(s)
        ))
    }
}
