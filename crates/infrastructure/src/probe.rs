//! Looks at the machine for `idea doctor`: programs on PATH and their versions, Landlock,
//! WebKitGTK. Read-only; nothing here changes the system.

use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The first executable named `program` on `path_var` (a `PATH`-style list); `program` itself
/// when it contains a `/`.
pub fn find_on_path(program: &str, path_var: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return is_executable(&p).then_some(p);
    }
    std::env::split_paths(path_var?)
        .map(|dir| dir.join(program))
        .find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Runs `program args…` with no stdin and returns the first non-empty line it prints, or why
/// it could not. A program that hangs is killed after `timeout`.
///
/// # Errors
/// A message saying why no version was read.
pub fn command_version(
    program: &Path,
    args: &[String],
    timeout: Duration,
) -> Result<String, String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run: {e}"))?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("no answer within {}s", timeout.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let text = [output.stdout, output.stderr].concat();
    String::from_utf8_lossy(&text)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| "printed no version".to_owned())
}

/// What the kernel offers for sandboxing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LandlockSupport {
    pub supported: bool,
    /// Highest Landlock ABI the kernel accepts (1…), when supported.
    pub abi: Option<u8>,
    pub detail: String,
}

/// Asks the kernel for its Landlock ABI (read-only: nothing is created or enforced).
#[cfg(target_os = "linux")]
pub fn landlock_support() -> LandlockSupport {
    use crate::sandbox::{REQUIRED_ABI, kernel_abi};
    match kernel_abi() {
        Some(abi) => LandlockSupport {
            supported: true,
            abi: Some(abi),
            detail: if abi >= REQUIRED_ABI {
                format!("Landlock ABI {abi}: agents can be sandboxed")
            } else {
                format!("Landlock ABI {abi}: too old to sandbox agents (ABI {REQUIRED_ABI} needed)")
            },
        },
        None => LandlockSupport {
            supported: false,
            abi: None,
            detail: "the kernel does not offer Landlock (agents cannot be sandboxed)".into(),
        },
    }
}

/// Landlock exists only on Linux.
#[cfg(not(target_os = "linux"))]
pub fn landlock_support() -> LandlockSupport {
    LandlockSupport {
        supported: false,
        abi: None,
        detail: "Landlock is Linux-only".into(),
    }
}

/// Whether the WebKitGTK 4.1 runtime the desktop shell needs is installed.
pub fn webkit_present() -> bool {
    const LIB: &str = "libwebkit2gtk-4.1.so.0";
    let dirs = [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
    ];
    dirs.iter().any(|d| Path::new(d).join(LIB).exists())
}

/// Whether a graphical display is reachable (X11 or Wayland).
pub fn display_present() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn finds_sh_and_reads_a_version() {
        let sh = find_on_path("sh", std::env::var_os("PATH").as_deref()).unwrap();
        let line = command_version(
            &sh,
            &["-c".into(), "echo v1.2".into()],
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(line, "v1.2");
        assert!(
            find_on_path(
                "surely-not-a-program-idea",
                std::env::var_os("PATH").as_deref()
            )
            .is_none()
        );
    }

    #[test]
    fn a_hanging_program_is_killed() {
        let sh = find_on_path("sh", std::env::var_os("PATH").as_deref()).unwrap();
        let err = command_version(
            &sh,
            &["-c".into(), "sleep 30".into()],
            Duration::from_millis(200),
        )
        .unwrap_err();
        assert!(err.contains("no answer"), "{err}");
    }

    #[test]
    fn landlock_probe_answers_either_way() {
        let support = landlock_support();
        assert_eq!(support.supported, support.abi.is_some());
    }
}
