//! The properties panel: every setting `map.toml` holds, edited live, with units and valid
//! ranges; unset optional values show the engine default they fall back to; warnings for
//! values that make a map unplayable sit on top.

use std::ops::RangeInclusive;

use crate::map::grass::GrassConfig;
use crate::map::water::{WaterPreset, builtin_presets, defaults as wd};
use crate::map::{MapSettings, MoveSpeeds, TerrainType};

#[derive(Debug, Default)]
pub struct PropertiesPanel {
    /// The water preset picked in the list (built-in ones first, then the map's own).
    preset: usize,
    /// The name the current water will be saved under as a preset.
    preset_name: String,
}

/// What the user changed in the panel.
#[derive(Debug, Default)]
pub struct PropertiesChange {
    pub settings: Option<MapSettings>,
    /// The map's own water presets, when one was saved or deleted.
    pub presets: Option<Vec<WaterPreset>>,
}

/// The frame every optional row shares: the label, a tick that sets the value (to `default`)
/// or clears it (the engine default then applies), and `edit` for a set value or the `unset`
/// text for a cleared one; a set value shows the engine default beside it and a reset button.
fn optional_row<T: Clone>(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut Option<T>,
    default: T,
    unset: impl FnOnce() -> String,
    edit: impl FnOnce(&mut egui::Ui, &mut T, egui::Id) -> bool,
) -> bool {
    let l = ui.label(label).id;
    let mut changed = false;
    let default_text = unset();
    ui.horizontal(|ui| {
        let mut set = v.is_some();
        if ui
            .checkbox(&mut set, "")
            .labelled_by(l)
            .on_hover_text("set (otherwise the engine default)")
            .changed()
        {
            *v = set.then_some(default);
            changed = true;
        }
        match v {
            Some(x) => {
                changed |= edit(ui, x, l);
                if ui
                    .small_button("reset")
                    .on_hover_text(format!("back to the engine default: {default_text}"))
                    .clicked()
                {
                    *v = None;
                    changed = true;
                }
            }
            None => {
                ui.weak(default_text);
            }
        }
    });
    ui.end_row();
    changed
}

/// A row for an optional number.
fn opt_f32(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut Option<f32>,
    default: f32,
    range: RangeInclusive<f32>,
    unit: &str,
) -> bool {
    let unset = || format!("{default}{unit} (default)");
    optional_row(ui, label, v, default, unset, |ui, x, l| {
        let speed = ((range.end() - range.start()) / 500.0).max(0.001);
        ui.add(
            egui::DragValue::new(x)
                .range(range.clone())
                .speed(speed)
                .suffix(unit),
        )
        .labelled_by(l)
        .changed()
    })
}

fn opt_bool(ui: &mut egui::Ui, label: &str, v: &mut Option<bool>, default: bool) -> bool {
    let unset = || format!("{} (default)", if default { "yes" } else { "no" });
    optional_row(ui, label, v, default, unset, |ui, b, l| {
        ui.checkbox(b, if *b { "yes" } else { "no" })
            .labelled_by(l)
            .changed()
    })
}

fn opt_string(ui: &mut egui::Ui, label: &str, v: &mut Option<String>) -> bool {
    let unset = || "(engine default)".to_string();
    optional_row(ui, label, v, String::new(), unset, |ui, s, l| {
        ui.text_edit_singleline(s).labelled_by(l).changed()
    })
}

/// Components edited one by one, each within `range`, to 3 decimals.
fn components(
    ui: &mut egui::Ui,
    values: &mut [f32],
    range: RangeInclusive<f32>,
    speed: f64,
    l: egui::Id,
) -> bool {
    let mut changed = false;
    for x in values {
        changed |= ui
            .add(
                egui::DragValue::new(x)
                    .range(range.clone())
                    .speed(speed)
                    .max_decimals(3),
            )
            .labelled_by(l)
            .changed();
    }
    changed
}

fn opt_colour(ui: &mut egui::Ui, label: &str, v: &mut Option<[f32; 3]>, default: [f32; 3]) -> bool {
    let unset = || {
        format!(
            "{:.2} {:.2} {:.2} (default)",
            default[0], default[1], default[2]
        )
    };
    optional_row(ui, label, v, default, unset, |ui, c, l| {
        // the picker works in HSV and hands back a colour a rounding away: take it only when
        // the user picked
        let mut shown = *c;
        let picked = ui
            .color_edit_button_rgb(&mut shown)
            .labelled_by(l)
            .changed();
        if picked {
            *c = shown;
        }
        components(ui, c, 0.0..=2.0, 0.005, l) | picked
    })
}

