//! The pipelines that draw a [`MapScene`] into a [`RenderTarget`]: terrain (chunked,
//! displaced, lit, overlaid), the feature models, the water plane and the markers. One per device, shared by
//! every scene and view; the window and `groundwork render` draw through the same code.

use wgpu::util::DeviceExt;

use super::GpuContext;
use super::camera::Camera;
use super::features;
use super::grass::{BladeVertex, MAX_GRASS_PATCHES_PER_FRAME, patch_vertices, visible_cells};
use super::scene::{MapScene, MarkerInstance};
use super::shared::{COLOR_FORMAT, DEPTH_FORMAT, FrameUniform, Layouts, shader};
use super::target::RenderTarget;
use super::terrain::{ChunkInstance, GridVertex, LOD_LEVELS, lod_geometry};
use super::view::{ViewOptions, slope_from_degrees};
use super::water::WaterUniform;

/// What one frame drew.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    pub chunks: usize,
    pub draws: usize,
    pub triangles: u64,
    /// Grass cells the blades were drawn for (those without grass cost a vertex shader each).
    pub grass_patches: u32,
    /// Features drawn as their model.
    pub feature_instances: u32,
}

struct LodMesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
}

pub struct Renderer {
    /// The bind group layouts and the sampler every pass and scene binds with.
    pub layouts: Layouts,
    terrain: wgpu::RenderPipeline,
    grass: wgpu::RenderPipeline,
    grass_patch: wgpu::Buffer,
    grass_patch_vertices: u32,
    water: wgpu::RenderPipeline,
    markers: wgpu::RenderPipeline,
    features: wgpu::RenderPipeline,
    lods: Vec<LodMesh>,
}

fn depth_state(write: bool) -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(write),
        depth_compare: Some(wgpu::CompareFunction::Greater),
        stencil: Default::default(),
        bias: Default::default(),
    }
}

