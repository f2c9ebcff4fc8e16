//! The Layers panel: the texture stack top first, the map's own picture ("Original") at the
//! bottom, each layer with a thumbnail of its material; add (a built-in, a solid colour or a
//! picture among the map's files), delete, move up and down, rename, hide and solo (the view
//! only), opacity, the material, the rules and the splat channel. Sliders change the document
//! live (the app keeps a drag as one undo step); a stack the document would refuse
//! ([`check_stack`]) is refused here with its reason.

use std::collections::{HashMap, HashSet};

use crate::gpu::ground_layers::LayerVisibility;
use crate::map::GroundTexture;
use crate::map::ground_layers::{
    Band, Bend, Breakup, Curvature, MAX_LAYERS, Material, TextureLayer, check_stack,
};
use crate::map::materials::BuiltinMaterial;

/// Thumbnails are this many points a side.
const THUMB_POINTS: f32 = 28.0;
/// Pictures are reduced to this many texels a side for a thumbnail.
const THUMB_TEXELS: usize = 32;

/// What a new layer is made of.
#[derive(Clone, Debug, PartialEq)]
pub enum NewLayer {
    Builtin(BuiltinMaterial),
    Solid,
    /// A picture among the map's bundled files.
    Picture(String),
}

impl NewLayer {
    fn label(&self) -> String {
        match self {
            NewLayer::Builtin(k) => k.name().to_string(),
            NewLayer::Solid => "solid colour".into(),
            NewLayer::Picture(f) => format!("picture {f}"),
        }
    }

    fn material(&self) -> Material {
        match self {
            NewLayer::Builtin(kind) => Material::Builtin {
                kind: *kind,
                scale_elmos: 256.0,
                tint: [1.0; 3],
            },
            NewLayer::Solid => Material::Solid {
                color: [128, 128, 128],
            },
            NewLayer::Picture(file) => Material::Picture {
                file: file.clone(),
                scale_elmos: 256.0,
                tint: [1.0; 3],
            },
        }
    }

    /// The name a new layer of this gets, before it is made unique.
    fn base_name(&self) -> String {
        match self {
            NewLayer::Builtin(k) => k.name().to_string(),
            NewLayer::Solid => "solid".into(),
            NewLayer::Picture(f) => {
                let stem = f.rsplit('/').next().unwrap_or(f);
                let stem = stem.rsplit_once('.').map(|(s, _)| s).unwrap_or(stem);
                let safe: String = stem
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '_' | '-'))
                    .take(56)
                    .collect();
                if safe.is_empty() || safe.eq_ignore_ascii_case("original") {
                    "picture".into()
                } else {
                    safe
                }
            }
        }
    }
}

/// What the user changed.
#[derive(Clone, Debug, PartialEq)]
pub enum LayersChange {
    /// A whole step (a button, a choice): one undo step called `what`.
    Step {
        what: String,
        layers: Vec<TextureLayer>,
    },
    /// A slider or a drag value moved: part of the live edit `what`, which the app closes when
    /// the pointer is let go.
    Live {
        what: String,
        layers: Vec<TextureLayer>,
    },
}

/// What the panel needs of the document.
pub struct LayersInput<'a> {
    pub layers: &'a [TextureLayer],
    /// The map's masks' size (its metal grid), for [`check_stack`].
    pub mask_dims: (usize, usize),
    /// The map's own picture, for the "Original" thumbnail.
    pub original: &'a GroundTexture,
    /// The pictures among the map's bundled files (paths) a layer can be made of.
    pub pictures: &'a [String],
    /// The map's bundled files, for picture materials' thumbnails.
    pub bundled: &'a [crate::map::BundledFile],
    /// The map's height range (elmos), for the height band's sliders.
    pub height_range_elmos: (f32, f32),
}

/// What the original picture's thumbnail was made from: its size and first texel.
type OriginalKey = (usize, usize, [u8; 4]);

