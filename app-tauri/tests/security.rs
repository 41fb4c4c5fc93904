//! `idea serve` against an attacker on the same machine: no cookie for other ports to learn,
//! security headers on every answer, the `Host` check (DNS rebinding), the token kept off the
//! command line, and idle connections that neither exhaust descriptors nor stay open.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::serve;
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";
const DEADLINE: Duration = Duration::from_secs(20);

/// A running `idea serve`; killed when dropped.
struct Served {
    server: serve::Served,
    /// The URL it printed.
    url: String,
}

serve::deref_to_served!(Served);

/// `idea serve` on a fresh folder with `args` after the folder, started through `sh` so that
/// `limits` (`ulimit` commands, each ending in `&&`) apply to it.
fn command(dir: &tempfile::TempDir, limits: &str, args: &[&str]) -> Command {
    let project = dir.path().join("proj");
    std::fs::create_dir_all(&project).unwrap();
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{limits} exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_idea"))
        .args(["serve", project.to_str().unwrap(), "--port", "0"])
        .args(args)
        .env("IDEA_USER_DIR", dir.path().join("user"))
        .env("SHELL", "/bin/sh")
        .env_remove("IDEA_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    command
}

fn start(dir: tempfile::TempDir, mut command: Command) -> Served {
    let mut child = command.spawn().unwrap();
    let line = serve::announcement(&mut child, DEADLINE);
    let url = line
        .trim_end()
        .split_once(" at ")
        .map(|(_, url)| url.to_owned())
        .unwrap_or_else(|| panic!("unexpected announcement: {line:?}"));
    let port = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected URL: {url:?}"));
    Served {
        server: serve::Served::new(child, port, line).keeping(dir),
        url,
    }
}

fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let command = command(&dir, "", &["--token", TOKEN]);
    start(dir, command)
}

/// One HTTP response, read whole.
struct Reply {
    status: u16,
    /// The header lines, lower-cased.
    head: String,
    body: String,
}

/// Sends `head` (the request line and headers, without the blank line) and reads the answer.
fn raw(port: u16, head: &str) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    stream
        .write_all(format!("{head}\r\n\r\n").as_bytes())
        .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    Reply {
        status: head.split(' ').nth(1).unwrap().parse().unwrap(),
        head: head.to_ascii_lowercase(),
        body: body.to_owned(),
    }
}

fn get(port: u16, path: &str, headers: &[&str]) -> Reply {
    let mut head = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close");
    for header in headers {
        head.push_str("\r\n");
        head.push_str(header);
    }
    raw(port, &head)
}

/// The headers that keep the page out of frames and other sites' reach.
fn assert_hardened(reply: &Reply, what: &str) {
    for expected in [
        "x-frame-options: deny",
        "referrer-policy: no-referrer",
        "x-content-type-options: nosniff",
    ] {
        assert!(
            reply.head.contains(expected),
            "{what}: no {expected}\n{}",
            reply.head
        );
    }
    let csp = reply
        .head
        .lines()
        .find_map(|line| line.strip_prefix("content-security-policy: "))
        .unwrap_or_else(|| panic!("{what}: no Content-Security-Policy\n{}", reply.head));
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    assert!(csp.contains("default-src 'self'"), "{what}: {csp}");
}

#[test]
fn no_cookie_is_set_and_only_the_static_shell_loads_without_the_token() {
    let served = serve();
    let port = served.port;
    let page = get(port, &format!("/?token={TOKEN}"), &[]);
    assert_eq!(page.status, 200);
    assert!(!page.head.contains("set-cookie"), "{}", page.head);
    // The shell (no secret in it) loads without the token, so a reload works once the
    // address no longer carries it.
    let bare = get(port, "/", &[]);
    assert_eq!(bare.status, 200);
    assert_eq!(bare.body, page.body);
    assert!(!bare.body.contains(TOKEN));
    // The API does not: neither without the token nor with an old cookie.
    assert_eq!(upgrade_status(port, "/ws", ""), 401);
    let cookie = format!("Cookie: idea_token={TOKEN}\r\n");
    assert_eq!(upgrade_status(port, "/ws", &cookie), 401);
    assert_eq!(upgrade_status(port, &format!("/ws?token={TOKEN}"), ""), 101);
}

