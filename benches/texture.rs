//! The texture layers' export bake: eight layers (every kind of rule) over a relief map's
//! picture, on the GPU (`gpu::bake`, in chunks) beside its CPU twin (`ground_bake::bake`,
//! rayon over rows), in one run, with the largest difference between them.
//!
//! `cargo bench --bench texture [-- --sizes 16,32 --runs N]`. Headless, on whatever adapter
//! `WGPU_BACKEND` picks; each bake ends with the texture back in memory.

use std::time::Instant;

use groundwork::edit::procedural::relief_map;
use groundwork::gpu::GpuContext;
use groundwork::gpu::bake::bake_on_gpu;
use groundwork::map::MapSize;
use groundwork::map::ground_bake::bake;
use groundwork::map::ground_layers::material_images;

#[path = "common/layers.rs"]
mod layers;

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let value = |key: &str| {
        argv.iter()
            .position(|a| a == key)
            .and_then(|i| argv.get(i + 1))
            .cloned()
    };
    let sizes: Vec<u32> = value("--sizes")
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![16, 32]);
    let runs: usize = value("--runs").and_then(|v| v.parse().ok()).unwrap_or(3);
    let ctx = match GpuContext::headless() {
        Ok(c) if c.compute => Some(c),
        Ok(c) => {
            eprintln!("{} runs no compute: the CPU alone", c.describe());
            None
        }
        Err(e) => {
            eprintln!("no GPU adapter ({e}): the CPU alone");
            None
        }
    };
    println!(
        "texture bake, 8 layers, on {} beside the CPU ({} threads), mean of {runs}",
        ctx.as_ref().map_or("no GPU".into(), |c| c.describe()),
        rayon::current_num_threads()
    );
    println!();
    println!("| map | texels | GPU s | CPU s | CPU / GPU | largest difference (levels) |");
    println!("|---|---|---|---|---|---|");
    for units in sizes {
        let Ok(size) = MapSize::new(units, units) else {
            eprintln!("skipping size {units}: not a valid map size");
            continue;
        };
        let mut map = relief_map(size, 42, "bench");
        map.texture_layers = layers::eight_layers();
        let images = material_images(&map.texture_layers, &|_| Err("no pictures".into()))
            .expect("built-in materials");
        let time = |f: &mut dyn FnMut() -> groundwork::map::GroundTexture| {
            let mut last = None;
            let t0 = Instant::now();
            for _ in 0..runs {
                last = Some(f());
            }
            (
                t0.elapsed().as_secs_f64() / runs.max(1) as f64,
                last.unwrap(),
            )
        };
        let (cpu_s, cpu) = time(&mut || bake(&map, &images));
        let (gpu_s, diff) = match &ctx {
            Some(ctx) => {
                let _ = bake_on_gpu(ctx, &map, &images); // pipelines, first uploads
                let (s, g) = time(&mut || bake_on_gpu(ctx, &map, &images).expect("GPU bake"));
                let d = g
                    .rgba()
                    .iter()
                    .zip(cpu.rgba())
                    .map(|(a, b)| a.abs_diff(*b))
                    .max()
                    .unwrap_or(0);
                (format!("{s:.2}"), format!("{:.2} | {d}", cpu_s / s))
            }
            None => ("-".into(), "- | -".into()),
        };
        println!(
            "| {size} | {}^2 | {gpu_s} | {cpu_s:.2} | {diff} |",
            map.texture.width()
        );
    }
}
