//! Grass drawn as BAR's grass widget (`map_grass_gl4`) grows it (`shaders/grass.wgsl`): one
//! instanced patch of crossed blade quads per 32-elmo grass cell, sized from the grass byte and
//! `custom.grassConfig`, blades from the map's `grassBladeColorTex` (or a built-in texture),
//! coloured toward the ground under them (the minimap, the widget's `$grass` default) and faded
//! out with distance. The grass bytes are read from the scene's grass layer, so a stroke shows
//! as it is painted.

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::GpuContext;
use super::camera::Camera;
use super::shared::texture_with_mips;
use crate::map::grass::{GRASS_CELL_ELMOS, GrassConfig, PATCH_JITTER};
use crate::map::{GrassMap, Map};

/// The widget scales its fade distances by this (`distanceMult`).
const FADE_DISTANCE_MULT: f32 = 0.45;
/// Texels per side of the ground colour the blades are tinted with (the minimap's size).
const GROUND_COLOUR_TEXELS: usize = 1024;
/// Side of the built-in blade texture.
const BUILT_IN_BLADES: (usize, usize) = (128, 64);

/// One vertex of the patch at size 1: position (elmos, y up) and texture coordinates (v from
/// the root, 0, to the tip, 1).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct BladeVertex {
    pub pos: [f32; 3],
    pub uv: [f32; 2],
}

/// `Grass` in `shaders/grass.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct GrassUniform {
    pub size: [f32; 4],
    pub fade: [f32; 4],
    pub window: [f32; 4],
}

/// The patch: four clumps of three crossed, leaning quads, about 40 elmos across and 9 tall
/// at size 1 (the widget's four-clump patch is of that size).
pub fn patch_vertices() -> Vec<BladeVertex> {
    const CLUMPS: [([f32; 2], f32); 4] = [
        ([-7.0, -6.0], 0.3),
        ([7.5, -5.0], 1.2),
        ([-6.0, 7.0], 2.1),
        ([6.5, 6.5], 0.8),
    ];
    const HALF_WIDTH: f32 = 10.0;
    const HEIGHT: f32 = 9.0;
    const LEAN: f32 = 3.0;
    let mut out = Vec::with_capacity(CLUMPS.len() * 3 * 6);
    for (centre, turn) in CLUMPS {
        for k in 0..3 {
            let a = turn + k as f32 * std::f32::consts::TAU / 6.0;
            let (s, c) = a.sin_cos();
            // along the quad, and the way its top leans (across it)
            let along = [c * HALF_WIDTH, s * HALF_WIDTH];
            let lean = [-s * LEAN, c * LEAN];
            let at = |u: f32, v: f32| {
                let side = u * 2.0 - 1.0;
                BladeVertex {
                    pos: [
                        centre[0] + along[0] * side + lean[0] * v,
                        v * HEIGHT,
                        centre[1] + along[1] * side + lean[1] * v,
                    ],
                    uv: [u, v],
                }
            };
            let (a0, a1, b0, b1) = (at(0.0, 0.0), at(1.0, 0.0), at(0.0, 1.0), at(1.0, 1.0));
            out.extend([a0, a1, b1, b1, b0, a0]);
        }
    }
    out
}

/// A built-in blade texture (`BUILT_IN_BLADES`, root at the bottom row): a dozen tapering,
/// bending blades, dark green at the root to straw at the tip, on transparent ground.
fn built_in_blades() -> (Vec<u8>, usize, usize) {
    let (w, h) = BUILT_IN_BLADES;
    let mut rgba = vec![0u8; w * h * 4];
    let blades = 14;
    for b in 0..blades {
        // a fixed, irregular spread of roots, widths, heights and bends
        let f = b as f32 / blades as f32;
        let root = (f + 0.5 / blades as f32) * w as f32;
        let bend = ((b * 7 % 5) as f32 - 2.0) * 6.0;
        let tall = 0.65 + 0.35 * (((b * 5) % 7) as f32 / 6.0);
        let width = 3.0 + ((b * 3) % 4) as f32;
        for y in 0..h {
            // t: 0 at the root (bottom row), 1 at the top of the texture
            let t = 1.0 - (y as f32 + 0.5) / h as f32;
            if t > tall {
                continue;
            }
            let along = t / tall;
            let cx = root + bend * along * along;
            let half = width * 0.5 * (1.0 - along).max(0.08);
            for x in 0..w {
                let d = (x as f32 + 0.5 - cx).abs();
                let cover = (half + 0.5 - d).clamp(0.0, 1.0);
                if cover <= 0.0 {
                    continue;
                }
                let o = (y * w + x) * 4;
                let shade = 0.85 + 0.15 * ((b * 11 % 3) as f32 / 2.0);
                let col = [
                    (0.18 + 0.55 * along) * shade,
                    (0.36 + 0.42 * along) * shade,
                    (0.08 + 0.18 * along) * shade,
                ];
                let a = cover.max(rgba[o + 3] as f32 / 255.0);
                for c in 0..3 {
                    rgba[o + c] = (col[c] * 255.0).round() as u8;
                }
                rgba[o + 3] = (a * 255.0).round() as u8;
            }
        }
    }
    (rgba, w, h)
}