/// The status of a WebSocket upgrade of `path`, `extra` (whole header lines) added.
fn upgrade_status(port: u16, path: &str, extra: &str) -> u16 {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: Upgrade\r\n\
         Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{extra}\r\n"
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).unwrap();
    line.split(' ').nth(1).unwrap().parse().unwrap()
}

#[test]
fn every_answer_carries_the_security_headers() {
    let served = serve();
    let port = served.port;
    let page = get(port, "/", &[]);
    assert_hardened(&page, "/");
    let asset = page
        .body
        .split('"')
        .find(|part| part.starts_with("./assets/") && part.ends_with(".js"))
        .map(|part| part.trim_start_matches('.').to_owned());
    if let Some(asset) = asset {
        let script = get(port, &asset, &[]);
        assert_eq!(script.status, 200, "{asset}");
        assert_hardened(&script, &asset);
    }
    assert_hardened(&get(port, "/no/such/file.js", &[]), "404");
    assert_hardened(&get(port, "/ws", &[]), "401");
    assert_hardened(&get(port, "/", &["Origin: http://evil.example"]), "403");
}

#[test]
fn a_foreign_host_header_is_refused() {
    let served = serve();
    let port = served.port;
    let with_token = format!("/?token={TOKEN}");
    let ask = |host: &str, path: &str| {
        raw(
            port,
            &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close"),
        )
        .status
    };
    // A rebound name resolves to 127.0.0.1, but the browser still sends its own name.
    assert_eq!(ask(&format!("evil.example:{port}"), &with_token), 403);
    assert_eq!(ask(&format!("evil.example:{port}"), "/"), 403);
    assert_eq!(ask("evil.example", &format!("/ws?token={TOKEN}")), 403);
    assert_eq!(ask(&format!("127.0.0.1:{}", port + 1), "/"), 403);
    assert_eq!(ask(&format!("127.0.0.1:{port}"), "/"), 200);
    assert_eq!(ask(&format!("localhost:{port}"), "/"), 200);
    // No Host at all (HTTP/1.0) is refused too.
    assert_eq!(raw(port, "GET / HTTP/1.0").status, 403);
}

/// The command line the process was started with, as every local user can read it.
fn cmdline(pid: u32) -> String {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap();
    String::from_utf8_lossy(&raw).replace('\0', " ")
}

/// Opens the WebSocket with `token` and makes one call.
async fn list_agents(port: u16, token: &str) -> Value {
    let url = format!("ws://127.0.0.1:{port}/ws?token={token}");
    let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    Rpc { ws, next_id: 1 }.ok("listAgents", json!({})).await
}

#[tokio::test]
async fn the_token_can_come_from_the_environment_unseen_by_ps() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = command(&dir, "", &[]);
    command.env("IDEA_TOKEN", TOKEN);
    let served = start(dir, command);
    assert!(
        served.url.ends_with(&format!("/?token={TOKEN}")),
        "{}",
        served.url
    );
    assert!(!cmdline(served.child.id()).contains(TOKEN));
    assert_eq!(list_agents(served.port, TOKEN).await, json!([]));
}

#[tokio::test]
async fn the_token_can_come_from_a_private_file_unseen_by_ps() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("token");
    std::fs::write(&file, format!("{TOKEN}\n")).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let file = file.to_str().unwrap().to_owned();
    let command = command(&dir, "", &["--token-file", &file]);
    let served = start(dir, command);
    assert!(
        served.url.ends_with(&format!("/?token={TOKEN}")),
        "{}",
        served.url
    );
    assert!(!cmdline(served.child.id()).contains(TOKEN));
    assert_eq!(list_agents(served.port, TOKEN).await, json!([]));
}

#[test]
fn a_token_file_others_can_read_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("token");
    std::fs::write(&file, TOKEN).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let output = command(&dir, "", &["--token-file", file.to_str().unwrap()])
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("chmod 600"), "{said}");
    assert!(!said.contains(TOKEN), "{said}");
}

