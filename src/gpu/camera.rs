//! The editor's camera: an orbit around a point on the ground (yaw, pitch, distance), or a
//! top-down orthographic view; the presets `render` names; the frustum it culls chunks with.
//! World axes: x east and z south in elmos (as the map's grids), y up.

use glam::camera::rh::{proj::directx, view::look_at_mat4};
use glam::{Mat4, Vec3, Vec4};

/// Closest the camera comes to the ground, in elmos.
const MIN_CLEARANCE_ELMOS: f32 = 24.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The point orbited, panned and zoomed towards.
    pub target: Vec3,
    /// Heading: 0 looks north (towards -z), increasing clockwise seen from above.
    pub yaw_rad: f32,
    /// Elevation of the eye above the target's horizon: 0 level, pi/2 straight down.
    pub pitch_rad: f32,
    pub distance_elmos: f32,
    pub fov_y_rad: f32,
    /// Looking straight down with an orthographic projection, north up.
    pub ortho: bool,
}

/// A named view of a whole map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CameraPreset {
    /// Three-quarter view from the south, the whole map in frame.
    Overview,
    /// Orthographic, straight down, north up.
    Top,
    /// From the south at 45 degrees, the whole map in frame.
    FortyFive,
    /// Low over the southern edge, looking across the map.
    Grazing,
    /// An eye and a target in elmos.
    LookAt { eye: Vec3, target: Vec3 },
}

impl CameraPreset {
    /// Parses `overview`, `top`, `45`, `grazing` or `x,y,z:tx,ty,tz`.
    pub fn parse(s: &str) -> Result<CameraPreset, String> {
        match s {
            "overview" => Ok(CameraPreset::Overview),
            "top" => Ok(CameraPreset::Top),
            "45" | "45deg" => Ok(CameraPreset::FortyFive),
            "grazing" => Ok(CameraPreset::Grazing),
            _ => {
                let (eye, target) = s.split_once(':').ok_or_else(|| {
                    format!("camera `{s}`: expected overview, top, 45, grazing or x,y,z:tx,ty,tz")
                })?;
                let vec = |t: &str| -> Result<Vec3, String> {
                    let v: Vec<f32> = t
                        .split(',')
                        .map(|n| n.trim().parse::<f32>())
                        .collect::<Result<_, _>>()
                        .map_err(|e| format!("camera `{s}`: {e}"))?;
                    match v[..] {
                        [x, y, z] if v.iter().all(|n| n.is_finite()) => Ok(Vec3::new(x, y, z)),
                        _ => Err(format!("camera `{s}`: each point needs three numbers")),
                    }
                };
                let (eye, target) = (vec(eye)?, vec(target)?);
                if (eye - target).length() < 1.0 {
                    return Err(format!("camera `{s}`: eye and target are the same point"));
                }
                Ok(CameraPreset::LookAt { eye, target })
            }
        }
    }
}

impl Camera {
    /// The camera for `preset` over a `width` x `depth` elmo map whose middle is at `mid_y`.
    pub fn preset(preset: CameraPreset, width_elmos: f32, depth_elmos: f32, mid_y: f32) -> Camera {
        let centre = Vec3::new(width_elmos * 0.5, mid_y, depth_elmos * 0.5);
        let mut cam = Camera {
            target: centre,
            yaw_rad: 0.0,
            pitch_rad: 55f32.to_radians(),
            distance_elmos: 1000.0,
            fov_y_rad: 45f32.to_radians(),
            ortho: false,
        };
        match preset {
            CameraPreset::Overview => cam.frame(width_elmos, depth_elmos, 16.0 / 9.0),
            CameraPreset::FortyFive => {
                cam.pitch_rad = 45f32.to_radians();
                cam.frame(width_elmos, depth_elmos, 16.0 / 9.0);
            }
            CameraPreset::Top => {
                cam.ortho = true;
                cam.pitch_rad = std::f32::consts::FRAC_PI_2;
                cam.frame(width_elmos, depth_elmos, 16.0 / 9.0);
            }
            CameraPreset::Grazing => {
                cam.pitch_rad = 14f32.to_radians();
                cam.target = Vec3::new(width_elmos * 0.5, mid_y, depth_elmos * 0.6);
                cam.distance_elmos = depth_elmos * 0.75;
            }
            CameraPreset::LookAt { eye, target } => cam.look_at(eye, target),
        }
        cam
    }

