//! The map's symmetry mode: how a fair map repeats itself for its teams. The document records
//! it (saved in `map.toml`); [`images`] turns it into the rigid maps (mirrors, turns) that copy
//! a place to its partners, which every tool (`edit::symmetry`) and check (`lint`) uses.

use std::fmt;
use std::str::FromStr;

/// How the map repeats. Mirrors and the 180-degree turn work on any map; the diagonals and
/// turns by more than two copies need a square map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SymmetryMode {
    #[default]
    None,
    /// x -> W - x.
    MirrorX,
    /// z -> H - z.
    MirrorZ,
    /// Both mirrors: four copies.
    MirrorXZ,
    /// (x, z) -> (z, x): the diagonal from the (0, 0) corner.
    Diagonal,
    /// (x, z) -> (W - z, W - x): the diagonal's 180-degree partner, from the (W, 0) corner.
    AntiDiagonal,
    /// `n` copies turned about the centre (n = 2, 3, 4, 6, 8).
    Rotate(u8),
}

/// The turn counts [`SymmetryMode::Rotate`] takes.
const ROTATION_COPIES: [u8; 5] = [2, 3, 4, 6, 8];

impl SymmetryMode {
    /// Every mode, in the order the editor lists them.
    pub const ALL: [SymmetryMode; 11] = [
        SymmetryMode::None,
        SymmetryMode::MirrorX,
        SymmetryMode::MirrorZ,
        SymmetryMode::MirrorXZ,
        SymmetryMode::Diagonal,
        SymmetryMode::AntiDiagonal,
        SymmetryMode::Rotate(2),
        SymmetryMode::Rotate(3),
        SymmetryMode::Rotate(4),
        SymmetryMode::Rotate(6),
        SymmetryMode::Rotate(8),
    ];

    /// How many copies of each edit the mode makes (1 for none).
    pub fn copies(self) -> usize {
        match self {
            SymmetryMode::None => 1,
            SymmetryMode::MirrorX | SymmetryMode::MirrorZ => 2,
            SymmetryMode::Diagonal | SymmetryMode::AntiDiagonal => 2,
            SymmetryMode::MirrorXZ => 4,
            SymmetryMode::Rotate(n) => n as usize,
        }
    }

    /// Whether the mode only makes sense on a square map.
    pub fn needs_square(self) -> bool {
        match self {
            SymmetryMode::Diagonal | SymmetryMode::AntiDiagonal => true,
            SymmetryMode::Rotate(n) => n > 2,
            _ => false,
        }
    }

    /// `Ok` when the mode works on a `width` x `depth` map, else a message saying why not.
    pub fn check_map(self, width_units: u32, depth_units: u32) -> Result<(), String> {
        if self.needs_square() && width_units != depth_units {
            return Err(format!(
                "symmetry {self} needs a square map, and this one is {width_units}x{depth_units}"
            ));
        }
        Ok(())
    }

    /// A few words for the editor's list.
    pub fn label(self) -> String {
        match self {
            SymmetryMode::None => "None".into(),
            SymmetryMode::MirrorX => "Mirror X (left | right)".into(),
            SymmetryMode::MirrorZ => "Mirror Z (top | bottom)".into(),
            SymmetryMode::MirrorXZ => "Mirror X and Z (4 copies)".into(),
            SymmetryMode::Diagonal => "Diagonal (x, z) -> (z, x)".into(),
            SymmetryMode::AntiDiagonal => "Anti-diagonal (x, z) -> (W-z, W-x)".into(),
            SymmetryMode::Rotate(n) => format!("Rotate {n} about the centre"),
        }
    }
}

impl fmt::Display for SymmetryMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymmetryMode::None => f.write_str("none"),
            SymmetryMode::MirrorX => f.write_str("mirror-x"),
            SymmetryMode::MirrorZ => f.write_str("mirror-z"),
            SymmetryMode::MirrorXZ => f.write_str("mirror-xz"),
            SymmetryMode::Diagonal => f.write_str("diagonal"),
            SymmetryMode::AntiDiagonal => f.write_str("anti-diagonal"),
            SymmetryMode::Rotate(n) => write!(f, "rotate-{n}"),
        }
    }
}

impl FromStr for SymmetryMode {
    type Err = String;

    /// The names `map.toml` and ops files use: `none`, `mirror-x`, `mirror-z`, `mirror-xz`,
    /// `diagonal`, `anti-diagonal`, `rotate-N` (N = 2, 3, 4, 6, 8).
    fn from_str(s: &str) -> Result<SymmetryMode, String> {
        let mode = match s {
            "none" => SymmetryMode::None,
            "mirror-x" => SymmetryMode::MirrorX,
            "mirror-z" => SymmetryMode::MirrorZ,
            "mirror-xz" => SymmetryMode::MirrorXZ,
            "diagonal" => SymmetryMode::Diagonal,
            "anti-diagonal" => SymmetryMode::AntiDiagonal,
            _ => {
                let n = s
                    .strip_prefix("rotate-")
                    .and_then(|n| n.parse::<u8>().ok())
                    .filter(|n| ROTATION_COPIES.contains(n));
                match n {
                    Some(n) => SymmetryMode::Rotate(n),
                    None => {
                        return Err(format!(
                            "unknown symmetry \"{s}\" (none, mirror-x, mirror-z, mirror-xz, \
                             diagonal, anti-diagonal, rotate-2, rotate-3, rotate-4, rotate-6, rotate-8)"
                        ));
                    }
                }
            }
        };
        Ok(mode)
    }
}

