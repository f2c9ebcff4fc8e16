//! The BC1 encoders alone on one noisy picture, side by side: CPU microseconds per 4x4 block on
//! one core and PSNR of the decoded picture against the source.
//!
//! `cargo bench --bench bc1` (`GROUNDWORK_BENCH_SIDE=2048` for the picture's side,
//! `GROUNDWORK_BENCH_NOISE=0.12` for the per-texel noise amplitude, as in the compile bench,
//! `GROUNDWORK_BENCH_BEST=1` to add texpresso's slow cluster fit).

use groundwork::formats::bc1::{
    Bc1Quality, bc1_size, decode_bc1, decode_bc1_rounded, encode_bc1_into, psnr_rgb, refine_bc1,
};

/// CPU time of this thread in seconds, steadier than wall time on a shared machine.
struct CpuClock(f64);
impl CpuClock {
    fn now() -> CpuClock {
        // SAFETY: fills a zeroed timespec with this thread's clock
        let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        CpuClock(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
    }
    fn elapsed_s(&self) -> f64 {
        CpuClock::now().0 - self.0
    }
}

/// A small deterministic generator (xorshift64*), so every run sees the same picture.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Smooth colour fields with per-texel noise: the compile bench's texture.
fn noisy(side: usize, noise_amplitude: f32) -> Vec<u8> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut rgba = vec![255u8; side * side * 4];
    for (i, px) in rgba.chunks_exact_mut(4).enumerate() {
        let (x, y) = ((i % side) as f32, (i / side) as f32);
        let r = rng.next();
        let base = [
            120.0 + 60.0 * (x * 0.013).sin() * (y * 0.007).cos(),
            110.0 + 50.0 * (x * 0.005 + y * 0.009).sin(),
            90.0 + 40.0 * (y * 0.011).cos(),
        ];
        for c in 0..3 {
            let noise = ((r >> (c * 16)) & 0xff) as f32 - 128.0;
            px[c] = (base[c] + noise * noise_amplitude).clamp(0.0, 255.0) as u8;
        }
    }
    rgba
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<f32>().ok());
    let side = env("GROUNDWORK_BENCH_SIDE").map_or(1024, |v| v as usize);
    let noise = env("GROUNDWORK_BENCH_NOISE").unwrap_or(0.12);
    let source = noisy(side, noise);
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
