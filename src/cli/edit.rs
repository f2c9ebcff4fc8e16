//! `groundwork edit PROJECT --ops OPS.toml`: runs scripted operations through the editor's
//! tools and kernels (on the GPU when there is one, the CPU twins with `--cpu` or without an
//! adapter) and writes the project, in place or to `-o`. Nothing is written when any op fails.

use std::path::{Path, PathBuf};

use crate::edit::brush::MaskImage;
use crate::edit::ops::{self, OutOfRange};
use crate::edit::{GpuLayers, Session};
use crate::gpu::{BrushKernels, GpuContext, MapScene, Renderer, SceneLayers};

/// Arguments of `groundwork edit`.
#[derive(clap::Args, Debug)]
pub struct EditArgs {
    /// The project folder to edit.
    pub project: PathBuf,
    /// The operations, a TOML file: `symmetry = "..."` and `[[op]]` tables.
    #[arg(long)]
    pub ops: PathBuf,
    /// Write the edited project here instead of in place.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Run the tools' CPU twins, not the GPU kernels.
    #[arg(long)]
    pub cpu: bool,
    /// When an op leaves the height range, widen the range (the words are re-encoded).
    #[arg(long, conflicts_with = "clip")]
    pub widen_range: bool,
    /// When an op leaves the height range, clip the heights into it.
    #[arg(long)]
    pub clip: bool,
}

fn load_image(base: &Path, name: &str) -> Result<MaskImage, String> {
    let path = base.join(name);
    let grid = crate::formats::project::read_grey_unit(&path).map_err(|e| e.to_string())?;
    Ok(MaskImage {
        name: name.to_string(),
        values: std::sync::Arc::new(grid),
    })
}

/// Runs the command; the error is one line for the user.
pub fn run(args: EditArgs) -> Result<(), String> {
    if !crate::formats::is_project(&args.project) {
        return Err(format!(
            "{} is not a project folder (no map.toml); `groundwork decompile` makes one from a map",
            args.project.display()
        ));
    }
    let loaded = crate::formats::load_project(&args.project).map_err(|e| e.to_string())?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let text = std::fs::read_to_string(&args.ops)
        .map_err(|e| format!("cannot read {}: {e}", args.ops.display()))?;
    let base = args.ops.parent().map(Path::to_path_buf).unwrap_or_default();
    let file = ops::parse(&text, &loaded.map, &|name| load_image(&base, name))
        .map_err(|e| format!("{}: {e}", args.ops.display()))?;
    let policy = if args.widen_range {
        OutOfRange::Widen
    } else if args.clip {
        OutOfRange::Clip
    } else {
        OutOfRange::Refuse
    };
    let mut session = Session::new(loaded.map);
    let t0 = std::time::Instant::now();
    let gpu = if args.cpu {
        None
    } else {
        match GpuContext::headless() {
            Ok(ctx) if ctx.compute => Some(ctx),
            Ok(ctx) => {
                eprintln!("{} runs no compute kernels: using the CPU", ctx.describe());
                None
            }
            Err(e) => {
                eprintln!("no GPU ({e}): using the CPU");
                None
            }
        }
    };
    let reports = match &gpu {
        Some(ctx) => {
            eprintln!("editing on {}", ctx.describe());
            let renderer = Renderer::new(ctx);
            let kernels = BrushKernels::new(ctx).ok_or("the GPU's kernels did not build")?;
            let mut scene = MapScene::new(ctx, &renderer.layouts, session.map(), &mut |_, _| {})
                .map_err(|e| e.to_string())?;
            let mut layers = SceneLayers {
                ctx,
                kernels: Some(&kernels),
                scene: &mut scene,
            };
            ops::run(
                &mut session,
                &file,
                policy,
                Some(&mut layers as &mut dyn GpuLayers),
            )?
        }
        None => {
            eprintln!("editing on the CPU");
            ops::run(&mut session, &file, policy, None)?
        }
    };
    for (i, r) in reports.iter().enumerate() {
        for w in r.iter().flat_map(|r| &r.warnings) {
            eprintln!("warning: op {}: {w}", i + 1);
        }
    }
    let dabs: usize = reports.iter().flatten().map(|r| r.dabs).sum();
    let out = args.output.as_ref().unwrap_or(&args.project);
    crate::formats::save_project(session.map(), out).map_err(|e| e.to_string())?;
    eprintln!(
        "{} ops, {dabs} dabs in {:.2} s; wrote {}",
        file.ops.len(),
        t0.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}
