//! The 3D view: draws the map through the GPU renderer into a texture egui shows, turns mouse
//! and keys into camera moves (orbit, pan, zoom, WASD fly, top-down, frame the map), picks the
//! ground under the cursor, and drives the chosen tool's strokes through the editing session.
//! While a stroke runs on the GPU the document lags, so the ground under the cursor is read
//! from the depth the view just drew (one texel, a frame later): the surface the user sees.

use glam::Vec3;

use crate::edit::StrokeReport;
use crate::edit::symmetry;
use crate::edit::tools::StrokeStyle;
use crate::gpu::probe::DepthProbe;
use crate::gpu::{
    BrushKernels, Camera, CameraPreset, FrameStats, GpuContext, MapScene, RenderTarget, Renderer,
    SceneLayers, ViewOptions,
};
use crate::map::{Map, SymmetryMode};

use super::document::Document;
use super::log_panel::LogPanel;
use super::tools_panel::ToolsPanel;

/// How near (points) a click must be to a start marker to be the start's.
const START_CLICK_POINTS: f32 = 18.0;

/// The GPU handles the view draws with.
pub struct ViewGpu<'a> {
    pub ctx: &'a GpuContext,
    pub renderer: &'a Renderer,
    pub kernels: Option<&'a BrushKernels>,
    pub egui_renderer: &'a egui::mutex::RwLock<egui_wgpu::Renderer>,
}

/// Where the view sits in the window and its shape.
#[derive(Clone, Copy)]
struct Screen {
    rect: egui::Rect,
    aspect: f32,
}

pub struct Viewport {
    pub camera: Camera,
    pub view: ViewOptions,
    target: Option<RenderTarget>,
    texture_id: Option<egui::TextureId>,
    /// The ground point under the cursor, in elmos.
    pub hover: Option<Vec3>,
    /// The surface under the cursor as last drawn, while a stroke runs.
    live_hover: Option<Vec3>,
    probe: Option<DepthProbe>,
    /// The stroke could not start (off the map, a tool setting missing): wait for release.
    refused: bool,
    /// The last point the stroke reached.
    last_at: Option<[f32; 2]>,
    /// Labels drawn at metal spots (T1 income), set by the app from the metal panel's report.
    pub spot_labels: Vec<([f32; 2], String)>,
    /// A metal spot being dragged: where the press was, where it is now (elmos).
    spot_drag: Option<([f32; 2], [f32; 2])>,
    pub stats: FrameStats,
    /// The last view's size in pixels.
    pub size_px: [u32; 2],
    /// Where the view sat in the window last frame, in points.
    pub rect: egui::Rect,
    /// The water's waves, foam and caustics move (the view redraws about 30 times a second).
    pub animate_water: bool,
    /// The pathing overlay is on: a click on a start floods its region instead of a stroke.
    pub pathing_on: bool,
    /// The team whose start was clicked with the pathing overlay on, for the app to take.
    pub flood_request: Option<usize>,
    /// A start marker being dragged: the team, where it was and where it is now (elmos).
    start_drag: Option<(usize, [f32; 2], [f32; 2])>,
    /// The start box arrangement drawn over the ground (an index into `map.start_boxes`).
    pub boxes_shown: Option<usize>,
    /// The feature tools' drags.
    pub features: super::feature_view::FeatureView,
    /// Where the view's context menu was opened: the ground point and the start under it.
    context_at: Option<([f32; 2], Option<usize>)>,
}

impl Default for Viewport {
    fn default() -> Viewport {
        Viewport {
            camera: Camera::preset(CameraPreset::Overview, 4096.0, 4096.0, 0.0),
            view: ViewOptions::default(),
            target: None,
            texture_id: None,
            hover: None,
            live_hover: None,
            probe: None,
            refused: false,
            last_at: None,
            spot_drag: None,
            spot_labels: Vec::new(),
            stats: FrameStats::default(),
            size_px: [0, 0],
            rect: egui::Rect::NOTHING,
            animate_water: true,
            pathing_on: false,
            flood_request: None,
            start_drag: None,
            boxes_shown: None,
            features: Default::default(),
            context_at: None,
        }
    }
}

fn ground_at(map: &Map, x: f32, z: f32) -> f32 {
    map.height_at(x, z)
}

