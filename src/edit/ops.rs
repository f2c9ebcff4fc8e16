//! Scripted edits: an ops file (TOML) is a symmetry mode and a list of operations, each a tool
//! from the registry with its settings and a path in elmos, run through the same session,
//! strokes and kernels as the editor. `groundwork edit --ops` reads one; tests drive every tool
//! with them.
//!
//! ```toml
//! symmetry = "rotate-2"
//!
//! [[op]]
//! tool = "raise"
//! path = [[1024.0, 1024.0], [2048.0, 1500.0]]
//! radius_elmos = 300.0
//! strength = 0.5
//! falloff = "smooth"
//! ```
//!
//! Ops are counted from 1 in messages. Images (a stamp's `file`, a brush `mask`) are read by the
//! caller's loader, so this module stays free of files.

use toml::Value;

use super::brush::{BrushShape, Falloff, MaskImage};
use super::session::{GpuLayers, Session, StrokeReport, reborrow};
use super::stroke::check_on_map;
use super::tools::{self, ParamKind, ParamValue, StrokeStyle, Tool, ToolSettings};
use crate::map::{Map, SymmetryMode};

/// The keys every op takes besides its tool's own.
const COMMON_KEYS: &[&str] = &[
    "tool",
    "path",
    "radius_elmos",
    "strength",
    "falloff",
    "shape",
    "mask",
    "spacing_radii",
    "invert",
];

/// One operation: a stroke of one tool.
#[derive(Clone, Debug)]
pub struct Op {
    pub tool: &'static dyn Tool,
    pub settings: ToolSettings,
    /// Shift held: the tool's inverse.
    pub invert: bool,
    pub path: Vec<[f32; 2]>,
}

/// One step of an ops file: a stroke, or `tool = "undo"` / `tool = "redo"` (one history
/// step back or forward, as Ctrl+Z and Ctrl+Y do in the editor).
#[derive(Clone, Debug)]
pub enum Step {
    Stroke(Op),
    Undo,
    Redo,
    /// `tool = "start"`: moves team `team`'s start (and its symmetric partners) to `at`, or
    /// adds a team there when `team` is the team count. Teams count from 0.
    Start {
        team: usize,
        at: [f32; 2],
    },
    /// `tool = "start-remove"`: removes team `team`.
    StartRemove {
        team: usize,
    },
    /// `tool = "feature"`: places `name` at `at`, turned by `rotation_deg`, with its
    /// symmetric copies.
    Feature {
        name: String,
        at: [f32; 2],
        rotation_deg: f32,
    },
    /// `tool = "feature-scatter"`: scatter dabs along `path`, half a radius apart.
    FeatureScatter {
        scatter: super::features::Scatter,
        path: Vec<[f32; 2]>,
        radius_elmos: f32,
    },
    /// `tool = "feature-erase"`: erase dabs along `path`.
    FeatureErase {
        path: Vec<[f32; 2]>,
        radius_elmos: f32,
    },
}

/// A parsed ops file.
#[derive(Clone, Debug)]
pub struct OpsFile {
    pub symmetry: Option<SymmetryMode>,
    pub ops: Vec<Step>,
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Float(f) => Some(*f),
        Value::Integer(i) => Some(*i as f64),
        _ => None,
    }
}

fn key_list(tool: &dyn Tool) -> String {
    let mut keys: Vec<&str> = COMMON_KEYS.to_vec();
    keys.extend(tool.params().iter().map(|p| p.key));
    keys.join(", ")
}

