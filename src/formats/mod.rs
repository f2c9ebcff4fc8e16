//! Bytes on disk to and from the document: `.smf`, `.smt`, BC1, DDS, the minimap, `mapinfo.lua`,
//! archives (`.sdd`, `.sdz`, `.sd7`), the project folder, feature definitions and their S3O
//! models. Pure; typed errors; never panics.

pub mod archive;
pub mod bc1;
pub mod bytes;
pub mod dds;
pub mod error;
pub mod feature_models;
pub mod features;
pub mod image_file;
pub mod import_report;
pub mod lobby_metadata;
pub mod map_reader;
pub mod mapinfo;
pub mod minimap;
pub mod project;
pub mod rapid;
pub mod s3o;
pub mod sc2;
pub mod smd;
pub mod smf;
pub mod smt;
pub mod wz2100;

pub use error::FormatError;
pub use import_report::ImportReport;
pub use map_reader::{LoadedMap, read_map};
pub use project::{is_project, load_project, save_project};

/// Opens a project folder or an existing map, whichever `path` is.
pub fn open_map(path: &std::path::Path) -> Result<LoadedMap, FormatError> {
    // a project whose save was killed between its renames is beside its path
    if !path.exists() && path.extension().is_none() {
        return load_project(path);
    }
    if project::is_project(path) {
        load_project(path)
    } else {
        read_map(path)
    }
}
