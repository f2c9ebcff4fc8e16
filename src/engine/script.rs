//! The start script that plays a map alone: one player on team 0 at a chosen start position
//! (`StartPosType=3`, "chosen before the game": the script's `StartPosX`/`StartPosZ` are the
//! team's start), and an empty enemy team in a second ally team so the game does not end at
//! once. Also the minimal game Groundwork ships for computers without a game installed, and
//! the settings file the sandboxed engine reads.

use crate::map::Team;

/// The minimal game's name as its `modinfo.lua` gives it (name and version): a start script's
/// `GameType`.
pub const MINIMAL_GAME_NAME: &str = "Groundwork Try 1";

/// The minimal game's folder name under the sandbox's `games/`.
pub const MINIMAL_GAME_FOLDER: &str = "GroundworkTry.sdd";

/// The minimal game's files, by path inside its folder (its options file is written apart,
/// [`minimal_game_options`]).
pub const MINIMAL_GAME_FILES: [(&str, &str); 3] = [
    (
        "modinfo.lua",
        include_str!("../../assets/trygame/modinfo.lua"),
    ),
    (
        "LuaRules/main.lua",
        include_str!("../../assets/trygame/LuaRules/main.lua"),
    ),
    (
        "LuaRules/draw.lua",
        include_str!("../../assets/trygame/LuaRules/draw.lua"),
    ),
];

/// Where the minimal game reads what to do.
pub const MINIMAL_GAME_OPTIONS_PATH: &str = "LuaRules/groundwork_try.lua";

/// A camera for a screenshot: where it is and what it looks at, in elmos (x east, y up, z
/// south).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub position_elmos: [f32; 3],
    pub target_elmos: [f32; 3],
}

/// What the minimal game does once the map is loaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MinimalGameOptions {
    /// The sim frame at which it quits (`quitforce`); `None`: it runs until the player quits.
    pub quit_frame: Option<u32>,
    /// The sim frame at which it takes `screenshot png`.
    pub shot_frame: Option<u32>,
    /// The screenshot's camera; `None`: the whole map from above its centre.
    pub camera: Option<Camera>,
    /// Where the camera starts when playing (the player's start), in elmos.
    pub start_elmos: Option<(f32, f32)>,
    /// Whether it turns cheats on (`/cheat`) on the first frame.
    pub cheats: bool,
}

/// A Lua number: finite, in plain decimal.
fn lua_number(v: f32) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "0".into()
    }
}

/// `LuaRules/groundwork_try.lua`: the options as a Lua table.
pub fn minimal_game_options(o: &MinimalGameOptions) -> String {
    let frame = |f: Option<u32>| f.map_or("nil".to_string(), |f| f.to_string());
    let camera = o.camera.map_or("nil".to_string(), |c| {
        let [px, py, pz] = c.position_elmos.map(lua_number);
        let [tx, ty, tz] = c.target_elmos.map(lua_number);
        format!("{{px = {px}, py = {py}, pz = {pz}, tx = {tx}, ty = {ty}, tz = {tz}}}")
    });
    let start = o.start_elmos.map_or("nil".to_string(), |(x, z)| {
        format!("{{{}, {}}}", lua_number(x), lua_number(z))
    });
    format!(
        "-- written by groundwork try\nreturn {{\n  quit_frame = {},\n  shot_frame = {},\n  camera = {camera},\n  start = {start},\n  cheats = {},\n}}\n",
        frame(o.quit_frame),
        frame(o.shot_frame),
        o.cheats
    )
}

/// The start script's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct StartScript {
    /// The map's name as the engine lists it (`name version`).
    pub map_name: String,
    /// The game's name and version (`GameType`).
    pub game_name: String,
    pub player_name: String,
    /// The player's start, in elmos; `None`: the game decides.
    pub player_start_elmos: Option<(f32, f32)>,
    /// The empty enemy team's start, in elmos.
    pub enemy_start_elmos: Option<(f32, f32)>,
    /// The local UDP port the engine hosts on.
    pub host_port: u16,
}

