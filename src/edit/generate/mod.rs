//! The map generator: runs a [`Recipe`] on a map. The start positions come first (laid out by
//! the symmetry, as File > New lays them); then the height steps in order, each a whole-map
//! kernel on the GPU when one runs compute, else its CPU twin (`kernel`), the erosion steps
//! as one whole-map stroke of the erosion brushes; then the placement steps (`placement`) on
//! the finished ground.
//!
//! Symmetric by construction: after every step whose result depends on where it runs (the
//! base shape, noise, erosion, the start bases) the symmetrize kernel copies the fundamental
//! sector to the others, so the heights are symmetric to the bit under mirrors, diagonals and
//! quarter turns; the spots and vents are placed in the first copy and copied by the mode.

pub mod kernel;
pub mod placement;

use std::sync::Arc;

use rayon::prelude::*;

use super::brush::{Brush, BrushShape, Falloff};
use super::kernel::GpuLayers;
use super::kernel::{CpuScratch, Dispatch, GpuDab, KernelParams, run_cpu, run_cpu_on};
use super::starts::start_positions;
use super::symmetry::{SYMMETRIZE, cells_symmetrize_reads, images};
use super::tools::{StrokeStart, ToolSettings, find};
use super::{GridRect, LayerId};
use crate::map::ground_layers::{Band, Breakup, Material, TextureLayer};
use crate::map::materials::BuiltinMaterial;
use crate::map::recipe::{Recipe, Step, erosion_factor};
use crate::map::{ELMOS_PER_SQUARE, Grid, GroundTexture, Map, Team};

/// What a run of the recipe did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub spots: usize,
    pub vents: usize,
    /// What could not be placed, and other things the mapmaker should hear.
    pub notes: Vec<String>,
    /// Whether the height steps ran on the GPU.
    pub on_gpu: bool,
}

/// The seed a step's kernel reads: the recipe's seed and the step's place, mixed into the 24
/// bits an f32 holds exactly.
fn step_seed(seed: u32, index: usize) -> u32 {
    let mut h = seed ^ (index as u32).wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h & 0x00ff_ffff
}

/// Where the height steps run.
enum Runner<'a> {
    /// The CPU twins; `kept` marks the cells a symmetrize pass keeps or reads (None without
    /// symmetry copies): a generator pass followed by one computes only those.
    Cpu {
        scratch: CpuScratch,
        kept: Option<Vec<bool>>,
    },
    Gpu(&'a mut dyn GpuLayers),
}

impl Runner<'_> {
    fn run(&mut self, heights: &mut Grid<f32>, dispatches: &[Dispatch]) -> Result<(), String> {
        match self {
            Runner::Cpu { scratch, kept } => {
                let symmetrized = dispatches
                    .last()
                    .is_some_and(|d| std::ptr::eq(d.kernel, &SYMMETRIZE));
                for d in dispatches {
                    match kept {
                        Some(k) if symmetrized && std::ptr::eq(d.kernel, &kernel::GENERATE) => {
                            run_cpu_on(d, heights, scratch, k)
                        }
                        _ => run_cpu(d, heights, scratch),
                    }
                }
                Ok(())
            }
            Runner::Gpu(g) => g.run(dispatches),
        }
    }
}

