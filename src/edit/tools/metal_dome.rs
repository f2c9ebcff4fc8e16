//! Metal dome: click to place a smooth dome of metal, `peak x (1 - d^2)^2`, falling to exactly 0
//! at its radius (BAR counts any non-zero byte as part of a spot). Give the peak byte, or a T1
//! extractor income the tool solves the peak for. Domes are centred on metal cells, where BAR's
//! spot finder centres the spot, so the income shown is the income paid. Where domes meet the
//! brighter byte wins. Existing spots are moved, reshaped or deleted through the session's spot
//! edits (the editor: drag, Ctrl+click, Shift+click).

use super::{
    BrushControls, KernelSpec, ParamKind, ParamSpec, StrokeStart, StrokeStyle, Tool, ToolSettings,
    ToolSetup, WorldDab,
};
use crate::edit::brush::{Brush, Falloff};
use crate::edit::kernel::CpuPass;
use crate::edit::layer::LayerId;
use crate::map::MapSettings;
use crate::map::metal::{METAL_CELL_ELMOS, dome_profile, peak_for_t1_income};

pub struct MetalDome;
pub static METAL_DOME: MetalDome = MetalDome;

static KERNEL: KernelSpec = KernelSpec {
    name: "metal-dome",
    wgsl: include_str!("../../../shaders/brush_metal_dome.wgsl"),
    dab_loop: true,
    entries: &["main"],
    extras: &[],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

/// The CPU twin of `brush_metal_dome.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    pass.dab_loop(|_, v, i, dab, _| {
        let l = dab.local([i[0] as f32, i[1] as f32]);
        let d = (l[0] * l[0] + l[1] * l[1]).sqrt();
        v.max(dab.amount * dome_profile(d))
    });
}

static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "peak",
        label: "Peak",
        help: "the byte at the dome's centre (metal = byte x maxMetal)",
        kind: ParamKind::Number {
            min: 1.0,
            max: 255.0,
            default: 128.0,
            integer: true,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "t1_income",
        label: "T1 income",
        help: "metal per second a T1 extractor at the centre should get; the peak is solved for it (0: use the peak)",
        kind: ParamKind::Number {
            min: 0.0,
            max: 100.0,
            default: 0.0,
            integer: false,
        },
        applies_when: None,
    },
];

/// The peak for these settings on a map with `map`'s maxMetal and extractorRadius, the T1
/// income it gives, and whether a target income was reached.
pub fn peak(settings: &ToolSettings, map: &MapSettings) -> (f32, f32, bool) {
    let radius = settings.brush.radius_elmos;
    let target = settings.number("t1_income");
    if target > 0.0 {
        let (p, got, ok) =
            peak_for_t1_income(target, radius, map.max_metal, map.extractor_radius_elmos);
        (p as f32, got, ok)
    } else {
        let p = settings.number("peak").clamp(1.0, 255.0).round();
        (p, income_of(p, radius, map), true)
    }
}

fn income_of(peak: f32, radius: f32, map: &MapSettings) -> f32 {
    use crate::map::Grid;
    use crate::map::metal::{T1_EXTRACTS_METAL, extractor_income, paint_dome};
    let n = (2.0 * radius.max(map.extractor_radius_elmos) / METAL_CELL_ELMOS).ceil() as usize + 4;
    let c = (n / 2) as f32 * METAL_CELL_ELMOS + 0.5 * METAL_CELL_ELMOS;
    let mut g = Grid::filled(n, n, 0u8);
    paint_dome(&mut g, c, c, radius, peak);
    extractor_income(
        &g,
        map.max_metal,
        map.extractor_radius_elmos,
        c,
        c,
        T1_EXTRACTS_METAL,
    )
}

/// The centre of the metal cell holding `v` elmos.
fn cell_centre(v: f32) -> f32 {
    ((v / METAL_CELL_ELMOS).floor() + 0.5) * METAL_CELL_ELMOS
}

impl Tool for MetalDome {
    fn overridden(&self, settings: &ToolSettings) -> Vec<(&'static str, &'static str)> {
        if settings.number("t1_income") > 0.0 {
            vec![("peak", "t1_income is set, and the peak is chosen to pay it")]
        } else {
            Vec::new()
        }
    }
    fn name(&self) -> &'static str {
        "metal-dome"
    }
    fn label(&self) -> &'static str {
        "Metal dome"
    }
    fn help(&self) -> &'static str {
        "Click to place a metal spot: a smooth dome, 0 at its rim. Drag a spot to move it, Ctrl+click to reshape it to these settings, Shift+click to delete it."
    }
    fn layer(&self) -> LayerId {
        LayerId::Metal
    }
    fn style(&self) -> StrokeStyle {
        StrokeStyle::Click
    }
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }
    fn default_brush(&self) -> Brush {
        Brush {
            radius_elmos: 48.0,
            ..super::brush_with(Falloff::Flat, 1.0)
        }
    }
    fn brush_controls(&self) -> BrushControls {
        BrushControls {
            radius: true,
            strength: false,
            falloff: false,
            shape: false,
        }
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let (peak, _, _) = peak(s.settings, &s.map.settings);
        Ok(ToolSetup::dab_amount(peak))
    }
    fn dab(&self, s: &StrokeStart, setup: &ToolSetup, at: [f32; 2]) -> WorldDab {
        WorldDab::round(
            [cell_centre(at[0]), cell_centre(at[1])],
            s.settings.brush.radius_elmos,
            setup.amount,
        )
    }
    fn spot_shape(&self, settings: &ToolSettings, map: &MapSettings) -> Option<(f32, f32)> {
        Some((settings.brush.radius_elmos, peak(settings, map).0))
    }
    fn settings_note(&self, settings: &ToolSettings, map: &MapSettings) -> Option<String> {
        let (p, got, ok) = peak(settings, map);
        let mut note = format!(
            "peak {p:.0}: a T1 extractor at the centre gets {got:.2} metal/s (moho {:.2})",
            got * 4.0
        );
        if !ok {
            note.push_str(&format!(
                "; {:.2} is out of reach at this radius, even at 255",
                settings.number("t1_income")
            ));
        }
        Some(note)
    }
}
