//! Assembles the Groundwork map from the decoded SC2 layers: frame, heights, metal, features,
//! start positions, texture and settings, writing what it did into the import report.

use std::collections::BTreeMap;

use crate::formats::{FormatError, ImportReport};
use crate::import::ImportProgress;
use crate::map::{Grid, Map, MapSettings, MoveSpeeds, Team, TerrainType};

use super::features;
use super::frame::Frame;
use super::ground::{self, ColourImage};
use super::metal::{self, Patch};
use super::terrain::{self, Chasm, Sc2Surface};
use super::{Sc2Options, TextureSource};
use crate::formats::sc2::heights::{CliffCell, TerrainXml};
use crate::formats::sc2::map_info::{Bounds, GameStrings, MapInfo};
use crate::formats::sc2::objects::{ObjectKind, Objects};
use crate::formats::sc2::texture::{self, TextureMasks};

/// Everything read from the archive.
pub struct Sources {
    pub file_name: String,
    pub info: MapInfo,
    pub xml: Option<TerrainXml>,
    pub heights: Grid<f32>,
    pub vertex_levels: Grid<u8>,
    pub cells: Option<Grid<CliffCell>>,
    pub objects: Option<Objects>,
    pub masks: Option<TextureMasks>,
    pub minimap: Option<Grid<[f32; 3]>>,
    pub strings: GameStrings,
}

/// The terrain type index of chasm floors in pit mode.
pub const CHASM_TYPE: u8 = 1;

