//! The lint: every known way a map goes silently wrong in the engine or in BAR, each finding
//! with its rule id, severity, what it means and the fix offered, one click where the fix is
//! mechanical ([`FixAction`], applied by [`apply_fix`]). Errors block an export; warnings do
//! not. `groundwork lint`, the editor's Export dialog and `groundwork info` all list these.
//!
//! Rules: see [`RULES`].

use std::path::Path;

use serde::Serialize;

use crate::formats::LoadedMap;
use crate::formats::features::{FeatureNames, defined_feature_names};
use crate::map::grass::grass_map_warning;
use crate::map::settings::{ENGINE_DEFAULT_EXTRACTOR_RADIUS, ENGINE_DEFAULT_MAX_METAL};
use crate::map::symmetry::images;
use crate::map::{HEIGHT_WORD_DIVISOR, Map, Team};

/// Blocks an export, or only tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A fix the editor applies in one click (an undo step there).
#[derive(Clone, Debug, PartialEq)]
pub enum FixAction {
    SetMaxMetal(f32),
    SetExtractorRadius(f32),
    /// Two start positions (or one per symmetric copy) a fifth of the way in from the corners.
    AddStartPositions,
    /// Start positions moved to the nearest point 32 elmos inside the map.
    ClampStartPositions,
    /// Every grass byte 255 becomes 254.
    GrassNo255,
    /// Every grass byte 1 becomes 128, so BAR reads graded sizes.
    GrassGraded,
    /// The cells of spots under 4 cells set to 0.
    ErasePhantomSpots,
    /// Metal in the outermost ring of cells set to 0.
    EraseEdgeRing,
    /// minHeight and maxHeight brought to the ground's range (a margin of 10%).
    FitHeightRange,
    /// fresnelMax lowered to 1 - fresnelMin.
    CapFresnel,
    /// water.planeColor unset.
    UnsetPlaneColour,
}

/// One thing wrong with a map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    /// What to do about it, in words (`null` in JSON when there is nothing to offer).
    pub fix: Option<String>,
    /// The fix the editor can apply itself.
    #[serde(skip)]
    pub action: Option<FixAction>,
}

impl Finding {
    /// The finding as the command line prints it: `error[rule]: message`, then its fix
    /// indented on a line of its own.
    pub fn describe(&self) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match &self.fix {
            Some(fix) => format!("{sev}[{}]: {}\n    fix: {fix}", self.rule, self.message),
            None => format!("{sev}[{}]: {}", self.rule, self.message),
        }
    }
}

