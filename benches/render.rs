//! Frame time of the editor's renderer at 1920x1080 on 8x8, 16x16 and 32x32 maps, along a
//! fixed camera path (an orbit of the whole map, a low pass across it, a top-down pan), with
//! the plain ground (without and with grass blades) and with every overlay on; plus the GPU memory each map takes and how
//! long putting it on the GPU takes; then the same map with 8 texture layers (every kind of
//! rule): the frame, the rule update after a stroke (a 128 x 128-vertex rectangle, a brush of
//! 512 elmos) and over the whole map; then the pathing overlay (TANK2): frames along the path
//! with it on, frames during a raise stroke with it off and on (each frame one stroke step, the
//! overlay re-made live over the step's rectangle, then drawn), its update over a 128 x
//! 128-vertex rectangle on the GPU beside the CPU twin, and the whole map. Headless, on
//! whatever adapter `WGPU_BACKEND` picks. `--features-only` times instead the frames of an
//! 8x8 map with 10,000 features drawn as one model (460 vertices, 1320 indices) beside the
//! same frames without them and with them as markers, the model's upload and the instances'
//! rebuild after an edit. First, always: a grazing view beside the overview at 1280x720 and
//! 1920x1080 on the starter map and a generated layered 8x8 map (`--grazing-only` for just
//! that).
//!
//! `cargo bench --bench render [-- --frames N --sizes 8,16,32 --layers-only --pathing-only
//! --features-only --grazing-only]`. Each frame is submitted and waited for, so a frame's time is the CPU and
//! GPU work of that frame, end to end.

use std::time::Instant;

use glam::Vec3;
use groundwork::analyze::move_class::bar_classes;
use groundwork::analyze::passability::codes_rect;
use groundwork::edit::procedural::relief_map;
use groundwork::edit::tools::ToolSettings;
use groundwork::edit::{GridRect, Session};
use groundwork::gpu::pathing::PathingChoice;
use groundwork::gpu::{
    BrushKernels, Camera, CameraPreset, FeatureModelData, GpuContext, MapScene, RenderTarget,
    Renderer, SceneLayers, ViewOptions,
};
use groundwork::map::{Feature, Map, MapSize};

#[path = "common/layers.rs"]
mod layers;
use layers::eight_layers;

/// Mean milliseconds of `f` over `n` runs (after one to warm up), each waited for.
fn time_ms(ctx: &GpuContext, n: usize, mut f: impl FnMut()) -> f64 {
    f();
    ctx.wait();
    let t0 = Instant::now();
    for _ in 0..n {
        f();
        ctx.wait();
    }
    t0.elapsed().as_secs_f64() * 1000.0 / n.max(1) as f64
}

struct Args {
    frames: usize,
    sizes: Vec<u32>,
    /// Only the 8-layer rows (`--layers-only`).
    layers_only: bool,
    /// Only the pathing overlay's rows (`--pathing-only`).
    pathing_only: bool,
    /// Only the feature models' rows (`--features-only`).
    features_only: bool,
    /// Only the grazing-against-overview rows (`--grazing-only`).
    grazing_only: bool,
}

fn args() -> Args {
    let mut a = Args {
        frames: 90,
        sizes: vec![8, 16, 32],
        layers_only: false,
        pathing_only: false,
        features_only: false,
        grazing_only: false,
    };
    let argv: Vec<String> = std::env::args().collect();
    let mut i = 1;
    while i < argv.len() {
        match argv[i].as_str() {
            "--frames" => {
                a.frames = argv
                    .get(i + 1)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(a.frames);
                i += 1;
            }
            "--sizes" => {
                if let Some(v) = argv.get(i + 1) {
                    a.sizes = v.split(',').filter_map(|s| s.trim().parse().ok()).collect();
                }
                i += 1;
            }
            "--layers-only" => a.layers_only = true,
            "--pathing-only" => a.pathing_only = true,
            "--features-only" => a.features_only = true,
            "--grazing-only" => a.grazing_only = true,
            _ => {}
        }
        i += 1;
    }
    a
}