#[derive(Default)]
pub struct LayersPanel {
    /// The layer shown below the list, by name.
    selected: Option<String>,
    /// What the Add button makes.
    new_layer: Option<NewLayer>,
    /// The name being typed for the selected layer.
    rename: String,
    /// Hidden layers and the solo layer, by name (the view only: the export bakes them all).
    hidden: HashSet<String>,
    solo: Option<String>,
    /// The last change refused, and why.
    pub error: Option<String>,
    /// Material thumbnails by a key of what they show, and the keys whose picture could not be
    /// read (tried once; the view reports the picture).
    thumbs: HashMap<String, egui::TextureHandle>,
    no_thumb: HashSet<String>,
    /// The original picture's thumbnail and the size it was made from.
    original: Option<(OriginalKey, egui::TextureHandle)>,
}

impl std::fmt::Debug for LayersPanel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LayersPanel")
            .field("selected", &self.selected)
            .field("hidden", &self.hidden)
            .field("solo", &self.solo)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// `base`, or `base 2`, `base 3`, ... : the first not taken in `layers`.
pub fn unique_name(layers: &[TextureLayer], base: &str) -> String {
    let taken = |n: &str| layers.iter().any(|l| l.name.eq_ignore_ascii_case(n));
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|k| format!("{base} {k}"))
        .find(|n| !taken(n))
        .expect("some number is free")
}

fn rgb8(c: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(c[0], c[1], c[2])
}

impl LayersPanel {
    /// Forgets what belonged to the last document.
    pub fn new_map(&mut self) {
        *self = LayersPanel::default();
    }

    /// The layer shown below the list.
    pub fn selected(&self) -> Option<&str> {
        self.selected.as_deref()
    }

    /// Shows `name` below the list.
    pub fn select(&mut self, name: &str) {
        self.selected = Some(name.to_string());
        self.rename = name.to_string();
    }

    /// Which of `layers` the view draws: hidden ones and, with a solo layer, all others left
    /// out.
    pub fn visibility(&self, layers: &[TextureLayer]) -> LayerVisibility {
        LayerVisibility {
            hidden: layers
                .iter()
                .map(|l| self.hidden.contains(&l.name))
                .collect(),
            solo: self
                .solo
                .as_ref()
                .and_then(|s| layers.iter().position(|l| &l.name == s)),
        }
    }