/// Reads an ops file for `map`. `load_image(path)` reads a greyscale PNG named in it. Every
/// error is one line naming the op.
pub fn parse(
    text: &str,
    map: &Map,
    load_image: &dyn Fn(&str) -> Result<MaskImage, String>,
) -> Result<OpsFile, String> {
    let doc: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("the ops file is not TOML: {}", e.message()))?;
    let mut symmetry = None;
    let mut ops_value = None;
    for (k, v) in &doc {
        match k.as_str() {
            "symmetry" => {
                let s = v
                    .as_str()
                    .ok_or("symmetry must be a word, e.g. \"mirror-x\"")?;
                let mode: SymmetryMode = s.parse()?;
                mode.check_map(map.size.width_units(), map.size.height_units())?;
                symmetry = Some(mode);
            }
            "op" => ops_value = Some(v),
            other => {
                return Err(format!(
                    "unknown key \"{other}\" at the top of the ops file (symmetry, [[op]])"
                ));
            }
        }
    }
    let list = match ops_value {
        None => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        Some(_) => return Err("op must be a list of tables: [[op]]".into()),
    };
    let ops = list
        .iter()
        .enumerate()
        .map(|(i, v)| parse_step(v, map, load_image).map_err(|e| format!("op {}: {e}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(OpsFile { symmetry, ops })
}

fn parse_step(
    v: &Value,
    map: &Map,
    load_image: &dyn Fn(&str) -> Result<MaskImage, String>,
) -> Result<Step, String> {
    let t = v.as_table().ok_or("each op is a table ([[op]])")?;
    let step = match t.get("tool").and_then(Value::as_str) {
        Some("undo") => Step::Undo,
        Some("redo") => Step::Redo,
        Some(name @ ("start" | "start-remove")) => return parse_start(t, name, map),
        Some(name @ ("feature" | "feature-scatter" | "feature-erase")) => {
            return parse_feature_step(t, name, map);
        }
        _ => return parse_op(v, map, load_image).map(Step::Stroke),
    };
    if let Some(other) = t.keys().find(|k| *k != "tool") {
        return Err(format!("undo and redo take no other keys (\"{other}\")"));
    }
    Ok(step)
}

/// `start` (`team`, `path = [[x, z]]`) and `start-remove` (`team`).
fn parse_start(t: &toml::Table, name: &str, map: &Map) -> Result<Step, String> {
    let allowed: &[&str] = if name == "start" {
        &["tool", "team", "path"]
    } else {
        &["tool", "team"]
    };
    if let Some(k) = t.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(format!(
            "unknown key \"{k}\" for {name} ({})",
            allowed.join(", ")
        ));
    }
    let team = match t.get("team") {
        Some(Value::Integer(i)) if *i >= 0 => *i as usize,
        Some(_) => return Err(format!("{name}: team is a whole number from 0")),
        None => return Err(format!("{name} needs team = N (teams count from 0)")),
    };
    if name == "start-remove" {
        return Ok(Step::StartRemove { team });
    }
    let at = match t
        .get("path")
        .and_then(Value::as_array)
        .map(|a| a.as_slice())
    {
        Some([p]) => {
            let xy = p.as_array().filter(|a| a.len() == 2);
            match xy.map(|a| (number(&a[0]), number(&a[1]))) {
                Some((Some(x), Some(z))) => [x as f32, z as f32],
                _ => return Err("start: path is [[x, z]] in elmos".into()),
            }
        }
        _ => return Err("start needs path = [[x, z]] (one point, elmos)".into()),
    };
    check_on_map(map, at)?;
    Ok(Step::Start { team, at })
}

/// The keys of the feature steps.
const FEATURE_KEYS: &[&str] = &["tool", "name", "path", "rotation_deg"];
const SCATTER_KEYS: &[&str] = &[
    "tool",
    "names",
    "weights",
    "path",
    "radius_elmos",
    "density",
    "spacing_elmos",
    "seed",
    "rotation_deg",
    "slope_deg",
    "height_elmos",
    "avoid_water",
    "layer",
];
const ERASE_KEYS: &[&str] = &["tool", "path", "radius_elmos"];

fn points(value: Option<&Value>, map: &Map, what: &str) -> Result<Vec<[f32; 2]>, String> {
    let p = value.ok_or_else(|| format!("{what} needs path = [[x, z], ...] (elmos)"))?;
    parse_path(p, map)
}

fn band(t: &toml::Table, key: &str) -> Result<Option<[f32; 2]>, String> {
    let Some(v) = t.get(key) else {
        return Ok(None);
    };
    let pair: Option<Vec<f64>> = v.as_array().map(|a| a.iter().filter_map(number).collect());
    match pair.as_deref() {
        Some(&[a, b]) if a <= b => Ok(Some([a as f32, b as f32])),
        _ => Err(format!("{key} must be [min, max] with min <= max")),
    }
}

fn positive(t: &toml::Table, key: &str, default: f32, max: f32) -> Result<f32, String> {
    match t.get(key) {
        None => Ok(default),
        Some(v) => match number(v) {
            Some(n) if (0.0..=max as f64).contains(&n) => Ok(n as f32),
            _ => Err(format!("{key} must be a number from 0 to {max}")),
        },
    }
}

/// `feature`, `feature-scatter` and `feature-erase`.
fn parse_feature_step(t: &toml::Table, name: &str, map: &Map) -> Result<Step, String> {
    let allowed = match name {
        "feature" => FEATURE_KEYS,
        "feature-scatter" => SCATTER_KEYS,
        _ => ERASE_KEYS,
    };
    if let Some(k) = t.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(format!(
            "unknown key \"{k}\" for {name} ({})",
            allowed.join(", ")
        ));
    }
    let path = points(t.get("path"), map, name)?;
    let radius_elmos = || {
        let r = &crate::edit::Brush::RADIUS_RANGE_ELMOS;
        match t.get("radius_elmos") {
            None => Err(format!("{name} needs radius_elmos")),
            Some(v) => match number(v) {
                Some(n) if (*r.start() as f64..=*r.end() as f64).contains(&n) => Ok(n as f32),
                _ => Err(format!(
                    "radius_elmos must be a number from {} to {}",
                    r.start(),
                    r.end()
                )),
            },
        }
    };
    match name {
        "feature" => {
            let fname = t
                .get("name")
                .and_then(Value::as_str)
                .ok_or("feature needs name = \"...\" (a feature definition's name)")?;
            super::features::check_name(map, fname)?;
            let rotation_deg = match t.get("rotation_deg") {
                None => 0.0,
                Some(v) => number(v)
                    .filter(|n| n.is_finite())
                    .ok_or("rotation_deg must be a number")? as f32,
            };
            let [at] = path.as_slice() else {
                return Err("feature takes one point: path = [[x, z]]".into());
            };
            Ok(Step::Feature {
                name: fname.to_string(),
                at: *at,
                rotation_deg,
            })
        }
        "feature-erase" => Ok(Step::FeatureErase {
            path,
            radius_elmos: radius_elmos()?,
        }),
        _ => {
            let names: Vec<String> = match t.get("names").and_then(Value::as_array) {
                Some(a) => a
                    .iter()
                    .map(|v| v.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or("names is a list of words: names = [\"a\", \"b\"]")?,
                None => return Err("feature-scatter needs names = [\"a\", \"b\"]".into()),
            };
            let weights: Vec<f32> = match t.get("weights") {
                None => vec![1.0; names.len()],
                Some(v) => v
                    .as_array()
                    .map(|a| a.iter().filter_map(number).map(|n| n as f32).collect())
                    .filter(|w: &Vec<f32>| w.len() == names.len())
                    .ok_or("weights is a list of numbers, one per name")?,
            };
            let seed = match t.get("seed") {
                None => 0,
                Some(Value::Integer(i)) if *i >= 0 => *i as u64,
                Some(_) => return Err("seed is a whole number from 0".into()),
            };
            let rotation_deg = match t.get("rotation_deg") {
                None => None,
                Some(v) => Some(
                    number(v)
                        .filter(|n| n.is_finite())
                        .ok_or("rotation_deg must be a number")? as f32,
                ),
            };
            let avoid_water = match t.get("avoid_water") {
                None => false,
                Some(v) => v.as_bool().ok_or("avoid_water must be true or false")?,
            };
            let layer = match t.get("layer") {
                None => None,
                Some(v) => Some(
                    v.as_str()
                        .ok_or("layer must be a texture layer's name")?
                        .to_string(),
                ),
            };
            let scatter = super::features::Scatter {
                names: names.into_iter().zip(weights).collect(),
                density_per_mega_elmo2: positive(t, "density", 10.0, 10_000.0)?,
                spacing_elmos: positive(t, "spacing_elmos", 48.0, 10_000.0)?,
                seed,
                rotation_deg,
                filters: super::features::ScatterFilters {
                    slope_deg: band(t, "slope_deg")?,
                    height_elmos: band(t, "height_elmos")?,
                    avoid_water,
                    layer,
                },
            };
            scatter.check(map)?;
            Ok(Step::FeatureScatter {
                scatter,
                path,
                radius_elmos: radius_elmos()?,
            })
        }
    }
}

/// The dabs along a path, half a radius apart (a single point is one dab).
pub fn dab_points(path: &[[f32; 2]], radius_elmos: f32) -> Vec<[f32; 2]> {
    let step = (radius_elmos * 0.5).max(1.0);
    let mut out = vec![path[0]];
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        let n = (len / step).ceil().max(1.0) as usize;
        for k in 1..=n {
            let t = k as f32 / n as f32;
            out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
        }
    }
    out
}

