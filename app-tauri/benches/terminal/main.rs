//! Terminal benchmark: `idea serve` measured beside a bare PTY, in one run.
//!
//! `cargo bench -p idea-app --bench terminal` starts the real `idea` binary, talks to it as the
//! browser does (JSON-RPC in WebSocket text frames, terminal bytes in binary frames, acks for
//! flow control) and prints, each beside its baselines measured in the same run:
//!
//! 1. throughput from a PTY to the WebSocket client (baseline: a read loop on a bare PTY), and
//!    the CPU time the server spent on each run;
//! 2. keystroke echo latency p50/p99 through a cell running `cat` (baseline: `cat` on a bare
//!    PTY, one byte written and read back);
//! 3. the echo's physical floor: the bare PTY echo plus a loopback WebSocket echo (the same
//!    client and frames, against a minimal echo server on a thread of the bench), summed at
//!    each percentile (see `floor.rs`), and the served echo as a ratio of it;
//! 4. the server's resident memory per idle live shell cell (baseline: the idle server).
//!
//! The keystrokes of the bare PTY, the WebSocket echo and `idea serve` are taken in rounds of
//! one each, so that all three see the same machine load.
//!
//! Second baseline, tmux (skipped with a note when it is not installed): a private tmux server
//! (own socket, no config, no status line) with one 80x24 session, watched the way a terminal
//! shows it, through a client attached in a PTY of its own (`tmux attach` in a bare
//! portable-pty, its output read and its escape sequences stripped):
//!
//! - throughput: the same command typed into a shell in the pane, timed until its end marker
//!   is drawn in the attached client (tmux draws the screen rather than forwarding every
//!   byte, so the figure is bytes produced per second);
//! - keystroke echo, typed: one byte written to the attached client's PTY (as a user types in
//!   a terminal running tmux), timed until `cat`'s echo is drawn in that client. This is the
//!   path comparable with a keystroke frame to `idea serve`;
//! - keystroke echo, `send-keys`: `tmux send-keys -l` run for one byte (as a tmux-based agent
//!   manager injects input), timed from starting that command until the echo is drawn in the
//!   attached client; it includes starting the `tmux` process.
//!
//! Every figure is printed with its ratio to the bare PTY, and idea serve's to tmux.
//!
//! It measures and prints; it asserts nothing about speed.

mod bare_pty;
mod client;
mod echo;
mod floor;
mod memory;
mod report;
mod server;
mod stats;
mod tail;
mod throughput;
mod tmux;

use anyhow::{Context, Result};
use report::Report;
use std::time::{Duration, Instant};

const COMMAND: &str = "cargo bench -p idea-app --bench terminal";
/// Longest wait for any one answer, frame or process before the bench gives up.
const DEADLINE: Duration = Duration::from_secs(30);
const ROWS: u16 = 24;
const COLS: u16 = 80;
/// The same read size as IdeA's PTY reader (`PtyConfig::read_buffer_bytes`).
const READ_BUFFER: usize = 16 * 1024;
const READY_MARKER: &[u8] = b"READY-2";

fn main() {
    println!("command: {COMMAND}");
    println!("idea binary: {}", env!("CARGO_BIN_EXE_idea"));
    println!();
    let started = Instant::now();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("bench failed: no tokio runtime: {e}");
            std::process::exit(1);
        }
    };
    match runtime.block_on(run()) {
        Ok(report) => {
            report.print();
            println!();
            println!("total time: {:.1} s", started.elapsed().as_secs_f64());
        }
        Err(e) => {
            eprintln!("bench failed: {e:#}");
            std::process::exit(1);
        }
    }
}

async fn run() -> Result<Report> {
    let tmux = tmux::Tmux::available();
    let throughput = throughput::measure(tmux).await.context("throughput")?;
    let echo = echo::measure(tmux).await.context("keystroke echo")?;
    let memory = memory::measure().await.context("memory")?;
    Ok(Report {
        throughput,
        echo,
        memory,
    })
}
