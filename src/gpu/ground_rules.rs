//! The texture layers' rules on the GPU: the packed rule block `shaders/ground_rules.wgsl`
//! reads (its CPU twin is `map::ground_layers::layer_weight`), the bind group layout of its
//! inputs (`@group(1)`: heights, metal, the painted masks, the shore distance, the rules), and
//! the textures those inputs need beyond the scene's layers (the masks as one array, one slice
//! per layer in stack order; the shore distance). Used by the live rule evaluation
//! (`gpu::ground_layers`) and the export bake (`gpu::bake`).

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::GpuContext;
use super::shared::texture_2d;
use crate::map::ground_layers::{Bend, MASK_NEUTRAL, TextureLayer, shore_distance};
use crate::map::{Grid, Map};

/// The WGSL of the rules, put in front of a pass that evaluates them.
pub const RULES_WGSL: &str = include_str!("../../shaders/ground_rules.wgsl");

const RULE_SLOPE: u32 = 1;
const RULE_HEIGHT: u32 = 2;
const RULE_CURVATURE: u32 = 4;
const RULE_NEAR_WATER: u32 = 8;
const RULE_UNDER_METAL: u32 = 16;
const RULE_NOISE: u32 = 32;
const RULE_MASK: u32 = 64;
const RULE_VALLEYS: u32 = 128;

/// One layer's rules; `LayerRule` in `shaders/ground_rules.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct LayerRule {
    pub flags: u32,
    pub noise_seed: u32,
    pub mask_slice: u32,
    pub _pad: u32,
    pub slope_deg: [f32; 4],
    pub height_elmos: [f32; 4],
    pub curvature_elmos: [f32; 4],
    pub near_water_elmos: [f32; 4],
    pub noise: [f32; 4],
}

/// What every rule reads of the map as a whole; `RuleGlobals` in the WGSL.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct RuleGlobals {
    pub vertices: [u32; 2],
    pub has_shore: u32,
    pub layer_count: u32,
}

/// The rules of `layers`, bottom first; layer `k` reads mask slice `k` (an unpainted layer's
/// slice holds [`MASK_NEUTRAL`], which adds nothing, as no mask does on the CPU).
pub fn pack_rules(layers: &[TextureLayer]) -> Vec<LayerRule> {
    layers
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let r = &l.rules;
            let mut out = LayerRule {
                flags: RULE_MASK,
                mask_slice: k as u32,
                ..Zeroable::zeroed()
            };
            if let Some(b) = r.slope_deg {
                out.flags |= RULE_SLOPE;
                out.slope_deg = [b.min, b.max, b.soft, 0.0];
            }
            if let Some(b) = r.height_elmos {
                out.flags |= RULE_HEIGHT;
                out.height_elmos = [b.min, b.max, b.soft, 0.0];
            }
            if let Some(c) = r.curvature {
                out.flags |= RULE_CURVATURE;
                if c.bend == Bend::Valleys {
                    out.flags |= RULE_VALLEYS;
                }
                out.curvature_elmos = [c.min_elmos, c.soft_elmos, 0.0, 0.0];
            }
            if let Some(b) = r.near_water {
                out.flags |= RULE_NEAR_WATER;
                out.near_water_elmos = [b.max, b.soft, 0.0, 0.0];
            }
            if r.under_metal {
                out.flags |= RULE_UNDER_METAL;
            }
            if let Some(n) = r.noise {
                out.flags |= RULE_NOISE;
                out.noise_seed = n.seed;
                out.noise = [n.scale_elmos, n.amount, 0.0, 0.0];
            }
            out
        })
        .collect()
}

/// Whether any vertex of `map` is under water (y < 0): the shore rule has a shore to measure.
pub fn map_has_shore(map: &Map) -> bool {
    map.heights.data().iter().any(|&v| v < 0.0)
}

/// The layout of `@group(1)` in `shaders/ground_rules.wgsl`, visible to compute shaders.
pub fn rule_inputs_layout(ctx: &GpuContext) -> wgpu::BindGroupLayout {
    let cs = wgpu::ShaderStages::COMPUTE;
    let tex = |binding, dim| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: cs,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: dim,
            multisampled: false,
        },
        count: None,
    };
    let buf = |binding, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: cs,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let d2 = wgpu::TextureViewDimension::D2;
    ctx.device
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ground rule inputs"),
            entries: &[
                tex(0, d2),
                tex(1, d2),
                tex(2, wgpu::TextureViewDimension::D2Array),
                tex(3, d2),
                buf(4, wgpu::BufferBindingType::Storage { read_only: true }),
                buf(5, wgpu::BufferBindingType::Uniform),
            ],
        })
}

