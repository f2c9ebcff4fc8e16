//! Compute kernels that edit the GPU copy of the heights in place. Each kernel is one WGSL
//! file with a `main` entry point reading the height texture (read-write storage) and one
//! uniform parameter block whose layout its CPU twin in `edit/` defines; this module only
//! knows the kernel's name, its parameter bytes and the rectangle to cover.

use super::GpuContext;
use super::scene::MapScene;

/// The height kernels there are. A new one adds a variant, its file, and a line in
/// [`HeightKernel::source`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeightKernel {
    RaiseLower,
}

impl HeightKernel {
    pub const ALL: [HeightKernel; 1] = [HeightKernel::RaiseLower];

    fn source(self) -> &'static str {
        match self {
            HeightKernel::RaiseLower => include_str!("../../shaders/brush_raise_lower.wgsl"),
        }
    }
}

/// The compiled kernels. Exists only on devices with compute; without it the editor runs
/// the CPU twins and uploads their result.
pub struct HeightKernels {
    layout: wgpu::BindGroupLayout,
    pipelines: Vec<(HeightKernel, wgpu::ComputePipeline)>,
    /// The parameter block, rewritten before each dispatch (each is its own submission).
    params: wgpu::Buffer,
}

/// The largest parameter block a kernel may take, in bytes.
pub const MAX_PARAMS_BYTES: u64 = 4096;

/// Invocations per workgroup side (`@workgroup_size(8, 8)` in every kernel).
const GROUP: u32 = 8;

impl HeightKernels {
    /// `None` when the device has no compute shaders or read-write storage textures.
    pub fn new(ctx: &GpuContext) -> Option<HeightKernels> {
        if !ctx.compute {
            return None;
        }
        let layout = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("height kernel"),
                entries: &[
                    wgpu::BindGroupLayoutEntry {
                        binding: 0,
                        visibility: wgpu::ShaderStages::COMPUTE,
                        ty: wgpu::BindingType::StorageTexture {
                            access: wgpu::StorageTextureAccess::ReadWrite,
                            format: wgpu::TextureFormat::R32Float,
                            view_dimension: wgpu::TextureViewDimension::D2,
                        },
                        count: None,
                    },
                    wgpu::BindGroupLayoutEntry {
                        binding: 1,
                        visibility: wgpu::ShaderStages::COMPUTE,
                        ty: wgpu::BindingType::Buffer {
                            ty: wgpu::BufferBindingType::Uniform,
                            has_dynamic_offset: false,
                            min_binding_size: None,
                        },
                        count: None,
                    },
                ],
            });
        let pl = ctx
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("height kernel"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
        let pipelines = HeightKernel::ALL
            .iter()
            .map(|&k| {
                let module = ctx
                    .device
                    .create_shader_module(wgpu::ShaderModuleDescriptor {
                        label: Some("height kernel"),
                        source: wgpu::ShaderSource::Wgsl(k.source().into()),
                    });
                let p = ctx
                    .device
                    .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                        label: Some("height kernel"),
                        layout: Some(&pl),
                        module: &module,
                        entry_point: Some("main"),
                        compilation_options: Default::default(),
                        cache: None,
                    });
                (k, p)
            })
            .collect();
        let params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("kernel params"),
            size: MAX_PARAMS_BYTES,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Some(HeightKernels {
            layout,
            pipelines,
            params,
        })
    }

    /// Runs `kernel` with `params` (its uniform block's bytes, which place the rectangle) over
    /// `size` vertices of the scene's height texture, and submits it. The terrain shows the
    /// result in the next frame; nothing is read back.
    pub fn dispatch(
        &self,
        ctx: &GpuContext,
        scene: &MapScene,
        kernel: HeightKernel,
        params: &[u8],
        size: [u32; 2],
    ) {
        let len = params.len() as u64;
        debug_assert!(len <= MAX_PARAMS_BYTES, "kernel parameters of {len} bytes");
        if size[0] == 0 || size[1] == 0 || len == 0 || len > MAX_PARAMS_BYTES {
            return;
        }
        let Some((_, pipeline)) = self.pipelines.iter().find(|(k, _)| *k == kernel) else {
            return;
        };
        ctx.queue.write_buffer(&self.params, 0, params);
        let view = scene.heights.create_view(&Default::default());
        let bind = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("height kernel"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &self.params,
                        offset: 0,
                        size: std::num::NonZeroU64::new(len),
                    }),
                },
            ],
        });
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("height kernel"),
            });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("height kernel"),
                timestamp_writes: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups(size[0].div_ceil(GROUP), size[1].div_ceil(GROUP), 1);
        }
        ctx.queue.submit([enc.finish()]);
    }
}
