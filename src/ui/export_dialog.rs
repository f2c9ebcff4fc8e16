//! The Export dialog (File > Export, Ctrl+E): which maps folder (the detected BAR and Spring
//! folders, or one browsed to; the choice is remembered), the container, BAR's name for the
//! file and what to do when it is taken, the lint with one-click fixes (errors block the
//! export), then the export on a worker thread with its stage and count, Cancel, and the
//! result: where it went, how big, how long, and how to make the game see it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::formats::archive::ArchiveKind;
use crate::install::{MapsFolder, archive_file_name, taken};
use crate::lint::{Finding, FixAction, LintContext, Severity, lint_map};
use crate::map::Map;

use super::jobs::{Job, Outcome};

/// What the dialog asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportAction {
    /// Apply a lint fix to the document, as an undo step named by the fix.
    Fix(FixAction, String),
    /// Set the map's version (the name is taken).
    SetVersion(String),
    /// Pick a maps folder with the system's dialog.
    Browse,
    /// Start the export from a snapshot of the document.
    Start {
        dir: PathBuf,
        kind: ArchiveKind,
        overwrite: bool,
    },
}

/// The export the dialog is running.
struct Running {
    job: Job,
    cancel: Arc<AtomicBool>,
}

/// How the last export ended, in words.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportResult {
    Done {
        path: PathBuf,
        megabytes: f64,
        seconds: f64,
    },
    Refused {
        existing: PathBuf,
        next_version: String,
    },
    Cancelled,
    Failed(String),
}

pub struct ExportDialog {
    pub open: bool,
    folders: Vec<MapsFolder>,
    /// The folder exports go to; remembered in the config folder.
    pub dir: Option<PathBuf>,
    pub kind: ArchiveKind,
    overwrite: bool,
    lint: LintContext,
    /// The findings and the revision they were made at.
    findings: Option<(u64, Vec<Finding>)>,
    running: Option<Running>,
    pub result: Option<ExportResult>,
    /// Where the choice of folder is kept (`None`: not kept, as in tests).
    remember: Option<PathBuf>,
    /// The folder as typed in the dialog's text field.
    typed: String,
    /// Why the typed folder was not taken.
    typed_error: Option<String>,
    /// Live export: the `.sdd` in the maps folder kept in step with the document after each
    /// stroke, on the worker thread.
    pub live: bool,
    /// The document revision the last live export started from.
    live_revision: Option<u64>,
}

impl ExportDialog {
    /// A dialog over the detected `folders`, remembering its choice in `remember`.
    pub fn new(folders: Vec<MapsFolder>, lint: LintContext, remember: Option<PathBuf>) -> Self {
        let kept = remember
            .as_ref()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .map(|s| PathBuf::from(s.trim()))
            .filter(|p| !p.as_os_str().is_empty());
        let dir = kept.or_else(|| folders.iter().find(|f| f.found).map(|f| f.path.clone()));
        ExportDialog {
            open: false,
            folders,
            kind: ArchiveKind::Sd7,
            overwrite: false,
            lint,
            findings: None,
            running: None,
            result: None,
            typed: dir
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
            typed_error: None,
            dir,
            remember,
            live: false,
            live_revision: None,
        }
    }

    /// The dialog as the editor opens it: this computer's folders, the installed game's feature
    /// names, the choice kept in `config_dir` (the user's config folder when `None`).
    pub fn for_this_computer(config_dir: Option<&std::path::Path>) -> ExportDialog {
        let env = crate::install::HomeEnv::current();
        let folders = crate::install::maps_folders(&env);
        let bar = crate::install::bar_data_dir();
        let game = bar
            .as_deref()
            .and_then(crate::formats::features::game_feature_names);
        let move_classes = crate::analyze::move_class::classes_for(bar.as_deref());
        ExportDialog::new(
            folders,
            LintContext {
                game_features: game,
                move_classes: Some(move_classes),
            },
            config_dir
                .map(|d| d.to_path_buf())
                .or_else(super::recent::config_dir)
                .map(|d| d.join("export-folder.txt")),
        )
    }

    /// Sets the folder exports go to (picked in the dialog or browsed to) and keeps the choice.
    pub fn choose_dir(&mut self, dir: PathBuf) {
        if let Some(f) = &self.remember {
            if let Some(parent) = f.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(f, dir.to_string_lossy().as_bytes());
        }
        self.typed = dir.display().to_string();
        self.typed_error = None;
        self.dir = Some(dir);
        self.result = None;
    }

    /// Takes the folder typed in the text field, when it is one.
    fn take_typed(&mut self) {
        let text = self.typed.trim();
        if text.is_empty() || self.dir.as_ref().is_some_and(|d| d.as_os_str() == text) {
            self.typed_error = None;
            return;
        }
        let path = PathBuf::from(text);
        if path.is_dir() {
            self.choose_dir(path);
        } else {
            self.typed_error = Some(format!("{} is not a folder", path.display()));
        }
    }

