//! The pathing overlay on the GPU: one move class's code for every square (the speed, 0 too
//! steep, -1 water it may not enter), an `r32float` texture of mapx x mapy the terrain pass
//! reads (`@group(0)` binding 7), made by `shaders/pathing.wgsl` from the scene's live heights
//! and re-made over a stroke's rectangle only, so it follows the brush. Without compute the
//! CPU twin (`analyze::passability::codes_rect`) fills it. Beside it, the flooded region of a
//! start (binding 8, one byte a square, made on the CPU by `analyze::reach::Regions`).
//!
//! Memory: 5 bytes a square, 20 MiB on a 32x32 map.

use bytemuck::{Pod, Zeroable};

use super::GpuContext;
use super::shared::{texture_2d, write_texture_rect};
use crate::analyze::ground::HeightRule;
use crate::analyze::move_class::{MoveClass, MoveKind};
use crate::analyze::passability::{WaterRules, codes_rect};
use crate::edit::GridRect;
use crate::map::Map;

/// Rectangles one [`ScenePathing::evaluate_vertices`] call dispatches separately; more merge.
const MAX_RECTS: usize = 64;
/// Bytes between rectangle slots of the dynamic uniform buffer.
const RECT_STRIDE: u64 = 256;

/// One class as the kernel reads it; `PathClass` in `shaders/pathing.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct PathClassUniform {
    pub flags: [u32; 4],
    pub limits: [f32; 4],
    pub depth: [f32; 4],
    pub depth_more: [f32; 4],
}

impl PathClassUniform {
    pub fn new(class: &MoveClass, water: WaterRules, rule: HeightRule) -> PathClassUniform {
        let kind = match class.kind {
            MoveKind::Tank => 0,
            MoveKind::Bot => 1,
            MoveKind::Hover => 2,
            MoveKind::Ship => 3,
        };
        let d = &class.depth_mod;
        PathClassUniform {
            flags: [
                kind,
                u32::from(rule == HeightRule::CellMean),
                u32::from(water.no_hover_water),
                0,
            ],
            limits: [
                class.max_slope(),
                class.max_water_depth,
                class.min_water_depth,
                class.slope_mod,
            ],
            depth: [d.min_height, d.max_height, d.max_scale, d.quadratic],
            depth_more: [d.linear, d.constant, water.ground_cost, 0.0],
        }
    }
}

/// What the overlay shows: one class under the map's water rules, read by a height rule.
#[derive(Clone, Debug, PartialEq)]
pub struct PathingChoice {
    pub class: MoveClass,
    pub water: WaterRules,
    pub rule: HeightRule,
}

impl PathingChoice {
    /// `class` on `map` as BAR's engine (Recoil) paths it.
    pub fn for_map(class: &MoveClass, map: &Map) -> PathingChoice {
        PathingChoice {
            class: class.clone(),
            water: WaterRules::for_damage(map.settings.water.damage.unwrap_or(0.0)),
            rule: HeightRule::HighestCorner,
        }
    }
}

struct Kernel {
    pipeline: wgpu::ComputePipeline,
    inputs: wgpu::BindGroup,
    rect_group: wgpu::BindGroup,
    rects: wgpu::Buffer,
}

/// The overlay's textures and kernel for one map.
pub struct ScenePathing {
    /// mapx x mapy squares.
    pub squares: (usize, usize),
    /// Each square's code (`r32float`), storage-capable with compute.
    pub codes: wgpu::Texture,
    /// 255 where the flooded region is, else 0 (`r8unorm`).
    pub flood: wgpu::Texture,
    class_buffer: wgpu::Buffer,
    kernel: Option<Kernel>,
    /// What the codes were made for; `None` while the overlay is off.
    choice: Option<PathingChoice>,
    /// Whether a flooded region is uploaded.
    pub flooded: bool,
}

