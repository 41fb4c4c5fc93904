//! The permission rules reach real agents through a real `idea serve`: with a project
//! permissions file an agent in a cell and an asked agent's turn run under the kernel sandbox
//! (outside the project refused, inside and at its root allowed, a denied file, IdeA's state,
//! git's hooks and an SSH key refused); without user namespaces the limited sandbox runs and
//! says so; without rules they run natively; a sandbox the kernel cannot enforce starts
//! nothing and says so.
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
report="outside=$(w "$OUTSIDE") inside=$(w "$INSIDE") secret=$(r "$SECRET") root=$(w "$ROOT_NEW") state=$(w "$STATE") hook=$(w "$HOOK") key=$(r "$KEY")""#;

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
    /// The fake home `idea serve` runs with (an SSH key in it).
    home: PathBuf,
}

/// What the probe reports under a full sandbox, and under the limited one (no namespaces:
/// the project root split, git's files not protected, as the summary says).
const CONFINED: &str =
    "outside=DENIED inside=WROTE secret=DENIED root=WROTE state=DENIED hook=DENIED key=DENIED";
const LIMITED: &str =
    "outside=DENIED inside=WROTE secret=DENIED root=DENIED state=DENIED hook=WROTE key=DENIED";

fn namespaces() -> bool {
    let idea = std::path::Path::new(env!("CARGO_BIN_EXE_idea"));
    let beside = idea.with_file_name("idea-sandbox-exec");
    let probe = std::process::Command::new(if beside.is_file() {
        beside.as_path()
    } else {
        idea
    })
    .args(["sandbox-exec", "--probe"])
    .env_remove("IDEA_SANDBOX_NO_USERNS")
    .status()
    .unwrap();
    if !probe.success() {
        eprintln!("SKIPPED: the kernel refuses user namespaces here");
    }
    probe.success()
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
        let home = project.parent().unwrap().join("home");
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::write(home.join(".ssh/id_ed25519"), "PRIVATE KEY").unwrap();
        // A git folder with what `git init` makes.
        std::fs::create_dir_all(project.join(".git/hooks")).unwrap();
        std::fs::create_dir_all(project.join(".git/info")).unwrap();
        std::fs::write(project.join(".git/config"), "[core]\n").unwrap();
        let env = json!({
            "OUTSIDE": outside, "INSIDE": project.join("src/inside.txt"),
            "SECRET": project.join("secret.txt"), "LOG": log,
            "ROOT_NEW": project.join("NEW_AT_ROOT.md"),
            "STATE": project.join(".ideai/agents/planted.md"),
            "HOOK": project.join(".git/hooks/pre-commit"),
            "KEY": home.join(".ssh/id_ed25519"),
        });
        std::fs::write(rig.user.join("profiles.json"), profiles(&env)).unwrap();
        if rules {
            std::fs::write(
                project.join(".ideai/permissions.json"),
                r#"{"permissions": {"deny": ["Read(./secret.txt)"]}}"#,
            )
            .unwrap();
        }
        Self {
            rig,
            outside,
            log,
            home,
        }
    }

    /// `idea serve` with `env` on top.
    fn serve(mut self, env: &[(&str, &str)]) -> Self {
        let mut command = serve::command(&self.rig.project, &self.rig.user);
        command.args(["--token", TOKEN]).stderr(Stdio::null());
        command
            .env("HOME", &self.home)
            .env_remove("IDEA_SANDBOX_NO_USERNS");
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
    if !landlock() || !namespaces() {
        return;
    }
    confined(&[], CONFINED, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_user_namespaces_the_limited_sandbox_runs_and_says_so() {
    if !landlock() {
        return;
    }
    confined(&[("IDEA_SANDBOX_NO_USERNS", "1")], LIMITED, true).await;
}

/// With rules, `idea serve` (with `env`) launches the probe in a cell and asks the askable
/// agent: both report `expected`, and the session's summary says whether it is `limited`.
async fn confined(env: &[(&str, &str)], expected: &str, limited: bool) {
    let glue = Glue::new(true).serve(env);
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
    assert_eq!(sandbox["limited"], json!(limited), "{sandbox}");
    let credentials = sandbox["credentials"].as_array().unwrap();
    assert!(
        credentials.contains(&json!(glue.home.join(".ssh/id_ed25519"))),
        "{sandbox}"
    );
    assert_eq!(glue.report(), expected);
    assert!(!glue.outside.exists());
    // The turn's own probe: what the cell made is there, so the turn's "root" is a rewrite.
    let answer = ask(&mut ws).await;
    assert_eq!(answer["result"]["text"], expected, "{answer}");
    assert!(!glue.outside.exists());
    assert!(!glue.rig.project.join(".ideai/agents/planted.md").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_rules_agents_run_natively() {
    let glue = Glue::new(false).serve(&[]);
    let mut ws = glue.ws().await;
    let launched = launch_probe(&glue, &mut ws).await;
    assert_eq!(launched["result"]["sandbox"], Value::Null, "{launched}");
    let native =
        "outside=WROTE inside=WROTE secret=READ root=WROTE state=WROTE hook=WROTE key=READ";
    assert_eq!(glue.report(), native);
    std::fs::remove_file(&glue.outside).unwrap();
    let answer = ask(&mut ws).await;
    assert_eq!(answer["result"]["text"], native, "{answer}");
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
