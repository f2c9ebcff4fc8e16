//! Noise: adds fractal (fBm) gradient noise under the brush: `octaves` layers, each twice the
//! frequency and half the weight of the last, the first `scale_elmos` across. Each dab adds
//! `amplitude_elmos x strength x noise x weight` (noise runs -1..1); Shift subtracts. With
//! symmetry on, the sector's noise is copied to the others.

use super::{KernelSpec, ParamKind, ParamSpec, StrokeStart, Tool, ToolSetup};
use crate::edit::kernel::CpuPass;
use crate::map::float::floor;

pub struct Noise;
pub static NOISE: Noise = Noise;

static KERNEL: KernelSpec = KernelSpec {
    name: "noise",
    wgsl: concat!(
        include_str!("../../../shaders/noise_lib.wgsl"),
        include_str!("../../../shaders/brush_noise.wgsl")
    ),
    dab_loop: true,
    entries: &["main"],
    extras: &[],
    cpu: cpu_twin,
    cpu_dispatch: None,
};

fn hash(x: u32) -> u32 {
    let mut h = x;
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^= h >> 16;
    h
}

/// The gradient at lattice point (ix, iz): two 16-bit halves of a hash, each -1..1.
fn gradient(ix: i32, iz: i32, seed: u32) -> [f32; 2] {
    let h =
        hash((ix as u32).wrapping_mul(0x8da6_b343) ^ (iz as u32).wrapping_mul(0xd816_3841) ^ seed);
    [
        (h & 0xffff) as f32 / 32767.5 - 1.0,
        (h >> 16) as f32 / 32767.5 - 1.0,
    ]
}

/// Gradient noise at `p` (lattice units), about -1..1. `noise` in `brush_noise.wgsl`.
pub(crate) fn gradient_noise(p: [f32; 2], seed: u32) -> f32 {
    let (x0, z0) = (floor(p[0]), floor(p[1]));
    let (fx, fz) = (p[0] - x0, p[1] - z0);
    let (ix, iz) = (x0 as i32, z0 as i32);
    let corner = |dx: i32, dz: i32| {
        let g = gradient(ix + dx, iz + dz, seed);
        g[0] * (fx - dx as f32) + g[1] * (fz - dz as f32)
    };
    let ux = fx * fx * (3.0 - 2.0 * fx);
    let uz = fz * fz * (3.0 - 2.0 * fz);
    let (a, b) = (corner(0, 0), corner(1, 0));
    let (c, d) = (corner(0, 1), corner(1, 1));
    let top = a + (b - a) * ux;
    let bottom = c + (d - c) * ux;
    top + (bottom - top) * uz
}

/// fBm at world `p` (elmos): `fbm` in `brush_noise.wgsl`.
pub fn fbm(p_elmos: [f32; 2], scale_elmos: f32, octaves: u32, seed: u32) -> f32 {
    let mut sum = 0.0f32;
    let mut norm = 0.0f32;
    let mut amp = 1.0f32;
    let mut freq = 1.0 / scale_elmos;
    for o in 0..octaves {
        let n = gradient_noise(
            [p_elmos[0] * freq, p_elmos[1] * freq],
            seed.wrapping_add(o.wrapping_mul(0x9e37_79b9)),
        );
        sum += n * amp;
        norm += amp;
        amp *= 0.5;
        freq *= 2.0;
    }
    // gradient noise stays within about +-0.7; scale it to about +-1
    1.4 * sum / norm
}

/// The CPU twin of `brush_noise.wgsl`.
fn cpu_twin(_entry: &str, pass: &mut CpuPass) {
    let t = pass.params.tool;
    let (seed, scale, octaves, epc) = (t[0] as u32, t[1], t[2] as u32, pass.params.elmos_per_cell);
    pass.dab_loop(|_, v, i, dab, w| {
        let p = [i[0] as f32 * epc, i[1] as f32 * epc];
        v + dab.amount * w * fbm(p, scale, octaves, seed)
    });
}

static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "seed",
        label: "Seed",
        help: "which noise: any whole number",
        kind: ParamKind::Number {
            min: 0.0,
            max: 16_777_215.0,
            default: 1.0,
            integer: true,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "scale_elmos",
        label: "Scale",
        help: "the size of the largest bumps, in elmos",
        kind: ParamKind::Number {
            min: 16.0,
            max: 16384.0,
            default: 512.0,
            integer: false,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "octaves",
        label: "Octaves",
        help: "layers of finer detail (1-8)",
        kind: ParamKind::Number {
            min: 1.0,
            max: 8.0,
            default: 4.0,
            integer: true,
        },
        applies_when: None,
    },
    ParamSpec {
        key: "amplitude_elmos",
        label: "Amplitude",
        help: "height of the noise at strength 1, in elmos per dab",
        kind: ParamKind::Number {
            min: 0.0,
            max: 1000.0,
            default: 12.0,
            integer: false,
        },
        applies_when: None,
    },
];

impl Tool for Noise {
    fn name(&self) -> &'static str {
        "noise"
    }
    fn label(&self) -> &'static str {
        "Noise"
    }
    fn help(&self) -> &'static str {
        "Roughens the ground with fractal noise. Each dab adds amplitude x strength x noise; Shift subtracts it."
    }
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }
    fn inverse(&self) -> Option<&'static str> {
        Some("subtract")
    }
    fn position_dependent(&self) -> bool {
        true
    }
    fn kernel(&self) -> &'static KernelSpec {
        &KERNEL
    }
    fn setup(&self, s: &StrokeStart) -> Result<ToolSetup, String> {
        let st = s.settings;
        let sign = if s.inverted { -1.0 } else { 1.0 };
        let mut tool = [0.0; 16];
        tool[0] = st.number("seed").clamp(0.0, 16_777_215.0).round();
        tool[1] = st.number("scale_elmos").max(1.0);
        tool[2] = st.number("octaves").clamp(1.0, 8.0).round();
        Ok(
            ToolSetup::dab_amount(sign * st.number("amplitude_elmos") * st.brush.strength)
                .with_tool(tool),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_smooth_and_bounded() {
        let mut lo = f32::MAX;
        let mut hi = f32::MIN;
        for i in 0..2000 {
            let p = [i as f32 * 7.3, (i * 13 % 997) as f32 * 3.1];
            let v = fbm(p, 256.0, 4, 7);
            lo = lo.min(v);
            hi = hi.max(v);
            let near = fbm([p[0] + 0.5, p[1]], 256.0, 4, 7);
            assert!((v - near).abs() < 0.05, "{v} {near}");
        }
        assert!(lo < -0.3 && hi > 0.3 && lo > -2.0 && hi < 2.0, "{lo} {hi}");
        assert_ne!(
            fbm([100.0, 50.0], 256.0, 4, 1),
            fbm([100.0, 50.0], 256.0, 4, 2)
        );
    }
}
