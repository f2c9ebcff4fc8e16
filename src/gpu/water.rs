//! The water as Recoil's BumpWater draws it (`shaders/water.wgsl`): its uniform block from the
//! map's resolved water ([`BumpWater`]) with the engine's pre-scaling (SurfaceColor and
//! PlaneColor x 0.4, DiffuseFactor x 15), the generated four-octave normal texture, the coast
//! field the shore foam and depth fade read, the per-target reflection and refraction
//! pictures, and the CPU twin of the shader's terms that the debug view (`--water-term`) is
//! tested against.

use bytemuck::{Pod, Zeroable};
use glam::Vec3;
use wgpu::util::DeviceExt;

use super::GpuContext;
use super::shared::{COLOR_FORMAT, DEPTH_FORMAT, texture_2d, texture_with_mips};
use crate::map::water::BumpWater;
use crate::map::{HeightGrid, Map};

/// BumpWater's pre-scaling of the surface and plane colours, and of the diffuse factor.
const COLOUR_SCALE: f32 = 0.4;
const DIFFUSE_FACTOR_SCALE: f32 = 15.0;
/// How far the shore foam and the coast field reach, in elmos.
const COAST_REACH_ELMOS: f32 = 120.0;
/// Side of the generated normal texture.
const NORMAL_TEXELS: usize = 256;
/// The engine's water clock: `frame = gameFrame / 15000` at 30 game frames a second.
fn engine_frame(seconds: f32) -> f32 {
    seconds * 30.0 / 15000.0
}

/// One term the debug view writes as grey: `round(255 * clamp(v / 2, 0, 1))`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaterTerm {
    Fresnel,
    Specular,
    Diffuse,
    SurfaceMix,
}

impl WaterTerm {
    pub fn parse(s: &str) -> Result<WaterTerm, String> {
        match s {
            "fresnel" => Ok(WaterTerm::Fresnel),
            "specular" => Ok(WaterTerm::Specular),
            "diffuse" => Ok(WaterTerm::Diffuse),
            "surface-mix" => Ok(WaterTerm::SurfaceMix),
            _ => Err(format!(
                "water term `{s}`: expected fresnel, specular, diffuse or surface-mix"
            )),
        }
    }

    /// The code the shader switches on (0 is the full water).
    fn code(self) -> f32 {
        match self {
            WaterTerm::Fresnel => 1.0,
            WaterTerm::Specular => 2.0,
            WaterTerm::Diffuse => 3.0,
            WaterTerm::SurfaceMix => 4.0,
        }
    }
}

/// The terms at one point of the surface, before any clamping: the shader's `terms()` twin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terms {
    pub angle: f32,
    pub fresnel: f32,
    pub specular: f32,
    pub diffuse: f32,
    pub ambient: f32,
    pub surface_mix: f32,
}

/// The terms BumpWater computes at `world` seen from `eye` (or along `ortho_dir` for an
/// orthographic view) with surface normal `normal`, on a map whose middle is `map_mid`, where
/// the water's `shallow` scale (0 at the shore, 1 from 25.5 elmos down) applies.
pub fn terms(
    w: &BumpWater,
    eye_dir: Vec3,
    world: Vec3,
    normal: Vec3,
    map_mid: Vec3,
    shallow: f32,
) -> Terms {
    let sun = Vec3::from(w.sun_dir);
    let sun_vec = (sun * 20000.0 + map_mid - world).normalize();
    let reflected = reflect(-sun_vec, normal);
    let cos = (-eye_dir).dot(normal);
    let angle = 1.0 - cos.abs();
    let sun_low = sun * Vec3::new(1.0, 0.1, 1.0);
    let diffuse = normal.dot(sun_low).max(0.0).powi(3) * w.diffuse_factor * DIFFUSE_FACTOR_SCALE;
    let ambient = smoothstep(-1.3, 0.0, cos) * w.ambient_factor;
    let specular = angle
        * reflected.dot(eye_dir).max(0.0).powf(w.specular_power)
        * w.specular_factor
        * shallow;
    Terms {
        angle,
        fresnel: w.fresnel_min + w.fresnel_max * angle.powf(w.fresnel_power),
        specular,
        diffuse,
        ambient,
        surface_mix: (w.surface_alpha + diffuse) * shallow,
    }
}

