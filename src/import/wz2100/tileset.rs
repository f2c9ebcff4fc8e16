//! The ground texture: each tile's own art from `base.wz` (`texpages/tertilesc{1,2,3}hw-128`),
//! flipped and rotated the way the game does it, resampled to one texel per elmo (8 per square).
//! Without the art, a plain texture coloured by terrain type and shaded by slope.

use std::collections::{BTreeMap, BTreeSet};

use super::layout::Layout;
use crate::formats::FormatError;
use crate::formats::wz2100::level::Tileset;
use crate::formats::wz2100::map_file::{GameMap, MapTile};
use crate::formats::wz2100::source::Source;
use crate::import::{ImportProgress, rows_with_progress};
use crate::map::{Grid, GroundTexture};
use image::imageops::FilterType;

/// The largest tile art we decode (the real art is 128 x 128).
const MAX_ART_PIXELS: u32 = 1024;

/// Tile art scaled to `tile_elmos` x `tile_elmos` texels, RGBA8, by tile number.
pub struct TileArt {
    pub texels: usize,
    pub tiles: BTreeMap<u16, Vec<u8>>,
    /// Tiles whose art is partly transparent: decals (tracks, craters, road edges) the game
    /// draws over the ground. We draw them over a neighbouring solid tile.
    pub decals: BTreeSet<u16>,
    /// The mean colour of each decal's opaque pixels.
    pub decal_mean: BTreeMap<u16, [u8; 3]>,
    pub tileset: Tileset,
}

/// Loads the art of every tile number in `wanted`; returns it and the numbers with no art.
pub fn load_tile_art(
    base: &mut Source,
    tileset: Tileset,
    wanted: &BTreeSet<u16>,
    tile_elmos: u32,
    progress: &mut ImportProgress,
) -> Result<(TileArt, Vec<u16>), FormatError> {
    let mut tiles = BTreeMap::new();
    let mut decals = BTreeSet::new();
    let mut decal_mean = BTreeMap::new();
    let mut missing = Vec::new();
    let total = wanted.len() as u64;
    for (done, &n) in wanted.iter().enumerate() {
        progress("tile art", done as u64, total);
        let path = format!("{}/tile-{n:02}.png", tileset.texpage_dir());
        let Some(bytes) = base.read(&path)? else {
            missing.push(n);
            continue;
        };
        let img = decode(&bytes)
            .map_err(|e| FormatError::invalid(format!("{}: {path}", base.label()), e))?;
        let scaled = if img.width() == tile_elmos && img.height() == tile_elmos {
            img
        } else {
            image::imageops::resize(&img, tile_elmos, tile_elmos, FilterType::Triangle)
        };
        let raw = scaled.into_raw();
        if raw.chunks_exact(4).any(|p| p[3] < 250) {
            decals.insert(n);
            let (mut sum, mut count) = ([0u64; 3], 0u64);
            for p in raw.chunks_exact(4).filter(|p| p[3] >= 250) {
                for ch in 0..3 {
                    sum[ch] += p[ch] as u64;
                }
                count += 1;
            }
            if count > 0 {
                decal_mean.insert(n, sum.map(|v| (v / count) as u8));
            }
        }
        tiles.insert(n, raw);
    }
    progress("tile art", total, total);
    Ok((
        TileArt {
            texels: tile_elmos as usize,
            tiles,
            decals,
            decal_mean,
            tileset,
        },
        missing,
    ))
}

fn decode(bytes: &[u8]) -> Result<image::RgbaImage, String> {
    let reader =
        image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Png);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_ART_PIXELS);
    limits.max_image_height = Some(MAX_ART_PIXELS);
    limits.max_alloc = Some(64 * 1024 * 1024);
    let mut reader = reader;
    reader.limits(limits);
    reader
        .decode()
        .map(|i| i.to_rgba8())
        .map_err(|e| format!("tile art is not a readable PNG: {e}"))
}

/// Where texel (i, j) of a ground tile takes its colour from in the tile's art: the game flips
/// in x, then in y, then turns clockwise by quarter turns.
fn art_texel(tile: MapTile, i: usize, j: usize, n: usize) -> (usize, usize) {
    // the art corners seen at the ground's top-left, top-right, bottom-right, bottom-left
    let mut c = [(0i64, 0i64), (1, 0), (1, 1), (0, 1)];
    if tile.x_flip() {
        c.swap(0, 1);
        c.swap(2, 3);
    }
    if tile.y_flip() {
        c.swap(0, 3);
        c.swap(1, 2);
    }
    c.rotate_right(tile.rotation() as usize);
    let m = n as i64 - 1;
    let (i, j) = (i as i64, j as i64);
    let sx = c[0].0 * m + (c[1].0 - c[0].0) * i + (c[3].0 - c[0].0) * j;
    let sy = c[0].1 * m + (c[1].1 - c[0].1) * i + (c[3].1 - c[0].1) * j;
    (sx.clamp(0, m) as usize, sy.clamp(0, m) as usize)
}

