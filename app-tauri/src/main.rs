//! The `idea` binary: parses the command line and maps failures to exit codes
//! (2 = something the user can fix, 1 = an internal error).

use clap::Parser;
use idea_app::cli::{Cli, Failure, run};
use idea_server::{logging, paths};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Right after parsing, so `--help` and usage errors leave no log folder behind.
    let _log = cli
        .command
        .logs()
        .then(|| logging::init(&paths::user_dir()));
    let command = cli.command.name();
    let started = Instant::now();
    tracing::info!(command, version = env!("CARGO_PKG_VERSION"), "start");
    let outcome = run(cli);
    let elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    match outcome {
        Ok(()) => {
            tracing::info!(command, elapsed_ms, "done");
            ExitCode::SUCCESS
        }
        Err(Failure::User(message)) => {
            tracing::warn!(command, elapsed_ms, %message, "failed");
            eprintln!("idea: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Status(code, message)) => {
            tracing::warn!(command, elapsed_ms, code, %message, "failed");
            eprintln!("idea: {message}");
            ExitCode::from(code)
        }
        Err(Failure::Internal(error)) => {
            // `{:#}`: the whole cause chain on one line.
            let error_chain = format!("{error:#}");
            tracing::error!(command, elapsed_ms, error = %error_chain, "internal error");
            eprintln!("idea: internal error: {error:#}");
            ExitCode::from(1)
        }
    }
}
