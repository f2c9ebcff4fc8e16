//! Map features (trees, rocks) drawn as their 3D models (`shaders/features.wgsl`). Each
//! model's mesh and texture go up once and are kept by name; every placed feature is one
//! instance (its place and heading) in one buffer sorted by model, and each model is one
//! instanced indexed draw. The vertex shader stands each instance on the scene's height
//! texture, so the models ride the ground while a stroke sculpts it on the GPU. Features whose
//! model is missing stay markers (`MapScene::set_markers`).
//!
//! Texture alpha is not tested: an S3O model's first texture keeps the team colour mask in its
//! alpha (its transparency is the second texture's alpha), so discarding on it would cut holes
//! into most rocks and wrecks. Models are drawn opaque, the mask ignored (features are Gaia's).

use std::collections::HashMap;

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::GpuContext;
use super::shared::{Layouts, texture_with_mips};
use crate::map::Map;

/// The colour of a model that brings no texture (bark and stone grey).
const UNTEXTURED_RGBA: [u8; 4] = [150, 140, 125, 255];

/// One model's mesh as the S3O reader yields it, in model space: elmos, y up, the origin on
/// the ground at the feature's place.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FeatureModelData {
    pub positions: Vec<[f32; 3]>,
    /// One per position (unit length; any length is normalised when drawn).
    pub normals: Vec<[f32; 3]>,
    /// One per position; `(0, 0)` is the texture's first row.
    pub uvs: Vec<[f32; 2]>,
    /// A triangle list into `positions`.
    pub indices: Vec<u32>,
    /// The first texture: width, height and RGBA8 rows. Its alpha (the team colour mask) is
    /// not drawn.
    pub texture_rgba: Option<(u32, u32, Vec<u8>)>,
}

/// One placed feature: where it stands and which way it faces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeatureInstance {
    pub x_elmos: f32,
    pub z_elmos: f32,
    /// Turned about +y as the engine turns it: the model's +z points along world
    /// `(sin, cos)` of this in (x, z).
    pub heading_rad: f32,
    /// Index of the model ([`SceneFeatures::model_index`]).
    pub model: u32,
}

/// One vertex of a model on the GPU.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct ModelVertex {
    pub pos: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
}

/// One instance on the GPU: x and z in elmos, then the heading's sine and cosine.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct InstancePlace {
    pub place: [f32; 4],
}

impl FeatureModelData {
    /// A model as `formats::feature_models` loads it.
    pub fn from_loaded(m: &crate::formats::feature_models::LoadedModel) -> FeatureModelData {
        FeatureModelData {
            positions: m.mesh.positions.clone(),
            normals: m.mesh.normals.clone(),
            uvs: m.mesh.uvs.clone(),
            indices: m.mesh.indices.clone(),
            texture_rgba: m.texture_rgba.clone(),
        }
    }

    /// The interleaved vertices, or why the mesh cannot be drawn: no triangles, an index past
    /// the positions, normals or texture coordinates that do not match them (missing ones
    /// default to up and to the texture's corner), a texture whose bytes are not its size.
    pub fn vertices(&self) -> Result<Vec<ModelVertex>, String> {
        let n = self.positions.len();
        if self.indices.len() < 3 {
            return Err("the mesh has no triangles".into());
        }
        if !self.indices.len().is_multiple_of(3) {
            return Err(format!(
                "{} indices are not a list of triangles",
                self.indices.len()
            ));
        }
        if let Some(&i) = self.indices.iter().find(|&&i| i as usize >= n) {
            return Err(format!("index {i} past the {n} vertices"));
        }
        for (what, len) in [("normals", self.normals.len()), ("uvs", self.uvs.len())] {
            if len != 0 && len != n {
                return Err(format!("{len} {what} for {n} vertices"));
            }
        }
        if let Some((w, h, rgba)) = &self.texture_rgba
            && rgba.len() as u64 != *w as u64 * *h as u64 * 4
        {
            return Err(format!(
                "a {w} x {h} texture holds {} bytes, not {}",
                rgba.len(),
                *w as u64 * *h as u64 * 4
            ));
        }
        Ok((0..n)
            .map(|i| ModelVertex {
                pos: self.positions[i],
                normal: self.normals.get(i).copied().unwrap_or([0.0, 1.0, 0.0]),
                uv: self.uvs.get(i).copied().unwrap_or([0.0, 0.0]),
            })
            .collect())
    }
}

/// A point of a model, in model space, placed in the world by `inst` on ground at
/// `ground_elmos`: what `shaders/features.wgsl` does to each vertex.
pub fn model_to_world(inst: &FeatureInstance, ground_elmos: f32, p: [f32; 3]) -> [f32; 3] {
    let (s, c) = inst.heading_rad.sin_cos();
    [
        inst.x_elmos + p[0] * c + p[2] * s,
        ground_elmos + p[1],
        inst.z_elmos - p[0] * s + p[2] * c,
    ]
}

