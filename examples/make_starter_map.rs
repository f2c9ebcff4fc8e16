//! Writes the starter map the editor ships with into `assets/starter/` as a project folder.
//! Deterministic: run it again and the files come out the same. The editor builds these files
//! into its binary (`groundwork::assets`).
//!
//! The ground texture is left out (4096 x 4096 would be 2.7 MB of PNG): it is coloured from the
//! heights, and a project folder without `texture.png` gets exactly that texture when loaded.
//!
//! `cargo run --example make_starter_map`

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/starter");
    let map = groundwork::edit::procedural::starter_map();
    if let Err(e) = groundwork::formats::save_project(&map, &dir) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
    if let Err(e) = std::fs::remove_file(dir.join("texture.png")) {
        eprintln!("error: cannot remove texture.png: {e}");
        std::process::exit(1);
    }
    let mut total = 0;
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let len = entry.metadata().map(|m| m.len()).unwrap_or(0);
        total += len;
        println!("{:>10} {}", len, entry.file_name().to_string_lossy());
    }
    println!("{total:>10} bytes in {}", dir.display());
}