fn reflect(i: Vec3, n: Vec3) -> Vec3 {
    i - 2.0 * n.dot(i) * n
}

fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The grey the debug view writes for a term's value.
pub fn term_grey(v: f32) -> u8 {
    (255.0 * (v / 2.0).clamp(0.0, 1.0)).round() as u8
}

/// `Water` in `shaders/water.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct WaterUniform {
    /// rgb: SurfaceColor x 0.4; a: surfaceAlpha.
    pub surface: [f32; 4],
    /// rgb: PlaneColor x 0.4; a: 1 when the map has a water plane.
    pub plane: [f32; 4],
    /// rgb: DiffuseColor; a: DiffuseFactor x 15.
    pub diffuse: [f32; 4],
    /// rgb: SpecularColor; a: SpecularPower.
    pub specular: [f32; 4],
    /// ambient factor, specular factor, reflection distortion, caustics strength.
    pub factors: [f32; 4],
    /// fresnel min, max, power; perlin amplitude.
    pub fresnel: [f32; 4],
    /// perlin start frequency, lacunarity; blur base (elmos of screen: pixels), blur exponent.
    pub perlin: [f32; 4],
    /// xyz: unit vector to the sun; w: the engine's water clock (`frame`).
    pub sun: [f32; 4],
    /// x: the debug term (0: none); y: shore waves on; z: wave foam intensity; w: 1 when the
    /// reflection picture was drawn.
    pub mode: [f32; 4],
    /// xyz: the map's middle; w: caustics resolution.
    pub map_mid: [f32; 4],
}

impl WaterUniform {
    pub fn new(w: &BumpWater, map_mid: Vec3, seconds: f32, term: Option<WaterTerm>) -> Self {
        let c = |v: [f32; 3], s: f32, a: f32| [v[0] * s, v[1] * s, v[2] * s, a];
        WaterUniform {
            surface: c(w.surface_color, COLOUR_SCALE, w.surface_alpha),
            plane: match w.plane_color {
                Some(p) => c(p, COLOUR_SCALE, 1.0),
                None => [0.0; 4],
            },
            diffuse: c(
                w.diffuse_color,
                1.0,
                w.diffuse_factor * DIFFUSE_FACTOR_SCALE,
            ),
            specular: c(w.specular_color, 1.0, w.specular_power),
            factors: [
                w.ambient_factor,
                w.specular_factor,
                w.reflection_distortion,
                w.caustics_strength,
            ],
            fresnel: [
                w.fresnel_min,
                w.fresnel_max,
                w.fresnel_power,
                w.perlin_amplitude,
            ],
            perlin: [
                w.perlin_start_freq,
                w.perlin_lacunarity,
                w.blur_base,
                w.blur_exponent,
            ],
            sun: [
                w.sun_dir[0],
                w.sun_dir[1],
                w.sun_dir[2],
                if term.is_some() {
                    0.0
                } else {
                    engine_frame(seconds)
                },
            ],
            mode: [
                term.map_or(0.0, WaterTerm::code),
                if w.shore_waves { 1.0 } else { 0.0 },
                w.wave_foam_intensity,
                1.0,
            ],
            map_mid: [map_mid.x, map_mid.y, map_mid.z, w.caustics_resolution],
        }
    }
}

