//! The fill kernel several paint tools share: a cell takes the tool's value where a dab's
//! weight reaches the threshold, and keeps its own elsewhere. Terrain types (threshold 1/2:
//! an index cannot be blended), grass patch sizes, and the erasers (threshold just above 0:
//! nothing stays behind at the brush's edge).

use super::KernelSpec;
use crate::edit::kernel::CpuPass;

pub static KERNEL: KernelSpec = KernelSpec {
    name: "fill",
    wgsl: include_str!("../../../shaders/brush_fill.wgsl"),
    dab_loop: true,
    entries: &["main"],
    extras: &[],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// Any weight above 0 (erasers).
pub const ANY_WEIGHT: f32 = 1e-6;
/// Half weight or more (indices, patch sizes).
pub const HALF_WEIGHT: f32 = 0.5;

/// The kernel's numbers: the value and the threshold.
pub fn tool_params(value: f32, threshold: f32) -> [f32; 16] {
    let mut t = [0.0; 16];
    t[0] = value;
    t[1] = threshold;
    t
}

/// The CPU twin of `brush_fill.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    let (value, threshold) = (pass.params.tool[0], pass.params.tool[1]);
    pass.dab_loop(|_, v, _, _, w| if w >= threshold { value } else { v });
}
