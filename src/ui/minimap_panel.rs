//! The minimap: the ground texture in small, the camera's target and view on it; a click or
//! drag moves the camera there.

use crate::map::Map;

#[derive(Default)]
pub struct MinimapPanel {
    /// The picture, made once per opened map (brushes change heights, not the texture).
    texture: Option<egui::TextureHandle>,
}

/// Longest side of the minimap picture, in texels.
const MINIMAP_TEXELS: usize = 256;

/// A small RGBA picture of the ground texture, nearest-sampled (cheap even for 16384^2).
fn minimap_image(map: &Map) -> egui::ColorImage {
    let (tw, th) = (map.texture.width(), map.texture.height());
    let scale = (tw.max(th) as f32 / MINIMAP_TEXELS as f32).max(1.0);
    let (w, h) = (
        ((tw as f32 / scale) as usize).max(1),
        ((th as f32 / scale) as usize).max(1),
    );
    let mut pixels = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let sx = (((x as f32 + 0.5) * scale) as usize).min(tw - 1);
            let sy = (((y as f32 + 0.5) * scale) as usize).min(th - 1);
            let p = map.texture.pixel(sx, sy);
            pixels.push(egui::Color32::from_rgb(p[0], p[1], p[2]));
        }
    }
    egui::ColorImage::new([w, h], pixels)
}

impl MinimapPanel {
    /// Forgets the picture (a new map was opened).
    pub fn invalidate(&mut self) {
        self.texture = None;
    }

    /// Shows the minimap; returns the ground point (x, z elmos) clicked or dragged to.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        map: &Map,
        camera_target: [f32; 2],
        view_corners: Option<[[f32; 2]; 4]>,
    ) -> Option<[f32; 2]> {
        if self.texture.is_none() {
            let image = minimap_image(map);
            self.texture = Some(ui.ctx().load_texture(
                "minimap",
                image,
                egui::TextureOptions::LINEAR,
            ));
        }
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
