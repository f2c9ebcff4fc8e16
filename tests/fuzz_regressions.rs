//! Every input the fuzzers found a fault with (kept in `fuzz/regressions/<target>/` once the
//! fault was fixed) runs through its reader again: none may panic. The readers' errors are
//! fine; a panic names the target and the input.

use std::path::Path;

#[test]
fn every_kept_fuzz_input_is_read_without_a_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut ran = 0;
    let mut panics = Vec::new();
    for entry in std::fs::read_dir(&root).expect("fuzz/regressions is in the project") {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let target = groundwork::fuzz::target(&name)
            .unwrap_or_else(|| panic!("fuzz/regressions/{name} names no fuzz target"));
        let mut inputs: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        inputs.sort();
        for input in inputs {
            let bytes = std::fs::read(&input).unwrap();
            if std::panic::catch_unwind(|| target(&bytes)).is_err() {
                panics.push(format!(
                    "{name}/{}",
                    input.file_name().unwrap().to_string_lossy()
                ));
            }
            ran += 1;
        }
    }
    assert!(ran > 0, "no regression inputs under {}", root.display());
    assert!(panics.is_empty(), "these inputs panic again: {panics:?}");
}

#[test]
fn every_fuzz_target_has_a_binary() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    for (name, _) in groundwork::fuzz::TARGETS {
        assert!(
            dir.join(format!("{name}.rs")).is_file(),
            "fuzz/fuzz_targets/{name}.rs"
        );
    }
}
