//! Writes a procedural relief map of any size as a project folder: for trying the editor on
//! big maps (a 32x32 map has a 16384 x 16384 texture) and measuring how it copes.
//!
//! `cargo run --release --example make_relief_project -- 32 /tmp/relief32`

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(units), Some(dir)) = (
        args.first().and_then(|s| s.parse::<u32>().ok()),
        args.get(1),
    ) else {
        eprintln!("usage: make_relief_project SIZE_IN_MAP_UNITS DIR");
        std::process::exit(2);
    };
    let size = match groundwork::map::MapSize::new(units, units) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let t0 = std::time::Instant::now();
    let map = groundwork::edit::procedural::relief_map(size, 42, &format!("Relief {size}"));
    eprintln!("made the {size} map in {:.1} s", t0.elapsed().as_secs_f32());
    let t0 = std::time::Instant::now();
    if let Err(e) = groundwork::formats::save_project(&map, std::path::Path::new(dir)) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
    eprintln!("wrote {dir} in {:.1} s", t0.elapsed().as_secs_f32());
}
