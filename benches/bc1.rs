//! The BC1 encoders alone on one noisy picture, side by side: CPU microseconds per 4x4 block on
//! one core and PSNR of the decoded picture against the source.
//!
//! `cargo bench --bench bc1` (`GROUNDWORK_BENCH_SIDE=2048` for the picture's side,
//! `GROUNDWORK_BENCH_NOISE=0.12` for the per-texel noise amplitude, as in the compile bench,
//! `GROUNDWORK_BENCH_BEST=1` to add texpresso's slow cluster fit). Then the refine threshold
//! (`REFINE_MIN_MSE`) swept against time and PSNR on the noisy picture, a generated map's
//! baked layers, a generated map's untextured ground and a real map's texture from
//! `../shared/fixtures` (skipped when absent); `--sweep-only` for just that.

mod common;

use groundwork::formats::bc1::{
    Bc1Quality, NUDGE_MAX_MSE, REFINE_MIN_MSE, bc1_size, decode_bc1, decode_bc1_rounded,
    encode_bc1_into, psnr_rgb, refine_bc1, refine_bc1_above, refine_bc1_with,
};

/// CPU time of this thread in seconds, steadier than wall time on a shared machine.
struct CpuClock(f64);
impl CpuClock {
    fn now() -> CpuClock {
        // SAFETY: an all-zero timespec is a valid value
        let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
        // SAFETY: fills the timespec, which lives to the call's end, with this thread's clock
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        CpuClock(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
    }
    fn elapsed_s(&self) -> f64 {
        CpuClock::now().0 - self.0
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<f32>().ok());
    let side = env("GROUNDWORK_BENCH_SIDE").map_or(1024, |v| v as usize);
    let noise = env("GROUNDWORK_BENCH_NOISE").unwrap_or(0.12);
    let source = common::to_rgba(&common::noisy_rgb(side, noise));
    if std::env::args().any(|a| a == "--sweep-only") {
        sweep(&source, side);
        return;
    }
    let blocks = (side / 4 * side / 4) as f64;
    println!("{side}x{side} noisy picture (noise amplitude {noise}), one core");
    println!(
        "{:<32} {:>9} {:>9} {:>9}",
        "encoder", "us/block", "PSNR dB", "rounded"
    );
    // PSNR as texpresso decodes (thirds rounded down), and with thirds rounded to nearest
    let row = |label: &str, seconds: f64, encoded: &[u8]| {
        let psnr = psnr_rgb(&source, &decode_bc1(encoded, side, side));
        let rounded = psnr_rgb(&source, &decode_bc1_rounded(encoded, side, side));
        println!(
            "{label:<32} {:>9.3} {psnr:>9.3} {rounded:>9.3}",
            seconds * 1e6 / blocks
        );
    };

    let mut fast = vec![0u8; bc1_size(side, side)];
    let t = CpuClock::now();
    encode_bc1_into(&source, side, side, Bc1Quality::Fast, &mut fast);
    let fast_s = t.elapsed_s();
    row("fast", fast_s, &fast);
    // the least of three runs: the machine's other work only ever adds time
    let mut refine_s = f64::INFINITY;
    let mut refined = fast.clone();
    for _ in 0..3 {
        refined.copy_from_slice(&fast);
        let t = CpuClock::now();
        refine_bc1(&source, side, side, &mut refined);
        refine_s = refine_s.min(t.elapsed_s());
    }
    row("fast + refine", fast_s + refine_s, &refined);
    if std::env::var_os("GROUNDWORK_BENCH_BEST").is_some() {
        let mut best = vec![0u8; bc1_size(side, side)];
        let t = CpuClock::now();
        encode_bc1_into(&source, side, side, Bc1Quality::Best, &mut best);
        row("best (cluster fit)", t.elapsed_s(), &best);
    }
}

/// The top-left `side` x `side` texels of an RGBA picture `width` wide.
fn crop(rgba: &[u8], width: usize, side: usize) -> Vec<u8> {
    (0..side)
        .flat_map(|y| {
            rgba[(y * width) * 4..(y * width + side) * 4]
                .iter()
                .copied()
        })
        .collect()
}

/// Refine time and PSNR for each threshold on pictures like the ones a compile encodes.
fn sweep(noisy: &[u8], noisy_side: usize) {
    use groundwork::edit::new_map::{NewMap, new_map_generated};
    use groundwork::map::SymmetryMode;
    use groundwork::map::recipe::{Preset, Recipe};
    let side = 1024;
    let mut pictures: Vec<(String, Vec<u8>)> = vec![(
        format!("noisy picture (bench, {noisy_side}^2)"),
        crop(noisy, noisy_side, noisy_side.min(side)),
    )];
    let spec = NewMap {
        width_units: 8,
        depth_units: 8,
        players: 4,
        symmetry: SymmetryMode::Rotate(4),
        sea_level_elmos: Some(60.0),
        recipe: Some(Recipe::preset(Preset::Continental, 7)),
        ..NewMap::default()
    };
    match new_map_generated(&spec) {
        Ok((map, _)) => {
            let w = map.texture.width();
            pictures.push((
                "generated 8x8, untextured ground".into(),
                crop(map.texture.rgba(), w, side),
            ));
            match groundwork::compile::bake_texture(&map) {
                Ok(baked) => pictures.push((
                    format!("generated 8x8, {} layers baked", map.texture_layers.len()),
                    crop(baked.rgba(), baked.width(), side),
                )),
                Err(e) => eprintln!("bake: {e}"),
            }
        }
        Err(e) => eprintln!("generated map: {e}"),
    }
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/bar/Map_Blueprint_V1.sdd");
    match groundwork::formats::open_map(&fixture) {
        Ok(l) => {
            let t = &l.map.texture;
            let n = side.min(t.width()).min(t.height()) / 4 * 4;
            pictures.push((
                format!("Map_Blueprint_V1 texture ({n}^2 of it)"),
                crop(t.rgba(), t.width(), n),
            ));
        }
        Err(_) => eprintln!("skipped: fixtures not found (the real map's row)"),
    }
    println!();
    println!(
        "refine threshold (mean squared error per texel channel) against time and PSNR, one core; in use: {REFINE_MIN_MSE}"
    );
    println!();
    println!("| picture | threshold | blocks refined | refine ms | PSNR dB | gain over fast dB |");
    println!("|---|---|---|---|---|---|");
    for (name, rgba) in &pictures {
        let n = ((rgba.len() / 4) as f64).sqrt() as usize;
        let mut fast = vec![0u8; bc1_size(n, n)];
        encode_bc1_into(rgba, n, n, Bc1Quality::Fast, &mut fast);
        let fast_psnr = psnr_rgb(rgba, &decode_bc1(&fast, n, n));
        println!("| {name} | fast alone | 0 | 0 | {fast_psnr:.3} | 0 |");
        for t in [0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0] {
            let mut out = fast.clone();
            let mut best_s = f64::INFINITY;
            for _ in 0..2 {
                out.copy_from_slice(&fast);
                let c = CpuClock::now();
                refine_bc1_above(rgba, n, n, &mut out, t);
                best_s = best_s.min(c.elapsed_s());
            }
            let changed = out
                .chunks(8)
                .zip(fast.chunks(8))
                .filter(|(a, b)| a != b)
                .count();
            let psnr = psnr_rgb(rgba, &decode_bc1(&out, n, n));
            println!(
                "| {name} | {t} | {changed} changed of {} | {:.1} | {psnr:.3} | {:+.3} |",
                fast.len() / 8,
                best_s * 1000.0,
                psnr - fast_psnr
            );
        }
    }
    println!();
    println!(
        "nudge bound (blocks whose error after the cluster fit is under it are nudged) at the refine threshold in use ({REFINE_MIN_MSE}), one core; in use: {NUDGE_MAX_MSE}"
    );
    println!();
    println!("| picture | nudge bound | refine ms | PSNR dB | gain over fast dB |");
    println!("|---|---|---|---|---|");
    for (name, rgba) in &pictures {
        let n = ((rgba.len() / 4) as f64).sqrt() as usize;
        let mut fast = vec![0u8; bc1_size(n, n)];
        encode_bc1_into(rgba, n, n, Bc1Quality::Fast, &mut fast);
        let fast_psnr = psnr_rgb(rgba, &decode_bc1(&fast, n, n));
        for bound in [f32::INFINITY, 64.0, 32.0, 16.0, 8.0, 4.0, 0.0] {
            let mut out = fast.clone();
            let mut best_s = f64::INFINITY;
            for _ in 0..2 {
                out.copy_from_slice(&fast);
                let c = CpuClock::now();
                refine_bc1_with(rgba, n, n, &mut out, REFINE_MIN_MSE, bound);
                best_s = best_s.min(c.elapsed_s());
            }
            let psnr = psnr_rgb(rgba, &decode_bc1(&out, n, n));
            println!(
                "| {name} | {bound} | {:.1} | {psnr:.3} | {:+.3} |",
                best_s * 1000.0,
                psnr - fast_psnr
            );
        }
    }
}