/// A grazing view (a few degrees over the largest water, `groundwork render --camera
/// grazing`) beside the overview of the same map at the same size: the built-in starter map and
/// a generated 8x8 continental map with its texture layers, at 1280x720 and 1920x1080, with
/// and without grass blades. A frame whose cost leaps at some size (a driver's fallback, a
/// texture limit) shows here as a ratio far above the others.
fn grazing_bench(ctx: &GpuContext, renderer: &Renderer, frames: usize) {
    use groundwork::edit::new_map::{NewMap, new_map_generated};
    use groundwork::gpu::snapshot::preset_camera;
    use groundwork::map::SymmetryMode;
    use groundwork::map::recipe::{Preset, Recipe};
    let mut maps = Vec::new();
    match groundwork::assets::starter_map() {
        Ok(m) => maps.push(("starter".to_string(), m)),
        Err(e) => eprintln!("starter map: {e}"),
    }
    let spec = NewMap {
        width_units: 8,
        depth_units: 8,
        players: 4,
        symmetry: SymmetryMode::Rotate(4),
        sea_level_elmos: Some(60.0),
        recipe: Some(Recipe::preset(Preset::Continental, 7)),
        ..NewMap::default()
    };
    match new_map_generated(&spec) {
        Ok((m, _)) => maps.push((
            format!("8x8 continental, {} layers", m.texture_layers.len()),
            m,
        )),
        Err(e) => eprintln!("generated map: {e}"),
    }
    println!();
    println!("grazing against overview, {frames} frames each, each waited for:");
    println!();
    println!(
        "| map | size | overview ms | grazing, no blades ms | grazing with blades ms | grazing / overview | blade patches drawn |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (name, map) in &maps {
        let scene = match MapScene::new(ctx, &renderer.layouts, map, &mut |_, _| {}) {
            Ok(s) => s,
            Err(e) => {
                println!("| {name} | - | {e} | | | | |");
                continue;
            }
        };
        for (w, h) in [(1280, 720), (1920, 1080)] {
            let target = RenderTarget::new(ctx, w, h);
            let bare = ViewOptions {
                grass_blades: false,
                ..ViewOptions::default()
            };
            let plain = ViewOptions::default();
            let mut patches = 0;
            let mut frame = |preset: CameraPreset, opts: &ViewOptions| {
                let cam = preset_camera(map, preset, target.aspect());
                time_ms(ctx, frames, || {
                    patches = renderer
                        .render(ctx, &scene, &target, &cam, opts)
                        .grass_patches;
                })
            };
            let over = frame(CameraPreset::Overview, &plain);
            let graze_bare = frame(CameraPreset::Grazing, &bare);
            let graze = frame(CameraPreset::Grazing, &plain);
            println!(
                "| {name} | {w}x{h} | {over:.1} | {graze_bare:.1} | {graze:.1} | {:.2} | {patches} |",
                graze.max(graze_bare) / over
            );
        }
    }
}

/// The camera for frame `i` of `n` over a `w` x `d` map.
fn camera_on_path(i: usize, n: usize, map: &Map, aspect: f32) -> Camera {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let t = i as f32 / n.max(1) as f32;
    let ground = |x: f32, z: f32| map.heights.sample_bilinear(x / 8.0, z / 8.0);
    let mut cam;
    if t < 1.0 / 3.0 {
        cam = Camera::preset(CameraPreset::Overview, w, d, 0.0);
        cam.frame(w, d, aspect);
        cam.yaw_rad = t * 3.0 * std::f32::consts::TAU;
    } else if t < 2.0 / 3.0 {
        let s = (t - 1.0 / 3.0) * 3.0;
        let x = w * (0.1 + 0.8 * s);
        let z = d * 0.8;
        let eye = Vec3::new(x, ground(x, z) + 400.0, z);
        let target = Vec3::new(x + w * 0.05, 0.0, d * 0.4);
        cam = Camera::preset(CameraPreset::LookAt { eye, target }, w, d, 0.0);
    } else {
        let s = (t - 2.0 / 3.0) * 3.0;
        cam = Camera::preset(CameraPreset::Top, w, d, 0.0);
        cam.frame(w, d, aspect);
        cam.distance_elmos *= 0.35;
        cam.target = Vec3::new(w * (0.2 + 0.6 * s), 0.0, d * (0.2 + 0.6 * s));
    }
    cam.clamp_above_ground(ground);
    cam
}

