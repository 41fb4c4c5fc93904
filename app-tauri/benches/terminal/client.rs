//! The WebSocket client: what the browser does, minus the rendering.

use crate::server::TOKEN;
use crate::tail::Tail;
use crate::{COLS, DEADLINE, ROWS};
use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Instant;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The WebSocket client's read buffer (see `Client::connect`).
const CLIENT_READ_BUFFER: usize = 16 * 1024;

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A session as the client sees it.
#[derive(Debug)]
pub(crate) struct Cell {
    /// The session id as text (JSON-RPC) ...
    id: String,
    /// ... and as the 16 bytes heading its binary frames.
    uuid: [u8; 16],
    pub(crate) pid: Option<u32>,
}

impl Cell {
    /// A cell known by its id alone (no process behind it), for a server that only echoes.
    pub(crate) fn with_id(id: &str) -> Result<Self> {
        Ok(Self {
            uuid: uuid_bytes(id)?,
            id: id.to_owned(),
            pid: None,
        })
    }
}

/// A minimal `idea serve` client: JSON-RPC calls, keystrokes out, output in (acked).
pub(crate) struct Client {
    ws: Ws,
    next_id: u64,
    /// When the last frame returned by `output_of` arrived (before its ack was sent).
    pub(crate) received: Instant,
}

impl Client {
    pub(crate) async fn connect(port: u16) -> Result<Self> {
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
    pub(crate) async fn ok(&mut self, method: &str, params: Value) -> Result<Value> {
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
    pub(crate) async fn leaves(&mut self) -> Result<(String, Vec<String>)> {
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

    pub(crate) async fn open_shell(&mut self, layout: &str, node: &str) -> Result<Cell> {
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

    pub(crate) async fn attach(&mut self, cell: &Cell) -> Result<()> {
        self.ok("attachTerminal", json!({"sessionId": cell.id}))
            .await?;
        Ok(())
    }

    /// Types `keys` into the cell: one binary frame, as the browser sends it.
    pub(crate) async fn send_keys(&mut self, cell: &Cell, keys: &[u8]) -> Result<()> {
        let mut frame = Vec::with_capacity(16 + keys.len());
        frame.extend_from_slice(&cell.uuid);
        frame.extend_from_slice(keys);
        self.ws.send(Message::binary(frame)).await?;
        Ok(())
    }

    /// The payload of the next binary frame for `cell`, acked at once (as xterm.js acks each
    /// write it has processed), so flow control never holds the PTY back.
    pub(crate) async fn output_of(&mut self, cell: &Cell) -> Result<Vec<u8>> {
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
    pub(crate) async fn wait_for(&mut self, cell: &Cell, marker: &[u8]) -> Result<()> {
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
