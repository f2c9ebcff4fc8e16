//! The status bar: what is under the cursor (position in elmos, height, metal, grass, terrain
//! type), the running job's progress, and how the view is drawing.

use glam::Vec3;

use crate::map::Map;

/// What the layers hold at one ground point.
#[derive(Clone, Debug, PartialEq)]
struct GroundProbe {
    pub x_elmos: f32,
    pub z_elmos: f32,
    pub height_elmos: f32,
    pub metal_byte: u8,
    pub metal: f32,
    pub grass: u8,
    pub type_index: u8,
    pub type_name: String,
}

impl GroundProbe {
    /// The layers at (x, z) elmos; `None` off the map.
    pub fn at(map: &Map, x_elmos: f32, z_elmos: f32) -> Option<GroundProbe> {
        if !(0.0..=map.size.width_elmos()).contains(&x_elmos)
            || !(0.0..=map.size.depth_elmos()).contains(&z_elmos)
        {
            return None;
        }
        let cell = |size: f32, dims: (usize, usize)| {
            (
                ((x_elmos / size) as usize).min(dims.0 - 1),
                ((z_elmos / size) as usize).min(dims.1 - 1),
            )
        };
        let (mx, mz) = cell(16.0, map.metal.dims());
        let (gx, gz) = cell(32.0, map.grass.dims());
        let metal_byte = map.metal.get(mx, mz);
        let type_index = map.types.get(mx, mz);
        Some(GroundProbe {
            x_elmos,
            z_elmos,
            height_elmos: map.height_at(x_elmos, z_elmos),
            metal_byte,
            metal: map.metal_amount(mx, mz),
            grass: map.grass.get(gx, gz),
            type_index,
            type_name: map
                .settings
                .terrain_types
                .get(&type_index)
                .map(|t| t.name.clone())
                .unwrap_or_else(|| "(undefined)".into()),
        })
    }

    pub fn describe(&self) -> String {
        format!(
            "x {:.0}  z {:.0} elmos   height {:.1}   metal {:.2} (byte {})   grass {}   type {} {}",
            self.x_elmos,
            self.z_elmos,
            self.height_elmos,
            self.metal,
            self.metal_byte,
            self.grass,
            self.type_index,
            self.type_name
        )
    }
}

#[derive(Debug, Default)]
pub struct StatusBar;

/// The running job, as the status bar shows it.
pub struct JobStatus {
    pub label: String,
    pub stage: String,
    pub fraction: Option<f32>,
}

impl StatusBar {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        map: Option<&Map>,
        hover: Option<Vec3>,
        job: Option<JobStatus>,
        right: &str,
    ) {
        ui.horizontal(|ui| {
            if let Some(job) = job {
                ui.add(
                    egui::ProgressBar::new(job.fraction.unwrap_or(0.0))
                        .desired_width(180.0)
                        .show_percentage()
                        .animate(job.fraction.is_none()),
                );
                ui.label(format!("{}: {}", job.label, job.stage));
                ui.separator();
            }
            let probe = map
                .zip(hover)
                .and_then(|(m, p)| GroundProbe::at(m, p.x, p.z));
            match probe {
                Some(p) => ui.monospace(p.describe()),
                None => ui.weak("cursor off the map"),
            };
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.weak(right);
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize};

    #[test]
    fn the_probe_reads_every_layer() {
        let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        map.metal.set(3, 2, 200);
        map.grass.set(1, 1, 1);
        map.heights.set(6, 4, 40.0);
        let p = GroundProbe::at(&map, 50.0, 40.0).unwrap();
        assert_eq!(p.metal_byte, 200);
        assert!((p.metal - 200.0 * map.settings.max_metal).abs() < 1e-3);
        assert_eq!(p.grass, 1);
        assert_eq!(p.type_name, "Default");
        let on_vertex = GroundProbe::at(&map, 48.0, 32.0).unwrap();
        assert_eq!(on_vertex.height_elmos, 40.0);
        assert!(GroundProbe::at(&map, -1.0, 0.0).is_none());
    }
}
