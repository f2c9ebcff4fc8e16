//! Each square's speed for one move class, as `CMoveMath::GetPosSpeedMod` gives it with the
//! terrain-type speeds left out: the highest corner's height, the slope cell's slope, the
//! class's limits. QTPFS tests a footprint's centre square only, so one square decides.

use super::ground::{GroundMaps, HeightRule, cell_slope, square_height_of};
use super::move_class::{MoveClass, MoveKind};
use crate::map::Grid;

/// The engine's water damage rules that change speeds (`MoveDefHandler::Init`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterRules {
    /// Ground units' speed factor under water: `1 / (1 + damage * 0.1)`, 0 at 1000 or more.
    pub ground_cost: f32,
    /// Hovers cannot move on water (damage 10000 or more).
    pub no_hover_water: bool,
}

impl WaterRules {
    /// The rules for `mapinfo.water.damage`.
    pub fn for_damage(damage: f32) -> WaterRules {
        WaterRules {
            ground_cost: if damage >= 1e3 {
                0.0
            } else {
                1.0 / (1.0 + damage * 0.1)
            },
            no_hover_water: damage >= 1e4,
        }
    }
}

/// What a square is to a class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SquareState {
    /// It moves here at this factor (0 < speed).
    Speed(f32),
    /// Too steep.
    TooSteep,
    /// Too deep (ground units) or too shallow (ships), or water a hover may not cross.
    Water,
}

impl SquareState {
    pub fn speed(self) -> f32 {
        match self {
            SquareState::Speed(s) => s,
            _ => 0.0,
        }
    }
    pub fn passable(self) -> bool {
        self.speed() > 0.0
    }
    /// The one float the overlay and the GPU read: the speed, 0 too steep, -1 water.
    pub fn code(self) -> f32 {
        match self {
            SquareState::Speed(s) => s,
            SquareState::TooSteep => 0.0,
            SquareState::Water => -1.0,
        }
    }
}

/// The engine's speed factor for a square of highest corner `height` and slope `slope`.
pub fn square_state(class: &MoveClass, water: WaterRules, height: f32, slope: f32) -> SquareState {
    match class.kind {
        MoveKind::Tank | MoveKind::Bot => {
            if slope > class.max_slope() {
                return SquareState::TooSteep;
            }
            if -height > class.max_water_depth {
                return SquareState::Water;
            }
            let mut speed = 1.0 / (1.0 + slope * class.slope_mod);
            speed *= if height < 0.0 { water.ground_cost } else { 1.0 };
            speed *= class.depth_factor(height);
            if speed > 0.0 {
                SquareState::Speed(speed)
            } else {
                SquareState::Water
            }
        }
        MoveKind::Hover => {
            if height < 0.0 {
                return if water.no_hover_water {
                    SquareState::Water
                } else {
                    SquareState::Speed(1.0)
                };
            }
            if slope > class.max_slope() {
                return SquareState::TooSteep;
            }
            SquareState::Speed(1.0 / (1.0 + slope * class.slope_mod))
        }
        MoveKind::Ship => {
            if -height < class.min_water_depth {
                SquareState::Water
            } else {
                SquareState::Speed(1.0)
            }
        }
    }
}

/// The CPU twin of `shaders/pathing.wgsl`: the [`SquareState::code`] of every square in
/// `x0..x1` x `z0..z1` (rows of `x1 - x0`), straight from the corner heights `heights`
/// ((mapx + 1) x (mapy + 1)), as the live overlay holds them.
#[allow(clippy::too_many_arguments)]
pub fn codes_rect(
    heights: &Grid<f32>,
    class: &MoveClass,
    water: WaterRules,
    rule: HeightRule,
    x0: usize,
    z0: usize,
    x1: usize,
    z1: usize,
) -> Vec<f32> {
    let mut out = Vec::with_capacity((x1 - x0) * (z1 - z0));
    for z in z0..z1 {
        for x in x0..x1 {
            let height = square_height_of(heights, rule, x, z);
            let slope = cell_slope(heights, x / 2, z / 2);
            out.push(square_state(class, water, height, slope).code());
        }
    }
    out
}

/// One class's state of every square.
#[derive(Clone, Debug, PartialEq)]
pub struct Passability {
    pub mapx: usize,
    pub mapy: usize,
    pub states: Vec<SquareState>,
}

impl Passability {
    pub fn of(class: &MoveClass, water: WaterRules, ground: &GroundMaps) -> Passability {
        let mut p = Passability {
            mapx: ground.mapx,
            mapy: ground.mapy,
            states: vec![SquareState::TooSteep; ground.mapx * ground.mapy],
        };
        p.update_rect(class, water, ground, 0, 0, ground.mapx, ground.mapy);
        p
    }

    /// Recomputes the squares in `x0..x1` x `z0..z1`.
    #[allow(clippy::too_many_arguments)]
    pub fn update_rect(
        &mut self,
        class: &MoveClass,
        water: WaterRules,
        ground: &GroundMaps,
        x0: usize,
        z0: usize,
        x1: usize,
        z1: usize,
    ) {
        for z in z0..z1.min(self.mapy) {
            for x in x0..x1.min(self.mapx) {
                self.states[z * self.mapx + x] = square_state(
                    class,
                    water,
                    ground.square_height(x, z),
                    ground.square_slope(x, z),
                );
            }
        }
    }

