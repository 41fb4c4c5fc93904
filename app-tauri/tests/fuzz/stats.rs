//! What the run saw, and small helpers to report it.

use super::*;

#[derive(Default)]
pub(crate) struct Stats {
    /// Frames sent, by method (or `raw`, `binary`, `ping`).
    pub(crate) sent: BTreeMap<String, u64>,
    /// Answers by outcome: `ok`, the IdeA code, or the bare JSON-RPC code.
    pub(crate) outcomes: BTreeMap<String, u64>,
    /// Successful answers, by method.
    pub(crate) ok: BTreeMap<String, u64>,
    /// The longest wait for an answer, and the call it was for.
    pub(crate) slowest: (Duration, String),
    /// Calls answered after more than [`SLOW`] (the first few).
    pub(crate) slow: Vec<String>,
    pub(crate) calls_with_id: u64,
    pub(crate) answered: u64,
    pub(crate) notifications: u64,
    /// Connections the server closed with 1013.
    pub(crate) lagged: u64,
    /// Connections the fuzzer dropped mid-call, and the calls they left unanswered (those
    /// and a lagged connection's are not checked).
    pub(crate) hangups: u64,
    pub(crate) abandoned: u64,
    /// `INTERNAL` answers: method and message.
    pub(crate) internal: Vec<String>,
    pub(crate) failures: Vec<String>,
}

impl Stats {
    pub(crate) fn fail(&mut self, failure: String) {
        eprintln!("fuzz failure: {failure}");
        if self.failures.len() < 50 {
            self.failures.push(failure);
        }
    }
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A frame for a report: short, with its length when cut.
pub(crate) fn excerpt(text: &str) -> String {
    const MAX: usize = 300;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}