/// An erosion step at map scale, on the CPU twin: the brush over the whole of the heights
/// sampled every `factor` vertices ([`erosion_factor`]) and divided by `factor`, so the grid
/// is again 8 elmos a cell to the tool and every slope keeps its angle; the change, times
/// `factor`, is laid back on every vertex bilinearly (exact at the sampled ones). The storm
/// covers the whole grid (one square dab, flat falloff), without symmetry copies: the
/// symmetrize pass after the step copies the sector.
fn erode_map_scale(map: &Map, heights: &mut Grid<f32>, step: &Step) -> Result<(), String> {
    let (tool, strength, cell_elmos) = match step {
        Step::ThermalErosion(s) => (find("thermal-erosion"), s.strength, s.cell_elmos),
        Step::HydraulicErosion(s) => (find("hydraulic-erosion"), s.strength, s.cell_elmos),
        _ => return Ok(()),
    };
    let tool = tool.ok_or("the erosion brushes are registered")?;
    let factor = erosion_factor(cell_elmos);
    let (w, h) = heights.dims();
    let (cw, ch) = ((w - 1) / factor + 1, (h - 1) / factor + 1);
    let inv = 1.0 / factor as f32;
    let mut coarse = Grid::filled(cw, ch, 0.0f32);
    for j in 0..ch {
        for i in 0..cw {
            coarse.set(i, j, heights.get(i * factor, j * factor) * inv);
        }
    }
    let before = coarse.clone();

    let mut settings = ToolSettings::defaults(tool);
    let radius_cells = 0.5 * (cw.max(ch) - 1) as f32 + 2.0;
    settings.brush = Brush {
        radius_elmos: radius_cells * ELMOS_PER_SQUARE as f32,
        strength,
        falloff: Falloff::Flat,
        shape: BrushShape::Square,
        spacing_radii: 1.0,
    };
    match step {
        Step::ThermalErosion(s) => {
            settings.set_number("talus_deg", s.talus_deg);
            settings.set_number("iterations", s.iterations.max(1) as f32);
        }
        Step::HydraulicErosion(s) => {
            settings.set_number("rain_elmos", s.rain_elmos);
            settings.set_number("capacity", s.capacity);
            settings.set_number("evaporation", s.evaporation);
            settings.set_number("repose_deg", s.repose_deg);
            settings.set_number("iterations", s.iterations.max(1) as f32);
        }
        _ => {}
    }
    let centre = [0.5 * map.size.width_elmos(), 0.5 * map.size.depth_elmos()];
    let setup = tool.setup(&StrokeStart {
        settings: &settings,
        map,
        inverted: false,
        start_elmos: centre,
        start_height_elmos: 0.0,
        end_elmos: centre,
        end_height_elmos: 0.0,
    })?;
    let (cwu, chu) = (cw as u32, ch as u32);
    let mut params = KernelParams {
        origin: [0, 0],
        size: [cwu, chu],
        src_origin: [0, 0],
        src_size: [cwu, chu],
        layer_size: [cwu, chu],
        dab_count: 1,
        falloff: Falloff::Flat as u32,
        shape: BrushShape::Square.code(),
        elmos_per_cell: ELMOS_PER_SQUARE as f32,
        mask_size: [1, 1],
        tool: setup.tool,
        ..Default::default()
    };
    params.dabs[0] = GpuDab {
        center: [0.5 * (cw - 1) as f32, 0.5 * (ch - 1) as f32],
        radius: radius_cells,
        amount: setup.amount,
        axis_x: [1.0, 0.0],
        axis_z: [0.0, 1.0],
    };
    let dispatch = Dispatch {
        kernel: tool.kernel(),
        layer: LayerId::Heights,
        params,
        passes: setup.passes,
        mask: None,
        stamp: None,
        original: None,
    };
    run_cpu(&dispatch, &mut coarse, &mut CpuScratch::default());

    // the change, back at full scale, on every vertex
    let change: Vec<f32> = coarse
        .data()
        .iter()
        .zip(before.data())
        .map(|(a, b)| (a - b) * factor as f32)
        .collect();
    heights
        .data_mut()
        .par_chunks_mut(w)
        .enumerate()
        .for_each(|(z, row)| {
            let (j, fz) = (z / factor, (z % factor) as f32 * inv);
            let j1 = (j + 1).min(ch - 1);
            for (x, v) in row.iter_mut().enumerate() {
                let (i, fx) = (x / factor, (x % factor) as f32 * inv);
                let i1 = (i + 1).min(cw - 1);
                let top = change[j * cw + i] * (1.0 - fx) + change[j * cw + i1] * fx;
                let bottom = change[j1 * cw + i] * (1.0 - fx) + change[j1 * cw + i1] * fx;
                *v += top * (1.0 - fz) + bottom * fz;
            }
        });
    Ok(())
}

