//! Runs a map's `mapinfo.lua` the way the engine does, but sandboxed: Lua 5.1, no `os`, `io`,
//! `require` or file loading, binary chunks refused, and limits on instructions and memory.
//! Supplies what the engine supplies: `VFS.Include`/`DirList`/`LoadFile`/`FileExists` over the
//! archive, `Spring.GetMapOptions`, `Spring.Echo`, `lowerkeys` and `tmerge`.

use std::cell::Cell;
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{HookTriggers, Lua, LuaOptions, StdLib, Value, VmState};

use crate::formats::FormatError;
use crate::map::{LuaKey, LuaTable, LuaValue};

/// The files a `mapinfo.lua` may see through `VFS`: the map archive's own.
pub trait Vfs {
    /// Every file path in the archive, with `/` separators.
    fn paths(&self) -> Vec<String>;
    /// A file's bytes, the path compared case-insensitively.
    fn read(&self, path: &str) -> Option<Vec<u8>>;
}

/// Limits for untrusted Lua.
#[derive(Clone, Copy, Debug)]
pub struct LuaLimits {
    /// Lua VM instructions before the script is stopped.
    pub max_instructions: u64,
    /// Bytes of Lua heap.
    pub max_memory_bytes: usize,
}

impl Default for LuaLimits {
    fn default() -> LuaLimits {
        LuaLimits {
            max_instructions: 50_000_000,
            max_memory_bytes: 64 << 20,
        }
    }
}

/// How deep a returned table may nest, and how many entries it may hold in all.
const MAX_TABLE_DEPTH: usize = 32;
const MAX_TABLE_ENTRIES: usize = 1_000_000;
const INSTRUCTIONS_PER_HOOK: u32 = 10_000;

/// What the script is allowed to see beyond the safe standard libraries; written in Lua so the
/// environment rules (`VFS.Include` runs in the caller's environment) match the engine's.
const PRELUDE: &str = concat!(
    r#"
local load_text, list_dir = __gw_load_text, __gw_list_dir
__gw_load_text, __gw_list_dir = nil, nil
dofile, loadfile, require, module, collectgarbage, gcinfo, newproxy = nil, nil, nil, nil, nil, nil, nil
print = function() end

local function include(path, env)
	local src, err = load_text(path)
	if not src then error("VFS.Include: " .. tostring(err), 2) end
	local chunk, cerr = loadstring(src, "@" .. path)
	if not chunk then error(cerr, 2) end
	if env == nil then
		-- the caller's environment; `return VFS.Include(...)` is a tail call whose caller is
		-- gone, and then the globals (getfenv: 1 is pcall, 2 this function, 3 its caller)
		local ok, caller = pcall(getfenv, 3)
		env = ok and caller or _G
	end
	setfenv(chunk, env)
	return chunk()
end

VFS = {
	RAW = "r", ZIP = "M", MOD = "M", MAP = "m", BASE = "b",
	RAW_FIRST = "rM", ZIP_FIRST = "Mr", RAW_ONLY = "r", ZIP_ONLY = "M",
	Include = include,
	DirList = function(dir, pattern) return list_dir(dir or "", pattern or "*") end,
	LoadFile = function(path) return (load_text(path)) end,
	FileExists = function(path) return load_text(path) ~= nil end,
}

Spring = {
	GetMapOptions = function() return {} end,
	GetModOptions = function() return {} end,
	Echo = function() end,
	Log = function() end,
}

function lowerkeys"#,
    super::lowerkeys_lua!(),
    r#"
function tmerge(into, from)
	for k, v in pairs(from) do
		if type(v) == "table" then
			if type(into[k]) ~= "table" then into[k] = {} end
			tmerge(into[k], v)
		else
			into[k] = v
		end
	end
	return into
end
"#
);

/// Evaluates `source` (a `mapinfo.lua`) and returns the table it returns, every key
/// lowercased as the engine's parser does.
pub fn eval_mapinfo(
    source: &[u8],
    vfs: &dyn Vfs,
    limits: LuaLimits,
) -> Result<LuaTable, FormatError> {
    eval_lua_table(source, "mapinfo.lua", vfs, limits).map(|t| t.lowercased_keys())
}

