//! A new map from nothing (File > New, `groundwork new`): a size in map units, a height range
//! and a start height, a sea level or no water, the player count and a symmetry mode, a name
//! and an author; the ground flat at the start height or from a 16-bit heightmap scaled to the
//! size. The start positions are placed in the symmetry's first copy and copied by it, so every
//! team's start is the image of every other's. The settings are BAR's mapinfo defaults, as
//! compile writes them.

use crate::map::recipe::Recipe;
use crate::map::{Grid, Map, MapSettings, MapSize, SymmetryMode, Team};

use super::generate::{Outcome, generate};
pub use super::starts::{MAX_PLAYERS, start_positions};

/// The sizes BAR's maps usually come in (map units a side), offered first.
pub const BAR_SIZES: [(u32, u32); 9] = [
    (8, 8),
    (10, 10),
    (12, 12),
    (14, 14),
    (16, 16),
    (20, 20),
    (24, 24),
    (16, 8),
    (24, 12),
];

/// The largest side File > New makes (map units).
pub const MAX_NEW_UNITS: u32 = 32;

/// What a new map is made of.
#[derive(Clone, Debug, PartialEq)]
pub struct NewMap {
    pub width_units: u32,
    pub depth_units: u32,
    /// The height range, in elmos above the sea (or above 0 without water).
    pub min_height_elmos: f32,
    pub max_height_elmos: f32,
    /// The ground of a flat map, in the same elmos.
    pub start_height_elmos: f32,
    /// The sea's surface in the same elmos; `None`: no water (the ground stays above 0).
    pub sea_level_elmos: Option<f32>,
    pub players: u32,
    pub symmetry: SymmetryMode,
    pub name: String,
    pub author: String,
    /// A heightmap (values 0..1, any size): the ground from it, scaled to the map and to the
    /// height range, instead of flat.
    pub heightmap: Option<Grid<f32>>,
    /// A generator recipe: the ground, the metal and the vents from it instead (the height
    /// range then follows the ground it makes).
    pub recipe: Option<Recipe>,
}

impl Default for NewMap {
    fn default() -> NewMap {
        NewMap {
            width_units: 12,
            depth_units: 12,
            min_height_elmos: 0.0,
            max_height_elmos: 500.0,
            start_height_elmos: 100.0,
            sea_level_elmos: None,
            players: 2,
            symmetry: SymmetryMode::Rotate(2),
            name: "New map".into(),
            author: String::new(),
            heightmap: None,
            recipe: None,
        }
    }
}

/// Whether `spec` can be made, without making it: its size, the sea's height (the engine's 0)
/// and the start positions; or one line saying what is wrong.
pub fn check(spec: &NewMap) -> Result<(MapSize, f32, Vec<[f32; 2]>), String> {
    let (w, d) = (spec.width_units, spec.depth_units);
    let side_ok = |u: u32| (2..=MAX_NEW_UNITS).contains(&u) && u.is_multiple_of(2);
    if !side_ok(w) || !side_ok(d) {
        return Err(format!(
            "a new map is 2 to {MAX_NEW_UNITS} map units a side, an even number, not {w}x{d}"
        ));
    }
    let size = MapSize::new(w, d).map_err(|e| e.to_string())?;
    spec.symmetry.check_map(w, d)?;
    let (lo, hi) = (spec.min_height_elmos, spec.max_height_elmos);
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return Err(format!(
            "the height range {lo} .. {hi} elmos must run from low to high"
        ));
    }
    if spec.heightmap.is_none() && !(lo..=hi).contains(&spec.start_height_elmos) {
        return Err(format!(
            "the start height {} elmos is outside the height range {lo} .. {hi}",
            spec.start_height_elmos
        ));
    }
    // engine heights put the water's surface at 0
    let sea = match spec.sea_level_elmos {
        Some(s) if !(s.is_finite() && s > lo && s < hi) => {
            return Err(format!(
                "the sea level {s} elmos must lie inside the height range {lo} .. {hi}"
            ));
        }
        Some(s) => s,
        None if lo < 0.0 => {
            return Err(format!(
                "without water the ground must stay at 0 elmos or above (the engine floods \
                 below 0), and the range starts at {lo}"
            ));
        }
        None => 0.0,
    };
    let starts = start_positions(size, spec.symmetry, spec.players)?;
    if spec.name.trim().is_empty() {
        return Err("a new map needs a name".into());
    }
    Ok((size, sea, starts))
}

