//! Move classes as the engine reads them (`MoveDefHandler.cpp`): kind (tank, bot, hover, ship,
//! from `speedModClass` or the name), `maxSlope` in the def's degrees turned into
//! `1 - cos(clamp(deg, 0, 60) * 1.5 deg)`, water depths, `slopeMod` (default
//! `4 / (maxSlope + 0.001)`), `depthModParams`. BAR's table is built in (true degrees: BAR's
//! `movedefs.lua` divides them by 1.5 before the engine sees them); when BAR is installed its
//! `gamedata/movedefs.lua` is read through the Lua sandbox instead.

use std::path::Path;

use serde::Serialize;

use crate::formats::mapinfo::{LuaLimits, Vfs, eval_lua_table};
use crate::map::{LuaTable, LuaValue};

/// How a class moves, the engine's `speedModClass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveKind {
    Tank,
    Bot,
    Hover,
    Ship,
}

/// The engine's `depthModParams`: how water slows a ground unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthMod {
    pub min_height: f32,
    pub max_height: f32,
    pub max_scale: f32,
    pub quadratic: f32,
    pub linear: f32,
    pub constant: f32,
}

impl Default for DepthMod {
    fn default() -> DepthMod {
        DepthMod {
            min_height: 0.0,
            max_height: f32::MAX,
            max_scale: f32::MAX,
            quadratic: 0.0,
            linear: 0.1,
            constant: 1.0,
        }
    }
}

/// One move class.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveClass {
    pub name: String,
    pub kind: MoveKind,
    /// The steepest ground it climbs, in true degrees (the def's degrees x 1.5, at most 90).
    pub max_slope_deg: f32,
    /// Ground units: blocked where the water is deeper than this (elmos).
    pub max_water_depth: f32,
    /// Ships: blocked where the water is shallower than this (elmos).
    pub min_water_depth: f32,
    pub footprint: u32,
    pub slope_mod: f32,
    pub depth_mod: DepthMod,
}

impl MoveClass {
    /// The engine's `maxSlope`: 1 - cos of the true degrees (the def's, clamped to 0..60,
    /// times 1.5).
    pub fn max_slope(&self) -> f32 {
        1.0 - self.max_slope_deg.clamp(0.0, 90.0).to_radians().cos()
    }

    /// Tanks and bots: the classes that walk or drive on the ground.
    pub fn is_land(&self) -> bool {
        matches!(self.kind, MoveKind::Tank | MoveKind::Bot)
    }

    /// Climbs anything (BAR's all-terrain spiders and epics): says nothing about a map.
    pub fn is_all_terrain(&self) -> bool {
        self.max_slope_deg >= 89.9
    }

    /// `MoveDef::GetDepthMod`: the speed factor water of `height` (negative under water)
    /// gives a ground unit.
    pub fn depth_factor(&self, height: f32) -> f32 {
        let p = &self.depth_mod;
        if height > -p.min_height {
            return 1.0;
        }
        if height < -p.max_height {
            return 0.0;
        }
        let depth = -height;
        let scale =
            (p.quadratic * depth * depth + p.linear * depth + p.constant).clamp(0.01, p.max_scale);
        1.0 / scale
    }

    /// Reads one entry of a `movedefs.lua` list as the engine does (keys any case).
    pub fn from_def(t: &LuaTable) -> Option<MoveClass> {
        let name = t.get("name")?.as_str()?.to_string();
        let num = |k: &str| t.get_number(k).map(|v| v as f32);
        let lower = name.to_ascii_lowercase();
        let kind = match t.get_number("speedModClass") {
            Some(c) => match (c as i64).clamp(0, 3) {
                0 => MoveKind::Tank,
                1 => MoveKind::Bot,
                2 => MoveKind::Hover,
                _ => MoveKind::Ship,
            },
            None if lower.contains("boat") || lower.contains("ship") => MoveKind::Ship,
            None if lower.contains("hover") => MoveKind::Hover,
            None if lower.contains("tank") => MoveKind::Tank,
            None => MoveKind::Bot,
        };
        let default_deg = if kind == MoveKind::Hover { 15.0 } else { 60.0 };
        let def_deg = num("maxSlope").unwrap_or(default_deg).clamp(0.0, 60.0);
        let max_slope_deg = def_deg * 1.5;
        let mut depth_mod = DepthMod::default();
        if matches!(kind, MoveKind::Tank | MoveKind::Bot) {
            let d = t.get_table("depthModParams");
            let dn = |k: &str| d.and_then(|d| d.get_number(k)).map(|v| v as f32);
            depth_mod = DepthMod {
                min_height: dn("minHeight").unwrap_or(0.0).max(0.0),
                max_height: dn("maxHeight").unwrap_or(f32::MAX),
                max_scale: dn("maxScale").unwrap_or(f32::MAX).max(0.01),
                quadratic: dn("quadraticCoeff").unwrap_or(0.0).max(0.0),
                linear: dn("linearCoeff")
                    .or(num("depthMod"))
                    .unwrap_or(0.1)
                    .max(0.0),
                constant: dn("constantCoeff").unwrap_or(1.0).max(0.0),
            };
            depth_mod.max_height = depth_mod.max_height.max(depth_mod.min_height);
        }
        let max_slope = 1.0 - (def_deg * 1.5).to_radians().cos();
        Some(MoveClass {
            kind,
            max_slope_deg,
            max_water_depth: num("maxWaterDepth").unwrap_or(1e6),
            min_water_depth: num("minWaterDepth").unwrap_or(-1e6),
            footprint: num("footprintX").unwrap_or(1.0).max(1.0) as u32,
            slope_mod: num("slopeMod").unwrap_or(4.0 / (max_slope + 0.001)),
            depth_mod,
            name,
        })
    }
}

