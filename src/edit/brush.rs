//! What every brush shares: its radius, strength, falloff curve and shape (circle, square or a
//! greyscale mask image), and how the cursor's path becomes evenly spaced dabs, the same at any
//! cursor speed and frame rate.

use std::sync::Arc;

use crate::map::Grid;

/// How a dab's weight falls from its centre (1) to its rim (0). The numbers are the codes the
/// kernels read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Falloff {
    /// Smoothstep: soft at both ends.
    #[default]
    Smooth = 0,
    /// Straight down to the rim.
    Linear = 1,
    /// (1 - d)^2: a peak in the middle.
    Sharp = 2,
    /// Full weight to the rim.
    Flat = 3,
}

impl Falloff {
    pub const ALL: [Falloff; 4] = [
        Falloff::Smooth,
        Falloff::Linear,
        Falloff::Sharp,
        Falloff::Flat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Falloff::Smooth => "smooth",
            Falloff::Linear => "linear",
            Falloff::Sharp => "sharp",
            Falloff::Flat => "flat",
        }
    }

    pub fn parse(s: &str) -> Result<Falloff, String> {
        Falloff::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown falloff \"{s}\" (smooth, linear, sharp, flat)"))
    }

    /// The weight at `d` = distance / radius. Written exactly as the WGSL `falloff_curve`.
    pub fn weight(self, d: f32) -> f32 {
        if d >= 1.0 {
            return 0.0;
        }
        match self {
            Falloff::Smooth => 1.0 - d * d * (3.0 - 2.0 * d),
            Falloff::Linear => 1.0 - d,
            Falloff::Sharp => {
                let u = 1.0 - d;
                u * u
            }
            Falloff::Flat => 1.0,
        }
    }
}

/// A greyscale image used as a brush's shape (or a stamp): values 0..=1, row 0 at the top
/// (low z).
#[derive(Clone, Debug, PartialEq)]
pub struct MaskImage {
    /// Where it came from, for the panel and error messages.
    pub name: String,
    pub values: Arc<Grid<f32>>,
}

/// The outline of a dab.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum BrushShape {
    #[default]
    Circle,
    /// A square whose half side is the radius.
    Square,
    /// A square holding a greyscale image that scales the weight.
    Mask(MaskImage),
}

impl BrushShape {
    /// The code the kernels read: 0 circle, 1 square, 2 mask.
    pub fn code(&self) -> u32 {
        match self {
            BrushShape::Circle => 0,
            BrushShape::Square => 1,
            BrushShape::Mask(_) => 2,
        }
    }

    pub fn mask(&self) -> Option<&MaskImage> {
        match self {
            BrushShape::Mask(m) => Some(m),
            _ => None,
        }
    }

    /// How far past the radius a dab may reach: a square's corner lies sqrt(2) radii out.
    pub fn reach_factor(&self) -> f32 {
        match self {
            BrushShape::Circle => 1.0,
            _ => std::f32::consts::SQRT_2,
        }
    }
}

/// The settings every brush shares.
#[derive(Clone, Debug, PartialEq)]
pub struct Brush {
    pub radius_elmos: f32,
    /// 0..=1; each tool says what it means.
    pub strength: f32,
    pub falloff: Falloff,
    pub shape: BrushShape,
    /// Dabs are this many radii apart along the path.
    pub spacing_radii: f32,
}

impl Default for Brush {
    fn default() -> Brush {
        Brush {
            radius_elmos: 256.0,
            strength: 0.5,
            falloff: Falloff::Smooth,
            shape: BrushShape::Circle,
            spacing_radii: 0.25,
        }
    }
}

impl Brush {
    /// The radius range the editor offers, in elmos.
    pub const RADIUS_RANGE_ELMOS: std::ops::RangeInclusive<f32> = 8.0..=4096.0;

    /// Distance between dabs along the path, in elmos.
    pub fn spacing_elmos(&self) -> f32 {
        (self.radius_elmos * self.spacing_radii.clamp(0.02, 4.0)).max(1.0)
    }

    /// One step of the `[` / `]` keys: a tenth of the radius, within the range.
    pub fn step_radius(&mut self, up: bool) {
        let r = self.radius_elmos * if up { 1.1 } else { 1.0 / 1.1 };
        self.radius_elmos = r.clamp(
            *Self::RADIUS_RANGE_ELMOS.start(),
            *Self::RADIUS_RANGE_ELMOS.end(),
        );
    }
}

