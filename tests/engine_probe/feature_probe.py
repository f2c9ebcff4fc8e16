#!/usr/bin/python3
"""Ask the real engine where it put a map's features.

usage: feature_probe.py ARCHIVE MAPNAME [--binary /usr/games/spring-headless]

It builds a sandbox data dir with the map and a tiny game whose gamedata/defs.lua takes its
feature definitions from the map's own features/*.lua (the engine adds its built-ins, such as
geovent), plays it headless, and on frame 1 lists every feature: its definition's name, x, z
and heading (Spring.GetFeatureHeading). Prints JSON {"ok", "features": [[name, x, z,
heading], ...], "log": [...]}; exit 0 when the probe ran.
"""
import json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import probe_sandbox  # noqa: E402

DEFS = r"""
local featureDefs = {}
for _, f in ipairs(VFS.DirList("features/", "*.lua")) do
  local ok, t = pcall(VFS.Include, f)
  if ok and type(t) == "table" then
    for k, v in pairs(t) do featureDefs[k] = v end
  else
    Spring.Echo("FEATPROBE deffail " .. f .. " " .. tostring(t))
  end
end
return { UnitDefs = {}, FeatureDefs = featureDefs, WeaponDefs = {}, ArmorDefs = {}, MoveDefs = {} }
"""

MAIN_LUA = r"""
local function out(...) Spring.Echo("FEATPROBE " .. table.concat({...}, " ")) end
function GameFrame(n)
  if n == 1 then
    for _, id in ipairs(Spring.GetAllFeatures()) do
      local def = FeatureDefs[Spring.GetFeatureDefID(id)]
      local x, _, z = Spring.GetFeaturePosition(id)
      out("f", def and def.name or "?", string.format("%.3f", x), string.format("%.3f", z),
          tostring(Spring.GetFeatureHeading(id)))
    end
    out("done")
  end
  if n >= 3 then Spring.SendCommands("quitforce") end
end
"""

DRAW_LUA = "-- nothing to draw\n"


def main():
    binary, args = probe_sandbox.binary_and_args(sys.argv[1:])
    archive, mapname = args
    files = {
        "modinfo.lua": probe_sandbox.modinfo("FeatureProbe", "FP", "feature probe"),
        "gamedata/defs.lua": DEFS,
        "LuaRules/main.lua": MAIN_LUA,
        "LuaRules/draw.lua": DRAW_LUA,
    }
    text = probe_sandbox.play(archive, mapname, "FeatureProbe", files, binary, 18463)
    features, done = [], False
    for line in text.splitlines():
        m = re.search(r"FEATPROBE (\S+) ?(.*)$", line)
        if not m:
            continue
        kind, rest = m.groups()
        if kind == "f":
            name, x, z, h = rest.rsplit(" ", 3)
            features.append([name, float(x), float(z), int(float(h))])
        elif kind == "done":
            done = True
    log = [l.strip() for l in text.splitlines()
           if re.search(r"Error|error|Warning|[Ff]eature|deffail", l)][-60:]
    print(json.dumps({"ok": done, "features": features, "log": log}))
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main())
