//! The engine's per-square ground maps (`CReadMap`): the highest of each square's four corners
//! (`maxHeightMap`, mapx x mapy) and the slope map (`UpdateSlopemap`, one value per 2 x 2
//! squares, from the y of those squares' 8 face normals: `1 - mix(min, avg, min / avg)`).

use crate::map::{Grid, Map};

/// One square's side in elmos.
const ELMOS_PER_SQUARE: f32 = 8.0;

/// Which height of a square the pathing reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeightRule {
    /// The highest of its four corners (`maxHeightMap`): Recoil, the engine BAR runs.
    HighestCorner,
    /// The mean height of its half-resolution cell (the first height mip: the mean of the
    /// 2 x 2 squares' mean corners), the cell its slope comes from: Spring 106 (Debian's
    /// `spring`), as its `TestMoveOrder` answers show.
    CellMean,
}

/// The maps the engine's pathing reads, for a map of `mapx` x `mapy` squares.
#[derive(Clone, Debug, PartialEq)]
pub struct GroundMaps {
    pub mapx: usize,
    pub mapy: usize,
    /// Which of the two heights [`GroundMaps::square_height`] answers with.
    pub height_rule: HeightRule,
    /// The highest corner of each square, in elmos, row-major (mapx x mapy).
    pub max_height: Vec<f32>,
    /// The mean of each square's corners (the engine's f32 sum times 0.25).
    pub centre_height: Vec<f32>,
    /// The mean of each half-resolution cell's four `centre_height`s, (mapx / 2) x (mapy / 2).
    pub cell_height: Vec<f32>,
    /// 0 (flat) .. 1 (vertical) per half-resolution cell, (mapx / 2) x (mapy / 2).
    pub slope: Vec<f32>,
}

/// The y of the two face normals of the square whose top-left corner is (x, z), as the
/// engine's `UpdateFaceNormals` computes them (normalised in f32).
fn face_normal_ys(h: &Grid<f32>, x: usize, z: usize) -> (f32, f32) {
    let (tl, tr) = (h.get(x, z), h.get(x + 1, z));
    let (bl, br) = (h.get(x, z + 1), h.get(x + 1, z + 1));
    let y_of = |nx: f32, nz: f32| {
        let sq = nx * nx + ELMOS_PER_SQUARE * ELMOS_PER_SQUARE + nz * nz;
        ELMOS_PER_SQUARE * (1.0 / sq.sqrt())
    };
    (y_of(-(tr - tl), -(bl - tl)), y_of(bl - br, tr - br))
}

/// The slope of the half-resolution cell (hx, hz): `1 - mix(min, avg, min / avg)` over the
/// face normals' y of its four squares.
pub fn cell_slope(h: &Grid<f32>, hx: usize, hz: usize) -> f32 {
    let mut ys = [0.0f32; 8];
    for (k, (dx, dz)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
        let (a, b) = face_normal_ys(h, hx * 2 + dx, hz * 2 + dz);
        ys[k * 2] = a;
        ys[k * 2 + 1] = b;
    }
    // the engine's order: the top row's two squares, then the bottom row's
    let order = [ys[0], ys[1], ys[2], ys[3], ys[4], ys[5], ys[6], ys[7]];
    let mut avg = 0.0f32;
    for y in order {
        avg += y;
    }
    avg *= 0.125;
    let mn = order.iter().copied().fold(order[0], f32::min);
    let lerp = mn / avg;
    1.0 - (mn + (avg - mn) * lerp)
}

/// The highest of square (x, z)'s four corners (`maxHeightMap`).
pub fn highest_corner(h: &Grid<f32>, x: usize, z: usize) -> f32 {
    let (tl, tr) = (h.get(x, z), h.get(x + 1, z));
    let (bl, br) = (h.get(x, z + 1), h.get(x + 1, z + 1));
    tl.max(tr).max(bl.max(br))
}

/// The mean of square (x, z)'s four corners, summed in the engine's order.
pub fn mean_corner(h: &Grid<f32>, x: usize, z: usize) -> f32 {
    let (tl, tr) = (h.get(x, z), h.get(x + 1, z));
    let (bl, br) = (h.get(x, z + 1), h.get(x + 1, z + 1));
    (tl + tr + bl + br) * 0.25
}

