//! The minimap: the ground texture in small, lit by the heights as the engine lights the
//! ground (the sea bed tinted below 0), with the view's metal, grass and type overlays, and
//! the camera's target and view on it; a click or drag moves the camera there. It follows
//! the document (sculpting, painting, the sun and water settings) from its revision, remade
//! at most a few times a second.

use crate::gpu::ViewOptions;
use crate::gpu::scene::SceneLook;
use crate::map::Map;

#[derive(Default)]
pub struct MinimapPanel {
    texture: Option<egui::TextureHandle>,
    /// The picture the texture holds, kept to compare (tests) without reading the GPU back.
    image: Option<egui::ColorImage>,
    /// What the picture shows: the document revision and the overlays it was made with.
    shown: Option<(u64, Overlays)>,
    /// When it was last made, on egui's clock (seconds).
    made_at_s: f64,
}

/// Longest side of the minimap picture, in texels.
const MINIMAP_TEXELS: usize = 256;

/// The least time between two remakes while the document keeps changing (a stroke, the sun
/// being dragged): at most four a second.
const REMAKE_INTERVAL_S: f64 = 0.25;

/// The engine's ground light multiplier (`SMF_INTENSITY_MULT`, as `terrain.wgsl` has it).
const GROUND_INTENSITY: f32 = 0.8235;

/// The overlays drawn on the minimap, each with its opacity (0 off).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Overlays {
    metal: f32,
    grass: f32,
    types: f32,
}

impl Overlays {
    fn from_view(view: &ViewOptions) -> Overlays {
        let o = view.overlay_opacity.clamp(0.0, 1.0);
        let on = |b: bool| if b { o } else { 0.0 };
        Overlays {
            metal: on(view.metal),
            grass: on(view.grass),
            types: on(view.types),
        }
    }
}

/// The minimap picture: the ground texture nearest-sampled (cheap even for 16384^2), times
/// the ground light from the heights' normals and the map's sun, the sea bed tinted below 0 as
/// the engine's ground shader does, then the overlays.
fn minimap_image(map: &Map, overlays: Overlays) -> egui::ColorImage {
    let (tw, th) = (map.texture.width(), map.texture.height());
    let scale = (tw.max(th) as f32 / MINIMAP_TEXELS as f32).max(1.0);
    let (w, h) = (
        ((tw as f32 / scale) as usize).max(1),
        ((th as f32 / scale) as usize).max(1),
    );
    let look = SceneLook::from_settings(&map.settings);
    let sun = glam::Vec3::from(look.sun_dir).normalize_or(glam::Vec3::Y);
    let (mw, md) = (map.size.width_elmos(), map.size.depth_elmos());
    // normals over a minimap texel, at least a square
    let step_elmos = (mw / w as f32).max(crate::map::ELMOS_PER_SQUARE as f32);
    let height = |x: f32, z: f32| map.height_at(x.clamp(0.0, mw), z.clamp(0.0, md));
    let cell = |grid_w: usize, grid_h: usize, x: f32, z: f32| {
        (
            ((x / mw * grid_w as f32) as usize).min(grid_w - 1),
            ((z / md * grid_h as f32) as usize).min(grid_h - 1),
        )
    };
    let mix = |a: [f32; 3], b: [f32; 3], t: f32| {
        [0, 1, 2].map(|i| a[i] + (b[i] - a[i]) * t.clamp(0.0, 1.0))
    };
    let mut pixels = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let sx = (((x as f32 + 0.5) * scale) as usize).min(tw - 1);
            let sy = (((y as f32 + 0.5) * scale) as usize).min(th - 1);
            let p = map.texture.pixel(sx, sy);
            let base = [p[0], p[1], p[2]].map(|c| c as f32 / 255.0);
            let (wx, wz) = (
                (x as f32 + 0.5) / w as f32 * mw,
                (y as f32 + 0.5) / h as f32 * md,
            );
            let gy = height(wx, wz);
            let dx = height(wx + step_elmos, wz) - height(wx - step_elmos, wz);
            let dz = height(wx, wz + step_elmos) - height(wx, wz - step_elmos);
            let n = glam::Vec3::new(-dx, 2.0 * step_elmos, -dz).normalize();
            let ndl = n.dot(sun).max(0.0);
            let mut light =
                [0, 1, 2].map(|i| (look.ambient[i] + look.diffuse[i] * ndl) * GROUND_INTENSITY);
            if !look.void_water && gy < 0.0 {
                let depth = -gy;
                let water_light = (ndl * 2.0 + 0.4).min(1.0);
                let under = [0, 1, 2].map(|i| {
                    (look.water_base[i] - look.water_absorb[i] * depth.min(1023.0))
                        .max(look.water_min[i])
                        * GROUND_INTENSITY
                        * water_light
                });
                light = mix(light, under, depth / 10.0);
            }
            let mut c = [0, 1, 2].map(|i| base[i] * light[i]);
            let shade = 0.55 + 0.45 * ndl;
            if overlays.metal > 0.0 {
                let (i, j) = cell(map.metal.dims().0, map.metal.dims().1, wx, wz);
                let m = crate::gpu::view::metal_overlay_rgba(map.metal.get(i, j));
                c = mix(
                    c,
                    [m[0] * shade, m[1] * shade, m[2] * shade],
                    m[3] * overlays.metal,
                );
            }
            if overlays.grass > 0.0 {
                let (i, j) = cell(map.grass.dims().0, map.grass.dims().1, wx, wz);
                if map.grass.get(i, j) > 0 {
                    c = mix(
                        c,
                        [0.2 * shade, 0.95 * shade, 0.25 * shade],
                        0.6 * overlays.grass,
                    );
                }
            }
            if overlays.types > 0.0 {
                let (i, j) = cell(map.types.dims().0, map.types.dims().1, wx, wz);
                let t = crate::gpu::view::type_colour(map.types.get(i, j));
                c = mix(c, t.map(|v| v * shade), 0.6 * overlays.types);
            }
            let [r, g, b] = c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
            pixels.push(egui::Color32::from_rgb(r, g, b));
        }
    }
    egui::ColorImage::new([w, h], pixels)
}

