//! `groundwork resize PROJECT --size WxD [--scale | --anchor-x A --anchor-z A] [-o OUT]`:
//! Map > Resize from the command line. Crops or extends the canvas (anchored at the start,
//! centre or end of each axis) or scales the whole map; every layer, the features and the
//! starts move with it. Writes the project in place or to `-o`; nothing on an error.

use std::path::PathBuf;

use crate::map::MapSize;
use crate::map::resize::{Anchor, Resize, ResizeHow, resize};

#[derive(clap::Args, Debug)]
pub struct ResizeArgs {
    /// The project folder to resize.
    pub project: PathBuf,
    /// The new size in map units, WIDTHxDEPTH (even).
    #[arg(long)]
    pub size: String,
    /// Scale the whole map instead of cropping or extending it.
    #[arg(long, conflicts_with_all = ["anchor_x", "anchor_z"])]
    pub scale: bool,
    /// Where the old map stays across: start (x = 0), centre or end.
    #[arg(long, default_value = "centre")]
    pub anchor_x: String,
    /// Where the old map stays down: start (z = 0), centre or end.
    #[arg(long, default_value = "centre")]
    pub anchor_z: String,
    /// Write the resized project here instead of in place.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

pub fn run(args: ResizeArgs) -> Result<(), String> {
    if !crate::formats::is_project(&args.project) {
        return Err(format!(
            "{} is not a project folder (no map.toml); `groundwork decompile` makes one from a map",
            args.project.display()
        ));
    }
    let (w, d) = super::new::parse_size(&args.size)?;
    let size = MapSize::new(w, d).map_err(|e| e.to_string())?;
    let how = if args.scale {
        ResizeHow::Scale
    } else {
        let x: Anchor = args
            .anchor_x
            .parse()
            .map_err(|e| format!("--anchor-x: {e}"))?;
        let z: Anchor = args
            .anchor_z
            .parse()
            .map_err(|e| format!("--anchor-z: {e}"))?;
        ResizeHow::Canvas { x, z }
    };
    let loaded = crate::formats::load_project(&args.project).map_err(|e| e.to_string())?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let old = loaded.map.size;
    let resized = resize(&loaded.map, Resize { size, how })?;
    for n in &resized.notes {
        eprintln!("note: {n}");
    }
    let out = args.output.as_ref().unwrap_or(&args.project);
    crate::formats::save_project(&resized.map, out).map_err(|e| e.to_string())?;
    eprintln!("resized {old} to {size}: {}", out.display());
    Ok(())
}