/// The mean height of the half-resolution cell (hx, hz): its four squares' [`mean_corner`]s
/// in the engine's mip order, (x, z), (x, z + 1), (x + 1, z), (x + 1, z + 1).
pub fn cell_mean(h: &Grid<f32>, hx: usize, hz: usize) -> f32 {
    let (x, z) = (hx * 2, hz * 2);
    let c = |x, z| mean_corner(h, x, z);
    (c(x, z) + c(x, z + 1) + c(x + 1, z) + c(x + 1, z + 1)) * 0.25
}

/// The height the pathing reads for square (x, z) under `rule`, straight from the corners.
pub fn square_height_of(h: &Grid<f32>, rule: HeightRule, x: usize, z: usize) -> f32 {
    match rule {
        HeightRule::HighestCorner => highest_corner(h, x, z),
        HeightRule::CellMean => cell_mean(h, x / 2, z / 2),
    }
}

impl HeightRule {
    /// The rule by the engine's name: `recoil` (BAR's engine) or `spring106`.
    pub fn parse(s: &str) -> Result<HeightRule, String> {
        match s.to_ascii_lowercase().as_str() {
            "recoil" | "bar" => Ok(HeightRule::HighestCorner),
            "spring106" | "spring-106" | "106" => Ok(HeightRule::CellMean),
            _ => Err(format!("engine `{s}`: expected recoil or spring106")),
        }
    }

    /// The engine that reads heights this way, for people.
    pub fn engine_label(self) -> &'static str {
        match self {
            HeightRule::HighestCorner => "Recoil (BAR)",
            HeightRule::CellMean => "Spring 106",
        }
    }
}

impl GroundMaps {
    /// The maps for corner heights `heights` ((mapx + 1) x (mapy + 1), elmos).
    pub fn from_heights(heights: &Grid<f32>) -> GroundMaps {
        let (w, h) = heights.dims();
        let (mapx, mapy) = (w - 1, h - 1);
        let mut g = GroundMaps {
            mapx,
            mapy,
            height_rule: HeightRule::HighestCorner,
            max_height: vec![0.0; mapx * mapy],
            centre_height: vec![0.0; mapx * mapy],
            cell_height: vec![0.0; (mapx / 2) * (mapy / 2)],
            slope: vec![0.0; (mapx / 2) * (mapy / 2)],
        };
        g.update_rect(heights, 0, 0, mapx, mapy);
        g
    }

    /// The maps of `map` as the engine loads it: the heights decoded from their 16-bit words
    /// (`min + word * ((max - min) / 65536)` in f32), so a slope at a class's limit falls on
    /// the same side as in the game.
    pub fn engine(map: &Map) -> GroundMaps {
        GroundMaps::from_heights(&engine_heights(map))
    }

    /// Recomputes the squares in `x0..x1` x `z0..z1` (clamped to the map, widened to whole
    /// slope cells) from `heights`.
    pub fn update_rect(&mut self, heights: &Grid<f32>, x0: usize, z0: usize, x1: usize, z1: usize) {
        let (x0, z0) = ((x0.min(self.mapx)) & !1, (z0.min(self.mapy)) & !1);
        let (x1, z1) = ((x1.min(self.mapx) + 1) & !1, (z1.min(self.mapy) + 1) & !1);
        for z in z0..z1.min(self.mapy) {
            for x in x0..x1.min(self.mapx) {
                self.max_height[z * self.mapx + x] = highest_corner(heights, x, z);
                self.centre_height[z * self.mapx + x] = mean_corner(heights, x, z);
            }
        }
        let hx = self.mapx / 2;
        for hz in z0 / 2..(z1 / 2).min(self.mapy / 2) {
            for cx in x0 / 2..(x1 / 2).min(hx) {
                self.slope[hz * hx + cx] = cell_slope(heights, cx, hz);
                self.cell_height[hz * hx + cx] = cell_mean(heights, cx, hz);
            }
        }
    }

