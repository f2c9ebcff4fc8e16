//! The `groundwork` binary: with no arguments the editor, otherwise a CLI subcommand.

fn main() {
    std::process::exit(groundwork::cli::run());
}