    /// Checks `layers` and hands them on as `make(what, layers)`, or keeps the reason.
    fn propose(
        &mut self,
        input: &LayersInput,
        what: String,
        layers: Vec<TextureLayer>,
        live: bool,
    ) -> Option<LayersChange> {
        match check_stack(&layers, input.mask_dims) {
            Ok(()) => {
                self.error = None;
                Some(if live {
                    LayersChange::Live { what, layers }
                } else {
                    LayersChange::Step { what, layers }
                })
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    fn thumbnail(
        &mut self,
        ctx: &egui::Context,
        layer: &TextureLayer,
        bundled: &[crate::map::BundledFile],
    ) -> Option<egui::TextureId> {
        let key = match &layer.material {
            Material::Solid { .. } => return None,
            Material::Builtin { kind, .. } => format!("builtin {}", kind.name()),
            Material::Picture { file, .. } => format!("picture {file}"),
        };
        if let Some(t) = self.thumbs.get(&key) {
            return Some(t.id());
        }
        if self.no_thumb.contains(&key) {
            return None;
        }
        let made = Self::thumbnail_rgba(layer, bundled);
        let Some(rgba) = made else {
            self.no_thumb.insert(key);
            return None;
        };
        let image = egui::ColorImage::from_rgba_unmultiplied([THUMB_TEXELS, THUMB_TEXELS], &rgba);
        let handle = ctx.load_texture(&key, image, egui::TextureOptions::LINEAR);
        let id = handle.id();
        self.thumbs.insert(key, handle);
        Some(id)
    }

    /// A material's picture reduced to a thumbnail; `None` for a solid colour or a picture
    /// that cannot be read.
    fn thumbnail_rgba(
        layer: &TextureLayer,
        bundled: &[crate::map::BundledFile],
    ) -> Option<Vec<u8>> {
        Some(match &layer.material {
            Material::Builtin { kind, .. } => {
                let n = crate::map::materials::MIN_TEXELS;
                let full = kind.diffuse(n);
                GroundTexture::from_rgba(n, n, full)?.box_filtered_square(THUMB_TEXELS)
            }
            Material::Picture { file, .. } => {
                let f = bundled.iter().find(|f| f.path.eq_ignore_ascii_case(file))?;
                let bytes = f.bytes().ok()?;
                let (rgba, w, h) =
                    crate::formats::image_file::decode_rgba(&bytes, file, 4096).ok()?;
                GroundTexture::from_rgba(w, h, rgba)?.box_filtered_square(THUMB_TEXELS)
            }
            Material::Solid { .. } => return None,
        })
    }

    fn original_thumbnail(
        &mut self,
        ctx: &egui::Context,
        texture: &GroundTexture,
    ) -> egui::TextureId {
        let key = (texture.width(), texture.height(), texture.pixel(0, 0));
        if let Some((k, t)) = &self.original
            && *k == key
        {
            return t.id();
        }
        let rgba = texture.box_filtered_square(THUMB_TEXELS);
        let image = egui::ColorImage::from_rgba_unmultiplied([THUMB_TEXELS, THUMB_TEXELS], &rgba);
        let handle = ctx.load_texture("original", image, egui::TextureOptions::LINEAR);
        let id = handle.id();
        self.original = Some((key, handle));
        id
    }

    /// Draws a layer's thumbnail (a picture, or the colour a solid or picture layer shows).
    fn draw_thumb(
        &mut self,
        ui: &mut egui::Ui,
        layer: &TextureLayer,
        bundled: &[crate::map::BundledFile],
    ) {
        let size = egui::vec2(THUMB_POINTS, THUMB_POINTS);
        match self.thumbnail(ui.ctx(), layer, bundled) {
            Some(id) => {
                ui.add(egui::Image::new((id, size)));
            }
            None => {
                let colour = match &layer.material {
                    Material::Solid { color } => rgb8(*color),
                    Material::Picture { tint, .. } | Material::Builtin { tint, .. } => {
                        let b = |v: f32| (v.clamp(0.0, 1.0) * 200.0) as u8;
                        egui::Color32::from_rgb(b(tint[0]), b(tint[1]), b(tint[2]))
                    }
                };
                let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
                ui.painter().rect_filled(rect, 2.0, colour);
            }
        }
    }

    /// Shows the stack and returns what the user changed.
    pub fn ui(&mut self, ui: &mut egui::Ui, input: &LayersInput) -> Option<LayersChange> {
        let layers = input.layers;
        // forget names that are gone
        self.hidden.retain(|n| layers.iter().any(|l| &l.name == n));
        if let Some(s) = &self.solo
            && !layers.iter().any(|l| &l.name == s)
        {
            self.solo = None;
        }
        if let Some(s) = &self.selected
            && !layers.iter().any(|l| &l.name == s)
        {
            self.selected = None;
        }
        let mut change = None;

        ui.horizontal(|ui| {
            let choice = self
                .new_layer
                .clone()
                .unwrap_or(NewLayer::Builtin(BuiltinMaterial::Rock));
            let mut picked = choice.clone();
            let l = ui.label("New").id;
            material_choice(ui, "new layer material", &mut picked, input.pictures, l);
            self.new_layer = Some(picked.clone());
            let full = layers.len() >= MAX_LAYERS;
            if ui
                .add_enabled(!full, egui::Button::new("Add layer"))
                .on_hover_text("a layer on top of the stack, over the whole map")
                .on_disabled_hover_text(format!("at most {MAX_LAYERS} layers"))
                .clicked()
            {
                let name = unique_name(layers, &picked.base_name());
                let mut new = layers.to_vec();
                new.push(TextureLayer::new(&name, picked.material()));
                change = self.propose(input, format!("add layer {name}"), new, false);
                if change.is_some() {
                    self.select(&name);
                }
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e.as_str());
        }

        // the list, top first
        let mut action: Option<RowAction> = None;
        egui::Grid::new("texture layers")
            .num_columns(3)
            .striped(true)
            .show(ui, |ui| {
                for (k, layer) in layers.iter().enumerate().rev() {
                    self.draw_thumb(ui, layer, input.bundled);
                    let selected = self.selected.as_deref() == Some(layer.name.as_str());
                    let label = match layer.splat_channel {
                        Some(c) => format!("{}  (splat {c})", layer.name),
                        None => layer.name.clone(),
                    };
                    let mut text = egui::RichText::new(label);
                    if self.hidden.contains(&layer.name) {
                        text = text.weak();
                    }
                    if ui.selectable_label(selected, text).clicked() {
                        action = Some(RowAction::Select(k));
                    }
                    ui.horizontal(|ui| {
                        let mut shown = !self.hidden.contains(&layer.name);
                        if ui
                            .checkbox(&mut shown, "")
                            .on_hover_text("shown in the view (the export bakes every layer)")
                            .changed()
                        {
                            action = Some(RowAction::Show(k, shown));
                        }
                        let solo = self.solo.as_deref() == Some(layer.name.as_str());
                        if ui
                            .selectable_label(solo, "S")
                            .on_hover_text("solo: the view draws this layer alone")
                            .clicked()
                        {
                            action = Some(RowAction::Solo(k));
                        }
                        if ui
                            .add_enabled(k + 1 < layers.len(), egui::Button::new("up").small())
                            .on_hover_text("move up")
                            .clicked()
                        {
                            action = Some(RowAction::Move(k, k + 1));
                        }
                        if ui
                            .add_enabled(k > 0, egui::Button::new("down").small())
                            .on_hover_text("move down")
                            .clicked()
                        {
                            action = Some(RowAction::Move(k, k - 1));
                        }
                        if ui
                            .small_button("delete")
                            .on_hover_text("delete this layer (undo brings it back)")
                            .clicked()
                        {
                            action = Some(RowAction::Delete(k));
                        }
                    });
                    ui.end_row();
                }
                let id = self.original_thumbnail(ui.ctx(), input.original);
                ui.add(egui::Image::new((
                    id,
                    egui::vec2(THUMB_POINTS, THUMB_POINTS),
                )));
                ui.label("Original")
                    .on_hover_text("the map's own picture, under every layer, 1:1 (not tiled)");
                ui.weak("bottom");
                ui.end_row();
            });
        match action {
            Some(RowAction::Select(k)) => self.select(&layers[k].name),
            Some(RowAction::Show(k, shown)) => {
                if shown {
                    self.hidden.remove(&layers[k].name);
                } else {
                    self.hidden.insert(layers[k].name.clone());
                }
            }
            Some(RowAction::Solo(k)) => {
                let n = &layers[k].name;
                self.solo = if self.solo.as_ref() == Some(n) {
                    None
                } else {
                    Some(n.clone())
                };
            }
            Some(RowAction::Move(from, to)) => {
                let mut new = layers.to_vec();
                new.swap(from, to);
                let way = if to > from { "up" } else { "down" };
                let what = format!("move layer {} {way}", layers[from].name);
                change = self.propose(input, what, new, false);
            }
            Some(RowAction::Delete(k)) => {
                let mut new = layers.to_vec();
                let gone = new.remove(k);
                change = self.propose(input, format!("delete layer {}", gone.name), new, false);
            }
            None => {}
        }
        if change.is_some() {
            return change;
        }

        let Some(k) = self
            .selected
            .as_ref()
            .and_then(|s| layers.iter().position(|l| &l.name == s))
        else {
            ui.weak("Select a layer to edit its material and rules.");
            return None;
        };
        ui.separator();
        self.layer_editor(ui, input, k)
    }

    /// The selected layer's name, material, opacity, splat channel and rules.
    fn layer_editor(
        &mut self,
        ui: &mut egui::Ui,
        input: &LayersInput,
        k: usize,
    ) -> Option<LayersChange> {
        let layers = input.layers;
        let old = &layers[k];
        let mut layer = old.clone();
        let mut step: Option<String> = None;
        let mut live: Option<String> = None;
        let name = old.name.clone();

        ui.horizontal(|ui| {
            let l = ui.label("Name").id;
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut self.rename)
                        .desired_width(150.0)
                        .hint_text("name"),
                )
                .labelled_by(l);
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button("Rename").clicked() || enter) && self.rename != old.name {
                layer.name = self.rename.trim().to_string();
                step = Some(format!("rename layer {name} to {}", layer.name));
            }
        });

        egui::Grid::new("layer settings")
            .num_columns(2)
            .show(ui, |ui| {
                let l = ui.label("Opacity").id;
                if ui
                    .add(egui::Slider::new(&mut layer.opacity, 0.0..=1.0))
                    .labelled_by(l)
                    .changed()
                {
                    live = Some(format!("layer {name}: opacity"));
                }
                ui.end_row();

                let l = ui
                    .label("Splat channel")
                    .on_hover_text(
                        "the engine's detail texture this layer's weight selects (splatDistrTex), \
                     one layer per channel",
                    )
                    .id;
                let text = |c: Option<u8>| match c {
                    Some(c) => format!("channel {c}"),
                    None => "none".into(),
                };
                let mut channel = layer.splat_channel;
                egui::ComboBox::from_id_salt("splat channel")
                    .selected_text(text(channel))
                    .show_ui(ui, |ui| {
                        for c in [None, Some(0), Some(1), Some(2), Some(3)] {
                            let taken = layers
                                .iter()
                                .enumerate()
                                .find(|(j, l)| *j != k && c.is_some() && l.splat_channel == c)
                                .map(|(_, l)| l.name.clone());
                            let label = match &taken {
                                Some(o) => format!("{} (taken by {o})", text(c)),
                                None => text(c),
                            };
                            ui.add_enabled_ui(taken.is_none(), |ui| {
                                ui.selectable_value(&mut channel, c, label);
                            });
                        }
                    })
                    .response
                    .labelled_by(l);
                if channel != layer.splat_channel {
                    layer.splat_channel = channel;
                    step = Some(format!("layer {name}: splat channel"));
                }
                ui.end_row();

                material_rows(
                    ui,
                    &mut layer.material,
                    input.pictures,
                    &name,
                    &mut step,
                    &mut live,
                );
            });

        ui.label(egui::RichText::new("Rules (multiplied)").strong());
        rules_editor(
            ui,
            &mut layer,
            input.height_range_elmos,
            &mut step,
            &mut live,
        );

        let mut new = layers.to_vec();
        let renamed = layer.name != old.name;
        new[k] = layer;
        if let Some(what) = step {
            let c = self.propose(input, what, new, false);
            if c.is_some() && renamed {
                let to = self.rename.trim().to_string();
                if self.hidden.remove(&name) {
                    self.hidden.insert(to.clone());
                }
                if self.solo.as_deref() == Some(name.as_str()) {
                    self.solo = Some(to.clone());
                }
                self.select(&to);
            }
            return c;
        }
        if let Some(what) = live {
            return self.propose(input, what, new, true);
        }
        None
    }
}

enum RowAction {
    Select(usize),
    Show(usize, bool),
    Solo(usize),
    /// The layer at the first index trades places with the one at the second.
    Move(usize, usize),
    Delete(usize),
}

/// A list of every material a layer can be made of (the built-ins, a solid colour, the map's
/// pictures), labelled by `label`.
fn material_choice(
    ui: &mut egui::Ui,
    id: &str,
    picked: &mut NewLayer,
    pictures: &[String],
    label: egui::Id,
) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(picked.label())
        .show_ui(ui, |ui| {
            let choices = BuiltinMaterial::ALL
                .into_iter()
                .map(NewLayer::Builtin)
                .chain([NewLayer::Solid])
                .chain(pictures.iter().cloned().map(NewLayer::Picture));
            for v in choices {
                let text = v.label();
                ui.selectable_value(picked, v, text);
            }
        })
        .response
        .labelled_by(label);
}

