//! `groundwork compile PROJECT -o OUT.sd7|OUT.sdz|OUT.sdd`: the project folder to a map
//! archive, with progress on stderr.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::compile::{CompileOptions, Progress, Stage, compile_map};
use crate::formats::bc1::Bc1Quality;
use crate::formats::open_map;

#[derive(clap::Args, Debug)]
pub struct CompileArgs {
    /// The project folder (or an existing map to recompile).
    pub project: PathBuf,
    /// The archive to write; its extension picks the container (.sd7, .sdz, .sdd).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Compress tiles with the slow, best-quality encoder (texpresso cluster fit).
    #[arg(long)]
    pub best: bool,
    /// No progress line.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print how long loading and each stage took.
    #[arg(long)]
    pub timings: bool,
}

/// Prints `stage NN%` on one stderr line, updated in place.
pub fn progress_printer(quiet: bool) -> impl Fn(Stage, u64, u64) + Sync {
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

pub fn run(args: CompileArgs) -> Result<(), String> {
    let started = Instant::now();
    let loaded = open_map(&args.project).map_err(|e| e.to_string())?;
    let load_time = started.elapsed();
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let options = CompileOptions {
        quality: if args.best {
            Bc1Quality::Best
        } else {
            Bc1Quality::Fast
        },
    };
    let report = progress_printer(args.quiet);
    let cancel = AtomicBool::new(false);
    let result = compile_map(
        &loaded.map,
        &args.output,
        &options,
        &Progress::new(&report, &cancel),
    );
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
