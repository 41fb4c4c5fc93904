//! `idea serve`, run for real: the token and Origin guards over raw HTTP, JSON-RPC over the
//! WebSocket, a shell cell streamed both ways, and a clean SIGTERM.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use support::serve;
use tokio::net::TcpStream as AsyncTcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const TOKEN: &str = "0123456789abcdef0123456789abcdef";
const DEADLINE: Duration = Duration::from_secs(10);

/// A running `idea serve` on a fresh folder; killed when dropped.
struct Served {
    server: serve::Served,
    project: PathBuf,
    _dir: tempfile::TempDir,
}

serve::deref_to_served!(Served);

fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    let user = dir.path().join("user");
    std::fs::create_dir_all(&project).unwrap();
    let mut command = serve::command(&project, &user);
    command.args(["--token", TOKEN]).stderr(Stdio::inherit());
    let mut child = command.spawn().unwrap();
    let line = serve::announcement(&mut child, Duration::from_secs(30));
    let project = project.canonicalize().unwrap();
    let prefix = format!("IdeA serving {} at http://127.0.0.1:", project.display());
    let rest = line
        .trim_end()
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("unexpected announcement: {line:?}"));
    let (port, query) = rest.split_once('/').unwrap();
    assert_eq!(query, format!("?token={TOKEN}"));
    let port = port.parse().unwrap();
    Served {
        server: serve::Served::new(child, port, line),
        project,
        _dir: dir,
    }
}