/// One model on the GPU.
struct ModelGpu {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
    bind_group: wgpu::BindGroup,
    bytes: u64,
}

/// One model's share of the instance buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelDraw {
    pub model: u32,
    pub first_instance: u32,
    pub instances: u32,
}

/// The feature models of one scene and where they stand.
pub struct SceneFeatures {
    models: Vec<ModelGpu>,
    by_name: HashMap<String, u32>,
    instances: wgpu::Buffer,
    draws: Vec<ModelDraw>,
    instance_count: u32,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
}

impl SceneFeatures {
    pub fn new(ctx: &GpuContext, layouts: &Layouts) -> SceneFeatures {
        SceneFeatures {
            models: Vec::new(),
            by_name: HashMap::new(),
            instances: instance_buffer(ctx, 1),
            draws: Vec::new(),
            instance_count: 0,
            layout: layouts.feature_model.clone(),
            sampler: layouts.repeat_sampler.clone(),
        }
    }

    /// Uploads the models whose names are not held yet (sorted by name, so indices do not
    /// depend on the map's order); a name already held keeps its mesh, so handing the same
    /// set again uploads nothing. Returns one line per model that cannot be drawn (it stays a
    /// marker). Instances are not changed: set them again afterwards.
    pub fn add_models(
        &mut self,
        ctx: &GpuContext,
        models: HashMap<String, FeatureModelData>,
    ) -> Vec<String> {
        let mut names: Vec<String> = models
            .keys()
            .filter(|n| !self.by_name.contains_key(*n))
            .cloned()
            .collect();
        names.sort();
        let mut problems = Vec::new();
        let mut models = models;
        for name in names {
            let data = models.remove(&name).expect("a listed name");
            match self.upload(ctx, &name, &data) {
                Ok(m) => {
                    self.by_name.insert(name, self.models.len() as u32);
                    self.models.push(m);
                }
                Err(e) => problems.push(format!("feature model {name}: {e}")),
            }
        }
        problems
    }

    /// Forgets every model and instance (another map's features).
    pub fn clear(&mut self) {
        self.models.clear();
        self.by_name.clear();
        self.draws.clear();
        self.instance_count = 0;
    }

    fn upload(
        &self,
        ctx: &GpuContext,
        name: &str,
        data: &FeatureModelData,
    ) -> Result<ModelGpu, String> {
        let verts = data.vertices()?;
        let max = ctx.limits.max_texture_dimension_2d;
        let (w, h, rgba) = match &data.texture_rgba {
            Some((w, h, rgba)) if *w > 0 && *h > 0 => {
                if *w > max || *h > max {
                    return Err(format!(
                        "its {w} x {h} texture is past this GPU's {max} texels"
                    ));
                }
                (*w as usize, *h as usize, rgba.as_slice())
            }
            _ => (1, 1, UNTEXTURED_RGBA.as_slice()),
        };
        let texture = texture_with_mips(ctx, name, rgba, (w, h));
        let view = texture.create_view(&Default::default());
        let bind_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(name),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        });
        let vertices = ctx
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(name),
                contents: bytemuck::cast_slice(&verts),
                usage: wgpu::BufferUsages::VERTEX,
            });
        let indices = ctx
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(name),
                contents: bytemuck::cast_slice(&data.indices),
                usage: wgpu::BufferUsages::INDEX,
            });
        // the mips add a third
        let texels = (w * h * 4) as u64 * 4 / 3;
        Ok(ModelGpu {
            bytes: vertices.size() + indices.size() + texels,
            vertices,
            indices,
            index_count: data.indices.len() as u32,
            bind_group,
        })
    }

    /// The index instances of the model called `name` carry, if it is held.
    pub fn model_index(&self, name: &str) -> Option<u32> {
        self.by_name.get(name).copied()
    }

    /// Whether a model called `name` is held (its features are drawn as the model).
    pub fn has_model(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Models held.
    pub fn model_count(&self) -> usize {
        self.models.len()
    }

    /// Instances drawn.
    pub fn instance_count(&self) -> u32 {
        self.instance_count
    }

    /// Each model's draw: its instances, in the order they are drawn.
    pub fn draws(&self) -> &[ModelDraw] {
        &self.draws
    }

    /// The instances of `map`'s features that have a model held.
    pub fn instances_of_map(&self, map: &Map) -> Vec<FeatureInstance> {
        map.features
            .iter()
            .filter_map(|f| {
                Some(FeatureInstance {
                    x_elmos: f.x_elmos,
                    z_elmos: f.z_elmos,
                    heading_rad: f.rotation_deg.to_radians(),
                    model: self.model_index(&f.name)?,
                })
            })
            .collect()
    }

    /// Replaces every instance (instances of models not held are left out). The buffer grows
    /// to the next power of two and is written in place otherwise; meshes are not touched.
    pub fn set_instances(&mut self, ctx: &GpuContext, instances: &[FeatureInstance]) {
        let models = self.models.len();
        let mut counts = vec![0u32; models];
        for i in instances {
            if let Some(c) = counts.get_mut(i.model as usize) {
                *c += 1;
            }
        }
        let mut next = Vec::with_capacity(models);
        self.draws.clear();
        let mut first = 0u32;
        for (model, &count) in counts.iter().enumerate() {
            next.push(first);
            if count > 0 {
                self.draws.push(ModelDraw {
                    model: model as u32,
                    first_instance: first,
                    instances: count,
                });
            }
            first += count;
        }
        let mut places = vec![InstancePlace::zeroed(); first as usize];
        for i in instances {
            if let Some(slot) = next.get_mut(i.model as usize) {
                let (s, c) = i.heading_rad.sin_cos();
                places[*slot as usize] = InstancePlace {
                    place: [i.x_elmos, i.z_elmos, s, c],
                };
                *slot += 1;
            }
        }
        self.instance_count = first;
        let bytes = std::mem::size_of_val(places.as_slice()) as u64;
        if bytes > self.instances.size() {
            self.instances = instance_buffer(ctx, places.len().next_power_of_two());
        }
        if !places.is_empty() {
            ctx.queue
                .write_buffer(&self.instances, 0, bytemuck::cast_slice(&places));
        }
    }

    /// Bytes the models and the instance buffer hold on the GPU.
    pub fn gpu_bytes(&self) -> u64 {
        self.models.iter().map(|m| m.bytes).sum::<u64>() + self.instances.size()
    }

    /// Records the draws: one instanced indexed draw per model with instances. The pipeline
    /// and the scene's `@group(0)` are bound by the caller.
    pub(super) fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        if self.draws.is_empty() {
            return;
        }
        pass.set_vertex_buffer(1, self.instances.slice(..));
        for d in &self.draws {
            let m = &self.models[d.model as usize];
            pass.set_bind_group(1, &m.bind_group, &[]);
            pass.set_vertex_buffer(0, m.vertices.slice(..));
            pass.set_index_buffer(m.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(
                0..m.index_count,
                0,
                d.first_instance..d.first_instance + d.instances,
            );
        }
    }
}

