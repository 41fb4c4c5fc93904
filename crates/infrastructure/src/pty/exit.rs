//! Waiting for the child and describing how it ended.

use idea_domain::terminal::ExitInfo;
use portable_pty::Child;

/// Reported when the exit status cannot be known (the child was reaped elsewhere).
const UNKNOWN_EXIT: ExitInfo = ExitInfo {
    code: 1,
    signal: None,
    stopped: false,
    hint: None,
};

/// Blocks until `child` exits and describes how.
///
/// On Unix this waits with `waitpid` directly: portable-pty's own `wait` reports a signal only
/// as `strsignal` prose ("Hangup"), while the domain wants its name (`SIGHUP`).
#[cfg(unix)]
pub(crate) fn wait_for_exit(child: &mut (dyn Child + Send + Sync)) -> ExitInfo {
    use nix::errno::Errno;
    use nix::sys::wait::{WaitStatus, waitpid};
    use nix::unistd::Pid;

    let Some(pid) = child.process_id().and_then(|pid| i32::try_from(pid).ok()) else {
        return portable_wait(child);
    };
    loop {
        match waitpid(Pid::from_raw(pid), None) {
            Ok(WaitStatus::Exited(_, code)) => {
                return ExitInfo {
                    code: u32::try_from(code).unwrap_or(UNKNOWN_EXIT.code),
                    signal: None,
                    stopped: false,
                    hint: None,
                };
            }
            Ok(WaitStatus::Signaled(_, signal, _)) => return killed_by(signal),
            // Without WUNTRACED/WCONTINUED nothing else is reported; keep waiting if it is.
            Ok(_) | Err(Errno::EINTR) => {}
            Err(_) => return UNKNOWN_EXIT,
        }
    }
}

/// A signal death, with the shell's convention for the code (128 + signal number).
#[cfg(unix)]
pub(crate) fn killed_by(signal: nix::sys::signal::Signal) -> ExitInfo {
    ExitInfo {
        code: 128 + signal as u32,
        signal: Some(signal.as_str().to_owned()),
        stopped: false,
        hint: None,
    }
}

/// The name of the signal whose number `n` makes `code` = 128 + n, when IdeA sent it
/// (bit n of `sent`): the program exited because of it (Claude Code exits 129 on SIGHUP).
#[cfg(unix)]
pub(crate) fn signal_name_of_exit(code: u32, sent: u64) -> Option<String> {
    let number = code.checked_sub(128).filter(|n| *n < 64)?;
    if sent & (1 << number) == 0 {
        return None;
    }
    let signal = nix::sys::signal::Signal::try_from(i32::try_from(number).ok()?).ok()?;
    Some(signal.as_str().to_owned())
}

/// Without signals there is nothing to name.
#[cfg(not(unix))]
pub(crate) fn signal_name_of_exit(_code: u32, _sent: u64) -> Option<String> {
    None
}

#[cfg(not(unix))]
pub(crate) fn wait_for_exit(child: &mut (dyn Child + Send + Sync)) -> ExitInfo {
    portable_wait(child)
}

fn portable_wait(child: &mut (dyn Child + Send + Sync)) -> ExitInfo {
    match child.wait() {
        Ok(status) => ExitInfo {
            code: status.exit_code(),
            signal: status.signal().map(str::to_owned),
            stopped: false,
            hint: None,
        },
        Err(_) => UNKNOWN_EXIT,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use nix::sys::signal::Signal;

    #[test]
    fn a_signal_death_is_named_and_non_zero() {
        assert_eq!(
            killed_by(Signal::SIGKILL),
            ExitInfo {
                code: 137,
                signal: Some("SIGKILL".into()),
                stopped: false,
                hint: None,
            }
        );
        assert_eq!(killed_by(Signal::SIGHUP).signal.as_deref(), Some("SIGHUP"));
    }

    #[test]
    fn an_exit_of_128_plus_a_signal_ideas_sent_is_named_after_it() {
        let hup = 1 << (Signal::SIGHUP as u32);
        assert_eq!(signal_name_of_exit(129, hup).as_deref(), Some("SIGHUP"));
        assert_eq!(signal_name_of_exit(143, hup), None, "SIGTERM was not sent");
        assert_eq!(signal_name_of_exit(1, hup), None);
        assert_eq!(signal_name_of_exit(u32::MAX, u64::MAX), None);
    }
}
