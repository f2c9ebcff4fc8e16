//! Geysers and destructible rocks to BAR features.
//!
//! - A vespene geyser becomes `GeoVent`: names containing "geovent" get the engine's built-in
//!   geothermal vent definition, so it works on any game.
//! - A destructible rock becomes BAR's own game-side rocks, `rocks30_<biome>_<NN>` (BAR's
//!   `features/rocks30.lua`: blocking, reclaimable, metal 9 + NN, footprint NN / 8 + 1 in 16-elmo
//!   units). The biome follows the tileset: `snow` for Braxis and Kaldir, `moss` for green
//!   worlds (Agria, Bel'Shir, Haven, Castanar, Zerus, Aiur), `desert` for Shakuras, Mar Sara,
//!   Xil, Redstone and Char, `def` otherwise. A rock's SC2 footprint (from its name, e.g.
//!   `DestructibleRock6x6`; 2 cells when the name says nothing) is covered with a grid of the
//!   largest rock (NN = 30, 64 elmos) turned by the SC2 rotation, so the rocks still block the
//!   path they blocked in SC2 until they are reclaimed or destroyed. At small `cell_elmos` a
//!   single smaller rock is used instead.

use crate::map::Feature;

/// The engine's built-in geothermal vent.
pub use crate::map::bar::GEOVENT;
use crate::map::bar::ROCK_FEATURE_PREFIX;
/// The side of BAR's largest rocks30 rock, in elmos (footprint 4 x 16).
const BIG_ROCK_ELMOS: f32 = 64.0;

/// The rocks30 biome for a tileset.
pub fn rock_biome(tileset: &str) -> &'static str {
    let t = tileset.to_ascii_lowercase().replace(['\'', ' ', '_'], "");
    let any = |ws: &[&str]| ws.iter().any(|w| t.starts_with(w));
    if any(&["braxis", "kaldir"]) {
        "snow"
    } else if any(&["agria", "belshir", "haven", "castanar", "zerus", "aiur"]) {
        "moss"
    } else if any(&["shakuras", "marsara", "xil", "redstone", "char"]) {
        "desert"
    } else {
        "def"
    }
}

/// A geyser at (x, z) elmos.
pub fn geovent(x_elmos: f32, z_elmos: f32) -> Feature {
    Feature {
        name: GEOVENT.to_string(),
        x_elmos,
        z_elmos,
        rotation_deg: 0.0,
    }
}

/// The rocks covering a destructible rock of `footprint_cells` at (x, z) elmos.
pub fn rocks(
    biome: &str,
    footprint_cells: u32,
    cell_elmos: f32,
    x_elmos: f32,
    z_elmos: f32,
    rotation_rad: f32,
) -> Vec<Feature> {
    let side = footprint_cells as f32 * cell_elmos;
    let rotation_deg = rotation_rad.to_degrees().rem_euclid(360.0);
    if side < BIG_ROCK_ELMOS {
        // one rock whose footprint (16-elmo units) best matches the side
        let fp = (side / 16.0).round().clamp(1.0, 4.0) as u32;
        let nn = (8 * fp - 2).clamp(1, 30);
        return vec![Feature {
            name: format!("{ROCK_FEATURE_PREFIX}_{biome}_{nn:02}"),
            x_elmos,
            z_elmos,
            rotation_deg,
        }];
    }
    let k = (side / BIG_ROCK_ELMOS).round().max(1.0) as usize;
    let step = side / k as f32;
    // SC2's rotation turns counter-clockwise seen from above with Y north; with Z south that is
    // clockwise in (x, z)
    let (s, c) = (-rotation_rad).sin_cos();
    let mut out = Vec::with_capacity(k * k);
    for j in 0..k {
        for i in 0..k {
            let (ox, oz) = (
                (i as f32 + 0.5) * step - side / 2.0,
                (j as f32 + 0.5) * step - side / 2.0,
            );
            out.push(Feature {
                name: format!("{ROCK_FEATURE_PREFIX}_{biome}_30"),
                x_elmos: x_elmos + ox * c - oz * s,
                z_elmos: z_elmos + ox * s + oz * c,
                rotation_deg,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rocks_cover_the_footprint_with_bar_rocks() {
        let r = rocks("desert", 2, 32.0, 100.0, 100.0, 0.0);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].name, "rocks30_desert_30");
        let r = rocks("def", 6, 32.0, 500.0, 500.0, 0.7);
        assert_eq!(r.len(), 9);
        let (cx, cz) = r
            .iter()
            .fold((0.0, 0.0), |(a, b), f| (a + f.x_elmos, b + f.z_elmos));
        assert!((cx / 9.0 - 500.0).abs() < 1e-3 && (cz / 9.0 - 500.0).abs() < 1e-3);
        let small = rocks("snow", 2, 8.0, 10.0, 10.0, 0.0);
        assert_eq!(small[0].name, "rocks30_snow_06");
        assert!(small[0].name.len() <= 31);
        assert_eq!(rock_biome("ShakurasTemple"), "desert");
        assert_eq!(rock_biome("Braxis Alpha"), "snow");
        assert_eq!(rock_biome("Nowhere"), "def");
    }
}
