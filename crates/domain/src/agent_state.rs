//! What an agent is doing, as one value the UI can show at a glance: working, waiting for the
//! user, done with its turn, gone. Derived from the best signal each CLI gives (see
//! `docs/agent-states.md`): its own hooks, the terminal's notification sequences, a screen
//! detector, and output quiescence last. Pure: the PTY adapter reports what it sees, the
//! application feeds it to a [`StateTracker`] per session.

mod hooks;
mod reports;
mod screen;
mod tracker;

pub use hooks::{
    HOOK_SETTINGS_FILE, HookBridge, HookEvent, HookHandoff, UnknownHookEvent, hook_handoff,
    with_settings_hooks,
};
pub use reports::{is_typed_by_user, submits_a_line};
pub use screen::{ScreenDetector, ScreenFinding, detect_screen};
pub use tracker::StateTracker;

use serde::{Deserialize, Serialize};

/// The state of one session, as the UI shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum AgentState {
    /// It runs a turn (or is starting up).
    Working,
    /// It waits for the user: a permission prompt, a question.
    NeedsYou,
    /// Its turn is done; it waits for the next message.
    Idle,
    /// Its provider's usage limit stopped it; [`StateReport::usage_limit`] says until when.
    UsageLimited,
    /// Its process ended on its own with status 0, or the user stopped it.
    Exited,
    /// Its process ended on its own with a non-zero status.
    Failed,
}

impl AgentState {
    /// Exited or failed: no signal changes it any more.
    pub fn is_final(self) -> bool {
        matches!(self, Self::Exited | Self::Failed)
    }
}

/// Where a state came from, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum StateSource {
    /// The session just started.
    Start,
    /// The CLI's own hook (Claude Code, Gemini CLI) or notify program (Codex).
    Hook,
    /// A BEL or an OSC 9 / OSC 777 notification in the terminal's output.
    Terminal,
    /// A per-CLI detector read the visible screen.
    Screen,
    /// Output started flowing again, or stopped for a while.
    Output,
    /// The user typed into the terminal.
    Input,
    /// The process ended.
    Exit,
}

/// A session's state with why it is so (`reason` is short text for a tooltip, e.g. the hook's
/// message or the prompt the screen detector saw).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct StateReport {
    pub state: AgentState,
    pub source: StateSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The limit, while `state` is `usageLimited`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage_limit: Option<crate::limits::UsageLimit>,
}

/// Something the terminal adapter saw in a session's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TerminalSignal {
    /// Output started after a quiet period.
    Active,
    /// No output for the watch's quiet period.
    Quiet,
    /// BEL outside an escape sequence.
    Bell,
    /// OSC 9 or OSC 777 `notify`: the program asks for a desktop notification.
    Notification(String),
    /// What the screen detector reads now (`None`: nothing it knows); sent when it changes.
    Screen(Option<ScreenFinding>),
}

/// One input to a session's [`StateTracker`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signal {
    Hook(HookEvent),
    Terminal(TerminalSignal),
    /// The user typed into the terminal.
    Input,
    /// The user typed into the terminal and pressed Enter: a line submitted (or a choice
    /// made), the start of a turn for a CLI that reports only when turns end.
    Submit,
    /// The provider's usage limit stopped the agent (seen on screen or told by a hook, its
    /// reset already reckoned by the application's clock).
    UsageLimit(crate::limits::UsageLimit),
}

#[cfg(test)]
mod tests;