/// A value safe inside a start script (no `;`, braces, brackets or line breaks).
fn script_value(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ';' | '{' | '}' | '[' | ']' | '\n' | '\r' => '_',
            c => c,
        })
        .collect()
}

impl StartScript {
    /// The script's text.
    pub fn to_text(&self) -> String {
        let start = |s: Option<(f32, f32)>| {
            s.map_or(String::new(), |(x, z)| {
                format!(" StartPosX={}; StartPosZ={};", x.round(), z.round())
            })
        };
        let player = script_value(&self.player_name);
        format!(
            "[GAME]\n{{\n  MapName={map};\n  GameType={game};\n  IsHost=1;\n  OnlyLocal=1;\n  HostIP=127.0.0.1;\n  HostPort={port};\n  MyPlayerName={player};\n  StartPosType=3;\n  NumRestrictions=0;\n  [MODOPTIONS] {{ MinimalSetup=1; }}\n  [PLAYER0] {{ Name={player}; Team=0; Spectator=0; }}\n  [TEAM0] {{ TeamLeader=0; AllyTeam=0;{s0} }}\n  [TEAM1] {{ TeamLeader=0; AllyTeam=1;{s1} }}\n  [ALLYTEAM0] {{ NumAllies=0; }}\n  [ALLYTEAM1] {{ NumAllies=0; }}\n}}\n",
            map = script_value(&self.map_name),
            game = script_value(&self.game_name),
            port = self.host_port,
            s0 = start(self.player_start_elmos),
            s1 = start(self.enemy_start_elmos),
        )
    }
}

/// A point on the map in elmos (x, z).
pub type PointElmos = (f32, f32);

/// The player's start (start `index` of the map's) and the enemy's (the next one, or the
/// player's own on a one-start map), in elmos. A map without starts leaves both to the game;
/// an index past the last start is an error naming how many there are.
pub fn chosen_starts(
    teams: &[Team],
    index: usize,
) -> Result<(Option<PointElmos>, Option<PointElmos>), String> {
    if teams.is_empty() {
        return if index == 0 {
            Ok((None, None))
        } else {
            Err(format!("--start {index}: the map has no start positions"))
        };
    }
    let Some(t) = teams.get(index) else {
        return Err(format!(
            "--start {index}: the map has {} start positions (0 to {})",
            teams.len(),
            teams.len() - 1
        ));
    };
    let enemy = &teams[(index + 1) % teams.len()];
    Ok((
        Some((t.start_x_elmos, t.start_z_elmos)),
        Some((enemy.start_x_elmos, enemy.start_z_elmos)),
    ))
}