fn opt_vec<const N: usize>(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut Option<[f32; N]>,
    default: [f32; N],
    range: RangeInclusive<f32>,
) -> bool {
    let unset = || format!("{default:?} (default)");
    optional_row(ui, label, v, default, unset, |ui, a, l| {
        components(ui, a, range, 0.01, l)
    })
}

fn number(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut f32,
    range: RangeInclusive<f32>,
    unit: &str,
    hint: &str,
) -> bool {
    let l = ui.label(label).on_hover_text(hint).id;
    let speed = ((range.end() - range.start()) / 1000.0).max(0.001);
    let changed = ui
        .add(
            egui::DragValue::new(v)
                .range(range)
                .speed(speed)
                .suffix(unit),
        )
        .labelled_by(l)
        .on_hover_text(hint)
        .changed();
    ui.end_row();
    changed
}

fn text(ui: &mut egui::Ui, label: &str, v: &mut String) -> bool {
    let l = ui.label(label).id;
    let changed = ui.text_edit_singleline(v).labelled_by(l).changed();
    ui.end_row();
    changed
}

impl PropertiesPanel {
    /// Forgets the choices made for the previous map (the preset picked, the name being
    /// typed): another map was opened.
    pub fn new_map(&mut self) {
        *self = PropertiesPanel::default();
    }

