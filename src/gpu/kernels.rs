//! The brush kernels on the GPU: one compute pipeline per kernel entry point, built from the
//! tools' registry (the prelude put in front of each kernel's WGSL, a bind group layout from the
//! bindings the kernel declares), and the runner that records a batch of dispatches (source
//! copies, passes, parameter blocks at their own offsets of one buffer) into one submission.
//! [`SceneLayers`] is the session's view of a map's layers on the GPU.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::GpuContext;
use super::scene::MapScene;
use super::shared::{texture_2d, write_texture_rect};
use crate::edit::generate::kernel::GENERATE;
use crate::edit::kernel::{Dispatch, Extra, KernelParams, KernelSpec};
use crate::edit::session::GpuLayers;
use crate::edit::symmetry::SYMMETRIZE;
use crate::edit::{GridRect, LayerId, TOOLS};
use crate::map::{Grid, Map};

/// Invocations per workgroup side (`@workgroup_size(8, 8, 1)` in every kernel).
const GROUP: u32 = 8;

/// Every kernel the registry uses, symmetrize and the generator's, each once.
fn all_kernels() -> Vec<&'static KernelSpec> {
    let mut out: Vec<&'static KernelSpec> = vec![&SYMMETRIZE, &GENERATE];
    for t in TOOLS {
        let k = t.kernel();
        if !out.iter().any(|o| o.name == k.name) {
            out.push(k);
        }
    }
    out
}

struct Kernel {
    layout: wgpu::BindGroupLayout,
    pipelines: HashMap<&'static str, wgpu::ComputePipeline>,
}

/// A texture made from an image (mask, stamp, original layer), kept while its image is the same.
struct ImageTexture {
    key: usize,
    texture: wgpu::Texture,
}

/// Textures reused from batch to batch, grown when too small.
#[derive(Default)]
struct Scratch {
    params: Option<wgpu::Buffer>,
    source: Option<wgpu::Texture>,
    state: Option<wgpu::Texture>,
    state_copy: Option<wgpu::Texture>,
    mask: Option<ImageTexture>,
    stamp: Option<ImageTexture>,
    original: Option<ImageTexture>,
    white: Option<wgpu::Texture>,
    /// The GPU time of the last batch, when timing is on and the device has timestamps.
    last_gpu_ms: Option<f64>,
}

/// The compiled kernels. Exists only on devices with compute; without it the editor runs the
/// CPU twins and uploads their result.
pub struct BrushKernels {
    kernels: HashMap<&'static str, Kernel>,
    /// Bytes between parameter blocks in the buffer (the device's uniform offset alignment).
    slot_bytes: u64,
    scratch: Mutex<Scratch>,
    /// Time each batch on the GPU with timestamp queries (benchmarks).
    timing: Option<Timing>,
}

/// Timestamp queries around a batch: the start of its first pass, the end of its last.
struct Timing {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    staging: wgpu::Buffer,
    period_ns: f32,
}

fn storage_entry(
    binding: u32,
    format: wgpu::TextureFormat,
    access: wgpu::StorageTextureAccess,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::StorageTexture {
            access,
            format,
            view_dimension: wgpu::TextureViewDimension::D2,
        },
        count: None,
    }
}

fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

fn params_bytes() -> u64 {
    std::mem::size_of::<KernelParams>() as u64
}

impl BrushKernels {
    /// `None` when the device has no compute shaders or read-write storage textures.
    pub fn new(ctx: &GpuContext) -> Option<BrushKernels> {
        if !ctx.compute {
            return None;
        }
        let mut kernels = HashMap::new();
        for spec in all_kernels() {
            kernels.insert(spec.name, Self::build(ctx, spec));
        }
        let align = ctx.limits.min_uniform_buffer_offset_alignment.max(16) as u64;
        Some(BrushKernels {
            kernels,
            slot_bytes: params_bytes().div_ceil(align) * align,
            scratch: Mutex::new(Scratch::default()),
            timing: None,
        })
    }