    /// With live export on: the export to start now, when the document (at `revision`) has
    /// changed since the last one, no stroke is under way, none is running, and the lint
    /// finds no error. It overwrites the map's `.sdd` (and removes its other containers).
    pub fn live_due(&mut self, map: &Map, revision: u64, stroking: bool) -> Option<ExportAction> {
        if !self.live || stroking || self.running() || self.live_revision == Some(revision) {
            return None;
        }
        let dir = self.dir.clone()?;
        let errors = self
            .findings(map, revision)
            .iter()
            .any(|f| f.severity == Severity::Error);
        if errors {
            return None;
        }
        self.live_revision = Some(revision);
        Some(ExportAction::Start {
            dir,
            kind: ArchiveKind::Sdd,
            overwrite: true,
        })
    }

    /// Whether an export is running.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// Takes over a started export job.
    pub fn started(&mut self, job: Job, cancel: Arc<AtomicBool>) {
        self.result = None;
        self.overwrite = false;
        self.running = Some(Running { job, cancel });
    }

    /// Picks up a finished export; returns a line for the log.
    pub fn poll(&mut self) -> Option<(bool, String)> {
        let outcome = self.running.as_ref()?.job.poll()?;
        self.running = None;
        let (ok, result, line) = match outcome {
            Outcome::Exported(done) => {
                let megabytes = done.bytes as f64 / 1e6;
                let seconds = done.elapsed.as_secs_f64();
                let line = format!(
                    "exported {} ({megabytes:.1} MB) in {seconds:.1} s; read back and checked",
                    done.path.display()
                );
                (
                    true,
                    ExportResult::Done {
                        path: done.path,
                        megabytes,
                        seconds,
                    },
                    line,
                )
            }
            Outcome::ExportRefused {
                existing,
                next_version,
            } => {
                let line = format!("{} is already there; not overwritten", existing.display());
                (
                    false,
                    ExportResult::Refused {
                        existing,
                        next_version,
                    },
                    line,
                )
            }
            Outcome::ExportCancelled => (
                true,
                ExportResult::Cancelled,
                "export cancelled; the maps folder is as it was".to_string(),
            ),
            Outcome::Failed { error, .. } => (
                false,
                ExportResult::Failed(error.clone()),
                format!("export failed: {error}"),
            ),
            _ => (
                false,
                ExportResult::Failed("unexpected answer".into()),
                String::new(),
            ),
        };
        self.result = Some(result);
        Some((ok, line))
    }

    fn findings(&mut self, map: &Map, revision: u64) -> &[Finding] {
        if self.findings.as_ref().is_none_or(|(r, _)| *r != revision) {
            self.findings = Some((revision, lint_map(map, &self.lint)));
        }
        &self.findings.as_ref().expect("just set").1
    }

    /// Shows the dialog for `map` at `revision`; returns what the user asked for.
    pub fn ui(&mut self, ctx: &egui::Context, map: &Map, revision: u64) -> Option<ExportAction> {
        if !self.open {
            return None;
        }
        let mut action = None;
        let mut open = self.open;
        egui::Window::new("Export")
            .open(&mut open)
            .collapsible(false)
            .resizable(true)
            .default_width(560.0)
            .show(ctx, |ui| action = self.contents(ui, map, revision));
        // closing the window (or Escape) does not stop a running export, nor live export
        self.open = open && !ctx.input(|i| i.key_pressed(egui::Key::Escape));
        action
    }

