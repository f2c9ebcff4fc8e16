//! The generator, timed: one preset's recipe (erosion included) on a 4-player rotate-4 map,
//! on the GPU (its kernels and the read-back) beside the CPU twin, in one run. The ground
//! picture is not repainted in the timed part (the editor keeps it; `groundwork new` paints it
//! once after).
//!
//! Then `groundwork new` as a user runs it (continental, 4 players, rotate-4, a sea): the whole
//! new map, ground picture and layers included, on the CPU path, at 8x8, 16x16 and 32x32.
//! Each row names the device it ran on.
//!
//! `cargo bench --bench generate [-- --sizes 16 --presets canyon,continental --no-cpu
//! --new-sizes 8,16,32]`.

use std::time::Instant;

use groundwork::edit::GpuLayers;
use groundwork::edit::generate::generate_with;
use groundwork::edit::new_map::{NewMap, new_map};
use groundwork::gpu::{BrushKernels, GpuContext, MapScene, Renderer, SceneLayers};
use groundwork::map::SymmetryMode;
use groundwork::map::recipe::{Preset, Recipe};

struct Args {
    sizes: Vec<u32>,
    new_sizes: Vec<u32>,
    presets: Vec<Preset>,
    cpu: bool,
}

fn args() -> Args {
    let mut a = Args {
        sizes: vec![16],
        new_sizes: vec![8, 16, 32],
        presets: vec![Preset::Canyon, Preset::Continental],
        cpu: true,
    };
    let argv: Vec<String> = std::env::args().collect();
    let mut i = 1;
    while i < argv.len() {
        match argv[i].as_str() {
            "--sizes" => {
                if let Some(v) = argv.get(i + 1) {
                    a.sizes = v.split(',').filter_map(|s| s.trim().parse().ok()).collect();
                }
                i += 1;
            }
            "--presets" => {
                if let Some(v) = argv.get(i + 1) {
                    a.presets = v.split(',').filter_map(|s| s.trim().parse().ok()).collect();
                }
                i += 1;
            }
            "--new-sizes" => {
                if let Some(v) = argv.get(i + 1) {
                    a.new_sizes = v.split(',').filter_map(|s| s.trim().parse().ok()).collect();
                }
                i += 1;
            }
            "--no-cpu" => a.cpu = false,
            _ => {}
        }
        i += 1;
    }
    a
}

fn main() {
    let a = args();
    // a CPU adapter (lavapipe, llvmpipe) is no GPU: the GPU column then stays empty
    let gpu = GpuContext::headless()
        .ok()
        .filter(|c| c.compute && !c.is_cpu());
    match &gpu {
        Some(c) => println!("GPU: {}", c.describe()),
        None => println!("GPU: none with compute shaders that is not a CPU (CPU column only)"),
    }
    let kernels = gpu.as_ref().and_then(BrushKernels::new);
    let renderer = gpu.as_ref().map(Renderer::new);
    let gpu_name = gpu
        .as_ref()
        .map_or("-".to_string(), |c| c.info.name.clone());
    let cpu_name = cpu_model();
    println!("\n| map | preset | GPU s | CPU twin s | spots | vents | GPU | CPU |");
    println!("|---|---|---|---|---|---|---|---|");
    for &size in &a.sizes {
        let spec = NewMap {
            width_units: size,
            depth_units: size,
            players: 4,
            symmetry: SymmetryMode::Rotate(4),
            ..NewMap::default()
        };
        let base = new_map(&spec).expect("a valid spec");
        for &preset in &a.presets {
            let recipe = Recipe::preset(preset, 7);
            let mut gpu_s = "-".to_string();
            let mut counts = (0, 0);
            if let (Some(ctx), Some(k), Some(r)) = (&gpu, &kernels, &renderer) {
                let mut map = base.clone();
                let mut scene = MapScene::new(ctx, &r.layouts, &map, &mut |_, _| {}).unwrap();
                let mut layers = SceneLayers {
                    ctx,
                    kernels: Some(k),
                    scene: &mut scene,
                };
                let t = Instant::now();
                let out = generate_with(
                    &mut map,
                    &recipe,
                    Some(&mut layers as &mut dyn GpuLayers),
                    false,
                )
                .unwrap();
                gpu_s = format!("{:.2}", t.elapsed().as_secs_f64());
                counts = (out.spots, out.vents);
            }
            let mut cpu_s = "-".to_string();
            if a.cpu {
                let mut map = base.clone();
                let t = Instant::now();
                let out = generate_with(&mut map, &recipe, None, false).unwrap();
                cpu_s = format!("{:.2}", t.elapsed().as_secs_f64());
                counts = (out.spots, out.vents);
            }
            println!(
                "| {size}x{size} | {preset} | {gpu_s} | {cpu_s} | {} | {} | {gpu_name} | {cpu_name} |",
                counts.0, counts.1
            );
        }
    }
    new_rows(&a.new_sizes, &cpu_name);
}

/// The CPU's model name and its cores, from `/proc/cpuinfo` where there is one.
fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let name = info
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map_or("CPU".to_string(), |s| s.trim().to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{name}, {cores} cores")
}

/// `groundwork new --terrain continental` end to end on the CPU path, at each size: the map
/// made and its project written, as the command does.
fn new_rows(sizes: &[u32], cpu_name: &str) {
    use groundwork::edit::new_map::new_map_generated;
    println!("\n`groundwork new`, continental, 4 players, rotate-4, a sea at 60 elmos, seed 7:\n");
    println!("| map | made s | written s | new s | texture layers | device |");
    println!("|---|---|---|---|---|---|");
    let scratch = std::env::temp_dir().join(format!("groundwork-bench-new-{}", std::process::id()));
    for &size in sizes {
        let spec = NewMap {
            width_units: size,
            depth_units: size,
            players: 4,
            symmetry: SymmetryMode::Rotate(4),
            sea_level_elmos: Some(60.0),
            recipe: Some(Recipe::preset(Preset::Continental, 7)),
            ..NewMap::default()
        };
        let _ = std::fs::remove_dir_all(&scratch);
        let t = Instant::now();
        match new_map_generated(&spec) {
            Ok((map, _)) => {
                let made = t.elapsed().as_secs_f64();
                groundwork::formats::save_project(&map, &scratch).expect("write the project");
                let all = t.elapsed().as_secs_f64();
                println!(
                    "| {size}x{size} | {made:.2} | {:.2} | {all:.2} | {} | CPU twin on {cpu_name} |",
                    all - made,
                    map.texture_layers.len()
                );
            }
            Err(e) => println!("| {size}x{size} | {e} | | | | |"),
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
