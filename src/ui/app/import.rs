//! File > Import: every registered importer (`crate::import::IMPORTERS`) in the window, its
//! settings drawn from its own list, and the chooser for a source that holds more than one map.

use std::path::PathBuf;
use std::sync::OnceLock;

use crate::import::{Importer, InstalledSource, Listing, SettingKind, Settings};

use super::{DialogKind, EditorApp, Pending, Source, jobs};

/// The maps of one source, shown for the user to pick one.
pub struct ImportChoice {
    pub importer: &'static str,
    pub source: PathBuf,
    pub maps: Vec<Listing>,
}

/// Each importer's settings as the user set them in File > Import, kept for the session.
#[derive(Clone, Debug, Default)]
pub struct ImportSettings(Vec<(&'static str, Settings)>);

impl ImportSettings {
    /// The settings of the importer `id`.
    pub fn get(&self, id: &str) -> Settings {
        self.0
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, s)| s.clone())
            .unwrap_or_default()
    }
    fn get_mut(&mut self, id: &'static str) -> &mut Settings {
        match self.0.iter().position(|(i, _)| *i == id) {
            Some(n) => &mut self.0[n].1,
            None => {
                self.0.push((id, Settings::default()));
                &mut self.0.last_mut().expect("just pushed").1
            }
        }
    }
}

/// The importer's settings as sliders and radio buttons, from its list.
fn settings_ui(ui: &mut egui::Ui, importer: &dyn Importer, settings: &mut Settings) {
    let specs = importer.settings();
    for spec in specs {
        match spec.kind {
            SettingKind::Number {
                min,
                max,
                step,
                suffix,
                ..
            } => {
                let mut v = settings.number(specs, spec.key);
                let mut slider = egui::Slider::new(&mut v, min..=max)
                    .suffix(suffix)
                    .text(spec.label);
                if step > 0.0 {
                    slider = slider.step_by(step as f64);
                }
                // a wide range of factors reads best on a log scale (1 in the middle)
                if min > 0.0 && max / min >= 16.0 {
                    slider = slider.logarithmic(true);
                }
                if ui.add(slider).on_hover_text(spec.described()).changed() {
                    settings.set_number(spec.key, v);
                }
            }
            SettingKind::Choice { options, .. } => {
                let current = settings.word(specs, spec.key);
                let mut picked = None;
                ui.horizontal(|ui| {
                    ui.label(spec.label).on_hover_text(spec.described());
                    for (w, label) in options {
                        if ui.radio(current == *w, *label).clicked() {
                            picked = Some(*w);
                        }
                    }
                });
                if let Some(w) = picked {
                    settings.set_word(spec.key, w);
                }
            }
            // found by the importer itself
            SettingKind::Path => {}
        }
    }
}

