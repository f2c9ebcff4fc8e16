//! Runs one fuzz target's entry point on files or folders of inputs, without libFuzzer (any
//! compiler): to replay a corpus or a finding, or to try new seeds. A panic names the input.
//!
//! `cargo run --release --example fuzz_replay -- TARGET PATH...`

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((name, paths)) = args.split_first() else {
        eprintln!("usage: fuzz_replay TARGET PATH...");
        std::process::exit(2);
    };
    let Some(target) = groundwork::fuzz::target(name) else {
        let names: Vec<&str> = groundwork::fuzz::TARGETS.iter().map(|(n, _)| *n).collect();
        eprintln!("no fuzz target {name}; the targets: {}", names.join(", "));
        std::process::exit(2);
    };
    let mut inputs = Vec::new();
    for p in paths.iter().map(std::path::PathBuf::from) {
        match std::fs::read_dir(&p) {
            Ok(dir) => inputs.extend(dir.flatten().map(|e| e.path())),
            Err(_) => inputs.push(p),
        }
    }
    inputs.sort();
    for input in &inputs {
        let bytes = std::fs::read(input).unwrap_or_default();
        eprintln!("{}", input.display());
        target(&bytes);
    }
    println!("{name}: {} inputs, no panic", inputs.len());
}
