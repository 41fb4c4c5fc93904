//! The terminals one client is attached to (a WebSocket connection, the desktop window): at
//! most one attachment per session, so acks and detaches find it by session, and all of them
//! are released when the client goes. Both transports keep one; the attach itself
//! ([`sessions::attach`]) stays theirs, as each delivers output its own way.

use idea_application::{AppResult, Deps, sessions};
use idea_domain::SessionId;
use idea_domain::terminal::TerminalSize;
use std::collections::HashMap;

/// Session → attachment id of one client.
#[derive(Debug, Default)]
pub struct Attachments {
    by_session: HashMap<SessionId, u64>,
    /// The client is gone ([`Attachments::detach_all`]): an attach that ends later is undone.
    gone: bool,
}

impl Attachments {
    /// Records `attachment` as the client's attachment to `session`, detaching the one it
    /// replaces (a client attaches each terminal once). Once the client is gone (an attach
    /// that finished after it left), detaches `attachment` instead: nobody would ack it.
    pub fn record(&mut self, deps: &Deps, session: SessionId, attachment: u64) {
        if self.gone {
            return sessions::detach(deps, session, attachment);
        }
        if let Some(previous) = self.by_session.insert(session, attachment) {
            sessions::detach(deps, session, previous);
        }
    }

    /// The client's attachment to `session`, if any.
    #[must_use]
    pub fn attachment(&self, session: SessionId) -> Option<u64> {
        self.by_session.get(&session).copied()
    }

    /// Detaches the client from `session`, if it is attached.
    pub fn detach(&mut self, deps: &Deps, session: SessionId) {
        if let Some(attachment) = self.by_session.remove(&session) {
            sessions::detach(deps, session, attachment);
        }
    }

    /// The user typed in the client's terminal for `session`, or asked to fit it there: the
    /// client leads its size (nothing if it is not attached).
    pub fn lead(&self, deps: &Deps, session: SessionId) {
        if let Some(&attachment) = self.by_session.get(&session) {
            sessions::lead(deps, session, attachment);
        }
    }

    /// The client's cell for `session` is now `size` (nothing if it is not attached: a fit
    /// may cross a detach).
    ///
    /// # Errors
    /// `INVALID_PARAMS`, `SESSION_NOT_FOUND`.
    pub fn fit(&self, deps: &Deps, session: SessionId, size: TerminalSize) -> AppResult<()> {
        match self.by_session.get(&session) {
            Some(&attachment) => sessions::fit(deps, session, attachment, size),
            None => Ok(()),
        }
    }

    /// The client processed `bytes` more bytes of `session`'s output (nothing if it is not
    /// attached: an ack may cross a detach).
    pub fn ack(&self, deps: &Deps, session: SessionId, bytes: usize) {
        if let Some(&attachment) = self.by_session.get(&session) {
            sessions::ack(deps, session, attachment, bytes);
        }
    }

    /// The client is gone: releases every attachment (and the backpressure it may apply), and
    /// any recorded later.
    pub fn detach_all(&mut self, deps: &Deps) {
        self.gone = true;
        for (session, attachment) in self.by_session.drain() {
            sessions::detach(deps, session, attachment);
        }
    }
}
