//! One thread notices every session's child exiting, instead of a thread per session blocked
//! in `waitpid`.
//!
//! Each child is watched through a pidfd (Linux 5.3+), which becomes readable when the child
//! terminates; one thread polls them all. The exit itself (reaping, the kill sweep, reporting)
//! then runs on a short-lived thread of its own, so a slow one never delays another session's.
//! Where a pidfd cannot be had (an older kernel, the child already reaped), the caller waits on
//! a thread of its own as before.

use rustix::event::{EventfdFlags, PollFd, PollFlags, eventfd, poll};
use rustix::process::{Pid, PidfdFlags, pidfd_open};
use std::os::fd::OwnedFd;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// What runs once the child has exited (it still has to reap it).
pub(crate) type OnExited = Box<dyn FnOnce() + Send>;

struct Watched {
    pidfd: OwnedFd,
    /// The thread name for `then`.
    name: String,
    then: OnExited,
}

struct Reaper {
    /// Children registered since the thread last looked.
    added: Mutex<Vec<Watched>>,
    /// An eventfd: wakes the thread for a new child.
    wake: OwnedFd,
}

static REAPER: OnceLock<Option<Reaper>> = OnceLock::new();

/// Runs `then` on a thread named `name` once process `pid` (a child of ours, not reaped yet)
/// has exited. Gives `then` back when the exit cannot be watched this way.
pub(crate) fn when_exited(pid: u32, name: String, then: OnExited) -> Result<(), OnExited> {
    let Some(reaper) = REAPER.get_or_init(start).as_ref() else {
        return Err(then);
    };
    let pidfd = i32::try_from(pid)
        .ok()
        .and_then(Pid::from_raw)
        .and_then(|pid| pidfd_open(pid, PidfdFlags::empty()).ok());
    let Some(pidfd) = pidfd else {
        return Err(then);
    };
    reaper
        .added
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Watched { pidfd, name, then });
    // Cannot fail short of the counter's overflow, which would leave it readable anyway.
    let _ = rustix::io::write(&reaper.wake, &1u64.to_ne_bytes());
    Ok(())
}

/// The reaper and its thread, or `None` (every session waits on a thread of its own).
fn start() -> Option<Reaper> {
    let wake = eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK).ok()?;
    let thread_wake = wake.try_clone().ok()?;
    std::thread::Builder::new()
        .name("pty-reaper".into())
        .spawn(move || run(&thread_wake))
        .ok()?;
    Some(Reaper {
        added: Mutex::new(Vec::new()),
        wake,
    })
}

fn run(wake: &OwnedFd) {
    let mut watched: Vec<Watched> = Vec::new();
    loop {
        let ready: Vec<bool> = {
            let mut fds: Vec<PollFd<'_>> = std::iter::once(wake)
                .chain(watched.iter().map(|w| &w.pidfd))
                .map(|fd| PollFd::new(fd, PollFlags::IN))
                .collect();
            if poll(&mut fds, None).is_err() {
                // EINTR; nothing else happens with valid descriptors.
                continue;
            }
            fds.iter().map(|fd| !fd.revents().is_empty()).collect()
        };
        // Exited children first (`ready` is indexed as `watched` was when polled).
        for index in (1..ready.len()).rev() {
            if ready[index] {
                finish(watched.swap_remove(index - 1));
            }
        }
        if ready[0] {
            let mut count = [0u8; 8];
            let _ = rustix::io::read(wake, &mut count);
            if let Some(reaper) = REAPER.get().and_then(Option::as_ref) {
                watched.append(&mut reaper.added.lock().unwrap_or_else(PoisonError::into_inner));
            }
        }
    }
}

/// Runs a child's exit on its own thread (inline if no thread can be had: late rather than
/// never).
fn finish(watched: Watched) {
    let Watched { pidfd, name, then } = watched;
    drop(pidfd);
    let slot = Arc::new(Mutex::new(Some(then)));
    let theirs = Arc::clone(&slot);
    if std::thread::Builder::new()
        .name(name)
        .spawn(move || run_once(&theirs))
        .is_err()
    {
        run_once(&slot);
    }
}

fn run_once(slot: &Mutex<Option<OnExited>>) {
    let then = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
    if let Some(then) = then {
        then();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    #[test]
    fn a_childs_exit_is_noticed_without_a_thread_waiting_for_it() {
        let mut children: Vec<_> = (0..3)
            .map(|_| {
                std::process::Command::new("sleep")
                    .arg("0.2")
                    .spawn()
                    .unwrap()
            })
            .collect();
        let (tx, rx) = channel();
        for child in &children {
            let (tx, pid) = (tx.clone(), child.id());
            when_exited(
                pid,
                "test-exit".into(),
                Box::new(move || tx.send(pid).unwrap()),
            )
            .unwrap_or_else(|_| panic!("this kernel has pidfds"));
        }
        let mut noticed: Vec<u32> = (0..3)
            .map(|_| rx.recv_timeout(Duration::from_secs(30)).unwrap())
            .collect();
        noticed.sort_unstable();
        let mut expected: Vec<u32> = children.iter().map(std::process::Child::id).collect();
        expected.sort_unstable();
        assert_eq!(noticed, expected);
        // Noticed, not reaped: the exit status is still the waiter's to take.
        for child in &mut children {
            assert!(child.wait().unwrap().success());
        }
    }
}
