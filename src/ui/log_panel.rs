//! The log: warnings and errors from opening, saving and editing, newest last.

use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Warning,
    Error,
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub level: Level,
    pub text: String,
    pub at: Instant,
}

#[derive(Debug)]
pub struct LogPanel {
    entries: Vec<Entry>,
    started: Instant,
    /// Show only warnings and errors.
    pub problems_only: bool,
}

impl Default for LogPanel {
    fn default() -> LogPanel {
        LogPanel {
            entries: Vec::new(),
            started: Instant::now(),
            problems_only: false,
        }
    }
}

/// Most entries kept; the oldest go first.
const MAX_ENTRIES: usize = 2000;

impl LogPanel {
    pub fn push(&mut self, level: Level, text: impl Into<String>) {
        let text = text.into();
        match level {
            Level::Error => eprintln!("error: {text}"),
            Level::Warning => eprintln!("warning: {text}"),
            Level::Info => {}
        }
        self.entries.push(Entry {
            level,
            text,
            at: Instant::now(),
        });
        if self.entries.len() > MAX_ENTRIES {
            self.entries.drain(..self.entries.len() - MAX_ENTRIES);
        }
    }
    pub fn info(&mut self, text: impl Into<String>) {
        self.push(Level::Info, text);
    }
    pub fn warn(&mut self, text: impl Into<String>) {
        self.push(Level::Warning, text);
    }
    pub fn error(&mut self, text: impl Into<String>) {
        self.push(Level::Error, text);
    }
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.strong("Log");
            ui.checkbox(&mut self.problems_only, "warnings and errors only");
            if ui.small_button("Clear").clicked() {
                self.entries.clear();
            }
        });
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for e in &self.entries {
                    if self.problems_only && e.level == Level::Info {
                        continue;
                    }
                    let (tag, colour) = match e.level {
                        Level::Info => ("info", ui.visuals().text_color()),
                        Level::Warning => ("warning", ui.visuals().warn_fg_color),
                        Level::Error => ("error", ui.visuals().error_fg_color),
                    };
                    let secs = e.at.duration_since(self.started).as_secs_f32();
                    ui.horizontal_wrapped(|ui| {
                        ui.weak(format!("{secs:7.1}s"));
                        ui.colored_label(colour, format!("{tag}: {}", e.text));
                    });
                }
            });
    }
}