fn parse_op(
    v: &Value,
    map: &Map,
    load_image: &dyn Fn(&str) -> Result<MaskImage, String>,
) -> Result<Op, String> {
    let t = v.as_table().ok_or("each op is a table ([[op]])")?;
    let name = t
        .get("tool")
        .and_then(Value::as_str)
        .ok_or("no tool (tool = \"raise\")")?;
    let tool =
        tools::find(name).ok_or_else(|| format!("unknown tool \"{name}\" ({})", tools::names()))?;
    let mut settings = ToolSettings::defaults(tool);
    let mut invert = false;
    let mut path = None;
    let mut given = Vec::new();
    for (key, value) in t {
        let num = |lo: f64, hi: f64| -> Result<f32, String> {
            let n = number(value).ok_or_else(|| format!("{key} must be a number"))?;
            if !(lo..=hi).contains(&n) {
                return Err(format!("{key} = {n} is outside {lo} ..= {hi}"));
            }
            Ok(n as f32)
        };
        let word = || {
            value
                .as_str()
                .ok_or_else(|| format!("{key} must be a word in quotes"))
        };
        match key.as_str() {
            "tool" => {}
            "path" => path = Some(parse_path(value, map)?),
            "radius_elmos" => {
                let r = &crate::edit::Brush::RADIUS_RANGE_ELMOS;
                settings.brush.radius_elmos = num(*r.start() as f64, *r.end() as f64)?;
            }
            "strength" => settings.brush.strength = num(0.0, 1.0)?,
            "falloff" => settings.brush.falloff = Falloff::parse(word()?)?,
            "spacing_radii" => settings.brush.spacing_radii = num(0.02, 4.0)?,
            "shape" => {
                settings.brush.shape = match word()? {
                    "circle" => BrushShape::Circle,
                    "square" => BrushShape::Square,
                    s => {
                        return Err(format!(
                            "unknown shape \"{s}\" (circle, square; or mask = \"file.png\")"
                        ));
                    }
                }
            }
            "mask" => settings.brush.shape = BrushShape::Mask(load_image(word()?)?),
            "invert" => {
                invert = value.as_bool().ok_or("invert must be true or false")?;
            }
            k => {
                let spec = tool.params().iter().find(|p| p.key == k).ok_or_else(|| {
                    format!(
                        "unknown key \"{k}\" for tool {} ({})",
                        tool.name(),
                        key_list(tool)
                    )
                })?;
                let new = match spec.kind {
                    ParamKind::Number {
                        min, max, integer, ..
                    } => {
                        let n = num(min as f64, max as f64)?;
                        if integer && n.fract() != 0.0 {
                            return Err(format!("{k} must be a whole number"));
                        }
                        ParamValue::Number(n)
                    }
                    ParamKind::Choice { options, .. } => {
                        let w = word()?;
                        let i = options.iter().position(|o| *o == w).ok_or_else(|| {
                            format!("{k} = \"{w}\" is not one of {}", options.join(", "))
                        })?;
                        ParamValue::Choice(i)
                    }
                    ParamKind::Image => ParamValue::Image(Some(load_image(word()?)?)),
                    ParamKind::Toggle { .. } => ParamValue::Choice(
                        value
                            .as_bool()
                            .ok_or_else(|| format!("{k} must be true or false"))?
                            as usize,
                    ),
                    ParamKind::Range { lo, hi, .. } => {
                        let pair: Option<Vec<f64>> = value
                            .as_array()
                            .map(|a| a.iter().filter_map(number).collect());
                        match pair.as_deref() {
                            Some(&[a, b])
                                if a <= b
                                    && (lo as f64..=hi as f64).contains(&a)
                                    && (lo as f64..=hi as f64).contains(&b) =>
                            {
                                ParamValue::Range(a as f32, b as f32)
                            }
                            _ => {
                                return Err(format!(
                                    "{k} must be [min, max] with {lo} <= min <= max <= {hi}"
                                ));
                            }
                        }
                    }
                    ParamKind::TextureLayer => {
                        let w = word()?;
                        let names: Vec<&str> =
                            map.texture_layers.iter().map(|l| l.name.as_str()).collect();
                        if names.is_empty() {
                            return Err(
                                "the map has no texture layers; add one in map.toml's [[texture.layers]]"
                                    .into(),
                            );
                        }
                        let i = names
                            .iter()
                            .position(|n| n.eq_ignore_ascii_case(w))
                            .ok_or_else(|| {
                                format!(
                                    "{k} = \"{w}\" is not one of the map's texture layers ({})",
                                    names.join(", ")
                                )
                            })?;
                        ParamValue::Choice(i)
                    }
                };
                if let Some(slot) = settings.value_mut(k) {
                    *slot = new;
                }
                given.push(spec.key);
            }
        }
    }
    select_modes(tool, &mut settings, &given)?;
    if let Some((key, why)) = tool
        .overridden(&settings)
        .into_iter()
        .find(|(k, _)| t.contains_key(*k))
    {
        return Err(format!("{key} has no effect: {why}"));
    }
    let path = path.ok_or("no path (path = [[x, z], ...] in elmos)")?;
    if tool.style() == StrokeStyle::Segment && path.len() != 2 {
        return Err(format!(
            "{} runs from path[0] to path[1]: give exactly two points, not {}",
            tool.name(),
            path.len()
        ));
    }
    Ok(Op {
        tool,
        settings,
        invert,
        path,
    })
}

