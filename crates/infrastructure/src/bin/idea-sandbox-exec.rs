//! `idea-sandbox-exec sandbox-exec [--plan FILE | --probe] -- CMD ARGS…`: the sandbox helper
//! without WebKit. A process must be single-threaded to enter a user namespace, and the
//! desktop build of `idea` never is (WebKit's JavaScriptCore starts a thread as the library
//! loads, before `main`), so `idea` hands its plans to this binary when it lies beside it
//! (docs/sandbox.md). It takes the same arguments as `idea sandbox-exec`, the subcommand's
//! name included, so the wrapped command line is the same.

use idea_infrastructure::sandbox::helper;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1).peekable();
    if args.peek().is_some_and(|a| a == "sandbox-exec") {
        args.next();
    }
    let mut plan: Option<PathBuf> = None;
    let mut command: Vec<OsString> = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--probe" {
            return finish(helper::probe().err());
        } else if arg == "--plan" {
            plan = args.next().map(PathBuf::from);
        } else if arg == "--" {
            command.extend(args.by_ref());
        } else {
            return finish(Some(helper::HelperFailure {
                status: 2,
                message: format!(
                    "sandbox-exec: unexpected argument {}",
                    arg.to_string_lossy()
                ),
            }));
        }
    }
    if command.is_empty() {
        // A usage error, as `idea sandbox-exec` without a command is.
        return finish(Some(helper::HelperFailure {
            status: 2,
            message: "sandbox-exec: no command (give it after --)".into(),
        }));
    }
    finish(Some(helper::exec(plan.as_deref(), &command)))
}

fn finish(failure: Option<helper::HelperFailure>) -> ExitCode {
    match failure {
        None => ExitCode::SUCCESS,
        Some(why) => {
            eprintln!("idea: {}", why.message);
            ExitCode::from(why.status)
        }
    }
}
