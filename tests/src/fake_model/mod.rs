//! A fake model server for the real-CLI suite: the Anthropic Messages API, the OpenAI
//! Responses API and the Gemini API on one loopback port, each streamed the way the real
//! services stream. Every request is appended to a JSON-lines log so a test can check what a
//! CLI sent (its instructions file, an earlier turn after a resume). A user message saying
//! `please run: <command>` gets a call of the CLI's shell tool, one saying
//! `please call tool: <name> <json-object>` a call of the offered tool of that name (an MCP
//! tool under its prefixed name, loaded first where the CLI defers it) (`tool_call`).

pub mod anthropic;
pub mod gemini;
pub mod openai;
pub mod tool_call;

use axum::Router;
use serde_json::{Value, json};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The request log shared by the three APIs.
#[derive(Debug, Clone)]
pub struct RequestLog {
    file: Arc<Mutex<File>>,
}

impl RequestLog {
    /// Appends to `path` (created when absent).
    ///
    /// # Errors
    /// When the file cannot be opened.
    pub fn open(path: &Path) -> std::io::Result<Self> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Self {
            file: Arc::new(Mutex::new(file)),
        })
    }

    /// Records one request: which API, its path and its JSON body.
    pub fn record(&self, api: &str, path: &str, body: &Value) {
        let line = json!({"api": api, "path": path, "body": body});
        if let Ok(mut file) = self.file.lock() {
            let _ = writeln!(file, "{line}");
            let _ = file.flush();
        }
    }
}

/// A request body as JSON; one that is not JSON is kept as a string, so the log still shows it.
pub fn body_json(body: &[u8]) -> Value {
    if body.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))
}

/// The scripted answer to a user message: quotes it, so a test sees which turn it answers.
pub fn reply_text(last_user: &str) -> String {
    let quoted: String = last_user.chars().take(80).collect();
    format!("FAKE-MODEL-REPLY to: {quoted}")
}

/// All three APIs on one router.
pub fn router(log: RequestLog) -> Router {
    Router::new()
        .merge(anthropic::router(log.clone()))
        .merge(openai::router(log.clone()))
        .merge(gemini::router(log))
}