/// Makes the tool's keys `given` in an op agree with its choices: a key that has an effect under
/// only one value of a choice the op leaves out selects that value; a key that has no effect
/// under the choice's value (given, or selected by another key) is an error naming it.
fn select_modes(
    tool: &dyn Tool,
    settings: &mut ToolSettings,
    given: &[&'static str],
) -> Result<(), String> {
    let spec = |key: &str| tool.params().iter().find(|p| p.key == key);
    let conditions = || {
        given
            .iter()
            .filter_map(move |&k| Some((k, spec(k)?, spec(k)?.applies_when?)))
    };
    // the choices the op leaves out, set by the first key that can only mean one of their values
    let mut selected: Vec<(&str, &str)> = Vec::new();
    for (key, _, when) in conditions() {
        let [only] = when.options else {
            continue;
        };
        if given.contains(&when.key) || selected.iter().any(|(c, _)| *c == when.key) {
            continue;
        }
        let index = match spec(when.key).map(|s| s.kind) {
            Some(ParamKind::Choice { options, .. }) => options.iter().position(|o| o == only),
            _ => None,
        };
        match (index, settings.value_mut(when.key)) {
            (Some(i), Some(ParamValue::Choice(c))) => *c = i,
            _ => {
                return Err(format!(
                    "{key} depends on {}, which {} lacks",
                    when.key,
                    tool.name()
                ));
            }
        }
        selected.push((when.key, key));
    }
    for (key, p, when) in conditions() {
        if p.applies(tool, settings) {
            continue;
        }
        let wanted = when
            .options
            .iter()
            .map(|o| format!("{} = \"{o}\"", when.key))
            .collect::<Vec<_>>()
            .join(" or ");
        let current = tools::choice_option(tool, settings, when.key).unwrap_or("?");
        let why = match selected.iter().find(|(c, _)| *c == when.key) {
            Some((_, by)) => format!(", which {by} chose"),
            None if !given.contains(&when.key) => format!(" (the default; give {})", when.key),
            None => String::new(),
        };
        return Err(format!(
            "{key} has no effect with {} = \"{current}\"{why}: it applies only with {wanted}",
            when.key
        ));
    }
    Ok(())
}

fn parse_path(v: &Value, map: &Map) -> Result<Vec<[f32; 2]>, String> {
    let a = v
        .as_array()
        .filter(|a| !a.is_empty())
        .ok_or("path must be a list of [x, z] points in elmos")?;
    a.iter()
        .enumerate()
        .map(|(i, p)| {
            let xy = p
                .as_array()
                .filter(|xy| xy.len() == 2)
                .and_then(|xy| Some([number(&xy[0])? as f32, number(&xy[1])? as f32]))
                .ok_or_else(|| format!("path point {} is not [x, z]", i + 1))?;
            check_on_map(map, xy).map_err(|e| format!("path point {}: {e}", i + 1))?;
            Ok(xy)
        })
        .collect()
}

/// What to do when an op leaves the map's height range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutOfRange {
    /// Stop with an error naming the op.
    #[default]
    Refuse,
    /// Widen the range to hold the heights (the words are re-encoded).
    Widen,
    /// Clip the heights into the range.
    Clip,
}

