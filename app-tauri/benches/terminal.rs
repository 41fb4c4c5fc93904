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
//! 3. the server's resident memory per idle live shell cell (baseline: the idle server).
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

use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use portable_pty::{Child as PtyChild, CommandBuilder, MasterPty, PtySize, native_pty_system};
use serde_json::{Value, json};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const COMMAND: &str = "cargo bench -p idea-app --bench terminal";
const TOKEN: &str = "0123456789abcdef0123456789abcdef";
/// Longest wait for any one answer, frame or process before the bench gives up.
const DEADLINE: Duration = Duration::from_secs(30);
/// Longest life of a tmux client attached for a whole measurement.
const TMUX_CLIENT_DEADLINE: Duration = Duration::from_secs(120);
const ROWS: u16 = 24;
const COLS: u16 = 80;
/// The same read size as IdeA's PTY reader (`PtyConfig::read_buffer_bytes`).
const READ_BUFFER: usize = 16 * 1024;
/// The WebSocket client's read buffer (see `Client::connect`).
const CLIENT_READ_BUFFER: usize = 16 * 1024;

const THROUGHPUT_BYTES: usize = 32 * 1024 * 1024;
const THROUGHPUT_RUNS: usize = 3;
/// Built by the shell, so the terminal's echo of the command line does not contain it.
const DONE_MARKER: &[u8] = b"BENCH-42";
const LATENCY_WARMUP: usize = 30;
const LATENCY_SAMPLES: usize = 300;
/// Pause before each keystroke: a very fast typist (~33 keys/s). Back-to-back probes would
/// measure the output throttle (one batch per 16 ms) rather than a keystroke's echo.
const KEY_GAP: Duration = Duration::from_millis(30);
/// Raw mode so `cat` (not the line discipline) echoes each byte at once.
const ECHO_SCRIPT: &str = "stty raw -echo; echo READY-$((1+1)); exec cat";
const READY_MARKER: &[u8] = b"READY-2";
const IDLE_CELLS: usize = 20;
const SETTLE: Duration = Duration::from_secs(1);

fn throughput_script() -> String {
    format!("head -c {THROUGHPUT_BYTES} /dev/zero | tr '\\0' 'a'; echo BENCH-$((40+2))")
}

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
    let tmux = Tmux::available();
    let throughput = measure_throughput(tmux).await.context("throughput")?;
    let latency = measure_latency(tmux).await.context("keystroke latency")?;
    let memory = measure_memory().await.context("memory")?;
    Ok(Report {
        throughput,
        latency,
        memory,
    })
}

// ---------------------------------------------------------------------------------------------
// The measurements

#[derive(Debug)]
struct Throughput {
    /// MB/s (10^6 bytes per second) of each run, in run order.
    serve: Vec<f64>,
    bare: Vec<f64>,
    /// Empty when tmux is not installed.
    tmux: Vec<f64>,
    /// CPU time of the `idea serve` process (all its threads) per served run, in ms.
    serve_cpu_ms: Vec<f64>,
}

