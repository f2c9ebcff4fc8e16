//! Set (level): puts the ground at a typed height; with the default flat falloff and strength 1
//! a dab levels its whole disc at once. It is flatten to a typed height, with flatten's kernel.

use super::{KernelSpec, ParamKind, ParamSpec, StrokeStart, Tool, ToolSetup, flatten};
use crate::edit::brush::{Brush, Falloff};

pub struct Set;
pub static SET: Set = Set;

static PARAMS: &[ParamSpec] = &[ParamSpec {
    key: "height_elmos",
    label: "Height",
    help: "the height to level to, in elmos",
    kind: ParamKind::Number {
        min: -10000.0,
        max: 10000.0,
        default: 0.0,
        integer: false,
    },
    applies_when: None,
}];

impl Tool for Set {
    fn name(&self) -> &'static str {
        "set"
    }
    fn label(&self) -> &'static str {
        "Set / level"
    }
    fn help(&self) -> &'static str {
        "Levels the ground to a typed height. Strength 1 sets it at once; less blends toward it per dab."
    }
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }
    fn default_brush(&self) -> Brush {
        super::brush_with(Falloff::Flat, 1.0)
    }
    fn kernel(&self) -> &'static KernelSpec {
        &flatten::KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        Ok(
            ToolSetup::dab_amount(s.settings.brush.strength.clamp(0.0, 1.0))
                .with_tool(flatten::tool_params(s.settings.number("height_elmos"), 0)),
        )
    }
}
