//! The texture layers live on the GPU: every layer's weight (rules and painted mask, before
//! opacity) at every heightmap vertex, in an `rgba8unorm` array (four layers a slice), made by
//! a compute pass (`shaders/ground_weights.wgsl` after `ground_rules.wgsl`) and re-made over a
//! stroke's rectangle only; the materials as one mipmapped array (the built-ins generated,
//! pictures resized to [`MATERIAL_TEXELS`]); the splat channels' detail normals; and the look
//! the terrain pass reads (`@group(2)` of `shaders/terrain.wgsl`), which draws the stack from
//! the weights each frame, with no bake. Without compute the CPU twin ([`weights_cpu`], the
//! same `layer_weight` the bake uses) fills the same texture.
//!
//! Memory on a 32x32 map with 16 layers: weights 4 slices of 2049^2 x 4 bytes = 64 MiB, the
//! masks (the scene's) 16 x 1024^2 x 4 = 64 MiB, materials 16 x 256^2 x 4 x 4/3 = 5.3 MiB,
//! detail normals 4 x 256^2 x 4 x 4/3 = 1.3 MiB, the shore 2049^2 x 4 = 16 MiB: about
//! 151 MiB, within the 512 MiB budget.

use bytemuck::{Pod, Zeroable};

use super::GpuContext;
use super::ground_rules::{
    RULES_WGSL, RuleBuffers, map_has_shore, mask_array_view, rule_inputs_group, rule_inputs_layout,
    shore_texture,
};
use super::shared::{Layouts, TexelsAt, compute_pipeline, downsample, write_texels};
use crate::edit::GridRect;
use crate::map::ground_layers::{
    MAX_LAYERS, Material, MaterialImage, TerrainFields, TextureLayer, layer_weight,
    material_detail_normal, material_images,
};
use crate::map::{ELMOS_PER_SQUARE, Map};

/// Texels a side of each material and detail normal as the view draws them.
pub const MATERIAL_TEXELS: usize = 256;
/// Rectangles one [`GroundLayers::evaluate`] call dispatches separately; more are merged.
const MAX_RECTS: usize = 64;
/// Bytes between rectangle slots of the dynamic uniform buffer.
const RECT_STRIDE: u64 = 256;

/// How the terrain pass draws one layer; `LayerLook` in `shaders/terrain.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct LayerLook {
    /// RGB 0..1 (a solid colour, or a picture's tint); w: 1 when the material is a picture.
    pub colour: [f32; 4],
    /// x: repeats per elmo (1 / scale_elmos); y: opacity as drawn (hidden 0); z: the splat
    /// channel or -1; w: unused.
    pub params: [f32; 4],
}

/// The whole stack's look; `GroundLook` in the shader.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct GroundLook {
    /// x: layers; y: 1 when a layer is on a splat channel.
    pub counts: [u32; 4],
    pub layers: [LayerLook; MAX_LAYERS],
}

/// Which layers the view shows: hidden ones not at all; a soloed one alone (at full opacity).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayerVisibility {
    pub hidden: Vec<bool>,
    pub solo: Option<usize>,
}

/// The look of `layers` under `visibility`.
pub fn ground_look(layers: &[TextureLayer], visibility: &LayerVisibility) -> GroundLook {
    let mut look = GroundLook::zeroed();
    look.counts[0] = layers.len().min(MAX_LAYERS) as u32;
    for (k, l) in layers.iter().take(MAX_LAYERS).enumerate() {
        let (colour, picture, scale) = match &l.material {
            Material::Solid { color } => (color.map(|c| c as f32 / 255.0), 0.0, 1.0),
            Material::Builtin {
                scale_elmos, tint, ..
            }
            | Material::Picture {
                scale_elmos, tint, ..
            } => (*tint, 1.0, *scale_elmos),
        };
        let shown = match visibility.solo {
            Some(s) => s == k,
            None => !visibility.hidden.get(k).copied().unwrap_or(false),
        };
        let opacity = match (shown, visibility.solo) {
            (false, _) => 0.0,
            (true, Some(_)) => 1.0,
            (true, None) => l.opacity,
        };
        let channel = l.splat_channel.map_or(-1.0, |c| c as f32);
        if l.splat_channel.is_some() {
            look.counts[1] = 1;
        }
        look.layers[k] = LayerLook {
            colour: [colour[0], colour[1], colour[2], picture],
            params: [1.0 / scale.max(1.0), opacity, channel, 0.0],
        };
    }
    look
}

