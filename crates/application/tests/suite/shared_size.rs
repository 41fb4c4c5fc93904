//! One size for a terminal several clients show (issue 18: a phone opening the page resized
//! a desktop's session to 8 columns, which stayed after the phone left). The rule itself is
//! tested in `idea_domain::terminal::viewers`; here, through the use cases: what reaches the
//! terminal and what every client is told.

use crate::suite::sessions::two_cells;
use crate::support::{World, world};
use idea_application::sessions;
use idea_domain::terminal::{ReplayScope, SharedSize, TerminalSize};
use idea_domain::{CellRef, DomainEvent, SessionId};
use std::sync::Arc;

const DESKTOP: TerminalSize = TerminalSize {
    rows: 40,
    cols: 160,
};
const PHONE: TerminalSize = TerminalSize { rows: 30, cols: 44 };

fn shell(w: &World) -> SessionId {
    let (layout, cell, _) = two_cells(w);
    let cell = CellRef::new(layout, cell);
    sessions::open_shell(&w.deps, cell, TerminalSize::default())
        .unwrap()
        .session_id
}

fn attach(w: &World, session: SessionId, size: TerminalSize) -> sessions::Attached {
    sessions::attach(
        &w.deps,
        session,
        Box::new(|_| {}),
        Some(size),
        ReplayScope::Whole,
    )
    .unwrap()
}

/// The `TerminalResized` events published since the last call.
fn resized(w: &World) -> Vec<SharedSize> {
    w.events
        .take()
        .into_iter()
        .filter_map(|e| match e {
            DomainEvent::TerminalResized { shared, .. } => Some(shared),
            _ => None,
        })
        .collect()
}

#[test]
fn a_second_client_follows_the_first_until_its_user_types_and_the_first_gets_it_back_when_it_leaves()
 {
    let w = world();
    let session = shell(&w);
    let terminal = Arc::clone(&w.terminals.sessions.lock().unwrap()[0]);
    let desktop = attach(&w, session, DESKTOP);
    assert_eq!(desktop.shared.size, DESKTOP);
    assert_eq!(desktop.shared.lead, Some(desktop.id));
    assert_eq!(terminal.size(), Some(DESKTOP));
    w.events.take();

    let phone = attach(&w, session, PHONE);
    assert_eq!(
        phone.shared.size, DESKTOP,
        "the phone's replay is drawn at the desktop's size"
    );
    assert_eq!(phone.shared.lead, Some(desktop.id));
    assert_eq!(terminal.size(), Some(DESKTOP));
    sessions::fit(
        &w.deps,
        session,
        phone.id,
        TerminalSize { rows: 20, cols: 40 },
    )
    .unwrap();
    assert_eq!(
        terminal.size(),
        Some(DESKTOP),
        "a following client's cell changes nothing"
    );
    assert!(resized(&w).is_empty());

    sessions::lead(&w.deps, session, phone.id);
    assert_eq!(terminal.size(), Some(TerminalSize { rows: 20, cols: 40 }));
    let told = resized(&w);
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].lead, Some(phone.id));
    assert_eq!(told[0].size, TerminalSize { rows: 20, cols: 40 });
    sessions::lead(&w.deps, session, phone.id);
    assert!(resized(&w).is_empty(), "the next keystroke changes nothing");

    sessions::detach(&w.deps, session, phone.id);
    assert_eq!(
        terminal.size(),
        Some(DESKTOP),
        "restored when the phone leaves"
    );
    let told = resized(&w);
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].lead, Some(desktop.id));
    assert!(told[0].epoch > phone.shared.epoch);
    assert_eq!(sessions::shared_size(&w.deps, session).unwrap(), told[0]);
}

#[test]
fn an_explicit_resize_is_told_to_every_client() {
    let w = world();
    let session = shell(&w);
    let desktop = attach(&w, session, DESKTOP);
    w.events.take();
    sessions::resize(&w.deps, session, PHONE).unwrap();
    let told = resized(&w);
    assert_eq!(told.len(), 1);
    assert_eq!((told[0].size, told[0].lead), (PHONE, Some(desktop.id)));
}

#[test]
fn fitting_or_leading_an_unknown_session_or_attachment_changes_nothing() {
    let w = world();
    let session = shell(&w);
    attach(&w, session, DESKTOP);
    w.events.take();
    let unknown = SessionId::from_uuid(uuid::Uuid::from_u128(0xdead));
    let error = sessions::fit(&w.deps, unknown, 1, PHONE).unwrap_err();
    assert_eq!(error.code(), "SESSION_NOT_FOUND");
    sessions::lead(&w.deps, unknown, 1);
    sessions::fit(&w.deps, session, 99, PHONE).unwrap();
    sessions::lead(&w.deps, session, 99);
    sessions::detach(&w.deps, session, 99);
    assert!(resized(&w).is_empty());
    let huge = TerminalSize {
        rows: 9999,
        cols: 9999,
    };
    let error = sessions::fit(&w.deps, session, 1, huge).unwrap_err();
    assert_eq!(error.code(), "INVALID_PARAMS");
}
