//! The tmux baseline: a private tmux server, watched through a client attached in a PTY.

use crate::bare_pty::BarePty;
use crate::tail::Tail;
use crate::throughput::DONE_MARKER;
use crate::{READ_BUFFER, READY_MARKER};
use anyhow::{Context, Result, bail};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Longest life of a tmux client attached for a whole measurement.
const TMUX_CLIENT_DEADLINE: Duration = Duration::from_secs(120);

/// A private tmux server with one 80x24 session, killed when dropped.
pub(crate) struct Tmux {
    socket: String,
}

impl Tmux {
    pub(crate) fn available() -> bool {
        Command::new("tmux")
            .arg("-V")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    }

    /// Starts a server on a socket of its own (`-L`), without the user's configuration, whose
    /// session runs `command` (a shell command line), without a status line.
    fn start(command: &str) -> Result<Self> {
        static SERVERS: AtomicUsize = AtomicUsize::new(0);
        let tmux = Self {
            socket: format!(
                "idea-bench-{}-{}",
                std::process::id(),
                SERVERS.fetch_add(1, Ordering::SeqCst)
            ),
        };
        let status = tmux
            .command()
            .args([
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                "80",
                "-y",
                "24",
            ])
            .args(["-s", "bench", command, ";", "set", "-g", "status", "off"])
            .status()
            .context("starting tmux")?;
        if !status.success() {
            bail!("tmux new-session failed: {status}");
        }
        Ok(tmux)
    }

    fn command(&self) -> Command {
        let mut command = Command::new("tmux");
        command
            .args(["-L", &self.socket])
            .env_remove("TMUX")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    }

    /// `tmux send-keys -l` for one byte: the way an agent manager types into a pane.
    pub(crate) fn send_keys(&self, key: u8) -> Result<()> {
        let key = char::from(key).to_string();
        let status = self
            .command()
            .args(["send-keys", "-t", "bench", "-l", &key])
            .status()?;
        if !status.success() {
            bail!("tmux send-keys failed: {status}");
        }
        Ok(())
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").status();
    }
}

/// A tmux session and a client attached to it through a PTY, as a terminal emulator runs it.
pub(crate) struct TmuxPane {
    client: BarePty,
    /// Declared after `client`: the server goes last.
    pub(crate) tmux: Tmux,
    text: ScreenText,
    buf: Vec<u8>,
}

impl TmuxPane {
    /// A session running `command`, with a client attached; when `ready` is not empty, it is
    /// typed into the pane and the client waited for until it shows READY-2.
    pub(crate) fn start(command: &str, ready: &str) -> Result<Self> {
        let tmux = Tmux::start(command)?;
        let client = BarePty::spawn_for(
            &format!(
                "TERM=xterm-256color exec tmux -L {} attach -t bench",
                tmux.socket
            ),
            TMUX_CLIENT_DEADLINE,
        )?;
        let mut pane = Self {
            client,
            tmux,
            text: ScreenText::default(),
            buf: vec![0; READ_BUFFER],
        };
        if !ready.is_empty() {
            pane.type_keys(format!("{ready}\r").as_bytes())?;
        }
        pane.wait_for_text(READY_MARKER)?;
        Ok(pane)
    }

    /// Types `keys` into the attached client's terminal.
    pub(crate) fn type_keys(&mut self, keys: &[u8]) -> Result<()> {
        self.client.writer.write_all(keys)?;
        self.client.writer.flush()?;
        Ok(())
    }

    /// Reads the attached client until `marker` has been drawn.
    pub(crate) fn wait_for_text(&mut self, marker: &[u8]) -> Result<()> {
        let mut tail = Tail::new(marker);
        let mut text = Vec::new();
        loop {
            text.clear();
            let read = self.client.read(&mut self.buf)?;
            self.text.feed(read, &mut text);
            if tail.feed(&text) {
                return Ok(());
            }
        }
    }

    /// Types the throughput command into the pane's shell; the time until its end marker is
    /// drawn. The marker gets the run's number: tmux may draw an earlier run's again.
    pub(crate) fn throughput_run(&mut self, script: &str, run: usize) -> Result<Duration> {
        let start = Instant::now();
        self.type_keys(format!("{script}R{run}\r").as_bytes())?;
        let mut marker = DONE_MARKER.to_vec();
        marker.extend_from_slice(format!("R{run}").as_bytes());
        self.wait_for_text(&marker)?;
        Ok(start.elapsed())
    }
}

/// The text a terminal stream draws, without its escape sequences (tmux surrounds what it
/// draws with cursor moves and attributes, whose letters must not count as an echo).
#[derive(Debug, Default)]
struct ScreenText {
    state: Escape,
}

#[derive(Debug, Default, Clone, Copy)]
enum Escape {
    #[default]
    None,
    /// After ESC.
    Start,
    /// ESC, then intermediate bytes (`ESC ( B`).
    Intermediate,
    /// A control sequence (`ESC [`), until its final byte.
    Csi,
    /// A string (`ESC ]`, `ESC P`), until BEL or ST.
    String,
    /// ESC inside a string.
    StringEnd,
}

impl ScreenText {
    /// Appends the drawn text of `bytes` to `text`.
    fn feed(&mut self, bytes: &[u8], text: &mut Vec<u8>) {
        for &byte in bytes {
            self.state = match (self.state, byte) {
                (Escape::None, 0x1b) => Escape::Start,
                (Escape::None, byte) => {
                    if byte >= 0x20 && byte != 0x7f {
                        text.push(byte);
                    }
                    Escape::None
                }
                (Escape::Start, b'[') => Escape::Csi,
                (Escape::Start, b']' | b'P' | b'_' | b'^' | b'X') => Escape::String,
                (Escape::Start | Escape::Intermediate, 0x20..=0x2f) => Escape::Intermediate,
                (Escape::Start | Escape::Intermediate, _) => Escape::None,
                (Escape::Csi, 0x40..=0x7e) => Escape::None,
                (Escape::Csi, _) => Escape::Csi,
                (Escape::String | Escape::StringEnd, 0x07) => Escape::None,
                (Escape::String, 0x1b) => Escape::StringEnd,
                (Escape::String, _) => Escape::String,
                (Escape::StringEnd, b'\\') => Escape::None,
                (Escape::StringEnd, _) => Escape::String,
            };
        }
    }
}
