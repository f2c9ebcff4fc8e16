//! A generator recipe: a seed and a short list of steps, each with its settings, that
//! `edit::generate` runs to make a map from nothing. Saved in `map.toml` as `[generator]` and as
//! its own `generator.toml`; the height steps run in order, then the placement steps (metal,
//! vents) on the finished ground.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The base shape a recipe starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Level ground at a third of the relief.
    Flat,
    /// One landmass, the sea around its edges.
    #[default]
    Continental,
    /// An island under every start and one in the middle, the sea between.
    Islands,
    /// A high plateau cut by winding canyons.
    Canyon,
    /// Rolling hills.
    Hills,
    /// Flat-topped levels joined by ramps.
    Plateaus,
    /// Ridges on the flanks, a valley lane from every start to the middle.
    ValleyLane,
}

impl Preset {
    /// Every preset, in the order the editor lists them.
    pub const ALL: [Preset; 7] = [
        Preset::Flat,
        Preset::Continental,
        Preset::Islands,
        Preset::Canyon,
        Preset::Hills,
        Preset::Plateaus,
        Preset::ValleyLane,
    ];

    /// The code the generator's kernel reads.
    pub fn code(self) -> u32 {
        Preset::ALL.iter().position(|p| *p == self).unwrap_or(0) as u32
    }

    /// Whether the preset's default recipe has a sea.
    pub fn has_sea(self) -> bool {
        matches!(self, Preset::Continental | Preset::Islands)
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Preset::Flat => "flat",
            Preset::Continental => "continental",
            Preset::Islands => "islands",
            Preset::Canyon => "canyon",
            Preset::Hills => "hills",
            Preset::Plateaus => "plateaus",
            Preset::ValleyLane => "valley-lane",
        })
    }
}

impl FromStr for Preset {
    type Err = String;

    fn from_str(s: &str) -> Result<Preset, String> {
        Preset::ALL
            .iter()
            .copied()
            .find(|p| p.to_string() == s)
            .ok_or_else(|| {
                let names: Vec<String> = Preset::ALL.iter().map(|p| p.to_string()).collect();
                format!(
                    "no terrain preset `{s}`: choose one of {}",
                    names.join(", ")
                )
            })
    }
}

/// The kind of fractal noise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoiseKind {
    /// Plain fractal noise: soft hills and hollows.
    #[default]
    Fbm,
    /// Sharp crests (one minus the folded noise).
    Ridged,
    /// Round bumps with creases between (the folded noise).
    Billow,
}

impl NoiseKind {
    pub const ALL: [NoiseKind; 3] = [NoiseKind::Fbm, NoiseKind::Ridged, NoiseKind::Billow];

    pub fn code(self) -> u32 {
        NoiseKind::ALL.iter().position(|p| *p == self).unwrap_or(0) as u32
    }
}

/// The base shape: `relief_elmos` between its lowest and highest ground.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BaseStep {
    pub preset: Preset,
    pub relief_elmos: f32,
    /// How wide the shape's own features (coast bends, canyons, levels) are.
    pub feature_elmos: f32,
}

impl Default for BaseStep {
    fn default() -> BaseStep {
        BaseStep {
            preset: Preset::Continental,
            relief_elmos: 420.0,
            feature_elmos: 1800.0,
        }
    }
}

/// Fractal noise added to the ground (-amplitude .. +amplitude), its coordinates bent by a
/// second noise (`warp_elmos`, domain warp).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NoiseStep {
    pub kind: NoiseKind,
    pub amplitude_elmos: f32,
    pub wavelength_elmos: f32,
    pub octaves: u32,
    pub warp_elmos: f32,
}

impl Default for NoiseStep {
    fn default() -> NoiseStep {
        NoiseStep {
            kind: NoiseKind::Fbm,
            amplitude_elmos: 60.0,
            wavelength_elmos: 900.0,
            octaves: 5,
            warp_elmos: 250.0,
        }
    }
}

/// Level steps `step_elmos` high; `sharpness` 0 keeps the slope, 1 makes cliffs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TerraceStep {
    pub step_elmos: f32,
    pub sharpness: f32,
}

impl Default for TerraceStep {
    fn default() -> TerraceStep {
        TerraceStep {
            step_elmos: 80.0,
            sharpness: 0.6,
        }
    }
}

/// Ground above `level_elmos` flattens out, within `softness_elmos` of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlateauStep {
    pub level_elmos: f32,
    pub softness_elmos: f32,
}

impl Default for PlateauStep {
    fn default() -> PlateauStep {
        PlateauStep {
            level_elmos: 300.0,
            softness_elmos: 30.0,
        }
    }
}

