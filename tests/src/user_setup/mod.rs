//! A throwaway HOME prepared the way a user who already set up each CLI would have it
//! (logged in or holding an API key, onboarding done), pointed at the fake model server.
//! IdeA adds only what it adds for real users: nothing here trusts a folder.

pub mod claude;
pub mod codex;
pub mod gemini;
