//! The water as BumpWater draws it: every `mapinfo.water` value the shader uses, resolved to
//! the engine's default when the map leaves it unset (the engine's `MapInfo.cpp`, checked
//! against the engine), before BumpWater's pre-scaling (which the renderer applies). The
//! properties panel shows these defaults; the renderer and its CPU twin read them.

use super::MapSettings;

/// Engine defaults of the water keys BumpWater reads.
pub mod defaults {
    pub const SURFACE_COLOR: [f32; 3] = [0.75, 0.8, 0.85];
    pub const SURFACE_ALPHA: f32 = 0.55;
    pub const PLANE_COLOR: [f32; 3] = [0.0, 0.4, 0.0];
    pub const DIFFUSE_COLOR: [f32; 3] = [1.0, 1.0, 1.0];
    pub const AMBIENT_FACTOR: f32 = 1.0;
    pub const DIFFUSE_FACTOR: f32 = 1.0;
    pub const SPECULAR_FACTOR: f32 = 1.0;
    pub const SPECULAR_POWER: f32 = 20.0;
    pub const FRESNEL_MIN: f32 = 0.2;
    pub const FRESNEL_MAX: f32 = 0.8;
    pub const FRESNEL_POWER: f32 = 4.0;
    pub const REFLECTION_DISTORTION: f32 = 1.0;
    pub const BLUR_BASE: f32 = 2.0;
    pub const BLUR_EXPONENT: f32 = 1.5;
    pub const PERLIN_START_FREQ: f32 = 8.0;
    pub const PERLIN_LACUNARITY: f32 = 3.0;
    pub const PERLIN_AMPLITUDE: f32 = 0.9;
    pub const CAUSTICS_RESOLUTION: f32 = 75.0;
    pub const CAUSTICS_STRENGTH: f32 = 0.08;
    pub const WAVE_LENGTH: f32 = 0.15;
    pub const WAVE_FOAM_INTENSITY: f32 = 0.5;
    pub const SHORE_WAVES: bool = true;
    pub const DAMAGE: f32 = 0.0;
}

/// The water a map gives BumpWater, every value resolved (map's or engine default), not yet
/// pre-scaled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BumpWater {
    pub surface_color: [f32; 3],
    pub surface_alpha: f32,
    /// `Some` when the map has a water plane: BumpWater draws one only when `planeColor` is
    /// given.
    pub plane_color: Option<[f32; 3]>,
    pub diffuse_color: [f32; 3],
    /// Defaults to the ground's diffuse colour.
    pub specular_color: [f32; 3],
    pub ambient_factor: f32,
    pub diffuse_factor: f32,
    pub specular_factor: f32,
    pub specular_power: f32,
    pub fresnel_min: f32,
    pub fresnel_max: f32,
    pub fresnel_power: f32,
    pub reflection_distortion: f32,
    pub blur_base: f32,
    pub blur_exponent: f32,
    pub perlin_start_freq: f32,
    pub perlin_lacunarity: f32,
    pub perlin_amplitude: f32,
    pub caustics_resolution: f32,
    pub caustics_strength: f32,
    pub wave_length: f32,
    pub wave_foam_intensity: f32,
    pub shore_waves: bool,
    /// No water at all: the ground below 0 is a hole.
    pub void_water: bool,
    /// The unit vector towards the sun (`lighting.sunDir`, normalised).
    pub sun_dir: [f32; 3],
}

