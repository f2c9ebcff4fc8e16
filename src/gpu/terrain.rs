//! The ground's geometry: the map cut into chunks of 64 x 64 squares, one shared grid mesh per
//! level of detail (a skirt around each hides cracks between levels), and the per-frame choice
//! of which chunks to draw (frustum culling) and how finely (distance to the eye).
//! The meshes hold no heights: the vertex shader reads them from the height texture, so an
//! edit shows the next frame without rebuilding anything.

use std::ops::RangeInclusive;

use bytemuck::{Pod, Zeroable};
use glam::Vec3;

use super::camera::{Camera, Frustum};
use crate::map::HeightGrid;

/// Squares along a chunk's side.
pub const CHUNK_SQUARES: u32 = 64;
/// Levels of detail: steps of 1, 2, 4 ... 64 squares between vertices.
pub const LOD_LEVELS: usize = 7;

/// A vertex of a chunk mesh.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct GridVertex {
    /// Offset within the chunk, in heightmap vertices.
    pub local: [u32; 2],
    /// 1 on the skirt.
    pub skirt: u32,
}

/// One chunk to draw, as the vertex shader's instance input.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct ChunkInstance {
    /// The chunk's first heightmap vertex.
    pub origin: [u32; 2],
    /// Squares between vertices at its level of detail.
    pub step: u32,
    /// The height its skirt hangs down to, in elmos: below the lowest ground, so the map's
    /// border shows a clean wall and no crack between levels of detail can see through.
    pub skirt_floor_elmos: f32,
}

/// The vertices and triangle indices of one level of detail.
pub struct LodGeometry {
    pub vertices: Vec<GridVertex>,
    pub indices: Vec<u32>,
}

/// The mesh of a chunk with `step` squares between vertices, skirt included.
pub fn lod_geometry(step: u32) -> LodGeometry {
    let n = CHUNK_SQUARES / step;
    let mut vertices = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            vertices.push(GridVertex {
                local: [i * step, j * step],
                skirt: 0,
            });
        }
    }
    let idx = |i: u32, j: u32| j * (n + 1) + i;
    let mut indices = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i, j + 1), idx(i + 1, j + 1));
            indices.extend_from_slice(&[a, c, b, b, c, d]);
        }
    }
    // the four rims, each with a skirt strip hanging below it
    let rims: [Vec<(u32, u32)>; 4] = [
        (0..=n).map(|i| (i, 0)).collect(),
        (0..=n).map(|i| (i, n)).collect(),
        (0..=n).map(|j| (0, j)).collect(),
        (0..=n).map(|j| (n, j)).collect(),
    ];
    for rim in rims {
        let first_skirt = vertices.len() as u32;
        for &(i, j) in &rim {
            vertices.push(GridVertex {
                local: [i * step, j * step],
                skirt: 1,
            });
        }
        for k in 0..n {
            let (top0, top1) = (idx(rim[k as usize].0, rim[k as usize].1), {
                let (i, j) = rim[k as usize + 1];
                idx(i, j)
            });
            let (low0, low1) = (first_skirt + k, first_skirt + k + 1);
            indices.extend_from_slice(&[top0, low0, top1, top1, low0, low1]);
        }
    }
    LodGeometry { vertices, indices }
}

/// Draw `count` instances from `first` with level of detail `lod`, ground tile `tile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRange {
    pub tile: usize,
    pub lod: usize,
    pub first: u32,
    pub count: u32,
}

/// This frame's chunks: instance data grouped by (tile, level), and the draws over it.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    pub instances: Vec<ChunkInstance>,
    pub draws: Vec<DrawRange>,
    pub triangles: u64,
}

/// Every chunk's place and height range (for culling).
#[derive(Clone, Debug)]
pub struct ChunkGrid {
    pub chunks_x: u32,
    pub chunks_z: u32,
    /// (lowest, highest) height in elmos per chunk, row-major.
    bounds: Vec<(f32, f32)>,
}

