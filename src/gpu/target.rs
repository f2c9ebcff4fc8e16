//! An offscreen picture to draw into: colour (read back as RGBA8 for PNGs, or shown by the
//! window through an sRGB view) and reverse-Z depth.

use super::shared::{COLOR_FORMAT, DEPTH_FORMAT};
use super::water::WaterTargets;
use super::{GpuContext, GpuError};

pub struct RenderTarget {
    pub color: wgpu::Texture,
    pub color_view: wgpu::TextureView,
    /// Bindable, so the editor can read the depth under the cursor.
    pub depth: wgpu::Texture,
    pub depth_view: wgpu::TextureView,
    pub width: u32,
    pub height: u32,
    /// What the water samples: its reflection picture and the frame under it.
    pub water: WaterTargets,
}

impl RenderTarget {
    /// A target of `width` x `height` pixels (clamped to 1 ..= the device's limit).
    pub fn new(ctx: &GpuContext, width: u32, height: u32) -> RenderTarget {
        let max = ctx.limits.max_texture_dimension_2d;
        let (width, height) = (width.clamp(1, max), height.clamp(1, max));
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let color = ctx.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("view colour"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: COLOR_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let depth = ctx.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("view depth"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let color_view = color.create_view(&Default::default());
        RenderTarget {
            color,
            color_view,
            depth_view: depth.create_view(&Default::default()),
            depth,
            width,
            height,
            water: WaterTargets::new(ctx, width, height),
        }
    }

    pub fn aspect(&self) -> f32 {
        self.width as f32 / self.height as f32
    }

    /// Bytes the target holds on the GPU.
    pub fn gpu_bytes(&self) -> u64 {
        self.width as u64 * self.height as u64 * 8 + self.water.gpu_bytes()
    }

    /// The picture as tightly packed RGBA8 rows, top row first. Waits for the GPU.
    pub fn read_rgba(&self, ctx: &GpuContext) -> Result<Vec<u8>, GpuError> {
        let rows = read_texture_rows(ctx, &self.color, 0, 0, self.width, self.height, 4)?;
        Ok(rows)
    }
}

/// Copies a `w` x `h` rectangle at (x0, y0) of a texture with `texel_bytes` bytes per texel
/// back to the CPU, tightly packed. Waits for the GPU.
fn read_texture_rows(
    ctx: &GpuContext,
    texture: &wgpu::Texture,
    x0: u32,
    y0: u32,
    w: u32,
    h: u32,
    texel_bytes: u32,
) -> Result<Vec<u8>, GpuError> {
    let rect = crate::edit::GridRect::new(x0 as usize, y0 as usize, w as usize, h as usize);
    Ok(read_texture_rects(ctx, texture, &[rect], texel_bytes)?.remove(0))
}

/// Copies several rectangles of a texture back to the CPU, each tightly packed, with one
/// submission and one mapping of one staging buffer. Waits for the GPU.
pub fn read_texture_rects(
    ctx: &GpuContext,
    texture: &wgpu::Texture,
    rects: &[crate::edit::GridRect],
    texel_bytes: u32,
) -> Result<Vec<Vec<u8>>, GpuError> {
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let padded = |w: usize| (w as u32 * texel_bytes).div_ceil(align) * align;
    let mut offsets = Vec::with_capacity(rects.len());
    let mut size = 0u64;
    for r in rects {
        offsets.push(size);
        size += padded(r.w) as u64 * r.h as u64;
    }
    if size == 0 {
        return Ok(rects.iter().map(|_| Vec::new()).collect());
    }
    let buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut enc = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("readback"),
        });
    for (r, &offset) in rects.iter().zip(&offsets) {
        if r.is_empty() {
            continue;
        }
        enc.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin: wgpu::Origin3d {
                    x: r.x0 as u32,
                    y: r.z0 as u32,
                    z: 0,
                },
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset,
                    bytes_per_row: Some(padded(r.w)),
                    rows_per_image: Some(r.h as u32),
                },
            },
            wgpu::Extent3d {
                width: r.w as u32,
                height: r.h as u32,
                depth_or_array_layers: 1,
            },
        );
    }
    ctx.queue.submit([enc.finish()]);
    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    ctx.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    rx.recv()
        .map_err(|e| GpuError::Readback(e.to_string()))?
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    let mut out = Vec::with_capacity(rects.len());
    {
        let view = slice
            .get_mapped_range()
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        for (r, &offset) in rects.iter().zip(&offsets) {
            let row = r.w * texel_bytes as usize;
            let mut bytes = Vec::with_capacity(row * r.h);
            for z in 0..r.h {
                let start = offset as usize + z * padded(r.w) as usize;
                bytes.extend_from_slice(&view[start..start + row]);
            }
            out.push(bytes);
        }
    }
    buffer.unmap();
    Ok(out)
}
