//! The layers a tool can write (heights, metal, grass, terrain type, a texture layer's painted
//! mask), seen the same way by every kernel: a grid of f32 values, read and written by
//! rectangle, cut into 64 x 64 undo tiles.
//!
//! Heights are f32 elmos on the vertex grid; the byte layers hold their byte value as a float
//! (0..=255) while a stroke runs and are rounded back to bytes when it ends.

use crate::map::{Grid, Map};

use super::GridRect;

/// A layer of the document that tools edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LayerId {
    Heights,
    Metal,
    Grass,
    Types,
    /// The painted mask of the texture layer at this place in the stack (bottom 0): one byte
    /// per metal cell, 128 leaving the layer's rules alone. Unpainted, it reads as 128; the
    /// first write makes it.
    TextureMask(u8),
}

/// Cells (or vertices) along each side of an undo tile.
const TILE_CELLS: usize = 64;

impl LayerId {
    pub const ALL: [LayerId; 4] = [
        LayerId::Heights,
        LayerId::Metal,
        LayerId::Grass,
        LayerId::Types,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LayerId::Heights => "heights",
            LayerId::Metal => "metal",
            LayerId::Grass => "grass",
            LayerId::Types => "terrain types",
            LayerId::TextureMask(_) => "texture layer mask",
        }
    }

    /// The index [`LayerId::ALL`] gives it (a mask's comes after them, by its place).
    pub fn index(self) -> usize {
        match self {
            LayerId::Heights => 0,
            LayerId::Metal => 1,
            LayerId::Grass => 2,
            LayerId::Types => 3,
            LayerId::TextureMask(k) => 4 + k as usize,
        }
    }

    /// Elmos between neighbouring values: 8 for height vertices, 16 for metal and type cells,
    /// 32 for grass cells.
    pub fn elmos_per_cell(self) -> f32 {
        match self {
            LayerId::Heights => 8.0,
            LayerId::Metal | LayerId::Types | LayerId::TextureMask(_) => 16.0,
            LayerId::Grass => 32.0,
        }
    }

    /// Where value 0 sits, in cells: vertices lie on the grid lines (0), cells are sampled at
    /// their centres (0.5).
    fn cell_offset(self) -> f32 {
        match self {
            LayerId::Heights => 0.0,
            _ => 0.5,
        }
    }

    /// World elmos (x, z) to this layer's fractional index space.
    pub fn to_cells(self, x_elmos: f32, z_elmos: f32) -> [f32; 2] {
        let s = self.elmos_per_cell();
        let o = self.cell_offset();
        [x_elmos / s - o, z_elmos / s - o]
    }

    /// The layer's size in values.
    pub fn dims(self, map: &Map) -> (usize, usize) {
        match self {
            LayerId::Heights => map.heights.dims(),
            LayerId::Metal => map.metal.dims(),
            LayerId::Grass => map.grass.dims(),
            LayerId::Types | LayerId::TextureMask(_) => map.types.dims(),
        }
    }

    /// Whether the layer stores bytes (values are rounded and clamped to 0..=255).
    pub fn is_bytes(self) -> bool {
        self != LayerId::Heights
    }

    /// The byte grid, `None` for an unpainted (or missing) mask.
    fn bytes(self, map: &Map) -> Option<&Grid<u8>> {
        match self {
            LayerId::Metal => Some(&map.metal),
            LayerId::Grass => Some(&map.grass),
            LayerId::TextureMask(k) => map
                .texture_layers
                .get(k as usize)
                .and_then(|l| l.mask.as_ref()),
            _ => Some(&map.types),
        }
    }

    /// The byte grid to write; a mask is made (all neutral) on its first write. `None` when
    /// the stack has no such layer.
    fn bytes_mut(self, map: &mut Map) -> Option<&mut Grid<u8>> {
        match self {
            LayerId::Metal => Some(&mut map.metal),
            LayerId::Grass => Some(&mut map.grass),
            LayerId::TextureMask(k) => {
                let (w, h) = map.metal.dims();
                map.texture_layers.get_mut(k as usize).map(|l| {
                    l.mask.get_or_insert_with(|| {
                        Grid::filled(w, h, crate::map::ground_layers::MASK_NEUTRAL)
                    })
                })
            }
            _ => Some(&mut map.types),
        }
    }

    /// The values of `rect`, row by row, as floats.
    pub fn read_rect(self, map: &Map, rect: GridRect) -> Vec<f32> {
        let mut out = Vec::with_capacity(rect.area());
        match self {
            LayerId::Heights => {
                for z in rect.z0..rect.z1() {
                    out.extend_from_slice(&map.heights.row(z)[rect.x0..rect.x1()]);
                }
            }
            _ => match self.bytes(map) {
                Some(g) => {
                    for z in rect.z0..rect.z1() {
                        out.extend(g.row(z)[rect.x0..rect.x1()].iter().map(|&b| b as f32));
                    }
                }
                None => out.resize(rect.area(), crate::map::ground_layers::MASK_NEUTRAL as f32),
            },
        }
        out
    }

    /// Writes `values` (row by row) over `rect`; byte layers round and clamp to 0..=255.
    pub fn write_rect(self, map: &mut Map, rect: GridRect, values: &[f32]) {
        debug_assert_eq!(values.len(), rect.area());
        if rect.is_empty() {
            return;
        }
        match self {
            LayerId::Heights => {
                let w = map.heights.width();
                let data = map.heights.data_mut();
                for (r, z) in (rect.z0..rect.z1()).enumerate() {
                    let src = &values[r * rect.w..(r + 1) * rect.w];
                    data[z * w + rect.x0..z * w + rect.x1()].copy_from_slice(src);
                }
            }
            _ => {
                let Some(g) = self.bytes_mut(map) else {
                    return;
                };
                let w = g.width();
                let data = g.data_mut();
                for (r, z) in (rect.z0..rect.z1()).enumerate() {
                    let src = &values[r * rect.w..(r + 1) * rect.w];
                    for (d, &v) in data[z * w + rect.x0..z * w + rect.x1()].iter_mut().zip(src) {
                        *d = to_byte(v);
                    }
                }
            }
        }
    }

    /// The whole layer as floats.
    pub fn to_grid(self, map: &Map) -> Grid<f32> {
        let (w, h) = self.dims(map);
        Grid::from_vec(w, h, self.read_rect(map, GridRect::new(0, 0, w, h))).expect("sized")
    }

    /// The undo tiles along each side.
    pub fn tiles(self, map: &Map) -> (usize, usize) {
        let (w, h) = self.dims(map);
        (w.div_ceil(TILE_CELLS), h.div_ceil(TILE_CELLS))
    }

    /// The cells of tile (tx, tz), clipped to the layer.
    pub fn tile_rect(self, map: &Map, tx: usize, tz: usize) -> GridRect {
        tile_rect(self.dims(map), tx, tz)
    }
}

