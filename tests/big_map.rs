//! A 32x32 map (16384 x 16384 texture) within the memory budget ARCHITECTURE.md states: every
//! tool of the registry run on it through `groundwork edit` (with undos), compiled to `.sd7`,
//! and the archive opened again (`decompile`), each in its own process, whose peak resident
//! memory (`VmHWM`, which the binary prints when `GROUNDWORK_PEAK_MEMORY` is set) must stay under [`BUDGET_BYTES`]. The peaks are printed.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use groundwork::edit::tools::{StrokeStyle, TOOLS};
use groundwork::map::MapSize;

mod tool_support;
use tool_support::{tool_keys, with_paint_layer};

/// The CPU-side budget for one job on a 32x32 map (ARCHITECTURE.md, "Memory").
const BUDGET_BYTES: u64 = 4 << 30;

/// Whether this system reports peak memory the way the binary reads it (Linux's `VmHWM`).
fn peak_readable() -> bool {
    let ok = Path::new("/proc/self/status").is_file();
    if !ok {
        groundwork::test_support::skip("no /proc/self/status: the peak is read from Linux's VmHWM");
    }
    ok
}

/// Runs `groundwork ARGS`, returning its peak resident bytes, as it reports them.
fn peak_of(args: &[&str]) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_groundwork"))
        .args(args)
        .env("GROUNDWORK_PEAK_MEMORY", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "groundwork {args:?} failed: {stderr}");
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("peak resident memory: "))
        .and_then(|l| l.trim_end_matches(" bytes").parse().ok())
        .unwrap_or_else(|| panic!("no peak reported: {stderr}"))
}

/// Every tool once, with undos between, over a 32x32 map (16384 elmos a side).
fn every_tool() -> String {
    let mut text = String::from("symmetry = \"mirror-x\"\n");
    for (i, tool) in TOOLS.iter().enumerate() {
        let x = 1500.0 + 800.0 * i as f32;
        let path = match tool.style() {
            StrokeStyle::Click => format!("[[{x}, 4000.0]]"),
            _ => format!("[[{x}, 3000.0], [{}, 9000.0]]", x + 300.0),
        };
        let _ = write!(
            text,
            "\n[[op]]\ntool = \"{}\"\npath = {path}\nradius_elmos = 300.0\n",
            tool.name()
        );
        text.push_str(&tool_keys(*tool, "cone.png"));
        if i % 3 == 2 {
            text.push_str("\n[[op]]\ntool = \"undo\"\n");
        }
    }
    text
}

fn cone_png(path: &Path) {
    let n = 65u32;
    let c = (n - 1) as f32 / 2.0;
    let img = image::ImageBuffer::from_fn(n, n, |x, z| {
        let r = ((x as f32 - c).powi(2) + (z as f32 - c).powi(2)).sqrt() / c;
        image::Luma([((1.0 - r).max(0.0) * 65535.0) as u16])
    });
    img.save(path).unwrap();
}

#[test]
fn a_32x32_map_edits_compiles_and_opens_within_the_memory_budget() {
    if !peak_readable() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("Big");
    let map = with_paint_layer(groundwork::edit::procedural::relief_map(
        MapSize::new(32, 32).unwrap(),
        4,
        "Big",
    ));
    groundwork::formats::save_project(&map, &project).unwrap();
    drop(map);
    let ops = dir.path().join("ops.toml");
    std::fs::write(&ops, every_tool()).unwrap();
    cone_png(&dir.path().join("cone.png"));
    let sd7 = dir.path().join("big.sd7");
    let back = dir.path().join("Back");
    let p = project.to_str().unwrap();
    let edit = peak_of(&[
        "edit",
        p,
        "--ops",
        ops.to_str().unwrap(),
        "--cpu",
        "--widen-range",
    ]);
    let compile = peak_of(&["compile", p, "-o", sd7.to_str().unwrap(), "-q"]);
    let open = peak_of(&[
        "decompile",
        sd7.to_str().unwrap(),
        "-o",
        back.to_str().unwrap(),
    ]);
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    eprintln!(
        "32x32 peaks: edit (every tool, undo, save) {:.2} GiB, compile to .sd7 {:.2} GiB, open and decompile {:.2} GiB; budget {:.0} GiB",
        gib(edit),
        gib(compile),
        gib(open),
        gib(BUDGET_BYTES)
    );
    for (what, peak) in [("edit", edit), ("compile", compile), ("open", open)] {
        assert!(peak < BUDGET_BYTES, "{what} peaked at {:.2} GiB", gib(peak));
    }
    assert!(groundwork::formats::is_project(&back));
}

#[test]
fn a_large_bundled_file_is_streamed_to_disk_on_decompile() {
    if !peak_readable() {
        return;
    }
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    // a small map as a folder, then zipped (stored) with a 192 MiB file of noise beside it
    let map = groundwork::edit::procedural::relief_map(MapSize::new(2, 2).unwrap(), 3, "Small");
    let sdd = dir.path().join("small.sdd");
    groundwork::compile::compile_map(
        &map,
        &sdd,
        &groundwork::compile::CompileOptions::default(),
        &groundwork::compile::Progress::none(),
    )
    .unwrap();
    let big_len = 192usize << 20;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let noise: Vec<u8> = (0..big_len / 8)
        .flat_map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()
        })
        .collect();
    let sdz = dir.path().join("small.sdz");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&sdz).unwrap());
    let stored = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .large_file(true);
    for entry in std::fs::read_dir(sdd.join("maps")).unwrap() {
        let p = entry.unwrap().path();
        let name = format!("maps/{}", p.file_name().unwrap().to_string_lossy());
        zip.start_file(name, stored).unwrap();
        zip.write_all(&std::fs::read(&p).unwrap()).unwrap();
    }
    zip.start_file("mapinfo.lua", stored).unwrap();
    zip.write_all(&std::fs::read(sdd.join("mapinfo.lua")).unwrap())
        .unwrap();
    zip.start_file("sounds/ambient.ogg", stored).unwrap();
    zip.write_all(&noise).unwrap();
    zip.finish().unwrap();

    let back = dir.path().join("Back");
    let peak = peak_of(&[
        "decompile",
        sdz.to_str().unwrap(),
        "-o",
        back.to_str().unwrap(),
    ]);
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    eprintln!(
        "decompiling a 2x2 map with a {:.0} MiB bundled file peaked at {:.0} MiB",
        mib(big_len as u64),
        mib(peak)
    );
    let written = std::fs::read(back.join("archive/sounds/ambient.ogg")).unwrap();
    assert!(written == noise, "the bundled file came out changed");
    assert!(
        peak < big_len as u64,
        "the file was held in memory: peak {:.0} MiB",
        mib(peak)
    );
}
