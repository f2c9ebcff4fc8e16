//! `groundwork lint MAP_OR_PROJECT [--json]`: every known way the map goes silently wrong,
//! each with what it means and the fix; exit code 1 when any is an error. The installed game's
//! feature names are looked up when BAR is found.

use std::path::PathBuf;

use crate::lint::{Finding, LintContext, Severity, lint_path};

#[derive(clap::Args, Debug)]
pub struct LintArgs {
    /// A map archive, a bare .smf, or a project folder.
    pub map: PathBuf,
    /// Print `[{"rule", "severity", "message", "fix"}]` as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The lint's view of this computer: BAR's feature definitions, when BAR is installed.
pub fn game_context() -> LintContext {
    LintContext::for_this_computer()
}

/// Prints findings one a line (`error` or `warning`, the rule, the message, the fix).
pub fn print_findings(findings: &[Finding]) {
    for f in findings {
        eprintln!("{}", f.describe());
    }
}

pub fn run(args: LintArgs) -> Result<(), String> {
    let (_, findings) = lint_path(&args.map, &game_context())?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&findings).map_err(|e| e.to_string())?
        );
    } else if findings.is_empty() {
        println!("{}: nothing to fix", args.map.display());
    } else {
        print_findings(&findings);
    }
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    if errors > 0 {
        return Err(format!(
            "{errors} error{} to fix before the map can be exported",
            if errors == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}
