//! `groundwork compile PROJECT -o OUT.sd7|OUT.sdz|OUT.sdd`: the project folder to a map
//! archive, with progress on stderr. `--install [--maps-dir DIR]` writes it into the game's
//! maps folder under BAR's name for it (`my_map_1.0.sd7`) after the lint passes, refuses a
//! name that is taken (naming the next free version) unless `--force`, and prints the path.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::compile::{CompileCache, CompileOptions, Progress, Stage, compile_map};
use crate::formats::bc1::Bc1Quality;
use crate::formats::open_map;

#[derive(clap::Args, Debug)]
pub struct CompileArgs {
    /// The project folder (or an existing map to recompile).
    pub project: PathBuf,
    /// The archive to write; its extension picks the container (.sd7, .sdz, .sdd).
    #[arg(
        short,
        long,
        required_unless_present = "install",
        conflicts_with = "install"
    )]
    pub output: Option<PathBuf>,
    /// Write into the game's maps folder (BAR's first, else Spring's), named as BAR names maps.
    #[arg(long)]
    pub install: bool,
    /// The maps folder to install into, instead of the detected one.
    #[arg(long, requires = "install")]
    pub maps_dir: Option<PathBuf>,
    /// With --install: the container (sd7, sdz, or sdd for development).
    #[arg(long, default_value = "sd7", requires = "install")]
    pub container: String,
    /// With --install: overwrite a map of the same name and version.
    #[arg(long, requires = "install")]
    pub force: bool,
    /// Compress tiles with the slow, best-quality encoder (texpresso cluster fit).
    #[arg(long)]
    pub best: bool,
    /// No progress line.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print how long loading and each stage took.
    #[arg(long)]
    pub timings: bool,
    /// Bake the texture layers on the CPU even when a GPU is there.
    #[arg(long)]
    pub cpu_bake: bool,
    /// Bake the texture layers on the graphics adapter even when it is a CPU (lavapipe,
    /// llvmpipe), where the CPU twin is used otherwise, being faster there.
    #[arg(long, conflicts_with = "cpu_bake")]
    pub gpu_bake: bool,
    /// Encode every tile and pack every file anew: no compile cache (the bytes are the same).
    #[arg(long)]
    pub no_cache: bool,
}

/// Prints `stage NN%` on one stderr line, updated in place.
fn progress_printer(quiet: bool) -> impl Fn(Stage, u64, u64) + Sync {
    use std::io::IsTerminal;
    let terminal = std::io::stderr().is_terminal();
    let last = std::sync::Mutex::new((None::<Stage>, u64::MAX));
    move |stage, done, total| {
        if quiet || total == 0 {
            return;
        }
        let pct = done * 100 / total;
        let mut l = last.lock().unwrap_or_else(|e| e.into_inner());
        if terminal && (l.0 != Some(stage) || l.1 != pct) {
            eprint!("\r{:>9} {pct:>3}%", stage.label());
            let _ = std::io::stderr().flush();
        } else if !terminal && l.0 != Some(stage) {
            // a log, not a terminal: one line per stage
            eprintln!("{}", stage.label());
        }
        *l = (Some(stage), pct);
    }
}

/// Where `map`'s texture layers bake: on the GPU when there is one that runs compute and
/// `cpu_bake` is off, else on the CPU (`None`); says which unless `quiet`.
pub(super) fn choose_baker(
    map: &crate::map::Map,
    cpu_bake: bool,
    gpu_bake: bool,
    quiet: bool,
) -> Option<crate::compile::Baker> {
    if map.texture_layers.is_empty() || cpu_bake {
        return None;
    }
    match crate::gpu::bake::shared_headless() {
        Ok(ctx) if ctx.is_cpu() && !gpu_bake => {
            if !quiet {
                eprintln!(
                    "baking the texture layers on the CPU ({} is a CPU adapter, slower than the CPU twin; --gpu-bake uses it)",
                    ctx.describe()
                );
            }
            None
        }
        Ok(ctx) => {
            if !quiet {
                eprintln!("baking the texture layers on {}", ctx.describe());
            }
            Some(crate::gpu::bake::headless_baker(ctx))
        }
        Err(why) => {
            if !quiet {
                eprintln!("baking the texture layers on the CPU ({why})");
            }
            None
        }
    }
}

