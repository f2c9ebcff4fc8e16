//! Feature models drawn headless: a magenta box stands where its feature is on flat and sloped
//! ground, its heading turns it as the engine turns a model, features without a model stay
//! markers, and the models ride the ground when the height texture changes under them (as a
//! stroke on the GPU changes it, before the document knows). Skips with a message when the
//! machine has no GPU adapter.

use std::collections::HashMap;

use glam::Vec3;
use groundwork::edit::{GridRect, LayerId};
use groundwork::gpu::features::model_to_world;
use groundwork::gpu::{
    Camera, CameraPreset, FeatureInstance, FeatureModelData, GpuContext, MapScene, RenderTarget,
    Renderer, ViewOptions,
};
use groundwork::map::{Feature, Map, MapSettings, MapSize};

const W: u32 = 480;
const H: u32 = 320;

/// A box `wide` elmos along x (centred), `tall` up and `long` along +z from the origin: its
/// far end shows which way the model's +z points. Flat normals, a solid magenta texture whose
/// alpha is 0 (an S3O team colour mask: it must not cut the model away).
fn box_model(wide: f32, tall: f32, long: f32) -> FeatureModelData {
    let (x0, x1, y0, y1, z0, z1) = (-wide / 2.0, wide / 2.0, 0.0, tall, 0.0, long);
    let faces: [([f32; 3], [[f32; 3]; 4]); 6] = [
        (
            [1.0, 0.0, 0.0],
            [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]],
        ),
        (
            [-1.0, 0.0, 0.0],
            [[x0, y0, z1], [x0, y1, z1], [x0, y1, z0], [x0, y0, z0]],
        ),
        (
            [0.0, 1.0, 0.0],
            [[x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0]],
        ),
        (
            [0.0, -1.0, 0.0],
            [[x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]],
        ),
        (
            [0.0, 0.0, 1.0],
            [[x1, y0, z1], [x1, y1, z1], [x0, y1, z1], [x0, y0, z1]],
        ),
        (
            [0.0, 0.0, -1.0],
            [[x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]],
        ),
    ];
    let mut m = FeatureModelData::default();
    for (normal, corners) in faces {
        let base = m.positions.len() as u32;
        for (k, c) in corners.into_iter().enumerate() {
            m.positions.push(c);
            m.normals.push(normal);
            m.uvs.push([(k / 2) as f32, (k % 2) as f32]);
        }
        m.indices
            .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    m.texture_rgba = Some((4, 4, [255u8, 0, 255, 0].repeat(16)));
    m
}

fn is_magenta(p: &image::Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    r > 60 && b > 60 && (g as u32) * 3 < r as u32 && (g as u32) * 3 < b as u32
}

/// A 4x4 map (2048 elmos a side) whose ground is `ground(x, z)` elmos, all above the water.
fn map_with(ground: impl Fn(f32, f32) -> f32, features: &[(&str, f32, f32, f32)]) -> Map {
    let settings = MapSettings {
        max_height_elmos: 1000.0,
        ..MapSettings::default()
    };
    let mut map = Map::new(MapSize::new(4, 4).unwrap(), settings);
    let (w, h) = map.heights.dims();
    for z in 0..h {
        for x in 0..w {
            map.heights
                .set(x, z, ground(x as f32 * 8.0, z as f32 * 8.0));
        }
    }
    map.features = features
        .iter()
        .map(|&(name, x, z, deg)| Feature {
            name: name.into(),
            x_elmos: x,
            z_elmos: z,
            rotation_deg: deg,
        })
        .collect();
    map
}

struct Stage {
    ctx: GpuContext,
    renderer: Renderer,
    scene: MapScene,
    target: RenderTarget,
}

impl Stage {
    fn new(map: &Map, models: &[(&str, FeatureModelData)]) -> Option<Stage> {
        let ctx = groundwork::test_support::gpu()?;
        let renderer = Renderer::new(&ctx);
        let mut scene = MapScene::new(&ctx, &renderer.layouts, map, &mut |_, _| {}).unwrap();
        let models: HashMap<String, FeatureModelData> = models
            .iter()
            .map(|(n, m)| (n.to_string(), m.clone()))
            .collect();
        assert!(scene.set_feature_models(&ctx, models).is_empty());
        scene.set_markers(&ctx, map);
        let target = RenderTarget::new(&ctx, W, H);
        Some(Stage {
            ctx,
            renderer,
            scene,
            target,
        })
    }