impl Renderer {
    pub fn new(ctx: &GpuContext) -> Renderer {
        let layouts = Layouts::new(ctx);
        let terrain_layout = ctx
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("terrain"),
                bind_group_layouts: &[
                    Some(&layouts.scene),
                    Some(&layouts.tile),
                    Some(&layouts.ground_layers),
                ],
                immediate_size: 0,
            });
        let scene_only = ctx
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("scene only"),
                bind_group_layouts: &[Some(&layouts.scene)],
                immediate_size: 0,
            });
        let targets_opaque = [Some(wgpu::ColorTargetState {
            format: COLOR_FORMAT,
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
        })];
        let targets_blend = [Some(wgpu::ColorTargetState {
            format: COLOR_FORMAT,
            blend: Some(wgpu::BlendState::ALPHA_BLENDING),
            write_mask: wgpu::ColorWrites::ALL,
        })];

        let terrain_shader = shader(ctx, "terrain", include_str!("../../shaders/terrain.wgsl"));
        let vertex_layouts = [
            Some(wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<GridVertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &wgpu::vertex_attr_array![0 => Uint32x2, 1 => Uint32],
            }),
            Some(wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<ChunkInstance>() as u64,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &wgpu::vertex_attr_array![2 => Uint32x3, 3 => Float32],
            }),
        ];
        let terrain = ctx
            .device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("terrain"),
                layout: Some(&terrain_layout),
                vertex: wgpu::VertexState {
                    module: &terrain_shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &vertex_layouts,
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(depth_state(true)),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &terrain_shader,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &targets_opaque,
                }),
                multiview_mask: None,
                cache: None,
            });

        let grass_pipeline_layout =
            ctx.device
                .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("grass"),
                    bind_group_layouts: &[Some(&layouts.scene), Some(&layouts.grass)],
                    immediate_size: 0,
                });
        let grass_shader = shader(ctx, "grass", include_str!("../../shaders/grass.wgsl"));
        let grass = ctx
            .device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("grass"),
                layout: Some(&grass_pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &grass_shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[Some(wgpu::VertexBufferLayout {
                        array_stride: std::mem::size_of::<BladeVertex>() as u64,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x2],
                    })],
                },
                // blades are seen from both sides
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(depth_state(true)),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &grass_shader,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &targets_blend,
                }),
                multiview_mask: None,
                cache: None,
            });
        let patch = patch_vertices();
        let grass_patch = ctx
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("grass patch"),
                contents: bytemuck::cast_slice(&patch),
                usage: wgpu::BufferUsages::VERTEX,
            });

        let water_shader = shader(ctx, "water", include_str!("../../shaders/water.wgsl"));
        let water_pipeline_layout =
            ctx.device
                .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("water"),
                    bind_group_layouts: &[Some(&layouts.scene), Some(&layouts.water)],
                    immediate_size: 0,
                });
        let water = ctx
            .device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("water"),
                layout: Some(&water_pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &water_shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(depth_state(false)),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &water_shader,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &targets_opaque,
                }),
                multiview_mask: None,
                cache: None,
            });

        let marker_shader = shader(ctx, "markers", include_str!("../../shaders/markers.wgsl"));
        let markers = ctx
            .device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("markers"),
                layout: Some(&scene_only),
                vertex: wgpu::VertexState {
                    module: &marker_shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[Some(wgpu::VertexBufferLayout {
                        array_stride: std::mem::size_of::<MarkerInstance>() as u64,
                        step_mode: wgpu::VertexStepMode::Instance,
                        attributes: &wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4],
                    })],
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleStrip,
                    ..Default::default()
                },
                depth_stencil: Some(depth_state(false)),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &marker_shader,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &targets_blend,
                }),
                multiview_mask: None,
                cache: None,
            });

        let features_layout = ctx
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("features"),
                bind_group_layouts: &[Some(&layouts.scene), Some(&layouts.feature_model)],
                immediate_size: 0,
            });
        let features_shader = shader(ctx, "features", include_str!("../../shaders/features.wgsl"));
        let [model_vertices, feature_instances] = features::vertex_layouts();
        let features = ctx
            .device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("features"),
                layout: Some(&features_layout),
                vertex: wgpu::VertexState {
                    module: &features_shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[Some(model_vertices), Some(feature_instances)],
                },
                // models are drawn from both sides (leaf cards, open meshes)
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(depth_state(true)),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &features_shader,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &targets_opaque,
                }),
                multiview_mask: None,
                cache: None,
            });

        let lods = (0..LOD_LEVELS)
            .map(|lod| {
                let g = lod_geometry(1 << lod);
                LodMesh {
                    vertices: ctx
                        .device
                        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                            label: Some("chunk vertices"),
                            contents: bytemuck::cast_slice(&g.vertices),
                            usage: wgpu::BufferUsages::VERTEX,
                        }),
                    indices: ctx
                        .device
                        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                            label: Some("chunk indices"),
                            contents: bytemuck::cast_slice(&g.indices),
                            usage: wgpu::BufferUsages::INDEX,
                        }),
                    index_count: g.indices.len() as u32,
                }
            })
            .collect();
        Renderer {
            layouts,
            terrain,
            grass,
            grass_patch,
            grass_patch_vertices: patch.len() as u32,
            water,
            markers,
            features,
            lods,
        }
    }

    /// Bytes the renderer's own buffers hold (the shared chunk meshes).
    pub fn gpu_bytes(&self) -> u64 {
        self.lods
            .iter()
            .map(|l| l.vertices.size() + l.indices.size())
            .sum::<u64>()
            + self.grass_patch.size()
    }

    /// The uniform block for one frame.
    fn frame_uniform(
        scene: &MapScene,
        target: &RenderTarget,
        camera: &Camera,
        opts: &ViewOptions,
    ) -> FrameUniform {
        let look = &scene.look;
        let sun = glam::Vec3::from(look.sun_dir).normalize_or(glam::Vec3::Y);
        let on = |b: bool| {
            if b {
                opts.overlay_opacity.clamp(0.0, 1.0)
            } else {
                0.0
            }
        };
        let eye = camera.eye();
        let v3 = |c: [f32; 3], w: f32| [c[0], c[1], c[2], w];
        FrameUniform {
            view_proj: camera.view_proj(target.aspect()).to_cols_array_2d(),
            camera_pos: [eye.x, eye.y, eye.z, if camera.ortho { 1.0 } else { 0.0 }],
            sun_dir: [sun.x, sun.y, sun.z, 0.0],
            ambient: v3(look.ambient, 0.0),
            diffuse: v3(look.diffuse, 0.0),
            specular: v3(look.specular, look.specular_exponent),
            map_size: [scene.width_elmos, scene.depth_elmos, look.max_metal, 0.0],
            water: v3(look.water_rgb, look.water_alpha),
            sky: v3(look.sky, 1.0),
            overlay: [
                on(opts.metal),
                on(opts.grass),
                on(opts.types),
                on(opts.slope),
            ],
            overlay_params: [
                slope_from_degrees(opts.slope_threshold_deg),
                if opts.contours {
                    opts.contour_interval_elmos.max(1.0)
                } else {
                    0.0
                },
                if opts.grid { 1.0 } else { 0.0 },
                if look.void_water { 1.0 } else { 0.0 },
            ],
            cursor: match opts.cursor {
                Some([x, z, r]) => [x, z, r, 1.0],
                None => [0.0; 4],
            },
            viewport: [
                target.width as f32,
                target.height as f32,
                0.0,
                if opts.water_term.is_some() { 1.0 } else { 0.0 },
            ],
            water_absorb: v3(look.water_absorb, 0.0),
            water_base: v3(look.water_base, 0.0),
            water_min: v3(look.water_min, 0.0),
            pathing: [
                if scene.pathing.choice().is_some() {
                    opts.overlay_opacity.clamp(0.0, 1.0)
                } else {
                    0.0
                },
                if scene.pathing.flooded { 1.0 } else { 0.0 },
                0.0,
                0.0,
            ],
        }
    }

    /// Draws `scene` as `camera` sees it into `target`, and submits the work: the terrain's
    /// mirror image for the water (when the water is on), the terrain, the feature models and
    /// the grass, a copy of that for the water to refract, the water, the markers.
    pub fn render(
        &self,
        ctx: &GpuContext,
        scene: &MapScene,
        target: &RenderTarget,
        camera: &Camera,
        opts: &ViewOptions,
    ) -> FrameStats {
        let sel = scene.chunks.select(
            camera,
            target.width,
            target.height,
            opts.lod_pixels_per_square.max(0.5),
            scene.tile_chunks(),
            scene.tiles_x(),
        );
        let uniform = Self::frame_uniform(scene, target, camera, opts);
        ctx.queue
            .write_buffer(&scene.frame, 0, bytemuck::bytes_of(&uniform));
        if !sel.instances.is_empty() {
            ctx.queue
                .write_buffer(&scene.instances, 0, bytemuck::cast_slice(&sel.instances));
        }
        let grass_window = opts.grass_blades.then(|| {
            visible_cells(
                camera,
                scene.grass.fade_elmos(),
                scene.height_range.1,
                scene.grass_cells,
                MAX_GRASS_PATCHES_PER_FRAME,
            )
        });
        let grass_patches = grass_window.map_or(0, |w| w.patches());
        if let Some(w) = grass_window.filter(|w| w.patches() > 0) {
            let u = scene.grass.uniform(&w);
            ctx.queue
                .write_buffer(&scene.grass.uniform, 0, bytemuck::bytes_of(&u));
        }
        let models_on = opts.features && scene.features.instance_count() > 0;
        let water_on = opts.water && !scene.water.look.void_water;
        let reflect = water_on && opts.water_reflection && opts.water_term.is_none();
        if water_on {
            let mut w = WaterUniform::new(
                &scene.water.look,
                scene.water.map_mid,
                opts.time_seconds,
                opts.water_term,
            );
            w.mode[3] = if reflect { 1.0 } else { 0.0 };
            ctx.queue
                .write_buffer(&scene.water.uniform, 0, bytemuck::bytes_of(&w));
        }
        if reflect {
            // the mirror picture: no overlays, no cursor, at its own (half) size
            let mut r = uniform;
            r.overlay = [0.0; 4];
            r.pathing = [0.0; 4];
            r.overlay_params[0] = 0.0;
            r.overlay_params[1] = 0.0;
            r.overlay_params[2] = 0.0;
            r.cursor = [0.0; 4];
            let wt = &target.water;
            r.viewport = [
                wt.reflection.width() as f32,
                wt.reflection.height() as f32,
                1.0,
                0.0,
            ];
            ctx.queue
                .write_buffer(&scene.reflect_frame, 0, bytemuck::bytes_of(&r));
        }
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("view"),
            });
        let sky = if opts.water_term.is_some() {
            [0.0; 3]
        } else {
            scene.look.sky.map(|c| c.clamp(0.0, 1.0) as f64)
        };
        let sky = wgpu::Color {
            r: sky[0],
            g: sky[1],
            b: sky[2],
            a: 1.0,
        };
        if reflect {
            let wt = &target.water;
            let mut pass = begin(
                &mut enc,
                "water reflection",
                &wt.reflection_view,
                &wt.reflection_depth_view,
                Some(sky),
            );
            self.draw_terrain(&mut pass, scene, &scene.reflect_bind_group, &sel);
        }
        {
            let mut pass = begin(
                &mut enc,
                "view",
                &target.color_view,
                &target.depth_view,
                Some(sky),
            );
            self.draw_terrain(&mut pass, scene, &scene.bind_group, &sel);
            if models_on {
                pass.set_pipeline(&self.features);
                pass.set_bind_group(0, &scene.bind_group, &[]);
                scene.features.draw(&mut pass);
            }
            if grass_patches > 0 {
                pass.set_pipeline(&self.grass);
                pass.set_bind_group(0, &scene.bind_group, &[]);
                pass.set_bind_group(1, &scene.grass.bind_group, &[]);
                pass.set_vertex_buffer(0, self.grass_patch.slice(..));
                pass.draw(0..self.grass_patch_vertices, 0..grass_patches);
            }
        }
        let water_group = water_on.then(|| {
            // the water refracts the frame drawn so far
            enc.copy_texture_to_texture(
                target.color.as_image_copy(),
                target.water.refraction.as_image_copy(),
                wgpu::Extent3d {
                    width: target.width,
                    height: target.height,
                    depth_or_array_layers: 1,
                },
            );
            fn view(v: &wgpu::TextureView) -> wgpu::BindingResource<'_> {
                wgpu::BindingResource::TextureView(v)
            }
            ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("water"),
                layout: &self.layouts.water,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: scene.water.uniform.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: view(&scene.water.normals),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: view(&target.water.reflection_view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 3,
                        resource: view(&target.water.refraction_view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 4,
                        resource: view(&scene.water.coast_view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 5,
                        resource: wgpu::BindingResource::Sampler(&scene.water.sampler),
                    },
                ],
            })
        });
        {
            let mut pass = begin(
                &mut enc,
                "water",
                &target.color_view,
                &target.depth_view,
                None,
            );
            if let Some(group) = &water_group {
                pass.set_pipeline(&self.water);
                pass.set_bind_group(0, &scene.bind_group, &[]);
                pass.set_bind_group(1, group, &[]);
                pass.draw(0..6, 0..1);
            }
            // the markers of features drawn as models come first: left out with the models
            let first_marker = if opts.features {
                scene.modelled_markers
            } else {
                0
            };
            if opts.markers && scene.marker_count > first_marker {
                pass.set_pipeline(&self.markers);
                pass.set_bind_group(0, &scene.bind_group, &[]);
                pass.set_vertex_buffer(0, scene.markers.slice(..));
                pass.draw(0..4, first_marker..scene.marker_count);
            }
        }
        ctx.queue.submit([enc.finish()]);
        FrameStats {
            chunks: sel.instances.len(),
            draws: sel.draws.len(),
            triangles: sel.triangles,
            grass_patches,
            feature_instances: if models_on {
                scene.features.instance_count()
            } else {
                0
            },
        }
    }

    /// The selected terrain chunks with the frame uniform of `scene_group`.
    fn draw_terrain(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        scene: &MapScene,
        scene_group: &wgpu::BindGroup,
        sel: &super::terrain::Selection,
    ) {
        pass.set_pipeline(&self.terrain);
        pass.set_bind_group(0, scene_group, &[]);
        pass.set_bind_group(2, &scene.ground.bind_group, &[]);
        pass.set_vertex_buffer(1, scene.instances.slice(..));
        let mut bound_tile = usize::MAX;
        for d in &sel.draws {
            if d.tile != bound_tile {
                pass.set_bind_group(1, &scene.tiles.tiles[d.tile].bind_group, &[]);
                bound_tile = d.tile;
            }
            let lod = &self.lods[d.lod];
            pass.set_vertex_buffer(0, lod.vertices.slice(..));
            pass.set_index_buffer(lod.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..lod.index_count, 0, d.first..d.first + d.count);
        }
    }
}

/// A render pass over `color` and `depth`, cleared to `clear` (and the far depth), or kept.
fn begin<'e>(
    enc: &'e mut wgpu::CommandEncoder,
    label: &str,
    color: &wgpu::TextureView,
    depth: &wgpu::TextureView,
    clear: Option<wgpu::Color>,
) -> wgpu::RenderPass<'e> {
    let (load, depth_load) = match clear {
        Some(c) => (wgpu::LoadOp::Clear(c), wgpu::LoadOp::Clear(0.0)),
        None => (wgpu::LoadOp::Load, wgpu::LoadOp::Load),
    };
    enc.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: color,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load,
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: depth,
            depth_ops: Some(wgpu::Operations {
                load: depth_load,
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}
