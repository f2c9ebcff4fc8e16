//! Grass as BAR's grass widget (`map_grass_gl4`) grows it: its configuration from
//! `mapinfo.custom.grassConfig` (keys matched case-blind, the widget's defaults when absent),
//! and what a grass byte means. The editor's grass view and settings section read and write it.

use super::{LuaTable, LuaValue, MapSettings};

/// The widget's defaults.
const DEFAULT_MIN_SIZE: f32 = 0.3;
const DEFAULT_MAX_SIZE: f32 = 1.7;
const DEFAULT_FADE_START_ELMOS: f32 = 5000.0;
const DEFAULT_FADE_END_ELMOS: f32 = 8000.0;
/// How the widget colours blades toward the ground under them.
const MAP_COLOR_FACTOR: f32 = 0.6;
const MAP_COLOR_BASE: f32 = 1.0;
/// One patch per grass cell, jittered by up to this share of the cell each way.
pub const PATCH_JITTER: f32 = 1.0 / 1.5;
/// Elmos a grass cell covers.
pub const GRASS_CELL_ELMOS: f32 = 32.0;

/// The grass configuration a map gives BAR.
#[derive(Clone, Debug, PartialEq)]
pub struct GrassConfig {
    /// Patch size for byte 1 .. byte 254.
    pub min_size: f32,
    pub max_size: f32,
    /// `grassBladeColorTex`: a file in the map's archive, or BAR's own when `None`.
    pub blade_texture: Option<String>,
    /// Grass fades out between these camera distances.
    pub fade_start_elmos: f32,
    pub fade_end_elmos: f32,
    /// `MAPCOLORFACTOR`: how far blades are tinted (multiplied) by the ground colour.
    pub map_colour_factor: f32,
    /// `MAPCOLORBASE`: how far the blades' roots take on the ground colour.
    pub map_colour_base: f32,
}

impl Default for GrassConfig {
    fn default() -> GrassConfig {
        GrassConfig {
            min_size: DEFAULT_MIN_SIZE,
            max_size: DEFAULT_MAX_SIZE,
            blade_texture: None,
            fade_start_elmos: DEFAULT_FADE_START_ELMOS,
            fade_end_elmos: DEFAULT_FADE_END_ELMOS,
            map_colour_factor: MAP_COLOR_FACTOR,
            map_colour_base: MAP_COLOR_BASE,
        }
    }
}

fn number(t: &LuaTable, key: &str) -> Option<f32> {
    t.get_number(key)
        .map(|v| v as f32)
        .filter(|v| v.is_finite())
}

impl GrassConfig {
    /// The configuration the widget would use for a map with these settings.
    pub fn from_settings(s: &MapSettings) -> GrassConfig {
        let mut c = GrassConfig::default();
        let Some(t) = s.custom.get_table("grassConfig") else {
            return c;
        };
        c.min_size = number(t, "grassMinSize").unwrap_or(c.min_size);
        c.max_size = number(t, "grassMaxSize").unwrap_or(c.max_size);
        c.blade_texture = t
            .get("grassBladeColorTex")
            .and_then(LuaValue::as_str)
            .map(str::to_string);
        if let Some(p) = t.get_table("grassShaderParams") {
            c.fade_start_elmos = number(p, "FADESTART").unwrap_or(c.fade_start_elmos);
            c.fade_end_elmos = number(p, "FADEEND").unwrap_or(c.fade_end_elmos);
            c.map_colour_factor = number(p, "MAPCOLORFACTOR").unwrap_or(c.map_colour_factor);
            c.map_colour_base = number(p, "MAPCOLORBASE").unwrap_or(c.map_colour_base);
        }
        c
    }

    /// Writes the configuration into `custom.grassConfig`, keeping the table's other keys
    /// (a key already there in another case is replaced, not doubled).
    pub fn write_to(&self, s: &mut MapSettings) {
        let set = |t: &mut LuaTable, key: &str, v: LuaValue| {
            t.remove(key);
            t.insert(key, v);
        };
        let num = |v: f32| LuaValue::Number(v as f64);
        let mut t = s
            .custom
            .get_table("grassConfig")
            .cloned()
            .unwrap_or_default();
        set(&mut t, "grassMinSize", num(self.min_size));
        set(&mut t, "grassMaxSize", num(self.max_size));
        t.remove("grassBladeColorTex");
        if let Some(name) = &self.blade_texture {
            t.insert("grassBladeColorTex", LuaValue::String(name.clone()));
        }
        let mut p = t
            .get_table("grassShaderParams")
            .cloned()
            .unwrap_or_default();
        set(&mut p, "FADESTART", num(self.fade_start_elmos));
        set(&mut p, "FADEEND", num(self.fade_end_elmos));
        set(&mut p, "MAPCOLORFACTOR", num(self.map_colour_factor));
        set(&mut p, "MAPCOLORBASE", num(self.map_colour_base));
        set(&mut t, "grassShaderParams", LuaValue::Table(p));
        // replace whatever case the key had
        set(&mut s.custom, "grassConfig", LuaValue::Table(t));
    }
}

/// The patch sizes of bytes 0+ and 254 on a map.
pub fn size_range(s: &MapSettings) -> (f32, f32) {
    let c = GrassConfig::from_settings(s);
    (c.min_size, c.max_size)
}

/// What BAR does with a grass map whose highest byte is `max` (None when all is well).
pub fn grass_map_warning(max: u8) -> Option<String> {
    match max {
        1 => Some(
            "the grass map's highest byte is 1: BAR reads that as the old yes/no grass and gives every patch a random size"
                .into(),
        ),
        255 => Some("the grass map holds 255, which BAR reads as \"this map has no grass\"".into()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_round_trips_through_custom_and_reads_case_blind() {
        let mut s = MapSettings::default();
        assert_eq!(GrassConfig::from_settings(&s), GrassConfig::default());
        let mut t = LuaTable::new();
        t.insert("grassminsize", LuaValue::Number(0.8));
        t.insert("GRASSMAXSIZE", LuaValue::Number(2.0));
        t.insert("patchResolution", LuaValue::Number(32.0));
        s.custom.insert("grassconfig", LuaValue::Table(t));
        let c = GrassConfig::from_settings(&s);
        assert_eq!((c.min_size, c.max_size), (0.8, 2.0));
        let mut c2 = c.clone();
        c2.min_size = 0.5;
        c2.blade_texture = Some("maps/grass.dds".into());
        c2.fade_end_elmos = 9000.0;
        c2.write_to(&mut s);
        assert_eq!(GrassConfig::from_settings(&s), c2);
        // the widget's other keys stay
        let t = s.custom.get_table("grassConfig").unwrap();
        assert_eq!(t.get_number("patchResolution"), Some(32.0));
        assert!(grass_map_warning(1).is_some() && grass_map_warning(200).is_none());
    }
}