    /// Points the orbit camera from `eye` at `target`.
    pub fn look_at(&mut self, eye: Vec3, target: Vec3) {
        let d = eye - target;
        let dist = d.length().max(1.0);
        self.target = target;
        self.distance_elmos = dist;
        self.pitch_rad = (d.y / dist).clamp(-1.0, 1.0).asin();
        self.yaw_rad = d.x.atan2(d.z);
        self.ortho = false;
    }

    /// Centres the map and backs off until the whole of it fits an `aspect` (w / h) view.
    pub fn frame(&mut self, width_elmos: f32, depth_elmos: f32, aspect: f32) {
        self.target.x = width_elmos * 0.5;
        self.target.z = depth_elmos * 0.5;
        let half_h = (self.fov_y_rad * 0.5).tan();
        let half_w = half_h * aspect.max(0.1);
        if self.ortho {
            let need = (depth_elmos * 0.5 / half_h).max(width_elmos * 0.5 / half_w);
            self.distance_elmos = need * 1.05;
            return;
        }
        // the nearest distance at which all four corners are in view, by bisection
        let y = self.target.y;
        let corners = [
            Vec3::new(0.0, y, 0.0),
            Vec3::new(width_elmos, y, 0.0),
            Vec3::new(0.0, y, depth_elmos),
            Vec3::new(width_elmos, y, depth_elmos),
        ];
        let fits = |cam: &Camera| {
            let m = cam.view_proj(aspect);
            corners.iter().all(|&c| {
                let p = m * c.extend(1.0);
                p.w > 0.0 && (p.x / p.w).abs() <= 0.95 && (p.y / p.w).abs() <= 0.92
            })
        };
        let r = 0.5 * (width_elmos * width_elmos + depth_elmos * depth_elmos).sqrt();
        let (mut lo, mut hi) = (r * 0.05, r * 20.0);
        for _ in 0..40 {
            let mid = (lo * hi).sqrt();
            let mut cam = *self;
            cam.distance_elmos = mid;
            if fits(&cam) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        self.distance_elmos = hi;
    }

    /// Unit vector from the target towards the eye.
    pub fn back(&self) -> Vec3 {
        if self.ortho {
            return Vec3::Y;
        }
        let (sy, cy) = self.yaw_rad.sin_cos();
        let (sp, cp) = self.pitch_rad.sin_cos();
        Vec3::new(sy * cp, sp, cy * cp)
    }

    pub fn eye(&self) -> Vec3 {
        self.target + self.back() * self.distance_elmos
    }

    /// Half the view's height in elmos at the target (the orthographic extent).
    pub fn ortho_half_height(&self) -> f32 {
        self.distance_elmos * (self.fov_y_rad * 0.5).tan()
    }

    pub fn view(&self) -> Mat4 {
        if self.ortho {
            // north (-z) is up on screen
            look_at_mat4(self.eye(), self.target, Vec3::NEG_Z)
        } else {
            let up = if self.pitch_rad.abs() > 1.55 {
                Vec3::new(-self.yaw_rad.sin(), 0.0, -self.yaw_rad.cos())
            } else {
                Vec3::Y
            };
            look_at_mat4(self.eye(), self.target, up)
        }
    }

    /// Reverse-Z projection (depth 1 at the near plane, 0 at infinity / the far plane).
    fn projection(&self, aspect: f32) -> Mat4 {
        let aspect = aspect.max(1e-3);
        if self.ortho {
            let hh = self.ortho_half_height();
            let hw = hh * aspect;
            let far = self.distance_elmos + 100_000.0;
            directx::orthographic(-hw, hw, -hh, hh, far, 1.0)
        } else {
            let near = (self.distance_elmos * 0.002).clamp(0.5, 50.0);
            directx::perspective_infinite_reverse(self.fov_y_rad, aspect, near)
        }
    }

    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }

    /// The world ray through a point of the view given in [-1, 1] device coordinates
    /// (x right, y up): (origin, unit direction).
    pub fn ray(&self, ndc_x: f32, ndc_y: f32, aspect: f32) -> (Vec3, Vec3) {
        let inv = self.view_proj(aspect).inverse();
        let near = inv.project_point3(Vec3::new(ndc_x, ndc_y, 1.0));
        let far = inv.project_point3(Vec3::new(ndc_x, ndc_y, 0.01));
        (near, (far - near).normalize_or(Vec3::NEG_Y))
    }

