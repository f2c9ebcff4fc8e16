//! The benchmarks' shared input: a deterministic noisy ground texture.

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

/// Smooth colour fields with per-texel noise in every channel (amplitude as a fraction of the
/// byte range), so tiles neither repeat nor are pure white noise: `side` x `side` RGB8.
pub fn noisy_rgb(side: usize, noise_amplitude: f32) -> Vec<u8> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut rgb = vec![0u8; side * side * 3];
    for (i, px) in rgb.chunks_exact_mut(3).enumerate() {
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
    rgb
}

/// RGB8 to opaque RGBA8.
pub fn to_rgba(rgb: &[u8]) -> Vec<u8> {
    rgb.chunks_exact(3)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect()
}
