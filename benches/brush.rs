//! Every tool of the registry, timed as the editor runs it: one dab of radius 512 elmos, and a
//! 200-dab stroke, on 16x16 and 32x32 maps, on the GPU beside the CPU twin, and the stroke's end
//! (the read-back of its touched tiles, pasted into the document as one undo step).
//!
//! `cargo bench --bench brush [-- --sizes 16,32 --cpu-dabs N]`. GPU columns: the kernels' own
//! time from timestamp queries where the device has them, and the wall time of submitting and
//! waiting. The CPU twin's 200-dab stroke is timed over its first `--cpu-dabs` dabs (default
//! 20) and scaled to 200, marked `~`, because the erosions take seconds a dab there.

use std::sync::Arc;
use std::time::Instant;

use groundwork::edit::brush::MaskImage;
use groundwork::edit::procedural::relief_map;
use groundwork::edit::session::reborrow;
use groundwork::edit::tools::{ParamValue, StrokeStyle, TOOLS, Tool, ToolSettings};
use groundwork::edit::{GpuLayers, Session};
use groundwork::gpu::{BrushKernels, GpuContext, MapScene, Renderer, SceneLayers};
use groundwork::map::{Grid, GroundTexture, Map, MapSize};

struct Args {
    sizes: Vec<u32>,
    cpu_dabs: usize,
}

