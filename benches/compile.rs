//! Compiles a 16x16 map from a noisy 8192x8192 texture with Groundwork and with Spring's own
//! `mapcompile -ct 1` on the same images, side by side: wall time, peak memory, distinct tiles
//! and PSNR of the decoded ground texture against the source.
//!
//! `cargo bench --bench compile` (set `GROUNDWORK_BENCH_UNITS=8` for a smaller map, and
//! `GROUNDWORK_BENCH_BEST=1` to add the slow best-quality encoder, `GROUNDWORK_BENCH_NOISE=0.35`
//! for another per-texel noise amplitude, as a fraction of the byte range; default 0.12).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

use groundwork::formats::bc1::psnr_rgb;
use groundwork::formats::read_map;

/// What one run cost.
struct Cost {
    wall: Duration,
    /// User + system CPU time: steadier than wall time on a busy machine.
    cpu: Duration,
    peak_bytes: u64,
    ok: bool,
}

/// Runs a command and measures it.
fn measure(cmd: &mut Command) -> Cost {
    let start = Instant::now();
    let child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child and fills a zeroed rusage
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    std::mem::forget(child);
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Cost {
        wall: start.elapsed(),
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
        peak_bytes: usage.ru_maxrss as u64 * 1024,
        ok,
    }
}

/// The project: the noisy texture (as BMP, which both tools read), heights, metal and types.
fn make_inputs(dir: &Path, units: u32, noise_amplitude: f32) -> Vec<u8> {
    let side = 512 * units as usize;
    let rgb = common::noisy_rgb(side, noise_amplitude);
    image::save_buffer(
        dir.join("texture.bmp"),
        &rgb,
        side as u32,
        side as u32,
        image::ExtendedColorType::Rgb8,
    )
    .unwrap();
    let hv = 64 * units as usize + 1;
    let heights: Vec<u16> = (0..hv * hv)
        .map(|i| {
            let (x, z) = ((i % hv) as f32, (i / hv) as f32);
            (20000.0 + 15000.0 * (x * 0.02).sin() * (z * 0.015).cos()) as u16
        })
        .collect();
    let hbytes: Vec<u8> = heights.iter().flat_map(|h| h.to_ne_bytes()).collect();
    image::save_buffer(
        dir.join("height.png"),
        &hbytes,
        hv as u32,
        hv as u32,
        image::ExtendedColorType::L16,
    )
    .unwrap();
    let mv = 32 * units as usize;
    let metal: Vec<u8> = (0..mv * mv)
        .map(|i| {
            if (i % mv) % 40 < 3 && (i / mv) % 40 < 3 {
                200
            } else {
                0
            }
        })
        .collect();
    image::save_buffer(
        dir.join("metal.png"),
        &metal,
        mv as u32,
        mv as u32,
        image::ExtendedColorType::L8,
    )
    .unwrap();
    let metal_rgb: Vec<u8> = metal.iter().flat_map(|&m| [m, 0, 0]).collect();
    image::save_buffer(
        dir.join("metal.bmp"),
        &metal_rgb,
        mv as u32,
        mv as u32,
        image::ExtendedColorType::Rgb8,
    )
    .unwrap();
    let types = vec![0u8; mv * mv];
    image::save_buffer(
        dir.join("type.png"),
        &types,
        mv as u32,
        mv as u32,
        image::ExtendedColorType::L8,
    )
    .unwrap();
    let types_rgb = vec![0u8; mv * mv * 3];
    image::save_buffer(
        dir.join("type.bmp"),
        &types_rgb,
        mv as u32,
        mv as u32,
        image::ExtendedColorType::Rgb8,
    )
    .unwrap();
    std::fs::write(
        dir.join("map.toml"),
        format!(
            "[map]\nname = \"Bench\"\nsize = [{units}, {units}]\nmin_height = -100.0\nmax_height = 400.0\nmax_metal = 2.0\nextractor_radius = 80.0\n\n[[teams]]\nstart = [500.0, 500.0]\n"
        ),
    )
    .unwrap();
    rgb
}

fn flip_rows(rgba: &[u8], side: usize) -> Vec<u8> {
    rgba.chunks_exact(side * 4)
        .rev()
        .flatten()
        .copied()
        .collect()
}

struct Row {
    tool: String,
    cost: Cost,
    distinct: Option<usize>,
    psnr: Option<f64>,
    note: String,
}

