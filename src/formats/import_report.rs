//! What an importer converted, dropped and guessed, printed and kept in the project folder.

use std::fmt::Write as _;

/// The import report: one line per thing converted, dropped or guessed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportReport {
    /// Where the map came from, e.g. "Warzone 2100: mp.wz, 4c-Rush".
    pub source: String,
    pub converted: Vec<String>,
    pub dropped: Vec<String>,
    pub guessed: Vec<String>,
}

/// The report's file name inside the project folder.
pub const IMPORT_REPORT_FILE: &str = "import-report.txt";

impl ImportReport {
    pub fn new(source: impl Into<String>) -> ImportReport {
        ImportReport {
            source: source.into(),
            ..ImportReport::default()
        }
    }
    pub fn converted(&mut self, line: impl Into<String>) {
        self.converted.push(line.into());
    }
    pub fn dropped(&mut self, line: impl Into<String>) {
        self.dropped.push(line.into());
    }
    pub fn guessed(&mut self, line: impl Into<String>) {
        self.guessed.push(line.into());
    }

    /// The report as plain text, a section per kind.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "Import report: {}", self.source);
        for (title, lines) in [
            ("Converted", &self.converted),
            ("Dropped", &self.dropped),
            ("Guessed", &self.guessed),
        ] {
            let _ = writeln!(s, "\n{title}:");
            if lines.is_empty() {
                s.push_str("  (nothing)\n");
            }
            for l in lines {
                let _ = writeln!(s, "  - {l}");
            }
        }
        s
    }
}