    /// Shows `settings` for a map with `team_count` start positions whose archive carries the
    /// files `bundled` (paths) and which keeps the water `presets`; returns what changed.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        settings: &MapSettings,
        team_count: usize,
        bundled: &[&str],
        presets: &[WaterPreset],
    ) -> PropertiesChange {
        let mut s = settings.clone();
        let mut changed = false;
        let mut new_presets = None;
        let warnings = s.playability_warnings(team_count);
        if !warnings.is_empty() {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                for w in &warnings {
                    ui.colored_label(ui.visuals().warn_fg_color, format!("Warning: {w}"));
                }
            });
        }
        // scrolls sideways too: content wider than the panel never widens it (and shrinks the map view)
        egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
            egui::CollapsingHeader::new("Map").default_open(true).show(ui, |ui| {
                egui::Grid::new("identity").num_columns(2).striped(true).show(ui, |ui| {
                    changed |= text(ui, "Name", &mut s.name);
                    changed |= text(ui, "Short name", &mut s.shortname);
                    changed |= text(ui, "Version", &mut s.version);
                    changed |= text(ui, "Author", &mut s.author);
                    changed |= text(ui, "Description", &mut s.description);
                    let l = ui.label("Features in").id;
                    let mut p = s.feature_placement;
                    egui::ComboBox::from_id_salt("feature placement")
                        .selected_text(match p {
                            crate::map::FeaturePlacement::Smf => "the .smf block",
                            crate::map::FeaturePlacement::FeaturePlacer => "BAR's feature placer",
                        })
                        .show_ui(ui, |ui| {
                            ui.selectable_value(&mut p, crate::map::FeaturePlacement::Smf, "the .smf block")
                                .on_hover_text("the engine places them; names of 31 characters at most");
                            ui.selectable_value(&mut p, crate::map::FeaturePlacement::FeaturePlacer, "BAR's feature placer")
                                .on_hover_text("mapconfig/featureplacer/set.lua and a LuaGaia gadget place them at game start");
                        })
                        .response
                        .labelled_by(l);
                    if p != s.feature_placement {
                        s.feature_placement = p;
                        changed = true;
                    }
                    ui.end_row();
                });
            });
            egui::CollapsingHeader::new("Economy and physics").default_open(true).show(ui, |ui| {
                egui::Grid::new("physics").num_columns(2).striped(true).show(ui, |ui| {
                    changed |= number(ui, "maxMetal", &mut s.max_metal, 0.0..=20.0, " per byte", "metal = metal-map byte x maxMetal; BAR maps use about 0.9 to 4");
                    changed |= number(ui, "extractorRadius", &mut s.extractor_radius_elmos, 0.0..=1000.0, " elmos", "how far a metal extractor reaches; BAR uses about 80 to 100");
                    changed |= number(ui, "mapHardness", &mut s.map_hardness, 0.0..=10000.0, "", "how hard the ground is to crater (engine default 100)");
                    changed |= number(ui, "gravity", &mut s.gravity, 0.0..=1000.0, " elmos/s²", "engine default 130");
                    changed |= number(ui, "tidalStrength", &mut s.tidal_strength, 0.0..=100.0, " energy", "energy a tidal generator makes");
                    let l = ui.label("voidWater").id;
                    changed |= ui
                        .checkbox(&mut s.void_water, "ground below 0 is a hole")
                        .labelled_by(l)
                        .changed();
                    ui.end_row();
                });
            });
            egui::CollapsingHeader::new("Heights").default_open(true).show(ui, |ui| {
                egui::Grid::new("heights").num_columns(2).striped(true).show(ui, |ui| {
                    changed |= number(ui, "minHeight", &mut s.min_height_elmos, -10000.0..=10000.0, " elmos", "world height of height word 0");
                    changed |= number(ui, "maxHeight", &mut s.max_height_elmos, -10000.0..=10000.0, " elmos", "world height of height word 65536");
                });
            });
            egui::CollapsingHeader::new("Lighting").show(ui, |ui| {
                let l = &mut s.lighting;
                egui::Grid::new("lighting").num_columns(2).striped(true).show(ui, |ui| {
                    changed |= opt_vec(ui, "sunDir", &mut l.sun_dir, [0.0, 1.0, 2.0, 1.0], -10.0..=10.0);
                    changed |= opt_f32(ui, "sunStartAngle", &mut l.sun_start_angle, 0.0, -360.0..=360.0, "°");
                    changed |= opt_f32(ui, "sunOrbitTime", &mut l.sun_orbit_time, 1440.0, 0.0..=100000.0, " s");
                    changed |= opt_colour(ui, "groundAmbientColor", &mut l.ground_ambient_color, [0.5; 3]);
                    changed |= opt_colour(ui, "groundDiffuseColor", &mut l.ground_diffuse_color, [0.5; 3]);
                    changed |= opt_colour(ui, "groundSpecularColor", &mut l.ground_specular_color, [0.1; 3]);
                    changed |= opt_f32(ui, "groundShadowDensity", &mut l.ground_shadow_density, 0.8, 0.0..=1.0, "");
                    changed |= opt_colour(ui, "unitAmbientColor", &mut l.unit_ambient_color, [0.4; 3]);
                    changed |= opt_colour(ui, "unitDiffuseColor", &mut l.unit_diffuse_color, [0.7; 3]);
                    changed |= opt_colour(ui, "unitSpecularColor", &mut l.unit_specular_color, [0.7; 3]);
                    changed |= opt_f32(ui, "unitShadowDensity", &mut l.unit_shadow_density, 0.8, 0.0..=1.0, "");
                    changed |= opt_colour(ui, "specularSunColor", &mut l.specular_sun_color, [1.0; 3]);
                    changed |= opt_f32(ui, "specularExponent", &mut l.specular_exponent, 100.0, 1.0..=1000.0, "");
                });
            });
            egui::CollapsingHeader::new("Water").show(ui, |ui| {
                let ground_diffuse = s.lighting.ground_diffuse_or_default();
                ui.label(format!(
                    "Damage {} hp/s to units in the water; tidal generators make {} energy.",
                    s.water.damage.unwrap_or(wd::DAMAGE),
                    s.tidal_strength
                ));
                let (applied, saved) = self.presets_ui(ui, &s.water, presets);
                if let Some(preset) = applied {
                    preset.apply_to(&mut s.water);
                    changed = true;
                }
                new_presets = saved;
                let w = &mut s.water;
                egui::Grid::new("water").num_columns(2).striped(true).show(ui, |ui| {
                    changed |= opt_f32(ui, "damage", &mut w.damage, wd::DAMAGE, 0.0..=10000.0, " hp/s");
                    changed |= opt_colour(ui, "planeColor", &mut w.plane_color, wd::PLANE_COLOR);
                    changed |= opt_colour(ui, "surfaceColor", &mut w.surface_color, wd::SURFACE_COLOR);
                    changed |= opt_f32(ui, "surfaceAlpha", &mut w.surface_alpha, wd::SURFACE_ALPHA, 0.0..=1.0, "");
                    changed |= opt_colour(ui, "absorb", &mut w.absorb, [0.0; 3]);
                    changed |= opt_colour(ui, "baseColor", &mut w.base_color, [0.0; 3]);
                    changed |= opt_colour(ui, "minColor", &mut w.min_color, [0.0; 3]);
                    changed |= opt_colour(ui, "diffuseColor", &mut w.diffuse_color, wd::DIFFUSE_COLOR);
                    changed |= opt_colour(ui, "specularColor", &mut w.specular_color, ground_diffuse);
                    changed |= opt_f32(ui, "ambientFactor", &mut w.ambient_factor, wd::AMBIENT_FACTOR, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "diffuseFactor", &mut w.diffuse_factor, wd::DIFFUSE_FACTOR, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "specularFactor", &mut w.specular_factor, wd::SPECULAR_FACTOR, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "specularPower", &mut w.specular_power, wd::SPECULAR_POWER, 0.0..=1000.0, "");
                    changed |= opt_f32(ui, "fresnelMin", &mut w.fresnel_min, wd::FRESNEL_MIN, 0.0..=2.0, "");
                    changed |= opt_f32(ui, "fresnelMax", &mut w.fresnel_max, wd::FRESNEL_MAX, 0.0..=2.0, "");
                    changed |= opt_f32(ui, "fresnelPower", &mut w.fresnel_power, wd::FRESNEL_POWER, 0.0..=50.0, "");
                    changed |= opt_f32(ui, "reflectionDistortion", &mut w.reflection_distortion, wd::REFLECTION_DISTORTION, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "blurBase", &mut w.blur_base, wd::BLUR_BASE, 0.0..=20.0, " px");
                    changed |= opt_f32(ui, "blurExponent", &mut w.blur_exponent, wd::BLUR_EXPONENT, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "perlinStartFreq", &mut w.perlin_start_freq, wd::PERLIN_START_FREQ, 0.0..=100.0, "");
                    changed |= opt_f32(ui, "perlinLacunarity", &mut w.perlin_lacunarity, wd::PERLIN_LACUNARITY, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "perlinAmplitude", &mut w.perlin_amplitude, wd::PERLIN_AMPLITUDE, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "windSpeed", &mut w.wind_speed, 1.0, 0.0..=100.0, "");
                    changed |= opt_f32(ui, "repeatX", &mut w.repeat_x, 0.0, 0.0..=100.0, "");
                    changed |= opt_f32(ui, "repeatY", &mut w.repeat_y, 0.0, 0.0..=100.0, "");
                    changed |= opt_bool(ui, "shoreWaves", &mut w.shore_waves, wd::SHORE_WAVES);
                    changed |= opt_bool(ui, "forceRendering", &mut w.force_rendering, false);
                    changed |= opt_bool(ui, "hasWaterPlane", &mut w.has_water_plane, false);
                    changed |= opt_f32(ui, "numTiles", &mut w.num_tiles, 4.0, 1.0..=16.0, "");
                    changed |= opt_string(ui, "normalTexture", &mut w.normal_texture);
                    changed |= opt_string(ui, "texture", &mut w.texture);
                    changed |= opt_string(ui, "foamTexture", &mut w.foam_texture);
                    changed |= opt_f32(ui, "causticsResolution", &mut w.caustics_resolution, wd::CAUSTICS_RESOLUTION, 0.0..=1000.0, "");
                    changed |= opt_f32(ui, "causticsStrength", &mut w.caustics_strength, wd::CAUSTICS_STRENGTH, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "waveOffsetFactor", &mut w.wave_offset_factor, 0.0, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "waveLength", &mut w.wave_length, wd::WAVE_LENGTH, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "waveFoamDistortion", &mut w.wave_foam_distortion, 0.05, 0.0..=10.0, "");
                    changed |= opt_f32(ui, "waveFoamIntensity", &mut w.wave_foam_intensity, wd::WAVE_FOAM_INTENSITY, 0.0..=10.0, "");
                });
            });
            egui::CollapsingHeader::new("Atmosphere").show(ui, |ui| {
                let a = &mut s.atmosphere;
                egui::Grid::new("atmosphere").num_columns(2).striped(true).show(ui, |ui| {
                    changed |= opt_f32(ui, "minWind", &mut a.min_wind, 5.0, 0.0..=100.0, " energy");
                    changed |= opt_f32(ui, "maxWind", &mut a.max_wind, 25.0, 0.0..=100.0, " energy");
                    changed |= opt_f32(ui, "fogStart", &mut a.fog_start, 0.1, 0.0..=1.0, " of view");
                    changed |= opt_f32(ui, "fogEnd", &mut a.fog_end, 1.0, 0.0..=1.0, " of view");
                    changed |= opt_colour(ui, "fogColor", &mut a.fog_color, [0.7, 0.7, 0.8]);
                    changed |= opt_colour(ui, "skyColor", &mut a.sky_color, [0.1, 0.15, 0.7]);
                    changed |= opt_colour(ui, "sunColor", &mut a.sun_color, [1.0, 1.0, 1.0]);
                    changed |= opt_colour(ui, "cloudColor", &mut a.cloud_color, [1.0, 1.0, 1.0]);
                    changed |= opt_f32(ui, "cloudDensity", &mut a.cloud_density, 0.5, 0.0..=1.0, "");
                    changed |= opt_string(ui, "skyBox", &mut a.sky_box);
                    changed |= opt_vec(ui, "skyAxisAngle", &mut a.sky_axis_angle, [0.0, 1.0, 0.0, 0.0], -10.0..=10.0);
                });
            });
            egui::CollapsingHeader::new("Grass").show(ui, |ui| {
                changed |= grass_ui(ui, &mut s, bundled);
            });
            egui::CollapsingHeader::new("Terrain types").show(ui, |ui| {
                changed |= terrain_types_ui(ui, &mut s);
            });
            let kept = s.extra.len() + s.custom.len() + s.water.extra.len() + s.lighting.extra.len() + s.atmosphere.extra.len();
            if kept > 0 {
                ui.weak(format!("{kept} other keys are kept as they were and written back unchanged."));
            }
        });
        PropertiesChange {
            settings: changed.then_some(s),
            presets: new_presets,
        }
    }

    /// The water presets: pick one and apply it, or save the current water under a name (the
    /// map's own, kept in `map.toml`). Returns the preset to apply and the new list of the map's
    /// presets.
    fn presets_ui(
        &mut self,
        ui: &mut egui::Ui,
        current: &crate::map::WaterSettings,
        own: &[WaterPreset],
    ) -> (Option<WaterPreset>, Option<Vec<WaterPreset>>) {
        let all: Vec<WaterPreset> = builtin_presets()
            .into_iter()
            .chain(own.iter().cloned())
            .collect();
        let builtin = all.len() - own.len();
        self.preset = self.preset.min(all.len().saturating_sub(1));
        let (mut apply, mut saved) = (None, None);
        ui.horizontal(|ui| {
            let l = ui.label("Preset").id;
            egui::ComboBox::from_id_salt("water preset")
                .selected_text(all[self.preset].name.clone())
                .show_ui(ui, |ui| {
                    for (i, p) in all.iter().enumerate() {
                        let name = if i < builtin {
                            p.name.clone()
                        } else {
                            format!("{} (this map's)", p.name)
                        };
                        ui.selectable_value(&mut self.preset, i, name);
                    }
                })
                .response
                .labelled_by(l);
            if ui.button("Apply").clicked() {
                apply = Some(all[self.preset].clone());
            }
            if self.preset >= builtin && ui.button("Delete").clicked() {
                let name = &all[self.preset].name;
                saved = Some(own.iter().filter(|p| &p.name != name).cloned().collect());
                self.preset = 0;
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Save as").id;
            ui.add(egui::TextEdit::singleline(&mut self.preset_name).desired_width(140.0))
                .labelled_by(l);
            let name = self.preset_name.trim().to_string();
            if ui
                .add_enabled(!name.is_empty(), egui::Button::new("Save preset"))
                .clicked()
            {
                let mut list: Vec<WaterPreset> =
                    own.iter().filter(|p| p.name != name).cloned().collect();
                list.push(WaterPreset {
                    name,
                    water: current.clone(),
                });
                saved = Some(list);
                self.preset_name.clear();
            }
        });
        (apply, saved)
    }
}