/// The map `spec` asks for, or one line saying what is wrong with it.
pub fn new_map(spec: &NewMap) -> Result<Map, String> {
    new_map_generated(spec).map(|(m, _)| m)
}

/// [`new_map`], and what the generator had to say when the spec has a recipe (its height steps
/// run on the CPU, so the same spec gives the same bytes on every machine).
pub fn new_map_generated(spec: &NewMap) -> Result<(Map, Outcome), String> {
    // the generator paints the ground picture from the heights it makes
    let mut map = plain_map(spec, spec.recipe.is_none())?;
    let outcome = match &spec.recipe {
        Some(r) => generate(&mut map, r, None)?,
        None => Outcome::default(),
    };
    Ok((map, outcome))
}

/// The new map before the generator: its settings, heights (flat or the heightmap) and
/// starts, and with `paint` the ground picture coloured from the heights.
fn plain_map(spec: &NewMap, paint: bool) -> Result<Map, String> {
    let (size, sea, starts) = check(spec)?;
    let settings = MapSettings {
        name: spec.name.trim().to_string(),
        author: spec.author.trim().to_string(),
        description: format!("A {size} map for {} players", spec.players),
        min_height_elmos: spec.min_height_elmos - sea,
        max_height_elmos: spec.max_height_elmos - sea,
        ..MapSettings::default()
    };
    let mut map = Map::new(size, settings);
    map.symmetry = spec.symmetry;
    let (hw, hd) = map.heights.dims();
    match &spec.heightmap {
        None => {
            let flat = spec.start_height_elmos - sea;
            map.heights = Grid::filled(hw, hd, flat);
        }
        Some(image) => {
            let (iw, ih) = image.dims();
            if iw == 0 || ih == 0 {
                return Err("the heightmap is empty".into());
            }
            map.heights = crate::map::heights_from_unit_image(
                image,
                (hw, hd),
                map.settings.min_height_elmos,
                map.settings.max_height_elmos,
            );
        }
    }
    if paint {
        map.texture =
            crate::map::GroundTexture::default_for_heights(size, &map.heights, &map.settings);
    }
    map.teams = starts
        .into_iter()
        .map(|[x, z]| Team {
            start_x_elmos: x,
            start_z_elmos: z,
        })
        .collect();
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::symmetry::images;

    fn spec(w: u32, d: u32, players: u32, mode: SymmetryMode) -> NewMap {
        NewMap {
            width_units: w,
            depth_units: d,
            players,
            symmetry: mode,
            ..NewMap::default()
        }
    }

    #[test]
    fn every_start_is_an_image_of_the_first_under_the_symmetry() {
        for mode in SymmetryMode::ALL {
            let players = mode.copies() as u32 * if mode.copies() <= 4 { 2 } else { 1 };
            let size = MapSize::new(12, 12).unwrap();
            let s = start_positions(size, mode, players).unwrap();
            assert_eq!(s.len(), players as usize, "{mode}");
            let isos = images(mode, size.width_elmos(), size.depth_elmos());
            // the set of starts maps onto itself under every copy
            for m in &isos {
                for p in &s {
                    let q = m.apply(*p);
                    assert!(
                        s.iter()
                            .any(|r| (r[0] - q[0]).abs() < 1e-2 && (r[1] - q[1]).abs() < 1e-2),
                        "{mode}: the image {q:?} of {p:?} is not a start ({s:?})"
                    );
                }
            }
            // distinct and apart
            for (i, p) in s.iter().enumerate() {
                for q in &s[i + 1..] {
                    assert!((p[0] - q[0]).hypot(p[1] - q[1]) > 512.0, "{mode}: {s:?}");
                }
                assert!(p[0] > 0.0 && p[1] > 0.0 && p[0] < 6144.0 && p[1] < 6144.0);
            }
        }
    }

    #[test]
    fn two_players_mirrored_face_each_other_across_the_middle() {
        let s = start_positions(MapSize::new(12, 12).unwrap(), SymmetryMode::MirrorX, 2).unwrap();
        assert_eq!(s.len(), 2);
        assert!((s[0][1] - 3072.0).abs() < 300.0, "{s:?}");
        assert!((s[0][0] + s[1][0] - 6144.0).abs() < 1e-3);
        assert!((s[0][0] - s[1][0]).abs() > 4000.0);
    }

    #[test]
    fn impossible_requests_are_one_line() {
        let bad = [
            (spec(13, 12, 2, SymmetryMode::None), "even number"),
            (spec(34, 34, 2, SymmetryMode::None), "2 to 32"),
            (spec(12, 12, 3, SymmetryMode::MirrorX), "multiple of 2"),
            (spec(16, 8, 4, SymmetryMode::Rotate(4)), "square"),
            (spec(12, 12, 0, SymmetryMode::None), "1 to 16 players"),
            (spec(2, 2, 16, SymmetryMode::Rotate(8)), "do not fit"),
        ];
        for (s, want) in bad {
            let e = new_map(&s)
                .err()
                .unwrap_or_else(|| panic!("{s:?} was accepted"));
            assert!(e.contains(want) && !e.contains('\n'), "{e}");
        }
        let mut s = spec(12, 12, 2, SymmetryMode::None);
        s.min_height_elmos = -50.0;
        assert!(new_map(&s).unwrap_err().contains("without water"));
        s.sea_level_elmos = Some(600.0);
        assert!(new_map(&s).unwrap_err().contains("sea level"));
        s.sea_level_elmos = Some(20.0);
        s.start_height_elmos = 900.0;
        assert!(new_map(&s).unwrap_err().contains("start height"));
    }

    #[test]
    fn the_sea_level_becomes_the_engines_zero() {
        let s = NewMap {
            min_height_elmos: 0.0,
            max_height_elmos: 400.0,
            start_height_elmos: 150.0,
            sea_level_elmos: Some(100.0),
            ..spec(8, 8, 2, SymmetryMode::MirrorZ)
        };
        let m = new_map(&s).unwrap();
        assert_eq!(m.settings.min_height_elmos, -100.0);
        assert_eq!(m.settings.max_height_elmos, 300.0);
        assert!(m.heights.data().iter().all(|&h| h == 50.0));
        assert_eq!(m.symmetry, SymmetryMode::MirrorZ);
        assert_eq!(m.teams.len(), 2);
        assert_eq!(m.size, MapSize::new(8, 8).unwrap());
    }

    #[test]
    fn a_heightmap_is_scaled_to_the_map_and_the_range() {
        // a 3x2 ramp in x: 0, 0.5, 1
        let image = Grid::from_vec(3, 2, vec![0.0, 0.5, 1.0, 0.0, 0.5, 1.0]).unwrap();
        let s = NewMap {
            heightmap: Some(image),
            min_height_elmos: 10.0,
            max_height_elmos: 410.0,
            ..spec(2, 2, 2, SymmetryMode::MirrorX)
        };
        let m = new_map(&s).unwrap();
        let (w, _) = m.heights.dims();
        assert!((m.heights.get(0, 0) - 10.0).abs() < 0.01);
        assert!((m.heights.get(w - 1, 5) - 410.0).abs() < 0.01);
        assert!((m.heights.get(w / 2, 3) - 210.0).abs() < 0.05);
    }
}