/// The classes in use and where they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveClassTable {
    pub classes: Vec<MoveClass>,
    /// "built-in (BAR 2026)" or the movedefs file read.
    pub source: String,
}

/// BAR's land water slowdown: `depthModParams = {minHeight = 4, linearCoeff = 0.03}`.
const BAR_LAND_DEPTH_MOD: DepthMod = DepthMod {
    min_height: 4.0,
    max_height: f32::MAX,
    max_scale: f32::MAX,
    quadratic: 0.0,
    linear: 0.03,
    constant: 1.0,
};

/// No water slowdown (`depthmod = 0`).
const NO_DEPTH_MOD: DepthMod = DepthMod {
    min_height: 0.0,
    max_height: f32::MAX,
    max_scale: f32::MAX,
    quadratic: 0.0,
    linear: 0.0,
    constant: 1.0,
};

/// BAR's move classes (TOOL-FACTS, "Pathability as the engine computes it"): name, kind,
/// true degrees, max water depth, min water depth, footprint, slopeMod, depth mod.
pub fn bar_classes() -> Vec<MoveClass> {
    use MoveKind::*;
    let c =
        |name: &str, kind, deg: f32, max_d: f32, min_d: f32, fp, slope_mod: f32, dm| MoveClass {
            name: name.into(),
            kind,
            max_slope_deg: deg,
            max_water_depth: max_d,
            min_water_depth: min_d,
            footprint: fp,
            slope_mod,
            depth_mod: dm,
        };
    let land = BAR_LAND_DEPTH_MOD;
    let none = NO_DEPTH_MOD;
    let open = -1e6;
    let deep = 1e6;
    vec![
        c("TANK2", Tank, 27.0, 22.0, open, 2, 18.0, land),
        c("TANK3", Tank, 27.0, 22.0, open, 3, 18.0, land),
        c("MTANK3", Tank, 27.0, 22.0, open, 3, 25.0, land),
        c("HTANK4", Tank, 27.0, 22.0, open, 4, 36.0, land),
        c("HTANK5", Tank, 33.0, 24.0, open, 5, 42.0, land),
        c("ATANK3", Tank, 54.0, 5000.0, open, 3, 18.0, none),
        c("BOT1", Bot, 54.0, 5.0, open, 2, 4.0, land),
        c("BOT3", Bot, 54.0, 22.0, open, 2, 4.0, land),
        c("BOT4", Bot, 54.0, 22.0, open, 3, 4.0, land),
        c("HBOT4", Bot, 54.0, 26.0, open, 4, 4.0, land),
        c("HBOT5", Bot, 54.0, 30.0, open, 5, 4.0, land),
        c("ABOT2", Bot, 54.0, 5000.0, open, 2, 4.0, none),
        c("HOVER2", Hover, 33.0, deep, open, 2, 25.0, none),
        c("HOVER3", Hover, 33.0, deep, open, 3, 25.0, none),
        c("HOVER5", Hover, 54.0, deep, open, 2, 18.0, none),
        c("BOAT3", Ship, 90.0, deep, 8.0, 3, 0.0, none),
        c("BOAT4", Ship, 90.0, deep, 8.0, 4, 0.0, none),
        c("BOAT5", Ship, 90.0, deep, 10.0, 5, 0.0, none),
        c("BOAT8", Ship, 90.0, deep, 15.0, 8, 0.0, none),
        c("UBOAT4", Ship, 90.0, deep, 15.0, 4, 0.0, none),
        c("EPICALLTERRAIN", Bot, 90.0, 9999.0, open, 5, 4.0, none),
    ]
}

/// A movedefs file sees no other files.
struct NoFiles;

impl Vfs for NoFiles {
    fn paths(&self) -> Vec<String> {
        Vec::new()
    }
    fn read(&self, _path: &str) -> Option<Vec<u8>> {
        None
    }
}