fn decoded(path: &Path, source: &[u8], side: usize) -> (Option<usize>, Option<f64>, String) {
    match read_map(path) {
        Ok(l) => {
            let tex = l.map.texture.rgba();
            let straight = psnr_rgb(source, tex);
            let flipped = psnr_rgb(&flip_rows(source, side), tex);
            let note = if flipped > straight + 1.0 {
                "rows flipped vs the BMP as viewed"
            } else {
                ""
            };
            (
                l.tile_counts.map(|t| t.1),
                Some(straight.max(flipped)),
                note.to_string(),
            )
        }
        Err(e) => (None, None, format!("unreadable: {e}")),
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let units: u32 = std::env::var("GROUNDWORK_BENCH_UNITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16);
    let noise: f32 = std::env::var("GROUNDWORK_BENCH_NOISE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.12);
    let side = 512 * units as usize;
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    eprintln!("making a {units}x{units} map: {side}x{side} noisy texture ...");
    let source = common::to_rgba(&make_inputs(&project, units, noise));
    let gw = env!("CARGO_BIN_EXE_groundwork");
    let mut rows = Vec::new();

    let mut runs: Vec<(&str, &str, Vec<&str>)> = vec![
        ("groundwork (fast BC1) -> .sdd", "out.sdd", vec![]),
        ("groundwork (fast BC1) -> .sdz", "out.sdz", vec![]),
        ("groundwork (fast BC1) -> .sd7", "out.sd7", vec![]),
    ];
    if std::env::var_os("GROUNDWORK_BENCH_BEST").is_some() {
        runs.push(("groundwork --best -> .sdd", "best.sdd", vec!["--best"]));
    }
    for (label, out, extra) in runs {
        let out = dir.path().join(out);
        let cost = measure(
            Command::new(gw)
                .arg("compile")
                .arg(&project)
                .arg("-o")
                .arg(&out)
                .arg("-q")
                .args(&extra),
        );
        assert!(cost.ok, "{label} failed");
        let (distinct, psnr, note) = decoded(&out, &source, side);
        rows.push(Row {
            tool: label.into(),
            cost,
            distinct,
            psnr,
            note,
        });
    }

    let mapcompile = Path::new("/usr/games/mapcompile");
    if mapcompile.is_file() {
        let p = &project;
        let cost = measure(
            Command::new(mapcompile)
                .current_dir(dir.path())
                .arg("-t")
                .arg(p.join("texture.bmp"))
                .arg("-m")
                .arg(p.join("metal.bmp"))
                .arg("-z")
                .arg(p.join("type.bmp"))
                .arg("-h")
                .arg(p.join("height.png"))
                .args(["-maxh", "400", "-minh", "-100", "-o", "mc", "-ct", "1"]),
        );
        let (distinct, psnr, note) = if cost.ok {
            decoded(&dir.path().join("mc.smf"), &source, side)
        } else {
            (None, None, "failed".into())
        };
        rows.push(Row {
            tool: "mapcompile -ct 1 -> .smf/.smt".into(),
            cost,
            distinct,
            psnr,
            note,
        });
    } else {
        eprintln!("mapcompile not found (apt-get install -y spring): Groundwork alone");
    }

    println!(
        "\n{units}x{units} map, {side}x{side} noisy texture (noise amplitude {noise}), {} cores",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!(
        "{:<34} {:>8} {:>8} {:>9} {:>9} {:>8}  note",
        "tool", "wall s", "cpu s", "peak MiB", "distinct", "PSNR dB"
    );
    for r in &rows {
        println!(
            "{:<34} {:>8.2} {:>8.2} {:>9.0} {:>9} {:>8}  {}",
            r.tool,
            r.cost.wall.as_secs_f64(),
            r.cost.cpu.as_secs_f64(),
            r.cost.peak_bytes as f64 / (1 << 20) as f64,
            r.distinct.map_or("-".into(), |d| d.to_string()),
            r.psnr.map_or("-".into(), |p| format!("{p:.2}")),
            r.note
        );
    }
    if let (Some(ours), Some(theirs)) = (
        rows.first(),
        rows.iter().find(|r| r.tool.starts_with("mapcompile")),
    ) {
        println!(
            "\ngroundwork -> .sdd takes {:.0}% of mapcompile's wall time ({:.0}% of its CPU time), {:+.3} dB PSNR",
            ours.cost.wall.as_secs_f64() / theirs.cost.wall.as_secs_f64() * 100.0,
            ours.cost.cpu.as_secs_f64() / theirs.cost.cpu.as_secs_f64() * 100.0,
            ours.psnr.unwrap_or(0.0) - theirs.psnr.unwrap_or(0.0)
        );
    }
}