    /// Times every batch on the GPU from now on (waits for each); `false` when the device has
    /// no timestamp queries.
    pub fn enable_timing(&mut self, ctx: &GpuContext) -> bool {
        if !ctx
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
        {
            return false;
        }
        let buffer = |label, usage| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: 16,
                usage,
                mapped_at_creation: false,
            })
        };
        self.timing = Some(Timing {
            queries: ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("brush timing"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            }),
            resolve: buffer(
                "brush timing",
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            ),
            staging: buffer(
                "brush timing staging",
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            period_ns: ctx.queue.get_timestamp_period(),
        });
        true
    }

    /// The GPU time of the last batch in milliseconds, when timing is on; taken, so a batch
    /// is counted once.
    pub fn take_gpu_ms(&self) -> Option<f64> {
        self.scratch
            .lock()
            .ok()
            .and_then(|mut s| s.last_gpu_ms.take())
    }

    fn build(ctx: &GpuContext, spec: &KernelSpec) -> Kernel {
        let mut entries = vec![
            storage_entry(
                0,
                wgpu::TextureFormat::R32Float,
                wgpu::StorageTextureAccess::ReadWrite,
            ),
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: std::num::NonZeroU64::new(params_bytes()),
                },
                count: None,
            },
            texture_entry(2),
        ];
        for (i, e) in spec.extras.iter().enumerate() {
            let b = 3 + i as u32;
            entries.push(match e {
                // written only (read through its copy): read-write rgba32float is not everywhere
                Extra::State => storage_entry(
                    b,
                    wgpu::TextureFormat::Rgba32Float,
                    wgpu::StorageTextureAccess::WriteOnly,
                ),
                _ => texture_entry(b),
            });
        }
        let layout = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(spec.name),
                entries: &entries,
            });
        let source = spec.module_source();
        let built = super::shared::compute_pipelines(
            ctx,
            &super::shared::ComputeDesc {
                label: spec.name,
                wgsl: &source,
                groups: &[&layout],
                entries: spec.entries,
            },
        );
        let pipelines = spec.entries.iter().copied().zip(built).collect();
        Kernel { layout, pipelines }
    }

    /// Records `dispatches` on `scene`'s layers in order and submits them once. The terrain
    /// shows the result in the next frame; nothing is read back.
    pub fn run(
        &self,
        ctx: &GpuContext,
        scene: &MapScene,
        dispatches: &[Dispatch],
    ) -> Result<(), String> {
        if dispatches.is_empty() {
            return Ok(());
        }
        let mut guard = self
            .scratch
            .lock()
            .map_err(|_| "the kernel scratch is poisoned")?;
        let scratch = &mut *guard;
        // every parameter block at its own slot of one buffer
        let needed = self.slot_bytes * dispatches.len() as u64;
        if scratch.params.as_ref().is_none_or(|b| b.size() < needed) {
            scratch.params = Some(ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("kernel params"),
                size: needed.next_power_of_two().max(self.slot_bytes * 8),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        let mut bytes = vec![0u8; needed as usize];
        for (i, d) in dispatches.iter().enumerate() {
            let at = i * self.slot_bytes as usize;
            bytes[at..at + params_bytes() as usize].copy_from_slice(bytemuck::bytes_of(&d.params));
        }
        let params = scratch.params.clone().expect("made above");
        ctx.queue.write_buffer(&params, 0, &bytes);

        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("brush"),
            });
        let total_passes: u32 = dispatches
            .iter()
            .filter(|d| !d.rect().is_empty())
            .map(|d| d.passes.iter().map(|p| p.repeat).sum::<u32>())
            .sum();
        let mut pass_no = 0u32;
        for (i, d) in dispatches.iter().enumerate() {
            let kernel = self
                .kernels
                .get(d.kernel.name)
                .ok_or_else(|| format!("no GPU kernel named {}", d.kernel.name))?;
            let rect = d.rect();
            if rect.is_empty() {
                continue;
            }
            let src = d.params.src_rect();
            let layer = scene.layer(d.layer);
            let uses = |e| d.kernel.uses(e);
            if uses(Extra::Source) {
                ensure(
                    &mut scratch.source,
                    ctx,
                    src,
                    wgpu::TextureFormat::R32Float,
                    false,
                );
            }
            if uses(Extra::State) {
                ensure(
                    &mut scratch.state,
                    ctx,
                    src,
                    wgpu::TextureFormat::Rgba32Float,
                    true,
                );
                ensure(
                    &mut scratch.state_copy,
                    ctx,
                    src,
                    wgpu::TextureFormat::Rgba32Float,
                    false,
                );
            }
            let mask = image_texture(&mut scratch.mask, ctx, d.mask.as_ref());
            let stamp = image_texture(&mut scratch.stamp, ctx, d.stamp.as_ref());
            let original = image_texture(&mut scratch.original, ctx, d.original.as_ref());
            let white = scratch
                .white
                .get_or_insert_with(|| upload_image(ctx, &Grid::filled(1, 1, 1.0f32), "white"))
                .clone();
            let view = |t: &wgpu::Texture| t.create_view(&Default::default());
            let mut views = vec![view(layer), view(mask.as_ref().unwrap_or(&white))];
            for e in d.kernel.extras {
                let t = match e {
                    Extra::Source => scratch.source.as_ref(),
                    Extra::State => scratch.state.as_ref(),
                    Extra::StateSource => scratch.state_copy.as_ref(),
                    Extra::Stamp => stamp.as_ref(),
                    Extra::Original => original.as_ref(),
                };
                let t = t.ok_or_else(|| {
                    format!(
                        "{} needs its {e:?} binding, which the stroke did not give",
                        d.kernel.name
                    )
                })?;
                views.push(view(t));
            }
            let mut entries = vec![
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&views[0]),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &params,
                        offset: i as u64 * self.slot_bytes,
                        size: std::num::NonZeroU64::new(params_bytes()),
                    }),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&views[1]),
                },
            ];
            for (k, v) in views[2..].iter().enumerate() {
                entries.push(wgpu::BindGroupEntry {
                    binding: 3 + k as u32,
                    resource: wgpu::BindingResource::TextureView(v),
                });
            }
            let bind = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(d.kernel.name),
                layout: &kernel.layout,
                entries: &entries,
            });
            for pass in &d.passes {
                let pipeline = kernel.pipelines.get(pass.entry).ok_or_else(|| {
                    format!("{} has no entry point {}", d.kernel.name, pass.entry)
                })?;
                for _ in 0..pass.repeat {
                    if uses(Extra::Source) {
                        copy_rect(
                            &mut enc,
                            layer,
                            scratch.source.as_ref().expect("made"),
                            src,
                            src.x0,
                            src.z0,
                        );
                    }
                    if uses(Extra::StateSource) {
                        let st = scratch.state.as_ref().expect("made");
                        copy_rect(
                            &mut enc,
                            st,
                            scratch.state_copy.as_ref().expect("made"),
                            src,
                            0,
                            0,
                        );
                    }
                    pass_no += 1;
                    let timestamps =
                        self.timing
                            .as_ref()
                            .map(|t| wgpu::ComputePassTimestampWrites {
                                query_set: &t.queries,
                                beginning_of_pass_write_index: (pass_no == 1).then_some(0),
                                end_of_pass_write_index: (pass_no == total_passes).then_some(1),
                            });
                    let mut cp = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: Some(d.kernel.name),
                        timestamp_writes: timestamps.filter(|t| {
                            t.beginning_of_pass_write_index.is_some()
                                || t.end_of_pass_write_index.is_some()
                        }),
                    });
                    cp.set_pipeline(pipeline);
                    cp.set_bind_group(0, &bind, &[]);
                    cp.dispatch_workgroups(
                        (rect.w as u32).div_ceil(GROUP),
                        (rect.h as u32).div_ceil(GROUP),
                        1,
                    );
                }
            }
        }
        if let Some(t) = &self.timing
            && total_passes > 0
        {
            enc.resolve_query_set(&t.queries, 0..2, &t.resolve, 0);
            enc.copy_buffer_to_buffer(&t.resolve, 0, &t.staging, 0, 16);
        }
        ctx.queue.submit([enc.finish()]);
        if let Some(t) = &self.timing
            && total_passes > 0
        {
            scratch.last_gpu_ms = read_timestamps(ctx, t);
        }
        Ok(())
    }
}

