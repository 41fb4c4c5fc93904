//! The project's tools and memory over MCP, run for real: `idea serve` owns a temp project, an
//! rmcp client speaks to `idea mcp-server` as an agent would, the tool's program is a real
//! script run under the agent's sandbox, and the permission rules decide.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/mcp_calls.rs"]
mod mcp_calls;
#[path = "support/owner_rig.rs"]
mod rig;
mod support;

use idea_infrastructure::owner::Hello;
use mcp_calls::{call, text};
use rig::{DEADLINE, Rig};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

/// `.ideai/tools/echo_args`: prints each argument on its own line, after touching `ran` in the
/// project (so a test sees whether anything ran); with `--outside PATH` it writes there first.
fn echo_tool(project: &Path) {
    let dir = project.join(".ideai/tools/echo_args");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("TOOL.json"),
        r#"{
  "description": "Prints each of its arguments on a line of its own.",
  "command": {
    "parameters": [
      {"name": "text", "type": "string", "description": "What to print"},
      {"name": "count", "type": "number", "default": "1"},
      {"name": "outside", "type": "string", "default": ""},
    ],
    "run": "./echo.sh {{text}} n={{count}} {{outside}}"
  },
}"#,
    )
    .unwrap();
    let script = dir.join("echo.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\ntouch \"$IDEA_PROJECT/ran\"\ncase \"$3\" in /*) echo x > \"$3\" || { echo 'cannot write' >&2; exit 3; } ;; esac\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn rules(project: &Path, rules: &str) {
    std::fs::write(project.join(".ideai/permissions.json"), rules).unwrap();
}

