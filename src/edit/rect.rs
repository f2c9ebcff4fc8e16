//! A rectangle of grid cells, the unit every edit, read-back and undo step is measured in.

/// `[x0, x0 + w) x [z0, z0 + h)` on some grid (heights: vertices; metal: cells).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridRect {
    pub x0: usize,
    pub z0: usize,
    pub w: usize,
    pub h: usize,
}

impl GridRect {
    pub fn new(x0: usize, z0: usize, w: usize, h: usize) -> GridRect {
        GridRect { x0, z0, w, h }
    }

    pub fn is_empty(&self) -> bool {
        self.w == 0 || self.h == 0
    }

    pub fn x1(&self) -> usize {
        self.x0 + self.w
    }

    pub fn z1(&self) -> usize {
        self.z0 + self.h
    }

    /// The smallest rectangle holding both (an empty one is ignored).
    pub fn union(&self, other: &GridRect) -> GridRect {
        if self.is_empty() {
            return *other;
        }
        if other.is_empty() {
            return *self;
        }
        let (x0, z0) = (self.x0.min(other.x0), self.z0.min(other.z0));
        let (x1, z1) = (self.x1().max(other.x1()), self.z1().max(other.z1()));
        GridRect::new(x0, z0, x1 - x0, z1 - z0)
    }

    /// The cells within `radius` of the fractional point (cx, cz), clipped to a
    /// `width` x `height` grid. Empty when the disc misses the grid.
    pub fn around(cx: f32, cz: f32, radius: f32, width: usize, height: usize) -> GridRect {
        let lo = |c: f32| (c - radius).floor().max(0.0);
        let hi = |c: f32, n: usize| ((c + radius).ceil() + 1.0).min(n as f32);
        let (x0, z0) = (lo(cx), lo(cz));
        let (x1, z1) = (hi(cx, width), hi(cz, height));
        if !(x1 > x0 && z1 > z0) {
            return GridRect::default();
        }
        GridRect::new(
            x0 as usize,
            z0 as usize,
            (x1 - x0) as usize,
            (z1 - z0) as usize,
        )
    }

    /// Cells in the rectangle.
    pub fn area(&self) -> usize {
        self.w * self.h
    }

    /// Whether the two share a cell.
    pub fn intersects(&self, other: &GridRect) -> bool {
        !self.is_empty()
            && !other.is_empty()
            && self.x0 < other.x1()
            && other.x0 < self.x1()
            && self.z0 < other.z1()
            && other.z0 < self.z1()
    }

    /// Grown by `n` cells each way, clipped to a `width` x `height` grid.
    pub fn grown(&self, n: usize, width: usize, height: usize) -> GridRect {
        if self.is_empty() {
            return *self;
        }
        let (x0, z0) = (self.x0.saturating_sub(n), self.z0.saturating_sub(n));
        let (x1, z1) = ((self.x1() + n).min(width), (self.z1() + n).min(height));
        GridRect::new(x0, z0, x1 - x0, z1 - z0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_ignores_empty_and_covers_both() {
        let a = GridRect::new(2, 3, 4, 5);
        assert_eq!(a.union(&GridRect::default()), a);
        assert_eq!(GridRect::default().union(&a), a);
        assert_eq!(
            a.union(&GridRect::new(10, 0, 1, 1)),
            GridRect::new(2, 0, 9, 8)
        );
    }

    #[test]
    fn around_clips_to_grid() {
        let r = GridRect::around(1.0, 1.0, 3.0, 10, 10);
        assert_eq!(r, GridRect::new(0, 0, 5, 5));
        let r = GridRect::around(9.5, 9.5, 1.0, 10, 10);
        assert_eq!((r.x1(), r.z1()), (10, 10));
        assert!(GridRect::around(-20.0, 5.0, 3.0, 10, 10).is_empty());
    }
}
