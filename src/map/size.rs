//! Map size in map units (512 elmos), and the resolution of every layer that follows from it.

/// Elmos per heightmap square.
pub const ELMOS_PER_SQUARE: u32 = 8;
/// Elmos per map unit (how map size is quoted: an "8x8 map").
pub const ELMOS_PER_MAP_UNIT: u32 = 512;
/// Squares per map unit.
const SQUARES_PER_MAP_UNIT: u32 = 64;
/// The largest side we accept, in map units. A 64-unit side is a 32768-texel texture.
pub const MAX_MAP_UNITS: u32 = 64;

/// A map's size: each side an even number of map units, so squares are multiples of 128.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MapSize {
    width_units: u32,
    height_units: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapSizeError {
    #[error(
        "map size {0}x{1} is not valid: each side must be an even number of map units (2, 4, 6, ... up to {max}), because the engine needs squares in multiples of 128",
        max = MAX_MAP_UNITS
    )]
    Units(u32, u32),
    #[error(
        "map size {0}x{1} squares is not valid: each side must be a positive multiple of 128 squares, at most {max}",
        max = MAX_MAP_UNITS * SQUARES_PER_MAP_UNIT
    )]
    Squares(u32, u32),
}

impl MapSize {
    /// A size in map units; each side even, 2..=64.
    pub fn new(width_units: u32, height_units: u32) -> Result<MapSize, MapSizeError> {
        let ok = |u: u32| u >= 2 && u.is_multiple_of(2) && u <= MAX_MAP_UNITS;
        if ok(width_units) && ok(height_units) {
            Ok(MapSize {
                width_units,
                height_units,
            })
        } else {
            Err(MapSizeError::Units(width_units, height_units))
        }
    }

    /// A size from the `.smf` header's `mapx` x `mapy` squares.
    pub fn from_squares(mapx: u32, mapy: u32) -> Result<MapSize, MapSizeError> {
        let ok =
            |s: u32| s > 0 && s.is_multiple_of(128) && s <= MAX_MAP_UNITS * SQUARES_PER_MAP_UNIT;
        if ok(mapx) && ok(mapy) {
            Ok(MapSize {
                width_units: mapx / SQUARES_PER_MAP_UNIT,
                height_units: mapy / SQUARES_PER_MAP_UNIT,
            })
        } else {
            Err(MapSizeError::Squares(mapx, mapy))
        }
    }

    pub fn width_units(self) -> u32 {
        self.width_units
    }
    pub fn height_units(self) -> u32 {
        self.height_units
    }
    /// `mapx`: width in heightmap squares.
    pub fn squares_x(self) -> u32 {
        self.width_units * SQUARES_PER_MAP_UNIT
    }
    /// `mapy`: depth in heightmap squares.
    pub fn squares_z(self) -> u32 {
        self.height_units * SQUARES_PER_MAP_UNIT
    }
    pub fn width_elmos(self) -> f32 {
        (self.width_units * ELMOS_PER_MAP_UNIT) as f32
    }
    pub fn depth_elmos(self) -> f32 {
        (self.height_units * ELMOS_PER_MAP_UNIT) as f32
    }
    /// The heightmap's vertex grid, (mapx + 1) x (mapy + 1).
    pub fn height_vertices(self) -> (usize, usize) {
        (self.squares_x() as usize + 1, self.squares_z() as usize + 1)
    }
    /// The metal and type maps, (mapx / 2) x (mapy / 2): one cell per 16 elmos.
    pub fn metal_cells(self) -> (usize, usize) {
        (self.squares_x() as usize / 2, self.squares_z() as usize / 2)
    }
    /// The grass map and tile index, (mapx / 4) x (mapy / 4): one cell per 32 elmos.
    pub fn grass_cells(self) -> (usize, usize) {
        (self.squares_x() as usize / 4, self.squares_z() as usize / 4)
    }
    /// The ground texture, 8 texels per square.
    pub fn texture_texels(self) -> (usize, usize) {
        (self.squares_x() as usize * 8, self.squares_z() as usize * 8)
    }
}

impl std::fmt::Display for MapSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width_units, self.height_units)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_or_zero_sizes_are_rejected() {
        assert!(MapSize::new(8, 8).is_ok());
        assert!(MapSize::new(7, 8).is_err());
        assert!(MapSize::new(0, 8).is_err());
        assert!(MapSize::new(8, 66).is_err());
        assert!(MapSize::from_squares(100, 128).is_err());
        assert_eq!(
            MapSize::from_squares(384, 512).unwrap(),
            MapSize::new(6, 8).unwrap()
        );
    }
}
