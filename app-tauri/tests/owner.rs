//! One owner per project, run for real: a second `idea serve` is refused and names the first;
//! after `kill -9` the next opener takes over the stale socket; `idea agent create` goes
//! through the owner (its WebSocket clients hear of it) and concurrent creates lose nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;
use support::serve::{self, Served, idea};
use support::ws::{self, Ws};
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";
const DEADLINE: Duration = Duration::from_secs(20);

fn serve(project: &Path, user: &Path) -> Served {
    let mut command = serve::command(project, user);
    command.args(["--token", TOKEN]).stderr(Stdio::null());
    serve::start(command, DEADLINE)
}

fn owner_file(project: &Path) -> Value {
    let text = std::fs::read_to_string(project.join(".ideai/.owner.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn create_agent(project: &Path, user: &Path, name: &str) -> Output {
    idea(user)
        .args([
            "agent",
            "create",
            "--name",
            name,
            "--profile",
            "shell",
            "--json",
        ])
        .args(["--project", project.to_str().unwrap()])
        .output()
        .unwrap()
}

fn folders() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    let user = dir.path().join("user");
    std::fs::create_dir_all(&project).unwrap();
    let project = project.canonicalize().unwrap();
    (dir, project, user)
}

#[test]
fn a_second_owner_is_refused_and_names_the_first() {
    let (_dir, project, user) = folders();
    let first = serve(&project, &user);
    let second = idea(&user)
        .args(["serve", project.to_str().unwrap(), "--port", "0"])
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(
        said.contains(&format!("process {}", first.child.id())),
        "{said}"
    );
    assert!(
        said.contains(&format!("http://127.0.0.1:{}/", first.port)),
        "{said}"
    );
    assert!(
        !said.contains(TOKEN),
        "the token is not shown to others: {said}"
    );
    assert!(
        second.stdout.is_empty(),
        "the second never announced itself"
    );
}

#[test]
fn after_kill_9_the_next_opener_takes_over_and_replaces_the_stale_socket() {
    let (_dir, project, user) = folders();
    let mut first = serve(&project, &user);
    let socket = PathBuf::from(owner_file(&project)["socket"].as_str().unwrap());
    assert!(
        std::fs::symlink_metadata(&socket)
            .unwrap()
            .file_type()
            .is_socket()
    );
    first.child.kill().unwrap(); // SIGKILL: nothing is cleaned up
    first.child.wait().unwrap();
    assert!(socket.exists(), "a killed owner leaves its socket behind");

    let second = serve(&project, &user);
    let owner = owner_file(&project);
    assert_eq!(owner["pid"], second.child.id());
    assert_eq!(PathBuf::from(owner["socket"].as_str().unwrap()), socket);
    // The replaced socket answers: a CLI create goes through the new owner.
    let created = create_agent(&project, &user, "Reviewer");
    assert!(created.status.success(), "{created:?}");
}

#[test]
fn with_no_owner_the_cli_works_alone_and_leaves_no_owner_behind() {
    let (_dir, project, user) = folders();
    assert!(
        idea(&user)
            .args(["init", project.to_str().unwrap()])
            .status()
            .unwrap()
            .success()
    );
    let created = create_agent(&project, &user, "Solo");
    assert!(created.status.success(), "{created:?}");
    assert!(!project.join(".ideai/.owner.json").exists());
    // And an owner can start right after.
    let _served = serve(&project, &user);
}

async fn call(ws: &mut Ws, events: &mut Vec<Value>, id: u64, method: &str, params: Value) -> Value {
    let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    ws.send(Message::text(request.to_string())).await.unwrap();
    loop {
        let message = tokio::time::timeout(DEADLINE, ws.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let Message::Text(text) = message else {
            continue;
        };
        let value: Value = serde_json::from_str(text.as_str()).unwrap();
        if value["method"] == "event" {
            events.push(value["params"].clone());
        } else if value["id"] == id {
            assert!(value.get("error").is_none(), "{method}: {value}");
            return value["result"].clone();
        }
    }
}

/// The UI (a WebSocket client) renames a layout over and over while 20 `idea agent create`
/// run at once: every create is acknowledged, every agent is there, the UI heard of each, and
/// the layout keeps its last name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_cli_creates_while_the_ui_renames_lose_nothing() {
    let (_dir, project, user) = folders();
    let served = serve(&project, &user);
    let mut ws = ws::connect(served.port, TOKEN).await;
    let mut events = Vec::new();
    let layouts = call(&mut ws, &mut events, 1, "getLayouts", Value::Null).await;
    let layout = layouts["active"].as_str().unwrap().to_owned();

    let creates: Vec<_> = (0..20)
        .map(|i| {
            let (project, user) = (project.clone(), user.clone());
            std::thread::spawn(move || create_agent(&project, &user, &format!("Agent {i}")))
        })
        .collect();
    let mut id = 2;
    while !creates.iter().all(|c| c.is_finished()) {
        let params = json!({"layoutId": layout, "name": format!("Tab {id}")});
        call(&mut ws, &mut events, id, "renameLayout", params).await;
        id += 1;
    }
    let last = format!("Tab {}", id - 1);
    for create in creates {
        let output = create.join().unwrap();
        assert!(output.status.success(), "{output:?}");
    }

    let agents = call(&mut ws, &mut events, id, "listAgents", Value::Null).await;
    assert_eq!(agents.as_array().unwrap().len(), 20, "{agents}");
    let layouts = call(&mut ws, &mut events, id + 1, "getLayouts", Value::Null).await;
    assert_eq!(layouts["layouts"][0]["name"], last.as_str());
    let heard = events
        .iter()
        .filter(|e| e["type"] == "agentCreated")
        .count();
    assert_eq!(heard, 20, "the open UI hears of every CLI create");
}

/// One line of JSON-RPC to the owner's socket.
async fn send_line(write: &mut (impl tokio::io::AsyncWrite + Unpin), value: &Value) {
    use tokio::io::AsyncWriteExt;
    let mut line = value.to_string();
    line.push('\n');
    write.write_all(line.as_bytes()).await.unwrap();
}

/// The next answer on the owner's socket (events skipped).
async fn next_answer(reader: &mut (impl tokio::io::AsyncBufRead + Unpin)) -> Value {
    serve::next_answer(reader, DEADLINE).await
}

/// A `cli` connection to the owner of `project`, past its hello.
async fn cli_connection(
    project: &Path,
) -> (
    impl tokio::io::AsyncBufRead + Unpin,
    impl tokio::io::AsyncWrite + Unpin,
) {
    use idea_infrastructure::owner::{Hello, connect, read_reply, write_hello};
    let socket = PathBuf::from(owner_file(project)["socket"].as_str().unwrap());
    let (read, mut write) = tokio::io::split(connect(&socket).await.unwrap());
    let mut reader = tokio::io::BufReader::new(read);
    write_hello(&mut write, &Hello::Cli).await.unwrap();
    assert!(read_reply(&mut reader).await.unwrap().ok);
    (reader, write)
}

const GET_LAYOUTS: &str = r#"{"jsonrpc": "2.0", "id": 0, "method": "getLayouts"}"#;

/// The active layout's id, asked on the owner's socket.
async fn active_layout(
    reader: &mut (impl tokio::io::AsyncBufRead + Unpin),
    write: &mut (impl tokio::io::AsyncWrite + Unpin),
) -> String {
    send_line(write, &serde_json::from_str(GET_LAYOUTS).unwrap()).await;
    next_answer(reader).await["result"]["active"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Writes sent back to back on the owner's socket take effect in the order they were sent:
/// after 30 renames, each acknowledged, the layout has the 30th name, round after round.
#[tokio::test]
async fn pipelined_renames_on_the_owners_socket_keep_the_last() {
    let (_dir, project, user) = folders();
    let _served = serve(&project, &user);
    let (mut reader, mut write) = cli_connection(&project).await;
    let layout = active_layout(&mut reader, &mut write).await;
    for round in 0..100 {
        for i in 0..30 {
            let params = json!({"layoutId": layout, "name": format!("Round {round} name {i}")});
            let id = 1000 * (round + 1) + i;
            let rename =
                json!({"jsonrpc": "2.0", "id": id, "method": "renameLayout", "params": params});
            send_line(&mut write, &rename).await;
        }
        for _ in 0..30 {
            let answer = next_answer(&mut reader).await;
            assert!(answer.get("error").is_none(), "{answer}");
        }
        send_line(&mut write, &serde_json::from_str(GET_LAYOUTS).unwrap()).await;
        let layouts = next_answer(&mut reader).await;
        assert_eq!(
            layouts["result"]["layouts"][0]["name"],
            format!("Round {round} name 29"),
            "round {round}"
        );
    }
}

/// A profile whose asks take 30 s (its turn is a shell that sleeps), longer than [`DEADLINE`].
const LINGERING: &str = r#"{"version": 1, "profiles": [
  {"id": "lingering", "name": "Lingering", "command": "/bin/sh", "contextInjection": {"kind": "none"},
   "structured": {"provider": "claude", "args": ["-c", "sleep 30; :", "sh", "{prompt}"],
     "resumeArgs": ["-c", "sleep 30; :", "sh", "{prompt}", "{id}"]}}
]}"#;

/// An ask holds its client's order only until it is queued: on the owner's socket, the
/// client's next write and read are answered while the asked agent is still at work.
#[tokio::test]
async fn an_ask_on_the_owners_socket_holds_up_neither_later_writes_nor_reads() {
    let (_dir, project, user) = folders();
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(user.join("profiles.json"), LINGERING).unwrap();
    let _served = serve(&project, &user);
    let created = idea(&user)
        .args([
            "agent",
            "create",
            "--name",
            "Slow",
            "--profile",
            "lingering",
        ])
        .args(["--project", project.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(created.status.success(), "{created:?}");
    let (mut reader, mut write) = cli_connection(&project).await;
    let layout = active_layout(&mut reader, &mut write).await;

    let request_id = "6f9619ff-8b86-4011-b42d-00c04fc964ff";
    let ask = json!({"target": "Slow", "message": "take your time", "requestId": request_id});
    let rename = json!({"layoutId": layout, "name": "Renamed while asking"});
    for (id, method, params) in [(1, "askAgent", ask), (2, "renameLayout", rename)] {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        send_line(&mut write, &call).await;
    }
    let renamed = next_answer(&mut reader).await;
    assert_eq!(renamed, json!({"jsonrpc": "2.0", "id": 2, "result": null}));
    // A read runs beside the writes: it sees the rename once the rename has answered.
    let read = json!({"jsonrpc": "2.0", "id": 3, "method": "getLayouts"});
    send_line(&mut write, &read).await;
    let layouts = next_answer(&mut reader).await;
    assert_eq!(layouts["id"], 3, "{layouts}");
    assert_eq!(
        layouts["result"]["layouts"][0]["name"],
        "Renamed while asking"
    );

    let cancel = json!({"jsonrpc": "2.0", "id": 4, "method": "cancelRequest",
        "params": {"requestId": request_id}});
    send_line(&mut write, &cancel).await;
    let mut last = [
        next_answer(&mut reader).await,
        next_answer(&mut reader).await,
    ];
    last.sort_by_key(|answer| answer["id"].as_u64());
    assert_eq!(last[0]["error"]["data"]["code"], "CANCELLED", "{}", last[0]);
    assert_eq!(last[1], json!({"jsonrpc": "2.0", "id": 4, "result": null}));
}
