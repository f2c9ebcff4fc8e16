//! Compiles a 16x16 map from a noisy 8192x8192 texture with Groundwork and with Spring's own
//! `mapcompile -ct 1` on the same images, side by side: wall time, peak memory, archive size,
//! distinct tiles and PSNR of the decoded ground texture against the source. With the newest
//! peer built (`../shared/peers/build_springmapconvng.sh`; its folder in
//! `GROUNDWORK_PEER_BIN`, default `/tmp/springmapconvng/build`) and 7-Zip on the PATH (`7zz`,
//! `7z` or `7za`), also the mapmaker's alternative: the peer's `mapcompile`, then `7z a -mx=1`
//! of what it wrote, against `groundwork compile -o X.sd7`.
//!
//! `cargo bench --bench compile` (set `GROUNDWORK_BENCH_UNITS=8` for a smaller map, `GROUNDWORK_BENCH_KEEP=1` to keep its
//! folder, and
//! `GROUNDWORK_BENCH_BEST=1` to add the slow best-quality encoder, `GROUNDWORK_BENCH_NOISE=0.35`
//! for another per-texel noise amplitude, as a fraction of the byte range; default 0.12,
//! `cargo bench --bench compile -- loop` for the edit-test loop alone,
//! `cargo bench --bench compile -- layered` for the generated layered map alone (it also runs
//! last in a full run: a `groundwork new` 16x16 continental map with a painted mask layer added,
//! compiled to `.sd7` cold, again with nothing changed, after a raise stroke and after a mask
//! paint, each through the CLI with its disk cache, on the device the CLI picks),
//! `GROUNDWORK_BENCH_RUNS=5` to run each side-by-side command five times instead of three; its
//! row is the run of median wall time).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

use groundwork::formats::bc1::psnr_rgb;
use groundwork::formats::read_map;

/// The bench folder, left in place after the run when `GROUNDWORK_BENCH_KEEP` is set (to
/// profile one tool on the same inputs).
struct Keep(Option<tempfile::TempDir>);
impl Keep {
    fn path(&self) -> &Path {
        self.0
            .as_ref()
            .expect("the folder is held until drop")
            .path()
    }
}
impl Drop for Keep {
    fn drop(&mut self) {
        if std::env::var_os("GROUNDWORK_BENCH_KEEP").is_some()
            && let Some(dir) = self.0.take()
        {
            let _ = dir.keep();
        }
    }
}

/// What one run cost.
#[derive(Clone, Copy)]
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
    // SAFETY: an all-zero rusage is a valid value
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