/// Dabs held still under the cursor, per second, when the button stays down.
const HELD_DABS_PER_S: f32 = 10.0;

/// Turns the cursor's path into dab positions a fixed distance apart. The leftover distance
/// carries from one call to the next, so the dabs do not depend on how the path was cut into
/// frames; holding still adds dabs at [`HELD_DABS_PER_S`] (time counts as distance).
#[derive(Clone, Debug, PartialEq)]
pub struct PathSpacer {
    spacing_elmos: f32,
    last: [f32; 2],
    /// Distance travelled since the last dab.
    carried_elmos: f32,
}

impl PathSpacer {
    /// Starts at `at`, where the first dab goes (returned by [`PathSpacer::start`]).
    pub fn new(at: [f32; 2], spacing_elmos: f32) -> PathSpacer {
        PathSpacer {
            spacing_elmos: spacing_elmos.max(0.5),
            last: at,
            carried_elmos: 0.0,
        }
    }

    /// The first dab: where the stroke starts.
    pub fn start(&self) -> [f32; 2] {
        self.last
    }

    /// The dabs for a cursor moving on to `to`, with `held_s` seconds of holding counted as
    /// extra distance (0 for scripted paths).
    pub fn advance(&mut self, to: [f32; 2], held_s: f32) -> Vec<[f32; 2]> {
        let (dx, dz) = (to[0] - self.last[0], to[1] - self.last[1]);
        let len = (dx * dx + dz * dz).sqrt();
        let extra = held_s.max(0.0) * HELD_DABS_PER_S * self.spacing_elmos;
        let total = len + extra;
        let mut out = Vec::new();
        // the distance along this step at which the next dab falls
        let mut next = self.spacing_elmos - self.carried_elmos;
        while next <= total + 1e-4 {
            // time-made distance is spread along the move, so the dabs stay on the path
            let t = if total > 0.0 { next / total } else { 1.0 };
            out.push([self.last[0] + dx * t, self.last[1] + dz * t]);
            next += self.spacing_elmos;
        }
        self.carried_elmos = total - (next - self.spacing_elmos);
        self.last = to;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn falloffs_run_from_one_to_zero() {
        for f in Falloff::ALL {
            assert_eq!(f.weight(0.0), 1.0, "{f:?}");
            assert_eq!(f.weight(1.0), 0.0, "{f:?}");
            assert_eq!(Falloff::parse(f.name()), Ok(f));
        }
        assert_eq!(Falloff::Linear.weight(0.25), 0.75);
        assert_eq!(Falloff::Sharp.weight(0.5), 0.25);
        assert_eq!(Falloff::Smooth.weight(0.5), 0.5);
        assert_eq!(Falloff::Flat.weight(0.99), 1.0);
    }

    #[test]
    fn dabs_are_evenly_spaced_however_the_path_is_cut() {
        // one long move
        let mut a = PathSpacer::new([0.0, 0.0], 10.0);
        let one = a.advance([100.0, 0.0], 0.0);
        assert_eq!(one.len(), 10);
        assert!((one[0][0] - 10.0).abs() < 1e-4 && (one[9][0] - 100.0).abs() < 1e-3);
        // the same move in 37 small steps
        let mut b = PathSpacer::new([0.0, 0.0], 10.0);
        let mut many = Vec::new();
        for i in 1..=37 {
            many.extend(b.advance([100.0 * i as f32 / 37.0, 0.0], 0.0));
        }
        assert_eq!(many.len(), 10);
        for (p, q) in one.iter().zip(&many) {
            assert!((p[0] - q[0]).abs() < 1e-3, "{p:?} vs {q:?}");
        }
        // a fast cursor gets no fewer dabs: 1000 elmos in one frame
        let mut c = PathSpacer::new([0.0, 0.0], 10.0);
        assert_eq!(c.advance([0.0, 1000.0], 0.0).len(), 100);
    }

    #[test]
    fn holding_still_adds_dabs_at_a_fixed_rate() {
        let mut a = PathSpacer::new([5.0, 5.0], 20.0);
        let n30: usize = (0..30)
            .map(|_| a.advance([5.0, 5.0], 1.0 / 30.0).len())
            .sum();
        let mut b = PathSpacer::new([5.0, 5.0], 20.0);
        let n144: usize = (0..144)
            .map(|_| b.advance([5.0, 5.0], 1.0 / 144.0).len())
            .sum();
        assert!((n30 as i32 - 10).abs() <= 1, "{n30}");
        assert!((n144 as i32 - 10).abs() <= 1, "{n144}");
    }
}
