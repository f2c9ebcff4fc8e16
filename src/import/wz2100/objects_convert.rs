//! Placed objects to BAR: oil to metal domes, HQs (or constructors) to start positions, trees
//! and boulders to BAR features through a fixed table; everything else is listed and dropped.
//!
//! Metal: every oil resource (an `OilResource` feature, or a derrick standing where no oil
//! feature is listed) becomes one smooth dome (the project's dome painter,
//! `map::metal::paint_dome`: `(1 - (r / R)^2)^2`) with R = 3.5 metal cells (56 elmos), its peak
//! chosen so its bytes sum to about [`SPOT_METAL_BYTES`]. With `maxMetal` = 1.0 and a
//! BAR tech-1 extractor (`extractsMetal` 0.001) that is 2.0 metal per second, BAR's usual spot.
//! `extractorRadius` 90 (BAR's map template) covers the whole dome with room to spare. Domes
//! that would touch keep a ring of zero cells between them (`map::metal::paint_domes_apart`),
//! so BAR's spot finder sees each as its own spot.
//!
//! Features (names BAR defines, so the engine loads them):
//!
//! | Warzone                      | BAR                                                     |
//! |------------------------------|---------------------------------------------------------|
//! | Tree1, Tree2, Tree3          | treetype1, treetype2, treetype3 (BAR: small, medium, large fir) |
//! | TreeSnow1, 2, 3              | treetype5, treetype6, treetype7                         |
//! | arizonatree1..6              | treetype9, 10, 11, 9, 10, 11                            |
//! | arizonabush1..4              | treetype0, 4, 8, 12 (BAR: the smallest fir)             |
//! | Boulder1, 2, 3               | rocks30_{biome}_08, _16, _24 (biome: desert on Arizona, def on Urban, snow on Rockies) |
//!
//! `treetypeN` are the engine's own tree names, which BAR redefines as firs (N mod 4 picks the
//! size), so they exist in every game. Buildings, ruins, wrecks, vehicles, oil drums and
//! other props have no BAR counterpart and are dropped with a count each.

use std::collections::BTreeMap;

use super::layout::Layout;
use crate::formats::wz2100::level::Tileset;
use crate::formats::wz2100::objects::{Owner, WzObject};
use crate::map::metal::{Dome, METAL_CELL_ELMOS, dome_profile, paint_domes_apart};
use crate::map::{Feature, Grid, Team};

/// The metal bytes one oil spot adds up to.
pub const SPOT_METAL_BYTES: f32 = 2000.0;
/// The map's `maxMetal`.
pub const MAX_METAL: f32 = 1.0;
pub use crate::map::bar::EXTRACTOR_RADIUS_ELMOS;
pub use crate::map::metal::T1_EXTRACTS_METAL;
/// Dome radius in 16-elmo metal cells.
pub const DOME_RADIUS_CELLS: f32 = 3.5;

const HQ: &str = "A0CommandCentre";
const DERRICK: &str = "A0ResourceExtractor";
const OIL: &str = "OilResource";

/// The BAR feature for a Warzone feature, or `None` when BAR has none.
fn bar_feature(name: &str, tileset: Tileset) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let num = |prefix: &str| -> Option<u32> { lower.strip_prefix(prefix)?.parse().ok() };
    if let Some(n) = num("treesnow") {
        return (1..=3).contains(&n).then(|| format!("treetype{}", n + 4));
    }
    if let Some(n) = num("tree") {
        return (1..=3).contains(&n).then(|| format!("treetype{n}"));
    }
    if let Some(n) = num("arizonatree") {
        return (1..=6)
            .contains(&n)
            .then(|| format!("treetype{}", 9 + (n - 1) % 3));
    }
    if let Some(n) = num("arizonabush") {
        return (1..=4)
            .contains(&n)
            .then(|| format!("treetype{}", (n - 1) * 4));
    }
    if let Some(n) = num("boulder") {
        let biome = match tileset {
            Tileset::Arizona => "desert",
            Tileset::Urban => "def",
            Tileset::Rockies => "snow",
        };
        return (1..=3).contains(&n).then(|| {
            format!(
                "{}_{biome}_{:02}",
                crate::map::bar::ROCK_FEATURE_PREFIX,
                n * 8
            )
        });
    }
    None
}

/// An oil spot in world units, and where it was read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OilSpot {
    pub x: f64,
    pub y: f64,
    pub from_derrick: bool,
}

