//! The ground texture: RGBA8, 8 texels per square (up to 16384 x 16384 for a 32x32 map),
//! held once, never copied needlessly.

use rayon::prelude::*;

use super::float::floor;
use super::{Grid, MapSettings, MapSize};

/// `len` zero bytes, for a texture-sized buffer: on Linux the kernel is asked to back it with
/// huge pages before any is touched, so filling 256 MiB takes 128 page faults instead of 65536
/// (a third of a nothing-changed recompile's time went to faulting in the texture's pages).
pub fn zeroed_texels(len: usize) -> Vec<u8> {
    const HUGE_PAGE_BYTES: usize = 2 << 20;
    if len < 2 * HUGE_PAGE_BYTES {
        return vec![0u8; len];
    }
    #[cfg(target_os = "linux")]
    {
        let layout = std::alloc::Layout::array::<u8>(len).expect("a texture's size fits a layout");
        // SAFETY: the layout is non-zero in size (checked above)
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        // the whole huge pages inside the buffer
        let start = (ptr as usize).next_multiple_of(HUGE_PAGE_BYTES);
        let end = (ptr as usize + len) / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
        if end > start {
            // SAFETY: [start, end) lies inside the allocation just made; the advice changes
            // how its pages are backed, never their contents (still zero)
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
        // SAFETY: `ptr` came from the global allocator with the layout of `len` bytes of
        // alignment 1, and all `len` bytes are initialised (zeroed)
        unsafe { Vec::from_raw_parts(ptr, len, len) }
    }
    #[cfg(not(target_os = "linux"))]
    vec![0u8; len]
}

/// The ground texture the engine draws, `mapx * 8` by `mapy * 8` RGBA8 texels, row-major.
#[derive(Clone, PartialEq)]
pub struct GroundTexture {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

impl std::fmt::Debug for GroundTexture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GroundTexture({}x{})", self.width, self.height)
    }
}

impl GroundTexture {
    /// A texture over `rgba`; `None` when the length is not `width * height * 4`.
    pub fn from_rgba(width: usize, height: usize, rgba: Vec<u8>) -> Option<GroundTexture> {
        (rgba.len() == width * height * 4).then_some(GroundTexture {
            width,
            height,
            rgba,
        })
    }

