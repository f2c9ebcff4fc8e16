//! The ground texture: RGBA8, 8 texels per square (up to 16384 x 16384 for a 32x32 map),
//! held once, never copied needlessly.

use super::{Grid, MapSettings, MapSize};

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
    pub fn into_rgba(self) -> Vec<u8> {
        self.rgba
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

    /// The plain texture a map gets when it has no texture image: a colour per height band
    /// (sand under and at the shore, grass, earth, rock), lit softly by slope, so the relief
    /// reads at a glance.
    pub fn default_for_heights(
        size: MapSize,
        heights: &Grid<f32>,
        settings: &MapSettings,
    ) -> GroundTexture {
        let (w, h) = size.texture_texels();
        let mut tex = GroundTexture {
            width: w,
            height: h,
            rgba: vec![0; w * h * 4],
        };
        let span = (settings.max_height_elmos.max(1.0)).max(1.0);
        tex.rgba.chunks_mut(w * 4).enumerate().for_each(|(y, row)| {
            // one heightmap square is 8 texels
            let vz = y as f32 / 8.0;
            for x in 0..w {
                let vx = x as f32 / 8.0;
                let hgt = heights.sample_bilinear(vx, vz);
                let dx =
                    heights.sample_bilinear(vx + 1.0, vz) - heights.sample_bilinear(vx - 1.0, vz);
                let dz =
                    heights.sample_bilinear(vx, vz + 1.0) - heights.sample_bilinear(vx, vz - 1.0);
                let slope = ((dx * dx + dz * dz).sqrt() / 16.0).min(1.0);
                let c = height_colour(hgt / span, slope);
                row[x * 4..x * 4 + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
            }
        });
        tex
    }
}

/// A terrain colour for a height as a fraction of the map's top, and a slope 0..1.
fn height_colour(t: f32, slope: f32) -> [u8; 3] {
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
    let mix = |a: f32, b: f32| (a + (b - a) * s).clamp(0.0, 255.0) as u8;
    [mix(c[0], rock[0]), mix(c[1], rock[1]), mix(c[2], rock[2])]
}
