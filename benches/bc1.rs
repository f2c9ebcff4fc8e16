//! The BC1 encoders alone on one noisy picture, side by side: CPU microseconds per 4x4 block on
//! one core and PSNR of the decoded picture against the source.
//!
//! `cargo bench --bench bc1` (`GROUNDWORK_BENCH_SIDE=2048` for the picture's side,
//! `GROUNDWORK_BENCH_NOISE=0.12` for the per-texel noise amplitude, as in the compile bench,
//! `GROUNDWORK_BENCH_BEST=1` to add texpresso's slow cluster fit).

mod common;

use groundwork::formats::bc1::{
    Bc1Quality, bc1_size, decode_bc1, decode_bc1_rounded, encode_bc1_into, psnr_rgb, refine_bc1,
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
