//! Running the engine on a map in a sandbox of its own: the map compiled (or copied) into a
//! scratch data folder, the minimal game or the installed one, a start script, settings, and
//! `HOME`, `SPRING_WRITEDIR`, `SPRING_ISOLATED` and `SPRING_DATADIR` pointing into the
//! sandbox; then the engine's log (`infolog.txt`, else its output) read back into a
//! [`TryReport`]: loaded or not, the load time, the fatal lines, errors and map warnings.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::discover::{Engine, EngineSearch, Flavour};
use super::script::{
    Camera, MINIMAL_GAME_FILES, MINIMAL_GAME_FOLDER, MINIMAL_GAME_NAME, MINIMAL_GAME_OPTIONS_PATH,
    MinimalGameOptions, StartScript, chosen_starts, engine_settings, minimal_game_options,
};
use crate::compile::{CompileOptions, Progress, compile_map};
use crate::formats::archive::{ArchiveContents, ArchiveKind};
use crate::lint::{Finding, LintContext, Severity};
use crate::map::{Map, Team};

/// The marker the minimal game echoes once the map is loaded (`GROUNDWORK loaded <frame> ...`).
pub const LOADED_MARKER: &str = "GROUNDWORK loaded";
/// The engine's own line once the player is in the game (any game).
const INGAME_LINE: &str = "finished loading and is now ingame";

/// The map to try: a document in memory (the editor's), or a path (a project folder, or a
/// `.sd7`/`.sdz`/`.sdd` archive, copied as it is).
#[derive(Clone, Copy, Debug)]
pub enum MapSource<'a> {
    Document(&'a Map),
    Path(&'a Path),
}

/// What the engine is run for.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// The windowed engine, for the player; it runs until the player quits.
    Play,
    /// `spring-headless` for `frames` sim frames, then it quits: a load check.
    Headless { frames: u32 },
    /// The windowed engine takes `screenshot png` at `frame` from `camera` (the whole map
    /// from above when `None`), then quits; the picture is copied to `out`.
    Screenshot {
        out: PathBuf,
        camera: Option<Camera>,
        frame: u32,
    },
}

impl Mode {
    pub fn flavour(&self) -> Flavour {
        match self {
            Mode::Headless { .. } => Flavour::Headless,
            Mode::Play | Mode::Screenshot { .. } => Flavour::Gl,
        }
    }
}

/// The sim frames a headless check runs after the game starts.
pub const DEFAULT_HEADLESS_FRAMES: u32 = 30;
/// The sim frame a screenshot is taken at (the camera is placed 40 frames before).
pub const DEFAULT_SHOT_FRAME: u32 = 90;
/// How long a headless check or a screenshot may take before the engine is killed.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// How to try a map.
#[derive(Clone, Debug)]
pub struct TryOptions {
    pub mode: Mode,
    /// The engine binary; `None`: `$GROUNDWORK_ENGINE`, BAR's, then Spring's
    /// ([`EngineSearch::find`]).
    pub engine: Option<PathBuf>,
    /// The map's start position the player takes (0-based).
    pub start: usize,
    /// Kill the engine after this long; `None`: wait for it.
    pub timeout: Option<Duration>,
    /// Play the installed game (BAR's) when there is one; else, and always for headless
    /// checks and screenshots, Groundwork's minimal game.
    pub installed_game: bool,
    pub compile: CompileOptions,
    /// What the lint that runs first knows beyond the map (the installed game's features).
    pub lint: LintContext,
}

impl TryOptions {
    /// The defaults for `mode`: the timeout for checks and screenshots, none for play.
    pub fn new(mode: Mode) -> TryOptions {
        let timeout = (mode != Mode::Play).then_some(DEFAULT_TIMEOUT);
        TryOptions {
            mode,
            engine: None,
            start: 0,
            timeout,
            installed_game: true,
            compile: CompileOptions::default(),
            lint: LintContext::default(),
        }
    }
}

/// The sandbox's folders and files.
#[derive(Clone, Debug, PartialEq)]
pub struct Sandbox {
    pub root: PathBuf,
    pub home: PathBuf,
    /// `SPRING_WRITEDIR`: `infolog.txt`, `screenshots/`, the settings.
    pub write: PathBuf,
    /// The scratch data folder: `maps/`, `games/`.
    pub data: PathBuf,
    pub script: PathBuf,
    pub settings: PathBuf,
    /// The engine's standard output and error.
    pub output: PathBuf,
}

