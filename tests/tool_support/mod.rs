//! Shared helpers for tests that drive every tool: a seeded random source, a cone image for the
//! stamp and the brush mask, a texture layer for the texture brush, and the tool-specific keys
//! an ops file gives each tool.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::sync::Arc;

use groundwork::edit::brush::MaskImage;
use groundwork::edit::tools::{ParamKind, Tool};
use groundwork::map::Grid;

/// A small random number generator, the same on every machine.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number in 0..1.
    pub fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    /// The next whole number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.unit() * n as f32) as usize % n
    }
}

/// A cone `n` pixels across, for the stamp and the mask.
pub fn cone(n: usize) -> MaskImage {
    let c = (n as f32 - 1.0) / 2.0;
    let values: Vec<f32> = (0..n * n)
        .map(|i| {
            let (x, z) = ((i % n) as f32 - c, (i / n) as f32 - c);
            (1.0 - (x * x + z * z).sqrt() / c).max(0.0)
        })
        .collect();
    MaskImage {
        name: "cone".into(),
        values: Arc::new(Grid::from_vec(n, n, values).unwrap()),
    }
}

/// The texture layer [`with_paint_layer`] adds and [`tool_keys`] names.
pub const PAINT_LAYER: &str = "Paint";

/// `map` with one unpainted texture layer, [`PAINT_LAYER`], for the texture brush.
pub fn with_paint_layer(mut map: groundwork::map::Map) -> groundwork::map::Map {
    use groundwork::map::ground_layers::{Material, TextureLayer};
    map.texture_layers.push(TextureLayer::new(
        PAINT_LAYER,
        Material::Solid {
            color: [120, 110, 90],
        },
    ));
    map
}

/// The ops-file lines for `tool`'s own keys: `image` for every image it takes, 3 iterations
/// for the erosions (their cost grows with them), and [`PAINT_LAYER`] for a texture layer.
pub fn tool_keys(tool: &dyn Tool, image: &str) -> String {
    let mut text = String::new();
    for p in tool.params() {
        match p.kind {
            ParamKind::Image => {
                let _ = writeln!(text, "{} = \"{image}\"", p.key);
            }
            ParamKind::Number { min, max, .. } if p.key.contains("iterations") => {
                let _ = writeln!(text, "{} = {}", p.key, 3.0f32.clamp(min, max));
            }
            ParamKind::TextureLayer => {
                let _ = writeln!(text, "{} = \"{PAINT_LAYER}\"", p.key);
            }
            _ => {}
        }
    }
    text
}
