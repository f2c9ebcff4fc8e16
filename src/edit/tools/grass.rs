//! Grass and grass erase: grass patch sizes per 32-elmo cell, as BAR's grass widget reads them.
//! Strength picks the size byte (2..254, never 255, which BAR reads as "no grass on this map";
//! an ops file may give `value` instead); cells under at least half a dab's weight take it.
//! Erase clears every cell the brush touches.

use super::{KernelSpec, ParamKind, ParamSpec, StrokeStart, Tool, ToolSettings, ToolSetup, fill};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::layer::LayerId;
use crate::map::MapSettings;

pub struct Grass {
    erase: bool,
}

pub static GRASS: Grass = Grass { erase: false };
pub static GRASS_ERASE: Grass = Grass { erase: true };

static PARAMS: &[ParamSpec] = &[ParamSpec {
    key: "value",
    label: "Size byte",
    help: "the patch size byte, 2..254 (0: from the strength)",
    kind: ParamKind::Number {
        min: 0.0,
        max: 254.0,
        default: 0.0,
        integer: true,
    },
    applies_when: None,
}];

/// The byte a stroke paints: `value` when set, else the strength spread over 2..254.
fn size_byte(settings: &ToolSettings) -> f32 {
    let v = settings.number("value");
    if v >= 2.0 {
        v.min(254.0).round()
    } else {
        (2.0 + settings.brush.strength.clamp(0.0, 1.0) * 252.0).round()
    }
}

impl Tool for Grass {
    fn overridden(&self, settings: &ToolSettings) -> Vec<(&'static str, &'static str)> {
        if !self.erase && settings.number("value") >= 2.0 {
            vec![("strength", "value is set, and it is the byte painted")]
        } else {
            Vec::new()
        }
    }
    fn name(&self) -> &'static str {
        if self.erase { "grass-erase" } else { "grass" }
    }
    fn label(&self) -> &'static str {
        if self.erase { "Grass erase" } else { "Grass" }
    }
    fn help(&self) -> &'static str {
        if self.erase {
            "Clears grass under the brush."
        } else {
            "Paints grass patches; strength sets their size (byte 2 to 254)."
        }
    }
    fn layer(&self) -> LayerId {
        LayerId::Grass
    }
    fn params(&self) -> &'static [ParamSpec] {
        if self.erase { &[] } else { PARAMS }
    }
    fn default_brush(&self) -> Brush {
        Brush {
            radius_elmos: 160.0,
            ..super::brush_with(Falloff::Flat, 0.5)
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        &fill::KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let (value, threshold) = if self.erase {
            (0.0, fill::ANY_WEIGHT)
        } else {
            (size_byte(s.settings), fill::HALF_WEIGHT)
        };
        Ok(ToolSetup::dab_amount(0.0).with_tool(fill::tool_params(value, threshold)))
    }
    fn settings_note(&self, settings: &ToolSettings, map: &MapSettings) -> Option<String> {
        if self.erase {
            return None;
        }
        let b = size_byte(settings);
        let (lo, hi) = crate::map::grass::size_range(map);
        Some(format!(
            "byte {b:.0}: patches {:.2} x as large as BAR's base blade",
            lo + b / 254.0 * (hi - lo)
        ))
    }
}
