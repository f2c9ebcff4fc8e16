//! The importers, through the importer interface (`groundwork::import`), give the same bytes
//! as they did before it: a Warzone 2100 map (Debian's data) and every SC2 fixture are
//! imported, saved as projects, and each project (every file's path and bytes, and the import
//! report) hashed, a PNG by its decoded samples; the hashes were taken from the importers as
//! they stood before (and checked again when the project's PNG writer changed: the old writer
//! run on the decoded texture gave the old hashes of the files' bytes). The same
//! imports check the progress each importer reports: its stages in order, each counting up to
//! its total, the texture row by row.

use std::path::{Path, PathBuf};

use groundwork::formats::wz2100;
use groundwork::import::{self, Settings};
use groundwork::map::Map;

mod common;
mod sc2_support;

/// FNV-1a, 64 bits: small and the same everywhere.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= b as u64;
        *hash = hash.wrapping_mul(0x100_0000_01b3);
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// What a file stands for: a PNG's size, colour type, depth and decoded samples (so the hash
/// follows the picture, not how the PNG writer packs it), any other file's bytes.
fn content(f: &Path) -> Vec<u8> {
    if f.extension().is_some_and(|e| e == "png") {
        let file = std::io::BufReader::new(std::fs::File::open(f).unwrap());
        let mut r = png::Decoder::new(file).read_info().unwrap();
        let mut samples = vec![0u8; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut samples).unwrap();
        samples.truncate(info.buffer_size());
        let mut out = format!(
            "{}x{} {:?} {:?}\n",
            info.width, info.height, info.color_type, info.bit_depth
        )
        .into_bytes();
        out.extend_from_slice(&samples);
        out
    } else {
        std::fs::read(f).unwrap()
    }
}

/// The hash of `map` saved as a project, and of the report's text.
fn project_hash(map: &Map, report: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("Imported");
    groundwork::formats::save_project(map, &project).unwrap();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for f in files(&project) {
        fnv(
            &mut hash,
            f.strip_prefix(&project)
                .unwrap()
                .to_string_lossy()
                .as_bytes(),
        );
        fnv(&mut hash, &content(&f));
    }
    fnv(&mut hash, report.as_bytes());
    format!("{hash:016x}")
}

#[test]
fn warzone_2100_imports_to_the_same_bytes() {
    let mp = Path::new(wz2100::SYSTEM_DATA_DIR).join("mp.wz");
    if !mp.is_file() {
        groundwork::test_support::skip("Warzone 2100 data (mp.wz) not found");
        return;
    }
    let mut got = Vec::new();
    for folder in ["4c-rush", "2c-startup"] {
        let mut log = Vec::new();
        let (map, report) = import::find("wz2100")
            .unwrap()
            .import(&mp, Some(folder), &Settings::default(), &mut |s, d, t| {
                log.push((s.to_string(), d, t))
            })
            .unwrap();
        check_progress(
            folder,
            &log,
            &[
                "reading the source",
                "reading the map",
                "heights",
                "tile art",
                "texture",
                "metal, start positions and features",
            ],
        );
        got.push((folder.to_string(), project_hash(&map, &report.to_text())));
    }
    eprintln!("{got:?}");
    assert_eq!(got, expected(WZ_EXPECTED));
}

#[test]
fn starcraft_2_imports_to_the_same_bytes() {
    let mut got = Vec::new();
    for stem in ["Simple64", "Flat32", "Empty128"] {
        let Some(path) = sc2_support::fixture(stem) else {
            return;
        };
        let mut log = Vec::new();
        let (map, report) = import::find("sc2")
            .unwrap()
            .import(&path, None, &Settings::default(), &mut |s, d, t| {
                log.push((s.to_string(), d, t))
            })
            .unwrap();
        check_progress(
            stem,
            &log,
            &[
                "reading the archive",
                "heights",
                "metal, start positions and features",
                "texture",
            ],
        );
        got.push((stem.to_string(), project_hash(&map, &report.to_text())));
    }
    eprintln!("{got:?}");
    assert_eq!(got, expected(SC2_EXPECTED));
}

/// The stages came in `stages`' order, each once; in each, `done` never fell, never passed
/// `total`, and reached it; the texture was reported in many steps.
fn check_progress(map: &str, log: &[(String, u64, u64)], stages: &[&str]) {
    let mut seen: Vec<&str> = Vec::new();
    for (stage, done, total) in log {
        if seen.last() != Some(&stage.as_str()) {
            seen.push(stage);
        }
        assert!(done <= total, "{map}: {stage} {done} of {total}");
    }
    assert_eq!(seen, stages, "{map}: stages");
    for stage in stages {
        let steps: Vec<(u64, u64)> = log
            .iter()
            .filter(|(s, _, _)| s == stage)
            .map(|&(_, d, t)| (d, t))
            .collect();
        assert!(
            steps
                .windows(2)
                .all(|w| w[0].0 <= w[1].0 && w[0].1 == w[1].1),
            "{map}: {stage} {steps:?}"
        );
        let (done, total) = *steps.last().unwrap();
        assert!(
            total > 0 && done == total,
            "{map}: {stage} ends at {done} of {total}"
        );
    }
    let texture = log.iter().filter(|(s, _, _)| s == "texture").count();
    assert!(texture > 30, "{map}: the texture in {texture} reports");
}

fn expected(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

const WZ_EXPECTED: &[(&str, &str)] = &[
    ("4c-rush", "b6bdb46531650d8f"),
    ("2c-startup", "6f8b9a3897fa229d"),
];
const SC2_EXPECTED: &[(&str, &str)] = &[
    ("Simple64", "8f2f27954cbb25f1"),
    ("Flat32", "28e201aea306b7f5"),
    ("Empty128", "60977ecb08344f51"),
];
