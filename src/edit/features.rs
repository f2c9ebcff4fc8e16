//! Features (trees, rocks, vents) as the editor places them, following the map's symmetry:
//! place one, scatter many with a brush (density, spacing, weighted names, filters on slope,
//! height, water and a texture layer), erase with a brush, and move, turn or delete a
//! selection. Every copy a symmetry makes carries the heading turned or mirrored with the
//! position. Pure functions on a [`Map`]; `Session::edit` makes each call one undo step.

use std::collections::BTreeSet;

use super::symmetry::{Isometry, images, near};
use crate::map::ground_layers::{TerrainFields, layer_weight};
use crate::map::{Feature, FeaturePlacement, Map};

/// Two features of one name closer than this are the same place (elmos).
const SAME_PLACE_ELMOS: f32 = 2.0;
/// The most features one scatter dab adds, so a huge radius and density cannot run away.
pub const MAX_SCATTER_PER_DAB: usize = 20_000;
/// The most features a map may hold (the `.smf` block has room for more, the engine not).
pub const MAX_FEATURES: usize = 100_000;

/// The heading of a feature after `g`: the engine turns a model about +y so that its +z axis
/// points along (sin a, cos a) in (x, z); that direction is carried by `g`'s linear part.
pub fn heading_image(g: &Isometry, rotation_deg: f32) -> f32 {
    let a = rotation_deg.to_radians();
    let d = g.turn([a.sin(), a.cos()]);
    let out = d[0].atan2(d[1]).to_degrees().rem_euclid(360.0);
    // keep whole degrees whole (a mirror of 90 is 270, not 269.99998)
    if (out - out.round()).abs() < 1e-3 {
        out.round() % 360.0
    } else {
        out
    }
}

/// The symmetry's transforms, the identity first.
fn transforms(map: &Map) -> Vec<Isometry> {
    images(map.symmetry, map.size.width_elmos(), map.size.depth_elmos())
}

fn on_map(map: &Map, p: [f32; 2]) -> bool {
    p[0] >= 0.0 && p[1] >= 0.0 && p[0] <= map.size.width_elmos() && p[1] <= map.size.depth_elmos()
}

/// The copies of one feature at `at` under the map's symmetry (the feature first), one per
/// distinct place: a point on a mirror's axis is its own image and is not repeated.
pub fn copies(map: &Map, name: &str, at: [f32; 2], rotation_deg: f32) -> Vec<Feature> {
    let mut out: Vec<Feature> = Vec::new();
    for g in transforms(map) {
        let p = g.apply(at);
        if out
            .iter()
            .any(|f| near([f.x_elmos, f.z_elmos], p, SAME_PLACE_ELMOS))
        {
            continue;
        }
        out.push(Feature {
            name: name.to_string(),
            x_elmos: p[0],
            z_elmos: p[1],
            rotation_deg: heading_image(&g, rotation_deg),
        });
    }
    out
}

/// Places `name` at `at` (elmos) turned by `rotation_deg`, with its symmetric copies. Returns
/// how many features were added.
pub fn place(map: &mut Map, name: &str, at: [f32; 2], rotation_deg: f32) -> Result<usize, String> {
    check_name(map, name)?;
    super::stroke::check_on_map(map, at)?;
    let new = copies(map, name, at, rotation_deg);
    if map.features.len() + new.len() > MAX_FEATURES {
        return Err(format!("the map holds {MAX_FEATURES} features at most"));
    }
    let n = new.len();
    map.features.extend(new);
    Ok(n)
}

/// The longest name the `.smf` feature block keeps (the engine cuts the rest).
pub const SMF_NAME_BYTES: usize = 31;

/// A feature name `map` can carry: not empty, no control characters, and at most 31 bytes
/// when the `.smf` block carries the features (BAR's feature placer takes longer names).
pub fn check_name(map: &Map, name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("a feature needs a name".into());
    }
    if name.chars().any(char::is_control) || name.len() > 255 {
        return Err(format!("feature name {name:?} is not a name"));
    }
    if name.len() > SMF_NAME_BYTES && map.settings.feature_placement == FeaturePlacement::Smf {
        return Err(format!(
            "feature name \"{name}\" is {} bytes; the .smf block keeps {SMF_NAME_BYTES} (set feature_placement = \"featureplacer\" in map.toml's [map] for BAR's feature placer)",
            name.len()
        ));
    }
    Ok(())
}

