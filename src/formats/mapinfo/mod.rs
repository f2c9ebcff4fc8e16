//! `mapinfo.lua`: the map's declaration. Written in BAR's full layout with the standard tail
//! that merges `mapconfig/mapinfo/*.lua`; read back through sandboxed Lua 5.1.

/// The body of the engine's `lowerkeys(t)` in Lua (every string key lowercased, at every
/// depth), written once: the sandbox defines it for the scripts it runs, and every
/// `mapinfo.lua` we write carries it in its standard tail.
macro_rules! lowerkeys_lua {
    () => {
        r#"(t)
	local renames = {}
	for k, v in pairs(t) do
		if type(v) == "table" then lowerkeys(v) end
		if type(k) == "string" and k ~= k:lower() then renames[#renames + 1] = k end
	end
	for _, k in ipairs(renames) do
		t[k:lower()] = t[k]
		t[k] = nil
	end
	return t
end
"#
    };
}
use lowerkeys_lua;

mod lua;
mod write;

pub use lua::{LuaLimits, Vfs, eval_lua_table, eval_mapinfo, list_dir};
pub use write::write_mapinfo;

use std::collections::BTreeMap;

use crate::map::{
    AtmosphereSettings, LightingSettings, LuaKey, LuaTable, LuaValue, MapSettings, Team,
    TerrainType, WaterSettings,
};

/// What a `mapinfo.lua` says, split into the document's settings and the archive pointers.
#[derive(Clone, Debug, Default)]
pub struct MapInfo {
    pub settings: MapSettings,
    pub teams: Vec<Team>,
    /// `mapfile`, the `.smf`'s path in the archive, if given.
    pub map_file: Option<String>,
    /// `smf.smtFileName0..N`, overriding the `.smf`'s tile file names.
    pub smt_file_names: Vec<String>,
    /// `smf.minheight` / `smf.maxheight`, overriding the `.smf` header when present.
    pub min_height_override: Option<f32>,
    pub max_height_override: Option<f32>,
    pub warnings: Vec<String>,
}

/// Keys we write ourselves on every compile, so they are not kept as unknown keys.
const REGENERATED_KEYS: &[&str] = &["mapfile", "modtype", "depend", "replace"];

/// Splits an evaluated `mapinfo` table (keys lowercased) into settings and pointers.
pub fn mapinfo_from_table(table: &LuaTable) -> MapInfo {
    let mut rest = table.clone();
    let mut info = MapInfo::default();
    let s = &mut info.settings;
    let mut take_str = |key: &str, into: &mut String| {
        if let Some(v) = rest.remove(key) {
            match v {
                LuaValue::String(t) => *into = t,
                LuaValue::Number(n) => *into = crate::map::lua_value::number_text(n),
                other => rest.insert(key, other),
            }
        }
    };
    take_str("name", &mut s.name);
    take_str("shortname", &mut s.shortname);
    take_str("description", &mut s.description);
    take_str("author", &mut s.author);
    take_str("version", &mut s.version);
    if rest.get("version").is_none() && table.get("version").is_none() {
        s.version = String::new();
    }
    let mut take_num = |key: &str, default: f32| -> f32 {
        match rest.remove(key) {
            Some(v) => match v.as_number() {
                Some(n) => n as f32,
                None => {
                    rest.insert(key, v);
                    default
                }
            },
            None => default,
        }
    };
    // an absent key means the engine default, which is what the engine will use
    s.map_hardness = take_num("maphardness", 100.0);
    s.extractor_radius_elmos = take_num("extractorradius", 500.0);
    s.max_metal = take_num("maxmetal", 0.02);
    s.gravity = take_num("gravity", 130.0);
    s.tidal_strength = take_num("tidalstrength", 0.0);
    if let Some(v) = rest.remove("voidwater") {
        s.void_water = v.as_bool().unwrap_or(false);
    }
    if let Some(LuaValue::String(f)) = rest.remove("mapfile") {
        info.map_file = Some(f);
    }
    for k in REGENERATED_KEYS {
        rest.remove(k);
    }
    if let Some(LuaValue::Table(mut smf)) = rest.remove("smf") {
        info.min_height_override = smf
            .remove("minheight")
            .and_then(|v| v.as_number())
            .map(|n| n as f32);
        info.max_height_override = smf
            .remove("maxheight")
            .and_then(|v| v.as_number())
            .map(|n| n as f32);
        for i in 0.. {
            match smf.remove(&format!("smtfilename{i}")) {
                Some(LuaValue::String(name)) => info.smt_file_names.push(name),
                _ => break,
            }
        }
        if !smf.is_empty() {
            rest.insert("smf", LuaValue::Table(smf));
        }
    }
    if let Some(LuaValue::Table(t)) = rest.remove("water") {
        s.water = WaterSettings::from_lua(&t);
    }
    if let Some(LuaValue::Table(t)) = rest.remove("lighting") {
        s.lighting = LightingSettings::from_lua(&t);
    }
    if let Some(LuaValue::Table(t)) = rest.remove("atmosphere") {
        s.atmosphere = AtmosphereSettings::from_lua(&t);
    }
    if let Some(LuaValue::Table(t)) = rest.remove("custom") {
        s.custom = t;
    }
    if let Some(LuaValue::Table(teams)) = rest.remove("teams") {
        let mut by_index: BTreeMap<i64, Team> = BTreeMap::new();
        for (k, v) in teams.iter() {
            let LuaKey::Int(i) = k else { continue };
            let start = v.as_table().and_then(|t| t.get_table("startpos"));
            match start.and_then(|p| Some((p.get_number("x")?, p.get_number("z")?))) {
                Some((x, z)) => {
                    by_index.insert(
                        *i,
                        Team {
                            start_x_elmos: x as f32,
                            start_z_elmos: z as f32,
                        },
                    );
                }
                None => info
                    .warnings
                    .push(format!("team {i} has no startPos with x and z")),
            }
        }
        if let Some((&first, _)) = by_index.iter().next()
            && first != 0
        {
            info.warnings
                .push(format!("teams start at index {first}, not 0"));
        }
        info.teams = by_index.into_values().collect();
    }
    if let Some(LuaValue::Table(types)) = rest.remove("terraintypes") {
        s.terrain_types.clear();
        for (k, v) in types.iter() {
            match (k, v) {
                (LuaKey::Int(i), LuaValue::Table(t)) if (0..=255).contains(i) => {
                    s.terrain_types.insert(*i as u8, TerrainType::from_lua(t));
                }
                _ => info.warnings.push(format!(
                    "terrainTypes has an entry {k:?} outside 0..255, dropped"
                )),
            }
        }
    }
    s.extra = rest;
    info
}

/// The `mapinfo` table for a map whose `.smf` and `.smt` files sit at the given archive paths.
pub fn mapinfo_table(
    settings: &MapSettings,
    teams: &[Team],
    smf_path: &str,
    smt_paths: &[String],
) -> LuaTable {
    use crate::map::settings::LuaField;
    let mut t = LuaTable::new();
    let s = settings;
    let string = |v: &str| LuaValue::String(v.to_string());
    t.insert("name", string(&s.name));
    t.insert("shortname", string(s.effective_shortname()));
    t.insert("description", string(&s.description));
    t.insert("author", string(&s.author));
    t.insert("version", string(&s.version));
    t.insert("mapfile", string(smf_path));
    t.insert("modtype", LuaValue::Number(3.0));
    t.insert(
        "depend",
        LuaValue::Table(LuaTable::sequence([string("Map Helper v1")])),
    );
    t.insert("replace", LuaValue::Table(LuaTable::new()));
    t.insert("maphardness", s.map_hardness.to_lua());
    t.insert("gravity", s.gravity.to_lua());
    t.insert("tidalStrength", s.tidal_strength.to_lua());
    t.insert("maxMetal", s.max_metal.to_lua());
    t.insert("extractorRadius", s.extractor_radius_elmos.to_lua());
    t.insert("voidWater", LuaValue::Bool(s.void_water));
    for (k, v) in s.extra.iter() {
        if !matches!(k, LuaKey::Str(name) if name.eq_ignore_ascii_case("smf")) {
            t.insert(k.clone(), v.clone());
        }
    }
    let mut smf = LuaTable::new();
    smf.insert("minheight", s.min_height_elmos.to_lua());
    smf.insert("maxheight", s.max_height_elmos.to_lua());
    if let Some(LuaValue::Table(extra_smf)) = s.extra.get("smf") {
        for (k, v) in extra_smf.iter() {
            smf.insert(k.clone(), v.clone());
        }
    }
    // after the kept keys: a stray smtFileNameN of an opened map never names the wrong file
    for (i, p) in smt_paths.iter().enumerate() {
        smf.insert(format!("smtFileName{i}").as_str(), string(p));
    }
    t.insert("smf", LuaValue::Table(smf));
    // the engine's wind defaults, written out: unitsync (and so BAR's lobby) reads 0..0 without
    let mut atmosphere = s.atmosphere.clone();
    atmosphere.min_wind = Some(s.atmosphere.min_wind_or_default());
    atmosphere.max_wind = Some(s.atmosphere.max_wind_or_default());
    t.insert("atmosphere", LuaValue::Table(atmosphere.to_lua()));
    // BAR reads `lighting` without a nil check: always write it, defaults filled in
    let mut lighting = s.lighting.clone();
    lighting.sun_dir.get_or_insert([0.0, 1.0, 2.0, 1.0]);
    lighting
        .ground_ambient_color
        .get_or_insert(lighting.ground_ambient_or_default());
    lighting
        .ground_diffuse_color
        .get_or_insert(lighting.ground_diffuse_or_default());
    lighting
        .ground_specular_color
        .get_or_insert(lighting.ground_specular_or_default());
    t.insert("lighting", LuaValue::Table(lighting.to_lua()));
    let mut water = s.water.clone();
    if s.void_water {
        // void water wants no plane colour
        water.plane_color = None;
    }
    t.insert("water", LuaValue::Table(water.to_lua()));
    let mut team_table = LuaTable::new();
    for (i, team) in teams.iter().enumerate() {
        let mut pos = LuaTable::new();
        pos.insert("x", team.start_x_elmos.to_lua());
        pos.insert("z", team.start_z_elmos.to_lua());
        let mut entry = LuaTable::new();
        entry.insert("startPos", LuaValue::Table(pos));
        team_table.insert(i as i64, LuaValue::Table(entry));
    }
    t.insert("teams", LuaValue::Table(team_table));
    let mut types = LuaTable::new();
    for (i, tt) in &s.terrain_types {
        types.insert(*i as i64, LuaValue::Table(tt.to_lua()));
    }
    t.insert("terrainTypes", LuaValue::Table(types));
    t.insert("custom", LuaValue::Table(s.custom.clone()));
    t
}

#[cfg(test)]
mod tests;
