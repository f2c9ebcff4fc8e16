//! `groundwork analyze`: where each move class can go, which starts reach which, and the
//! fairness figures per team; `--json` for scripts, `--passable-png` for one class's map.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::analyze::move_class::classes_for;
use crate::analyze::passability::WaterRules;
use crate::analyze::{Analysis, GroundMaps, Passability};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// A project folder or a map (.sd7, .sdz, .sdd, .smf).
    pub map: PathBuf,
    /// Print JSON: move_classes, teams, findings.
    #[arg(long)]
    pub json: bool,
    /// The move class `--passable-png` draws (BAR's names: TANK2, BOT3, HOVER2, BOAT3, ...).
    #[arg(long, requires = "passable_png")]
    pub move_class: Option<String>,
    /// Write an 8-bit grey PNG, one pixel a square: 0 blocked, else 255 x the speed factor.
    #[arg(long, requires = "move_class")]
    pub passable_png: Option<PathBuf>,
    /// The engine whose pathing to follow: recoil (BAR's, the water depth at a square's
    /// highest corner) or spring106 (the mean height of its 2 x 2-square cell).
    #[arg(long, default_value = "recoil")]
    pub engine: String,
}

/// The JSON `--json` prints.
#[derive(Serialize)]
struct Report<'a> {
    table: &'a str,
    fairness_class: &'a str,
    move_classes: &'a [crate::analyze::report::ClassReport],
    teams: &'a [crate::analyze::report::TeamReport],
    unreachable_spots: &'a [[f32; 2]],
    unfair: &'a [String],
    findings: Vec<crate::lint::Finding>,
}

pub fn run(args: AnalyzeArgs) -> Result<(), String> {
    let loaded = crate::formats::open_map(&args.map).map_err(|e| e.to_string())?;
    let map = loaded.map;
    let table = classes_for(crate::install::bar_data_dir().as_deref());
    let rule = crate::analyze::ground::HeightRule::parse(&args.engine)?;
    if let (Some(name), Some(out)) = (&args.move_class, &args.passable_png) {
        let class = table
            .classes
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<&str> = table.classes.iter().map(|c| c.name.as_str()).collect();
                format!(
                    "no move class `{name}` in {}: {}",
                    table.source,
                    names.join(", ")
                )
            })?;
        let mut ground = GroundMaps::engine(&map);
        ground.height_rule = rule;
        let water = WaterRules::for_damage(map.settings.water.damage.unwrap_or(0.0));
        let pass = Passability::of(class, water, &ground);
        let img = image::GrayImage::from_raw(pass.mapx as u32, pass.mapy as u32, pass.grey_bytes())
            .ok_or("the passability map has the wrong size")?;
        img.save(out)
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        eprintln!(
            "{}: {} x {} squares, {:.1}% passable -> {}",
            class.name,
            pass.mapx,
            pass.mapy,
            pass.passable_share() * 100.0,
            out.display()
        );
    }
    let a = crate::analyze::report::analyze_with(&map, &table.classes, &table.source, rule);
    let findings = crate::lint::findings_of_analysis(&a);
    if args.json {
        let r = Report {
            table: &a.table,
            fairness_class: &a.fairness_class,
            move_classes: &a.move_classes,
            teams: &a.teams,
            unreachable_spots: &a.unreachable_spots,
            unfair: &a.unfair,
            findings,
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&r).map_err(|e| e.to_string())?
        );
    } else if args.passable_png.is_none() {
        print_text(&a);
        crate::cli::lint::print_findings(&findings);
    }
    Ok(())
}

/// The report as a table for people.
fn print_text(a: &Analysis) {
    println!("move classes: {}", a.table);
    println!(
        "  {:<16} {:<6} {:>6} {:>9} {:>8} {:>8}  starts joined",
        "class", "kind", "slope", "passable", "regions", "islands"
    );
    for c in &a.move_classes {
        let n = c.reachable.len();
        let joined = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .filter(|&(i, j)| c.reachable[i][j])
            .count();
        let pairs = n * n.saturating_sub(1) / 2;
        println!(
            "  {:<16} {:<6} {:>5.0}° {:>8.1}% {:>8} {:>8}  {joined}/{pairs}",
            c.name,
            format!("{:?}", c.kind).to_lowercase(),
            c.max_slope_deg,
            c.passable_share * 100.0,
            c.regions,
            c.islands
        );
    }
    println!("teams (paths by {}):", a.fairness_class);
    println!(
        "  {:<5} {:>16} {:>12} {:>12} {:>18} {:>10}",
        "team", "start", "income 1000", "income 2000", "nearest enemy", "buildable"
    );
    for (i, t) in a.teams.iter().enumerate() {
        println!(
            "  {i:<5} {:>16} {:>12.2} {:>12.2} {:>18} {:>9.0}%",
            format!("({:.0}, {:.0})", t.start[0], t.start[1]),
            t.income_1000,
            t.income_2000,
            t.nearest_enemy_path_elmos
                .map_or("unreachable".to_string(), |d| format!("{d:.0} elmos")),
            t.buildable_share * 100.0
        );
    }
    for u in &a.unfair {
        println!("unfair: {u}");
    }
}
