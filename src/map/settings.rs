//! Every `mapinfo.lua` setting the document models: the map's identity, its economy and physics,
//! water, lighting, atmosphere and terrain types, plus custom and unknown keys kept verbatim.

use std::collections::BTreeMap;

use super::lua_value::{LuaTable, LuaValue};

/// A value that converts to and from a Lua value.
pub trait LuaField: Sized {
    fn to_lua(&self) -> LuaValue;
    /// `None` when the value has another shape; the caller then keeps it verbatim.
    fn from_lua(v: &LuaValue) -> Option<Self>;
}

impl LuaField for f32 {
    fn to_lua(&self) -> LuaValue {
        LuaValue::Number(tidy_f32(*self))
    }
    fn from_lua(v: &LuaValue) -> Option<f32> {
        v.as_number().map(|n| n as f32)
    }
}
impl LuaField for bool {
    fn to_lua(&self) -> LuaValue {
        LuaValue::Bool(*self)
    }
    fn from_lua(v: &LuaValue) -> Option<bool> {
        v.as_bool()
    }
}
impl LuaField for String {
    fn to_lua(&self) -> LuaValue {
        LuaValue::String(self.clone())
    }
    fn from_lua(v: &LuaValue) -> Option<String> {
        match v {
            LuaValue::String(s) => Some(s.clone()),
            LuaValue::Number(n) => Some(crate::map::lua_value::number_text(*n)),
            _ => None,
        }
    }
}
impl<const N: usize> LuaField for [f32; N] {
    fn to_lua(&self) -> LuaValue {
        LuaValue::Table(LuaTable::sequence(
            self.iter().map(|&v| LuaValue::Number(tidy_f32(v))),
        ))
    }
    /// Exactly N numbers; a 4-vector may omit its w, which is then 1 (as for `sunDir`).
    fn from_lua(v: &LuaValue) -> Option<[f32; N]> {
        let nums = v.as_numbers()?;
        let mut out = [1.0f32; N];
        if nums.len() == N || (N == 4 && nums.len() == 3) {
            for (o, n) in out.iter_mut().zip(&nums) {
                *o = *n as f32;
            }
            Some(out)
        } else {
            None
        }
    }
}

/// An f32 as the f64 with the shortest decimal that reads back as the same f32, so `0.9f32`
/// is written `0.9`, not `0.899999976158`.
fn tidy_f32(v: f32) -> f64 {
    format!("{v}").parse().unwrap_or(v as f64)
}

