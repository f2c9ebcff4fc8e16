//! Terrain type: paints a type index (into the map's `terrainTypes`) on the 16-elmo type grid.
//! An index cannot be blended: cells under at least half a dab's weight take it. Painting an
//! index the map does not define warns.

use super::{KernelSpec, ParamKind, ParamSpec, StrokeStart, Tool, ToolSettings, ToolSetup, fill};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::layer::LayerId;
use crate::map::MapSettings;

pub struct TerrainTypeBrush;
pub static TERRAIN_TYPE: TerrainTypeBrush = TerrainTypeBrush;

static PARAMS: &[ParamSpec] = &[ParamSpec {
    key: "index",
    label: "Type",
    help: "the terrain type index (0..255) to paint",
    kind: ParamKind::Number {
        min: 0.0,
        max: 255.0,
        default: 0.0,
        integer: true,
    },
    applies_when: None,
}];

fn index(settings: &ToolSettings) -> u8 {
    settings.number("index").clamp(0.0, 255.0).round() as u8
}

fn undefined(settings: &ToolSettings, map: &MapSettings) -> Option<String> {
    let i = index(settings);
    (!map.terrain_types.contains_key(&i)).then(|| {
        format!("terrain type {i} is not in the map's terrainTypes: the engine gives it default values; define it in the properties")
    })
}

impl Tool for TerrainTypeBrush {
    fn name(&self) -> &'static str {
        "type"
    }
    fn label(&self) -> &'static str {
        "Terrain type"
    }
    fn help(&self) -> &'static str {
        "Paints the terrain type index: hardness, tracks and move speeds come from its entry."
    }
    fn layer(&self) -> LayerId {
        LayerId::Types
    }
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }
    fn default_brush(&self) -> Brush {
        Brush {
            radius_elmos: 128.0,
            ..super::brush_with(Falloff::Flat, 1.0)
        }
    }
    fn brush_controls(&self) -> super::BrushControls {
        super::BrushControls {
            strength: false,
            ..super::BrushControls::ALL
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        &fill::KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        Ok(ToolSetup::dab_amount(0.0).with_tool(fill::tool_params(
            index(s.settings) as f32,
            fill::HALF_WEIGHT,
        )))
    }
    fn settings_note(&self, settings: &ToolSettings, map: &MapSettings) -> Option<String> {
        let i = index(settings);
        Some(match map.terrain_types.get(&i) {
            Some(t) => format!("type {i}: {}", t.name),
            None => format!("warning: {}", undefined(settings, map).unwrap_or_default()),
        })
    }
    fn stroke_warnings(&self, s: &StrokeStart) -> Vec<String> {
        undefined(s.settings, &s.map.settings).into_iter().collect()
    }
}