/// A tileable normal texture (RGB = x, z, up, as the engine's `normalTexture`): a sum of waves
/// whose frequencies are whole numbers of periods across the tile, so it wraps without seams.
fn generated_normals() -> Vec<u8> {
    let n = NORMAL_TEXELS;
    // (kx, kz, amplitude): integer wave numbers keep the tile seamless
    const WAVES: [(f32, f32, f32); 8] = [
        (1.0, 2.0, 0.9),
        (3.0, -1.0, 0.6),
        (-2.0, 5.0, 0.45),
        (6.0, 3.0, 0.3),
        (-7.0, -4.0, 0.25),
        (9.0, -8.0, 0.15),
        (13.0, 5.0, 0.1),
        (-11.0, 15.0, 0.08),
    ];
    let tau = std::f32::consts::TAU;
    let mut out = vec![0u8; n * n * 4];
    for j in 0..n {
        for i in 0..n {
            let (u, v) = (i as f32 / n as f32, j as f32 / n as f32);
            // the height's slope in x and z; the normal is (-dx, 1, -dz) at a fixed steepness
            let (mut dx, mut dz) = (0.0f32, 0.0f32);
            for (k, (kx, kz, a)) in WAVES.iter().enumerate() {
                let phase = tau * (kx * u + kz * v) + k as f32 * 1.7;
                let d = a * phase.cos();
                dx += d * kx;
                dz += d * kz;
            }
            let s = 0.04;
            let nrm = Vec3::new(-dx * s, 1.0, -dz * s).normalize();
            let o = (j * n + i) * 4;
            let to = |x: f32| ((x * 0.5 + 0.5) * 255.0).round() as u8;
            out[o] = to(nrm.x);
            out[o + 1] = to(nrm.z);
            out[o + 2] = to(nrm.y);
            out[o + 3] = 255;
        }
    }
    out
}

/// The coast field at the heightmap's vertices, one byte each: 255 on land (height >= 0),
/// falling with the cube of the distance to land across the water (0 beyond
/// [`COAST_REACH_ELMOS`]). Distances by a two-pass 3-4 chamfer over the vertex grid.
fn coast_field(heights: &HeightGrid) -> Vec<u8> {
    let (w, h) = heights.dims();
    const FAR: u32 = u32::MAX / 2;
    let mut d: Vec<u32> = heights
        .data()
        .iter()
        .map(|&y| if y >= 0.0 { 0 } else { FAR })
        .collect();
    let at = |x: usize, z: usize| z * w + x;
    for z in 0..h {
        for x in 0..w {
            let mut v = d[at(x, z)];
            if x > 0 {
                v = v.min(d[at(x - 1, z)] + 3);
            }
            if z > 0 {
                v = v.min(d[at(x, z - 1)] + 3);
                if x > 0 {
                    v = v.min(d[at(x - 1, z - 1)] + 4);
                }
                if x + 1 < w {
                    v = v.min(d[at(x + 1, z - 1)] + 4);
                }
            }
            d[at(x, z)] = v;
        }
    }
    for z in (0..h).rev() {
        for x in (0..w).rev() {
            let mut v = d[at(x, z)];
            if x + 1 < w {
                v = v.min(d[at(x + 1, z)] + 3);
            }
            if z + 1 < h {
                v = v.min(d[at(x, z + 1)] + 3);
                if x + 1 < w {
                    v = v.min(d[at(x + 1, z + 1)] + 4);
                }
                if x > 0 {
                    v = v.min(d[at(x - 1, z + 1)] + 4);
                }
            }
            d[at(x, z)] = v;
        }
    }
    // a chamfer step of 3 is one vertex, 8 elmos
    d.iter()
        .map(|&c| {
            let elmos = c as f32 / 3.0 * 8.0;
            let f = (1.0 - elmos / COAST_REACH_ELMOS).clamp(0.0, 1.0);
            (f * f * f * 255.0).round() as u8
        })
        .collect()
}

/// The water of one map on the GPU: the uniform block, the normal texture and the coast field.
pub struct SceneWater {
    pub look: BumpWater,
    pub map_mid: Vec3,
    pub(super) uniform: wgpu::Buffer,
    pub(super) normals: wgpu::TextureView,
    pub(super) coast: wgpu::Texture,
    pub(super) coast_view: wgpu::TextureView,
    pub(super) sampler: wgpu::Sampler,
    /// The document revision the coast field was made at.
    coast_revision: Option<u64>,
}

