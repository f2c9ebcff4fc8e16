//! One picture of a map with no window: what `groundwork render`, the render tests and
//! thumbnails use. The same renderer as the editor's view.

use super::{
    Camera, CameraPreset, GpuContext, GpuError, MapScene, RenderTarget, Renderer, ViewOptions,
};
use crate::map::Map;

/// Degrees above the water the grazing camera looks across it from.
const GRAZING_DEG: f32 = 4.0;

/// The grazing view of `map`'s largest body of water: a few degrees above its surface, from
/// the water point and direction with the longest clear run of water ahead, looking along it;
/// `None` on a map without water.
fn grazing_over_water(map: &Map) -> Option<Camera> {
    let body = crate::map::water::largest_water_body(&map.heights)?;
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let wet = |x: f32, z: f32| {
        (0.0..=w).contains(&x) && (0.0..=d).contains(&z) && map.height_at(x, z) < 0.0
    };
    // candidate eyes on a grid over the body's reach, 16 directions each, marched in 16-elmo
    // steps to the first land
    let step = 16.0;
    let reach = body.half_length_elmos * 1.2;
    let mut best = (0.0f32, [0.0f32; 2], [1.0f32, 0.0]);
    let n = 12;
    for a in 0..n {
        for b in 0..n {
            let x = body.centre[0] + (a as f32 / (n - 1) as f32 * 2.0 - 1.0) * reach;
            let z = body.centre[1] + (b as f32 / (n - 1) as f32 * 2.0 - 1.0) * reach;
            if !wet(x, z) {
                continue;
            }
            for k in 0..16 {
                let t = k as f32 / 16.0 * std::f32::consts::TAU;
                let dir = [t.cos(), t.sin()];
                let mut run = 0.0;
                while wet(x + dir[0] * (run + step), z + dir[1] * (run + step)) && run < 4.0 * reach
                {
                    run += step;
                }
                if run > best.0 {
                    best = (run, [x, z], dir);
                }
            }
        }
    }
    let (run, from, dir) = best;
    if run < step {
        return None;
    }
    let target = glam::Vec3::new(
        from[0] + dir[0] * run * 0.6,
        0.0,
        from[1] + dir[1] * run * 0.6,
    );
    let mut eye = glam::Vec3::new(from[0], 0.0, from[1]);
    eye.y = ((target - eye).length() * GRAZING_DEG.to_radians().tan()).max(12.0);
    let mut cam = Camera::preset(CameraPreset::LookAt { eye, target }, w, d, 0.0);
    cam.look_at(eye, target);
    Some(cam)
}

/// The camera for `preset` over `map`, clamped above its ground. Grazing looks across the
/// largest body of water when the map has one.
pub fn preset_camera(map: &Map, preset: CameraPreset, aspect: f32) -> Camera {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    if preset == CameraPreset::Grazing
        && let Some(cam) = grazing_over_water(map)
    {
        return cam;
    }
    let mut cam = Camera::preset(preset, w, d, 0.0);
    if matches!(
        preset,
        CameraPreset::Overview | CameraPreset::Top | CameraPreset::FortyFive
    ) {
        cam.frame(w, d, aspect);
    }
    if !matches!(preset, CameraPreset::LookAt { .. }) {
        cam.clamp_above_ground(|x, z| map.height_at(x, z));
    }
    cam
}

/// Renders `map` at `width` x `height` pixels and returns tightly packed RGBA8 rows.
pub fn render_map_rgba(
    ctx: &GpuContext,
    map: &Map,
    preset: CameraPreset,
    width: u32,
    height: u32,
    opts: &ViewOptions,
) -> Result<Vec<u8>, GpuError> {
    render_map_rgba_with(ctx, map, preset, (width, height), opts, |_| {})
}

/// [`render_map_rgba`], with `prepare` setting the scene up first (the pathing overlay).
pub fn render_map_rgba_with(
    ctx: &GpuContext,
    map: &Map,
    preset: CameraPreset,
    (width, height): (u32, u32),
    opts: &ViewOptions,
    prepare: impl FnOnce(&mut MapScene),
) -> Result<Vec<u8>, GpuError> {
    let renderer = Renderer::new(ctx);
    let mut scene = MapScene::new(ctx, &renderer.layouts, map, &mut |_, _| {})?;
    prepare(&mut scene);
    let scene = scene;
    let target = RenderTarget::new(ctx, width, height);
    let camera = preset_camera(map, preset, target.aspect());
    renderer.render(ctx, &scene, &target, &camera, opts);
    target.read_rgba(ctx)
}
