//! The water's debug view (`--water-term`) against the same formulas on the CPU: a flat, deep
//! sea from known eyes and suns, every water pixel's grey compared with
//! `round(255 * clamp(v / 2, 0, 1))` of the CPU twin (`gpu::water::terms`) at the point the
//! pixel's ray meets the water. Tolerance: 2 grey levels a pixel (v within 0.016), from f32
//! arithmetic in another order and the rasteriser's pixel centres; pixels within 16 elmos of
//! the map's edge are not compared. Skips with a message when there is no GPU adapter.

use glam::Vec3;
use groundwork::gpu::snapshot::{preset_camera, render_map_rgba};
use groundwork::gpu::water::{WaterTerm, term_grey, terms};
use groundwork::gpu::{CameraPreset, GpuContext, ViewOptions};
use groundwork::map::water::BumpWater;
use groundwork::map::{Map, MapSettings, MapSize};

const W: u32 = 192;
const H: u32 = 108;

/// A 2x2 map that is sea everywhere, 200 elmos deep.
fn sea(settings: MapSettings) -> Map {
    let mut m = Map::new(MapSize::new(2, 2).unwrap(), settings);
    m.heights.data_mut().fill(-200.0);
    m
}

fn settings() -> MapSettings {
    MapSettings {
        min_height_elmos: -300.0,
        max_height_elmos: 100.0,
        ..MapSettings::default()
    }
}

/// The CPU's grey for every pixel: `None` where the pixel is not compared.
fn expected(map: &Map, cam: CameraPreset, term: WaterTerm) -> Vec<Option<u8>> {
    let camera = preset_camera(map, cam, W as f32 / H as f32);
    let eye = camera.eye();
    let look = BumpWater::from_settings(&map.settings);
    let size = map.size.width_elmos();
    let mid = Vec3::new(size * 0.5, 0.0, size * 0.5);
    let mut out = Vec::with_capacity((W * H) as usize);
    for y in 0..H {
        for x in 0..W {
            let nx = (x as f32 + 0.5) / W as f32 * 2.0 - 1.0;
            let ny = 1.0 - (y as f32 + 0.5) / H as f32 * 2.0;
            let (o, d) = camera.ray(nx, ny, W as f32 / H as f32);
            if d.y >= -1e-4 {
                out.push(Some(0));
                continue;
            }
            let p = o + d * (-o.y / d.y);
            let margin = 16.0;
            let inside = p.x > margin && p.z > margin && p.x < size - margin && p.z < size - margin;
            let outside =
                p.x < -margin || p.z < -margin || p.x > size + margin || p.z > size + margin;
            if outside {
                out.push(Some(0));
            } else if !inside {
                out.push(None);
            } else {
                let t = terms(&look, (eye - p).normalize(), p, Vec3::Y, mid, 1.0);
                let v = match term {
                    WaterTerm::Fresnel => t.fresnel,
                    WaterTerm::Specular => t.specular,
                    WaterTerm::Diffuse => t.diffuse,
                    WaterTerm::SurfaceMix => t.surface_mix,
                };
                out.push(Some(term_grey(v)));
            }
        }
    }
    out
}

/// Renders the term and compares it with the CPU; returns the worst difference and the
/// brightest grey the CPU expects.
fn compare(ctx: &GpuContext, map: &Map, cam: &str, term: WaterTerm) -> (u8, u8) {
    let cam = CameraPreset::parse(cam).unwrap();
    let rgba = render_map_rgba(ctx, map, cam, W, H, &ViewOptions::water_term_only(term)).unwrap();
    let want = expected(map, cam, term);
    let mut worst = 0u8;
    let mut compared = 0;
    for (i, w) in want.iter().enumerate() {
        let Some(w) = w else { continue };
        let px = &rgba[i * 4..i * 4 + 3];
        assert!(
            px[0] == px[1] && px[1] == px[2],
            "pixel {i} is not grey: {px:?}"
        );
        let d = px[0].abs_diff(*w);
        assert!(
            d <= 2,
            "{term:?} from {cam:?}: pixel ({}, {}) is {} on the GPU, {w} on the CPU",
            i as u32 % W,
            i as u32 / W,
            px[0]
        );
        worst = worst.max(d);
        compared += 1;
    }
    assert!(
        compared > (W * H / 2) as usize,
        "only {compared} pixels compared"
    );
    let brightest = want.iter().flatten().copied().max().unwrap_or(0);
    (worst, brightest)
}

#[test]
fn every_term_matches_the_cpu_from_overhead_45_degrees_and_grazing() {
    let Some(ctx) = groundwork::test_support::gpu() else {
        return;
    };
    // a sun 30 degrees up in the north, ahead of the cameras, so its glint is in view
    let mut s = settings();
    s.lighting.sun_dir = Some([0.2, 0.6, -1.0, 1.0]);
    let glint = sea(s);
    // the diffuse term of a flat sea is (0.1 sun.y)^3 x 15 x diffuseFactor: a high sun and a
    // strong factor make it show
    let mut s = settings();
    s.lighting.sun_dir = Some([0.0, 1.0, 0.1, 1.0]);
    s.water.diffuse_factor = Some(10.0);
    let bright = sea(s);
    let cams = [
        "512,1400,600:512,0,500",
        "512,600,1300:512,0,500",
        "512,40,1200:512,0,200",
    ];
    for term in [
        WaterTerm::Fresnel,
        WaterTerm::Specular,
        WaterTerm::Diffuse,
        WaterTerm::SurfaceMix,
    ] {
        let mut brightest = 0;
        let map = if term == WaterTerm::Diffuse {
            &bright
        } else {
            &glint
        };
        for cam in cams {
            let (worst, b) = compare(&ctx, map, cam, term);
            eprintln!("{term:?} from {cam}: worst difference {worst} grey levels, brightest {b}");
            brightest = brightest.max(b);
        }
        // every term shows somewhere: the comparison is not of two black pictures
        assert!(brightest >= 8, "{term:?} never above grey {brightest}");
    }
}

#[test]
fn fresnel_rises_to_grazing_and_saturates_as_the_formula_says() {
    let Some(ctx) = groundwork::test_support::gpu() else {
        return;
    };
    let mut s = settings();
    s.water.fresnel_min = Some(0.4);
    s.water.fresnel_max = Some(0.8);
    let map = sea(s);
    let cam = "512,60,1000:512,0,0";
    compare(&ctx, &map, cam, WaterTerm::Fresnel);
    // down the middle column, from the bottom (steep) to the horizon (grazing): rising, and
    // past 1 near the horizon, which a lerp would never reach: min + max = 1.2 edge-on
    let preset = CameraPreset::parse(cam).unwrap();
    let rgba = render_map_rgba(
        &ctx,
        &map,
        preset,
        W,
        H,
        &ViewOptions::water_term_only(WaterTerm::Fresnel),
    )
    .unwrap();
    let column: Vec<u8> = (0..H)
        .rev()
        .map(|y| rgba[((y * W + W / 2) * 4) as usize])
        .take_while(|&g| g > 0)
        .collect();
    assert!(column.len() > 20, "{column:?}");
    assert!(
        column.windows(2).all(|p| p[1] >= p[0]),
        "not rising: {column:?}"
    );
    let top = *column.last().unwrap();
    assert!(
        top > term_grey(1.0),
        "grazing fresnel {top} never passes 1 (grey {})",
        term_grey(1.0)
    );
    // the bottom of the view, steeper: near fresnelMin
    assert!(column[0] < term_grey(0.6), "{}", column[0]);
}
