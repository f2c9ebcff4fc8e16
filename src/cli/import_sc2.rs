//! `groundwork import sc2`: the command-line face of the sc2 importer. Imports, saves the project
//! folder, writes the import report into it and prints the report.

use std::path::PathBuf;

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
    let mut settings = crate::import::Settings::default();
    settings.set_number("cell_elmos", args.cell_elmos as f32);
    settings.set_number("height_scale", args.height_scale);
    settings.set_word(
        "chasm",
        match args.chasm {
            ChasmArg::Pit => "pit",
            ChasmArg::Sea => "sea",
        },
    );
    settings.set_word(
        "texture",
        match args.texture {
            TextureArg::Layers => "layers",
            TextureArg::Minimap => "minimap",
        },
    );
    eprintln!("importing {}", args.map.display());
    super::import_and_save(
        &crate::import::sc2::SC2,
        &args.map,
        None,
        &settings,
        &args.output,
    )
}
