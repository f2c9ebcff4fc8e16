//! Warzone 2100 terrain types as BAR terrain types: one type-map index per Warzone type, with
//! hardness (how hard to crater) and speed multipliers guided by the game's own
//! `stats/terraintable.json` (tracked, legged, hover speed factors).

use std::collections::BTreeMap;

use crate::map::{MoveSpeeds, TerrainType};

/// (name, hardness, receives tracks, tank, kbot, hover, ship), indexed by Warzone type.
///
/// | WZ type      | why                                                                |
/// |--------------|--------------------------------------------------------------------|
/// | sand         | soft, tracks show; hovers glide (WZ hover 150%)                    |
/// | sandy brush  | ordinary ground                                                    |
/// | baked earth  | hard crust; WZ tracks 90%                                          |
/// | green mud    | soft; WZ wheels 80%                                                |
/// | red brush    | ordinary ground                                                    |
/// | pink rock    | hard; WZ hover 50%                                                 |
/// | road         | hard, no tracks, full speed for everything                         |
/// | water        | the sea bed                                                        |
/// | cliff face   | rock; the slope stops units, the speeds are a second line          |
/// | rubble       | uneven; WZ tracks 80%                                              |
/// | sheet ice    | hard, slippery; WZ wheels 70%                                      |
/// | slush        | soft; WZ legged 75%                                                |
pub const TABLE: [(&str, f32, bool, [f32; 4]); 12] = [
    ("Sand", 0.8, true, [1.0, 1.0, 1.0, 1.0]),
    ("Sandy brush", 1.0, true, [1.0, 1.0, 0.9, 1.0]),
    ("Baked earth", 1.3, true, [0.9, 1.0, 1.0, 1.0]),
    ("Green mud", 0.7, true, [0.9, 0.9, 1.0, 1.0]),
    ("Red brush", 1.0, true, [1.0, 1.0, 0.9, 1.0]),
    ("Pink rock", 2.0, false, [1.0, 1.0, 0.7, 1.0]),
    ("Road", 1.5, false, [1.0, 1.0, 1.0, 1.0]),
    ("Water", 0.5, false, [1.0, 1.0, 1.0, 1.0]),
    ("Cliff face", 3.0, false, [0.6, 0.6, 0.6, 1.0]),
    ("Rubble", 1.2, true, [0.8, 0.9, 0.8, 1.0]),
    ("Sheet ice", 1.5, false, [0.9, 0.9, 1.0, 1.0]),
    ("Slush", 0.7, true, [0.85, 0.8, 0.9, 1.0]),
];

/// The terrain-type table for `mapinfo.terrainTypes`, keyed by the type-map byte.
pub fn bar_terrain_types() -> BTreeMap<u8, TerrainType> {
    TABLE
        .iter()
        .enumerate()
        .map(|(i, &(name, hardness, tracks, s))| {
            let mut t = TerrainType::named(name);
            t.hardness = hardness;
            t.receive_tracks = tracks;
            t.move_speeds = MoveSpeeds {
                tank: s[0],
                kbot: s[1],
                hover: s[2],
                ship: s[3],
            };
            (i as u8, t)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_entry_per_warzone_type() {
        let t = bar_terrain_types();
        assert_eq!(t.len(), 12);
        assert_eq!(t[&7].name, "Water");
        assert_eq!(t[&8].name, "Cliff face");
        assert!(
            t.values()
                .all(|x| x.hardness > 0.0 && x.move_speeds.tank <= 1.0)
        );
    }
}
