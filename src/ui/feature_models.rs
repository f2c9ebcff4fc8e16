//! The models of the features a map uses, found once and kept: each name's definition (the
//! map's own `features/*.lua`, else the installed game's), its S3O and diffuse texture, for the
//! view (drawn instanced on the GPU) and the palette (a small picture of each model, drawn by
//! egui from the model's triangles, far ones first).

use std::collections::HashMap;
use std::sync::Arc;

use crate::formats::feature_models::{LoadedModel, find_model};
use crate::formats::features::{FeatureDefs, GameFileIndex, defined_features};
use crate::map::Map;

fn game() -> &'static Option<(FeatureDefs, GameFileIndex)> {
    crate::install::installed_game_features()
}

/// A model found for a name, or why not.
pub type Found = Result<Arc<LoadedModel>, String>;

/// The models by feature name (lower case), for one map's files.
#[derive(Default)]
pub struct ModelCache {
    /// The map's definitions, and which map they were read from (its name and file count).
    own: Option<((String, usize), FeatureDefs)>,
    models: HashMap<String, Found>,
    thumbs: HashMap<String, egui::TextureHandle>,
}

impl std::fmt::Debug for ModelCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelCache")
            .field("models", &self.models.len())
            .finish()
    }
}

impl ModelCache {
    /// Forgets what was read for another map.
    fn follow(&mut self, map: &Map) {
        let key = (map.settings.name.clone(), map.bundled_files.len());
        if self.own.as_ref().is_none_or(|(k, _)| *k != key) {
            self.own = Some((key, defined_features(&map.bundled_files)));
            self.models.clear();
            self.thumbs.clear();
        }
    }

    /// The model of `name` on `map`, loaded the first time it is asked for.
    pub fn model(&mut self, map: &Map, name: &str) -> Found {
        self.follow(map);
        let key = name.to_ascii_lowercase();
        if let Some(f) = self.models.get(&key) {
            return f.clone();
        }
        let own = &self.own.as_ref().expect("followed above").1;
        let found = find_model(own, game().as_ref(), &map.bundled_files, name).map(Arc::new);
        self.models.insert(key, found.clone());
        found
    }

