//! `groundwork import sc2`: the command-line face of the sc2 importer. Imports, saves the project
//! folder, writes the import report into it and prints the report.

use std::path::PathBuf;

use crate::formats::import_report::IMPORT_REPORT_FILE;
use crate::formats::save_project;
use crate::formats::sc2::{self, Chasm, Sc2Options, TextureSource};

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum ChasmArg {
    /// A deep, dry pit no unit can cross.
    Pit,
    /// Deep sea.
    Sea,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum TextureArg {
    /// The texture layers, coloured by the tileset palette.
    Layers,
    /// Minimap.tga, when its shape matches the playable area or the whole map.
    Minimap,
}

/// Arguments of `groundwork import sc2`.
#[derive(clap::Args, Debug)]
pub struct Sc2Args {
    /// The .SC2Map file.
    pub map: PathBuf,
    /// The project folder to write.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Elmos per SC2 cell (a multiple of 8, 8 to 256).
    #[arg(long, default_value_t = 32)]
    pub cell_elmos: u32,
    /// Multiplies heights (1: one SC2 unit up is one cell across).
    #[arg(long, default_value_t = 1.0)]
    pub height_scale: f32,
    /// What level-0 chasms become.
    #[arg(long, value_enum, default_value_t = ChasmArg::Pit)]
    pub chasm: ChasmArg,
    /// Where the ground colours come from.
    #[arg(long, value_enum, default_value_t = TextureArg::Layers)]
    pub texture: TextureArg,
}

/// Runs the import; the error is one line for the user.
pub fn run(args: Sc2Args) -> Result<(), String> {
    let options = Sc2Options {
        cell_elmos: args.cell_elmos,
        height_scale: args.height_scale,
        chasm: match args.chasm {
            ChasmArg::Pit => Chasm::Pit,
            ChasmArg::Sea => Chasm::Sea,
        },
        texture: match args.texture {
            TextureArg::Layers => TextureSource::Layers,
            TextureArg::Minimap => TextureSource::Minimap,
        },
    };
    eprintln!("importing {}", args.map.display());
    let (map, report) = sc2::import(&args.map, &options).map_err(|e| e.to_string())?;
    eprintln!("saving the project to {}", args.output.display());
    save_project(&map, &args.output).map_err(|e| e.to_string())?;
    let text = report.to_text();
    let report_path = args.output.join(IMPORT_REPORT_FILE);
    std::fs::write(&report_path, &text).map_err(|e| format!("{}: {e}", report_path.display()))?;
    print!("{text}");
    Ok(())
}
