//! `groundwork import wz2100`: the command-line face of the wz2100 importer. Without `--map` it
//! lists the maps in SOURCE; with it, it imports one into a project folder, keeps the import
//! report there and prints it.

use std::path::PathBuf;

use crate::formats::wz2100;

/// Arguments of `groundwork import wz2100`.
#[derive(clap::Args, Debug)]
pub struct Wz2100Args {
    /// A .wz archive (e.g. /usr/share/games/warzone2100/mp.wz), a folder holding
    /// multiplay/maps/, or a single map folder.
    pub source: PathBuf,
    /// The map to import (folder name like 4c-rush, or level name like Sk-Rush). Without it,
    /// the maps in SOURCE are listed.
    #[arg(long)]
    pub map: Option<String>,
    /// Elmos per Warzone tile (16..=256).
    #[arg(long, default_value_t = 64)]
    pub tile_elmos: u32,
    /// Extra factor on heights, after the tile scale.
    #[arg(long, default_value_t = 1.0)]
    pub height_scale: f32,
    /// The game's base.wz, for the tile art (default: beside SOURCE, then the system's game data).
    #[arg(long)]
    pub base_wz: Option<PathBuf>,
    /// The project folder to create.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

/// Runs the import; the error is one line for the user.
pub fn run(args: Wz2100Args) -> Result<(), String> {
    let Some(name) = args.map.as_deref() else {
        return list(&args);
    };
    let out = args
        .output
        .as_ref()
        .ok_or("say where the project goes with -o PROJECT")?;
    let mut settings = crate::import::Settings::default();
    settings.set_number("tile_elmos", args.tile_elmos as f32);
    settings.set_number("height_scale", args.height_scale);
    if let Some(base) = &args.base_wz {
        settings.set_word("base_wz", &base.to_string_lossy());
    }
    eprintln!("importing {name} from {} ...", args.source.display());
    super::import_and_save(
        &crate::import::wz2100::WZ2100,
        &args.source,
        Some(name),
        &settings,
        out,
    )?;
    println!("\nproject: {}", out.display());
    Ok(())
}

fn list(args: &Wz2100Args) -> Result<(), String> {
    use std::io::Write as _;
    let maps = wz2100::list_maps(&args.source).map_err(|e| e.to_string())?;
    // a closed pipe (`| head`) ends the listing quietly
    let mut o = std::io::stdout().lock();
    let _ = writeln!(
        o,
        "{:<24} {:<18} {:>7} {:>9}  {:<8} status",
        "map", "title", "players", "tiles", "tileset"
    );
    for m in &maps {
        let size = m
            .size_tiles
            .map(|(w, h)| format!("{w}x{h}"))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            o,
            "{:<24} {:<18} {:>7} {:>9}  {:<8} {}",
            m.name,
            m.title,
            m.players
                .map(|p| p.to_string())
                .unwrap_or_else(|| "?".into()),
            size,
            m.tileset.map(|t| t.name()).unwrap_or("?"),
            m.status.describe()
        );
    }
    let ok = maps
        .iter()
        .filter(|m| m.status == wz2100::MapStatus::Importable)
        .count();
    let _ = writeln!(
        o,
        "\n{} maps, {ok} importable. Import one with --map NAME -o PROJECT.",
        maps.len()
    );
    Ok(())
}
