//! Requests of one WebSocket, run for real: a slow call does not hold up the next ones, and a
//! shell opened while its cell is being closed never survives in no cell.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use futures_util::SinkExt;
use serde_json::{Value, json};
use std::process::{Command, Stdio};
use std::time::Duration;
use support::serve::{self, Served};
use support::ws::{self, Ws};
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";
const DEADLINE: Duration = Duration::from_secs(20);

fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    std::fs::create_dir_all(&project).unwrap();
    let mut command = serve::command(&project, &dir.path().join("user"));
    command.args(["--token", TOKEN]).stderr(Stdio::null());
    serve::start(command, DEADLINE).keeping(dir)
}

async fn connect(port: u16) -> Ws {
    ws::connect(port, TOKEN).await
}

async fn send(ws: &mut Ws, id: u64, method: &str, params: Value) {
    ws::send(ws, id, method, params).await;
}

/// The next answer (events and terminal bytes are skipped).
async fn answer(ws: &mut Ws) -> Value {
    ws::answer(ws, DEADLINE).await
}

async fn call(ws: &mut Ws, id: u64, method: &str, params: Value) -> Value {
    ws::call(ws, DEADLINE, id, method, params).await
}

/// Opens a shell in the active layout's first cell (calls 1 and 2); returns its session id.
async fn open_shell_in_first_cell(ws: &mut Ws) -> String {
    let layouts = call(ws, 1, "getLayouts", Value::Null).await;
    let layout = layouts["active"].as_str().unwrap().to_owned();
    let node = layouts["layouts"][0]["tree"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let cell = json!({"layoutId": layout, "nodeId": node, "rows": 24, "cols": 80});
    let shell = call(ws, 2, "openShell", cell).await;
    shell["sessionId"].as_str().unwrap().to_owned()
}

/// Regression: a `restartSession` whose process ignores SIGHUP and SIGTERM takes the whole
/// stop escalation (~3 s); a request sent after it on the same connection used to wait for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_restart_does_not_hold_up_the_next_request() {
    let served = serve();
    let mut ws = connect(served.port).await;
    let session = open_shell_in_first_cell(&mut ws).await;
    let stubborn = "trap '' HUP TERM; echo stub''born\n";
    let params = json!({"sessionId": session, "data": stubborn});
    call(&mut ws, 3, "writeTerminal", params).await;
    // Give the shell a moment to run the trap before the restart kills it.
    tokio::time::sleep(Duration::from_millis(500)).await;

    let size = json!({"sessionId": session, "rows": 24, "cols": 80});
    send(&mut ws, 4, "restartSession", size).await;
    send(&mut ws, 5, "listAgents", Value::Null).await;
    let first = answer(&mut ws).await;
    assert_eq!(first["id"], 5, "listAgents waited for the restart: {first}");
    let second = answer(&mut ws).await;
    assert_eq!(second["id"], 4, "{second}");
    assert!(second.get("error").is_none(), "{second}");
}

/// Regression: `openShell` racing `closeCell` from two connections left shells running in no
/// cell, seen by no UI. Now the cell check and the registration happen under one lock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_racing_close_leaves_no_shell_without_a_cell() {
    let served = serve();
    let mut opener = connect(served.port).await;
    let mut closer = connect(served.port).await;
    let layouts = call(&mut opener, 1, "getLayouts", Value::Null).await;
    let layout = layouts["active"].as_str().unwrap().to_owned();
    let root = layouts["layouts"][0]["tree"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut id = 10;
    for _ in 0..60 {
        id += 2;
        let split = json!({"layoutId": layout, "nodeId": root, "direction": "horizontal"});
        let cell = call(&mut opener, id, "splitCell", split).await;
        let open = json!({"layoutId": layout, "nodeId": cell, "rows": 24, "cols": 80});
        let close = json!({"layoutId": layout, "nodeId": cell});
        let (_, _) = tokio::join!(
            async {
                send(&mut opener, id, "openShell", open).await;
                answer(&mut opener).await
            },
            async {
                send(&mut closer, id + 1, "closeCell", close).await;
                answer(&mut closer).await
            }
        );
    }
    // Let the killed shells report their exits.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let sessions = call(&mut opener, 1000, "listSessions", Value::Null).await;
    let astray: Vec<_> = sessions
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == "running")
        .collect();
    assert!(astray.is_empty(), "shells still running: {astray:?}");
}

#[cfg(target_os = "linux")]
fn sleeping(seconds: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|cmdline| *cmdline == format!("sleep\0{seconds}\0").into_bytes())
        .count()
}

/// Regression: SIGTERM to `idea serve` left a shell's `setsid`/`nohup`/`trap '' HUP` jobs
/// running after it exited.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_to_the_server_ends_every_job_its_shells_started() {
    let mut served = serve();
    let mut ws = connect(served.port).await;
    let session = open_shell_in_first_cell(&mut ws).await;
    let tag = std::process::id() % 1000 + 5000;
    let secs = [tag, tag + 1000, tag + 2000].map(|s| (s + 100_000).to_string());
    let jobs = format!(
        "setsid sleep {} & nohup sleep {} >/dev/null 2>&1 & (trap '' HUP; exec sleep {}) &\n",
        secs[0], secs[1], secs[2]
    );
    call(
        &mut ws,
        3,
        "writeTerminal",
        json!({"sessionId": session, "data": jobs}),
    )
    .await;
    let deadline = std::time::Instant::now() + DEADLINE;
    while !secs.iter().all(|s| sleeping(s) == 1) {
        assert!(
            std::time::Instant::now() < deadline,
            "the jobs never started"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let pid = served.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = served.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    for s in &secs {
        assert_eq!(sleeping(s), 0, "`sleep {s}` outlived the server");
    }
}

/// The server's resident memory, in MiB.
fn rss_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kib / 1024
}

/// Regression: 2,000 `attachTerminal` calls on a session with a full scrollback, from a
/// client that reads nothing, grew the server to 2.4 GB; 1 MiB keystroke frames to a shell that
/// reads nothing added 1.5 GB. Now the client is cut off and the input queue is bounded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_reads_nothing_cannot_grow_the_server() {
    let served = serve();
    let pid = served.child.id();
    let mut ws = connect(served.port).await;
    let session = open_shell_in_first_cell(&mut ws).await;
    // 3 MB of output fills the scrollback (10 000 lines); then the shell stops reading its input.
    let fill = "head -c 3000000 /dev/zero | tr '\\\\0' a; sleep 600\n";
    call(
        &mut ws,
        3,
        "writeTerminal",
        json!({"sessionId": session, "data": fill}),
    )
    .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let baseline = rss_mib(pid);

    let mut hostile = connect(served.port).await;
    let attach = json!({"jsonrpc": "2.0", "id": 1, "method": "attachTerminal",
        "params": {"sessionId": session}})
    .to_string();
    for _ in 0..2000 {
        if hostile.send(Message::text(attach.clone())).await.is_err() {
            break; // cut off
        }
    }
    let uuid = uuid::Uuid::parse_str(&session).unwrap();
    let mut keys = uuid.as_bytes().to_vec();
    keys.extend(std::iter::repeat_n(b'x', 1 << 20));
    for _ in 0..200 {
        if ws.send(Message::binary(keys.clone())).await.is_err() {
            break;
        }
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let peak = rss_mib(pid);
    assert!(
        peak < baseline + 300,
        "the server grew from {baseline} MiB to {peak} MiB"
    );
    // The server still serves the well-behaved client.
    let mut fresh = connect(served.port).await;
    call(&mut fresh, 9, "listSessions", Value::Null).await;
}
