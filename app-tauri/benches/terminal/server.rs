//! `idea serve`, the process: started on a fresh project, stopped when dropped.

use crate::client::{Cell, Client};
use crate::{DEADLINE, READY_MARKER};
use anyhow::{Context, Result, anyhow};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub(crate) const TOKEN: &str = "0123456789abcdef0123456789abcdef";

/// A running `idea serve` on a fresh project; stopped (SIGTERM, then SIGKILL) when dropped,
/// so an error anywhere in a measurement does not leave it behind.
pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
    dir: tempfile::TempDir,
}

impl Server {
    pub(crate) fn start() -> Result<Self> {
        let dir = tempfile::tempdir()?;
        let project = dir.path().join("proj");
        let user = dir.path().join("user");
        std::fs::create_dir_all(&project)?;
        let log = File::create(dir.path().join("stderr.log"))?;
        let mut child = Command::new(env!("CARGO_BIN_EXE_idea"))
            .arg("serve")
            .arg(&project)
            .args(["--port", "0", "--token", TOKEN])
            .env("IDEA_USER_DIR", &user)
            .env("SHELL", "/bin/sh")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .context("starting idea serve")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (tx, rx) = mpsc::channel();
        // Reads the announcement, then keeps draining so the server never writes to a closed pipe.
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(line)) = lines.next() {
                let _ = tx.send(line);
            }
            for _ in lines {}
        });
        let mut server = Self {
            child,
            port: 0,
            dir,
        };
        let line = rx
            .recv_timeout(DEADLINE)
            .map_err(|_| anyhow!("no announcement; stderr: {}", server.stderr()))?;
        server.port = parse_port(&line)?;
        Ok(server)
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A numeric field of /proc/PID/status (`VmRSS` in KiB, `Threads`, ...).
    pub(crate) fn status_field(&self, field: &str) -> Result<u64> {
        status_field(self.pid(), field)
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("stderr.log")).unwrap_or_default()
    }

    /// Stops the server now (dropping does the same).
    pub(crate) fn stop(self) {}

    /// User + system CPU time of the server (all its threads) so far, in ms.
    pub(crate) fn cpu_ms(&self) -> Result<f64> {
        cpu_ms(self.pid())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SIGTERM lets it stop its sessions; SIGKILL if it takes too long.
        let _ = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The port of `IdeA serving <project> at http://127.0.0.1:PORT/?token=TOKEN`.
fn parse_port(line: &str) -> Result<u16> {
    let (_, rest) = line
        .rsplit_once(" at http://127.0.0.1:")
        .with_context(|| format!("unexpected announcement: {line:?}"))?;
    let (port, _) = rest
        .split_once('/')
        .with_context(|| format!("unexpected announcement: {line:?}"))?;
    port.parse()
        .with_context(|| format!("unexpected announcement: {line:?}"))
}

/// User + system CPU time of process `pid` (all its threads) so far, in ms.
fn cpu_ms(pid: u32) -> Result<f64> {
    let path = Path::new("/proc").join(pid.to_string()).join("stat");
    let stat =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    // The fields after the command name (which is in parentheses and may hold spaces):
    // utime and stime are the 12th and 13th of them, in clock ticks.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| -> Result<f64> {
        let field = fields
            .get(i)
            .with_context(|| format!("{}: too short", path.display()))?;
        Ok(field.parse::<f64>()?)
    };
    // Linux reports these in USER_HZ, 100 per second on every architecture it supports.
    Ok((ticks(11)? + ticks(12)?) * 10.0)
}

pub(crate) fn status_field(pid: u32, field: &str) -> Result<u64> {
    let path = Path::new("/proc").join(pid.to_string()).join("status");
    let status =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let line = status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .with_context(|| format!("no {field} in {}", path.display()))?;
    let number = line.split_whitespace().next().unwrap_or_default();
    number
        .parse()
        .with_context(|| format!("{field}: {line:?} is not a number"))
}

/// A fresh server with one attached shell cell that has run `script` (which must print the
/// ready marker).
pub(crate) async fn shell_cell_after(script: &str) -> Result<(Server, Client, Cell)> {
    let server = Server::start()?;
    let mut client = Client::connect(server.port).await?;
    let (layout, leaves) = client.leaves().await?;
    let leaf = leaves.first().context("the layout has no cell")?;
    let cell = client.open_shell(&layout, leaf).await?;
    client.attach(&cell).await?;
    client
        .send_keys(&cell, format!("{script}\r").as_bytes())
        .await
        .context("typing into the shell")?;
    client.wait_for(&cell, READY_MARKER).await?;
    Ok((server, client, cell))
}
