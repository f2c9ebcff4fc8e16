//! One Warzone 2100 map to a Groundwork [`Map`]: reads its files, runs the height, texture,
//! metal and object conversions, and writes down in the import report what became what.

use std::collections::{BTreeMap, BTreeSet};

use super::Wz2100Options;
use super::layout::Layout;
use super::objects_convert as oc;
use super::terrain::{self, BAR_BOT_MAX_SLOPE, BAR_TANK_MAX_SLOPE, SEA_DEPTH_ELMOS};
use super::{terrain_types, tileset};
use crate::formats::wz2100::catalog::MapEntry;
use crate::formats::wz2100::level::Tileset;
use crate::formats::wz2100::objects::{self, ObjectKind, ObjectList, Owner};
use crate::formats::wz2100::source::Source;
use crate::formats::wz2100::ttypes::{TER_CLIFFFACE, TER_SAND, TER_WATER, TERRAIN_NAMES};
use crate::formats::wz2100::{gam, map_file, ttypes};
use crate::formats::{FormatError, ImportReport};
use crate::import::ImportProgress;
use crate::map::{Grid, Map, MapSettings};

/// The tile art source, when one was found: (source, how to name it in the report).
pub type BaseArt = Option<(Source, String)>;

pub fn convert(
    src: &mut Source,
    entry: &MapEntry,
    options: &Wz2100Options,
    base: BaseArt,
    base_problem: Option<String>,
    progress: &mut ImportProgress,
) -> Result<(Map, ImportReport), FormatError> {
    let title = entry.title();
    let mut report = ImportReport::new(format!(
        "Warzone 2100: {}, {} ({})",
        src.label(),
        entry.folder,
        title
    ));
    if !entry.has_game_map {
        return Err(if entry.has_game_js {
            FormatError::invalid(
                &entry.folder,
                "script-generated map (game.js only): Warzone 2100 builds it by running JavaScript at game start, so there is no terrain to import",
            )
        } else {
            FormatError::invalid(&entry.folder, "the map folder has no game.map")
        });
    }
    if !(options.height_scale.is_finite()
        && options.height_scale > 0.0
        && options.height_scale <= 16.0)
    {
        return Err(FormatError::invalid(
            "height scale",
            format!(
                "{} is out of range (above 0, at most 16)",
                options.height_scale
            ),
        ));
    }
    let need = |src: &mut Source, name: &str| -> Result<Vec<u8>, FormatError> {
        src.read(&entry.file(name))?.ok_or_else(|| {
            FormatError::invalid(&entry.folder, format!("the map folder has no {name}"))
        })
    };
    progress("reading the map", 0, 2);
    let map = map_file::parse(&need(src, "game.map")?)
        .map_err(|e| FormatError::invalid(format!("{}/game.map", entry.folder), e.to_string()))?;
    progress("reading the map", 1, 2);
    let tt = ttypes::parse(&need(src, "ttypes.ttp")?)
        .map_err(|e| FormatError::invalid(format!("{}/ttypes.ttp", entry.folder), e.to_string()))?;
    progress("reading the map", 2, 2);

    // terrain type of every tile
    let mut unknown_types = BTreeSet::new();
    let tile_types: Vec<u8> = map
        .tiles
        .iter()
        .map(|t| {
            tt.type_of(t.tile_number()).unwrap_or_else(|| {
                unknown_types.insert(t.tile_number());
                TER_SAND
            })
        })
        .collect();

    let layout = Layout::new(map.width, map.height, options.tile_elmos)?;
    let (w, h) = (map.width, map.height);
    report.converted(format!(
        "game.map version {}: {w}x{h} tiles, {} elmos per tile -> a {} map ({} x {} elmos), the Warzone area centred with {} / {} elmos of padding west / north",
        map.version,
        layout.tile_elmos,
        layout.size,
        layout.size.width_elmos(),
        layout.size.depth_elmos(),
        layout.offset_x_elmos,
        layout.offset_z_elmos,
    ));
    report.converted(
        "padding: the edge tiles repeated outwards (texture and terrain type) on flat ground at the height of the game's flattened map edge (Warzone height 0)",
    );
    if !unknown_types.is_empty() {
        report.guessed(format!(
            "ttypes.ttp gives no known terrain type for tile numbers {unknown_types:?}; they were taken as sand"
        ));
    }
    report.dropped(format!(
        "{} gateways (hints for Warzone's pathfinder; Spring's needs none)",
        map.gateways.len()
    ));
    if map.trailing_bytes > 0 {
        report.dropped(format!(
            "{} bytes after the gateways in game.map (old editor data), ignored",
            map.trailing_bytes
        ));
    }

    // .gam
    if let Some(g) = &entry.gam {
        let parsed = match src.read(g)? {
            Some(b) if g.ends_with(".json") => gam::parse_json(&b).ok(),
            Some(b) => gam::parse_binary(&b).ok(),
            None => None,
        };
        match parsed {
            Some(info) => {
                let r = info.scroll_rect(w, h);
                if r == (0, 0, w, h) {
                    report.converted(format!("{g}: scroll limits cover the whole map"));
                } else {
                    report.guessed(format!(
                        "{g}: scroll limits {r:?} are smaller than the map; the whole map was imported"
                    ));
                }
            }
            None => report.guessed(format!("{g} could not be read; ignored")),
        }
    }

    // tileset
    let tileset = match entry.tileset() {
        Some(t) => {
            report.converted(format!(
                "tileset {} from {}",
                t.name(),
                entry.level_file.as_deref().unwrap_or("the level entry")
            ));
            t
        }
        None => {
            report.guessed(
                "no level entry names this map's tileset; assumed arizona (the default the game falls back to)",
            );
            Tileset::Arizona
        }
    };

    // heights
    progress("heights", 0, 1);
    let (heights, tstats) =
        terrain::build_heights(&map, &tile_types, &layout, options.height_scale);
    let max_world = map.tiles.iter().map(|t| t.height).max().unwrap_or(0);
    report.converted(format!(
        "heights: Warzone 0..{max_world} world units x {:.3} (tile scale {:.3} x height scale {}) = 0..{:.1} elmos before water and cliffs",
        tstats.height_factor,
        layout.elmos_per_world_unit(),
        options.height_scale,
        max_world as f32 * tstats.height_factor
    ));
    let total_tiles = (w * h) as f32;
    if tstats.water_tiles > 0 {
        report.converted(format!(
            "water: {} of {} tiles ({:.1}%) became sea, {SEA_DEPTH_ELMOS} elmos deep away from the coast (deeper than BAR's tanks and bots wade, so as in Warzone only hovers, ships and amphibians cross); land lifted {:.1} elmos (the game's own water offset, a third of a tile) and faded to the coast over one tile",
            tstats.water_tiles,
            w * h,
            100.0 * tstats.water_tiles as f32 / total_tiles,
            tstats.lift_elmos
        ));
        if tstats.elevated_water_tiles > 0 {
            report.guessed(format!(
                "{} water tiles sit above Warzone's low ground (up to {} world units; Warzone draws water at each tile's own height, Spring has one sea level): they were dug down to the sea, so they are lakes with steep banks",
                tstats.elevated_water_tiles, tstats.highest_water_world
            ));
        }
    } else {
        report.converted(format!(
            "no water tiles: the whole map lifted {:.1} elmos so no ground sits at the water plane",
            tstats.lift_elmos
        ));
    }

    // cliffs and slopes, measured on the result
    let (cliff_ok, land_steep, land_cells) = measure_slopes(&heights, &layout, &tile_types, w);
    if tstats.cliff_tiles > 0 {
        report.converted(format!(
            "cliffs: {} cliff tiles; {} had their face squeezed to reach slope {} (1 - normal.y), {} too flat for that were raised into ridges (up to {:.0} elmos); {:.1}% of cliff tiles now hold ground steeper than BAR bots climb ({BAR_BOT_MAX_SLOPE})",
            tstats.cliff_tiles,
            tstats.steepened_tiles,
            terrain::CLIFF_SLOPE,
            tstats.ridged_tiles,
            tstats.max_ridge_elmos,
            100.0 * cliff_ok as f32 / tstats.cliff_tiles as f32
        ));
    }
    if land_cells > 0 && land_steep > 0 {
        report.guessed(format!(
            "{:.1}% of the passable land is steeper than BAR tanks climb ({BAR_TANK_MAX_SLOPE}); Warzone lets every vehicle up any non-cliff tile (use --height-scale below 1 to soften)",
            100.0 * land_steep as f32 / land_cells as f32
        ));
    }

    progress("heights", 1, 1);

    // terrain types
    let types = type_map(&layout, &tile_types, w);
    let mut type_counts = [0usize; 12];
    for &t in &tile_types {
        type_counts[t as usize] += 1;
    }
    report.converted(format!(
        "terrain types -> BAR terrain types (hardness, speeds): {}",
        type_counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, c)| format!("{} x{c}", TERRAIN_NAMES[i]))
            .collect::<Vec<_>>()
            .join(", ")
    ));

    // texture
    let wanted: BTreeSet<u16> = map.tiles.iter().map(|t| t.tile_number()).collect();
    let art = match base {
        Some((mut base_src, base_name)) => {
            match tileset::load_tile_art(
                &mut base_src,
                tileset,
                &wanted,
                layout.tile_elmos,
                progress,
            ) {
                Ok((art, missing)) if art.tiles.is_empty() => {
                    report.guessed(format!(
                        "{base_name} has no tile art for the {} tileset ({}); plain colours by terrain type used instead",
                        tileset.name(),
                        tileset.texpage_dir()
                    ));
                    let _ = missing;
                    None
                }
                Ok((art, missing)) => {
                    report.converted(format!(
                        "texture: {} tile art from {base_name} ({}), {} tiles used, flips and rotations applied, resampled from 128 to {} texels per tile (8 per square)",
                        tileset.name(),
                        tileset.texpage_dir(),
                        art.tiles.len(),
                        layout.tile_elmos
                    ));
                    if !missing.is_empty() {
                        report.guessed(format!(
                            "no art for tile numbers {missing:?}; those tiles are plain colours by terrain type"
                        ));
                    }
                    Some(art)
                }
                Err(e) => {
                    report.guessed(format!(
                        "tile art unreadable ({e}); plain colours by terrain type used instead"
                    ));
                    None
                }
            }
        }
        None => {
            report.guessed(format!(
                "{}; the texture is plain colours by terrain type, shaded by slope",
                base_problem.unwrap_or_else(|| "no base.wz found".into())
            ));
            None
        }
    };
    let texture =
        tileset::build_texture(&layout, &map, &tile_types, art.as_ref(), &heights, progress);

    // objects
    progress("metal, start positions and features", 0, 1);
    let mut read_objects = |file: &str, kind: ObjectKind| -> Result<ObjectList, FormatError> {
        match src.read(&entry.file(file))? {
            Some(b) => {
                let l = objects::parse(&b, kind).map_err(|e| {
                    FormatError::invalid(format!("{}/{file}", entry.folder), e.to_string())
                })?;
                if l.skipped > 0 {
                    report.dropped(format!("{file}: {} malformed entries skipped", l.skipped));
                }
                Ok(l)
            }
            None => {
                let bjo = file
                    .replace(".json", ".bjo")
                    .replace("droid", "dinit")
                    .replace("feature", "feat");
                if src.exists(&entry.file(&bjo)) {
                    report.dropped(format!("{bjo}: the old binary object format is not read"));
                } else {
                    report.guessed(format!("{file} missing: no such objects"));
                }
                Ok(ObjectList::default())
            }
        }
    };
    let structs = read_objects("struct.json", ObjectKind::Structure)?.objects;
    let feats = read_objects("feature.json", ObjectKind::Feature)?.objects;
    let droids = read_objects("droid.json", ObjectKind::Droid)?.objects;

    // metal
    let (mw, mh) = layout.size.metal_cells();
    let mut metal = Grid::filled(mw, mh, 0u8);
    let spots = oc::oil_spots(&feats, &structs);
    let metal_sum = oc::paint_metal(&mut metal, &layout, &spots);
    let from_derricks = spots.iter().filter(|s| s.from_derrick).count();
    let derricks = structs
        .iter()
        .filter(|s| s.name == "A0ResourceExtractor")
        .count();
    report.converted(format!(
        "metal: {} oil resources and {} derricks ({} of them on a listed oil resource) -> {} spots, each a smooth dome of radius {} elmos summing to {} metal-map bytes = {:.1} metal/s with a BAR tech-1 extractor at maxMetal {}; extractorRadius {} (metal-map total {metal_sum})",
        spots.len() - from_derricks,
        derricks,
        derricks - from_derricks,
        spots.len(),
        oc::DOME_RADIUS_CELLS * 16.0,
        oc::SPOT_METAL_BYTES,
        oc::SPOT_METAL_BYTES * oc::MAX_METAL * oc::T1_EXTRACTS_METAL,
        oc::MAX_METAL,
        oc::EXTRACTOR_RADIUS_ELMOS,
    ));
    let close = close_pairs(&spots, &layout);
    if close > 0 {
        report.guessed(format!(
            "{close} pairs of oil spots lie closer than two extractor radii; one extractor between them takes from both"
        ));
    }

    // start positions
    let players = entry
        .players()
        .map(|p| p as usize)
        .unwrap_or(0)
        .max(oc::players_seen(&structs, &droids));
    let starts = oc::start_positions(&structs, &droids, players, &layout);
    if starts.from_hq + starts.from_constructor == 0 {
        return Err(FormatError::invalid(
            &entry.folder,
            "no start positions: no player has a command centre (A0CommandCentre) or a constructor droid",
        ));
    }
    report.converted(format!(
        "start positions: {} players, {} from their command centre, {} from their first constructor droid",
        players, starts.from_hq, starts.from_constructor
    ));
    if !starts.missing.is_empty() {
        report.guessed(format!(
            "players {:?} have neither a command centre nor a constructor; placed at the map centre",
            starts.missing
        ));
    }

    // features
    let (features, kept, dropped_feats) = oc::convert_features(&feats, tileset, &layout);
    if !kept.is_empty() {
        report.converted(format!(
            "features: {} trees and boulders: {}",
            features.len(),
            oc::count_list(&kept)
        ));
    }
    if !dropped_feats.is_empty() {
        report.dropped(format!(
            "features with no BAR counterpart: {}",
            oc::count_list(&dropped_feats)
        ));
    }
    let mut structure_counts: BTreeMap<String, usize> = BTreeMap::new();
    for s in &structs {
        let who = match s.owner {
            Owner::Scavenger => " (scavenger)",
            _ => "",
        };
        *structure_counts
            .entry(format!("{}{who}", s.name))
            .or_default() += 1;
    }
    if !structure_counts.is_empty() {
        report.dropped(format!(
            "prebuilt structures and walls (command centres gave the start positions, derricks the metal): {}",
            oc::count_list(&structure_counts)
        ));
    }
    let mut droid_counts: BTreeMap<String, usize> = BTreeMap::new();
    for d in &droids {
        *droid_counts.entry(d.name.clone()).or_default() += 1;
    }
    if !droid_counts.is_empty() {
        report.dropped(format!("droids: {}", oc::count_list(&droid_counts)));
    }

    progress("metal, start positions and features", 1, 1);

    // settings
    let (lo, hi) = heights.min_max();
    let short_title = title.strip_prefix("Sk-").unwrap_or(&title).to_string();
    let author = entry
        .level
        .as_ref()
        .and_then(|l| l.author.clone())
        .unwrap_or_else(|| "Warzone 2100 Project".into());
    let settings = MapSettings {
        name: format!("WZ2100 {short_title}"),
        description: format!(
            "Warzone 2100 skirmish map {title} ({}), {players} players, imported by Groundwork",
            entry.folder
        ),
        author,
        version: "1.0".into(),
        extractor_radius_elmos: oc::EXTRACTOR_RADIUS_ELMOS,
        max_metal: oc::MAX_METAL,
        min_height_elmos: (lo - 1.0).floor(),
        max_height_elmos: (hi + 1.0).ceil().max(lo.floor() + 2.0),
        terrain_types: terrain_types::bar_terrain_types(),
        ..MapSettings::default()
    };
    let (gw, gh) = layout.size.grass_cells();
    let out = Map {
        size: layout.size,
        heights,
        metal,
        types,
        grass: Grid::filled(gw, gh, 0),
        texture,
        features,
        teams: starts.teams,
        start_boxes: Vec::new(),
        settings,
        bundled_files: Vec::new(),
        symmetry: crate::map::SymmetryMode::None,
        water_presets: Vec::new(),
        texture_layers: Vec::new(),
        texture_ao: None,
        generator: None,
    };
    Ok((out, report))
}