impl ChunkGrid {
    /// The chunks of a heightmap of (64k + 1) x (64m + 1) vertices.
    pub fn new(heights: &HeightGrid) -> ChunkGrid {
        let (w, h) = heights.dims();
        let chunks_x = ((w - 1) as u32).div_ceil(CHUNK_SQUARES).max(1);
        let chunks_z = ((h - 1) as u32).div_ceil(CHUNK_SQUARES).max(1);
        let mut g = ChunkGrid {
            chunks_x,
            chunks_z,
            bounds: vec![(0.0, 0.0); (chunks_x * chunks_z) as usize],
        };
        g.refresh(heights, 0, 0, w, h);
        g
    }

    pub fn len(&self) -> usize {
        self.bounds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }

    /// The chunk columns and rows a vertex rectangle touches (a vertex on a chunk border
    /// belongs to both sides).
    fn chunks_meeting(
        &self,
        x0: usize,
        z0: usize,
        w: usize,
        h: usize,
    ) -> (RangeInclusive<usize>, RangeInclusive<usize>) {
        let cs = CHUNK_SQUARES as usize;
        let cx1 = ((x0 + w) / cs).min(self.chunks_x as usize - 1);
        let cz1 = ((z0 + h) / cs).min(self.chunks_z as usize - 1);
        (
            x0.saturating_sub(1) / cs..=cx1,
            z0.saturating_sub(1) / cs..=cz1,
        )
    }

    /// Recomputes the height range of every chunk meeting the vertex rectangle.
    pub fn refresh(&mut self, heights: &HeightGrid, x0: usize, z0: usize, w: usize, h: usize) {
        let cs = CHUNK_SQUARES as usize;
        let (hw, hh) = heights.dims();
        let (xs, zs) = self.chunks_meeting(x0, z0, w, h);
        for cz in zs {
            for cx in xs.clone() {
                let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
                for z in cz * cs..=((cz + 1) * cs).min(hh - 1) {
                    for &v in &heights.row(z)[cx * cs..=((cx + 1) * cs).min(hw - 1)] {
                        lo = lo.min(v);
                        hi = hi.max(v);
                    }
                }
                self.bounds[cz * self.chunks_x as usize + cx] = (lo, hi);
            }
        }
    }

    /// Widens the height range of the chunks meeting a vertex rectangle to hold `lo..hi`, then
    /// by `more_elmos` both ways: while a stroke runs on the GPU the CPU does not know the new
    /// heights yet, only what they can reach.
    pub fn widen_to(&mut self, rect: crate::edit::GridRect, lo: f32, hi: f32, more_elmos: f32) {
        if rect.is_empty() {
            return;
        }
        let (xs, zs) = self.chunks_meeting(rect.x0, rect.z0, rect.w, rect.h);
        for cz in zs {
            for cx in xs.clone() {
                let b = &mut self.bounds[cz * self.chunks_x as usize + cx];
                b.0 = b.0.min(lo) - more_elmos;
                b.1 = b.1.max(hi) + more_elmos;
            }
        }
    }

