//! The whole analysis of a map: per move class its passable share, regions, which starts
//! reach which, and the path to the nearest enemy; per team the income within 1000 and 2000
//! path elmos (by the fairness class), the buildable share near the start; the spots no land
//! class reaches; and the figures that differ between teams by more than their threshold.

use std::collections::HashMap;

use serde::Serialize;

use super::ground::{GroundMaps, HeightRule};
use super::move_class::{MoveClass, MoveKind};
use super::passability::{Passability, WaterRules};
use super::reach::{Regions, nearest_passable, path_distances, path_to_nearest, square_of};
use crate::map::{Grid, Map};

/// The class team figures use when the table has it: BAR's tech-1 bots.
pub const FAIRNESS_CLASS: &str = "BOT3";
/// Incomes that differ by more than this share of the largest are unfair (lint's
/// `unfair-metal`).
pub const INCOME_TOLERANCE: f32 = 0.05;
/// Path distances to the nearest enemy that differ by more than this share are flagged.
pub const DISTANCE_TOLERANCE: f32 = 0.10;
/// Buildable shares that differ by more than this (0..1) are flagged.
pub const BUILDABLE_TOLERANCE: f32 = 0.10;
/// Regions smaller than this (16 x 16 squares) are pockets, not islands.
pub const ISLAND_MIN_SQUARES: usize = 256;
/// The start area: squares within this many elmos of a start.
pub const START_AREA_RADIUS_ELMOS: f32 = 256.0;
/// BAR's buildings' unit-def `maxSlope` (true degrees): the engine lets a building stand
/// where the ground under it differs from the build height by at most `40 * tan(maxSlope)`.
const BUILD_MAX_SLOPE_DEG: f32 = crate::map::bar::BUILD_MAX_SLOPE_DEG;
/// How far (squares) a start or spot on a blocked square looks for ground to count from.
pub const SNAP_SQUARES: usize = 3;

/// One class's figures.
#[derive(Clone, Debug, Serialize)]
pub struct ClassReport {
    pub name: String,
    pub kind: MoveKind,
    pub max_slope_deg: f32,
    pub passable_share: f32,
    /// `reachable[i][j]`: team i's start reaches team j's.
    pub reachable: Vec<Vec<bool>>,
    /// Connected regions of passable ground, and how many of them of at least
    /// [`ISLAND_MIN_SQUARES`] hold no start (islands).
    pub regions: usize,
    pub islands: usize,
    /// The share of the map's squares in regions that hold a start.
    pub reachable_share: f32,
    /// Per team: the path in elmos to the nearest enemy start, `None` when none is reached.
    pub nearest_enemy_path_elmos: Vec<Option<f32>>,
}

/// One team's figures.
#[derive(Clone, Debug, Serialize)]
pub struct TeamReport {
    pub start: [f32; 2],
    /// Tech-1 metal per second of the spots within 1000 and 2000 path elmos of the start.
    pub income_1000: f32,
    pub income_2000: f32,
    /// By the fairness class.
    pub nearest_enemy_path_elmos: Option<f32>,
    /// The share of the start area BAR's buildings can stand on.
    pub buildable_share: f32,
    /// Whether the start lies on the map at all.
    pub on_map: bool,
}

/// The analysis of one map.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// Which move class table was used.
    pub table: String,
    pub fairness_class: String,
    pub move_classes: Vec<ClassReport>,
    pub teams: Vec<TeamReport>,
    /// Spot centres (elmos) no land class (tank or bot, not all-terrain) reaches from any start.
    pub unreachable_spots: Vec<[f32; 2]>,
    /// Pairs of starts (i < j) that no land class joins, and whether a hover does (a sea route).
    pub land_cut_pairs: Vec<(usize, usize, bool)>,
    /// Figures that differ between teams past their threshold, in words.
    pub unfair: Vec<String>,
}

/// The state of every class over the map, with the regions of each distinct passable set
/// computed once.
pub struct ClassMaps {
    pub ground: GroundMaps,
    pub passes: Vec<Passability>,
    /// `region_of[k]` indexes `regions` for class k.
    region_of: Vec<usize>,
    regions: Vec<Regions>,
}

impl ClassMaps {
    pub fn new(map: &Map, classes: &[MoveClass]) -> ClassMaps {
        ClassMaps::with_rule(map, classes, HeightRule::HighestCorner)
    }

