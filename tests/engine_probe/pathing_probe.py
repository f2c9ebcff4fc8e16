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
import json, os, re, shutil, subprocess, sys, tempfile

BASE_DATADIR = "/usr/share/games/spring"

MODINFO = """return { name = "PathProbe", shortname = "PP", game = "PathProbe", shortgame = "PP",
  version = "1", mutator = "", description = "pathability probe", modtype = 1,
  depend = {"Spring Cursors"} }
"""

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

SCRIPT = """[GAME]
{{
  MapName={map};
  GameType=PathProbe 1;
  IsHost=1;
  OnlyLocal=1;
  HostIP=127.0.0.1;
  HostPort=18462;
  MyPlayerName=Probe;
  StartPosType=0;
  [PLAYER0] {{ Name=Probe; Team=0; Spectator=0; }}
  [TEAM0] {{ TeamLeader=0; AllyTeam=0; }}
  [TEAM1] {{ TeamLeader=0; AllyTeam=1; }}
  [ALLYTEAM0] {{ NumAllies=0; }}
  [ALLYTEAM1] {{ NumAllies=0; }}
}}
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
    args = sys.argv[1:]
    binary = "/usr/games/spring-headless"
    if "--binary" in args:
        i = args.index("--binary")
        binary = args[i + 1]
        del args[i:i + 2]
    archive, mapname, request = args
    req = json.load(open(request))
    box = tempfile.mkdtemp(prefix="pathprobe_")
    try:
        home, write, data = (os.path.join(box, d) for d in ("home", "write", "data"))
        game = os.path.join(data, "games", "PathProbe.sdd")
        for d in (home, write, os.path.join(data, "maps"), os.path.join(game, "LuaRules"),
                  os.path.join(game, "gamedata")):
            os.makedirs(d)
        src = os.path.abspath(archive.rstrip("/"))
        (shutil.copytree if os.path.isdir(src) else shutil.copy2)(src, os.path.join(data, "maps", os.path.basename(src)))
        open(os.path.join(game, "modinfo.lua"), "w").write(MODINFO)
        open(os.path.join(game, "gamedata", "defs.lua"), "w").write(DEFS)
        open(os.path.join(game, "gamedata", "request.lua"), "w").write("return " + lua(req) + "\n")
        open(os.path.join(game, "LuaRules", "main.lua"), "w").write(MAIN_LUA)
        open(os.path.join(game, "LuaRules", "draw.lua"), "w").write(DRAW_LUA)
        script = os.path.join(box, "script.txt")
        open(script, "w").write(SCRIPT.format(map=mapname))
        cfg = os.path.join(write, "springsettings.cfg")
        open(cfg, "w").write("Sound = 0\nMaxSounds = 0\n")
        env = dict(os.environ, HOME=home, SPRING_WRITEDIR=write, SPRING_ISOLATED=write,
                   SPRING_DATADIR=f"{BASE_DATADIR}:{data}", XDG_CONFIG_HOME=os.path.join(home, ".config"))
        try:
            p = subprocess.run([binary, "-config", cfg, script], env=env, capture_output=True,
                               text=True, errors="replace", timeout=240, cwd=box)
            text = p.stdout + p.stderr
        except subprocess.TimeoutExpired as e:
            text = (e.stdout or b"").decode("utf-8", "replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        infolog = os.path.join(write, "infolog.txt")
        if os.path.exists(infolog):
            text = open(infolog, errors="replace").read()
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
    finally:
        shutil.rmtree(box, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
