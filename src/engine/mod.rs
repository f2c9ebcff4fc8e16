//! Trying a map in the engine (`groundwork try`, the editor's Try button): find an engine and
//! a game (`discover`), write a start script that plays the map alone (`script`), run the
//! engine in a sandbox of its own and read its log back into a report (`run`).
//!
//! Where no game is installed, Groundwork's minimal game (`assets/trygame/`, built into the
//! binary) loads the map, echoes `GROUNDWORK loaded`, points the camera at the player's start,
//! turns cheats on (`/cheat`; Spring has no start-script key for it), and, for checks and
//! screenshots, takes the screenshot and quits at the frames it is given. BAR's game, when
//! installed, is played as it is: the user types `/cheat` there.

pub mod discover;
pub mod run;
pub mod script;

pub use discover::{Engine, EngineSearch, EngineSource, Flavour, InstalledGame, find_engine};
pub use run::{
    MapSource, Mode, RunningEngine, Sandbox, TryOptions, TryReport, launch, launch_with, parse_log,
    screenshot, try_map,
};
pub use script::Camera;
