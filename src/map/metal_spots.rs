//! Metal spots as a player sees them: connected patches of non-zero metal, with their centre
//! and yield. The metal map itself is a field; this is a reading of it.

use super::Map;

/// One connected patch of metal.
#[derive(Clone, Debug, PartialEq)]
pub struct MetalSpot {
    /// Centre of mass, in elmos.
    pub x_elmos: f32,
    pub z_elmos: f32,
    /// Metal cells (16 x 16 elmos each) in the patch.
    pub cells: usize,
    /// Sum of metal over the patch (bytes x `max_metal`).
    pub total_metal: f32,
}

impl Map {
    /// The map's metal spots: 8-connected patches of non-zero metal cells.
    pub fn metal_spots(&self) -> Vec<MetalSpot> {
        let (w, h) = self.metal.dims();
        let data = self.metal.data();
        let mut seen = vec![false; w * h];
        let mut spots = Vec::new();
        let mut stack = Vec::new();
        for start in 0..w * h {
            if data[start] == 0 || seen[start] {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            let (mut sum, mut sx, mut sz, mut cells) = (0f64, 0f64, 0f64, 0usize);
            while let Some(i) = stack.pop() {
                let (x, z) = (i % w, i / w);
                let m = data[i] as f64;
                sum += m;
                sx += m * (x as f64 + 0.5);
                sz += m * (z as f64 + 0.5);
                cells += 1;
                for dz in -1i64..=1 {
                    for dx in -1i64..=1 {
                        let (nx, nz) = (x as i64 + dx, z as i64 + dz);
                        if nx < 0 || nz < 0 || nx >= w as i64 || nz >= h as i64 {
                            continue;
                        }
                        let j = nz as usize * w + nx as usize;
                        if data[j] != 0 && !seen[j] {
                            seen[j] = true;
                            stack.push(j);
                        }
                    }
                }
            }
            spots.push(MetalSpot {
                x_elmos: (sx / sum * 16.0) as f32,
                z_elmos: (sz / sum * 16.0) as f32,
                cells,
                total_metal: (sum * self.settings.max_metal as f64) as f32,
            });
        }
        spots
    }
}

#[cfg(test)]
mod tests {
    use crate::map::{Map, MapSettings, MapSize};

    #[test]
    fn patches_are_counted_and_centred() {
        let mut m = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        m.metal.set(10, 10, 100);
        m.metal.set(11, 11, 100); // diagonal: the same spot
        m.metal.set(40, 3, 50);
        let spots = m.metal_spots();
        assert_eq!(spots.len(), 2);
        // found in row-major order: (40, 3) first
        assert_eq!(spots[0].total_metal, 50.0 * m.settings.max_metal);
        assert_eq!(spots[1].cells, 2);
        assert_eq!(spots[1].x_elmos, 11.0 * 16.0);
    }
}
