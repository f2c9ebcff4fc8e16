//! The texture layer stack the benches share: eight layers, one of each rule and some
//! combined, built-in and solid materials, two on splat channels.

use groundwork::map::ground_layers::{Band, Bend, Breakup, Curvature, Material, TextureLayer};
use groundwork::map::materials::BuiltinMaterial;

/// Eight layers, one of each rule and some combined, built-in and solid materials.
pub fn eight_layers() -> Vec<TextureLayer> {
    let b = |kind, scale_elmos| Material::Builtin {
        kind,
        scale_elmos,
        tint: [1.0, 1.0, 1.0],
    };
    let band = |min, max, soft| Some(Band { min, max, soft });
    let mut out = Vec::new();
    let mut l = TextureLayer::new("Dirt", b(BuiltinMaterial::Dirt, 300.0));
    l.rules.noise = Some(Breakup {
        seed: 1,
        scale_elmos: 400.0,
        amount: 0.7,
    });
    out.push(l);
    let mut l = TextureLayer::new("Sand", b(BuiltinMaterial::Sand, 200.0));
    l.rules.near_water = band(0.0, 60.0, 30.0);
    out.push(l);
    let mut l = TextureLayer::new("Rock", b(BuiltinMaterial::Rock, 256.0));
    l.rules.slope_deg = band(25.0, 90.0, 6.0);
    l.splat_channel = Some(0);
    out.push(l);
    let mut l = TextureLayer::new("Mud", b(BuiltinMaterial::Mud, 256.0));
    l.rules.curvature = Some(Curvature {
        bend: Bend::Valleys,
        min_elmos: 1.0,
        soft_elmos: 1.0,
    });
    out.push(l);
    let mut l = TextureLayer::new("Grass", b(BuiltinMaterial::Grass, 256.0));
    l.rules.slope_deg = band(0.0, 12.0, 4.0);
    l.rules.height_elmos = band(20.0, 140.0, 20.0);
    l.opacity = 0.7;
    l.splat_channel = Some(1);
    out.push(l);
    let mut l = TextureLayer::new(
        "Ore",
        Material::Solid {
            color: [40, 36, 30],
        },
    );
    l.rules.under_metal = true;
    out.push(l);
    let mut l = TextureLayer::new("Ridges", b(BuiltinMaterial::Dirt, 128.0));
    l.rules.curvature = Some(Curvature {
        bend: Bend::Ridges,
        min_elmos: 1.0,
        soft_elmos: 1.0,
    });
    out.push(l);
    let mut l = TextureLayer::new("Snow", b(BuiltinMaterial::Snow, 256.0));
    l.rules.height_elmos = band(150.0, 5000.0, 20.0);
    l.rules.noise = Some(Breakup {
        seed: 2,
        scale_elmos: 200.0,
        amount: 0.5,
    });
    out.push(l);
    out
}
