//! The texture brush: paints (`texture-paint`) or erases (`texture-erase`) one texture layer's
//! mask, moving it toward 255 (the layer forced on) or 0 (forced off) by the strength at the
//! brush's centre a dab; Shift does the other. Filters as BAR's splat painter has them: avoid
//! water, no steeper than a slope, only within a slope band or a height band; they read the
//! ground as the stroke started and are hard (a cell outside keeps its value exactly).

use super::{KernelSpec, ParamKind, ParamSpec, StrokeStart, Tool, ToolSettings, ToolSetup};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::kernel::{CpuPass, Extra};
use crate::edit::layer::LayerId;

pub struct TextureBrush {
    erase: bool,
}

pub static TEXTURE_PAINT: TextureBrush = TextureBrush { erase: false };
pub static TEXTURE_ERASE: TextureBrush = TextureBrush { erase: true };

pub static KERNEL: KernelSpec = KernelSpec {
    name: "texture-paint",
    wgsl: include_str!("../../../shaders/brush_texture_paint.wgsl"),
    dab_loop: true,
    entries: &["main"],
    extras: &[Extra::Original],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// The widest height band the filter takes, in elmos.
const HEIGHT_LIMIT_ELMOS: f32 = 10000.0;

static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "layer",
        label: "Layer",
        help: "the texture layer whose mask the brush paints",
        kind: ParamKind::TextureLayer,
        applies_when: None,
    },
    ParamSpec {
        key: "avoid_water",
        label: "Avoid water",
        help: "leave ground below the water (height under 0) alone",
        kind: ParamKind::Toggle { default: false },
        applies_when: None,
    },
    ParamSpec {
        key: "max_slope_deg",
        label: "Max slope",
        help: "leave ground steeper than this alone (BAR's splat painter avoids cliffs above 45)",
        kind: ParamKind::Number {
            min: 0.0,
            max: 90.0,
            default: 90.0,
            integer: false,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "slope_deg",
        label: "Slope band",
        help: "only paint ground whose slope lies in this band",
        kind: ParamKind::Range {
            lo: 0.0,
            hi: 90.0,
            default: (0.0, 90.0),
        },
        applies_when: None,
    },
    ParamSpec {
        key: "height_elmos",
        label: "Height band",
        help: "only paint ground whose height lies in this band",
        kind: ParamKind::Range {
            lo: -HEIGHT_LIMIT_ELMOS,
            hi: HEIGHT_LIMIT_ELMOS,
            default: (-HEIGHT_LIMIT_ELMOS, HEIGHT_LIMIT_ELMOS),
        },
        applies_when: None,
    },
];

/// Stands for "no limit" (finite: WGSL may assume there are no infinities).
const UNLIMITED: f32 = 1e30;

/// tan^2 of a slope in degrees; 90 degrees and more: no limit.
fn tan2(deg: f32) -> f32 {
    if deg >= 90.0 {
        UNLIMITED
    } else {
        let t = deg.max(0.0).to_radians().tan();
        t * t
    }
}

/// The stack place of the chosen layer.
fn layer_index(settings: &ToolSettings) -> u8 {
    settings.choice("layer").min(u8::MAX as usize) as u8
}

/// Whether the ground at mask cell `i` passes the filters: the WGSL's `ground_passes`.
fn ground_passes(heights: &crate::map::Grid<f32>, t: &[f32; 16], i: [u32; 2]) -> bool {
    let u = (i[0] as f32 + 0.5) * 2.0;
    let v = (i[1] as f32 + 0.5) * 2.0;
    let h = heights.sample_bilinear(u, v);
    let gx = (heights.sample_bilinear(u + 1.0, v) - heights.sample_bilinear(u - 1.0, v)) / 16.0;
    let gz = (heights.sample_bilinear(u, v + 1.0) - heights.sample_bilinear(u, v - 1.0)) / 16.0;
    let g2 = gx * gx + gz * gz;
    if t[0] > 0.5 && h < 0.0 {
        return false;
    }
    if g2 > t[1] || g2 < t[2] || g2 > t[3] {
        return false;
    }
    h >= t[5] && h <= t[6]
}

/// The CPU twin of `brush_texture_paint.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    let t = pass.params.tool;
    pass.dab_loop(|view, v, i, dab, w| {
        let Some(heights) = view.original else {
            return v;
        };
        if !ground_passes(heights, &t, i) {
            return v;
        }
        v + (t[4] - v) * (dab.amount * w).min(1.0)
    });
}

impl Tool for TextureBrush {
    fn name(&self) -> &'static str {
        if self.erase {
            "texture-erase"
        } else {
            "texture-paint"
        }
    }
    fn label(&self) -> &'static str {
        if self.erase {
            "Texture erase"
        } else {
            "Texture paint"
        }
    }
    fn help(&self) -> &'static str {
        if self.erase {
            "Erases a texture layer where you paint, whatever its rules say. Strength 1 clears the centre in one dab; Shift paints."
        } else {
            "Paints a texture layer on, whatever its rules say. Strength 1 covers the centre in one dab; Shift erases."
        }
    }
    fn layer(&self) -> LayerId {
        LayerId::TextureMask(0)
    }
    fn layer_for(&self, settings: &ToolSettings) -> LayerId {
        LayerId::TextureMask(layer_index(settings))
    }
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }
    fn inverse(&self) -> Option<&'static str> {
        Some(if self.erase { "paint" } else { "erase" })
    }
    fn default_brush(&self) -> Brush {
        Brush {
            radius_elmos: 128.0,
            ..super::brush_with(Falloff::Smooth, 0.5)
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let k = layer_index(s.settings) as usize;
        let layers = &s.map.texture_layers;
        if layers.is_empty() {
            return Err(
                "the map has no texture layers; add one in map.toml's [[texture.layers]]".into(),
            );
        }
        if k >= layers.len() {
            return Err(format!(
                "texture layer {k} is not in the map's stack of {}",
                layers.len()
            ));
        }
        let on = !self.erase ^ s.inverted;
        let (slope_lo, slope_hi) = s.settings.range("slope_deg");
        let (h_lo, h_hi) = s.settings.range("height_elmos");
        let mut t = [0.0f32; 16];
        t[0] = if s.settings.toggle("avoid_water") {
            1.0
        } else {
            0.0
        };
        t[1] = tan2(s.settings.number("max_slope_deg"));
        t[2] = if slope_lo <= 0.0 { 0.0 } else { tan2(slope_lo) };
        t[3] = tan2(slope_hi);
        t[4] = if on { 255.0 } else { 0.0 };
        t[5] = if h_lo <= -HEIGHT_LIMIT_ELMOS {
            -UNLIMITED
        } else {
            h_lo
        };
        t[6] = if h_hi >= HEIGHT_LIMIT_ELMOS {
            UNLIMITED
        } else {
            h_hi
        };
        Ok(ToolSetup::dab_amount(s.settings.brush.strength).with_tool(t))
    }
}