    fn contents(&mut self, ui: &mut egui::Ui, map: &Map, revision: u64) -> Option<ExportAction> {
        let mut action = None;
        let heading = ui.strong("Maps folder").id;
        let found: Vec<MapsFolder> = self.folders.iter().filter(|f| f.found).cloned().collect();
        let chosen = self
            .dir
            .as_ref()
            .map(|d| match found.iter().find(|f| &f.path == d) {
                Some(f) => format!(
                    "Exporting into {}'s maps folder, {}.",
                    f.game.label(),
                    d.display()
                ),
                None => format!("Exporting into {}, the folder you chose.", d.display()),
            });
        if let Some(line) = chosen {
            ui.label(line);
        } else if found.is_empty() && !self.folders.is_empty() {
            let looked: Vec<String> = self
                .folders
                .iter()
                .map(|f| format!("{} ({})", f.path.display(), f.game.label()))
                .collect();
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("No game found here (looked for {}).", looked.join("; ")),
            );
        }
        let mut picked = None;
        ui.horizontal(|ui| {
            let shown = self
                .dir
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| "choose a folder".into());
            egui::ComboBox::from_id_salt("maps folder")
                .selected_text(shown)
                .width(380.0)
                .show_ui(ui, |ui| {
                    for f in &found {
                        let text = format!("{}: {}", f.game.label(), f.path.display());
                        if ui
                            .selectable_label(self.dir.as_ref() == Some(&f.path), text)
                            .clicked()
                        {
                            picked = Some(f.path.clone());
                        }
                    }
                })
                .response
                .labelled_by(heading);
            if ui.button("Browse…").clicked() {
                action = Some(ExportAction::Browse);
            }
        });
        if let Some(p) = picked {
            self.choose_dir(p);
        }
        ui.horizontal(|ui| {
            let l = ui.label("Folder:").id;
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut self.typed)
                        .hint_text("type a maps folder and press Enter")
                        .desired_width(380.0),
                )
                .labelled_by(l);
            if field.lost_focus() {
                self.take_typed();
            }
        });
        if let Some(e) = &self.typed_error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.horizontal(|ui| {
            ui.label("Container:");
            for (k, text) in [
                (ArchiveKind::Sd7, ".sd7"),
                (ArchiveKind::Sdz, ".sdz"),
                (ArchiveKind::Sdd, ".sdd (a folder, for development)"),
            ] {
                ui.radio_value(&mut self.kind, k, text);
            }
        });
        let live = ui
            .checkbox(
                &mut self.live,
                "Live: keep the .sdd in the maps folder in step after every stroke",
            )
            .on_hover_text(
                "Exports on the worker thread after each edit, rewriting only the files that changed; \
                 the game sees the map at its next load. Other containers of this version are removed.",
            );
        if live.changed() {
            self.live_revision = None;
        }
        if self.live {
            self.kind = ArchiveKind::Sdd;
        }
        let s = &map.settings;
        let file = archive_file_name(&s.name, &s.version, self.kind);
        ui.label(format!("File: {file}"));
        let existing = self
            .dir
            .as_ref()
            .and_then(|d| taken(d, &s.name, &s.version));
        if let (Some(e), Some(dir)) = (&existing, &self.dir) {
            let next = crate::install::next_free_version(dir, s);
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("{} is already there.", e.display()),
            );
            ui.horizontal(|ui| {
                if ui.button(format!("Use version {next}")).clicked() {
                    action = Some(ExportAction::SetVersion(next.clone()));
                }
                ui.checkbox(&mut self.overwrite, "Overwrite it");
            });
        }

        ui.separator();
        let findings = self.findings(map, revision).to_vec();
        let errors = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        if findings.is_empty() {
            ui.label("The lint finds nothing to fix.");
        } else {
            ui.strong(format!(
                "Lint: {errors} error{}, {} warning{}",
                if errors == 1 { "" } else { "s" },
                findings.len() - errors,
                if findings.len() - errors == 1 {
                    ""
                } else {
                    "s"
                }
            ));
        }
        egui::ScrollArea::vertical()
            .id_salt("lint")
            .max_height(220.0)
            .show(ui, |ui| {
                for f in &findings {
                    let (colour, tag) = match f.severity {
                        Severity::Error => (ui.visuals().error_fg_color, "error"),
                        Severity::Warning => (ui.visuals().warn_fg_color, "warning"),
                    };
                    ui.colored_label(colour, format!("{tag} [{}]: {}", f.rule, f.message));
                    ui.horizontal(|ui| {
                        if let Some(fix) = &f.fix {
                            ui.weak(format!("fix: {fix}"));
                        }
                        if let Some(a) = &f.action
                            && ui.small_button("Fix").clicked()
                        {
                            let what = f.fix.clone().unwrap_or_else(|| f.rule.to_string());
                            action = Some(ExportAction::Fix(a.clone(), what));
                        }
                    });
                }
            });

        ui.separator();
        if let Some(r) = &self.running {
            let p = &r.job.progress;
            let stage = p.stage();
            let (done, total) = p.counts();
            let text = if total > 0 {
                format!("{stage} {done} / {total}")
            } else {
                stage
            };
            ui.add(egui::ProgressBar::new(p.fraction().unwrap_or(0.0)).text(text));
            if ui.button("Cancel").clicked() {
                r.cancel.store(true, Ordering::Relaxed);
            }
        } else {
            let blocked =
                errors > 0 || self.dir.is_none() || (existing.is_some() && !self.overwrite);
            let why = if errors > 0 {
                "fix the lint's errors first"
            } else if self.dir.is_none() {
                "choose a maps folder"
            } else {
                "the name is taken: use the next version or overwrite"
            };
            let button = ui
                .add_enabled(!blocked, egui::Button::new("Export"))
                .on_disabled_hover_text(why);
            if button.clicked()
                && let Some(dir) = &self.dir
            {
                action = Some(ExportAction::Start {
                    dir: dir.clone(),
                    kind: self.kind,
                    overwrite: self.overwrite,
                });
            }
        }
        match &self.result {
            Some(ExportResult::Done {
                path,
                megabytes,
                seconds,
            }) => {
                ui.label(format!(
                    "Exported {} ({megabytes:.1} MB) in {seconds:.1} s, read back and checked.",
                    path.display()
                ));
                ui.weak("In BAR's lobby, press Rescan files (or restart the game) to see it.");
            }
            Some(ExportResult::Refused { next_version, .. }) => {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("Not overwritten: the next free version is {next_version}."),
                );
            }
            Some(ExportResult::Cancelled) => {
                ui.label("Cancelled; the maps folder is as it was.");
            }
            Some(ExportResult::Failed(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, format!("Export failed: {e}"));
            }
            None => {}
        }
        action
    }
}