/// The type map: the Warzone terrain type under the centre of each 16-elmo cell.
fn type_map(layout: &Layout, tile_types: &[u8], w: u32) -> Grid<u8> {
    let (mw, mh) = layout.size.metal_cells();
    let mut g = Grid::filled(mw, mh, 0u8);
    for z in 0..mh {
        for x in 0..mw {
            let (tx, tz) = layout.tile_at(x as i64 * 16 + 8, z as i64 * 16 + 8);
            g.set(x, z, tile_types[(tz * w + tx) as usize]);
        }
    }
    g
}

/// (cliff tiles with a cell steeper than bots climb, land cells steeper than tanks climb,
/// land cells), over the Warzone area.
fn measure_slopes(
    heights: &Grid<f32>,
    layout: &Layout,
    tile_types: &[u8],
    w: u32,
) -> (usize, usize, usize) {
    let (mw, mh) = layout.size.metal_cells();
    let te = layout.tile_elmos as i64;
    let mut cliff_max: BTreeMap<(u32, u32), f32> = BTreeMap::new();
    let (mut steep, mut land) = (0, 0);
    for cz in 0..mh {
        for cx in 0..mw {
            let (x0, z0) = (cx as i64 * 16, cz as i64 * 16);
            if !layout.inside(x0, z0) || !layout.inside(x0 + 16, z0 + 16) {
                continue;
            }
            let (tx, tz) = layout.tile_at(x0 + 8, z0 + 8);
            // cells that straddle a tile edge belong to neither side
            let (ax, az) = layout.tile_at(x0, z0);
            let (bx, bz) = layout.tile_at(x0 + 15, z0 + 15);
            if (ax, az) != (bx, bz) && te >= 32 {
                continue;
            }
            let s = terrain::cell_slope(heights, cx, cz);
            match tile_types[(tz * w + tx) as usize] {
                TER_CLIFFFACE => {
                    let e = cliff_max.entry((tx, tz)).or_insert(0.0);
                    *e = e.max(s);
                }
                TER_WATER => {}
                _ => {
                    land += 1;
                    if s > BAR_TANK_MAX_SLOPE {
                        steep += 1;
                    }
                }
            }
        }
    }
    let ok = cliff_max
        .values()
        .filter(|&&s| s > BAR_BOT_MAX_SLOPE)
        .count();
    (ok, steep, land)
}

fn close_pairs(spots: &[oc::OilSpot], layout: &Layout) -> usize {
    let lim = 2.0 * oc::EXTRACTOR_RADIUS_ELMOS;
    let p: Vec<(f32, f32)> = spots
        .iter()
        .map(|s| layout.world_to_elmos(s.x, s.y))
        .collect();
    let mut n = 0;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            if (p[i].0 - p[j].0).hypot(p[i].1 - p[j].1) < lim {
                n += 1;
            }
        }
    }
    n
}