/// The highest grass byte, which decides how BAR reads the map (1: legacy yes/no grass).
pub fn legacy_grass(grass: &GrassMap) -> bool {
    grass.data().iter().copied().max() == Some(1)
}

/// The most grass patches one frame draws: a square of 128 x 128 cells, 4096 elmos a side.
/// BAR's widget draws blades only near the camera; past about 2000 elmos a patch is a few
/// pixels tall at 1920x1080, and on a CPU adapter each one costs its 72 vertices anyway.
pub const MAX_GRASS_PATCHES_PER_FRAME: u32 = 128 * 128;

/// What one view draws of the grass: a window of cells around the eye and the distances the
/// blades fade out over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GrassWindow {
    /// First cell x, first cell z, width and depth in cells; nothing when the width is 0.
    pub cells: (u32, u32, u32, u32),
    /// Fade start and end in elmos from the eye: the map's, pulled in when the budget asks.
    pub fade_elmos: [f32; 2],
}

impl GrassWindow {
    /// Patches the window draws (one instance per cell).
    pub fn patches(&self) -> u32 {
        self.cells.2 * self.cells.3
    }
}

/// The grass cells a view draws: a square of cells around the eye, as far as the fade
/// (`fade_elmos`, start and end) leaves blades visible over ground no higher than
/// `top_elmos`, and never more than `budget` patches: when the fade reaches further than the
/// budget's square, both fade distances are pulled in by the same factor, so the blades
/// still fade out before the window's edge instead of stopping there.
pub fn visible_cells(
    camera: &Camera,
    fade_elmos: [f32; 2],
    top_elmos: f32,
    grass_cells: (u32, u32),
    budget: u32,
) -> GrassWindow {
    let none = GrassWindow {
        cells: (0, 0, 0, 0),
        fade_elmos,
    };
    let eye = camera.eye();
    let above = (eye.y - top_elmos).max(0.0);
    let cell = GRASS_CELL_ELMOS;
    // the widest square the budget allows; floor and ceil at both sides add up to 2 cells
    let side_cells = (budget as f64).sqrt().floor() as u32;
    if side_cells < 3 || fade_elmos[1].is_nan() || fade_elmos[1] <= 0.0 || !eye.is_finite() {
        return none;
    }
    let budget_reach = (side_cells - 2) as f32 * cell / 2.0;
    let mut fade = fade_elmos;
    let mut reach = if above < fade[1] {
        (fade[1] * fade[1] - above * above).sqrt()
    } else {
        0.0
    };
    if reach > budget_reach {
        let end = (budget_reach * budget_reach + above * above).sqrt();
        let k = end / fade[1];
        fade = [fade[0] * k, end];
        reach = budget_reach;
    }
    if reach <= 0.0 {
        return GrassWindow {
            cells: (0, 0, 0, 0),
            fade_elmos: fade,
        };
    }
    let lo = |v: f32| ((v - reach) / cell).floor().max(0.0) as u32;
    let hi = |v: f32, n: u32| (((v + reach) / cell).ceil().max(0.0) as u32).min(n);
    let (x0, x1) = (lo(eye.x), hi(eye.x, grass_cells.0));
    let (z0, z1) = (lo(eye.z), hi(eye.z, grass_cells.1));
    if x1 <= x0 || z1 <= z0 {
        return GrassWindow {
            cells: (0, 0, 0, 0),
            fade_elmos: fade,
        };
    }
    GrassWindow {
        cells: (x0, z0, (x1 - x0).min(side_cells), (z1 - z0).min(side_cells)),
        fade_elmos: fade,
    }
}

/// The grass of one map on the GPU: its configuration, the blade texture and the ground colour.
pub struct SceneGrass {
    pub config: GrassConfig,
    /// The map's highest grass byte is 1: BAR gives every patch a random size.
    pub legacy: bool,
    /// Where the blades came from: the archive's file, or "built-in".
    pub blade_source: String,
    /// The `grassBladeColorTex` the blades were loaded for.
    loaded_for: Option<String>,
    pub(super) uniform: wgpu::Buffer,
    pub(super) bind_group: wgpu::BindGroup,
    blade_bytes: u64,
}

