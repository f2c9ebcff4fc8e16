//! The in-app file browser, for when the system's file dialog cannot open: a window with the
//! folder as a text field ("Look in") (type a path and press Enter), Up, the folder's entries (folders
//! first; click to select, double-click to enter or pick), a name field when saving, and
//! Open / Save / Cancel. Plain text only, so it draws with egui's default fonts.

use std::path::{Path, PathBuf};

/// What the dialog picks.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// An existing file; each filter a label and its extensions (lower case, no dot).
    File(Vec<(String, Vec<String>)>),
    /// An existing folder.
    Folder,
    /// A name to write to, with the suggested one.
    Save(String),
}

/// One entry of the folder shown.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    name: String,
    is_dir: bool,
}

/// How the browser ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Picked(PathBuf),
    Cancelled,
}

pub struct FileBrowser {
    title: String,
    pick: Pick,
    dir: PathBuf,
    /// The folder field as typed.
    dir_text: String,
    /// The file name field (saving), or the name of the file selected (opening).
    name: String,
    entries: Result<Vec<Entry>, String>,
    /// The folder selected in the list (picking a folder).
    selected_dir: Option<PathBuf>,
    error: Option<String>,
}

impl FileBrowser {
    /// A browser for `pick`, showing `dir`.
    pub fn new(title: &str, pick: Pick, dir: PathBuf) -> FileBrowser {
        let name = match &pick {
            Pick::Save(name) => name.clone(),
            _ => String::new(),
        };
        let mut b = FileBrowser {
            title: title.to_string(),
            pick,
            dir: PathBuf::new(),
            dir_text: String::new(),
            name,
            entries: Ok(Vec::new()),
            selected_dir: None,
            error: None,
        };
        b.go_to(dir);
        b
    }

    fn go_to(&mut self, dir: PathBuf) {
        self.entries = read_entries(&dir, &self.pick);
        self.dir_text = dir.display().to_string();
        self.dir = dir;
        self.selected_dir = None;
        self.error = None;
        if !matches!(self.pick, Pick::Save(_)) {
            self.name.clear();
        }
    }

    /// The folder field's text, on Enter: a folder is shown, a file is picked when opening one.
    fn take_typed_dir(&mut self) -> Option<Outcome> {
        let path = PathBuf::from(self.dir_text.trim());
        if path.is_dir() {
            self.go_to(path);
            None
        } else if path.is_file() && matches!(self.pick, Pick::File(_)) {
            Some(Outcome::Picked(path))
        } else {
            self.error = Some(format!("{} is not a folder", path.display()));
            None
        }
    }

    /// What Open or Save (or Enter in the name field) picks, or why nothing.
    fn confirm(&mut self) -> Option<Outcome> {
        match &self.pick {
            Pick::Folder => Some(Outcome::Picked(
                self.selected_dir
                    .clone()
                    .unwrap_or_else(|| self.dir.clone()),
            )),
            Pick::File(_) | Pick::Save(_) => {
                let name = self.name.trim();
                if name.is_empty() {
                    self.error = Some("type a name or pick one from the list".into());
                    return None;
                }
                let path = self.dir.join(name);
                if path.is_dir() {
                    self.go_to(path);
                    return None;
                }
                if matches!(self.pick, Pick::File(_)) && !path.is_file() {
                    self.error = Some(format!("{} is not a file", path.display()));
                    return None;
                }
                Some(Outcome::Picked(path))
            }
        }
    }

    /// Shows the window; `Some` once the user picked or cancelled.
    pub fn show(&mut self, ctx: &egui::Context) -> Option<Outcome> {
        if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            return Some(Outcome::Cancelled);
        }
        let mut open = true;
        let mut outcome = None;
        egui::Window::new(self.title.clone())
            .id(egui::Id::unique((
                "in-app file browser",
                self.title.as_str(),
            )))
            .open(&mut open)
            .collapsible(false)
            .resizable(true)
            .default_size([560.0, 420.0])
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.ctx().move_to_top(ui.layer_id());
                outcome = self.contents(ui);
            });
        if !open {
            return Some(Outcome::Cancelled);
        }
        outcome
    }

    fn contents(&mut self, ui: &mut egui::Ui) -> Option<Outcome> {
        let mut outcome = None;
        ui.weak("The system's file dialog is not available here: type a path or pick below.");
        ui.horizontal(|ui| {
            let parent = self.dir.parent().map(Path::to_path_buf);
            if ui
                .add_enabled(parent.is_some(), egui::Button::new("Up"))
                .clicked()
                && let Some(p) = parent
            {
                self.go_to(p);
            }
            let l = ui.label("Look in:").id;
            let field = ui
                .add(egui::TextEdit::singleline(&mut self.dir_text).desired_width(f32::INFINITY))
                .labelled_by(l);
            if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                outcome = self.take_typed_dir();
            }
        });
        let mut entered = None;
        let mut chosen = None;
        egui::ScrollArea::vertical()
            .id_salt("entries")
            .max_height(260.0)
            .auto_shrink([false, true])
            .show(ui, |ui| match &self.entries {
                Err(e) => {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                Ok(entries) if entries.is_empty() => {
                    ui.weak("(empty)");
                }
                Ok(entries) => {
                    for e in entries {
                        let path = self.dir.join(&e.name);
                        let (text, selected) = if e.is_dir {
                            (
                                format!("{}/", e.name),
                                self.selected_dir.as_ref() == Some(&path),
                            )
                        } else {
                            (e.name.clone(), self.name == e.name)
                        };
                        let r = ui.selectable_label(selected, text);
                        if r.double_clicked() {
                            entered = Some((e.clone(), true));
                        } else if r.clicked() {
                            entered = Some((e.clone(), false));
                        }
                    }
                }
            });
        if let Some((e, double)) = entered {
            let path = self.dir.join(&e.name);
            match (e.is_dir, double) {
                (true, true) => self.go_to(path),
                (true, false) => self.selected_dir = Some(path),
                (false, _) => {
                    self.name = e.name.clone();
                    if double {
                        chosen = self.confirm();
                    }
                }
            }
        }
        if !matches!(self.pick, Pick::Folder) {
            ui.horizontal(|ui| {
                let l = ui.label("Name:").id;
                let field = ui
                    .add(egui::TextEdit::singleline(&mut self.name).desired_width(f32::INFINITY))
                    .labelled_by(l);
                if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    chosen = self.confirm();
                }
            });
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.horizontal(|ui| {
            let confirm = if matches!(self.pick, Pick::Save(_)) {
                "Save"
            } else {
                "Open"
            };
            if ui.button(confirm).clicked() {
                chosen = self.confirm();
            }
            if ui.button("Cancel").clicked() {
                chosen = Some(Outcome::Cancelled);
            }
        });
        outcome.or(chosen)
    }
}