/// A plain colour for each Warzone terrain type.
pub fn type_colour(t: u8) -> [u8; 3] {
    match t {
        0 => [196, 178, 128],
        1 => [168, 156, 102],
        2 => [158, 112, 74],
        3 => [92, 104, 62],
        4 => [150, 84, 62],
        5 => [186, 150, 146],
        6 => [104, 102, 100],
        7 => [48, 78, 112],
        8 => [112, 102, 92],
        9 => [132, 122, 110],
        10 => [212, 226, 236],
        11 => [180, 190, 196],
        _ => [128, 128, 128],
    }
}

/// Builds the ground texture. `art` may be `None` (no `base.wz`): then every tile gets its
/// terrain type's colour, shaded by the final heights.
pub fn build_texture(
    layout: &Layout,
    map: &GameMap,
    tile_types: &[u8],
    art: Option<&TileArt>,
    heights: &Grid<f32>,
    progress: &mut ImportProgress,
) -> GroundTexture {
    let (tw, th) = layout.size.texture_texels();
    let te = layout.tile_elmos as i64;
    let w = map.width as usize;
    let under = art
        .map(|a| under_tiles(map, a, tile_types))
        .unwrap_or_default();
    let mut rgba = vec![0u8; tw * th * 4];
    rows_with_progress(&mut rgba, tw * 4, "texture", progress, |y, row| {
        let pz = y as i64 - layout.offset_z_elmos;
        let ty = pz.div_euclid(te).clamp(0, map.height as i64 - 1) as u32;
        let j = pz.rem_euclid(te) as usize;
        let mut x = 0usize;
        while x < tw {
            let px = x as i64 - layout.offset_x_elmos;
            let tx = px.div_euclid(te).clamp(0, map.width as i64 - 1) as u32;
            let i0 = px.rem_euclid(te) as usize;
            let span = (te as usize - i0).min(tw - x);
            let tile = map.tile(tx, ty);
            let pixels = art.and_then(|a| a.tiles.get(&tile.tile_number()));
            match pixels {
                Some(p) => {
                    let n = te as usize;
                    let below = under
                        .get(ty as usize * w + tx as usize)
                        .copied()
                        .unwrap_or(Under::Plain);
                    for k in 0..span {
                        let (sx, sy) = art_texel(tile, i0 + k, j, n);
                        let s = (sy * n + sx) * 4;
                        let d = (x + k) * 4;
                        let a = p[s + 3] as u32;
                        if a >= 250 {
                            row[d..d + 3].copy_from_slice(&p[s..s + 3]);
                        } else {
                            let g = ground_texel(
                                (below, tile.tile_number()),
                                art,
                                map,
                                tile_types,
                                w,
                                (i0 + k, j, n),
                                (tx, ty),
                            );
                            for ch in 0..3 {
                                row[d + ch] =
                                    ((p[s + ch] as u32 * a + g[ch] as u32 * (255 - a)) / 255) as u8;
                            }
                        }
                        row[d + 3] = 255;
                    }
                }
                None => {
                    let t = tile_types[ty as usize * w + tx as usize];
                    let c = type_colour(t);
                    for k in 0..span {
                        let d = (x + k) * 4;
                        let shade = if art.is_none() {
                            hill_shade(heights, (x + k) as f32 / 8.0, y as f32 / 8.0)
                        } else {
                            1.0
                        };
                        for ch in 0..3 {
                            row[d + ch] = (c[ch] as f32 * shade).clamp(0.0, 255.0) as u8;
                        }
                        row[d + 3] = 255;
                    }
                }
            }
            x += span;
        }
    });
    GroundTexture::from_rgba(tw, th, rgba).unwrap_or_else(|| GroundTexture::filled(tw, th, [0; 4]))
}

/// What a decal tile is drawn over.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Under {
    /// The art of this solid tile, at the same texel.
    Tile(u32, u32),
    /// The mean of the decal's own opaque pixels (the rock of a cliff face).
    OwnMean,
    /// The terrain type's plain colour.
    Plain,
}

