//! Raise and lower: add height under the brush. Strength 1 moves the centre
//! [`MAX_ELMOS_PER_DAB`] elmos a dab; Shift turns one into the other.

use super::{KernelSpec, StrokeStart, Tool, ToolSetup};
use crate::edit::kernel::CpuPass;

/// Height one dab adds at the centre at strength 1.
const MAX_ELMOS_PER_DAB: f32 = 16.0;

pub struct RaiseLower {
    lower: bool,
}

pub static RAISE: RaiseLower = RaiseLower { lower: false };
pub static LOWER: RaiseLower = RaiseLower { lower: true };

pub static KERNEL: KernelSpec = KernelSpec {
    name: "raise",
    wgsl: include_str!("../../../shaders/brush_raise.wgsl"),
    dab_loop: true,
    entries: &["main"],
    extras: &[],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// The CPU twin of `brush_raise.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    pass.dab_loop(|_, v, _, dab, w| v + dab.amount * w);
}

impl Tool for RaiseLower {
    fn name(&self) -> &'static str {
        if self.lower { "lower" } else { "raise" }
    }
    fn label(&self) -> &'static str {
        if self.lower { "Lower" } else { "Raise" }
    }
    fn help(&self) -> &'static str {
        if self.lower {
            "Digs the ground down under the brush. Strength 1 lowers the centre 16 elmos a dab; Shift raises."
        } else {
            "Lifts the ground under the brush. Strength 1 raises the centre 16 elmos a dab; Shift lowers."
        }
    }
    fn inverse(&self) -> Option<&'static str> {
        Some(if self.lower { "raise" } else { "lower" })
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let down = self.lower ^ s.inverted;
        let sign = if down { -1.0 } else { 1.0 };
        Ok(ToolSetup::dab_amount(
            sign * s.settings.brush.strength * MAX_ELMOS_PER_DAB,
        ))
    }
}