struct Timing {
    mean_ms: f64,
    p95_ms: f64,
    triangles_k: f64,
    chunks: f64,
    grass_patches_k: f64,
    feature_instances: f64,
}

fn run_path(
    ctx: &GpuContext,
    renderer: &Renderer,
    scene: &MapScene,
    map: &Map,
    target: &RenderTarget,
    opts: &ViewOptions,
    frames: usize,
) -> Timing {
    // warm up: pipelines, first uploads
    for i in 0..3 {
        renderer.render(
            ctx,
            scene,
            target,
            &camera_on_path(i, frames, map, target.aspect()),
            opts,
        );
        ctx.wait();
    }
    let mut ms = Vec::with_capacity(frames);
    let (mut tris, mut chunks, mut patches, mut models) = (0u64, 0usize, 0u64, 0u64);
    for i in 0..frames {
        let cam = camera_on_path(i, frames, map, target.aspect());
        let t0 = Instant::now();
        let stats = renderer.render(ctx, scene, target, &cam, opts);
        ctx.wait();
        ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        tris += stats.triangles;
        chunks += stats.chunks;
        patches += stats.grass_patches as u64;
        models += stats.feature_instances as u64;
    }
    let mut sorted = ms.clone();
    sorted.sort_by(f64::total_cmp);
    Timing {
        mean_ms: ms.iter().sum::<f64>() / ms.len().max(1) as f64,
        p95_ms: sorted[((sorted.len() as f64 * 0.95) as usize).min(sorted.len() - 1)],
        triangles_k: tris as f64 / frames.max(1) as f64 / 1000.0,
        chunks: chunks as f64 / frames.max(1) as f64,
        grass_patches_k: patches as f64 / frames.max(1) as f64 / 1000.0,
        feature_instances: models as f64 / frames.max(1) as f64,
    }
}

/// A tree of 460 vertices and 1320 indices: a trunk and tiers of cones, 10 bands of 22 sides,
/// each band with its own rings (hard edges between bands, as exported models have), and a
/// 64 x 64 texture, bark below and needles above.
fn tree_model() -> FeatureModelData {
    const SIDES: usize = 22;
    const BANDS: usize = 10;
    const BAND_ELMOS: f32 = 15.0;
    let mut m = FeatureModelData::default();
    for b in 0..BANDS {
        let (r0, r1) = if b < 2 {
            (4.0, 4.0)
        } else {
            let r = 34.0 * (1.0 - (b - 2) as f32 / 8.0) + 4.0;
            (r, r * 0.45)
        };
        let (y0, y1) = (b as f32 * BAND_ELMOS, (b + 1) as f32 * BAND_ELMOS);
        let v = b as f32 / BANDS as f32;
        let base = m.positions.len() as u32;
        for (r, y) in [(r0, y0), (r1, y1)] {
            for k in 0..=SIDES {
                let a = k as f32 / SIDES as f32 * std::f32::consts::TAU;
                let (s, c) = a.sin_cos();
                m.positions.push([r * c, y, r * s]);
                let n = Vec3::new(c * BAND_ELMOS, r0 - r1, s * BAND_ELMOS).normalize();
                m.normals.push(n.into());
                m.uvs.push([k as f32 / SIDES as f32, v]);
            }
        }
        let ring = SIDES as u32 + 1;
        for k in 0..SIDES as u32 {
            let (a, b2) = (base + k, base + ring + k);
            m.indices.extend([a, b2, a + 1, a + 1, b2, b2 + 1]);
        }
    }
    let texels: Vec<u8> = (0..64 * 64)
        .flat_map(|i| {
            let (x, y) = (i % 64, i / 64);
            if y < 13 {
                [90 + (x % 7) as u8 * 4, 64, 40, 0]
            } else {
                [30, 90 + ((x * 5 + y * 3) % 40) as u8, 40, 0]
            }
        })
        .collect();
    m.texture_rgba = Some((64, 64, texels));
    m
}

