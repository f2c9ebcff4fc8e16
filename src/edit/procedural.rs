//! Deterministic procedural maps: the starter map the editor opens on, and the fixed maps the
//! render tests and benchmarks draw. Same seed, same map, on every machine.

use crate::map::metal::{METAL_CELL_ELMOS, paint_dome, peak_for_t1_income};
use crate::map::{
    AtmosphereSettings, ELMOS_PER_SQUARE, Feature, GroundTexture, LightingSettings, Map,
    MapSettings, MapSize, Team, TerrainType, WaterSettings,
};

/// A hash of a lattice point to [0, 1).
fn lattice(ix: i32, iz: i32, seed: u32) -> f32 {
    let mut h = (ix as u32).wrapping_mul(0x8da6_b343)
        ^ (iz as u32).wrapping_mul(0xd816_3841)
        ^ seed.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    (h & 0x00ff_ffff) as f32 / 16_777_216.0
}

/// Smooth value noise in [0, 1) at (x, z) lattice units.
fn value_noise(x: f32, z: f32, seed: u32) -> f32 {
    let (x0, z0) = (x.floor(), z.floor());
    let (fx, fz) = (x - x0, z - z0);
    let s = |t: f32| t * t * (3.0 - 2.0 * t);
    let (sx, sz) = (s(fx), s(fz));
    let (ix, iz) = (x0 as i32, z0 as i32);
    let a = lattice(ix, iz, seed);
    let b = lattice(ix + 1, iz, seed);
    let c = lattice(ix, iz + 1, seed);
    let d = lattice(ix + 1, iz + 1, seed);
    let top = a + (b - a) * sx;
    let bottom = c + (d - c) * sx;
    top + (bottom - top) * sz
}

/// Four octaves of value noise, about [0, 1), with features `wavelength_elmos` across.
fn fbm(x_elmos: f32, z_elmos: f32, wavelength_elmos: f32, seed: u32) -> f32 {
    let (mut sum, mut amp, mut freq, mut norm) = (0.0, 1.0, 1.0 / wavelength_elmos, 0.0);
    for octave in 0..4 {
        sum += amp * value_noise(x_elmos * freq, z_elmos * freq, seed.wrapping_add(octave));
        norm += amp;
        amp *= 0.5;
        freq *= 2.0;
    }
    sum / norm
}

/// The terrain height at a point of a `w` x `d` elmo map: rolling hills from noise, point
/// symmetric about the centre (fair for two players), with a sea along the anti-diagonal.
fn relief_height(x: f32, z: f32, w: f32, d: f32, seed: u32) -> f32 {
    let wavelength = (w.max(d) * 0.45).clamp(900.0, 2400.0);
    let half = |x: f32, z: f32| fbm(x, z, wavelength, seed);
    let n = 0.5 * (half(x, z) + half(w - x, d - z));
    // distance from the anti-diagonal, 0 on it, 1 at the far corners
    let (u, v) = (x / w, z / d);
    let across = ((u + v) - 1.0).abs();
    let sea = (1.0 - across / 0.28).clamp(0.0, 1.0);
    let sea = sea * sea * (3.0 - 2.0 * sea);
    let hills = ((n - 0.35) * 520.0).max(-20.0);
    hills * (1.0 - 0.8 * sea) + 40.0 - sea * 170.0
}