impl Sandbox {
    /// Makes a fresh sandbox under the system's temporary folder.
    pub fn create() -> Result<Sandbox, String> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let root = std::env::temp_dir().join(format!(
            "groundwork-try-{}-{}-{nanos}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let sandbox = Sandbox::at(root);
        for d in [
            &sandbox.home,
            &sandbox.write,
            &sandbox.data.join("maps"),
            &sandbox.data.join("games"),
        ] {
            std::fs::create_dir_all(d)
                .map_err(|e| format!("cannot make the sandbox {}: {e}", d.display()))?;
        }
        Ok(sandbox)
    }

    fn at(root: PathBuf) -> Sandbox {
        let write = root.join("write");
        Sandbox {
            home: root.join("home"),
            data: root.join("data"),
            script: root.join("script.txt"),
            settings: write.join("springsettings.cfg"),
            output: root.join("engine-output.txt"),
            write,
            root,
        }
    }

    /// Removes the sandbox and everything in it.
    pub fn remove(&self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }

    /// The engine's log: `infolog.txt`, else what it printed.
    pub fn log_path(&self) -> PathBuf {
        let infolog = self.write.join("infolog.txt");
        if infolog.is_file() {
            infolog
        } else {
            self.output.clone()
        }
    }
}

/// The map as staged in the sandbox.
#[derive(Clone, Debug, PartialEq)]
pub struct StagedMap {
    /// The name the engine lists it under (`name version`).
    pub name: String,
    pub teams: Vec<Team>,
    pub archive: PathBuf,
}

/// Compiles the document, or the project at a path, into `maps_dir` as an `.sdd`; an archive
/// is copied as it is.
pub fn stage_map(
    source: MapSource,
    maps_dir: &Path,
    compile: &CompileOptions,
    progress: &Progress,
) -> Result<StagedMap, String> {
    let compile_into = |map: &Map| -> Result<StagedMap, String> {
        let s = &map.settings;
        let file = crate::install::archive_file_name(&s.name, &s.version, ArchiveKind::Sdd);
        let archive = maps_dir.join(file);
        compile_map(map, &archive, compile, progress).map_err(|e| e.to_string())?;
        Ok(StagedMap {
            name: s.versioned_name(),
            teams: map.teams.clone(),
            archive,
        })
    };
    match source {
        MapSource::Document(map) => compile_into(map),
        MapSource::Path(p) => {
            if ArchiveKind::from_path(p).is_some() && p.exists() {
                return stage_archive(p, maps_dir);
            }
            if !crate::formats::is_project(p) {
                return Err(format!(
                    "{}: not a project folder (no map.toml) nor a .sd7, .sdz or .sdd map",
                    p.display()
                ));
            }
            let loaded = crate::formats::open_map(p).map_err(|e| e.to_string())?;
            compile_into(&loaded.map)
        }
    }
}

/// Copies the archive at `p` into `maps_dir` and names it from its `mapinfo.lua` (or, without
/// one, from its file name, as the engine does).
fn stage_archive(p: &Path, maps_dir: &Path) -> Result<StagedMap, String> {
    let contents = ArchiveContents::read(p).map_err(|e| e.to_string())?;
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (name, teams) = match contents.find("mapinfo.lua") {
        Some(f) => {
            let table = crate::formats::mapinfo::eval_mapinfo(
                &f.data,
                &contents,
                crate::formats::mapinfo::LuaLimits::default(),
            )
            .map_err(|e| e.to_string())?;
            let info = crate::formats::mapinfo::mapinfo_from_table(&table);
            (info.settings.versioned_name(), info.teams)
        }
        None => (stem, Vec::new()),
    };
    drop(contents);
    let file_name = p
        .file_name()
        .ok_or_else(|| format!("{}: no file name", p.display()))?;
    let archive = maps_dir.join(file_name);
    copy_tree(p, &archive)
        .map_err(|e| format!("cannot copy {} into the sandbox: {e}", p.display()))?;
    Ok(StagedMap {
        name,
        teams,
        archive,
    })
}

/// Copies a file, or a folder with everything under it (links not followed).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    let kind = std::fs::symlink_metadata(from)?.file_type();
    if kind.is_dir() {
        std::fs::create_dir_all(to)?;
        for e in std::fs::read_dir(from)? {
            let e = e?;
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
        Ok(())
    } else if kind.is_file() {
        std::fs::copy(from, to).map(|_| ())
    } else {
        Ok(())
    }
}

/// A free local UDP port for the engine to host on (another try may be running).
fn free_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .map_or(18452, |a| a.port())
}