/// The engine's settings (`springsettings.cfg`): a window of `width` x `height` pixels, no
/// sound, and BumpWater (`Water = 4`) when `bump_water` (software GL draws the default water
/// black).
pub fn engine_settings(
    width_px: u32,
    height_px: u32,
    borderless: bool,
    bump_water: bool,
) -> String {
    let mut s = format!(
        "Fullscreen = 0\nXResolutionWindowed = {width_px}\nYResolutionWindowed = {height_px}\nXResolution = {width_px}\nYResolution = {height_px}\nWindowPosX = 0\nWindowPosY = 0\nWindowBorderless = {}\nVSync = 0\nSound = 0\nMaxSounds = 0\n",
        u8::from(borderless)
    );
    if bump_water {
        s.push_str("Water = 4\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn team(x: f32, z: f32) -> Team {
        Team {
            start_x_elmos: x,
            start_z_elmos: z,
        }
    }

    #[test]
    fn the_script_puts_the_player_alone_at_the_chosen_start() {
        let s = StartScript {
            map_name: "My Map 1.0".into(),
            game_name: MINIMAL_GAME_NAME.into(),
            player_name: "Tester".into(),
            player_start_elmos: Some((300.4, 1200.6)),
            enemy_start_elmos: Some((3800.0, 400.0)),
            host_port: 18452,
        };
        let text = s.to_text();
        let expected = "[GAME]
{
  MapName=My Map 1.0;
  GameType=Groundwork Try 1;
  IsHost=1;
  OnlyLocal=1;
  HostIP=127.0.0.1;
  HostPort=18452;
  MyPlayerName=Tester;
  StartPosType=3;
  NumRestrictions=0;
  [MODOPTIONS] { MinimalSetup=1; }
  [PLAYER0] { Name=Tester; Team=0; Spectator=0; }
  [TEAM0] { TeamLeader=0; AllyTeam=0; StartPosX=300; StartPosZ=1201; }
  [TEAM1] { TeamLeader=0; AllyTeam=1; StartPosX=3800; StartPosZ=400; }
  [ALLYTEAM0] { NumAllies=0; }
  [ALLYTEAM1] { NumAllies=0; }
}
";
        assert_eq!(text, expected);
        // a name cannot break the script's structure
        let odd = StartScript {
            map_name: "a;b}[c]".into(),
            player_start_elmos: None,
            ..s
        };
        let text = odd.to_text();
        assert!(text.contains("MapName=a_b__c_;"));
        assert!(text.contains("[TEAM0] { TeamLeader=0; AllyTeam=0; }"));
    }

    #[test]
    fn starts_are_chosen_by_index() {
        let teams = [team(1.0, 2.0), team(3.0, 4.0), team(5.0, 6.0)];
        assert_eq!(
            chosen_starts(&teams, 0).unwrap(),
            (Some((1.0, 2.0)), Some((3.0, 4.0)))
        );
        assert_eq!(
            chosen_starts(&teams, 2).unwrap(),
            (Some((5.0, 6.0)), Some((1.0, 2.0)))
        );
        let err = chosen_starts(&teams, 3).unwrap_err();
        assert_eq!(err, "--start 3: the map has 3 start positions (0 to 2)");
        assert_eq!(chosen_starts(&[], 0).unwrap(), (None, None));
        assert!(chosen_starts(&[], 1).is_err());
        let one = [team(7.0, 8.0)];
        assert_eq!(
            chosen_starts(&one, 0).unwrap(),
            (Some((7.0, 8.0)), Some((7.0, 8.0)))
        );
    }

    #[test]
    fn the_minimal_games_options_are_lua() {
        let o = MinimalGameOptions {
            quit_frame: Some(30),
            shot_frame: None,
            camera: Some(Camera {
                position_elmos: [100.0, 2000.0, 4000.5],
                target_elmos: [2048.0, 0.0, f32::NAN],
            }),
            start_elmos: Some((10.0, 20.0)),
            cheats: true,
        };
        let text = minimal_game_options(&o);
        assert!(text.contains("quit_frame = 30,"), "{text}");
        assert!(text.contains("shot_frame = nil,"));
        assert!(
            text.contains(
                "camera = {px = 100, py = 2000, pz = 4000.5, tx = 2048, ty = 0, tz = 0},"
            )
        );
        assert!(text.contains("start = {10, 20},"));
        assert!(text.contains("cheats = true,"));
        assert!(MINIMAL_GAME_FILES[0].1.contains("\"Spring Cursors\""));
        assert!(MINIMAL_GAME_FILES[1].1.contains("GROUNDWORK loaded"));
        assert!(MINIMAL_GAME_FILES[2].1.contains("quitforce"));
        // the name modinfo.lua gives is the one start scripts ask for
        let modinfo = MINIMAL_GAME_FILES[0].1;
        assert!(
            modinfo.contains("name = \"Groundwork Try\"") && modinfo.contains("version = \"1\"")
        );
    }

    #[test]
    fn settings_turn_sound_off_and_water_on_when_asked() {
        let s = engine_settings(1024, 768, true, true);
        assert!(s.contains("XResolutionWindowed = 1024\n") && s.contains("Sound = 0\n"));
        assert!(s.contains("WindowBorderless = 1\n") && s.ends_with("Water = 4\n"));
        assert!(!engine_settings(1280, 720, false, false).contains("Water"));
    }
}