/// For every decal tile, what to draw it over: the nearest solid tile of the same terrain type
/// within three tiles; for cliffs with none, the mean of the cliff art's own rock; else the
/// nearest solid tile of any type.
fn under_tiles(map: &GameMap, art: &TileArt, tile_types: &[u8]) -> Vec<Under> {
    let (w, h) = (map.width as i64, map.height as i64);
    let ty = |x: i64, y: i64| tile_types[(y * w + x) as usize];
    let solid = |x: i64, y: i64| {
        x >= 0 && y >= 0 && x < w && y < h && {
            let n = map.tile(x as u32, y as u32).tile_number();
            art.tiles.contains_key(&n) && !art.decals.contains(&n)
        }
    };
    let find = |x: i64, y: i64, same: bool| {
        for r in 1..=3i64 {
            for (dx, dy) in ring(r) {
                let (nx, ny) = (x + dx, y + dy);
                if solid(nx, ny) && (!same || ty(nx, ny) == ty(x, y)) {
                    return Some(Under::Tile(nx as u32, ny as u32));
                }
            }
        }
        None
    };
    let mut out = vec![Under::Plain; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let n = map.tile(x as u32, y as u32).tile_number();
            if !art.decals.contains(&n) {
                continue;
            }
            out[(y * w + x) as usize] = find(x, y, true)
                .or_else(|| {
                    (ty(x, y) == crate::formats::wz2100::ttypes::TER_CLIFFFACE)
                        .then_some(Under::OwnMean)
                })
                .or_else(|| find(x, y, false))
                .unwrap_or(Under::Plain);
        }
    }
    out
}

/// The cells at Chebyshev distance `r`, the four straight neighbours first.
fn ring(r: i64) -> Vec<(i64, i64)> {
    let mut v = vec![(-r, 0), (r, 0), (0, -r), (0, r)];
    for dy in -r..=r {
        for dx in -r..=r {
            if dx.abs().max(dy.abs()) == r && !(dx == 0 || dy == 0) {
                v.push((dx, dy));
            }
        }
    }
    v
}

/// The ground under a decal texel: the solid neighbour's art at the same spot, else the
/// terrain type's colour.
fn ground_texel(
    (below, own_tile): (Under, u16),
    art: Option<&TileArt>,
    map: &GameMap,
    tile_types: &[u8],
    w: usize,
    (i, j, n): (usize, usize, usize),
    own: (u32, u32),
) -> [u8; 3] {
    if let (Under::OwnMean, Some(m)) = (below, art.and_then(|a| a.decal_mean.get(&own_tile))) {
        return *m;
    }
    if let (Under::Tile(bx, by), Some(a)) = (below, art) {
        let t = map.tile(bx, by);
        if let Some(p) = a.tiles.get(&t.tile_number()) {
            let (sx, sy) = art_texel(t, i, j, n);
            let s = (sy * n + sx) * 4;
            return [p[s], p[s + 1], p[s + 2]];
        }
    }
    type_colour(tile_types[own.1 as usize * w + own.0 as usize])
}

/// Soft light from the north-west on the height field at vertex coordinates (vx, vz).
fn hill_shade(h: &Grid<f32>, vx: f32, vz: f32) -> f32 {
    let dx = h.sample_bilinear(vx + 1.0, vz) - h.sample_bilinear(vx - 1.0, vz);
    let dz = h.sample_bilinear(vx, vz + 1.0) - h.sample_bilinear(vx, vz - 1.0);
    // normal of the surface, 16 elmos across two squares
    let n = [-dx / 16.0, 1.0, -dz / 16.0];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    let l = [-0.5f32, 0.75, -0.43];
    let ll = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
    let d = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]) / (len * ll);
    0.55 + 0.5 * d.max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(texture: u16) -> MapTile {
        MapTile { texture, height: 0 }
    }

    #[test]
    fn flips_and_rotations_move_corners_like_the_game() {
        let n = 4;
        // no change: ground top-left shows art top-left
        assert_eq!(art_texel(tile(0), 0, 0, n), (0, 0));
        assert_eq!(art_texel(tile(0), 3, 1, n), (3, 1));
        // x-flip: ground top-left shows art top-right
        assert_eq!(art_texel(tile(0x8000), 0, 0, n), (3, 0));
        // y-flip: ground top-left shows art bottom-left
        assert_eq!(art_texel(tile(0x4000), 0, 0, n), (0, 3));
        // one clockwise quarter turn: the art's bottom-left corner comes to the top-left,
        // and the art's left edge runs along the ground's top edge
        assert_eq!(art_texel(tile(0x1000), 0, 0, n), (0, 3));
        assert_eq!(art_texel(tile(0x1000), 3, 0, n), (0, 0));
        // half turn
        assert_eq!(art_texel(tile(0x2000), 0, 0, n), (3, 3));
        // three quarter turns: top-right of the art at the ground's top-left
        assert_eq!(art_texel(tile(0x3000), 0, 0, n), (3, 0));
        // x-flip then a quarter turn: flip puts TR at TL, BL... the rotation then brings the
        // flipped bottom-left (art bottom-right) to the top-left
        assert_eq!(art_texel(tile(0x9000), 0, 0, n), (3, 3));
    }

    #[test]
    fn every_orientation_is_a_permutation() {
        let n = 5;
        for bits in 0..16u16 {
            let t = tile((bits & 3) << 12 | (bits >> 2) << 14);
            let mut seen = std::collections::HashSet::new();
            for j in 0..n {
                for i in 0..n {
                    assert!(seen.insert(art_texel(t, i, j, n)));
                }
            }
        }
    }
}
