//! The DDS files `formats::dds` writes, as Spring draws them: BAR's template map with its splat
//! distribution and detail-normal (DNTS) textures replaced by ours, screenshot in the GL engine.
//! The distribution is written through `flip_rows`, so its first row must lie along the
//! north edge, as a PNG's first row does.

mod common;

use std::path::Path;

use groundwork::formats::dds::{flip_rows, write_dds_bc3};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The mean luminance of a box of the screenshot, its corners given as fractions of its size.
fn mean_luma(shot: &image::RgbImage, x0: f32, y0: f32, x1: f32, y1: f32) -> f32 {
    let (w, h) = (shot.width() as f32, shot.height() as f32);
    let (mut sum, mut n) = (0f32, 0f32);
    for y in (y0 * h) as u32..(y1 * h) as u32 {
        for x in (x0 * w) as u32..(x1 * w) as u32 {
            let p = shot.get_pixel(x, y).0;
            sum += 0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32;
            n += 1.0;
        }
    }
    sum / n
}

#[test]
fn a_flipped_bc3_splat_distribution_lies_the_way_up_a_png_does_in_the_engine() {
    let Some(template) = common::fixture("bar/Map_Blueprint_V1.sdd") else {
        groundwork::test_support::skip("fixtures not found");
        return;
    };
    if common::referee_or_skip().is_none() {
        return;
    }
    if !Path::new("/usr/games/spring").is_file() || !Path::new("/usr/bin/xvfb-run").is_file() {
        groundwork::test_support::skip("the GL engine or xvfb-run is not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let map = tmp.path().join("DntsCheck.sdd");
    copy_dir(&template, &map);

    // channel 0 on over the picture's top-left quadrant only: asymmetric both ways
    let n = 256;
    let mut splat = Vec::with_capacity(n * n * 4);
    for y in 0..n {
        for x in 0..n {
            let on = x < n / 2 && y < n / 2;
            splat.extend_from_slice(&[if on { 255 } else { 0 }, 0, 0, 0]);
        }
    }
    let splat_file = write_dds_bc3(&flip_rows(&splat, n, n).unwrap(), n, n).unwrap();
    std::fs::write(map.join("maps/splat_check.dds"), splat_file).unwrap();
    // a flat normal whose diffuse alpha is full: where channel 0 weighs 1, the engine adds 1
    // to the ground colour, so the quadrant shows white
    let dnts: Vec<u8> = (0..64 * 64).flat_map(|_| [128u8, 128, 255, 255]).collect();
    std::fs::write(
        map.join("maps/dnts_white.dds"),
        write_dds_bc3(&dnts, 64, 64).unwrap(),
    )
    .unwrap();
    let mapinfo_path = map.join("mapinfo.lua");
    let mut mapinfo = std::fs::read_to_string(&mapinfo_path).unwrap();
    let mut replace = |from: &str, to: &str| {
        assert!(mapinfo.contains(from), "the template names {from}");
        mapinfo = mapinfo.replace(from, to);
    };
    replace(
        "\"MAP_BLUEPRINT_V1_splat_distribution.dds\"",
        "\"splat_check.dds\"",
    );
    for old in [
        "MAP_BLUEPRINT_V1_Rock_Brown_1k_dnts.dds",
        "MAP_BLUEPRINT_V1_Ground_LargeScaleRockyDirt_1k_dnts.dds",
        "MAP_BLUEPRINT_V1_Ground_GrassThickGreen_1k_dnts.dds",
        "MAP_BLUEPRINT_V1_earth_NORM.dds",
    ] {
        replace(&format!("\"{old}\""), "\"dnts_white.dds\"");
    }
    replace(
        "texMults  = {1.2, 0.4, 0.9, 0.25}",
        "texMults  = {1.0, 0.0, 0.0, 0.0}",
    );
    std::fs::write(&mapinfo_path, mapinfo).unwrap();

    let shot_path = tmp.path().join("shot.png");
    let shot_arg = shot_path.to_string_lossy().into_owned();
    let json = common::run_engine_gl(&map, &["--water", "4", "--screenshot", &shot_arg]);
    assert!(
        json["ok"] == true,
        "the engine did not run the map: {}",
        json["engine_fatal"]
    );
    let shot = image::open(&shot_path)
        .expect("the engine saved a screenshot")
        .into_rgb8();
    // the probe's camera looks down on the centre with north at the top of the screen (as the
    // minimap in its corner shows); these boxes lie inside each quadrant of the map, clear of
    // the minimap and the text
    let north_west = mean_luma(&shot, 0.25, 0.15, 0.40, 0.30);
    let south_west = mean_luma(&shot, 0.15, 0.60, 0.30, 0.75);
    let south_east = mean_luma(&shot, 0.70, 0.60, 0.85, 0.75);
    let north_east = mean_luma(&shot, 0.70, 0.15, 0.85, 0.30);
    let others = [south_west, south_east, north_east];
    assert!(
        others.iter().all(|&o| north_west > o + 60.0),
        "the white quadrant is not the north-west one: NW {north_west:.0}, SW {south_west:.0}, \
         SE {south_east:.0}, NE {north_east:.0}"
    );
}
