//! `groundwork decompile MAP -o PROJECT`: any map back into a project folder.

use std::path::PathBuf;

use crate::formats::project::write_reference_minimap;
use crate::formats::{read_map, save_project};

#[derive(clap::Args, Debug)]
pub struct DecompileArgs {
    /// A .sd7, .sdz, .sdd, or a bare .smf with its .smt beside it.
    pub map: PathBuf,
    /// The project folder to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Write into a folder that already has files in it.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: DecompileArgs) -> Result<(), String> {
    let occupied = std::fs::read_dir(&args.output).is_ok_and(|mut d| d.next().is_some());
    if occupied && !args.force {
        return Err(format!(
            "{} already has files in it; pass --force to write into it",
            args.output.display()
        ));
    }
    let loaded = read_map(&args.map).map_err(|e| e.to_string())?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    save_project(&loaded.map, &args.output).map_err(|e| e.to_string())?;
    if let Some(mm) = &loaded.minimap_rgba {
        write_reference_minimap(&args.output, mm).map_err(|e| e.to_string())?;
    }
    let m = &loaded.map;
    println!(
        "wrote {} ({} map, {} teams, {} features, {} bundled files)",
        args.output.display(),
        m.size,
        m.teams.len(),
        m.features.len(),
        m.bundled_files.len()
    );
    Ok(())
}
