//! Writes `mapinfo.lua` in BAR's layout: the table, then the standard tail that lowercases the
//! keys and merges `mapconfig/mapinfo/*.lua` overrides.

use crate::map::lua_value::{push_indent, write_lua_key, write_lua_value};
use crate::map::{LuaTable, LuaValue};

/// The tail every BAR map ends with, in our own words: lowercase every key (the engine's parser
/// does too), then merge each `mapconfig/mapinfo/*.lua` (sorted) into the table.
const STANDARD_TAIL: &str = concat!(
    r#"
--------------------------------------------------------------------------------
-- Post-processing (BAR's standard tail): lower-case every key, then merge the
-- overrides in mapconfig/mapinfo/*.lua (map options, water level, ...) into it.

local function lowerkeys"#,
    super::lowerkeys_lua!(),
    r#"
lowerkeys(mapinfo)

if Spring and VFS then
	local function tmerge(into, from)
		for k, v in pairs(from) do
			if type(v) == "table" then
				if type(into[k]) ~= "table" then into[k] = {} end
				tmerge(into[k], v)
			else
				into[k] = v
			end
		end
	end
	-- unitsync has no map options
	if not Spring.GetMapOptions then
		Spring.GetMapOptions = function() return {} end
	end
	getfenv()["mapinfo"] = mapinfo
	local files = VFS.DirList("mapconfig/mapinfo/", "*.lua")
	table.sort(files)
	for i = 1, #files do
		local overrides = VFS.Include(files[i])
		if overrides then
			lowerkeys(overrides)
			tmerge(mapinfo, overrides)
		end
	end
	getfenv()["mapinfo"] = nil
end

return mapinfo
"#
);

/// The whole `mapinfo.lua` for a table from [`super::mapinfo_table`].
pub fn write_mapinfo(table: &LuaTable) -> String {
    let mut s = String::with_capacity(8192);
    s.push_str(
        "--------------------------------------------------------------------------------\n",
    );
    s.push_str("-- mapinfo.lua, written by Groundwork. Keys are case-insensitive to the engine.\n");
    s.push_str(
        "--------------------------------------------------------------------------------\n\n",
    );
    s.push_str("local mapinfo = {\n");
    for (k, v) in table.iter() {
        push_indent(&mut s, 1);
        write_lua_key(&mut s, k);
        write_lua_value(&mut s, v, 1);
        s.push_str(",\n");
        if matches!(v, LuaValue::Table(t) if !t.is_empty()) {
            s.push('\n');
        }
    }
    s.push_str("}\n");
    s.push_str(STANDARD_TAIL);
    s
}
