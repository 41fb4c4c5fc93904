//! Temp files of atomic writes that a crash left behind, swept when the project is opened.
//!
//! Only IdeA's own temp-file names ([`crate::atomic::temp_owner`]), only regular files (a link
//! is never followed nor removed), and only when the process that made one has ended: another
//! IdeA process may be halfway through a write right now.

use crate::atomic::temp_owner;
use std::fs;
use std::path::Path;

/// Best effort: a file that cannot be removed stays, and the project opens anyway.
pub(super) fn sweep(root: &Path) {
    let ideai = root.join(".ideai");
    let mut dirs = vec![ideai.clone(), ideai.join("agents")];
    if is_real_dir(&ideai.join("run"))
        && let Ok(runs) = fs::read_dir(ideai.join("run"))
    {
        dirs.extend(
            runs.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path()),
        );
    }
    for dir in dirs.iter().filter(|d| is_real_dir(d)) {
        sweep_dir(dir, |_| true);
    }
    // At the root IdeA writes `.gitignore` only; other look-alikes are the user's.
    sweep_dir(root, |name| name.starts_with("..gitignore.tmp-"));
}

fn is_real_dir(dir: &Path) -> bool {
    fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir())
}

fn sweep_dir(dir: &Path, wanted: impl Fn(&str) -> bool) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = temp_owner(name) else {
            continue;
        };
        // `DirEntry::file_type` does not follow links.
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if !wanted(name) || !regular || process_alive(pid) {
            continue;
        }
        match fs::remove_file(entry.path()) {
            Ok(()) => {
                tracing::info!(file = %entry.path().display(), "removed a leftover temp file")
            }
            Err(error) => {
                tracing::warn!(file = %entry.path().display(), %error, "cannot remove a leftover temp file");
            }
        }
    }
}

#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    use nix::errno::Errno;
    use nix::sys::signal::kill;
    use nix::unistd::Pid;
    match i32::try_from(pid) {
        // Signal 0 only asks whether the process exists; EPERM means it does (another user's).
        Ok(pid) if pid > 0 => kill(Pid::from_raw(pid), None) != Err(Errno::ESRCH),
        _ => false,
    }
}

/// Without a way to ask, every writer may still be alive: nothing is swept.
#[cfg(not(unix))]
fn process_alive(_pid: u32) -> bool {
    true
}