/// Declares a settings table: typed optional fields, each with its Lua key, plus `extra`, the
/// keys we do not model, kept verbatim. In `map.toml` the fields use their snake_case names and
/// unknown keys sit beside them unchanged.
macro_rules! lua_settings {
    ($(#[$m:meta])* pub struct $name:ident { $( $(#[$fm:meta])* $field:ident : $ty:ty => $lua:literal, )* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default)]
        pub struct $name {
            $( $(#[$fm])* #[serde(skip_serializing_if = "Option::is_none")] pub $field: Option<$ty>, )*
            /// Keys this table does not model, kept verbatim.
            #[serde(flatten)]
            pub extra: LuaTable,
        }

        impl $name {
            /// The table as `mapinfo.lua` holds it: set fields, then the extra keys.
            pub fn to_lua(&self) -> LuaTable {
                let mut t = LuaTable::new();
                $( if let Some(v) = &self.$field { t.insert($lua, LuaField::to_lua(v)); } )*
                for (k, v) in self.extra.iter() {
                    t.insert(k.clone(), v.clone());
                }
                t
            }

            /// Reads the modelled keys (case-insensitively); everything else goes to `extra`.
            pub fn from_lua(t: &LuaTable) -> $name {
                let mut rest = t.clone();
                let mut s = $name::default();
                $(
                    if let Some(v) = rest.remove($lua) {
                        match <$ty as LuaField>::from_lua(&v) {
                            Some(x) => s.$field = Some(x),
                            None => rest.insert($lua, v),
                        }
                    }
                )*
                s.extra = rest;
                s
            }
        }
    };
}

lua_settings! {
    /// `mapinfo.water`: how BumpWater draws the sea, and what water does to units.
    pub struct WaterSettings {
        damage: f32 => "damage",
        repeat_x: f32 => "repeatX",
        repeat_y: f32 => "repeatY",
        /// Absorption per elmo of depth (tints the sea bed; the ground shader's, not BumpWater's).
        absorb: [f32; 3] => "absorb",
        base_color: [f32; 3] => "baseColor",
        min_color: [f32; 3] => "minColor",
        surface_color: [f32; 3] => "surfaceColor",
        surface_alpha: f32 => "surfaceAlpha",
        plane_color: [f32; 3] => "planeColor",
        diffuse_color: [f32; 3] => "diffuseColor",
        specular_color: [f32; 3] => "specularColor",
        ambient_factor: f32 => "ambientFactor",
        diffuse_factor: f32 => "diffuseFactor",
        specular_factor: f32 => "specularFactor",
        specular_power: f32 => "specularPower",
        fresnel_min: f32 => "fresnelMin",
        fresnel_max: f32 => "fresnelMax",
        fresnel_power: f32 => "fresnelPower",
        reflection_distortion: f32 => "reflectionDistortion",
        blur_base: f32 => "blurBase",
        blur_exponent: f32 => "blurExponent",
        perlin_start_freq: f32 => "perlinStartFreq",
        perlin_lacunarity: f32 => "perlinLacunarity",
        perlin_amplitude: f32 => "perlinAmplitude",
        wind_speed: f32 => "windSpeed",
        shore_waves: bool => "shoreWaves",
        force_rendering: bool => "forceRendering",
        has_water_plane: bool => "hasWaterPlane",
        num_tiles: f32 => "numTiles",
        normal_texture: String => "normalTexture",
        texture: String => "texture",
        foam_texture: String => "foamTexture",
        caustics_resolution: f32 => "causticsResolution",
        caustics_strength: f32 => "causticsStrength",
        wave_offset_factor: f32 => "waveOffsetFactor",
        wave_length: f32 => "waveLength",
        wave_foam_distortion: f32 => "waveFoamDistortion",
        wave_foam_intensity: f32 => "waveFoamIntensity",
    }
}

lua_settings! {
    /// `mapinfo.lighting`: the sun and the ground's and units' light colours.
    pub struct LightingSettings {
        /// Direction towards the sun; written as a 4-vector with w = 1.
        sun_dir: [f32; 4] => "sunDir",
        sun_start_angle: f32 => "sunStartAngle",
        sun_orbit_time: f32 => "sunOrbitTime",
        ground_ambient_color: [f32; 3] => "groundAmbientColor",
        ground_diffuse_color: [f32; 3] => "groundDiffuseColor",
        ground_specular_color: [f32; 3] => "groundSpecularColor",
        ground_shadow_density: f32 => "groundShadowDensity",
        unit_ambient_color: [f32; 3] => "unitAmbientColor",
        unit_diffuse_color: [f32; 3] => "unitDiffuseColor",
        unit_specular_color: [f32; 3] => "unitSpecularColor",
        unit_shadow_density: f32 => "unitShadowDensity",
        specular_sun_color: [f32; 3] => "specularSunColor",
        specular_exponent: f32 => "specularExponent",
    }
}

lua_settings! {
    /// `mapinfo.atmosphere`: wind, fog, sky and clouds.
    pub struct AtmosphereSettings {
        min_wind: f32 => "minWind",
        max_wind: f32 => "maxWind",
        fog_start: f32 => "fogStart",
        fog_end: f32 => "fogEnd",
        fog_color: [f32; 3] => "fogColor",
        sky_color: [f32; 3] => "skyColor",
        sun_color: [f32; 3] => "sunColor",
        cloud_color: [f32; 3] => "cloudColor",
        cloud_density: f32 => "cloudDensity",
        sky_box: String => "skyBox",
        /// Axis x, y, z and angle in radians (replaces the deprecated `skyDir`).
        sky_axis_angle: [f32; 4] => "skyAxisAngle",
    }
}

/// The engine's defaults (`rts/Map/MapInfo.cpp`) for what the preview needs.
impl LightingSettings {
    pub fn sun_dir_or_default(&self) -> [f32; 3] {
        let d = self.sun_dir.unwrap_or([0.0, 1.0, 2.0, 1.0]);
        [d[0], d[1], d[2]]
    }
    pub fn ground_ambient_or_default(&self) -> [f32; 3] {
        self.ground_ambient_color.unwrap_or([0.5; 3])
    }
    pub fn ground_diffuse_or_default(&self) -> [f32; 3] {
        self.ground_diffuse_color.unwrap_or([0.5; 3])
    }
    pub fn ground_specular_or_default(&self) -> [f32; 3] {
        self.ground_specular_color.unwrap_or([0.1; 3])
    }
}

/// The engine's wind when the map gives none (`rts/Map/MapInfo.cpp`). unitsync has no such
/// default (it reports 0..0), so the compiler writes these.
impl AtmosphereSettings {
    pub const DEFAULT_MIN_WIND: f32 = 5.0;
    pub const DEFAULT_MAX_WIND: f32 = 25.0;
    pub fn min_wind_or_default(&self) -> f32 {
        self.min_wind.unwrap_or(Self::DEFAULT_MIN_WIND)
    }
    pub fn max_wind_or_default(&self) -> f32 {
        self.max_wind.unwrap_or(Self::DEFAULT_MAX_WIND)
    }
}

/// Unit speed multipliers per movement class on one terrain type.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct MoveSpeeds {
    pub tank: f32,
    pub kbot: f32,
    pub hover: f32,
    pub ship: f32,
}

impl Default for MoveSpeeds {
    fn default() -> MoveSpeeds {
        MoveSpeeds {
            tank: 1.0,
            kbot: 1.0,
            hover: 1.0,
            ship: 1.0,
        }
    }
}

/// What one type-map byte means: hardness, tracks and speeds.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainType {
    pub name: String,
    /// Multiplies `map_hardness` for cratering.
    pub hardness: f32,
    pub receive_tracks: bool,
    pub move_speeds: MoveSpeeds,
    /// Keys we do not model, kept verbatim.
    pub extra: LuaTable,
}

impl TerrainType {
    pub fn named(name: &str) -> TerrainType {
        TerrainType {
            name: name.to_string(),
            hardness: 1.0,
            receive_tracks: true,
            move_speeds: MoveSpeeds::default(),
            extra: LuaTable::new(),
        }
    }

    pub fn to_lua(&self) -> LuaTable {
        let mut t = LuaTable::new();
        t.insert("name", LuaValue::String(self.name.clone()));
        t.insert("hardness", self.hardness.to_lua());
        t.insert("receiveTracks", LuaValue::Bool(self.receive_tracks));
        let mut m = LuaTable::new();
        let s = &self.move_speeds;
        for (k, v) in [
            ("tank", s.tank),
            ("kbot", s.kbot),
            ("hover", s.hover),
            ("ship", s.ship),
        ] {
            m.insert(k, v.to_lua());
        }
        t.insert("moveSpeeds", LuaValue::Table(m));
        for (k, v) in self.extra.iter() {
            t.insert(k.clone(), v.clone());
        }
        t
    }

    pub fn from_lua(t: &LuaTable) -> TerrainType {
        let mut rest = t.clone();
        let mut tt = TerrainType::named("");
        if let Some(n) = rest.remove("name").and_then(|v| String::from_lua(&v)) {
            tt.name = n;
        }
        if let Some(h) = rest.remove("hardness").and_then(|v| v.as_number()) {
            tt.hardness = h as f32;
        }
        if let Some(r) = rest.remove("receiveTracks").and_then(|v| v.as_bool()) {
            tt.receive_tracks = r;
        }
        if let Some(LuaValue::Table(m)) = rest.remove("moveSpeeds") {
            let get = |k: &str| m.get_number(k).map(|v| v as f32).unwrap_or(1.0);
            tt.move_speeds = MoveSpeeds {
                tank: get("tank"),
                kbot: get("kbot"),
                hover: get("hover"),
                ship: get("ship"),
            };
        }
        tt.extra = rest;
        tt
    }
}

/// Everything `mapinfo.lua` says about a map that is not a grid.
#[derive(Clone, Debug, PartialEq)]
pub struct MapSettings {
    pub name: String,
    /// Defaults to `name` when empty.
    pub shortname: String,
    pub description: String,
    pub author: String,
    pub version: String,
    /// How hard the ground is to crater (engine default 100).
    pub map_hardness: f32,
    /// How far a metal extractor reaches (engine default 500: unplayable, set it).
    pub extractor_radius_elmos: f32,
    /// Metal per metal-map byte (engine default 0.02: no metal, set it).
    pub max_metal: f32,
    pub gravity: f32,
    pub tidal_strength: f32,
    /// No sea bed: ground below y = 0 is a hole.
    pub void_water: bool,
    /// World height of height word 0.
    pub min_height_elmos: f32,
    /// World height of height word 65536 (the engine divides by 65536).
    pub max_height_elmos: f32,
    pub water: WaterSettings,
    pub lighting: LightingSettings,
    pub atmosphere: AtmosphereSettings,
    /// Indexed by the type-map byte.
    pub terrain_types: BTreeMap<u8, TerrainType>,
    /// `mapinfo.custom`: game-specific tables such as `grassConfig`.
    pub custom: LuaTable,
    /// Top-level keys we do not model, kept so they survive a round trip.
    pub extra: LuaTable,
    /// Where the compiled map carries its features (not a `mapinfo.lua` key).
    pub feature_placement: FeaturePlacement,
}

/// Where the map's features go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FeaturePlacement {
    /// The `.smf` feature block (the engine places them).
    #[default]
    Smf,
    /// BAR's feature placer (`mapconfig/featureplacer/set.lua` and a LuaGaia gadget).
    FeaturePlacer,
}