/// Where a ray first meets the ground of `map`, marching a square at a time then bisecting.
fn pick_ground(map: &Map, origin: Vec3, dir: Vec3) -> Option<Vec3> {
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
    /// The document's ground under a window position (points), as the view last framed it.
    pub fn ground_under(&self, map: &Map, pos: egui::Pos2) -> Option<Vec3> {
        let rect = self.rect;
        if !rect.contains(pos) || rect.height() <= 0.0 {
            return None;
        }
        let ndc_x = (pos.x - rect.left()) / rect.width() * 2.0 - 1.0;
        let ndc_y = 1.0 - (pos.y - rect.top()) / rect.height() * 2.0;
        let (o, d) = self.camera.ray(ndc_x, ndc_y, rect.width() / rect.height());
        pick_ground(map, o, d)
    }

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

    /// Moves the camera to a named view of the map (overhead, 45 degrees, grazing over its
    /// largest water).
    pub fn set_preset(&mut self, map: &Map, preset: CameraPreset) {
        let aspect = if self.size_px[1] > 0 {
            self.size_px[0] as f32 / self.size_px[1] as f32
        } else {
            16.0 / 9.0
        };
        self.camera = crate::gpu::snapshot::preset_camera(map, preset, aspect);
    }

    /// Switches between the orbit camera and the top-down orthographic view.
    pub fn toggle_top_down(&mut self, map: &Map) {
        self.camera.ortho = !self.camera.ortho;
        if !self.camera.ortho {
            self.camera.pitch_rad = 55f32.to_radians();
        }
        self.camera.clamp_above_ground(|x, z| ground_at(map, x, z));
    }

    /// Zooms by `factor` (< 1 closer) towards a ground point, which stays under the cursor:
    /// the eye moves along its line to the point, then the orbit's target is put back on the
    /// ground along the view's middle, the eye and heading unchanged.
    fn zoom_toward(&mut self, map: &Map, factor: f32, point: Vec3) {
        self.camera.zoom_toward(factor, point);
        if self.camera.ortho {
            // straight down, the target's height moves nothing on the screen
            return;
        }
        let eye = self.camera.eye();
        if let Some(ground) = pick_ground(map, eye, -self.camera.back()) {
            self.camera.target = ground;
            self.camera.distance_elmos = (eye - ground).length().max(1.0);
        }
    }

    /// Drops the picture (the map changed; a new scene comes).
    pub fn reset(&mut self) {
        self.hover = None;
        self.live_hover = None;
        self.refused = false;
        self.last_at = None;
    }

    /// Draws the view filling `ui`, handling input. Returns the report of a stroke that ended.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        doc: &mut Document,
        scene: &mut MapScene,
        gpu: &ViewGpu,
        tools: &mut ToolsPanel,
        log: &mut LogPanel,
    ) -> Option<StrokeReport> {
        let (rect, response) =
            ui.allocate_exact_size(ui.available_size(), egui::Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map view"));
        let ppp = ui.ctx().pixels_per_point();
        let w = ((rect.width() * ppp).round() as u32).max(1);
        let h = ((rect.height() * ppp).round() as u32).max(1);
        self.size_px = [w, h];
        self.rect = rect;
        let aspect = w as f32 / h as f32;

        self.handle_camera_input(ui, &response, rect, doc.map());
        if response.hovered() && !ui.ctx().egui_wants_keyboard_input() {
            ui.input(|i| {
                if i.key_pressed(egui::Key::OpenBracket) {
                    tools.step_radius(false);
                }
                if i.key_pressed(egui::Key::CloseBracket) {
                    tools.step_radius(true);
                }
            });
        }

        // the ground under the cursor: the document's, or while a GPU stroke runs (the
        // document lags) the surface as drawn
        self.poll_probe(gpu.ctx);
        let cursor_ndc = response.hover_pos().map(|p| {
            [
                (p.x - rect.left()) / rect.width() * 2.0 - 1.0,
                1.0 - (p.y - rect.top()) / rect.height() * 2.0,
            ]
        });
        // (a segment tool changes nothing until it ends: the document is the surface then)
        let live = gpu.kernels.is_some()
            && doc
                .session
                .stroke()
                .is_some_and(|s| s.tool.style() != StrokeStyle::Segment);
        self.hover = match (live, self.live_hover) {
            (true, Some(p)) => Some(p),
            _ => cursor_ndc.and_then(|[x, y]| {
                let (o, d) = self.camera.ray(x, y, aspect);
                pick_ground(doc.map(), o, d)
            }),
        };

        let report = self.handle_tool(ui, &response, doc, scene, gpu, tools, log);
        self.context_menu(&response, doc, tools, log);

        // draw
        let mut view = self.view;
        if self.animate_water && view.water {
            view.time_seconds = ui.input(|i| i.time) as f32;
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(33));
        }
        view.cursor = match (tools.current(), self.hover) {
            (None, Some(p)) => tools.features.brush_radius().map(|r| [p.x, p.z, r]),
            (Some((t, s)), Some(p)) => {
                let r = if t.style() == StrokeStyle::Segment {
                    0.5 * s.number("width_elmos")
                } else {
                    s.brush.radius_elmos
                };
                Some([p.x, p.z, r])
            }
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
            if live {
                if let Some(ndc) = cursor_ndc {
                    self.request_probe(gpu.ctx, ndc, aspect);
                }
                ui.ctx().request_repaint();
            }
        }
        let map = doc.map();
        let scr = Screen { rect, aspect };
        self.paint_symmetry_axes(ui, scr, map);
        if let Some((a, b)) = doc.session.stroke().and_then(|s| s.segment()) {
            self.paint_segment(ui, scr, map, a, b);
        }
        if let Some((from, to)) = self.spot_drag {
            self.paint_segment(ui, scr, map, from, to);
        }
        if let Some((_, from, to)) = self.start_drag {
            self.paint_segment(ui, scr, map, from, to);
        }
        self.paint_start_boxes(ui, scr, map);
        self.paint_start_labels(ui, scr, map);
        self.paint_spot_labels(ui, scr, map);
        self.features
            .paint(ui, rect, map, &tools.features, &|p| self.to_screen(scr, p));
        self.paint_feature_labels(ui, scr, map, scene);
        if let Some(sun) = sun_gizmo(ui, rect, map.settings.lighting.sun_dir_or_default()) {
            let s = &mut doc.session.map_mut().settings;
            s.lighting.sun_dir = Some([sun[0], sun[1], sun[2], 1.0]);
            scene.apply_settings(s);
        }
        report
    }

    /// Asks for the depth under the cursor in the frame just drawn.
    fn request_probe(&mut self, ctx: &GpuContext, ndc: [f32; 2], aspect: f32) {
        let Some(target) = &self.target else { return };
        if self.probe.is_none() {
            self.probe = DepthProbe::new(ctx);
        }
        if let Some(p) = &mut self.probe {
            p.request(ctx, target, ndc, self.camera.view_proj(aspect));
        }
    }

    /// Takes the depth probe's answer when it has come, without waiting.
    fn poll_probe(&mut self, ctx: &GpuContext) {
        if let Some(answer) = self.probe.as_mut().and_then(|p| p.poll(ctx)) {
            self.live_hover = answer;
        }
    }

    /// Projects a world point to the view, if it is in front of the eye.
    fn to_screen(&self, scr: Screen, p: Vec3) -> Option<egui::Pos2> {
        let (rect, aspect) = (scr.rect, scr.aspect);
        let c = self.camera.view_proj(aspect) * p.extend(1.0);
        if c.w <= 0.0 {
            return None;
        }
        let (x, y) = (c.x / c.w, c.y / c.w);
        Some(egui::pos2(
            rect.left() + (x + 1.0) * 0.5 * rect.width(),
            rect.top() + (1.0 - y) * 0.5 * rect.height(),
        ))
    }

    /// A line over the ground from `a` to `b` (elmos), following the heights.
    fn paint_ground_line(
        &self,
        ui: &egui::Ui,
        scr: Screen,
        map: &Map,
        a: [f32; 2],
        b: [f32; 2],
        stroke: egui::Stroke,
    ) {
        let steps = 48;
        let mut prev: Option<egui::Pos2> = None;
        for k in 0..=steps {
            let t = k as f32 / steps as f32;
            let (x, z) = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
            let p = Vec3::new(x, ground_at(map, x, z) + 4.0, z);
            let s = self.to_screen(scr, p);
            if let (Some(p0), Some(p1)) = (prev, s) {
                ui.painter()
                    .with_clip_rect(scr.rect)
                    .line_segment([p0, p1], stroke);
            }
            prev = s;
        }
    }

    /// The symmetry's mirror lines and sector edges, drawn on the ground.
    fn paint_symmetry_axes(&self, ui: &egui::Ui, scr: Screen, map: &Map) {
        let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
        let stroke = egui::Stroke::new(1.5, egui::Color32::from_rgb(90, 220, 255));
        let (cx, cz) = (w * 0.5, d * 0.5);
        let lines: Vec<([f32; 2], [f32; 2])> = match map.symmetry {
            SymmetryMode::None => Vec::new(),
            SymmetryMode::MirrorX => vec![([cx, 0.0], [cx, d])],
            SymmetryMode::MirrorZ => vec![([0.0, cz], [w, cz])],
            SymmetryMode::MirrorXZ => vec![([cx, 0.0], [cx, d]), ([0.0, cz], [w, cz])],
            SymmetryMode::Diagonal => vec![([0.0, 0.0], [w, d])],
            SymmetryMode::AntiDiagonal => vec![([w, 0.0], [0.0, d])],
            SymmetryMode::Rotate(n) => (0..n)
                .map(|k| {
                    let (c, s) = symmetry::turn_cos_sin(n, k);
                    // from the centre to the map's edge along the sector's first ray
                    let reach = (0.5 * w).min(0.5 * d)
                        * if c.abs() > 1e-3 && s.abs() > 1e-3 {
                            (1.0 / c.abs()).min(1.0 / s.abs())
                        } else {
                            1.0
                        };
                    ([cx, cz], [cx + c * reach, cz + s * reach])
                })
                .collect(),
        };
        for (a, b) in lines {
            self.paint_ground_line(ui, scr, map, a, b, stroke);
        }
    }

    /// A segment tool's line from where the drag began to the cursor.
    fn paint_segment(&self, ui: &egui::Ui, scr: Screen, map: &Map, a: [f32; 2], b: [f32; 2]) {
        let stroke = egui::Stroke::new(2.5, egui::Color32::from_rgb(255, 200, 60));
        self.paint_ground_line(ui, scr, map, a, b, stroke);
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
                let factor = (-scroll * 0.0025).exp();
                // towards the ground under the cursor; over the sky, towards the middle
                match response.hover_pos().and_then(|p| self.ground_under(map, p)) {
                    Some(point) => self.zoom_toward(map, factor, point),
                    None => self.camera.zoom(factor),
                }
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
        tools: &mut ToolsPanel,
        log: &mut LogPanel,
    ) -> Option<StrokeReport> {
        let mut layers = SceneLayers {
            ctx: gpu.ctx,
            kernels: gpu.kernels,
            scene,
        };
        let alt = ui.input(|i| i.modifiers.alt);
        let down = response.is_pointer_button_down_on() && ui.input(|i| i.pointer.primary_down());
        if let Some(r) = self.handle_start_drag(ui, down, doc, log) {
            return r;
        }
        if self.view.markers
            && !doc.session.stroking()
            && ui.input(|i| i.pointer.primary_pressed())
            && let Some(pos) = response.hover_pos()
            && let Some(team) = self.start_near(doc.map(), pos)
        {
            // the press is the start's: wait for the button to come up before any stroke
            self.refused = true;
            if self.pathing_on {
                self.flood_request = Some(team);
            } else {
                let t = &doc.map().teams[team];
                let at = [t.start_x_elmos, t.start_z_elmos];
                self.start_drag = Some((team, at, at));
            }
            return None;
        }
        if tools.features.tool.is_some() && !alt {
            let scr = Screen {
                rect: response.rect,
                aspect: self.size_px[0] as f32 / self.size_px[1].max(1) as f32,
            };
            let hover = self.hover.map(|p| [p.x, p.z]);
            let mut view = std::mem::take(&mut self.features);
            view.handle(
                ui,
                response,
                &mut doc.session,
                &mut tools.features,
                hover,
                &|p| self.to_screen(scr, p),
                log,
            );
            self.features = view;
            return None;
        }
        let current = tools.current().filter(|_| !alt);
        if let Some(r) = self.handle_spot(ui, down, doc, &mut layers, tools, log) {
            return r;
        }
        let session = &mut doc.session;
        match (current, down) {
            (Some((tool, settings)), true) => {
                let p = self.hover?;
                let at = [p.x, p.z];
                let inverted = ui.input(|i| i.modifiers.shift);
                if !session.stroking() {
                    if self.refused {
                        return None;
                    }
                    if let Err(e) = session.begin_stroke(
                        tool,
                        settings.clone(),
                        inverted,
                        at,
                        Some(&mut layers),
                    ) {
                        log.warn(format!("{}: {e}", tool.label()));
                        self.refused = true;
                        return None;
                    }
                } else {
                    let dt = ui.input(|i| i.stable_dt).clamp(0.001, 0.1);
                    if let Err(e) = session.stroke_to(at, dt, Some(&mut layers)) {
                        log.error(format!("{}: {e}", tool.label()));
                    }
                }
                self.last_at = Some(at);
                ui.ctx().request_repaint();
                None
            }
            _ => {
                self.refused = false;
                if !session.stroking() {
                    return None;
                }
                let at = self
                    .hover
                    .map(|p| [p.x, p.z])
                    .or(self.last_at)
                    .unwrap_or([0.0, 0.0]);
                self.live_hover = None;
                self.last_at = None;
                match session.end_stroke(at, Some(&mut layers)) {
                    Ok(Some(r)) => {
                        log.info(format!("{} (Ctrl+Z undoes)", r.what));
                        for w in &r.warnings {
                            log.warn(w.clone());
                        }
                        Some(r)
                    }
                    Ok(None) => None,
                    Err(e) => {
                        log.error(format!("the stroke failed: {e}"));
                        None
                    }
                }
            }
        }
    }

    /// The view's context menu (a right click without a drag): add a start at the ground
    /// point, remove the start clicked on, or place the Place tool's feature there.
    fn context_menu(
        &mut self,
        response: &egui::Response,
        doc: &mut Document,
        tools: &ToolsPanel,
        log: &mut LogPanel,
    ) {
        if response.secondary_clicked() {
            let start = response
                .interact_pointer_pos()
                .and_then(|p| self.start_near(doc.map(), p));
            self.context_at = self.hover.map(|p| ([p.x, p.z], start));
        }
        let Some((at, start)) = self.context_at else {
            return;
        };
        response.context_menu(|ui| {
            if ui.button("Add a start here").clicked() {
                let r = doc.session.edit(
                    "add a start",
                    |m| {
                        crate::edit::starts::add_team(m, at);
                    },
                    None,
                );
                match r {
                    Ok(()) => log.info(format!(
                        "added start {} at ({:.0}, {:.0}) (Ctrl+Z undoes)",
                        doc.map().teams.len(),
                        at[0],
                        at[1]
                    )),
                    Err(e) => log.error(format!("adding a start: {e}")),
                }
                ui.close();
            }
            if let Some(team) = start
                && ui.button(format!("Remove start {}", team + 1)).clicked()
            {
                let mut result = Ok(());
                let r = doc.session.edit(
                    &format!("remove start {}", team + 1),
                    |m| result = crate::edit::starts::remove_team(m, team),
                    None,
                );
                match r.and(result) {
                    Ok(()) => log.info(format!("removed start {} (Ctrl+Z undoes)", team + 1)),
                    Err(e) => log.error(format!("removing the start: {e}")),
                }
                ui.close();
            }
            let name = tools.features.place_name.clone();
            if ui.button(format!("Place {name} here")).clicked() {
                let rot = tools.features.rotation_deg;
                let mut placed = Ok(0);
                let r = doc.session.edit(
                    &format!("place {name}"),
                    |m| placed = crate::edit::features::place(m, &name, at, rot),
                    None,
                );
                match r.and(placed) {
                    Ok(n) => log.info(format!("placed {n} × {name} (Ctrl+Z undoes)")),
                    Err(e) => log.warn(format!("placing {name}: {e}")),
                }
                ui.close();
            }
        });
    }

    /// A start marker dragged: follows the ground under the cursor, and on release moves the
    /// start (and its symmetric partners) as one undo step. `Some` while the drag is the
    /// press's.
    fn handle_start_drag(
        &mut self,
        ui: &egui::Ui,
        down: bool,
        doc: &mut Document,
        log: &mut LogPanel,
    ) -> Option<Option<StrokeReport>> {
        let (team, from, _) = self.start_drag?;
        if down {
            if let Some(p) = self.hover {
                self.start_drag = Some((team, from, [p.x, p.z]));
            }
            ui.ctx().request_repaint();
            return Some(None);
        }
        let (_, _, to) = self.start_drag.take().expect("checked above");
        let moved = (to[0] - from[0]).abs().max((to[1] - from[1]).abs()) >= 8.0;
        if moved {
            let mut partners = Vec::new();
            let result = doc.session.edit(
                &format!("move start {}", team + 1),
                |m| {
                    if let Ok(t) = crate::edit::starts::move_start(m, team, to) {
                        partners = t;
                    }
                },
                None,
            );
            match result {
                Ok(()) => {
                    let others: Vec<String> =
                        partners[1..].iter().map(|t| (t + 1).to_string()).collect();
                    let with = if others.is_empty() {
                        String::new()
                    } else {
                        format!(", and by symmetry start {}", others.join(", "))
                    };
                    log.info(format!(
                        "moved start {} to ({:.0}, {:.0}){with} (Ctrl+Z undoes)",
                        team + 1,
                        to[0],
                        to[1]
                    ));
                }
                Err(e) => log.error(format!("moving the start: {e}")),
            }
        }
        Some(None)
    }

    /// Spot editing for tools that place metal spots: a press on a spot drags it (Ctrl
    /// reshapes it, Shift deletes it). `Some` when the press was the spot's.
    fn handle_spot(
        &mut self,
        ui: &egui::Ui,
        down: bool,
        doc: &mut Document,
        layers: &mut SceneLayers,
        tools: &ToolsPanel,
        log: &mut LogPanel,
    ) -> Option<Option<StrokeReport>> {
        let alt = ui.input(|i| i.modifiers.alt);
        let (tool, settings) = tools.current().filter(|_| !alt)?;
        let shape = tool.spot_shape(settings, &doc.map().settings)?;
        let session = &mut doc.session;
        if let Some((from, _)) = self.spot_drag {
            if down {
                if let Some(p) = self.hover {
                    self.spot_drag = Some((from, [p.x, p.z]));
                }
                ui.ctx().request_repaint();
                return Some(None);
            }
            let (_, to) = self.spot_drag.take().expect("checked above");
            let moved = (to[0] - from[0]).abs().max((to[1] - from[1]).abs()) >= 8.0;
            if moved {
                match session.edit_spot(from, crate::edit::SpotEdit::Move { to }, Some(layers)) {
                    Ok(Some(what)) => log.info(format!("{what} (Ctrl+Z undoes)")),
                    Ok(None) => {}
                    Err(e) => log.error(format!("moving the spot: {e}")),
                }
            }
            return Some(None);
        }
        if !down || session.stroking() || self.refused {
            return None;
        }
        let p = self.hover?;
        let at = [p.x, p.z];
        let m = session.map();
        let cell =
            |v: f32, n: usize| ((v / crate::map::metal::METAL_CELL_ELMOS) as usize).min(n - 1);
        let (w, h) = m.metal.dims();
        crate::map::metal::patch_at(&m.metal, cell(at[0], w), cell(at[1], h), 1)?;
        let (shift, command) = ui.input(|i| (i.modifiers.shift, i.modifiers.command));
        let edit = if shift {
            crate::edit::SpotEdit::Delete
        } else if command {
            crate::edit::SpotEdit::Reshape {
                radius_elmos: shape.0,
                peak: shape.1,
            }
        } else {
            self.spot_drag = Some((at, at));
            return Some(None);
        };
        // one click, one edit: wait for the button to come up before anything else
        self.refused = true;
        match session.edit_spot(at, edit, Some(layers)) {
            Ok(Some(what)) => log.info(format!("{what} (Ctrl+Z undoes)")),
            Ok(None) => {}
            Err(e) => log.error(e),
        }
        Some(None)
    }

    /// Each metal spot's T1 income just above its centre, as BAR labels spots.
    fn paint_spot_labels(&self, ui: &egui::Ui, scr: Screen, map: &Map) {
        for (at, text) in &self.spot_labels {
            let p = Vec3::new(at[0], ground_at(map, at[0], at[1]) + 10.0, at[1]);
            let Some(s) = self.to_screen(scr, p) else {
                continue;
            };
            if !scr.rect.contains(s) {
                continue;
            }
            let galley = ui.painter().layout_no_wrap(
                text.clone(),
                egui::FontId::proportional(13.0),
                egui::Color32::WHITE,
            );
            // above the dome, so the overlay under it stays in view
            let r =
                egui::Rect::from_center_size(s - egui::vec2(0.0, 16.0), galley.size()).expand(2.0);
            ui.painter()
                .rect_filled(r, 3.0, egui::Color32::from_black_alpha(150));
            ui.painter()
                .galley(r.min + egui::vec2(2.0, 2.0), galley, egui::Color32::WHITE);
        }
    }

    /// Where team `i`'s start marker was drawn in the window (points), if in front of the eye.
    pub fn start_on_screen(&self, map: &Map, i: usize) -> Option<egui::Pos2> {
        let t = map.teams.get(i)?;
        let scr = Screen {
            rect: self.rect,
            aspect: self.size_px[0] as f32 / self.size_px[1].max(1) as f32,
        };
        let p = Vec3::new(
            t.start_x_elmos,
            ground_at(map, t.start_x_elmos, t.start_z_elmos) + 30.0,
            t.start_z_elmos,
        );
        self.to_screen(scr, p).filter(|s| scr.rect.contains(*s))
    }

    /// The team whose start marker is within a click of `pos` (points), nearest first.
    fn start_near(&self, map: &Map, pos: egui::Pos2) -> Option<usize> {
        (0..map.teams.len())
            .filter_map(|i| {
                let d = self.start_on_screen(map, i)?.distance(pos);
                (d <= START_CLICK_POINTS).then_some((d, i))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, i)| i)
    }

    /// The shown start box arrangement: each box's outline over the ground, in its team's
    /// colour, numbered.
    fn paint_start_boxes(&self, ui: &egui::Ui, scr: Screen, map: &Map) {
        let Some(set) = self.boxes_shown.and_then(|i| map.start_boxes.get(i)) else {
            return;
        };
        let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
        for (k, b) in set.boxes.iter().enumerate() {
            let e = crate::map::start_boxes::box_to_elmos(*b, w, d);
            let c = crate::map::team_colour(k);
            let colour = egui::Color32::from_rgb(
                (c[0] * 255.0) as u8,
                (c[1] * 255.0) as u8,
                (c[2] * 255.0) as u8,
            );
            let stroke = egui::Stroke::new(2.5, colour);
            // inset by half an elmo so edges on the map's border stay on the ground
            let (x0, z0, x1, z1) = (e[0] + 0.5, e[1] + 0.5, e[2] - 0.5, e[3] - 0.5);
            self.paint_ground_line(ui, scr, map, [x0, z0], [x1, z0], stroke);
            self.paint_ground_line(ui, scr, map, [x1, z0], [x1, z1], stroke);
            self.paint_ground_line(ui, scr, map, [x1, z1], [x0, z1], stroke);
            self.paint_ground_line(ui, scr, map, [x0, z1], [x0, z0], stroke);
            let centre = [(x0 + x1) * 0.5, (z0 + z1) * 0.5];
            let p = Vec3::new(
                centre[0],
                ground_at(map, centre[0], centre[1]) + 10.0,
                centre[1],
            );
            if let Some(s) = self.to_screen(scr, p).filter(|s| scr.rect.contains(*s)) {
                ui.painter().text(
                    s,
                    egui::Align2::CENTER_CENTER,
                    format!("box {}", k + 1),
                    egui::FontId::proportional(15.0),
                    colour,
                );
            }
        }
    }

    /// Names beside the features drawn as markers (no model found): all of them when a dozen
    /// or fewer are in view, else those near the pointer.
    fn paint_feature_labels(&self, ui: &egui::Ui, scr: Screen, map: &Map, scene: &MapScene) {
        if !self.view.markers || map.features.is_empty() {
            return;
        }
        let ppp = ui.ctx().pixels_per_point();
        let points =
            scene.unmodelled_feature_points(map, &self.camera, (self.size_px[0], self.size_px[1]));
        let pointer = ui.input(|i| i.pointer.hover_pos());
        let few = points.len() <= 12;
        let painter = ui.painter().with_clip_rect(scr.rect);
        for (i, at) in points {
            let s = scr.rect.left_top() + egui::vec2(at[0], at[1]) / ppp;
            if !few && pointer.is_none_or(|p| p.distance(s) > 40.0) {
                continue;
            }
            painter.text(
                s + egui::vec2(7.0, -7.0),
                egui::Align2::LEFT_BOTTOM,
                &map.features[i].name,
                egui::FontId::proportional(12.0),
                egui::Color32::from_rgb(200, 235, 190),
            );
        }
    }

    /// Team numbers beside the start markers; the start under the pointer (or being dragged)
    /// with its coordinates.
    fn paint_start_labels(&self, ui: &egui::Ui, scr: Screen, map: &Map) {
        if !self.view.markers {
            return;
        }
        let pointer = ui.input(|i| i.pointer.hover_pos());
        let under = pointer.and_then(|p| self.start_near(map, p));
        for (i, t) in map.teams.iter().enumerate() {
            let p = Vec3::new(
                t.start_x_elmos,
                ground_at(map, t.start_x_elmos, t.start_z_elmos) + 30.0,
                t.start_z_elmos,
            );
            let Some(s) = self.to_screen(scr, p) else {
                continue;
            };
            if !scr.rect.contains(s) {
                continue;
            }
            let pos = s + egui::vec2(14.0, -14.0);
            let label = match self.start_drag {
                Some((team, _, to)) if team == i => {
                    format!("{} ({:.0}, {:.0})", i + 1, to[0], to[1])
                }
                _ if under == Some(i) => {
                    format!("{} ({:.0}, {:.0})", i + 1, t.start_x_elmos, t.start_z_elmos)
                }
                _ => format!("{}", i + 1),
            };
            ui.painter().text(
                pos,
                egui::Align2::LEFT_BOTTOM,
                label,
                egui::FontId::proportional(16.0),
                egui::Color32::WHITE,
            );
        }
    }
}