    pub fn passable(&self, x: usize, z: usize) -> bool {
        self.states[z * self.mapx + x].passable()
    }

    /// The share of squares the class can stand on.
    pub fn passable_share(&self) -> f32 {
        let n = self.states.iter().filter(|s| s.passable()).count();
        n as f32 / self.states.len().max(1) as f32
    }

    /// The `--passable-png` bytes: one grey byte a square, row 0 at z = 0; 0 blocked, else
    /// `max(1, round(255 * speed))`.
    pub fn grey_bytes(&self) -> Vec<u8> {
        self.states
            .iter()
            .map(|s| match s {
                SquareState::Speed(v) => (255.0 * v).round().clamp(1.0, 255.0) as u8,
                _ => 0,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::move_class::bar_classes;

    fn class(name: &str) -> MoveClass {
        bar_classes().into_iter().find(|c| c.name == name).unwrap()
    }

    fn slope_of(deg: f32) -> f32 {
        1.0 - deg.to_radians().cos()
    }

    #[test]
    fn a_class_is_blocked_exactly_past_the_slope_it_names() {
        let dry = WaterRules::for_damage(0.0);
        let tank = class("TANK2");
        assert!(square_state(&tank, dry, 10.0, slope_of(26.9)).passable());
        assert_eq!(
            square_state(&tank, dry, 10.0, slope_of(27.1)),
            SquareState::TooSteep
        );
        let bot = class("BOT3");
        assert!(square_state(&bot, dry, 10.0, slope_of(53.9)).passable());
        assert_eq!(
            square_state(&bot, dry, 10.0, slope_of(54.1)),
            SquareState::TooSteep
        );
        // the engine's slowdown on a slope
        let s = slope_of(20.0);
        let want = 1.0 / (1.0 + s * tank.slope_mod);
        assert!((square_state(&tank, dry, 10.0, s).speed() - want).abs() < 1e-6);
    }

    #[test]
    fn water_blocks_by_depth_per_kind() {
        let dry = WaterRules::for_damage(0.0);
        let tank = class("TANK2");
        assert!(square_state(&tank, dry, -21.0, 0.0).passable());
        assert_eq!(square_state(&tank, dry, -23.0, 0.0), SquareState::Water);
        let hover = class("HOVER2");
        assert_eq!(
            square_state(&hover, dry, -500.0, 0.9),
            SquareState::Speed(1.0)
        );
        assert_eq!(
            square_state(&hover, dry, 5.0, slope_of(34.0)),
            SquareState::TooSteep
        );
        let boat = class("BOAT3");
        assert_eq!(square_state(&boat, dry, -7.0, 0.0), SquareState::Water);
        assert!(square_state(&boat, dry, -9.0, 0.0).passable());
        // lava: ground units stop in it, hovers too past 10000
        assert_eq!(
            square_state(&tank, WaterRules::for_damage(1000.0), -1.0, 0.0),
            SquareState::Water
        );
        assert!(square_state(&hover, WaterRules::for_damage(5000.0), -1.0, 0.0).passable());
        assert!(!square_state(&hover, WaterRules::for_damage(1e4), -1.0, 0.0).passable());
    }

    #[test]
    fn the_overlays_codes_are_the_analysis_states_under_both_height_rules() {
        // a bumpy shore: slopes of every size, land and water
        let (mapx, mapy) = (16, 12);
        let mut h = Grid::filled(mapx + 1, mapy + 1, 0.0);
        for z in 0..=mapy {
            for x in 0..=mapx {
                let v = (x as f32 * 0.9).sin() * 14.0 + (z as f32 * 1.3).cos() * 9.0 - 6.0
                    + if (x + z) % 5 == 0 { 11.0 } else { 0.0 };
                h.set(x, z, v);
            }
        }
        let water = WaterRules::for_damage(0.0);
        for rule in [HeightRule::HighestCorner, HeightRule::CellMean] {
            let mut ground = GroundMaps::from_heights(&h);
            ground.height_rule = rule;
            for c in bar_classes() {
                let whole = Passability::of(&c, water, &ground);
                let codes = codes_rect(&h, &c, water, rule, 0, 0, mapx, mapy);
                let want: Vec<f32> = whole.states.iter().map(|s| s.code()).collect();
                assert_eq!(codes, want, "{} {rule:?}", c.name);
                // a rectangle is the same squares as the whole
                let part = codes_rect(&h, &c, water, rule, 3, 2, 9, 7);
                for (k, v) in part.iter().enumerate() {
                    let (x, z) = (3 + k % 6, 2 + k / 6);
                    assert_eq!(*v, want[z * mapx + x]);
                }
            }
        }
    }

    #[test]
    fn the_grey_picture_keeps_zero_for_blocked_squares_only() {
        let p = Passability {
            mapx: 3,
            mapy: 1,
            states: vec![
                SquareState::Speed(0.001),
                SquareState::TooSteep,
                SquareState::Speed(1.0),
            ],
        };
        assert_eq!(p.grey_bytes(), vec![1, 0, 255]);
    }
}