impl FeaturePlacement {
    /// The word `map.toml` uses.
    pub fn word(self) -> &'static str {
        match self {
            FeaturePlacement::Smf => "smf",
            FeaturePlacement::FeaturePlacer => "featureplacer",
        }
    }

    pub fn parse(s: &str) -> Result<FeaturePlacement, String> {
        match s {
            "smf" => Ok(FeaturePlacement::Smf),
            "featureplacer" => Ok(FeaturePlacement::FeaturePlacer),
            other => Err(format!(
                "feature_placement = \"{other}\" is not smf or featureplacer"
            )),
        }
    }
}

/// The engine's default `maxMetal`: a map that keeps it has essentially no metal.
pub const ENGINE_DEFAULT_MAX_METAL: f32 = 0.02;
/// The engine's default `extractorRadius`, far too large for a real map.
pub const ENGINE_DEFAULT_EXTRACTOR_RADIUS: f32 = 500.0;

impl Default for MapSettings {
    fn default() -> MapSettings {
        let mut terrain_types = BTreeMap::new();
        terrain_types.insert(0, TerrainType::named("Default"));
        MapSettings {
            name: "Untitled".into(),
            shortname: String::new(),
            description: String::new(),
            author: String::new(),
            version: "1.0".into(),
            map_hardness: 100.0,
            extractor_radius_elmos: 80.0,
            max_metal: 2.0,
            gravity: 130.0,
            tidal_strength: 0.0,
            void_water: false,
            min_height_elmos: -100.0,
            max_height_elmos: 400.0,
            water: WaterSettings::default(),
            lighting: LightingSettings::default(),
            atmosphere: AtmosphereSettings::default(),
            terrain_types,
            custom: LuaTable::new(),
            extra: LuaTable::new(),
            feature_placement: FeaturePlacement::Smf,
        }
    }
}