/// Runs every op as one stroke each, on `gpu` when it runs kernels. Returns each op's report.
pub fn run(
    session: &mut Session,
    file: &OpsFile,
    out_of_range: OutOfRange,
    mut gpu: Option<&mut dyn GpuLayers>,
) -> Result<Vec<Option<StrokeReport>>, String> {
    if let Some(mode) = file.symmetry {
        session.map_mut().symmetry = mode;
    }
    let mut reports = Vec::with_capacity(file.ops.len());
    for (i, step) in file.ops.iter().enumerate() {
        let at = |e: String| format!("op {} ({}): {e}", i + 1, step.name());
        let report = run_step(session, step, reborrow(&mut gpu)).map_err(at)?;
        if let Some(r) = &report
            && r.out_of_range.is_some()
        {
            match out_of_range {
                OutOfRange::Refuse => {
                    let msg = r.range_warning(session.map()).unwrap_or_default();
                    return Err(at(format!("{msg} (--widen-range or --clip)")));
                }
                OutOfRange::Widen => session.widen_range_to_fit().map_err(at)?,
                OutOfRange::Clip => session
                    .clip_heights_to_range(reborrow(&mut gpu))
                    .map_err(at)?,
            }
        }
        reports.push(report);
    }
    Ok(reports)
}

