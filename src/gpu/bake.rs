//! The export bake on the GPU: the texture layers composited over the map's picture into the
//! 8 texels a square the `.smt` carries (`shaders/ground_bake.wgsl` after `ground_rules.wgsl`),
//! in chunks of rows so a 32x32 map's 16384^2 texels fit any device; its CPU twin is
//! `map::ground_bake::bake`, and the two agree within 1 level a channel (WGSL rounds halves
//! to even, Rust away from zero).
//!
//! Memory at 32x32 with 16 layers: the heights 2049^2 x 4 = 16 MiB, metal 4 MiB, the masks
//! 16 x 1024^2 x 4 = 64 MiB, the shore 16 MiB, the materials 16 x 256^2 x 4 = 4 MiB (built-ins;
//! a picture adds its own size), a chunk of at most [`CHUNK_BYTES`] = 64 MiB in a storage
//! buffer and as much again to read it back: about 230 MiB of GPU memory. On the CPU, beyond
//! the picture and the baked result, a chunk (64 MiB) and the masks as floats while uploaded
//! (64 MiB at most).

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::ground_rules::{
    RULES_WGSL, RuleBuffers, mask_array_texture, mask_array_view, rule_inputs_group,
    rule_inputs_layout, shore_texture,
};
use super::shared::{compute_pipeline, texture_2d, write_texture_rect};
use super::{GpuContext, GpuError};
use crate::edit::GridRect;
use crate::map::ground_layers::{Material, MaterialImage};
use crate::map::{GroundTexture, Map};

/// At most this many bytes of texels a chunk.
pub const CHUNK_BYTES: usize = 64 << 20;

/// One layer's material; `BakeMaterial` in the WGSL.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
struct BakeMaterial {
    offset: u32,
    width: u32,
    height: u32,
    kind: u32,
    colour: [f32; 4],
    params: [f32; 4],
}

/// `BakeChunk` in the WGSL.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
struct BakeChunk {
    width: u32,
    first_row: u32,
    rows: u32,
    layers: u32,
}

/// The baked texture, made on the GPU: the picture itself when the map has no layers (no GPU
/// work). `images` are [`crate::map::ground_layers::material_images`]' pictures.
pub fn bake_on_gpu(
    ctx: &GpuContext,
    map: &Map,
    images: &[Option<MaterialImage>],
) -> Result<GroundTexture, GpuError> {
    let tw = map.texture.width();
    let limit = (ctx.limits.max_storage_buffer_binding_size as usize)
        .min(ctx.limits.max_buffer_size as usize)
        .min(CHUNK_BYTES);
    bake_on_gpu_in_chunks(ctx, map, images, (limit / (tw * 4)).max(1))
}

