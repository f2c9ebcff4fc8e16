//! `map.toml`'s `[[texture.layers]]`: the ground's material layers over `texture.png`, bottom
//! first, and their conversion to and from the document. A key that does nothing for the
//! layer's material or rules (a `color` on a picture, a `soft_deg` without `slope_deg`) is an
//! error naming it. Painted masks are the images `texture/<name>.png` beside `map.toml`.
//!
//! ```toml
//! [[texture.layers]]
//! name = "Cliffs"
//! material = "rock"          # a built-in (grass, rock, sand, dirt, snow, mud), "solid" or "picture"
//! scale_elmos = 256          # one repeat (built-ins and pictures)
//! tint = [1.0, 0.95, 0.9]
//! opacity = 1.0
//! splat_channel = 0          # the splat distribution channel 0..3, at most one layer each
//! [texture.layers.rules]
//! slope_deg = [35, 90]
//! soft_deg = 5
//! ```

use serde::{Deserialize, Serialize};

use crate::map::ground_layers::{Band, Bend, Breakup, Curvature, Material, Rules, TextureLayer};
use crate::map::materials::BuiltinMaterial;

/// `[texture]`.
#[derive(Serialize, Deserialize, Default, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
pub struct TextureSection {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    layers: Vec<LayerEntry>,
    /// Ambient occlusion over the stack, 0..1 (off when absent): how dark ground the terrain
    /// around it hides from the sky becomes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ambient_occlusion: Option<f32>,
    /// How far around the occlusion looks (default 256).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ambient_occlusion_radius_elmos: Option<f32>,
}

/// The occlusion's reach when `map.toml` names none.
const DEFAULT_AO_RADIUS_ELMOS: f32 = 256.0;

/// The repeat a built-in material gets when the layer names none, in elmos.
const DEFAULT_SCALE_ELMOS: f32 = 256.0;

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct LayerEntry {
    name: String,
    material: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    color: Option<[u8; 3]>,
    /// A picture among the project's `archive/` files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scale_elmos: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tint: Option<[f32; 3]>,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    opacity: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    splat_channel: Option<u8>,
    #[serde(default, skip_serializing_if = "RulesEntry::is_empty")]
    rules: RulesEntry,
}

fn one() -> f32 {
    1.0
}

fn is_one(v: &f32) -> bool {
    *v == 1.0
}

#[derive(Serialize, Deserialize, Default, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct RulesEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    slope_deg: Option<[f32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    soft_deg: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    height_elmos: Option<[f32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    soft_elmos: Option<f32>,
    /// "ridges" or "valleys".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    curvature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    curvature_min_elmos: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    curvature_soft_elmos: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    near_water_elmos: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    near_water_soft_elmos: Option<f32>,
    #[serde(default, skip_serializing_if = "is_false")]
    under_metal: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    noise_seed: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    noise_scale_elmos: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    noise_amount: Option<f32>,
}

fn is_false(v: &bool) -> bool {
    !*v
}

impl RulesEntry {
    fn is_empty(&self) -> bool {
        *self == RulesEntry::default()
    }
}

/// `Err` naming `key` when it is set without `needs`.
fn only_with<T>(key: &str, value: &Option<T>, needs: &str, present: bool) -> Result<(), String> {
    if value.is_some() && !present {
        return Err(format!("{key} has no effect without {needs}"));
    }
    Ok(())
}

fn band(range: [f32; 2], soft: Option<f32>, key: &str) -> Result<Band, String> {
    let soft = soft.unwrap_or(0.0);
    if !(range[0].is_finite() && range[1].is_finite() && range[0] <= range[1]) {
        return Err(format!(
            "{key} = {range:?}: give [min, max] with min <= max"
        ));
    }
    if !(soft.is_finite() && soft >= 0.0) {
        return Err(format!("the soft edge of {key} must be 0 or more"));
    }
    Ok(Band {
        min: range[0],
        max: range[1],
        soft,
    })
}