/// Slices of the weight array for `layers` layers (at least one).
pub fn weight_slices(layers: usize) -> usize {
    layers.div_ceil(4).max(1)
}

/// The CPU twin of the evaluation: each layer's weight at the vertices of `rect`, as bytes,
/// slice by slice (four layers to a texel, RGBA, rows of `rect.w`).
pub fn weights_cpu(map: &Map, fields: &TerrainFields, rect: GridRect) -> Vec<Vec<u8>> {
    let layers = &map.texture_layers;
    let s = ELMOS_PER_SQUARE as f32;
    (0..weight_slices(layers.len()))
        .map(|slice| {
            let mut out = vec![0u8; rect.area() * 4];
            for j in 0..rect.h {
                for i in 0..rect.w {
                    let (x, z) = ((rect.x0 + i) as f32 * s, (rect.z0 + j) as f32 * s);
                    for c in 0..4 {
                        if let Some(l) = layers.get(slice * 4 + c) {
                            let w = layer_weight(map, fields, l, x, z);
                            out[(j * rect.w + i) * 4 + c] = (w * 255.0).round() as u8;
                        }
                    }
                }
            }
            out
        })
        .collect()
}

/// What the evaluation needs beyond the scene's textures.
struct Eval {
    pipeline: wgpu::ComputePipeline,
    out_layout: wgpu::BindGroupLayout,
    inputs_layout: wgpu::BindGroupLayout,
    rects: wgpu::Buffer,
}

/// The stack as the GPU holds it for one map.
pub struct GroundLayers {
    pub layer_count: usize,
    weights: wgpu::Texture,
    materials: wgpu::Texture,
    normals: wgpu::Texture,
    look_buffer: wgpu::Buffer,
    shore: wgpu::Texture,
    rules: RuleBuffers,
    eval: Option<Eval>,
    /// The inputs' and the output's bind groups (made again with [`GroundLayers::bind`]).
    groups: Option<(wgpu::BindGroup, wgpu::BindGroup)>,
    /// `@group(2)` of the terrain pass, and what it is made with.
    pub bind_group: wgpu::BindGroup,
    terrain_layout: wgpu::BindGroupLayout,
    repeat_sampler: wgpu::Sampler,
    /// The stack (without masks) the textures and rules were made from.
    stack: Vec<TextureLayer>,
    visibility: LayerVisibility,
    /// Whether the map had water when the shore was measured.
    had_shore: bool,
}

/// An `rgba8unorm` 2D array, `slices` deep, with `mips` levels.
fn array_texture(
    ctx: &GpuContext,
    label: &str,
    (w, h): (usize, usize),
    slices: usize,
    mips: u32,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: w as u32,
            height: h as u32,
            depth_or_array_layers: slices as u32,
        },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage,
        view_formats: &[],
    })
}

/// Writes an RGBA8 picture `n` a side and its mips into one slice.
fn write_slice_with_mips(ctx: &GpuContext, tex: &wgpu::Texture, slice: u32, rgba: &[u8], n: usize) {
    let (mut level, mut side) = (rgba.to_vec(), n);
    for mip in 0..tex.mip_level_count() {
        write_texels(
            ctx,
            tex,
            TexelsAt {
                mip,
                slice,
                ..TexelsAt::default()
            },
            (side, side),
            4,
            &level,
        );
        if side > 1 {
            (level, side, _) = downsample(&level, side, side);
        }
    }
}