impl Served {
    /// Sends SIGTERM and waits for the exit.
    fn terminate(&mut self) -> ExitStatus {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "idea serve ignored SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// One HTTP response, read whole.
struct Reply {
    status: u16,
    /// The header lines, lower-cased.
    head: String,
    body: String,
}

fn get(port: u16, path: &str, headers: &[(&str, &str)]) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    let mut request =
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    Reply {
        status,
        head: head.to_ascii_lowercase(),
        body: body.to_owned(),
    }
}

#[test]
fn http_needs_a_local_origin_and_the_shell_no_token() {
    let served = serve();
    let port = served.port;

    // The static shell holds no secret: it loads without the token (which only the API
    // checks, see tests/security.rs) and sets no cookie.
    let page = get(port, &format!("/?token={TOKEN}"), &[]);
    assert_eq!(page.status, 200);
    assert!(
        page.head.contains("content-type: text/html"),
        "{}",
        page.head
    );
    assert!(
        page.head.contains("cache-control: no-cache"),
        "{}",
        page.head
    );
    assert!(!page.head.contains("set-cookie"), "{}", page.head);
    assert!(page.body.to_ascii_lowercase().contains("<!doctype html>"));

    let bare = get(port, "/index.html", &[]);
    assert_eq!(bare.status, 200);
    assert_eq!(bare.body, page.body);
    let missing = get(port, "/no/such/file.js", &[]);
    assert_eq!(missing.status, 404);
    assert_eq!(get(port, "/ws", &[]).status, 401);
    assert_eq!(get(port, "/ws?token=wrong", &[]).status, 401);

    let own_origin = format!("http://127.0.0.1:{port}");
    assert_eq!(get(port, "/", &[("Origin", &own_origin)]).status, 200);
    let localhost = format!("http://localhost:{port}");
    assert_eq!(get(port, "/", &[("Origin", &localhost)]).status, 200);
    let evil = get(
        port,
        &format!("/?token={TOKEN}"),
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(evil.status, 403);
    assert!(evil.head.contains("content-type: text/plain"));
}

#[test]
fn the_frontend_is_compressed_and_its_hashed_assets_cached_for_good() {
    let served = serve();
    let port = served.port;
    let page = get(port, "/", &[]);
    assert!(!page.head.contains("content-encoding"), "{}", page.head);
    // The built page names its hashed script; the placeholder of an unbuilt frontend has none.
    let script = page
        .body
        .split('"')
        .filter_map(|part| part.strip_prefix('.'))
        .find(|part| part.starts_with("/assets/") && part.ends_with(".js"));

    let gzip = get(port, "/", &[("Accept-Encoding", "gzip")]);
    assert_eq!(gzip.status, 200);
    assert!(
        gzip.head.contains("content-encoding: gzip"),
        "{}",
        gzip.head
    );
    assert!(gzip.head.contains("vary: accept-encoding"), "{}", gzip.head);
    assert!(
        gzip.head.contains("cache-control: no-cache"),
        "{}",
        gzip.head
    );

    if let Some(script) = script {
        let asset = get(port, script, &[("Accept-Encoding", "br, gzip")]);
        assert_eq!(asset.status, 200);
        assert!(
            asset.head.contains("content-encoding: br"),
            "{}",
            asset.head
        );
        assert!(
            asset
                .head
                .contains("cache-control: public, max-age=31536000, immutable"),
            "{}",
            asset.head
        );
    }
}

type Ws = WebSocketStream<MaybeTlsStream<AsyncTcpStream>>;

async fn connect(
    port: u16,
    token: Option<&str>,
    headers: &[(&str, &str)],
) -> Result<Ws, tungstenite::Error> {
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let mut request = format!("ws://127.0.0.1:{port}/ws{query}")
        .into_client_request()
        .unwrap();
    for (name, value) in headers {
        let name = tungstenite::http::HeaderName::from_bytes(name.as_bytes()).unwrap();
        request.headers_mut().insert(name, value.parse().unwrap());
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(ws, _)| ws)
}

fn refused_with(result: Result<Ws, tungstenite::Error>) -> u16 {
    match result {
        Err(tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(other) => panic!("unexpected error: {other}"),
        Ok(_) => panic!("the WebSocket was accepted"),
    }
}

#[tokio::test]
async fn the_websocket_refuses_a_foreign_origin_and_a_missing_token() {
    let served = serve();
    let port = served.port;
    let evil = connect(port, Some(TOKEN), &[("origin", "http://evil.example")]).await;
    assert_eq!(refused_with(evil), 403);
    assert_eq!(refused_with(connect(port, None, &[]).await), 401);
    assert_eq!(refused_with(connect(port, Some("nope"), &[]).await), 401);
    let own = format!("http://127.0.0.1:{port}");
    assert!(
        connect(port, Some(TOKEN), &[("origin", &own)])
            .await
            .is_ok()
    );
}

/// A JSON-RPC client that keeps the events and terminal bytes it sees on the way.
struct Rpc {
    ws: Ws,
    next_id: u64,
    events: Vec<Value>,
    /// Binary frames: (session uuid, payload).
    output: Vec<([u8; 16], Vec<u8>)>,
}

impl Rpc {
    fn new(ws: Ws) -> Self {
        Self {
            ws,
            next_id: 1,
            events: Vec::new(),
            output: Vec::new(),
        }
    }

    async fn send_text(&mut self, text: String) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    /// The next text frame, filing events and binary frames away.
    async fn next_text(&mut self) -> Value {
        self.next_text_within(DEADLINE).await
    }

    /// As [`Rpc::next_text`], waiting at most `deadline` for each frame.
    async fn next_text_within(&mut self, deadline: Duration) -> Value {
        loop {
            let message = tokio::time::timeout(deadline, self.ws.next())
                .await
                .expect("no answer within the deadline")
                .expect("the socket closed")
                .unwrap();
            match message {
                Message::Text(text) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap();
                    if value["method"] == "event" {
                        self.events.push(value["params"].clone());
                    } else {
                        return value;
                    }
                }
                Message::Binary(bytes) => {
                    let (head, payload) = bytes.split_first_chunk::<16>().unwrap();
                    self.output.push((*head, payload.to_vec()));
                }
                _ => {}
            }
        }
    }

    /// Calls `method` and returns the whole answer (`result` or `error`).
    async fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_text(request.to_string()).await;
        let answer = self.next_text().await;
        assert_eq!(answer["jsonrpc"], "2.0");
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// Calls `method` and returns its `result`, failing on an error.
    async fn ok(&mut self, method: &str, params: Value) -> Value {
        let answer = self.call(method, params).await;
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// Reads binary frames for `session` until their text contains `needle` `times` times.
    async fn output_until(&mut self, session: [u8; 16], needle: &str, times: usize) -> String {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let text: Vec<u8> = self
                .output
                .iter()
                .filter(|(id, _)| *id == session)
                .flat_map(|(_, bytes)| bytes.iter().copied())
                .collect();
            let text = String::from_utf8_lossy(&text).into_owned();
            if text.matches(needle).count() >= times {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{needle:?} never came; got {text:?}"
            );
            let remaining = deadline.saturating_duration_since(Instant::now());
            let Ok(message) = tokio::time::timeout(remaining, self.ws.next()).await else {
                continue;
            };
            match message.expect("the socket closed").unwrap() {
                Message::Binary(bytes) => {
                    let (head, payload) = bytes.split_first_chunk::<16>().unwrap();
                    self.output.push((*head, payload.to_vec()));
                    let sid = uuid_text(head);
                    let ack = json!({"jsonrpc": "2.0", "method": "ackTerminal",
                        "params": {"sessionId": sid, "bytes": payload.len()}});
                    self.send_text(ack.to_string()).await;
                }
                Message::Text(text) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap();
                    assert_eq!(value["method"], "event", "unexpected answer: {value}");
                    self.events.push(value["params"].clone());
                }
                _ => {}
            }
        }
    }
}

impl Rpc {
    /// Reads frames (filing them away) until an event `wanted` accepts has come; returns it.
    async fn event_until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(event) = self.events.iter().find(|e| wanted(e)) {
                return event.clone();
            }
            let remaining = deadline.saturating_duration_since(Instant::now());
            assert!(!remaining.is_zero(), "no such event; got {:?}", self.events);
            let Ok(message) = tokio::time::timeout(remaining, self.ws.next()).await else {
                continue;
            };
            match message.expect("the socket closed").unwrap() {
                Message::Binary(bytes) => {
                    let (head, payload) = bytes.split_first_chunk::<16>().unwrap();
                    self.output.push((*head, payload.to_vec()));
                }
                Message::Text(text) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap();
                    assert_eq!(value["method"], "event", "unexpected answer: {value}");
                    self.events.push(value["params"].clone());
                }
                _ => {}
            }
        }
    }

    /// Types `text` into `session` (a keystroke frame).
    async fn type_text(&mut self, session: [u8; 16], text: &str) {
        let mut frame = session.to_vec();
        frame.extend_from_slice(text.as_bytes());
        self.ws.send(Message::binary(frame)).await.unwrap();
    }
}

