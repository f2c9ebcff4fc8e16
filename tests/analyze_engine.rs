//! The pathing model against the real engine: maps compiled by us, loaded by spring-headless
//! with a probe game carrying BAR's move classes; at sampled squares the engine's
//! `Spring.TestMoveOrder` (terrain only, centre square) and its slope must agree with
//! `analyze` on at least 99.5% of them, and `groundwork analyze` answers the wall map's
//! questions on the command line.

mod common;

use std::path::Path;
use std::process::Command;

use groundwork::analyze::ground::HeightRule;
use groundwork::analyze::move_class::{MoveClass, MoveKind, bar_classes};
use groundwork::analyze::passability::WaterRules;
use groundwork::analyze::{GroundMaps, Passability};
use groundwork::map::Map;

/// A small deterministic generator for the sample squares.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// The engine's def for a class: degrees as the def writes them (true / 1.5).
fn def_json(c: &MoveClass) -> serde_json::Value {
    let kind = match c.kind {
        MoveKind::Tank => 0,
        MoveKind::Bot => 1,
        MoveKind::Hover => 2,
        MoveKind::Ship => 3,
    };
    let d = &c.depth_mod;
    let mut depth = serde_json::json!({
        "minheight": d.min_height, "quadraticcoeff": d.quadratic,
        "linearcoeff": d.linear, "constantcoeff": d.constant,
    });
    if d.max_scale < f32::MAX {
        depth["maxscale"] = d.max_scale.into();
    }
    serde_json::json!({
        "name": c.name, "speedmodclass": kind, "maxslope": c.max_slope_deg / 1.5,
        "maxwaterdepth": c.max_water_depth, "minwaterdepth": c.min_water_depth,
        "slopemod": c.slope_mod, "footprintx": c.footprint, "depthmodparams": depth,
    })
}

/// Squares to ask about: a third anywhere, the rest where some class's limit is near (the
/// slope within 4 degrees of 27, 33 or 54, or the water 0..30 deep).
fn sample(ground: &GroundMaps, n: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut rng = Lcg(seed);
    let (w, h) = (ground.mapx, ground.mapy);
    let near = |x: usize, z: usize| {
        let deg = groundwork::analyze::ground::slope_to_deg(ground.square_slope(x, z));
        let hgt = ground.square_height(x, z);
        [27.0, 33.0, 54.0]
            .iter()
            .any(|t: &f32| (deg - t).abs() < 4.0)
            || (-30.0..0.0).contains(&hgt)
    };
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < n * 200 {
        tries += 1;
        let (x, z) = (rng.next(w), rng.next(h));
        if out.len() < n / 3 || near(x, z) {
            out.push((x, z));
        }
    }
    out
}

/// Asks the engine about `samples` squares of `map` (compiled to `archive`, named `name`) and
/// returns the share of class-squares where `rule`'s model agrees, after printing each
/// disagreement.
fn probe(archive: &Path, map: &Map, name: &str, samples: usize, rules: &[HeightRule]) -> Vec<f64> {
    let classes = bar_classes();
    let mut ground = GroundMaps::engine(map);
    let squares = sample(&ground, samples, 7);
    let req = serde_json::json!({
        "classes": classes.iter().map(def_json).collect::<Vec<_>>(),
        "squares": squares.iter().map(|&(x, z)| [x, z]).collect::<Vec<_>>(),
    });
    let tmp = tempfile::tempdir().unwrap();
    let req_path = tmp.path().join("request.json");
    std::fs::write(&req_path, serde_json::to_vec(&req).unwrap()).unwrap();
    let out = Command::new("/usr/bin/python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine_probe/pathing_probe.py"))
        .arg(archive)
        .arg(name)
        .arg(&req_path)
        .output()
        .expect("run the pathing probe");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "probe printed no JSON: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(
        json["ok"], true,
        "the probe did not finish: {}",
        json["log"]
    );
    let water = WaterRules::for_damage(map.settings.water.damage.unwrap_or(0.0));
    let mut shares = Vec::new();
    for &rule in rules {
        ground.height_rule = rule;
        let (mut agree, mut total) = (0usize, 0usize);
        let mut disagreements = Vec::new();
        for c in &classes {
            let ours = Passability::of(c, water, &ground);
            let bits = json["classes"][&c.name]
                .as_str()
                .unwrap_or_else(|| panic!("no answer for {}: {}", c.name, json["log"]));
            assert_eq!(bits.len(), squares.len(), "{}", c.name);
            for (k, (&(x, z), b)) in squares.iter().zip(bits.chars()).enumerate() {
                total += 1;
                let engine = b == '1';
                if engine == ours.passable(x, z) {
                    agree += 1;
                } else {
                    disagreements.push(format!(
                    "{} square ({x}, {z}) #{k}: engine {engine}, ours {:?} (slope {:.5}, engine {:.5}, height {:.2})",
                    c.name,
                    ours.states[z * ours.mapx + x],
                    ground.square_slope(x, z),
                    json["slopes"][k].as_f64().unwrap_or(-1.0),
                    ground.square_height(x, z)
                ));
                }
            }
        }
        let share = agree as f64 / total as f64;
        eprintln!(
            "{name}, heights by {rule:?}: {agree} of {total} class-squares agree ({:.3}%); {} disagree",
            share * 100.0,
            disagreements.len()
        );
        // every disagreement, grouped by class, verdicts and height
        let mut groups = std::collections::BTreeMap::<String, (usize, String)>::new();
        for d in &disagreements {
            let (class, rest) = d.split_once(" square").unwrap();
            let verdict = rest.split_once(": ").unwrap().1;
            let verdict = verdict.split(" (slope").next().unwrap();
            let height = d.rsplit("height ").next().unwrap().trim_end_matches(')');
            let g = groups
                .entry(format!("{class}: {verdict}, height {height}"))
                .or_insert((0, d.clone()));
            g.0 += 1;
        }
        for (k, (n, example)) in &groups {
            eprintln!("  {n} x {k}; e.g. {example}");
        }
        shares.push(share);
    }
    // the slope the engine reports is the slope map's
    let slopes = json["slopes"].as_array().unwrap();
    let close = squares
        .iter()
        .zip(slopes)
        .filter(|&(&(x, z), s)| {
            (ground.square_slope(x, z) as f64 - s.as_f64().unwrap()).abs() < 1e-4
        })
        .count();
    eprintln!(
        "{name}: slopes within 1e-4 at {close} of {} squares",
        squares.len()
    );
    assert!(close as f64 >= 0.995 * squares.len() as f64);
    shares
}