/// Every rule: its id, its severity and what it catches.
pub const RULES: &[(&str, Severity, &str)] = &[
    (
        "no-name",
        Severity::Error,
        "the map has no name: the archive and the lobby need one",
    ),
    (
        "height-range-empty",
        Severity::Error,
        "maxHeight not above minHeight",
    ),
    (
        "max-metal-default",
        Severity::Error,
        "maxMetal absent or the engine's 0.02: no usable metal",
    ),
    (
        "extractor-radius-default",
        Severity::Error,
        "extractorRadius absent or the engine's 500",
    ),
    (
        "no-start-positions",
        Severity::Error,
        "no start positions: fixed-start games abort",
    ),
    (
        "start-outside-map",
        Severity::Error,
        "a start position off the map",
    ),
    (
        "grass-255",
        Severity::Error,
        "a grass byte 255: BAR then draws no grass at all",
    ),
    (
        "grass-legacy-binary",
        Severity::Warning,
        "highest grass byte exactly 1: BAR randomises every size",
    ),
    (
        "tile-file-unreadable",
        Severity::Error,
        "a tile file (.smt) missing, not a tile file, or short of tiles",
    ),
    (
        "tile-files-several",
        Severity::Error,
        "several tile files (.smt): BAR's lobby and map service read the first alone",
    ),
    (
        "load-note",
        Severity::Warning,
        "something the reader had to guess or drop while opening the map",
    ),
    (
        "size-not-even-units",
        Severity::Error,
        "a side not an even number of map units: the engine crashes",
    ),
    (
        "feature-unknown",
        Severity::Warning,
        "a feature no definition names",
    ),
    (
        "feature-name-too-long",
        Severity::Error,
        "a feature name over 31 characters",
    ),
    (
        "metal-spots-share",
        Severity::Warning,
        "extractors on two spots would both mine some metal cells",
    ),
    (
        "metal-spots-merged",
        Severity::Warning,
        "domes whose non-zero cells touch: BAR's finder sees one spot",
    ),
    (
        "metal-phantom-spots",
        Severity::Warning,
        "stray metal making spots of under 4 cells",
    ),
    (
        "metal-map-detected",
        Severity::Warning,
        "a spot wider than 6 x extractorRadius: BAR shows no spots",
    ),
    (
        "metal-edge-ring",
        Severity::Warning,
        "metal in the outermost ring of cells, which BAR never scans",
    ),
    (
        "metal-sides-unequal",
        Severity::Warning,
        "under symmetry, sides' T1 income differs by over 1%",
    ),
    (
        "height-precision",
        Severity::Warning,
        "a height range so wide one height word exceeds 0.1 elmo",
    ),
    (
        "fresnel-saturated",
        Severity::Warning,
        "fresnelMin + fresnelMax well above 1",
    ),
    (
        "void-water-plane-colour",
        Severity::Warning,
        "voidWater with planeColor set",
    ),
    (
        "splat-detail-tex-missing",
        Severity::Warning,
        "DNTS textures without splatDetailTex: DNTS stays off",
    ),
    (
        "start-unreachable",
        Severity::Warning,
        "an enemy start no tank or bot class reaches, and no hover either (no sea route)",
    ),
    (
        "start-on-slope",
        Severity::Warning,
        "under half of a start's area (256 elmos) can hold a factory",
    ),
    (
        "metal-unreachable",
        Severity::Warning,
        "a metal spot no tank or bot class reaches from any start",
    ),
    (
        "unfair-metal",
        Severity::Warning,
        "the income within 1000 or 2000 path elmos of the starts differs by over 5%",
    ),
    (
        "startbox-too-many-players",
        Severity::Error,
        "start boxes x players per box exceed the map's player count (maps-metadata refuses it)",
    ),
    (
        "start-outside-box",
        Severity::Warning,
        "a start lies in no box of the full arrangement, or a box holds no start",
    ),
    (
        "allied-starts-too-close",
        Severity::Warning,
        "two starts in one box are under 350 elmos apart (the lobby refuses such a placement)",
    ),
    (
        "startbox-overlap",
        Severity::Warning,
        "two boxes of one arrangement overlap",
    ),
    (
        "startbox-missing-arrangement",
        Severity::Warning,
        "a team count from 2 to the player count has no start boxes",
    ),
];

/// The severity of a rule.
fn severity(rule: &str) -> Severity {
    RULES
        .iter()
        .find(|r| r.0 == rule)
        .map_or(Severity::Warning, |r| r.1)
}

fn finding(rule: &'static str, message: String, fix: &str, action: Option<FixAction>) -> Finding {
    Finding {
        rule,
        severity: severity(rule),
        message,
        fix: (!fix.is_empty()).then(|| fix.to_string()),
        action,
    }
}

/// What the lint knows beyond the map: the installed game's feature names, when the game
/// was found.
#[derive(Clone, Debug, Default)]
pub struct LintContext {
    pub game_features: Option<FeatureNames>,
    /// The move classes the pathing rules use; `None` is BAR's built-in table.
    pub move_classes: Option<crate::analyze::MoveClassTable>,
}

impl LintContext {
    /// The lint's view of this computer: BAR's feature definitions and move classes, when BAR
    /// is installed.
    pub fn for_this_computer() -> LintContext {
        let bar = crate::install::bar_data_dir();
        LintContext {
            game_features: bar
                .as_deref()
                .and_then(crate::formats::features::game_feature_names),
            move_classes: Some(crate::analyze::move_class::classes_for(bar.as_deref())),
        }
    }
}

/// The widest height range whose word step stays within 0.1 elmo.
const MAX_PRECISE_RANGE_ELMOS: f64 = 0.1 * HEIGHT_WORD_DIVISOR;
/// fresnelMin + fresnelMax above this is "well above 1".
const FRESNEL_SATURATED_SUM: f32 = 1.1;
/// Start positions the fixes put this far inside the map's edge.
const START_MARGIN_ELMOS: f32 = 32.0;

