//! The SC2 importer on the real fixtures: every map imports to a valid document; Simple64's
//! start positions, metal spots, vents, plateaus, cliffs and ramps are checked against values
//! read from the map's own files here, independently of the importer's parsers.

mod common;
mod sc2_support;

use std::collections::{BTreeMap, VecDeque};

use groundwork::formats::sc2::mpq::Sc2Archive;
use groundwork::import::sc2::{Chasm, Sc2Options, terrain};
use groundwork::map::{Grid, Map};

/// Simple64's playable bounds (left, bottom, right, top), as IMPORT-FACTS gives them.
const S64_BOUNDS: (f32, f32, f32, f32) = (12.0, 12.0, 76.0, 76.0);
const CELL: f32 = 32.0;

/// SC2 world position to elmos for Simple64 at 32 elmos a cell (no padding: 64 cells = 4 units).
fn s64_elmos(x: f32, y: f32) -> (f32, f32) {
    ((x - S64_BOUNDS.0) * CELL, (S64_BOUNDS.3 - y) * CELL)
}

/// Attribute values of every element whose text contains `marker`, by a plain text scan.
fn scan_positions(xml: &str, marker: &str) -> Vec<(String, f32, f32)> {
    let mut out = Vec::new();
    for elem in xml.split('<').filter(|e| e.contains(marker)) {
        let attr = |name: &str| -> Option<String> {
            let at = elem.find(&format!(" {name}=\""))? + name.len() + 3;
            Some(elem[at..].split('"').next()?.to_string())
        };
        let pos = attr("Position").unwrap();
        let mut it = pos.split(',').map(|v| v.parse::<f32>().unwrap());
        let (x, y) = (it.next().unwrap(), it.next().unwrap());
        out.push((
            attr("Name")
                .or_else(|| attr("UnitType"))
                .unwrap_or_default(),
            x,
            y,
        ));
    }
    out
}

/// Simple64's `t3SyncCliffLevel`, read raw: (width, height, values).
fn raw_cliff_levels(path: &std::path::Path) -> (usize, usize, Vec<u16>) {
    let mut ar = Sc2Archive::open(path).unwrap();
    let b = ar.read_required("t3SyncCliffLevel").unwrap();
    assert_eq!(&b[0..4], b"CLIF");
    let w = u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize;
    let h = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    let v = b[32..32 + w * h * 2]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    (w, h, v)
}

fn height_at_cell_centre(map: &Map, i: usize, j: usize) -> f32 {
    let (x, z) = s64_elmos(i as f32 + 0.5, j as f32 + 0.5);
    map.heights.get((x / 8.0) as usize, (z / 8.0) as usize)
}

#[test]
fn every_fixture_imports_to_a_valid_map() {
    for (name, path) in sc2_support::fixtures() {
        let (map, report) = groundwork::import::sc2::import(&path, &Sc2Options::default()).unwrap();
        map.check_layers().unwrap();
        let (lo, hi) = map.heights.min_max();
        assert!(lo.is_finite() && hi.is_finite(), "{name}");
        assert!(
            lo >= map.settings.min_height_elmos && hi <= map.settings.max_height_elmos,
            "{name}"
        );
        assert!(!map.teams.is_empty(), "{name}: no start positions");
        assert!(map.settings.max_metal > 0.5 && map.settings.extractor_radius_elmos < 200.0);
        let text = report.to_text();
        assert!(
            text.contains("Converted:") && !report.converted.is_empty(),
            "{name}"
        );
        // no ground below the water line in pit mode
        assert!(lo > 0.0, "{name}: {lo}");
        // every dome its own spot in BAR's finder: none touch
        let metal = map.metal_report();
        assert!(metal.spots.iter().all(|p| p.domes == 1), "{name}");
        assert!(
            !metal
                .warnings
                .iter()
                .any(|w| w.rule == "metal-spots-merged"),
            "{name}"
        );
        // the project folder round-trips
        let dir = tempfile::tempdir().unwrap();
        groundwork::formats::save_project(&map, dir.path()).unwrap();
        let back = groundwork::formats::load_project(dir.path()).unwrap();
        assert_eq!(back.map.teams, map.teams, "{name}");
        assert_eq!(back.map.metal, map.metal, "{name}");
    }
}