/// Every height into `min_elmos ..= max_elmos`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClampStep {
    pub min_elmos: f32,
    pub max_elmos: f32,
}

impl Default for ClampStep {
    fn default() -> ClampStep {
        ClampStep {
            min_elmos: 0.0,
            max_elmos: 500.0,
        }
    }
}

/// The thermal erosion brush over the whole map, at map scale: on the heights every
/// `cell_elmos` apart (see [`erosion_factor`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ThermalStep {
    pub talus_deg: f32,
    pub iterations: u32,
    pub strength: f32,
    pub cell_elmos: f32,
}

impl Default for ThermalStep {
    fn default() -> ThermalStep {
        ThermalStep {
            talus_deg: 40.0,
            iterations: 20,
            strength: 0.5,
            cell_elmos: MAP_SCALE_CELL_ELMOS,
        }
    }
}

/// The hydraulic erosion brush (Mei et al.'s pipe model) over the whole map, at map scale:
/// on the heights every `cell_elmos` apart (see [`erosion_factor`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HydraulicStep {
    pub iterations: u32,
    pub rain_elmos: f32,
    pub capacity: f32,
    pub evaporation: f32,
    pub repose_deg: f32,
    pub strength: f32,
    pub cell_elmos: f32,
}

/// The erosion steps' grid by default: every second height vertex (16 elmos), so the water
/// carves valleys at the map's scale, in a quarter of the work.
pub const MAP_SCALE_CELL_ELMOS: f32 = 16.0;

/// The erosion steps run on every `factor`-th height vertex: `cell_elmos` over the 8 elmos
/// between vertices, rounded down to 1, 2, 4 or 8 (each divides a map's 64 squares a unit).
pub fn erosion_factor(cell_elmos: f32) -> usize {
    let f = (cell_elmos / 8.0).clamp(1.0, 8.0) as usize;
    1 << f.ilog2()
}

impl Default for HydraulicStep {
    fn default() -> HydraulicStep {
        HydraulicStep {
            iterations: 40,
            rain_elmos: 0.1,
            capacity: 10.0,
            evaporation: 0.02,
            repose_deg: 35.0,
            strength: 0.6,
            cell_elmos: MAP_SCALE_CELL_ELMOS,
        }
    }
}

/// The sea: ground `sea_level_elmos` above the lowest becomes the water line (the engine's 0),
/// and the land's first `beach_height_elmos` above it flatten into a beach.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoastStep {
    pub sea_level_elmos: f32,
    pub beach_height_elmos: f32,
}

impl Default for CoastStep {
    fn default() -> CoastStep {
        CoastStep {
            sea_level_elmos: 110.0,
            beach_height_elmos: 24.0,
        }
    }
}

/// A flat, dry base around every start: level within `radius_elmos` (fading out over its
/// outer half), at least `min_land_elmos` above the water.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StartsStep {
    pub radius_elmos: f32,
    pub min_land_elmos: f32,
}

impl Default for StartsStep {
    fn default() -> StartsStep {
        StartsStep {
            radius_elmos: 900.0,
            min_land_elmos: 40.0,
        }
    }
}

/// Metal spots per start: a base ring, expansions further out, and contested spots towards the
/// middle; each spot pays `income_per_spot` metal/s to a tech-1 extractor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MetalStep {
    pub base_spots: u32,
    pub base_distance_elmos: f32,
    pub expansion_spots: u32,
    pub expansion_distance_elmos: f32,
    pub contested_spots: u32,
    /// How far along the way from a start to the middle its contested spots lie (0..1).
    pub contested_along: f32,
    pub income_per_spot: f32,
}

impl Default for MetalStep {
    fn default() -> MetalStep {
        MetalStep {
            base_spots: 4,
            base_distance_elmos: 420.0,
            expansion_spots: 3,
            expansion_distance_elmos: 1300.0,
            contested_spots: 2,
            contested_along: 0.62,
            income_per_spot: 2.0,
        }
    }
}

/// Geothermal vents: `per_start` near each start, `distance_elmos` from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VentsStep {
    pub per_start: u32,
    pub distance_elmos: f32,
}

impl Default for VentsStep {
    fn default() -> VentsStep {
        VentsStep {
            per_start: 1,
            distance_elmos: 800.0,
        }
    }
}

/// One step of a recipe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    Base(BaseStep),
    Noise(NoiseStep),
    Terrace(TerraceStep),
    Plateau(PlateauStep),
    Clamp(ClampStep),
    ThermalErosion(ThermalStep),
    HydraulicErosion(HydraulicStep),
    Coast(CoastStep),
    Starts(StartsStep),
    Metal(MetalStep),
    Vents(VentsStep),
}