/// `custom.grassConfig` as BAR's grass widget reads it: patch sizes, the blade texture, the
/// fade distances and how the ground colours the blades.
fn grass_ui(ui: &mut egui::Ui, s: &mut MapSettings, bundled: &[&str]) -> bool {
    let mut c = GrassConfig::from_settings(s);
    let before = c.clone();
    egui::Grid::new("grass")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            number(
                ui,
                "grassMinSize",
                &mut c.min_size,
                0.0..=10.0,
                " x",
                "patch size for grass byte 1 (BAR's default 0.3)",
            );
            number(
                ui,
                "grassMaxSize",
                &mut c.max_size,
                0.0..=10.0,
                " x",
                "patch size for grass byte 254 (BAR's default 1.7)",
            );
            number(
                ui,
                "FADESTART",
                &mut c.fade_start_elmos,
                0.0..=50000.0,
                " elmos",
                "grass starts to fade this far from the camera (x 0.45 in BAR; default 5000)",
            );
            number(
                ui,
                "FADEEND",
                &mut c.fade_end_elmos,
                0.0..=50000.0,
                " elmos",
                "grass is gone this far from the camera (x 0.45 in BAR; default 8000)",
            );
            number(
                ui,
                "MAPCOLORFACTOR",
                &mut c.map_colour_factor,
                -2.0..=2.0,
                "",
                "how far the ground colour tints the blades (default 0.6)",
            );
            number(
                ui,
                "MAPCOLORBASE",
                &mut c.map_colour_base,
                0.0..=2.0,
                "",
                "how far blade roots take on the ground colour (default 1)",
            );
            let l = ui.label("grassBladeColorTex").id;
            let shown = c
                .blade_texture
                .clone()
                .unwrap_or_else(|| "BAR's own".into());
            egui::ComboBox::from_id_salt("blade texture")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut c.blade_texture, None, "BAR's own");
                    for f in bundled.iter().filter(|f| is_picture(f)) {
                        ui.selectable_value(&mut c.blade_texture, Some(f.to_string()), *f);
                    }
                })
                .response
                .labelled_by(l);
            ui.end_row();
        });
    if let Some(name) = &c.blade_texture
        && !bundled.iter().any(|f| f.eq_ignore_ascii_case(name))
    {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!("{name} is not in the map's archive: BAR will find no blades"),
        );
    }
    ui.weak("Pictures in the project's archive/ folder can be chosen as blades.");
    if c.max_size < c.min_size {
        c.max_size = c.min_size;
    }
    if c.fade_end_elmos < c.fade_start_elmos {
        c.fade_end_elmos = c.fade_start_elmos;
    }
    let changed = c != before;
    if changed {
        c.write_to(s);
    }
    changed
}