/// The engine started on a map, running in the background: the editor polls
/// [`RunningEngine::try_finish`], the command line calls [`RunningEngine::wait`].
#[derive(Debug)]
pub struct RunningEngine {
    pub child: Child,
    pub sandbox: Sandbox,
    pub engine: Engine,
    pub map: StagedMap,
    /// The game played (`GameType`).
    pub game_name: String,
    pub mode: Mode,
    pub started: Instant,
    pub timeout: Option<Duration>,
    /// The lint's warnings on the map (its errors stop the try before the engine starts).
    pub lint_warnings: Vec<Finding>,
}

/// Stages the map and starts the engine on it in a fresh sandbox; returns once the engine is
/// started. Staging compiles a document (seconds on a large map): the editor calls this on a
/// worker thread, and `progress` reports the compile's stages and cancels it.
pub fn launch(
    source: MapSource,
    options: &TryOptions,
    progress: &Progress,
) -> Result<RunningEngine, String> {
    let engine = EngineSearch::current().find(options.mode.flavour(), options.engine.as_deref())?;
    launch_with(source, options, engine, progress)
}

/// [`launch`] with the engine already chosen.
pub fn launch_with(
    source: MapSource,
    options: &TryOptions,
    engine: Engine,
    progress: &Progress,
) -> Result<RunningEngine, String> {
    let sandbox = Sandbox::create()?;
    let started = launch_in(&sandbox, source, options, engine, progress);
    if started.is_err() {
        sandbox.remove();
    }
    started
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn launch_in(
    sandbox: &Sandbox,
    source: MapSource,
    options: &TryOptions,
    engine: Engine,
    progress: &Progress,
) -> Result<RunningEngine, String> {
    // the lint first: its errors stop the try in its words, as they stop an install
    let lint_warnings = stop_on_lint_errors(lint_source(&source, &options.lint))?;
    let map = stage_map(
        source,
        &sandbox.data.join("maps"),
        &options.compile,
        progress,
    )?;
    if matches!(options.mode, Mode::Headless { .. }) {
        read_back_tiles(&map.archive)?;
    }
    let (player_start, enemy_start) = chosen_starts(&map.teams, options.start)?;
    // the installed game only to play; checks and screenshots need the minimal game's Lua
    let installed = match (&options.mode, options.installed_game, &engine.game) {
        (Mode::Play, true, Some(g)) => Some(g.name.clone()),
        _ => None,
    };
    let mut data_dirs = vec![sandbox.data.clone()];
    let game_name = match installed {
        Some(name) => {
            if let Some(bar) = &engine.bar_data_dir {
                data_dirs.extend(share_game_folders(bar, &sandbox.data));
            }
            name
        }
        None => {
            let game = sandbox.data.join("games").join(MINIMAL_GAME_FOLDER);
            for (path, text) in MINIMAL_GAME_FILES {
                write(&game.join(path), text)?;
            }
            let opts = MinimalGameOptions {
                quit_frame: match &options.mode {
                    Mode::Play => None,
                    Mode::Headless { frames } => Some((*frames).max(1)),
                    Mode::Screenshot { frame, .. } => Some(frame.max(&1) + 30),
                },
                shot_frame: match &options.mode {
                    Mode::Screenshot { frame, .. } => Some(*frame.max(&1)),
                    _ => None,
                },
                camera: match &options.mode {
                    Mode::Screenshot { camera, .. } => *camera,
                    _ => None,
                },
                start_elmos: player_start,
                cheats: options.mode == Mode::Play,
            };
            write(
                &game.join(MINIMAL_GAME_OPTIONS_PATH),
                &minimal_game_options(&opts),
            )?;
            MINIMAL_GAME_NAME.to_string()
        }
    };
    data_dirs.extend(engine.data_dirs.iter().cloned());
    let script = StartScript {
        map_name: map.name.clone(),
        game_name: game_name.clone(),
        player_name: "Groundwork".into(),
        player_start_elmos: player_start,
        enemy_start_elmos: enemy_start,
        host_port: free_port(),
    };
    write(&sandbox.script, &script.to_text())?;
    let settings = match &options.mode {
        Mode::Play => engine_settings(1280, 800, false, false),
        Mode::Headless { .. } => engine_settings(1024, 768, true, false),
        Mode::Screenshot { .. } => engine_settings(1024, 768, true, true),
    };
    write(&sandbox.settings, &settings)?;
    let output = std::fs::File::create(&sandbox.output)
        .map_err(|e| format!("{}: {e}", sandbox.output.display()))?;
    let errors = output
        .try_clone()
        .map_err(|e| format!("{}: {e}", sandbox.output.display()))?;
    let data_var = std::env::join_paths(&data_dirs)
        .map_err(|e| format!("a data folder's path cannot go in SPRING_DATADIR: {e}"))?;
    let mut command = Command::new(&engine.binary);
    // SDL wants a private runtime folder; a CI shell often has none
    let runtime_ok = std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).is_dir());
    if !runtime_ok {
        let runtime = sandbox.root.join("runtime");
        std::fs::create_dir_all(&runtime).map_err(|e| format!("{}: {e}", runtime.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let _ = std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700));
        }
        command.env("XDG_RUNTIME_DIR", runtime);
    }
    let child = command
        .arg("--config")
        .arg(&sandbox.settings)
        // the start script last, as the engine takes it
        .arg(&sandbox.script)
        .current_dir(&sandbox.root)
        .env("HOME", &sandbox.home)
        .env("XDG_CONFIG_HOME", sandbox.home.join(".config"))
        .env("SPRING_WRITEDIR", &sandbox.write)
        .env("SPRING_ISOLATED", &sandbox.write)
        .env("SPRING_DATADIR", data_var)
        .stdin(Stdio::null())
        .stdout(output)
        .stderr(errors)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", engine.binary.display()))?;
    Ok(RunningEngine {
        child,
        sandbox: sandbox.clone(),
        engine,
        map,
        game_name,
        mode: options.mode.clone(),
        started: Instant::now(),
        timeout: options.timeout,
        lint_warnings,
    })
}

