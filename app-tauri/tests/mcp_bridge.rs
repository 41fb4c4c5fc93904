//! `idea mcp-server` and the owner's MCP side, seen from outside: a client that writes
//! malformed JSON-RPC gets errors and the owner goes on; the bridge fails fast with no owner
//! and ends cleanly at the end of its stdin.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/owner_rig.rs"]
mod rig;
mod support;

use idea_infrastructure::owner::Hello;
use rig::Rig;
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// MCP's first bytes may arrive in the same packet as the hello line: they must not be lost.
/// Unparsable lines are skipped, JSON that is no JSON-RPC message is answered `-32600`, and the
/// session goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_rpc_on_the_socket_gets_an_error_and_the_server_goes_on() {
    let rig = Rig::new().serve();
    let mut raw = rig
        .raw(&Hello::Mcp {
            agent: "raw".into(),
        })
        .await;
    raw.send("this is not json").await;
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":42}"#).await;
    let answer = raw.answer().await;
    assert_eq!(answer["error"]["code"], -32600, "{answer}");

    let initialize = json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    raw.send(&initialize.to_string()).await;
    let answer = raw.answer().await;
    assert_eq!(answer["id"], 2, "{answer}");
    assert_eq!(answer["result"]["serverInfo"]["name"], "idea", "{answer}");
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"idea_list_agents","arguments":{"bogus":1}}}"#).await;
    raw.send(r#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#)
        .await;
    let mut answers = vec![raw.answer().await, raw.answer().await];
    answers.sort_by_key(|a| a["id"].as_i64());
    assert_eq!(answers[1]["id"], 4, "{answers:?}");
    assert!(answers[1]["result"]["tools"].is_array(), "{answers:?}");

    // The owner is unharmed: a CLI call on a fresh connection still gets its answer.
    let mut cli = rig.raw(&Hello::Cli).await;
    cli.send(r#"{"jsonrpc":"2.0","id":1,"method":"listAgents"}"#)
        .await;
    assert_eq!(cli.answer().await["result"], json!([]));
}

#[test]
fn with_no_owner_the_bridge_fails_fast_with_one_line() {
    let rig = Rig::new();
    let started = Instant::now();
    let out = rig.bridge("Lead").stdin(Stdio::piped()).output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.contains("no IdeA has it open"), "{said}");
    assert!(out.stdout.is_empty());

    // A stale .owner.json (its owner was killed) fails as fast.
    let served = Rig::new().serve();
    let mut rig = served;
    let mut owner = rig.owner.take().unwrap();
    owner.kill().unwrap();
    owner.wait().unwrap();
    let started = Instant::now();
    let out = rig.bridge("Lead").output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn eof_on_stdin_ends_the_bridge_cleanly() {
    let rig = Rig::new().serve();
    let started = Instant::now();
    // stdin is /dev/null: EOF at once.
    let out = rig.bridge("Lead").output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");

    // And after a request: its answer still comes out before the bridge leaves.
    let mut child = rig
        .bridge("Lead")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        format!("{ping}\n").as_bytes(),
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["id"], 1, "{answer}");
}
