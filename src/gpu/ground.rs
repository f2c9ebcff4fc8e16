//! The ground texture on the GPU: cut into square tiles (a 32x32 map's 16384 x 16384 texture
//! exceeds what one texture may be on many GPUs), each with a full mip chain built on the CPU
//! and uploaded one tile at a time so progress can be shown and staging memory stays small.

use super::shared::{downsample, write_level};
use super::{GpuContext, GpuError};
use crate::map::GroundTexture;

/// Texels per side of one tile: the largest of 4096, 2048, 1024 that divides both sides and
/// fits the device. Texture sides are multiples of 1024 (maps are an even number of units).
pub fn tile_texels(width: usize, height: usize, max_dimension: u32) -> u32 {
    [4096u32, 2048, 1024]
        .into_iter()
        .find(|&t| {
            t <= max_dimension
                && width.is_multiple_of(t as usize)
                && height.is_multiple_of(t as usize)
        })
        .unwrap_or(1024)
}

/// One tile: its texture and the bind group that draws with it.
pub struct GroundTile {
    pub texture: wgpu::Texture,
    pub bind_group: wgpu::BindGroup,
}

/// Every tile of the ground texture.
pub struct GroundTiles {
    pub tile_texels: u32,
    pub tiles_x: u32,
    pub tiles_z: u32,
    pub tiles: Vec<GroundTile>,
    pub gpu_bytes: u64,
}

impl GroundTiles {
    /// Uploads `texture` tile by tile; `progress(done, total)` after each.
    pub fn upload(
        ctx: &GpuContext,
        layout: &wgpu::BindGroupLayout,
        texture: &GroundTexture,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<GroundTiles, GpuError> {
        let (w, h) = (texture.width(), texture.height());
        let t = tile_texels(w, h, ctx.limits.max_texture_dimension_2d);
        let (tiles_x, tiles_z) = ((w / t as usize) as u32, (h / t as usize) as u32);
        let total = (tiles_x * tiles_z) as u64;
        let mips = t.ilog2() + 1;
        let mut tiles = Vec::with_capacity(total as usize);
        let mut gpu_bytes = 0u64;
        for tz in 0..tiles_z {
            for tx in 0..tiles_x {
                let tex = ctx.device.create_texture(&wgpu::TextureDescriptor {
                    label: Some("ground tile"),
                    size: wgpu::Extent3d {
                        width: t,
                        height: t,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: mips,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Rgba8Unorm,
                    usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                    view_formats: &[],
                });
                // level 0 straight from the document's pixels; the rest halved on the CPU
                let (ox, oz) = ((tx * t) as usize, (tz * t) as usize);
                let mut level: Vec<u8> = Vec::with_capacity((t * t * 4) as usize);
                for row in oz..oz + t as usize {
                    let start = (row * w + ox) * 4;
                    level.extend_from_slice(&texture.rgba()[start..start + t as usize * 4]);
                }
                let (mut lw, mut lh) = (t as usize, t as usize);
                for mip in 0..mips {
                    write_level(ctx, &tex, mip, &level, lw as u32, lh as u32);
                    gpu_bytes += (lw * lh * 4) as u64;
                    if mip + 1 < mips {
                        let (next, nw, nh) = downsample(&level, lw, lh);
                        level = next;
                        lw = nw;
                        lh = nh;
                    }
                }
                // flush the staged upload so staging memory never holds more than one tile
                ctx.queue.submit([]);
                let view = tex.create_view(&Default::default());
                let rect = [(tx * t) as f32, (tz * t) as f32, t as f32, t as f32];
                let uniform = wgpu::util::DeviceExt::create_buffer_init(
                    &ctx.device,
                    &wgpu::util::BufferInitDescriptor {
                        label: Some("ground tile rect"),
                        contents: bytemuck::cast_slice(&rect),
                        usage: wgpu::BufferUsages::UNIFORM,
                    },
                );
                let bind_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("ground tile"),
                    layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(&view),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: uniform.as_entire_binding(),
                        },
                    ],
                });
                tiles.push(GroundTile {
                    texture: tex,
                    bind_group,
                });
                progress(tiles.len() as u64, total);
            }
        }
        Ok(GroundTiles {
            tile_texels: t,
            tiles_x,
            tiles_z,
            tiles,
            gpu_bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_fit_the_texture_and_the_device() {
        assert_eq!(tile_texels(4096, 4096, 16384), 4096);
        assert_eq!(tile_texels(16384, 16384, 16384), 4096);
        assert_eq!(tile_texels(1024, 2048, 16384), 1024);
        assert_eq!(tile_texels(6144, 4096, 16384), 2048);
        assert_eq!(tile_texels(4096, 4096, 2048), 2048);
    }
}