/// Evaluates `source`, the archive's file `what` (a `mapinfo.lua`, a `features/*.lua`), in the
/// same sandbox and returns the table it returns, keys as the script wrote them.
pub fn eval_lua_table(
    source: &[u8],
    what: &str,
    vfs: &dyn Vfs,
    limits: LuaLimits,
) -> Result<LuaTable, FormatError> {
    let err = |detail: String| FormatError::invalid(what, detail);
    if source.first() == Some(&0x1b) {
        return Err(err("precompiled Lua bytecode is not accepted".into()));
    }
    let lua = Lua::new_with(
        StdLib::TABLE | StdLib::STRING | StdLib::MATH,
        LuaOptions::default(),
    )
    .map_err(|e| err(format!("cannot start Lua: {e}")))?;
    lua.set_memory_limit(limits.max_memory_bytes)
        .map_err(|e| err(format!("cannot limit Lua memory: {e}")))?;
    let budget = limits.max_instructions;
    let used = Rc::new(Cell::new(0u64));
    let counter = used.clone();
    lua.set_hook(
        HookTriggers::new().every_nth_instruction(INSTRUCTIONS_PER_HOOK),
        move |_, _| {
            counter.set(counter.get() + INSTRUCTIONS_PER_HOOK as u64);
            if counter.get() > budget {
                Err(mlua::Error::RuntimeError(format!(
                    "stopped after {budget} instructions (an endless loop?)"
                )))
            } else {
                Ok(VmState::Continue)
            }
        },
    )
    .map_err(|e| err(format!("cannot limit Lua instructions: {e}")))?;

    let result = lua.scope(|scope| {
        let globals = lua.globals();
        globals.set(
            "__gw_load_text",
            scope.create_function(|lua, path: String| match vfs.read(&path) {
                Some(bytes) if bytes.first() == Some(&0x1b) => Ok((
                    Value::Nil,
                    Value::String(lua.create_string("precompiled Lua bytecode is not accepted")?),
                )),
                Some(bytes) => Ok((Value::String(lua.create_string(&bytes)?), Value::Nil)),
                None => Ok((
                    Value::Nil,
                    Value::String(lua.create_string(format!("file not found: {path}"))?),
                )),
            })?,
        )?;
        globals.set(
            "__gw_list_dir",
            scope.create_function(|lua, (dir, pattern): (String, String)| {
                lua.create_sequence_from(list_dir(&vfs.paths(), &dir, &pattern))
            })?,
        )?;
        lua.load(PRELUDE).set_name("=groundwork prelude").exec()?;
        let value: Value = lua
            .load(source)
            .set_name(format!("={what}"))
            .set_mode(ChunkMode::Text)
            .eval()?;
        let mut entries = 0;
        match value {
            Value::Table(t) => Ok(Ok(to_lua_table(&t, 0, &mut entries))),
            other => Ok(Err(format!("returned {}, not a table", other.type_name()))),
        }
    });
    match result {
        Ok(Ok(table)) => Ok(table),
        Ok(Err(detail)) => Err(err(detail)),
        Err(e) => Err(err(lua_error_text(&e))),
    }
}

/// One line for a Lua error: the message without the traceback.
fn lua_error_text(e: &mlua::Error) -> String {
    let text = match e {
        mlua::Error::CallbackError { cause, .. } => return lua_error_text(cause),
        mlua::Error::MemoryError(_) => "ran out of its memory allowance".to_string(),
        other => other.to_string(),
    };
    text.lines().next().unwrap_or("").trim().to_string()
}

/// The archive paths directly inside `dir` whose file names match the glob `pattern`
/// (`*` and `?`), sorted.
pub fn list_dir(paths: &[String], dir: &str, pattern: &str) -> Vec<String> {
    let dir = dir.replace('\\', "/").trim_matches('/').to_lowercase();
    let pattern = pattern.to_lowercase();
    let mut out: Vec<String> = paths
        .iter()
        .filter(|p| {
            let lower = p.to_lowercase();
            let (parent, name) = match lower.rsplit_once('/') {
                Some((a, b)) => (a.to_string(), b.to_string()),
                None => (String::new(), lower.clone()),
            };
            parent == dir && glob_match(pattern.as_bytes(), name.as_bytes())
        })
        .cloned()
        .collect();
    out.sort();
    out
}

fn glob_match(pattern: &[u8], name: &[u8]) -> bool {
    match (pattern.first(), name.first()) {
        (None, None) => true,
        (Some(b'*'), _) => {
            glob_match(&pattern[1..], name) || (!name.is_empty() && glob_match(pattern, &name[1..]))
        }
        (Some(b'?'), Some(_)) => glob_match(&pattern[1..], &name[1..]),
        (Some(p), Some(n)) if p == n => glob_match(&pattern[1..], &name[1..]),
        _ => false,
    }
}

