//! A soak: 10,000 random steps over every tool of the registry, undo and redo interleaved,
//! written as ops files (ten of 1,000 steps, each under another symmetry mode) and run through
//! the headless runner (`edit::ops`, what `groundwork edit --ops` runs). Then the document is
//! compared, layer by layer and byte for byte, with a CPU replay of only the strokes that
//! survive the undos: nothing lost, no drift. The history's length is checked against the
//! model after every step.

use std::fmt::Write as _;

use groundwork::edit::Session;
use groundwork::edit::brush::{Falloff, MaskImage};
use groundwork::edit::ops::{self, Op, Step};
use groundwork::edit::tools::{StrokeStyle, TOOLS};
use groundwork::map::{Map, MapSize, SymmetryMode};

mod tool_support;
use tool_support::{Lcg, cone, tool_keys, with_paint_layer};

const STEPS: usize = 10_000;
const FILES: usize = 10;

/// The stamp's image (the ops file names it; the loader hands it over).
fn cone_image(_name: &str) -> Result<MaskImage, String> {
    Ok(cone(33))
}

/// One ops file of `n` random steps under `mode`.
fn ops_file(rng: &mut Lcg, mode: SymmetryMode, n: usize) -> String {
    let mut text = format!("symmetry = \"{mode}\"\n");
    let mut written = 0;
    while written < n {
        // a burst of undos, some of them redone, now and then
        if rng.unit() < 0.2 {
            let back = 1 + rng.below(6);
            let forward = rng.below(back + 1);
            for k in 0..back + forward {
                if written == n {
                    break;
                }
                let what = if k < back { "undo" } else { "redo" };
                let _ = write!(text, "\n[[op]]\ntool = \"{what}\"\n");
                written += 1;
            }
            continue;
        }
        written += 1;
        let tool = TOOLS[rng.below(TOOLS.len())];
        let points = match tool.style() {
            StrokeStyle::Segment => 2,
            StrokeStyle::Click => 1 + rng.below(3),
            StrokeStyle::Spaced => 2 + rng.below(3),
        };
        let path: Vec<String> = (0..points)
            .map(|_| {
                format!(
                    "[{:.1}, {:.1}]",
                    40.0 + rng.unit() * 944.0,
                    40.0 + rng.unit() * 944.0
                )
            })
            .collect();
        let _ = write!(
            text,
            "\n[[op]]\ntool = \"{}\"\npath = [{}]\nradius_elmos = {:.1}\nstrength = {:.3}\nfalloff = \"{}\"\ninvert = {}\n",
            tool.name(),
            path.join(", "),
            16.0 + rng.unit() * 150.0,
            0.1 + rng.unit() * 0.9,
            Falloff::ALL[rng.below(4)].name(),
            rng.unit() < 0.2,
        );
        text.push_str(&tool_keys(tool, "cone.png"));
    }
    text
}

/// Every layer the tools write, for byte-for-byte comparison.
fn assert_same(a: &Map, b: &Map) {
    assert_eq!(
        a.height_words(),
        b.height_words(),
        "heights (as the words saved)"
    );
    assert!(a.heights.data() == b.heights.data(), "heights (as floats)");
    assert_eq!(a.metal, b.metal, "metal");
    assert_eq!(a.grass, b.grass, "grass");
    assert_eq!(a.types, b.types, "terrain types");
    // a mask painted and undone is all neutral again, as good as none
    let neutral = |m: &Map| -> Vec<(String, Vec<u8>)> {
        m.texture_layers
            .iter()
            .map(|l| {
                let mask = match &l.mask {
                    Some(g) => g.data().to_vec(),
                    None => {
                        let (w, h) = m.metal.dims();
                        vec![groundwork::map::ground_layers::MASK_NEUTRAL; w * h]
                    }
                };
                (l.name.clone(), mask)
            })
            .collect()
    };
    assert!(neutral(a) == neutral(b), "texture layers' painted masks");
}

#[test]
fn ten_thousand_random_steps_with_undo_and_redo_match_a_cpu_replay() {
    let start = with_paint_layer(groundwork::edit::procedural::relief_map(
        MapSize::new(2, 2).unwrap(),
        9,
        "Soak",
    ));
    let mut rng = Lcg(2026);
    let mut session = Session::new(start.clone());
    // the model: the strokes the history holds, and those undone and not yet redone
    let mut done: Vec<(SymmetryMode, Op)> = Vec::new();
    let mut undone: Vec<(SymmetryMode, Op)> = Vec::new();
    let (mut strokes, mut undos, mut redos, mut unchanged) = (0, 0, 0, 0);
    for f in 0..FILES {
        let mode = SymmetryMode::ALL[f % SymmetryMode::ALL.len()];
        let text = ops_file(&mut rng, mode, STEPS / FILES);
        let file = ops::parse(&text, session.map(), &cone_image).expect("the soak's ops parse");
        assert_eq!(file.ops.len(), STEPS / FILES);
        // as ops::run does: the file's symmetry, then each step
        session.map_mut().symmetry = file.symmetry.unwrap();
        for (i, step) in file.ops.iter().enumerate() {
            let before = session.history().undo_len();
            ops::run_step(&mut session, step, None)
                .unwrap_or_else(|e| panic!("file {f}, op {}: {e}", i + 1));
            let after = session.history().undo_len();
            match step {
                Step::Stroke(op) => {
                    strokes += 1;
                    if after == before + 1 {
                        done.push((mode, op.clone()));
                        undone.clear();
                    } else {
                        assert_eq!(after, before, "a stroke adds one step or none");
                        unchanged += 1;
                    }
                }
                Step::Undo => {
                    if let Some(s) = done.pop() {
                        undos += 1;
                        undone.push(s);
                    }
                }
                Step::Redo => {
                    if let Some(s) = undone.pop() {
                        redos += 1;
                        done.push(s);
                    }
                }
                Step::Start { .. }
                | Step::StartRemove { .. }
                | Step::Feature { .. }
                | Step::FeatureScatter { .. }
                | Step::FeatureErase { .. } => {
                    unreachable!("the soak's ops files hold strokes, undo and redo only")
                }
            }
            assert_eq!(
                session.history().undo_len(),
                done.len(),
                "file {f}, op {}: undo steps",
                i + 1
            );
            assert_eq!(
                session.history().redo_len(),
                undone.len(),
                "file {f}, op {}: redo steps",
                i + 1
            );
        }
    }
    eprintln!(
        "{STEPS} steps: {strokes} strokes ({unchanged} changed nothing), {undos} undos, {redos} redos; {} strokes stand, history {} MiB",
        done.len(),
        session.history().bytes() >> 20
    );
    assert!(
        undos > 1000 && redos > 500 && done.len() > 1000,
        "the soak exercised too little"
    );

    // the replay: only the strokes that stand, in order, on a fresh session
    let mut replay = Session::new(start.clone());
    for (mode, op) in &done {
        replay.map_mut().symmetry = *mode;
        ops::run_op(&mut replay, op, None).unwrap();
    }
    assert_same(session.map(), replay.map());

    // and everything undone gives the start back, every byte
    while session.undo(None).is_some() {}
    assert_same(session.map(), &start);
}
