//! Every use case that takes a terminal size refuses one out of `TerminalSize`'s bound
//! (`INVALID_PARAMS`, naming the bound) before anything reaches a terminal (issue 17: one resize to
//! 65535 × 65535 grew `idea serve` by gigabytes).

use crate::suite::sessions::{agent, two_cells};
use crate::support::{World, world};
use idea_application::sessions::{self, LaunchAgent};
use idea_domain::CellRef;
use idea_domain::terminal::{ReplayScope, SHARED_MIN, SessionInfo, SessionStatus, TerminalSize};

const HUGE: TerminalSize = TerminalSize {
    rows: 65535,
    cols: 65535,
};

/// Sizes just past each end of the bound, and the one of the issue.
fn out_of_bounds() -> [TerminalSize; 5] {
    let (min, max) = (TerminalSize::MIN, TerminalSize::MAX);
    [
        HUGE,
        TerminalSize {
            rows: max.rows + 1,
            ..max
        },
        TerminalSize {
            cols: max.cols + 1,
            ..max
        },
        TerminalSize {
            rows: min.rows - 1,
            ..min
        },
        TerminalSize {
            cols: min.cols - 1,
            ..min
        },
    ]
}

fn assert_refused<T: std::fmt::Debug>(result: idea_application::AppResult<T>, size: TerminalSize) {
    let error = result.expect_err(&format!("{size:?} was accepted"));
    assert_eq!(error.code(), "INVALID_PARAMS", "{size:?}: {error}");
    let bound = format!(
        "{} to {} rows and {} to {} columns",
        TerminalSize::MIN.rows,
        TerminalSize::MAX.rows,
        TerminalSize::MIN.cols,
        TerminalSize::MAX.cols
    );
    assert!(error.to_string().contains(&bound), "{error}");
}

fn shell(w: &World) -> SessionInfo {
    let (layout, cell, _) = two_cells(w);
    sessions::open_shell(&w.deps, CellRef::new(layout, cell), TerminalSize::default()).unwrap()
}

#[test]
fn launching_an_agent_or_a_shell_out_of_bounds_spawns_nothing() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, cell, other) = two_cells(&w);
    let cell = CellRef::new(layout, cell);
    for size in out_of_bounds() {
        assert_refused(sessions::open_shell(&w.deps, cell, size), size);
        let launch = LaunchAgent {
            agent_id: ada.agent_id,
            cell,
            size,
            fresh: false,
        };
        assert_refused(sessions::launch_agent(&w.deps, launch), size);
    }
    assert!(w.terminals.spawned.lock().unwrap().is_empty());
    // Both ends of the bound are fine.
    sessions::open_shell(&w.deps, cell, TerminalSize::MIN).unwrap();
    sessions::open_shell(&w.deps, CellRef::new(layout, other), TerminalSize::MAX).unwrap();
}

#[test]
fn a_resize_or_an_attach_out_of_bounds_leaves_the_terminal_as_it_was() {
    let w = world();
    let session = shell(&w).session_id;
    for size in out_of_bounds() {
        assert_refused(sessions::resize(&w.deps, session, size), size);
        let attached = sessions::attach(
            &w.deps,
            session,
            Box::new(|_| {}),
            Some(size),
            ReplayScope::Whole,
        );
        assert_refused(attached, size);
    }
    let terminal = w.terminals.sessions.lock().unwrap()[0].clone();
    assert!(terminal.resized.lock().unwrap().is_empty());
    sessions::resize(&w.deps, session, TerminalSize::MAX).unwrap();
    sessions::attach(
        &w.deps,
        session,
        Box::new(|_| {}),
        Some(TerminalSize::MIN),
        ReplayScope::Whole,
    )
    .unwrap();
    // A client's cell smaller than the shared minimum gives the session the minimum.
    assert_eq!(
        *terminal.resized.lock().unwrap(),
        [TerminalSize::MAX, SHARED_MIN]
    );
}

#[test]
fn a_restart_out_of_bounds_is_refused_before_the_old_process_is_stopped() {
    let w = world();
    let first = shell(&w);
    assert_refused(sessions::restart(&w.deps, first.session_id, HUGE), HUGE);
    let listed = sessions::list(&w.deps);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].session_id, first.session_id);
    assert_eq!(listed[0].status, SessionStatus::Running);
    assert_eq!(w.terminals.spawned.lock().unwrap().len(), 1);
}
