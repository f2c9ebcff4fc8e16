#!/usr/bin/python3
"""Ask the real engine where units of given move classes can stand and move.

usage: pathing_probe.py ARCHIVE MAPNAME REQUEST.json [--binary /usr/games/spring-headless]

REQUEST.json: {"classes": [{"name", "speedmodclass", "maxslope" (the def's degrees),
"maxwaterdepth", "minwaterdepth", "slopemod", "footprintx"}], "squares": [[x, z], ...]}.
It builds a sandbox data dir with the map and a tiny game whose gamedata/defs.lua holds those
move defs and one unit def per class, plays it headless, and on frame 1 asks, for every class
and square, Spring.TestMoveOrder(unit, centre of the square, terrain only, centre only), and
the slope Spring.GetGroundNormal reports there. Prints JSON {"ok", "classes": {name: "0110..."},
"slopes": [...], "log": [...]}; exit 0 when the probe ran.
"""
import json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import probe_sandbox  # noqa: E402

DEFS = r"""
local req = VFS.Include("gamedata/request.lua")
local moveDefs, unitDefs = {}, {}
for i, c in ipairs(req.classes) do
  local m = { name = c.name, footprintx = c.footprintx, footprintz = c.footprintx,
              speedmodclass = c.speedmodclass, maxwaterdepth = c.maxwaterdepth,
              minwaterdepth = c.minwaterdepth, crushstrength = 10 }
  if c.maxslope then m.maxslope = c.maxslope end
  if c.slopemod then m.slopemod = c.slopemod end
  if c.depthmodparams then m.depthmodparams = c.depthmodparams end
  moveDefs[#moveDefs + 1] = m
  unitDefs["probe" .. i] = { name = "probe" .. i, movementclass = c.name, maxvelocity = 1,
    acceleration = 0.1, brakerate = 0.1, turnrate = 100, footprintx = c.footprintx,
    footprintz = c.footprintx, maxdamage = 100, buildcostmetal = 1, buildcostenergy = 1,
    buildtime = 1, canmove = true, objectname = "none.s3o" }
end
return { UnitDefs = unitDefs, FeatureDefs = {}, WeaponDefs = {}, ArmorDefs = {}, MoveDefs = moveDefs }
"""

MAIN_LUA = r"""
local req = VFS.Include("gamedata/request.lua")
local function out(...) Spring.Echo("PATHPROBE " .. table.concat({...}, " ")) end
function GameFrame(n)
  if n ~= 1 then return end
  local byName = {}
  for id, d in pairs(UnitDefs) do byName[d.name] = {id = id} end
  for i, c in ipairs(req.classes) do
    local ud = byName["probe" .. i]
    if not ud then out("nodef", c.name) else
      local bits = {}
      for k, s in ipairs(req.squares) do
        local x, z = s[1] * 8 + 4, s[2] * 8 + 4
        local y = Spring.GetGroundHeight(x, z)
        local ok = Spring.TestMoveOrder(ud.id, x, y, z, 0, 0, 0, true, false, true)
        bits[#bits + 1] = ok and "1" or "0"
        if #bits == 400 then out("bits", c.name, table.concat(bits)); bits = {} end
      end
      if #bits > 0 then out("bits", c.name, table.concat(bits)) end
    end
  end
  local sl = {}
  for k, s in ipairs(req.squares) do
    local _, _, _, slope = Spring.GetGroundNormal(s[1] * 8 + 4, s[2] * 8 + 4)
    sl[#sl + 1] = string.format("%.5f", slope or -1)
    if #sl == 200 then out("slopes", table.concat(sl, ",")); sl = {} end
  end
  if #sl > 0 then out("slopes", table.concat(sl, ",")) end
  out("done")
end
"""

DRAW_LUA = r"""
function GameFrame(n) if n >= 3 then Spring.SendCommands("quitforce") end end
"""


def lua(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "{" + ",".join(lua(x) for x in v) + "}"
    if isinstance(v, dict):
        return "{" + ",".join("%s=%s" % (k, lua(x)) for k, x in v.items() if x is not None) + "}"
    raise TypeError(v)


def main():
    binary, args = probe_sandbox.binary_and_args(sys.argv[1:])
    archive, mapname, request = args
    req = json.load(open(request))
    files = {
        "modinfo.lua": probe_sandbox.modinfo("PathProbe", "PP", "pathability probe"),
        "gamedata/defs.lua": DEFS,
        "gamedata/request.lua": "return " + lua(req) + "\n",
        "LuaRules/main.lua": MAIN_LUA,
        "LuaRules/draw.lua": DRAW_LUA,
    }
    text = probe_sandbox.play(archive, mapname, "PathProbe", files, binary, 18462)
    classes, slopes, done = {}, [], False
    for line in text.splitlines():
        m = re.search(r"PATHPROBE (\S+) ?(.*)$", line)
        if not m:
            continue
        kind, rest = m.groups()
        if kind == "bits":
            name, bits = rest.split(" ")
            classes[name] = classes.get(name, "") + bits
        elif kind == "slopes":
            slopes += [float(v) for v in rest.split(",")]
        elif kind == "done":
            done = True
        elif kind == "nodef":
            classes[rest] = None
    log = [l.strip() for l in text.splitlines() if re.search(r"Error|error|Warning|MoveDef|UnitDef", l)][-40:]
    print(json.dumps({"ok": done, "classes": classes, "slopes": slopes, "log": log}))
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main())