/// The lint on what is tried: the document, or the map or project at a path. A map that
/// Groundwork's reader cannot open at all is left to the engine, whose own words then say why
/// (a note says so).
fn lint_source(source: &MapSource, ctx: &LintContext) -> Vec<Finding> {
    match source {
        MapSource::Document(map) => crate::lint::lint_map(map, ctx),
        MapSource::Path(p) => match crate::lint::lint_path(p, ctx) {
            Ok((_, findings)) => findings,
            Err(e) => vec![Finding {
                rule: "load-note",
                severity: Severity::Warning,
                message: format!("Groundwork cannot read the map ({e}); the engine decides"),
                fix: None,
                action: None,
            }],
        },
    }
}

/// The lint's errors in its own words, one a line with its fix, as an error that stops the
/// try; the warnings to show.
fn stop_on_lint_errors(findings: Vec<Finding>) -> Result<Vec<Finding>, String> {
    let (errors, warnings): (Vec<Finding>, Vec<Finding>) = findings
        .into_iter()
        .partition(|f| f.severity == Severity::Error);
    if errors.is_empty() {
        return Ok(warnings);
    }
    let mut text = format!(
        "the lint found {} error{}; fix {} before trying the map (groundwork lint):",
        errors.len(),
        if errors.len() == 1 { "" } else { "s" },
        if errors.len() == 1 { "it" } else { "them" }
    );
    for f in &errors {
        text.push('\n');
        text.push_str(&f.describe());
    }
    Err(text)
}

/// Reads every tile file of the staged map back, as the engine's renderer would (the headless
/// engine never draws, so it never reads them): a missing, cut or foreign `.smt` is an error.
/// A map that does not read at all is the engine's to judge.
fn read_back_tiles(archive: &Path) -> Result<(), String> {
    match crate::formats::read_map(archive).map(|l| l.tile_problem) {
        Ok(Some(why)) => Err(format!(
            "the staged map's tiles do not read back: {why} (the engine would paint those tiles red or abort the load)"
        )),
        _ => Ok(()),
    }
}

/// The data folders that let the engine find BAR's game without seeing BAR's maps (an
/// installed copy of the map being tried would clash with ours): links to its `packages/`,
/// `pool/` and `rapid/` in a folder of the sandbox. Where links cannot be made, BAR's data
/// folder itself.
fn share_game_folders(bar: &Path, sandbox_data: &Path) -> Vec<PathBuf> {
    let linked = sandbox_data.with_file_name("bar-game");
    #[cfg(unix)]
    {
        let made = std::fs::create_dir_all(&linked).is_ok()
            && ["packages", "pool", "rapid"].iter().all(|d| {
                !bar.join(d).exists()
                    || std::os::unix::fs::symlink(bar.join(d), linked.join(d)).is_ok()
            });
        if made {
            return vec![linked];
        }
    }
    let _ = linked;
    vec![bar.to_path_buf()]
}