/// The painted masks as one `r32float` array texture (bytes as floats), one slice per layer in
/// stack order and at least one; `storage` when the texture brush writes it.
pub fn mask_array_texture(ctx: &GpuContext, map: &Map, storage: bool) -> wgpu::Texture {
    let (w, h) = map.metal.dims();
    let slices = map.texture_layers.len().max(1);
    let mut usage = wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::COPY_SRC;
    if storage {
        usage |= wgpu::TextureUsages::STORAGE_BINDING;
    }
    let tex = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("texture layer masks"),
        size: wgpu::Extent3d {
            width: w as u32,
            height: h as u32,
            depth_or_array_layers: slices as u32,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R32Float,
        usage,
        view_formats: &[],
    });
    for k in 0..slices {
        let values: Vec<f32> = match map.texture_layers.get(k).and_then(|l| l.mask.as_ref()) {
            Some(m) => m.data().iter().map(|&b| b as f32).collect(),
            None => vec![MASK_NEUTRAL as f32; w * h],
        };
        write_slice(ctx, &tex, k as u32, (w, h), &values);
    }
    tex
}

/// Writes one whole slice of an `r32float` array texture.
pub fn write_slice(
    ctx: &GpuContext,
    tex: &wgpu::Texture,
    slice: u32,
    (w, h): (usize, usize),
    values: &[f32],
) {
    super::shared::write_f32_rect(
        ctx,
        tex,
        slice,
        crate::edit::GridRect::new(0, 0, w, h),
        values,
    );
}

/// The distance to the shore per vertex (`map::ground_layers::shore_distance`, made on the
/// CPU), or a 1 x 1 texture when the map has no water (the rule then gives 0).
pub fn shore_texture(ctx: &GpuContext, map: &Map) -> wgpu::Texture {
    let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
    let grid = if map_has_shore(map) {
        shore_distance(&map.heights)
    } else {
        Grid::from_vec(1, 1, vec![f32::MAX]).expect("one value")
    };
    let tex = texture_2d(
        ctx,
        "shore distance",
        grid.dims(),
        wgpu::TextureFormat::R32Float,
        usage,
    );
    let (w, h) = grid.dims();
    super::shared::write_texture_rect(
        ctx,
        &tex,
        crate::edit::GridRect::new(0, 0, w, h),
        grid.data(),
    );
    tex
}

/// The rule block and globals of a map's stack, as buffers.
pub struct RuleBuffers {
    pub layers: wgpu::Buffer,
    pub globals: wgpu::Buffer,
}

impl RuleBuffers {
    pub fn new(ctx: &GpuContext, map: &Map) -> RuleBuffers {
        let mut rules = pack_rules(&map.texture_layers);
        if rules.is_empty() {
            // a storage binding may not be empty
            rules.push(Zeroable::zeroed());
        }
        let (w, h) = map.heights.dims();
        let globals = RuleGlobals {
            vertices: [w as u32, h as u32],
            has_shore: map_has_shore(map) as u32,
            layer_count: map.texture_layers.len() as u32,
        };
        RuleBuffers {
            layers: ctx
                .device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("ground rules"),
                    contents: bytemuck::cast_slice(&rules),
                    usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                }),
            globals: ctx
                .device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("ground rule globals"),
                    contents: bytemuck::bytes_of(&globals),
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                }),
        }
    }
}

/// The inputs' bind group: `heights` and `metal` (r32float 2D views: the scene's layers or
/// the bake's own copies), the masks (a 2D-array view of [`mask_array_texture`]), the shore.
pub fn rule_inputs_group(
    ctx: &GpuContext,
    layout: &wgpu::BindGroupLayout,
    heights: &wgpu::TextureView,
    metal: &wgpu::TextureView,
    masks: &wgpu::TextureView,
    shore: &wgpu::TextureView,
    buffers: &RuleBuffers,
) -> wgpu::BindGroup {
    let tex = |binding, view| wgpu::BindGroupEntry {
        binding,
        resource: wgpu::BindingResource::TextureView(view),
    };
    ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("ground rule inputs"),
        layout,
        entries: &[
            tex(0, heights),
            tex(1, metal),
            tex(2, masks),
            tex(3, shore),
            wgpu::BindGroupEntry {
                binding: 4,
                resource: buffers.layers.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 5,
                resource: buffers.globals.as_entire_binding(),
            },
        ],
    })
}

/// A 2D-array view of every slice of `masks`.
pub fn mask_array_view(masks: &wgpu::Texture) -> wgpu::TextureView {
    masks.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        ..Default::default()
    })
}