/// Oil features plus derricks not standing on a listed oil feature (within half a tile).
pub fn oil_spots(features: &[WzObject], structures: &[WzObject]) -> Vec<OilSpot> {
    let mut spots: Vec<OilSpot> = features
        .iter()
        .filter(|f| f.name == OIL)
        .map(|f| OilSpot {
            x: f.x,
            y: f.y,
            from_derrick: false,
        })
        .collect();
    for d in structures.iter().filter(|s| s.name == DERRICK) {
        let on_oil = spots
            .iter()
            .any(|s| (s.x - d.x).abs() < 64.0 && (s.y - d.y).abs() < 64.0);
        if !on_oil {
            spots.push(OilSpot {
                x: d.x,
                y: d.y,
                from_derrick: true,
            });
        }
    }
    spots
}

/// Adds one metal dome per spot, a ring of zero cells kept between domes so BAR's spot finder
/// sees each as its own spot; returns how many bytes the metal map holds in all.
pub fn paint_metal(metal: &mut Grid<u8>, layout: &Layout, spots: &[OilSpot]) -> u64 {
    let radius = DOME_RADIUS_CELLS * METAL_CELL_ELMOS;
    let mut domes = Vec::new();
    for s in spots {
        let (ex, ez) = layout.world_to_elmos(s.x, s.y);
        // the peak that makes this dome's weights sum to the spot's bytes
        let reach = DOME_RADIUS_CELLS.ceil() as i64 + 1;
        let (ci, cj) = (
            (ex / METAL_CELL_ELMOS) as i64,
            (ez / METAL_CELL_ELMOS) as i64,
        );
        let mut weights = 0f32;
        for j in cj - reach..=cj + reach {
            for i in ci - reach..=ci + reach {
                let cx = (i as f32 + 0.5) * METAL_CELL_ELMOS - ex;
                let cz = (j as f32 + 0.5) * METAL_CELL_ELMOS - ez;
                weights += dome_profile((cx * cx + cz * cz).sqrt() / radius);
            }
        }
        if weights > 0.0 {
            domes.push(Dome {
                x_elmos: ex,
                z_elmos: ez,
                radius_elmos: radius,
                peak: SPOT_METAL_BYTES / weights,
            });
        }
    }
    paint_domes_apart(metal, &domes);
    metal.data().iter().map(|&b| b as u64).sum()
}

/// How each player's start was found.
#[derive(Clone, Debug, Default)]
pub struct Starts {
    pub teams: Vec<Team>,
    pub from_hq: usize,
    pub from_constructor: usize,
    /// Players with neither, placed at the map centre.
    pub missing: Vec<usize>,
}

/// Start positions for players 0..players: the player's HQ, else its first constructor droid.
pub fn start_positions(
    structures: &[WzObject],
    droids: &[WzObject],
    players: usize,
    layout: &Layout,
) -> Starts {
    let mut s = Starts::default();
    for p in 0..players {
        let owned = |o: &&WzObject| o.owner == Owner::Player(p as i32);
        let hq = structures.iter().filter(owned).find(|o| o.name == HQ);
        let con = droids
            .iter()
            .filter(owned)
            .find(|o| o.name.to_ascii_lowercase().contains("constr"));
        let (x, z) = match (hq, con) {
            (Some(h), _) => {
                s.from_hq += 1;
                layout.world_to_elmos(h.x, h.y)
            }
            (None, Some(c)) => {
                s.from_constructor += 1;
                layout.world_to_elmos(c.x, c.y)
            }
            (None, None) => {
                s.missing.push(p);
                (
                    layout.size.width_elmos() / 2.0,
                    layout.size.depth_elmos() / 2.0,
                )
            }
        };
        s.teams.push(Team {
            start_x_elmos: x,
            start_z_elmos: z,
        });
    }
    s
}