    pub fn filled(width: usize, height: usize, rgba: [u8; 4]) -> GroundTexture {
        let mut data = Vec::with_capacity(width * height * 4);
        for _ in 0..width * height {
            data.extend_from_slice(&rgba);
        }
        GroundTexture {
            width,
            height,
            rgba: data,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }
    pub fn rgba_mut(&mut self) -> &mut [u8] {
        &mut self.rgba
    }
    pub fn pixel(&self, x: usize, y: usize) -> [u8; 4] {
        let i = (y * self.width + x) * 4;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }

    /// The texture box-filtered to `side` x `side` RGBA (each output texel the rounded mean of
    /// the texels [`box_range`] gives it on either axis) (the minimap; the grass view's ground
    /// colour). Texture sides are multiples of 1024 (even map
    /// units of 512 texels), so each output texel averages a whole block of source texels.
    pub fn box_filtered_square(&self, side: usize) -> Vec<u8> {
        let (w, h) = (self.width, self.height);
        let mut out = vec![0u8; side * side * 4];
        let src = &self.rgba;
        out.par_chunks_mut(side * 4)
            .enumerate()
            .for_each(|(oy, out_row)| {
                let (y0, y1) = box_range(oy, h, side);
                for ox in 0..side {
                    let (x0, x1) = box_range(ox, w, side);
                    let mut sum = [0u32; 4];
                    for y in y0..y1 {
                        let row = &src[(y * w + x0) * 4..(y * w + x1) * 4];
                        for px in row.chunks_exact(4) {
                            for c in 0..4 {
                                sum[c] += px[c] as u32;
                            }
                        }
                    }
                    let n = ((y1 - y0) * (x1 - x0)) as u32;
                    for c in 0..4 {
                        out_row[ox * 4 + c] = ((sum[c] + n / 2) / n) as u8;
                    }
                }
            });
        out
    }

    /// The plain texture a map gets when it has no texture image: a colour per height band
    /// (sand under and at the shore, grass, earth, rock), lit softly by slope, so the relief
    /// reads at a glance.
    pub fn default_for_heights(
        size: MapSize,
        heights: &Grid<f32>,
        settings: &MapSettings,
    ) -> GroundTexture {
        let (w, h) = size.texture_texels();
        let span = settings.max_height_elmos.max(1.0);
        // a colour per height vertex, from its height and slope
        let (vw, vh) = heights.dims();
        let mut vertex_rgb = vec![[0f32; 3]; vw * vh];
        vertex_rgb
            .par_chunks_mut(vw)
            .enumerate()
            .for_each(|(z, row)| {
                for (x, c) in row.iter_mut().enumerate() {
                    let (xi, zi) = (x as i64, z as i64);
                    let dx = heights.get_clamped(xi + 1, zi) - heights.get_clamped(xi - 1, zi);
                    let dz = heights.get_clamped(xi, zi + 1) - heights.get_clamped(xi, zi - 1);
                    let slope = ((dx * dx + dz * dz).sqrt() / 16.0).min(1.0);
                    *c = height_colour(heights.get(x, z) / span, slope);
                }
            });
        // texels interpolate the colours of the square's corners (8 texels per square): each
        // texel column's corner and fraction worked out once
        let place = |t: usize, n: usize| {
            let f = (t as f32 + 0.5) / 8.0;
            let i = (floor(f) as usize).min(n - 2);
            (i, (f - i as f32).min(1.0))
        };
        let mut rgba = zeroed_texels(w * h * 4);
        if vertex_rgb.iter().all(|c| *c == vertex_rgb[0]) {
            // level ground is one colour: every texel interpolates equal corners to it
            let c = vertex_rgb[0];
            let texel = [c[0] as u8, c[1] as u8, c[2] as u8, 255];
            rgba.par_chunks_mut(4 * 4096).for_each(|run| {
                run.chunks_exact_mut(4)
                    .for_each(|t| t.copy_from_slice(&texel))
            });
            return GroundTexture {
                width: w,
                height: h,
                rgba,
            };
        }
        let columns: Vec<(usize, f32)> = (0..w).map(|x| place(x, vw)).collect();
        rgba.par_chunks_mut(w * 4).enumerate().for_each(|(y, row)| {
            let (z0, tz) = place(y, vh);
            let near = &vertex_rgb[z0 * vw..(z0 + 1) * vw];
            let far = &vertex_rgb[(z0 + 1) * vw..(z0 + 2) * vw];
            for (texel, &(x0, tx)) in row.chunks_exact_mut(4).zip(&columns) {
                let (a, b, cc, d) = (near[x0], near[x0 + 1], far[x0], far[x0 + 1]);
                for ch in 0..3 {
                    let top = a[ch] + (b[ch] - a[ch]) * tx;
                    let bottom = cc[ch] + (d[ch] - cc[ch]) * tx;
                    texel[ch] = (top + (bottom - top) * tz) as u8;
                }
                texel[3] = 255;
            }
        });

        GroundTexture {
            width: w,
            height: h,
            rgba,
        }
    }
}

/// A terrain colour for a height as a fraction of the map's top, and a slope 0..1.
fn height_colour(t: f32, slope: f32) -> [f32; 3] {
    const BANDS: [(f32, [f32; 3]); 5] = [
        (-0.2, [120.0, 110.0, 80.0]),
        (0.02, [194.0, 178.0, 128.0]),
        (0.1, [96.0, 128.0, 64.0]),
        (0.5, [120.0, 104.0, 72.0]),
        (0.9, [150.0, 146.0, 140.0]),
    ];
    let mut c = BANDS[0].1;
    for pair in BANDS.windows(2) {
        let ((t0, c0), (t1, c1)) = (pair[0], pair[1]);
        if t >= t0 {
            let f = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
            c = [
                c0[0] + (c1[0] - c0[0]) * f,
                c0[1] + (c1[1] - c0[1]) * f,
                c0[2] + (c1[2] - c0[2]) * f,
            ];
        }
    }
    // steep ground turns to grey rock
    let rock = [110.0, 105.0, 100.0];
    let s = (slope * 1.5).min(1.0);
    let mix = |a: f32, b: f32| (a + (b - a) * s).clamp(0.0, 255.0);
    [mix(c[0], rock[0]), mix(c[1], rock[1]), mix(c[2], rock[2])]
}

/// The source texels `start..end` (of `n` along an axis) that output texel `o` of `side`
/// averages in [`GroundTexture::box_filtered_square`]: at least one.
pub fn box_range(o: usize, n: usize, side: usize) -> (usize, usize) {
    let start = o * n / side;
    (start, ((o + 1) * n / side).max(start + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Level ground takes the one-colour path; the same ground with one raised vertex takes
    /// the interpolating one, and away from the bump both give the same texels.
    #[test]
    fn level_ground_paints_the_colour_the_interpolation_gives() {
        let size = MapSize::new(2, 2).unwrap();
        let settings = MapSettings::default();
        let (vw, vh) = (
            size.width_units() as usize * 64 + 1,
            size.height_units() as usize * 64 + 1,
        );
        let level = Grid::filled(vw, vh, 100.0f32);
        let mut bumped = level.clone();
        bumped.set(10, 10, 300.0);
        let a = GroundTexture::default_for_heights(size, &level, &settings);
        let b = GroundTexture::default_for_heights(size, &bumped, &settings);
        let texel = |t: &GroundTexture, x: usize, y: usize| {
            let i = (y * t.width + x) * 4;
            t.rgba[i..i + 4].to_vec()
        };
        assert_ne!(texel(&a, 80, 80), texel(&b, 80, 80), "the bump shows");
        for (x, y) in [(500, 500), (1000, 20), (0, 1023), (1023, 1023)] {
            assert_eq!(texel(&a, x, y), texel(&b, x, y), "texel {x},{y}");
        }
        assert!(a.rgba.chunks(4).all(|t| t == &a.rgba[..4]));
    }
}
