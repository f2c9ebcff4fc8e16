//! The headless commands: compile, decompile, info.

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    println!("usage: groundwork <compile|decompile|info> ...");
    0
}
