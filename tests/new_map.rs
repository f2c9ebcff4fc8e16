//! `groundwork new`: the same arguments write the same bytes; a bad request is one line and no
//! files; a new 12x12 4-player map with a sea compiles, lints without errors and loads in the
//! engine's unitsync with its starts where we put them, and a heightmap shapes the ground.

mod common;

use std::path::Path;
use std::process::Command;

fn groundwork(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(args)
        .output()
        .expect("run groundwork")
}

/// Every file under `dir`, relative path and bytes, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

const FOUR: [&str; 10] = [
    "--size",
    "12x12",
    "--players",
    "4",
    "--symmetry",
    "rotate-4",
    "--sea-level",
    "60",
    "--name",
    "Fresh",
];

#[test]
fn the_same_arguments_write_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("A"), dir.path().join("B"));
    for out in [&a, &b] {
        let mut args = vec!["new", out.to_str().unwrap()];
        args.extend_from_slice(&FOUR);
        let r = groundwork(&args);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    }
    let (ta, tb) = (tree(&a), tree(&b));
    assert!(!ta.is_empty());
    assert!(ta == tb, "two runs wrote different files");
    let toml =
        String::from_utf8_lossy(&ta.iter().find(|(p, _)| p == "map.toml").unwrap().1).into_owned();
    assert!(toml.contains("rotate-4"), "{toml}");
}

#[test]
fn a_bad_request_is_one_line_and_no_files() {
    let dir = tempfile::tempdir().unwrap();
    for (args, want) in [
        (vec!["--size", "13x12"], "even number"),
        (vec!["--size", "twelve"], "WIDTHxDEPTH"),
        (
            vec!["--players", "3", "--symmetry", "mirror-x"],
            "multiple of 2",
        ),
        (vec!["--symmetry", "rotate-5"], "rotate"),
        (vec!["--terrain", "marsh"], "valley-lane"),
        (vec!["--min-height", "-10"], "without water"),
    ] {
        let out = dir.path().join("Bad");
        let mut all = vec!["new", out.to_str().unwrap()];
        all.extend_from_slice(&args);
        let r = groundwork(&all);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{args:?} was accepted");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} left files");
    }
}

#[test]
fn a_new_map_compiles_lints_clean_and_loads_with_its_starts() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("Fresh");
    let mut args = vec!["new", project.to_str().unwrap()];
    args.extend_from_slice(&FOUR);
    let r = groundwork(&args);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let map = groundwork::formats::load_project(&project).unwrap().map;
    assert_eq!(map.teams.len(), 4);
    assert_eq!(
        map.settings.min_height_elmos, -60.0,
        "the sea is the engine's 0"
    );
    // flat at the start height (100 above the sea), to the 16-bit word the project saves
    assert!(map.heights.data().iter().all(|&h| (h - 40.0).abs() < 0.01));
    // the four starts are one start turned by quarters about the centre
    let c = map.size.width_elmos() / 2.0;
    let r0 = (map.teams[0].start_x_elmos - c).hypot(map.teams[0].start_z_elmos - c);
    for t in &map.teams {
        let r = (t.start_x_elmos - c).hypot(t.start_z_elmos - c);
        assert!((r - r0).abs() < 1.0, "{r} vs {r0}");
    }
    let lint = groundwork(&["lint", project.to_str().unwrap()]);
    assert!(
        lint.status.success(),
        "lint found errors: {}{}",
        String::from_utf8_lossy(&lint.stdout),
        String::from_utf8_lossy(&lint.stderr)
    );
    if common::referee_or_skip().is_none() {
        return;
    }
    let out = dir.path().join("fresh.sd7");
    common::compile_project(&project, &out);
    common::validate_map(&out, Some(&common::engine_expectation(&map)), None);
}

#[test]
fn a_heightmap_shapes_the_new_ground() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("ramp.png");
    let img = image::ImageBuffer::from_fn(64, 32, |x, _| image::Luma([(x * 1040) as u16]));
    img.save(&png).unwrap();
    let project = dir.path().join("Ramp");
    let r = groundwork(&[
        "new",
        project.to_str().unwrap(),
        "--size",
        "4x2",
        "--symmetry",
        "mirror-z",
        "--heightmap",
        png.to_str().unwrap(),
        "--max-height",
        "300",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let map = groundwork::formats::load_project(&project).unwrap().map;
    let (w, d) = map.heights.dims();
    let row: Vec<f32> = (0..w).map(|x| map.heights.get(x, d / 2)).collect();
    assert!(row.windows(2).all(|p| p[1] >= p[0]), "a ramp rising in x");
    assert!(row[0] < 1.0 && (row[w - 1] - 300.0 * 63.0 * 1040.0 / 65535.0).abs() < 1.0);
}