impl Step {
    /// The step's name as the recipe writes it (`hydraulic-erosion`).
    pub fn name(&self) -> &'static str {
        match self {
            Step::Base(_) => "base",
            Step::Noise(_) => "noise",
            Step::Terrace(_) => "terrace",
            Step::Plateau(_) => "plateau",
            Step::Clamp(_) => "clamp",
            Step::ThermalErosion(_) => "thermal-erosion",
            Step::HydraulicErosion(_) => "hydraulic-erosion",
            Step::Coast(_) => "coast",
            Step::Starts(_) => "starts",
            Step::Metal(_) => "metal",
            Step::Vents(_) => "vents",
        }
    }

    /// Whether it places things on the finished ground rather than shaping it.
    pub fn places(&self) -> bool {
        matches!(self, Step::Metal(_) | Step::Vents(_))
    }

    /// A fresh step of each kind, for the editor's Add list.
    pub fn all_defaults() -> Vec<Step> {
        vec![
            Step::Base(BaseStep::default()),
            Step::Noise(NoiseStep::default()),
            Step::Terrace(TerraceStep::default()),
            Step::Plateau(PlateauStep::default()),
            Step::Clamp(ClampStep::default()),
            Step::ThermalErosion(ThermalStep::default()),
            Step::HydraulicErosion(HydraulicStep::default()),
            Step::Coast(CoastStep::default()),
            Step::Starts(StartsStep::default()),
            Step::Metal(MetalStep::default()),
            Step::Vents(VentsStep::default()),
        ]
    }

    /// Whether the settings make sense; one line saying what is wrong if not.
    pub fn check(&self) -> Result<(), String> {
        let pos = |v: f32, what: &str| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("{}: {what} must be above 0, not {v}", self.name()))
            }
        };
        let unit = |v: f32, what: &str| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(format!("{}: {what} must be 0 to 1, not {v}", self.name()))
            }
        };
        let finite = |v: f32, what: &str| {
            if v.is_finite() {
                Ok(())
            } else {
                Err(format!("{}: {what} must be a number", self.name()))
            }
        };
        let at_most = |v: u32, most: u32, what: &str| {
            if v <= most {
                Ok(())
            } else {
                Err(format!(
                    "{}: {what} is at most {most}, not {v}",
                    self.name()
                ))
            }
        };
        match self {
            Step::Base(s) => {
                pos(s.relief_elmos, "relief_elmos")?;
                pos(s.feature_elmos, "feature_elmos")
            }
            Step::Noise(s) => {
                finite(s.amplitude_elmos, "amplitude_elmos")?;
                pos(s.wavelength_elmos, "wavelength_elmos")?;
                finite(s.warp_elmos, "warp_elmos")?;
                at_most(s.octaves, 8, "octaves")?;
                if s.octaves == 0 {
                    return Err("noise: octaves must be 1 to 8".into());
                }
                Ok(())
            }
            Step::Terrace(s) => {
                pos(s.step_elmos, "step_elmos")?;
                unit(s.sharpness, "sharpness")
            }
            Step::Plateau(s) => {
                finite(s.level_elmos, "level_elmos")?;
                pos(s.softness_elmos, "softness_elmos")
            }
            Step::Clamp(s) => {
                finite(s.min_elmos, "min_elmos")?;
                finite(s.max_elmos, "max_elmos")?;
                if s.max_elmos <= s.min_elmos {
                    return Err(format!(
                        "clamp: max_elmos {} must be above min_elmos {}",
                        s.max_elmos, s.min_elmos
                    ));
                }
                Ok(())
            }
            Step::ThermalErosion(s) => {
                if !(1.0..=80.0).contains(&s.talus_deg) {
                    return Err(format!(
                        "thermal-erosion: talus_deg must be 1 to 80, not {}",
                        s.talus_deg
                    ));
                }
                at_most(s.iterations, 200, "iterations")?;
                pos(s.cell_elmos, "cell_elmos")?;
                unit(s.strength, "strength")
            }
            Step::HydraulicErosion(s) => {
                at_most(s.iterations, 500, "iterations")?;
                finite(s.rain_elmos, "rain_elmos")?;
                finite(s.capacity, "capacity")?;
                unit(s.evaporation, "evaporation")?;
                if !(5.0..=60.0).contains(&s.repose_deg) {
                    return Err(format!(
                        "hydraulic-erosion: repose_deg must be 5 to 60, not {}",
                        s.repose_deg
                    ));
                }
                pos(s.cell_elmos, "cell_elmos")?;
                unit(s.strength, "strength")
            }
            Step::Coast(s) => {
                finite(s.sea_level_elmos, "sea_level_elmos")?;
                if !(s.beach_height_elmos.is_finite() && s.beach_height_elmos >= 0.0) {
                    return Err("coast: beach_height_elmos must be 0 or more".into());
                }
                Ok(())
            }
            Step::Starts(s) => {
                pos(s.radius_elmos, "radius_elmos")?;
                finite(s.min_land_elmos, "min_land_elmos")
            }
            Step::Metal(s) => {
                at_most(s.base_spots, 12, "base_spots")?;
                at_most(s.expansion_spots, 12, "expansion_spots")?;
                at_most(s.contested_spots, 8, "contested_spots")?;
                pos(s.base_distance_elmos, "base_distance_elmos")?;
                pos(s.expansion_distance_elmos, "expansion_distance_elmos")?;
                unit(s.contested_along, "contested_along")?;
                pos(s.income_per_spot, "income_per_spot")
            }
            Step::Vents(s) => {
                at_most(s.per_start, 4, "per_start")?;
                pos(s.distance_elmos, "distance_elmos")
            }
        }
    }
}

