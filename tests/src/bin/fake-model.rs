//! `fake-model --log FILE [--port P]`: serves the fake Anthropic, OpenAI and Gemini APIs on
//! 127.0.0.1 and prints `fake-model listening on http://127.0.0.1:PORT` once ready.

use idea_e2e::fake_model::{RequestLog, router};
use std::path::PathBuf;

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let log_path =
        flag(&args, "--log").map_or_else(|| PathBuf::from("fake-model.jsonl"), PathBuf::from);
    let port: u16 = flag(&args, "--port")
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let log = RequestLog::open(&log_path)?;
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("fake-model listening on http://{}", listener.local_addr()?);
    axum::serve(listener, router(log)).await
}