#[test]
fn maps_without_objects_or_cliffs_are_handled_with_messages() {
    let Some(path) = sc2_support::fixture("Empty128") else {
        return;
    };
    let (map, report) = groundwork::import::sc2::import(&path, &Sc2Options::default()).unwrap();
    let text = report.to_text();
    assert!(text.contains("Objects: missing"), "{text}");
    assert!(text.contains("no start locations"), "{text}");
    assert_eq!(
        map.teams.len(),
        2,
        "guessed start positions so the map loads"
    );
    // 108 x 100 playable cells at 32 elmos pad to 8 x 8 units; the padding is a pit
    assert_eq!((map.size.width_units(), map.size.height_units()), (8, 8));
    assert_eq!(
        map.types.get(0, 0),
        groundwork::import::sc2::convert::CHASM_TYPE
    );
    assert!(map.heights.get(0, 0) < map.heights.get(256, 256) - 200.0);
}

#[test]
fn simple64_start_positions_come_from_the_start_locations() {
    let Some(path) = sc2_support::fixture("Simple64") else {
        return;
    };
    let (map, _) = groundwork::import::sc2::import(&path, &Sc2Options::default()).unwrap();
    let mut ar = Sc2Archive::open(&path).unwrap();
    let objects = String::from_utf8(ar.read_required("Objects").unwrap()).unwrap();
    let mut starts = scan_positions(&objects, "Type=\"StartLoc\"");
    starts.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(starts.len(), 2);
    assert_eq!(map.teams.len(), 2);
    for ((_, x, y), team) in starts.iter().zip(&map.teams) {
        let (ex, ez) = s64_elmos(*x, *y);
        assert!(
            (team.start_x_elmos - ex).abs() < 0.01 && (team.start_z_elmos - ez).abs() < 0.01,
            "{team:?} vs ({ex}, {ez})"
        );
    }
    // "Start Location 001" at (59.5, 27.5) is team 0
    assert_eq!(
        (map.teams[0].start_x_elmos, map.teams[0].start_z_elmos),
        (1520.0, 1552.0)
    );
}

/// Connected groups of non-zero metal cells: (cells, centroid x, centroid z in elmos).
fn metal_blobs(metal: &Grid<u8>) -> Vec<(usize, f32, f32)> {
    let (w, h) = metal.dims();
    let mut seen = vec![false; w * h];
    let mut out = Vec::new();
    for start in 0..w * h {
        if seen[start] || metal.data()[start] == 0 {
            continue;
        }
        let (mut n, mut sx, mut sz) = (0usize, 0.0f32, 0.0f32);
        let mut q = VecDeque::from([start]);
        seen[start] = true;
        while let Some(i) = q.pop_front() {
            let (x, z) = (i % w, i / w);
            n += 1;
            sx += (x as f32 + 0.5) * 16.0;
            sz += (z as f32 + 0.5) * 16.0;
            for (dx, dz) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                let (a, b) = (x as i64 + dx, z as i64 + dz);
                if a >= 0 && b >= 0 && (a as usize) < w && (b as usize) < h {
                    let j = b as usize * w + a as usize;
                    if !seen[j] && metal.data()[j] > 0 {
                        seen[j] = true;
                        q.push_back(j);
                    }
                }
            }
        }
        out.push((n, sx / n as f32, sz / n as f32));
    }
    out
}

#[test]
fn simple64_mineral_lines_become_standard_metal_spots_and_geysers_vents() {
    let Some(path) = sc2_support::fixture("Simple64") else {
        return;
    };
    let (map, _) = groundwork::import::sc2::import(&path, &Sc2Options::default()).unwrap();
    let mut ar = Sc2Archive::open(&path).unwrap();
    let objects = String::from_utf8(ar.read_required("Objects").unwrap()).unwrap();
    let minerals = scan_positions(&objects, "MineralField");
    let geysers = scan_positions(&objects, "Geyser");
    assert_eq!((minerals.len(), geysers.len()), (32, 8));

    let blobs = metal_blobs(&map.metal);
    // four 8-patch lines, three spots each
    assert_eq!(blobs.len(), 12, "{blobs:?}");
    for &(_, x, z) in &blobs {
        // near its minerals
        let nearest = minerals
            .iter()
            .map(|(_, mx, my)| {
                let (ex, ez) = s64_elmos(*mx, *my);
                (ex - x).hypot(ez - z)
            })
            .fold(f32::MAX, f32::min);
        assert!(
            nearest < 3.0 * CELL,
            "spot at ({x}, {z}) is {nearest} from any mineral"
        );
        // a T1 extractor there (0.001 x metal within 90 elmos) gets the standard 2 metal/s
        let r = map.settings.extractor_radius_elmos;
        let mut sum = 0.0;
        for j in 0..map.metal.height() {
            for i in 0..map.metal.width() {
                let (cx, cz) = ((i as f32 + 0.5) * 16.0, (j as f32 + 0.5) * 16.0);
                if (cx - x).hypot(cz - z) < r {
                    sum += map.metal.get(i, j) as f32 * map.settings.max_metal * 0.001;
                }
            }
        }
        assert!((sum - 2.0).abs() < 0.05, "spot at ({x}, {z}) yields {sum}");
        // on level ground
        let h0 = map.heights.get((x / 8.0) as usize, (z / 8.0) as usize);
        for (dx, dz) in [(-40.0, 0.0), (40.0, 0.0), (0.0, -40.0), (0.0, 40.0)] {
            let h = map
                .heights
                .get(((x + dx) / 8.0) as usize, ((z + dz) / 8.0) as usize);
            assert!(
                (h - h0).abs() < 4.0,
                "spot at ({x}, {z}) is not on level ground"
            );
        }
    }
    let vents: Vec<_> = map
        .features
        .iter()
        .filter(|f| f.name == "GeoVent")
        .collect();
    assert_eq!(vents.len(), 8);
    for (_, gx, gy) in &geysers {
        let (ex, ez) = s64_elmos(*gx, *gy);
        assert!(
            vents
                .iter()
                .any(|v| (v.x_elmos - ex).abs() < 0.01 && (v.z_elmos - ez).abs() < 0.01)
        );
    }
    let rocks = map
        .features
        .iter()
        .filter(|f| f.name.starts_with("rocks30_"))
        .count();
    assert_eq!(rocks, 2);
}

