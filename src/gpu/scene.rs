//! One map on the GPU: the height texture (the GPU copy brushes edit), metal, grass and type
//! textures, the tiled ground texture, the chunk grid, markers, and the look taken from the
//! map's settings. Built off the UI thread (wgpu devices are shared across threads).

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::ground::GroundTiles;
use super::renderer::Renderer;
use super::terrain::{CHUNK_SQUARES, ChunkGrid, ChunkInstance};
use super::view::type_colour;
use super::{GpuContext, GpuError};
use crate::map::{Grid, HeightGrid, Map, MapSettings};

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

/// Team colours for start markers, in team order (repeating).
pub const TEAM_COLOURS: [[f32; 3]; 8] = [
    [0.95, 0.2, 0.15],
    [0.15, 0.45, 1.0],
    [0.2, 0.85, 0.25],
    [1.0, 0.85, 0.1],
    [0.8, 0.3, 0.95],
    [0.1, 0.9, 0.9],
    [1.0, 0.55, 0.1],
    [0.95, 0.95, 0.95],
];

pub struct MapScene {
    /// Heightmap vertices (mapx + 1, mapy + 1).
    pub vertices: (u32, u32),
    pub width_elmos: f32,
    pub depth_elmos: f32,
    pub look: SceneLook,
    pub heights: wgpu::Texture,
    metal: wgpu::Texture,
    grass: wgpu::Texture,
    types: wgpu::Texture,
    palette: wgpu::Buffer,
    pub(super) frame: wgpu::Buffer,
    pub(super) bind_group: wgpu::BindGroup,
    pub(super) tiles: GroundTiles,
    pub chunks: ChunkGrid,
    pub(super) instances: wgpu::Buffer,
    pub(super) markers: wgpu::Buffer,
    pub(super) marker_count: u32,
    gpu_bytes_fixed: u64,
}