impl RulesEntry {
    fn to_rules(&self) -> Result<Rules, String> {
        only_with(
            "soft_deg",
            &self.soft_deg,
            "slope_deg",
            self.slope_deg.is_some(),
        )?;
        only_with(
            "soft_elmos",
            &self.soft_elmos,
            "height_elmos",
            self.height_elmos.is_some(),
        )?;
        let has_curv = self.curvature.is_some();
        only_with(
            "curvature_min_elmos",
            &self.curvature_min_elmos,
            "curvature",
            has_curv,
        )?;
        only_with(
            "curvature_soft_elmos",
            &self.curvature_soft_elmos,
            "curvature",
            has_curv,
        )?;
        only_with(
            "near_water_soft_elmos",
            &self.near_water_soft_elmos,
            "near_water_elmos",
            self.near_water_elmos.is_some(),
        )?;
        let has_noise = self.noise_amount.is_some();
        only_with("noise_seed", &self.noise_seed, "noise_amount", has_noise)?;
        only_with(
            "noise_scale_elmos",
            &self.noise_scale_elmos,
            "noise_amount",
            has_noise,
        )?;
        let curvature = match self.curvature.as_deref() {
            None => None,
            Some(c) => Some(Curvature {
                bend: match c {
                    "ridges" => Bend::Ridges,
                    "valleys" => Bend::Valleys,
                    other => {
                        return Err(format!(
                            "curvature = {other:?}: it is \"ridges\" or \"valleys\""
                        ));
                    }
                },
                min_elmos: self.curvature_min_elmos.unwrap_or(0.5),
                soft_elmos: self.curvature_soft_elmos.unwrap_or(0.5).max(0.0),
            }),
        };
        let noise = match self.noise_amount {
            None => None,
            Some(amount) if (0.0..=1.0).contains(&amount) => Some(Breakup {
                seed: self.noise_seed.unwrap_or(1),
                scale_elmos: self.noise_scale_elmos.unwrap_or(128.0).max(1.0),
                amount,
            }),
            Some(a) => return Err(format!("noise_amount {a} is not within 0..1")),
        };
        Ok(Rules {
            slope_deg: self
                .slope_deg
                .map(|r| band(r, self.soft_deg, "slope_deg"))
                .transpose()?,
            height_elmos: self
                .height_elmos
                .map(|r| band(r, self.soft_elmos, "height_elmos"))
                .transpose()?,
            curvature,
            near_water: self
                .near_water_elmos
                .map(|d| band([0.0, d], self.near_water_soft_elmos, "near_water_elmos"))
                .transpose()?,
            under_metal: self.under_metal,
            noise,
        })
    }

    fn from_rules(r: &Rules) -> RulesEntry {
        let soft = |s: f32| (s != 0.0).then_some(s);
        RulesEntry {
            slope_deg: r.slope_deg.map(|b| [b.min, b.max]),
            soft_deg: r.slope_deg.and_then(|b| soft(b.soft)),
            height_elmos: r.height_elmos.map(|b| [b.min, b.max]),
            soft_elmos: r.height_elmos.and_then(|b| soft(b.soft)),
            curvature: r.curvature.map(|c| {
                match c.bend {
                    Bend::Ridges => "ridges",
                    Bend::Valleys => "valleys",
                }
                .to_string()
            }),
            curvature_min_elmos: r.curvature.map(|c| c.min_elmos),
            curvature_soft_elmos: r.curvature.map(|c| c.soft_elmos),
            near_water_elmos: r.near_water.map(|b| b.max),
            near_water_soft_elmos: r.near_water.and_then(|b| soft(b.soft)),
            under_metal: r.under_metal,
            noise_seed: r.noise.map(|n| n.seed),
            noise_scale_elmos: r.noise.map(|n| n.scale_elmos),
            noise_amount: r.noise.map(|n| n.amount),
        }
    }
}

