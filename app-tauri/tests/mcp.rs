//! IdeA's MCP server, run for real: `idea serve` owns a temp project, an rmcp client spawns
//! `idea mcp-server` (the stdio bridge) and calls the tools through it. The bridge's own exits
//! and a broken client: `mcp_bridge.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/mcp_calls.rs"]
mod mcp_calls;
#[path = "support/owner_rig.rs"]
mod rig;
mod support;

use futures_util::StreamExt;
use mcp_calls::{call, text};
use rig::{DEADLINE, Rig, TOKEN};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use std::time::Duration;

const TOOLS: [&str; 11] = [
    "idea_ask_agent",
    "idea_list_agents",
    "idea_list_profiles",
    "idea_memory_list",
    "idea_memory_read",
    "idea_memory_search",
    "idea_memory_write",
    "idea_read_agent_persona",
    "idea_spawn_agent",
    "idea_worktree_diff",
    "idea_worktree_status",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_are_listed_with_schemas_and_list_agents_shows_the_agent() {
    let rig = Rig::new().serve();
    let planner = rig.create_agent("Planner");
    let client = rig.client("Planner").await;

    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(names, TOOLS);
    for tool in &tools {
        assert!(
            tool.description.as_deref().is_some_and(|d| d.len() > 40),
            "{tool:?}"
        );
        assert_eq!(tool.input_schema["type"], "object", "{tool:?}");
    }
    let ask = tools.iter().find(|t| t.name == "idea_ask_agent").unwrap();
    let schema = Value::Object((*ask.input_schema).clone());
    assert_eq!(schema["required"], json!(["agent", "message"]), "{schema}");
    for field in ["agent", "message", "timeoutSecs"] {
        assert!(
            schema["properties"][field]["description"].is_string(),
            "{field} is described: {schema}"
        );
    }
    let spawn = tools.iter().find(|t| t.name == "idea_spawn_agent").unwrap();
    let schema = Value::Object((*spawn.input_schema).clone());
    assert_eq!(schema["required"], json!(["name", "profile"]), "{schema}");

    let listed = client
        .call_tool(call("idea_list_agents", Value::Null))
        .await
        .unwrap();
    assert_ne!(listed.is_error, Some(true), "{listed:?}");
    let agents = listed.structured_content.clone().unwrap()["agents"].clone();
    assert_eq!(
        agents,
        json!([{
            "name": "Planner", "id": planner["agentId"], "profile": "shell",
            "state": "not started", "cell": null, "you": true,
        }])
    );
    assert!(text(&listed).contains("Planner"), "the model reads it too");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spawn_creates_an_agent_the_ui_hears_of_and_its_persona_reads_back() {
    let rig = Rig::new().serve();
    rig.create_agent("Lead");
    let url = format!("ws://127.0.0.1:{}/ws?token={TOKEN}", rig.port);
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let client = rig.client("Lead").await;

    let persona = "# Reviewer\n\nReview every diff you are sent.\n";
    let spawned = client
        .call_tool(call(
            "idea_spawn_agent",
            json!({"name": "Reviewer", "profile": "shell", "persona": persona}),
        ))
        .await
        .unwrap();
    assert_ne!(spawned.is_error, Some(true), "{spawned:?}");
    assert!(
        text(&spawned).contains("Created agent Reviewer"),
        "{spawned:?}"
    );

    let heard = tokio::time::timeout(DEADLINE, async {
        while let Some(message) = ws.next().await {
            let Ok(text) = message.unwrap().into_text() else {
                continue;
            };
            let value: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
            if value["params"]["type"] == "agentCreated" {
                return value["params"].clone();
            }
        }
        panic!("the WebSocket closed");
    })
    .await
    .expect("the browser heard of the new agent");
    assert_eq!(heard["name"], "Reviewer", "{heard}");

    let read = client
        .call_tool(call(
            "idea_read_agent_persona",
            json!({"agent": "reviewer"}),
        ))
        .await
        .unwrap();
    assert_eq!(text(&read), persona, "found by name, any case");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_agent_or_profile_is_a_readable_tool_error() {
    let rig = Rig::new().serve();
    rig.create_agent("Lead");
    let client = rig.client("Lead").await;

    let read = client
        .call_tool(call("idea_read_agent_persona", json!({"agent": "Nobody"})))
        .await
        .unwrap();
    assert_eq!(read.is_error, Some(true), "{read:?}");
    let said = text(&read);
    assert!(
        said.contains("no agent \"Nobody\"") && said.contains("Lead"),
        "{said}"
    );

    let spawned = client
        .call_tool(call(
            "idea_spawn_agent",
            json!({"name": "X", "profile": "no-such-cli"}),
        ))
        .await
        .unwrap();
    assert_eq!(spawned.is_error, Some(true), "{spawned:?}");
    let said = text(&spawned);
    assert!(
        said.contains("PROFILE_NOT_FOUND") && said.contains("idea_list_profiles"),
        "{said}"
    );

    let asked = client
        .call_tool(call(
            "idea_ask_agent",
            json!({"agent": "Nobody", "message": "hi"}),
        ))
        .await
        .unwrap();
    assert_eq!(asked.is_error, Some(true), "{asked:?}");
    assert_eq!(code(&asked), "AGENT_NOT_FOUND", "{asked:?}");
    client.cancel().await.unwrap();
}

fn code(result: &CallToolResult) -> Value {
    result.structured_content.clone().unwrap_or_default()["code"].clone()
}

/// `idea_ask_agent` end to end, with agents whose CLI is a one-line script (see the rig): the
/// answer, the conversation continued, and the refusals a model must be able to read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ask_agent_answers_and_its_failures_read_well() {
    let rig = Rig::new().serve();
    rig.create_agent("Lead");
    rig.create_agent_with("Echo", "instant");
    rig.create_agent_with("Sloth", "slow");
    let client = rig.client("lead").await;
    let ask = |agent: &str, message: &str, timeout: Option<u64>| {
        let args = json!({"agent": agent, "message": message, "timeoutSecs": timeout});
        client.call_tool(call("idea_ask_agent", args))
    };

    let first = ask("Echo", "ping", None).await.unwrap();
    assert_ne!(first.is_error, Some(true), "{first:?}");
    assert_eq!(text(&first), "echo: ping");
    let structured = first.structured_content.clone().unwrap();
    assert!(structured["requestId"].is_string(), "{structured}");
    let again = ask("echo", "pong", None).await.unwrap();
    assert_eq!(text(&again), "again: pong", "the conversation goes on");

    let shell = ask("Lead", "ping", None).await.unwrap();
    assert_eq!(shell.is_error, Some(true), "{shell:?}");
    assert_eq!(code(&shell), "NOT_ASKABLE", "{shell:?}");
    assert!(text(&shell).contains("cannot be asked"), "{shell:?}");

    let started = std::time::Instant::now();
    let late = ask("Sloth", "ping", Some(1)).await.unwrap();
    assert_eq!(code(&late), "TURN_TIMEOUT", "{late:?}");
    assert!(text(&late).contains("timeoutSecs"), "{late:?}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    client.cancel().await.unwrap();

    // A bridge started for an agent the project does not have cannot ask for it.
    let ghost = rig.client("Ghost").await;
    let args = json!({"agent": "Echo", "message": "ping"});
    let refused = ghost.call_tool(call("idea_ask_agent", args)).await.unwrap();
    assert_eq!(refused.is_error, Some(true), "{refused:?}");
    assert!(text(&refused).contains("\"Ghost\""), "{refused:?}");
    ghost.cancel().await.unwrap();
}

/// Whether a process whose command line holds `marker` is alive.
fn process_with(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        std::fs::read(entry.path().join("cmdline"))
            .is_ok_and(|line| String::from_utf8_lossy(&line).contains(marker))
    })
}

/// The client cancels a slow `idea_ask_agent` (`notifications/cancelled`): the request ends
/// `cancelled` and the asked agent's turn is gone, long before it would have ended.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_ask_cancels_the_request_and_kills_the_turn() {
    use idea_infrastructure::owner::Hello;
    use rmcp::model::{CallToolRequest, ClientRequest};
    use rmcp::service::PeerRequestOptions;

    let rig = Rig::new().serve();
    rig.create_agent("Lead");
    rig.create_agent_with("Sloth", "lingering");
    let client = rig.client("lead").await;
    let marker = format!("cancel-me-{}", uuid::Uuid::new_v4());
    let args = json!({"agent": "Sloth", "message": marker});
    let request =
        ClientRequest::CallToolRequest(CallToolRequest::new(call("idea_ask_agent", args)));
    let handle = client
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    let deadline = std::time::Instant::now() + DEADLINE;
    while !process_with(&marker) {
        assert!(
            std::time::Instant::now() < deadline,
            "the turn never started"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let cancelled_at = std::time::Instant::now();
    handle
        .cancel(Some("the user changed their mind".into()))
        .await
        .unwrap();
    let mut cli = rig.raw(&Hello::Cli).await;
    let state = loop {
        cli.send(r#"{"jsonrpc":"2.0","id":1,"method":"listRequests"}"#)
            .await;
        let answer = cli.answer().await;
        let state = answer["result"][0]["state"].clone();
        if state != "running" && state != "queued" {
            break answer["result"][0].clone();
        }
        assert!(std::time::Instant::now() < deadline, "{answer}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(state["state"], "cancelled", "{state}");
    assert_eq!(state["error"]["code"], "CANCELLED", "{state}");
    while process_with(&marker) {
        assert!(
            cancelled_at.elapsed() < Duration::from_secs(5),
            "the turn outlived its cancel"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    client.cancel().await.unwrap();
}

/// `git -C dir args`, which must succeed.
fn git(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_reads_another_agents_branch() {
    let rig = Rig::new();
    git(&rig.project, &["init", "-q", "-b", "main"]);
    git(&rig.project, &["config", "user.name", "User"]);
    git(&rig.project, &["config", "user.email", "user@example.com"]);
    std::fs::write(rig.project.join("lib.rs"), "fn one() {}\n").unwrap();
    git(&rig.project, &["add", "-A"]);
    git(&rig.project, &["commit", "-q", "-m", "first"]);
    let rig = rig.serve();
    rig.create_agent("Ada");
    rig.create_agent("Reviewer");
    let client = rig.client("Reviewer").await;

    let none = client
        .call_tool(call("idea_worktree_status", Value::Null))
        .await
        .unwrap();
    assert!(
        text(&none).contains("No agent of this project works on its own branch"),
        "{none:?}"
    );

    let created = support::serve::idea(&rig.user)
        .args(["worktree", "create", "Ada", "--json", "--project"])
        .arg(&rig.project)
        .output()
        .unwrap();
    assert!(created.status.success(), "{created:?}");
    let status: Value = serde_json::from_slice(&created.stdout).unwrap();
    let dir = std::path::PathBuf::from(status["path"].as_str().unwrap());
    assert!(dir.starts_with(rig.user.join("data")), "{}", dir.display());
    std::fs::write(dir.join("lib.rs"), "fn one() {}\nfn ada() {}\n").unwrap();

    let listed = client
        .call_tool(call("idea_worktree_status", Value::Null))
        .await
        .unwrap();
    assert_ne!(listed.is_error, Some(true), "{listed:?}");
    let worktrees = listed.structured_content.clone().unwrap()["worktrees"].clone();
    assert_eq!(worktrees[0]["agentName"], "Ada", "{worktrees}");
    assert_eq!(worktrees[0]["changed"][0]["path"], "lib.rs", "{worktrees}");

    let diff = client
        .call_tool(call(
            "idea_worktree_diff",
            json!({"agent": "ada", "path": "lib.rs"}),
        ))
        .await
        .unwrap();
    assert!(text(&diff).contains("+fn ada() {}"), "{diff:?}");
    let files = client
        .call_tool(call("idea_worktree_diff", json!({"agent": "Ada"})))
        .await
        .unwrap();
    assert_eq!(
        files.structured_content.clone().unwrap()["changed"][0]["added"],
        1
    );
    // Not a branch of its own, and a path it did not change: readable refusals.
    let own = client
        .call_tool(call("idea_worktree_diff", json!({"agent": "Reviewer"})))
        .await
        .unwrap();
    assert_eq!(own.is_error, Some(true));
    assert!(text(&own).contains("NO_WORKTREE"), "{own:?}");
    let outside = client
        .call_tool(call(
            "idea_worktree_diff",
            json!({"agent": "Ada", "path": "../secret"}),
        ))
        .await
        .unwrap();
    assert_eq!(outside.is_error, Some(true));
    assert!(text(&outside).contains("INVALID_PARAMS"), "{outside:?}");
    client.cancel().await.unwrap();
}