pub fn run(args: CompileArgs) -> Result<(), String> {
    let started = Instant::now();
    let loaded = open_map(&args.project).map_err(|e| e.to_string())?;
    let load_time = started.elapsed();
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let baker = choose_baker(&loaded.map, args.cpu_bake, args.gpu_bake, args.quiet);
    let options = CompileOptions {
        quality: if args.best {
            Bc1Quality::Best
        } else {
            Bc1Quality::Fast
        },
        baker,
        cache: (!args.no_cache)
            .then(|| std::sync::Arc::new(CompileCache::for_user().without_memory())),
    };
    let report = progress_printer(args.quiet);
    let cancel = AtomicBool::new(false);
    let progress = Progress::new(&report, &cancel);
    let Some(output) = &args.output else {
        return install(&args, &loaded.map, &options, &progress, started);
    };
    let result = compile_map(&loaded.map, output, &options, &progress);
    if !args.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        eprintln!();
    }
    let r = result.map_err(|e| e.to_string())?;
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    if args.timings {
        eprintln!("{:>9} {:>7.3} s", "load", load_time.as_secs_f64());
        for (stage, t) in &r.stage_times {
            eprintln!("{:>9} {:>7.3} s", stage.label(), t.as_secs_f64());
        }
        print_cache_stats(&options);
    }
    println!(
        "wrote {} ({:.1} MB, {} distinct of {} tiles) in {:.2} s",
        r.archive.display(),
        r.archive_bytes as f64 / 1e6,
        r.tiles_distinct,
        r.tiles_total,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// What the compile cache did, for `--timings`.
fn print_cache_stats(options: &CompileOptions) {
    if let Some(c) = &options.cache {
        let s = c.stats();
        eprintln!(
            "    cache {} blocks baked, {} known; {} tiles encoded, {} from memory, {} from disk, {} entries rejected; {} packs reused, {} packed",
            s.bake_blocks_baked,
            s.bake_blocks_reused,
            s.tiles_encoded,
            s.tiles_from_memory,
            s.tiles_from_disk,
            s.entries_rejected,
            s.packs_reused,
            s.packs_made
        );
    }
}

/// `--install`: lint (errors stop it), then compile into the maps folder and check the result.
fn install(
    args: &CompileArgs,
    map: &crate::map::Map,
    options: &CompileOptions,
    progress: &Progress,
    started: Instant,
) -> Result<(), String> {
    use crate::install::{HomeEnv, InstallError, found_maps_folders, install_map, maps_folders};
    let kind = crate::formats::archive::ArchiveKind::from_path(std::path::Path::new(&format!(
        "x.{}",
        args.container
    )))
    .ok_or_else(|| format!("--container {}: expected sd7, sdz or sdd", args.container))?;
    let dir = match &args.maps_dir {
        Some(d) => d.clone(),
        None => {
            let env = HomeEnv::current();
            match found_maps_folders(&env).into_iter().next() {
                Some(f) => f.path,
                None => {
                    let looked: Vec<String> = maps_folders(&env)
                        .iter()
                        .map(|f| format!("{} ({})", f.path.display(), f.game.label()))
                        .collect();
                    return Err(format!(
                        "no game found to install into (looked for {}); give --maps-dir",
                        looked.join(", ")
                    ));
                }
            }
        }
    };
    let findings = crate::lint::lint_map(map, &super::lint::game_context());
    super::lint::print_findings(&findings);
    let errors = findings
        .iter()
        .filter(|f| f.severity == crate::lint::Severity::Error)
        .count();
    if errors > 0 {
        return Err(format!(
            "{errors} lint errors; fix them first (groundwork lint)"
        ));
    }
    let result = install_map(map, &dir, kind, args.force, options, progress);
    if !args.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        eprintln!();
    }
    let done = result.map_err(|e| match e {
        InstallError::Exists { existing, next_version } => format!(
            "{} is already there; the next free version is {next_version} (set version = \"{next_version}\" in map.toml), or pass --force to overwrite",
            existing.display()
        ),
        other => other.to_string(),
    })?;
    for w in &done.compile.warnings {
        eprintln!("warning: {w}");
    }
    for p in &done.cleaned {
        eprintln!("removed a stale temporary file: {}", p.display());
    }
    if args.timings {
        for (stage, t) in &done.compile.stage_times {
            eprintln!("{:>9} {:>7.3} s", stage.label(), t.as_secs_f64());
        }
        print_cache_stats(options);
    }
    eprintln!(
        "installed ({:.1} MB in {:.2} s); checked with our reader. In BAR's lobby, Rescan files (or restart) to see it.",
        done.bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    println!("{}", done.path.display());
    Ok(())
}