fn fmt_rgb(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// Builds the map.
pub fn build(
    src: Sources,
    opt: &Sc2Options,
    report: &mut ImportReport,
    progress: &mut ImportProgress,
) -> Result<Map, FormatError> {
    let info = &src.info;
    let bounds = match info.bounds {
        Some(b) => b,
        None => {
            report.guessed(format!(
                "MapInfo's playable bounds could not be read: the whole {} x {} cell map is taken as playable",
                info.width_cells, info.height_cells
            ));
            Bounds {
                left: 0,
                bottom: 0,
                right: info.width_cells,
                top: info.height_cells,
            }
        }
    };
    let frame = Frame::new(bounds, opt.cell_elmos)?;
    report.converted(format!(
        "map: {} x {} cells, playable ({}, {}) to ({}, {}) = {} x {} cells; at {} elmos a cell that is a {} map ({} x {} elmos of padding west/north, the same east/south give or take a square)",
        info.width_cells,
        info.height_cells,
        bounds.left,
        bounds.bottom,
        bounds.right,
        bounds.top,
        bounds.width(),
        bounds.height(),
        opt.cell_elmos,
        frame.size,
        frame.pad_x_elmos,
        frame.pad_z_elmos
    ));

    // heights
    progress("heights", 0, 1);
    let surface = Sc2Surface {
        heights: &src.heights,
        vertex_levels: &src.vertex_levels,
        cells: src.cells.as_ref(),
    };
    let t = terrain::convert(&frame, &surface, opt.height_scale, opt.chasm);
    let slopes = terrain::square_slopes_deg(&t.heights_elmos);
    let mut levels: BTreeMap<u8, usize> = BTreeMap::new();
    let mut ramp_cells = 0;
    if let Some(cells) = &src.cells {
        for j in bounds.bottom..bounds.top {
            for i in bounds.left..bounds.right {
                if (i as usize) < cells.width() && (j as usize) < cells.height() {
                    let c = cells.get(i as usize, j as usize);
                    *levels.entry(c.level).or_default() += 1;
                    ramp_cells += c.is_ramp() as usize;
                }
            }
        }
    }
    report.converted(format!(
        "heights: 1 SC2 unit = {:.1} elmos up (cell {} x height scale {}); a cliff level is {:.0} elmos; SC2 height {:.1} (the lowest land level) sits at {:.0} elmos; playable cells by cliff level {:?}",
        t.vertical_elmos, opt.cell_elmos, opt.height_scale, t.level_step_elmos, t.base_height, t.land_floor_elmos, levels
    ));
    // cliff faces: squares that rise at least half a level
    let mut cliff_angles: Vec<f32> = Vec::new();
    let mut ramp_surface: Vec<f32> = Vec::new();
    let mut ramp_walls = 0usize;
    for z in 0..slopes.height() {
        for x in 0..slopes.width() {
            let hgt = &t.heights_elmos;
            let rise = [
                (hgt.get(x + 1, z) - hgt.get(x, z)).abs(),
                (hgt.get(x, z + 1) - hgt.get(x, z)).abs(),
            ];
            let chasm_edge = [
                t.chasm.get(x, z),
                t.chasm.get(x + 1, z),
                t.chasm.get(x, z + 1),
                t.chasm.get(x + 1, z + 1),
            ];
            if chasm_edge.iter().any(|&c| c) && !chasm_edge.iter().all(|&c| c) {
                continue;
            }
            if rise.iter().any(|&r| r >= t.level_step_elmos * 0.5) {
                cliff_angles.push(slopes.get(x, z));
            }
        }
    }
    if let Some(cells) = &src.cells {
        // steepest square inside ramp cells
        for z in 0..slopes.height() {
            for x in 0..slopes.width() {
                let (cx, cz) = ((x as f32 + 0.5) * 8.0, (z as f32 + 0.5) * 8.0);
                if !frame.in_playable(cx, cz) {
                    continue;
                }
                let (sx, sy) = frame.to_sc2(cx, cz);
                let (i, j) = (sx.floor() as usize, sy.floor() as usize);
                if i < cells.width() && j < cells.height() && cells.get(i, j).is_ramp() {
                    let a = slopes.get(x, z);
                    if a < 45.0 {
                        ramp_surface.push(a);
                    } else {
                        ramp_walls += 1;
                    }
                }
            }
        }
    }
    if t.flattened_cliff_bases > 0 {
        report.converted(format!(
            "cliff bases: {} SC2 vertices on cliff edges held in-between heights (under SC2's cliff models) and were put back on their level",
            t.flattened_cliff_bases
        ));
    }
    if cliff_angles.is_empty() {
        report.converted("cliffs: none (the playable area is one level)");
    } else {
        cliff_angles.sort_by(|a, b| a.total_cmp(b));
        report.converted(format!(
            "cliffs: {} squares of cliff face, sheer: each level jump is one 8-elmo square, median {:.0} degrees, the gentlest {:.0} (BAR ground units climb at most ~45)",
            cliff_angles.len(),
            cliff_angles[cliff_angles.len() / 2],
            cliff_angles[0]
        ));
    }
    if ramp_cells > 0 && !ramp_surface.is_empty() {
        ramp_surface.sort_by(|a, b| a.total_cmp(b));
        let q = |f: f32| ramp_surface[((ramp_surface.len() - 1) as f32 * f) as usize];
        report.converted(format!(
            "ramps: {} ramp cells ({} ramps declared in t3Terrain.xml), {} vertices rebuilt as an even slope in {} sweeps; the ramp surface is {:.0} degrees at the median, 90% under {:.0}, steepest {:.0}; {} squares of side wall",
            ramp_cells,
            src.xml.as_ref().map(|x| x.ramp_count).unwrap_or(0),
            t.ramp_vertices,
            t.relax_sweeps,
            q(0.5),
            q(0.9),
            q(1.0),
            ramp_walls
        ));
    }
    let playable_chasm = levels.get(&0).copied().unwrap_or(0);
    if t.has_chasm {
        let what = match opt.chasm {
            Chasm::Pit => format!(
                "a dry pit with its floor at {:.0} elmos, {:.0} below the lowest land, and terrain type {CHASM_TYPE} \"Chasm\" that no unit can cross",
                t.chasm_floor_elmos,
                t.land_floor_elmos - t.chasm_floor_elmos
            ),
            Chasm::Sea => format!(
                "sea, its floor at {:.0} elmos (the lowest land at {:.0})",
                t.chasm_floor_elmos, t.land_floor_elmos
            ),
        };
        let padded = frame.pad_x_elmos > 0.0 || frame.pad_z_elmos > 0.0;
        let which = match (playable_chasm > 0, padded) {
            (true, true) => format!(
                "{playable_chasm} level-0 cells in the playable area and the padding around it (SC2's hard map edge)"
            ),
            (true, false) => format!("{playable_chasm} level-0 cells in the playable area"),
            _ => "the padding around the playable area (SC2's hard map edge)".to_string(),
        };
        report.converted(format!("chasm: {which}: {what}"));
    }

    // settings
    let mut settings = MapSettings {
        name: src
            .strings
            .name
            .clone()
            .unwrap_or_else(|| src.file_name.trim_end_matches(".SC2Map").to_string()),
        description: match &src.strings.description {
            Some(d) => format!(
                "{} (imported from the StarCraft II map {})",
                d.trim(),
                src.file_name
            ),
            None => format!("Imported from the StarCraft II map {}", src.file_name),
        },
        max_metal: metal::max_metal(),
        extractor_radius_elmos: metal::EXTRACTOR_RADIUS_ELMOS,
        ..MapSettings::default()
    };
    let (lo, hi) = t.heights_elmos.min_max();
    settings.min_height_elmos = (lo - 16.0).floor();
    settings.max_height_elmos = (hi + 16.0).ceil();
    let use_chasm_type = t.has_chasm && opt.chasm == Chasm::Pit;
    if use_chasm_type {
        settings.terrain_types.insert(
            CHASM_TYPE,
            TerrainType {
                hardness: 10.0,
                receive_tracks: false,
                move_speeds: MoveSpeeds {
                    tank: 0.0,
                    kbot: 0.0,
                    hover: 0.0,
                    ship: 0.0,
                },
                ..TerrainType::named("Chasm")
            },
        );
    }
    let mut map = Map::new(frame.size, settings);
    map.heights = t.heights_elmos.clone();
    if use_chasm_type {
        let (mw, mh) = frame.size.metal_cells();
        for j in 0..mh {
            for i in 0..mw {
                if t.chasm.get(2 * i + 1, 2 * j + 1) {
                    map.types.set(i, j, CHASM_TYPE);
                }
            }
        }
    }

    progress("heights", 1, 1);

    // objects
    progress("metal, start positions and features", 0, 1);
    place_objects(&src, &frame, opt, &mut map, report);
    progress("metal, start positions and features", 1, 1);

    // texture
    let tileset = if !info.tileset.is_empty() {
        info.tileset.clone()
    } else {
        src.xml
            .as_ref()
            .map(|x| x.tileset.clone())
            .unwrap_or_default()
    };
    let (tile_colours, _) = texture::tileset_colours(&tileset);
    let darkest = *tile_colours
        .iter()
        .min_by_key(|c| c[0] as u32 + c[1] as u32 + c[2] as u32)
        .unwrap_or(&[60, 60, 60]);
    let colours = colour_image(&src, &tileset, &bounds, opt, report);
    map.texture = ground::bake(&frame, &t, &colours, darkest, opt.chasm, progress);
    // the heights as the engine will hold them (16-bit words over the range), so the editor
    // shows what compiles; unrounded, Simple64's heights also made lavapipe hang in the
    // editor's first frame (not understood yet; the saved and reopened map drew fine)
    let words = map.height_words();
    map.set_height_words(&words);
    report.converted(format!(
        "texture: cliff faces (squares steeper than {:.0} degrees) drawn at {:.0}% brightness, chasm floors near black, soft light from the engine's default sun",
        ground::CLIFF_FACE_DEG,
        ground::CLIFF_FACE_SHADE * 100.0
    ));
    Ok(map)
}

/// The colour image the texture is sampled from: the minimap when asked for and it fits, else
/// the texture layers, else the tileset's main colour.
fn colour_image(
    src: &Sources,
    tileset: &str,
    bounds: &Bounds,
    opt: &Sc2Options,
    report: &mut ImportReport,
) -> ColourImage {
    let info = &src.info;
    if opt.texture == TextureSource::Minimap {
        match &src.minimap {
            Some(img) => {
                let (w, h) = (img.width() as f32, img.height() as f32);
                let aspect = w / h;
                let play = bounds.width() as f32 / bounds.height() as f32;
                let full = info.width_cells as f32 / info.height_cells as f32;
                // which area does it cover? the one whose shape it has (playable first)
                let area = if (aspect - play).abs() < 0.02 {
                    Some(*bounds)
                } else if (aspect - full).abs() < 0.02 {
                    Some(Bounds { left: 0, bottom: 0, right: info.width_cells, top: info.height_cells })
                } else {
                    None
                };
                if let Some(a) = area {
                    report.guessed(format!(
                        "texture: Minimap.tga ({} x {}) taken to cover {} ({} x {} cells), from its shape; SC2 ladder minimaps often do not line up",
                        img.width(),
                        img.height(),
                        if a == *bounds { "the playable area" } else { "the whole map" },
                        a.width(),
                        a.height()
                    ));
                    let ax = w / a.width() as f32;
                    let ay = -(h / a.height() as f32);
                    return ColourImage {
                        image: img.clone(),
                        ax,
                        bx: -(a.left as f32) * ax,
                        ay,
                        by: a.top as f32 * -ay,
                    };
                }
                report.dropped(format!(
                    "Minimap.tga ({} x {}) has the shape of neither the playable area nor the whole map; the texture layers are used instead",
                    img.width(),
                    img.height()
                ));
            }
            None => report.dropped("--texture minimap: the map has no readable Minimap.tga; the texture layers are used instead"),
        }
    }
    let names = src
        .xml
        .as_ref()
        .map(|x| x.textures.clone())
        .unwrap_or_default();
    if let Some(m) = &src.masks
        && !names.is_empty()
    {
        let pal = texture::palette(tileset, &names);
        let used = m.layers.len().min(pal.len());
        let lines: Vec<String> = pal
            .iter()
            .take(used)
            .map(|p| format!("{} {} ({})", p.texture, fmt_rgb(p.colour), p.why))
            .collect();
        report.guessed(format!(
            "texture colours (the SC2 ground art is in the game, not the map): tileset \"{tileset}\", {} layers: {}",
            used,
            lines.join("; ")
        ));
        if m.layers.len() > pal.len() {
            let extra = m.layers[pal.len()..]
                .iter()
                .filter(|l| l.iter().any(|&w| w > 0))
                .count();
            if extra > 0 {
                report.dropped(format!(
                    "{extra} painted texture layers without a texture name in t3Terrain.xml"
                ));
            }
        }
        let colours: Vec<[u8; 3]> = pal.iter().map(|p| p.colour).collect();
        let image = texture::compose(m, &colours);
        return ColourImage {
            ax: m.width as f32 / info.width_cells as f32,
            bx: 0.0,
            ay: m.height as f32 / info.height_cells as f32,
            by: 0.0,
            image,
        };
    }
    let (c, _) = texture::tileset_colours(tileset);
    report.guessed(format!(
        "texture: no usable t3TextureMasks/texture list; the ground is the tileset's main colour {}",
        fmt_rgb(c[0])
    ));
    ColourImage {
        image: Grid::filled(1, 1, [c[0][0] as f32, c[0][1] as f32, c[0][2] as f32]),
        ax: 0.0,
        bx: 0.0,
        ay: 0.0,
        by: 0.0,
    }
}

/// Start positions, metal spots, vents and rocks.
fn place_objects(
    src: &Sources,
    frame: &Frame,
    opt: &Sc2Options,
    map: &mut Map,
    report: &mut ImportReport,
) {
    let ce = frame.cell_elmos;
    let clamp_in = |x: f32, z: f32| {
        (
            x.clamp(0.0, frame.size.width_elmos()),
            z.clamp(0.0, frame.size.depth_elmos()),
        )
    };
    let empty = Objects::default();
    let objects = match &src.objects {
        Some(o) => o,
        None => {
            report.dropped(
                "Objects: missing or unreadable, so no start locations, minerals, geysers or rocks",
            );
            &empty
        }
    };
    let b = frame.bounds;
    let inside = |x: f32, y: f32| b.contains(x, y);
    let mut outside = 0usize;
    // start positions
    for s in &objects.starts {
        if !inside(s.x, s.y) {
            outside += 1;
            continue;
        }
        let (x, z) = clamp_in(frame.to_elmos(s.x, s.y).0, frame.to_elmos(s.x, s.y).1);
        map.teams.push(Team {
            start_x_elmos: x,
            start_z_elmos: z,
        });
    }
    if !map.teams.is_empty() {
        let list: Vec<String> = objects
            .starts
            .iter()
            .filter(|s| inside(s.x, s.y))
            .zip(&map.teams)
            .enumerate()
            .map(|(i, (s, t))| {
                format!(
                    "team {i} \"{}\" at ({:.0}, {:.0}) elmos",
                    s.name, t.start_x_elmos, t.start_z_elmos
                )
            })
            .collect();
        report.converted(format!("start positions: {}", list.join(", ")));
    } else {
        let (w, d) = (b.width() as f32, b.height() as f32);
        for (fx, fy) in [(0.25f32, 0.25f32), (0.75, 0.75)] {
            let (x, z) = frame.to_elmos(b.left as f32 + w * fx, b.bottom as f32 + d * fy);
            map.teams.push(Team {
                start_x_elmos: x,
                start_z_elmos: z,
            });
        }
        report.guessed(
            "start positions: the map has no start locations; two were put at a quarter and three quarters of the playable diagonal so the map loads (move them)",
        );
    }
    // minerals to metal
    let patches: Vec<Patch> = objects
        .placed
        .iter()
        .filter_map(|o| match o.kind {
            ObjectKind::Mineral { rich } if inside(o.x, o.y) => {
                let (x, z) = frame.to_elmos(o.x, o.y);
                Some(Patch {
                    x_elmos: x,
                    z_elmos: z,
                    rich,
                })
            }
            _ => None,
        })
        .collect();
    let starts: Vec<(f32, f32)> = map
        .teams
        .iter()
        .map(|t| (t.start_x_elmos, t.start_z_elmos))
        .collect();
    let lines = metal::group_lines(&patches, metal::LINE_LINK_CELLS * ce);
    let mut spots = Vec::new();
    let mut per_line = Vec::new();
    for l in &lines {
        let line = metal::spots_for_line(l, &starts, ce);
        per_line.push(format!(
            "{} patches{} -> {} (ordered by {})",
            line.patches,
            if line.rich { ", rich" } else { "" },
            line.spots.len(),
            line.hub
        ));
        spots.extend(line.spots);
    }
    map.metal = metal::paint(frame.size, &spots);
    if patches.is_empty() {
        report.dropped("metal: no mineral fields, so no metal spots");
    } else {
        let mm = map.settings.max_metal;
        let std_yield = spots
            .iter()
            .find(|s| !s.rich)
            .map(|s| metal::yield_at(&map.metal, mm, s.x_elmos, s.z_elmos));
        report.converted(format!(
            "metal: {} mineral patches in {} lines -> {} spots ({}); each a dome of radius {} metal cells; maxMetal {:.3} and extractorRadius {} so a standard spot gives {} metal/s to a T1 extractor{} and a rich one about twice that",
            patches.len(),
            lines.len(),
            spots.len(),
            per_line.join("; "),
            metal::SPOT_RADIUS_CELLS,
            mm,
            metal::EXTRACTOR_RADIUS_ELMOS,
            metal::STANDARD_SPOT_METAL_PER_S,
            std_yield.map(|y| format!(" (measured here: {y:.2})")).unwrap_or_default()
        ));
    }
    // geysers and rocks
    let tileset = if src.info.tileset.is_empty() {
        src.xml.as_ref().map(|x| x.tileset.as_str()).unwrap_or("")
    } else {
        src.info.tileset.as_str()
    };
    let biome = features::rock_biome(tileset);
    let (mut geysers, mut rocks, mut rock_features) = (0, 0, 0);
    for o in &objects.placed {
        if !inside(o.x, o.y) {
            if !matches!(o.kind, ObjectKind::Mineral { .. }) {
                outside += 1;
            }
            continue;
        }
        let (x, z) = frame.to_elmos(o.x, o.y);
        match o.kind {
            ObjectKind::Geyser => {
                map.features.push(features::geovent(x, z));
                geysers += 1;
            }
            ObjectKind::Rock { footprint_cells } => {
                let fs = features::rocks(biome, footprint_cells, ce, x, z, o.rotation_rad);
                rock_features += fs.len();
                map.features.extend(fs);
                rocks += 1;
            }
            ObjectKind::Mineral { .. } => {}
        }
    }
    outside += objects
        .placed
        .iter()
        .filter(|o| matches!(o.kind, ObjectKind::Mineral { .. }) && !inside(o.x, o.y))
        .count();
    if geysers > 0 {
        report.converted(format!(
            "geysers: {geysers} -> \"{}\" features (the engine's built-in geothermal vent)",
            features::GEOVENT
        ));
    }
    if rocks > 0 {
        report.converted(format!(
            "destructible rocks: {rocks} -> {rock_features} reclaimable BAR rocks (rocks30_{biome}_NN, BAR's game-side rocks; biome from the tileset)"
        ));
    }
    if outside > 0 {
        report.dropped(format!("{outside} objects outside the playable area"));
    }
    if objects.unreadable > 0 {
        report.dropped(format!(
            "{} objects whose position could not be read",
            objects.unreadable
        ));
    }
    if !objects.other.is_empty() {
        let list: Vec<String> = objects
            .other
            .iter()
            .map(|(k, n)| format!("{k} x{n}"))
            .collect();
        report.dropped(format!(
            "other objects (no BAR meaning): {}",
            list.join(", ")
        ));
    }
    let _ = opt;
}
