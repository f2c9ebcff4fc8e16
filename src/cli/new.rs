//! `groundwork new OUT --size 12x12 --players 4 --symmetry rotate-4 [--terrain P --seed N |
//! --recipe R.toml]`: a new project folder, flat, from a heightmap or from the generator, with its start positions laid out by the symmetry. The same arguments
//! give the same bytes every run; a bad request is one line and writes nothing.

use std::path::PathBuf;

use crate::edit::new_map::{NewMap, new_map_generated};
use crate::formats::save_project;
use crate::map::SymmetryMode;
use crate::map::recipe::{Preset, Recipe};

#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The project folder to write (new or empty).
    pub output: PathBuf,
    /// Map units a side, WIDTHxDEPTH (even, 2..32).
    #[arg(long, default_value = "12x12")]
    pub size: String,
    #[arg(long, default_value_t = 2)]
    pub players: u32,
    /// none, mirror-x, mirror-z, mirror-xz, diagonal, anti-diagonal, rotate-N (N = 2, 3, 4,
    /// 6, 8).
    #[arg(long, default_value = "rotate-2")]
    pub symmetry: String,
    /// The ground: `flat` (at --start-height, unless --seed asks the generator for its flat
    /// preset with metal and vents), or a generator preset: continental, islands, canyon,
    /// hills, plateaus, valley-lane.
    #[arg(long, default_value = "flat")]
    pub terrain: String,
    /// The generator's seed: the same seed, the same map.
    #[arg(long)]
    pub seed: Option<u32>,
    /// A generator recipe (TOML, as `generator.toml` in a project) instead of a preset.
    #[arg(long)]
    pub recipe: Option<PathBuf>,
    /// A 16-bit (or 8-bit) grey PNG for the ground, scaled to the map and the height range.
    #[arg(long)]
    pub heightmap: Option<PathBuf>,
    /// The height range and the flat ground's height, in elmos above the sea (or above 0).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub min_height: f32,
    #[arg(long, default_value_t = 500.0, allow_hyphen_values = true)]
    pub max_height: f32,
    #[arg(long, default_value_t = 100.0, allow_hyphen_values = true)]
    pub start_height: f32,
    /// The sea's surface in the same elmos; without it the map has no water.
    #[arg(long, allow_hyphen_values = true)]
    pub sea_level: Option<f32>,
    #[arg(long, default_value = "New map")]
    pub name: String,
    #[arg(long, default_value = "")]
    pub author: String,
}

/// `12x12` as (12, 12).
pub(crate) fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--size {s:?}: give map units as WIDTHxDEPTH, for example 12x12");
    let (a, b) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    ))
}

/// A TOML error's first line.
fn one_line(e: &str) -> String {
    e.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(args: NewArgs) -> Result<(), String> {
    let occupied = std::fs::read_dir(&args.output).is_ok_and(|mut d| d.next().is_some());
    if occupied {
        return Err(format!(
            "{} already has files in it; a new map goes into a new or empty folder",
            args.output.display()
        ));
    }
    let preset: Preset = args
        .terrain
        .parse()
        .map_err(|e| format!("--terrain: {e}"))?;
    let mut recipe = match &args.recipe {
        Some(p) => {
            let text =
                std::fs::read_to_string(p).map_err(|e| format!("--recipe {}: {e}", p.display()))?;
            let mut r = Recipe::from_toml(&text)
                .map_err(|e| format!("--recipe {}: {}", p.display(), one_line(&e)))?;
            if let Some(seed) = args.seed {
                r.seed = seed;
            }
            Some(r)
        }
        None if preset != Preset::Flat || args.seed.is_some() => {
            Some(Recipe::preset(preset, args.seed.unwrap_or(0)))
        }
        None => None,
    };
    if recipe.is_some() && args.heightmap.is_some() {
        return Err("--heightmap and the generator (--terrain, --seed, --recipe) each make the ground: give one".into());
    }
    if let (Some(r), Some(sea)) = (recipe.as_mut(), args.sea_level) {
        r.set_sea_level(sea - args.min_height);
    }
    let (width_units, depth_units) = parse_size(&args.size)?;
    let symmetry: SymmetryMode = args.symmetry.parse()?;
    let heightmap = match &args.heightmap {
        Some(p) => Some(
            crate::formats::project::read_grey_unit(p)
                .map_err(|e| format!("--heightmap {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let spec = NewMap {
        width_units,
        depth_units,
        min_height_elmos: args.min_height,
        max_height_elmos: args.max_height,
        start_height_elmos: args.start_height,
        sea_level_elmos: args.sea_level,
        players: args.players,
        symmetry,
        name: args.name.clone(),
        author: args.author.clone(),
        heightmap,
        recipe,
    };
    let (map, outcome) = new_map_generated(&spec)?;
    for n in &outcome.notes {
        eprintln!("note: {n}");
    }
    if let Err(e) = save_project(&map, &args.output) {
        // a new folder half written is worse than none
        if !occupied {
            let _ = std::fs::remove_dir_all(&args.output);
        }
        return Err(e.to_string());
    }
    println!(
        "wrote {} ({} map, {} players, symmetry {}{})",
        args.output.display(),
        map.size,
        map.teams.len(),
        map.symmetry,
        match &map.generator {
            Some(r) => format!(
                ", generated: {}, seed {}, {} metal spots, {} vents, on the {}",
                r.base_preset()
                    .map_or("recipe".to_string(), |p| p.to_string()),
                r.seed,
                outcome.spots,
                outcome.vents,
                if outcome.on_gpu {
                    "GPU".to_string()
                } else {
                    format!(
                        "CPU ({} threads)",
                        std::thread::available_parallelism().map_or(1, |n| n.get())
                    )
                }
            ),
            None => String::new(),
        }
    );
    Ok(())
}