/// The material's rows: its kind, and its colour or its scale and tint.
fn material_rows(
    ui: &mut egui::Ui,
    material: &mut Material,
    pictures: &[String],
    name: &str,
    step: &mut Option<String>,
    live: &mut Option<String>,
) {
    let l = ui.label("Material").id;
    let current = match material {
        Material::Solid { .. } => NewLayer::Solid,
        Material::Builtin { kind, .. } => NewLayer::Builtin(*kind),
        Material::Picture { file, .. } => NewLayer::Picture(file.clone()),
    };
    let mut picked = current.clone();
    material_choice(ui, "layer material", &mut picked, pictures, l);
    ui.end_row();
    if picked != current {
        // keep the scale and tint across a change of picture or built-in
        let (scale, tint) = match material {
            Material::Builtin {
                scale_elmos, tint, ..
            }
            | Material::Picture {
                scale_elmos, tint, ..
            } => (*scale_elmos, *tint),
            Material::Solid { .. } => (256.0, [1.0; 3]),
        };
        *material = match picked.material() {
            Material::Builtin { kind, .. } => Material::Builtin {
                kind,
                scale_elmos: scale,
                tint,
            },
            Material::Picture { file, .. } => Material::Picture {
                file,
                scale_elmos: scale,
                tint,
            },
            solid => solid,
        };
        *step = Some(format!("layer {name}: material"));
    }
    match material {
        Material::Solid { color } => {
            ui.label("Colour");
            if ui.color_edit_button_srgb(color).changed() {
                *live = Some(format!("layer {name}: colour"));
            }
            ui.end_row();
        }
        Material::Builtin {
            scale_elmos, tint, ..
        }
        | Material::Picture {
            scale_elmos, tint, ..
        } => {
            let l = ui.label("Repeat").id;
            if ui
                .add(
                    egui::Slider::new(scale_elmos, 8.0..=4096.0)
                        .logarithmic(true)
                        .suffix(" elmos"),
                )
                .labelled_by(l)
                .on_hover_text("the size of one repeat of the material")
                .changed()
            {
                *live = Some(format!("layer {name}: repeat"));
            }
            ui.end_row();
            ui.label("Tint");
            if ui.color_edit_button_rgb(tint).changed() {
                *live = Some(format!("layer {name}: tint"));
            }
            ui.end_row();
        }
    }
}