/// Waits for the batch and reads its two timestamps as milliseconds.
fn read_timestamps(ctx: &GpuContext, t: &Timing) -> Option<f64> {
    let slice = t.staging.slice(..);
    slice.map_async(wgpu::MapMode::Read, |_| {});
    ctx.device.poll(wgpu::PollType::wait_indefinitely()).ok()?;
    let ms = {
        let view = slice.get_mapped_range().ok()?;
        let ticks: &[u64] = bytemuck::cast_slice(&view);
        ticks[1].wrapping_sub(ticks[0]) as f64 * t.period_ns as f64 / 1e6
    };
    t.staging.unmap();
    Some(ms)
}

/// Copies `rect`'s size from (x, z) of `from` to the corner of `to`.
fn copy_rect(
    enc: &mut wgpu::CommandEncoder,
    from: &wgpu::Texture,
    to: &wgpu::Texture,
    rect: GridRect,
    x: usize,
    z: usize,
) {
    enc.copy_texture_to_texture(
        wgpu::TexelCopyTextureInfo {
            texture: from,
            mip_level: 0,
            origin: wgpu::Origin3d {
                x: x as u32,
                y: z as u32,
                z: 0,
            },
            aspect: wgpu::TextureAspect::All,
        },
        to.as_image_copy(),
        wgpu::Extent3d {
            width: rect.w as u32,
            height: rect.h as u32,
            depth_or_array_layers: 1,
        },
    );
}

