//! The raise/lower brush on the GPU (its WGSL kernel on the height texture) against its CPU
//! twin, and a whole stroke through the editor's path: dabs on the GPU, one read-back at the
//! end, one undo step. Skips with a message when there is no GPU adapter or no compute.

use groundwork::edit::brush::{RaiseLowerBrush, StrokeParams, apply_raise_lower};
use groundwork::edit::procedural::relief_map;
use groundwork::gpu::{GpuContext, HeightKernel, HeightKernels, MapScene, Renderer};
use groundwork::map::MapSize;
use groundwork::ui::document::Document;
use groundwork::ui::stroke::{Stroke, StrokeGpu};

fn gpu_with_compute() -> Option<GpuContext> {
    let ctx = match GpuContext::headless() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skipped: no GPU adapter ({e})");
            return None;
        }
    };
    if !ctx.compute {
        eprintln!("skipped: {} has no compute shaders", ctx.describe());
        return None;
    }
    Some(ctx)
}

#[test]
fn gpu_brush_matches_its_cpu_twin() {
    let Some(ctx) = gpu_with_compute() else {
        return;
    };
    let map = relief_map(MapSize::new(2, 2).unwrap(), 5, "brush");
    let renderer = Renderer::new(&ctx);
    let scene = MapScene::new(&ctx, &renderer, &map, &mut |_, _| {}).unwrap();
    let kernels = HeightKernels::new(&ctx).unwrap();
    let (w, h) = map.heights.dims();
    let (lo, hi) = (map.settings.min_height_elmos, map.settings.max_height_elmos);
    let mut cpu = map.heights.clone();

    let soft = RaiseLowerBrush {
        radius_elmos: 180.0,
        rate_elmos_per_s: 400.0,
        hardness: 0.2,
    };
    let hard = RaiseLowerBrush {
        radius_elmos: 64.0,
        rate_elmos_per_s: 3000.0,
        hardness: 1.0,
    };
    let batches = [
        soft.dabs_along([200.0, 300.0], [700.0, 500.0], 0.25, false),
        soft.dabs_along([700.0, 500.0], [650.0, 900.0], 0.25, true),
        // over the corner: clipped to the map
        hard.dabs_along([1000.0, 1000.0], [1040.0, 1030.0], 0.5, false),
        // enough to hit the height limits
        hard.dabs_along([400.0, 400.0], [400.0, 400.0], 1.0, true),
    ];
    for dabs in &batches {
        let p = StrokeParams::new(dabs, w, h, lo, hi).expect("dabs on the map");
        kernels.dispatch(
            &ctx,
            &scene,
            HeightKernel::RaiseLower,
            bytemuck::bytes_of(&p),
            p.size,
        );
        apply_raise_lower(&mut cpu, &p);
    }
    let gpu = scene.read_heights(&ctx, 0, 0, w, h).unwrap();
    let mut worst = 0.0f32;
    for (a, b) in gpu.data().iter().zip(cpu.data()) {
        worst = worst.max((a - b).abs());
    }
    let changed = cpu
        .data()
        .iter()
        .zip(map.heights.data())
        .filter(|(a, b)| (*a - *b).abs() > 1.0)
        .count();
    assert!(changed > 2000, "the dabs changed only {changed} vertices");
    assert!(cpu.data().contains(&lo), "the lowering reached the floor");
    assert!(worst < 1e-3, "GPU and CPU differ by up to {worst} elmos");
    eprintln!("GPU vs CPU: {changed} vertices changed, largest difference {worst} elmos");
}

#[test]
fn a_stroke_is_read_back_once_and_undoes_as_one_step() {
    let Some(ctx) = gpu_with_compute() else {
        return;
    };
    let map = relief_map(MapSize::new(2, 2).unwrap(), 6, "stroke");
    let original = map.heights.clone();
    let renderer = Renderer::new(&ctx);
    let mut scene = MapScene::new(&ctx, &renderer, &map, &mut |_, _| {}).unwrap();
    let kernels = HeightKernels::new(&ctx).unwrap();
    let mut doc = Document::new(map, None);
    let gpu = StrokeGpu {
        ctx: &ctx,
        kernels: Some(&kernels),
    };
    let brush = RaiseLowerBrush::default();
    let mut stroke = Stroke::begin([300.0, 300.0]);
    let path = [
        [300.0, 300.0],
        [400.0, 350.0],
        [500.0, 420.0],
        [560.0, 600.0],
    ];
    for pair in path.windows(2) {
        let dabs = brush.dabs_along(pair[0], pair[1], 1.0 / 30.0, false);
        stroke.apply(&dabs, &mut doc, &mut scene, &gpu);
        // the document waits for the end of the stroke
        assert_eq!(doc.map.heights, original);
    }
    let rect = stroke.rect;
    stroke
        .finish(&mut doc, &mut scene, &gpu)
        .unwrap()
        .expect("one undo step");
    assert!(doc.dirty);
    assert_ne!(doc.map.heights, original);
    // the document now holds what the GPU holds
    let (w, h) = doc.map.heights.dims();
    assert_eq!(
        scene.read_heights(&ctx, 0, 0, w, h).unwrap(),
        doc.map.heights
    );
    // nothing outside the rectangle moved
    for z in 0..h {
        for x in 0..w {
            let inside = x >= rect.x0 && x < rect.x1() && z >= rect.z0 && z < rect.z1();
            if !inside {
                assert_eq!(doc.map.heights.get(x, z), original.get(x, z));
            }
        }
    }
    assert_eq!(doc.history.undo_len(), 1);
    let map = std::sync::Arc::make_mut(&mut doc.map);
    doc.history.undo(map).unwrap();
    assert_eq!(doc.map.heights, original);
}

#[test]
fn without_compute_the_cpu_twin_edits_and_the_stroke_still_undoes() {
    let ctx = match GpuContext::headless() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skipped: no GPU adapter ({e})");
            return;
        }
    };
    let map = relief_map(MapSize::new(2, 2).unwrap(), 8, "cpu stroke");
    let original = map.heights.clone();
    let renderer = Renderer::new(&ctx);
    let mut scene = MapScene::new(&ctx, &renderer, &map, &mut |_, _| {}).unwrap();
    let mut doc = Document::new(map, None);
    let gpu = StrokeGpu {
        ctx: &ctx,
        kernels: None,
    };
    let brush = RaiseLowerBrush::default();
    let mut stroke = Stroke::begin([500.0, 500.0]);
    let dabs = brush.dabs_along([500.0, 500.0], [640.0, 520.0], 0.2, true);
    stroke.apply(&dabs, &mut doc, &mut scene, &gpu);
    // the CPU path edits the document at once, and uploads what it changed
    assert_ne!(doc.map.heights, original);
    let (w, h) = doc.map.heights.dims();
    assert_eq!(
        scene.read_heights(&ctx, 0, 0, w, h).unwrap(),
        doc.map.heights
    );
    let lowered = doc.map.heights.clone();
    stroke
        .finish(&mut doc, &mut scene, &gpu)
        .unwrap()
        .expect("one undo step");
    assert_eq!(doc.map.heights, lowered);
    let map = std::sync::Arc::make_mut(&mut doc.map);
    doc.history.undo(map).unwrap();
    assert_eq!(doc.map.heights, original);
}
