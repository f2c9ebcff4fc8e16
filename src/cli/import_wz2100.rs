//! `groundwork import wz2100`: the command-line face of the wz2100 importer.

/// Arguments of `groundwork import wz2100`.
#[derive(clap::Args, Debug)]
pub struct Wz2100Args {}

/// Runs the import; the error is one line for the user.
pub fn run(_args: Wz2100Args) -> Result<(), String> {
    Err("the wz2100 importer is not built yet".into())
}
