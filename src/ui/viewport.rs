//! The 3D view: draws the map through the GPU renderer into a texture egui shows, turns mouse
//! and keys into camera moves (orbit, pan, zoom, WASD fly, top-down, frame the map), picks the
//! ground under the cursor, and drives the active tool's strokes.

use glam::Vec3;

use crate::gpu::{
    Camera, CameraPreset, FrameStats, GpuContext, HeightKernels, MapScene, RenderTarget, Renderer,
    ViewOptions,
};
use crate::map::Map;

use super::document::Document;
use super::log_panel::LogPanel;
use super::stroke::{Stroke, StrokeGpu};
use super::tools_panel::{Tool, ToolsPanel};

/// The GPU handles the view draws with.
pub struct ViewGpu<'a> {
    pub ctx: &'a GpuContext,
    pub renderer: &'a Renderer,
    pub kernels: Option<&'a HeightKernels>,
    pub egui_renderer: &'a egui::mutex::RwLock<egui_wgpu::Renderer>,
}

pub struct Viewport {
    pub camera: Camera,
    pub view: ViewOptions,
    target: Option<RenderTarget>,
    texture_id: Option<egui::TextureId>,
    /// The ground point under the cursor, in elmos.
    pub hover: Option<Vec3>,
    stroke: Option<Stroke>,
    pub stats: FrameStats,
    /// The last view's size in pixels.
    pub size_px: [u32; 2],
}

impl Default for Viewport {
    fn default() -> Viewport {
        Viewport {
            camera: Camera::preset(CameraPreset::Overview, 4096.0, 4096.0, 0.0),
            view: ViewOptions::default(),
            target: None,
            texture_id: None,
            hover: None,
            stroke: None,
            stats: FrameStats::default(),
            size_px: [0, 0],
        }
    }
}

use crate::gpu::snapshot::ground_height as ground_at;

/// Where a ray first meets the ground of `map`, marching a square at a time then bisecting.
pub fn pick_ground(map: &Map, origin: Vec3, dir: Vec3) -> Option<Vec3> {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let (lo, hi) = (
        map.settings.min_height_elmos - 1.0,
        map.settings.max_height_elmos + 1.0,
    );
    // the stretch of the ray inside the map's box
    let (mut t0, mut t1) = (0.0f32, f32::INFINITY);
    for (o, dv, a, b) in [
        (origin.x, dir.x, 0.0, w),
        (origin.y, dir.y, lo, hi),
        (origin.z, dir.z, 0.0, d),
    ] {
        if dv.abs() < 1e-9 {
            if o < a || o > b {
                return None;
            }
        } else {
            let (ta, tb) = ((a - o) / dv, (b - o) / dv);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
        }
    }
    if t0 > t1 || !t1.is_finite() {
        return None;
    }
    let above = |t: f32| {
        let p = origin + dir * t;
        p.y - ground_at(map, p.x, p.z)
    };
    let step = 4.0;
    let mut prev = t0;
    if above(prev) < 0.0 {
        return Some(origin + dir * prev);
    }
    let mut t = t0;
    while t < t1 {
        t = (t + step).min(t1);
        if above(t) <= 0.0 {
            let (mut a, mut b) = (prev, t);
            for _ in 0..20 {
                let m = 0.5 * (a + b);
                if above(m) > 0.0 {
                    a = m;
                } else {
                    b = m;
                }
            }
            return Some(origin + dir * b);
        }
        prev = t;
    }
    None
}

impl Viewport {
    /// Frames the whole map from the overview angle.
    pub fn frame_map(&mut self, map: &Map) {
        let aspect = if self.size_px[1] > 0 {
            self.size_px[0] as f32 / self.size_px[1] as f32
        } else {
            16.0 / 9.0
        };
        let ortho = self.camera.ortho;
        self.camera = Camera::preset(
            CameraPreset::Overview,
            map.size.width_elmos(),
            map.size.depth_elmos(),
            0.0,
        );
        if ortho {
            self.camera = Camera::preset(
                CameraPreset::Top,
                map.size.width_elmos(),
                map.size.depth_elmos(),
                0.0,
            );
        }
        self.camera
            .frame(map.size.width_elmos(), map.size.depth_elmos(), aspect);
        self.camera.clamp_above_ground(|x, z| ground_at(map, x, z));
    }

    /// Switches between the orbit camera and the top-down orthographic view.
    pub fn toggle_top_down(&mut self, map: &Map) {
        self.camera.ortho = !self.camera.ortho;
        if !self.camera.ortho {
            self.camera.pitch_rad = 55f32.to_radians();
        }
        self.camera.clamp_above_ground(|x, z| ground_at(map, x, z));
    }