    /// The chunks `camera` sees in a `width` x `height` pixel view, each at the coarsest level
    /// whose squares stay under `lod_px` pixels, grouped by ground tile (`tile_chunks` chunks
    /// per tile side, `tiles_x` tiles across) and level.
    pub fn select(
        &self,
        camera: &Camera,
        width_px: u32,
        height_px: u32,
        lod_px: f32,
        tile_chunks: u32,
        tiles_x: u32,
    ) -> Selection {
        let aspect = width_px as f32 / height_px.max(1) as f32;
        let frustum = Frustum::from_view_proj(camera.view_proj(aspect));
        let eye = camera.eye();
        let half_fov_tan = (camera.fov_y_rad * 0.5).tan();
        let chunk_elmos = (CHUNK_SQUARES * 8) as f32;
        let floor = self.bounds.iter().fold(f32::INFINITY, |m, b| m.min(b.0)) - 32.0;
        let mut picked: Vec<(usize, usize, ChunkInstance)> = Vec::new();
        for cz in 0..self.chunks_z {
            for cx in 0..self.chunks_x {
                let hi_h = self.bounds[(cz * self.chunks_x + cx) as usize].1;
                let lo = Vec3::new(cx as f32 * chunk_elmos, floor, cz as f32 * chunk_elmos);
                let hi = Vec3::new(lo.x + chunk_elmos, hi_h, lo.z + chunk_elmos);
                if !frustum.intersects_box(lo, hi) {
                    continue;
                }
                // elmos per pixel at the chunk's nearest point
                let elmos_per_px = if camera.ortho {
                    2.0 * camera.ortho_half_height() / height_px.max(1) as f32
                } else {
                    let nearest = eye.clamp(lo, hi);
                    let dist = (nearest - eye).length().max(1.0);
                    2.0 * dist * half_fov_tan / height_px.max(1) as f32
                };
                let squares_per_px = lod_px * elmos_per_px / 8.0;
                let mut lod = 0usize;
                while lod + 1 < LOD_LEVELS && (1u32 << (lod + 1)) as f32 <= squares_per_px {
                    lod += 1;
                }
                let tile = ((cz / tile_chunks) * tiles_x + cx / tile_chunks) as usize;
                picked.push((
                    tile,
                    lod,
                    ChunkInstance {
                        origin: [cx * CHUNK_SQUARES, cz * CHUNK_SQUARES],
                        step: 1 << lod,
                        skirt_floor_elmos: floor,
                    },
                ));
            }
        }
        picked.sort_by_key(|p| (p.0, p.1));
        let mut sel = Selection::default();
        for (tile, lod, inst) in picked {
            let first = sel.instances.len() as u32;
            sel.instances.push(inst);
            let quads = (CHUNK_SQUARES >> lod) as u64;
            sel.triangles += 2 * quads * quads;
            match sel.draws.last_mut() {
                Some(d) if d.tile == tile && d.lod == lod => d.count += 1,
                _ => sel.draws.push(DrawRange {
                    tile,
                    lod,
                    first,
                    count: 1,
                }),
            }
        }
        sel
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::camera::CameraPreset;
    use crate::map::Grid;

    #[test]
    fn lod_meshes_cover_the_chunk() {
        for lod in 0..LOD_LEVELS {
            let step = 1u32 << lod;
            let g = lod_geometry(step);
            let n = CHUNK_SQUARES / step;
            assert_eq!(g.indices.len() as u32, n * n * 6 + 4 * n * 6, "step {step}");
            assert!(g.indices.iter().all(|&i| (i as usize) < g.vertices.len()));
            let max = g.vertices.iter().map(|v| v.local[0]).max().unwrap();
            assert_eq!(max, CHUNK_SQUARES);
        }
    }

    #[test]
    fn chunk_bounds_follow_the_heights() {
        let mut g = Grid::filled(129, 129, 0.0f32);
        g.set(100, 10, 50.0);
        let mut c = ChunkGrid::new(&g);
        assert_eq!((c.chunks_x, c.chunks_z), (2, 2));
        assert_eq!(c.bounds[1], (0.0, 50.0));
        assert_eq!(c.bounds[0], (0.0, 0.0));
        g.set(100, 10, -5.0);
        c.refresh(&g, 100, 10, 1, 1);
        assert_eq!(c.bounds[1], (-5.0, 0.0));
        c.widen_to(crate::edit::GridRect::new(100, 10, 1, 1), -2.0, 30.0, 1.0);
        assert_eq!(c.bounds[1], (-6.0, 31.0));
        assert_eq!(c.bounds[0], (0.0, 0.0));
    }

    #[test]
    fn near_chunks_are_fine_and_far_ones_coarse() {
        let g = Grid::filled(1025, 1025, 0.0f32);
        let c = ChunkGrid::new(&g);
        let cam = Camera::preset(
            CameraPreset::LookAt {
                eye: Vec3::new(4096.0, 300.0, 4096.0),
                target: Vec3::new(0.0, 0.0, 0.0),
            },
            8192.0,
            8192.0,
            0.0,
        );
        let sel = c.select(&cam, 1920, 1080, 8.0, 8, 2);
        assert!(!sel.instances.is_empty());
        let steps: Vec<u32> = sel.instances.iter().map(|i| i.step).collect();
        assert!(steps.contains(&1), "{steps:?}");
        assert!(steps.iter().any(|&s| s >= 2), "{steps:?}");
        assert!(
            sel.instances.len() < c.len(),
            "some chunks are behind the eye"
        );
        let drawn: u32 = sel.draws.iter().map(|d| d.count).sum();
        assert_eq!(drawn as usize, sel.instances.len());
    }
}