/// A map of `size` with relief from `seed`, a sea across the middle, metal spots, two start
/// positions, a few trees, and a texture coloured from the heights.
pub fn relief_map(size: MapSize, seed: u32, name: &str) -> Map {
    let mut settings = MapSettings {
        name: name.to_string(),
        description: format!("A {size} map of hills and a sea, made by Groundwork"),
        author: "Groundwork".into(),
        min_height_elmos: -150.0,
        max_height_elmos: 350.0,
        max_metal: 2.0,
        extractor_radius_elmos: 80.0,
        water: WaterSettings {
            absorb: Some([0.004, 0.0025, 0.0015]),
            base_color: Some([0.75, 0.95, 1.0]),
            min_color: Some([0.2, 0.4, 0.55]),
            surface_alpha: Some(0.3),
            ..Default::default()
        },
        atmosphere: AtmosphereSettings {
            sky_color: Some([0.52, 0.66, 0.82]),
            ..Default::default()
        },
        lighting: LightingSettings {
            sun_dir: Some([0.7, 0.6, -0.45, 1.0]),
            ground_ambient_color: Some([0.45, 0.45, 0.5]),
            ground_diffuse_color: Some([0.75, 0.72, 0.65]),
            ground_specular_color: Some([0.1, 0.1, 0.1]),
            ..Default::default()
        },
        ..MapSettings::default()
    };
    settings.terrain_types.clear();
    settings
        .terrain_types
        .insert(0, TerrainType::named("Grass"));
    settings.terrain_types.insert(1, TerrainType::named("Sand"));
    let mut rock = TerrainType::named("Rock");
    rock.hardness = 2.0;
    rock.receive_tracks = false;
    settings.terrain_types.insert(2, rock);

    let mut map = Map::new(size, settings);
    let (w, d) = (size.width_elmos(), size.depth_elmos());
    let sq = ELMOS_PER_SQUARE as f32;
    let (hw, _) = map.heights.dims();
    for (i, h) in map.heights.data_mut().iter_mut().enumerate() {
        let (x, z) = ((i % hw) as f32 * sq, (i / hw) as f32 * sq);
        *h = relief_height(x, z, w, d, seed).clamp(
            map.settings.min_height_elmos + 1.0,
            map.settings.max_height_elmos - 1.0,
        );
    }

    // types: sand at the shore, rock up high, grass between
    let (mw, mh) = map.types.dims();
    for z in 0..mh {
        for x in 0..mw {
            let h = map
                .heights
                .sample_bilinear(x as f32 * 2.0 + 1.0, z as f32 * 2.0 + 1.0);
            let t = if h < 12.0 {
                1
            } else if h > 190.0 {
                2
            } else {
                0
            };
            map.types.set(x, z, t);
        }
    }
    // grass on the middle slopes where the noise says so
    let (gw, gh) = map.grass.dims();
    for z in 0..gh {
        for x in 0..gw {
            let (xe, ze) = (x as f32 * 32.0 + 16.0, z as f32 * 32.0 + 16.0);
            let h = map.heights.sample_bilinear(xe / sq, ze / sq);
            let patch = fbm(xe, ze, 700.0, seed ^ 0x9e37);
            if h > 25.0 && h < 160.0 && patch > 0.55 {
                // graded sizes, 2..254, thicker where the noise is strong (a map whose
                // highest byte is 1 gets random sizes from BAR)
                let size = 40.0 + (patch - 0.55) / 0.45 * 214.0;
                map.grass.set(x, z, size.clamp(2.0, 254.0) as u8);
            }
        }
    }

    // two starts in opposite corners, metal around each and in the contested middle
    let starts = [[0.18 * w, 0.18 * d], [0.82 * w, 0.82 * d]];
    map.teams = starts
        .iter()
        .map(|s| Team {
            start_x_elmos: s[0],
            start_z_elmos: s[1],
        })
        .collect();
    let mut spots = Vec::new();
    for (i, s) in starts.iter().enumerate() {
        let sign = if i == 0 { 1.0 } else { -1.0 };
        for off in [[220.0, 60.0], [60.0, 240.0], [-180.0, 120.0]] {
            spots.push([s[0] + sign * off[0], s[1] + sign * off[1]]);
        }
    }
    spots.push([0.35 * w, 0.62 * d]);
    spots.push([0.65 * w, 0.38 * d]);
    // domes sized like BAR's: a T1 extractor at each pays 2 metal/s
    let radius = 48.0;
    let (peak, _, _) = peak_for_t1_income(
        2.0,
        radius,
        map.settings.max_metal,
        map.settings.extractor_radius_elmos,
    );
    for s in &spots {
        // clear of the edge ring BAR never scans, even on small maps
        let inside = |v: f32, side: f32| v.clamp(radius + 24.0, side - radius - 24.0);
        let (cx, cz) = (snap_to_cell(inside(s[0], w)), snap_to_cell(inside(s[1], d)));
        paint_dome(&mut map.metal, cx, cz, radius, peak as f32);
    }

    // a few trees on the grass, mirrored like the relief
    for k in 0..12u32 {
        let u = 0.1 + 0.8 * lattice(k as i32, 7, seed);
        let v = 0.1 + 0.4 * lattice(k as i32, 11, seed);
        for (x, z) in [(u * w, v * d), (w - u * w, d - v * d)] {
            map.features.push(Feature {
                name: "treetype3".into(),
                x_elmos: x,
                z_elmos: z,
                rotation_deg: (k * 37 % 360) as f32,
            });
        }
    }

    map.texture = GroundTexture::default_for_heights(size, &map.heights, &map.settings);
    map
}

/// The centre of the metal cell holding `elmos`, where BAR's spot finder centres a dome.
fn snap_to_cell(elmos: f32) -> f32 {
    ((elmos / METAL_CELL_ELMOS).floor() + 0.5) * METAL_CELL_ELMOS
}

/// The starter map the editor opens on: 8x8, hills, a sea, metal and two starts.
pub fn starter_map() -> Map {
    relief_map(
        MapSize::new(8, 8).expect("8x8 is a valid size"),
        7,
        "Groundwork Starter",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relief_is_deterministic_and_has_land_and_sea() {
        let size = MapSize::new(2, 2).unwrap();
        let a = relief_map(size, 3, "t");
        let b = relief_map(size, 3, "t");
        assert_eq!(a.heights, b.heights);
        assert_eq!(a.metal, b.metal);
        a.check_layers().unwrap();
        let (lo, hi) = a.heights.min_max();
        assert!(lo < -20.0 && hi > 40.0, "{lo}..{hi}");
        assert!(lo >= a.settings.min_height_elmos && hi <= a.settings.max_height_elmos);
        assert_eq!(a.teams.len(), 2);
        let report = a.metal_report();
        assert_eq!(report.spots.len(), 8, "{:?}", report.spots);
        for s in &report.spots {
            assert!((s.t1_income - 2.0).abs() < 0.05, "{s:?}");
        }
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        assert!(a.grass.data().iter().any(|&g| g > 1));
        assert!(
            crate::map::grass::grass_map_warning(*a.grass.data().iter().max().unwrap()).is_none()
        );
        assert!(a.settings.playability_warnings(a.teams.len()).is_empty());
    }

    #[test]
    fn relief_is_point_symmetric() {
        let size = MapSize::new(2, 2).unwrap();
        let m = relief_map(size, 9, "t");
        let (w, h) = m.heights.dims();
        for (x, z) in [(3, 5), (40, 100), (128, 1)] {
            let a = m.heights.get(x, z);
            let b = m.heights.get(w - 1 - x, h - 1 - z);
            assert!((a - b).abs() < 1e-3, "{a} vs {b}");
        }
    }
}
