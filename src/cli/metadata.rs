//! `groundwork metadata`: the block a mapmaker submits to BAR's maps-metadata `map_list.yaml`
//! (names, player count, start positions and arrangements, start boxes), on stdout; the start
//! box lint's findings on stderr.

use std::path::PathBuf;

use clap::Args;

#[derive(Args, Debug)]
pub struct MetadataArgs {
    /// A project folder or a map (.sd7, .sdz, .sdd, .smf).
    pub map: PathBuf,
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
    print!("{}", crate::formats::lobby_metadata::entry_yaml(&map));
    Ok(())
}
