//! The log file of `idea serve`, run for real: a request is logged with its duration, and the
//! token (which is in the URL every client opens) reaches no log, at any level.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use support::serve;
use tokio_tungstenite::tungstenite::Message;

/// Distinctive, so that finding it anywhere in the logs means it leaked.
const TOKEN: &str = "Tok3n-never-logged-5f0e1d2c3b4a";
const DEADLINE: Duration = Duration::from_secs(10);

/// A running `idea serve`; killed when dropped (a failed test must not leave it behind).
struct Served {
    server: serve::Served,
    user: PathBuf,
    /// What the server printed on stderr, line by line.
    stderr: mpsc::Receiver<String>,
    _dir: tempfile::TempDir,
}

serve::deref_to_served!(Served);

/// `idea serve` on a fresh folder, logging at `level` (`None`: the default).
fn serve(level: Option<&str>) -> Served {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    let user = dir.path().join("user");
    std::fs::create_dir_all(&project).unwrap();
    let mut command = serve::command(&project, &user);
    command
        .args(["--token", TOKEN])
        .env_remove("IDEA_LOG")
        .stderr(Stdio::piped());
    if let Some(level) = level {
        command.env("IDEA_LOG", level);
    }
    let mut child = command.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let (err_tx, err_rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = err_tx.send(line);
        }
    });
    let line = serve::announcement(&mut child, Duration::from_secs(30));
    let (_, url) = line
        .trim_end()
        .split_once(" at http://127.0.0.1:")
        .unwrap_or_else(|| panic!("unexpected announcement: {line:?}"));
    let (port, _) = url.split_once('/').unwrap();
    let port = port.parse().unwrap();
    Served {
        server: serve::Served::new(child, port, line),
        user,
        stderr: err_rx,
        _dir: dir,
    }
}

impl Served {
    /// Calls `listAgents` over the WebSocket and returns its result.
    async fn list_agents(&self) -> Value {
        let url = format!("ws://127.0.0.1:{}/ws?token={TOKEN}", self.port);
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "listAgents"});
        ws.send(Message::text(call.to_string())).await.unwrap();
        loop {
            let message = tokio::time::timeout(DEADLINE, ws.next())
                .await
                .expect("no answer within the deadline")
                .expect("the socket closed")
                .unwrap();
            if let Message::Text(text) = message {
                let answer: Value = serde_json::from_str(text.as_str()).unwrap();
                if answer["id"] == 1 {
                    assert!(answer.get("error").is_none(), "{answer}");
                    return answer["result"].clone();
                }
            }
        }
    }

    /// Sends SIGTERM and waits for a clean exit, which flushes the log.
    fn terminate(&mut self) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(Instant::now() < deadline, "idea serve ignored SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn stderr_lines(&self) -> Vec<String> {
        self.stderr.try_iter().collect()
    }
}

/// Every file of the logs folder: (path, content).
fn log_files(user: &Path) -> Vec<(PathBuf, String)> {
    std::fs::read_dir(user.join("logs"))
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            (path, text)
        })
        .collect()
}

fn assert_no_token(files: &[(PathBuf, String)]) {
    for (path, text) in files {
        assert!(!text.contains(TOKEN), "the token is in {}", path.display());
    }
}

#[tokio::test]
async fn a_request_is_logged_with_its_duration_and_the_token_is_not() {
    let mut served = serve(None);
    let agents = served.list_agents().await;
    assert_eq!(agents, json!([]));
    served.terminate();

    let stderr = served.stderr_lines();
    let announced = stderr
        .iter()
        .find_map(|line| line.strip_prefix("idea: log: "))
        .unwrap_or_else(|| panic!("no log path on stderr: {stderr:?}"));
    let announced = Path::new(announced);
    assert_eq!(announced.parent(), Some(served.user.join("logs").as_path()));
    let name = announced.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("idea.log.20"), "{name}");

    let files = log_files(&served.user);
    assert!(!files.is_empty(), "no log file");
    let lines: Vec<&str> = files.iter().flat_map(|(_, text)| text.lines()).collect();
    let request = lines
        .iter()
        .find(|line| line.contains("idea::request") && line.contains("listAgents"))
        .unwrap_or_else(|| panic!("no request line in {lines:#?}"));
    assert!(request.contains(" INFO "), "{request}");
    assert!(request.contains("duration_us="), "{request}");
    assert!(request.contains("outcome=\"ok\""), "{request}");
    assert!(
        request.contains(&format!("[{}]", served.child.id())),
        "{request}"
    );
    assert_no_token(&files);
    for line in &stderr {
        assert!(!line.contains(TOKEN), "stderr shows the token: {line}");
    }
}

#[tokio::test]
async fn the_token_is_not_logged_even_at_trace_level() {
    let mut served = serve(Some("trace"));
    served.list_agents().await;
    served.terminate();
    let files = log_files(&served.user);
    let text: String = files.iter().map(|(_, text)| text.as_str()).collect();
    assert!(text.contains("listAgents"), "{text}");
    assert_no_token(&files);
}