/// A rigid map of the plane: `p' = a * p + b` (a is orthogonal).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Isometry {
    /// Row-major 2x2.
    pub a: [[f32; 2]; 2],
    pub b: [f32; 2],
}

impl Isometry {
    pub const IDENTITY: Isometry = Isometry {
        a: [[1.0, 0.0], [0.0, 1.0]],
        b: [0.0, 0.0],
    };

    pub fn apply(&self, p: [f32; 2]) -> [f32; 2] {
        [
            self.a[0][0] * p[0] + self.a[0][1] * p[1] + self.b[0],
            self.a[1][0] * p[0] + self.a[1][1] * p[1] + self.b[1],
        ]
    }

    /// A direction (no translation).
    pub fn turn(&self, v: [f32; 2]) -> [f32; 2] {
        [
            self.a[0][0] * v[0] + self.a[0][1] * v[1],
            self.a[1][0] * v[0] + self.a[1][1] * v[1],
        ]
    }

    /// Whether it flips handedness (a mirror).
    pub fn mirrors(&self) -> bool {
        self.a[0][0] * self.a[1][1] - self.a[0][1] * self.a[1][0] < 0.0
    }
}

/// Two points within `tol` elmos of each other on both axes: one place, as the images of
/// a placed thing (a start, a feature) are matched.
pub fn near(a: [f32; 2], b: [f32; 2], tol: f32) -> bool {
    (a[0] - b[0]).abs() <= tol && (a[1] - b[1]).abs() <= tol
}

/// The copies a mode makes on a `width` x `depth` elmo map, the identity first.
pub fn images(mode: SymmetryMode, width_elmos: f32, depth_elmos: f32) -> Vec<Isometry> {
    let (w, d) = (width_elmos, depth_elmos);
    let mx = Isometry {
        a: [[-1.0, 0.0], [0.0, 1.0]],
        b: [w, 0.0],
    };
    let mz = Isometry {
        a: [[1.0, 0.0], [0.0, -1.0]],
        b: [0.0, d],
    };
    let r180 = Isometry {
        a: [[-1.0, 0.0], [0.0, -1.0]],
        b: [w, d],
    };
    let id = Isometry::IDENTITY;
    match mode {
        SymmetryMode::None => vec![id],
        SymmetryMode::MirrorX => vec![id, mx],
        SymmetryMode::MirrorZ => vec![id, mz],
        SymmetryMode::MirrorXZ => vec![id, mx, mz, r180],
        SymmetryMode::Diagonal => vec![
            id,
            Isometry {
                a: [[0.0, 1.0], [1.0, 0.0]],
                b: [0.0, 0.0],
            },
        ],
        SymmetryMode::AntiDiagonal => vec![
            id,
            Isometry {
                a: [[0.0, -1.0], [-1.0, 0.0]],
                b: [w, w],
            },
        ],
        SymmetryMode::Rotate(2) => vec![id, r180],
        SymmetryMode::Rotate(n) => {
            let (cx, cz) = (w * 0.5, d * 0.5);
            (0..n)
                .map(|k| {
                    let (c, s) = turn_cos_sin(n, k);
                    let a = [[c, -s], [s, c]];
                    Isometry {
                        a,
                        b: [
                            cx - (a[0][0] * cx + a[0][1] * cz),
                            cz - (a[1][0] * cx + a[1][1] * cz),
                        ],
                    }
                })
                .collect()
        }
    }
}

/// cos and sin of k turns of 360/n degrees, exact where they can be (quarter turns).
pub fn turn_cos_sin(n: u8, k: u8) -> (f32, f32) {
    let k = k % n;
    if (4 * k as u32).is_multiple_of(n as u32) {
        // a whole number of quarter turns
        return match (4 * k as u32) / n as u32 {
            0 => (1.0, 0.0),
            1 => (0.0, 1.0),
            2 => (-1.0, 0.0),
            _ => (0.0, -1.0),
        };
    }
    let a = std::f64::consts::TAU * k as f64 / n as f64;
    (a.cos() as f32, a.sin() as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in SymmetryMode::ALL {
            assert_eq!(m.to_string().parse::<SymmetryMode>(), Ok(m));
        }
        assert!("rotate-5".parse::<SymmetryMode>().is_err());
        assert!("mirror".parse::<SymmetryMode>().is_err());
    }

    #[test]
    fn square_only_modes_are_refused_on_oblong_maps() {
        assert!(SymmetryMode::Rotate(2).check_map(8, 4).is_ok());
        assert!(SymmetryMode::MirrorXZ.check_map(8, 4).is_ok());
        let e = SymmetryMode::Rotate(4).check_map(8, 4).unwrap_err();
        assert!(e.contains("square"), "{e}");
        assert!(SymmetryMode::Diagonal.check_map(8, 4).is_err());
        assert!(SymmetryMode::Rotate(6).check_map(8, 8).is_ok());
    }
}