    /// The slope the engine reads for square (x, z): its half-resolution cell's.
    pub fn square_slope(&self, x: usize, z: usize) -> f32 {
        self.slope[(z / 2) * (self.mapx / 2) + x / 2]
    }

    /// The height the pathing reads for square (x, z), by [`GroundMaps::height_rule`].
    pub fn square_height(&self, x: usize, z: usize) -> f32 {
        match self.height_rule {
            HeightRule::HighestCorner => self.max_height[z * self.mapx + x],
            HeightRule::CellMean => self.cell_height[(z / 2) * (self.mapx / 2) + x / 2],
        }
    }
}

/// `map`'s heights as the engine decodes the words the compiler writes.
pub fn engine_heights(map: &Map) -> Grid<f32> {
    let (lo, hi) = (map.settings.min_height_elmos, map.settings.max_height_elmos);
    let step = (hi - lo) / 65536.0;
    let (w, h) = map.heights.dims();
    let data = map
        .height_words()
        .into_iter()
        .map(|word| lo + word as f32 * step)
        .collect();
    Grid::from_vec(w, h, data).expect("the words are the heights' own size")
}

/// A slope value (1 - normal.y) as degrees from level.
pub fn slope_to_deg(slope: f32) -> f32 {
    (1.0 - slope).clamp(-1.0, 1.0).acos().to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(mapx: usize, mapy: usize, rise_per_elmo: f32) -> Grid<f32> {
        let mut g = Grid::filled(mapx + 1, mapy + 1, 0.0);
        for z in 0..=mapy {
            for x in 0..=mapx {
                g.set(x, z, x as f32 * 8.0 * rise_per_elmo);
            }
        }
        g
    }

    #[test]
    fn a_plane_has_the_slope_of_its_angle_everywhere() {
        let rise = 30f32.to_radians().tan();
        let g = GroundMaps::from_heights(&ramp(16, 8, rise));
        assert_eq!(g.slope.len(), 8 * 4);
        for s in &g.slope {
            assert!(
                (slope_to_deg(*s) - 30.0).abs() < 0.01,
                "{}",
                slope_to_deg(*s)
            );
        }
        // the highest corner of a square on an x ramp is its right edge
        assert!((g.square_height(3, 2) - 4.0 * 8.0 * rise).abs() < 1e-3);
    }

    #[test]
    fn one_steep_square_raises_its_cells_slope_less_than_its_own() {
        // one face of 45 degrees among seven flat ones: min y = cos 45, avg closer to 1
        let mut h = Grid::filled(5, 5, 0.0);
        h.set(1, 0, 8.0);
        let g = GroundMaps::from_heights(&h);
        let s = g.slope[0];
        let deg = slope_to_deg(s);
        assert!(deg > 0.0 && deg < 45.0, "{deg}");
        // the other cells stay flat
        assert_eq!(g.slope[3], 0.0);
    }

    #[test]
    fn engines_are_named_by_their_height_rule() {
        assert_eq!(HeightRule::parse("recoil"), Ok(HeightRule::HighestCorner));
        assert_eq!(HeightRule::parse("Spring106"), Ok(HeightRule::CellMean));
        assert!(HeightRule::parse("spring105").is_err());
        // the two rules read different heights on a slope: the highest corner sits higher
        let h = ramp(4, 4, 0.5);
        let mut g = GroundMaps::from_heights(&h);
        let corner = g.square_height(1, 0);
        g.height_rule = HeightRule::CellMean;
        assert!(corner > g.square_height(1, 0));
        assert_eq!(
            square_height_of(&h, HeightRule::CellMean, 1, 1),
            g.square_height(1, 1)
        );
    }

    #[test]
    fn updating_a_rectangle_matches_a_whole_recompute() {
        let mut h = ramp(16, 16, 0.2);
        let mut g = GroundMaps::from_heights(&h);
        for z in 5..9 {
            for x in 3..7 {
                h.set(x, z, 40.0 + x as f32);
            }
        }
        g.update_rect(&h, 2, 4, 8, 10);
        assert_eq!(g, GroundMaps::from_heights(&h));
    }
}
