//! What a view shows besides the ground: the overlays and their settings, the brush cursor,
//! markers and water, and the colours the overlays use (shared with the UI's legends).

/// Which overlays are blended over the ground, and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewOptions {
    pub metal: bool,
    pub grass: bool,
    pub types: bool,
    pub slope: bool,
    pub contours: bool,
    /// Lines every 128 squares (1024 elmos), the engine's big-square grid.
    pub grid: bool,
    /// 0..1, for metal, grass, type and slope.
    pub overlay_opacity: f32,
    /// Ground steeper than this is marked red by the slope overlay.
    pub slope_threshold_deg: f32,
    pub contour_interval_elmos: f32,
    pub water: bool,
    pub markers: bool,
    /// Features whose model the scene holds drawn as the model (off: as markers, like those
    /// without one).
    pub features: bool,
    /// Grass blades as BAR grows them (near the eye: they fade out with distance).
    pub grass_blades: bool,
    /// The terrain mirrored in the water (one more terrain pass at half size).
    pub water_reflection: bool,
    /// Draw one water term as grey instead of the water (flat normal, time 0).
    pub water_term: Option<super::water::WaterTerm>,
    /// Seconds on the water's clock (waves, foam, caustics move with it).
    pub time_seconds: f32,
    /// The brush outline: centre x, z and radius in elmos.
    pub cursor: Option<[f32; 3]>,
    /// Level of detail: a chunk is drawn coarser while a square stays under this many pixels.
    pub lod_pixels_per_square: f32,
}

impl Default for ViewOptions {
    fn default() -> ViewOptions {
        ViewOptions {
            metal: false,
            grass: false,
            types: false,
            slope: false,
            contours: false,
            grid: false,
            overlay_opacity: 0.8,
            slope_threshold_deg: 30.0,
            contour_interval_elmos: 25.0,
            water: true,
            markers: true,
            features: true,
            grass_blades: true,
            water_reflection: true,
            water_term: None,
            time_seconds: 0.0,
            cursor: None,
            lod_pixels_per_square: 4.0,
        }
    }
}

impl ViewOptions {
    /// The debug view of one water term: nothing but the water, drawn as that term's grey.
    pub fn water_term_only(term: super::water::WaterTerm) -> ViewOptions {
        ViewOptions {
            water_term: Some(term),
            markers: false,
            features: false,
            grass_blades: false,
            ..ViewOptions::default()
        }
    }
}

/// One overlay by name, as `groundwork render --overlay` takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    Metal,
    Grass,
    Type,
    Slope,
    Contours,
    Grid,
}

impl Overlay {
    pub fn parse(s: &str) -> Result<Overlay, String> {
        Ok(match s {
            "metal" => Overlay::Metal,
            "grass" => Overlay::Grass,
            "type" | "types" => Overlay::Type,
            "slope" => Overlay::Slope,
            "contours" => Overlay::Contours,
            "grid" => Overlay::Grid,
            _ => {
                return Err(format!(
                    "overlay `{s}`: expected metal, grass, type, slope, contours or grid"
                ));
            }
        })
    }

    /// Turns this overlay on in `opts`.
    pub fn enable(self, opts: &mut ViewOptions) {
        match self {
            Overlay::Metal => opts.metal = true,
            Overlay::Grass => opts.grass = true,
            Overlay::Type => opts.types = true,
            Overlay::Slope => opts.slope = true,
            Overlay::Contours => opts.contours = true,
            Overlay::Grid => opts.grid = true,
        }
    }
}

/// The metal overlay's colour and opacity for a metal byte, as `terrain.wgsl` computes it.
pub fn metal_overlay_rgba(byte: u8) -> [f32; 4] {
    if byte == 0 {
        return [0.0; 4];
    }
    let t = byte as f32 / 255.0;
    let mix = |a: f32, b: f32| a + (b - a) * t;
    [
        mix(0.15, 1.0),
        mix(0.35, 0.85),
        mix(1.0, 0.1),
        0.4 + 0.6 * t,
    ]
}

/// The terrain-type overlay's colour for a type index: hues a golden angle apart.
pub fn type_colour(index: u8) -> [f32; 3] {
    let hue = (0.33 + index as f32 * 0.618_034).fract();
    hsv_to_rgb(hue, 0.75, 0.95)
}

fn hsv_to_rgb(h: f32, s: f32, v: f32) -> [f32; 3] {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    match i as i32 % 6 {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

/// The engine's slope (1 - the normal's y) for an angle from level.
pub fn slope_from_degrees(deg: f32) -> f32 {
    1.0 - deg.to_radians().cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlays_parse_and_enable() {
        let mut o = ViewOptions::default();
        Overlay::parse("metal").unwrap().enable(&mut o);
        assert!(o.metal && !o.slope);
        assert!(Overlay::parse("lava").is_err());
    }

    #[test]
    fn type_colours_differ() {
        assert_ne!(type_colour(0), type_colour(1));
        assert_ne!(type_colour(1), type_colour(2));
        assert!(metal_overlay_rgba(0)[3] == 0.0 && metal_overlay_rgba(255)[3] == 1.0);
    }
}