/// A band's row: a tick that sets it (to `default`) or clears it, and its min (when
/// `has_min`), max and soft edge.
#[allow(clippy::too_many_arguments)]
fn band_row(
    ui: &mut egui::Ui,
    label: &str,
    band: &mut Option<Band>,
    default: Band,
    range: std::ops::RangeInclusive<f32>,
    unit: &str,
    step: &mut Option<String>,
    live: &mut Option<String>,
    what: String,
    has_min: bool,
) {
    let mut on = band.is_some();
    if ui.checkbox(&mut on, label).changed() {
        *band = on.then_some(default);
        *step = Some(what.clone());
    }
    ui.end_row();
    if let Some(b) = band {
        let speed = ((*range.end() - *range.start()) / 400.0).max(0.1);
        ui.horizontal(|ui| {
            let mut moved = false;
            if has_min {
                ui.label("from");
                moved |= ui
                    .add(
                        egui::DragValue::new(&mut b.min)
                            .range(range.clone())
                            .speed(speed)
                            .suffix(unit),
                    )
                    .changed();
            }
            ui.label(if has_min { "to" } else { "within" });
            moved |= ui
                .add(
                    egui::DragValue::new(&mut b.max)
                        .range(range.clone())
                        .speed(speed)
                        .suffix(unit),
                )
                .changed();
            ui.label("soft");
            moved |= ui
                .add(
                    egui::DragValue::new(&mut b.soft)
                        .range(0.0..=(*range.end() - *range.start()))
                        .speed(speed)
                        .suffix(unit),
                )
                .changed();
            if moved {
                if has_min && b.max < b.min {
                    b.max = b.min;
                }
                *live = Some(what.clone());
            }
        });
        ui.end_row();
    }
}

