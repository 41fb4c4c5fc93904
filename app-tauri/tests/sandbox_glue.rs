//! The permission rules reach real agents through a real `idea serve`: with a project
//! permissions file an agent in a cell and an asked agent's turn run under the kernel sandbox
//! (outside the project refused, inside allowed, a denied file unreadable); without one they
//! run natively; a sandbox the kernel cannot enforce starts nothing and says so.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/owner_rig.rs"]
mod rig;
mod support;

use rig::{DEADLINE, Rig, TOKEN};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};
use support::serve;
use support::ws::{self, Ws};

/// Tries each write (and one read) and reports what the kernel allowed, one word a line.
const PROBE: &str = r#"w() { if (echo x > "$1") 2>/dev/null; then echo WROTE; else echo DENIED; fi; }
r() { if cat "$1" >/dev/null 2>&1; then echo READ; else echo DENIED; fi; }
report="outside=$(w "$OUTSIDE") inside=$(w "$INSIDE") secret=$(r "$SECRET")""#;

/// A terminal agent that writes its report to `$LOG`, and an askable one that answers it.
fn profiles(env: &Value) -> String {
    let cell = format!("{PROBE}\necho \"$report\" > \"$LOG\"");
    let turn = format!(
        "{PROBE}\nprintf '{{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"%s\",\"session_id\":\"s-1\"}}\\n' \"$report\""
    );
    json!({"version": 1, "profiles": [
        {"id": "probe", "name": "Probe", "command": "/bin/sh", "args": ["-c", cell],
         "contextInjection": {"kind": "none"}, "env": env},
        {"id": "asked", "name": "Asked", "command": "/bin/sh", "contextInjection": {"kind": "none"},
         "env": env,
         "structured": {"provider": "claude", "args": ["-c", turn, "sh", "{prompt}"],
           "resumeArgs": ["-c", turn, "sh", "{prompt}", "{id}"]}}
    ]})
    .to_string()
}

struct Glue {
    rig: Rig,
    outside: PathBuf,
    log: PathBuf,
}

fn landlock() -> bool {
    idea_infrastructure::sandbox::kernel_abi().is_some_and(|abi| abi >= 6)
}

impl Glue {
    fn new(rules: bool) -> Self {
        let rig = Rig::new();
        let project = rig.project.clone();
        let outside = project.parent().unwrap().join("outside.txt");
        std::fs::create_dir_all(project.join("src")).unwrap();
        std::fs::write(project.join("secret.txt"), "s3cr3t").unwrap();
        let log = project.join("src/report.txt");
        let env = json!({
            "OUTSIDE": outside, "INSIDE": project.join("src/inside.txt"),
            "SECRET": project.join("secret.txt"), "LOG": log,
        });
        std::fs::write(rig.user.join("profiles.json"), profiles(&env)).unwrap();
        if rules {
            std::fs::write(
                project.join(".ideai/permissions.json"),
                r#"{"permissions": {"deny": ["Read(./secret.txt)"]}}"#,
            )
            .unwrap();
        }
        Self { rig, outside, log }
    }

    /// `idea serve` with `env` on top.
    fn serve(mut self, env: &[(&str, &str)]) -> Self {
        let mut command = serve::command(&self.rig.project, &self.rig.user);
        command.args(["--token", TOKEN]).stderr(Stdio::null());
        command.envs(env.iter().copied());
        let mut child = command.spawn().unwrap();
        let line = serve::announcement(&mut child, DEADLINE);
        self.rig.port = serve::port_of(&line).unwrap();
        self.rig.owner = Some(child);
        self.rig.create_agent_with("Probe", "probe");
        self.rig.create_agent_with("Asked", "asked");
        self
    }

    async fn ws(&self) -> Ws {
        ws::connect(self.rig.port, TOKEN).await
    }