/// Removes every feature within `radius_elmos` of `at` or of one of its symmetric images.
/// Returns how many were removed.
pub fn erase(map: &mut Map, at: [f32; 2], radius_elmos: f32) -> usize {
    let centres: Vec<[f32; 2]> = transforms(map).iter().map(|g| g.apply(at)).collect();
    let r2 = radius_elmos * radius_elmos;
    let before = map.features.len();
    map.features.retain(|f| {
        !centres.iter().any(|c| {
            let (dx, dz) = (f.x_elmos - c[0], f.z_elmos - c[1]);
            dx * dx + dz * dz <= r2
        })
    });
    before - map.features.len()
}

/// Where a scatter may put features: each filter that is set must hold at the point and at
/// every symmetric image of it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScatterFilters {
    /// The ground's slope must lie in this band (degrees).
    pub slope_deg: Option<[f32; 2]>,
    /// The ground's height must lie in this band (elmos).
    pub height_elmos: Option<[f32; 2]>,
    /// No feature where the ground is under the sea (below 0).
    pub avoid_water: bool,
    /// Only where this texture layer shows at least half (its weight and opacity, under the
    /// layers above it).
    pub layer: Option<String>,
}

/// A scatter brush's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    /// Names with their weights (> 0).
    pub names: Vec<(String, f32)>,
    /// Features per 1000 x 1000 elmos the brush fills its disc to.
    pub density_per_mega_elmo2: f32,
    /// No two features closer than this (elmos).
    pub spacing_elmos: f32,
    pub seed: u64,
    /// `None`: a random heading per feature; `Some(deg)`: this heading.
    pub rotation_deg: Option<f32>,
    pub filters: ScatterFilters,
}

impl Scatter {
    /// Refuses settings that cannot scatter.
    pub fn check(&self, map: &Map) -> Result<(), String> {
        if self.names.is_empty() {
            return Err("scatter needs at least one feature name".into());
        }
        for (n, w) in &self.names {
            check_name(map, n)?;
            if !(w.is_finite() && *w > 0.0) {
                return Err(format!("the weight of \"{n}\" must be above 0"));
            }
        }
        if !(self.density_per_mega_elmo2.is_finite() && self.density_per_mega_elmo2 >= 0.0) {
            return Err("density is features per 1000 x 1000 elmos, 0 or more".into());
        }
        if !(self.spacing_elmos.is_finite() && self.spacing_elmos >= 0.0) {
            return Err("spacing_elmos is 0 or more".into());
        }
        for (what, band) in [
            ("slope_deg", self.filters.slope_deg),
            ("height_elmos", self.filters.height_elmos),
        ] {
            if let Some([lo, hi]) = band
                && !(lo.is_finite() && hi.is_finite() && lo <= hi)
            {
                return Err(format!("{what} is [min, max] with min <= max"));
            }
        }
        if let Some(l) = &self.filters.layer
            && !map.texture_layers.iter().any(|t| &t.name == l)
        {
            let names: Vec<&str> = map.texture_layers.iter().map(|t| t.name.as_str()).collect();
            return Err(if names.is_empty() {
                format!("there is no texture layer \"{l}\": the map has none")
            } else {
                format!(
                    "there is no texture layer \"{l}\" (the map has {})",
                    names.join(", ")
                )
            });
        }
        Ok(())
    }
}

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same scatter on
/// every machine.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// What the filters read of the ground, made once per dab.
struct Ground<'a> {
    map: &'a Map,
    fields: Option<TerrainFields>,
    layer: Option<usize>,
}