fn uuid_text(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

fn uuid_bytes(text: &str) -> [u8; 16] {
    let hex: String = text.chars().filter(|c| *c != '-').collect();
    let mut bytes = [0u8; 16];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
    }
    bytes
}

fn first_leaf(tree: &Value) -> Option<String> {
    if tree["type"] == "leaf" {
        return tree["id"].as_str().map(str::to_owned);
    }
    tree["children"].as_array()?.iter().find_map(first_leaf)
}

/// Opens a shell in the active layout's first cell: the layout's id and the session.
async fn open_shell(rpc: &mut Rpc) -> (String, Value) {
    let layouts = rpc.ok("getLayouts", json!({})).await;
    let active = layouts["active"].as_str().unwrap().to_owned();
    let layout = layouts["layouts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == active.as_str())
        .unwrap();
    let leaf = first_leaf(&layout["tree"]).unwrap();
    let session = rpc
        .ok(
            "openShell",
            json!({"layoutId": active, "nodeId": leaf, "rows": 24, "cols": 80}),
        )
        .await;
    assert_eq!(session["status"], "running", "{session}");
    (active, session)
}

#[tokio::test]
async fn json_rpc_answers_requests_and_errors() {
    let served = serve();
    let ws = connect(served.port, Some(TOKEN), &[]).await.unwrap();
    let mut rpc = Rpc::new(ws);

    let project = rpc.ok("getProject", json!({})).await;
    assert_eq!(project["name"], "proj");
    assert_eq!(rpc.ok("listAgents", json!({})).await, json!([]));
    // `params` may be left out of a request that takes none.
    rpc.send_text(r#"{"jsonrpc":"2.0","id":"no-params","method":"listSessions"}"#.into())
        .await;
    assert_eq!(
        rpc.next_text().await,
        json!({"jsonrpc": "2.0", "id": "no-params", "result": []})
    );

    let unknown = rpc.call("launchRocket", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let bad_params = rpc.call("createLayout", json!({"name": 42})).await;
    assert_eq!(bad_params["error"]["code"], -32602, "{bad_params}");
    let nil = "00000000-0000-0000-0000-000000000000";
    let missing = rpc.call("deleteLayout", json!({"layoutId": nil})).await;
    assert_eq!(missing["error"]["code"], -32000, "{missing}");
    assert_eq!(missing["error"]["data"]["code"], "LAYOUT_NOT_FOUND");
    let no_session = rpc.call("attachTerminal", json!({"sessionId": nil})).await;
    assert_eq!(no_session["error"]["data"]["code"], "SESSION_NOT_FOUND");

    rpc.send_text("{this is not json".into()).await;
    let parse = rpc.next_text().await;
    assert_eq!(parse["id"], Value::Null);
    assert_eq!(parse["error"]["code"], -32700);
    rpc.send_text("[]".into()).await;
    assert_eq!(rpc.next_text().await["error"]["code"], -32600);
    // Garbage binary frames are ignored too.
    rpc.ws.send(Message::binary(vec![1, 2, 3])).await.unwrap();
    rpc.ws.send(Message::binary(vec![0; 20])).await.unwrap();

    // The socket still works, and events reach it.
    let layout = rpc.ok("createLayout", json!({"name": "Review"})).await;
    assert_eq!(layout["name"], "Review");
    assert!(
        rpc.events.iter().any(|e| e["type"] == "layoutsChanged"),
        "{:?}",
        rpc.events
    );
}

#[tokio::test]
async fn a_shell_cell_streams_over_the_websocket_and_survives_sigterm() {
    let mut served = serve();
    let port = served.port;
    let ws = connect(port, Some(TOKEN), &[]).await.unwrap();
    let mut rpc = Rpc::new(ws);

    let (active, session) = open_shell(&mut rpc).await;
    let session_id = session["sessionId"].as_str().unwrap().to_owned();
    // The event is queued before the answer.
    assert!(
        rpc.events
            .iter()
            .any(|e| e["type"] == "sessionStarted"
                && e["session"]["sessionId"] == session_id.as_str()),
        "{:?}",
        rpc.events
    );

    let attached = rpc
        .ok("attachTerminal", json!({"sessionId": session_id}))
        .await;
    assert!(attached["attachment"].as_u64().is_some(), "{attached}");
    let sid = uuid_bytes(&session_id);
    let mut keys = sid.to_vec();
    keys.extend_from_slice(b"echo hello-from-ws\r");
    rpc.ws.send(Message::binary(keys)).await.unwrap();
    // Once echoed by the terminal, once printed by the command.
    rpc.output_until(sid, "hello-from-ws", 2).await;

    // A second page: the replay brings back what was already on screen.
    let origin = format!("http://localhost:{port}");
    let ws2 = connect(port, Some(TOKEN), &[("origin", &origin)])
        .await
        .unwrap();
    let mut second = Rpc::new(ws2);
    second
        .ok("attachTerminal", json!({"sessionId": session_id}))
        .await;
    assert!(second.output.is_empty(), "output came before the answer");
    second.output_until(sid, "hello-from-ws", 2).await;
    assert_eq!(
        second
            .ok("detachTerminal", json!({"sessionId": session_id}))
            .await,
        Value::Null
    );

    // writeTerminal goes to the same PTY.
    rpc.ok(
        "writeTerminal",
        json!({"sessionId": session_id, "data": "echo via-json-$((6*7))\r"}),
    )
    .await;
    rpc.output_until(sid, "via-json-42", 1).await;

    let status = served.terminate();
    assert!(status.success(), "{status:?}");
    let layouts = std::fs::read_to_string(served.project.join(".ideai/layouts.json")).unwrap();
    let layouts: Value = serde_json::from_str(&layouts).unwrap();
    assert_eq!(layouts["active"], active.as_str());
}

/// Issue 17: one `resizeTerminal` to 65535 × 65535 on a live shell was accepted, and `idea
/// serve` grew by gigabytes until it stopped answering. It is invalid params now, naming the
/// bound; the shell and the server go on.
#[tokio::test]
async fn a_resize_past_the_bound_is_refused_and_the_server_keeps_answering() {
    use idea_domain::terminal::TerminalSize;
    let served = serve();
    let mut rpc = Rpc::new(connect(served.port, Some(TOKEN), &[]).await.unwrap());
    let (_, session) = open_shell(&mut rpc).await;
    let session_id = session["sessionId"].as_str().unwrap().to_owned();
    let huge = json!({"sessionId": session_id, "rows": 65535, "cols": 65535});
    let refused = rpc.call("resizeTerminal", huge).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let (min, max) = (TerminalSize::MIN, TerminalSize::MAX);
    let bound = format!(
        "{} to {} rows and {} to {} columns",
        min.rows, max.rows, min.cols, max.cols
    );
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(&bound), "{refused}");

    let largest = json!({"sessionId": session_id, "rows": max.rows, "cols": max.cols});
    rpc.ok("resizeTerminal", largest).await;
    rpc.ok("attachTerminal", json!({"sessionId": session_id}))
        .await;
    rpc.ok(
        "writeTerminal",
        json!({"sessionId": session_id, "data": "echo still-$((6*7))\r"}),
    )
    .await;
    rpc.output_until(uuid_bytes(&session_id), "still-42", 1)
        .await;
    let sessions = rpc.ok("listSessions", json!({})).await;
    assert_eq!(sessions[0]["status"], "running", "{sessions}");
}

/// Issue 18: a phone opening the page resized a desktop's session to 8 columns, and it stayed
/// so after the phone left. The session keeps the leading client's size now: the phone draws
/// it at the desktop's size until its user types, and the desktop gets its size back when the
/// phone leaves. The PTY's size is read by `stty size` in the shell itself.
#[tokio::test]
async fn two_clients_of_different_sizes_share_the_size_of_the_one_typing() {
    let served = serve();
    let port = served.port;
    let mut desktop = Rpc::new(connect(port, Some(TOKEN), &[]).await.unwrap());
    let (_, session) = open_shell(&mut desktop).await;
    let id = session["sessionId"].as_str().unwrap().to_owned();
    let sid = uuid_bytes(&id);
    let desktop_cell = json!({"rows": 40, "cols": 120});
    let attached = desktop
        .ok(
            "attachTerminal",
            json!({"sessionId": id, "size": desktop_cell}),
        )
        .await;
    let desktop_attachment = attached["attachment"].clone();
    assert_eq!(attached["size"], desktop_cell, "{attached}");
    assert_eq!(attached["lead"], desktop_attachment, "{attached}");
    desktop.type_text(sid, "stty size\r").await;
    desktop.output_until(sid, "40 120", 1).await;

    let origin = format!("http://localhost:{port}");
    let mut phone = Rpc::new(
        connect(port, Some(TOKEN), &[("origin", &origin)])
            .await
            .unwrap(),
    );
    let phone_cell = json!({"rows": 30, "cols": 44});
    let attached = phone
        .ok(
            "attachTerminal",
            json!({"sessionId": id, "size": phone_cell}),
        )
        .await;
    let phone_attachment = attached["attachment"].clone();
    assert_eq!(
        attached["size"], desktop_cell,
        "the phone follows: {attached}"
    );
    assert_eq!(attached["lead"], desktop_attachment);
    phone
        .ok(
            "fitTerminal",
            json!({"sessionId": id, "rows": 28, "cols": 44}),
        )
        .await;
    desktop.type_text(sid, "stty size\r").await;
    desktop.output_until(sid, "40 120", 2).await;

    // The phone's user types: its cell gives the size, and the desktop is told.
    phone.type_text(sid, "stty size\r").await;
    phone.output_until(sid, "28 44", 1).await;
    let told = desktop
        .event_until(|e| e["type"] == "terminalResized" && e["lead"] == phone_attachment)
        .await;
    assert_eq!(told["size"], json!({"rows": 28, "cols": 44}), "{told}");

    // The phone leaves: the desktop leads again, at its own size.
    desktop.events.clear();
    phone.ws.close(None).await.unwrap();
    let told = desktop
        .event_until(|e| e["type"] == "terminalResized" && e["lead"] == desktop_attachment)
        .await;
    assert_eq!(told["size"], desktop_cell, "{told}");
    desktop.type_text(sid, "stty size\r").await;
    desktop.output_until(sid, "40 120", 3).await;
}

/// Rounds of [`pipelined_renames_on_one_connection_keep_the_last`]: the race it guards against
/// left an earlier name once in some 3 to 70 rounds.
const RENAME_ROUNDS: usize = 200;

/// Writes sent back to back on one connection take effect in the order they were sent: after
/// 30 renames, each acknowledged, the layout has the 30th name, round after round.
#[tokio::test]
async fn pipelined_renames_on_one_connection_keep_the_last() {
    let served = serve();
    let ws = connect(served.port, Some(TOKEN), &[]).await.unwrap();
    let mut rpc = Rpc::new(ws);
    let layouts = rpc.ok("getLayouts", json!({})).await;
    let layout = layouts["active"].as_str().unwrap().to_owned();
    for round in 0..RENAME_ROUNDS {
        for i in 0..30 {
            let id = 1000 * (round + 1) + i;
            let params = json!({"layoutId": layout, "name": format!("Round {round} name {i}")});
            let request =
                json!({"jsonrpc": "2.0", "id": id, "method": "renameLayout", "params": params});
            rpc.send_text(request.to_string()).await;
        }
        for _ in 0..30 {
            let answer = rpc.next_text().await;
            assert!(answer.get("error").is_none(), "{answer}");
        }
        let layouts = rpc.ok("getLayouts", json!({})).await;
        let name = layouts["layouts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["id"] == layout.as_str())
            .map(|l| l["name"].clone());
        assert_eq!(
            name,
            Some(json!(format!("Round {round} name 29"))),
            "round {round}"
        );
    }
}

/// Attaches [`a_client_is_answered_while_another_floods_attaches`]'s flood sends.
const FLOOD: u64 = 300;

/// One client's attaches do not hold up another client: while a client floods attaches of a
/// session with a long scrollback (each one a replay of it), a second client's calls are
/// answered and take effect. Its `writeTerminal` reaches the flooding client (as live output
/// or in a later replay) before all of the flood's attaches are answered; and the flood is
/// coalesced: every attach is answered, but not every one is replayed.
#[tokio::test]
async fn a_client_is_answered_while_another_floods_attaches() {
    let served = serve();
    let ws = connect(served.port, Some(TOKEN), &[]).await.unwrap();
    let mut owner = Rpc::new(ws);
    let layouts = owner.ok("getLayouts", json!({})).await;
    let active = layouts["active"].as_str().unwrap().to_owned();
    let leaf = first_leaf(&layouts["layouts"][0]["tree"]).unwrap();
    let session = owner
        .ok(
            "openShell",
            json!({"layoutId": active, "nodeId": leaf, "rows": 24, "cols": 100}),
        )
        .await;
    let session_id = session["sessionId"].as_str().unwrap().to_owned();
    let sid = uuid_bytes(&session_id);
    owner
        .ok("attachTerminal", json!({"sessionId": session_id}))
        .await;
    let mut keys = sid.to_vec();
    keys.extend_from_slice(b"seq 1 10000; echo filled-$((6*7))\r");
    owner.ws.send(Message::binary(keys)).await.unwrap();
    owner.output_until(sid, "filled-42", 1).await;

    let ws = connect(served.port, Some(TOKEN), &[]).await.unwrap();
    let mut flood = Rpc::new(ws);
    for id in 1..=FLOOD {
        let params = json!({"sessionId": session_id, "size": {"rows": 24, "cols": 100}});
        let attach =
            json!({"jsonrpc": "2.0", "id": id, "method": "attachTerminal", "params": params});
        flood.send_text(attach.to_string()).await;
    }
    // The flood is under way once its first attach is answered.
    let mut answered = vec![flood_answer(&mut flood).await];

    let ws = connect(served.port, Some(TOKEN), &[]).await.unwrap();
    let mut other = Rpc::new(ws);
    assert_eq!(other.ok("getProject", json!({})).await["name"], "proj");
    let typed = json!({"sessionId": session_id, "data": "echo marker-$((6*7))\r"});
    other.ok("writeTerminal", typed).await;

    let mut seen_before_the_last = false;
    // The output already searched, but for a tail that may hold the start of the marker.
    let (mut searched, mut tail) = (0, Vec::new());
    while answered.len() < usize::try_from(FLOOD).unwrap() {
        answered.push(flood_answer(&mut flood).await);
        for (_, bytes) in &flood.output[searched..] {
            tail.extend_from_slice(bytes);
            seen_before_the_last |= tail.windows(9).any(|w| w == b"marker-42");
            tail.drain(..tail.len().saturating_sub(8));
        }
        searched = flood.output.len();
    }
    assert!(
        seen_before_the_last,
        "the other client's write took effect only once the flood was over"
    );
    let mut ids: Vec<u64> = answered.iter().map(|a| a["id"].as_u64().unwrap()).collect();
    ids.sort_unstable();
    assert_eq!(
        ids,
        (1..=FLOOD).collect::<Vec<_>>(),
        "every attach is answered once"
    );
    let mut attachments: Vec<u64> = answered
        .iter()
        .map(|a| a["result"]["attachment"].as_u64().unwrap())
        .collect();
    attachments.dedup();
    assert!(
        attachments.len() < answered.len(),
        "superseded attaches share the answer of the one served"
    );
}

/// The flooding client's next answer (its output is kept on the way), which must be a success.
async fn flood_answer(flood: &mut Rpc) -> Value {
    // Generous: without coalescing, the whole flood was served before anything else.
    let answer = flood.next_text_within(Duration::from_secs(120)).await;
    assert!(answer.get("error").is_none(), "{answer}");
    answer
}

/// Issue 18 (many agents): a client far behind a flood skips to the terminal's screen. Its
/// attach with `replay: "screen"` draws what the screen shows now and none of the scrollback
/// (a few KiB where the whole replay would carry every line kept), then live output follows.
#[tokio::test]
async fn an_attach_for_the_screen_alone_replays_no_scrollback() {
    let served = serve();
    let port = served.port;
    let mut rpc = Rpc::new(connect(port, Some(TOKEN), &[]).await.unwrap());
    let (_, session) = open_shell(&mut rpc).await;
    let session_id = session["sessionId"].as_str().unwrap().to_owned();
    let sid = uuid_bytes(&session_id);
    rpc.ok("attachTerminal", json!({"sessionId": session_id}))
        .await;
    rpc.type_text(
        sid,
        "i=0; while [ $i -lt 300 ]; do echo old-line-$i; i=$((i+1)); done; echo FLOOD-DONE\r",
    )
    .await;
    rpc.output_until(sid, "FLOOD-DONE", 2).await;

    let origin = format!("http://localhost:{port}");
    let replay_of = |scope: Option<&'static str>| {
        let (session_id, origin) = (session_id.clone(), origin.clone());
        async move {
            let ws = connect(port, Some(TOKEN), &[("origin", &origin)])
                .await
                .unwrap();
            let mut client = Rpc::new(ws);
            let mut params = json!({"sessionId": session_id, "size": {"rows": 24, "cols": 80}});
            if let Some(scope) = scope {
                params["replay"] = json!(scope);
            }
            client.ok("attachTerminal", params).await;
            client.output_until(sid, "FLOOD-DONE", 1).await
        }
    };
    let whole = replay_of(None).await;
    let screen = replay_of(Some("screen")).await;
    assert!(
        whole.contains("old-line-0\r\n"),
        "the whole replay keeps the scrollback"
    );
    assert!(
        !screen.contains("old-line-0\r\n"),
        "scrollback in the screen replay: {screen:?}"
    );
    assert!(
        screen.contains("old-line-299"),
        "the screen's last lines: {screen:?}"
    );
    assert!(
        screen.len() * 4 < whole.len(),
        "{} against {} bytes",
        screen.len(),
        whole.len()
    );

    // An unknown scope is refused by name.
    let bad = rpc
        .call(
            "attachTerminal",
            json!({"sessionId": session_id, "replay": "everything"}),
        )
        .await;
    assert_eq!(bad["error"]["data"]["code"], "INVALID_PARAMS", "{bad}");
}