impl BumpWater {
    pub fn from_settings(s: &MapSettings) -> BumpWater {
        use defaults as d;
        let w = &s.water;
        let sun = s.lighting.sun_dir_or_default();
        let len = (sun[0] * sun[0] + sun[1] * sun[1] + sun[2] * sun[2])
            .sqrt()
            .max(1e-6);
        BumpWater {
            surface_color: w.surface_color.unwrap_or(d::SURFACE_COLOR),
            surface_alpha: w.surface_alpha.unwrap_or(d::SURFACE_ALPHA),
            plane_color: if s.void_water { None } else { w.plane_color },
            diffuse_color: w.diffuse_color.unwrap_or(d::DIFFUSE_COLOR),
            specular_color: w
                .specular_color
                .unwrap_or(s.lighting.ground_diffuse_or_default()),
            ambient_factor: w.ambient_factor.unwrap_or(d::AMBIENT_FACTOR),
            diffuse_factor: w.diffuse_factor.unwrap_or(d::DIFFUSE_FACTOR),
            specular_factor: w.specular_factor.unwrap_or(d::SPECULAR_FACTOR),
            specular_power: w.specular_power.unwrap_or(d::SPECULAR_POWER),
            fresnel_min: w.fresnel_min.unwrap_or(d::FRESNEL_MIN),
            fresnel_max: w.fresnel_max.unwrap_or(d::FRESNEL_MAX),
            fresnel_power: w.fresnel_power.unwrap_or(d::FRESNEL_POWER),
            reflection_distortion: w.reflection_distortion.unwrap_or(d::REFLECTION_DISTORTION),
            blur_base: w.blur_base.unwrap_or(d::BLUR_BASE),
            blur_exponent: w.blur_exponent.unwrap_or(d::BLUR_EXPONENT),
            perlin_start_freq: w.perlin_start_freq.unwrap_or(d::PERLIN_START_FREQ),
            perlin_lacunarity: w.perlin_lacunarity.unwrap_or(d::PERLIN_LACUNARITY),
            perlin_amplitude: w.perlin_amplitude.unwrap_or(d::PERLIN_AMPLITUDE),
            caustics_resolution: w.caustics_resolution.unwrap_or(d::CAUSTICS_RESOLUTION),
            caustics_strength: w.caustics_strength.unwrap_or(d::CAUSTICS_STRENGTH),
            wave_length: w.wave_length.unwrap_or(d::WAVE_LENGTH),
            wave_foam_intensity: w.wave_foam_intensity.unwrap_or(d::WAVE_FOAM_INTENSITY),
            shore_waves: w.shore_waves.unwrap_or(d::SHORE_WAVES),
            void_water: s.void_water,
            sun_dir: [sun[0] / len, sun[1] / len, sun[2] / len],
        }
    }
}

/// A named set of water and lighting values the mapmaker can apply at once (the built-in
/// looks, and their own, kept in `map.toml`'s `[editor]` section).
#[derive(Clone, Debug, PartialEq)]
pub struct WaterPreset {
    pub name: String,
    pub water: super::WaterSettings,
}

impl WaterPreset {
    /// Gives `water` this look: the keys the preset names take its values, and every other
    /// key goes back to the engine default (unset), the map's unknown water keys included, so
    /// nothing of an earlier look stays behind (a lava's damage in a lake).
    pub fn apply_to(&self, water: &mut super::WaterSettings) {
        *water = self.water.clone();
    }
}

/// The built-in looks: clear tropical, deep ocean, murky swamp, lava-like.
pub fn builtin_presets() -> Vec<WaterPreset> {
    let preset = |name: &str, f: &dyn Fn(&mut super::WaterSettings)| {
        let mut w = super::WaterSettings::default();
        f(&mut w);
        WaterPreset {
            name: name.into(),
            water: w,
        }
    };
    vec![
        preset("Clear tropical", &|w| {
            w.surface_color = Some([0.55, 0.85, 0.9]);
            w.surface_alpha = Some(0.3);
            w.absorb = Some([0.003, 0.0015, 0.001]);
            w.base_color = Some([0.6, 0.9, 0.85]);
            w.min_color = Some([0.1, 0.4, 0.45]);
            w.specular_power = Some(40.0);
            w.fresnel_min = Some(0.15);
            w.fresnel_max = Some(0.6);
            w.caustics_strength = Some(0.12);
        }),
        preset("Deep ocean", &|w| {
            w.surface_color = Some([0.25, 0.4, 0.6]);
            w.surface_alpha = Some(0.7);
            w.absorb = Some([0.012, 0.008, 0.005]);
            w.base_color = Some([0.25, 0.45, 0.6]);
            w.min_color = Some([0.02, 0.06, 0.12]);
            w.fresnel_min = Some(0.2);
            w.fresnel_max = Some(0.8);
            w.perlin_amplitude = Some(0.95);
        }),
        preset("Murky swamp", &|w| {
            w.surface_color = Some([0.35, 0.4, 0.2]);
            w.surface_alpha = Some(0.85);
            w.absorb = Some([0.04, 0.035, 0.05]);
            w.base_color = Some([0.35, 0.35, 0.15]);
            w.min_color = Some([0.08, 0.09, 0.03]);
            w.specular_power = Some(10.0);
            w.fresnel_max = Some(0.4);
            w.caustics_strength = Some(0.0);
            w.perlin_amplitude = Some(0.6);
        }),
        preset("Lava-like", &|w| {
            w.surface_color = Some([1.0, 0.35, 0.05]);
            w.surface_alpha = Some(0.9);
            w.diffuse_color = Some([1.0, 0.5, 0.1]);
            w.specular_color = Some([1.0, 0.6, 0.2]);
            w.absorb = Some([0.0, 0.02, 0.04]);
            w.base_color = Some([1.0, 0.3, 0.05]);
            w.min_color = Some([0.5, 0.1, 0.0]);
            w.fresnel_min = Some(0.0);
            w.fresnel_max = Some(0.2);
            w.caustics_strength = Some(0.0);
            w.damage = Some(100.0);
        }),
    ]
}