    /// The maps with the water depth read by `rule` (the engine version's).
    pub fn with_rule(map: &Map, classes: &[MoveClass], rule: HeightRule) -> ClassMaps {
        let mut ground = GroundMaps::engine(map);
        ground.height_rule = rule;
        let water = WaterRules::for_damage(map.settings.water.damage.unwrap_or(0.0));
        let passes: Vec<Passability> = classes
            .iter()
            .map(|c| Passability::of(c, water, &ground))
            .collect();
        let mut seen: HashMap<Vec<u64>, usize> = HashMap::new();
        let mut regions = Vec::new();
        let mut region_of = Vec::new();
        for p in &passes {
            let mut bits = vec![0u64; p.states.len().div_ceil(64)];
            for (i, s) in p.states.iter().enumerate() {
                if s.passable() {
                    bits[i / 64] |= 1 << (i % 64);
                }
            }
            let k = *seen.entry(bits).or_insert_with(|| {
                regions.push(Regions::of(p));
                regions.len() - 1
            });
            region_of.push(k);
        }
        ClassMaps {
            ground,
            passes,
            region_of,
            regions,
        }
    }

    pub fn regions(&self, class: usize) -> &Regions {
        &self.regions[self.region_of[class]]
    }

    /// The region a point (elmos) belongs to for `class`, from the ground beside it when it
    /// stands on a blocked square; 0 when there is none near.
    pub fn region_at(&self, class: usize, p: [f32; 2]) -> u32 {
        let pass = &self.passes[class];
        let (x, z) = square_of(pass, p[0], p[1]);
        nearest_passable(pass, x, z, SNAP_SQUARES)
            .map_or(0, |(x, z)| self.regions(class).at(pass.mapx, x, z))
    }
}

/// Ground this close below sea level still counts as land (the height words round 0 down).
const LAND_TOLERANCE_ELMOS: f32 = 1.0;
/// A building's footprint in squares for the start-area check: a tech-1 factory's 6 x 6.
const BUILD_FOOTPRINT_SQUARES: usize = 6;

/// Whether a factory can stand with its footprint's corner at the slope cell (hx, hz): every
/// corner height under it lies within BAR's `maxHeightDif` (`40 * tan(maxSlope)`) of their
/// mean (the build height), on land.
fn buildable_cell(h: &Grid<f32>, hx: usize, hz: usize) -> bool {
    let max_dif = 40.0 * BUILD_MAX_SLOPE_DEG.to_radians().tan();
    let n = BUILD_FOOTPRINT_SQUARES + 1;
    let (w, d) = h.dims();
    if hx * 2 + n > w || hz * 2 + n > d {
        return false;
    }
    let mut sum = 0.0f32;
    for dz in 0..n {
        for dx in 0..n {
            sum += h.get(hx * 2 + dx, hz * 2 + dz);
        }
    }
    let mean = sum / (n * n) as f32;
    (0..n).all(|dz| {
        (0..n).all(|dx| {
            let c = h.get(hx * 2 + dx, hz * 2 + dz);
            (c - mean).abs() <= max_dif && c > -LAND_TOLERANCE_ELMOS
        })
    })
}

/// The share of the start area around `p` that can hold buildings.
pub fn buildable_share(heights: &Grid<f32>, p: [f32; 2]) -> f32 {
    let (w, h) = heights.dims();
    let (hx, hz) = ((w - 1) / 2, (h - 1) / 2);
    let r = START_AREA_RADIUS_ELMOS;
    let (mut yes, mut all) = (0usize, 0usize);
    for cz in 0..hz {
        for cx in 0..hx {
            let (x, z) = ((cx as f32 + 0.5) * 16.0, (cz as f32 + 0.5) * 16.0);
            if (x - p[0]).powi(2) + (z - p[1]).powi(2) > r * r {
                continue;
            }
            all += 1;
            yes += buildable_cell(heights, cx, cz) as usize;
        }
    }
    if all == 0 {
        0.0
    } else {
        yes as f32 / all as f32
    }
}

/// The class team figures use: [`FAIRNESS_CLASS`], else the first land class.
fn fairness_index(classes: &[MoveClass]) -> Option<usize> {
    classes
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(FAIRNESS_CLASS))
        .or_else(|| {
            classes
                .iter()
                .position(|c| c.is_land() && !c.is_all_terrain())
        })
}

/// A spread past `tolerance` of the largest, in words, or `None`.
fn spread(what: &str, values: &[f32], tolerance: f32, relative: bool) -> Option<String> {
    if values.len() < 2 {
        return None;
    }
    let (lo, hi) = values
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    let (gap, limit) = if relative {
        (hi - lo, tolerance * hi.abs())
    } else {
        (hi - lo, tolerance)
    };
    (gap > limit + 1e-6).then(|| {
        let (lo_t, hi_t) = (
            values.iter().position(|&v| v == lo).unwrap_or(0),
            values.iter().position(|&v| v == hi).unwrap_or(0),
        );
        format!(
            "{what}: team {lo_t} has {lo:.2}, team {hi_t} {hi:.2} (over {:.0}% apart)",
            tolerance * 100.0
        )
    })
}