/// Bytes per second from a PTY to the client: `idea serve` (one shell cell, the command typed
/// as keystrokes, every frame acked as it arrives) against reading a bare PTY until EOF.
async fn measure_throughput(tmux: bool) -> Result<Throughput> {
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
        let cpu_before = cpu_ms(server.pid())?;
        let (bytes, elapsed) = serve_throughput_run(&mut client, &cell, &script).await?;
        result.serve.push(mega_per_second(bytes, elapsed));
        result.serve_cpu_ms.push(cpu_ms(server.pid())? - cpu_before);
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

#[derive(Debug)]
struct Latency {
    /// Round trips in microseconds, sorted.
    serve: Vec<f64>,
    bare: Vec<f64>,
    /// Typed into an attached client; empty when tmux is not installed.
    tmux: Vec<f64>,
    /// Sent with `tmux send-keys`; empty when tmux is not installed.
    tmux_send_keys: Vec<f64>,
}

/// Keystroke echo: one printable byte typed into a terminal running `cat` in raw mode, timed
/// until it comes back; through `idea serve` (binary frame out, binary frame back), on a bare
/// PTY (write to the master, read it back) and through tmux (see the file's header).
async fn measure_latency(tmux: bool) -> Result<Latency> {
    let bare = bare_latency()?;
    let serve = serve_latency().await?;
    let (tmux, tmux_send_keys) = if tmux {
        let typed = tmux_latency(KeyPath::Typed).context("tmux")?;
        let send_keys = tmux_latency(KeyPath::SendKeys).context("tmux send-keys")?;
        (typed, send_keys)
    } else {
        (Vec::new(), Vec::new())
    };
    Ok(Latency {
        serve,
        bare,
        tmux,
        tmux_send_keys,
    })
}

/// A fresh server with one attached shell cell that has run `script` (which must print the
/// ready marker).
async fn shell_cell_after(script: &str) -> Result<(Server, Client, Cell)> {
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

async fn serve_latency() -> Result<Vec<f64>> {
    let (server, mut client, cell) = shell_cell_after(ECHO_SCRIPT).await?;

    let mut samples = Vec::with_capacity(LATENCY_SAMPLES);
    for i in 0..LATENCY_WARMUP + LATENCY_SAMPLES {
        let key = probe_byte(i);
        tokio::time::sleep(KEY_GAP).await;
        let start = Instant::now();
        client.send_keys(&cell, &[key]).await?;
        while !client.output_of(&cell).await?.contains(&key) {}
        // When the frame arrived, not after its ack was sent (a browser acks after rendering).
        let elapsed = client.received.duration_since(start);
        if i >= LATENCY_WARMUP {
            samples.push(micros(elapsed));
        }
    }
    drop(client);
    server.stop();
    samples.sort_by(f64::total_cmp);
    Ok(samples)
}

/// How a key reaches the tmux pane.
#[derive(Debug, Clone, Copy)]
enum KeyPath {
    /// Written to the attached client's PTY.
    Typed,
    /// `tmux send-keys -l`, one process per key.
    SendKeys,
}

fn tmux_latency(path: KeyPath) -> Result<Vec<f64>> {
    let mut pane = TmuxPane::start(&format!("sh -c '{ECHO_SCRIPT}'"), "")?;
    let mut samples = Vec::with_capacity(LATENCY_SAMPLES);
    for i in 0..LATENCY_WARMUP + LATENCY_SAMPLES {
        let key = probe_byte(i);
        std::thread::sleep(KEY_GAP);
        let start = Instant::now();
        match path {
            KeyPath::Typed => pane.type_keys(&[key])?,
            KeyPath::SendKeys => pane.tmux.send_keys(key)?,
        }
        pane.wait_for_text(&[key])?;
        let elapsed = start.elapsed();
        if i >= LATENCY_WARMUP {
            samples.push(micros(elapsed));
        }
    }
    samples.sort_by(f64::total_cmp);
    Ok(samples)
}

fn bare_latency() -> Result<Vec<f64>> {
    let mut pty = BarePty::spawn(ECHO_SCRIPT)?;
    let mut buf = vec![0; READ_BUFFER];
    let mut tail = Tail::new(READY_MARKER);
    while !tail.feed(pty.read(&mut buf)?) {}
    let mut samples = Vec::with_capacity(LATENCY_SAMPLES);
    for i in 0..LATENCY_WARMUP + LATENCY_SAMPLES {
        let key = probe_byte(i);
        std::thread::sleep(KEY_GAP);
        let start = Instant::now();
        pty.writer.write_all(&[key])?;
        pty.writer.flush()?;
        while !pty.read(&mut buf)?.contains(&key) {}
        let elapsed = start.elapsed();
        if i >= LATENCY_WARMUP {
            samples.push(micros(elapsed));
        }
    }
    pty.finish()?;
    samples.sort_by(f64::total_cmp);
    Ok(samples)
}

/// `a`..`z`, round and round: each probe differs from the one before it.
fn probe_byte(i: usize) -> u8 {
    b"abcdefghijklmnopqrstuvwxyz"[i % 26]
}

#[derive(Debug)]
struct Memory {
    /// VmRSS of the idle server: started, one client connected, no session.
    idle_server_kib: u64,
    /// VmRSS once the layout has its empty cells, just before the shells are opened.
    before_kib: u64,
    /// VmRSS with `IDLE_CELLS` idle shells open.
    after_kib: u64,
    threads_before: u64,
    threads_after: u64,
    /// VmRSS of one cell's `sh` (a separate process, not in the server's figure).
    shell_kib: Option<u64>,
}

/// The server's VmRSS before and after opening `IDLE_CELLS` idle shell cells.
async fn measure_memory() -> Result<Memory> {
    let server = Server::start()?;
    let mut client = Client::connect(server.port).await?;
    let (layout, mut leaves) = client.leaves().await?;
    tokio::time::sleep(SETTLE).await;
    let idle_server_kib = server.status_field("VmRSS")?;

    // Split breadth-first, alternating directions, until there are enough cells.
    let mut next = 0;
    while leaves.len() < IDLE_CELLS {
        // Each cell is split twice (a tree, not a chain: layouts nest at most 16 deep).
        let target = leaves.get(next / 2).context("no cell to split")?.clone();
        let direction = if next % 2 == 0 {
            "horizontal"
        } else {
            "vertical"
        };
        let new = client
            .ok(
                "splitCell",
                json!({"layoutId": layout, "nodeId": target, "direction": direction}),
            )
            .await?;
        leaves.push(new.as_str().context("splitCell: no node id")?.to_owned());
        next += 1;
    }
    tokio::time::sleep(SETTLE).await;
    let before_kib = server.status_field("VmRSS")?;
    let threads_before = server.status_field("Threads")?;

    let mut shell_pid = None;
    for leaf in &leaves {
        let cell = client.open_shell(&layout, leaf).await?;
        shell_pid = shell_pid.or(cell.pid);
    }
    tokio::time::sleep(SETTLE).await;
    let after_kib = server.status_field("VmRSS")?;
    let threads_after = server.status_field("Threads")?;
    let shell_kib = shell_pid.and_then(|pid| status_field(pid, "VmRSS").ok());
    drop(client);
    server.stop();
    Ok(Memory {
        idle_server_kib,
        before_kib,
        after_kib,
        threads_before,
        threads_after,
        shell_kib,
    })
}

// ---------------------------------------------------------------------------------------------
// The report

#[derive(Debug)]
struct Report {
    throughput: Throughput,
    latency: Latency,
    memory: Memory,
}

impl Report {
    fn print(&self) {
        let t = &self.throughput;
        let l = &self.latency;
        let m = &self.memory;
        let per_cell = m.after_kib.saturating_sub(m.before_kib) as f64 / IDLE_CELLS as f64;
        let tmux = !t.tmux.is_empty();
        if !tmux {
            println!("tmux: not installed, baseline skipped");
            println!();
        }

        println!(
            "{:<40} {:>11} {:>10} {:>10} {:>11} {:>10} {:>11}",
            "measurement",
            "idea serve",
            "bare PTY",
            "tmux",
            "serve/bare",
            "tmux/bare",
            "serve/tmux"
        );
        // `None`: not measured (tmux missing, or no such figure for that path).
        let row = |name: &str, serve: Option<f64>, bare: f64, tmux: Option<f64>, digits: usize| {
            let cell = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.digits$}"));
            let over = |a: Option<f64>, b: Option<f64>| match (a, b) {
                (Some(a), Some(b)) => ratio(a, b),
                _ => "-".to_owned(),
            };
            println!(
                "{name:<40} {:>11} {bare:>10.digits$} {:>10} {:>11} {:>10} {:>11}",
                cell(serve),
                cell(tmux),
                over(serve, Some(bare)),
                over(tmux, Some(bare)),
                over(serve, tmux),
            );
        };
        let some = |values: &[f64], f: fn(&[f64]) -> f64| (!values.is_empty()).then(|| f(values));
        row(
            &format!(
                "throughput MB/s (median of {THROUGHPUT_RUNS}, {} MiB)",
                THROUGHPUT_BYTES >> 20
            ),
            Some(median(&t.serve)),
            median(&t.bare),
            some(&t.tmux, median),
            1,
        );
        let p50 = |v: &[f64]| percentile(v, 50.0);
        let p99 = |v: &[f64]| percentile(v, 99.0);
        row(
            "keystroke echo p50 µs",
            Some(p50(&l.serve)),
            p50(&l.bare),
            some(&l.tmux, p50),
            0,
        );
        row(
            "keystroke echo p99 µs",
            Some(p99(&l.serve)),
            p99(&l.bare),
            some(&l.tmux, p99),
            0,
        );
        row(
            "  tmux send-keys echo p50 µs",
            None,
            p50(&l.bare),
            some(&l.tmux_send_keys, p50),
            0,
        );
        row(
            "  tmux send-keys echo p99 µs",
            None,
            p99(&l.bare),
            some(&l.tmux_send_keys, p99),
            0,
        );
        println!(
            "{:<40} {per_cell:>11.1} {:>10} (idle server {} KiB: {})",
            "RSS per idle shell cell KiB",
            "-",
            m.idle_server_kib,
            ratio(per_cell, m.idle_server_kib as f64)
        );
        println!();
        println!(
            "throughput runs MB/s: serve {:.1?}, bare PTY {:.1?}, tmux {:.1?} (tmux: bytes produced)",
            t.serve, t.bare, t.tmux
        );
        println!(
            "idea serve CPU per throughput run ({} MiB), ms: {:.0?}",
            THROUGHPUT_BYTES >> 20,
            t.serve_cpu_ms
        );
        let range = |v: &[f64]| {
            if v.is_empty() {
                "-".to_owned()
            } else {
                format!("{:.0}..{:.0}", percentile(v, 0.0), percentile(v, 100.0))
            }
        };
        println!(
            "keystroke echo ({LATENCY_SAMPLES} samples after {LATENCY_WARMUP} warm-up, {} ms between keys), \
             min..max µs: serve {}, bare PTY {}, tmux {}, tmux send-keys {}",
            KEY_GAP.as_millis(),
            range(&l.serve),
            range(&l.bare),
            range(&l.tmux),
            range(&l.tmux_send_keys),
        );
        println!(
            "server RSS: idle {} KiB, {IDLE_CELLS} empty cells {} KiB, {IDLE_CELLS} idle shells {} KiB; \
             threads {} -> {}",
            m.idle_server_kib, m.before_kib, m.after_kib, m.threads_before, m.threads_after
        );
        match m.shell_kib {
            Some(kib) => println!("one cell's sh child (separate process): VmRSS {kib} KiB"),
            None => println!("one cell's sh child: VmRSS not available"),
        }
    }
}

/// `a / b` with enough digits to be read whether it is 0.001 or 400.
fn ratio(a: f64, b: f64) -> String {
    let r = a / b;
    if r >= 10.0 {
        format!("{r:.0}x")
    } else if r >= 0.1 {
        format!("{r:.2}x")
    } else {
        format!("{r:.4}x")
    }
}

fn mega_per_second(bytes: usize, elapsed: Duration) -> f64 {
    bytes as f64 / elapsed.as_secs_f64() / 1e6
}

fn micros(elapsed: Duration) -> f64 {
    elapsed.as_secs_f64() * 1e6
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    percentile(&sorted, 50.0)
}

/// Nearest-rank percentile of sorted values (NaN when empty).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

// ---------------------------------------------------------------------------------------------
// `idea serve`, the process

/// A running `idea serve` on a fresh project; stopped (SIGTERM, then SIGKILL) when dropped,
/// so an error anywhere in a measurement does not leave it behind.
struct Server {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl Server {
    fn start() -> Result<Self> {
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

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A numeric field of /proc/PID/status (`VmRSS` in KiB, `Threads`, ...).
    fn status_field(&self, field: &str) -> Result<u64> {
        status_field(self.pid(), field)
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("stderr.log")).unwrap_or_default()
    }

    /// Stops the server now (dropping does the same).
    fn stop(self) {}
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

fn status_field(pid: u32, field: &str) -> Result<u64> {
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

// ---------------------------------------------------------------------------------------------
// The WebSocket client

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A session as the client sees it.
#[derive(Debug)]
struct Cell {
    /// The session id as text (JSON-RPC) ...
    id: String,
    /// ... and as the 16 bytes heading its binary frames.
    uuid: [u8; 16],
    pid: Option<u32>,
}

/// A minimal `idea serve` client: JSON-RPC calls, keystrokes out, output in (acked).
struct Client {
    ws: Ws,
    next_id: u64,
    /// When the last frame returned by `output_of` arrived (before its ack was sent).
    received: Instant,
}

impl Client {
    async fn connect(port: u16) -> Result<Self> {
        let url = format!("ws://127.0.0.1:{port}/ws?token={TOKEN}");
        // TCP_NODELAY, as browsers set it: otherwise Nagle holds a keystroke back behind the
        // previous ack (~40 ms with the server's delayed ACK), which no real client suffers.
        // A 16 KiB read buffer: tungstenite zeroes the whole read buffer (128 KiB by default)
        // before every read, which would add ~10 µs of client time to every frame received.
        let config = WebSocketConfig::default().read_buffer_size(CLIENT_READ_BUFFER);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
            .await
            .context("connecting the WebSocket")?;
        Ok(Self {
            ws,
            next_id: 1,
            received: Instant::now(),
        })
    }

    /// The next frame, within the deadline.
    async fn next_message(&mut self) -> Result<Message> {
        let message = tokio::time::timeout(DEADLINE, self.ws.next())
            .await
            .map_err(|_| anyhow!("nothing from the server within {DEADLINE:?}"))?
            .context("the server closed the WebSocket")?;
        Ok(message?)
    }

    /// Calls `method` and returns its result. Events, and output of sessions nobody is reading
    /// at that point, are skipped.
    async fn ok(&mut self, method: &str, params: Value) -> Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.ws.send(Message::text(request.to_string())).await?;
        loop {
            let Message::Text(text) = self.next_message().await? else {
                continue;
            };
            let answer: Value = serde_json::from_str(text.as_str())?;
            if answer["id"] != id {
                continue;
            }
            if let Some(error) = answer.get("error") {
                bail!("{method}: {error}");
            }
            return Ok(answer["result"].clone());
        }
    }

    /// The active layout's id and its cells, in tree order.
    async fn leaves(&mut self) -> Result<(String, Vec<String>)> {
        let layouts = self.ok("getLayouts", json!({})).await?;
        let active = layouts["active"]
            .as_str()
            .context("getLayouts: no active layout")?
            .to_owned();
        let layout = layouts["layouts"]
            .as_array()
            .and_then(|all| all.iter().find(|l| l["id"] == active.as_str()))
            .context("getLayouts: the active layout is missing")?;
        let mut leaves = Vec::new();
        collect_leaves(&layout["tree"], &mut leaves);
        Ok((active, leaves))
    }

    async fn open_shell(&mut self, layout: &str, node: &str) -> Result<Cell> {
        let session = self
            .ok(
                "openShell",
                json!({"layoutId": layout, "nodeId": node, "rows": ROWS, "cols": COLS}),
            )
            .await?;
        let id = session["sessionId"]
            .as_str()
            .context("openShell: no sessionId")?
            .to_owned();
        Ok(Cell {
            uuid: uuid_bytes(&id)?,
            pid: session["pid"]
                .as_u64()
                .and_then(|pid| u32::try_from(pid).ok()),
            id,
        })
    }

    async fn attach(&mut self, cell: &Cell) -> Result<()> {
        self.ok("attachTerminal", json!({"sessionId": cell.id}))
            .await?;
        Ok(())
    }

    /// Types `keys` into the cell: one binary frame, as the browser sends it.
    async fn send_keys(&mut self, cell: &Cell, keys: &[u8]) -> Result<()> {
        let mut frame = Vec::with_capacity(16 + keys.len());
        frame.extend_from_slice(&cell.uuid);
        frame.extend_from_slice(keys);
        self.ws.send(Message::binary(frame)).await?;
        Ok(())
    }

    /// The payload of the next binary frame for `cell`, acked at once (as xterm.js acks each
    /// write it has processed), so flow control never holds the PTY back.
    async fn output_of(&mut self, cell: &Cell) -> Result<Vec<u8>> {
        loop {
            let Message::Binary(frame) = self.next_message().await? else {
                continue;
            };
            let Some((head, payload)) = frame.split_first_chunk::<16>() else {
                continue;
            };
            if *head != cell.uuid {
                continue;
            }
            self.received = Instant::now();
            let ack = json!({"jsonrpc": "2.0", "method": "ackTerminal",
                "params": {"sessionId": cell.id, "bytes": payload.len()}});
            self.ws.send(Message::text(ack.to_string())).await?;
            return Ok(payload.to_vec());
        }
    }

    /// Reads the cell's output until `marker` has gone by.
    async fn wait_for(&mut self, cell: &Cell, marker: &[u8]) -> Result<()> {
        let mut tail = Tail::new(marker);
        while !tail.feed(&self.output_of(cell).await?) {}
        Ok(())
    }
}

fn collect_leaves(tree: &Value, leaves: &mut Vec<String>) {
    if tree["type"] == "leaf" {
        if let Some(id) = tree["id"].as_str() {
            leaves.push(id.to_owned());
        }
        return;
    }
    for child in tree["children"].as_array().into_iter().flatten() {
        collect_leaves(child, leaves);
    }
}

fn uuid_bytes(text: &str) -> Result<[u8; 16]> {
    let hex: Vec<u8> = text.bytes().filter(|b| *b != b'-').collect();
    if hex.len() != 32 {
        bail!("not a uuid: {text:?}");
    }
    let mut bytes = [0u8; 16];
    for (byte, pair) in bytes.iter_mut().zip(hex.chunks(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair)?, 16)?;
    }
    Ok(bytes)
}

/// Finds a marker in a stream read in pieces, looking only at the last bytes seen (the marker
/// is near the end of the output: a shell prompt at most follows it in the same read).
struct Tail {
    marker: Vec<u8>,
    last: Vec<u8>,
}

impl Tail {
    const KEEP: usize = 256;

    fn new(marker: &[u8]) -> Self {
        Self {
            marker: marker.to_vec(),
            last: Vec::with_capacity(2 * Self::KEEP),
        }
    }

    /// Adds `bytes`; true once the marker is among the last bytes seen.
    fn feed(&mut self, bytes: &[u8]) -> bool {
        let new = &bytes[bytes.len().saturating_sub(Self::KEEP)..];
        self.last.extend_from_slice(new);
        let excess = self.last.len().saturating_sub(Self::KEEP);
        self.last.drain(..excess);
        self.last
            .windows(self.marker.len())
            .any(|window| window == self.marker.as_slice())
    }
}

// ---------------------------------------------------------------------------------------------
// The bare PTY baseline

/// `sh -c SCRIPT` on a pseudo-terminal of its own, straight from portable-pty, with a
/// watchdog that kills it after `DEADLINE` (or the deadline given) so a blocking read cannot
/// hang the bench.
struct BarePty {
    child: Box<dyn PtyChild + Send + Sync>,
    reader: Box<dyn Read + Send>,
    writer: Box<dyn Write + Send>,
    _master: Box<dyn MasterPty + Send>,
    watchdog: Option<mpsc::Sender<()>>,
    fired: mpsc::Receiver<()>,
}

impl BarePty {
    fn spawn(script: &str) -> Result<Self> {
        Self::spawn_for(script, DEADLINE)
    }

    fn spawn_for(script: &str, deadline: Duration) -> Result<Self> {
        let pair = native_pty_system().openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })?;
        let mut command = CommandBuilder::new("/bin/sh");
        command.args(["-c", script]);
        let child = pair.slave.spawn_command(command)?;
        // Without this the master never sees EOF.
        drop(pair.slave);
        let reader = pair.master.try_clone_reader()?;
        let writer = pair.master.take_writer()?;
        let mut killer = child.clone_killer();
        let (done, wait) = mpsc::channel::<()>();
        let (fire, fired) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(deadline) {
                let _ = killer.kill();
                let _ = fire.send(());
            }
        });
        Ok(Self {
            child,
            reader,
            writer,
            _master: pair.master,
            watchdog: Some(done),
            fired,
        })
    }

    /// One read; EOF is an error (the child was expected to still be talking).
    fn read<'b>(&mut self, buf: &'b mut [u8]) -> Result<&'b [u8]> {
        loop {
            match self.reader.read(buf) {
                Ok(0) => bail!("the bare PTY closed (or the watchdog fired)"),
                Ok(n) => return Ok(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    }

    fn timed_out(&self) -> bool {
        self.fired.try_recv().is_ok()
    }

    /// Kills the child if it still runs, reaps it and stops the watchdog.
    fn finish(&mut self) -> Result<()> {
        if self.child.try_wait()?.is_none() {
            let _ = self.child.kill();
        }
        self.child.wait()?;
        self.watchdog.take();
        Ok(())
    }
}

impl Drop for BarePty {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The tmux baseline

/// A private tmux server with one 80x24 session, killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn available() -> bool {
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
    fn send_keys(&self, key: u8) -> Result<()> {
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
struct TmuxPane {
    client: BarePty,
    /// Declared after `client`: the server goes last.
    tmux: Tmux,
    text: ScreenText,
    buf: Vec<u8>,
}

impl TmuxPane {
    /// A session running `command`, with a client attached; when `ready` is not empty, it is
    /// typed into the pane and the client waited for until it shows READY-2.
    fn start(command: &str, ready: &str) -> Result<Self> {
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
    fn type_keys(&mut self, keys: &[u8]) -> Result<()> {
        self.client.writer.write_all(keys)?;
        self.client.writer.flush()?;
        Ok(())
    }

    /// Reads the attached client until `marker` has been drawn.
    fn wait_for_text(&mut self, marker: &[u8]) -> Result<()> {
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
    fn throughput_run(&mut self, script: &str, run: usize) -> Result<Duration> {
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