/// Squares a BAR tank can drive on (steepest edge under 27 degrees), and whether `to` can be
/// reached from `from` (square coordinates) without leaving them or entering `blocked`.
fn reachable(
    map: &Map,
    from: (usize, usize),
    to: (usize, usize),
    blocked: &dyn Fn(usize, usize) -> bool,
) -> bool {
    let slopes = terrain::square_slopes_deg(&map.heights);
    let (w, h) = slopes.dims();
    let ok = |x: usize, z: usize| slopes.get(x, z) < 27.0 && !blocked(x, z);
    let mut seen = vec![false; w * h];
    let mut q = VecDeque::from([from]);
    seen[from.1 * w + from.0] = true;
    while let Some((x, z)) = q.pop_front() {
        if (x, z) == to {
            return true;
        }
        for (dx, dz) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (a, b) = (x as i64 + dx, z as i64 + dz);
            if a < 0 || b < 0 || a as usize >= w || b as usize >= h {
                continue;
            }
            let (a, b) = (a as usize, b as usize);
            if !seen[b * w + a] && ok(a, b) {
                seen[b * w + a] = true;
                q.push_back((a, b));
            }
        }
    }
    false
}

#[test]
fn simple64_plateaus_cliffs_and_ramps_survive() {
    let Some(path) = sc2_support::fixture("Simple64") else {
        return;
    };
    let (map, _) = groundwork::import::sc2::import(&path, &Sc2Options::default()).unwrap();
    let (cw, ch, cliff) = raw_cliff_levels(&path);
    let at = |i: i64, j: i64| -> Option<u16> {
        (i >= 0 && j >= 0 && (i as usize) < cw && (j as usize) < ch)
            .then(|| cliff[j as usize * cw + i as usize])
    };
    let playable = |i: usize, j: usize| {
        (i as f32) >= S64_BOUNDS.0
            && (i as f32) < S64_BOUNDS.2
            && (j as f32) >= S64_BOUNDS.1
            && (j as f32) < S64_BOUNDS.3
    };
    // cells well inside a plateau (their 5 x 5 block one value), and ramp cells
    let mut plateau: BTreeMap<u16, Vec<f32>> = BTreeMap::new();
    let mut ramps: BTreeMap<u16, Vec<f32>> = BTreeMap::new();
    for j in 0..ch {
        for i in 0..cw {
            if !playable(i, j) {
                continue;
            }
            let v = cliff[j * cw + i];
            if v % 64 != 0 {
                ramps
                    .entry(v)
                    .or_default()
                    .push(height_at_cell_centre(&map, i, j));
                continue;
            }
            let interior =
                (-2..=2).all(|dj| (-2..=2).all(|di| at(i as i64 + di, j as i64 + dj) == Some(v)));
            if interior {
                plateau
                    .entry(v)
                    .or_default()
                    .push(height_at_cell_centre(&map, i, j));
            }
        }
    }
    assert_eq!(
        plateau.keys().copied().collect::<Vec<_>>(),
        vec![0, 128, 192],
        "chasm, level 2, level 3"
    );
    let flat = |v: &[f32]| {
        let (lo, hi) = v
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        assert!(hi - lo < 1.0, "a plateau is not level: {lo}..{hi}");
        lo
    };
    let (chasm, l2, l3) = (
        flat(&plateau[&0]),
        flat(&plateau[&128]),
        flat(&plateau[&192]),
    );
    // one cliff level = 2 SC2 units = 64 elmos at 32 elmos a cell; the chasm far below both
    assert!((l3 - l2 - 64.0).abs() < 1.0, "levels {l2} and {l3}");
    assert!(chasm < l2 - 200.0, "chasm {chasm}");
    // ramp cells lie between the levels, higher where the cliff-level value is higher
    assert!(ramps.len() >= 5, "{:?}", ramps.keys());
    let mut last = l2;
    for (v, hs) in &ramps {
        let mean = hs.iter().sum::<f32>() / hs.len() as f32;
        assert!(
            hs.iter().all(|&h| h > l2 + 1.0 && h < l3 - 1.0),
            "ramp value {v}: {hs:?} not between {l2} and {l3}"
        );
        assert!(mean > last, "ramp value {v}: mean {mean} not above {last}");
        last = mean;
    }
    // a tank drives from the level-3 start down to the level-2 natural over a ramp...
    let sq = |x: f32, z: f32| ((x / 8.0) as usize, (z / 8.0) as usize);
    let start = sq(map.teams[0].start_x_elmos, map.teams[0].start_z_elmos);
    let (nx, nz) = s64_elmos(44.0, 48.0); // the middle of the level-2 band
    assert_eq!(at(44, 48), Some(128));
    let natural = sq(nx, nz);
    assert!(
        reachable(&map, start, natural, &|_, _| false),
        "no drivable way from the plateau down"
    );
    // ...and not without one: away from the ramps every level change is a sheer cliff
    let near_ramp = |x: usize, z: usize| {
        let sx = S64_BOUNDS.0 + (x as f32 + 0.5) * 8.0 / CELL;
        let sy = S64_BOUNDS.3 - (z as f32 + 0.5) * 8.0 / CELL;
        (-1..=1).any(|dj| {
            (-1..=1).any(|di| at(sx as i64 + di, sy as i64 + dj).is_some_and(|v| v % 64 != 0))
        })
    };
    assert!(
        !reachable(&map, start, natural, &near_ramp),
        "a way down that is not a ramp"
    );
}

