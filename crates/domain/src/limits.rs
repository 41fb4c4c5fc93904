//! A provider's usage limit, recognised from every source IdeA has (docs/usage-limits.md):
//! JSON-mode events of a turn, the CLIs' own transcript and rollout lines, hooks, and the
//! screen of a terminal cell. One value for all of them, so the state, the countdown and the
//! resume scheduler never care where a limit was seen.
//!
//! What is *not* a usage limit never becomes one: transient 429/529 and "not your usage
//! limit", context-window and budget limits, warnings ("You've used 92% of…"), and prose that
//! merely quotes a limit message.

mod combine;
mod event;
mod hook;
mod json;
mod message;
mod reset_words;
mod resolve;
mod screen;
mod text;
mod transcript;
mod window_names;

pub use combine::combine_sightings;
pub use event::{recognise_event, recognise_event_json};
pub use hook::{recognise_stop_failure, recognise_stop_failure_json};
pub use message::recognise_message;
pub use resolve::{MAX_RESET_AHEAD_SECS, resolve};
pub use screen::{ScreenLimitWatch, recognise_screen};
pub use transcript::{
    limit_at_transcript_end, recognise_transcript_json, recognise_transcript_line,
};

/// Which CLI's words and records a recogniser reads (the screen detectors' key).
pub use crate::agent_state::ScreenDetector as Vendor;

use serde::{Deserialize, Serialize};

/// A usage limit an agent hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct UsageLimit {
    pub reset: LimitReset,
    /// Which window ran out, as the CLI names it ("5-hour", "weekly", "Sonnet", "daily"…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
    pub source: LimitSource,
    /// The CLI's own words (one line, cut to [`MESSAGE_MAX`] characters).
    pub message: String,
}

/// The longest message kept with a limit.
pub const MESSAGE_MAX: usize = 300;

/// When a limit lifts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum LimitReset {
    /// At this Unix time (seconds), margin included.
    #[serde(rename_all = "camelCase")]
    At {
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        epoch: u64,
    },
    /// The CLI did not say: probe with a visible back-off ("check now").
    Unknown,
    /// No reset will lift it (out of credits, billing, an org out of usage): the user acts.
    NeedsUser,
}

/// Where a limit was seen, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum LimitSource {
    /// A JSON-mode event (Claude `rate_limit_event`, Codex `error`/`turn.failed`, Gemini's
    /// error `result`).
    Event,
    /// The CLI's own files (Claude's transcript, Codex's rollout).
    Transcript,
    /// A CLI hook (Claude `StopFailure`).
    Hook,
    /// What the terminal shows now.
    Screen,
}

/// A limit as a recogniser saw it, before its reset is put on the clock: recognisers need no
/// time, and the application resolves a sighting with its clock (tests advance a fake one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitSighting {
    pub reset: SightedReset,
    pub window: Option<String>,
    pub source: LimitSource,
    pub message: String,
}

/// A reset as the CLI gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SightedReset {
    /// Unix seconds (Claude's `resetsAt`, `…|1762952400`, Codex's `resets_at`).
    Epoch(u64),
    /// Words: "7:52pm (UTC)", "Dec 3, 3:52am (Asia/Shanghai)", "7:49 PM", "Dec 2nd, 2026 7:50
    /// PM". A time with no zone is the machine's local time.
    Text(String),
    /// Not given.
    Unknown,
    /// None will come: the user must act.
    NeedsUser,
}

/// Seconds added to a reset time read from a CLI: Claude was seen resuming ~65 s late, and a
/// probe a little after the reset is better than one that is refused again.
pub const RESET_MARGIN_SECS: u64 = 60;

#[cfg(test)]
mod tests;
