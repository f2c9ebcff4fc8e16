//! Bytes on disk to and from the document: `.smf`, `.smt`, BC1, the minimap, `mapinfo.lua`,
//! archives (`.sdd`, `.sdz`, `.sd7`) and the project folder. Pure; typed errors; never panics.

pub mod error;
pub mod import_report;
pub mod wz2100;

pub use error::FormatError;
pub use import_report::ImportReport;