impl Ground<'_> {
    fn slope_deg(&self, p: [f32; 2]) -> f32 {
        let s = crate::map::ELMOS_PER_SQUARE as f32;
        match &self.fields {
            Some(f) => f.slope_deg.sample_bilinear(p[0] / s, p[1] / s),
            None => 0.0,
        }
    }

    /// How much of layer `k` shows at `p`: its weight times opacity, under the layers above.
    fn layer_share(&self, p: [f32; 2]) -> f32 {
        let (Some(k), Some(fields)) = (self.layer, &self.fields) else {
            return 1.0;
        };
        let layers = &self.map.texture_layers;
        let w = |i: usize| {
            layer_weight(self.map, fields, &layers[i], p[0], p[1])
                * layers[i].opacity.clamp(0.0, 1.0)
        };
        let mut share = w(k);
        for i in k + 1..layers.len() {
            share *= 1.0 - w(i);
        }
        share
    }

    fn allows(&self, f: &ScatterFilters, p: [f32; 2]) -> bool {
        if !on_map(self.map, p) {
            return false;
        }
        let h = self.map.height_at(p[0], p[1]);
        if f.avoid_water && h < 0.0 {
            return false;
        }
        if let Some([lo, hi]) = f.height_elmos
            && !(lo..=hi).contains(&h)
        {
            return false;
        }
        if let Some([lo, hi]) = f.slope_deg
            && !(lo..=hi).contains(&self.slope_deg(p))
        {
            return false;
        }
        f.layer.is_none() || self.layer_share(p) >= 0.5
    }
}

/// Fills the disc of `radius_elmos` around `at` (and its symmetric images) with features up
/// to the scatter's density, never closer than its spacing to any feature, where the filters
/// allow. The same seed, place and map give the same features. Returns how many were added.
pub fn scatter(
    map: &mut Map,
    at: [f32; 2],
    radius_elmos: f32,
    s: &Scatter,
) -> Result<usize, String> {
    s.check(map)?;
    if !(radius_elmos.is_finite() && radius_elmos > 0.0) {
        return Err("radius_elmos must be above 0".into());
    }
    let area_mega = std::f32::consts::PI * radius_elmos * radius_elmos / 1.0e6;
    let target = (s.density_per_mega_elmo2 * area_mega).round() as usize;
    let r2 = radius_elmos * radius_elmos;
    let already = map
        .features
        .iter()
        .filter(|f| {
            let (dx, dz) = (f.x_elmos - at[0], f.z_elmos - at[1]);
            dx * dx + dz * dz <= r2
        })
        .count();
    let wanted = target.saturating_sub(already).min(MAX_SCATTER_PER_DAB);
    if wanted == 0 {
        return Ok(0);
    }
    let needs_fields = s.filters.slope_deg.is_some() || s.filters.layer.is_some();
    let ground = Ground {
        map,
        fields: needs_fields.then(|| TerrainFields::new(map, s.filters.layer.is_some())),
        layer: s
            .filters
            .layer
            .as_ref()
            .and_then(|l| map.texture_layers.iter().position(|t| &t.name == l)),
    };
    let transforms = transforms(map);
    // a spatial hash of every feature's place, for the spacing test
    let cell = s.spacing_elmos.max(1.0);
    let key = |p: [f32; 2]| ((p[0] / cell).floor() as i64, (p[1] / cell).floor() as i64);
    let mut grid: std::collections::HashMap<(i64, i64), Vec<[f32; 2]>> = Default::default();
    for f in &map.features {
        let p = [f.x_elmos, f.z_elmos];
        grid.entry(key(p)).or_default().push(p);
    }
    let spaced = |grid: &std::collections::HashMap<(i64, i64), Vec<[f32; 2]>>, p: [f32; 2]| {
        if s.spacing_elmos <= 0.0 {
            return true;
        }
        let (cx, cz) = key(p);
        let min2 = s.spacing_elmos * s.spacing_elmos;
        (-1..=1).all(|i| {
            (-1..=1).all(|j| {
                grid.get(&(cx + i, cz + j)).is_none_or(|v| {
                    v.iter().all(|q| {
                        let (dx, dz) = (q[0] - p[0], q[1] - p[1]);
                        dx * dx + dz * dz >= min2
                    })
                })
            })
        })
    };
    let total_weight: f32 = s.names.iter().map(|(_, w)| w).sum();
    let mut rng = Rng(s.seed ^ (at[0].to_bits() as u64) << 32 ^ at[1].to_bits() as u64);
    let mut added: Vec<Feature> = Vec::new();
    let mut placed = 0;
    let tries = wanted * 30;
    for _ in 0..tries {
        if placed >= wanted || map.features.len() + added.len() >= MAX_FEATURES {
            break;
        }
        // uniform in the disc
        let (u, v) = (rng.unit(), rng.unit());
        let (r, a) = (radius_elmos * u.sqrt(), v * std::f32::consts::TAU);
        let p = [at[0] + r * a.cos(), at[1] + r * a.sin()];
        let pick = rng.unit() * total_weight;
        let heading = match s.rotation_deg {
            Some(d) => d,
            None => (rng.unit() * 360.0).floor(),
        };
        let mut acc = 0.0;
        let name = s
            .names
            .iter()
            .find(|(_, w)| {
                acc += w;
                pick < acc
            })
            .unwrap_or(&s.names[s.names.len() - 1])
            .0
            .clone();
        let images: Vec<[f32; 2]> = transforms.iter().map(|g| g.apply(p)).collect();
        if !images.iter().all(|&q| ground.allows(&s.filters, q)) {
            continue;
        }
        // the copies must keep the spacing from everything, and from each other unless they
        // are one place (a point on a mirror's axis)
        let mut distinct: Vec<[f32; 2]> = Vec::new();
        for &q in &images {
            if !distinct.iter().any(|&d| near(d, q, SAME_PLACE_ELMOS)) {
                distinct.push(q);
            }
        }
        let apart = distinct.iter().enumerate().all(|(i, &q)| {
            distinct[..i].iter().all(|&d| {
                let (dx, dz) = (d[0] - q[0], d[1] - q[1]);
                dx * dx + dz * dz >= s.spacing_elmos * s.spacing_elmos
            })
        });
        if !apart || !distinct.iter().all(|&q| spaced(&grid, q)) {
            continue;
        }
        let group = copies(map, &name, p, heading);
        for f in &group {
            let q = [f.x_elmos, f.z_elmos];
            grid.entry(key(q)).or_default().push(q);
        }
        added.extend(group);
        placed += 1;
    }
    let n = added.len();
    map.features.extend(added);
    Ok(n)
}

