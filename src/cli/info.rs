//! `groundwork info MAP|PROJECT [--json]`: what a map holds, at a glance, and the lint's
//! findings (one list, with what the reader had to guess).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::json;

use crate::formats::open_map;
use crate::lint::Severity;

#[derive(clap::Args, Debug)]
pub struct InfoArgs {
    /// A map archive, a bare .smf, or a project folder.
    pub map: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: InfoArgs) -> Result<(), String> {
    let loaded = open_map(&args.map).map_err(|e| e.to_string())?;
    let m = &loaded.map;
    let s = &m.settings;
    let (h_lo, h_hi) = m.heights.min_max();
    let report = m.metal_report();
    let spots = &report.spots;
    let metal_sum: u64 = m.metal.data().iter().map(|&b| b as u64).sum();
    let mut features: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &m.features {
        *features.entry(&f.name).or_default() += 1;
    }
    // one list: the lint's, which holds what the reader had to guess as well
    let findings = crate::lint::lint_loaded(&loaded, &crate::cli::lint::game_context());
    let info = json!({
        "name": s.name,
        "version": s.version,
        "size_units": [m.size.width_units(), m.size.height_units()],
        "size_squares": [m.size.squares_x(), m.size.squares_z()],
        "size_elmos": [m.size.width_elmos(), m.size.depth_elmos()],
        "heights": {
            "min_height": s.min_height_elmos, "max_height": s.max_height_elmos,
            "lowest": h_lo, "highest": h_hi,
        },
        "metal": {
            "max_metal": s.max_metal, "extractor_radius": s.extractor_radius_elmos,
            "byte_sum": metal_sum, "spots": spots.len(),
            "nonzero_cells": m.metal.data().iter().filter(|&&b| b > 0).count(),
            "metal_map": report.metal_map,
            "income_per_side": report.income_per_side,
            "spot_list": spots.iter().map(|p| json!({
                "x": p.x_elmos, "z": p.z_elmos, "cells": p.cells, "worth": p.worth,
                "t1_income": p.t1_income, "moho_income": p.moho_income,
            })).collect::<Vec<_>>(),
        },
        "tiles": loaded.tile_counts.map(|(total, distinct)| json!({"total": total, "distinct": distinct})),
        "texture": [m.texture.width(), m.texture.height()],
        "features": features,
        "teams": m.teams.iter().map(|t| [t.start_x_elmos, t.start_z_elmos]).collect::<Vec<_>>(),
        "terrain_types": s.terrain_types.iter().map(|(i, t)| (i.to_string(), t.name.clone())).collect::<BTreeMap<_, _>>(),
        "bundled_files": m.bundled_files.len(),
        "findings": findings,
    });
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&info).unwrap_or_default()
        );
        return Ok(());
    }
    println!("{} {}", s.name, s.version);
    println!(
        "  size      {} map units ({} x {} squares, {} x {} elmos)",
        m.size,
        m.size.squares_x(),
        m.size.squares_z(),
        m.size.width_elmos(),
        m.size.depth_elmos()
    );
    println!(
        "  heights   range {} .. {} elmos; ground {h_lo:.1} .. {h_hi:.1}",
        s.min_height_elmos, s.max_height_elmos
    );
    println!(
        "  metal     {} spots, maxMetal {}, extractorRadius {} elmos, byte sum {metal_sum}",
        spots.len(),
        s.max_metal,
        s.extractor_radius_elmos
    );
    for p in spots.iter().take(24) {
        println!(
            "              ({:.0}, {:.0}): {} cells, worth {:.2}, T1 {:.2}/s, moho {:.2}/s",
            p.x_elmos, p.z_elmos, p.cells, p.worth, p.t1_income, p.moho_income
        );
    }
    if spots.len() > 24 {
        println!("              ... {} more", spots.len() - 24);
    }
    match loaded.tile_counts {
        Some((total, distinct)) => println!("  tiles     {distinct} distinct of {total}"),
        None => println!(
            "  texture   {} x {} texels",
            m.texture.width(),
            m.texture.height()
        ),
    }
    println!(
        "  features  {} ({} kinds)",
        m.features.len(),
        features.len()
    );
    for (name, n) in features.iter().take(12) {
        println!("              {n:>5} {name}");
    }
    println!("  teams     {}", m.teams.len());
    for (i, t) in m.teams.iter().enumerate() {
        println!(
            "              {i}: ({}, {})",
            t.start_x_elmos, t.start_z_elmos
        );
    }
    for f in &findings {
        let severity = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        println!("  {severity:<9} [{}] {}", f.rule, f.message);
    }
    Ok(())
}