/// Analyses `map` with `classes` as Recoil (BAR's engine) paths it; `table` names where the
/// classes came from.
pub fn analyze(map: &Map, classes: &[MoveClass], table: &str) -> Analysis {
    analyze_with(map, classes, table, HeightRule::HighestCorner)
}

/// [`analyze`] with the water depth read by `rule`: [`HeightRule::CellMean`] for Spring 106.
pub fn analyze_with(map: &Map, classes: &[MoveClass], table: &str, rule: HeightRule) -> Analysis {
    let maps = ClassMaps::with_rule(map, classes, rule);
    let starts: Vec<[f32; 2]> = map
        .teams
        .iter()
        .map(|t| [t.start_x_elmos, t.start_z_elmos])
        .collect();
    let n = starts.len();
    let squares = (maps.ground.mapx * maps.ground.mapy).max(1);
    let mut reports = Vec::new();
    // classes with the same passable squares have the same paths
    let mut nearest_by_regions: HashMap<usize, Vec<Option<f32>>> = HashMap::new();
    for (k, c) in classes.iter().enumerate() {
        let regions = maps.regions(k);
        let pass = &maps.passes[k];
        let at: Vec<u32> = starts.iter().map(|&p| maps.region_at(k, p)).collect();
        let reachable = (0..n)
            .map(|i| (0..n).map(|j| at[i] != 0 && at[i] == at[j]).collect())
            .collect();
        let held: std::collections::BTreeSet<u32> =
            at.iter().copied().filter(|&r| r != 0).collect();
        let reach_squares: usize = held.iter().map(|&r| regions.sizes[r as usize - 1]).sum();
        let snapped: Vec<Option<(usize, usize)>> = starts
            .iter()
            .map(|&p| {
                let (x, z) = square_of(pass, p[0], p[1]);
                nearest_passable(pass, x, z, SNAP_SQUARES)
            })
            .collect();
        let nearest = nearest_by_regions
            .entry(maps.region_of[k])
            .or_insert_with(|| {
                (0..n)
                    .map(|i| {
                        let from = snapped[i]?;
                        let targets: Vec<usize> = (0..n)
                            .filter(|&j| j != i && at[j] != 0 && at[j] == at[i])
                            .filter_map(|j| snapped[j].map(|(x, z)| z * pass.mapx + x))
                            .collect();
                        path_to_nearest(pass, from, &targets)
                    })
                    .collect()
            })
            .clone();
        reports.push(ClassReport {
            name: c.name.clone(),
            kind: c.kind,
            max_slope_deg: c.max_slope_deg,
            passable_share: pass.passable_share(),
            reachable,
            regions: regions.sizes.len(),
            islands: (1..=regions.sizes.len() as u32)
                .filter(|r| {
                    !held.contains(r) && regions.sizes[*r as usize - 1] >= ISLAND_MIN_SQUARES
                })
                .count(),
            reachable_share: reach_squares as f32 / squares as f32,
            nearest_enemy_path_elmos: nearest,
        });
    }
    let spots = map.metal_report().spots;
    let heights = super::ground::engine_heights(map);
    let fair = fairness_index(classes);
    let teams: Vec<TeamReport> = (0..n)
        .map(|i| {
            let (mut i1, mut i2) = (0.0, 0.0);
            if let Some(k) = fair {
                let pass = &maps.passes[k];
                let (x, z) = square_of(pass, starts[i][0], starts[i][1]);
                if let Some(from) = nearest_passable(pass, x, z, SNAP_SQUARES) {
                    let d = path_distances(pass, from, 2000.0);
                    for s in &spots {
                        let (sx, sz) = square_of(pass, s.x_elmos, s.z_elmos);
                        let Some((px, pz)) = nearest_passable(pass, sx, sz, SNAP_SQUARES) else {
                            continue;
                        };
                        let dist = d[pz * pass.mapx + px];
                        if dist <= 1000.0 {
                            i1 += s.t1_income;
                        }
                        if dist <= 2000.0 {
                            i2 += s.t1_income;
                        }
                    }
                }
            }
            TeamReport {
                start: starts[i],
                income_1000: i1,
                income_2000: i2,
                nearest_enemy_path_elmos: fair.and_then(|k| reports[k].nearest_enemy_path_elmos[i]),
                buildable_share: buildable_share(&heights, starts[i]),
                on_map: (0.0..=map.size.width_elmos()).contains(&starts[i][0])
                    && (0.0..=map.size.depth_elmos()).contains(&starts[i][1]),
            }
        })
        .collect();
    let land: Vec<usize> = (0..classes.len())
        .filter(|&k| classes[k].is_land() && !classes[k].is_all_terrain())
        .collect();
    let hovers: Vec<usize> = (0..classes.len())
        .filter(|&k| classes[k].kind == MoveKind::Hover)
        .collect();
    let unreachable_spots = spots
        .iter()
        .map(|s| [s.x_elmos, s.z_elmos])
        .filter(|&p| {
            !land.iter().any(|&k| {
                let r = maps.region_at(k, p);
                r != 0 && starts.iter().any(|&s| maps.region_at(k, s) == r)
            })
        })
        .collect();
    let mut land_cut_pairs = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if !land.iter().any(|&k| reports[k].reachable[i][j]) {
                let sea = hovers.iter().any(|&k| reports[k].reachable[i][j]);
                land_cut_pairs.push((i, j, sea));
            }
        }
    }
    let mut unfair = Vec::new();
    let col = |f: fn(&TeamReport) -> f32| teams.iter().map(f).collect::<Vec<f32>>();
    unfair.extend(spread(
        "income within 1000 elmos (metal/s)",
        &col(|t| t.income_1000),
        INCOME_TOLERANCE,
        true,
    ));
    unfair.extend(spread(
        "income within 2000 elmos (metal/s)",
        &col(|t| t.income_2000),
        INCOME_TOLERANCE,
        true,
    ));
    if teams.iter().all(|t| t.nearest_enemy_path_elmos.is_some()) {
        unfair.extend(spread(
            "path to the nearest enemy (elmos)",
            &col(|t| t.nearest_enemy_path_elmos.unwrap_or(0.0)),
            DISTANCE_TOLERANCE,
            true,
        ));
    }
    unfair.extend(spread(
        "buildable share of the start area",
        &col(|t| t.buildable_share),
        BUILDABLE_TOLERANCE,
        false,
    ));
    Analysis {
        table: table.to_string(),
        fairness_class: fair.map_or(String::new(), |k| classes[k].name.clone()),
        move_classes: reports,
        teams,
        unreachable_spots,
        land_cut_pairs,
        unfair,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::analyze::move_class::bar_classes;
    use crate::test_support::wall_map;

    fn class<'a>(a: &'a Analysis, name: &str) -> &'a ClassReport {
        a.move_classes.iter().find(|c| c.name == name).unwrap()
    }

    #[test]
    fn a_40_degree_wall_stops_tanks_lets_bots_over_and_hovers_round_by_sea() {
        let m = wall_map();
        let a = analyze(&m, &bar_classes(), "built-in");
        assert!(!class(&a, "TANK2").reachable[0][1], "tanks cross the wall");
        assert!(class(&a, "TANK2").reachable[0][0]);
        assert!(
            class(&a, "BOT3").reachable[0][1],
            "bots stopped by 40 degrees"
        );
        assert!(
            !class(&a, "HOVER2").reachable[0][1] || {
                // the hover's way is over the sea: it cannot climb the ridge itself
                let maps = ClassMaps::new(&m, &bar_classes());
                let k = bar_classes()
                    .iter()
                    .position(|c| c.name == "HOVER2")
                    .unwrap();
                let (x, z) = (2048 / 8, 600 / 8);
                !maps.passes[k].passable(x + 10, z)
            }
        );
        assert!(
            class(&a, "HOVER2").reachable[0][1],
            "hovers do not cross the sea"
        );
        assert!(!class(&a, "BOAT3").reachable[0][1]);
        // a tank's nearest enemy is unreachable; a bot's path is about the straight line
        assert_eq!(
            class(&a, "TANK2").nearest_enemy_path_elmos,
            vec![None, None]
        );
        let bot = class(&a, "BOT3").nearest_enemy_path_elmos[0].unwrap();
        assert!((2496.0..2700.0).contains(&bot), "{bot}");
        let hover = class(&a, "HOVER2").nearest_enemy_path_elmos[0].unwrap();
        assert!(hover > bot + 500.0, "{hover} vs {bot}");
        assert!(a.land_cut_pairs.is_empty());
        // both sides are the same: nothing unfair
        assert!(a.unfair.is_empty(), "{:?}", a.unfair);
        assert!(a.teams.iter().all(|t| t.buildable_share > 0.99));
    }

    #[test]
    fn a_start_on_a_cliff_has_no_room_to_build_and_unequal_metal_is_flagged() {
        let mut m = wall_map();
        m.teams[1].start_x_elmos = 2048.0 + 60.0;
        crate::map::metal::paint_dome(&mut m.metal, 900.0, 800.0, 48.0, 120.0);
        let a = analyze(&m, &bar_classes(), "built-in");
        assert!(
            a.teams[1].buildable_share < 0.6,
            "{}",
            a.teams[1].buildable_share
        );
        assert!(a.teams[0].income_1000 > 0.0 && a.teams[1].income_1000 == 0.0);
        assert!(
            a.unfair.iter().any(|u| u.starts_with("income within 1000")),
            "{:?}",
            a.unfair
        );
        assert!(
            a.unfair.iter().any(|u| u.starts_with("buildable")),
            "{:?}",
            a.unfair
        );
    }
}
