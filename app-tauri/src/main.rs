//! The `idea` binary: parses the command line and maps failures to exit codes
//! (2 = something the user can fix, 1 = an internal error).

use clap::Parser;
use idea_app::cli::{Cli, Failure, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::User(message)) => {
            eprintln!("idea: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Internal(error)) => {
            eprintln!("idea: internal error: {error:#}");
            ExitCode::from(1)
        }
    }
}
