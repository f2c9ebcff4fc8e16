//! Bakes the ground texture: a colour image in SC2 coordinates sampled onto every texel (one
//! texel an elmo), lit softly by the terrain so plateaus read, cliff faces darkened, chasm
//! floors nearly black (a pit) or a dark sea bed. The rows are baked on every core, reporting
//! as they go.

use crate::import::{ImportProgress, rows_with_progress};
use crate::map::{ELMOS_PER_SQUARE, Grid, GroundTexture};

use super::frame::Frame;
use super::terrain::{Chasm, Terrain, square_slopes_deg};

/// Squares steeper than this (degrees) are cliff faces and drawn darker.
pub const CLIFF_FACE_DEG: f32 = 50.0;
/// How much a cliff face keeps of its colour.
pub const CLIFF_FACE_SHADE: f32 = 0.5;

/// A colour image and where it lies: pixel = (ax * x + bx, ay * y + by) for SC2 world (x, y).
pub struct ColourImage {
    pub image: Grid<[f32; 3]>,
    pub ax: f32,
    pub bx: f32,
    pub ay: f32,
    pub by: f32,
}

impl ColourImage {
    fn sample(&self, x: f32, y: f32) -> [f32; 3] {
        let (w, h) = self.image.dims();
        let px = (self.ax * x + self.bx - 0.5).clamp(0.0, (w - 1) as f32);
        let py = (self.ay * y + self.by - 0.5).clamp(0.0, (h - 1) as f32);
        let (x0, y0) = (px.floor() as usize, py.floor() as usize);
        let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
        let (fx, fy) = (px - x0 as f32, py - y0 as f32);
        let (a, b, c, d) = (
            self.image.get(x0, y0),
            self.image.get(x1, y0),
            self.image.get(x0, y1),
            self.image.get(x1, y1),
        );
        let mut out = [0.0; 3];
        for k in 0..3 {
            let top = a[k] + (b[k] - a[k]) * fx;
            let bot = c[k] + (d[k] - c[k]) * fx;
            out[k] = top + (bot - top) * fy;
        }
        out
    }
}

/// Bakes the texture. `chasm_colour` is the tileset's darkest colour.
pub fn bake(
    frame: &Frame,
    terrain: &Terrain,
    colours: &ColourImage,
    chasm_colour: [u8; 3],
    chasm_mode: Chasm,
    progress: &mut ImportProgress,
) -> GroundTexture {
    let (tw, th) = frame.size.texture_texels();
    let heights = &terrain.heights_elmos;
    let slopes = square_slopes_deg(heights);
    let (sw, sh) = slopes.dims();
    // light per square: the engine's default sun direction (0, 1, 2), normalised
    let sun = {
        let l = (1.0f32 + 4.0).sqrt();
        [0.0, 1.0 / l, 2.0 / l]
    };
    let sq = ELMOS_PER_SQUARE as f32;
    let mut light = Grid::filled(sw, sh, 1.0f32);
    for z in 0..sh {
        for x in 0..sw {
            let dx = (heights.get(x + 1, z) + heights.get(x + 1, z + 1)
                - heights.get(x, z)
                - heights.get(x, z + 1))
                / (2.0 * sq);
            let dz = (heights.get(x, z + 1) + heights.get(x + 1, z + 1)
                - heights.get(x, z)
                - heights.get(x + 1, z))
                / (2.0 * sq);
            let n = [-dx, 1.0, -dz];
            let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            let lambert = (n[0] * sun[0] + n[1] * sun[1] + n[2] * sun[2]) / l;
            // flat ground: 1.0; lit slopes a little brighter, slopes facing away darker
            let flat = sun[1];
            let mut s = (0.8 + 0.2 * lambert / flat).clamp(0.45, 1.15);
            if slopes.get(x, z) > CLIFF_FACE_DEG {
                s *= CLIFF_FACE_SHADE;
            }
            light.set(x, z, s);
        }
    }
    let chasm_rgb = match chasm_mode {
        Chasm::Pit => chasm_colour.map(|c| c as f32 * 0.35),
        Chasm::Sea => chasm_colour.map(|c| c as f32 * 0.6),
    };
    let mut tex = GroundTexture::filled(tw, th, [0, 0, 0, 255]);
    let rgba = tex.rgba_mut();
    let (vw, vh) = terrain.chasm.dims();
    rows_with_progress(rgba, tw * 4, "texture", progress, |ty, row| {
        let z = ty as f32 + 0.5;
        let sz = ((ty as u32 / ELMOS_PER_SQUARE) as usize).min(sh.saturating_sub(1));
        let vz = ((z / sq).round() as usize).min(vh - 1);
        for tx in 0..tw {
            let x = tx as f32 + 0.5;
            let sx = ((tx as u32 / ELMOS_PER_SQUARE) as usize).min(sw.saturating_sub(1));
            let vx = ((x / sq).round() as usize).min(vw - 1);
            let c = if terrain.chasm.get(vx, vz) {
                chasm_rgb
            } else {
                let (gx, gy) = frame.to_sc2(x, z);
                colours.sample(gx, gy)
            };
            let s = light.get(sx, sz);
            let px = &mut row[tx * 4..tx * 4 + 4];
            for k in 0..3 {
                px[k] = (c[k] * s).round().clamp(0.0, 255.0) as u8;
            }
        }
    });
    tex
}
