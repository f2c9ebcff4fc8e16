//! Shared helpers for the SC2 importer tests: where the fixtures are.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared` beside the crate, or `$GROUNDWORK_SHARED`.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("GROUNDWORK_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    dir.is_dir().then_some(dir)
}

/// A fixture `.SC2Map` by stem, or `None` (printing why) when the fixtures are absent.
pub fn fixture(stem: &str) -> Option<PathBuf> {
    let p = shared_dir()?
        .join("fixtures/sc2")
        .join(format!("{stem}.SC2Map"));
    if p.is_file() {
        Some(p)
    } else {
        eprintln!("skipped: fixtures not found ({})", p.display());
        None
    }
}

/// Every fixture, or an empty list (printing why).
pub fn fixtures() -> Vec<(String, PathBuf)> {
    ["Simple64", "Flat32", "Empty128"]
        .iter()
        .filter_map(|s| fixture(s).map(|p| (s.to_string(), p)))
        .collect()
}