    fn render(&self, camera: &Camera, opts: &ViewOptions) -> image::RgbaImage {
        self.renderer
            .render(&self.ctx, &self.scene, &self.target, camera, opts);
        let rgba = self.target.read_rgba(&self.ctx).unwrap();
        image::RgbaImage::from_raw(W, H, rgba).unwrap()
    }
}

fn opts() -> ViewOptions {
    ViewOptions {
        water: false,
        grass_blades: false,
        ..ViewOptions::default()
    }
}

fn look(map: &Map, eye: [f32; 3], target: [f32; 3]) -> Camera {
    let (eye, target) = (Vec3::from(eye), Vec3::from(target));
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let mut cam = Camera::preset(CameraPreset::LookAt { eye, target }, w, d, 0.0);
    cam.look_at(eye, target);
    cam
}

/// Where `p` (elmos) lands in the picture, in pixels from the top left.
fn on_screen(cam: &Camera, p: [f32; 3]) -> [f32; 2] {
    let c = cam.view_proj(W as f32 / H as f32) * Vec3::from(p).extend(1.0);
    [
        (c.x / c.w + 1.0) * 0.5 * W as f32,
        (1.0 - c.y / c.w) * 0.5 * H as f32,
    ]
}

/// Magenta pixels: how many, their mean position, and their bounding box (x0, y0, x1, y1).
fn magenta(img: &image::RgbaImage) -> (usize, [f32; 2], [u32; 4]) {
    let (mut n, mut sx, mut sy) = (0usize, 0f64, 0f64);
    let mut bb = [u32::MAX, u32::MAX, 0, 0];
    for (x, y, p) in img.enumerate_pixels() {
        if is_magenta(p) {
            n += 1;
            sx += x as f64;
            sy += y as f64;
            bb = [bb[0].min(x), bb[1].min(y), bb[2].max(x), bb[3].max(y)];
        }
    }
    let k = n.max(1) as f64;
    (n, [(sx / k) as f32, (sy / k) as f32], bb)
}

/// Whether a magenta pixel lies within `r` pixels of `at`.
fn magenta_near(img: &image::RgbaImage, at: [f32; 2], r: i32) -> bool {
    (-r..=r).any(|dy| {
        (-r..=r).any(|dx| {
            let (x, y) = (at[0] as i32 + dx, at[1] as i32 + dy);
            x >= 0
                && y >= 0
                && (x as u32) < W
                && (y as u32) < H
                && is_magenta(img.get_pixel(x as u32, y as u32))
        })
    })
}

fn save(img: &image::RgbaImage, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    img.save(dir.join(format!("{name}.png"))).unwrap();
}

/// Ground height in elmos at (x, z).
type Ground = fn(f32, f32) -> f32;

const PLACES: [(f32, f32); 3] = [(700.0, 900.0), (1024.0, 1100.0), (1350.0, 900.0)];

#[test]
fn models_stand_where_their_features_are_on_flat_and_sloped_ground() {
    let grounds: [(&str, Ground); 2] = [
        ("flat", |_, _| 60.0),
        ("sloped", |x, z| 40.0 + 0.2 * x + 0.1 * z),
    ];
    for (name, ground) in grounds {
        let feats: Vec<(&str, f32, f32, f32)> =
            PLACES.iter().map(|&(x, z)| ("pillar", x, z, 0.0)).collect();
        let map = map_with(ground, &feats);
        let Some(stage) = Stage::new(&map, &[("pillar", box_model(40.0, 160.0, 40.0))]) else {
            return;
        };
        let cam = look(&map, [1024.0, 1300.0, 2700.0], [1024.0, 100.0, 900.0]);
        let with = stage.render(&cam, &opts());
        let without = stage.render(
            &cam,
            &ViewOptions {
                features: false,
                ..opts()
            },
        );
        save(&with, &format!("features_{name}"));
        let (n, _, _) = magenta(&with);
        assert!(n > 300, "{name}: {n} magenta pixels");
        assert_eq!(magenta(&without).0, 0, "{name}: models drawn while off");
        let differ = with
            .pixels()
            .zip(without.pixels())
            .filter(|(a, b)| a != b)
            .count();
        assert!(differ >= n, "{name}: {differ} pixels differ");
        for &(x, z) in &PLACES {
            let g = map.height_at(x, z);
            // the box's middle, and well above its top, over where the feature stands
            let mid = on_screen(&cam, [x, g + 80.0, z + 20.0]);
            assert!(
                magenta_near(&with, mid, 2),
                "{name}: no model at {x}, {z} ({mid:?})"
            );
            let above = on_screen(&cam, [x, g + 320.0, z + 20.0]);
            assert!(
                !magenta_near(&with, above, 2),
                "{name}: the model at {x}, {z} stands too high"
            );
            let ground_px = on_screen(&cam, [x, g - 100.0, z + 20.0]);
            assert!(
                !magenta_near(&with, ground_px, 1),
                "{name}: the model at {x}, {z} reaches under the ground"
            );
        }
    }
}