/// Lets this test process hold the connections it opens.
fn raise_own_descriptor_limit() {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (_, hard) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
    setrlimit(Resource::RLIMIT_NOFILE, hard, hard).unwrap();
}

#[test]
fn the_soft_descriptor_limit_is_raised_to_the_hard_one() {
    let dir = tempfile::tempdir().unwrap();
    let command = command(&dir, "ulimit -Sn 256 &&", &["--token", TOKEN]);
    let served = start(dir, command);
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", served.child.id())).unwrap();
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))
        .unwrap();
    let numbers: Vec<&str> = line.split_whitespace().skip(3).take(2).collect();
    assert_eq!(numbers[0], numbers[1], "{line}");
}

/// A JSON-RPC client that skips events and terminal bytes.
struct Rpc {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    next_id: u64,
}

impl Rpc {
    async fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.ws
            .send(Message::text(request.to_string()))
            .await
            .unwrap();
        loop {
            let message = tokio::time::timeout(DEADLINE, self.ws.next())
                .await
                .expect("no answer within the deadline")
                .expect("the socket closed")
                .unwrap();
            if let Message::Text(text) = message {
                let answer: Value = serde_json::from_str(text.as_str()).unwrap();
                if answer["id"] == id {
                    return answer;
                }
            }
        }
    }

    async fn ok(&mut self, method: &str, params: Value) -> Value {
        let answer = self.call(method, params).await;
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// The active layout and its first cell.
    async fn first_cell(&mut self) -> (String, String) {
        let layouts = self.ok("getLayouts", json!({})).await;
        let active = layouts["active"].as_str().unwrap().to_owned();
        let layout = layouts["layouts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["id"] == active.as_str())
            .unwrap()
            .clone();
        let mut tree = &layout["tree"];
        while tree["type"] != "leaf" {
            tree = &tree["children"][0];
        }
        (active, tree["id"].as_str().unwrap().to_owned())
    }
}

/// Whether the server has closed `stream` (end of file or reset); it never sent anything.
fn closed(stream: &mut TcpStream) -> bool {
    let mut byte = [0u8; 1];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != ErrorKind::WouldBlock,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn idle_connections_neither_exhaust_descriptors_nor_stay_open() {
    raise_own_descriptor_limit();
    let dir = tempfile::tempdir().unwrap();
    // The limit most desktops start a program with.
    let command = command(&dir, "ulimit -n 1024 &&", &["--token", TOKEN]);
    let served = start(dir, command);
    let port = served.port;
    let url = format!("ws://127.0.0.1:{port}/ws?token={TOKEN}");
    let (ws, _) = tokio_tungstenite::connect_async(url.clone()).await.unwrap();
    let mut ui = Rpc { ws, next_id: 1 };
    let (layout, cell) = ui.first_cell().await;

    // Connections that never send a request, as anyone on the machine may open.
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut idle: Vec<TcpStream> = (0..1100)
        .filter_map(|_| TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok())
        .collect();
    assert!(idle.len() > 1000, "only {} connections opened", idle.len());
    let flooded = Instant::now();
    tokio::time::sleep(Duration::from_millis(500)).await;

    // The connected UI still opens a shell…
    let opened = ui
        .call(
            "openShell",
            json!({"layoutId": layout, "nodeId": cell, "rows": 24, "cols": 80}),
        )
        .await;
    assert!(opened.get("error").is_none(), "openShell: {opened}");
    // …and a new page still gets in.
    let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let mut second = Rpc { ws, next_id: 1 };
    second.ok("listSessions", json!({})).await;

    // The idle connections are closed once the request head is overdue.
    for stream in &idle {
        stream.set_nonblocking(true).unwrap();
    }
    let deadline = flooded + Duration::from_secs(10);
    loop {
        idle.retain_mut(|stream| !closed(stream));
        if idle.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{} idle connections still open after 10 s",
            idle.len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // The authenticated connections are not idle ones.
    ui.ok("listSessions", json!({})).await;
    second.ok("listSessions", json!({})).await;
}