/// `--features-only`: an 8x8 map with 10,000 trees, drawn as one model, left out, and drawn
/// as markers; the model's upload and the instances' rebuild after an edit.
fn features_bench(ctx: &GpuContext, renderer: &Renderer, target: &RenderTarget, frames: usize) {
    let map_size = MapSize::new(8, 8).expect("8x8");
    let mut map = relief_map(map_size, 42, "bench");
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let mut seed = 12345u32;
    let mut random = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    map.features = (0..100 * 100)
        .map(|i| Feature {
            name: "tree".into(),
            x_elmos: ((i % 100) as f32 + random()) / 100.0 * w,
            z_elmos: ((i / 100) as f32 + random()) / 100.0 * d,
            rotation_deg: random() * 360.0,
        })
        .collect();
    let tree = tree_model();
    let (verts, indices) = (tree.positions.len(), tree.indices.len());
    let mut scene = match MapScene::new(ctx, &renderer.layouts, &map, &mut |_, _| {}) {
        Ok(s) => s,
        Err(e) => {
            println!("{map_size}: {e}");
            return;
        }
    };
    ctx.wait();
    let t0 = Instant::now();
    let problems = scene.set_feature_models(ctx, [("tree".to_string(), tree)].into());
    ctx.wait();
    let upload_ms = t0.elapsed().as_secs_f64() * 1000.0;
    assert!(problems.is_empty(), "{problems:?}");
    // the rebuild every edit makes: instances and markers from the document
    let reset_ms = time_ms(ctx, 10, || scene.set_markers(ctx, &map));
    let opts = |features: bool, markers: bool| ViewOptions {
        grass_blades: false,
        features,
        markers,
        ..ViewOptions::default()
    };
    let none = run_path(
        ctx,
        renderer,
        &scene,
        &map,
        target,
        &opts(false, false),
        frames,
    );
    let models = run_path(
        ctx,
        renderer,
        &scene,
        &map,
        target,
        &opts(true, false),
        frames,
    );
    let markers = run_path(
        ctx,
        renderer,
        &scene,
        &map,
        target,
        &opts(false, true),
        frames,
    );
    println!();
    println!(
        "Feature models: {} trees of one model ({verts} vertices, {indices} indices), no grass blades, no markers unless said:",
        map.features.len()
    );
    println!();
    println!(
        "| map | model upload ms | instances rebuilt (an edit) ms | without features mean / p95 ms | models mean / p95 ms | as markers mean / p95 ms | instances drawn | models' GPU KiB |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    println!(
        "| {map_size} | {upload_ms:.2} | {reset_ms:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {:.0} | {:.0} |",
        none.mean_ms,
        none.p95_ms,
        models.mean_ms,
        models.p95_ms,
        markers.mean_ms,
        markers.p95_ms,
        models.feature_instances,
        scene.features.gpu_bytes() as f64 / 1024.0,
    );
}

