//! The ground point under the cursor as the view last drew it: a one-texel read of the depth
//! buffer (a tiny compute pass, since depth textures cannot be copied in part), mapped back
//! without waiting, turned into a world point with the camera it was drawn with. While a stroke
//! runs on the GPU the document lags; this is the surface the user sees.

use std::sync::{Arc, Mutex};

use glam::{Mat4, Vec3, Vec4};

use super::{GpuContext, RenderTarget};

struct InFlight {
    done: Arc<Mutex<Option<bool>>>,
    ndc: [f32; 2],
    inv_view_proj: Mat4,
}

pub struct DepthProbe {
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    pixel: wgpu::Buffer,
    out: wgpu::Buffer,
    staging: wgpu::Buffer,
    in_flight: Option<InFlight>,
}

impl DepthProbe {
    /// `None` without compute shaders.
    pub fn new(ctx: &GpuContext) -> Option<DepthProbe> {
        if !ctx.compute {
            return None;
        }
        let d = &ctx.device;
        let layout = super::shared::compute_layout(
            ctx,
            "depth probe",
            &[
                (
                    0,
                    wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                ),
                (
                    1,
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: false },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                ),
                (
                    2,
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                ),
            ],
        );
        let pipeline = super::shared::compute_pipeline(
            ctx,
            "depth probe",
            include_str!("../../shaders/depth_probe.wgsl"),
            &[&layout],
        );
        let buffer = |label, size, usage| {
            d.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as U;
        Some(DepthProbe {
            pipeline,
            layout,
            pixel: buffer("probe pixel", 16, U::UNIFORM | U::COPY_DST),
            out: buffer("probe out", 4, U::STORAGE | U::COPY_SRC),
            staging: buffer("probe staging", 4, U::MAP_READ | U::COPY_DST),
            in_flight: None,
        })
    }

    /// Asks for the depth at `ndc` (-1..1, y up) of the picture just drawn with `view_proj`.
    /// Does nothing while the last answer is still on its way.
    pub fn request(
        &mut self,
        ctx: &GpuContext,
        target: &RenderTarget,
        ndc: [f32; 2],
        view_proj: Mat4,
    ) {
        if self.in_flight.is_some() {
            return;
        }
        let px = (((ndc[0] + 1.0) * 0.5 * target.width as f32) as u32).min(target.width - 1);
        let py = (((1.0 - ndc[1]) * 0.5 * target.height as f32) as u32).min(target.height - 1);
        ctx.queue
            .write_buffer(&self.pixel, 0, bytemuck::cast_slice(&[px, py, 0u32, 0u32]));
        let depth_view = target.depth.create_view(&wgpu::TextureViewDescriptor {
            aspect: wgpu::TextureAspect::DepthOnly,
            ..Default::default()
        });
        let bind = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("depth probe"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&depth_view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: self.out.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: self.pixel.as_entire_binding(),
                },
            ],
        });
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("depth probe"),
            });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("depth probe"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        enc.copy_buffer_to_buffer(&self.out, 0, &self.staging, 0, 4);
        ctx.queue.submit([enc.finish()]);
        let done = Arc::new(Mutex::new(None));
        let flag = done.clone();
        self.staging
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |r| {
                if let Ok(mut f) = flag.lock() {
                    *f = Some(r.is_ok());
                }
            });
        self.in_flight = Some(InFlight {
            done,
            ndc,
            inv_view_proj: view_proj.inverse(),
        });
    }

    /// The answer when it has come, without waiting: `Some(None)` when nothing was drawn there.
    pub fn poll(&mut self, ctx: &GpuContext) -> Option<Option<Vec3>> {
        let f = self.in_flight.as_ref()?;
        let _ = ctx.device.poll(wgpu::PollType::Poll);
        let ok = f.done.lock().ok().and_then(|d| *d)?;
        let f = self.in_flight.take()?;
        if !ok {
            return Some(None);
        }
        let depth = {
            let view = self.staging.slice(..).get_mapped_range().ok()?;
            f32::from_le_bytes([view[0], view[1], view[2], view[3]])
        };
        self.staging.unmap();
        // reverse Z: 0 is the far plane, nothing drawn there
        Some((depth > 0.0).then(|| {
            let p = f.inv_view_proj * Vec4::new(f.ndc[0], f.ndc[1], depth, 1.0);
            p.truncate() / p.w
        }))
    }
}
