//! Step 5 of LaunchAgent (and of a JSON-mode turn): which conversation the CLI continues.

use crate::profile::AgentProfile;

/// How the agent's conversation is opened (LaunchAgent's step 5; the rules are in
/// `docs/design.md`, "Sessions and resume").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionPlan {
    /// The cell already has a conversation: reopen it.
    Resume(String),
    /// A fresh conversation with an id IdeA minted (stored on the cell).
    Assign(String),
    /// The CLI manages its own conversation.
    None,
}

/// What a CLI has saved under a conversation id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SavedConversation {
    /// A conversation with at least one exchange: it can be reopened.
    Resumable,
    /// Nothing: the id can start a new conversation.
    Missing,
    /// A record with no exchange that the CLI will neither resume nor reuse (Gemini CLI after
    /// a SIGKILL before the first prompt): only a new id starts.
    Blocked,
}

/// What is known, before a launch, about the conversations the agent could continue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionFacts<'a> {
    /// The engine session id the cell remembers for this agent.
    pub cell_session: Option<&'a str>,
    /// What the CLI saved under that id: `Some` when the profile says where the CLI keeps
    /// its conversations, `None` when IdeA cannot tell (it then trusts the cell).
    pub cell_session_saved: Option<SavedConversation>,
    /// The CLI's latest saved conversation in the agent's folder, for CLIs that mint their
    /// own ids (looked up only when the cell has hosted this agent before).
    pub latest_saved: Option<&'a str>,
}

/// What a way of running a CLI can do with conversations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionCaps {
    /// A saved conversation can be reopened.
    pub resume: bool,
    /// A conversation can start under an id IdeA mints.
    pub assign: bool,
}

impl AgentProfile {
    /// What the profile's interactive sessions (`session`) can do.
    pub fn session_caps(&self) -> SessionCaps {
        SessionCaps {
            resume: self.can_resume_session(),
            assign: self.can_assign_session(),
        }
    }
}

/// Decides the session plan (LaunchAgent's step 5). A conversation is resumed only when it
/// exists: resuming an id the CLI never saved fails at every launch (Claude exits 1, Gemini
/// 42), so an unsaved id is started afresh instead, under the same id when the CLI takes ours.
pub fn plan_session(
    profile: &AgentProfile,
    facts: SessionFacts<'_>,
    fresh_id: impl FnOnce() -> String,
) -> SessionPlan {
    plan_conversation(profile.session_caps(), facts, fresh_id)
}

/// [`plan_session`]'s rule for any way of running the CLI (a cell, a JSON-mode turn).
pub fn plan_conversation(
    caps: SessionCaps,
    facts: SessionFacts<'_>,
    fresh_id: impl FnOnce() -> String,
) -> SessionPlan {
    if !caps.resume {
        return SessionPlan::None;
    }
    match (facts.cell_session, facts.cell_session_saved) {
        (Some(id), None | Some(SavedConversation::Resumable)) => {
            return SessionPlan::Resume(id.to_owned());
        }
        (Some(id), Some(SavedConversation::Missing)) if caps.assign => {
            return SessionPlan::Assign(id.to_owned());
        }
        _ => {}
    }
    if let Some(id) = facts.latest_saved {
        return SessionPlan::Resume(id.to_owned());
    }
    if caps.assign {
        SessionPlan::Assign(fresh_id())
    } else {
        SessionPlan::None
    }
}