/// Every finding for `map`, errors first.
pub fn lint_map(map: &Map, ctx: &LintContext) -> Vec<Finding> {
    let mut out = Vec::new();
    let s = &map.settings;
    if s.name.trim().is_empty() {
        out.push(finding(
            "no-name",
            "the map has no name: the archive, the lobby and the engine's map list need one".into(),
            "give it a name (the Properties tab)",
            None,
        ));
    }
    if s.max_height_elmos <= s.min_height_elmos {
        out.push(finding(
            "height-range-empty",
            format!(
                "maxHeight {} is not above minHeight {}: every height would be one word",
                s.max_height_elmos, s.min_height_elmos
            ),
            "fit minHeight and maxHeight to the ground",
            Some(FixAction::FitHeightRange),
        ));
    }
    if s.max_metal <= ENGINE_DEFAULT_MAX_METAL {
        out.push(finding(
            "max-metal-default",
            format!("maxMetal is {}, the engine's default: every extractor mines almost nothing (BAR maps use about 0.9 to 4)", s.max_metal),
            "set maxMetal to 2 (Economy and physics)",
            Some(FixAction::SetMaxMetal(2.0)),
        ));
    }
    if s.extractor_radius_elmos >= ENGINE_DEFAULT_EXTRACTOR_RADIUS {
        out.push(finding(
            "extractor-radius-default",
            format!("extractorRadius is {} elmos, the engine's default: one extractor reaches half a map unit and spots merge (BAR uses about 80 to 100)", s.extractor_radius_elmos),
            "set extractorRadius to 90 elmos (BAR's map template)",
            Some(FixAction::SetExtractorRadius(crate::map::bar::EXTRACTOR_RADIUS_ELMOS)),
        ));
    }
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    if map.teams.is_empty() {
        out.push(finding(
            "no-start-positions",
            "the map has no start positions: games with fixed or random starts abort at load"
                .into(),
            "add start positions (one per symmetric side)",
            Some(FixAction::AddStartPositions),
        ));
    }
    let outside: Vec<String> = map
        .teams
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            !(0.0..=w).contains(&t.start_x_elmos) || !(0.0..=d).contains(&t.start_z_elmos)
        })
        .map(|(i, t)| format!("team {i} at ({}, {})", t.start_x_elmos, t.start_z_elmos))
        .collect();
    if !outside.is_empty() {
        out.push(finding(
            "start-outside-map",
            format!(
                "start positions off the {w} x {d} elmo map: {}",
                outside.join(", ")
            ),
            "move them just inside the map",
            Some(FixAction::ClampStartPositions),
        ));
    }
    let grass_max = map.grass.data().iter().copied().max().unwrap_or(0);
    if map.grass.data().contains(&255) {
        let n = map.grass.data().iter().filter(|&&g| g == 255).count();
        out.push(finding(
            "grass-255",
            format!("{n} grass cells hold 255, which BAR reads as \"this map has no grass\""),
            "set them to 254",
            Some(FixAction::GrassNo255),
        ));
    } else if let Some(w) = grass_map_warning(grass_max) {
        out.push(finding(
            "grass-legacy-binary",
            w,
            "grade the grass: set every 1 to 128",
            Some(FixAction::GrassGraded),
        ));
    }
    features(map, ctx, &mut out);
    for mw in map.metal_report().warnings {
        let (fix, action) = match mw.rule {
            "metal-phantom-spots" => ("erase the stray cells", Some(FixAction::ErasePhantomSpots)),
            "metal-edge-ring" => (
                "erase the metal in the outer ring",
                Some(FixAction::EraseEdgeRing),
            ),
            "metal-spots-share" => (
                "move the spots apart (at least 2 x extractorRadius between centres), or make them one spot",
                None,
            ),
            "metal-spots-merged" => (
                "leave a ring of zero cells between the domes, or make them one dome",
                None,
            ),
            "metal-map-detected" => (
                "intended on a metal map (metal everywhere, extractors anywhere: BAR then shows no spots, as it should); otherwise split the spot into domes under 6 x extractorRadius",
                None,
            ),
            _ => (
                "even out the domes (the Metal spots panel lists each side)",
                None,
            ),
        };
        out.push(finding(mw.rule, mw.message, fix, action));
    }
    let range = (s.max_height_elmos - s.min_height_elmos) as f64;
    if range > MAX_PRECISE_RANGE_ELMOS {
        out.push(finding(
            "height-precision",
            format!(
                "the height range {} .. {} elmos is {range:.0} elmos wide: one height word is {:.3} elmos, coarser than 0.1, so slopes come out stepped",
                s.min_height_elmos,
                s.max_height_elmos,
                range / HEIGHT_WORD_DIVISOR
            ),
            "fit minHeight and maxHeight to the ground",
            Some(FixAction::FitHeightRange),
        ));
    }
    let water = &s.water;
    let (fmin, fmax) = (
        water.fresnel_min.unwrap_or(0.2),
        water.fresnel_max.unwrap_or(0.8),
    );
    if fmin + fmax > FRESNEL_SATURATED_SUM {
        out.push(finding(
            "fresnel-saturated",
            format!("fresnelMin {fmin} + fresnelMax {fmax} is {:.2}: the reflection saturates well before the horizon and grazing water turns to a flat mirror", fmin + fmax),
            "lower fresnelMax to 1 - fresnelMin",
            Some(FixAction::CapFresnel),
        ));
    }
    if s.void_water && water.plane_color.is_some() {
        out.push(finding(
            "void-water-plane-colour",
            "voidWater is on but water.planeColor is set: the plane is drawn under the hole (it is left out of mapinfo.lua)".into(),
            "unset planeColor",
            Some(FixAction::UnsetPlaneColour),
        ));
    }
    if let Some(r) = s.extra.get_table("resources") {
        let dnts = r.get("splatDetailNormalTex").is_some()
            || (1..=4).any(|i| r.get(&format!("splatDetailNormalTex{i}")).is_some());
        if dnts && r.get("splatDetailTex").is_none() {
            out.push(finding(
                "splat-detail-tex-missing",
                "resources names splatDetailNormalTex but no splatDetailTex: the engine then never loads splatDistrTex and the detail normals stay off".into(),
                "add resources.splatDetailTex (any name, even of a file that is not there)",
                None,
            ));
        }
    }
    pathing_findings(map, ctx, &mut out);
    out.extend(start_boxes::check(map));
    out.sort_by_key(|f| f.severity != Severity::Error);
    out
}