impl SceneGrass {
    pub fn new(ctx: &GpuContext, layout: &wgpu::BindGroupLayout, map: &Map) -> SceneGrass {
        let config = GrassConfig::from_settings(&map.settings);
        let (blades, bw, bh, blade_source) = match map_blades(map, &config) {
            Some((rgba, w, h, name)) => (rgba, w, h, name),
            None => {
                let (rgba, w, h) = built_in_blades();
                (rgba, w, h, "built-in".to_string())
            }
        };
        let blade_tex = texture_with_mips(ctx, "grass blades", &blades, (bw, bh));
        let colour = map.texture.box_filtered_square(GROUND_COLOUR_TEXELS);
        let colour_tex = texture_with_mips(
            ctx,
            "grass ground colour",
            &colour,
            (GROUND_COLOUR_TEXELS, GROUND_COLOUR_TEXELS),
        );
        let uniform = ctx
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("grass"),
                contents: bytemuck::bytes_of(&GrassUniform::zeroed()),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            });
        let sampler = ctx.device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("grass"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let (bv, cv) = (view(&blade_tex), view(&colour_tex));
        let bind_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("grass"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&bv),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&cv),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::Sampler(&sampler),
                },
            ],
        });
        SceneGrass {
            loaded_for: config.blade_texture.clone(),
            config,
            legacy: legacy_grass(&map.grass),
            blade_source,
            uniform,
            bind_group,
            blade_bytes: (bw * bh * 4 * 4 / 3 + GROUND_COLOUR_TEXELS.pow(2) * 4 * 4 / 3) as u64,
        }
    }

    /// Whether the blades were loaded for another `grassBladeColorTex` than `config` names.
    pub fn blades_stale(&self) -> bool {
        self.loaded_for != self.config.blade_texture
    }

    /// Bytes the blade and ground colour textures hold.
    pub fn gpu_bytes(&self) -> u64 {
        self.blade_bytes
    }

    /// Fade start and end in elmos from the eye, as the widget scales the map's.
    pub fn fade_elmos(&self) -> [f32; 2] {
        let c = &self.config;
        [
            c.fade_start_elmos * FADE_DISTANCE_MULT,
            c.fade_end_elmos * FADE_DISTANCE_MULT,
        ]
    }

    /// The uniform block for a view drawing `window`.
    pub fn uniform(&self, window: &GrassWindow) -> GrassUniform {
        let c = &self.config;
        GrassUniform {
            size: [
                c.min_size,
                c.max_size,
                if self.legacy { 1.0 } else { 0.0 },
                GRASS_CELL_ELMOS,
            ],
            fade: [
                window.fade_elmos[0],
                window.fade_elmos[1],
                c.map_colour_factor,
                c.map_colour_base,
            ],
            window: [
                window.cells.0 as f32,
                window.cells.1 as f32,
                window.cells.2.max(1) as f32,
                PATCH_JITTER,
            ],
        }
    }
}