/// A seed and the steps, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    #[serde(default)]
    pub seed: u32,
    #[serde(default)]
    pub steps: Vec<Step>,
}

/// The most steps a recipe holds.
pub const MAX_STEPS: usize = 32;

impl Recipe {
    /// The recipe `groundwork new --terrain PRESET` uses: the base shape, noise, the preset's
    /// own touches, erosion, the coast, flat bases, a fair metal layout and a vent per start.
    pub fn preset(preset: Preset, seed: u32) -> Recipe {
        let mut steps = vec![Step::Base(BaseStep {
            preset,
            ..BaseStep::default()
        })];
        if preset != Preset::Flat {
            let noise = match preset {
                Preset::Canyon | Preset::Plateaus => NoiseStep {
                    amplitude_elmos: 30.0,
                    ..NoiseStep::default()
                },
                Preset::Hills => NoiseStep {
                    kind: NoiseKind::Billow,
                    amplitude_elmos: 50.0,
                    wavelength_elmos: 700.0,
                    ..NoiseStep::default()
                },
                Preset::ValleyLane => NoiseStep {
                    kind: NoiseKind::Ridged,
                    amplitude_elmos: 45.0,
                    ..NoiseStep::default()
                },
                _ => NoiseStep::default(),
            };
            steps.push(Step::Noise(noise));
        }
        if preset == Preset::Plateaus {
            steps.push(Step::Terrace(TerraceStep {
                step_elmos: 105.0,
                sharpness: 0.7,
            }));
        }
        if preset != Preset::Flat {
            steps.push(Step::ThermalErosion(ThermalStep::default()));
            steps.push(Step::HydraulicErosion(HydraulicStep::default()));
        }
        if preset.has_sea() {
            steps.push(Step::Coast(CoastStep::default()));
        }
        steps.push(Step::Starts(StartsStep::default()));
        steps.push(Step::Metal(match preset {
            // expansions on the start's own island, contested spots on the middle one
            Preset::Islands => MetalStep {
                expansion_distance_elmos: 800.0,
                contested_along: 0.85,
                ..MetalStep::default()
            },
            _ => MetalStep::default(),
        }));
        steps.push(Step::Vents(VentsStep::default()));
        Recipe { seed, steps }
    }

    /// Puts the sea at `sea_level_elmos` above the lowest ground: the coast step's level, or a
    /// new coast step before the start bases and the placement steps.
    pub fn set_sea_level(&mut self, sea_level_elmos: f32) {
        for s in &mut self.steps {
            if let Step::Coast(c) = s {
                c.sea_level_elmos = sea_level_elmos;
                return;
            }
        }
        let at = self
            .steps
            .iter()
            .position(|s| s.places() || matches!(s, Step::Starts(_)))
            .unwrap_or(self.steps.len());
        self.steps.insert(
            at,
            Step::Coast(CoastStep {
                sea_level_elmos,
                ..CoastStep::default()
            }),
        );
    }

    /// The base step's preset, when the recipe has one.
    pub fn base_preset(&self) -> Option<Preset> {
        self.steps.iter().find_map(|s| match s {
            Step::Base(b) => Some(b.preset),
            _ => None,
        })
    }

