//! Groundwork: a map editor and compiler for Beyond All Reason and other Recoil/Spring games.
//!
//! - [`map`]: the document, what a map is (grids, settings, features, teams).
//! - [`formats`]: bytes on disk to and from the document (`.smf`, `.smt`, BC1, minimap,
//!   `mapinfo.lua`, archives, the project folder).
//! - [`compile`]: the export pipeline, document to archive, in stages with progress and cancel.
//! - [`edit`]: what changes the document: the tools (one file each, one registry, each with
//!   its WGSL kernel and CPU twin), symmetry, the editing session, tile undo, ops files.
//! - [`gpu`]: the renderer and the tools' kernels on the GPU (wgpu, no egui).
//! - [`analyze`]: where each move class can go as the engine computes it, which starts reach
//!   which, each team's share of metal and ground (`groundwork analyze`, the Pathing tab).
//! - [`import`]: other games' maps (Warzone 2100, StarCraft II) made into Groundwork maps, one
//!   importer each behind one interface.
//! - [`lint`]: every known way a map goes silently wrong, with the fix offered.
//! - [`engine`]: trying a map in the engine: finding Spring or BAR, a sandbox, the start
//!   script, the log read back.
//! - [`install`]: the games' maps folders, BAR's archive names, installing an export.
//! - [`ui`]: the editor's window: egui panels, one module each, and the app.
//! - [`assets`]: what the editor ships with (the starter map).
//! - [`cli`]: the headless commands.

pub mod analyze;
pub mod assets;
pub mod cli;
pub mod compile;
pub mod edit;
pub mod engine;
pub mod formats;
pub mod fuzz;
pub mod gpu;
pub mod import;
pub mod install;
pub mod lint;
pub mod map;
#[doc(hidden)]
pub mod test_support;
pub mod ui;