/// The map's own blade texture, when its archive carries the file `grassBladeColorTex` names
/// and it decodes (RGBA, width, height, the file's name). Blades larger than 4096 texels a
/// side are refused.
fn map_blades(map: &Map, config: &GrassConfig) -> Option<(Vec<u8>, usize, usize, String)> {
    let name = config.blade_texture.as_ref()?;
    let want = name.replace('\\', "/").to_ascii_lowercase();
    let file = map
        .bundled_files
        .iter()
        .find(|f| f.path.to_ascii_lowercase() == want)?;
    let (rgba, w, h) =
        crate::formats::image_file::decode_rgba(&file.bytes().ok()?, &file.path, 4096).ok()?;
    Some((rgba, w, h, file.path.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn the_patch_stands_on_the_ground_and_fits_a_cell_and_a_half() {
        let v = patch_vertices();
        assert_eq!(v.len(), 4 * 3 * 6);
        let (lo_y, hi_y) = v.iter().fold((f32::MAX, f32::MIN), |(a, b), p| {
            (a.min(p.pos[1]), b.max(p.pos[1]))
        });
        assert_eq!((lo_y, hi_y), (0.0, 9.0));
        for p in &v {
            assert!(p.pos[0].abs() < 24.0 && p.pos[2].abs() < 24.0, "{p:?}");
            // roots at v 0, tips at v 1
            assert_eq!(p.uv[1], p.pos[1] / 9.0);
        }
    }

    #[test]
    fn built_in_blades_root_at_the_bottom() {
        let (rgba, w, h) = built_in_blades();
        let cover = |y: usize| (0..w).filter(|&x| rgba[(y * w + x) * 4 + 3] > 128).count();
        // wide at the root, thin or gone at the top
        assert!(
            cover(h - 1) > 3 * cover(4).max(1),
            "{} {}",
            cover(h - 1),
            cover(4)
        );
    }

    #[test]
    fn the_window_follows_the_eye_and_the_fade() {
        let mut cam = Camera::preset(super::super::CameraPreset::Overview, 4096.0, 4096.0, 0.0);
        cam.look_at(
            Vec3::new(1000.0, 200.0, 1000.0),
            Vec3::new(1200.0, 0.0, 1200.0),
        );
        let win = visible_cells(
            &cam,
            [400.0, 640.0],
            200.0,
            (128, 128),
            MAX_GRASS_PATCHES_PER_FRAME,
        );
        // 640 elmos either side of x = 1000: cells 11 .. 52, the fade as the map says
        assert_eq!(win.cells, (11, 11, 41, 41));
        assert_eq!(win.fade_elmos, [400.0, 640.0]);
        // far above everything: nothing
        cam.look_at(
            Vec3::new(1000.0, 9000.0, 1000.0),
            Vec3::new(1200.0, 0.0, 1200.0),
        );
        let far = visible_cells(&cam, [2250.0, 3600.0], 200.0, (128, 128), u32::MAX);
        assert_eq!(far.patches(), 0);
    }

    #[test]
    fn the_blade_budget_is_never_exceeded_whatever_the_camera() {
        // a 32x32 map's grass (512 x 512 cells), BAR's fade (3600 elmos) and a far larger
        // one a map may set; eyes on the ground, low, high, outside the map, looking anywhere
        let cells = (512, 512);
        let mut cam = Camera::preset(super::super::CameraPreset::Overview, 16384.0, 16384.0, 0.0);
        let mut seen_full = false;
        let mut seen_pulled_in = false;
        for fade in [[2250.0, 3600.0], [40000.0, 90000.0], [0.0, 50.0]] {
            for &(x, z) in &[
                (0.0, 0.0),
                (8192.0, 8192.0),
                (16384.0, 300.0),
                (-5000.0, 8000.0),
                (20000.0, 20000.0),
                (123.0, 16000.0),
            ] {
                for y in [1.0, 30.0, 400.0, 2000.0, 3500.0, 8000.0] {
                    for budget in [MAX_GRASS_PATCHES_PER_FRAME, 2500, 9, 1, 0] {
                        let eye = Vec3::new(x, y, z);
                        cam.look_at(eye, eye + Vec3::new(300.0, -20.0, 100.0));
                        let win = visible_cells(&cam, fade, 0.0, cells, budget);
                        assert!(
                            win.patches() <= budget,
                            "{} patches over a budget of {budget} (eye {eye}, fade {fade:?})",
                            win.patches()
                        );
                        // the blades fade out no later than the window reaches
                        assert!(win.fade_elmos[0] <= win.fade_elmos[1]);
                        assert!(win.fade_elmos[1] <= fade[1] + 1e-3);
                        if win.patches() > 0 {
                            let reach_sq = win.fade_elmos[1].powi(2) - y * y;
                            let reach = reach_sq.max(0.0).sqrt();
                            let (x0, z0, w, h) = win.cells;
                            let cell = GRASS_CELL_ELMOS;
                            // every point the fade leaves visible on the map lies in the window
                            assert!(x0 as f32 * cell <= (x - reach).max(0.0) + 1e-3);
                            assert!(z0 as f32 * cell <= (z - reach).max(0.0) + 1e-3);
                            assert!(
                                (x0 + w) as f32 * cell >= (x + reach).min(16384.0) - 1e-3,
                                "{win:?} {eye}"
                            );
                            assert!((z0 + h) as f32 * cell >= (z + reach).min(16384.0) - 1e-3);
                        }
                        seen_full |= win.fade_elmos == fade && win.patches() > 0;
                        seen_pulled_in |= win.fade_elmos[1] < fade[1] - 1.0;
                    }
                }
            }
        }
        assert!(seen_full && seen_pulled_in);
    }

    #[test]
    fn legacy_is_a_highest_byte_of_one() {
        let mut g = GrassMap::filled(4, 4, 0);
        assert!(!legacy_grass(&g));
        g.set(1, 1, 1);
        assert!(legacy_grass(&g));
        g.set(2, 1, 2);
        assert!(!legacy_grass(&g));
    }
}
