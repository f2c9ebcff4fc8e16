//! The `groundwork` binary: with no arguments (or a map to open, or `--screenshot`) the
//! editor, otherwise a CLI subcommand.

fn main() {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let subcommand = args
        .first()
        .is_some_and(|a| groundwork::cli::is_subcommand(a));
    let code = match (subcommand, groundwork::ui::EditorOptions::from_args(&args)) {
        (false, Some(Ok(options))) => groundwork::ui::run_editor(options),
        (false, Some(Err(e))) => {
            eprintln!("error: {e}");
            2
        }
        _ => groundwork::cli::run(),
    };
    // tests and benchmarks ask for the job's peak memory (the memory budget in ARCHITECTURE.md)
    if std::env::var_os("GROUNDWORK_PEAK_MEMORY").is_some()
        && let Some(bytes) = groundwork::cli::peak_resident_bytes()
    {
        eprintln!("peak resident memory: {bytes} bytes");
    }
    std::process::exit(code);
}