/// Every importer's installed sources, looked for once, not on every frame the menu is open.
fn installed_sources() -> &'static [(&'static str, InstalledSource)] {
    static FOUND: OnceLock<Vec<(&'static str, InstalledSource)>> = OnceLock::new();
    FOUND.get_or_init(|| {
        crate::import::IMPORTERS
            .iter()
            .flat_map(|i| i.installed().into_iter().map(|s| (i.id(), s)))
            .collect()
    })
}

/// Every registered importer's file extensions, each also in lower case (some dialogs match
/// case-sensitively), for the Open dialog's "Maps to import" filter.
pub(super) fn import_extensions() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for importer in crate::import::IMPORTERS {
        for (_, extensions) in importer.file_kinds() {
            for e in extensions.iter() {
                for e in [e.to_string(), e.to_ascii_lowercase()] {
                    if !out.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
    }
    out
}

impl EditorApp {
    pub(super) fn import_menu(&mut self, ui: &mut egui::Ui, ctx: &egui::Context) {
        for (n, importer) in crate::import::IMPORTERS.iter().enumerate() {
            if n > 0 {
                ui.separator();
            }
            ui.strong(importer.game());
            for (kind, (label, _)) in importer.file_kinds().iter().enumerate() {
                if ui.button(format!("{label}…")).clicked() {
                    self.start_dialog(
                        DialogKind::Import {
                            importer: importer.id(),
                            kind,
                        },
                        ctx,
                    );
                }
            }
            for (_, source) in installed_sources()
                .iter()
                .filter(|(id, _)| *id == importer.id())
            {
                let hover = match &source.path {
                    Ok(p) => format!("{}", p.display()),
                    Err(why) => why.clone(),
                };
                let button = ui
                    .add_enabled(
                        source.path.is_ok(),
                        egui::Button::new(format!("{}…", source.label)),
                    )
                    .on_hover_text(&hover)
                    .on_disabled_hover_text(&hover);
                if button.clicked()
                    && let Ok(p) = &source.path
                {
                    self.start_list(importer.id(), p.clone(), ctx);
                }
            }
            settings_ui(ui, *importer, self.import_settings.get_mut(importer.id()));
        }
    }

    /// An import of `path` by `importer` with the settings set in File > Import.
    pub(super) fn import_source(
        &self,
        importer: &'static str,
        path: PathBuf,
        map: Option<String>,
    ) -> Source {
        Source::Import {
            importer,
            path,
            map,
            settings: self.import_settings.get(importer),
        }
    }

    pub(super) fn start_list(
        &mut self,
        importer: &'static str,
        source: PathBuf,
        ctx: &egui::Context,
    ) {
        if self.busy() {
            self.log.warn("wait for the running job to finish");
            return;
        }
        self.job = Some(jobs::list(importer, source, ctx.clone()));
    }

    /// A listing came back: one importable map imports at once, several ask which.
    pub(super) fn offer_maps(
        &mut self,
        importer: &'static str,
        source: PathBuf,
        maps: Vec<Listing>,
        ctx: &egui::Context,
    ) {
        let game = crate::import::find(importer).map_or("imported", |i| i.game());
        let importable: Vec<&Listing> = maps.iter().filter(|m| m.importable.is_ok()).collect();
        match importable.as_slice() {
            [] => self.log.error(format!(
                "{}: no importable {game} map ({} found{})",
                source.display(),
                maps.len(),
                maps.first()
                    .and_then(|m| m
                        .importable
                        .as_ref()
                        .err()
                        .map(|why| format!("; {}: {why}", m.name)))
                    .unwrap_or_default()
            )),
            [only] if maps.len() == 1 => {
                let source = self.import_source(importer, source, Some(only.name.clone()));
                self.request(Pending::Open(source), ctx);
            }
            _ => {
                self.import_choice = Some(ImportChoice {
                    importer,
                    source,
                    maps,
                })
            }
        }
    }

    /// The window listing a source's maps; picking one imports it.
    pub(super) fn import_chooser(&mut self, ctx: &egui::Context) {
        let Some(choice) = &self.import_choice else {
            return;
        };
        let Some(importer) = crate::import::find(choice.importer) else {
            self.import_choice = None;
            return;
        };
        let settings = self.import_settings.get_mut(importer.id());
        let mut open = true;
        let mut picked = None;
        let columns: Vec<&'static str> = choice
            .maps
            .first()
            .map(|m| m.facts.iter().map(|f| f.0).collect())
            .unwrap_or_default();
        egui::Window::new(format!("Import a {} map", importer.game()))
            .open(&mut open)
            .collapsible(false)
            .default_size([560.0, 560.0])
            .show(ctx, |ui| {
                ui.label(format!("{}", choice.source.display()));
                if let Some(note) = importer.chooser_note() {
                    ui.weak(note);
                }
                settings_ui(ui, importer, settings);
                ui.separator();
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::Grid::new("maps to import")
                        .striped(true)
                        .num_columns(columns.len() + 2)
                        .show(ui, |ui| {
                            ui.strong("map");
                            for c in &columns {
                                ui.strong(*c);
                            }
                            ui.strong("");
                            ui.end_row();
                            for m in &choice.maps {
                                ui.label(&m.title);
                                for (_, v) in &m.facts {
                                    ui.label(v);
                                }
                                match &m.importable {
                                    Ok(()) => {
                                        if ui.button("Import").clicked() {
                                            picked = Some(m.name.clone());
                                        }
                                    }
                                    Err(why) => {
                                        ui.weak(why);
                                    }
                                }
                                ui.end_row();
                            }
                        });
                });
            });
        if let Some(map) = picked {
            let source = self.import_source(choice.importer, choice.source.clone(), Some(map));
            self.import_choice = None;
            self.request(Pending::Open(source), ctx);
        } else if !open {
            self.import_choice = None;
        }
    }
}