    /// Rotates the orbit (radians), keeping the pitch between just above level and straight down.
    pub fn orbit(&mut self, d_yaw: f32, d_pitch: f32) {
        self.yaw_rad = (self.yaw_rad + d_yaw).rem_euclid(std::f32::consts::TAU);
        self.pitch_rad = (self.pitch_rad + d_pitch).clamp(0.02, 1.56);
    }

    /// Moves the target along the ground: `right` and `forward` in elmos, relative to the heading.
    pub fn pan(&mut self, right: f32, forward: f32) {
        let yaw = if self.ortho { 0.0 } else { self.yaw_rad };
        let (s, c) = yaw.sin_cos();
        // forward is away from the eye, projected on the ground
        self.target.x += right * c - forward * s;
        self.target.z += -right * s - forward * c;
    }

    /// Zooms by a factor (< 1 closer), within sensible bounds.
    pub fn zoom(&mut self, factor: f32) {
        self.distance_elmos = (self.distance_elmos * factor).clamp(40.0, 200_000.0);
    }

    /// Zooms by a factor (< 1 closer) towards `point` (elmos): the eye moves along its line
    /// to the point, the heading kept, so the point stays where it was on the screen (the
    /// orthographic view's extent scales about it alike). Within the bounds of [`Self::zoom`].
    pub fn zoom_toward(&mut self, factor: f32, point: Vec3) {
        let before = self.distance_elmos;
        self.zoom(factor);
        let f = self.distance_elmos / before;
        self.target = point + (self.target - point) * f;
    }

    /// Keeps the eye at least [`MIN_CLEARANCE_ELMOS`] above the ground under it, raising the
    /// pitch first and the target if that is not enough.
    pub fn clamp_above_ground(&mut self, ground_at: impl Fn(f32, f32) -> f32) {
        self.target.y = ground_at(self.target.x, self.target.z);
        if self.ortho {
            return;
        }
        for _ in 0..8 {
            let eye = self.eye();
            let floor = ground_at(eye.x, eye.z).max(self.target.y) + MIN_CLEARANCE_ELMOS;
            if eye.y >= floor {
                return;
            }
            let need = (floor - self.target.y) / self.distance_elmos;
            if need < 0.999 {
                self.pitch_rad = need.asin().max(self.pitch_rad).min(1.56);
            } else {
                self.target.y = floor - self.distance_elmos * 0.9;
            }
        }
    }
}

/// The planes a view sees between: left, right, bottom, top, near (reverse-Z has no far).
#[derive(Clone, Copy, Debug)]
pub struct Frustum {
    planes: [Vec4; 5],
}

impl Frustum {
    pub fn from_view_proj(m: Mat4) -> Frustum {
        let r = |i: usize| m.row(i);
        let planes = [
            r(3) + r(0),
            r(3) - r(0),
            r(3) + r(1),
            r(3) - r(1),
            r(3) - r(2),
        ];
        Frustum {
            planes: planes.map(|p| p / p.truncate().length().max(1e-12)),
        }
    }

