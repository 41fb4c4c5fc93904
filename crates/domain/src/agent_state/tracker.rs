//! One session's state machine: the rules that combine the signals of `docs/agent-states.md`,
//! best source first. Once a CLI's hooks have said when turns start (or end), the weaker
//! guesses about the same thing (output flowing, output quiet) are ignored.

use super::{
    AgentState, HookEvent, ScreenFinding, Signal, StateReport, StateSource, TerminalSignal,
};
use crate::terminal::ExitInfo;

/// The state of one session and what its CLI has shown it can signal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateTracker {
    report: StateReport,
    /// A hook said when a turn starts: output no longer means "working".
    hooked_start: bool,
    /// A hook said when a turn ends: quiet output no longer means "idle".
    hooked_done: bool,
}

impl Default for StateTracker {
    fn default() -> Self {
        Self::new()
    }
}

impl StateTracker {
    /// A session that just started (its CLI is loading).
    pub fn new() -> Self {
        Self {
            report: StateReport {
                state: AgentState::Working,
                source: StateSource::Start,
                reason: None,
                usage_limit: None,
            },
            hooked_start: false,
            hooked_done: false,
        }
    }

    pub fn report(&self) -> &StateReport {
        &self.report
    }

    /// Applies `signal`; returns the new report when the state (or its reason) changed.
    pub fn apply(&mut self, signal: Signal) -> Option<StateReport> {
        if self.report.state.is_final() {
            return None;
        }
        let current = self.report.state;
        if let Signal::UsageLimit(limit) = signal {
            return self.limited(limit);
        }
        let next = match signal {
            Signal::UsageLimit(_) => None,
            Signal::Hook(event) => Some(self.hook(event)),
            // Keys answer a "needs you" a bell or notification set; one the screen detector
            // saw lasts until the prompt leaves the screen (arrows move through its options).
            Signal::Input => (current == AgentState::NeedsYou
                && self.report.source != StateSource::Screen)
                .then_some((AgentState::Working, StateSource::Input, None)),
            // Enter chooses an option of any prompt. Where hooks do not say when a turn
            // starts, a submitted line does (Codex: output after its turn is a redraw or the
            // user typing, not a new turn).
            Signal::Submit => (matches!(current, AgentState::NeedsYou | AgentState::UsageLimited)
                || (!self.hooked_start && current == AgentState::Idle))
                .then_some((AgentState::Working, StateSource::Input, None)),
            Signal::Terminal(t) => self.terminal(current, t),
        }?;
        self.set(next)
    }

    /// The process ended: exited (a stop or status 0) or failed; final.
    pub fn exit(&mut self, exit: &ExitInfo) -> Option<StateReport> {
        if self.report.state.is_final() {
            return None;
        }
        let state = if exit.failed() {
            AgentState::Failed
        } else {
            AgentState::Exited
        };
        let reason = if exit.stopped {
            Some("stopped".to_owned())
        } else if exit.failed() {
            Some(match &exit.signal {
                Some(signal) => format!("killed by {signal}"),
                None => format!("exit code {}", exit.code),
            })
        } else {
            None
        };
        self.set((state, StateSource::Exit, reason))
    }

    fn hook(&mut self, event: HookEvent) -> (AgentState, StateSource, Option<String>) {
        let state = match event {
            HookEvent::PromptSubmitted | HookEvent::ToolDone => {
                self.hooked_start = true;
                AgentState::Working
            }
            HookEvent::NeedsInput => AgentState::NeedsYou,
            HookEvent::TurnDone => {
                self.hooked_done = true;
                AgentState::Idle
            }
        };
        (state, StateSource::Hook, None)
    }

    fn terminal(
        &self,
        current: AgentState,
        signal: TerminalSignal,
    ) -> Option<(AgentState, StateSource, Option<String>)> {
        let from_screen = self.report.source == StateSource::Screen;
        match signal {
            TerminalSignal::Screen(Some(ScreenFinding::NeedsYou(question))) => {
                Some((AgentState::NeedsYou, StateSource::Screen, Some(question)))
            }
            // Reached the tracker unreckoned: the application turns it into a signal.
            TerminalSignal::Screen(Some(ScreenFinding::UsageLimit(_))) => None,
            // The prompt the detector saw is gone: answered, the turn goes on.
            TerminalSignal::Screen(None) if current == AgentState::NeedsYou && from_screen => {
                Some((AgentState::Working, StateSource::Screen, None))
            }
            // The limit message left the screen (cleared, or the agent went on).
            TerminalSignal::Screen(None) => (current == AgentState::UsageLimited && from_screen)
                .then_some((AgentState::Idle, StateSource::Screen, None)),
            // A CLI rings for attention when it waits; with hooks, they tell it better.
            TerminalSignal::Bell if !self.hooked() && current == AgentState::Working => {
                Some((AgentState::NeedsYou, StateSource::Terminal, None))
            }
            TerminalSignal::Notification(text)
                if !self.hooked() && current == AgentState::Working =>
            {
                Some((AgentState::NeedsYou, StateSource::Terminal, Some(text)))
            }
            TerminalSignal::Bell | TerminalSignal::Notification(_) => None,
            // Output starts a turn only for a CLI that says nothing about its turns: one that
            // reports their end redraws its screen after it (Codex's status line), and its
            // turns start with a submitted line.
            TerminalSignal::Active => (!self.hooked() && current == AgentState::Idle).then_some((
                AgentState::Working,
                StateSource::Output,
                None,
            )),
            // Quiet ends a turn unless hooks report both ends of it (a long quiet tool call
            // is still a turn). A CLI with only the end reported (Codex) animates its status
            // line all through a turn, so its quiet means no turn: a line that started none
            // (an empty Enter, a slash command) does not leave it working.
            TerminalSignal::Quiet => (!(self.hooked_start && self.hooked_done)
                && current == AgentState::Working)
                .then_some((AgentState::Idle, StateSource::Output, None)),
        }
    }

    /// A usage limit: the state and the limit itself, until a turn starts again.
    fn limited(&mut self, limit: crate::limits::UsageLimit) -> Option<StateReport> {
        let source = match limit.source {
            crate::limits::LimitSource::Screen => StateSource::Screen,
            _ => StateSource::Hook,
        };
        if self.report.state == AgentState::UsageLimited
            && self.report.usage_limit.as_ref() == Some(&limit)
        {
            return None;
        }
        self.report = StateReport {
            state: AgentState::UsageLimited,
            source,
            reason: Some(limit.message.clone()),
            usage_limit: Some(limit),
        };
        Some(self.report.clone())
    }

    fn hooked(&self) -> bool {
        self.hooked_start || self.hooked_done
    }

    fn set(
        &mut self,
        (state, source, reason): (AgentState, StateSource, Option<String>),
    ) -> Option<StateReport> {
        if state == self.report.state && reason == self.report.reason {
            return None;
        }
        self.report = StateReport {
            state,
            source,
            reason,
            usage_limit: None,
        };
        Some(self.report.clone())
    }
}
