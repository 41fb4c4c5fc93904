//! Clients showing a session: attach and detach, and the one size they share
//! ([`idea_domain::terminal::Viewers`]: the leading client's cell, never below a minimum).
//! Every change resizes the PTY and is published as `TerminalResized`, so each client draws
//! the terminal at the session's size instead of rewrapping it at its own.

use super::control::{entry, live};
use super::registry::Entry;
use crate::deps::Deps;
use crate::error::AppResult;
use idea_domain::terminal::{OutputSink, ReplayScope, SharedSize, TerminalSize, Viewers};
use idea_domain::{DomainEvent, SessionId};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// A client attached to a session: its attachment id, the size the session has for it, and
/// what its replay is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attached {
    pub id: u64,
    pub shared: SharedSize,
    /// The size the replay is drawn at: the client parses it at that size, then follows the
    /// session to `shared`'s (two clients joining at once may leave them different).
    pub replay_size: TerminalSize,
    /// The replay's length: the first bytes of the output; live output follows.
    pub replay_bytes: u64,
}

/// Attaches a client to a session's output. `size` is the client's cell: when no other client
/// leads, the terminal is first resized to it (so the replay fits the client); otherwise the
/// replay is drawn at the session's size, which the answer carries. The sink receives the
/// replay (the terminal's scrollback and screen drawn anew) first, then live output, in
/// order, with no gap and no duplicate. With [`ReplayScope::Screen`] the replay is the screen
/// alone (a client skipping a backlog it fell behind on). Works on exited sessions too, so
/// their last output can still be read.
///
/// # Errors
/// `INVALID_PARAMS` (a size out of [`TerminalSize`]'s bound), `SESSION_NOT_FOUND`.
pub fn attach(
    deps: &Deps,
    id: SessionId,
    sink: OutputSink,
    size: Option<TerminalSize>,
    scope: ReplayScope,
) -> AppResult<Attached> {
    let size = size.map(TerminalSize::checked).transpose()?;
    let entry = entry(deps, id)?;
    // Not held across the attach: the replay waits for the model's parse, and a keystroke of
    // another client must not wait for it. `join` settles a race of two attaches.
    let drawn = viewers(&entry).size_for_newcomer(size);
    tracing::debug!(
        session = %id,
        rows = drawn.rows,
        cols = drawn.cols,
        "terminal attached"
    );
    let terminal = Arc::clone(&entry.terminal);
    // The adapter may call the sink with live output before we hold the replay: queue those
    // batches until the replay has gone through the sink.
    let gate = Arc::new(Mutex::new(Gate {
        open: false,
        pending: Vec::new(),
    }));
    let sink: Arc<OutputSink> = Arc::new(sink);
    let (gate_in, sink_in) = (gate.clone(), sink.clone());
    let gated: OutputSink = Box::new(move |bytes: &[u8]| {
        let mut gate = gate_in.lock().unwrap_or_else(PoisonError::into_inner);
        if gate.open {
            sink_in(bytes);
        } else {
            gate.pending.push(bytes.to_vec());
        }
    });
    let attachment = match scope {
        ReplayScope::Whole => terminal.attach(gated, Some(drawn)),
        ReplayScope::Screen => terminal.attach_screen(gated, Some(drawn)),
    };
    let shared = change_from(deps, &entry, Some(drawn), |v| {
        v.join(attachment.id, size, drawn)
    });
    let mut gate = gate.lock().unwrap_or_else(PoisonError::into_inner);
    if !attachment.replay.is_empty() {
        sink(&attachment.replay);
    }
    for batch in gate.pending.drain(..) {
        sink(&batch);
    }
    gate.open = true;
    Ok(Attached {
        id: attachment.id,
        shared,
        replay_size: drawn,
        replay_bytes: attachment.replay.len() as u64,
    })
}

struct Gate {
    open: bool,
    pending: Vec<Vec<u8>>,
}

/// Detaches a client; unknown ids are ignored (the client may be late). If it led, the most
/// recently active other client leads and the session takes its size.
pub fn detach(deps: &Deps, id: SessionId, attachment: u64) {
    if let Some(entry) = deps.sessions.get(id) {
        entry.terminal.detach(attachment);
        change(deps, &entry, |v| v.leave(attachment));
    }
}

/// The user typed in (or asked to fit the terminal into) `attachment`'s client: that client
/// leads, and the session takes its cell's size. Cheap when it already leads (per keystroke).
pub fn lead(deps: &Deps, id: SessionId, attachment: u64) {
    if let Some(entry) = deps.sessions.get(id)
        && !viewers(&entry).leads(attachment)
    {
        change(deps, &entry, |v| v.lead(attachment));
    }
}

/// `attachment`'s cell is now `size` rows and columns: the session follows if that client
/// leads.
///
/// # Errors
/// `INVALID_PARAMS` (out of [`TerminalSize`]'s bound), `SESSION_NOT_FOUND`.
pub fn fit(deps: &Deps, id: SessionId, attachment: u64, size: TerminalSize) -> AppResult<()> {
    let size = size.checked()?;
    let entry = entry(deps, id)?;
    change(deps, &entry, |v| v.fit(attachment, size));
    Ok(())
}

/// Resizes a session's terminal to exactly `size`, whoever shows it (an API caller's explicit
/// size: it holds until the leading client's cell changes or another client leads).
///
/// # Errors
/// `INVALID_PARAMS` (out of [`TerminalSize`]'s bound), `SESSION_NOT_FOUND`, `SESSION_EXITED`.
pub fn resize(deps: &Deps, id: SessionId, size: TerminalSize) -> AppResult<()> {
    let size = size.checked()?;
    let entry = live(deps, id)?;
    change(deps, &entry, |v| v.resized(size));
    Ok(())
}

/// The size every client of the session draws it at now.
///
/// # Errors
/// `SESSION_NOT_FOUND`.
pub fn shared_size(deps: &Deps, id: SessionId) -> AppResult<SharedSize> {
    Ok(viewers(&entry(deps, id)?).shared())
}

/// Applies `rule` to the session's clients; on a change, resizes the PTY and tells every
/// client, under the lock so that two changes reach the PTY in the order they were decided.
fn change(deps: &Deps, entry: &Entry, rule: impl FnOnce(&mut Viewers) -> bool) -> SharedSize {
    change_from(deps, entry, None, rule)
}

/// [`change`] when the PTY was just set to `pty` (an attach draws its replay at that size).
fn change_from(
    deps: &Deps,
    entry: &Entry,
    pty: Option<TerminalSize>,
    rule: impl FnOnce(&mut Viewers) -> bool,
) -> SharedSize {
    let mut viewers = viewers(entry);
    let before = pty.unwrap_or(viewers.shared().size);
    if !rule(&mut viewers) {
        return viewers.shared();
    }
    let shared = viewers.shared();
    // An exited session refuses the resize: it keeps its last screen.
    if shared.size != before {
        tracing::debug!(
            session = %entry.info.session_id,
            rows = shared.size.rows,
            cols = shared.size.cols,
            lead = ?shared.lead,
            epoch = shared.epoch,
            "terminal resized"
        );
        let _ = entry.terminal.resize(shared.size);
    }
    deps.publish(DomainEvent::TerminalResized {
        session_id: entry.info.session_id,
        shared,
    });
    shared
}

fn viewers(entry: &Entry) -> MutexGuard<'_, Viewers> {
    entry.viewers.lock().unwrap_or_else(PoisonError::into_inner)
}