    /// Whether any of the box `[lo, hi]` may be visible.
    pub fn intersects_box(&self, lo: Vec3, hi: Vec3) -> bool {
        self.planes.iter().all(|p| {
            let v = Vec3::new(
                if p.x >= 0.0 { hi.x } else { lo.x },
                if p.y >= 0.0 { hi.y } else { lo.y },
                if p.z >= 0.0 { hi.z } else { lo.z },
            );
            p.truncate().dot(v) + p.w >= 0.0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse() {
        assert_eq!(CameraPreset::parse("top").unwrap(), CameraPreset::Top);
        let p = CameraPreset::parse("10,500,20:100,0,200").unwrap();
        assert_eq!(
            p,
            CameraPreset::LookAt {
                eye: Vec3::new(10.0, 500.0, 20.0),
                target: Vec3::new(100.0, 0.0, 200.0)
            }
        );
        assert!(CameraPreset::parse("1,2:3,4,5").is_err());
        assert!(CameraPreset::parse("sideways").is_err());
        assert!(CameraPreset::parse("1,1,1:1,1,1").is_err());
    }

    #[test]
    fn look_at_round_trips_the_eye() {
        let mut c = Camera::preset(CameraPreset::Overview, 4096.0, 4096.0, 0.0);
        let eye = Vec3::new(100.0, 900.0, 3000.0);
        let target = Vec3::new(2000.0, 50.0, 1000.0);
        c.look_at(eye, target);
        assert!((c.eye() - eye).length() < 0.1, "{:?}", c.eye());
    }

    #[test]
    fn the_centre_ray_hits_the_target() {
        let c = Camera::preset(CameraPreset::Overview, 4096.0, 4096.0, 0.0);
        let (o, d) = c.ray(0.0, 0.0, 16.0 / 9.0);
        let t = (c.target - o).dot(d);
        assert!((o + d * t - c.target).length() < 1.0);
        let top = Camera::preset(CameraPreset::Top, 4096.0, 4096.0, 0.0);
        let (_, d) = top.ray(0.3, -0.2, 1.0);
        assert!(d.y < -0.99);
    }

    #[test]
    fn overview_sees_the_whole_map_and_culls_behind() {
        let c = Camera::preset(CameraPreset::Overview, 4096.0, 4096.0, 0.0);
        let f = Frustum::from_view_proj(c.view_proj(16.0 / 9.0));
        for corner in [[0.0, 0.0], [4096.0, 0.0], [0.0, 4096.0], [4096.0, 4096.0]] {
            let p = Vec3::new(corner[0], 0.0, corner[1]);
            assert!(f.intersects_box(p, p), "corner {corner:?} out of view");
        }
        let behind = c.eye() + c.back() * 500.0;
        assert!(!f.intersects_box(behind, behind));
    }

    #[test]
    fn the_eye_stays_above_a_hill() {
        let mut c = Camera::preset(CameraPreset::Grazing, 4096.0, 4096.0, 0.0);
        c.pitch_rad = -0.2;
        c.clamp_above_ground(|_, _| 300.0);
        assert!(
            c.eye().y >= 300.0 + MIN_CLEARANCE_ELMOS - 0.5,
            "{:?}",
            c.eye()
        );
    }

    /// Where a world point lands on the view, in device coordinates.
    fn on_screen(c: &Camera, p: Vec3, aspect: f32) -> glam::Vec2 {
        let q = c.view_proj(aspect) * p.extend(1.0);
        glam::Vec2::new(q.x / q.w, q.y / q.w)
    }

    #[test]
    fn zooming_toward_a_point_keeps_it_under_the_cursor() {
        let aspect = 16.0 / 9.0;
        for preset in [
            CameraPreset::Overview,
            CameraPreset::Top,
            CameraPreset::Grazing,
        ] {
            let mut c = Camera::preset(preset, 4096.0, 4096.0, 0.0);
            c.yaw_rad = 0.7;
            // the ground under an off-centre cursor
            let (o, d) = c.ray(0.45, -0.3, aspect);
            let point = o + d * ((40.0 - o.y) / d.y);
            let at = on_screen(&c, point, aspect);
            let (target0, distance0) = (c.target, c.distance_elmos);
            for factor in [0.5, 0.8, 1.6] {
                c.zoom_toward(factor, point);
                let now = on_screen(&c, point, aspect);
                assert!(
                    (now - at).length() < 1e-3,
                    "{preset:?} x{factor}: {at} -> {now}"
                );
            }
            assert!((c.distance_elmos - distance0 * 0.64).abs() < 0.1);
            // off-centre: the view's centre moved towards the point, not just closer
            assert!((c.target - target0).length() > 50.0, "{preset:?}");
            // clamped zooms keep the point too
            c.zoom_toward(1e-6, point);
            assert_eq!(c.distance_elmos, 40.0);
            assert!((on_screen(&c, point, aspect) - at).length() < 1e-3);
        }
    }

    #[test]
    fn pan_moves_along_the_heading() {
        let mut c = Camera::preset(CameraPreset::Overview, 4096.0, 4096.0, 0.0);
        let t0 = c.target;
        c.pan(0.0, 100.0);
        // yaw 0 looks north: forward decreases z
        assert!((c.target.z - (t0.z - 100.0)).abs() < 1e-3);
        c.pan(50.0, 0.0);
        assert!((c.target.x - (t0.x + 50.0)).abs() < 1e-3);
    }
}