impl SceneWater {
    pub fn new(ctx: &GpuContext, map: &Map) -> SceneWater {
        let look = BumpWater::from_settings(&map.settings);
        let normals = match map_normals(map) {
            Some((rgba, w, h)) => texture_with_mips(ctx, "water normals", &rgba, (w, h)),
            None => texture_with_mips(
                ctx,
                "water normals",
                &generated_normals(),
                (NORMAL_TEXELS, NORMAL_TEXELS),
            ),
        };
        let (cw, ch) = map.heights.dims();
        let coast = texture_2d(
            ctx,
            "coast field",
            (cw, ch),
            wgpu::TextureFormat::R8Unorm,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        let sampler = ctx.device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("water"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        let map_mid = Vec3::new(
            map.size.width_elmos() * 0.5,
            0.0,
            map.size.depth_elmos() * 0.5,
        );
        let uniform = ctx
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("water"),
                contents: bytemuck::bytes_of(&WaterUniform::new(&look, map_mid, 0.0, None)),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            });
        let mut water = SceneWater {
            look,
            map_mid,
            uniform,
            normals: normals.create_view(&Default::default()),
            coast_view: coast.create_view(&Default::default()),
            coast,
            sampler,
            coast_revision: None,
        };
        water.write_coast(ctx, &map.heights);
        water
    }

    fn write_coast(&mut self, ctx: &GpuContext, heights: &HeightGrid) {
        let (w, h) = heights.dims();
        let field = coast_field(heights);
        super::shared::write_texels(
            ctx,
            &self.coast,
            super::shared::TexelsAt::default(),
            (w, h),
            1,
            &field,
        );
    }

    /// Makes the coast field again from edited heights, once per document `revision`.
    pub fn follow_heights(&mut self, ctx: &GpuContext, heights: &HeightGrid, revision: u64) {
        if self.coast_revision != Some(revision) {
            self.write_coast(ctx, heights);
            self.coast_revision = Some(revision);
        }
    }

    /// Bytes the normal texture and the coast field hold.
    pub fn gpu_bytes(&self) -> u64 {
        let (w, h) = (self.coast.width() as u64, self.coast.height() as u64);
        (NORMAL_TEXELS * NORMAL_TEXELS * 4 * 4 / 3) as u64 + w * h
    }
}

/// The map's own `water.normalTexture`, when its archive carries that file (tried as given
/// and under `maps/`, as the engine looks) and it decodes; at most 2048 texels a side.
fn map_normals(map: &Map) -> Option<(Vec<u8>, usize, usize)> {
    let name = map.settings.water.normal_texture.as_ref()?;
    let want = name.replace('\\', "/").to_ascii_lowercase();
    let file = map.bundled_files.iter().find(|f| {
        let p = f.path.to_ascii_lowercase();
        p == want || p == format!("maps/{want}")
    })?;
    crate::formats::image_file::decode_rgba(&file.bytes().ok()?, &file.path, 2048).ok()
}

/// The pictures the water of one view samples: the terrain mirrored in the water (half size)
/// and the scene under the water (a copy of the frame before the water is drawn).
pub struct WaterTargets {
    pub reflection: wgpu::Texture,
    pub reflection_view: wgpu::TextureView,
    pub reflection_depth_view: wgpu::TextureView,
    pub refraction: wgpu::Texture,
    pub refraction_view: wgpu::TextureView,
}