impl RunningEngine {
    /// The report once the engine has exited (killing it first when it ran past its timeout);
    /// `None` while it runs.
    pub fn try_finish(&mut self) -> Option<TryReport> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(self.report(Some(status), false)),
            Ok(None) => {
                let late = self.timeout.is_some_and(|t| self.started.elapsed() > t);
                late.then(|| {
                    let status = self.kill();
                    self.report(status, true)
                })
            }
            Err(_) => Some(self.report(None, false)),
        }
    }

    /// Waits for the engine to exit (or its timeout) and reports.
    pub fn wait(mut self) -> TryReport {
        loop {
            if let Some(r) = self.try_finish() {
                return r;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the engine and waits for it.
    pub fn kill(&mut self) -> Option<std::process::ExitStatus> {
        let _ = self.child.kill();
        self.child.wait().ok()
    }

    fn report(&mut self, status: Option<std::process::ExitStatus>, timed_out: bool) -> TryReport {
        let run_time = self.started.elapsed();
        let log_path = self.sandbox.log_path();
        let bytes = std::fs::read(&log_path).unwrap_or_default();
        let mut findings = parse_log(&String::from_utf8_lossy(&bytes));
        if log_path != self.sandbox.output {
            // what the engine printed before it opened its log (a bad argument, a missing library)
            if let Ok(out) = std::fs::read(&self.sandbox.output) {
                let early = parse_log(&String::from_utf8_lossy(&out));
                if findings.fatal.is_empty() {
                    findings.fatal = early.fatal;
                }
            }
        }
        let screenshot = match &self.mode {
            Mode::Screenshot { out, .. } => copy_newest_screenshot(&self.sandbox.write, out),
            _ => None,
        };
        TryReport {
            map_name: self.map.name.clone(),
            engine: self.engine.binary.clone(),
            game_name: self.game_name.clone(),
            mode: self.mode.clone(),
            exit_code: status.and_then(|s| s.code()),
            exit: status.map_or("unknown".into(), |s| s.to_string()),
            exited_cleanly: status.is_some_and(|s| s.success()),
            timed_out,
            loaded: findings.loaded,
            load_time: findings.load_time,
            run_time,
            fatal: findings.fatal,
            errors: findings.errors,
            map_warnings: findings.map_warnings,
            screenshot,
            sandbox: self.sandbox.clone(),
            log_path,
        }
    }
}

/// Copies the newest picture in `write/screenshots` to `out`; its path, or `None`.
fn copy_newest_screenshot(write: &Path, out: &Path) -> Option<PathBuf> {
    let newest = std::fs::read_dir(write.join("screenshots"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .max_by_key(|p| {
            (
                std::fs::metadata(p).and_then(|m| m.modified()).ok(),
                p.file_name().map(|n| n.to_os_string()),
            )
        })?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).ok()?;
    }
    std::fs::copy(&newest, out).ok()?;
    Some(out.to_path_buf())
}

/// What a try found.
#[derive(Clone, Debug)]
pub struct TryReport {
    pub map_name: String,
    pub engine: PathBuf,
    pub game_name: String,
    pub mode: Mode,
    /// The exit code, when the engine exited with one (not on a signal).
    pub exit_code: Option<i32>,
    /// The exit status in words.
    pub exit: String,
    pub exited_cleanly: bool,
    /// Killed after the timeout.
    pub timed_out: bool,
    /// The map loaded: the minimal game's marker, or the engine's "now ingame" line.
    pub loaded: bool,
    /// From the engine's start to the map loaded, by the engine's log clock.
    pub load_time: Option<Duration>,
    /// From the start to the exit.
    pub run_time: Duration,
    /// The lines that end a load (an exception, a content error, a crash), without the log's
    /// time prefix.
    pub fatal: Vec<String>,
    /// The engine's `Error:` lines.
    pub errors: Vec<String>,
    /// The engine's warnings and errors about the map (`SMFReadMap`, `MapInfo`, ...).
    pub map_warnings: Vec<String>,
    /// The screenshot copied to the caller's path.
    pub screenshot: Option<PathBuf>,
    pub sandbox: Sandbox,
    pub log_path: PathBuf,
}

impl TryReport {
    /// Why the try failed, in one line carrying the engine's own message; `None` when the map
    /// loaded, nothing fatal was logged, the engine exited cleanly in time, and a screenshot
    /// asked for was taken.
    pub fn failure(&self) -> Option<String> {
        let engine_says = |lines: &[String]| {
            lines
                .first()
                .map_or(String::new(), |l| format!(": the engine says: {l}"))
        };
        if let Some(f) = self.fatal.first() {
            return Some(format!("the engine failed to load {}: {f}", self.map_name));
        }
        if self.timed_out {
            return Some(format!(
                "the engine was killed after {:.0} s{}{}",
                self.run_time.as_secs_f64(),
                if self.loaded {
                    ""
                } else {
                    " without loading the map"
                },
                engine_says(&self.errors)
            ));
        }
        if !self.loaded {
            return Some(format!(
                "the engine exited ({}) without loading {}{}",
                self.exit,
                self.map_name,
                engine_says(&self.errors)
            ));
        }
        if !self.exited_cleanly {
            return Some(format!(
                "the engine exited ({}) after loading the map{}",
                self.exit,
                engine_says(&self.errors)
            ));
        }
        if let Mode::Screenshot { out, .. } = &self.mode
            && self.screenshot.is_none()
        {
            return Some(format!(
                "the engine took no screenshot for {} (is there a display? try xvfb-run)",
                out.display()
            ));
        }
        None
    }
}

/// Stages the map and runs the engine on it to the end; see [`launch`].
pub fn try_map(
    source: MapSource,
    options: &TryOptions,
    progress: &Progress,
) -> Result<TryReport, String> {
    Ok(launch(source, options, progress)?.wait())
}

/// A screenshot of the map in the engine, from `camera` (the whole map from above when
/// `None`), copied to `out`: the windowed engine (it needs a display), a document compiled
/// with `compile`. Returns `out`, or why there is none; the sandbox is removed either way.
pub fn screenshot(
    source: MapSource,
    camera: Option<Camera>,
    out: &Path,
    engine: Option<&Path>,
    compile: CompileOptions,
    progress: &Progress,
) -> Result<PathBuf, String> {
    let mut options = TryOptions::new(Mode::Screenshot {
        out: out.to_path_buf(),
        camera,
        frame: DEFAULT_SHOT_FRAME,
    });
    options.engine = engine.map(Path::to_path_buf);
    options.compile = compile;
    let report = try_map(source, &options, progress)?;
    report.sandbox.remove();
    match (report.failure(), report.screenshot) {
        (None, Some(p)) => Ok(p),
        (Some(why), _) => Err(why),
        (None, None) => Err("the engine took no screenshot".into()),
    }
}

/// What the engine's log says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogFindings {
    pub loaded: bool,
    pub load_time: Option<Duration>,
    pub fatal: Vec<String>,
    pub errors: Vec<String>,
    pub map_warnings: Vec<String>,
}

/// The most lines of each kind kept.
const MAX_LINES: usize = 20;

/// A log line without its `[t=00:00:02.511095][f=-000001] ` prefix, and the time the prefix
/// gives (since the engine started).
pub fn split_log_prefix(line: &str) -> (Option<Duration>, &str) {
    let mut rest = line.trim_end();
    let mut time = None;
    while let Some(inner) = rest.strip_prefix('[') {
        let Some(end) = inner.find(']') else {
            break;
        };
        let tag = &inner[..end];
        if let Some(t) = tag.strip_prefix("t=") {
            time = parse_clock(t);
        } else if !tag.starts_with("f=") {
            break;
        }
        rest = inner[end + 1..].trim_start();
    }
    (time, rest)
}

/// `HH:MM:SS.ffffff` as a duration.
fn parse_clock(t: &str) -> Option<Duration> {
    let mut parts = t.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    let seconds =
        h.parse::<f64>().ok()? * 3600.0 + m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
}

/// Whether a message is one that ends a load.
fn is_fatal(msg: &str) -> bool {
    msg.contains("forced quit with exception")
        || msg.contains("content_error")
        || (msg.contains("[CrashHandler]") && !is_stack_frame(msg))
        || msg.contains("[ExitSpringProcess]")
        || msg.starts_with("Fatal error")
}

/// A crash handler's stack line (`<04> ...`, `[13] ...`), too many to report.
fn is_stack_frame(msg: &str) -> bool {
    let after = msg.split("Error:").nth(1).unwrap_or("").trim_start();
    after.starts_with('<') || after.starts_with('[') || after.is_empty()
}

/// Whether a message is the engine's about the map.
fn is_map_warning(msg: &str) -> bool {
    const SECTIONS: [&str; 6] = [
        "SMFGroundTextures",
        "SMFReadMap",
        "CReadMap",
        "MapInfo",
        "MapParser",
        "FeatureHandler",
    ];
    SECTIONS.iter().any(|s| msg.contains(s)) && (msg.contains("Warning") || msg.contains("Error"))
}

/// Reads an engine log: whether the map loaded (the minimal game's [`LOADED_MARKER`], or the
/// engine's "now ingame" line when another game runs), when, and the fatal lines, errors and
/// map warnings (each at most 20, without the time prefix, repeats dropped).
pub fn parse_log(text: &str) -> LogFindings {
    let mut f = LogFindings::default();
    let mut marker_time = None;
    let mut ingame_time = None;
    let mut marker = false;
    let mut ingame = false;
    let push = |list: &mut Vec<String>, msg: &str| {
        if list.len() < MAX_LINES && !list.iter().any(|l| l == msg) {
            list.push(msg.to_string());
        }
    };
    for line in text.lines() {
        let (time, msg) = split_log_prefix(line);
        if msg.is_empty() {
            continue;
        }
        if msg.contains(LOADED_MARKER) {
            marker = true;
            marker_time = marker_time.or(time);
            continue;
        }
        if msg.contains("[CrashHandler]") && is_stack_frame(msg) {
            continue;
        }
        if msg.contains(INGAME_LINE) {
            ingame = true;
            ingame_time = ingame_time.or(time);
        }
        if is_fatal(msg) {
            push(&mut f.fatal, msg);
        } else if is_map_warning(msg) {
            push(&mut f.map_warnings, msg);
        } else if msg.contains("Error:") || msg.starts_with("Error") {
            push(&mut f.errors, msg);
        }
    }
    f.loaded = marker || ingame;
    f.load_time = if marker { marker_time } else { ingame_time };
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
[t=00:00:00.000568] [DataDirLocater::FindWriteableDataDir] using writeable data-directory \"/x/write/\"
[t=00:00:02.250441][f=-000001] [LoadScreen::SetLoadMessage] text=\"Loading Map (25 MB)\"
[t=00:00:02.378930][f=-000001] [CSMFGroundTextures] Warning: [SMFGroundTextures::LoadTiles] smtFileNames.size()=1 != tileHeader.numTileFiles=0
[t=00:00:02.443712][f=-000001] Error: [ITreeDrawer] exception \"Could not create FBO!\"; falling back to NullTreeDrawer
[t=00:00:02.443712][f=-000001] Error: [ITreeDrawer] exception \"Could not create FBO!\"; falling back to NullTreeDrawer
[t=00:00:02.511095][f=-000001] GROUNDWORK loaded 0 4096 4096 New map 1.0
[t=00:00:02.636321][f=-000001] Player Groundwork finished loading and is now ingame
[t=00:00:06.665140][f=0000001] GROUNDWORK started 1
[t=00:00:07.665140][f=0000030] GROUNDWORK quit 30
";

    const BROKEN: &str = "\
[t=00:00:02.250441][f=-000001] [LoadScreen::SetLoadMessage] text=\"Loading SMF\"
[t=00:00:02.282546][f=-000001] Warning: [Game::Load][1] forced quit with exception \"[SMFMapFile::Open] corrupt header for \"maps/New_map_1.0.smf\" (v=1 ts=0 tps=8 ss=8)\"
[t=00:00:02.282876][f=-000001] [CrashHandler] Error: Segmentation fault in Spring 106.0 (Headless)
[t=00:00:02.376089][f=-000001] [CrashHandler] Error:   <04>   .../spring-headless(+0x5f02fc) [0x563c107422fc]  std::vector
[t=00:00:02.376205][f=-000001] [CrashHandler] Error: [13]                                            0x4d4920  ??:?
[t=00:00:02.376302][f=-000001] Error: [ExitSpringProcess] errorMsg=\"/x/write/infolog.txt.\"
";

    #[test]
    fn a_good_log_loads_with_its_time_and_warnings() {
        let f = parse_log(GOOD);
        assert!(f.loaded);
        assert_eq!(f.load_time, Some(Duration::from_secs_f64(2.511095)));
        assert!(f.fatal.is_empty());
        assert_eq!(f.map_warnings.len(), 1);
        assert!(f.map_warnings[0].starts_with("[CSMFGroundTextures] Warning:"));
        // repeats dropped, prefix gone
        assert_eq!(
            f.errors,
            [
                "Error: [ITreeDrawer] exception \"Could not create FBO!\"; falling back to NullTreeDrawer"
            ]
        );
    }

    #[test]
    fn a_broken_map_is_fatal_with_the_engines_line_first() {
        let f = parse_log(BROKEN);
        assert!(!f.loaded && f.load_time.is_none());
        assert_eq!(f.fatal.len(), 3, "{:?}", f.fatal);
        assert!(f.fatal[0].starts_with("Warning: [Game::Load][1] forced quit with exception"));
        assert!(f.fatal[0].contains("corrupt header"));
        assert_eq!(
            f.fatal[1],
            "[CrashHandler] Error: Segmentation fault in Spring 106.0 (Headless)"
        );
        assert!(f.fatal[2].contains("[ExitSpringProcess]"));
        // the stack lines are not reported
        assert!(f.errors.is_empty(), "{:?}", f.errors);
    }

    #[test]
    fn another_games_load_is_the_engines_ingame_line() {
        let f = parse_log(
            "[t=00:00:09.500000][f=-000001] Player Groundwork finished loading and is now ingame\n\
             [t=00:00:12.000000][f=0000100] [f=0000100] content_error: missing unit def\n",
        );
        assert!(f.loaded);
        assert_eq!(f.load_time, Some(Duration::from_secs_f64(9.5)));
        assert_eq!(f.fatal, ["content_error: missing unit def"]);
    }

    #[test]
    fn prefixes_split_and_odd_lines_survive() {
        assert_eq!(
            split_log_prefix("[t=01:02:03.500000][f=0000007] hello"),
            (Some(Duration::from_secs_f64(3723.5)), "hello")
        );
        assert_eq!(split_log_prefix("[Game::Load] x"), (None, "[Game::Load] x"));
        assert_eq!(split_log_prefix("[t=bad] x"), (None, "x"));
        assert_eq!(split_log_prefix("[t=00:00:01"), (None, "[t=00:00:01"));
        let f = parse_log("no prefix at all\n\u{fffd}\n");
        assert!(!f.loaded && f.fatal.is_empty());
    }

    fn report(mode: Mode) -> TryReport {
        TryReport {
            map_name: "M 1".into(),
            engine: "spring".into(),
            game_name: MINIMAL_GAME_NAME.into(),
            mode,
            exit_code: Some(0),
            exit: "exit status: 0".into(),
            exited_cleanly: true,
            timed_out: false,
            loaded: true,
            load_time: Some(Duration::from_secs(2)),
            run_time: Duration::from_secs(5),
            fatal: Vec::new(),
            errors: Vec::new(),
            map_warnings: Vec::new(),
            screenshot: None,
            sandbox: Sandbox::at("sandbox".into()),
            log_path: "infolog.txt".into(),
        }
    }

    #[test]
    fn failures_say_why_with_the_engines_line() {
        let ok = report(Mode::Headless { frames: 30 });
        assert_eq!(ok.failure(), None);
        let mut fatal = ok.clone();
        fatal.fatal = vec!["forced quit with exception \"bad\"".into()];
        fatal.loaded = false;
        assert_eq!(
            fatal.failure().unwrap(),
            "the engine failed to load M 1: forced quit with exception \"bad\""
        );
        let mut gone = ok.clone();
        gone.loaded = false;
        gone.exit = "signal: 11".into();
        gone.errors = vec!["Error: something".into()];
        assert_eq!(
            gone.failure().unwrap(),
            "the engine exited (signal: 11) without loading M 1: the engine says: Error: something"
        );
        let mut late = ok.clone();
        late.timed_out = true;
        assert!(
            late.failure()
                .unwrap()
                .starts_with("the engine was killed after 5 s")
        );
        let shot = report(Mode::Screenshot {
            out: "x.png".into(),
            camera: None,
            frame: 90,
        });
        assert!(shot.failure().unwrap().contains("no screenshot for x.png"));
    }
}
