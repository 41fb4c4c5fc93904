//! Processes of the tests that run `idea serve`: the `idea` executable, children killed on
//! drop, and a start that waits for the child's announcement line.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// `target/debug/idea`, next to this crate's binaries (built by `cargo test --workspace`).
pub fn idea_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("IDEA_BIN") {
        return PathBuf::from(bin);
    }
    let fake_model = PathBuf::from(env!("CARGO_BIN_EXE_fake-model"));
    let bin = fake_model.with_file_name("idea");
    assert!(
        bin.is_file(),
        "{} is missing: build it first (cargo build -p idea-app)",
        bin.display()
    );
    bin
}

/// A child process killed on drop.
pub struct Owned(Child);

impl Drop for Owned {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `command`, returns it with the first stdout line that starts with `prefix`.
pub fn start_announcing(mut command: Command, prefix: &str) -> (Owned, String) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("cannot start the process");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    let prefix = prefix.to_owned();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.starts_with(&prefix) {
                let _ = tx.send(line);
            }
        }
    });
    let owned = Owned(child);
    let line = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the process did not announce itself");
    (owned, line)
}

/// The port in `idea serve`'s announcement line (`IdeA serving <path> at http://127.0.0.1:<port>/…`).
pub fn announced_port(line: &str) -> u16 {
    line.split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .expect("port in the announcement")
}
