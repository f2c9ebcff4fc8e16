//! `groundwork resize`: a generated map extended about its centre and another scaled down both
//! keep their metal (every byte, every spot), move their starts with the ground, stay
//! symmetric when resized about the centre, lint without errors and load in the engine's
//! unitsync at the new size.

mod common;

use std::path::Path;
use std::process::Command;

use groundwork::formats::load_project;
use groundwork::map::{Map, metal};

fn groundwork(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(args)
        .output()
        .expect("run groundwork")
}

fn ok(out: std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn metal_sum(m: &Map) -> u64 {
    m.metal.data().iter().map(|&b| b as u64).sum()
}

fn check_in_engine(project: &Path, map: &Map, name: &str) {
    let lint = groundwork(&["lint", project.to_str().unwrap()]);
    assert!(
        lint.status.success(),
        "lint: {}{}",
        String::from_utf8_lossy(&lint.stdout),
        String::from_utf8_lossy(&lint.stderr)
    );
    if common::referee_or_skip().is_none() {
        return;
    }
    let out = project.parent().unwrap().join(format!("{name}.sd7"));
    common::compile_project(project, &out);
    common::validate_map(&out, Some(&common::engine_expectation(map)), None);
}

#[test]
fn extended_and_scaled_maps_keep_their_metal_and_load() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let s = src.to_str().unwrap();
    ok(groundwork(&[
        "new",
        s,
        "--size",
        "8x8",
        "--players",
        "2",
        "--symmetry",
        "rotate-2",
        "--terrain",
        "hills",
        "--seed",
        "3",
    ]));
    let original = load_project(&src).unwrap().map;
    let spots = |m: &Map| metal::bar_spots(&m.metal, m.settings.max_metal, 48.0).len();

    // extended about the centre: 2 units more on each side
    let big = dir.path().join("big");
    let note = ok(groundwork(&[
        "resize",
        s,
        "--size",
        "12x12",
        "-o",
        big.to_str().unwrap(),
    ]));
    assert!(note.contains("resized 8x8 to 12x12"), "{note}");
    let extended = load_project(&big).unwrap().map;
    assert_eq!(extended.size.to_string(), "12x12");
    assert_eq!(metal_sum(&extended), metal_sum(&original));
    assert_eq!(spots(&extended), spots(&original));
    for (a, b) in extended.teams.iter().zip(&original.teams) {
        assert_eq!(a.start_x_elmos, b.start_x_elmos + 1024.0);
        assert_eq!(a.start_z_elmos, b.start_z_elmos + 1024.0);
    }
    // still rotate-2 to the word: (x, z) -> (n - x, n - z)
    let words = extended.height_words();
    let (w, h) = extended.heights.dims();
    let bad = (0..h)
        .flat_map(|z| (0..w).map(move |x| (x, z)))
        .filter(|&(x, z)| words[z * w + x] != words[(h - 1 - z) * w + (w - 1 - x)])
        .count();
    assert_eq!(bad, 0, "words that break the symmetry");
    check_in_engine(&big, &extended, "big");

    // scaled down to 6x6
    let small = dir.path().join("small");
    ok(groundwork(&[
        "resize",
        s,
        "--size",
        "6x6",
        "--scale",
        "-o",
        small.to_str().unwrap(),
    ]));
    let scaled = load_project(&small).unwrap().map;
    assert_eq!(metal_sum(&scaled), metal_sum(&original));
    assert_eq!(spots(&scaled), spots(&original));
    for (a, b) in scaled.teams.iter().zip(&original.teams) {
        assert_eq!(a.start_x_elmos, b.start_x_elmos * 0.75);
    }
    check_in_engine(&small, &scaled, "small");

    // a bad request writes nothing
    let none = dir.path().join("none");
    let e = groundwork(&["resize", s, "--size", "7x8", "-o", none.to_str().unwrap()]);
    assert!(!e.status.success());
    assert_eq!(String::from_utf8_lossy(&e.stderr).trim().lines().count(), 1);
    assert!(!none.exists());
}