/// The features that are images of feature `i` under the map's symmetry (same name, at an
/// image of its place), each with the transform that takes `i` there.
pub fn partners(map: &Map, i: usize) -> Vec<(usize, Isometry)> {
    let f = &map.features[i];
    let p = [f.x_elmos, f.z_elmos];
    let mut out: Vec<(usize, Isometry)> = Vec::new();
    for g in transforms(map).into_iter().skip(1) {
        let q = g.apply(p);
        if near(q, p, SAME_PLACE_ELMOS) {
            continue;
        }
        if let Some(j) = map.features.iter().enumerate().position(|(j, o)| {
            j != i && o.name == f.name && near([o.x_elmos, o.z_elmos], q, SAME_PLACE_ELMOS)
        }) && !out.iter().any(|(k, _)| *k == j)
        {
            out.push((j, g));
        }
    }
    out
}

/// The selection and the symmetric partners of every selected feature.
pub fn with_partners(map: &Map, selection: &BTreeSet<usize>) -> BTreeSet<usize> {
    let mut all = selection.clone();
    for &i in selection {
        if i < map.features.len() {
            all.extend(partners(map, i).into_iter().map(|(j, _)| j));
        }
    }
    all.retain(|&i| i < map.features.len());
    all
}

/// Moves the selected features by `delta` (elmos, kept on the map) and turns them by
/// `turn_deg`; each one's partners follow as its images. Returns the features changed.
pub fn transform_selected(
    map: &mut Map,
    selection: &BTreeSet<usize>,
    delta: [f32; 2],
    turn_deg: f32,
) -> BTreeSet<usize> {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let mut done: BTreeSet<usize> = BTreeSet::new();
    for &i in selection {
        if i >= map.features.len() || done.contains(&i) {
            continue;
        }
        let links = partners(map, i);
        let f = &map.features[i];
        let to = [
            (f.x_elmos + delta[0]).clamp(0.0, w),
            (f.z_elmos + delta[1]).clamp(0.0, d),
        ];
        let heading = (f.rotation_deg + turn_deg).rem_euclid(360.0);
        let f = &mut map.features[i];
        f.x_elmos = to[0];
        f.z_elmos = to[1];
        f.rotation_deg = heading;
        done.insert(i);
        for (j, g) in links {
            if done.contains(&j) {
                continue;
            }
            let q = g.apply(to);
            let o = &mut map.features[j];
            o.x_elmos = q[0].clamp(0.0, w);
            o.z_elmos = q[1].clamp(0.0, d);
            o.rotation_deg = heading_image(&g, heading);
            done.insert(j);
        }
    }
    done
}

