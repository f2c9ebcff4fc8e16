//! Progress and cancel for long jobs: each stage reports `(stage, done, total)` and checks a
//! cancel flag, so a worker thread can drive a progress bar and stop promptly.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::formats::FormatError;

/// The stages of a compile, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Checking the document and quantising heights to engine words.
    Heights,
    /// Baking the texture layers over the picture (only the blocks whose inputs changed, with
    /// a cache).
    Bake,
    /// Cutting the texture into 32x32 tiles, BC1 with 3 mips each, dropping duplicates.
    Tiles,
    /// The 1024x1024 9-mip minimap.
    Minimap,
    /// Writing the `.smf`, `.smt` and `mapinfo.lua`.
    Assemble,
    /// Packing the archive (bytes).
    Pack,
}

impl Stage {
    pub const ALL: [Stage; 6] = [
        Stage::Heights,
        Stage::Bake,
        Stage::Tiles,
        Stage::Minimap,
        Stage::Assemble,
        Stage::Pack,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Stage::Heights => "heights",
            Stage::Bake => "bake",
            Stage::Tiles => "tiles",
            Stage::Minimap => "minimap",
            Stage::Assemble => "assemble",
            Stage::Pack => "pack",
        }
    }
}

/// Where a job reports to, and the flag that cancels it.
#[derive(Clone, Copy, Default)]
pub struct Progress<'a> {
    report: Option<&'a (dyn Fn(Stage, u64, u64) + Sync)>,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Progress<'a> {
    /// No reporting, no cancel.
    pub fn none() -> Progress<'static> {
        Progress::default()
    }

    pub fn new(
        report: &'a (dyn Fn(Stage, u64, u64) + Sync),
        cancel: &'a AtomicBool,
    ) -> Progress<'a> {
        Progress {
            report: Some(report),
            cancel: Some(cancel),
        }
    }

    pub fn report(&self, stage: Stage, done: u64, total: u64) {
        if let Some(r) = self.report {
            r(stage, done, total);
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// `Err(Cancelled)` once the job has been cancelled.
    pub fn check(&self) -> Result<(), FormatError> {
        if self.is_cancelled() {
            Err(FormatError::Cancelled)
        } else {
            Ok(())
        }
    }
}
