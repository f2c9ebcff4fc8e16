"""The sandbox both engine probes play in: a fresh data dir holding the map and a tiny game
(modinfo.lua, gamedata/, LuaRules/), spring-headless run on a start script for one player,
and the engine's log read back. Each probe supplies its game's files and reads the log."""
import os, shutil, subprocess, tempfile

BASE_DATADIR = "/usr/share/games/spring"

SCRIPT = """[GAME]
{{
  MapName={map};
  GameType={game} 1;
  IsHost=1;
  OnlyLocal=1;
  HostIP=127.0.0.1;
  HostPort={port};
  MyPlayerName=Probe;
  StartPosType=0;
  [PLAYER0] {{ Name=Probe; Team=0; Spectator=0; }}
  [TEAM0] {{ TeamLeader=0; AllyTeam=0; }}
  [TEAM1] {{ TeamLeader=0; AllyTeam=1; }}
  [ALLYTEAM0] {{ NumAllies=0; }}
  [ALLYTEAM1] {{ NumAllies=0; }}
}}
"""


def binary_and_args(args):
    """The engine binary (`--binary PATH`, spring-headless by default) and the other args."""
    args = list(args)
    binary = "/usr/games/spring-headless"
    if "--binary" in args:
        i = args.index("--binary")
        binary = args[i + 1]
        del args[i:i + 2]
    return binary, args


def modinfo(game, short, description):
    return ('return { name = "%s", shortname = "%s", game = "%s", shortgame = "%s",\n'
            '  version = "1", mutator = "", description = "%s", modtype = 1,\n'
            '  depend = {"Spring Cursors"} }\n' % (game, short, game, short, description))


def play(archive, mapname, game, files, binary, port):
    """Plays `game` (its files: {relative path: text}) on the map `archive` named `mapname`
    in a fresh sandbox and returns the engine's log."""
    box = tempfile.mkdtemp(prefix=game.lower() + "_")
    try:
        home, write, data = (os.path.join(box, d) for d in ("home", "write", "data"))
        root = os.path.join(data, "games", game + ".sdd")
        for d in (home, write, os.path.join(data, "maps"), root):
            os.makedirs(d)
        src = os.path.abspath(archive.rstrip("/"))
        (shutil.copytree if os.path.isdir(src) else shutil.copy2)(
            src, os.path.join(data, "maps", os.path.basename(src)))
        for rel, text in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").write(text)
        script = os.path.join(box, "script.txt")
        open(script, "w").write(SCRIPT.format(map=mapname, game=game, port=port))
        cfg = os.path.join(write, "springsettings.cfg")
        open(cfg, "w").write("Sound = 0\nMaxSounds = 0\n")
        env = dict(os.environ, HOME=home, SPRING_WRITEDIR=write, SPRING_ISOLATED=write,
                   SPRING_DATADIR=f"{BASE_DATADIR}:{data}",
                   XDG_CONFIG_HOME=os.path.join(home, ".config"))
        try:
            p = subprocess.run([binary, "-config", cfg, script], env=env, capture_output=True,
                               text=True, errors="replace", timeout=240, cwd=box)
            text = p.stdout + p.stderr
        except subprocess.TimeoutExpired as e:
            out = e.stdout or b""
            text = out.decode("utf-8", "replace") if isinstance(out, bytes) else out
        infolog = os.path.join(write, "infolog.txt")
        if os.path.exists(infolog):
            text = open(infolog, errors="replace").read()
        return text
    finally:
        shutil.rmtree(box, ignore_errors=True)
