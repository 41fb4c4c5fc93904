//! The echo's physical floor: what a keystroke's echo would cost with a server that did no
//! work of its own.
//!
//! A served echo is two round trips in series: the WebSocket one (client → server's worker,
//! server → client) around the PTY one (write to the master → `cat` → read back). Each wakes
//! two threads, together the same four a served echo wakes, through the same system calls.
//! So the floor is the bare PTY echo plus the echo of a WebSocket server that only echoes
//! (`EchoServer`): the same client code, the same frames (16-byte id and the key, the ack
//! after), the same socket options as `idea serve` (no Nagle, a 4 KiB read buffer). What the
//! served echo takes beyond it is IdeA's.
//!
//! The two are measured separately, so there are no per-keystroke sums: they are combined at
//! each percentile, p50 of the floor = p50 bare + p50 WebSocket. That is exact when both are
//! slow at the same moments (on a shared VM mostly a busy vCPU, which slows both). For
//! independent, right-skewed latencies it errs low at p50: a strict floor where the goal is
//! set. At p99 it can err either way: high for light tails, low for heavy ones (a few stalls
//! in each half, as on a busy machine, and a served echo meets the stalls of both). So the
//! report also prints the percentiles of every bare + WebSocket pair's sum, the floor if the
//! two were independent, to show how much that choice weighs.
//!
//! The echo server is a thread of the bench, not a process of its own: its wake-ups skip an
//! address-space switch, which can only make the floor lower.

use crate::stats::percentile;
use anyhow::{Result, anyhow};
use futures_util::{SinkExt, StreamExt};
use std::net::TcpListener;
use std::thread::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// The id of the echo server's one pretend cell: as long as a real session's, so that the
/// keystroke frames and the acks are the size they are with `idea serve`.
pub(crate) const ECHO_CELL: &str = "00000000-0000-4000-8000-000000000000";
/// As `idea serve`'s (`serve/ws.rs`, `READ_BUFFER`).
const SERVER_READ_BUFFER: usize = 4 * 1024;

/// The floor at percentile `p` of the sorted bare PTY and WebSocket echoes.
pub(crate) fn floor(bare: &[f64], websocket: &[f64], p: f64) -> f64 {
    percentile(bare, p) + percentile(websocket, p)
}

/// Percentile `p` of every bare + WebSocket pair's sum: the floor's distribution if the two
/// were independent.
pub(crate) fn independent_floor(bare: &[f64], websocket: &[f64], p: f64) -> f64 {
    let mut sums: Vec<f64> = bare
        .iter()
        .flat_map(|b| websocket.iter().map(move |w| b + w))
        .collect();
    sums.sort_by(f64::total_cmp);
    percentile(&sums, p)
}

/// A WebSocket server on 127.0.0.1 that sends every binary frame back as it is and drops
/// text frames (the acks), for one connection, on a thread and a single-threaded runtime of
/// its own (as `idea serve` runs one async worker).
pub(crate) struct EchoServer {
    pub(crate) port: u16,
    thread: JoinHandle<Result<()>>,
}

impl EchoServer {
    pub(crate) fn start() -> Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        listener.set_nonblocking(true)?;
        let thread = std::thread::Builder::new()
            .name("ws-echo".to_owned())
            .spawn(move || serve_one(listener))?;
        Ok(Self { port, thread })
    }

    /// Waits for the server's thread, which ends once its client has closed the connection.
    pub(crate) fn stop(self) -> Result<()> {
        self.thread
            .join()
            .map_err(|_| anyhow!("the WebSocket echo server panicked"))?
    }
}

fn serve_one(listener: TcpListener) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let (tcp, _) = listener.accept().await?;
        tcp.set_nodelay(true)?;
        let config = WebSocketConfig::default().read_buffer_size(SERVER_READ_BUFFER);
        let mut ws = tokio_tungstenite::accept_async_with_config(tcp, Some(config)).await?;
        // An error is the client going away without a closing handshake: the end, as `None`.
        while let Some(Ok(message)) = ws.next().await {
            if let Message::Binary(frame) = message {
                ws.send(Message::Binary(frame)).await?;
            }
        }
        Ok(())
    })
}
