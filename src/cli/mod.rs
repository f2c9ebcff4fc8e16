//! The headless commands: analyze, compile, decompile, edit, info, import, lint, metadata, new,
//! render, resize, try. Each prints progress on stderr and
//! exits non-zero with one clear line on any error.

mod analyze;
mod compile;
mod decompile;
mod edit;
mod import;
mod info;
pub mod lint;
mod metadata;
mod new;
pub mod render;
mod resize;
mod try_map;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "groundwork",
    version,
    about = "Map editor and compiler for Beyond All Reason and other Recoil/Spring games",
    after_help = "With no command, the editor opens: `groundwork` (the starter map), `groundwork MAP` \
(a project folder or .sd7/.sdz/.sdd/.smf), `groundwork [MAP] --screenshot PNG --frames N` \
(draw N frames, save a screenshot, exit; `--window generate|resize` opens that window first)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Where each move class can go, which starts reach which, and each team's fair share.
    Analyze(analyze::AnalyzeArgs),
    /// Compile a project folder into a map archive (.sd7, .sdz or .sdd, by extension).
    Compile(compile::CompileArgs),
    /// Turn a map (.sd7, .sdz, .sdd, or a .smf with its .smt) back into a project folder.
    Decompile(decompile::DecompileArgs),
    /// Run scripted edits (an ops file of tools and paths) on a project folder.
    Edit(edit::EditArgs),
    /// Show what a map or project holds: size, heights, metal, tiles, features, teams, warnings.
    Info(info::InfoArgs),
    /// List every known way a map goes silently wrong, with the fix (exit code 1 on errors).
    Lint(lint::LintArgs),
    /// Print the block for BAR's maps-metadata map_list.yaml: start positions and start boxes.
    Metadata(metadata::MetadataArgs),
    /// Make a new project folder: size, players, symmetry, heights, water.
    New(new::NewArgs),
    /// Draw a map offscreen (no window) and write a PNG.
    Render(render::RenderArgs),
    /// Crop, extend or scale a project to another size, every layer with it.
    Resize(resize::ResizeArgs),
    /// Try a map in the engine: play it, check that it loads (--headless), or take a screenshot.
    Try(try_map::TryArgs),
}

/// The whole command line: the derived commands, and `import` built from the importers.
fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command().subcommand(import::command())
}

/// Whether `name` is one of the subcommands (the editor leaves those to the CLI).
pub fn is_subcommand(name: &str) -> bool {
    command().get_subcommands().any(|c| c.get_name() == name)
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    use clap::FromArgMatches;
    let matches = command().get_matches();
    if let Some(("import", m)) = matches.subcommand() {
        return exit_code(import::run(m));
    }
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        None => {
            let _ = command().print_help();
            return 0;
        }
        Some(Command::Analyze(a)) => analyze::run(a),
        Some(Command::Compile(a)) => compile::run(a),
        Some(Command::Decompile(a)) => decompile::run(a),
        Some(Command::Edit(a)) => edit::run(a),
        Some(Command::Info(a)) => info::run(a),
        Some(Command::Lint(a)) => lint::run(a),
        Some(Command::Metadata(a)) => metadata::run(a),
        Some(Command::New(a)) => new::run(a),
        Some(Command::Render(a)) => render::run(a),
        Some(Command::Resize(a)) => resize::run(a),
        Some(Command::Try(a)) => try_map::run(a),
    };
    exit_code(result)
}

/// 0, or the error's one line and 1.
fn exit_code(result: Result<(), String>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// This process's peak resident memory so far (Linux's `VmHWM`); `None` elsewhere.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Imports `name` of `source` with `importer`, saves the project at `out` with the import
/// report in it, and prints the report: every `import` subcommand ends here.
pub fn import_and_save(
    importer: &dyn crate::import::Importer,
    source: &std::path::Path,
    name: Option<&str>,
    settings: &crate::import::Settings,
    out: &std::path::Path,
) -> Result<(), String> {
    // each stage on its own line once it ends, with the seconds it took
    let ended = |(stage, t0): (String, std::time::Instant)| {
        eprintln!("{stage}: {:.2} s", t0.elapsed().as_secs_f64());
    };
    let mut stage_now: Option<(String, std::time::Instant)> = None;
    let mut progress = |stage: &str, _done: u64, _total: u64| {
        if stage_now.as_ref().is_none_or(|(s, _)| s != stage) {
            let next = (stage.to_string(), std::time::Instant::now());
            if let Some(done) = stage_now.replace(next) {
                ended(done);
            }
        }
    };
    let imported = importer.import(source, name, settings, &mut progress);
    if let Some(done) = stage_now {
        ended(done);
    }
    let (map, report) = imported.map_err(|e| e.to_string())?;
    eprintln!("saving the project to {} ...", out.display());
    crate::formats::save_project(&map, out).map_err(|e| e.to_string())?;
    let text = report.to_text();
    let report_path = out.join(crate::formats::import_report::IMPORT_REPORT_FILE);
    std::fs::write(&report_path, &text).map_err(|e| format!("{}: {e}", report_path.display()))?;
    print!("{text}");
    Ok(())
}
