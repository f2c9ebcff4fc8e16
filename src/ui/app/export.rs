//! File > Export (Ctrl+E): the dialog's actions carried out on the document (lint fixes and a
//! new version as undo steps) and the export started from a snapshot of it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::{DialogKind, EditorApp};
use crate::ui::export_dialog::{ExportAction, ExportDialog};
use crate::ui::jobs;

impl EditorApp {
    /// Opens the Export dialog (made on first use: it looks for the games on this computer).
    pub(super) fn open_export(&mut self) {
        if self.doc.is_none() {
            return;
        }
        let dialog = self.export.get_or_insert_with(|| match &self.maps_folder {
            Some(dir) => {
                let mut d = ExportDialog::new(Vec::new(), Default::default(), None);
                d.choose_dir(dir.clone());
                d
            }
            None => ExportDialog::for_this_computer(self.config_dir.as_deref()),
        });
        dialog.open = true;
    }

    /// The dialog, each frame: finished exports to the log, the user's actions carried out.
    pub(super) fn export_ui(&mut self, ctx: &egui::Context) {
        let Some(dialog) = &mut self.export else {
            return;
        };
        if let Some((ok, line)) = dialog.poll() {
            if ok {
                self.log.info(line);
            } else {
                self.log.warn(line);
            }
        }
        let Some(doc) = &self.doc else { return };
        let revision = doc.session.revision();
        let live = dialog.live_due(doc.map(), revision, doc.session.stroking());
        let Some(action) = dialog.ui(ctx, doc.map(), revision).or(live) else {
            return;
        };
        match action {
            ExportAction::Fix(fix, what) => {
                self.edit_document(&what, |m| crate::lint::apply_fix(m, &fix))
            }
            ExportAction::SetVersion(v) => {
                let what = format!("version {v}");
                self.edit_document(&what, |m| m.settings.version = v)
            }
            ExportAction::Browse => self.start_dialog(DialogKind::ExportFolder, ctx),
            ExportAction::Start {
                dir,
                kind,
                overwrite,
            } => {
                // the snapshot: edits made while it runs copy the document and stay out
                let map = doc.session.map_arc().clone();
                let cancel = Arc::new(AtomicBool::new(false));
                let job = jobs::export(
                    map,
                    dir,
                    kind,
                    overwrite,
                    self.compile_cache.clone(),
                    cancel.clone(),
                    ctx.clone(),
                );
                dialog.started(job, cancel);
            }
        }
    }

    /// A folder picked with Browse….
    pub(super) fn export_folder_picked(&mut self, dir: std::path::PathBuf) {
        if let Some(d) = &mut self.export {
            d.choose_dir(dir);
        }
    }

    /// Runs `edit` on the document as one undo step and refreshes the view.
    fn edit_document(&mut self, what: &str, edit: impl FnOnce(&mut crate::map::Map)) {
        let Some(doc) = &mut self.doc else { return };
        let mut layers = super::edit::scene_layers(&mut self.scene, &self.gpu);
        let gpu = layers
            .as_mut()
            .map(|l| l as &mut dyn crate::edit::GpuLayers);
        match doc.session.edit(what, edit, gpu) {
            Ok(()) => self.log.info(format!("{what} (Ctrl+Z undoes)")),
            Err(e) => self.log.error(e),
        }
        if let (Some(scene), Some(gpu)) = (&mut self.scene, &self.gpu) {
            scene.apply_settings(&doc.map().settings);
            scene.set_markers(&gpu.ctx, doc.map());
        }
    }
}