#[test]
fn height_scale_and_sea_change_what_they_should() {
    let Some(path) = sc2_support::fixture("Simple64") else {
        return;
    };
    let (a, _) = groundwork::import::sc2::import(&path, &Sc2Options::default()).unwrap();
    let opt = Sc2Options {
        height_scale: 2.0,
        chasm: Chasm::Sea,
        ..Sc2Options::default()
    };
    let (b, report) = groundwork::import::sc2::import(&path, &opt).unwrap();
    let (x, z) = s64_elmos(59.5, 27.5); // level 3
    let (x2, z2) = s64_elmos(44.5, 48.5); // level 2
    let step = |m: &Map| {
        m.heights.get((x / 8.0) as usize, (z / 8.0) as usize)
            - m.heights.get((x2 / 8.0) as usize, (z2 / 8.0) as usize)
    };
    assert!((step(&b) - 2.0 * step(&a)).abs() < 1.0);
    let (lo, _) = b.heights.min_max();
    assert!(lo < -100.0, "sea floor {lo}");
    assert!(report.to_text().contains("sea"));
    assert!(
        groundwork::import::sc2::import(
            &path,
            &Sc2Options {
                cell_elmos: 12,
                ..Sc2Options::default()
            }
        )
        .is_err()
    );
}

#[test]
fn the_cli_writes_the_project_and_the_report() {
    let Some(path) = sc2_support::fixture("Flat32") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("flat");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(["import", "sc2"])
        .arg(&path)
        .args([
            "--cell-elmos",
            "32",
            "--height-scale",
            "1.5",
            "--chasm",
            "sea",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let printed = String::from_utf8(run.stdout).unwrap();
    let saved =
        std::fs::read_to_string(out.join(groundwork::formats::import_report::IMPORT_REPORT_FILE))
            .unwrap();
    assert_eq!(printed, saved);
    assert!(out.join("map.toml").is_file());
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(["import", "sc2"])
        .arg(out.join("map.toml"))
        .arg("-o")
        .arg(dir.path().join("nope"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(
        err.lines().filter(|l| l.starts_with("error:")).count(),
        1,
        "{err}"
    );
    assert!(err.contains("not an MPQ archive"), "{err}");
}
