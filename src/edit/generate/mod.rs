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

use super::brush::{Brush, BrushShape, Falloff};
use super::kernel::{CpuScratch, Dispatch, run_cpu};
use super::new_map::start_positions;
use super::session::GpuLayers;
use super::stroke::Stroke;
use super::symmetry::images;
use super::tools::{ToolSettings, find};
use super::{GridRect, LayerId};
use crate::map::ground_layers::{Band, Breakup, Material, TextureLayer};
use crate::map::materials::BuiltinMaterial;
use crate::map::recipe::{Recipe, Step};
use crate::map::{ELMOS_PER_SQUARE, Grid, GroundTexture, Map, SymmetryMode, Team};

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
    Cpu(CpuScratch),
    Gpu(&'a mut dyn GpuLayers),
}

impl Runner<'_> {
    fn run(&mut self, heights: &mut Grid<f32>, dispatches: &[Dispatch]) -> Result<(), String> {
        match self {
            Runner::Cpu(scratch) => {
                for d in dispatches {
                    run_cpu(d, heights, scratch);
                }
                Ok(())
            }
            Runner::Gpu(g) => g.run(dispatches),
        }
    }
}

/// The dispatches of one erosion step: the brush's stroke with one square dab over the whole
/// map (flat falloff, so the rain falls everywhere), without symmetry copies.
fn erosion_dispatches(map: &mut Map, step: &Step) -> Result<Vec<Dispatch>, String> {
    let (tool, strength) = match step {
        Step::ThermalErosion(s) => (find("thermal-erosion"), s.strength),
        Step::HydraulicErosion(s) => (find("hydraulic-erosion"), s.strength),
        _ => return Ok(Vec::new()),
    };
    let tool = tool.ok_or("the erosion brushes are registered")?;
    let mut settings = ToolSettings::defaults(tool);
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    settings.brush = Brush {
        radius_elmos: 0.5 * w.max(d) + 2.0 * ELMOS_PER_SQUARE as f32,
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
    // one dab, not one per copy: the symmetrize pass after the step copies the sector
    let mode = std::mem::replace(&mut map.symmetry, SymmetryMode::None);
    let stroke = Stroke::begin(tool, settings, false, map, [0.5 * w, 0.5 * d]);
    let out = stroke.map(|mut s| s.take(map, None));
    map.symmetry = mode;
    out
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
        Step::ThermalErosion(_) | Step::HydraulicErosion(_) => {
            return erosion_dispatches(map, step);
        }
        Step::Metal(_) | Step::Vents(_) => return Ok(Vec::new()),
    };
    Ok(vec![kernel::whole_map(entry, dims, epc, t, starts)])
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
        _ => Runner::Cpu(CpuScratch::default()),
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
        runner.run(&mut map.heights, &batch)?;
    }
    if let Runner::Gpu(g) = &mut runner {
        let back = g.read_rects(LayerId::Heights, &[whole])?;
        let values = back.into_iter().next().ok_or("the GPU read nothing back")?;
        map.heights =
            Grid::from_vec(dims.0, dims.1, values).ok_or("the GPU read back a wrong size")?;
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
