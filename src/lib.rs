//! Groundwork: a map editor and compiler for Beyond All Reason and other Recoil/Spring games.
//!
//! - [`map`]: the document, what a map is (grids, settings, features, teams).
//! - [`formats`]: bytes on disk to and from the document (`.smf`, `.smt`, BC1, minimap,
//!   `mapinfo.lua`, archives, the project folder).
//! - [`compile`]: the export pipeline, document to archive, in stages with progress and cancel.
//! - [`cli`]: the headless commands.

pub mod cli;
pub mod compile;
pub mod formats;
pub mod map;
