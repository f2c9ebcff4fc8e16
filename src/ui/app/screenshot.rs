//! `--screenshot PATH --frames N`: once the map is shown, draw N more frames, save what the
//! window shows as a PNG, and close.

use std::sync::atomic::Ordering;

use super::EditorApp;

impl EditorApp {
    pub(super) fn screenshot_step(&mut self, ctx: &egui::Context) {
        let ready = self.doc.is_some() && self.job.is_none();
        let Some(plan) = &mut self.screenshot else {
            return;
        };
        ctx.request_repaint();
        if plan.done.load(Ordering::Acquire) {
            let path = plan.path.clone();
            self.screenshot = None;
            self.log
                .info(format!("screenshot saved to {}", path.display()));
            self.finish(Ok(()), ctx);
            return;
        }
        if !ready || plan.requested {
            return;
        }
        if plan.frames_left > 0 {
            plan.frames_left -= 1;
            return;
        }
        plan.requested = true;
        let (path, done, outcome) = (plan.path.clone(), plan.done.clone(), self.outcome.clone());
        let repaint = ctx.clone();
        ctx.request_screenshot(move |image| {
            let [w, h] = image.size;
            let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
            let saved = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
                .ok_or_else(|| "the screenshot has the wrong size".to_string())
                .and_then(|img| {
                    img.save(&path)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))
                });
            if let Err(e) = saved
                && let Ok(mut o) = outcome.lock()
            {
                *o = Some(Err(e));
            }
            done.store(true, Ordering::Release);
            repaint.request_repaint();
        });
    }
}
