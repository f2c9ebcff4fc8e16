//! Headless renders of a fixed map from fixed cameras, compared with reference PNGs in
//! `tests/snapshots/` (written with `UPDATE_SNAPSHOTS=1`). The references come from lavapipe;
//! the tolerance allows small rasterisation differences, not a changed picture.
//! Skips with a message when the machine has no GPU adapter at all.

use std::sync::OnceLock;

use egui_kittest::SnapshotOptions;
use groundwork::edit::procedural::relief_map;
use groundwork::gpu::snapshot::render_map_rgba;
use groundwork::gpu::{CameraPreset, GpuContext, Overlay, ViewOptions};
use groundwork::map::{Map, MapSize};

const W: u32 = 480;
const H: u32 = 270;

fn gpu() -> Option<GpuContext> {
    match GpuContext::headless() {
        Ok(c) => Some(c),
        Err(e) => {
            eprintln!("skipped: no GPU adapter ({e})");
            None
        }
    }
}

/// A 4x4 map of hills and sea, the same on every run.
fn fixed_map() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(|| relief_map(MapSize::new(4, 4).unwrap(), 11, "Render test"))
}

fn check(name: &str, map: &Map, preset: CameraPreset, opts: &ViewOptions) {
    let Some(ctx) = gpu() else { return };
    let rgba = render_map_rgba(&ctx, map, preset, W, H, opts).expect("render");
    let img = image::RgbaImage::from_raw(W, H, rgba).unwrap();
    // not a blank picture: the sky and the ground differ
    let first = *img.get_pixel(0, 0);
    let varied = img.pixels().filter(|p| **p != first).count();
    assert!(
        varied > (W * H / 4) as usize,
        "{name}: the picture is almost one colour"
    );
    let options = SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels((W * H / 200) as usize);
    egui_kittest::image_snapshot_options(&img, name, &options);
}

#[test]
fn overview() {
    check(
        "render_overview",
        fixed_map(),
        CameraPreset::Overview,
        &ViewOptions::default(),
    );
}

#[test]
fn top_down_with_metal() {
    let mut o = ViewOptions::default();
    Overlay::Metal.enable(&mut o);
    check("render_top_metal", fixed_map(), CameraPreset::Top, &o);
}

#[test]
fn grazing() {
    check(
        "render_grazing",
        fixed_map(),
        CameraPreset::Grazing,
        &ViewOptions::default(),
    );
}

#[test]
fn types_and_grid() {
    let mut o = ViewOptions::default();
    Overlay::Type.enable(&mut o);
    Overlay::Grid.enable(&mut o);
    check("render_top_types_grid", fixed_map(), CameraPreset::Top, &o);
}

#[test]
fn slope_and_contours() {
    let mut o = ViewOptions::default();
    Overlay::Slope.enable(&mut o);
    Overlay::Contours.enable(&mut o);
    o.slope_threshold_deg = 12.0;
    let cam = CameraPreset::parse("1400,900,2900:1000,0,1000").unwrap();
    check("render_slope_contours", fixed_map(), cam, &o);
}

#[test]
fn void_water_shows_a_hole() {
    let mut map = fixed_map().clone();
    map.settings.void_water = true;
    check(
        "render_void_water",
        &map,
        CameraPreset::Overview,
        &ViewOptions::default(),
    );
}

#[test]
fn the_grass_overlay_marks_grass() {
    let Some(ctx) = gpu() else { return };
    let map = fixed_map();
    let plain =
        render_map_rgba(&ctx, map, CameraPreset::Top, W, H, &ViewOptions::default()).unwrap();
    let mut o = ViewOptions::default();
    Overlay::Grass.enable(&mut o);
    let grass = render_map_rgba(&ctx, map, CameraPreset::Top, W, H, &o).unwrap();
    // greener where the grass map is set, and the same elsewhere
    let mut greener = 0;
    for (a, b) in plain.chunks_exact(4).zip(grass.chunks_exact(4)) {
        if b[1] as i32 - a[1] as i32 > 30 {
            greener += 1;
        }
    }
    let grass_cells = map.grass.data().iter().filter(|&&g| g > 0).count();
    assert!(grass_cells > 0);
    assert!(greener > 500, "only {greener} pixels turned green");
    assert!(greener < (W * H) as usize * 9 / 10);
}
