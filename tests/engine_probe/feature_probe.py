#!/usr/bin/python3
"""Ask the real engine where it put a map's features.

usage: feature_probe.py ARCHIVE MAPNAME [--binary /usr/games/spring-headless]

It builds a sandbox data dir with the map and a tiny game whose gamedata/defs.lua takes its
feature definitions from the map's own features/*.lua (the engine adds its built-ins, such as
geovent), plays it headless, and on frame 1 lists every feature: its definition's name, x, z
and heading (Spring.GetFeatureHeading). Prints JSON {"ok", "features": [[name, x, z,
heading], ...], "log": [...]}; exit 0 when the probe ran.
"""
import json, os, re, shutil, subprocess, sys, tempfile

BASE_DATADIR = "/usr/share/games/spring"

MODINFO = """return { name = "FeatureProbe", shortname = "FP", game = "FeatureProbe", shortgame = "FP",
  version = "1", mutator = "", description = "feature probe", modtype = 1,
  depend = {"Spring Cursors"} }
"""

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

SCRIPT = """[GAME]
{{
  MapName={map};
  GameType=FeatureProbe 1;
  IsHost=1;
  OnlyLocal=1;
  HostIP=127.0.0.1;
  HostPort=18463;
  MyPlayerName=Probe;
  StartPosType=0;
  [PLAYER0] {{ Name=Probe; Team=0; Spectator=0; }}
  [TEAM0] {{ TeamLeader=0; AllyTeam=0; }}
  [TEAM1] {{ TeamLeader=0; AllyTeam=1; }}
  [ALLYTEAM0] {{ NumAllies=0; }}
  [ALLYTEAM1] {{ NumAllies=0; }}
}}
"""


def main():
    args = sys.argv[1:]
    binary = "/usr/games/spring-headless"
    if "--binary" in args:
        i = args.index("--binary")
        binary = args[i + 1]
        del args[i:i + 2]
    archive, mapname = args
    box = tempfile.mkdtemp(prefix="featprobe_")
    try:
        home, write, data = (os.path.join(box, d) for d in ("home", "write", "data"))
        game = os.path.join(data, "games", "FeatureProbe.sdd")
        for d in (home, write, os.path.join(data, "maps"), os.path.join(game, "LuaRules"),
                  os.path.join(game, "gamedata")):
            os.makedirs(d)
        src = os.path.abspath(archive.rstrip("/"))
        (shutil.copytree if os.path.isdir(src) else shutil.copy2)(src, os.path.join(data, "maps", os.path.basename(src)))
        open(os.path.join(game, "modinfo.lua"), "w").write(MODINFO)
        open(os.path.join(game, "gamedata", "defs.lua"), "w").write(DEFS)
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
        log = [l.strip() for l in text.splitlines() if re.search(r"Error|error|Warning|[Ff]eature|deffail", l)][-60:]
        print(json.dumps({"ok": done, "features": features, "log": log}))
        return 0 if done else 1
    finally:
        shutil.rmtree(box, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
