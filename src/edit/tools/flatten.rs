//! Flatten: pulls the ground toward one height, the one under the first click or a typed one,
//! optionally only cutting down or only filling up. Strength is the blend per dab.

use super::{AppliesWhen, KernelSpec, ParamKind, ParamSpec, StrokeStart, Tool, ToolSetup};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::kernel::CpuPass;

pub struct Flatten;
pub static FLATTEN: Flatten = Flatten;

/// Shared with `set`, which is a flatten to a typed height.
pub static KERNEL: KernelSpec = KernelSpec {
    name: "flatten",
    wgsl: include_str!("../../../shaders/brush_flatten.wgsl"),
    dab_loop: true,
    entries: &["main"],
    extras: &[],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// `mode` values: 0 both ways, 1 only cut down, 2 only fill up.
pub const MODES: &[&str] = &["both", "cut", "fill"];

/// The kernel's numbers: the height and the mode.
pub fn tool_params(height_elmos: f32, mode: usize) -> [f32; 16] {
    let mut t = [0.0; 16];
    t[0] = height_elmos;
    t[1] = mode as f32;
    t
}

/// The CPU twin of `brush_flatten.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    let t = pass.params.tool[0];
    let mode = pass.params.tool[1] as u32;
    pass.dab_loop(|_, v, _, dab, w| {
        if (mode == 1 && v <= t) || (mode == 2 && v >= t) {
            return v;
        }
        v + (t - v) * (dab.amount * w)
    });
}

static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "target",
        label: "Target",
        help: "first-click: the ground under the first click; typed: height_elmos",
        kind: ParamKind::Choice {
            options: &["first-click", "typed"],
            default: 0,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "height_elmos",
        label: "Height",
        help: "the typed target height, in elmos (target = typed)",
        kind: ParamKind::Number {
            min: -10000.0,
            max: 10000.0,
            default: 0.0,
            integer: false,
        },
        applies_when: Some(AppliesWhen {
            key: "target",
            options: &["typed"],
        }),
    },
    ParamSpec {
        key: "mode",
        label: "Mode",
        help: "both: cut and fill; cut: only lower what is above; fill: only raise what is below",
        kind: ParamKind::Choice {
            options: MODES,
            default: 0,
        },
        applies_when: None,
    },
];

impl Tool for Flatten {
    fn name(&self) -> &'static str {
        "flatten"
    }
    fn label(&self) -> &'static str {
        "Flatten"
    }
    fn help(&self) -> &'static str {
        "Pulls the ground toward the height under the first click (or a typed height). Strength is the blend per dab."
    }
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }
    fn default_brush(&self) -> Brush {
        super::brush_with(Falloff::Smooth, 0.3)
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let height = if s.settings.choice("target") == 1 {
            s.settings.number("height_elmos")
        } else {
            s.start_height_elmos
        };
        Ok(
            ToolSetup::dab_amount(s.settings.brush.strength.clamp(0.0, 1.0))
                .with_tool(tool_params(height, s.settings.choice("mode"))),
        )
    }
}