/// The kernel dispatches of one height step (none for placement steps).
fn height_dispatches(
    map: &mut Map,
    step: &Step,
    seed: u32,
    starts: &Arc<Grid<f32>>,
) -> Result<Vec<Dispatch>, String> {
    let dims = map.heights.dims();
    let epc = ELMOS_PER_SQUARE as f32;
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let mut t = [0.0f32; 16];
    let entry = match step {
        Step::Base(s) => {
            t[..7].copy_from_slice(&[
                s.preset.code() as f32,
                seed as f32,
                0.0,
                s.relief_elmos,
                w,
                d,
                s.feature_elmos,
            ]);
            "base"
        }
        Step::Noise(s) => {
            t[..6].copy_from_slice(&[
                s.kind.code() as f32,
                seed as f32,
                s.amplitude_elmos,
                s.wavelength_elmos,
                s.octaves.clamp(1, 8) as f32,
                s.warp_elmos,
            ]);
            "noise"
        }
        Step::Terrace(s) => {
            t[..2].copy_from_slice(&[s.step_elmos, s.sharpness]);
            "terrace"
        }
        Step::Plateau(s) => {
            t[..2].copy_from_slice(&[s.level_elmos, s.softness_elmos]);
            "plateau"
        }
        Step::Clamp(s) => {
            t[..2].copy_from_slice(&[s.min_elmos, s.max_elmos]);
            "clamp_heights"
        }
        Step::Coast(s) => {
            t[..2].copy_from_slice(&[s.sea_level_elmos, s.beach_height_elmos]);
            "coast"
        }
        Step::Starts(s) => {
            t[..2].copy_from_slice(&[s.radius_elmos, s.min_land_elmos]);
            "starts"
        }
        Step::ThermalErosion(_) | Step::HydraulicErosion(_) | Step::Metal(_) | Step::Vents(_) => {
            return Ok(Vec::new());
        }
    };
    Ok(vec![kernel::whole_map(entry, dims, epc, t, starts)])
}

/// The heights layer read back from the GPU.
fn read_heights(g: &mut dyn GpuLayers, whole: GridRect) -> Result<Grid<f32>, String> {
    let back = g.read_rects(LayerId::Heights, &[whole])?;
    let values = back.into_iter().next().ok_or("the GPU read nothing back")?;
    Grid::from_vec(whole.w, whole.h, values).ok_or_else(|| "the GPU read back a wrong size".into())
}

/// Whether a step's result depends on where it runs (then the sector is copied after it).
fn position_dependent(step: &Step) -> bool {
    matches!(
        step,
        Step::Base(_)
            | Step::Noise(_)
            | Step::ThermalErosion(_)
            | Step::HydraulicErosion(_)
            | Step::Starts(_)
    )
}

/// Runs `recipe` on `map`: new start positions for its team count (at least one per copy of
/// its symmetry), the heights, a height range that holds them, the metal and vents, a ground
/// texture coloured from the heights, and the recipe kept in the map. The height steps run on
/// `gpu` when it runs kernels (its heights layer then holds the result too).
pub fn generate(
    map: &mut Map,
    recipe: &Recipe,
    gpu: Option<&mut dyn GpuLayers>,
) -> Result<Outcome, String> {
    generate_with(map, recipe, gpu, true)
}

