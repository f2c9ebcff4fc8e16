//! One map on the GPU: the layers the tools edit (heights, metal, grass, type, each an R32Float
//! texture, written and read back by rectangle), the tiled ground texture, the chunk grid,
//! the feature models and markers, and the look taken from the map's settings. Built off the UI thread (wgpu devices
//! are shared across threads).

use std::collections::HashMap;

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::camera::Camera;
use super::features::{FeatureModelData, SceneFeatures};
use super::grass::{SceneGrass, legacy_grass};
use super::ground::GroundTiles;
use super::ground_layers::GroundLayers;
use super::ground_rules::mask_array_texture;
use super::pathing::ScenePathing;
use super::shared::{FrameUniform, Layouts, texture_2d, write_texture_rect};
use super::terrain::{CHUNK_SQUARES, ChunkGrid, ChunkInstance};
use super::view::type_colour;
use super::water::SceneWater;
use super::{GpuContext, GpuError};
use crate::edit::{GridRect, LayerId};
use crate::map::{Map, MapSettings};

/// The colours and light the map's settings give the view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneLook {
    pub sun_dir: [f32; 3],
    pub ambient: [f32; 3],
    pub diffuse: [f32; 3],
    pub specular: [f32; 3],
    pub specular_exponent: f32,
    pub water_rgb: [f32; 3],
    /// The sea bed tint the engine's ground shader applies below y = 0: per elmo of depth the
    /// light loses `water_absorb` from `water_base`, never below `water_min` (engine default 0).
    pub water_absorb: [f32; 3],
    pub water_base: [f32; 3],
    pub water_min: [f32; 3],
    pub water_alpha: f32,
    pub sky: [f32; 3],
    pub void_water: bool,
    pub max_metal: f32,
}

impl SceneLook {
    pub fn from_settings(s: &MapSettings) -> SceneLook {
        let l = &s.lighting;
        SceneLook {
            sun_dir: l.sun_dir_or_default(),
            ambient: l.ground_ambient_or_default(),
            diffuse: l.ground_diffuse_or_default(),
            specular: l.ground_specular_or_default(),
            specular_exponent: l.specular_exponent.unwrap_or(100.0).max(1.0),
            water_rgb: s.water.plane_color.unwrap_or([0.08, 0.28, 0.5]),
            water_absorb: s.water.absorb.unwrap_or([0.0; 3]),
            water_base: s.water.base_color.unwrap_or([0.0; 3]),
            water_min: s.water.min_color.unwrap_or([0.0; 3]),
            water_alpha: s.water.surface_alpha.unwrap_or(0.55).clamp(0.0, 1.0),
            sky: s.atmosphere.sky_color.unwrap_or([0.1, 0.15, 0.7]),
            void_water: s.void_water,
            max_metal: s.max_metal,
        }
    }
}

/// A start position or feature as the marker pipeline draws it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct MarkerInstance {
    /// x, y, z in elmos; w: radius in pixels.
    pub pos_size: [f32; 4],
    pub colour: [f32; 4],
}

pub struct MapScene {
    /// Heightmap vertices (mapx + 1, mapy + 1).
    pub vertices: (u32, u32),
    pub width_elmos: f32,
    pub depth_elmos: f32,
    pub look: SceneLook,
    /// The map's height range (elmos at word 0 and 65536), for the chunks' bounds mid-stroke.
    pub height_range: (f32, f32),
    /// The layers by [`LayerId::index`]: R32Float (bytes as 0..=255), storage-capable when
    /// the device runs compute kernels; the four of [`LayerId::ALL`], then each texture
    /// layer's mask (what the texture brush writes; `masks` holds a copy for the rules).
    layers: Vec<wgpu::Texture>,
    /// The texture layers' painted masks, one slice per layer in stack order
    /// (`ground_rules::mask_array_texture`; storage-capable with compute).
    pub masks: wgpu::Texture,
    /// The texture layers' weights, materials and look (`gpu::ground_layers`).
    pub ground: GroundLayers,
    /// One move class's pathing overlay and a start's flooded region (`gpu::pathing`).
    pub pathing: ScenePathing,
    palette: wgpu::Buffer,
    pub(super) frame: wgpu::Buffer,
    pub(super) bind_group: wgpu::BindGroup,
    /// The frame uniform and bind group of the water's mirrored reflection picture.
    pub(super) reflect_frame: wgpu::Buffer,
    pub(super) reflect_bind_group: wgpu::BindGroup,
    /// The water: its look, normal texture and coast field.
    pub water: SceneWater,
    pub(super) tiles: GroundTiles,
    pub chunks: ChunkGrid,
    pub(super) instances: wgpu::Buffer,
    pub(super) markers: wgpu::Buffer,
    pub(super) marker_count: u32,
    /// The markers of features that have a model come first, this many: drawn only when the
    /// view leaves the models out.
    pub(super) modelled_markers: u32,
    /// The feature models and their instances (`gpu::features`).
    pub features: SceneFeatures,
    /// The grass blades' configuration and textures.
    pub grass: SceneGrass,
    /// Grass cells along x and z.
    pub grass_cells: (u32, u32),
    /// The document revision `grass.legacy` was read at.
    grass_revision: Option<u64>,
    gpu_bytes_fixed: u64,
}

