//! A throwaway HOME prepared the way a user who already set up each CLI would have it
//! (logged in or holding an API key, onboarding done), pointed at the fake model server.
//! IdeA adds only what it adds for real users: nothing here trusts a folder.

pub mod claude;
pub mod codex;
pub mod gemini;

/// `(name, value)` pairs as the owned environment `prepare_home` returns.
fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}