/// Makes sure `slot` holds a texture at least `rect`'s size.
fn ensure(
    slot: &mut Option<wgpu::Texture>,
    ctx: &GpuContext,
    rect: GridRect,
    format: wgpu::TextureFormat,
    storage: bool,
) {
    let fits = slot
        .as_ref()
        .is_some_and(|t| t.width() as usize >= rect.w && t.height() as usize >= rect.h);
    if fits {
        return;
    }
    let grow = |n: usize, old: u32| (n.next_power_of_two().max(64) as u32).max(old);
    let (ow, oh) = slot.as_ref().map_or((0, 0), |t| (t.width(), t.height()));
    let mut usage = wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::COPY_SRC;
    if storage {
        usage |= wgpu::TextureUsages::STORAGE_BINDING;
    }
    let max = ctx.limits.max_texture_dimension_2d;
    let size = (
        grow(rect.w, ow).min(max) as usize,
        grow(rect.h, oh).min(max) as usize,
    );
    *slot = Some(texture_2d(ctx, "kernel scratch", size, format, usage));
}

fn upload_image(ctx: &GpuContext, image: &Grid<f32>, label: &str) -> wgpu::Texture {
    let t = texture_2d(
        ctx,
        label,
        image.dims(),
        wgpu::TextureFormat::R32Float,
        wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
    );
    let (w, h) = image.dims();
    write_texture_rect(ctx, &t, GridRect::new(0, 0, w, h), image.data());
    t
}

/// The texture for `image`, uploaded when it is not the one the slot holds.
fn image_texture(
    slot: &mut Option<ImageTexture>,
    ctx: &GpuContext,
    image: Option<&Arc<Grid<f32>>>,
) -> Option<wgpu::Texture> {
    let image = image?;
    let key = Arc::as_ptr(image) as usize;
    if slot.as_ref().is_none_or(|s| s.key != key) {
        *slot = Some(ImageTexture {
            key,
            texture: upload_image(ctx, image, "brush image"),
        });
    }
    slot.as_ref().map(|s| s.texture.clone())
}

/// A map's layers on the GPU as the editing session sees them: kernels run on them when there
/// are kernels; rectangles go up and come back.
pub struct SceneLayers<'a> {
    pub ctx: &'a GpuContext,
    pub kernels: Option<&'a BrushKernels>,
    pub scene: &'a mut MapScene,
}

