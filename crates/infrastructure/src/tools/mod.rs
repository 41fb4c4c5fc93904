//! Project tools' processes (`docs/project-tools.md`): the [`ToolProcesses`] port on plain
//! child processes. No shell: the program and its arguments go to `execve` as given, so an
//! argument such as `; rm -rf /` or `$(cmd)` reaches the tool as one argument and is never
//! interpreted. Each run has a process group of its own (a timeout kills the tool's
//! subprocesses too), stdin at `/dev/null`, stdout and stderr read concurrently and capped.
//!
//! [`ToolProcesses`]: idea_domain::tool_run::ToolProcesses

mod capture;
mod runner;

pub use runner::ProcessToolRunner;