impl Step {
    /// The stroke, when the step is one.
    pub fn stroke(&self) -> Option<&Op> {
        match self {
            Step::Stroke(op) => Some(op),
            _ => None,
        }
    }

    /// The tool's name, or `undo` / `redo`.
    pub fn name(&self) -> &'static str {
        match self {
            Step::Stroke(op) => op.tool.name(),
            Step::Undo => "undo",
            Step::Redo => "redo",
            Step::Start { .. } => "start",
            Step::StartRemove { .. } => "start-remove",
            Step::Feature { .. } => "feature",
            Step::FeatureScatter { .. } => "feature-scatter",
            Step::FeatureErase { .. } => "feature-erase",
        }
    }
}

/// One step: a stroke, or an undo or redo (a no-op when there is nothing to undo or redo).
pub fn run_step(
    session: &mut Session,
    step: &Step,
    gpu: Option<&mut dyn GpuLayers>,
) -> Result<Option<StrokeReport>, String> {
    match step {
        Step::Stroke(op) => run_op(session, op, gpu),
        Step::Undo => {
            session.undo(gpu);
            Ok(None)
        }
        Step::Redo => {
            session.redo(gpu);
            Ok(None)
        }
        &Step::Start { team, at } => {
            let count = session.map().teams.len();
            if team > count {
                return Err(format!(
                    "start: there is no team {team}; the map has {count} (team = {count} adds one)"
                ));
            }
            let what = if team == count {
                format!("add team {team}")
            } else {
                format!("move team {team}'s start")
            };
            session.edit(
                &what,
                |m| {
                    if team == m.teams.len() {
                        super::starts::add_team(m, at);
                    } else {
                        let _ = super::starts::move_start(m, team, at);
                    }
                },
                gpu,
            )?;
            Ok(None)
        }
        &Step::StartRemove { team } => {
            let count = session.map().teams.len();
            if team >= count {
                return Err(format!(
                    "start-remove: there is no team {team}; the map has {count}"
                ));
            }
            session.edit(
                &format!("remove team {team}"),
                |m| {
                    let _ = super::starts::remove_team(m, team);
                },
                gpu,
            )?;
            Ok(None)
        }
        Step::Feature {
            name,
            at,
            rotation_deg,
        } => {
            let mut placed = Ok(0);
            session.edit(
                &format!("place {name}"),
                |m| placed = super::features::place(m, name, *at, *rotation_deg),
                gpu,
            )?;
            placed.map(|_| None)
        }
        Step::FeatureScatter {
            scatter,
            path,
            radius_elmos,
        } => {
            let mut result = Ok(0);
            session.edit(
                "scatter features",
                |m| {
                    for p in dab_points(path, *radius_elmos) {
                        result = super::features::scatter(m, p, *radius_elmos, scatter);
                        if result.is_err() {
                            break;
                        }
                    }
                },
                gpu,
            )?;
            result.map(|_| None)
        }
        Step::FeatureErase { path, radius_elmos } => {
            session.edit(
                "erase features",
                |m| {
                    for p in dab_points(path, *radius_elmos) {
                        super::features::erase(m, p, *radius_elmos);
                    }
                },
                gpu,
            )?;
            Ok(None)
        }
    }
}