fn layer_texture(ctx: &GpuContext, layer: LayerId, dims: (usize, usize)) -> wgpu::Texture {
    let mut usage = wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::COPY_SRC;
    if ctx.compute {
        usage |= wgpu::TextureUsages::STORAGE_BINDING;
    }
    texture_2d(
        ctx,
        layer.name(),
        dims,
        wgpu::TextureFormat::R32Float,
        usage,
    )
}

/// Each texture layer's mask as its own layer texture (what the brush kernels write).
fn mask_layer_textures(ctx: &GpuContext, map: &Map) -> Vec<wgpu::Texture> {
    (0..map
        .texture_layers
        .len()
        .min(crate::map::ground_layers::MAX_LAYERS))
        .map(|k| {
            let l = LayerId::TextureMask(k as u8);
            let (w, h) = l.dims(map);
            let t = layer_texture(ctx, l, (w, h));
            let rect = GridRect::new(0, 0, w, h);
            write_texture_rect(ctx, &t, rect, &l.read_rect(map, rect));
            t
        })
        .collect()
}

/// Writes `values` over `rect` of slice `z` of an `r32float` array texture.
fn write_slice_rect(ctx: &GpuContext, tex: &wgpu::Texture, z: u32, rect: GridRect, values: &[f32]) {
    if rect.is_empty() || z >= tex.size().depth_or_array_layers {
        return;
    }
    super::shared::write_f32_rect(ctx, tex, z, rect, values);
}