/// Reads a `movedefs.lua` (a list of defs, or a table of them) in the sandbox.
pub fn classes_from_movedefs(source: &[u8]) -> Result<Vec<MoveClass>, String> {
    let t = eval_lua_table(
        source,
        "gamedata/movedefs.lua",
        &NoFiles,
        LuaLimits::default(),
    )
    .map_err(|e| e.to_string())?;
    let mut out: Vec<MoveClass> = t
        .iter()
        .filter_map(|(_, v)| match v {
            LuaValue::Table(d) => MoveClass::from_def(d),
            _ => None,
        })
        .collect();
    if out.is_empty() {
        return Err("gamedata/movedefs.lua defines no move classes".into());
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// BAR's own classes when its `gamedata/movedefs.lua` is found in `data_dir` (a `games/*.sdd`
/// checkout or the newest rapid package) and reads, else the built-in table.
pub fn classes_for(data_dir: Option<&Path>) -> MoveClassTable {
    if let Some(dir) = data_dir
        && let Some(file) = crate::formats::features::game_files(dir, |p| {
            p.eq_ignore_ascii_case("gamedata/movedefs.lua")
        })
        .and_then(|f| f.into_iter().next())
        && let Ok(bytes) = file.bytes()
        && let Ok(classes) = classes_from_movedefs(&bytes)
    {
        return MoveClassTable {
            classes,
            source: format!("BAR's gamedata/movedefs.lua ({})", dir.display()),
        };
    }
    MoveClassTable {
        classes: bar_classes(),
        source: "built-in (BAR's classes, 2026)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_true_degrees_become_the_engines_max_slope() {
        let t = bar_classes();
        let tank = t.iter().find(|c| c.name == "TANK2").unwrap();
        // BAR's 27 true degrees are the def's 18: 1 - cos(18 x 1.5 deg)
        assert!((tank.max_slope() - (1.0 - 27f32.to_radians().cos())).abs() < 1e-6);
        assert!((tank.max_slope() - crate::map::bar::TANK_MAX_SLOPE).abs() < 1e-3);
        let bot = t.iter().find(|c| c.name == "BOT3").unwrap();
        assert!((bot.max_slope() - crate::map::bar::BOT_MAX_SLOPE).abs() < 1e-3);
        let all = t.iter().find(|c| c.name == "EPICALLTERRAIN").unwrap();
        assert!(all.is_all_terrain() && (all.max_slope() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_movedefs_file_is_read_as_the_engine_reads_it() {
        let src = br#"
            local defs = {
              { name = "TANK2", maxslope = 18, maxwaterdepth = 20, footprintx = 2, slopeMod = 18,
                depthModParams = { minHeight = 4, linearCoeff = 0.03 } },
              { name = "HOVER2", maxslope = 22 },
              { name = "BOAT3", minwaterdepth = 8 },
              { name = "ABOT2", maxslope = 36, depthmod = 0, maxwaterdepth = 5000 },
              { name = "SPIDER", maxslope = 200, speedModClass = 1 },
            }
            return defs"#;
        let c = classes_from_movedefs(src).unwrap();
        let by = |n: &str| c.iter().find(|m| m.name == n).unwrap();
        assert_eq!(by("TANK2").kind, MoveKind::Tank);
        assert_eq!(by("TANK2").max_slope_deg, 27.0);
        assert_eq!(by("TANK2").max_water_depth, 20.0);
        assert_eq!(by("TANK2").depth_mod.min_height, 4.0);
        assert_eq!(by("HOVER2").kind, MoveKind::Hover);
        assert_eq!(by("BOAT3").kind, MoveKind::Ship);
        assert_eq!(by("BOAT3").min_water_depth, 8.0);
        assert_eq!(by("ABOT2").kind, MoveKind::Bot);
        assert_eq!(by("ABOT2").depth_mod.linear, 0.0);
        assert_eq!(by("SPIDER").max_slope_deg, 90.0);
        // the engine's default slopeMod
        let hover = by("HOVER2");
        assert!((hover.slope_mod - 4.0 / (hover.max_slope() + 0.001)).abs() < 1e-4);
        assert!(classes_from_movedefs(b"return {}").is_err());
        assert!(classes_from_movedefs(b"return {").is_err());
    }

    #[test]
    fn water_slows_bars_land_units_past_four_elmos() {
        let bot = bar_classes()
            .into_iter()
            .find(|c| c.name == "BOT3")
            .unwrap();
        assert_eq!(bot.depth_factor(10.0), 1.0);
        assert_eq!(bot.depth_factor(-3.0), 1.0);
        assert!((bot.depth_factor(-10.0) - 1.0 / 1.3).abs() < 1e-6);
    }
}
