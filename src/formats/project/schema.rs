//! `map.toml`: the settings file of a project folder, in snake_case, and its conversion to and
//! from the document. Unknown keys in `[map]`, `[[teams]]` and `[[features]]` are errors (they
//! are typos); unknown keys in `[water]`, `[lighting]`, `[atmosphere]` and `[[terrain_types]]`
//! pass to `mapinfo.lua` unchanged, and `[custom]` and `[extra]` are raw `mapinfo` tables.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::texture_section::TextureSection;
use crate::map::ground_layers::TextureLayer;
use crate::map::settings::{ENGINE_DEFAULT_EXTRACTOR_RADIUS, ENGINE_DEFAULT_MAX_METAL};
use crate::map::start_boxes::StartBoxSet;
use crate::map::water::WaterPreset;
use crate::map::{
    AtmosphereSettings, Feature, LightingSettings, LuaTable, Map, MapSettings, MapSize, MoveSpeeds,
    SymmetryMode, Team, TerrainType, WaterSettings,
};

/// What `map.toml` says, before the layer images are read.
pub struct ProjectParts {
    pub size: MapSize,
    pub settings: MapSettings,
    pub teams: Vec<Team>,
    pub start_boxes: Vec<StartBoxSet>,
    pub features: Vec<Feature>,
    pub symmetry: SymmetryMode,
    pub water_presets: Vec<WaterPreset>,
    /// The ground's material layers, their masks not yet read.
    pub texture_layers: Vec<TextureLayer>,
    /// `[texture] ambient_occlusion`.
    pub texture_ao: Option<crate::map::ground_layers::AmbientOcclusion>,
    pub generator: Option<crate::map::recipe::Recipe>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectToml {
    map: MapSection,
    #[serde(default, skip_serializing_if = "is_default")]
    water: WaterSettings,
    #[serde(default, skip_serializing_if = "is_default")]
    lighting: LightingSettings,
    #[serde(default, skip_serializing_if = "is_default")]
    atmosphere: AtmosphereSettings,
    #[serde(default, skip_serializing_if = "LuaTable::is_empty")]
    custom: LuaTable,
    /// Top-level `mapinfo` keys Groundwork does not model, kept verbatim.
    #[serde(default, skip_serializing_if = "LuaTable::is_empty")]
    extra: LuaTable,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    teams: Vec<TeamEntry>,
    /// `[[start_boxes]]`: the lobby's start boxes, one arrangement per team count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    start_boxes: Vec<StartBoxEntry>,
    #[serde(default)]
    terrain_types: Vec<TerrainTypeEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    features: Vec<FeatureEntry>,
    /// `[[texture.layers]]`: the ground's material layers over `texture.png`.
    #[serde(default, skip_serializing_if = "TextureSection::is_empty")]
    texture: TextureSection,
    /// How the editor works on the map (not part of the compiled map).
    #[serde(default, skip_serializing_if = "is_default")]
    editor: EditorSection,
    /// The generator recipe the map was made from (also written as `generator.toml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    generator: Option<crate::map::recipe::Recipe>,
}

/// `[editor]`: the editor's state that belongs to the map.
#[derive(Serialize, Deserialize, Default, PartialEq)]
#[serde(deny_unknown_fields)]
struct EditorSection {
    /// The symmetry mode every tool follows: none, mirror-x, mirror-z, mirror-xz, diagonal,
    /// anti-diagonal, rotate-N.
    #[serde(default = "no_symmetry", skip_serializing_if = "is_no_symmetry")]
    symmetry: String,
    /// The mapmaker's own water looks: `[[editor.water_presets]]` with a `name` and a `water`
    /// table of the `[water]` keys.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    water_presets: Vec<PresetEntry>,
}

#[derive(Serialize, Deserialize, Default, PartialEq)]
#[serde(deny_unknown_fields)]
struct PresetEntry {
    name: String,
    #[serde(default)]
    water: WaterSettings,
}

fn no_symmetry() -> String {
    "none".into()
}

fn is_no_symmetry(s: &String) -> bool {
    s == "none" || s.is_empty()
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A version may be written as a string or a number.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Version {
    Text(String),
    Number(f64),
}

impl Version {
    fn text(self) -> String {
        match self {
            Version::Text(s) => s,
            Version::Number(n) => crate::map::lua_value::number_text(n),
        }
    }
}

fn default_version() -> Version {
    Version::Text("1.0".into())
}
fn default_min_height() -> f32 {
    -100.0
}
fn default_max_height() -> f32 {
    400.0
}
fn default_max_metal() -> f32 {
    ENGINE_DEFAULT_MAX_METAL
}
fn default_extractor_radius() -> f32 {
    ENGINE_DEFAULT_EXTRACTOR_RADIUS
}
fn default_hardness() -> f32 {
    100.0
}
fn default_gravity() -> f32 {
    130.0
}
fn one() -> f32 {
    1.0
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapSection {
    name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    shortname: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    author: String,
    #[serde(default = "default_version")]
    version: Version,
    /// Width and depth in map units (512 elmos), each even.
    size: [u32; 2],
    /// Elmos at height word 0.
    #[serde(default = "default_min_height")]
    min_height: f32,
    /// Elmos at height word 65536.
    #[serde(default = "default_max_height")]
    max_height: f32,
    #[serde(default = "default_max_metal")]
    max_metal: f32,
    /// Elmos.
    #[serde(default = "default_extractor_radius")]
    extractor_radius: f32,
    #[serde(default = "default_hardness")]
    map_hardness: f32,
    #[serde(default = "default_gravity")]
    gravity: f32,
    #[serde(default)]
    tidal_strength: f32,
    #[serde(default)]
    void_water: bool,
    /// Where the compiled map carries its features: "smf" (the `.smf` feature block, the
    /// default) or "featureplacer" (BAR's feature placer: `mapconfig/featureplacer/set.lua`).
    #[serde(default = "smf_placement", skip_serializing_if = "is_smf_placement")]
    feature_placement: String,
}

fn smf_placement() -> String {
    "smf".into()
}

fn is_smf_placement(s: &String) -> bool {
    s == "smf"
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TeamEntry {
    /// x, z in elmos.
    start: [f32; 2],
}

/// One `[[start_boxes]]` arrangement: `teams = N`, `max_players_per_box = M`,
/// `boxes = [[x1, y1, x2, y2], ...]` in the lobby's 0..200 units.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StartBoxEntry {
    teams: u32,
    #[serde(default = "one_player")]
    max_players_per_box: u32,
    boxes: Vec<[u32; 4]>,
}

fn one_player() -> u32 {
    1
}

#[derive(Serialize, Deserialize)]
struct TerrainTypeEntry {
    /// The type-map byte; defaults to one more than the entry before (0 for the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    index: Option<u8>,
    name: String,
    #[serde(default = "one")]
    hardness: f32,
    #[serde(default = "yes")]
    receive_tracks: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    move_speeds: MoveSpeeds,
    #[serde(flatten)]
    extra: LuaTable,
}

fn yes() -> bool {
    true
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FeatureEntry {
    name: String,
    /// Elmos.
    x: f32,
    /// Elmos.
    z: f32,
    /// Degrees.
    #[serde(default, skip_serializing_if = "is_zero")]
    rotation: f32,
}

fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

impl ProjectToml {
    /// Everything but the layers; the caller makes those from the images. What a mapmaker
    /// should look at (engine defaults, starts off the map) is the lint's to say.
    pub fn into_parts(self) -> Result<ProjectParts, String> {
        let m = self.map;
        let size = MapSize::new(m.size[0], m.size[1]).map_err(|e| format!("[map] size: {e}"))?;
        if !(m.min_height.is_finite() && m.max_height.is_finite() && m.max_height > m.min_height) {
            return Err(format!(
                "[map] max_height ({}) must be above min_height ({})",
                m.max_height, m.min_height
            ));
        }
        for (key, v) in [
            ("max_metal", m.max_metal),
            ("extractor_radius", m.extractor_radius),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!(
                    "[map] {key} must be a number of at least 0, not {v}"
                ));
            }
        }
        let symmetry = if self.editor.symmetry.is_empty() {
            SymmetryMode::None
        } else {
            self.editor
                .symmetry
                .parse::<SymmetryMode>()
                .map_err(|e| format!("[editor] symmetry: {e}"))?
        };
        symmetry
            .check_map(size.width_units(), size.height_units())
            .map_err(|e| format!("[editor] {e}"))?;
        let mut terrain_types = BTreeMap::new();
        let mut next = 0u32;
        for t in self.terrain_types {
            let index = t.index.map(u32::from).unwrap_or(next);
            if index > 255 {
                return Err(format!(
                    "terrain type {:?} would be index {index}; types go up to 255",
                    t.name
                ));
            }
            let tt = TerrainType {
                name: t.name,
                hardness: t.hardness,
                receive_tracks: t.receive_tracks,
                move_speeds: t.move_speeds,
                extra: t.extra,
            };
            if terrain_types.insert(index as u8, tt).is_some() {
                return Err(format!("terrain type index {index} is defined twice"));
            }
            next = index + 1;
        }
        if terrain_types.is_empty() {
            terrain_types.insert(0, TerrainType::named("Default"));
        }
        let feature_placement = crate::map::FeaturePlacement::parse(&m.feature_placement)?;
        let settings = MapSettings {
            name: m.name,
            shortname: m.shortname,
            description: m.description,
            author: m.author,
            version: m.version.text(),
            map_hardness: m.map_hardness,
            extractor_radius_elmos: m.extractor_radius,
            max_metal: m.max_metal,
            gravity: m.gravity,
            tidal_strength: m.tidal_strength,
            void_water: m.void_water,
            min_height_elmos: m.min_height,
            max_height_elmos: m.max_height,
            water: self.water,
            lighting: self.lighting,
            atmosphere: self.atmosphere,
            terrain_types,
            custom: self.custom,
            extra: self.extra,
            feature_placement,
        };
        let teams: Vec<Team> = self
            .teams
            .iter()
            .map(|t| Team {
                start_x_elmos: t.start[0],
                start_z_elmos: t.start[1],
            })
            .collect();
        let mut start_boxes: Vec<StartBoxSet> = Vec::new();
        for e in &self.start_boxes {
            let set = StartBoxSet {
                teams: e.teams,
                max_players_per_box: e.max_players_per_box,
                boxes: e.boxes.clone(),
            };
            set.check().map_err(|m| format!("[[start_boxes]]: {m}"))?;
            if start_boxes.iter().any(|s| s.teams == set.teams) {
                return Err(format!(
                    "[[start_boxes]]: two arrangements for {} teams",
                    set.teams
                ));
            }
            start_boxes.push(set);
        }
        let features = self
            .features
            .into_iter()
            .map(|f| Feature {
                name: f.name,
                x_elmos: f.x,
                z_elmos: f.z,
                rotation_deg: f.rotation,
            })
            .collect();
        let water_presets = self
            .editor
            .water_presets
            .into_iter()
            .map(|p| WaterPreset {
                name: p.name,
                water: p.water,
            })
            .collect();
        Ok(ProjectParts {
            size,
            settings,
            teams,
            start_boxes,
            features,
            symmetry,
            water_presets,
            texture_layers: self.texture.to_layers()?,
            texture_ao: self.texture.ambient_occlusion()?,
            generator: match self.generator {
                Some(r) => {
                    r.check().map_err(|e| format!("[generator] {e}"))?;
                    Some(r)
                }
                None => None,
            },
        })
    }

    fn from_map(map: &Map) -> ProjectToml {
        let s = &map.settings;
        let mut prev: Option<u8> = None;
        let terrain_types = s
            .terrain_types
            .iter()
            .map(|(&i, t)| {
                let implied = prev.map_or(0, |p| p as u32 + 1);
                prev = Some(i);
                TerrainTypeEntry {
                    index: (i as u32 != implied).then_some(i),
                    name: t.name.clone(),
                    hardness: t.hardness,
                    receive_tracks: t.receive_tracks,
                    move_speeds: t.move_speeds,
                    extra: t.extra.clone(),
                }
            })
            .collect();
        ProjectToml {
            map: MapSection {
                name: s.name.clone(),
                shortname: s.shortname.clone(),
                description: s.description.clone(),
                author: s.author.clone(),
                version: Version::Text(s.version.clone()),
                size: [map.size.width_units(), map.size.height_units()],
                min_height: s.min_height_elmos,
                max_height: s.max_height_elmos,
                max_metal: s.max_metal,
                extractor_radius: s.extractor_radius_elmos,
                map_hardness: s.map_hardness,
                gravity: s.gravity,
                tidal_strength: s.tidal_strength,
                void_water: s.void_water,
                feature_placement: s.feature_placement.word().to_string(),
            },
            water: s.water.clone(),
            lighting: s.lighting.clone(),
            atmosphere: s.atmosphere.clone(),
            custom: s.custom.clone(),
            extra: s.extra.clone(),
            teams: map
                .teams
                .iter()
                .map(|t| TeamEntry {
                    start: [t.start_x_elmos, t.start_z_elmos],
                })
                .collect(),
            start_boxes: map
                .start_boxes
                .iter()
                .map(|s| StartBoxEntry {
                    teams: s.teams,
                    max_players_per_box: s.max_players_per_box,
                    boxes: s.boxes.clone(),
                })
                .collect(),
            terrain_types,
            features: map
                .features
                .iter()
                .map(|f| FeatureEntry {
                    name: f.name.clone(),
                    x: f.x_elmos,
                    z: f.z_elmos,
                    rotation: f.rotation_deg,
                })
                .collect(),
            texture: TextureSection::from_layers(&map.texture_layers, map.texture_ao),
            editor: EditorSection {
                symmetry: match map.symmetry {
                    SymmetryMode::None => String::new(),
                    m => m.to_string(),
                },
                water_presets: map
                    .water_presets
                    .iter()
                    .map(|p| PresetEntry {
                        name: p.name.clone(),
                        water: p.water.clone(),
                    })
                    .collect(),
            },
            generator: map.generator.clone(),
        }
    }
}

/// `map.toml`'s text for a document, with a short header.
pub fn project_toml_text(map: &Map) -> String {
    let body = toml::to_string(&ProjectToml::from_map(map))
        .unwrap_or_else(|e| format!("# could not write: {e}\n"));
    format!(
        "# Groundwork map project. Heights in elmos; sizes in map units (512 elmos).\n\
         # Layer images beside this file: height.png (16-bit words), texture.png, metal.png,\n\
         # grass.png, type.png. Files under archive/ are packed into the map as they are.\n\n{body}"
    )
}