/// The rules: slope, height, curvature, near water, under metal, noise.
fn rules_editor(
    ui: &mut egui::Ui,
    layer: &mut TextureLayer,
    (lo, hi): (f32, f32),
    step: &mut Option<String>,
    live: &mut Option<String>,
) {
    let name = layer.name.clone();
    let r = &mut layer.rules;
    egui::Grid::new("layer rules")
        .num_columns(1)
        .show(ui, |ui| {
            band_row(
                ui,
                "Slope",
                &mut r.slope_deg,
                Band {
                    min: 30.0,
                    max: 90.0,
                    soft: 5.0,
                },
                0.0..=90.0,
                "°",
                step,
                live,
                format!("layer {name}: slope"),
                true,
            );
            let span = (hi - lo).max(1.0);
            band_row(
                ui,
                "Height",
                &mut r.height_elmos,
                Band {
                    min: lo + span * 0.6,
                    max: hi,
                    soft: span * 0.05,
                },
                lo.min(0.0)..=hi.max(lo + 1.0),
                " elmos",
                step,
                live,
                format!("layer {name}: height"),
                true,
            );
            band_row(
                ui,
                "Near water (distance to the shore)",
                &mut r.near_water,
                Band {
                    min: 0.0,
                    max: 64.0,
                    soft: 32.0,
                },
                0.0..=2048.0,
                " elmos",
                step,
                live,
                format!("layer {name}: near water"),
                false,
            );

            let mut on = r.curvature.is_some();
            if ui.checkbox(&mut on, "Curvature").changed() {
                r.curvature = on.then_some(Curvature {
                    bend: Bend::Ridges,
                    min_elmos: 2.0,
                    soft_elmos: 4.0,
                });
                *step = Some(format!("layer {name}: curvature"));
            }
            ui.end_row();
            if let Some(c) = &mut r.curvature {
                ui.horizontal(|ui| {
                    let before = c.bend;
                    ui.selectable_value(&mut c.bend, Bend::Ridges, "ridges");
                    ui.selectable_value(&mut c.bend, Bend::Valleys, "valleys");
                    if c.bend != before {
                        *step = Some(format!("layer {name}: curvature"));
                    }
                    ui.label("at least");
                    let a = ui.add(
                        egui::DragValue::new(&mut c.min_elmos)
                            .range(0.0..=200.0)
                            .speed(0.1)
                            .suffix(" elmos"),
                    );
                    ui.label("soft");
                    let b = ui.add(
                        egui::DragValue::new(&mut c.soft_elmos)
                            .range(0.0..=200.0)
                            .speed(0.1)
                            .suffix(" elmos"),
                    );
                    if a.changed() || b.changed() {
                        *live = Some(format!("layer {name}: curvature"));
                    }
                });
                ui.end_row();
            }

            if ui
                .checkbox(&mut r.under_metal, "Under metal spots")
                .changed()
            {
                *step = Some(format!("layer {name}: under metal"));
            }
            ui.end_row();

            let mut on = r.noise.is_some();
            if ui.checkbox(&mut on, "Noise breakup").changed() {
                r.noise = on.then_some(Breakup {
                    seed: 1,
                    scale_elmos: 256.0,
                    amount: 0.5,
                });
                *step = Some(format!("layer {name}: noise"));
            }
            ui.end_row();
            if let Some(n) = &mut r.noise {
                ui.horizontal(|ui| {
                    ui.label("seed");
                    let a = ui.add(egui::DragValue::new(&mut n.seed));
                    ui.label("scale");
                    let b = ui.add(
                        egui::DragValue::new(&mut n.scale_elmos)
                            .range(16.0..=8192.0)
                            .speed(2.0)
                            .suffix(" elmos"),
                    );
                    ui.label("amount");
                    let c = ui.add(
                        egui::DragValue::new(&mut n.amount)
                            .range(0.0..=1.0)
                            .speed(0.01),
                    );
                    if a.changed() || b.changed() || c.changed() {
                        *live = Some(format!("layer {name}: noise"));
                    }
                });
                ui.end_row();
            }
        });
}