fn is_picture(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".dds", ".png", ".tga", ".bmp", ".jpg", ".jpeg"]
        .iter()
        .any(|e| p.ends_with(e))
}

fn terrain_types_ui(ui: &mut egui::Ui, s: &mut MapSettings) -> bool {
    let mut changed = false;
    let mut remove = None;
    for (index, t) in s.terrain_types.iter_mut() {
        ui.push_id(*index, |ui| {
            egui::Grid::new("type")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    let l = ui.strong(format!("Type {index}")).id;
                    ui.horizontal(|ui| {
                        changed |= ui
                            .add(egui::TextEdit::singleline(&mut t.name).desired_width(120.0))
                            .labelled_by(l)
                            .changed();
                        if ui.small_button("remove").labelled_by(l).clicked() {
                            remove = Some(*index);
                        }
                    });
                    ui.end_row();
                    changed |= number(
                        ui,
                        "hardness",
                        &mut t.hardness,
                        0.0..=100.0,
                        " x mapHardness",
                        "multiplies mapHardness for cratering",
                    );
                    let l = ui.label("receiveTracks").id;
                    changed |= ui
                        .checkbox(&mut t.receive_tracks, "")
                        .labelled_by(l)
                        .changed();
                    ui.end_row();
                    let MoveSpeeds {
                        tank,
                        kbot,
                        hover,
                        ship,
                    } = &mut t.move_speeds;
                    for (name, v) in [
                        ("tank speed", tank),
                        ("kbot speed", kbot),
                        ("hover speed", hover),
                        ("ship speed", ship),
                    ] {
                        changed |= number(
                            ui,
                            name,
                            v,
                            0.0..=10.0,
                            " x",
                            "unit speed multiplier on this type",
                        );
                    }
                });
        });
        ui.add_space(4.0);
    }
    if let Some(i) = remove {
        s.terrain_types.remove(&i);
        changed = true;
    }
    if s.terrain_types.len() < 256 && ui.button("Add a terrain type").clicked() {
        let next = (0..=255u8)
            .find(|i| !s.terrain_types.contains_key(i))
            .unwrap_or(255);
        s.terrain_types
            .insert(next, TerrainType::named(&format!("Type {next}")));
        changed = true;
    }
    changed
}