/// [`generate`]; with `repaint` false the ground picture ("Original", under the layers) stays
/// as it is (the editor's undo step keeps the picture out of its history).
pub fn generate_with(
    map: &mut Map,
    recipe: &Recipe,
    gpu: Option<&mut dyn GpuLayers>,
    repaint: bool,
) -> Result<Outcome, String> {
    recipe.check()?;
    let mode = map.symmetry;
    mode.check_map(map.size.width_units(), map.size.height_units())?;
    let copies = mode.copies();
    let players = (map.teams.len().max(2).div_ceil(copies) * copies) as u32;
    let starts = start_positions(map.size, mode, players)?;
    map.teams = starts
        .into_iter()
        .map(|[x, z]| Team {
            start_x_elmos: x,
            start_z_elmos: z,
        })
        .collect();
    let isos = images(mode, map.size.width_elmos(), map.size.depth_elmos());
    let table = kernel::table(&placement::start_points(map), &isos);
    let dims = map.heights.dims();
    let whole = GridRect::new(0, 0, dims.0, dims.1);

    let mut runner = match gpu {
        Some(g) if g.can_run() => {
            g.write_rect(LayerId::Heights, whole, map.heights.data());
            Runner::Gpu(g)
        }
        _ => Runner::Cpu {
            scratch: CpuScratch::default(),
            kept: (copies > 1).then(|| cells_symmetrize_reads(mode, dims)),
        },
    };
    let on_gpu = matches!(runner, Runner::Gpu(_));
    let has_coast = recipe.steps.iter().any(|s| matches!(s, Step::Coast(_)));
    map.heights.data_mut().fill(0.0);
    if let Runner::Gpu(g) = &mut runner {
        g.write_rect(LayerId::Heights, whole, map.heights.data());
    }
    for (i, step) in recipe.steps.iter().enumerate() {
        if step.places() {
            continue;
        }
        let seed = step_seed(recipe.seed, i);
        let mut batch = height_dispatches(map, step, seed, &table)?;
        if position_dependent(step) && copies > 1 {
            batch.push(kernel::symmetrize_whole(
                mode,
                dims,
                ELMOS_PER_SQUARE as f32,
            ));
        }
        if matches!(step, Step::ThermalErosion(_) | Step::HydraulicErosion(_)) {
            // at map scale on the CPU twin, between the GPU's steps
            if let Runner::Gpu(g) = &mut runner {
                map.heights = read_heights(&mut **g, whole)?;
            }
            let mut heights = std::mem::replace(&mut map.heights, Grid::filled(1, 1, 0.0));
            let eroded = erode_map_scale(map, &mut heights, step);
            map.heights = heights;
            eroded?;
            if let Runner::Gpu(g) = &mut runner {
                g.write_rect(LayerId::Heights, whole, map.heights.data());
            }
        }
        runner.run(&mut map.heights, &batch)?;
    }
    if let Runner::Gpu(g) = &mut runner {
        map.heights = read_heights(&mut **g, whole)?;
    }
    let mut notes = Vec::new();
    if !has_coast {
        // no sea asked for: keep the ground above the water line
        let (lo, _) = map.heights.min_max();
        let lift = (LAND_FLOOR_ELMOS - lo).max(0.0);
        if lift > 0.0 {
            map.heights.data_mut().iter_mut().for_each(|h| *h += lift);
            if let Runner::Gpu(g) = &mut runner {
                g.write_rect(LayerId::Heights, whole, map.heights.data());
            }
        }
    }
    let (lo, hi) = map.heights.min_max();
    map.settings.min_height_elmos = (lo - RANGE_MARGIN_ELMOS).floor();
    map.settings.max_height_elmos = (hi + RANGE_MARGIN_ELMOS).ceil();

    let mut outcome = Outcome {
        on_gpu,
        ..Outcome::default()
    };
    for (i, step) in recipe.steps.iter().enumerate() {
        let seed = step_seed(recipe.seed, i);
        match step {
            Step::Metal(s) => {
                let (n, missed) = placement::place_metal(map, s, &isos, seed);
                outcome.spots += n;
                notes.extend(missed.into_iter().map(|m| format!("no room for {m}")));
            }
            Step::Vents(s) => {
                let (n, missed) = placement::place_vents(map, s, &isos, seed);
                outcome.vents += n;
                notes.extend(missed.into_iter().map(|m| format!("no room for {m}")));
            }
            _ => {}
        }
    }
    if repaint {
        map.texture = GroundTexture::default_for_heights(map.size, &map.heights, &map.settings);
    }
    map.texture_layers = ground_layers(lo < 0.0);
    map.generator = Some(recipe.clone());
    outcome.notes = notes;
    Ok(outcome)
}