/// [`bake_on_gpu`] with `rows` texel rows a chunk (the tests force small chunks).
pub fn bake_on_gpu_in_chunks(
    ctx: &GpuContext,
    map: &Map,
    images: &[Option<MaterialImage>],
    rows: usize,
) -> Result<GroundTexture, GpuError> {
    let layers = &map.texture_layers;
    if layers.is_empty() {
        return Ok(map.texture.clone());
    }
    if !ctx.compute {
        return Err(GpuError::Device("this GPU runs no compute shaders".into()));
    }
    let (tw, th) = (map.texture.width(), map.texture.height());
    let rows = rows.clamp(1, th);
    // the inputs the rules read: our own copies of the document's layers
    let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
    let upload = |label, g: &crate::map::Grid<f32>| {
        let t = texture_2d(ctx, label, g.dims(), wgpu::TextureFormat::R32Float, sampled);
        let (w, h) = g.dims();
        write_texture_rect(ctx, &t, GridRect::new(0, 0, w, h), g.data());
        t
    };
    let heights = upload("bake heights", &map.heights);
    let metal_f: Vec<f32> = map.metal.data().iter().map(|&b| b as f32).collect();
    let (mw, mh) = map.metal.dims();
    let metal = upload(
        "bake metal",
        &crate::map::Grid::from_vec(mw, mh, metal_f).expect("the metal's own size"),
    );
    let masks = mask_array_texture(ctx, map, false);
    let shore = shore_texture(ctx, map);
    let rules = RuleBuffers::new(ctx, map);
    let inputs_layout = rule_inputs_layout(ctx);
    let view = |t: &wgpu::Texture| t.create_view(&Default::default());
    let inputs = rule_inputs_group(
        ctx,
        &inputs_layout,
        &view(&heights),
        &view(&metal),
        &mask_array_view(&masks),
        &view(&shore),
        &rules,
    );

    // the materials, packed
    let mut texels: Vec<u32> = Vec::new();
    let mut materials = Vec::with_capacity(layers.len());
    for (l, img) in layers.iter().zip(images) {
        let mut m = BakeMaterial {
            params: [1.0, l.opacity, 0.0, 0.0],
            ..Zeroable::zeroed()
        };
        match (&l.material, img) {
            (Material::Solid { color }, _) => {
                m.colour = [color[0] as f32, color[1] as f32, color[2] as f32, 0.0];
            }
            (
                Material::Builtin {
                    scale_elmos, tint, ..
                }
                | Material::Picture {
                    scale_elmos, tint, ..
                },
                Some(img),
            ) => {
                m.kind = 1;
                m.offset = texels.len() as u32;
                m.width = img.width as u32;
                m.height = img.height as u32;
                m.colour = [tint[0], tint[1], tint[2], 0.0];
                m.params[0] = *scale_elmos;
                texels.extend(
                    img.rgba
                        .chunks_exact(4)
                        .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]])),
                );
            }
            (_, None) => m.kind = 2,
        }
        materials.push(m);
    }
    if texels.is_empty() {
        texels.push(0);
    }
    let storage = |label, bytes: &[u8]| {
        ctx.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytes,
                usage: wgpu::BufferUsages::STORAGE,
            })
    };
    let texel_buf = storage("bake material texels", bytemuck::cast_slice(&texels));
    let material_buf = storage("bake materials", bytemuck::cast_slice(&materials));

    let chunk_bytes = (rows * tw * 4) as u64;
    let work = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bake chunk"),
        size: chunk_bytes,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bake readback"),
        size: chunk_bytes,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let chunk_buf = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bake chunk info"),
        size: std::mem::size_of::<BakeChunk>() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let read = wgpu::BufferBindingType::Storage { read_only: true };
    let own_layout = ctx
        .device
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("bake"),
            entries: &[
                entry(0, wgpu::BufferBindingType::Storage { read_only: false }),
                entry(1, read),
                entry(2, read),
                entry(3, wgpu::BufferBindingType::Uniform),
            ],
        });
    let own = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("bake"),
        layout: &own_layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: work.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: texel_buf.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: material_buf.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 3,
                resource: chunk_buf.as_entire_binding(),
            },
        ],
    });
    let source = format!(
        "{RULES_WGSL}\n{}",
        include_str!("../../shaders/ground_bake.wgsl")
    );
    let pipeline = compute_pipeline(ctx, "bake", &source, &[&own_layout, &inputs_layout]);

    let mut out = map.texture.rgba().to_vec();
    let mut first = 0usize;
    while first < th {
        let n = rows.min(th - first);
        let bytes = n * tw * 4;
        let range = first * tw * 4..first * tw * 4 + bytes;
        ctx.queue.write_buffer(&work, 0, &out[range.clone()]);
        let info = BakeChunk {
            width: tw as u32,
            first_row: first as u32,
            rows: n as u32,
            layers: layers.len() as u32,
        };
        ctx.queue
            .write_buffer(&chunk_buf, 0, bytemuck::bytes_of(&info));
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("bake"),
            });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("bake"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &own, &[]);
            pass.set_bind_group(1, &inputs, &[]);
            pass.dispatch_workgroups((tw as u32).div_ceil(8), (n as u32).div_ceil(8), 1);
        }
        enc.copy_buffer_to_buffer(&work, 0, &readback, 0, bytes as u64);
        ctx.queue.submit([enc.finish()]);
        let slice = readback.slice(..bytes as u64);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        ctx.wait();
        rx.recv()
            .map_err(|e| GpuError::Readback(e.to_string()))?
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        {
            let data = slice
                .get_mapped_range()
                .map_err(|e| GpuError::Readback(e.to_string()))?;
            out[range].copy_from_slice(&data);
        }
        readback.unmap();
        first += n;
    }
    Ok(GroundTexture::from_rgba(tw, th, out).expect("the picture's own size"))
}

/// A headless GPU that runs compute, made once for the process, or why there is none.
pub fn shared_headless() -> Result<&'static GpuContext, String> {
    static CTX: std::sync::OnceLock<Result<GpuContext, String>> = std::sync::OnceLock::new();
    let ctx = CTX
        .get_or_init(|| GpuContext::headless().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| e.clone())?;
    if ctx.compute {
        Ok(ctx)
    } else {
        Err(format!("{} runs no compute shaders", ctx.describe()))
    }
}

/// The compile's baker (`CompileOptions::baker`) on [`shared_headless`]'s GPU.
pub fn bake_with_headless_gpu(
    map: &Map,
    images: &[Option<MaterialImage>],
) -> Result<GroundTexture, String> {
    bake_on_gpu(shared_headless()?, map, images).map_err(|e| e.to_string())
}

/// The baker for `map`'s texture layers: the headless GPU's when one runs compute, else `None`
/// (the CPU's, the same texture within a level a channel); `None` too without layers.
pub fn baker_for(map: &crate::map::Map) -> Option<crate::map::ground_bake::Baker> {
    // a CPU adapter (lavapipe) bakes slower than the CPU twin
    if map.texture_layers.is_empty() {
        return None;
    }
    shared_headless()
        .ok()
        .filter(|c| !c.is_cpu())
        .map(headless_baker)
}

/// The compile's baker on `ctx` (the one [`shared_headless`] gives).
pub fn headless_baker(ctx: &GpuContext) -> crate::map::ground_bake::Baker {
    crate::map::ground_bake::Baker {
        name: ctx.describe(),
        bake: bake_with_headless_gpu,
    }
}