impl MapSettings {
    /// `shortname`, or `name` when it is empty.
    pub fn effective_shortname(&self) -> &str {
        if self.shortname.is_empty() {
            &self.name
        } else {
            &self.shortname
        }
    }

    /// The name the engine lists the map under: `name` and `version`, as unitsync joins them.
    pub fn versioned_name(&self) -> String {
        if self.version.is_empty() || self.name.ends_with(&self.version) {
            self.name.clone()
        } else {
            format!("{} {}", self.name, self.version)
        }
    }

    /// A file-system-safe base name for the `.smf`/`.smt`/archive (letters, digits, `_`, `-`, `.`).
    pub fn file_stem(&self) -> String {
        let mut s: String = self
            .versioned_name()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        s = s.trim_matches(['_', '.']).to_string();
        if s.is_empty() { "map".into() } else { s }
    }

    /// Settings that make a map unplayable or fail to load, in words a mapmaker understands.
    pub fn playability_warnings(&self, team_count: usize) -> Vec<String> {
        let mut w = Vec::new();
        if self.max_metal <= ENGINE_DEFAULT_MAX_METAL {
            w.push(format!(
                "maxMetal is {} (the engine default 0.02 gives no usable metal; BAR maps use about 0.9 to 4)",
                self.max_metal
            ));
        }
        if self.extractor_radius_elmos >= ENGINE_DEFAULT_EXTRACTOR_RADIUS {
            w.push(format!(
                "extractorRadius is {} elmos (the engine default 500 makes one extractor cover a huge area; BAR uses about 80 to 100)",
                self.extractor_radius_elmos
            ));
        }
        if team_count == 0 {
            w.push("no start positions: games with fixed starts abort at load".into());
        }
        if self.max_height_elmos <= self.min_height_elmos {
            w.push(format!(
                "max height {} is not above min height {}",
                self.max_height_elmos, self.min_height_elmos
            ));
        }
        if self.name.trim().is_empty() {
            w.push("the map has no name".into());
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_and_misshapen_keys_survive_in_extra() {
        let mut t = LuaTable::new();
        t.insert("FresnelMin", LuaValue::Number(0.3));
        t.insert("blurBase", LuaValue::Number(2.1));
        t.insert("surfaceColor", LuaValue::numbers(&[1.0, 2.0]));
        let w = WaterSettings::from_lua(&t);
        assert_eq!(w.fresnel_min, Some(0.3));
        assert_eq!(w.blur_base, Some(2.1));
        assert_eq!(w.surface_color, None);
        assert!(w.extra.get("surfaceColor").is_some());
        let back = w.to_lua();
        assert_eq!(back.get("fresnelmin"), Some(&LuaValue::Number(0.3)));
    }

    #[test]
    fn sun_dir_gets_w_of_one() {
        let l = LightingSettings::from_lua(&{
            let mut t = LuaTable::new();
            t.insert("sunDir", LuaValue::numbers(&[0.8, 1.0, -0.7]));
            t
        });
        assert_eq!(l.sun_dir, Some([0.8, 1.0, -0.7, 1.0]));
    }

    #[test]
    fn warns_about_engine_defaults() {
        let s = MapSettings {
            max_metal: 0.02,
            extractor_radius_elmos: 500.0,
            ..MapSettings::default()
        };
        assert_eq!(s.playability_warnings(0).len(), 3);
        assert!(MapSettings::default().playability_warnings(2).is_empty());
    }
}