/// Frames during a raise stroke across the middle of the map, seen from above it: each frame
/// one stroke step (the brush kernels, the texture layers' and the pathing overlay's live
/// updates over its rectangle) and the frame drawn, waited for. Mean and p95 ms.
fn stroke_frames(
    ctx: &GpuContext,
    kernels: &BrushKernels,
    renderer: &Renderer,
    scene: &mut MapScene,
    map: &Map,
    target: &RenderTarget,
    frames: usize,
) -> (f64, f64) {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let mut cam = Camera::preset(CameraPreset::Top, w, d, 0.0);
    cam.frame(w, d, target.aspect());
    cam.distance_elmos *= 0.3;
    cam.target = Vec3::new(w * 0.5, 0.0, d * 0.5);
    let opts = ViewOptions {
        grass_blades: false,
        ..ViewOptions::default()
    };
    let raise = groundwork::edit::tools::find("raise").expect("the raise tool");
    let mut set = ToolSettings::defaults(raise);
    set.brush.radius_elmos = 256.0;
    set.brush.strength = 0.3;
    let mut session = Session::new(map.clone());
    let at = |i: usize| [w * (0.4 + 0.2 * i as f32 / frames.max(1) as f32), d * 0.5];
    let mut layers = SceneLayers {
        ctx,
        kernels: Some(kernels),
        scene,
    };
    session
        .begin_stroke(raise, set, false, at(0), Some(&mut layers))
        .expect("the stroke starts");
    let mut ms = Vec::with_capacity(frames);
    for i in 0..frames {
        let t0 = Instant::now();
        session
            .stroke_to(at(i), 1.0 / 60.0, Some(&mut layers))
            .expect("the stroke runs");
        renderer.render(ctx, layers.scene, target, &cam, &opts);
        ctx.wait();
        ms.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    let _ = session.end_stroke(at(frames), Some(&mut layers));
    ms.sort_by(f64::total_cmp);
    (
        ms.iter().sum::<f64>() / ms.len().max(1) as f64,
        ms[((ms.len() as f64 * 0.95) as usize).min(ms.len() - 1)],
    )
}

fn doc_bytes(map: &Map) -> u64 {
    (map.heights.data().len() * 4
        + map.texture.rgba().len()
        + map.metal.data().len() * 2
        + map.grass.data().len()) as u64
}

fn main() {
    let a = args();
    let ctx = match GpuContext::headless() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skipped: no GPU adapter ({e})");
            return;
        }
    };
    println!("renderer benchmark on {}", ctx.describe());
    println!(
        "1920x1080, {} frames per path (orbit, low pass, top-down pan), each frame waited for",
        a.frames
    );
    let renderer = Renderer::new(&ctx);
    grazing_bench(&ctx, &renderer, a.frames.min(10));
    if a.grazing_only {
        return;
    }
    let target = RenderTarget::new(&ctx, 1920, 1080);
    if a.features_only {
        features_bench(&ctx, &renderer, &target, a.frames);
        return;
    }
    let bare = ViewOptions {
        grass_blades: false,
        ..ViewOptions::default()
    };
    let plain = ViewOptions::default();
    let dry = ViewOptions {
        water: false,
        ..ViewOptions::default()
    };
    let overlays = ViewOptions {
        metal: true,
        grass: true,
        types: true,
        slope: true,
        contours: true,
        grid: true,
        ..ViewOptions::default()
    };
    println!();
    println!(
        "| map | document MiB | GPU MiB | upload s | no blades mean / p95 ms | grass blades (all on) mean / p95 ms | water off mean / p95 ms | overlays mean / p95 ms | triangles (k) | chunks drawn | grass cells drawn (k) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut layered_rows = Vec::new();
    let mut pathing_rows = Vec::new();
    let kernels = BrushKernels::new(&ctx);
    let tank = bar_classes()
        .into_iter()
        .find(|c| c.name == "TANK2")
        .expect("BAR's tanks");
    for units in &a.sizes {
        let Ok(size) = MapSize::new(*units, *units) else {
            eprintln!("skipping size {units}: not a valid map size");
            continue;
        };
        let t0 = Instant::now();
        let map = relief_map(size, 42, "bench");
        let made = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let scene = match MapScene::new(&ctx, &renderer.layouts, &map, &mut |_, _| {}) {
            Ok(s) => s,
            Err(e) => {
                println!("| {size} | - | - | - | {e} | | | |");
                continue;
            }
        };
        ctx.wait();
        let upload = t0.elapsed().as_secs_f64();
        if a.layers_only {
            drop(scene);
        } else {
            let b = run_path(&ctx, &renderer, &scene, &map, &target, &bare, a.frames);
            if !a.pathing_only {
                let p = run_path(&ctx, &renderer, &scene, &map, &target, &plain, a.frames);
                let dw = run_path(&ctx, &renderer, &scene, &map, &target, &dry, a.frames);
                let o = run_path(&ctx, &renderer, &scene, &map, &target, &overlays, a.frames);
                let mib = |b: u64| b as f64 / 1048576.0;
                println!(
                    "| {size} | {:.0} | {:.0} | {upload:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {:.0} | {:.0} | {:.1} |",
                    mib(doc_bytes(&map)),
                    mib(scene.gpu_bytes() + renderer.gpu_bytes() + target.gpu_bytes()),
                    b.mean_ms,
                    b.p95_ms,
                    p.mean_ms,
                    p.p95_ms,
                    dw.mean_ms,
                    dw.p95_ms,
                    o.mean_ms,
                    o.p95_ms,
                    (p.triangles_k + o.triangles_k) / 2.0,
                    (p.chunks + o.chunks) / 2.0,
                    p.grass_patches_k,
                );
            }
            eprintln!("({size}: map generated in {made:.1} s)");
            let mut scene = scene;
            let choice = PathingChoice::for_map(&tank, &map);
            let (vw, vh) = map.heights.dims();
            let rect = GridRect::new(vw / 2 - 64, vh / 2 - 64, 128, 128);
            let squares = scene.pathing.squares_of_vertices(rect);
            let cpu = time_ms(&ctx, 5, || {
                std::hint::black_box(codes_rect(
                    &map.heights,
                    &tank,
                    choice.water,
                    choice.rule,
                    squares.x0,
                    squares.z0,
                    squares.x0 + squares.w,
                    squares.z0 + squares.h,
                ));
            });
            if let Some(k) = &kernels {
                // warm up: the brush pipelines' first dispatches
                stroke_frames(&ctx, k, &renderer, &mut scene, &map, &target, 3);
            }
            let (off_mean, off_p95) = match &kernels {
                Some(k) => stroke_frames(&ctx, k, &renderer, &mut scene, &map, &target, a.frames),
                None => (f64::NAN, f64::NAN),
            };
            scene.pathing.set_choice(&ctx, &map, Some(choice));
            ctx.wait();
            let on = run_path(&ctx, &renderer, &scene, &map, &target, &bare, a.frames);
            let (on_mean, on_p95) = match &kernels {
                Some(k) => stroke_frames(&ctx, k, &renderer, &mut scene, &map, &target, a.frames),
                None => (f64::NAN, f64::NAN),
            };
            let live = time_ms(&ctx, 20, || scene.pathing.evaluate_vertices(&ctx, &[rect]));
            let all = time_ms(&ctx, 3, || {
                scene
                    .pathing
                    .evaluate_vertices(&ctx, &[GridRect::new(0, 0, vw, vh)])
            });
            pathing_rows.push(format!(
                "| {size} | {} | {:.2} / {:.2} | {:.2} | {off_mean:.2} / {off_p95:.2} | {on_mean:.2} / {on_p95:.2} | {live:.3} | {cpu:.2} | {all:.2} |",
                if scene.pathing.on_gpu() { "GPU" } else { "CPU twin" },
                on.mean_ms,
                on.p95_ms,
                b.mean_ms,
            ));
            eprintln!("pathing: {}", pathing_rows.last().expect("just pushed"));
            drop(scene);
        }
        if a.pathing_only {
            continue;
        }
        let mut layered = map;
        layered.texture_layers = eight_layers();
        let scene = match MapScene::new(&ctx, &renderer.layouts, &layered, &mut |_, _| {}) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{size} with 8 layers: {e}");
                continue;
            }
        };
        ctx.wait();
        let l = run_path(&ctx, &renderer, &scene, &layered, &target, &bare, a.frames);
        let (vw, vh) = layered.heights.dims();
        let stroke = GridRect::new(vw / 2 - 64, vh / 2 - 64, 128, 128);
        let update = time_ms(&ctx, 20, || scene.ground.evaluate(&ctx, &[stroke]));
        let all = time_ms(&ctx, 3, || {
            scene.ground.evaluate(&ctx, &[GridRect::new(0, 0, vw, vh)])
        });
        layered_rows.push(format!(
            "| {size} | {} | {:.2} / {:.2} | {update:.2} | {all:.1} | {:.0} |",
            if scene.ground.on_gpu() {
                "GPU"
            } else {
                "CPU twin"
            },
            l.mean_ms,
            l.p95_ms,
            (scene.gpu_bytes() + renderer.gpu_bytes() + target.gpu_bytes()) as f64 / 1048576.0,
        ));
    }
    println!();
    println!("8 texture layers (no grass blades):");
    println!();
    println!(
        "| map | rules on | frame mean / p95 ms | rule update after a stroke (128 x 128 vertices) ms | every vertex ms | GPU MiB |"
    );
    println!("|---|---|---|---|---|---|");
    for r in &layered_rows {
        println!("{r}");
    }
    if !pathing_rows.is_empty() {
        println!();
        println!("The pathing overlay (TANK2), no grass blades:");
        println!();
        println!(
            "| map | made on | frames with the overlay mean / p95 ms | without mean ms | stroke frames, overlay off mean / p95 ms | stroke frames, overlay on (live) mean / p95 ms | live update 128 x 128 vertices ms | CPU twin, same squares ms | every square ms |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
        for r in &pathing_rows {
            println!("{r}");
        }
    }
}
