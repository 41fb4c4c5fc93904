//! Keystroke echo: one printable byte typed into a terminal running `cat` in raw mode, timed
//! until it comes back; through `idea serve` (binary frame out, binary frame back), on a bare
//! PTY (write to the master, read it back), through a WebSocket echo server (the same frames,
//! no PTY: the floor's other half) and through tmux (see the bench's header).

use crate::bare_pty::BarePty;
use crate::client::{Cell, Client};
use crate::floor::{ECHO_CELL, EchoServer};
use crate::server::shell_cell_after;
use crate::stats::micros;
use crate::tail::Tail;
use crate::tmux::TmuxPane;
use crate::{DEADLINE, READ_BUFFER, READY_MARKER};
use anyhow::{Context, Result};
use std::io::Write;
use std::time::{Duration, Instant};

pub(crate) const WARMUP: usize = 30;
pub(crate) const SAMPLES: usize = 300;
/// Pause before each keystroke: a very fast typist (~33 keys/s). Back-to-back probes would
/// measure the output throttle (one batch per 16 ms) rather than a keystroke's echo.
pub(crate) const KEY_GAP: Duration = Duration::from_millis(30);
/// Raw mode so `cat` (not the line discipline) echoes each byte at once.
const ECHO_SCRIPT: &str = "stty raw -echo; echo READY-$((1+1)); exec cat";

/// Round trips in microseconds, each sorted.
#[derive(Debug)]
pub(crate) struct Echo {
    pub(crate) serve: Vec<f64>,
    pub(crate) bare: Vec<f64>,
    /// Through the minimal WebSocket echo server.
    pub(crate) websocket: Vec<f64>,
    /// Typed into an attached client; empty when tmux is not installed.
    pub(crate) tmux: Vec<f64>,
    /// Sent with `tmux send-keys`; empty when tmux is not installed.
    pub(crate) tmux_send_keys: Vec<f64>,
}

pub(crate) async fn measure(tmux: bool) -> Result<Echo> {
    let [bare, websocket, serve] = interleaved().await?;
    let (tmux, tmux_send_keys) = if tmux {
        let typed = tmux_echo(KeyPath::Typed).context("tmux")?;
        let send_keys = tmux_echo(KeyPath::SendKeys).context("tmux send-keys")?;
        (typed, send_keys)
    } else {
        (Vec::new(), Vec::new())
    };
    Ok(Echo {
        serve,
        bare,
        websocket,
        tmux,
        tmux_send_keys,
    })
}

/// The bare PTY, the WebSocket echo and `idea serve`, in rounds of one keystroke each: the
/// served echo is compared with the sum of the other two, so all three must see the same
/// machine load. Returns their samples in that order.
async fn interleaved() -> Result<[Vec<f64>; 3]> {
    let mut bare = BareEcho::start()?;
    let echo_server = EchoServer::start()?;
    let mut echo_client = Client::connect(echo_server.port).await?;
    let echo_cell = Cell::with_id(ECHO_CELL)?;
    let (server, mut client, cell) = shell_cell_after(ECHO_SCRIPT).await?;

    let mut samples: [Vec<f64>; 3] = Default::default();
    for i in 0..WARMUP + SAMPLES {
        let key = probe_byte(i);
        tokio::time::sleep(KEY_GAP).await;
        let bare_echo = bare.echo(key).context("bare PTY")?;
        tokio::time::sleep(KEY_GAP).await;
        let websocket_echo = client_echo(&mut echo_client, &echo_cell, key)
            .await
            .context("WebSocket echo")?;
        tokio::time::sleep(KEY_GAP).await;
        let serve_echo = client_echo(&mut client, &cell, key)
            .await
            .context("idea serve")?;
        if i >= WARMUP {
            for (kind, elapsed) in samples
                .iter_mut()
                .zip([bare_echo, websocket_echo, serve_echo])
            {
                kind.push(micros(elapsed));
            }
        }
    }
    drop(echo_client);
    echo_server.stop()?;
    drop(client);
    server.stop();
    bare.pty.finish()?;
    for kind in &mut samples {
        kind.sort_by(f64::total_cmp);
    }
    Ok(samples)
}

/// One keystroke frame sent, until the frame holding its echo arrived: the one code path for
/// `idea serve` and the echo server.
async fn client_echo(client: &mut Client, cell: &Cell, key: u8) -> Result<Duration> {
    let start = Instant::now();
    client.send_keys(cell, &[key]).await?;
    while !client.output_of(cell).await?.contains(&key) {}
    // When the frame arrived, not after its ack was sent (a browser acks after rendering).
    Ok(client.received.duration_since(start))
}

/// `cat` on a bare PTY, read by the bench itself.
struct BareEcho {
    pty: BarePty,
    buf: Vec<u8>,
}

impl BareEcho {
    fn start() -> Result<Self> {
        // It lives through all the rounds, not just one answer's deadline.
        let rounds = KEY_GAP * 3 * (WARMUP + SAMPLES) as u32;
        let mut pty = BarePty::spawn_for(ECHO_SCRIPT, rounds + DEADLINE)?;
        let mut buf = vec![0; READ_BUFFER];
        let mut tail = Tail::new(READY_MARKER);
        while !tail.feed(pty.read(&mut buf)?) {}
        Ok(Self { pty, buf })
    }

    /// `key` written to the master, until it is read back.
    fn echo(&mut self, key: u8) -> Result<Duration> {
        let start = Instant::now();
        self.pty.writer.write_all(&[key])?;
        self.pty.writer.flush()?;
        while !self.pty.read(&mut self.buf)?.contains(&key) {}
        Ok(start.elapsed())
    }
}

/// How a key reaches the tmux pane.
#[derive(Debug, Clone, Copy)]
enum KeyPath {
    /// Written to the attached client's PTY.
    Typed,
    /// `tmux send-keys -l`, one process per key.
    SendKeys,
}

fn tmux_echo(path: KeyPath) -> Result<Vec<f64>> {
    let mut pane = TmuxPane::start(&format!("sh -c '{ECHO_SCRIPT}'"), "")?;
    let mut samples = Vec::with_capacity(SAMPLES);
    for i in 0..WARMUP + SAMPLES {
        let key = probe_byte(i);
        std::thread::sleep(KEY_GAP);
        let start = Instant::now();
        match path {
            KeyPath::Typed => pane.type_keys(&[key])?,
            KeyPath::SendKeys => pane.tmux.send_keys(key)?,
        }
        pane.wait_for_text(&[key])?;
        let elapsed = start.elapsed();
        if i >= WARMUP {
            samples.push(micros(elapsed));
        }
    }
    samples.sort_by(f64::total_cmp);
    Ok(samples)
}

/// `a`..`z`, round and round: each probe differs from the one before it.
fn probe_byte(i: usize) -> u8 {
    b"abcdefghijklmnopqrstuvwxyz"[i % 26]
}