impl MinimapPanel {
    /// Forgets the picture (a new map was opened).
    pub fn invalidate(&mut self) {
        self.shown = None;
    }

    /// The picture shown, as made on the CPU.
    pub fn image(&self) -> Option<&egui::ColorImage> {
        self.image.as_ref()
    }

    /// Remakes the picture when the document (at `revision`) or the overlays changed, at most
    /// every [`REMAKE_INTERVAL_S`]; asks for a frame when a change waits for its turn.
    fn follow(&mut self, ctx: &egui::Context, map: &Map, revision: u64, overlays: Overlays) {
        let want = (revision, overlays);
        if self.shown == Some(want) && self.texture.is_some() {
            return;
        }
        let now = ctx.input(|i| i.time);
        let waited = now - self.made_at_s;
        // a new map or other overlays show at once; edits wait for the interval
        let same_map = self.shown.is_some_and(|(_, o)| o == overlays);
        if same_map && self.texture.is_some() && (0.0..REMAKE_INTERVAL_S).contains(&waited) {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(
                REMAKE_INTERVAL_S - waited,
            ));
            return;
        }
        let image = minimap_image(map, overlays);
        match &mut self.texture {
            Some(t) => t.set(image.clone(), egui::TextureOptions::LINEAR),
            None => {
                self.texture =
                    Some(ctx.load_texture("minimap", image.clone(), egui::TextureOptions::LINEAR))
            }
        }
        self.image = Some(image);
        self.shown = Some(want);
        self.made_at_s = now;
    }

    /// Shows the minimap of `map` at document `revision` with `view`'s overlays; returns the
    /// ground point (x, z elmos) clicked or dragged to.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        map: &Map,
        revision: u64,
        view: &ViewOptions,
        camera_target: [f32; 2],
        view_corners: Option<[[f32; 2]; 4]>,
    ) -> Option<[f32; 2]> {
        self.follow(ui.ctx(), map, revision, Overlays::from_view(view));
        let tex = self.texture.as_ref()?;
        let (mw, md) = (map.size.width_elmos(), map.size.depth_elmos());
        let avail = ui.available_width().clamp(64.0, 240.0);
        let size = if mw >= md {
            egui::vec2(avail, avail * md / mw)
        } else {
            egui::vec2(avail * mw / md, avail)
        };
        let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Minimap"));
        let painter = ui.painter_at(rect);
        painter.image(
            tex.id(),
            rect,
            egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            egui::Color32::WHITE,
        );
        let to_screen = |p: [f32; 2]| {
            egui::pos2(
                rect.left() + p[0] / mw * rect.width(),
                rect.top() + p[1] / md * rect.height(),
            )
        };
        if let Some(c) = view_corners {
            let pts: Vec<egui::Pos2> = c.iter().map(|&p| to_screen(p)).collect();
            painter.add(egui::Shape::closed_line(
                pts,
                egui::Stroke::new(1.5, egui::Color32::WHITE),
            ));
        }
        for (i, t) in map.teams.iter().enumerate() {
            let c = crate::map::team_colour(i);
            let col = egui::Color32::from_rgb(
                (c[0] * 255.0) as u8,
                (c[1] * 255.0) as u8,
                (c[2] * 255.0) as u8,
            );
            painter.circle_filled(to_screen([t.start_x_elmos, t.start_z_elmos]), 4.0, col);
        }
        painter.circle_stroke(
            to_screen(camera_target),
            3.0,
            egui::Stroke::new(1.5, egui::Color32::YELLOW),
        );
        if (response.clicked() || response.dragged())
            && let Some(p) = response.interact_pointer_pos()
        {
            let x = ((p.x - rect.left()) / rect.width()).clamp(0.0, 1.0) * mw;
            let z = ((p.y - rect.top()) / rect.height()).clamp(0.0, 1.0) * md;
            return Some([x, z]);
        }
        None
    }
}
