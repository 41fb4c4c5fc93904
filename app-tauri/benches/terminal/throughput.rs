//! Throughput: 32 MiB from a PTY to the client, through `idea serve`, a bare PTY and tmux.

use crate::bare_pty::BarePty;
use crate::client::{Cell, Client};
use crate::server::shell_cell_after;
use crate::stats::mega_per_second;
use crate::tail::Tail;
use crate::tmux::TmuxPane;
use crate::{DEADLINE, READ_BUFFER};
use anyhow::{Context, Result, bail};
use std::io::Read;
use std::time::{Duration, Instant};

pub(crate) const THROUGHPUT_BYTES: usize = 32 * 1024 * 1024;
pub(crate) const THROUGHPUT_RUNS: usize = 3;
/// Built by the shell, so the terminal's echo of the command line does not contain it.
pub(crate) const DONE_MARKER: &[u8] = b"BENCH-42";

fn throughput_script() -> String {
    format!("head -c {THROUGHPUT_BYTES} /dev/zero | tr '\\0' 'a'; echo BENCH-$((40+2))")
}

#[derive(Debug)]
pub(crate) struct Throughput {
    /// MB/s (10^6 bytes per second) of each run, in run order.
    pub(crate) serve: Vec<f64>,
    pub(crate) bare: Vec<f64>,
    /// Empty when tmux is not installed.
    pub(crate) tmux: Vec<f64>,
    /// CPU time of the `idea serve` process (all its threads) per served run, in ms.
    pub(crate) serve_cpu_ms: Vec<f64>,
}

/// Bytes per second from a PTY to the client: `idea serve` (one shell cell, the command typed
/// as keystrokes, every frame acked as it arrives) against reading a bare PTY until EOF.
pub(crate) async fn measure(tmux: bool) -> Result<Throughput> {
    // The shell is up and reading its terminal.
    let (server, mut client, cell) = shell_cell_after("echo READY-$((1+1))").await?;
    let mut pane = if tmux {
        Some(TmuxPane::start("sh", "echo READY-$((1+1))").context("tmux")?)
    } else {
        None
    };

    let script = throughput_script();
    let mut result = Throughput {
        serve: Vec::new(),
        bare: Vec::new(),
        tmux: Vec::new(),
        serve_cpu_ms: Vec::new(),
    };
    // Interleaved, so all see the same machine load over time.
    for run in 0..THROUGHPUT_RUNS {
        let (bytes, elapsed) = bare_throughput_run(&script)?;
        result.bare.push(mega_per_second(bytes, elapsed));
        let cpu_before = server.cpu_ms()?;
        let (bytes, elapsed) = serve_throughput_run(&mut client, &cell, &script).await?;
        result.serve.push(mega_per_second(bytes, elapsed));
        result.serve_cpu_ms.push(server.cpu_ms()? - cpu_before);
        if let Some(pane) = &mut pane {
            let elapsed = pane.throughput_run(&script, run).context("tmux")?;
            result.tmux.push(mega_per_second(THROUGHPUT_BYTES, elapsed));
        }
    }
    drop(client);
    server.stop();
    Ok(result)
}

/// One run through the server: from typing the command to the marker after the last byte.
async fn serve_throughput_run(
    client: &mut Client,
    cell: &Cell,
    script: &str,
) -> Result<(usize, Duration)> {
    let start = Instant::now();
    client
        .send_keys(cell, format!("{script}\r").as_bytes())
        .await?;
    let mut tail = Tail::new(DONE_MARKER);
    let mut bytes = 0;
    loop {
        let payload = client.output_of(cell).await?;
        bytes += payload.len();
        if tail.feed(&payload) {
            return Ok((bytes, start.elapsed()));
        }
    }
}

/// One run on a bare PTY: `sh -c SCRIPT` spawned, the master read until EOF.
fn bare_throughput_run(script: &str) -> Result<(usize, Duration)> {
    let start = Instant::now();
    let mut pty = BarePty::spawn(script)?;
    let mut buf = vec![0; READ_BUFFER];
    let mut bytes = 0;
    loop {
        match pty.reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => bytes += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            // EIO: the slave side is closed (portable-pty usually maps it to Ok(0) already).
            Err(_) => break,
        }
    }
    let elapsed = start.elapsed();
    pty.finish()?;
    if pty.timed_out() {
        bail!("the bare PTY run did not finish within {DEADLINE:?}");
    }
    Ok((bytes, elapsed))
}
