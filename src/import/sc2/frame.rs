//! Where the SC2 map lands in the BAR map: the playable area cropped out, Y flipped (SC2's Y
//! points north, Spring's Z south), scaled by `cell_elmos`, and centred in a map padded up to an
//! even number of map units.

use crate::formats::FormatError;
use crate::map::{ELMOS_PER_MAP_UNIT, ELMOS_PER_SQUARE, MAX_MAP_UNITS, MapSize};

use crate::formats::sc2::map_info::Bounds;

/// The mapping between SC2 world units (cells) and elmos.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub bounds: Bounds,
    pub cell_elmos: f32,
    /// Elmos of padding west of and north of the playable area.
    pub pad_x_elmos: f32,
    pub pad_z_elmos: f32,
    pub size: MapSize,
}

impl Frame {
    /// Fits `bounds` at `cell_elmos` into the smallest valid map, centred (padding rounded to
    /// whole squares).
    pub fn new(bounds: Bounds, cell_elmos: u32) -> Result<Frame, FormatError> {
        let unit = ELMOS_PER_MAP_UNIT;
        let w_elmos = bounds.width() * cell_elmos;
        let h_elmos = bounds.height() * cell_elmos;
        let units = |e: u32| {
            let u = e.div_ceil(unit).max(2);
            u + u % 2
        };
        let (wu, hu) = (units(w_elmos), units(h_elmos));
        if wu > MAX_MAP_UNITS || hu > MAX_MAP_UNITS {
            return Err(FormatError::invalid(
                "SC2Map",
                format!(
                    "the playable area ({} x {} cells at {cell_elmos} elmos a cell) needs a {wu} x {hu} map; at most {MAX_MAP_UNITS} x {MAX_MAP_UNITS} is possible: use a smaller --cell-elmos",
                    bounds.width(),
                    bounds.height()
                ),
            ));
        }
        let size =
            MapSize::new(wu, hu).map_err(|e| FormatError::invalid("SC2Map", e.to_string()))?;
        let pad = |total: u32, used: u32| {
            let squares = (total - used) / 2 / ELMOS_PER_SQUARE;
            (squares * ELMOS_PER_SQUARE) as f32
        };
        Ok(Frame {
            bounds,
            cell_elmos: cell_elmos as f32,
            pad_x_elmos: pad(wu * unit, w_elmos),
            pad_z_elmos: pad(hu * unit, h_elmos),
            size,
        })
    }

    /// SC2 world position of a point given in elmos.
    pub fn to_sc2(&self, x_elmos: f32, z_elmos: f32) -> (f32, f32) {
        (
            self.bounds.left as f32 + (x_elmos - self.pad_x_elmos) / self.cell_elmos,
            self.bounds.top as f32 - (z_elmos - self.pad_z_elmos) / self.cell_elmos,
        )
    }

    /// Elmos of a point given in SC2 world units.
    pub fn to_elmos(&self, x: f32, y: f32) -> (f32, f32) {
        (
            self.pad_x_elmos + (x - self.bounds.left as f32) * self.cell_elmos,
            self.pad_z_elmos + (self.bounds.top as f32 - y) * self.cell_elmos,
        )
    }

    /// Whether a point in elmos lies in the playable area (edges included).
    pub fn in_playable(&self, x_elmos: f32, z_elmos: f32) -> bool {
        let (sx, sy) = self.to_sc2(x_elmos, z_elmos);
        let eps = 1e-4;
        sx >= self.bounds.left as f32 - eps
            && sx <= self.bounds.right as f32 + eps
            && sy >= self.bounds.bottom as f32 - eps
            && sy <= self.bounds.top as f32 + eps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple64_fits_four_units_exactly_and_round_trips() {
        let b = Bounds {
            left: 12,
            bottom: 12,
            right: 76,
            top: 76,
        };
        let f = Frame::new(b, 32).unwrap();
        assert_eq!(f.size, MapSize::new(4, 4).unwrap());
        assert_eq!((f.pad_x_elmos, f.pad_z_elmos), (0.0, 0.0));
        // the north-west corner of the playable area is elmo (0, 0)
        assert_eq!(f.to_elmos(12.0, 76.0), (0.0, 0.0));
        assert_eq!(f.to_sc2(2048.0, 2048.0), (76.0, 12.0));
        let (x, z) = f.to_elmos(59.5, 27.5);
        assert_eq!(f.to_sc2(x, z), (59.5, 27.5));
    }

    #[test]
    fn odd_sizes_are_padded_to_even_units_and_centred() {
        let b = Bounds {
            left: 10,
            bottom: 8,
            right: 118,
            top: 108,
        };
        let f = Frame::new(b, 32).unwrap();
        assert_eq!(f.size, MapSize::new(8, 8).unwrap());
        assert_eq!(f.pad_x_elmos, 320.0);
        assert_eq!(f.pad_z_elmos, 448.0);
        assert!(f.in_playable(320.0, 448.0));
        assert!(!f.in_playable(300.0, 448.0));
        assert!(Frame::new(b, 512).is_err());
    }
}