/// Deletes the selected features and their partners. Returns how many were removed.
pub fn delete_selected(map: &mut Map, selection: &BTreeSet<usize>) -> usize {
    let gone = with_partners(map, selection);
    let mut k = 0;
    map.features.retain(|_| {
        let keep = !gone.contains(&k);
        k += 1;
        keep
    });
    gone.len()
}

/// The feature nearest `at` within `radius_elmos`, if any.
pub fn nearest(map: &Map, at: [f32; 2], radius_elmos: f32) -> Option<usize> {
    map.features
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (dx, dz) = (f.x_elmos - at[0], f.z_elmos - at[1]);
            (i, dx * dx + dz * dz)
        })
        .filter(|&(_, d2)| d2 <= radius_elmos * radius_elmos)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// The features inside the rectangle spanned by two corners (elmos).
pub fn in_rect(map: &Map, a: [f32; 2], b: [f32; 2]) -> BTreeSet<usize> {
    let (x0, x1) = (a[0].min(b[0]), a[0].max(b[0]));
    let (z0, z1) = (a[1].min(b[1]), a[1].max(b[1]));
    map.features
        .iter()
        .enumerate()
        .filter(|(_, f)| (x0..=x1).contains(&f.x_elmos) && (z0..=z1).contains(&f.z_elmos))
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize, SymmetryMode};

    fn map(mode: SymmetryMode) -> Map {
        let mut m = Map::new(MapSize::new(8, 8).unwrap(), MapSettings::default());
        m.symmetry = mode;
        m
    }

    fn scatter_of(names: &[&str], density: f32, spacing: f32) -> Scatter {
        Scatter {
            names: names.iter().map(|n| (n.to_string(), 1.0)).collect(),
            density_per_mega_elmo2: density,
            spacing_elmos: spacing,
            seed: 7,
            rotation_deg: None,
            filters: ScatterFilters::default(),
        }
    }

    /// Every feature has an image under each transform: same name, place and heading.
    fn assert_symmetric(m: &Map) {
        for g in transforms(m) {
            for f in &m.features {
                let q = g.apply([f.x_elmos, f.z_elmos]);
                let h = heading_image(&g, f.rotation_deg);
                assert!(
                    m.features.iter().any(|o| o.name == f.name
                        && near([o.x_elmos, o.z_elmos], q, 0.01)
                        && ((o.rotation_deg - h + 180.0).rem_euclid(360.0) - 180.0).abs() < 0.01),
                    "{f:?} has no image at {q:?} heading {h} under {g:?}"
                );
            }
        }
    }

    #[test]
    fn headings_turn_and_mirror_with_the_place() {
        let m = map(SymmetryMode::MirrorX);
        let mx = transforms(&m)[1];
        // facing +x (90) mirrored in x faces -x (270); facing +z (0) stays
        assert_eq!(heading_image(&mx, 90.0), 270.0);
        assert_eq!(heading_image(&mx, 0.0), 0.0);
        assert_eq!(heading_image(&mx, 30.0), 330.0);
        let m = map(SymmetryMode::Rotate(2));
        let r = transforms(&m)[1];
        assert_eq!(heading_image(&r, 0.0), 180.0);
        assert_eq!(heading_image(&r, 90.0), 270.0);
        let m = map(SymmetryMode::Rotate(4));
        for g in transforms(&m) {
            // a quarter turn adds or takes 90 degrees, whatever the heading
            let h = heading_image(&g, 10.0);
            assert!(((h - 10.0).rem_euclid(90.0)).abs() < 1e-3, "{h}");
        }
    }

    #[test]
    fn place_makes_one_feature_per_copy_and_none_twice_on_an_axis() {
        let mut m = map(SymmetryMode::Rotate(4));
        assert_eq!(place(&mut m, "geovent", [500.0, 800.0], 45.0).unwrap(), 4);
        assert_symmetric(&m);
        // the centre is its own image under every turn
        assert_eq!(place(&mut m, "geovent", [2048.0, 2048.0], 0.0).unwrap(), 1);
        let mut m = map(SymmetryMode::MirrorX);
        assert_eq!(
            place(&mut m, "rocks30_def_01", [2048.0, 100.0], 0.0).unwrap(),
            1
        );
        assert!(place(&mut m, "x", [-5.0, 10.0], 0.0).is_err());
        assert!(place(&mut m, &"n".repeat(32), [5.0, 10.0], 0.0).is_err());
        m.settings.feature_placement = FeaturePlacement::FeaturePlacer;
        assert!(place(&mut m, &"n".repeat(32), [5.0, 10.0], 0.0).is_ok());
    }

    #[test]
    fn scatter_fills_to_the_density_keeps_the_spacing_and_repeats_with_its_seed() {
        for mode in [
            SymmetryMode::None,
            SymmetryMode::MirrorZ,
            SymmetryMode::Rotate(4),
        ] {
            let mut m = map(mode);
            let s = scatter_of(&["a", "b"], 40.0, 60.0);
            let n = scatter(&mut m, [1000.0, 1000.0], 600.0, &s).unwrap();
            let copies = transforms(&m).len();
            // 40 per 1000^2 over pi * 0.36 = 45 in the disc, each with its copies
            assert_eq!(n, 45 * copies, "{mode:?}");
            assert_symmetric(&m);
            for (i, f) in m.features.iter().enumerate() {
                for o in &m.features[..i] {
                    let d =
                        ((f.x_elmos - o.x_elmos).powi(2) + (f.z_elmos - o.z_elmos).powi(2)).sqrt();
                    assert!(d >= 60.0 - 1e-3, "{f:?} and {o:?} are {d} apart");
                }
            }
            assert!(m.features.iter().any(|f| f.name == "a"));
            assert!(m.features.iter().any(|f| f.name == "b"));
            // a second dab at the same place adds nothing: the disc is full
            assert_eq!(scatter(&mut m, [1000.0, 1000.0], 600.0, &s).unwrap(), 0);
            let mut again = map(mode);
            scatter(&mut again, [1000.0, 1000.0], 600.0, &s).unwrap();
            let mut m2 = map(mode);
            scatter(&mut m2, [1000.0, 1000.0], 600.0, &s).unwrap();
            assert_eq!(again.features, m2.features, "same seed, same features");
            let mut other = map(mode);
            scatter(
                &mut other,
                [1000.0, 1000.0],
                600.0,
                &Scatter {
                    seed: 8,
                    ..s.clone()
                },
            )
            .unwrap();
            assert_ne!(
                other.features, again.features,
                "another seed, other features"
            );
        }
    }

    #[test]
    fn scatter_filters_keep_exactly_the_ground_they_name() {
        let mut m = map(SymmetryMode::None);
        // a ramp: flat below x = 1024, 45 degrees from 1024 to 2048, then under the sea
        let (w, d) = m.heights.dims();
        for z in 0..d {
            for x in 0..w {
                let xe = x as f32 * 8.0;
                let h = if xe < 1024.0 {
                    100.0
                } else if xe < 2048.0 {
                    100.0 + (xe - 1024.0)
                } else {
                    -50.0
                };
                m.heights.set(x, z, h);
            }
        }
        m.settings.min_height_elmos = -100.0;
        m.settings.max_height_elmos = 1200.0;
        let mut s = scatter_of(&["t"], 200.0, 0.0);
        s.filters.slope_deg = Some([0.0, 10.0]);
        scatter(&mut m, [1500.0, 2000.0], 1400.0, &s).unwrap();
        assert!(!m.features.is_empty());
        assert!(
            m.features
                .iter()
                .all(|f| f.x_elmos < 1024.0 + 8.0 || f.x_elmos > 2048.0 + 8.0),
            "only the flat ground (above and under the sea)"
        );
        assert!(m.features.iter().any(|f| f.x_elmos < 1024.0));
        m.features.clear();
        s.filters.slope_deg = Some([40.0, 50.0]);
        scatter(&mut m, [1500.0, 2000.0], 1400.0, &s).unwrap();
        assert!(!m.features.is_empty());
        assert!(
            m.features
                .iter()
                .all(|f| (1016.0..2056.0).contains(&f.x_elmos))
        );
        m.features.clear();
        s.filters.slope_deg = None;
        s.filters.avoid_water = true;
        scatter(&mut m, [2500.0, 2000.0], 1000.0, &s).unwrap();
        assert!(!m.features.is_empty());
        assert!(
            m.features
                .iter()
                .all(|f| m.height_at(f.x_elmos, f.z_elmos) >= 0.0)
        );
        m.features.clear();
        s.filters.avoid_water = false;
        s.filters.height_elmos = Some([300.0, 500.0]);
        scatter(&mut m, [1500.0, 2000.0], 1400.0, &s).unwrap();
        assert!(!m.features.is_empty());
        assert!(m.features.iter().all(|f| {
            let h = m.height_at(f.x_elmos, f.z_elmos);
            (300.0..=500.0).contains(&h)
        }));
    }

    #[test]
    fn scatter_on_a_texture_layer_stays_where_it_shows() {
        use crate::map::ground_layers::{Material, TextureLayer};
        let mut m = map(SymmetryMode::None);
        let mut grass = TextureLayer::new(
            "grass",
            Material::Solid {
                color: [40, 160, 40],
            },
        );
        let (mw, md) = m.metal.dims();
        let mut mask = crate::map::Grid::filled(mw, md, 0u8);
        // painted in on the left half; the rules alone give 1 everywhere, so paint it out on the right
        for z in 0..md {
            for x in mw / 2..mw {
                mask.set(x, z, 0);
            }
            for x in 0..mw / 2 {
                mask.set(x, z, 255);
            }
        }
        grass.mask = Some(mask);
        m.texture_layers.push(grass);
        let mut s = scatter_of(&["t"], 100.0, 0.0);
        s.filters.layer = Some("grass".into());
        scatter(&mut m, [2048.0, 2048.0], 1500.0, &s).unwrap();
        assert!(!m.features.is_empty());
        assert!(m.features.iter().all(|f| f.x_elmos < 2048.0 + 16.0));
        s.filters.layer = Some("snow".into());
        assert!(scatter(&mut m, [2048.0, 2048.0], 1500.0, &s).is_err());
    }

    #[test]
    fn erase_takes_the_disc_and_its_images() {
        let mut m = map(SymmetryMode::MirrorX);
        scatter(
            &mut m,
            [800.0, 800.0],
            500.0,
            &scatter_of(&["t"], 60.0, 30.0),
        )
        .unwrap();
        scatter(
            &mut m,
            [800.0, 3000.0],
            500.0,
            &scatter_of(&["t"], 60.0, 30.0),
        )
        .unwrap();
        let before = m.features.len();
        let gone = erase(&mut m, [800.0, 800.0], 520.0);
        assert!(gone > 0);
        assert_eq!(m.features.len(), before - gone);
        assert!(m.features.iter().all(|f| f.z_elmos > 2000.0));
        assert_symmetric(&m);
    }

    #[test]
    fn a_selection_moves_turns_and_deletes_with_its_partners() {
        let mut m = map(SymmetryMode::Rotate(2));
        place(&mut m, "a", [500.0, 600.0], 10.0).unwrap();
        place(&mut m, "b", [1500.0, 600.0], 0.0).unwrap();
        let sel: BTreeSet<usize> = [0].into();
        let changed = transform_selected(&mut m, &sel, [100.0, -50.0], 30.0);
        assert_eq!(changed.len(), 2);
        assert_eq!(
            (m.features[0].x_elmos, m.features[0].z_elmos),
            (600.0, 550.0)
        );
        assert_eq!(m.features[0].rotation_deg, 40.0);
        assert_symmetric(&m);
        assert_eq!(in_rect(&m, [0.0, 0.0], [2048.0, 2048.0]).len(), 2);
        assert_eq!(nearest(&m, [610.0, 560.0], 50.0), Some(0));
        assert_eq!(delete_selected(&mut m, &sel), 2);
        assert_eq!(m.features.len(), 2);
        assert!(m.features.iter().all(|f| f.name == "b"));
    }
}
