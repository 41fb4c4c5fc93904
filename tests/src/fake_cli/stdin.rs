//! Piped input, read the way the real CLIs read it: Codex waits for the end of it, Claude
//! waits at most 3 s for some.

use std::io::{IsTerminal, Read};
use std::sync::mpsc;
use std::time::Duration;

/// Whether stdin is not a terminal (a pipe, a file, `/dev/null`).
pub fn stdin_is_piped() -> bool {
    !std::io::stdin().is_terminal()
}

/// Everything on a piped stdin up to its end, waiting at most `limit` when given; `None` for
/// a terminal, or when the limit passed first (the reader is then left behind).
pub fn read_piped_stdin(limit: Option<Duration>) -> Option<String> {
    if !stdin_is_piped() {
        return None;
    }
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::stdin().read_to_string(&mut text);
        let _ = tx.send(text);
    });
    match limit {
        Some(limit) => rx.recv_timeout(limit).ok(),
        None => rx.recv().ok(),
    }
}
