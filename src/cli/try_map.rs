//! `groundwork try MAP`: compiles a project (or takes a `.sd7`/`.sdz`/`.sdd` as it is) into a
//! sandbox and runs the engine on it: to play (the windowed engine, until the player quits),
//! `--headless` for a load check that quits after a few frames (what a map repository's CI
//! runs), or `--screenshot OUT.png`. The lint runs first: its errors stop the try with its words
//! and a non-zero exit, as they stop `compile --install`; `--headless` also reads every tile
//! file of the staged map back (the headless engine never reads them). Prints the engine's map
//! warnings and the load time; exits non-zero with the engine's own line when the map did not
//! load.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::compile::{CompileOptions, Progress};
use crate::engine::run::{DEFAULT_HEADLESS_FRAMES, DEFAULT_SHOT_FRAME};
use crate::engine::{Camera, EngineSearch, MapSource, Mode, TryOptions, TryReport, launch_with};
use crate::formats::archive::ArchiveKind;

#[derive(clap::Args, Debug)]
pub struct TryArgs {
    /// The project folder, or a .sd7/.sdz/.sdd map (tried as it is).
    pub map: PathBuf,
    /// The engine binary (default: $GROUNDWORK_ENGINE, BAR's newest engine, then spring or
    /// spring-headless on the PATH or in /usr/games).
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// Run spring-headless for a few frames and quit: a load check.
    #[arg(long, conflicts_with = "screenshot")]
    pub headless: bool,
    /// With --headless: the sim frames to run (default 30); with --screenshot: the frame it is
    /// taken at (default 90).
    #[arg(long)]
    pub frames: Option<u32>,
    /// Take a screenshot in the windowed engine and write it here (.png), then quit (needs a
    /// display: xvfb-run works).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// With --screenshot: the camera's position and the point it looks at, in elmos
    /// (X,Y,Z,TX,TY,TZ; default: the whole map from above).
    #[arg(
        long,
        requires = "screenshot",
        allow_hyphen_values = true,
        value_name = "X,Y,Z,TX,TY,TZ"
    )]
    pub camera: Option<String>,
    /// The map's start position the player takes (0-based).
    #[arg(long, default_value_t = 0)]
    pub start: usize,
    /// Kill the engine after this many seconds (default: 120 for --headless and --screenshot,
    /// none to play).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Play Groundwork's minimal game even when BAR's game is installed.
    #[arg(long)]
    pub minimal_game: bool,
    /// Keep the sandbox (the map, the start script, the engine's log) and print where it is.
    #[arg(long)]
    pub keep: bool,
    /// Bake the texture layers on the CPU even when a GPU is there.
    #[arg(long)]
    pub cpu_bake: bool,
}

pub fn run(args: TryArgs) -> Result<(), String> {
    let mode = if args.headless {
        Mode::Headless {
            frames: args.frames.unwrap_or(DEFAULT_HEADLESS_FRAMES),
        }
    } else if let Some(out) = &args.screenshot {
        let camera = args.camera.as_deref().map(parse_camera).transpose()?;
        Mode::Screenshot {
            out: out.clone(),
            camera,
            frame: args.frames.unwrap_or(DEFAULT_SHOT_FRAME),
        }
    } else {
        Mode::Play
    };
    let mut options = TryOptions::new(mode);
    options.engine = args.engine.clone();
    options.start = args.start;
    options.installed_game = !args.minimal_game;
    options.lint = super::lint::game_context();
    if let Some(t) = args.timeout {
        if !(t.is_finite() && t > 0.0) {
            return Err(format!("--timeout {t}: a number of seconds above 0"));
        }
        options.timeout = Some(Duration::from_secs_f64(t.min(1e9)));
    }
    // find the engine before compiling: without one there is nothing to try
    let engine = EngineSearch::current().find(options.mode.flavour(), args.engine.as_deref())?;
    eprintln!("engine: {}", engine.binary.display());
    let is_archive = ArchiveKind::from_path(&args.map).is_some() && args.map.exists();
    let document = if is_archive {
        None
    } else {
        let loaded = crate::formats::open_map(&args.map).map_err(|e| e.to_string())?;
        for w in &loaded.warnings {
            eprintln!("warning: {w}");
        }
        options.compile = CompileOptions {
            baker: super::compile::choose_baker(&loaded.map, args.cpu_bake, false, false),
            // a try after a small edit encodes only the tiles that changed
            cache: Some(std::sync::Arc::new(
                crate::compile::CompileCache::for_user().without_memory(),
            )),
            ..CompileOptions::default()
        };
        Some(loaded.map)
    };
    let source = match &document {
        Some(map) => {
            eprintln!("compiling {} into the sandbox ...", args.map.display());
            MapSource::Document(map)
        }
        None => MapSource::Path(&args.map),
    };
    let report_stage = |_: crate::compile::Stage, _: u64, _: u64| {};
    let cancel = AtomicBool::new(false);
    let running = launch_with(
        source,
        &options,
        engine,
        &Progress::new(&report_stage, &cancel),
    )?;
    super::lint::print_findings(&running.lint_warnings);
    eprintln!(
        "playing {} with {} ({})",
        running.map.name,
        running.game_name,
        match running.mode {
            Mode::Play => "until you quit",
            Mode::Headless { .. } => "headless",
            Mode::Screenshot { .. } => "for a screenshot",
        }
    );
    let report = running.wait();
    print_report(&report);
    let failure = report.failure();
    if args.keep || failure.is_some() {
        eprintln!(
            "the sandbox: {} (the engine's log: {})",
            report.sandbox.root.display(),
            report.log_path.display()
        );
    } else {
        report.sandbox.remove();
    }
    match failure {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// `X,Y,Z,TX,TY,TZ` (elmos) as a camera.
fn parse_camera(text: &str) -> Result<Camera, String> {
    let bad = || format!("--camera {text}: six numbers X,Y,Z,TX,TY,TZ in elmos");
    let v: Vec<f32> = text
        .split(',')
        .map(|t| t.trim().parse::<f32>().ok().filter(|v| v.is_finite()))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    match v[..] {
        [x, y, z, tx, ty, tz] => Ok(Camera {
            position_elmos: [x, y, z],
            target_elmos: [tx, ty, tz],
        }),
        _ => Err(bad()),
    }
}

/// The engine's map warnings always; its fatal lines and errors when the try failed; the
/// load time and the screenshot on standard output.
fn print_report(r: &TryReport) {
    for w in &r.map_warnings {
        eprintln!("engine map warning: {w}");
    }
    if r.failure().is_some() {
        for f in &r.fatal {
            eprintln!("engine: {f}");
        }
        for e in &r.errors {
            eprintln!("engine error: {e}");
        }
    }
    if r.loaded {
        match r.load_time {
            Some(t) => println!(
                "loaded {} in {:.2} s (the engine ran {:.1} s)",
                r.map_name,
                t.as_secs_f64(),
                r.run_time.as_secs_f64()
            ),
            None => println!(
                "loaded {} (the engine ran {:.1} s)",
                r.map_name,
                r.run_time.as_secs_f64()
            ),
        }
    }
    if let Some(p) = &r.screenshot {
        println!("wrote {}", p.display());
    }
}
