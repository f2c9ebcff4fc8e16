//! `groundwork metadata`: the entry a mapmaker submits to BAR's maps-metadata `map_list.yaml`
//! (names, player count, game types and terrain tags read from the map, start positions and
//! arrangements, start boxes; the uploads named for the uploader to add), on stdout; the start
//! box lint's findings on stderr. `--shots DIR` writes the photo and the perspective shot,
//! drawn by our renderer and by the engine.

use std::path::{Path, PathBuf};

use clap::Args;

#[derive(Args, Debug)]
pub struct MetadataArgs {
    /// A project folder or a map (.sd7, .sdz, .sdd, .smf).
    pub map: PathBuf,
    /// Write the uploads' pictures into this folder: photo.png and perspective.png from our
    /// renderer, photo-engine.png and perspective-engine.png from the engine (`try
    /// --screenshot`; needs a display, xvfb-run works).
    #[arg(long, value_name = "DIR")]
    pub shots: Option<PathBuf>,
}

pub fn run(args: MetadataArgs) -> Result<(), String> {
    let loaded = crate::formats::open_map(&args.map).map_err(|e| e.to_string())?;
    let map = loaded.map;
    if map.teams.is_empty() {
        return Err("the map has no start positions: the lobby has nothing to place".into());
    }
    if map.start_boxes.is_empty() {
        eprintln!("note: the map has no [[start_boxes]]; the block lists start positions only");
    }
    crate::cli::lint::print_findings(&crate::lint::start_box_findings(&map));
    let tags = crate::analyze::lobby_tags::lobby_tags(&map);
    print!(
        "{}",
        crate::formats::lobby_metadata::entry_yaml(&map, &tags)
    );
    if let Some(dir) = &args.shots {
        write_shots(&args.map, &map, dir)?;
    }
    Ok(())
}

/// The photo (from above) and the perspective shot, by our renderer and by the engine. The
/// engine's are skipped, with a note, when it cannot run here.
fn write_shots(source: &Path, map: &crate::map::Map, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, camera, size) in [
        ("photo.png", "top", "1024x1024"),
        ("perspective.png", "overview", "1280x720"),
    ] {
        super::render::run(super::render::RenderArgs {
            map: source.to_path_buf(),
            output: dir.join(name),
            size: size.into(),
            camera: camera.into(),
            overlay: Vec::new(),
            no_grass_blades: false,
            water_term: None,
            time: 0.0,
            move_class: None,
            flood_team: None,
        })?;
    }
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let side = w.max(d);
    let (cx, cz) = (w / 2.0, d / 2.0);
    let top = crate::engine::Camera {
        position_elmos: [cx, side * 1.4, cz + 1.0],
        target_elmos: [cx, 0.0, cz],
    };
    let perspective = crate::engine::Camera {
        position_elmos: [cx, side * 0.55, d + side * 0.35],
        target_elmos: [cx, 0.0, cz],
    };
    for (name, camera) in [
        ("photo-engine.png", top),
        ("perspective-engine.png", perspective),
    ] {
        let out = dir.join(name);
        let shot = crate::engine::screenshot(
            crate::engine::MapSource::Document(map),
            Some(camera),
            &out,
            None,
            crate::compile::CompileOptions::default(),
            &crate::compile::Progress::none(),
        );
        match shot {
            Ok(p) => eprintln!("wrote {}", p.display()),
            Err(why) => {
                eprintln!("note: the engine's shots were not taken: {why}");
                break;
            }
        }
    }
    Ok(())
}