fn ready() -> bool {
    if common::referee_or_skip().is_none() {
        return false;
    }
    if !Path::new("/usr/games/spring-headless").exists() {
        groundwork::test_support::skip("spring-headless not found");
        return false;
    }
    true
}

#[test]
fn the_engine_agrees_with_the_pathing_model_on_a_canyon_and_a_walled_sea() {
    if !ready() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let gw = env!("CARGO_BIN_EXE_groundwork");
    // a generated canyon: walls, ramps and valleys of every steepness
    let canyon = tmp.path().join("canyon");
    let r = Command::new(gw)
        .args([
            "new",
            "--size",
            "8x8",
            "--terrain",
            "canyon",
            "--seed",
            "3",
            "--sea-level",
            "40",
        ])
        .arg(&canyon)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    // the wall map: a 40 degree ridge into a sea
    let wall = tmp.path().join("wall");
    groundwork::formats::save_project(&groundwork::test_support::wall_map(), &wall).unwrap();
    for (project, samples) in [(&canyon, 3000), (&wall, 2000)] {
        let archive = project.with_extension("sdd");
        common::compile_project(project, &archive);
        let v = common::validate_map(&archive, None, None);
        let name = v["unitsync"]["GetMapName"].as_str().unwrap().to_string();
        let map = groundwork::formats::open_map(&archive).unwrap().map;
        // Spring 106 reads the mean height of a square's half-resolution cell; Recoil (BAR's engine) its highest corner.
        // The referee is 106: the model under its rule must agree; Recoil's rule differs from
        // it only where a depth limit falls inside a square, and that share is reported.
        let shares = probe(
            &archive,
            &map,
            &name,
            samples,
            &[HeightRule::CellMean, HeightRule::HighestCorner],
        );
        assert!(
            shares[0] >= 0.995,
            "{name}: {:.3}% agreement",
            shares[0] * 100.0
        );
    }
}

#[test]
fn analyze_on_the_command_line_answers_the_wall_maps_questions() {
    let tmp = tempfile::tempdir().unwrap();
    let wall = tmp.path().join("wall");
    groundwork::formats::save_project(&groundwork::test_support::wall_map(), &wall).unwrap();
    let gw = env!("CARGO_BIN_EXE_groundwork");
    let r = Command::new(gw)
        .arg("analyze")
        .arg(&wall)
        .arg("--json")
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let j: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let class = |n: &str| {
        j["move_classes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(class("TANK2")["reachable"][0][1], false);
    assert_eq!(class("TANK2")["max_slope_deg"], 27.0);
    assert_eq!(class("BOT3")["reachable"][0][1], true);
    assert_eq!(class("HOVER2")["reachable"][0][1], true);
    assert_eq!(class("TANK2")["kind"], "tank");
    let teams = j["teams"].as_array().unwrap();
    assert_eq!(teams.len(), 2);
    assert!(teams[0]["nearest_enemy_path_elmos"].as_f64().unwrap() >= 2496.0);
    assert!(
        j["findings"].as_array().unwrap().is_empty(),
        "{}",
        j["findings"]
    );
    // the tanks' picture: one grey byte a square, the ridge black, the plain at full speed
    let png = tmp.path().join("tank.png");
    let r = Command::new(gw)
        .arg("analyze")
        .arg(&wall)
        .args(["--move-class", "tank2", "--passable-png"])
        .arg(&png)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let img = image::open(&png).unwrap();
    assert_eq!(img.color(), image::ColorType::L8);
    let img = img.to_luma8();
    assert_eq!(img.dimensions(), (512, 256));
    assert_eq!(img.get_pixel(256, 40)[0], 0, "the ridge's crest");
    assert_eq!(img.get_pixel(240, 40)[0], 0, "the ridge's face");
    assert_eq!(img.get_pixel(100, 75)[0], 255, "the plain");
    assert_eq!(img.get_pixel(256, 240)[0], 0, "the deep sea");
    let r = Command::new(gw)
        .arg("analyze")
        .arg(&wall)
        .args(["--move-class", "NOPE", "--passable-png"])
        .arg(&png)
        .output()
        .unwrap();
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("no move class `NOPE`"));
}