fn args() -> Args {
    let mut a = Args {
        sizes: vec![16, 32],
        cpu_dabs: 20,
    };
    let argv: Vec<String> = std::env::args().collect();
    let mut i = 1;
    while i < argv.len() {
        match argv[i].as_str() {
            "--sizes" => {
                if let Some(v) = argv.get(i + 1) {
                    a.sizes = v.split(',').filter_map(|s| s.trim().parse().ok()).collect();
                }
                i += 1;
            }
            "--cpu-dabs" => {
                a.cpu_dabs = argv
                    .get(i + 1)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(a.cpu_dabs)
                    .clamp(1, 200);
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    a
}

const RADIUS_ELMOS: f32 = 512.0;

fn settings(tool: &dyn Tool) -> ToolSettings {
    let mut s = ToolSettings::defaults(tool);
    s.brush.radius_elmos = RADIUS_ELMOS;
    let n = 257usize;
    let c = (n - 1) as f32 / 2.0;
    let cone: Vec<f32> = (0..n * n)
        .map(|i| {
            let (x, z) = ((i % n) as f32 - c, (i / n) as f32 - c);
            (1.0 - (x * x + z * z).sqrt() / c).max(0.0)
        })
        .collect();
    for (_, v) in &mut s.values {
        if let ParamValue::Image(img) = v {
            *img = Some(MaskImage {
                name: "cone".into(),
                values: Arc::new(Grid::from_vec(n, n, cone.clone()).unwrap()),
            });
        }
    }
    s
}

/// A zigzag over the map along which the brush's spacing lays exactly `dabs` dabs.
fn stroke_path(map: &Map, spacing: f32, dabs: usize) -> Vec<[f32; 2]> {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let (x0, x1) = (0.1 * w, 0.9 * w);
    let mut rows = Vec::new();
    let mut z = 0.15 * d;
    while z < 0.9 * d {
        rows.push(z);
        z += 0.12 * d;
    }
    let mut pts = vec![[x0, rows[0]]];
    for (k, &z) in rows.iter().enumerate() {
        let (a, b) = if k % 2 == 0 { (x0, x1) } else { (x1, x0) };
        if k > 0 {
            pts.push([a, z]);
        }
        pts.push([b, z]);
    }
    // cut the path where the last dab falls
    let want = spacing * (dabs - 1) as f32 + 0.01;
    let mut out = vec![pts[0]];
    let mut left = want;
    for pair in pts.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        if len >= left {
            let t = left / len;
            out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
            return out;
        }
        out.push(b);
        left -= len;
    }
    out
}

/// Runs one stroke along `path`; returns (wall ms until the GPU is done, kernel ms if timed,
/// end ms, touched tiles, dabs).
fn timed_stroke(
    session: &mut Session,
    tool: &'static dyn Tool,
    s: &ToolSettings,
    path: &[[f32; 2]],
    gpu: Option<(&GpuContext, &BrushKernels, &mut dyn GpuLayers)>,
) -> (f64, Option<f64>, f64, usize, usize) {
    let (ctx, kernels, mut layers) = match gpu {
        Some((c, k, l)) => (Some(c), Some(k), Some(l)),
        None => (None, None, None),
    };
    let mut gpu_ms: Option<f64> = None;
    let mut add = |k: Option<&BrushKernels>| {
        if let Some(ms) = k.and_then(|k| k.take_gpu_ms()) {
            *gpu_ms.get_or_insert(0.0) += ms;
        }
    };
    let as_gpu = reborrow;
    let t0 = Instant::now();
    session
        .begin_stroke(tool, s.clone(), false, path[0], as_gpu(&mut layers))
        .unwrap();
    add(kernels);
    for &p in &path[1..] {
        match tool.style() {
            StrokeStyle::Click => session.stroke_dab(p, as_gpu(&mut layers)).unwrap(),
            _ => session.stroke_to(p, 0.0, as_gpu(&mut layers)).unwrap(),
        }
        add(kernels);
    }
    if let Some(c) = ctx {
        c.wait();
    }
    let wall = t0.elapsed().as_secs_f64() * 1e3;
    let t1 = Instant::now();
    let end = *path.last().unwrap();
    let r = session
        .end_stroke(end, as_gpu(&mut layers))
        .unwrap()
        .expect("the stroke changed something");
    let end_ms = t1.elapsed().as_secs_f64() * 1e3;
    // a segment tool runs its kernel when the stroke ends
    add(kernels);
    session.undo(as_gpu(&mut layers));
    (wall, gpu_ms, end_ms, r.tiles, r.dabs)
}

fn ms(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into())
}

fn main() {
    let a = args();
    let ctx = match GpuContext::headless() {
        Ok(c) if c.compute => c,
        Ok(c) => {
            eprintln!(
                "{} has no compute: nothing to time on the GPU",
                c.describe()
            );
            return;
        }
        Err(e) => {
            eprintln!("no GPU adapter: {e}");
            return;
        }
    };
    let renderer = Renderer::new(&ctx);
    let mut kernels = BrushKernels::new(&ctx).expect("compute");
    let timed = kernels.enable_timing(&ctx);
    println!("GPU: {}", ctx.describe());
    println!(
        "CPU: {} threads; kernel times from {}",
        rayon::current_num_threads(),
        if timed {
            "GPU timestamp queries"
        } else {
            "(no timestamp queries here: wall times only)"
        }
    );
    for &size in &a.sizes {
        let t = Instant::now();
        let map = relief_map(MapSize::new(size, size).unwrap(), 11, "brush bench");
        let mut scene = MapScene::new(&ctx, &renderer.layouts, &map, &mut |_, _| {}).unwrap();
        // the CPU twin's document: the same layers, without the 1 GiB ground texture
        let cpu_map = Map {
            texture: GroundTexture::filled(1, 1, [0; 4]),
            heights: map.heights.clone(),
            metal: map.metal.clone(),
            types: map.types.clone(),
            grass: map.grass.clone(),
            features: Vec::new(),
            teams: Vec::new(),
            start_boxes: Vec::new(),
            bundled_files: Vec::new(),
            settings: map.settings.clone(),
            size: map.size,
            symmetry: map.symmetry,
            water_presets: Vec::new(),
            texture_layers: Vec::new(),
            texture_ao: None,
            generator: None,
        };
        let (w, h) = map.heights.dims();
        println!(
            "\n{size}x{size} map ({w}x{h} heights, made and uploaded in {:.1} s); radius {RADIUS_ELMOS} elmos",
            t.elapsed().as_secs_f64()
        );
        println!(
            "| tool | dab GPU kernel ms | dab GPU wall ms | dab CPU ms | 200 dabs GPU kernels ms | 200 dabs GPU wall ms | 200 dabs CPU ms | stroke end GPU ms (read-back) | tiles |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
        let mut gpu_session = Session::new(map);
        let mut cpu_session = Session::new(cpu_map);
        for &tool in TOOLS {
            let s = settings(tool);
            let centre = [0.5 * size as f32 * 512.0, 0.5 * size as f32 * 512.0];
            let one: Vec<[f32; 2]> = match tool.style() {
                StrokeStyle::Segment => vec![centre, [centre[0] + 400.0, centre[1] + 300.0]],
                _ => vec![centre],
            };
            // a segment tool's stroke is its one shape; the others lay 200 dabs on a zigzag
            let path = match tool.style() {
                StrokeStyle::Segment => one.clone(),
                _ => stroke_path(gpu_session.map(), s.brush.spacing_elmos(), 200),
            };
            let click_points = |p: &[[f32; 2]], n: usize| -> Vec<[f32; 2]> {
                // a click tool lays one dab per point: 200 points spaced along the path
                let mut sp =
                    groundwork::edit::brush::PathSpacer::new(p[0], s.brush.spacing_elmos());
                let mut out = vec![p[0]];
                for &q in &p[1..] {
                    out.extend(sp.advance(q, 0.0));
                }
                out.truncate(n);
                out
            };
            let path = if tool.style() == StrokeStyle::Click {
                click_points(&path, 200)
            } else {
                path
            };
            let mut layers = SceneLayers {
                ctx: &ctx,
                kernels: Some(&kernels),
                scene: &mut scene,
            };
            let (dab_wall, dab_gpu, dab_end, _, _) = timed_stroke(
                &mut gpu_session,
                tool,
                &s,
                &one,
                Some((&ctx, &kernels, &mut layers)),
            );
            let (cpu_dab, _, cpu_dab_end, _, _) =
                timed_stroke(&mut cpu_session, tool, &s, &one, None);
            // a segment tool does its work at the end
            let (dab_wall, cpu_dab) = if tool.style() == StrokeStyle::Segment {
                (dab_wall + dab_end, cpu_dab + cpu_dab_end)
            } else {
                (dab_wall, cpu_dab)
            };
            let (stroke_wall, stroke_gpu, end_ms, tiles, dabs) = timed_stroke(
                &mut gpu_session,
                tool,
                &s,
                &path,
                Some((&ctx, &kernels, &mut layers)),
            );
            // the CPU twin over the first dabs of the same stroke, scaled to the whole
            if tool.style() == StrokeStyle::Segment {
                println!(
                    "| {} | {} | {:.3} | {:.3} | (one shape) | | | {end_ms:.2} | {tiles} |",
                    tool.name(),
                    ms(dab_gpu),
                    dab_wall,
                    cpu_dab,
                );
                continue;
            }
            let (cpu_stroke, cpu_note) = {
                let part = if tool.style() == StrokeStyle::Click {
                    path[..a.cpu_dabs.min(path.len())].to_vec()
                } else {
                    stroke_path(cpu_session.map(), s.brush.spacing_elmos(), a.cpu_dabs)
                };
                let (t, _, _, _, n) = timed_stroke(&mut cpu_session, tool, &s, &part, None);
                let scaled = t * dabs as f64 / n.max(1) as f64;
                (scaled, if n < dabs { "~" } else { "" })
            };
            println!(
                "| {} | {} | {:.3} | {:.3} | {} | {:.1} | {cpu_note}{:.0} | {:.2} | {tiles} |",
                tool.name(),
                ms(dab_gpu),
                dab_wall,
                cpu_dab,
                ms(stroke_gpu),
                stroke_wall,
                cpu_stroke,
                end_ms,
            );
            if dabs != 200 {
                println!("  ({} laid {dabs} dabs)", tool.name());
            }
        }
    }
}