impl LayerEntry {
    fn to_layer(&self) -> Result<TextureLayer, String> {
        let what = |e: String| format!("texture layer {:?}: {e}", self.name);
        let material = match self.material.as_str() {
            "solid" => {
                for (key, set) in [
                    ("file", self.file.is_some()),
                    ("scale_elmos", self.scale_elmos.is_some()),
                    ("tint", self.tint.is_some()),
                ] {
                    if set {
                        return Err(what(format!("{key} has no effect on a solid material")));
                    }
                }
                Material::Solid {
                    color: self
                        .color
                        .ok_or_else(|| what("a solid material needs color = [r, g, b]".into()))?,
                }
            }
            name => {
                if self.color.is_some() {
                    return Err(what(format!(
                        "color has no effect on material {name:?} (use tint)"
                    )));
                }
                let scale_elmos = self.scale_elmos.unwrap_or(DEFAULT_SCALE_ELMOS);
                let tint = self.tint.unwrap_or([1.0; 3]);
                if name == "picture" {
                    Material::Picture {
                        file: self.file.clone().ok_or_else(|| {
                            what("a picture needs file = \"...\" (a file under archive/)".into())
                        })?,
                        scale_elmos,
                        tint,
                    }
                } else {
                    if self.file.is_some() {
                        return Err(what(format!(
                            "file has no effect on the built-in material {name:?}"
                        )));
                    }
                    let kind = BuiltinMaterial::from_name(name).ok_or_else(|| {
                        what(format!(
                            "material {name:?} is none of solid, picture, {}",
                            BuiltinMaterial::ALL
                                .iter()
                                .map(|m| m.name())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })?;
                    Material::Builtin {
                        kind,
                        scale_elmos,
                        tint,
                    }
                }
            }
        };
        Ok(TextureLayer {
            name: self.name.clone(),
            material,
            rules: self.rules.to_rules().map_err(what)?,
            mask: None,
            opacity: self.opacity,
            splat_channel: self.splat_channel,
        })
    }

    fn from_layer(l: &TextureLayer) -> LayerEntry {
        let (material, color, file, scale_elmos, tint) = match &l.material {
            Material::Solid { color } => ("solid".to_string(), Some(*color), None, None, None),
            Material::Builtin {
                kind,
                scale_elmos,
                tint,
            } => (
                kind.name().to_string(),
                None,
                None,
                Some(*scale_elmos),
                (*tint != [1.0; 3]).then_some(*tint),
            ),
            Material::Picture {
                file,
                scale_elmos,
                tint,
            } => (
                "picture".to_string(),
                None,
                Some(file.clone()),
                Some(*scale_elmos),
                (*tint != [1.0; 3]).then_some(*tint),
            ),
        };
        LayerEntry {
            name: l.name.clone(),
            material,
            color,
            file,
            scale_elmos,
            tint,
            opacity: l.opacity,
            splat_channel: l.splat_channel,
            rules: RulesEntry::from_rules(&l.rules),
        }
    }
}

impl TextureSection {
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }

    /// The layers, masks not yet read.
    pub fn to_layers(&self) -> Result<Vec<TextureLayer>, String> {
        self.layers.iter().map(LayerEntry::to_layer).collect()
    }

    pub fn from_layers(
        layers: &[TextureLayer],
        ao: Option<crate::map::ground_layers::AmbientOcclusion>,
    ) -> TextureSection {
        TextureSection {
            layers: layers.iter().map(LayerEntry::from_layer).collect(),
            ambient_occlusion: ao.map(|a| a.strength),
            ambient_occlusion_radius_elmos: ao
                .map(|a| a.radius_elmos)
                .filter(|&r| r != DEFAULT_AO_RADIUS_ELMOS),
        }
    }

    /// `ambient_occlusion` and its radius, checked.
    pub fn ambient_occlusion(
        &self,
    ) -> Result<Option<crate::map::ground_layers::AmbientOcclusion>, String> {
        only_with(
            "ambient_occlusion_radius_elmos",
            &self.ambient_occlusion_radius_elmos,
            "ambient_occlusion",
            self.ambient_occlusion.is_some(),
        )?;
        let Some(strength) = self.ambient_occlusion else {
            return Ok(None);
        };
        if !(0.0..=1.0).contains(&strength) {
            return Err(format!(
                "[texture] ambient_occlusion = {strength} is not within 0..1"
            ));
        }
        let radius_elmos = self
            .ambient_occlusion_radius_elmos
            .unwrap_or(DEFAULT_AO_RADIUS_ELMOS);
        if !(8.0..=2048.0).contains(&radius_elmos) {
            return Err(format!(
                "[texture] ambient_occlusion_radius_elmos = {radius_elmos} is not within 8..2048"
            ));
        }
        Ok(Some(crate::map::ground_layers::AmbientOcclusion {
            strength,
            radius_elmos,
        }))
    }
}

/// The mask image of layer `name`, relative to the project folder.
pub fn mask_file(name: &str) -> String {
    format!("texture/{name}.png")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Vec<TextureLayer>, String> {
        let t: TextureSection = toml::from_str(text).map_err(|e| e.to_string())?;
        t.to_layers()
    }

    #[test]
    fn layers_read_and_write_back_the_same() {
        let text = r#"
[[layers]]
name = "Cliffs"
material = "rock"
scale_elmos = 200.0
tint = [1.0, 0.9, 0.8]
splat_channel = 0
[layers.rules]
slope_deg = [35.0, 90.0]
soft_deg = 5.0
noise_amount = 0.3
noise_seed = 7

[[layers]]
name = "Beach"
material = "solid"
color = [220, 200, 150]
opacity = 0.5
[layers.rules]
near_water_elmos = 48.0
curvature = "valleys"
"#;
        let layers = parse(text).unwrap();
        assert_eq!(layers.len(), 2);
        assert_eq!(
            layers[0].rules.slope_deg,
            Some(Band {
                min: 35.0,
                max: 90.0,
                soft: 5.0
            })
        );
        assert_eq!(layers[1].opacity, 0.5);
        assert_eq!(layers[1].rules.curvature.unwrap().bend, Bend::Valleys);
        let again = TextureSection::from_layers(&layers, None);
        let text2 = toml::to_string(&again).unwrap();
        assert_eq!(parse(&text2).unwrap(), layers, "{text2}");
    }

    #[test]
    fn a_key_without_effect_is_an_error_naming_it() {
        for (text, key) in [
            (
                "[[layers]]\nname = \"A\"\nmaterial = \"rock\"\ncolor = [1, 2, 3]\n",
                "color",
            ),
            (
                "[[layers]]\nname = \"A\"\nmaterial = \"solid\"\ncolor = [1, 2, 3]\nscale_elmos = 9.0\n",
                "scale_elmos",
            ),
            (
                "[[layers]]\nname = \"A\"\nmaterial = \"rock\"\n[layers.rules]\nsoft_deg = 3.0\n",
                "soft_deg",
            ),
            (
                "[[layers]]\nname = \"A\"\nmaterial = \"rock\"\n[layers.rules]\nnoise_seed = 3\n",
                "noise_seed",
            ),
            (
                "[[layers]]\nname = \"A\"\nmaterial = \"lava\"\n",
                "material \"lava\"",
            ),
            (
                "[[layers]]\nname = \"A\"\nmaterial = \"rock\"\n[layers.rules]\nslopes = [1, 2]\n",
                "slopes",
            ),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(key), "{key}: {e}");
        }
    }
}