    /// Every step's settings, and the order: placement steps come after every height step.
    pub fn check(&self) -> Result<(), String> {
        if self.steps.len() > MAX_STEPS {
            return Err(format!(
                "a recipe has at most {MAX_STEPS} steps, not {}",
                self.steps.len()
            ));
        }
        let mut placed = None;
        for (i, s) in self.steps.iter().enumerate() {
            s.check().map_err(|e| format!("step {}: {e}", i + 1))?;
            if s.places() {
                placed.get_or_insert(s.name());
            } else if let Some(p) = placed {
                return Err(format!(
                    "step {} ({}) shapes the ground after the {p} step placed things on it: \
                     put the height steps first",
                    i + 1,
                    s.name()
                ));
            }
        }
        Ok(())
    }

    /// The recipe as its own TOML file.
    /// The same recipe for a miniature `factor` times the map's size: every setting in elmos
    /// (distances and heights alike, so slopes stay) scaled by `factor`. The editor's preview
    /// runs it on a small map of the same shape.
    pub fn scaled(&self, factor: f32) -> Recipe {
        let mut steps = Vec::with_capacity(self.steps.len());
        for step in &self.steps {
            let scaled = match toml::Value::try_from(step) {
                Ok(toml::Value::Table(mut t)) => {
                    for (k, v) in t.iter_mut() {
                        if let (true, toml::Value::Float(f)) = (k.ends_with("_elmos"), &mut *v) {
                            *f *= factor as f64;
                        }
                    }
                    toml::Value::Table(t).try_into::<Step>().ok()
                }
                _ => None,
            };
            steps.push(scaled.unwrap_or_else(|| step.clone()));
        }
        Recipe {
            seed: self.seed,
            steps,
        }
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a recipe always serializes")
    }

    /// A recipe from its TOML file, checked.
    pub fn from_toml(text: &str) -> Result<Recipe, String> {
        let r: Recipe = toml::from_str(text).map_err(|e| e.to_string())?;
        r.check()?;
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recipe_goes_through_toml_and_back() {
        for p in Preset::ALL {
            let r = Recipe::preset(p, 7);
            r.check().unwrap();
            let text = r.to_toml();
            assert_eq!(Recipe::from_toml(&text).unwrap(), r, "{text}");
            assert_eq!(r.base_preset(), Some(p));
        }
        let text = "seed = 3\n[[steps]]\nstep = \"noise\"\nkind = \"ridged\"\n";
        let r = Recipe::from_toml(text).unwrap();
        assert_eq!(
            r.steps,
            vec![Step::Noise(NoiseStep {
                kind: NoiseKind::Ridged,
                ..NoiseStep::default()
            })]
        );
    }

    #[test]
    fn scaling_a_recipe_scales_its_elmos_and_nothing_else() {
        let r = Recipe::preset(Preset::Islands, 5);
        let half = r.scaled(0.5);
        assert_eq!(half.steps.len(), r.steps.len());
        let mut elmos = 0;
        for (a, b) in r.steps.iter().zip(&half.steps) {
            let (toml::Value::Table(a), toml::Value::Table(b)) = (
                toml::Value::try_from(a).unwrap(),
                toml::Value::try_from(b).unwrap(),
            ) else {
                panic!("steps are tables")
            };
            for (k, v) in &a {
                match (v, &b[k]) {
                    (toml::Value::Float(x), toml::Value::Float(y)) if k.ends_with("_elmos") => {
                        elmos += 1;
                        assert!((x * 0.5 - y).abs() < 1e-3, "{k}: {x} -> {y}");
                    }
                    (x, y) => assert_eq!(x, y, "{k}"),
                }
            }
        }
        assert!(elmos >= 10, "{elmos} settings in elmos");
        assert_eq!(r.scaled(1.0), r);
    }

    #[test]
    fn bad_recipes_say_what_is_wrong() {
        let typo = "[[steps]]\nstep = \"noise\"\namplitude = 3\n";
        assert!(Recipe::from_toml(typo).unwrap_err().contains("amplitude"));
        let unknown = "[[steps]]\nstep = \"volcano\"\n";
        assert!(Recipe::from_toml(unknown).unwrap_err().contains("volcano"));
        let order = "[[steps]]\nstep = \"metal\"\n[[steps]]\nstep = \"noise\"\n";
        assert!(
            Recipe::from_toml(order)
                .unwrap_err()
                .contains("after the metal")
        );
        let bad = "[[steps]]\nstep = \"terrace\"\nsharpness = 2.0\n";
        assert!(Recipe::from_toml(bad).unwrap_err().contains("sharpness"));
        assert!(
            "marsh"
                .parse::<Preset>()
                .unwrap_err()
                .contains("valley-lane")
        );
        assert_eq!("valley-lane".parse::<Preset>(), Ok(Preset::ValleyLane));
    }
}
