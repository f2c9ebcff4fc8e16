//! Where the Warzone 2100 map lands on the Spring map: the scale (elmos per tile), the padded
//! size in map units, and the offset that centres the original area in the padded one.

use crate::formats::FormatError;
use crate::map::{ELMOS_PER_MAP_UNIT, ELMOS_PER_SQUARE, MapSize};

use crate::formats::wz2100::map_file::WORLD_UNITS_PER_TILE;

/// The smallest and largest scale we accept.
const MIN_TILE_ELMOS: u32 = 16;
const MAX_TILE_ELMOS: u32 = 256;

/// The placement of a `width_tiles` x `height_tiles` Warzone map on a Spring map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub tile_elmos: u32,
    pub width_tiles: u32,
    pub height_tiles: u32,
    pub size: MapSize,
    /// Elmos from the Spring map's west edge to the Warzone map's west edge (a multiple of 8).
    pub offset_x_elmos: i64,
    /// Elmos from the north edge.
    pub offset_z_elmos: i64,
}

impl Layout {
    /// The smallest valid Spring map (each side an even number of 512-elmo units) that holds
    /// the Warzone map at `tile_elmos` per tile, with the Warzone map centred in it.
    pub fn new(
        width_tiles: u32,
        height_tiles: u32,
        tile_elmos: u32,
    ) -> Result<Layout, FormatError> {
        if !(MIN_TILE_ELMOS..=MAX_TILE_ELMOS).contains(&tile_elmos) {
            return Err(FormatError::invalid(
                "tile size",
                format!(
                    "{tile_elmos} elmos per tile is out of range ({MIN_TILE_ELMOS}..={MAX_TILE_ELMOS})"
                ),
            ));
        }
        let units = |tiles: u32| {
            let elmos = tiles as u64 * tile_elmos as u64;
            let u = elmos.div_ceil(ELMOS_PER_MAP_UNIT as u64);
            (u.max(2)).div_ceil(2) * 2
        };
        let (uw, uh) = (units(width_tiles), units(height_tiles));
        let size = MapSize::new(uw as u32, uh as u32).map_err(|e| {
            FormatError::invalid(
                "map size",
                format!(
                    "{width_tiles}x{height_tiles} tiles at {tile_elmos} elmos per tile need {uw}x{uh} map units: {e}; choose a smaller --tile-elmos"
                ),
            )
        })?;
        let pad = |units: u64, tiles: u32| {
            let spare = units as i64 * ELMOS_PER_MAP_UNIT as i64 - (tiles * tile_elmos) as i64;
            (spare / 2) / ELMOS_PER_SQUARE as i64 * ELMOS_PER_SQUARE as i64
        };
        Ok(Layout {
            tile_elmos,
            width_tiles,
            height_tiles,
            size,
            offset_x_elmos: pad(uw, width_tiles),
            offset_z_elmos: pad(uh, height_tiles),
        })
    }

    /// Elmos per Warzone world unit (128 world units per tile).
    pub fn elmos_per_world_unit(&self) -> f64 {
        self.tile_elmos as f64 / WORLD_UNITS_PER_TILE as f64
    }

    /// A Warzone world position (x east, y south) in elmos (x east, z south).
    pub fn world_to_elmos(&self, x: f64, y: f64) -> (f32, f32) {
        let s = self.elmos_per_world_unit();
        (
            (self.offset_x_elmos as f64 + x * s) as f32,
            (self.offset_z_elmos as f64 + y * s) as f32,
        )
    }

    /// The Warzone tile under elmo (x, z), clamped into the map (padding repeats the edge).
    pub fn tile_at(&self, x_elmos: i64, z_elmos: i64) -> (u32, u32) {
        let te = self.tile_elmos as i64;
        let tx = (x_elmos - self.offset_x_elmos).div_euclid(te);
        let tz = (z_elmos - self.offset_z_elmos).div_euclid(te);
        (
            tx.clamp(0, self.width_tiles as i64 - 1) as u32,
            tz.clamp(0, self.height_tiles as i64 - 1) as u32,
        )
    }

    /// The tiles whose closed square holds elmo (x, z): 1, 2 or 4 of them (clamped, so padding
    /// points see the edge tiles).
    pub fn tiles_touching(&self, x_elmos: i64, z_elmos: i64) -> ([(u32, u32); 4], usize) {
        let te = self.tile_elmos as i64;
        let axis = |p: i64, off: i64, n: u32| -> ([i64; 2], usize) {
            let q = p - off;
            let t = q.div_euclid(te);
            let clamp = |t: i64| t.clamp(0, n as i64 - 1);
            if q.rem_euclid(te) == 0 && clamp(t - 1) != clamp(t) {
                ([clamp(t - 1), clamp(t)], 2)
            } else {
                ([clamp(t), 0], 1)
            }
        };
        let (xs, nx) = axis(x_elmos, self.offset_x_elmos, self.width_tiles);
        let (zs, nz) = axis(z_elmos, self.offset_z_elmos, self.height_tiles);
        let mut out = [(0, 0); 4];
        let mut n = 0;
        for &z in &zs[..nz] {
            for &x in &xs[..nx] {
                out[n] = (x as u32, z as u32);
                n += 1;
            }
        }
        (out, n)
    }

    /// Whether elmo (x, z) lies inside the Warzone map (not in the padding).
    pub fn inside(&self, x_elmos: i64, z_elmos: i64) -> bool {
        let te = self.tile_elmos as i64;
        let (qx, qz) = (x_elmos - self.offset_x_elmos, z_elmos - self.offset_z_elmos);
        qx >= 0
            && qz >= 0
            && qx <= self.width_tiles as i64 * te
            && qz <= self.height_tiles as i64 * te
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads_to_even_units_and_centres() {
        let l = Layout::new(92, 92, 64).unwrap();
        assert_eq!(l.size, MapSize::new(12, 12).unwrap());
        assert_eq!(l.offset_x_elmos, (6144 - 92 * 64) / 2);
        let l = Layout::new(64, 128, 64).unwrap();
        assert_eq!(l.size, MapSize::new(8, 16).unwrap());
        assert_eq!((l.offset_x_elmos, l.offset_z_elmos), (0, 0));
        let l = Layout::new(250, 250, 64).unwrap();
        assert_eq!(l.size, MapSize::new(32, 32).unwrap());
        assert!(Layout::new(256, 256, 256).is_err());
        assert!(Layout::new(10, 10, 8).is_err());
    }

    #[test]
    fn tiles_touching_boundaries() {
        let l = Layout::new(8, 8, 64).unwrap(); // 512 elmos in a 1024 map: offset 256
        assert_eq!(l.offset_x_elmos, 256);
        let (t, n) = l.tiles_touching(256 + 32, 256 + 32);
        assert_eq!(&t[..n], &[(0, 0)]);
        let (t, n) = l.tiles_touching(256 + 64, 256 + 64);
        assert_eq!(&t[..n], &[(0, 0), (1, 0), (0, 1), (1, 1)]);
        let (t, n) = l.tiles_touching(0, 256 + 10);
        assert_eq!(&t[..n], &[(0, 0)]);
        assert_eq!(l.tile_at(5000, -5), (7, 0));
        assert!(l.inside(256, 768) && !l.inside(255, 300));
    }
}