impl MapScene {
    /// Puts `map` on the GPU. `progress(done, total)` reports the ground texture's tiles.
    pub fn new(
        ctx: &GpuContext,
        layouts: &Layouts,
        map: &Map,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<MapScene, GpuError> {
        let (hw, hh) = map.heights.dims();
        let max = ctx.limits.max_texture_dimension_2d as usize;
        if hw > max || hh > max {
            return Err(GpuError::TooLarge(format!(
                "this GPU's textures reach {max} texels, but the {} map's heightmap is {hw} x {hh}",
                map.size
            )));
        }
        let layers: Vec<wgpu::Texture> = LayerId::ALL
            .iter()
            .map(|&l| {
                let t = layer_texture(ctx, l, l.dims(map));
                let (w, h) = l.dims(map);
                let rect = GridRect::new(0, 0, w, h);
                write_texture_rect(ctx, &t, rect, &l.read_rect(map, rect));
                t
            })
            .collect();
        let mut layers = layers;
        layers.extend(mask_layer_textures(ctx, map));
        let masks = mask_array_texture(ctx, map, ctx.compute);
        let ground = GroundLayers::new(ctx, layouts, map, &layers[0], &layers[1], &masks);
        let pathing = ScenePathing::new(ctx, map, &layers[0]);
        let palette_data: Vec<[f32; 4]> = (0..=255u8)
            .map(|i| {
                let c = type_colour(i);
                [c[0], c[1], c[2], 1.0]
            })
            .collect();
        let palette = ctx
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("type palette"),
                contents: bytemuck::cast_slice(&palette_data),
                usage: wgpu::BufferUsages::UNIFORM,
            });
        let frame = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let (hv, mv, gv, tv) = (
            view(&layers[0]),
            view(&layers[1]),
            view(&layers[2]),
            view(&layers[3]),
        );
        let (pv, fv) = (view(&pathing.codes), view(&pathing.flood));
        let scene_group = |frame: &wgpu::Buffer| {
            fn tex(v: &wgpu::TextureView) -> wgpu::BindingResource<'_> {
                wgpu::BindingResource::TextureView(v)
            }
            ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("scene"),
                layout: &layouts.scene,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: frame.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: tex(&hv),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: tex(&mv),
                    },
                    wgpu::BindGroupEntry {
                        binding: 3,
                        resource: tex(&gv),
                    },
                    wgpu::BindGroupEntry {
                        binding: 4,
                        resource: tex(&tv),
                    },
                    wgpu::BindGroupEntry {
                        binding: 5,
                        resource: palette.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 6,
                        resource: wgpu::BindingResource::Sampler(&layouts.sampler),
                    },
                    wgpu::BindGroupEntry {
                        binding: 7,
                        resource: tex(&pv),
                    },
                    wgpu::BindGroupEntry {
                        binding: 8,
                        resource: tex(&fv),
                    },
                ],
            })
        };
        let bind_group = scene_group(&frame);
        let reflect_frame = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("reflection frame"),
            size: frame.size(),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let reflect_bind_group = scene_group(&reflect_frame);
        let water = SceneWater::new(ctx, map);
        ctx.queue.submit([]);
        let tiles = GroundTiles::upload(ctx, &layouts.tile, &map.texture, progress)?;
        let chunks = ChunkGrid::new(&map.heights);
        let instances = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("chunk instances"),
            size: (chunks.len().max(1) * std::mem::size_of::<ChunkInstance>()) as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layer_bytes: u64 = LayerId::ALL
            .iter()
            .map(|l| {
                let (w, h) = l.dims(map);
                (w * h * 4) as u64
            })
            .sum();
        let grass = SceneGrass::new(ctx, &layouts.grass, map);
        let features = SceneFeatures::new(ctx, layouts);
        let gpu_bytes_fixed = layer_bytes + 4096 + instances.size() + frame.size();
        let (gw, gh) = map.grass.dims();
        let mut scene = MapScene {
            vertices: (hw as u32, hh as u32),
            width_elmos: map.size.width_elmos(),
            depth_elmos: map.size.depth_elmos(),
            look: SceneLook::from_settings(&map.settings),
            height_range: (map.settings.min_height_elmos, map.settings.max_height_elmos),
            layers,
            masks,
            ground,
            pathing,
            palette,
            frame,
            bind_group,
            reflect_frame,
            reflect_bind_group,
            water,
            tiles,
            chunks,
            instances,
            markers: ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("markers"),
                size: 32,
                usage: wgpu::BufferUsages::VERTEX,
                mapped_at_creation: false,
            }),
            marker_count: 0,
            modelled_markers: 0,
            features,
            grass,
            grass_cells: (gw as u32, gh as u32),
            grass_revision: None,
            gpu_bytes_fixed,
        };
        scene.set_markers(ctx, map);
        Ok(scene)
    }

    /// Bytes this map holds on the GPU (textures with mips, buffers).
    pub fn gpu_bytes(&self) -> u64 {
        let m = self.masks.size();
        let mask_layers: u64 = self.layers[LayerId::ALL.len()..]
            .iter()
            .map(|t| t.size().width as u64 * t.size().height as u64 * 4)
            .sum();
        self.gpu_bytes_fixed
            + mask_layers
            + m.width as u64 * m.height as u64 * m.depth_or_array_layers as u64 * 4
            + self.ground.gpu_bytes()
            + self.pathing.gpu_bytes()
            + self.tiles.gpu_bytes
            + self.markers.size()
            + self.grass.gpu_bytes()
            + self.water.gpu_bytes()
            + self.features.gpu_bytes()
    }

    /// Chunks along each side of a ground tile.
    pub(super) fn tile_chunks(&self) -> u32 {
        (self.tiles.tile_texels / (CHUNK_SQUARES * 8)).max(1)
    }

    pub fn tiles_x(&self) -> u32 {
        self.tiles.tiles_x
    }

    pub fn tile_count(&self) -> usize {
        self.tiles.tiles.len()
    }

    /// Takes up changed settings (lighting, water, void water, maxMetal, grass sizes and fades).
    pub fn apply_settings(&mut self, settings: &MapSettings) {
        self.look = SceneLook::from_settings(settings);
        self.height_range = (settings.min_height_elmos, settings.max_height_elmos);
        self.grass.config = crate::map::grass::GrassConfig::from_settings(settings);
        self.water.look = crate::map::water::BumpWater::from_settings(settings);
    }

    /// Loads the blades again when the settings name another blade texture (`apply_settings`
    /// first); the ground colour is made again with them.
    pub fn reload_grass_blades(&mut self, ctx: &GpuContext, layouts: &Layouts, map: &Map) {
        if self.grass.blades_stale() {
            self.grass = SceneGrass::new(ctx, &layouts.grass, map);
        }
    }

    /// Takes up the edited document, once per `revision`: whether BAR reads the grass as
    /// legacy yes/no grass, the coast field of the heights, the texture stack, and the start
    /// and feature markers (moved, or the ground under them raised or lowered).
    pub fn follow_document(&mut self, ctx: &GpuContext, map: &Map, revision: u64) {
        if self.grass_revision != Some(revision) {
            self.grass.legacy = legacy_grass(&map.grass);
            self.water.follow_heights(ctx, &map.heights, revision);
            self.grass_revision = Some(revision);
            self.follow_texture_layers(ctx, map);
            // every change: starts and features moved, or the ground under them
            self.set_markers(ctx, map);
        }
    }

    /// Takes up a changed texture stack: the masks made again from the document when layers
    /// came, went or moved, then the weights (`GroundLayers::follow`).
    pub fn follow_texture_layers(&mut self, ctx: &GpuContext, map: &Map) {
        let slices = self.masks.size().depth_or_array_layers as usize;
        if slices != map.texture_layers.len().max(1) || self.ground.order_changed(map) {
            self.reload_masks(ctx, map);
        }
        self.ground.follow(
            ctx,
            map,
            &self.layers[LayerId::Heights.index()],
            &self.layers[LayerId::Metal.index()],
            &self.masks,
        );
    }

    /// Makes the masks again from the document (layers added, removed or reordered).
    pub fn reload_masks(&mut self, ctx: &GpuContext, map: &Map) {
        self.layers.truncate(LayerId::ALL.len());
        self.layers.extend(mask_layer_textures(ctx, map));
        self.masks = mask_array_texture(ctx, map, ctx.compute);
        self.ground.bind(
            ctx,
            &self.layers[LayerId::Heights.index()],
            &self.layers[LayerId::Metal.index()],
            &self.masks,
        );
    }

    /// Rebuilds the start and feature markers, and the feature models' instances
    /// ([`MapScene::set_feature_instances`]). A feature whose model the scene holds gets a
    /// marker too, drawn only when the view leaves the models out.
    pub fn set_markers(&mut self, ctx: &GpuContext, map: &Map) {
        self.set_feature_instances(ctx, map);
        let ground = |x: f32, z: f32| map.height_at(x, z);
        let feature = |f: &crate::map::Feature| MarkerInstance {
            pos_size: [
                f.x_elmos,
                ground(f.x_elmos, f.z_elmos) + 8.0,
                f.z_elmos,
                3.5,
            ],
            colour: [0.1, 0.35, 0.1, 1.0],
        };
        let (modelled, bare): (Vec<_>, Vec<_>) = map
            .features
            .iter()
            .partition(|f| self.features.has_model(&f.name));
        self.modelled_markers = modelled.len() as u32;
        let mut m: Vec<MarkerInstance> = modelled.into_iter().map(feature).collect();
        m.extend(bare.into_iter().map(feature));
        m.extend(map.teams.iter().enumerate().map(|(i, t)| {
            let c = crate::map::team_colour(i);
            MarkerInstance {
                pos_size: [
                    t.start_x_elmos,
                    ground(t.start_x_elmos, t.start_z_elmos) + 30.0,
                    t.start_z_elmos,
                    11.0,
                ],
                colour: [c[0], c[1], c[2], 1.0],
            }
        }));
        self.marker_count = m.len() as u32;
        if !m.is_empty() {
            self.markers = ctx
                .device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("markers"),
                    contents: bytemuck::cast_slice(&m),
                    usage: wgpu::BufferUsages::VERTEX,
                });
        }
    }

    /// Puts feature models on the GPU, by feature name, each once: a name the scene holds
    /// already keeps its mesh, so handing the same set again uploads nothing. Returns one line
    /// per model that cannot be drawn (its features stay markers). Call
    /// [`MapScene::set_markers`] afterwards: the features of the new models leave the markers
    /// and become instances.
    pub fn set_feature_models(
        &mut self,
        ctx: &GpuContext,
        models: HashMap<String, FeatureModelData>,
    ) -> Vec<String> {
        self.features.add_models(ctx, models)
    }

    /// Whether features called `name` are drawn as a model.
    pub fn has_feature_model(&self, name: &str) -> bool {
        self.features.has_model(name)
    }

    /// Rebuilds the feature models' instances from `map`'s features (those with a model);
    /// the meshes stay. [`MapScene::set_markers`] calls it.
    pub fn set_feature_instances(&mut self, ctx: &GpuContext, map: &Map) {
        let instances = self.features.instances_of_map(map);
        self.features.set_instances(ctx, &instances);
    }

    /// Where each feature without a model is drawn as a marker in a `width_px` x `height_px`
    /// view from `camera`: its index in `map.features` and its marker's centre in pixels from
    /// the top left, for those in front of the eye and inside the view (for a label).
    pub fn unmodelled_feature_points(
        &self,
        map: &Map,
        camera: &Camera,
        (width_px, height_px): (u32, u32),
    ) -> Vec<(usize, [f32; 2])> {
        let (w, h) = (width_px as f32, height_px.max(1) as f32);
        let view_proj = camera.view_proj(w / h);
        map.features
            .iter()
            .enumerate()
            .filter(|(_, f)| !self.features.has_model(&f.name))
            .filter_map(|(i, f)| {
                let p = glam::Vec3::new(
                    f.x_elmos,
                    map.height_at(f.x_elmos, f.z_elmos) + 8.0,
                    f.z_elmos,
                );
                let c = view_proj * p.extend(1.0);
                if c.w <= 0.0 {
                    return None;
                }
                let at = [(c.x / c.w + 1.0) * 0.5 * w, (1.0 - c.y / c.w) * 0.5 * h];
                ((0.0..=w).contains(&at[0]) && (0.0..=h).contains(&at[1])).then_some((i, at))
            })
            .collect()
    }

    /// The texture holding a layer.
    pub fn layer(&self, layer: LayerId) -> &wgpu::Texture {
        &self.layers[layer.index()]
    }

    /// Uploads values (row by row) over a rectangle of a layer (a mask's also into the rules'
    /// copy).
    pub fn write_rect(&self, ctx: &GpuContext, layer: LayerId, rect: GridRect, values: &[f32]) {
        write_texture_rect(ctx, self.layer(layer), rect, values);
        if let LayerId::TextureMask(k) = layer {
            write_slice_rect(ctx, &self.masks, k as u32, rect, values);
        }
    }

    /// After kernels wrote mask `k` over `rects`: the rules' copy (one slice of `masks`)
    /// takes them up, on the GPU.
    pub fn copy_mask_rects(&self, ctx: &GpuContext, k: u8, rects: &[GridRect]) {
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("mask copy"),
            });
        for r in rects.iter().filter(|r| !r.is_empty()) {
            let origin = |z| wgpu::Origin3d {
                x: r.x0 as u32,
                y: r.z0 as u32,
                z,
            };
            enc.copy_texture_to_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: self.layer(LayerId::TextureMask(k)),
                    mip_level: 0,
                    origin: origin(0),
                    aspect: wgpu::TextureAspect::All,
                },
                wgpu::TexelCopyTextureInfo {
                    texture: &self.masks,
                    mip_level: 0,
                    origin: origin(k as u32),
                    aspect: wgpu::TextureAspect::All,
                },
                wgpu::Extent3d {
                    width: r.w as u32,
                    height: r.h as u32,
                    depth_or_array_layers: 1,
                },
            );
        }
        ctx.queue.submit([enc.finish()]);
    }

    /// Reads rectangles of a layer back in one submission and one mapping (a stroke's touched
    /// tiles, when it ends).
    pub fn read_rects(
        &self,
        ctx: &GpuContext,
        layer: LayerId,
        rects: &[GridRect],
    ) -> Result<Vec<Vec<f32>>, GpuError> {
        super::target::read_texture_rects(ctx, self.layer(layer), rects, 4).map(|all| {
            all.into_iter()
                .map(|bytes| bytemuck::pod_collect_to_vec::<u8, f32>(&bytes))
                .collect()
        })
    }

    /// Reads one rectangle of a layer back.
    pub fn read_rect(
        &self,
        ctx: &GpuContext,
        layer: LayerId,
        rect: GridRect,
    ) -> Result<Vec<f32>, GpuError> {
        Ok(self.read_rects(ctx, layer, &[rect])?.remove(0))
    }

    /// The palette of type colours is fixed; kept so that it lives as long as the scene.
    pub fn palette(&self) -> &wgpu::Buffer {
        &self.palette
    }
}
