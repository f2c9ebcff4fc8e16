//! Headless renders of a fixed map from fixed cameras, compared with reference PNGs in
//! `tests/snapshots/` (written with `UPDATE_SNAPSHOTS=1`). The references come from lavapipe;
//! the tolerance allows small rasterisation differences, not a changed picture.
//! Skips with a message when the machine has no GPU adapter at all.

use std::sync::OnceLock;

use egui_kittest::SnapshotOptions;
use groundwork::edit::procedural::relief_map;
use groundwork::gpu::snapshot::render_map_rgba;
use groundwork::gpu::{CameraPreset, Overlay, ViewOptions};
use groundwork::map::{Map, MapSize};

const W: u32 = 480;
const H: u32 = 270;

/// A 4x4 map of hills and sea, the same on every run.
fn fixed_map() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(|| relief_map(MapSize::new(4, 4).unwrap(), 11, "Render test"))
}

fn check(name: &str, map: &Map, preset: CameraPreset, opts: &ViewOptions) {
    let Some(ctx) = groundwork::test_support::gpu() else {
        return;
    };
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
    let Some(ctx) = groundwork::test_support::gpu() else {
        return;
    };
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

/// A flat 2x2 map 50 elmos above the water whose west half has grass of byte `byte`; the east
/// half none.
fn half_grass_map(byte: u8) -> Map {
    let mut map = Map::new(MapSize::new(2, 2).unwrap(), Default::default());
    map.heights.data_mut().fill(50.0);
    let (gw, gh) = map.grass.dims();
    for z in 0..gh {
        for x in 0..gw / 2 {
            map.grass.set(x, z, byte);
        }
    }
    map
}

/// Pixels that differ between two pictures, in the west and east halves of the picture.
fn changed_halves(a: &[u8], b: &[u8]) -> (usize, usize) {
    let (mut west, mut east) = (0, 0);
    for (i, (p, q)) in a.chunks_exact(4).zip(b.chunks_exact(4)).enumerate() {
        if p.iter().zip(q).any(|(x, y)| x.abs_diff(*y) > 12) {
            if (i as u32 % W) < W / 2 {
                west += 1;
            } else {
                east += 1;
            }
        }
    }
    (west, east)
}

#[test]
fn grass_blades_grow_where_the_grass_map_says_and_by_its_bytes() {
    let Some(ctx) = groundwork::test_support::gpu() else {
        return;
    };
    // from the south, low over the map's middle, looking north: west is on the left
    let cam = CameraPreset::parse("512,150,950:512,0,450").unwrap();
    let bare = ViewOptions {
        grass_blades: false,
        ..ViewOptions::default()
    };
    let blades = ViewOptions::default();
    let mut covered = Vec::new();
    for byte in [2u8, 254] {
        let map = half_grass_map(byte);
        let off = render_map_rgba(&ctx, &map, cam, W, H, &bare).unwrap();
        let on = render_map_rgba(&ctx, &map, cam, W, H, &blades).unwrap();
        let (west, east) = changed_halves(&off, &on);
        eprintln!("byte {byte}: {west} pixels changed in the west, {east} in the east");
        covered.push((west, east));
    }
    for (byte, (west, east)) in [2, 254].iter().zip(&covered) {
        assert!(*west > 300, "byte {byte}: only {west} grass pixels");
        // blades of the west half's last column may lean over the middle, no further
        assert!(
            east * 10 < *west,
            "byte {byte}: {east} pixels changed without grass"
        );
    }
    let covered: Vec<usize> = covered.iter().map(|c| c.0).collect();
    // byte 254 is grassMaxSize (1.7), byte 2 nearly grassMinSize (0.3): taller, wider blades
    assert!(
        covered[1] > covered[0] * 3,
        "byte 254 covers {} pixels, byte 2 {}",
        covered[1],
        covered[0]
    );
}

#[test]
fn grass_blades_fade_out_with_distance() {
    let Some(ctx) = groundwork::test_support::gpu() else {
        return;
    };
    let bare = ViewOptions {
        grass_blades: false,
        ..ViewOptions::default()
    };
    let changed = |map: &Map, cam: &str| {
        let cam = CameraPreset::parse(cam).unwrap();
        let off = render_map_rgba(&ctx, map, cam, W, H, &bare).unwrap();
        let on = render_map_rgba(&ctx, map, cam, W, H, &ViewOptions::default()).unwrap();
        let (west, east) = changed_halves(&off, &on);
        west + east
    };
    let mut map = half_grass_map(254);
    // BAR's default fade ends at 8000 x 0.45 = 3600 elmos from the eye: from 4000 up, none
    assert_eq!(changed(&map, "512,4000,1400:512,0,512"), 0);
    // 1200 to 1700 elmos away, inside the default fade's start (2250): grass
    let near = "512,1200,1300:512,0,512";
    assert!(changed(&map, near) > 500);
    // a map whose grass is gone at 2000 x 0.45 = 900 elmos shows none from there
    let mut cfg = groundwork::map::grass::GrassConfig::from_settings(&map.settings);
    cfg.fade_start_elmos = 1500.0;
    cfg.fade_end_elmos = 2000.0;
    cfg.write_to(&mut map.settings);
    assert_eq!(changed(&map, near), 0);
}
