//! Groundwork: a map editor and compiler for Beyond All Reason and other Recoil/Spring games.
//!
//! - [`map`]: the document, what a map is (grids, settings, features, teams).
//! - [`formats`]: bytes on disk to and from the document (`.smf`, `.smt`, BC1, minimap,
//!   `mapinfo.lua`, archives, the project folder).
//! - [`compile`]: the export pipeline, document to archive, in stages with progress and cancel.
//! - [`edit`]: what changes the document: brushes (CPU twins of the GPU kernels), undo.
//! - [`gpu`]: the renderer and the GPU brush kernels (wgpu, no egui).
//! - [`ui`]: the editor's window: egui panels, one module each, and the app.
//! - [`assets`]: what the editor ships with (the starter map).
//! - [`cli`]: the headless commands.

pub mod assets;
pub mod cli;
pub mod compile;
pub mod edit;
pub mod formats;
pub mod gpu;
pub mod map;
pub mod ui;