/// Side of the sun gizmo, in points.
const SUN_GIZMO_POINTS: f32 = 86.0;

/// The sun gizmo in the view's top-right corner: the sky seen from above (north up, the rim
/// the horizon, the middle straight up) with the sun on it; dragging the sun sets
/// `lighting.sunDir`. Returns the new direction towards the sun while it is dragged.
fn sun_gizmo(ui: &mut egui::Ui, view: egui::Rect, sun: [f32; 3]) -> Option<[f32; 3]> {
    let size = egui::vec2(SUN_GIZMO_POINTS, SUN_GIZMO_POINTS);
    let rect = egui::Rect::from_min_size(
        egui::pos2(view.right() - size.x - 8.0, view.top() + 8.0),
        size,
    );
    let id = ui.scope_id().with("sun gizmo");
    let response = ui.interact(rect, id, egui::Sense::drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Slider, true, "Sun"));
    let painter = ui.painter_at(rect);
    let c = rect.center();
    let r = rect.width() * 0.5 - 6.0;
    painter.circle_filled(c, r + 4.0, egui::Color32::from_black_alpha(120));
    painter.circle_stroke(c, r, egui::Stroke::new(1.0, egui::Color32::from_gray(160)));
    painter.circle_stroke(
        c,
        r * 0.5,
        egui::Stroke::new(0.5, egui::Color32::from_gray(110)),
    );
    painter.text(
        c - egui::vec2(0.0, r - 2.0),
        egui::Align2::CENTER_TOP,
        "N",
        egui::FontId::proportional(10.0),
        egui::Color32::from_gray(200),
    );
    // direction to screen: distance from the middle grows as the sun sinks
    let len = (sun[0] * sun[0] + sun[1] * sun[1] + sun[2] * sun[2])
        .sqrt()
        .max(1e-6);
    let (x, y, z) = (sun[0] / len, sun[1] / len, sun[2] / len);
    let elevation = y.clamp(-1.0, 1.0).asin().max(0.0);
    let flat = (x * x + z * z).sqrt().max(1e-6);
    let rim = 1.0 - elevation / std::f32::consts::FRAC_PI_2;
    let at = c + egui::vec2(x / flat, z / flat) * rim * r;
    painter.circle_filled(at, 6.0, egui::Color32::from_rgb(255, 210, 60));
    let pointer = response.interact_pointer_pos()?;
    if !response.dragged() {
        return None;
    }
    let d = (pointer - c) / r;
    let rim = d.length().clamp(0.0, 0.98);
    let elevation = (1.0 - rim) * std::f32::consts::FRAC_PI_2;
    let heading = if d.length() > 1e-4 {
        d / d.length()
    } else {
        egui::vec2(0.0, 1.0)
    };
    let (e_sin, e_cos) = elevation.sin_cos();
    Some([heading.x * e_cos, e_sin, heading.y * e_cos])
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