fn instance_buffer(ctx: &GpuContext, instances: usize) -> wgpu::Buffer {
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("feature instances"),
        size: (instances.max(1) * std::mem::size_of::<InstancePlace>()) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The vertex buffer layouts of the feature pipeline: the model's vertices, then the
/// instances.
pub fn vertex_layouts() -> [wgpu::VertexBufferLayout<'static>; 2] {
    const VERTEX: [wgpu::VertexAttribute; 3] =
        wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2];
    const INSTANCE: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![3 => Float32x4];
    [
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<ModelVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &VERTEX,
        },
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<InstancePlace>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &INSTANCE,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triangle() -> FeatureModelData {
        FeatureModelData {
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            normals: vec![],
            uvs: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
            indices: vec![0, 1, 2],
            texture_rgba: None,
        }
    }

    #[test]
    fn a_mesh_is_checked_before_it_goes_up() {
        let v = triangle().vertices().unwrap();
        assert_eq!(v[2].normal, [0.0, 1.0, 0.0]);
        assert_eq!(v[1].uv, [1.0, 0.0]);
        let mut bad = triangle();
        bad.indices[1] = 3;
        assert!(bad.vertices().unwrap_err().contains("index 3"));
        let mut bad = triangle();
        bad.uvs.pop();
        assert!(bad.vertices().is_err());
        let mut bad = triangle();
        bad.indices.push(0);
        assert!(bad.vertices().is_err());
        let mut bad = triangle();
        bad.texture_rgba = Some((2, 2, vec![0; 15]));
        assert!(bad.vertices().unwrap_err().contains("2 x 2"));
        assert!(FeatureModelData::default().vertices().is_err());
    }

    #[test]
    fn the_heading_turns_model_z_toward_sin_cos() {
        let at = |deg: f32, p| {
            let inst = FeatureInstance {
                x_elmos: 100.0,
                z_elmos: 200.0,
                heading_rad: deg.to_radians(),
                model: 0,
            };
            let w = model_to_world(&inst, 50.0, p);
            [(w[0] * 1e4).round() / 1e4, w[1], (w[2] * 1e4).round() / 1e4]
        };
        assert_eq!(at(0.0, [0.0, 5.0, 10.0]), [100.0, 55.0, 210.0]);
        // a quarter turn: +z along world +x, +x along world -z
        assert_eq!(at(90.0, [0.0, 0.0, 10.0]), [110.0, 50.0, 200.0]);
        assert_eq!(at(90.0, [10.0, 0.0, 0.0]), [100.0, 50.0, 190.0]);
        assert_eq!(at(180.0, [0.0, 0.0, 10.0]), [100.0, 50.0, 190.0]);
    }
}