/// A body of water: connected ground below 0, as the grazing camera frames it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterBody {
    /// Its middle (elmos, x and z).
    pub centre: [f32; 2],
    /// The unit direction it is longest in, and how far it reaches each way along it.
    pub axis: [f32; 2],
    pub half_length_elmos: f32,
    /// Its area in elmos squared.
    pub area_elmos2: f32,
}

/// The largest body of water (ground below 0, 8-connected), sampled every 4th vertex; `None`
/// on a map without water.
pub fn largest_water_body(heights: &super::HeightGrid) -> Option<WaterBody> {
    const STEP: usize = 4;
    let (w, h) = heights.dims();
    let (sw, sh) = (w.div_ceil(STEP), h.div_ceil(STEP));
    let wet = |i: usize, j: usize| heights.get((i * STEP).min(w - 1), (j * STEP).min(h - 1)) < 0.0;
    let mut seen = vec![false; sw * sh];
    let mut best: Vec<(usize, usize)> = Vec::new();
    for j0 in 0..sh {
        for i0 in 0..sw {
            if seen[j0 * sw + i0] || !wet(i0, j0) {
                continue;
            }
            let mut body = Vec::new();
            let mut stack = vec![(i0, j0)];
            seen[j0 * sw + i0] = true;
            while let Some((i, j)) = stack.pop() {
                body.push((i, j));
                for dj in -1i64..=1 {
                    for di in -1i64..=1 {
                        let (ni, nj) = (i as i64 + di, j as i64 + dj);
                        if ni < 0 || nj < 0 || ni >= sw as i64 || nj >= sh as i64 {
                            continue;
                        }
                        let (ni, nj) = (ni as usize, nj as usize);
                        if !seen[nj * sw + ni] && wet(ni, nj) {
                            seen[nj * sw + ni] = true;
                            stack.push((ni, nj));
                        }
                    }
                }
            }
            if body.len() > best.len() {
                best = body;
            }
        }
    }
    if best.is_empty() {
        return None;
    }
    let cell = (STEP * 8) as f32;
    let pts: Vec<[f32; 2]> = best
        .iter()
        .map(|&(i, j)| [i as f32 * cell, j as f32 * cell])
        .collect();
    let n = pts.len() as f32;
    let (mx, mz) = (
        pts.iter().map(|p| p[0]).sum::<f32>() / n,
        pts.iter().map(|p| p[1]).sum::<f32>() / n,
    );
    // the principal axis of the points' spread
    let (mut sxx, mut sxz, mut szz) = (0.0f32, 0.0f32, 0.0f32);
    for p in &pts {
        let (dx, dz) = (p[0] - mx, p[1] - mz);
        sxx += dx * dx;
        sxz += dx * dz;
        szz += dz * dz;
    }
    let angle = 0.5 * (2.0 * sxz).atan2(sxx - szz);
    let axis = [angle.cos(), angle.sin()];
    let half = pts
        .iter()
        .map(|p| ((p[0] - mx) * axis[0] + (p[1] - mz) * axis[1]).abs())
        .fold(0.0f32, f32::max);
    Some(WaterBody {
        centre: [mx, mz],
        axis,
        half_length_elmos: half.max(cell),
        area_elmos2: n * cell * cell,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_keys_take_the_engine_defaults() {
        let s = MapSettings::default();
        let w = BumpWater::from_settings(&s);
        assert_eq!(w.surface_color, [0.75, 0.8, 0.85]);
        assert_eq!(
            (w.fresnel_min, w.fresnel_max, w.fresnel_power),
            (0.2, 0.8, 4.0)
        );
        assert_eq!(w.specular_factor, 1.0);
        // specularColor follows the ground's diffuse colour; no plane without planeColor
        assert_eq!(w.specular_color, [0.5; 3]);
        assert!(w.plane_color.is_none());
        let l = (1.0f32 + 4.0).sqrt();
        assert!((w.sun_dir[1] - 1.0 / l).abs() < 1e-6);
    }

    #[test]
    fn a_maps_values_win_and_void_water_has_no_plane() {
        let mut s = MapSettings::default();
        s.water.fresnel_max = Some(0.5);
        s.water.plane_color = Some([0.1, 0.2, 0.3]);
        s.lighting.ground_diffuse_color = Some([0.9, 0.8, 0.7]);
        let w = BumpWater::from_settings(&s);
        assert_eq!(w.fresnel_max, 0.5);
        assert_eq!(w.plane_color, Some([0.1, 0.2, 0.3]));
        assert_eq!(w.specular_color, [0.9, 0.8, 0.7]);
        s.void_water = true;
        assert!(BumpWater::from_settings(&s).plane_color.is_none());
    }

    #[test]
    fn the_largest_water_is_found_with_its_long_axis() {
        let mut h = super::super::HeightGrid::filled(129, 129, 20.0);
        // a small pond and a long lake along x
        for z in 10..14 {
            for x in 10..14 {
                h.set(x, z, -5.0);
            }
        }
        for z in 60..72 {
            for x in 20..120 {
                h.set(x, z, -30.0);
            }
        }
        let b = largest_water_body(&h).unwrap();
        assert!((b.centre[0] - 70.0 * 8.0).abs() < 40.0, "{b:?}");
        assert!((b.centre[1] - 66.0 * 8.0).abs() < 40.0, "{b:?}");
        assert!(b.axis[0].abs() > 0.99, "{b:?}");
        assert!(b.half_length_elmos > 350.0, "{b:?}");
        assert!(largest_water_body(&super::super::HeightGrid::filled(9, 9, 1.0)).is_none());
    }

    #[test]
    fn a_preset_resets_every_key_it_does_not_name() {
        let presets = builtin_presets();
        let by_name = |n: &str| presets.iter().find(|p| p.name == n).unwrap();
        let (lava, deep) = (by_name("Lava-like"), by_name("Deep ocean"));
        let mut water = super::super::WaterSettings::default();
        water
            .extra
            .insert("someFutureKey", crate::map::LuaValue::Number(3.0));
        lava.apply_to(&mut water);
        assert_eq!(water.damage, Some(100.0));
        deep.apply_to(&mut water);
        assert_eq!(water.damage.unwrap_or(defaults::DAMAGE), defaults::DAMAGE);
        // the table holds exactly the keys the preset names, with its values
        let (got, named) = (water.to_lua(), deep.water.to_lua());
        assert_eq!(got, named);
        // so every key Deep ocean leaves out resolves to the engine default
        for unnamed in ["damage", "diffuseColor", "specularColor", "someFutureKey"] {
            assert!(got.get(unnamed).is_none(), "{unnamed} left behind");
        }
        let s = MapSettings {
            water,
            ..MapSettings::default()
        };
        let w = BumpWater::from_settings(&s);
        assert_eq!(w.diffuse_color, defaults::DIFFUSE_COLOR);
        assert_eq!(w.specular_color, s.lighting.ground_diffuse_or_default());
    }

    #[test]
    fn presets_are_named_and_differ() {
        let p = builtin_presets();
        let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["Clear tropical", "Deep ocean", "Murky swamp", "Lava-like"]
        );
        assert_ne!(p[0].water, p[1].water);
    }
}
