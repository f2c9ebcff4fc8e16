//! BAR's feature placer, the other way a map can carry its features: instead of the `.smf`
//! feature block, `mapconfig/featureplacer/set.lua` lists every feature (`{name, x, z, rot}`,
//! rot in heading units), `config.lua` includes it, and a LuaGaia gadget places each one on
//! the ground when the game starts. The gadget runs under the engine's own gadget handler
//! (`LuaGadgets/gadgets.lua` from the base content).

use crate::formats::smf::SmfFeature;
#[cfg(test)]
use crate::map::FeaturePlacement;
use crate::map::lua_value::{number_text, write_lua_value};
use crate::map::{Feature, LuaValue, Map};

/// `mapconfig/featureplacer/config.lua`.
const CONFIG_LUA: &str = "-- Written by Groundwork: the feature placer reads this file.\n\
return VFS.Include(\"mapconfig/featureplacer/set.lua\")\n";

/// `LuaGaia/main.lua` and `LuaGaia/draw.lua`: the engine's gadget handler, which runs
/// `LuaGaia/Gadgets/*.lua`.
const GAIA_MAIN_LUA: &str = "-- Written by Groundwork: run the engine's gadget handler for LuaGaia/Gadgets/.\n\
VFS.Include(\"LuaGadgets/gadgets.lua\", nil, VFS.BASE)\n";

/// `LuaGaia/Gadgets/featureplacer.lua`: places `objectlist` once, before the first frame.
const GADGET_LUA: &str = r#"-- Written by Groundwork: places the features listed in mapconfig/featureplacer/set.lua
-- (name, x, z and rot in heading units, -1 for a random heading) on the ground at game start.
function gadget:GetInfo()
  return {
    name = "Feature placer (Groundwork)",
    desc = "Places the map's features from mapconfig/featureplacer/set.lua",
    author = "Groundwork",
    date = "2026",
    license = "GPL-2.0-or-later",
    layer = 0,
    enabled = true,
  }
end

if not gadgetHandler:IsSyncedCode() then
  return false
end

local CONFIG = "mapconfig/featureplacer/config.lua"

function gadget:Initialize()
  -- placed once: a reload during the game must not place them again
  if Spring.GetGameFrame() > 0 or not VFS.FileExists(CONFIG) then
    return
  end
  local cfg = VFS.Include(CONFIG)
  local gaia = Spring.GetGaiaTeamID()
  for _, o in ipairs((cfg and cfg.objectlist) or {}) do
    local name = o.name and string.lower(o.name)
    if name and FeatureDefNames[name] then
      local rot = tonumber(o.rot) or 0
      if rot == -1 then
        rot = math.random(-32768, 32767)
      end
      Spring.CreateFeature(name, o.x, Spring.GetGroundHeight(o.x, o.z), o.z, rot, gaia)
    else
      Spring.Echo("feature placer: no feature definition named " .. tostring(o.name))
    end
  end
end
"#;

/// `set.lua` for these features.
pub fn set_lua(features: &[Feature]) -> String {
    let mut s = String::from(
        "-- Written by Groundwork: the map's features for the feature placer.\n\
-- Each object: name (a feature definition), x and z in elmos, rot in heading units\n\
-- (65536 a turn, -1 random).\n\
local setcfg = {\n\tunitlist = {},\n\tbuildinglist = {},\n\tobjectlist = {\n",
    );
    for f in features {
        let mut name = String::new();
        write_lua_value(&mut name, &LuaValue::String(f.name.clone()), 0);
        s.push_str(&format!(
            "\t\t{{ name = {name}, x = {}, z = {}, rot = {} }},\n",
            number_text(f.x_elmos as f64),
            number_text(f.z_elmos as f64),
            SmfFeature::heading_from_deg(f.rotation_deg) as i32
        ));
    }
    s.push_str("\t},\n}\nreturn setcfg\n");
    s
}

/// The files the feature placer needs for `map`'s features, by archive path.
pub fn files(map: &Map) -> Vec<(String, Vec<u8>)> {
    vec![
        (
            "mapconfig/featureplacer/config.lua".into(),
            CONFIG_LUA.as_bytes().to_vec(),
        ),
        (
            "mapconfig/featureplacer/set.lua".into(),
            set_lua(&map.features).into_bytes(),
        ),
        ("LuaGaia/main.lua".into(), GAIA_MAIN_LUA.as_bytes().to_vec()),
        ("LuaGaia/draw.lua".into(), GAIA_MAIN_LUA.as_bytes().to_vec()),
        (
            "LuaGaia/Gadgets/featureplacer.lua".into(),
            GADGET_LUA.as_bytes().to_vec(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::mapinfo::{LuaLimits, eval_lua_table};

    #[test]
    fn set_lua_reads_back_as_the_features_in_heading_units() {
        let features = vec![
            Feature {
                name: "fir_tree_small_1()tree_fir_tall_5".into(),
                x_elmos: 1004.0,
                z_elmos: 166.5,
                rotation_deg: 90.0,
            },
            Feature {
                name: "odd\"name".into(),
                x_elmos: 12.0,
                z_elmos: 13.0,
                rotation_deg: 270.0,
            },
        ];
        let text = set_lua(&features);
        let vfs = crate::formats::archive::ArchiveContents::default();
        let t = eval_lua_table(text.as_bytes(), "set.lua", &vfs, LuaLimits::default()).unwrap();
        let list = t.get("objectlist").unwrap();
        let s = format!("{list:?}");
        assert!(s.contains("fir_tree_small_1()tree_fir_tall_5"), "{s}");
        assert!(s.contains("1004") && s.contains("166.5"), "{s}");
        // 90 degrees is a quarter turn: 16384; 270 wraps to -90: -16384
        assert!(s.contains("16384") && s.contains("-16384"), "{s}");
        assert!(s.contains("odd\\\"name") || s.contains("odd\"name"), "{s}");
    }

    #[test]
    fn the_placement_word_round_trips() {
        for p in [FeaturePlacement::Smf, FeaturePlacement::FeaturePlacer] {
            assert_eq!(FeaturePlacement::parse(p.word()).unwrap(), p);
        }
        assert!(FeaturePlacement::parse("lua").is_err());
    }
}