impl GpuLayers for SceneLayers<'_> {
    fn can_run(&self) -> bool {
        self.kernels.is_some()
    }

    fn run(&mut self, dispatches: &[Dispatch]) -> Result<(), String> {
        let k = self.kernels.ok_or("this GPU runs no compute kernels")?;
        k.run(self.ctx, self.scene, dispatches)?;
        // the CPU does not know the new heights until the stroke ends: widen the chunks'
        // culling bounds by what the dispatches can move
        let mut raised = Vec::new();
        for d in dispatches {
            match d.layer {
                LayerId::Heights => {
                    let moved: f32 = d.params.active_dabs().iter().map(|a| a.amount.abs()).sum();
                    let (lo, hi) = self.scene.height_range;
                    self.scene.chunks.widen_to(d.rect(), lo, hi, moved);
                    raised.push(d.rect());
                }
                LayerId::TextureMask(k) => {
                    // the rules read their own copy of the masks
                    self.scene.copy_mask_rects(self.ctx, k, &[d.rect()]);
                    raised.push(cells_to_vertices(d.rect()));
                }
                _ => {}
            }
        }
        // the texture layers follow the new heights at once, over the dispatches' rectangles,
        // and so does the pathing overlay
        self.scene.ground.evaluate(self.ctx, &raised);
        let heights: Vec<GridRect> = dispatches
            .iter()
            .filter(|d| d.layer == LayerId::Heights)
            .map(|d| d.rect())
            .collect();
        self.scene.pathing.evaluate_vertices(self.ctx, &heights);
        Ok(())
    }

    fn read_rects(&mut self, layer: LayerId, rects: &[GridRect]) -> Result<Vec<Vec<f32>>, String> {
        self.scene
            .read_rects(self.ctx, layer, rects)
            .map_err(|e| e.to_string())
    }

    fn write_rect(&mut self, layer: LayerId, rect: GridRect, values: &[f32]) {
        self.scene.write_rect(self.ctx, layer, rect, values);
        if layer == LayerId::Heights {
            // the CPU path: the chunks follow the values as they go up
            let grid = Grid::from_vec(rect.w, rect.h, values.to_vec());
            if let Some(g) = grid {
                let (lo, hi) = g.min_max();
                self.scene.chunks.widen_to(rect, lo, hi, 0.0);
            }
        }
    }

    fn changed(&mut self, map: &Map, layer: LayerId, rect: GridRect) {
        let scene = &mut *self.scene;
        let inputs = |s: &MapScene| {
            (
                s.layer(LayerId::Heights).clone(),
                s.layer(LayerId::Metal).clone(),
                s.masks.clone(),
            )
        };
        match layer {
            LayerId::Heights => {
                scene
                    .chunks
                    .refresh(&map.heights, rect.x0, rect.z0, rect.w, rect.h);
                // the document has the heights now: the shore too, and devices without compute
                let (h, m, k) = inputs(scene);
                scene
                    .ground
                    .heights_changed(self.ctx, map, rect, &h, &m, &k);
                scene.pathing.heights_changed(self.ctx, map, rect);
            }
            LayerId::Metal | LayerId::TextureMask(_) => {
                let (h, m, k) = inputs(scene);
                let r = cells_to_vertices(rect);
                scene.ground.heights_changed(self.ctx, map, r, &h, &m, &k);
            }
            _ => {}
        }
    }
}

/// The heightmap vertices a rectangle of metal cells (16 elmos) reaches through the rules'
/// bilinear reading between cell centres: cell c, vertices 2c - 1 ..= 2c + 3.
fn cells_to_vertices(rect: GridRect) -> GridRect {
    let (x0, z0) = (
        (2 * rect.x0).saturating_sub(1),
        (2 * rect.z0).saturating_sub(1),
    );
    GridRect::new(x0, z0, 2 * rect.w + 3, 2 * rect.h + 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file under `shaders/` is used: it is part of the module a kernel the GPU builds
    /// compiles (the prelude, the dab loop or the kernel's own WGSL), or a render pipeline of
    /// `gpu/` includes it by name. A file nothing uses (or a new one not wired in) fails here.
    #[test]
    fn every_shader_file_is_used() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let kernels: Vec<String> = all_kernels().iter().map(|k| k.module_source()).collect();
        // the names the gpu module's sources pass to include_str!
        let marker = concat!("include_str!(\"../../", "shaders/");
        let mut included = Vec::new();
        for entry in std::fs::read_dir(root.join("src/gpu")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for part in text.split(marker).skip(1) {
                    if let Some(name) = part.split('"').next() {
                        included.push(name.to_string());
                    }
                }
            }
        }
        let mut files = Vec::new();
        let mut dirs = vec![root.join("shaders")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "wgsl") {
                    files.push(path);
                }
            }
        }
        assert!(files.len() > 10, "{} shader files", files.len());
        let unused: Vec<String> = files
            .iter()
            .filter_map(|path| {
                let name = path.strip_prefix(root.join("shaders")).unwrap();
                let name = name.to_string_lossy().replace('\\', "/");
                let text = std::fs::read_to_string(path).unwrap();
                let in_kernel = kernels.iter().any(|k| k.contains(&text));
                (!in_kernel && !included.contains(&name)).then_some(name)
            })
            .collect();
        assert!(unused.is_empty(), "shaders nothing uses: {unused:?}");
    }
}