/// Under this share of a start area that can hold a factory, `start-on-slope` fires.
const MIN_BUILDABLE_SHARE: f32 = 0.5;

/// The rules that need the pathing analysis (`analyze`): run only when the map has starts.
fn pathing_findings(map: &Map, ctx: &LintContext, out: &mut Vec<Finding>) {
    if map.teams.is_empty() {
        return;
    }
    let built_in;
    let table = match &ctx.move_classes {
        Some(t) => t,
        None => {
            built_in = crate::analyze::MoveClassTable {
                classes: crate::analyze::move_class::bar_classes(),
                source: "built-in".into(),
            };
            &built_in
        }
    };
    let a = crate::analyze::analyze(map, &table.classes, &table.source);
    out.extend(findings_of_analysis(&a));
}

/// The start box rules' findings alone (`groundwork metadata` prints them).
pub fn start_box_findings(map: &Map) -> Vec<Finding> {
    start_boxes::check(map)
}

/// The pathing rules' findings for an analysis already made (`groundwork analyze` prints them).
pub fn findings_of_analysis(a: &crate::analyze::Analysis) -> Vec<Finding> {
    let mut out = Vec::new();
    for &(i, j, sea) in &a.land_cut_pairs {
        if !sea {
            out.push(finding(
                "start-unreachable",
                format!("no tank or bot class gets from team {i}'s start to team {j}'s, and no hover either: those players can never meet on the ground"),
                "open a ramp (27 degrees for tanks, 54 for bots) or a shallow crossing",
                None,
            ));
        }
    }
    for (i, t) in a.teams.iter().enumerate() {
        // a start off the map is start-outside-map's, not this rule's
        if t.on_map && t.buildable_share < MIN_BUILDABLE_SHARE {
            out.push(finding(
                "start-on-slope",
                format!(
                    "only {:.0}% of the ground within {:.0} elmos of team {i}'s start at ({:.0}, {:.0}) can hold a factory",
                    t.buildable_share * 100.0,
                    crate::analyze::report::START_AREA_RADIUS_ELMOS,
                    t.start[0],
                    t.start[1]
                ),
                "flatten the start area (Flatten tool) or move the start",
                None,
            ));
        }
    }
    if !a.unreachable_spots.is_empty() {
        let list: Vec<String> = a
            .unreachable_spots
            .iter()
            .take(5)
            .map(|p| format!("({:.0}, {:.0})", p[0], p[1]))
            .collect();
        out.push(finding(
            "metal-unreachable",
            format!(
                "{} metal spots no tank or bot reaches from any start: {}{}",
                a.unreachable_spots.len(),
                list.join(", "),
                if a.unreachable_spots.len() > 5 {
                    ", ..."
                } else {
                    ""
                }
            ),
            "open a way to them, or remove them",
            None,
        ));
    }
    for u in a.unfair.iter().filter(|u| u.starts_with("income")) {
        out.push(finding(
            "unfair-metal",
            format!("by {} paths, {u}", a.fairness_class),
            "move or resize spots so each side has the same within reach (Symmetry helps)",
            None,
        ));
    }
    out
}

