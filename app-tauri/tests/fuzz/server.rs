//! The server: start, SIGTERM, strays, logged errors, one-off calls.

use super::*;

pub(crate) struct Served {
    pub(crate) server: support::serve::Served,
    pub(crate) stderr: Arc<Mutex<String>>,
    pub(crate) dir: tempfile::TempDir,
}

support::serve::deref_to_served!(Served);

pub(crate) fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let mut command = support::serve::command(&project, &dir.path().join("user"));
    command
        .args(["--token", TOKEN])
        .env("HOME", &home)
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    let stderr = Arc::new(Mutex::new(String::new()));
    let mut pipe = child.stderr.take().unwrap();
    let collected = Arc::clone(&stderr);
    std::thread::spawn(move || {
        let mut buffer = [0_u8; 4096];
        while let Ok(n @ 1..) = pipe.read(&mut buffer) {
            lock(&collected).push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
    });
    let line = support::serve::announcement(&mut child, Duration::from_secs(30));
    let port = support::serve::port_of(&line)
        .unwrap_or_else(|| panic!("unexpected announcement: {line:?}"));
    Served {
        server: support::serve::Served::new(child, port, line),
        stderr,
        dir,
    }
}

impl Served {
    /// Sends SIGTERM and waits for the exit (`None`: still running after the deadline).
    pub(crate) fn terminate(&mut self) -> Option<ExitStatus> {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + EXIT_DEADLINE;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

/// Processes whose working folder is under `dir` (the sessions' cwd is the project or a run
/// folder in it), as `pid: command line`; each is killed: the test started them.
pub(crate) fn strays(dir: &std::path::Path) -> Vec<String> {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_owned());
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(cwd) = std::fs::read_link(entry.path().join("cwd")) else {
            continue;
        };
        if cwd.starts_with(&dir) {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            found.push(format!("{pid}: {}", cmdline.trim_end()));
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
        }
    }
    found
}

/// The `ERROR` lines of the server's log files (informative: not a failure).
pub(crate) fn logged_errors(logs: &std::path::Path) -> Vec<String> {
    let Ok(files) = std::fs::read_dir(logs) else {
        return Vec::new();
    };
    files
        .flatten()
        .filter_map(|f| std::fs::read(f.path()).ok())
        .flat_map(|bytes| {
            String::from_utf8_lossy(&bytes)
                .lines()
                .filter(|l| l.contains(" ERROR "))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// One call on a fresh connection, its answer.
pub(crate) async fn call_once(port: u16, method: &str) -> Result<Value, String> {
    let mut ws = connect(port).await;
    let call = json!({"jsonrpc": "2.0", "id": "last", "method": method});
    ws.send(Message::text(call.to_string()))
        .await
        .map_err(|e| e.to_string())?;
    loop {
        let message = tokio::time::timeout(ANSWER_DEADLINE, ws.next())
            .await
            .map_err(|_| format!("{method}: no answer in time"))?
            .ok_or("the connection ended")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
            if value["id"] == "last" {
                return Ok(value);
            }
        }
    }
}