/// One op as one stroke.
pub fn run_op(
    session: &mut Session,
    op: &Op,
    mut gpu: Option<&mut dyn GpuLayers>,
) -> Result<Option<StrokeReport>, String> {
    let first = op.path[0];
    let last = *op.path.last().expect("a path has a point");
    session.begin_stroke(
        op.tool,
        op.settings.clone(),
        op.invert,
        first,
        reborrow(&mut gpu),
    )?;
    for &p in &op.path[1..] {
        let step = match op.tool.style() {
            StrokeStyle::Spaced => session.stroke_to(p, 0.0, reborrow(&mut gpu)),
            StrokeStyle::Click => session.stroke_dab(p, reborrow(&mut gpu)),
            StrokeStyle::Segment => Ok(()),
        };
        if let Err(e) = step {
            session.cancel_stroke(reborrow(&mut gpu));
            return Err(e);
        }
    }
    session.end_stroke(last, gpu)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize};

    fn map() -> Map {
        Map::new(MapSize::new(4, 4).unwrap(), MapSettings::default())
    }

    fn no_images(p: &str) -> Result<MaskImage, String> {
        Err(format!("no image {p}"))
    }

    #[test]
    fn the_issue_example_parses() {
        let text = r#"
symmetry = "rotate-2"

[[op]]
tool = "raise"
path = [[1024.0, 1024.0], [2048.0, 1500.0]]
radius_elmos = 300.0
strength = 0.5
falloff = "smooth"

[[op]]
tool = "noise"
path = [[100, 100]]
seed = 7
scale_elmos = 400
octaves = 3

[[op]]
tool = "ramp"
path = [[100, 100], [900, 400]]
width_elmos = 200
"#;
        let f = parse(text, &map(), &no_images).unwrap();
        assert_eq!(f.symmetry, Some(SymmetryMode::Rotate(2)));
        assert_eq!(f.ops.len(), 3);
        assert_eq!(
            f.ops[0].stroke().unwrap().settings.brush.radius_elmos,
            300.0
        );
        assert_eq!(f.ops[1].stroke().unwrap().settings.number("seed"), 7.0);
        assert_eq!(
            f.ops[2].stroke().unwrap().settings.number("width_elmos"),
            200.0
        );
    }

    #[test]
    fn mistakes_name_the_op() {
        let m = map();
        let e = |t: &str| parse(t, &m, &no_images).unwrap_err();
        let one = "[[op]]\ntool = \"raise\"\npath = [[1, 1]]\n";
        assert!(parse(one, &m, &no_images).is_ok());
        let err = e(&format!(
            "{one}\n[[op]]\ntool = \"rase\"\npath = [[1, 1]]\n"
        ));
        assert!(err.starts_with("op 2: unknown tool \"rase\""), "{err}");
        let err = e("[[op]]\ntool = \"raise\"\npath = [[1, 1]]\nheight_elmos = 3\n");
        assert!(
            err.starts_with("op 1: unknown key \"height_elmos\" for tool raise"),
            "{err}"
        );
        let err = e("[[op]]\ntool = \"set\"\npath = [[1, 1], [5000, 2]]\n");
        assert!(
            err.contains("op 1: path point 2") && err.contains("off the"),
            "{err}"
        );
        let err = e("[[op]]\ntool = \"raise\"\npath = [[1, 1]]\nstrength = 2\n");
        assert!(err.contains("strength = 2 is outside"), "{err}");
        let oblong = Map::new(MapSize::new(4, 2).unwrap(), MapSettings::default());
        let err = parse("symmetry = \"rotate-4\"\n", &oblong, &no_images).unwrap_err();
        assert!(err.contains("square"), "{err}");
        let err = e("[[op]]\ntool = \"ramp\"\npath = [[1, 1]]\n");
        assert!(err.contains("exactly two points"), "{err}");
        let err = e("[[op]]\ntool = \"stamp\"\npath = [[1, 1]]\nfile = \"x.png\"\n");
        assert!(err.contains("no image x.png"), "{err}");
        let err = e("colour = 3\n");
        assert!(err.contains("unknown key \"colour\""), "{err}");
    }

    #[test]
    fn a_key_of_one_mode_selects_it_and_a_key_without_effect_is_refused() {
        let op = |extra: &str| {
            format!(
                "[[op]]\ntool = \"flatten\"\npath = [[1024, 1024]]\nradius_elmos = 200\n\
                 strength = 1\nfalloff = \"flat\"\n{extra}"
            )
        };
        // height_elmos alone can only mean a typed height: the ground goes to 180 elmos
        let f = parse(&op("height_elmos = 180\n"), &map(), &no_images).unwrap();
        let o = f.ops[0].stroke().unwrap();
        assert_eq!(
            tools::choice_option(o.tool, &o.settings, "target"),
            Some("typed")
        );
        let mut s = Session::new(map());
        run(&mut s, &f, OutOfRange::Refuse, None).unwrap();
        let (x, z) = (1024 / 8, 1024 / 8);
        assert_eq!(s.map().heights.get(x, z), 180.0);
        assert_eq!(s.map().heights.get(x + 10, z), 180.0);
        assert_eq!(s.map().heights.get(0, 0), 0.0);
        // with the target given as typed, the same
        let f = parse(
            &op("target = \"typed\"\nheight_elmos = 180\n"),
            &map(),
            &no_images,
        )
        .unwrap();
        let o = f.ops[0].stroke().unwrap();
        assert_eq!(o.settings.choice("target"), 1);
        assert_eq!(o.settings.number("height_elmos"), 180.0);
        // under the click, a typed height would be silently ignored: refused, named
        let err = parse(
            &op("target = \"first-click\"\nheight_elmos = 180\n"),
            &map(),
            &no_images,
        )
        .unwrap_err();
        assert!(
            err.starts_with("op 1: height_elmos has no effect with target = \"first-click\""),
            "{err}"
        );
        // keys for every mode do not select one
        let f = parse(&op("mode = \"cut\"\n"), &map(), &no_images).unwrap();
        assert_eq!(f.ops[0].stroke().unwrap().settings.choice("target"), 0);
    }

    #[test]
    fn a_setting_another_one_overrides_is_refused_by_name() {
        let one = |tool: &str, keys: &str| {
            parse(
                &format!("[[op]]\ntool = \"{tool}\"\npath = [[500, 500]]\n{keys}"),
                &map(),
                &no_images,
            )
        };
        // a target income picks the dome's peak: a peak given too would be ignored
        let err = one("metal-dome", "t1_income = 2.0\npeak = 100\n").unwrap_err();
        assert!(
            err.contains("peak has no effect: t1_income is set"),
            "{err}"
        );
        assert!(one("metal-dome", "peak = 100\n").is_ok());
        assert!(one("metal-dome", "t1_income = 2.0\n").is_ok());
        // a grass byte given: the strength no longer sets the size
        let err = one("grass", "value = 100\nstrength = 0.3\n").unwrap_err();
        assert!(
            err.contains("strength has no effect: value is set"),
            "{err}"
        );
        assert!(one("grass", "strength = 0.3\n").is_ok());
        assert!(one("grass", "value = 100\n").is_ok());
    }

    #[test]
    fn runs_and_refuses_to_leave_the_range_unless_asked() {
        let text = "[[op]]\ntool = \"set\"\npath = [[500, 500]]\nheight_elmos = 900\n";
        let f = parse(text, &map(), &no_images).unwrap();
        let mut s = Session::new(map());
        let err = run(&mut s, &f, OutOfRange::Refuse, None).unwrap_err();
        assert!(
            err.starts_with("op 1 (set):") && err.contains("widen"),
            "{err}"
        );
        let mut s = Session::new(map());
        run(&mut s, &f, OutOfRange::Widen, None).unwrap();
        assert_eq!(s.map().settings.max_height_elmos, 900.0);
        let mut s = Session::new(map());
        run(&mut s, &f, OutOfRange::Clip, None).unwrap();
        assert_eq!(s.map().heights.min_max().1, 400.0);
    }

    #[test]
    fn start_ops_move_add_and_remove_teams_with_symmetry_and_undo() {
        let mut m = map();
        m.symmetry = SymmetryMode::MirrorX;
        crate::edit::starts::add_team(&mut m, [300.0, 500.0]);
        crate::edit::starts::add_team(&mut m, [2048.0 - 300.0, 500.0]);
        let text = r#"
[[op]]
tool = "start"
team = 0
path = [[400.0, 800.0]]

[[op]]
tool = "start"
team = 2
path = [[1024.0, 1024.0]]

[[op]]
tool = "start-remove"
team = 2

[[op]]
tool = "undo"
"#;
        let f = parse(text, &m, &no_images).unwrap();
        assert_eq!(f.ops.len(), 4);
        let mut s = Session::new(m.clone());
        let at = |s: &Session, i: usize| {
            let t = &s.map().teams[i];
            [t.start_x_elmos, t.start_z_elmos]
        };
        run_step(&mut s, &f.ops[0], None).unwrap();
        assert_eq!(at(&s, 0), [400.0, 800.0]);
        assert_eq!(
            at(&s, 1),
            [2048.0 - 400.0, 800.0],
            "the mirror partner moved"
        );
        run_step(&mut s, &f.ops[1], None).unwrap();
        assert_eq!(s.map().teams.len(), 3);
        run_step(&mut s, &f.ops[2], None).unwrap();
        assert_eq!(s.map().teams.len(), 2);
        run_step(&mut s, &f.ops[3], None).unwrap();
        assert_eq!(s.map().teams.len(), 3, "undo brings the removed team back");
        s.undo(None);
        s.undo(None);
        assert_eq!(s.map().teams, m.teams, "each op was one undo step");
        // what is refused
        for (bad, why) in [
            (
                "[[op]]\ntool = \"start\"\npath = [[1.0, 1.0]]\n",
                "needs team",
            ),
            ("[[op]]\ntool = \"start\"\nteam = 0\n", "needs path"),
            (
                "[[op]]\ntool = \"start\"\nteam = 0\npath = [[9000.0, 1.0]]\n",
                "is off the",
            ),
            (
                "[[op]]\ntool = \"start-remove\"\nteam = 0\nradius_elmos = 3.0\n",
                "unknown key",
            ),
        ] {
            let e = parse(bad, &m, &no_images).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        let far = parse(
            "[[op]]\ntool = \"start\"\nteam = 5\npath = [[1.0, 1.0]]\n",
            &m,
            &no_images,
        )
        .unwrap();
        let e = run_step(&mut s, &far.ops[0], None).unwrap_err();
        assert!(e.contains("no team 5"), "{e}");
    }
}
