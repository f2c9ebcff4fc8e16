//! A dense row-major 2D grid, the shape of every map layer: element (x, z) at `z * width + x`.

/// A row-major grid with Z as the row index, as every grid in the map format is stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid<T> {
    width: usize,
    height: usize,
    data: Vec<T>,
}

impl<T: Copy> Grid<T> {
    pub fn filled(width: usize, height: usize, value: T) -> Grid<T> {
        Grid {
            width,
            height,
            data: vec![value; width * height],
        }
    }

    /// A grid over `data`; `None` when the length is not `width * height`.
    pub fn from_vec(width: usize, height: usize, data: Vec<T>) -> Option<Grid<T>> {
        (data.len() == width * height).then_some(Grid {
            width,
            height,
            data,
        })
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    pub fn dims(&self) -> (usize, usize) {
        (self.width, self.height)
    }
    pub fn data(&self) -> &[T] {
        &self.data
    }
    pub fn data_mut(&mut self) -> &mut [T] {
        &mut self.data
    }
    pub fn into_vec(self) -> Vec<T> {
        self.data
    }

    /// The element at (x, z). Panics when out of range, like slice indexing.
    pub fn get(&self, x: usize, z: usize) -> T {
        self.data[z * self.width + x]
    }

    /// The element at (x, z) with both clamped into the grid.
    pub fn get_clamped(&self, x: i64, z: i64) -> T {
        let x = x.clamp(0, self.width as i64 - 1) as usize;
        let z = z.clamp(0, self.height as i64 - 1) as usize;
        self.data[z * self.width + x]
    }

    pub fn set(&mut self, x: usize, z: usize, value: T) {
        self.data[z * self.width + x] = value;
    }

    /// One row (constant z).
    pub fn row(&self, z: usize) -> &[T] {
        &self.data[z * self.width..(z + 1) * self.width]
    }

    /// A copy of the rectangle `[x0, x0 + w) x [z0, z0 + h)`.
    pub fn copy_rect(&self, x0: usize, z0: usize, w: usize, h: usize) -> Grid<T> {
        let mut data = Vec::with_capacity(w * h);
        for z in z0..z0 + h {
            data.extend_from_slice(&self.data[z * self.width + x0..z * self.width + x0 + w]);
        }
        Grid {
            width: w,
            height: h,
            data,
        }
    }
}

impl Grid<f32> {
    /// Bilinear sample at fractional grid coordinates, clamped to the edges.
    pub fn sample_bilinear(&self, x: f32, z: f32) -> f32 {
        let x = x.clamp(0.0, (self.width - 1) as f32);
        let z = z.clamp(0.0, (self.height - 1) as f32);
        let (x0, z0) = (x.floor() as i64, z.floor() as i64);
        let (fx, fz) = (x - x0 as f32, z - z0 as f32);
        let a = self.get_clamped(x0, z0);
        let b = self.get_clamped(x0 + 1, z0);
        let c = self.get_clamped(x0, z0 + 1);
        let d = self.get_clamped(x0 + 1, z0 + 1);
        let top = a + (b - a) * fx;
        let bottom = c + (d - c) * fx;
        top + (bottom - top) * fz
    }

    /// The smallest and largest value.
    pub fn min_max(&self) -> (f32, f32) {
        self.data
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rect_copy_takes_the_rows_it_covers() {
        let g = Grid::from_vec(4, 3, (0..12).collect::<Vec<i32>>()).unwrap();
        let r = g.copy_rect(1, 1, 2, 2);
        assert_eq!(r.data(), &[5, 6, 9, 10]);
    }

    #[test]
    fn bilinear_interpolates_between_vertices() {
        let g = Grid::from_vec(2, 2, vec![0.0f32, 10.0, 20.0, 30.0]).unwrap();
        assert_eq!(g.sample_bilinear(0.5, 0.5), 15.0);
        assert_eq!(g.sample_bilinear(-3.0, 0.0), 0.0);
    }
}
