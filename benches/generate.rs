//! The generator, timed: one preset's recipe (erosion included) on a 4-player rotate-4 map,
//! on the GPU (its kernels and the read-back) beside the CPU twin, in one run. The ground
//! picture is not repainted in the timed part (the editor keeps it; `groundwork new` paints it
//! once after).
//!
//! `cargo bench --bench generate [-- --sizes 16 --presets canyon,continental --no-cpu]`.

use std::time::Instant;

use groundwork::edit::GpuLayers;
use groundwork::edit::generate::generate_with;
use groundwork::edit::new_map::{NewMap, new_map};
use groundwork::gpu::{BrushKernels, GpuContext, MapScene, Renderer, SceneLayers};
use groundwork::map::SymmetryMode;
use groundwork::map::recipe::{Preset, Recipe};

struct Args {
    sizes: Vec<u32>,
    presets: Vec<Preset>,
    cpu: bool,
}

fn args() -> Args {
    let mut a = Args {
        sizes: vec![16],
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
            "--no-cpu" => a.cpu = false,
            _ => {}
        }
        i += 1;
    }
    a
}

fn main() {
    let a = args();
    let gpu = GpuContext::headless().ok().filter(|c| c.compute);
    match &gpu {
        Some(c) => println!("GPU: {}", c.describe()),
        None => println!("GPU: none with compute shaders (CPU column only)"),
    }
    let kernels = gpu.as_ref().and_then(BrushKernels::new);
    let renderer = gpu.as_ref().map(Renderer::new);
    println!("\n| map | preset | GPU s | CPU twin s | spots | vents |");
    println!("|---|---|---|---|---|---|");
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
                "| {size}x{size} | {preset} | {gpu_s} | {cpu_s} | {} | {} |",
                counts.0, counts.1
            );
        }
    }
}