/// The texture layers a generated map gets, bottom first, all from rules so they follow the
/// ground as it is sculpted: grass on gentle land, sand along the shore (with a sea), rock on
/// slopes too steep to build on.
pub fn ground_layers(sea: bool) -> Vec<TextureLayer> {
    let builtin = |kind| Material::Builtin {
        kind,
        scale_elmos: 256.0,
        tint: [1.0; 3],
    };
    let mut grass = TextureLayer::new("Grass", builtin(BuiltinMaterial::Grass));
    grass.rules.slope_deg = Some(Band {
        min: 0.0,
        max: 12.0,
        soft: 8.0,
    });
    grass.rules.noise = Some(Breakup {
        seed: 1,
        scale_elmos: 600.0,
        amount: 0.35,
    });
    let mut out = vec![grass];
    if sea {
        let mut sand = TextureLayer::new("Sand", builtin(BuiltinMaterial::Sand));
        sand.rules.near_water = Some(Band {
            min: 0.0,
            max: 48.0,
            soft: 48.0,
        });
        out.push(sand);
    }
    let mut rock = TextureLayer::new("Rock", builtin(BuiltinMaterial::Rock));
    rock.rules.slope_deg = Some(Band {
        min: 24.0,
        max: 90.0,
        soft: 8.0,
    });
    out.push(rock);
    out
}

/// Without a sea, the lowest ground ends this far above the water line (elmos).
const LAND_FLOOR_ELMOS: f32 = 10.0;
/// The height range reaches this far past the lowest and highest ground (elmos).
const RANGE_MARGIN_ELMOS: f32 = 20.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::kernel::CpuScratch;
    use crate::map::{MapSettings, MapSize, SymmetryMode};

    /// A generator pass computed only on the cells the symmetrize pass after it keeps or reads
    /// gives the bits of the pass over every cell, under every mode.
    #[test]
    fn the_cells_symmetrize_reads_are_all_a_pass_before_it_needs() {
        for mode in SymmetryMode::ALL {
            let mut map = Map::new(MapSize::new(4, 4).unwrap(), MapSettings::default());
            map.symmetry = mode;
            let starts = start_positions(map.size, mode, mode.copies() as u32).unwrap();
            let isos = images(mode, map.size.width_elmos(), map.size.depth_elmos());
            let table = kernel::table(&starts, &isos);
            let dims = map.heights.dims();
            let kept = cells_symmetrize_reads(mode, dims);
            let mut t = [0.0f32; 16];
            t[..6].copy_from_slice(&[1.0, 77.0, 40.0, 600.0, 4.0, 200.0]);
            let epc = ELMOS_PER_SQUARE as f32;
            let pass = kernel::whole_map("noise", dims, epc, t, &table);
            let sym = kernel::symmetrize_whole(mode, dims, epc);
            let (mut all, mut some) = (map.heights.clone(), map.heights.clone());
            let mut scratch = CpuScratch::default();
            run_cpu(&pass, &mut all, &mut scratch);
            run_cpu(&sym, &mut all, &mut scratch);
            run_cpu_on(&pass, &mut some, &mut scratch, &kept);
            run_cpu(&sym, &mut some, &mut scratch);
            assert_ne!(all, map.heights, "{mode}: the noise changes the ground");
            assert!(
                all.data()
                    .iter()
                    .zip(some.data())
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{mode}"
            );
            // the work left is about one copy's share of the map (of the disc, for turns that
            // do not tile the square: its corners stay as they are)
            let share = kept.iter().filter(|k| **k).count() as f32 / kept.len() as f32;
            let corners = match mode {
                SymmetryMode::Rotate(3 | 6 | 8) => 1.0 - std::f32::consts::FRAC_PI_4,
                _ => 0.0,
            };
            let most = 1.0 / mode.copies() as f32 + corners + 0.02;
            assert!(
                share <= most,
                "{mode}: {share} of the cells, not at most {most}"
            );
        }
    }
}
