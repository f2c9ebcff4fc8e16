//! `groundwork render`: draws a map offscreen, with no window, through the editor's renderer,
//! and writes a PNG. For thumbnails, CI and checking a map without opening the editor.

use std::path::PathBuf;

use crate::gpu::pathing::PathingChoice;
use crate::gpu::{CameraPreset, GpuContext, Overlay, ViewOptions, snapshot};

/// Arguments of `groundwork render`.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// A map (.sd7, .sdz, .sdd, .smf), a project folder, or `starter` for the built-in map.
    pub map: PathBuf,
    /// The PNG to write.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Picture size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720")]
    pub size: String,
    /// overview, top, grazing, or an eye and a target in elmos: x,y,z:tx,ty,tz
    #[arg(long, default_value = "overview", allow_hyphen_values = true)]
    pub camera: String,
    /// Overlays to blend over the ground: metal, grass, type, slope, contours, grid (repeatable).
    #[arg(long)]
    pub overlay: Vec<String>,
    /// Leave out the grass blades (drawn near the eye as BAR grows them).
    #[arg(long)]
    pub no_grass_blades: bool,
    /// Draw one water term as grey instead of the water: fresnel, specular, diffuse or
    /// surface-mix (flat normal, time 0; each water pixel round(255 * clamp(v / 2, 0, 1)),
    /// everything else black).
    #[arg(long)]
    pub water_term: Option<String>,
    /// Seconds on the water's clock (waves, foam and caustics move with it).
    #[arg(long, default_value_t = 0.0)]
    pub time: f32,
    /// Draw the pathing overlay of this move class (BAR's, e.g. TANK2, BOT3, HOVER2): blocked
    /// red, slowed orange, water it may not enter blue.
    #[arg(long)]
    pub move_class: Option<String>,
    /// With --move-class: flood the region this team's start reaches (1 = the first team).
    #[arg(long)]
    pub flood_team: Option<usize>,
}

/// Parses `WIDTHxHEIGHT`.
fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("size `{s}`: expected WIDTHxHEIGHT, e.g. 1280x720"))?;
    let n = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|&v| (1..=8192).contains(&v))
    };
    match (n(w), n(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("size `{s}`: each side must be 1 to 8192 pixels")),
    }
}

/// Runs the command; the error is one line for the user.
pub fn run(args: RenderArgs) -> Result<(), String> {
    let (w, h) = parse_size(&args.size)?;
    let preset = CameraPreset::parse(&args.camera)?;
    let water_term = args
        .water_term
        .as_deref()
        .map(crate::gpu::water::WaterTerm::parse)
        .transpose()?;
    let mut opts = match water_term {
        Some(t) => ViewOptions::water_term_only(t),
        None => ViewOptions {
            grass_blades: !args.no_grass_blades,
            time_seconds: args.time,
            ..ViewOptions::default()
        },
    };
    for o in &args.overlay {
        Overlay::parse(o)?.enable(&mut opts);
    }
    let (map, warnings) = open_map(&args.map)?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let choice = match &args.move_class {
        Some(name) => {
            let table =
                crate::analyze::move_class::classes_for(crate::install::bar_data_dir().as_deref());
            let class = table
                .classes
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| {
                    let names: Vec<&str> = table.classes.iter().map(|c| c.name.as_str()).collect();
                    format!("move class `{name}`: expected one of {}", names.join(", "))
                })?;
            Some(PathingChoice::for_map(class, &map))
        }
        None if args.flood_team.is_some() => {
            return Err("--flood-team goes with --move-class".into());
        }
        None => None,
    };
    let flood = match (&choice, args.flood_team) {
        (Some(c), Some(t)) => {
            let team = t
                .checked_sub(1)
                .filter(|&i| i < map.teams.len())
                .ok_or_else(|| {
                    format!("--flood-team {t}: the map has {} teams", map.teams.len())
                })?;
            let mut ground = crate::analyze::GroundMaps::from_heights(&map.heights);
            ground.height_rule = c.rule;
            let pass = crate::analyze::Passability::of(&c.class, c.water, &ground);
            let s = &map.teams[team];
            crate::analyze::reach::flood_mask(
                &pass,
                [s.start_x_elmos, s.start_z_elmos],
                crate::analyze::report::SNAP_SQUARES,
            )
        }
        _ => None,
    };
    let ctx = GpuContext::headless().map_err(|e| e.to_string())?;
    eprintln!("rendering on {}", ctx.describe());
    // the features' models: the map's own definitions, else the installed game's
    let own = crate::formats::features::defined_features(&map.bundled_files);
    let game = crate::install::installed_game_features().as_ref();
    let mut names: Vec<&str> = map.features.iter().map(|f| f.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let models: std::collections::HashMap<String, crate::gpu::FeatureModelData> = names
        .into_iter()
        .filter_map(|n| {
            let m = crate::formats::feature_models::find_model(&own, game, &map.bundled_files, n)
                .ok()?;
            Some((
                n.to_ascii_lowercase(),
                crate::gpu::FeatureModelData::from_loaded(&m),
            ))
        })
        .collect();
    let rgba = snapshot::render_map_rgba_with(&ctx, &map, preset, (w, h), &opts, |scene| {
        for problem in scene.set_feature_models(&ctx, models) {
            eprintln!("warning: {problem}");
        }
        scene.set_markers(&ctx, &map);
        scene.pathing.set_choice(&ctx, &map, choice);
        if flood.is_some() {
            scene.pathing.set_flood(&ctx, flood.as_deref());
        }
    })
    .map_err(|e| e.to_string())?;
    let img = image::RgbaImage::from_raw(w, h, rgba)
        .ok_or_else(|| "the GPU returned a picture of the wrong size".to_string())?;
    img.save(&args.output)
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    eprintln!("wrote {}", args.output.display());
    Ok(())
}

/// The map at `path`: `starter` is the built-in starter map; anything else goes to
/// [`crate::formats::open_map`] (a project folder or a map). Returns the map and the readers'
/// warnings.
pub fn open_map(path: &std::path::Path) -> Result<(crate::map::Map, Vec<String>), String> {
    if path.as_os_str() == "starter" && !path.exists() {
        return crate::assets::starter_map().map(|m| (m, Vec::new()));
    }
    let loaded = crate::formats::open_map(path).map_err(|e| e.to_string())?;
    Ok((loaded.map, loaded.warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("1280x720").unwrap(), (1280, 720));
        assert!(parse_size("0x10").is_err());
        assert!(parse_size("1280").is_err());
        assert!(parse_size("99999x10").is_err());
    }
}
