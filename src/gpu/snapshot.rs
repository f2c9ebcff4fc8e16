//! One picture of a map with no window: what `groundwork render`, the render tests and
//! thumbnails use. The same renderer as the editor's view.

use super::{
    Camera, CameraPreset, GpuContext, GpuError, MapScene, RenderTarget, Renderer, ViewOptions,
};
use crate::map::Map;

/// The camera for `preset` over `map`, clamped above its ground.
pub fn preset_camera(map: &Map, preset: CameraPreset, aspect: f32) -> Camera {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let mut cam = Camera::preset(preset, w, d, 0.0);
    if matches!(preset, CameraPreset::Overview | CameraPreset::Top) {
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
    let renderer = Renderer::new(ctx);
    let scene = MapScene::new(ctx, &renderer, map, &mut |_, _| {})?;
    let target = RenderTarget::new(ctx, width, height);
    let camera = preset_camera(map, preset, target.aspect());
    renderer.render(ctx, &scene, &target, &camera, opts);
    target.read_rgba(ctx)
}