impl ScenePathing {
    /// The textures for `map`, reading the scene's `heights` texture; the overlay starts off.
    pub fn new(ctx: &GpuContext, map: &Map, heights: &wgpu::Texture) -> ScenePathing {
        let (vw, vh) = map.heights.dims();
        let squares = (vw - 1, vh - 1);
        let mut usage = wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC;
        if ctx.compute {
            usage |= wgpu::TextureUsages::STORAGE_BINDING;
        }
        let codes = texture_2d(
            ctx,
            "pathing codes",
            squares,
            wgpu::TextureFormat::R32Float,
            usage,
        );
        let flood = texture_2d(
            ctx,
            "pathing flood",
            squares,
            wgpu::TextureFormat::R8Unorm,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        let class_buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pathing class"),
            size: std::mem::size_of::<PathClassUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let kernel = ctx
            .compute
            .then(|| Self::kernel(ctx, heights, &codes, &class_buffer));
        ScenePathing {
            squares,
            codes,
            flood,
            class_buffer,
            kernel,
            choice: None,
            flooded: false,
        }
    }

    fn kernel(
        ctx: &GpuContext,
        heights: &wgpu::Texture,
        codes: &wgpu::Texture,
        class_buffer: &wgpu::Buffer,
    ) -> Kernel {
        let inputs_layout = super::shared::compute_layout(
            ctx,
            "pathing inputs",
            &[
                (
                    0,
                    wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: false },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                ),
                (
                    1,
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                ),
                (
                    2,
                    wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::WriteOnly,
                        format: wgpu::TextureFormat::R32Float,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                ),
            ],
        );
        let rect_layout = super::shared::compute_layout(
            ctx,
            "pathing rectangle",
            &[(
                0,
                wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(16),
                },
            )],
        );
        let pipeline = super::shared::compute_pipeline(
            ctx,
            "pathing",
            include_str!("../../shaders/pathing.wgsl"),
            &[&inputs_layout, &rect_layout],
        );
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let (hv, cv) = (view(heights), view(codes));
        let inputs = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("pathing inputs"),
            layout: &inputs_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&hv),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: class_buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&cv),
                },
            ],
        });
        let rects = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pathing rectangles"),
            size: RECT_STRIDE * MAX_RECTS as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let rect_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("pathing rectangle"),
            layout: &rect_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &rects,
                    offset: 0,
                    size: wgpu::BufferSize::new(16),
                }),
            }],
        });
        Kernel {
            pipeline,
            inputs,
            rect_group,
            rects,
        }
    }

    /// Whether the codes are made on the GPU.
    pub fn on_gpu(&self) -> bool {
        self.kernel.is_some()
    }

    /// What the overlay shows now (`None`: off).
    pub fn choice(&self) -> Option<&PathingChoice> {
        self.choice.as_ref()
    }

    /// Shows `choice` (`None` turns the overlay off); a new choice evaluates every square of
    /// `map` (on the GPU from the scene's heights, else by the CPU twin).
    pub fn set_choice(&mut self, ctx: &GpuContext, map: &Map, choice: Option<PathingChoice>) {
        if choice == self.choice {
            return;
        }
        self.choice = choice;
        let Some(c) = &self.choice else {
            return;
        };
        let u = PathClassUniform::new(&c.class, c.water, c.rule);
        ctx.queue
            .write_buffer(&self.class_buffer, 0, bytemuck::bytes_of(&u));
        let all = GridRect::new(0, 0, self.squares.0, self.squares.1);
        if self.kernel.is_some() {
            self.dispatch(ctx, &[all]);
        } else {
            self.evaluate_cpu(ctx, map, all);
        }
    }

    /// The squares whose code reads a vertex of `rect` (heightmap vertices), widened to whole
    /// slope cells (2 x 2 squares).
    pub fn squares_of_vertices(&self, rect: GridRect) -> GridRect {
        let (mx, mz) = self.squares;
        let x0 = rect.x0.saturating_sub(1) & !1;
        let z0 = rect.z0.saturating_sub(1) & !1;
        let x1 = ((rect.x0 + rect.w + 1) & !1).min(mx);
        let z1 = ((rect.z0 + rect.h + 1) & !1).min(mz);
        GridRect::new(x0, z0, x1.saturating_sub(x0), z1.saturating_sub(z0))
    }

    /// The heights changed over `rects` (heightmap vertices) on the GPU, mid-stroke: makes the
    /// codes there again from the live heights. Nothing while the overlay is off or without
    /// compute (the CPU twin follows the document when the stroke ends).
    pub fn evaluate_vertices(&self, ctx: &GpuContext, rects: &[GridRect]) {
        if self.choice.is_none() || self.kernel.is_none() {
            return;
        }
        let squares: Vec<GridRect> = rects
            .iter()
            .map(|r| self.squares_of_vertices(*r))
            .filter(|r| !r.is_empty())
            .collect();
        self.dispatch(ctx, &squares);
    }

    /// The document's heights changed over `rect` (vertices: a stroke ended, an undo, a CPU
    /// stroke): the codes there follow.
    pub fn heights_changed(&self, ctx: &GpuContext, map: &Map, rect: GridRect) {
        if self.choice.is_none() {
            return;
        }
        let squares = self.squares_of_vertices(rect);
        if self.kernel.is_some() {
            self.dispatch(ctx, &[squares]);
        } else {
            self.evaluate_cpu(ctx, map, squares);
        }
    }

    fn dispatch(&self, ctx: &GpuContext, squares: &[GridRect]) {
        let Some(k) = &self.kernel else { return };
        let mut list: Vec<GridRect> = squares.iter().copied().filter(|r| !r.is_empty()).collect();
        if list.is_empty() {
            return;
        }
        if list.len() > MAX_RECTS {
            let rest = list.split_off(MAX_RECTS - 1);
            let merged = rest.iter().skip(1).fold(rest[0], |a, b| a.union(b));
            list.push(merged);
        }
        let mut bytes = vec![0u8; RECT_STRIDE as usize * list.len()];
        for (i, r) in list.iter().enumerate() {
            let v = [r.x0 as u32, r.z0 as u32, r.w as u32, r.h as u32];
            let at = i * RECT_STRIDE as usize;
            bytes[at..at + 16].copy_from_slice(bytemuck::cast_slice(&v));
        }
        ctx.queue.write_buffer(&k.rects, 0, &bytes);
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("pathing"),
            });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("pathing"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&k.pipeline);
            pass.set_bind_group(0, &k.inputs, &[]);
            for (i, r) in list.iter().enumerate() {
                pass.set_bind_group(1, &k.rect_group, &[(i as u64 * RECT_STRIDE) as u32]);
                pass.dispatch_workgroups((r.w as u32).div_ceil(8), (r.h as u32).div_ceil(8), 1);
            }
        }
        ctx.queue.submit([enc.finish()]);
    }

    /// The CPU twin over `squares`, from the document's heights, uploaded.
    pub fn evaluate_cpu(&self, ctx: &GpuContext, map: &Map, squares: GridRect) {
        let Some(c) = &self.choice else { return };
        if squares.is_empty() {
            return;
        }
        let codes = codes_rect(
            &map.heights,
            &c.class,
            c.water,
            c.rule,
            squares.x0,
            squares.z0,
            squares.x0 + squares.w,
            squares.z0 + squares.h,
        );
        write_texture_rect(ctx, &self.codes, squares, &codes);
    }

    /// Shows the flooded region (`mask`: one byte a square, row-major, non-zero inside), or
    /// none.
    pub fn set_flood(&mut self, ctx: &GpuContext, mask: Option<&[u8]>) {
        let Some(mask) = mask else {
            self.flooded = false;
            return;
        };
        let (w, h) = self.squares;
        if mask.len() != w * h {
            self.flooded = false;
            return;
        }
        super::shared::write_texels(
            ctx,
            &self.flood,
            super::shared::TexelsAt::default(),
            (w, h),
            1,
            mask,
        );
        self.flooded = true;
    }

    /// Reads every code back (tests, benches).
    pub fn read_codes(&self, ctx: &GpuContext) -> Result<Vec<f32>, super::GpuError> {
        let all = GridRect::new(0, 0, self.squares.0, self.squares.1);
        let bytes = super::target::read_texture_rects(ctx, &self.codes, &[all], 4)?;
        Ok(bytemuck::pod_collect_to_vec::<u8, f32>(&bytes[0]))
    }

    /// Bytes held on the GPU.
    pub fn gpu_bytes(&self) -> u64 {
        (self.squares.0 * self.squares.1 * 5) as u64
    }
}

/// The overlay's colour and opacity for a square's code, as `terrain.wgsl` draws it (the
/// legend's colours): blocked red, water it may not enter blue, else from orange (slow) to
/// green (full speed).
pub fn pathing_rgba(code: f32) -> [f32; 4] {
    if code < -0.5 {
        return [0.1, 0.35, 1.0, 0.65];
    }
    if code <= 0.0 {
        return [1.0, 0.08, 0.05, 0.75];
    }
    let t = code.clamp(0.0, 1.0);
    let mix = |a: f32, b: f32| a + (b - a) * t;
    [
        mix(1.0, 0.15),
        mix(0.55, 0.85),
        mix(0.05, 0.3),
        mix(0.6, 0.3),
    ]
}
