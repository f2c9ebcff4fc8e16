//! Shared helpers for the SC2 importer tests: the fixture maps, found through `common`.
#![allow(dead_code)]

use std::path::PathBuf;

/// A fixture `.SC2Map` by stem, or `None` (printing why) when the fixtures are absent.
pub fn fixture(stem: &str) -> Option<PathBuf> {
    let p = crate::common::fixture(&format!("sc2/{stem}.SC2Map"));
    if p.is_none() {
        groundwork::test_support::skip(&format!("fixtures not found (sc2/{stem}.SC2Map)"));
    }
    p
}

/// Every fixture, or an empty list (printing why).
pub fn fixtures() -> Vec<(String, PathBuf)> {
    ["Simple64", "Flat32", "Empty128"]
        .iter()
        .filter_map(|s| fixture(s).map(|p| (s.to_string(), p)))
        .collect()
}
