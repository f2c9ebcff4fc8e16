//! Smooth: pulls each vertex toward the mean of its neighbourhood (a box whose size follows
//! the brush radius). Strength is the blend toward that mean per dab. Reads a source copy, so
//! a pass never reads what it writes.

use super::{KernelSpec, Reach, StrokeStart, Tool, ToolSettings, ToolSetup};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::kernel::{CpuPass, Extra};

pub struct Smooth;
pub static SMOOTH: Smooth = Smooth;

static KERNEL: KernelSpec = KernelSpec {
    name: "smooth",
    wgsl: include_str!("../../../shaders/brush_smooth.wgsl"),
    dab_loop: false,
    entries: &["main"],
    extras: &[Extra::Source],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// The box's half side in cells: an eighth of the radius, 1 to 6.
fn box_cells(settings: &ToolSettings, elmos_per_cell: f32) -> u32 {
    (settings.brush.radius_elmos / elmos_per_cell / 8.0)
        .round()
        .clamp(1.0, 6.0) as u32
}

/// The CPU twin of `brush_smooth.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    let strength = pass.params.tool[0];
    let k = pass.params.tool[1] as i32;
    pass.map_cells(|view, i, v0| {
        let w = view.group_weight([i[0] as f32, i[1] as f32]) * strength;
        if w <= 0.0 {
            return v0;
        }
        let (x, z) = (i[0] as i32, i[1] as i32);
        let mut sum = 0.0f32;
        for dz in -k..=k {
            for dx in -k..=k {
                sum += view.source_at(x + dx, z + dz);
            }
        }
        let n = ((2 * k + 1) * (2 * k + 1)) as f32;
        let mean = sum / n;
        let v = view.source_at(x, z);
        v + (mean - v) * w
    });
}

impl Tool for Smooth {
    fn name(&self) -> &'static str {
        "smooth"
    }
    fn label(&self) -> &'static str {
        "Smooth"
    }
    fn help(&self) -> &'static str {
        "Evens out bumps: each dab pulls the ground toward its neighbourhood's mean. Strength 1 takes the mean at once."
    }
    fn default_brush(&self) -> Brush {
        super::brush_with(Falloff::Smooth, 0.5)
    }
    fn reach(&self, settings: &ToolSettings) -> Reach {
        Reach {
            scale: settings.brush.shape.reach_factor(),
            grow_cells: 0,
            halo_cells: box_cells(settings, self.layer().elmos_per_cell()),
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let mut tool = [0.0; 16];
        tool[0] = s.settings.brush.strength.clamp(0.0, 1.0);
        tool[1] = box_cells(s.settings, self.layer().elmos_per_cell()) as f32;
        Ok(ToolSetup::dab_amount(0.0).with_tool(tool))
    }
}