/// The cells of tile (tx, tz) of a `dims` grid.
pub fn tile_rect(dims: (usize, usize), tx: usize, tz: usize) -> GridRect {
    let (x0, z0) = (tx * TILE_CELLS, tz * TILE_CELLS);
    GridRect::new(
        x0,
        z0,
        TILE_CELLS.min(dims.0.saturating_sub(x0)),
        TILE_CELLS.min(dims.1.saturating_sub(z0)),
    )
}

/// A float as a byte layer stores it: rounded, clamped to 0..=255.
pub fn to_byte(v: f32) -> u8 {
    if v.is_nan() {
        0
    } else {
        v.round().clamp(0.0, 255.0) as u8
    }
}

/// Which undo tiles of one layer a stroke has touched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSet {
    pub tiles_x: usize,
    pub tiles_z: usize,
    touched: Vec<bool>,
}

impl TileSet {
    pub fn new(tiles_x: usize, tiles_z: usize) -> TileSet {
        TileSet {
            tiles_x,
            tiles_z,
            touched: vec![false; tiles_x * tiles_z],
        }
    }

    /// Marks the tiles meeting `rect`; returns those not marked before.
    pub fn mark(&mut self, rect: GridRect) -> Vec<(usize, usize)> {
        let mut fresh = Vec::new();
        if rect.is_empty() {
            return fresh;
        }
        let tx1 = ((rect.x1() - 1) / TILE_CELLS).min(self.tiles_x - 1);
        let tz1 = ((rect.z1() - 1) / TILE_CELLS).min(self.tiles_z - 1);
        for tz in rect.z0 / TILE_CELLS..=tz1 {
            for tx in rect.x0 / TILE_CELLS..=tx1 {
                let t = &mut self.touched[tz * self.tiles_x + tx];
                if !*t {
                    *t = true;
                    fresh.push((tx, tz));
                }
            }
        }
        fresh
    }

    /// Every marked tile, row by row.
    pub fn list(&self) -> Vec<(usize, usize)> {
        (0..self.tiles_z)
            .flat_map(|tz| (0..self.tiles_x).map(move |tx| (tx, tz)))
            .filter(|&(tx, tz)| self.touched[tz * self.tiles_x + tx])
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        !self.touched.contains(&true)
    }

    pub fn count(&self) -> usize {
        self.touched.iter().filter(|t| **t).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize};

    #[test]
    fn rects_round_trip_on_every_layer() {
        let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        for layer in LayerId::ALL {
            let r = GridRect::new(3, 5, 7, 4);
            let vals: Vec<f32> = (0..r.area()).map(|i| i as f32 * 1.25).collect();
            layer.write_rect(&mut map, r, &vals);
            let back = layer.read_rect(&map, r);
            if layer.is_bytes() {
                let want: Vec<f32> = vals.iter().map(|&v| to_byte(v) as f32).collect();
                assert_eq!(back, want, "{layer:?}");
            } else {
                assert_eq!(back, vals);
            }
        }
        assert_eq!(to_byte(300.0), 255);
        assert_eq!(to_byte(-3.0), 0);
        assert_eq!(to_byte(2.5), 3);
    }

    #[test]
    fn tiles_cover_the_layer_and_mark_once() {
        let map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        assert_eq!(LayerId::Heights.tiles(&map), (3, 3));
        assert_eq!(
            LayerId::Heights.tile_rect(&map, 2, 2),
            GridRect::new(128, 128, 1, 1)
        );
        assert_eq!(LayerId::Grass.tiles(&map), (1, 1));
        let mut t = TileSet::new(3, 3);
        assert_eq!(t.mark(GridRect::new(60, 0, 10, 2)), vec![(0, 0), (1, 0)]);
        assert!(t.mark(GridRect::new(0, 0, 64, 64)).is_empty());
        assert_eq!(t.mark(GridRect::new(128, 128, 1, 1)), vec![(2, 2)]);
        assert_eq!(t.list(), vec![(0, 0), (1, 0), (2, 2)]);
        assert_eq!(LayerId::Metal.to_cells(16.0, 24.0), [0.5, 1.0]);
    }
}