/// How many times each side-by-side command runs (`GROUNDWORK_BENCH_RUNS`, default 3); its
/// row shows the run of median wall time, so one stall on a busy machine does not decide a
/// ratio. Every tool, ours and the others, is measured the same way.
fn bench_runs() -> usize {
    std::env::var("GROUNDWORK_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3usize)
        .max(1)
}

/// Runs `make()`'s command `bench_runs()` times, calling `before()` ahead of each run (to
/// remove what the last run wrote), and returns the run of median wall time, with the highest
/// peak memory of all runs. Failed if any run failed.
fn measure_median(mut before: impl FnMut(), mut make: impl FnMut() -> Command) -> Cost {
    let mut costs: Vec<Cost> = (0..bench_runs())
        .map(|_| {
            before();
            measure(&mut make())
        })
        .collect();
    let ok = costs.iter().all(|c| c.ok);
    let peak_bytes = costs.iter().map(|c| c.peak_bytes).max().unwrap_or(0);
    costs.sort_by_key(|c| c.wall);
    Cost {
        ok,
        peak_bytes,
        ..costs[costs.len() / 2]
    }
}

/// `7z a -mx=1` (the fastest LZMA level, one solid block off) of `inputs` in `dir` into
/// `archive`.
fn seven_zip(seven: &str, dir: &Path, archive: &Path, inputs: &[&str]) -> Command {
    let mut cmd = Command::new(seven);
    cmd.current_dir(dir)
        .args(["a", "-mx=1", "-ms=off"])
        .arg(archive)
        .args(inputs);
    cmd
}

/// Removes a file or a folder, if it is there.
fn remove(path: &Path) {
    let _ = std::fs::remove_dir_all(path);
    let _ = std::fs::remove_file(path);
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
    /// The archive's size, when the tool wrote one.
    archive_bytes: Option<u64>,
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
    if std::env::var_os("GROUNDWORK_BENCH_KEEP").is_some() {
        eprintln!("keeping the bench folder: {}", dir.path().display());
    }
    let dir = Keep(Some(dir));
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    eprintln!("making a {units}x{units} map: {side}x{side} noisy texture ...");
    let source = common::to_rgba(&make_inputs(&project, units, noise));
    // the inputs reach the disk now, not while the first tool runs
    let _ = Command::new("sync").status();
    let gw = env!("CARGO_BIN_EXE_groundwork");
    if std::env::args().skip(1).any(|a| a == "layered") {
        layered_rows(gw, dir.path());
        return;
    }
    // `cargo bench --bench compile -- loop`: the edit-test loop alone
    if std::env::args().skip(1).any(|a| a == "loop") {
        println!("\nthe edit-test loop, {units}x{units} map:");
        for (what, ratio, target) in incremental_rows(gw, dir.path(), &project, side) {
            println!("{what}: {ratio:.2}x (target: {target:.2}x at most)");
        }
        return;
    }
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
        let cost = measure_median(
            || remove(&out),
            || {
                let mut cmd = Command::new(gw);
                cmd.arg("compile")
                    .arg(&project)
                    .arg("-o")
                    .arg(&out)
                    .args(["-q", "--no-cache"])
                    .args(&extra);
                cmd
            },
        );
        assert!(cost.ok, "{label} failed");
        let (distinct, psnr, note) = decoded(&out, &source, side);
        rows.push(Row {
            tool: label.into(),
            archive_bytes: (!out.is_dir()).then(|| std::fs::metadata(&out).map_or(0, |m| m.len())),
            cost,
            distinct,
            psnr,
            note,
        });
    }

    // the same images through a mapcompile: Debian's, and the newest peer's
    let compile_with = |mapcompile: &Path, out_dir: &Path| {
        let p = &project;
        measure_median(
            || {
                remove(out_dir);
                std::fs::create_dir_all(out_dir).unwrap();
            },
            || {
                let mut cmd = Command::new(mapcompile);
                cmd.current_dir(out_dir)
                    .arg("-t")
                    .arg(p.join("texture.bmp"))
                    .arg("-m")
                    .arg(p.join("metal.bmp"))
                    .arg("-z")
                    .arg(p.join("type.bmp"))
                    .arg("-h")
                    .arg(p.join("height.png"))
                    .args(["-maxh", "400", "-minh", "-100", "-o", "mc", "-ct", "1"]);
                cmd
            },
        )
    };
    let debian = Path::new("/usr/games/mapcompile");
    if debian.is_file() {
        let out_dir = dir.path().join("debian");
        let cost = compile_with(debian, &out_dir);
        let (distinct, psnr, note) = if cost.ok {
            decoded(&out_dir.join("mc.smf"), &source, side)
        } else {
            (None, None, "failed".into())
        };
        rows.push(Row {
            tool: "mapcompile -ct 1 -> .smf/.smt".into(),
            archive_bytes: None,
            cost,
            distinct,
            psnr,
            note,
        });
    } else {
        eprintln!("mapcompile not found (apt-get install -y spring): skipped");
    }
    let peer_dir = std::env::var_os("GROUNDWORK_PEER_BIN")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/tmp/springmapconvng/build".into());
    let peer = peer_dir.join("mapcompile");
    let seven = ["7zz", "7z", "7za"].into_iter().find(|b| {
        Command::new(b)
            .arg("i")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok()
    });
    // 7-Zip over groundwork's own files: the same bytes through the other packer
    if let Some(seven) = seven {
        let sdd = dir.path().join("out.sdd");
        let archive = dir.path().join("sdd-by-7zip.sd7");
        // 7-Zip adds to an archive that is there: each run starts without one
        let cost = measure_median(
            || remove(&archive),
            || seven_zip(seven, &sdd, &archive, &["."]),
        );
        rows.push(Row {
            tool: format!("{seven} a -mx=1 of groundwork's .sdd"),
            archive_bytes: std::fs::metadata(&archive).ok().map(|m| m.len()),
            cost,
            distinct: None,
            psnr: None,
            note: "packing only".into(),
        });
    }
    match (peer.is_file(), seven) {
        (true, Some(seven)) => {
            let out_dir = dir.path().join("peer");
            let compiled = compile_with(&peer, &out_dir);
            let (distinct, psnr, note) = if compiled.ok {
                decoded(&out_dir.join("mc.smf"), &source, side)
            } else {
                (None, None, "failed".into())
            };
            rows.push(Row {
                tool: "peer mapcompile -ct 1".into(),
                archive_bytes: None,
                cost: compiled,
                distinct,
                psnr,
                note: note.clone(),
            });
            let archive = out_dir.join("mc.sd7");
            let packed = measure_median(
                || remove(&archive),
                || seven_zip(seven, &out_dir, &archive, &["mc.smf", "mc.smt"]),
            );
            let both = Cost {
                wall: compiled.wall + packed.wall,
                cpu: compiled.cpu + packed.cpu,
                peak_bytes: compiled.peak_bytes.max(packed.peak_bytes),
                ok: compiled.ok && packed.ok,
            };
            rows.push(Row {
                tool: format!("peer mapcompile + {seven} a -mx=1"),
                archive_bytes: std::fs::metadata(&archive).ok().map(|m| m.len()),
                cost: both,
                distinct,
                psnr,
                note,
            });
        }
        (false, _) => eprintln!(
            "the peer is not built ({}; ../shared/peers/build_springmapconvng.sh): skipped",
            peer.display()
        ),
        (true, None) => eprintln!("7-Zip not found (7zz, 7z or 7za): the peer pair skipped"),
    }

    let decompile = decompile_rows(gw, dir.path(), &peer_dir);
    let incremental = incremental_rows(gw, dir.path(), &project, side);

    println!(
        "\n{units}x{units} map, {side}x{side} noisy texture (noise amplitude {noise}), {} cores; each row the run of median wall time of {}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        bench_runs()
    );
    println!(
        "{:<34} {:>8} {:>8} {:>9} {:>10} {:>9} {:>8}  note",
        "tool", "wall s", "cpu s", "peak MiB", "archive MB", "distinct", "PSNR dB"
    );
    for r in &rows {
        println!(
            "{:<34} {:>8.2} {:>8.2} {:>9.0} {:>10} {:>9} {:>8}  {}",
            r.tool,
            r.cost.wall.as_secs_f64(),
            r.cost.cpu.as_secs_f64(),
            r.cost.peak_bytes as f64 / (1 << 20) as f64,
            r.archive_bytes
                .map_or("-".into(), |b| format!("{:.3}", b as f64 / 1e6)),
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
    if let (Some(ours), Some(peer)) = (
        rows.first(),
        rows.iter().find(|r| r.tool == "peer mapcompile -ct 1"),
    ) {
        println!(
            "groundwork -> .sdd takes {:.2}x the wall time of the peer's mapcompile -ct 1 (target: 0.45x at most)",
            ours.cost.wall.as_secs_f64() / peer.cost.wall.as_secs_f64(),
        );
    }
    if let (Some(ours), Some(pair)) = (
        rows.iter().find(|r| r.tool.ends_with(".sd7")),
        rows.iter()
            .find(|r| r.tool.starts_with("peer mapcompile +")),
    ) {
        println!(
            "groundwork -> .sd7 takes {:.2}x the wall time of the peer's mapcompile + 7-Zip -mx=1 (target: 0.50x at most), {:+.3} dB PSNR",
            ours.cost.wall.as_secs_f64() / pair.cost.wall.as_secs_f64(),
            ours.psnr.unwrap_or(0.0) - pair.psnr.unwrap_or(0.0)
        );
        if let Some(same) = rows
            .iter()
            .find(|r| r.tool.ends_with("of groundwork's .sdd"))
        {
            println!(
                "our .sd7 is {:.3} MB; 7-Zip -mx=1 packs the same files into {:.3} MB ({:+.2}%), the peer's into {:.3} MB",
                ours.archive_bytes.unwrap_or(0) as f64 / 1e6,
                same.archive_bytes.unwrap_or(0) as f64 / 1e6,
                (ours.archive_bytes.unwrap_or(0) as f64 / same.archive_bytes.unwrap_or(1) as f64
                    - 1.0)
                    * 100.0,
                pair.archive_bytes.unwrap_or(0) as f64 / 1e6,
            );
        }
    }
    println!("\ndecompiling groundwork's .sdd (the same .smf and .smt):");
    for (tool, cost) in &decompile {
        println!(
            "{tool:<44} {:>6.2} s wall {:>6.2} s cpu{}",
            cost.wall.as_secs_f64(),
            cost.cpu.as_secs_f64(),
            if cost.ok { "" } else { "  (failed)" }
        );
    }
    if let (Some(ours), Some(theirs)) = (decompile.first(), decompile.get(1)) {
        println!(
            "groundwork decompile takes {:.2}x the wall time of {} (target: 0.50x at most)",
            ours.1.wall.as_secs_f64() / theirs.1.wall.as_secs_f64(),
            theirs.0
        );
    }
    println!("\nthe edit-test loop (the same run, the same map):");
    for (what, ratio, target) in incremental {
        println!("{what}: {:.2}x (target: {target:.2}x at most)", ratio);
    }
    layered_rows(gw, dir.path());
}

/// The map Groundwork makes: `groundwork new` 16x16 (continental, 4 players, rotate-4, a sea),
/// its generated texture layers and one more with a painted mask, compiled to `.sd7` through
/// the CLI: cold without the cache, cold into an empty cache, again with nothing changed, after
/// a raise stroke of radius 300 elmos, after a mask paint; each edited map's archive is checked
/// against a compile without the cache, byte for byte.
fn layered_rows(gw: &str, dir: &Path) {
    use groundwork::edit::new_map::{NewMap, new_map_generated};
    use groundwork::map::recipe::{Preset, Recipe};
    use groundwork::map::{Grid, SymmetryMode};
    let project = dir.join("layered");
    let cache_dir = dir.join("layered-cache");
    let _ = std::fs::remove_dir_all(&project);
    let _ = std::fs::remove_dir_all(&cache_dir);
    let spec = NewMap {
        width_units: 16,
        depth_units: 16,
        players: 4,
        symmetry: SymmetryMode::Rotate(4),
        sea_level_elmos: Some(60.0),
        recipe: Some(Recipe::preset(Preset::Continental, 7)),
        ..NewMap::default()
    };
    let t = Instant::now();
    let (mut map, _) = new_map_generated(&spec).expect("the generator");
    let made_s = t.elapsed().as_secs_f64();
    // one more layer, painted by a mask, over the generated ones
    let mut mud = map.texture_layers[0].clone();
    mud.name = "Mud masked".into();
    // one mask pixel per 16 elmos
    let (mw, mh) = (16 * 32, 16 * 32);
    mud.mask = Some(Grid::filled(mw, mh, 0));
    map.texture_layers.push(mud);
    groundwork::formats::project::save_project(&map, &project).expect("save the project");
    let layers = map.texture_layers.len();
    let compile = |out: &Path, cached: bool| -> (f64, String) {
        let mut cmd = Command::new(gw);
        cmd.arg("compile")
            .arg(&project)
            .arg("-o")
            .arg(out)
            .arg("--timings");
        cmd.env("GROUNDWORK_CACHE_DIR", &cache_dir);
        if !cached {
            cmd.arg("--no-cache");
        }
        let t = Instant::now();
        let o = cmd.output().expect("run groundwork");
        let wall = t.elapsed().as_secs_f64();
        assert!(
            o.status.success(),
            "groundwork compile: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text =
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
        let device = text
            .lines()
            .find(|l| {
                l.contains("bak") && (l.contains("CPU") || l.contains("GPU") || l.contains("on "))
            })
            .unwrap_or("")
            .trim()
            .to_string();
        (wall, device)
    };
    let out = dir.join("layered.sd7");
    let cold_out = dir.join("layered-cold.sd7");
    let (no_cache, device) = compile(&cold_out, false);
    let (cold, _) = compile(&out, true);
    let (unchanged, _) = compile(&out, true);
    same_archive(&out, &cold_out).expect("a recompile with nothing changed is the cold bytes");
    // a raise stroke
    let ops = dir.join("layered-stroke.toml");
    std::fs::write(
        &ops,
        "[[op]]\ntool = \"raise\"\npath = [[3000.0, 2500.0]]\nradius_elmos = 300.0\nstrength = 0.8\n",
    )
    .unwrap();
    let edited = Command::new(gw)
        .arg("edit")
        .arg(&project)
        .arg("--ops")
        .arg(&ops)
        .arg("--cpu")
        .output()
        .expect("run groundwork edit");
    assert!(
        edited.status.success(),
        "{}",
        String::from_utf8_lossy(&edited.stderr)
    );
    let (stroke, _) = compile(&out, true);
    compile(&cold_out, false);
    same_archive(&out, &cold_out).expect("after a stroke: the cold bytes");
    // a mask paint: 64 x 64 mask pixels (1024 x 1024 elmos) of the masked layer painted in
    let mut map = groundwork::formats::open_map(&project)
        .expect("the project")
        .map;
    let last = map.texture_layers.len() - 1;
    let mask = map.texture_layers[last].mask.as_mut().expect("the mask");
    for z in 150..214 {
        for x in 300..364 {
            mask.set(x, z, 255);
        }
    }
    groundwork::formats::project::save_project(&map, &project).expect("save the project");
    let (painted, _) = compile(&out, true);
    compile(&cold_out, false);
    same_archive(&out, &cold_out).expect("after a mask paint: the cold bytes");
    println!(
        "\nthe generated layered map: 16x16 continental, {layers} texture layers (generated in {made_s:.1} s), to .sd7; {device}"
    );
    println!();
    println!("| compile | wall s | of the cold compile |");
    println!("|---|---|---|");
    println!("| cold, --no-cache | {no_cache:.2} | |");
    println!("| cold, into an empty cache | {cold:.2} | 1.00 |");
    for (what, s) in [
        ("nothing changed", unchanged),
        ("after a raise stroke (radius 300)", stroke),
        ("after a mask paint (64 x 64 mask pixels)", painted),
    ] {
        println!("| {what} | {s:.2} | {:.2} |", s / cold);
    }
    println!("(each edited map's archive is byte for byte a compile without the cache)");
}

/// `groundwork decompile` of the cold `.sdd`, then the peer's and Debian's `mapdecompile` on
/// its `.smf` and `.smt`: (tool, cost) rows, ours first.
fn decompile_rows(gw: &str, dir: &Path, peer_dir: &Path) -> Vec<(String, Cost)> {
    let sdd = dir.join("out.sdd");
    let maps = sdd.join("maps");
    let smf = std::fs::read_dir(&maps)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.ends_with(".smf"))
        .expect("the .sdd holds a .smf");
    let mut rows = Vec::new();
    let out = dir.join("decompiled");
    let cost = measure_median(
        || remove(&out),
        || {
            let mut cmd = Command::new(gw);
            cmd.arg("decompile").arg(&sdd).arg("-o").arg(&out);
            cmd
        },
    );
    assert!(cost.ok, "groundwork decompile failed");
    rows.push(("groundwork decompile .sdd -> project".to_string(), cost));
    for (label, bin) in [
        ("peer mapdecompile", peer_dir.join("mapdecompile")),
        ("Debian mapdecompile", "/usr/games/mapdecompile".into()),
    ] {
        if !bin.is_file() {
            eprintln!("{label} not found ({}): skipped", bin.display());
            continue;
        }
        // a fresh copy of the map's files for each run, so the images land beside them and
        // not in the .sdd, and no run finds the last one's images
        let work = dir.join(label.replace(' ', "-"));
        let cost = measure_median(
            || {
                remove(&work);
                std::fs::create_dir_all(&work).unwrap();
                for e in std::fs::read_dir(&maps).unwrap().flatten() {
                    std::fs::copy(e.path(), work.join(e.file_name())).unwrap();
                }
            },
            || {
                let mut cmd = Command::new(&bin);
                cmd.current_dir(&work)
                    .arg("-directory")
                    .arg(".")
                    .arg("-mapfile")
                    .arg(&smf);
                cmd
            },
        );
        rows.push((format!("{label} .smf -> images"), cost));
    }
    rows
}

/// Identical files, or which differs.
fn same_archive(a: &Path, b: &Path) -> Result<(), String> {
    let read = |p: &Path| -> Vec<(String, Vec<u8>)> {
        if p.is_dir() {
            let mut v: Vec<(String, Vec<u8>)> =
                groundwork::formats::archive::read_folder(p, "bench")
                    .unwrap()
                    .into_iter()
                    .map(|f| (f.path.clone(), f.bytes().unwrap().into_owned()))
                    .collect();
            v.sort();
            v
        } else {
            vec![(String::new(), std::fs::read(p).unwrap())]
        }
    };
    let (ra, rb) = (read(a), read(b));
    if ra.len() != rb.len() {
        return Err(format!(
            "{} and {} hold different files",
            a.display(),
            b.display()
        ));
    }
    for ((pa, ba), (pb, bb)) in ra.iter().zip(&rb) {
        if pa != pb || ba != bb {
            return Err(format!(
                "{pa} differs between {} and {}",
                a.display(),
                b.display()
            ));
        }
    }
    Ok(())
}

/// The edit-test loop, measured: (1) `groundwork compile` after a 512 x 512 texel change to the
/// texture, through the cache on disk the first compile filled, against a cold compile
/// (`--no-cache`) of the changed project; (2) in one process, as the editor exports: a cold
/// compile, one raise stroke of radius 300 elmos, and the re-compile through the cache held
/// in memory. Every re-compile is checked byte for byte against a cold compile. Returns
/// (what, ratio, target) lines.
fn incremental_rows(gw: &str, dir: &Path, project: &Path, side: usize) -> Vec<(String, f64, f64)> {
    use groundwork::compile::{CompileCache, CompileOptions, Progress, compile_map};
    use std::sync::Arc;
    let mut lines = Vec::new();
    let cache_dir = dir.join("cache");
    let cli = |out: &Path, cached: bool| {
        let mut cmd = Command::new(gw);
        cmd.arg("compile").arg(project).arg("-o").arg(out).arg("-q");
        cmd.env("GROUNDWORK_CACHE_DIR", &cache_dir);
        if !cached {
            cmd.arg("--no-cache");
        }
        let cost = measure(&mut cmd);
        assert!(cost.ok, "groundwork compile {} failed", out.display());
        cost
    };
    for ext in ["sdd", "sd7"] {
        let _ = std::fs::remove_dir_all(&cache_dir);
        let out = dir.join(format!("loop.{ext}"));
        let first = cli(&out, true);
        // 512 x 512 texels of the texture change
        let bmp = project.join("texture.bmp");
        let mut img = image::open(&bmp).unwrap().to_rgb8();
        for y in 1024..1536u32 {
            for x in 2048..2560u32 {
                let p = img.get_pixel_mut(x.min(side as u32 - 1), y.min(side as u32 - 1));
                p.0[0] = p.0[0].wrapping_add(33);
            }
        }
        img.save(&bmp).unwrap();
        let again = cli(&out, true);
        let cold_out = dir.join(format!("loop-cold.{ext}"));
        let cold = cli(&cold_out, false);
        if let Err(e) = same_archive(&out, &cold_out) {
            panic!("the re-compile through the cache is not the cold compile's bytes: {e}");
        }
        println!(
            "groundwork compile -> .{ext}: first (filling the cache) {:.2} s, after a 512x512 texel change {:.2} s, cold {:.2} s; identical bytes",
            first.wall.as_secs_f64(),
            again.wall.as_secs_f64(),
            cold.wall.as_secs_f64()
        );
        lines.push((
            format!("groundwork compile -> .{ext} after a 512x512 texel change / cold"),
            again.wall.as_secs_f64() / cold.wall.as_secs_f64(),
            0.55,
        ));
    }
    // the editor's export, in one process
    let loaded = groundwork::formats::open_map(project).unwrap();
    for ext in ["sdd", "sd7"] {
        let mut map = loaded.map.clone();
        let cache = Arc::new(CompileCache::memory_only());
        let with = CompileOptions {
            cache: Some(cache.clone()),
            ..Default::default()
        };
        let out = dir.join(format!("editor.{ext}"));
        let t = Instant::now();
        compile_map(&map, &out, &with, &Progress::none()).unwrap();
        let cold_first = t.elapsed();
        let ops = groundwork::edit::ops::parse(
            "[[op]]\ntool = \"raise\"\npath = [[2000.0, 3000.0]]\nradius_elmos = 300.0\nstrength = 0.8\n",
            &map,
            &|_| Err("no images".into()),
        )
        .unwrap();
        let mut session = groundwork::edit::Session::new(map);
        groundwork::edit::ops::run(
            &mut session,
            &ops,
            groundwork::edit::ops::OutOfRange::Widen,
            None,
        )
        .unwrap();
        map = session.map().clone();
        let t = Instant::now();
        let re_export = compile_map(&map, &out, &with, &Progress::none()).unwrap();
        let again = t.elapsed();
        let cold_out = dir.join(format!("editor-cold.{ext}"));
        let t = Instant::now();
        compile_map(
            &map,
            &cold_out,
            &CompileOptions::default(),
            &Progress::none(),
        )
        .unwrap();
        let cold = t.elapsed();
        if let Err(e) = same_archive(&out, &cold_out) {
            panic!("the editor's re-export is not the cold compile's bytes: {e}");
        }
        let s = cache.stats();
        println!(
            "in-process -> .{ext}: cold {:.2} s, after a raise stroke (radius 300 elmos) {:.2} s ({} tiles encoded, {} .smt blocks and {} packs reused, minimap {}), cold again {:.2} s; identical bytes",
            cold_first.as_secs_f64(),
            again.as_secs_f64(),
            s.tiles_encoded,
            s.tile_blocks_reused,
            s.packs_reused,
            if s.minimap_reused { "reused" } else { "made" },
            cold.as_secs_f64()
        );
        let stages: Vec<String> = re_export
            .stage_times
            .iter()
            .map(|(stage, t)| format!("{} {:.3} s", stage.label(), t.as_secs_f64()))
            .collect();
        println!("  the re-export's stages: {}", stages.join(", "));
        lines.push((
            format!("editor re-export -> .{ext} after a raise stroke / cold"),
            again.as_secs_f64() / cold_first.as_secs_f64(),
            0.3,
        ));
    }
    lines
}
