//! Metal paint and erase: freehand brushes for the metal field itself. Paint adds bytes
//! (strength 1: 32 a dab at the centre; Shift takes them away); erase clears every cell the
//! brush touches to 0, so no stray bytes are left to make phantom spots.

use super::{KernelSpec, StrokeStart, Tool, ToolSetup, fill, raise};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::layer::LayerId;

/// Bytes one paint dab adds at the centre at strength 1.
const BYTES_PER_DAB: f32 = 32.0;

pub struct MetalPaint {
    erase: bool,
}

pub static METAL_PAINT: MetalPaint = MetalPaint { erase: false };
pub static METAL_ERASE: MetalPaint = MetalPaint { erase: true };

impl Tool for MetalPaint {
    fn name(&self) -> &'static str {
        if self.erase {
            "metal-erase"
        } else {
            "metal-paint"
        }
    }
    fn label(&self) -> &'static str {
        if self.erase {
            "Metal erase"
        } else {
            "Metal paint"
        }
    }
    fn help(&self) -> &'static str {
        if self.erase {
            "Clears the metal under the brush to 0, edge included."
        } else {
            "Paints metal bytes freehand. Strength 1 adds 32 a dab at the centre; Shift takes them away."
        }
    }
    fn layer(&self) -> LayerId {
        LayerId::Metal
    }
    fn inverse(&self) -> Option<&'static str> {
        (!self.erase).then_some("remove")
    }
    fn default_brush(&self) -> Brush {
        Brush {
            radius_elmos: 64.0,
            ..super::brush_with(Falloff::Smooth, 0.5)
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        if self.erase {
            &fill::KERNEL
        } else {
            &raise::KERNEL
        }
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        if self.erase {
            return Ok(
                ToolSetup::dab_amount(0.0).with_tool(fill::tool_params(0.0, fill::ANY_WEIGHT))
            );
        }
        let sign = if s.inverted { -1.0 } else { 1.0 };
        Ok(ToolSetup::dab_amount(
            sign * s.settings.brush.strength * BYTES_PER_DAB,
        ))
    }
}