#[test]
fn the_heading_turns_the_model_as_the_engine_does() {
    let at = (1024.0, 1024.0);
    let long = box_model(24.0, 40.0, 200.0);
    let mut shapes = Vec::new();
    for deg in [0.0f32, 90.0] {
        let map = map_with(|_, _| 60.0, &[("log", at.0, at.1, deg)]);
        let Some(stage) = Stage::new(&map, &[("log", long.clone())]) else {
            return;
        };
        // nearly straight down, north up
        let cam = look(&map, [at.0, 1400.0, at.1 + 60.0], [at.0, 60.0, at.1]);
        let img = stage.render(&cam, &opts());
        save(&img, &format!("features_heading_{deg}"));
        let (n, centre, bb) = magenta(&img);
        assert!(n > 100, "{deg}: {n} magenta pixels");
        // the middle of the box as the CPU twin places it
        let inst = FeatureInstance {
            x_elmos: at.0,
            z_elmos: at.1,
            heading_rad: deg.to_radians(),
            model: 0,
        };
        let want = on_screen(&cam, model_to_world(&inst, 60.0, [0.0, 40.0, 100.0]));
        let off = ((centre[0] - want[0]).powi(2) + (centre[1] - want[1]).powi(2)).sqrt();
        assert!(
            off < 6.0,
            "{deg}: the model's middle at {centre:?}, expected {want:?}"
        );
        shapes.push((bb[2] - bb[0], bb[3] - bb[1]));
    }
    // heading 0: long along z (down the screen); a quarter turn: long along x
    let ((w0, h0), (w1, h1)) = (shapes[0], shapes[1]);
    assert!(h0 > 3 * w0, "heading 0: {w0} x {h0} pixels");
    assert!(w1 > 3 * h1, "heading 90: {w1} x {h1} pixels");
}

#[test]
fn models_ride_the_height_texture_as_a_stroke_changes_it() {
    let at = (1024.0, 1024.0);
    let map = map_with(|_, _| 60.0, &[("pillar", at.0, at.1, 0.0)]);
    let Some(stage) = Stage::new(&map, &[("pillar", box_model(40.0, 120.0, 40.0))]) else {
        return;
    };
    let cam = look(&map, [1024.0, 900.0, 2200.0], [1024.0, 100.0, 1024.0]);
    let before = stage.render(&cam, &opts());
    // raise the ground 200 elmos under the feature, on the GPU only: the document lags
    let (cx, cz) = ((at.0 / 8.0) as usize, (at.1 / 8.0) as usize);
    let rect = GridRect::new(cx - 12, cz - 12, 25, 25);
    stage.scene.write_rect(
        &stage.ctx,
        LayerId::Heights,
        rect,
        &vec![260.0; rect.area()],
    );
    let after = stage.render(&cam, &opts());
    save(&after, "features_raised");
    let (n0, c0, _) = magenta(&before);
    let (n1, c1, _) = magenta(&after);
    assert!(n0 > 100 && n1 > 100, "{n0} and {n1} magenta pixels");
    let want = on_screen(&cam, [at.0, 60.0 + 60.0, at.1 + 20.0])[1]
        - on_screen(&cam, [at.0, 260.0 + 60.0, at.1 + 20.0])[1];
    let moved = c0[1] - c1[1];
    assert!(
        moved > want * 0.7 && moved < want * 1.3,
        "the model rose {moved} pixels on screen, the ground {want}"
    );
    assert!(magenta_near(
        &after,
        on_screen(&cam, [at.0, 320.0, at.1 + 20.0]),
        2
    ));
}