    /// Whether a stroke is running (the document lags the GPU until it ends).
    pub fn stroking(&self) -> bool {
        self.stroke.is_some()
    }

    /// Drops the picture (the map changed; a new scene comes).
    pub fn reset(&mut self) {
        self.stroke = None;
        self.hover = None;
    }

    /// Draws the view filling `ui`, handling input. Returns a line for the log when a stroke ended.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        doc: &mut Document,
        scene: &mut MapScene,
        gpu: &ViewGpu,
        tools: &ToolsPanel,
        log: &mut LogPanel,
    ) {
        let (rect, response) =
            ui.allocate_exact_size(ui.available_size(), egui::Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map view"));
        let ppp = ui.ctx().pixels_per_point();
        let w = ((rect.width() * ppp).round() as u32).max(1);
        let h = ((rect.height() * ppp).round() as u32).max(1);
        self.size_px = [w, h];
        let aspect = w as f32 / h as f32;

        self.handle_camera_input(ui, &response, rect, &doc.map);

        // the ground under the cursor
        self.hover = response.hover_pos().and_then(|p| {
            let ndc_x = (p.x - rect.left()) / rect.width() * 2.0 - 1.0;
            let ndc_y = 1.0 - (p.y - rect.top()) / rect.height() * 2.0;
            let (o, d) = self.camera.ray(ndc_x, ndc_y, aspect);
            pick_ground(&doc.map, o, d)
        });

        self.handle_tool(ui, &response, doc, scene, gpu, tools, log);

        // draw
        let mut view = self.view;
        view.cursor = match (tools.tool, self.hover) {
            (Tool::RaiseLower, Some(p)) => Some([p.x, p.z, tools.brush.radius_elmos]),
            _ => None,
        };
        let recreate = self
            .target
            .as_ref()
            .is_none_or(|t| t.width != w || t.height != h);
        if recreate {
            let target = RenderTarget::new(gpu.ctx, w, h);
            let mut r = gpu.egui_renderer.write();
            match self.texture_id {
                None => {
                    self.texture_id = Some(r.register_native_texture(
                        &gpu.ctx.device,
                        &target.color_view,
                        wgpu::FilterMode::Linear,
                    ))
                }
                Some(id) => r.update_egui_texture_from_wgpu_texture(
                    &gpu.ctx.device,
                    &target.color_view,
                    wgpu::FilterMode::Linear,
                    id,
                ),
            }
            self.target = Some(target);
        }
        if let (Some(target), Some(id)) = (&self.target, self.texture_id) {
            self.stats = gpu
                .renderer
                .render(gpu.ctx, scene, target, &self.camera, &view);
            let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
            ui.painter().image(id, rect, uv, egui::Color32::WHITE);
        }
        self.paint_start_labels(ui, rect, &doc.map, aspect);
    }

    fn handle_camera_input(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        rect: egui::Rect,
        map: &Map,
    ) {
        let elmos_per_point =
            2.0 * self.camera.distance_elmos * (self.camera.fov_y_rad * 0.5).tan()
                / rect.height().max(1.0);
        let shift = ui.input(|i| i.modifiers.shift);
        let alt = ui.input(|i| i.modifiers.alt);
        let delta = response.drag_delta();
        let mut moved = false;
        if response.dragged_by(egui::PointerButton::Middle)
            || (alt && response.dragged_by(egui::PointerButton::Primary))
        {
            if shift {
                self.camera
                    .pan(-delta.x * elmos_per_point, delta.y * elmos_per_point);
            } else {
                self.camera.orbit(-delta.x * 0.006, delta.y * 0.006);
            }
            moved = true;
        }
        if response.dragged_by(egui::PointerButton::Secondary) {
            self.camera
                .pan(-delta.x * elmos_per_point, delta.y * elmos_per_point);
            moved = true;
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                self.camera.zoom((-scroll * 0.0025).exp());
                moved = true;
            }
        }
        // keys, unless a text field has them
        if response.hovered() && !ui.ctx().egui_wants_keyboard_input() {
            let dt = ui.input(|i| i.stable_dt).min(0.1);
            let speed = self.camera.distance_elmos * 0.8 * dt * if shift { 3.0 } else { 1.0 };
            let (mut right, mut fwd, mut up) = (0.0, 0.0, 0.0);
            ui.input(|i| {
                if i.key_down(egui::Key::W) {
                    fwd += speed;
                }
                if i.key_down(egui::Key::S) {
                    fwd -= speed;
                }
                if i.key_down(egui::Key::D) {
                    right += speed;
                }
                if i.key_down(egui::Key::A) {
                    right -= speed;
                }
                if i.key_down(egui::Key::E) {
                    up += 1.0;
                }
                if i.key_down(egui::Key::Q) {
                    up -= 1.0;
                }
            });
            if right != 0.0 || fwd != 0.0 {
                self.camera.pan(right, fwd);
                moved = true;
            }
            if up != 0.0 {
                self.camera.zoom((-up * dt * 1.5).exp());
                moved = true;
            }
            if ui.input(|i| i.key_pressed(egui::Key::T)) {
                self.toggle_top_down(map);
            }
            if ui.input(|i| i.key_pressed(egui::Key::F) || i.key_pressed(egui::Key::Home)) {
                self.frame_map(map);
            }
        }
        // keep the target on the map and the eye above ground
        let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
        self.camera.target.x = self.camera.target.x.clamp(0.0, w);
        self.camera.target.z = self.camera.target.z.clamp(0.0, d);
        self.camera.clamp_above_ground(|x, z| ground_at(map, x, z));
        if moved {
            ui.ctx().request_repaint();
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn handle_tool(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        doc: &mut Document,
        scene: &mut MapScene,
        gpu: &ViewGpu,
        tools: &ToolsPanel,
        log: &mut LogPanel,
    ) {
        let sgpu = StrokeGpu {
            ctx: gpu.ctx,
            kernels: gpu.kernels,
        };
        let alt = ui.input(|i| i.modifiers.alt);
        let painting = tools.tool == Tool::RaiseLower
            && !alt
            && response.is_pointer_button_down_on()
            && ui.input(|i| i.pointer.primary_down());
        if painting {
            if let Some(p) = self.hover {
                let at = [p.x, p.z];
                let stroke = self.stroke.get_or_insert_with(|| Stroke::begin(at));
                let dt = ui.input(|i| i.stable_dt).clamp(0.001, 0.1);
                let lower = tools.lower ^ ui.input(|i| i.modifiers.shift);
                let dabs = tools.brush.dabs_along(stroke.last_elmos, at, dt, lower);
                stroke.apply(&dabs, doc, scene, &sgpu);
                stroke.last_elmos = at;
                ui.ctx().request_repaint();
            }
        } else if let Some(stroke) = self.stroke.take() {
            match stroke.finish(doc, scene, &sgpu) {
                Ok(Some(text)) => log.info(format!("{text} (Ctrl+Z undoes)")),
                Ok(None) => {}
                Err(e) => log.error(format!("the stroke could not be read back: {e}")),
            }
        }
    }

    /// Team numbers beside the start markers.
    fn paint_start_labels(&self, ui: &egui::Ui, rect: egui::Rect, map: &Map, aspect: f32) {
        if !self.view.markers {
            return;
        }
        let vp = self.camera.view_proj(aspect);
        for (i, t) in map.teams.iter().enumerate() {
            let p = Vec3::new(
                t.start_x_elmos,
                ground_at(map, t.start_x_elmos, t.start_z_elmos) + 30.0,
                t.start_z_elmos,
            );
            let c = vp * p.extend(1.0);
            if c.w <= 0.0 {
                continue;
            }
            let (x, y) = (c.x / c.w, c.y / c.w);
            if x.abs() > 1.0 || y.abs() > 1.0 {
                continue;
            }
            let pos = egui::pos2(
                rect.left() + (x + 1.0) * 0.5 * rect.width() + 14.0,
                rect.top() + (1.0 - y) * 0.5 * rect.height() - 14.0,
            );
            ui.painter().text(
                pos,
                egui::Align2::LEFT_BOTTOM,
                format!("{}", i + 1),
                egui::FontId::proportional(16.0),
                egui::Color32::WHITE,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize};

    #[test]
    fn picking_finds_the_ground_under_a_ray() {
        let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        for h in map.heights.data_mut() {
            *h = 50.0;
        }
        let hit = pick_ground(&map, Vec3::new(300.0, 1000.0, 400.0), Vec3::NEG_Y).unwrap();
        assert!(
            (hit - Vec3::new(300.0, 50.0, 400.0)).length() < 0.1,
            "{hit:?}"
        );
        let slanted = Vec3::new(1.0, -1.0, 0.0).normalize();
        let hit = pick_ground(&map, Vec3::new(0.0, 250.0, 500.0), slanted).unwrap();
        assert!(
            (hit.x - 200.0).abs() < 0.5 && (hit.y - 50.0).abs() < 0.5,
            "{hit:?}"
        );
        assert!(pick_ground(&map, Vec3::new(300.0, 1000.0, 400.0), Vec3::Y).is_none());
        assert!(pick_ground(&map, Vec3::new(-500.0, 100.0, 400.0), Vec3::NEG_X).is_none());
    }
}
