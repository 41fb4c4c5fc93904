//! The processes a terminal started that left its process group: `setsid`, `nohup … &`,
//! `disown`, a job that ignores SIGHUP. Every process of a session carries the variable
//! [`SESSION_MARKER`] (children inherit it), so on Stop they are found in `/proc` by it and
//! ended too, however they detached. A process that scrubs its environment escapes this;
//! the sandbox issue's cgroup/namespace work is the complete answer.

use idea_domain::SessionId;
use std::fs;
use std::io::Read;
use std::time::{Duration, Instant};

/// How long the sweep waits for processes to go after SIGKILL (they cannot refuse it; only a
/// process stuck in the kernel takes longer).
const KILL_SETTLE: Duration = Duration::from_secs(2);

/// Set on every session's child: `IDEA_SESSION_ID=<session uuid>`.
pub(crate) const SESSION_MARKER: &str = "IDEA_SESSION_ID";
/// An environment bigger than this is not read further (the marker is near its start, since
/// children inherit it early; a hostile process gains nothing by padding: it is ours anyway).
const ENVIRON_LIMIT: u64 = 1 << 20;

/// The pids of our own processes that carry `session`'s marker (never this process).
fn marked(session: SessionId) -> Vec<i32> {
    let needle = format!("{SESSION_MARKER}={session}\0").into_bytes();
    let me = std::process::id();
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| *pid != me)
        .filter(|pid| carries(*pid, &needle))
        .filter_map(|pid| i32::try_from(pid).ok())
        .collect()
}

/// Whether `/proc/<pid>/environ` holds `needle` (unreadable: another user's, or gone: no).
fn carries(pid: u32, needle: &[u8]) -> bool {
    let Ok(file) = fs::File::open(format!("/proc/{pid}/environ")) else {
        return false;
    };
    let mut environ = Vec::new();
    if file.take(ENVIRON_LIMIT).read_to_end(&mut environ).is_err() {
        return false;
    }
    // Entries are NUL-separated: match at the start or right after a NUL.
    environ.starts_with(needle)
        || environ
            .windows(needle.len() + 1)
            .any(|w| w[0] == 0 && &w[1..] == needle)
}

/// The marked processes left after waiting up to `grace` for them to end.
fn left_after(session: SessionId, grace: Duration) -> Vec<i32> {
    let deadline = Instant::now() + grace;
    let mut left = marked(session);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
        left = marked(session);
    }
    left
}

/// Ends every process still carrying `session`'s marker. They first get `grace` to finish on
/// their own (a CLI's worker may still be saving its conversation after the SIGTERM that
/// reached the whole group), then SIGTERM and `grace` more, then SIGKILL. Returns how many
/// were found.
pub(crate) fn end_stragglers(session: SessionId, grace: Duration) -> usize {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let found = left_after(session, grace);
    if found.is_empty() {
        return 0;
    }
    for pid in &found {
        let _ = kill(Pid::from_raw(*pid), Signal::SIGTERM);
    }
    let left = left_after(session, grace);
    for pid in &left {
        let _ = kill(Pid::from_raw(*pid), Signal::SIGKILL);
    }
    // A signal is delivered, not awaited: until they are gone, "stopped" would be reported
    // while they still run (seen beside a CPU hog).
    let survivors = left_after(session, KILL_SETTLE);
    if !survivors.is_empty() {
        tracing::warn!(%session, ?survivors, "processes of a stopped terminal outlived SIGKILL");
    }
    tracing::info!(%session, found = found.len(), killed = left.len(), "ended the processes the terminal left behind");
    found.len()
}