#[test]
fn features_without_a_model_stay_markers() {
    let map = map_with(
        |_, _| 60.0,
        &[
            ("pillar", 900.0, 1024.0, 0.0),
            ("unknown", 1150.0, 1024.0, 0.0),
        ],
    );
    let Some(mut stage) = Stage::new(&map, &[("pillar", box_model(40.0, 120.0, 40.0))]) else {
        return;
    };
    assert!(stage.scene.has_feature_model("pillar"));
    assert!(!stage.scene.has_feature_model("unknown"));
    // the same set again uploads nothing; a broken mesh is reported and stays a marker
    let mut again = HashMap::new();
    again.insert("pillar".to_string(), box_model(40.0, 120.0, 40.0));
    let mut broken = box_model(10.0, 10.0, 10.0);
    broken.indices[0] = 999;
    again.insert("broken".to_string(), broken);
    let problems = stage.scene.set_feature_models(&stage.ctx, again);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("broken"), "{problems:?}");
    assert_eq!(stage.scene.features.model_count(), 1);
    stage.scene.set_markers(&stage.ctx, &map);
    assert_eq!(stage.scene.features.instance_count(), 1);

    let cam = look(&map, [1024.0, 1200.0, 2200.0], [1024.0, 60.0, 1024.0]);
    let points = stage.scene.unmodelled_feature_points(&map, &cam, (W, H));
    assert_eq!(points.len(), 1);
    assert_eq!(points[0].0, 1);
    let want = on_screen(&cam, [1150.0, 68.0, 1024.0]);
    assert!((points[0].1[0] - want[0]).abs() < 0.5 && (points[0].1[1] - want[1]).abs() < 0.5);
    let img = stage.render(&cam, &opts());
    save(&img, "features_marker");
    // the marker's dark green where the unknown feature stands
    let p = img.get_pixel(want[0] as u32, want[1] as u32).0;
    assert!(
        p[1] > p[0] + 30 && p[1] > p[2] + 30,
        "no marker at the unknown feature: {p:?}"
    );
    assert!(magenta_near(
        &img,
        on_screen(&cam, [900.0, 120.0, 1044.0]),
        2
    ));
}

#[test]
fn models_are_lit_by_the_ground_sun_ambient_and_diffuse() {
    let at = (1024.0, 1024.0);
    let map = map_with(|_, _| 60.0, &[("pillar", at.0, at.1, 0.0)]);
    let Some(stage) = Stage::new(&map, &[("pillar", box_model(80.0, 160.0, 80.0))]) else {
        return;
    };
    // from the +x, +z corner: the +x and +z faces in view
    let cam = look(&map, [1400.0, 400.0, 1500.0], [1024.0, 140.0, 1064.0]);
    let img = stage.render(&cam, &opts());
    save(&img, "features_lit");
    let look = groundwork::gpu::scene::SceneLook::from_settings(&map.settings);
    let sun = Vec3::from(look.sun_dir).normalize();
    for (normal, centre) in [
        ([1.0, 0.0, 0.0], [at.0 + 40.0, 140.0, at.1 + 40.0]),
        ([0.0, 0.0, 1.0], [at.0, 140.0, at.1 + 80.0]),
    ] {
        let ndl = Vec3::from(normal).dot(sun).max(0.0);
        // magenta: red and blue carry the light
        let want =
            |c: usize| ((look.ambient[c] + look.diffuse[c] * ndl).min(1.0) * 255.0).round() as i32;
        let px = on_screen(&cam, centre);
        let p = img.get_pixel(px[0] as u32, px[1] as u32).0;
        for (c, got) in [(0, p[0]), (2, p[2])] {
            assert!(
                (got as i32 - want(c)).abs() <= 3,
                "face {normal:?}: channel {c} is {got}, the sun gives {}",
                want(c)
            );
        }
        assert!(p[1] <= 3, "face {normal:?}: {p:?}");
    }
}
