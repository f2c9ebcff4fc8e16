//! `groundwork import sc2`: the command-line face of the sc2 importer.

/// Arguments of `groundwork import sc2`.
#[derive(clap::Args, Debug)]
pub struct Sc2Args {}

/// Runs the import; the error is one line for the user.
pub fn run(_args: Sc2Args) -> Result<(), String> {
    Err("the sc2 importer is not built yet".into())
}