impl WaterTargets {
    pub fn new(ctx: &GpuContext, width: u32, height: u32) -> WaterTargets {
        let make = |label: &str, w: u32, h: u32, format, usage| {
            texture_2d(
                ctx,
                label,
                (w.max(1) as usize, h.max(1) as usize),
                format,
                usage,
            )
        };
        let (rw, rh) = (width.div_ceil(2), height.div_ceil(2));
        let attach = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let reflection = make("water reflection", rw, rh, COLOR_FORMAT, attach);
        let depth = make("water reflection depth", rw, rh, DEPTH_FORMAT, attach);
        let refraction = make(
            "water refraction",
            width,
            height,
            COLOR_FORMAT,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        WaterTargets {
            reflection_view: reflection.create_view(&Default::default()),
            reflection,
            reflection_depth_view: depth.create_view(&Default::default()),
            refraction_view: refraction.create_view(&Default::default()),
            refraction,
        }
    }

    pub fn gpu_bytes(&self) -> u64 {
        let r = self.reflection.width() as u64 * self.reflection.height() as u64 * 8;
        let f = self.refraction.width() as u64 * self.refraction.height() as u64 * 4;
        r + f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::MapSettings;

    #[test]
    fn fresnel_is_a_sum_and_saturates_edge_on() {
        let mut s = MapSettings::default();
        s.water.fresnel_min = Some(0.4);
        s.water.fresnel_max = Some(0.8);
        let w = BumpWater::from_settings(&s);
        let up = Vec3::Y;
        let mid = Vec3::new(512.0, 0.0, 512.0);
        let at = Vec3::new(512.0, 0.0, 512.0);
        // straight down: angle 0, fresnel = min
        let t = terms(&w, Vec3::Y, at, up, mid, 1.0);
        assert!((t.fresnel - 0.4).abs() < 1e-6);
        // edge-on: angle 1, fresnel = min + max = 1.2, above 1
        let t = terms(&w, Vec3::new(1.0, 0.0, 0.0), at, up, mid, 1.0);
        assert!((t.fresnel - 1.2).abs() < 1e-6);
        // rising in between
        let mut last = 0.0;
        for deg in [90.0f32, 60.0, 30.0, 10.0, 2.0] {
            let e = Vec3::new(deg.to_radians().cos(), deg.to_radians().sin(), 0.0);
            let f = terms(&w, e, at, up, mid, 1.0).fresnel;
            assert!(f >= last);
            last = f;
        }
    }

    #[test]
    fn diffuse_and_surface_mix_follow_the_low_sun() {
        let s = MapSettings::default();
        let w = BumpWater::from_settings(&s);
        let t = terms(&w, Vec3::Y, Vec3::ZERO, Vec3::Y, Vec3::ZERO, 1.0);
        // sunDir (0, 1, 2) normalised, y scaled by 0.1: (0.1 / sqrt 5)^3 x 15
        let want = (0.1f32 / 5f32.sqrt()).powi(3) * 15.0;
        assert!((t.diffuse - want).abs() < 1e-7, "{} {want}", t.diffuse);
        assert!((t.surface_mix - (0.55 + want)).abs() < 1e-6);
        // at the shore the mix and specular fade out
        let shore = terms(&w, Vec3::Y, Vec3::ZERO, Vec3::Y, Vec3::ZERO, 0.0);
        assert_eq!((shore.surface_mix, shore.specular), (0.0, 0.0));
    }

    #[test]
    fn the_coast_field_is_land_then_falls_off() {
        let mut h = HeightGrid::filled(40, 3, -50.0);
        for z in 0..3 {
            h.set(0, z, 10.0);
        }
        let f = coast_field(&h);
        assert_eq!(f[0], 255);
        // 8 elmos out: (1 - 8/120)^3
        assert_eq!(f[1], ((1.0f32 - 8.0 / 120.0).powi(3) * 255.0).round() as u8);
        // past the reach: 0
        assert_eq!(f[20], 0);
        assert!(f[1] > f[2] && f[2] > f[5]);
    }

    #[test]
    fn a_maps_own_normal_texture_is_found_under_maps() {
        let mut m = Map::new(
            crate::map::MapSize::new(2, 2).unwrap(),
            MapSettings::default(),
        );
        assert!(map_normals(&m).is_none());
        let mut png = Vec::new();
        image::RgbaImage::from_pixel(8, 4, image::Rgba([128, 128, 255, 255]))
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        m.bundled_files
            .push(crate::map::BundledFile::new("maps/Waves.png".into(), png));
        m.settings.water.normal_texture = Some("waves.png".into());
        let (rgba, w, h) = map_normals(&m).unwrap();
        assert_eq!((w, h, &rgba[..4]), (8, 4, &[128, 128, 255, 255][..]));
    }

    #[test]
    fn the_normal_texture_tiles_and_points_up() {
        let n = generated_normals();
        let side = NORMAL_TEXELS;
        for j in 0..side {
            for i in 0..side {
                assert!(n[(j * side + i) * 4 + 2] > 200, "not mostly up at {i},{j}");
            }
        }
        // the last column continues into the first
        let px = |i: usize, j: usize| n[(j * side + i) * 4] as i32;
        for j in (0..side).step_by(17) {
            assert!((px(side - 1, j) - px(0, j)).abs() <= 12);
        }
    }
}
