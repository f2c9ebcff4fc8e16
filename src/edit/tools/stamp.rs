//! Stamp: places a greyscale image (a 16-bit PNG: white is `height_elmos`) on the ground, as a
//! square whose half side is the brush radius, turned by `rotation_deg`, added to the ground or
//! raised to (max). One stamp per click (per point of a scripted path); strength scales the
//! height; Shift subtracts. With symmetry on, the sector's stamp is copied to the others.

use super::{
    KernelSpec, ParamKind, ParamSpec, StrokeStart, StrokeStyle, Tool, ToolSetup, WorldDab,
};
use crate::edit::brush::Brush;
use crate::edit::kernel::{CpuPass, Extra, sample_unit};

pub struct Stamp;
pub static STAMP: Stamp = Stamp;

static KERNEL: KernelSpec = KernelSpec {
    name: "stamp",
    wgsl: include_str!("../../../shaders/brush_stamp.wgsl"),
    dab_loop: true,
    entries: &["main"],
    extras: &[Extra::Stamp],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// `mode` values.
const MODES: &[&str] = &["add", "max"];

/// The CPU twin of `brush_stamp.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    let (mode, base) = (pass.params.tool[0] as u32, pass.params.tool[1]);
    pass.dab_loop(|view, v, i, dab, w| {
        let l = dab.local([i[0] as f32, i[1] as f32]);
        if l[0].abs() > 1.0 || l[1].abs() > 1.0 {
            return v;
        }
        let s = sample_unit(view.stamp.expect("stamp reads its image"), l);
        let add = dab.amount * w * s;
        if mode == 1 {
            v.max(base + add)
        } else {
            v + add
        }
    });
}

static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "file",
        label: "Image",
        help: "a greyscale PNG (16-bit for smooth heights); white is height_elmos",
        kind: ParamKind::Image,
        applies_when: None,
    },
    ParamSpec {
        key: "height_elmos",
        label: "Height",
        help: "the height of white, in elmos",
        kind: ParamKind::Number {
            min: 0.0,
            max: 4000.0,
            default: 100.0,
            integer: false,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "rotation_deg",
        label: "Rotation",
        help: "turn of the image, in degrees",
        kind: ParamKind::Number {
            min: -360.0,
            max: 360.0,
            default: 0.0,
            integer: false,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "mode",
        label: "Mode",
        help: "add: onto the ground; max: raise the ground to the stamp over the height under the click",
        kind: ParamKind::Choice {
            options: MODES,
            default: 0,
        },
        applies_when: None,
    },
];

impl Tool for Stamp {
    fn name(&self) -> &'static str {
        "stamp"
    }
    fn label(&self) -> &'static str {
        "Stamp"
    }
    fn help(&self) -> &'static str {
        "Places a heightmap image: click to stamp. Radius is half its side; strength scales its height; Shift subtracts."
    }
    fn style(&self) -> StrokeStyle {
        StrokeStyle::Click
    }
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }
    fn inverse(&self) -> Option<&'static str> {
        Some("subtract")
    }
    fn default_brush(&self) -> Brush {
        super::square_brush(1.0)
    }
    fn position_dependent(&self) -> bool {
        true
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let image = s
            .settings
            .image("file")
            .ok_or("the stamp has no image yet: pick a greyscale PNG")?;
        let sign = if s.inverted { -1.0 } else { 1.0 };
        let mut tool = [0.0; 16];
        tool[0] = s.settings.choice("mode") as f32;
        tool[1] = s.start_height_elmos;
        let mut setup = ToolSetup::dab_amount(
            sign * s.settings.number("height_elmos") * s.settings.brush.strength,
        )
        .with_tool(tool);
        setup.stamp = Some(image.values.clone());
        Ok(setup)
    }
    fn dab(&self, s: &StrokeStart, setup: &ToolSetup, at: [f32; 2]) -> WorldDab {
        WorldDab::round(at, s.settings.brush.radius_elmos, setup.amount)
            .turned(s.settings.number("rotation_deg"))
    }
}