fn r8_texture(
    ctx: &GpuContext,
    label: &str,
    grid: &Grid<u8>,
    format: wgpu::TextureFormat,
) -> wgpu::Texture {
    let (w, h) = grid.dims();
    let tex = ctx.device.create_texture(&wgpu::TextureDescriptor {
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
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    write_r8(ctx, &tex, grid);
    tex
}

fn write_r8(ctx: &GpuContext, tex: &wgpu::Texture, grid: &Grid<u8>) {
    let (w, h) = grid.dims();
    ctx.queue.write_texture(
        tex.as_image_copy(),
        grid.data(),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(w as u32),
            rows_per_image: Some(h as u32),
        },
        wgpu::Extent3d {
            width: w as u32,
            height: h as u32,
            depth_or_array_layers: 1,
        },
    );
}

impl MapScene {
    /// Puts `map` on the GPU. `progress(done, total)` reports the ground texture's tiles.
    pub fn new(
        ctx: &GpuContext,
        renderer: &Renderer,
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
        let mut usage = wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC;
        if ctx.compute {
            usage |= wgpu::TextureUsages::STORAGE_BINDING;
        }
        let heights = ctx.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("heights"),
            size: wgpu::Extent3d {
                width: hw as u32,
                height: hh as u32,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Float,
            usage,
            view_formats: &[],
        });
        write_heights_rect(ctx, &heights, &map.heights, 0, 0, hw, hh);
        let metal = r8_texture(ctx, "metal", &map.metal, wgpu::TextureFormat::R8Unorm);
        let grass = r8_texture(ctx, "grass", &map.grass, wgpu::TextureFormat::R8Unorm);
        let types = r8_texture(ctx, "types", &map.types, wgpu::TextureFormat::R8Uint);
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
            size: std::mem::size_of::<super::renderer::FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let (hv, mv, gv, tv) = (view(&heights), view(&metal), view(&grass), view(&types));
        let bind_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene"),
            layout: &renderer.scene_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: frame.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&hv),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&mv),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::TextureView(&gv),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: wgpu::BindingResource::TextureView(&tv),
                },
                wgpu::BindGroupEntry {
                    binding: 5,
                    resource: palette.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 6,
                    resource: wgpu::BindingResource::Sampler(&renderer.sampler),
                },
            ],
        });
        ctx.queue.submit([]);
        let tiles = GroundTiles::upload(ctx, &renderer.tile_layout, &map.texture, progress)?;
        let chunks = ChunkGrid::new(&map.heights);
        let instances = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("chunk instances"),
            size: (chunks.len().max(1) * std::mem::size_of::<ChunkInstance>()) as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let cells = |g: &Grid<u8>| g.data().len() as u64;
        let gpu_bytes_fixed = (hw * hh * 4) as u64
            + cells(&map.metal)
            + cells(&map.grass)
            + cells(&map.types)
            + 4096
            + instances.size()
            + frame.size();
        let mut scene = MapScene {
            vertices: (hw as u32, hh as u32),
            width_elmos: map.size.width_elmos(),
            depth_elmos: map.size.depth_elmos(),
            look: SceneLook::from_settings(&map.settings),
            heights,
            metal,
            grass,
            types,
            palette,
            frame,
            bind_group,
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
            gpu_bytes_fixed,
        };
        scene.set_markers(ctx, map);
        Ok(scene)
    }

    /// Bytes this map holds on the GPU (textures with mips, buffers).
    pub fn gpu_bytes(&self) -> u64 {
        self.gpu_bytes_fixed + self.tiles.gpu_bytes + self.markers.size()
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

    /// Takes up changed settings (lighting, water, void water, maxMetal).
    pub fn apply_settings(&mut self, settings: &MapSettings) {
        self.look = SceneLook::from_settings(settings);
    }

    /// Rebuilds the start and feature markers.
    pub fn set_markers(&mut self, ctx: &GpuContext, map: &Map) {
        let ground = |x: f32, z: f32| map.heights.sample_bilinear(x / 8.0, z / 8.0);
        let mut m: Vec<MarkerInstance> = map
            .features
            .iter()
            .map(|f| MarkerInstance {
                pos_size: [
                    f.x_elmos,
                    ground(f.x_elmos, f.z_elmos) + 8.0,
                    f.z_elmos,
                    3.5,
                ],
                colour: [0.1, 0.35, 0.1, 1.0],
            })
            .collect();
        m.extend(map.teams.iter().enumerate().map(|(i, t)| {
            let c = TEAM_COLOURS[i % TEAM_COLOURS.len()];
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

    /// Copies a rectangle of the document's heights to the GPU (undo, redo, CPU brushes) and
    /// refreshes the chunks' height ranges there.
    pub fn write_heights(
        &mut self,
        ctx: &GpuContext,
        heights: &HeightGrid,
        x0: usize,
        z0: usize,
        w: usize,
        h: usize,
    ) {
        if w == 0 || h == 0 {
            return;
        }
        write_heights_rect(ctx, &self.heights, heights, x0, z0, w, h);
        self.chunks.refresh(heights, x0, z0, w, h);
    }

    /// Takes up new metal, grass and type layers.
    pub fn write_layers(&mut self, ctx: &GpuContext, map: &Map) {
        write_r8(ctx, &self.metal, &map.metal);
        write_r8(ctx, &self.grass, &map.grass);
        write_r8(ctx, &self.types, &map.types);
    }

    /// Reads a rectangle of the GPU's heights back (once, when a stroke ends).
    pub fn read_heights(
        &self,
        ctx: &GpuContext,
        x0: usize,
        z0: usize,
        w: usize,
        h: usize,
    ) -> Result<HeightGrid, GpuError> {
        let bytes = super::target::read_texture_rows(
            ctx,
            &self.heights,
            x0 as u32,
            z0 as u32,
            w as u32,
            h as u32,
            4,
        )?;
        let values: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Grid::from_vec(w, h, values)
            .ok_or_else(|| GpuError::Readback("short read of the heights".into()))
    }

    /// The palette of type colours is fixed; kept so that it lives as long as the scene.
    pub fn palette(&self) -> &wgpu::Buffer {
        &self.palette
    }
}

fn write_heights_rect(
    ctx: &GpuContext,
    tex: &wgpu::Texture,
    heights: &HeightGrid,
    x0: usize,
    z0: usize,
    w: usize,
    h: usize,
) {
    let stride = heights.width();
    ctx.queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: tex,
            mip_level: 0,
            origin: wgpu::Origin3d {
                x: x0 as u32,
                y: z0 as u32,
                z: 0,
            },
            aspect: wgpu::TextureAspect::All,
        },
        bytemuck::cast_slice(heights.data()),
        wgpu::TexelCopyBufferLayout {
            offset: ((z0 * stride + x0) * 4) as u64,
            bytes_per_row: Some(stride as u32 * 4),
            rows_per_image: Some(h as u32),
        },
        wgpu::Extent3d {
            width: w as u32,
            height: h as u32,
            depth_or_array_layers: 1,
        },
    );
}
