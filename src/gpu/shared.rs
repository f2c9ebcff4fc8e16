//! What every pass shares, below them all: the formats of the pictures drawn into, the
//! per-frame uniform block, the bind group layouts and the sampler the passes and the scene
//! bind with, shader assembly, and texture helpers. The passes (terrain, grass, water) and the
//! scene depend on this module; the renderer depends on them; nothing here depends on a pass.

use bytemuck::{Pod, Zeroable};

use super::GpuContext;
use crate::edit::GridRect;

/// The colour format the renderer writes: gamma-space bytes, as the engine computes its ground
/// colour (lighting on the texture's bytes, not in linear light). That is what a PNG holds,
/// and what egui expects of a texture (it samples `Rgba8Unorm` and treats the values as gamma).
pub const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The per-frame uniform block; `Frame` in `shaders/common.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct FrameUniform {
    pub view_proj: [[f32; 4]; 4],
    pub camera_pos: [f32; 4],
    pub sun_dir: [f32; 4],
    pub ambient: [f32; 4],
    pub diffuse: [f32; 4],
    pub specular: [f32; 4],
    pub map_size: [f32; 4],
    pub water: [f32; 4],
    pub sky: [f32; 4],
    pub overlay: [f32; 4],
    pub overlay_params: [f32; 4],
    pub cursor: [f32; 4],
    pub viewport: [f32; 4],
    pub water_absorb: [f32; 4],
    pub water_base: [f32; 4],
    pub water_min: [f32; 4],
    /// x: the pathing overlay's opacity (0 off); y: 1 when a start's region is flooded.
    pub pathing: [f32; 4],
}

/// The bind group layouts of the scene (`@group(0)`: frame, layers, palette, sampler, the
/// pathing overlay), of a
/// ground tile, of the grass, of the water and of a feature model, and the samplers they share.
pub struct Layouts {
    pub scene: wgpu::BindGroupLayout,
    pub tile: wgpu::BindGroupLayout,
    pub grass: wgpu::BindGroupLayout,
    pub water: wgpu::BindGroupLayout,
    /// The texture layers the terrain pass draws (`@group(2)`: weights, materials, detail
    /// normals as 2D arrays, the look, a repeating sampler).
    pub ground_layers: wgpu::BindGroupLayout,
    /// A feature model's texture and sampler (`@group(1)` of `shaders/features.wgsl`).
    pub feature_model: wgpu::BindGroupLayout,
    pub sampler: wgpu::Sampler,
    /// Linear, repeating, mipmapped: tiled materials.
    pub repeat_sampler: wgpu::Sampler,
}

impl Layouts {
    pub fn new(ctx: &GpuContext) -> Layouts {
        let vf = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let fs = wgpu::ShaderStages::FRAGMENT;
        let scene = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("scene"),
                entries: &[
                    uniform_entry(0, vf),
                    // the heights: the water's fragments read the depth under them
                    texture_entry(1, vf, wgpu::TextureSampleType::Float { filterable: false }),
                    texture_entry(2, fs, wgpu::TextureSampleType::Float { filterable: false }),
                    // the grass bytes: the grass pipeline reads them per patch
                    texture_entry(3, vf, wgpu::TextureSampleType::Float { filterable: false }),
                    texture_entry(4, fs, wgpu::TextureSampleType::Float { filterable: false }),
                    uniform_entry(5, fs),
                    wgpu::BindGroupLayoutEntry {
                        binding: 6,
                        visibility: fs,
                        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                        count: None,
                    },
                    // the pathing overlay's codes and the flooded region (`gpu::pathing`)
                    texture_entry(7, fs, wgpu::TextureSampleType::Float { filterable: false }),
                    texture_entry(8, fs, wgpu::TextureSampleType::Float { filterable: true }),
                ],
            });
        let tile = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("ground tile"),
                entries: &[
                    texture_entry(0, fs, wgpu::TextureSampleType::Float { filterable: true }),
                    uniform_entry(1, fs),
                ],
            });
        let grass = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("grass"),
                entries: &[
                    uniform_entry(0, vf),
                    texture_entry(1, fs, wgpu::TextureSampleType::Float { filterable: true }),
                    texture_entry(
                        2,
                        wgpu::ShaderStages::VERTEX,
                        wgpu::TextureSampleType::Float { filterable: true },
                    ),
                    wgpu::BindGroupLayoutEntry {
                        binding: 3,
                        visibility: vf,
                        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                        count: None,
                    },
                ],
            });
        let filterable = wgpu::TextureSampleType::Float { filterable: true };
        let water = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("water"),
                entries: &[
                    uniform_entry(0, fs),
                    texture_entry(1, fs, filterable),
                    texture_entry(2, fs, filterable),
                    texture_entry(3, fs, filterable),
                    texture_entry(4, fs, filterable),
                    wgpu::BindGroupLayoutEntry {
                        binding: 5,
                        visibility: fs,
                        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                        count: None,
                    },
                ],
            });
        let anisotropy = sampler_anisotropy(ctx.is_cpu());
        let sampler = ctx.device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("ground"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            anisotropy_clamp: anisotropy,
            ..Default::default()
        });
        let array = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: fs,
            ty: wgpu::BindingType::Texture {
                sample_type: filterable,
                view_dimension: wgpu::TextureViewDimension::D2Array,
                multisampled: false,
            },
            count: None,
        };
        let ground_layers = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("ground layers"),
                entries: &[
                    array(0),
                    array(1),
                    array(2),
                    uniform_entry(3, fs),
                    wgpu::BindGroupLayoutEntry {
                        binding: 4,
                        visibility: fs,
                        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                        count: None,
                    },
                ],
            });
        let feature_model = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("feature model"),
                entries: &[
                    texture_entry(0, fs, filterable),
                    wgpu::BindGroupLayoutEntry {
                        binding: 1,
                        visibility: fs,
                        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                        count: None,
                    },
                ],
            });
        let repeat_sampler = ctx.device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("repeating"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            anisotropy_clamp: anisotropy,
            ..Default::default()
        });
        Layouts {
            scene,
            tile,
            grass,
            water,
            ground_layers,
            feature_model,
            sampler,
            repeat_sampler,
        }
    }
}

/// The anisotropic filtering the ground's samplers ask for: 8 on a GPU; none on a CPU adapter,
/// where llvmpipe's anisotropic sampling made one 1920x1080 grazing frame take 21 s instead of
/// 2.5 s (any clamp above 1, measured on the starter map), and the grazing views it sharpens
/// are the ones it slows.
pub fn sampler_anisotropy(cpu_adapter: bool) -> u16 {
    if cpu_adapter { 1 } else { 8 }
}

/// A render shader: `shaders/common.wgsl` (the frame block, shared functions) before `body`.
pub fn shader(ctx: &GpuContext, label: &str, body: &str) -> wgpu::ShaderModule {
    let source = format!("{}\n{}", include_str!("../../shaders/common.wgsl"), body);
    ctx.device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        })
}

fn texture_entry(
    binding: u32,
    vis: wgpu::ShaderStages,
    sample_type: wgpu::TextureSampleType,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: vis,
        ty: wgpu::BindingType::Texture {
            sample_type,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

fn uniform_entry(binding: u32, vis: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: vis,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A plain 2D texture of one mip level.
pub fn texture_2d(
    ctx: &GpuContext,
    label: &str,
    (w, h): (usize, usize),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: w as u32,
            height: h as u32,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// A compute shader as the GPU modules describe it: its WGSL, the bind group layouts by group
/// number, and the entry points to build.
pub struct ComputeDesc<'a> {
    pub label: &'a str,
    pub wgsl: &'a str,
    pub groups: &'a [&'a wgpu::BindGroupLayout],
    pub entries: &'a [&'a str],
}

/// The one place compute pipelines are built: one module and one layout for `desc`, a
/// pipeline per entry point, in the order given.
pub fn compute_pipelines(ctx: &GpuContext, desc: &ComputeDesc) -> Vec<wgpu::ComputePipeline> {
    let groups: Vec<Option<&wgpu::BindGroupLayout>> =
        desc.groups.iter().map(|g| Some(*g)).collect();
    let layout = ctx
        .device
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(desc.label),
            bind_group_layouts: &groups,
            immediate_size: 0,
        });
    let module = ctx
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(desc.label),
            source: wgpu::ShaderSource::Wgsl(desc.wgsl.into()),
        });
    desc.entries
        .iter()
        .map(|&entry| {
            ctx.device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(desc.label),
                    layout: Some(&layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                })
        })
        .collect()
}

/// [`compute_pipelines`] for a shader with the one entry point `main`.
pub fn compute_pipeline(
    ctx: &GpuContext,
    label: &str,
    wgsl: &str,
    groups: &[&wgpu::BindGroupLayout],
) -> wgpu::ComputePipeline {
    let desc = ComputeDesc {
        label,
        wgsl,
        groups,
        entries: &["main"],
    };
    compute_pipelines(ctx, &desc).remove(0)
}

/// A bind group layout whose bindings (number and type) the compute stage sees.
pub fn compute_layout(
    ctx: &GpuContext,
    label: &str,
    bindings: &[(u32, wgpu::BindingType)],
) -> wgpu::BindGroupLayout {
    let entries: Vec<wgpu::BindGroupLayoutEntry> = bindings
        .iter()
        .map(|&(binding, ty)| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty,
            count: None,
        })
        .collect();
    ctx.device
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(label),
            entries: &entries,
        })
}

/// Where [`write_texels`] writes: a mip level, the first texel and the array slice.
#[derive(Clone, Copy, Debug, Default)]
pub struct TexelsAt {
    pub mip: u32,
    pub x: u32,
    pub y: u32,
    pub slice: u32,
}

/// The one texel upload: `bytes` (rows of `w` texels of `texel_bytes` each, `h` rows) written
/// at `at` of `tex`. Nothing for an empty rectangle.
pub fn write_texels(
    ctx: &GpuContext,
    tex: &wgpu::Texture,
    at: TexelsAt,
    (w, h): (usize, usize),
    texel_bytes: usize,
    bytes: &[u8],
) {
    if w == 0 || h == 0 {
        return;
    }
    debug_assert_eq!(bytes.len(), w * h * texel_bytes);
    ctx.queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: tex,
            mip_level: at.mip,
            origin: wgpu::Origin3d {
                x: at.x,
                y: at.y,
                z: at.slice,
            },
            aspect: wgpu::TextureAspect::All,
        },
        bytes,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some((w * texel_bytes) as u32),
            rows_per_image: Some(h as u32),
        },
        wgpu::Extent3d {
            width: w as u32,
            height: h as u32,
            depth_or_array_layers: 1,
        },
    );
}

/// Writes `values` (f32 texels, row by row) into `rect` of slice `slice` of an `r32float`
/// texture (slice 0 of a plain one).
pub fn write_f32_rect(
    ctx: &GpuContext,
    tex: &wgpu::Texture,
    slice: u32,
    rect: GridRect,
    values: &[f32],
) {
    debug_assert_eq!(values.len(), rect.area());
    let at = TexelsAt {
        x: rect.x0 as u32,
        y: rect.z0 as u32,
        slice,
        ..TexelsAt::default()
    };
    write_texels(
        ctx,
        tex,
        at,
        (rect.w, rect.h),
        4,
        bytemuck::cast_slice(values),
    );
}

/// Writes `values` (f32 texels, row by row) into `rect` of an `r32float` texture.
pub fn write_texture_rect(ctx: &GpuContext, tex: &wgpu::Texture, rect: GridRect, values: &[f32]) {
    write_f32_rect(ctx, tex, 0, rect, values);
}

/// Halves an RGBA8 image (2 x 2 box filter); `w` and `h` are even or 1.
pub(super) fn downsample(src: &[u8], w: usize, h: usize) -> (Vec<u8>, usize, usize) {
    let out = crate::formats::bc1::downsample_2x(src, w, h);
    (out, (w / 2).max(1), (h / 2).max(1))
}

/// An RGBA8 texture with its full mip chain, halved on the CPU (the grass blades).
pub fn texture_with_mips(
    ctx: &GpuContext,
    label: &str,
    rgba: &[u8],
    (w, h): (usize, usize),
) -> wgpu::Texture {
    let mips = (w.max(h) as u32).ilog2() + 1;
    let tex = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: w as u32,
            height: h as u32,
            depth_or_array_layers: 1,
        },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let (mut level, mut lw, mut lh) = (rgba.to_vec(), w, h);
    for mip in 0..mips {
        write_level(ctx, &tex, mip, &level, lw as u32, lh as u32);
        if mip + 1 < mips {
            (level, lw, lh) = downsample(&level, lw, lh);
        }
    }
    tex
}

/// Writes a whole RGBA8 mip level.
pub(super) fn write_level(
    ctx: &GpuContext,
    tex: &wgpu::Texture,
    mip: u32,
    data: &[u8],
    w: u32,
    h: u32,
) {
    let at = TexelsAt {
        mip,
        ..TexelsAt::default()
    };
    write_texels(ctx, tex, at, (w as usize, h as usize), 4, data);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downsampling_averages_blocks() {
        let src: Vec<u8> = [
            [0, 0, 0, 255],
            [100, 0, 0, 255],
            [0, 200, 0, 255],
            [0, 0, 40, 255],
        ]
        .concat();
        let (d, w, h) = downsample(&src, 2, 2);
        assert_eq!((w, h), (1, 1));
        assert_eq!(d, vec![25, 50, 10, 255]);
    }

    #[test]
    fn a_cpu_adapter_samples_without_anisotropy() {
        assert_eq!(sampler_anisotropy(true), 1);
        assert!(sampler_anisotropy(false) > 1);
        // what a fake llvmpipe and a fake H200 report
        let cpu = super::super::context::is_cpu_adapter(
            "llvmpipe (LLVM 15.0.6, 256 bits)",
            wgpu::DeviceType::Cpu,
        );
        let gpu =
            super::super::context::is_cpu_adapter("NVIDIA H200", wgpu::DeviceType::DiscreteGpu);
        assert_eq!(sampler_anisotropy(cpu), 1);
        assert_eq!(sampler_anisotropy(gpu), 8);
    }
}

#[cfg(test)]
mod layering {
    use std::collections::{BTreeMap, BTreeSet};

    /// The sibling modules of `src/gpu/` each file names (`super::NAME`, `super::{A, NAME}`),
    /// outside its tests.
    fn imports() -> BTreeMap<String, BTreeSet<String>> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gpu");
        let mut sources = BTreeMap::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "rs") && p.file_stem().unwrap() != "mod" {
                let text = std::fs::read_to_string(&p).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap().to_string();
                sources.insert(p.file_stem().unwrap().to_string_lossy().into_owned(), code);
            }
        }
        let stems: BTreeSet<String> = sources.keys().cloned().collect();
        let mut out = BTreeMap::new();
        for (name, code) in &sources {
            let mut names = BTreeSet::new();
            for part in code.split("super::").skip(1) {
                let words: Vec<&str> = if let Some(group) = part.strip_prefix('{') {
                    group.split('}').next().unwrap().split(',').collect()
                } else {
                    vec![part]
                };
                for w in words {
                    let w: String = w
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if stems.contains(&w) && w != *name {
                        names.insert(w);
                    }
                }
            }
            out.insert(name.clone(), names);
        }
        out
    }

    #[test]
    fn the_gpu_modules_import_each_other_in_no_circle_and_shared_from_none() {
        let graph = imports();
        assert!(
            graph["shared"].is_empty(),
            "shared names {:?}",
            graph["shared"]
        );
        // depth-first, looking for a way back
        fn visit<'a>(
            n: &'a str,
            graph: &'a BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<&'a str>,
            done: &mut BTreeSet<&'a str>,
        ) {
            if let Some(i) = path.iter().position(|p| *p == n) {
                panic!("a circle: {} -> {n}", path[i..].join(" -> "));
            }
            if !done.insert(n) {
                return;
            }
            path.push(n);
            for m in &graph[n] {
                visit(m, graph, path, done);
            }
            path.pop();
        }
        let mut done = BTreeSet::new();
        for n in graph.keys() {
            visit(n, &graph, &mut Vec::new(), &mut done);
        }
        // the passes never reach up to the renderer
        for pass in [
            "terrain", "grass", "water", "ground", "scene", "target", "view",
        ] {
            assert!(
                !graph[pass].contains("renderer"),
                "{pass} names the renderer"
            );
        }
    }
}