/// `img` resized to `n` a side (bilinear, wrapping, as the bake samples it).
fn resized(img: &MaterialImage, n: usize) -> Vec<u8> {
    if img.width == n && img.height == n {
        return img.rgba.clone();
    }
    let mut out = vec![255u8; n * n * 4];
    for y in 0..n {
        for x in 0..n {
            let c = img.sample((x as f32 + 0.5) / n as f32, (y as f32 + 0.5) / n as f32);
            for k in 0..3 {
                out[(y * n + x) * 4 + k] = c[k].round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    out
}

/// The layers' pictures for the view: the built-ins generated, pictures decoded from the map's
/// bundled files. A picture that cannot be had is drawn grey (the export reports it).
pub fn view_images(map: &Map) -> Vec<Option<MaterialImage>> {
    let picture = |file: &str| -> Result<MaterialImage, String> {
        let f = map
            .bundled_files
            .iter()
            .find(|f| f.path.eq_ignore_ascii_case(file))
            .ok_or_else(|| format!("the picture {file} is not among the map's files"))?;
        let bytes = f.bytes().map_err(|e| e.to_string())?;
        let (rgba, width, height) = crate::formats::image_file::decode_rgba(&bytes, file, 4096)
            .map_err(|e| e.to_string())?;
        Ok(MaterialImage {
            width,
            height,
            rgba,
        })
    };
    map.texture_layers
        .iter()
        .map(|l| {
            material_images(std::slice::from_ref(l), &picture)
                .ok()
                .and_then(|mut v| v.pop().flatten())
        })
        .collect()
}

/// The stack without its masks: what decides the textures and rules.
fn stack_key(map: &Map) -> Vec<TextureLayer> {
    map.texture_layers
        .iter()
        .map(|l| TextureLayer {
            mask: None,
            ..l.clone()
        })
        .collect()
}

impl GroundLayers {
    /// The stack of `map` on the GPU, evaluated everywhere. `heights`, `metal` and `masks` are
    /// the scene's textures (masks: `ground_rules::mask_array_texture`).
    pub fn new(
        ctx: &GpuContext,
        layouts: &Layouts,
        map: &Map,
        heights: &wgpu::Texture,
        metal: &wgpu::Texture,
        masks: &wgpu::Texture,
    ) -> GroundLayers {
        let eval = ctx.compute.then(|| {
            let inputs_layout = rule_inputs_layout(ctx);
            let out_layout = super::shared::compute_layout(
                ctx,
                "ground weights out",
                &[
                    (
                        0,
                        wgpu::BindingType::StorageTexture {
                            access: wgpu::StorageTextureAccess::WriteOnly,
                            format: wgpu::TextureFormat::Rgba8Unorm,
                            view_dimension: wgpu::TextureViewDimension::D2Array,
                        },
                    ),
                    (
                        1,
                        wgpu::BindingType::Buffer {
                            ty: wgpu::BufferBindingType::Uniform,
                            has_dynamic_offset: true,
                            min_binding_size: wgpu::BufferSize::new(16),
                        },
                    ),
                ],
            );
            let source = format!(
                "{RULES_WGSL}\n{}",
                include_str!("../../shaders/ground_weights.wgsl")
            );
            let pipeline = compute_pipeline(
                ctx,
                "ground weights",
                &source,
                &[&out_layout, &inputs_layout],
            );
            let rects = ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("ground weight rectangles"),
                size: RECT_STRIDE * MAX_RECTS as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            Eval {
                pipeline,
                out_layout,
                inputs_layout,
                rects,
            }
        });
        let placeholder = |label| {
            array_texture(
                ctx,
                label,
                (1, 1),
                1,
                1,
                wgpu::TextureUsages::TEXTURE_BINDING,
            )
        };
        let weights = placeholder("ground weights");
        let look_buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ground look"),
            size: std::mem::size_of::<GroundLook>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let (terrain_layout, repeat_sampler) = (
            layouts.ground_layers.clone(),
            layouts.repeat_sampler.clone(),
        );
        let bind_group = Self::terrain_group(
            ctx,
            (&terrain_layout, &repeat_sampler),
            [&weights, &weights, &weights],
            &look_buffer,
        );
        let mut g = GroundLayers {
            layer_count: 0,
            materials: placeholder("ground materials"),
            normals: placeholder("ground detail normals"),
            weights,
            look_buffer,
            shore: shore_texture(ctx, &Map::new(map.size, Default::default())),
            rules: RuleBuffers::new(ctx, &Map::new(map.size, Default::default())),
            eval,
            groups: None,
            bind_group,
            terrain_layout,
            repeat_sampler,
            stack: Vec::new(),
            visibility: LayerVisibility::default(),
            had_shore: false,
        };
        g.rebuild(ctx, map, heights, metal, masks);
        g
    }

    fn terrain_group(
        ctx: &GpuContext,
        (layout, sampler): (&wgpu::BindGroupLayout, &wgpu::Sampler),
        [weights, materials, normals]: [&wgpu::Texture; 3],
        look: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let array = |t: &wgpu::Texture| {
            t.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2Array),
                ..Default::default()
            })
        };
        let (wv, mv, nv) = (array(weights), array(materials), array(normals));
        ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ground layers"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&wv),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&mv),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&nv),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: look.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: wgpu::BindingResource::Sampler(sampler),
                },
            ],
        })
    }

    /// Makes everything again from the document's stack and evaluates every vertex.
    fn rebuild(
        &mut self,
        ctx: &GpuContext,
        map: &Map,
        heights: &wgpu::Texture,
        metal: &wgpu::Texture,
        masks: &wgpu::Texture,
    ) {
        let n = map.texture_layers.len().min(MAX_LAYERS);
        let (vw, vh) = map.heights.dims();
        let mut usage = wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC;
        if self.eval.is_some() {
            usage |= wgpu::TextureUsages::STORAGE_BINDING;
        }
        self.weights = array_texture(ctx, "ground weights", (vw, vh), weight_slices(n), 1, usage);
        let t = MATERIAL_TEXELS;
        let mips = t.ilog2() + 1;
        let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        self.materials = array_texture(ctx, "ground materials", (t, t), n.max(1), mips, sampled);
        self.normals = array_texture(ctx, "ground detail normals", (t, t), 4, mips, sampled);
        let images = view_images(map);
        for (k, (l, img)) in map.texture_layers.iter().zip(&images).take(n).enumerate() {
            let rgba = match (img, &l.material) {
                (Some(img), _) => resized(img, t),
                (None, Material::Solid { color }) => {
                    [color[0], color[1], color[2], 255].repeat(t * t)
                }
                (None, _) => [128u8, 128, 128, 255].repeat(t * t),
            };
            write_slice_with_mips(ctx, &self.materials, k as u32, &rgba, t);
        }
        let mut channels: [Option<Vec<u8>>; 4] = Default::default();
        for (l, img) in map.texture_layers.iter().zip(&images).take(n) {
            if let Some(c) = l.splat_channel.filter(|&c| c < 4) {
                channels[c as usize] = Some(material_detail_normal(&l.material, img.as_ref(), t));
            }
        }
        for (c, normal) in channels.iter().enumerate() {
            let flat;
            let rgba = match normal {
                Some(v) => v,
                None => {
                    flat = crate::map::ground_layers::flat_detail_normal(t);
                    &flat
                }
            };
            write_slice_with_mips(ctx, &self.normals, c as u32, rgba, t);
        }
        self.layer_count = n;
        self.stack = stack_key(map);
        self.shore = shore_texture(ctx, map);
        self.had_shore = map_has_shore(map);
        self.rules = RuleBuffers::new(ctx, map);
        self.visibility.hidden.resize(n, false);
        if self.visibility.solo.is_some_and(|s| s >= n) {
            self.visibility.solo = None;
        }
        ctx.queue.write_buffer(
            &self.look_buffer,
            0,
            bytemuck::bytes_of(&ground_look(&map.texture_layers, &self.visibility)),
        );
        self.bind_group = Self::terrain_group(
            ctx,
            (&self.terrain_layout, &self.repeat_sampler),
            [&self.weights, &self.materials, &self.normals],
            &self.look_buffer,
        );
        self.bind(ctx, heights, metal, masks);
        self.evaluate_everywhere(ctx, map);
    }

    /// Makes the evaluation's bind groups again for the scene's current textures (after the
    /// masks were made again).
    pub fn bind(
        &mut self,
        ctx: &GpuContext,
        heights: &wgpu::Texture,
        metal: &wgpu::Texture,
        masks: &wgpu::Texture,
    ) {
        let Some(e) = &self.eval else {
            return;
        };
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let inputs = rule_inputs_group(
            ctx,
            &e.inputs_layout,
            &view(heights),
            &view(metal),
            &mask_array_view(masks),
            &view(&self.shore),
            &self.rules,
        );
        let out_view = self.weights.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..Default::default()
        });
        let out = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ground weights out"),
            layout: &e.out_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&out_view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &e.rects,
                        offset: 0,
                        size: wgpu::BufferSize::new(16),
                    }),
                },
            ],
        });
        self.groups = Some((inputs, out));
    }

    /// Follows the document: a changed stack (layers, rules, materials, order) is made again
    /// and evaluated everywhere; water appearing or going, or a shore rule, measures the shore
    /// again. Cheap when nothing changed. Returns whether anything was made again.
    pub fn follow(
        &mut self,
        ctx: &GpuContext,
        map: &Map,
        heights: &wgpu::Texture,
        metal: &wgpu::Texture,
        masks: &wgpu::Texture,
    ) -> bool {
        let key = stack_key(map);
        if key == self.stack {
            return false;
        }
        let only_look = key.len() == self.stack.len()
            && key.iter().zip(&self.stack).all(|(a, b)| {
                a.name == b.name
                    && a.rules == b.rules
                    && a.splat_channel == b.splat_channel
                    && std::mem::discriminant(&a.material) == std::mem::discriminant(&b.material)
                    && match (&a.material, &b.material) {
                        (Material::Builtin { kind: x, .. }, Material::Builtin { kind: y, .. }) => {
                            x == y
                        }
                        (Material::Picture { file: x, .. }, Material::Picture { file: y, .. }) => {
                            x == y
                        }
                        _ => true,
                    }
            });
        if only_look {
            // opacity, tint, scale or a solid colour: the weights stand
            self.stack = key;
            ctx.queue.write_buffer(
                &self.look_buffer,
                0,
                bytemuck::bytes_of(&ground_look(&map.texture_layers, &self.visibility)),
            );
            return true;
        }
        let same_shape = key.len() == self.stack.len()
            && key.iter().zip(&self.stack).all(|(a, b)| {
                a.name == b.name && a.material == b.material && a.splat_channel == b.splat_channel
            });
        if same_shape {
            // rules only: new rule block, every vertex again
            self.stack = key;
            self.rules = RuleBuffers::new(ctx, map);
            self.bind(ctx, heights, metal, masks);
            ctx.queue.write_buffer(
                &self.look_buffer,
                0,
                bytemuck::bytes_of(&ground_look(&map.texture_layers, &self.visibility)),
            );
            self.evaluate_everywhere(ctx, map);
            return true;
        }
        self.rebuild(ctx, map, heights, metal, masks);
        true
    }

    /// Whether the document's layers are not the ones (by name, in order) the masks were
    /// laid out for.
    pub fn order_changed(&self, map: &Map) -> bool {
        map.texture_layers.len() != self.stack.len()
            || map
                .texture_layers
                .iter()
                .zip(&self.stack)
                .any(|(a, b)| a.name != b.name)
    }

    /// Shows and hides layers in the view (no evaluation).
    pub fn set_visibility(&mut self, ctx: &GpuContext, map: &Map, visibility: &LayerVisibility) {
        if *visibility == self.visibility {
            return;
        }
        self.visibility = visibility.clone();
        ctx.queue.write_buffer(
            &self.look_buffer,
            0,
            bytemuck::bytes_of(&ground_look(&map.texture_layers, &self.visibility)),
        );
    }

    /// Every vertex, on the GPU when it runs compute, else by the CPU twin.
    fn evaluate_everywhere(&mut self, ctx: &GpuContext, map: &Map) {
        let (w, h) = map.heights.dims();
        let all = GridRect::new(0, 0, w, h);
        if self.eval.is_some() {
            self.evaluate(ctx, &[all]);
        } else {
            self.evaluate_cpu(ctx, map, all);
        }
    }

    /// Whether the evaluation runs on the GPU.
    pub fn on_gpu(&self) -> bool {
        self.eval.is_some()
    }

    /// Evaluates the vertices of `rects` (each grown by one vertex, for the central
    /// differences) on the GPU, reading the scene's heights, metal and masks as they are now
    /// (also mid-stroke). Does nothing without compute or without layers.
    pub fn evaluate(&self, ctx: &GpuContext, rects: &[GridRect]) {
        let (Some(e), Some((inputs, out))) = (&self.eval, &self.groups) else {
            return;
        };
        if self.layer_count == 0 || rects.is_empty() {
            return;
        }
        let size = self.weights.size();
        let (vw, vh) = (size.width as usize, size.height as usize);
        let grow = |r: &GridRect| {
            let x0 = r.x0.saturating_sub(1);
            let z0 = r.z0.saturating_sub(1);
            let x1 = (r.x0 + r.w + 1).min(vw);
            let z1 = (r.z0 + r.h + 1).min(vh);
            GridRect::new(x0, z0, x1.saturating_sub(x0), z1.saturating_sub(z0))
        };
        let mut list: Vec<GridRect> = rects.iter().map(grow).filter(|r| !r.is_empty()).collect();
        if list.len() > MAX_RECTS {
            let rest = list.split_off(MAX_RECTS - 1);
            let merged = rest.iter().skip(1).fold(rest[0], |a, b| a.union(b));
            list.push(merged);
        }
        let mut bytes = vec![0u8; RECT_STRIDE as usize * list.len()];
        for (i, r) in list.iter().enumerate() {
            let v = [r.x0 as u32, r.z0 as u32, r.w as u32, r.h as u32];
            bytes[i * RECT_STRIDE as usize..i * RECT_STRIDE as usize + 16]
                .copy_from_slice(bytemuck::cast_slice(&v));
        }
        ctx.queue.write_buffer(&e.rects, 0, &bytes);
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("ground weights"),
            });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("ground weights"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&e.pipeline);
            pass.set_bind_group(1, inputs, &[]);
            for (i, r) in list.iter().enumerate() {
                pass.set_bind_group(0, out, &[(i as u64 * RECT_STRIDE) as u32]);
                pass.dispatch_workgroups((r.w as u32).div_ceil(8), (r.h as u32).div_ceil(8), 1);
            }
        }
        ctx.queue.submit([enc.finish()]);
    }

    /// The CPU twin over `rect` (grown by one vertex), uploaded: for devices without compute,
    /// after the document changed.
    pub fn evaluate_cpu(&self, ctx: &GpuContext, map: &Map, rect: GridRect) {
        if self.layer_count == 0 {
            return;
        }
        let (vw, vh) = map.heights.dims();
        let x0 = rect.x0.saturating_sub(1);
        let z0 = rect.z0.saturating_sub(1);
        let r = GridRect::new(
            x0,
            z0,
            (rect.x0 + rect.w + 1).min(vw) - x0,
            (rect.z0 + rect.h + 1).min(vh) - z0,
        );
        let need_shore = map
            .texture_layers
            .iter()
            .any(|l| l.rules.near_water.is_some());
        let fields = TerrainFields::new(map, need_shore);
        for (slice, bytes) in weights_cpu(map, &fields, r).iter().enumerate() {
            write_texels(
                ctx,
                &self.weights,
                TexelsAt {
                    x: r.x0 as u32,
                    y: r.z0 as u32,
                    slice: slice as u32,
                    ..TexelsAt::default()
                },
                (r.w, r.h),
                4,
                bytes,
            );
        }
    }

    /// After the document's heights changed over `rect` (a stroke ended, an undo): measures the
    /// shore again when a rule reads it, and evaluates `rect` (everywhere when the shore moved).
    pub fn heights_changed(
        &mut self,
        ctx: &GpuContext,
        map: &Map,
        rect: GridRect,
        heights: &wgpu::Texture,
        metal: &wgpu::Texture,
        masks: &wgpu::Texture,
    ) {
        if self.layer_count == 0 {
            return;
        }
        let shore_rule = map
            .texture_layers
            .iter()
            .any(|l| l.rules.near_water.is_some());
        if shore_rule || map_has_shore(map) != self.had_shore {
            self.shore = shore_texture(ctx, map);
            self.had_shore = map_has_shore(map);
            self.rules = RuleBuffers::new(ctx, map);
            self.bind(ctx, heights, metal, masks);
            if shore_rule {
                self.evaluate_everywhere(ctx, map);
                return;
            }
        }
        if self.eval.is_some() {
            self.evaluate(ctx, &[rect]);
        } else {
            self.evaluate_cpu(ctx, map, rect);
        }
    }

    /// Reads every weight back, slice by slice (RGBA rows of the vertex grid's width): for
    /// tests and benches.
    pub fn read_weights(&self, ctx: &GpuContext) -> Vec<Vec<u8>> {
        let size = self.weights.size();
        let (w, h) = (size.width, size.height);
        let row = (w * 4).div_ceil(256) * 256;
        let buf = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ground weights readback"),
            size: (row * h) as u64 * size.depth_or_array_layers as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut enc = ctx.device.create_command_encoder(&Default::default());
        enc.copy_texture_to_buffer(
            self.weights.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buf,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(h),
                },
            },
            size,
        );
        ctx.queue.submit([enc.finish()]);
        let slice = buf.slice(..);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        ctx.wait();
        let data = slice.get_mapped_range().expect("mapped above");
        let out = (0..size.depth_or_array_layers as usize)
            .map(|s| {
                let mut v = Vec::with_capacity((w * h * 4) as usize);
                for y in 0..h as usize {
                    let start = (s * h as usize + y) * row as usize;
                    v.extend_from_slice(&data[start..start + w as usize * 4]);
                }
                v
            })
            .collect();
        drop(data);
        buf.unmap();
        out
    }

    /// Bytes held on the GPU.
    pub fn gpu_bytes(&self) -> u64 {
        let bytes = |t: &wgpu::Texture| {
            let s = t.size();
            let base = s.width as u64 * s.height as u64 * s.depth_or_array_layers as u64 * 4;
            if t.mip_level_count() > 1 {
                base * 4 / 3
            } else {
                base
            }
        };
        bytes(&self.weights)
            + bytes(&self.materials)
            + bytes(&self.normals)
            + bytes(&self.shore)
            + self.rules.layers.size()
            + self.look_buffer.size()
    }
}
