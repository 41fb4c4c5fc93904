//! The `idea serve` rig shared by the integration tests: the command line on a project and user
//! folder, its start (the `IdeA serving … at http://127.0.0.1:PORT/…` line read within a
//! deadline) and a [`Served`] that kills the owner when dropped. Callers add the token (as an
//! argument or `IDEA_TOKEN`), where stderr goes, and any extra environment.
// Each test binary uses only part of this rig.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running `idea serve`; killed when dropped (a failed test must not leave it behind).
pub struct Served {
    pub child: Child,
    pub port: u16,
    /// The announcement it printed, untrimmed.
    pub line: String,
    /// A temp folder to remove only once the server is gone.
    keep: Option<tempfile::TempDir>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// `child`, which announced `line` with `port`.
    pub fn new(child: Child, port: u16, line: String) -> Self {
        Self {
            child,
            port,
            line,
            keep: None,
        }
    }

    /// Keeps `dir` (the project's temp folder) alive as long as the server.
    pub fn keeping(mut self, dir: tempfile::TempDir) -> Self {
        self.keep = Some(dir);
        self
    }
}

/// `idea` with the user folder `user`, `SHELL=/bin/sh` and no stdin.
pub fn idea(user: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_idea"));
    command
        .env("IDEA_USER_DIR", user)
        .env("SHELL", "/bin/sh")
        .stdin(Stdio::null());
    command
}

/// `idea serve PROJECT --port 0` with the user folder `user`; stdout piped for the
/// announcement. The token, stderr and extra environment are the caller's.
pub fn command(project: &Path, user: &Path) -> Command {
    let mut command = idea(user);
    command
        .args(["serve", project.to_str().unwrap(), "--port", "0"])
        .stdout(Stdio::piped());
    command
}

/// The first line `child` prints on its (piped) stdout, waited for at most `within`.
pub fn announcement(child: &mut Child, within: Duration) -> String {
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    rx.recv_timeout(within).unwrap()
}

/// The port of an `… at http://127.0.0.1:PORT/…` announcement.
pub fn port_of(line: &str) -> Option<u16> {
    line.split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
}

/// Spawns `command` (stdout piped) and waits at most `within` for its announcement.
pub fn start(mut command: Command, within: Duration) -> Served {
    let mut child = command.spawn().unwrap();
    let line = announcement(&mut child, within);
    let port = port_of(&line).unwrap_or_else(|| panic!("unexpected announcement: {line:?}"));
    Served::new(child, port, line)
}

/// Makes a test's own server type, whose field `server` is a [`Served`], read as one
/// (`served.port`, `served.child`) through `Deref` and `DerefMut`.
#[allow(unused_macros)] // only the test binaries with their own server type use it
macro_rules! deref_to_served {
    ($wrapper:ty) => {
        impl std::ops::Deref for $wrapper {
            type Target = $crate::support::serve::Served;
            fn deref(&self) -> &Self::Target {
                &self.server
            }
        }

        impl std::ops::DerefMut for $wrapper {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.server
            }
        }
    };
}
#[allow(unused_imports)] // only the test binaries with their own server type use it
pub(crate) use deref_to_served;

/// The next answer on a socket that speaks JSON-RPC a line at a time (the owner's), the
/// `event` notifications before it skipped.
pub async fn next_answer(
    reader: &mut (impl tokio::io::AsyncBufRead + Unpin),
    deadline: Duration,
) -> serde_json::Value {
    use tokio::io::AsyncBufReadExt;
    loop {
        let mut line = String::new();
        let read = tokio::time::timeout(deadline, reader.read_line(&mut line))
            .await
            .expect("no answer in time")
            .unwrap();
        assert!(read > 0, "the owner closed the connection");
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        if value["method"] != "event" {
            return value;
        }
    }
}
