//! The importers, through the importer interface (`groundwork::import`), give the same bytes
//! as they did before it: a Warzone 2100 map (Debian's data) and every SC2 fixture are
//! imported, saved as projects, and each project (every file's path and bytes, and the import
//! report) hashed; the hashes were taken from the importers as they stood before.

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
        fnv(&mut hash, &std::fs::read(&f).unwrap());
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
        let (map, report) = import::find("wz2100")
            .unwrap()
            .import(&mp, Some(folder), &Settings::default(), &mut |_, _, _| {})
            .unwrap();
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
        let (map, report) = import::find("sc2")
            .unwrap()
            .import(&path, None, &Settings::default(), &mut |_, _, _| {})
            .unwrap();
        got.push((stem.to_string(), project_hash(&map, &report.to_text())));
    }
    eprintln!("{got:?}");
    assert_eq!(got, expected(SC2_EXPECTED));
}

fn expected(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

const WZ_EXPECTED: &[(&str, &str)] = &[
    ("4c-rush", "869ca80c9e7476e7"),
    ("2c-startup", "bbe550293cf5a1dd"),
];
const SC2_EXPECTED: &[(&str, &str)] = &[
    ("Simple64", "3247a31dc31f85b2"),
    ("Flat32", "3a40c837ad872054"),
    ("Empty128", "744be309d9ee02bc"),
];