/// The entries of `dir` the browser shows for `pick`: folders first, then (except when picking
/// a folder) the files, only those with the filters' extensions when opening; hidden ones left
/// out; each group by name.
fn read_entries(dir: &Path, pick: &Pick) -> Result<Vec<Entry>, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let extensions: Vec<&str> = match pick {
        Pick::File(filters) => filters
            .iter()
            .flat_map(|(_, e)| e.iter().map(String::as_str))
            .collect(),
        _ => Vec::new(),
    };
    let mut entries: Vec<Entry> = read
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                return None;
            }
            let is_dir = e.path().is_dir();
            let shown = is_dir
                || match pick {
                    Pick::Folder => false,
                    Pick::Save(_) => true,
                    Pick::File(_) => {
                        extensions.is_empty()
                            || Path::new(&name)
                                .extension()
                                .and_then(|x| x.to_str())
                                .is_some_and(|x| {
                                    extensions.iter().any(|e| e.eq_ignore_ascii_case(x))
                                })
                    }
                };
            shown.then_some(Entry { name, is_dir })
        })
        .collect();
    entries.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| a.name.cmp(&b.name)));
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_folders_first_and_filtered_by_what_is_picked() {
        let root = tempfile::tempdir().unwrap();
        for d in ["b_folder", "a_folder", ".hidden"] {
            std::fs::create_dir(root.path().join(d)).unwrap();
        }
        for f in ["map.sd7", "notes.txt", "Z.SDZ", ".secret.sd7"] {
            std::fs::write(root.path().join(f), b"x").unwrap();
        }
        let names = |pick: Pick| -> Vec<String> {
            read_entries(root.path(), &pick)
                .unwrap()
                .into_iter()
                .map(|e| e.name)
                .collect()
        };
        let maps = Pick::File(vec![(
            "Spring maps".into(),
            vec!["sd7".into(), "sdz".into()],
        )]);
        assert_eq!(names(maps), ["a_folder", "b_folder", "Z.SDZ", "map.sd7"]);
        assert_eq!(names(Pick::Folder), ["a_folder", "b_folder"]);
        assert_eq!(
            names(Pick::Save("x".into())),
            ["a_folder", "b_folder", "Z.SDZ", "map.sd7", "notes.txt"]
        );
        let missing = read_entries(&root.path().join("gone"), &Pick::Folder).unwrap_err();
        assert!(missing.starts_with("cannot read "), "{missing}");
    }

    #[test]
    fn typed_paths_and_names_pick_or_say_why_not() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("sub")).unwrap();
        std::fs::write(root.path().join("h.png"), b"x").unwrap();
        let png = Pick::File(vec![("PNG".into(), vec!["png".into()])]);
        let mut b = FileBrowser::new("t", png, root.path().join("sub"));
        b.dir_text = root.path().join("nope").display().to_string();
        assert_eq!(b.take_typed_dir(), None);
        assert!(b.error.as_deref().unwrap().ends_with("is not a folder"));
        b.dir_text = root.path().display().to_string();
        assert_eq!(b.take_typed_dir(), None);
        assert_eq!(b.dir, root.path());
        b.name = "missing.png".into();
        assert_eq!(b.confirm(), None);
        b.name = "h.png".into();
        assert_eq!(
            b.confirm(),
            Some(Outcome::Picked(root.path().join("h.png")))
        );

        let mut save = FileBrowser::new("s", Pick::Save("new map".into()), root.path().into());
        assert_eq!(
            save.confirm(),
            Some(Outcome::Picked(root.path().join("new map")))
        );
        let mut folder = FileBrowser::new("f", Pick::Folder, root.path().into());
        assert_eq!(
            folder.confirm(),
            Some(Outcome::Picked(root.path().to_path_buf()))
        );
    }
}
