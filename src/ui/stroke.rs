//! A brush stroke from press to release, the path every height tool follows: each frame its
//! dabs run as a compute kernel on the GPU copy of the heights (so the terrain shows them the
//! next frame); when the button is released the touched rectangle is read back into the
//! document once, and its before and after become one undo step. Without compute the CPU
//! twin edits the document and the rectangle is uploaded instead.

use crate::edit::brush::{Dab, StrokeParams, apply_raise_lower};
use crate::edit::{Change, GridRect, HeightPatch};
use crate::gpu::{GpuContext, HeightKernel, HeightKernels, MapScene};
use crate::map::HeightGrid;

use super::document::Document;

/// The GPU side a stroke runs on.
pub struct StrokeGpu<'a> {
    pub ctx: &'a GpuContext,
    pub kernels: Option<&'a HeightKernels>,
}

pub struct Stroke {
    pub last_elmos: [f32; 2],
    /// Every vertex any dab may have changed.
    pub rect: GridRect,
    /// The heights before the stroke, kept only on the CPU path (the GPU path reads them
    /// from the document, which it leaves alone until the stroke ends).
    cpu_before: Option<HeightGrid>,
    pub dabs: usize,
}

impl Stroke {
    pub fn begin(at_elmos: [f32; 2]) -> Stroke {
        Stroke {
            last_elmos: at_elmos,
            rect: GridRect::default(),
            cpu_before: None,
            dabs: 0,
        }
    }

    /// Applies `dabs` (at most one dispatch's worth) to the GPU copy, or through the CPU twin.
    pub fn apply(
        &mut self,
        dabs: &[Dab],
        doc: &mut Document,
        scene: &mut MapScene,
        gpu: &StrokeGpu,
    ) {
        let (w, h) = doc.map.heights.dims();
        let s = &doc.map.settings;
        let Some(params) = StrokeParams::new(dabs, w, h, s.min_height_elmos, s.max_height_elmos)
        else {
            return;
        };
        let r = params.rect();
        self.rect = self.rect.union(&r);
        self.dabs += params.dab_count as usize;
        match gpu.kernels {
            Some(k) => {
                k.dispatch(
                    gpu.ctx,
                    scene,
                    HeightKernel::RaiseLower,
                    bytemuck::bytes_of(&params),
                    params.size,
                );
                let change: f32 = params
                    .active_dabs()
                    .iter()
                    .map(|d| d.amount_elmos.abs())
                    .sum();
                scene.chunks.widen(r.x0, r.z0, r.w, r.h, change);
            }
            None => {
                if self.cpu_before.is_none() {
                    self.cpu_before = Some(doc.map.heights.clone());
                }
                let map = doc.map_mut();
                apply_raise_lower(&mut map.heights, &params);
                scene.write_heights(gpu.ctx, &doc.map.heights, r.x0, r.z0, r.w, r.h);
            }
        }
    }

    /// Ends the stroke: reads the touched rectangle back (GPU path), writes it into the
    /// document, and records one undo step. Returns the step's description.
    pub fn finish(
        self,
        doc: &mut Document,
        scene: &mut MapScene,
        gpu: &StrokeGpu,
    ) -> Result<Option<String>, String> {
        let r = self.rect;
        if r.is_empty() {
            return Ok(None);
        }
        let (before, after) = match self.cpu_before {
            Some(before_all) => (
                before_all.copy_rect(r.x0, r.z0, r.w, r.h),
                doc.map.heights.copy_rect(r.x0, r.z0, r.w, r.h),
            ),
            None => {
                let after = scene
                    .read_heights(gpu.ctx, r.x0, r.z0, r.w, r.h)
                    .map_err(|e| e.to_string())?;
                let before = doc.map.heights.copy_rect(r.x0, r.z0, r.w, r.h);
                doc.map_mut().heights.paste_rect(r.x0, r.z0, &after);
                (before, after)
            }
        };
        scene.chunks.refresh(&doc.map.heights, r.x0, r.z0, r.w, r.h);
        let change = Change::Heights(HeightPatch {
            x0: r.x0,
            z0: r.z0,
            before,
            after,
        });
        let text = change.describe();
        doc.history.push(change);
        doc.dirty = true;
        doc.revision += 1;
        Ok(Some(text))
    }
}