    /// The models of every name `map`'s features use, each found or not.
    pub fn models_of(&mut self, map: &Map) -> HashMap<String, Found> {
        let mut names: Vec<&str> = map.features.iter().map(|f| f.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        names
            .into_iter()
            .map(|n| (n.to_ascii_lowercase(), self.model(map, n)))
            .collect()
    }

    /// A picture of `name`'s model in `size` points, or `None` when it has none.
    pub fn thumbnail(&mut self, ui: &mut egui::Ui, map: &Map, name: &str, size: f32) -> bool {
        let Ok(model) = self.model(map, name) else {
            return false;
        };
        let key = name.to_ascii_lowercase();
        let texture = self
            .thumbs
            .entry(key)
            .or_insert_with(|| {
                let image = match &model.texture_rgba {
                    // texture 1's alpha is the team colour mask, not transparency
                    Some((w, h, rgba)) => {
                        let rgb: Vec<u8> = rgba
                            .chunks_exact(4)
                            .flat_map(|p| [p[0], p[1], p[2]])
                            .collect();
                        egui::ColorImage::from_rgb([*w as usize, *h as usize], &rgb)
                    }
                    None => egui::ColorImage::new([1, 1], vec![egui::Color32::from_gray(170)]),
                };
                ui.ctx()
                    .load_texture(format!("model {name}"), image, egui::TextureOptions::LINEAR)
            })
            .clone();
        let (rect, _) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
        // a sky behind it, so dark foliage reads on the dark panel
        ui.painter()
            .rect_filled(rect, 3.0, egui::Color32::from_rgb(132, 160, 178));
        ui.painter()
            .add(egui::Shape::mesh(model_mesh(&model, rect, texture.id())));
        true
    }
}

/// The model's triangles seen from the front and a little above, turned a little, fitted into
/// `rect`, shaded by a light from the upper left, far triangles first.
pub fn model_mesh(model: &LoadedModel, rect: egui::Rect, texture: egui::TextureId) -> egui::Mesh {
    let m = &model.mesh;
    let (yaw, pitch) = (0.6f32, 0.35f32);
    let (sy, cy, sp, cp) = (yaw.sin(), yaw.cos(), pitch.sin(), pitch.cos());
    // the view: turn about y, then tilt about x; screen x right, y up, depth away
    let view = |p: [f32; 3]| {
        let x = p[0] * cy + p[2] * sy;
        let z = -p[0] * sy + p[2] * cy;
        let y = p[1] * cp - z * sp;
        let d = p[1] * sp + z * cp;
        [x, y, d]
    };
    let projected: Vec<[f32; 3]> = m.positions.iter().map(|&p| view(p)).collect();
    let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
    for p in &projected {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let span = (hi[0] - lo[0]).max(hi[1] - lo[1]).max(1e-3);
    let scale = rect.width().min(rect.height()) * 0.92 / span;
    let centre = [(lo[0] + hi[0]) * 0.5, (lo[1] + hi[1]) * 0.5];
    let light = {
        let l = [-0.5f32, 0.8, -0.4];
        let n = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
        [l[0] / n, l[1] / n, l[2] / n]
    };
    let mut mesh = egui::Mesh::with_texture(texture);
    for (i, p) in projected.iter().enumerate() {
        let n = m.normals.get(i).copied().unwrap_or([0.0, 1.0, 0.0]);
        let lit = (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]).abs();
        let shade = (0.45 + 0.55 * lit).clamp(0.0, 1.0);
        let g = (shade * 255.0) as u8;
        let uv = m.uvs.get(i).copied().unwrap_or([0.5, 0.5]);
        mesh.vertices.push(egui::epaint::Vertex {
            pos: rect.center()
                + egui::vec2((p[0] - centre[0]) * scale, -(p[1] - centre[1]) * scale),
            uv: egui::pos2(uv[0], 1.0 - uv[1]),
            color: egui::Color32::from_rgb(g, g, g),
        });
    }
    let mut tris: Vec<[u32; 3]> = m
        .indices
        .chunks_exact(3)
        .map(|t| [t[0], t[1], t[2]])
        .filter(|t| t.iter().all(|&i| (i as usize) < projected.len()))
        .collect();
    let depth = |t: &[u32; 3]| t.iter().map(|&i| projected[i as usize][2]).sum::<f32>();
    tris.sort_by(|a, b| depth(b).total_cmp(&depth(a)));
    for t in tris {
        mesh.indices.extend_from_slice(&t);
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::s3o::{example_model, read_s3o, write_s3o};

    fn loaded() -> LoadedModel {
        let model = read_s3o(&write_s3o(&example_model()), "example.s3o").unwrap();
        let mesh = model.mesh();
        LoadedModel {
            radius_elmos: model.effective_radius_elmos(&mesh),
            height_elmos: model.effective_height_elmos(&mesh),
            mesh,
            texture_rgba: None,
            texture_problem: None,
            model_path: "objects3d/example.s3o".into(),
            from_game: false,
        }
    }

    #[test]
    fn the_thumbnail_fits_the_model_in_its_square_far_triangles_first() {
        let model = loaded();
        let rect = egui::Rect::from_min_size(egui::pos2(10.0, 20.0), egui::vec2(64.0, 64.0));
        let mesh = model_mesh(&model, rect, egui::TextureId::default());
        assert_eq!(mesh.vertices.len(), model.mesh.positions.len());
        assert_eq!(mesh.indices.len(), model.mesh.indices.len());
        assert!(
            mesh.vertices
                .iter()
                .all(|v| rect.expand(0.5).contains(v.pos))
        );
        // the model fills most of the square one way
        let xs = mesh.vertices.iter().map(|v| v.pos.x);
        let ys = mesh.vertices.iter().map(|v| v.pos.y);
        let w = xs.clone().fold(f32::MIN, f32::max) - xs.fold(f32::MAX, f32::min);
        let h = ys.clone().fold(f32::MIN, f32::max) - ys.fold(f32::MAX, f32::min);
        assert!(w.max(h) > 50.0, "{w} x {h}");
    }

    #[test]
    fn a_name_without_a_definition_says_so_and_the_templates_tree_is_found() {
        let map = Map::new(
            crate::map::MapSize::new(2, 2).unwrap(),
            crate::map::MapSettings::default(),
        );
        let mut cache = ModelCache::default();
        let e = cache.model(&map, "no_such_tree").unwrap_err();
        assert!(e.contains("no definition"), "{e}");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/fixtures/bar/Map_Blueprint_V1.sdd");
        if !dir.is_dir() {
            crate::test_support::skip("fixtures not found");
            return;
        }
        let template = crate::formats::open_map(&dir).unwrap().map;
        let m = cache
            .model(&template, "fir_tree_small_1()tree_fir_tall_5")
            .unwrap();
        assert_eq!(m.mesh.indices.len(), 1320);
        assert!(m.texture_rgba.is_some());
        let all = cache.models_of(&template);
        assert!(all.values().all(|f| f.is_ok()));
    }
}