fn features(map: &Map, ctx: &LintContext, out: &mut Vec<Finding>) {
    use crate::formats::smf::{MAX_FEATURE_NAME_CHARS, builtin_feature_types};
    // BAR's feature placer names them in Lua, of any length
    let in_smf = map.settings.feature_placement == crate::map::FeaturePlacement::Smf;
    let long: Vec<&str> = unique(map.features.iter().map(|f| f.name.as_str()))
        .into_iter()
        .filter(|n| in_smf && n.len() > MAX_FEATURE_NAME_CHARS)
        .collect();
    if !long.is_empty() {
        out.push(finding(
            "feature-name-too-long",
            format!("feature names over {MAX_FEATURE_NAME_CHARS} characters, which the .smf cannot hold: {}", long.join(", ")),
            "rename the features (and their definitions), or place them with BAR's feature placer (feature_placement = \"featureplacer\" in map.toml's [map])",
            None,
        ));
    }
    let builtin = builtin_feature_types();
    let archive = defined_feature_names(&map.bundled_files);
    let unknown: Vec<&str> = unique(map.features.iter().map(|f| f.name.as_str()))
        .into_iter()
        .filter(|n| {
            !builtin.iter().any(|b| b.eq_ignore_ascii_case(n))
                && !crate::map::bar::is_standard_feature(n)
                && !archive.contains(n)
                && !ctx.game_features.as_ref().is_some_and(|g| g.contains(n))
        })
        .collect();
    if !unknown.is_empty() {
        let whose = if ctx.game_features.is_some() {
            "the engine, the map's features/ or the installed game"
        } else {
            "the engine, the map's features/ or BAR's standard set (BAR was not found to look in)"
        };
        let shown: Vec<&str> = unknown.iter().take(8).copied().collect();
        out.push(finding(
            "feature-unknown",
            format!(
                "{} feature names are defined by neither {whose}: {}{}; the engine drops what it cannot find",
                unknown.len(),
                shown.join(", "),
                if unknown.len() > 8 { ", ..." } else { "" }
            ),
            "add their definitions under archive/features/, or use names the game defines",
            None,
        ));
    }
}