/// The players an object list mentions: highest player index + 1.
pub fn players_seen(structures: &[WzObject], droids: &[WzObject]) -> usize {
    structures
        .iter()
        .chain(droids)
        .filter_map(|o| match o.owner {
            Owner::Player(p) if (0..64).contains(&p) => Some(p as usize + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// Trees and boulders to BAR features; returns them and a count per dropped name.
pub fn convert_features(
    features: &[WzObject],
    tileset: Tileset,
    layout: &Layout,
) -> (
    Vec<Feature>,
    BTreeMap<String, usize>,
    BTreeMap<String, usize>,
) {
    let mut out = Vec::new();
    let mut kept: BTreeMap<String, usize> = BTreeMap::new();
    let mut dropped: BTreeMap<String, usize> = BTreeMap::new();
    for f in features.iter().filter(|f| f.name != OIL) {
        match bar_feature(&f.name, tileset) {
            Some(name) => {
                let (x, z) = layout.world_to_elmos(f.x, f.y);
                *kept.entry(format!("{} -> {name}", f.name)).or_default() += 1;
                out.push(Feature {
                    name,
                    x_elmos: x,
                    z_elmos: z,
                    rotation_deg: f.direction as f32 * 360.0 / 65536.0,
                });
            }
            None => *dropped.entry(f.name.clone()).or_default() += 1,
        }
    }
    (out, kept, dropped)
}

/// Counts by name, as "name x N" joined.
pub fn count_list(counts: &BTreeMap<String, usize>) -> String {
    counts
        .iter()
        .map(|(n, c)| format!("{n} x{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::MapSize;

    fn obj(name: &str, x: f64, y: f64, owner: Owner) -> WzObject {
        WzObject {
            name: name.into(),
            x,
            y,
            direction: 0,
            owner,
        }
    }

    #[test]
    fn feature_table() {
        assert_eq!(
            bar_feature("Tree3", Tileset::Arizona).as_deref(),
            Some("treetype3")
        );
        assert_eq!(
            bar_feature("TreeSnow1", Tileset::Rockies).as_deref(),
            Some("treetype5")
        );
        assert_eq!(
            bar_feature("arizonabush4", Tileset::Arizona).as_deref(),
            Some("treetype12")
        );
        assert_eq!(
            bar_feature("Boulder2", Tileset::Rockies).as_deref(),
            Some("rocks30_snow_16")
        );
        assert_eq!(bar_feature("building1", Tileset::Urban), None);
        assert_eq!(bar_feature("Tree9", Tileset::Urban), None);
    }

    #[test]
    fn neighbouring_oil_stays_two_spots_in_bars_finder() {
        // two oil resources 1.5 tiles apart (128 world units a tile, 64 elmos): their domes
        // (radius 56 elmos) would touch
        let layout = Layout::new(32, 32, 64).unwrap();
        let (w, h) = layout.size.metal_cells();
        let mut metal = Grid::filled(w, h, 0u8);
        let oil = |x: f64| OilSpot {
            x,
            y: 1024.0,
            from_derrick: false,
        };
        paint_metal(&mut metal, &layout, &[oil(1024.0), oil(1024.0 + 192.0)]);
        let spots = crate::map::metal::bar_spots(&metal, 1.0, 90.0);
        assert_eq!(spots.len(), 2, "{spots:?}");
        assert!(spots.iter().all(|p| p.domes == 1));
    }

    #[test]
    fn derricks_on_oil_count_once() {
        let f = vec![obj(OIL, 192.0, 192.0, Owner::None)];
        let s = vec![
            obj(DERRICK, 192.0, 192.0, Owner::Player(0)),
            obj(DERRICK, 1000.0, 192.0, Owner::Player(0)),
        ];
        let spots = oil_spots(&f, &s);
        assert_eq!(spots.len(), 2);
        assert!(spots[1].from_derrick);
    }

    #[test]
    fn dome_sums_to_the_standard_spot() {
        let layout = Layout::new(16, 16, 64).unwrap();
        let mut metal = Grid::filled(64, 64, 0u8);
        let sum = paint_metal(
            &mut metal,
            &layout,
            &[OilSpot {
                x: 8.5 * 128.0,
                y: 8.5 * 128.0,
                from_derrick: false,
            }],
        );
        assert!((sum as f32 - SPOT_METAL_BYTES).abs() < 30.0, "{sum}");
        let income = sum as f32 * MAX_METAL * T1_EXTRACTS_METAL;
        assert!((income - 2.0).abs() < 0.03);
        assert_eq!(layout.size, MapSize::new(2, 2).unwrap());
    }

    #[test]
    fn starts_prefer_hq_then_constructor() {
        let layout = Layout::new(16, 16, 64).unwrap();
        let s = vec![obj(HQ, 256.0, 256.0, Owner::Player(0))];
        let d = vec![
            obj("ConstructorDroid", 512.0, 512.0, Owner::Player(1)),
            obj("ConstructorDroid", 300.0, 300.0, Owner::Player(0)),
        ];
        let st = start_positions(&s, &d, 3, &layout);
        assert_eq!((st.from_hq, st.from_constructor), (1, 1));
        assert_eq!(st.missing, vec![2]);
        assert_eq!(st.teams[0].start_x_elmos, 128.0);
        assert_eq!(st.teams[1].start_z_elmos, 256.0);
        assert_eq!(players_seen(&s, &d), 2);
    }
}
