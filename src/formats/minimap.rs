//! The minimap: 1024x1024 DXT1 with exactly 9 mips (1024 down to 4), 699,048 bytes, made from
//! the ground texture and stretched to square for non-square maps.

use super::bc1::{Bc1Quality, bc1_size, decode_bc1, downsample_2x, encode_bc1};
use crate::map::GroundTexture;

pub const MINIMAP_TEXELS: usize = 1024;
/// Exactly 9 levels; an off-by-one here has crashed the engine.
const MINIMAP_MIPS: usize = 9;

/// The minimap's bytes for a ground texture.
pub fn encode_minimap(texture: &GroundTexture, quality: Bc1Quality) -> Vec<u8> {
    encode_minimap_pixels(texture.box_filtered_square(MINIMAP_TEXELS), quality)
}

/// The minimap's bytes for its largest level, [`MINIMAP_TEXELS`] a side RGBA (the texture
/// box-filtered to it).
pub fn encode_minimap_pixels(mut level: Vec<u8>, quality: Bc1Quality) -> Vec<u8> {
    assert_eq!(
        level.len(),
        MINIMAP_TEXELS * MINIMAP_TEXELS * 4,
        "the minimap's size"
    );
    let mut out = Vec::with_capacity(super::smf::MINIMAP_BYTES);
    let mut side = MINIMAP_TEXELS;
    for mip in 0..MINIMAP_MIPS {
        out.extend_from_slice(&encode_bc1(&level, side, side, quality));
        if mip + 1 < MINIMAP_MIPS {
            level = downsample_2x(&level, side, side);
            side /= 2;
        }
    }
    debug_assert_eq!(out.len(), super::smf::MINIMAP_BYTES);
    out
}

/// The minimap's largest level as 1024x1024 RGBA.
pub fn decode_minimap(minimap: &[u8]) -> Vec<u8> {
    let n = bc1_size(MINIMAP_TEXELS, MINIMAP_TEXELS).min(minimap.len());
    decode_bc1(&minimap[..n], MINIMAP_TEXELS, MINIMAP_TEXELS)
}

/// A square RGBA image scaled bilinearly to `width` x `height` (the texture of a map whose
/// tiles are missing, made from its minimap).
pub fn upscale_bilinear(rgba: &[u8], side: usize, width: usize, height: usize) -> Vec<u8> {
    let mut out = vec![0u8; width * height * 4];
    let sx = side as f32 / width as f32;
    let sy = side as f32 / height as f32;
    let max = (side - 1) as f32;
    for y in 0..height {
        let fy = ((y as f32 + 0.5) * sy - 0.5).clamp(0.0, max);
        let (y0, ty) = (fy.floor() as usize, fy.fract());
        let y1 = (y0 + 1).min(side - 1);
        for x in 0..width {
            let fx = ((x as f32 + 0.5) * sx - 0.5).clamp(0.0, max);
            let (x0, tx) = (fx.floor() as usize, fx.fract());
            let x1 = (x0 + 1).min(side - 1);
            let p = |xx: usize, yy: usize, c: usize| rgba[(yy * side + xx) * 4 + c] as f32;
            let o = (y * width + x) * 4;
            for c in 0..4 {
                let top = p(x0, y0, c) + (p(x1, y0, c) - p(x0, y0, c)) * tx;
                let bot = p(x0, y1, c) + (p(x1, y1, c) - p(x0, y1, c)) * tx;
                out[o + c] = (top + (bot - top) * ty).round() as u8;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimap_has_nine_mips_and_the_exact_size() {
        let tex = GroundTexture::filled(2048, 1024, [200, 100, 50, 255]);
        let mm = encode_minimap(&tex, Bc1Quality::Fast);
        assert_eq!(mm.len(), 699_048);
        let px = decode_minimap(&mm);
        let p = &px[(512 * 1024 + 512) * 4..][..3];
        assert!(
            p.iter()
                .zip([200u8, 100, 50])
                .all(|(a, b)| a.abs_diff(b) <= 8),
            "{p:?}"
        );
    }

    #[test]
    fn non_square_textures_stretch_to_square() {
        // left half red, right half blue, on a 2:1 texture
        let mut tex = GroundTexture::filled(2048, 1024, [0, 0, 255, 255]);
        for y in 0..1024 {
            for x in 0..1024 {
                tex.rgba_mut()[(y * 2048 + x) * 4..][..4].copy_from_slice(&[255, 0, 0, 255]);
            }
        }
        let sq = tex.box_filtered_square(1024);
        assert_eq!(&sq[(100 * 1024 + 100) * 4..][..3], &[255, 0, 0]);
        assert_eq!(&sq[(100 * 1024 + 900) * 4..][..3], &[0, 0, 255]);
    }
}