    fn report(&self) -> String {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Ok(text) = std::fs::read_to_string(&self.log)
                && text.ends_with('\n')
            {
                return text.trim().to_owned();
            }
            assert!(
                Instant::now() < deadline,
                "no report at {}",
                self.log.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

async fn ask(ws: &mut Ws) -> Value {
    let params = json!({"target": "Asked", "message": "probe"});
    ws::send(ws, 3, "askAgent", params).await;
    ws::answer(ws, DEADLINE).await
}

fn probe_id(glue: &Glue) -> String {
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(glue.rig.project.join(".ideai/agents.json")).unwrap(),
    )
    .unwrap();
    manifest["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "Probe")
        .unwrap()["agentId"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// launchAgent of Probe in the first cell: the whole answer.
async fn launch_probe(glue: &Glue, ws: &mut Ws) -> Value {
    let id = probe_id(glue);
    let layouts = ws::call(ws, DEADLINE, 1, "getLayouts", Value::Null).await;
    let cell = json!({
        "layoutId": layouts["active"], "nodeId": layouts["layouts"][0]["tree"]["id"],
        "agentId": id, "rows": 24, "cols": 80,
    });
    ws::send(ws, 2, "launchAgent", cell).await;
    ws::answer(ws, DEADLINE).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_rules_a_cell_and_a_turn_are_confined_by_the_kernel() {
    if !landlock() {
        return;
    }
    let glue = Glue::new(true).serve(&[]);
    let mut ws = glue.ws().await;
    let launched = launch_probe(&glue, &mut ws).await;
    let session = &launched["result"];
    assert!(session.is_object(), "{launched}");
    let sandbox = &session["sandbox"];
    let roots: Vec<&str> = sandbox["writeRoots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(
        roots.contains(&glue.rig.project.to_str().unwrap()),
        "{sandbox}"
    );
    let secret = glue.rig.project.join("secret.txt");
    assert!(
        sandbox["readDenied"]
            .as_array()
            .unwrap()
            .contains(&json!(secret)),
        "{sandbox}"
    );
    assert_eq!(glue.report(), "outside=DENIED inside=WROTE secret=DENIED");
    assert!(!glue.outside.exists());

    let answer = ask(&mut ws).await;
    assert_eq!(
        answer["result"]["text"], "outside=DENIED inside=WROTE secret=DENIED",
        "{answer}"
    );
    assert!(!glue.outside.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_rules_agents_run_natively() {
    let glue = Glue::new(false).serve(&[]);
    let mut ws = glue.ws().await;
    let launched = launch_probe(&glue, &mut ws).await;
    assert_eq!(launched["result"]["sandbox"], Value::Null, "{launched}");
    assert_eq!(glue.report(), "outside=WROTE inside=WROTE secret=READ");
    std::fs::remove_file(&glue.outside).unwrap();
    let answer = ask(&mut ws).await;
    assert_eq!(
        answer["result"]["text"], "outside=WROTE inside=WROTE secret=READ",
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sandbox_the_kernel_cannot_enforce_starts_nothing_and_says_so() {
    let glue = Glue::new(true).serve(&[("IDEA_SANDBOX_REQUIRE_ABI", "99")]);
    let mut ws = glue.ws().await;
    let launched = launch_probe(&glue, &mut ws).await;
    assert_eq!(
        launched["error"]["data"]["code"], "SANDBOX_FAILED",
        "{launched}"
    );
    let message = launched["error"]["message"].as_str().unwrap();
    assert!(message.contains("Landlock ABI 99"), "{message}");
    let sessions = ws::call(&mut ws, DEADLINE, 4, "listSessions", Value::Null).await;
    assert_eq!(sessions, json!([]));
    let answer = ask(&mut ws).await;
    assert_eq!(
        answer["error"]["data"]["code"], "SANDBOX_FAILED",
        "{answer}"
    );
    // Nothing ran: no report, no write anywhere.
    std::thread::sleep(Duration::from_millis(300));
    assert!(!glue.log.exists() && !glue.outside.exists());
}
