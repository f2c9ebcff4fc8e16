//! Bytes on disk to and from the document: `.smf`, `.smt`, BC1, the minimap, `mapinfo.lua`,
//! archives (`.sdd`, `.sdz`, `.sd7`) and the project folder. Pure; typed errors; never panics.

pub mod archive;
pub mod bc1;
pub mod bytes;
pub mod error;
pub mod import_report;
pub mod mapinfo;
pub mod minimap;
pub mod smf;
pub mod smt;

pub use error::FormatError;
pub use import_report::ImportReport;