/// Copies a Lua table into plain data; functions, userdata and cycles deeper than
/// [`MAX_TABLE_DEPTH`] are left out.
fn to_lua_table(t: &mlua::Table, depth: usize, entries: &mut usize) -> LuaTable {
    let mut out = LuaTable::new();
    if depth >= MAX_TABLE_DEPTH {
        return out;
    }
    let mut pairs: Vec<(LuaKey, LuaValue)> = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        let Ok((k, v)) = pair else { continue };
        *entries += 1;
        if *entries > MAX_TABLE_ENTRIES {
            break;
        }
        let key = match k {
            Value::Integer(i) => LuaKey::Int(i),
            Value::Number(n) if n == n.trunc() && n.abs() < 9e15 => LuaKey::Int(n as i64),
            Value::String(s) => LuaKey::Str(s.to_string_lossy()),
            _ => continue,
        };
        let value = match v {
            Value::Boolean(b) => LuaValue::Bool(b),
            Value::Integer(i) => LuaValue::Number(i as f64),
            Value::Number(n) => LuaValue::Number(n),
            Value::String(s) => LuaValue::String(s.to_string_lossy()),
            Value::Table(inner) => LuaValue::Table(to_lua_table(&inner, depth + 1, entries)),
            _ => continue,
        };
        pairs.push((key, value));
    }
    // Lua's iteration order is a hash order; sort for a stable document: sequence first, then
    // the other integer keys, then string keys by name.
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, v) in pairs {
        out.insert(k, v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Files(Vec<(String, String)>);
    impl Vfs for Files {
        fn paths(&self) -> Vec<String> {
            self.0.iter().map(|(p, _)| p.clone()).collect()
        }
        fn read(&self, path: &str) -> Option<Vec<u8>> {
            self.0
                .iter()
                .find(|(p, _)| p.eq_ignore_ascii_case(path))
                .map(|(_, s)| s.clone().into_bytes())
        }
    }

    fn eval(src: &str) -> Result<LuaTable, FormatError> {
        eval_mapinfo(src.as_bytes(), &Files(vec![]), LuaLimits::default())
    }

    #[test]
    fn returns_the_table_with_lowercased_keys() {
        let t = eval("return { Name = 'X', maxMetal = 2, teams = { [0] = { startPos = { x = 1, z = 2 } } } }")
            .unwrap();
        assert_eq!(t.get("name").unwrap().as_str(), Some("X"));
        assert!(t.iter().any(|(k, _)| *k == LuaKey::Str("maxmetal".into())));
        let start = t
            .get_table("teams")
            .unwrap()
            .get_index(0)
            .unwrap()
            .as_table()
            .unwrap();
        assert_eq!(
            start.get_table("startpos").unwrap().get_number("z"),
            Some(2.0)
        );
    }

    #[test]
    fn endless_loops_stop() {
        let e = eval("while true do end").unwrap_err().to_string();
        assert!(e.contains("instructions"), "{e}");
    }

    #[test]
    fn memory_hogs_stop() {
        let e = eval("local t = {} for i = 1, 1e9 do t[i] = {i} end")
            .unwrap_err()
            .to_string();
        assert!(e.contains("memory") || e.contains("instructions"), "{e}");
        let e = eval("return string.rep('x', 2^27)")
            .unwrap_err()
            .to_string();
        assert!(e.contains("memory"), "{e}");
    }

    #[test]
    fn no_os_io_or_file_loading() {
        for src in [
            "os.execute('touch /tmp/pwned') return {}",
            "io.open('/etc/passwd') return {}",
            "require('os') return {}",
            "dofile('/etc/passwd') return {}",
            "loadfile('/etc/passwd') return {}",
            "return debug.getinfo(1)",
        ] {
            assert!(eval(src).is_err(), "{src} ran");
        }
        assert!(eval("return loadstring('\\27Lua')").is_err() || eval("return {}").is_ok());
        assert!(eval_mapinfo(b"\x1bLuaQ", &Files(vec![]), LuaLimits::default()).is_err());
    }

    #[test]
    fn vfs_include_merges_overrides_in_the_callers_environment() {
        let files = Files(vec![
            (
                "mapconfig/mapinfo/b.lua".into(),
                "return { water = { damage = mapinfo.gravity } }".into(),
            ),
            (
                "mapconfig/mapinfo/a.lua".into(),
                "return { Gravity = 99 }".into(),
            ),
            ("mapconfig/other/c.lua".into(), "error('not me')".into()),
        ]);
        let src = r#"
            local mapinfo = { gravity = 1, water = {} }
            getfenv()["mapinfo"] = mapinfo
            for _, f in ipairs(VFS.DirList("mapconfig/mapinfo/", "*.lua")) do
                tmerge(mapinfo, lowerkeys(VFS.Include(f)))
            end
            return mapinfo"#;
        let t = eval_mapinfo(src.as_bytes(), &files, LuaLimits::default()).unwrap();
        assert_eq!(t.get_number("gravity"), Some(99.0));
        assert_eq!(
            t.get_table("water").unwrap().get_number("damage"),
            Some(99.0)
        );
    }

    #[test]
    fn errors_are_one_line() {
        let e = eval("error('boom')").unwrap_err().to_string();
        assert!(e.contains("boom") && !e.contains('\n'), "{e}");
        assert!(
            eval("return 5")
                .unwrap_err()
                .to_string()
                .contains("not a table")
        );
        assert!(eval("return {").is_err());
    }

    #[test]
    fn cycles_do_not_hang() {
        let t = eval("local t = {} t.self = t return t").unwrap();
        assert!(t.get("self").is_some());
    }

    #[test]
    fn globs() {
        let p: Vec<String> = ["a/x.lua", "a/y.txt", "a/b/z.lua", "A/W.LUA"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            list_dir(&p, "a/", "*.lua"),
            vec!["A/W.LUA".to_string(), "a/x.lua".to_string()]
        );
    }
}
