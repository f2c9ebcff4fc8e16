//! Restore: brings the ground back to the heights the map had when it was opened. Strength is
//! the blend per dab (1: back at once).

use super::{KernelSpec, StrokeStart, Tool, ToolSetup};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::kernel::{CpuPass, Extra};

pub struct Restore;
pub static RESTORE: Restore = Restore;

static KERNEL: KernelSpec = KernelSpec {
    name: "restore",
    wgsl: include_str!("../../../shaders/brush_restore.wgsl"),
    dab_loop: true,
    entries: &["main"],
    extras: &[Extra::Original],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// The CPU twin of `brush_restore.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    pass.dab_loop(|view, v, i, dab, w| {
        let o = view
            .original
            .expect("restore reads the original layer")
            .get(i[0] as usize, i[1] as usize);
        v + (o - v) * (dab.amount * w)
    });
}

impl Tool for Restore {
    fn name(&self) -> &'static str {
        "restore"
    }
    fn label(&self) -> &'static str {
        "Restore"
    }
    fn help(&self) -> &'static str {
        "Brings the ground back to the heights it had when the map was opened. Strength is the blend per dab."
    }
    fn default_brush(&self) -> Brush {
        super::brush_with(Falloff::Smooth, 0.5)
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        Ok(ToolSetup::dab_amount(
            s.settings.brush.strength.clamp(0.0, 1.0),
        ))
    }
}
