//! Start boxes as BAR's lobby reads them (maps-metadata's `startboxesSet`, TOOL-FACTS "Start
//! positions and start boxes in BAR (2026)"): for each team count one arrangement of
//! rectangles, each in the lobby's units, 0..200 along each side of the map (x across, y down
//! the map's z), top-left then bottom-right, integers with x1 < x2 and y1 < y2; and how many
//! players share a box. Stored in `map.toml` as `[[start_boxes]]`; not in the archive (BAR reads
//! them from maps-metadata, not from `mapconfig/`).

/// The lobby's units along a side of the map.
pub const LOBBY_UNITS: u32 = 200;
/// The most players a box may hold (maps-metadata's schema).
pub const MAX_PLAYERS_PER_BOX: u32 = 16;

/// One arrangement: the boxes for `teams` teams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartBoxSet {
    /// How many teams (boxes) the arrangement is for.
    pub teams: u32,
    /// `maxPlayersPerStartbox`: players sharing one box (1..=16).
    pub max_players_per_box: u32,
    /// One rectangle per team: `[x1, y1, x2, y2]` in lobby units.
    pub boxes: Vec<[u32; 4]>,
}

impl StartBoxSet {
    /// Whether the arrangement is one the lobby accepts on its own: a box per team, each a
    /// proper rectangle inside 0..200, 1..=16 players a box.
    pub fn check(&self) -> Result<(), String> {
        if self.teams < 1 {
            return Err("a start box arrangement needs at least one team".into());
        }
        if self.boxes.len() != self.teams as usize {
            return Err(format!(
                "the start boxes for {} teams list {} boxes",
                self.teams,
                self.boxes.len()
            ));
        }
        if !(1..=MAX_PLAYERS_PER_BOX).contains(&self.max_players_per_box) {
            return Err(format!(
                "max_players_per_box is {}; the lobby takes 1 to {MAX_PLAYERS_PER_BOX}",
                self.max_players_per_box
            ));
        }
        for (i, b) in self.boxes.iter().enumerate() {
            let [x1, y1, x2, y2] = *b;
            if x1 >= x2 || y1 >= y2 || x2 > LOBBY_UNITS || y2 > LOBBY_UNITS {
                return Err(format!(
                    "start box {} of the {}-team arrangement is [{x1}, {y1}, {x2}, {y2}]: it needs x1 < x2, y1 < y2, all within 0..{LOBBY_UNITS}",
                    i + 1,
                    self.teams
                ));
            }
        }
        Ok(())
    }
}

/// A point in elmos as lobby units on a `width` x `depth` elmo map (not rounded).
pub fn to_units(p: [f32; 2], width_elmos: f32, depth_elmos: f32) -> [f32; 2] {
    [
        p[0] / width_elmos * LOBBY_UNITS as f32,
        p[1] / depth_elmos * LOBBY_UNITS as f32,
    ]
}

/// A point in lobby units as elmos.
pub fn to_elmos(u: [f32; 2], width_elmos: f32, depth_elmos: f32) -> [f32; 2] {
    [
        u[0] / LOBBY_UNITS as f32 * width_elmos,
        u[1] / LOBBY_UNITS as f32 * depth_elmos,
    ]
}

/// A box in elmos (`[x1, z1, x2, z2]`) as the lobby's integer units, rounded to the nearest
/// unit, clamped to the map and kept at least one unit wide.
pub fn box_from_elmos(b: [f32; 4], width_elmos: f32, depth_elmos: f32) -> [u32; 4] {
    let a = to_units([b[0].min(b[2]), b[1].min(b[3])], width_elmos, depth_elmos);
    let c = to_units([b[0].max(b[2]), b[1].max(b[3])], width_elmos, depth_elmos);
    let u = |v: f32| v.round().clamp(0.0, LOBBY_UNITS as f32) as u32;
    let (mut x1, mut y1, mut x2, mut y2) = (u(a[0]), u(a[1]), u(c[0]), u(c[1]));
    if x2 <= x1 {
        (x1, x2) = if x1 >= LOBBY_UNITS {
            (LOBBY_UNITS - 1, LOBBY_UNITS)
        } else {
            (x1, x1 + 1)
        };
    }
    if y2 <= y1 {
        (y1, y2) = if y1 >= LOBBY_UNITS {
            (LOBBY_UNITS - 1, LOBBY_UNITS)
        } else {
            (y1, y1 + 1)
        };
    }
    [x1, y1, x2, y2]
}

/// A box in lobby units as elmos, `[x1, z1, x2, z2]`.
pub fn box_to_elmos(b: [u32; 4], width_elmos: f32, depth_elmos: f32) -> [f32; 4] {
    let a = to_elmos([b[0] as f32, b[1] as f32], width_elmos, depth_elmos);
    let c = to_elmos([b[2] as f32, b[3] as f32], width_elmos, depth_elmos);
    [a[0], a[1], c[0], c[1]]
}

/// Whether point `p` (elmos) lies inside box `b` (lobby units), edges included.
pub fn contains(b: [u32; 4], p: [f32; 2], width_elmos: f32, depth_elmos: f32) -> bool {
    let e = box_to_elmos(b, width_elmos, depth_elmos);
    p[0] >= e[0] && p[0] <= e[2] && p[1] >= e[1] && p[1] <= e[3]
}

/// Whether two boxes share any area (touching edges do not).
pub fn overlap(a: [u32; 4], b: [u32; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arrangement_is_checked_as_the_lobby_checks_it() {
        let ok = StartBoxSet {
            teams: 2,
            max_players_per_box: 4,
            boxes: vec![[0, 0, 40, 200], [160, 0, 200, 200]],
        };
        assert!(ok.check().is_ok());
        let flat = StartBoxSet {
            boxes: vec![[0, 0, 40, 200], [160, 10, 200, 10]],
            ..ok.clone()
        };
        assert!(flat.check().unwrap_err().contains("y1 < y2"));
        let outside = StartBoxSet {
            boxes: vec![[0, 0, 40, 200], [160, 0, 201, 200]],
            ..ok.clone()
        };
        assert!(outside.check().is_err());
        let short = StartBoxSet {
            teams: 3,
            ..ok.clone()
        };
        assert!(short.check().unwrap_err().contains("list 2 boxes"));
        let crowded = StartBoxSet {
            max_players_per_box: 17,
            ..ok
        };
        assert!(crowded.check().is_err());
    }

    #[test]
    fn elmos_and_lobby_units_convert_both_ways() {
        // an 8x12 map: 4096 x 6144 elmos
        let b = box_from_elmos([0.0, 6144.0, 1024.0, 3072.0], 4096.0, 6144.0);
        assert_eq!(b, [0, 100, 50, 200]);
        assert_eq!(
            box_to_elmos(b, 4096.0, 6144.0),
            [0.0, 3072.0, 1024.0, 6144.0]
        );
        assert!(contains(b, [512.0, 4000.0], 4096.0, 6144.0));
        assert!(!contains(b, [1100.0, 4000.0], 4096.0, 6144.0));
        // a box drawn with no width still becomes one unit wide
        let thin = box_from_elmos([4096.0, 10.0, 4096.0, 10.0], 4096.0, 6144.0);
        assert_eq!(thin, [199, 0, 200, 1]);
        assert!(overlap([0, 0, 50, 50], [49, 49, 60, 60]));
        assert!(
            !overlap([0, 0, 50, 50], [50, 0, 60, 50]),
            "touching is not overlapping"
        );
    }
}