/// A client that counts `notifications/tools/list_changed`.
#[derive(Clone, Default)]
struct Watcher(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

async fn watching_client(
    rig: &Rig,
    requester: &str,
) -> (RunningService<RoleClient, Watcher>, Watcher) {
    let watcher = Watcher::default();
    (rig.client_with(requester, watcher.clone()).await, watcher)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_project_tool_runs_through_mcp_with_its_arguments_whole_and_inside_the_sandbox() {
    let rig = Rig::new();
    echo_tool(&rig.project);
    rules(
        &rig.project,
        r#"{"permissions": {"allow": ["echo_args"], "deny": ["echo_args(forbidden)"]}}"#,
    );
    let rig = rig.serve();
    rig.create_agent("Ada");
    let (client, watcher) = watching_client(&rig, "Ada").await;

    let tools = client.list_all_tools().await.unwrap();
    let tool = tools
        .iter()
        .find(|t| t.name == "echo_args")
        .expect("listed");
    let schema = Value::Object((*tool.input_schema).clone());
    assert_eq!(schema["required"], json!(["text"]), "{schema}");
    assert_eq!(schema["properties"]["count"]["type"], "number", "{schema}");

    let hostile = "a b; rm -rf / \"q\" $(whoami) `id`";
    let ran = client
        .call_tool(call("echo_args", json!({"text": hostile, "count": 3})))
        .await
        .unwrap();
    assert_ne!(ran.is_error, Some(true), "{ran:?}");
    assert_eq!(text(&ran), format!("[{hostile}]\n[n=3]\n[]\n"), "{ran:?}");

    // Refused before anything runs: a wrong type, a missing parameter, an unknown one.
    std::fs::remove_file(rig.project.join("ran")).unwrap();
    for bad in [
        json!({"text": "x", "count": "many"}),
        json!({"count": 2}),
        json!({"text": "x", "extra": 1}),
    ] {
        let refused = client
            .call_tool(call("echo_args", bad.clone()))
            .await
            .unwrap();
        assert_eq!(refused.is_error, Some(true), "{bad}: {refused:?}");
        assert!(text(&refused).contains("INVALID_TOOL_ARGS"), "{refused:?}");
    }
    let denied = client
        .call_tool(call("echo_args", json!({"text": "forbidden"})))
        .await
        .unwrap();
    assert!(text(&denied).contains("TOOL_DENIED"), "{denied:?}");
    assert!(!rig.project.join("ran").exists(), "a refused call ran");

    // Under the agent's sandbox (the rules exist): nothing outside the project is writable.
    if idea_infrastructure::sandbox::kernel_abi()
        .is_some_and(|abi| abi >= idea_infrastructure::sandbox::required_abi())
    {
        let outside = rig.project.parent().unwrap().join("outside.txt");
        let escaped = client
            .call_tool(call(
                "echo_args",
                json!({"text": "x", "outside": outside.to_str().unwrap()}),
            ))
            .await
            .unwrap();
        assert_eq!(escaped.is_error, Some(true), "{escaped:?}");
        assert!(text(&escaped).contains("cannot write"), "{escaped:?}");
        assert!(!outside.exists(), "the tool wrote outside its sandbox");
    } else {
        eprintln!("skipped the sandbox part: this kernel has no Landlock ABI 6");
    }

    // A tool added on disk is announced, and listed.
    let dir = rig.project.join(".ideai/tools/later");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("TOOL.json"),
        r#"{"description": "Added later", "command": {"run": "true"}}"#,
    )
    .unwrap();
    let deadline = Instant::now() + DEADLINE;
    while watcher.0.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "no tools/list_changed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "later"), "{tools:?}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ask_rule_waits_for_the_user_who_allows_once_or_denies() {
    let rig = Rig::new();
    echo_tool(&rig.project);
    rules(&rig.project, r#"{"permissions": {"ask": ["echo_args"]}}"#);
    let rig = rig.serve();
    rig.create_agent("Ada");
    let client = std::sync::Arc::new(rig.client("Ada").await);
    let mut cli = rig.raw(&Hello::Cli).await;

    for allow in [true, false] {
        let calling = std::sync::Arc::clone(&client);
        let pending = tokio::spawn(async move {
            calling
                .call_tool(call("echo_args", json!({"text": "hello"})))
                .await
                .unwrap()
        });
        let deadline = Instant::now() + DEADLINE;
        let approval = loop {
            cli.send(r#"{"jsonrpc":"2.0","id":1,"method":"listTools"}"#)
                .await;
            let answer = cli.answer().await;
            if let Some(first) = answer["result"]["pending"].get(0) {
                break first.clone();
            }
            assert!(Instant::now() < deadline, "no call waits: {answer}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(approval["tool"], "echo_args");
        assert_eq!(approval["agentName"], "Ada");
        assert_eq!(approval["arguments"]["text"], "hello");
        assert!(!pending.is_finished(), "the call did not wait");
        let answer = json!({"jsonrpc": "2.0", "id": 2, "method": "answerToolApproval",
            "params": {"approvalId": approval["approvalId"], "allow": allow}});
        cli.send(&answer.to_string()).await;
        assert!(cli.answer().await.get("error").is_none());
        let result = tokio::time::timeout(DEADLINE, pending)
            .await
            .unwrap()
            .unwrap();
        if allow {
            assert_eq!(text(&result), "[hello]\n[n=1]\n[]\n", "{result:?}");
        } else {
            assert!(text(&result).contains("TOOL_DENIED"), "{result:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_keep_the_projects_memory_and_the_writer_is_recorded() {
    let rig = Rig::new().serve();
    rig.create_agent("Ada");
    rig.create_agent("Bob");
    let ada = rig.client("Ada").await;
    let written = ada
        .call_tool(call(
            "idea_memory_write",
            json!({"title": "We use tabs", "hook": "When indenting any file",
                   "type": "project", "body": "Tabs, width 4."}),
        ))
        .await
        .unwrap();
    assert_ne!(written.is_error, Some(true), "{written:?}");
    let on_disk =
        std::fs::read_to_string(rig.project.join(".ideai/memory/we-use-tabs.md")).unwrap();
    assert!(
        on_disk.contains("writer: \"Ada\"") || on_disk.contains("writer: Ada"),
        "{on_disk}"
    );
    let index = std::fs::read_to_string(rig.project.join(".ideai/memory/MEMORY.md")).unwrap();
    assert!(index.contains("we-use-tabs.md"), "{index}");

    let bob = rig.client("Bob").await;
    let listed = bob
        .call_tool(call("idea_memory_list", Value::Null))
        .await
        .unwrap();
    assert!(text(&listed).contains("We use tabs"), "{listed:?}");
    let found = bob
        .call_tool(call("idea_memory_search", json!({"query": "tabs width"})))
        .await
        .unwrap();
    assert_eq!(
        found.structured_content.clone().unwrap()["hits"][0]["slug"],
        "we-use-tabs"
    );
    let read = bob
        .call_tool(call("idea_memory_read", json!({"slug": "we-use-tabs"})))
        .await
        .unwrap();
    assert!(
        text(&read).contains("Tabs, width 4.") && text(&read).contains("Ada"),
        "{read:?}"
    );
    let missing = bob
        .call_tool(call(
            "idea_memory_read",
            json!({"slug": "../../etc/passwd"}),
        ))
        .await
        .unwrap();
    assert_eq!(missing.is_error, Some(true), "{missing:?}");
    let bad_type = bob
        .call_tool(call(
            "idea_memory_write",
            json!({"title": "x", "hook": "y", "type": "gossip"}),
        ))
        .await
        .unwrap();
    assert_eq!(bad_type.is_error, Some(true), "{bad_type:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ideas_own_tools_obey_a_rule_that_names_them() {
    let rig = Rig::new();
    rules(
        &rig.project,
        r#"{"permissions": {"deny": ["idea_spawn_agent"]}}"#,
    );
    let rig = rig.serve();
    rig.create_agent("Ada");
    let client = rig.client("Ada").await;
    let refused = client
        .call_tool(call(
            "idea_spawn_agent",
            json!({"name": "Sneaky", "profile": "shell"}),
        ))
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true), "{refused:?}");
    assert!(text(&refused).contains("TOOL_DENIED"), "{refused:?}");
    // A tool no rule names runs as always.
    let listed = client
        .call_tool(call("idea_list_agents", Value::Null))
        .await
        .unwrap();
    assert_ne!(listed.is_error, Some(true), "{listed:?}");
    assert!(!text(&listed).contains("Sneaky"));
}