fn unique<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut v: Vec<&str> = names.collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Applies a one-click fix to `map`.
pub fn apply_fix(map: &mut Map, action: &FixAction) {
    let (w, d) = (map.size.width_elmos(), map.size.depth_elmos());
    let s = &mut map.settings;
    match action {
        FixAction::SetMaxMetal(v) => s.max_metal = *v,
        FixAction::SetExtractorRadius(v) => s.extractor_radius_elmos = *v,
        FixAction::AddStartPositions => {
            let first = [0.2 * w, 0.2 * d];
            let mut points: Vec<[f32; 2]> = images(map.symmetry, w, d)
                .iter()
                .map(|iso| iso.apply(first))
                .collect();
            if points.len() < 2 {
                points.push([w - first[0], d - first[1]]);
            }
            map.teams.extend(points.into_iter().map(|p| Team {
                start_x_elmos: p[0],
                start_z_elmos: p[1],
            }));
        }
        FixAction::ClampStartPositions => {
            for t in &mut map.teams {
                t.start_x_elmos = t
                    .start_x_elmos
                    .clamp(START_MARGIN_ELMOS, w - START_MARGIN_ELMOS);
                t.start_z_elmos = t
                    .start_z_elmos
                    .clamp(START_MARGIN_ELMOS, d - START_MARGIN_ELMOS);
            }
        }
        FixAction::GrassNo255 => map
            .grass
            .data_mut()
            .iter_mut()
            .filter(|g| **g == 255)
            .for_each(|g| *g = 254),
        FixAction::GrassGraded => map
            .grass
            .data_mut()
            .iter_mut()
            .filter(|g| **g == 1)
            .for_each(|g| *g = 128),
        FixAction::ErasePhantomSpots => {
            let report = map.metal_report();
            for p in report
                .spots
                .iter()
                .filter(|p| p.cells < crate::map::metal::PHANTOM_SPOT_CELLS)
            {
                let (i0, j0, i1, j1) = p.cell_box;
                for j in j0..=j1 {
                    for i in i0..=i1 {
                        map.metal.set(i, j, 0);
                    }
                }
            }
        }
        FixAction::EraseEdgeRing => {
            let (mw, mh) = map.metal.dims();
            for j in 0..mh {
                for i in 0..mw {
                    if i == 0 || j == 0 || i + 1 == mw || j + 1 == mh {
                        map.metal.set(i, j, 0);
                    }
                }
            }
        }
        FixAction::FitHeightRange => {
            let (lo, hi) = map.heights.min_max();
            let margin = ((hi - lo) * 0.1).max(10.0);
            let (lo, hi) = (lo - margin, hi + margin);
            // keep the range within what one word step of 0.1 elmo allows
            let hi = hi.min(lo + MAX_PRECISE_RANGE_ELMOS as f32);
            map.settings.min_height_elmos = lo.floor();
            map.settings.max_height_elmos = hi.ceil();
        }
        FixAction::CapFresnel => {
            let fmin = s.water.fresnel_min.unwrap_or(0.2);
            s.water.fresnel_max = Some((1.0 - fmin).max(0.0));
        }
        FixAction::UnsetPlaneColour => s.water.plane_color = None,
    }
}

/// Every finding for a map as it was read: [`lint_map`]'s, the tile files' state (the
/// engine draws every tile red or aborts the load when they are broken), and what the reader
/// had to guess or drop, each once.
pub fn lint_loaded(loaded: &LoadedMap, ctx: &LintContext) -> Vec<Finding> {
    let mut out = lint_map(&loaded.map, ctx);
    if let Some(why) = &loaded.tile_problem {
        out.push(finding(
            "tile-file-unreadable",
            format!("{why}: the engine paints those tiles red or aborts the load"),
            "compile the map again (groundwork compile) so its tiles are written whole; opened here, its ground comes from the minimap",
            None,
        ));
    }
    if loaded.tile_files.len() > 1 {
        out.push(finding(
            "tile-files-several",
            format!(
                "the map's tiles are in {} .smt files ({}): BAR's lobby and its map service (spring-map-parser) read only the first, so the map shows no preview and BAR's upload rejects it",
                loaded.tile_files.len(),
                loaded.tile_files.join(", ")
            ),
            "compile the map again (groundwork compile MAP -o OUT.sd7): Groundwork writes one .smt",
            None,
        ));
    }
    for w in &loaded.warnings {
        // the tile problem is the finding above
        if loaded
            .tile_problem
            .as_ref()
            .is_some_and(|why| w.starts_with(why.as_str()))
        {
            continue;
        }
        out.push(finding("load-note", w.clone(), "", None));
    }
    out.sort_by_key(|f| f.severity != Severity::Error);
    out
}

/// Lints a map or a project folder on disk: the map (when it loads) and the findings. A
/// project whose `map.toml` gives a size the engine cannot take is the `size-not-even-units`
/// finding rather than a load error; other load errors are errors.
pub fn lint_path(path: &Path, ctx: &LintContext) -> Result<(Option<Map>, Vec<Finding>), String> {
    match crate::formats::open_map(path) {
        Ok(loaded) => {
            let findings = lint_loaded(&loaded, ctx);
            Ok((Some(loaded.map), findings))
        }
        Err(e) => {
            let text = e.to_string();
            // the size checks' own wording (map::MapSizeError)
            if text.contains("even number of map units") || text.contains("multiple of 128 squares")
            {
                Ok((
                    None,
                    vec![finding(
                        "size-not-even-units",
                        text,
                        "make each side an even number of map units (2, 4, 6, ...)",
                        None,
                    )],
                ))
            } else {
                Err(text)
            }
        }
    }
}

mod start_boxes;
#[cfg(test)]
mod tests;
