//! One size for a terminal several clients show. A session's PTY has one size, but a desktop
//! window and a phone may show it at once; if each client resized it to its own cell, the last
//! one to report would rewrap everyone's screen. The rule (docs/terminal-path.md, "One size,
//! many clients"):
//!
//! - the session has the size its **leading** client wants (that client's cell), never less
//!   than [`SHARED_MIN`];
//! - the first client to attach leads; another client leads from the moment its user types in
//!   the terminal or asks to fit it there; merely opening a page takes nothing over;
//! - when the leading client leaves, the most recently active of the others leads;
//! - every other client draws the session at the session's size (scrolling inside its cell, or
//!   with a margin), so nobody's screen is rewrapped by someone else's window.

use super::TerminalSize;
use serde::{Deserialize, Serialize};

/// The smallest size a client's cell gives a shared terminal: below it a shell's prompt and
/// an agent's screen stop making sense, and the replay's model would rewrap (and lose) every
/// line for everyone. A smaller cell scrolls.
pub const SHARED_MIN: TerminalSize = TerminalSize { rows: 5, cols: 20 };

/// What every client of a session needs to draw it: its size, which attachment leads, and a
/// counter that grows with every change (an answer and an event may arrive in either order:
/// the larger `epoch` wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SharedSize {
    pub size: TerminalSize,
    /// The leading client's attachment; `None` when no client is attached.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub lead: Option<u64>,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub epoch: u64,
}

/// The clients of one session and the size they share ([`SharedSize`]). Pure: the caller
/// resizes the PTY to [`Viewers::shared`]'s size whenever a method returns `true`.
#[derive(Debug, Clone)]
pub struct Viewers {
    viewers: Vec<Viewer>,
    shared: SharedSize,
    /// Orders the clients' activity (a logical clock, not time).
    clock: u64,
}

#[derive(Debug, Clone)]
struct Viewer {
    attachment: u64,
    /// Its cell's size; `None` until it says (it then leaves the size as it is).
    wanted: Option<TerminalSize>,
    active: u64,
}

impl Viewers {
    /// A session of `size` nobody shows yet.
    #[must_use]
    pub fn new(size: TerminalSize) -> Self {
        Self {
            viewers: Vec::new(),
            shared: SharedSize {
                size,
                lead: None,
                epoch: 0,
            },
            clock: 0,
        }
    }

    #[must_use]
    pub fn shared(&self) -> SharedSize {
        self.shared
    }

    /// The size a client joining with `wanted` will find the session at (its replay is drawn
    /// for it): its own when nobody leads, the session's otherwise.
    #[must_use]
    pub fn size_for_newcomer(&self, wanted: Option<TerminalSize>) -> TerminalSize {
        match (self.shared.lead, wanted) {
            (None, Some(wanted)) => at_least_shared_min(wanted),
            _ => self.shared.size,
        }
    }

    /// `attachment` joined, wanting `wanted`; the session was set to `drawn` for its replay
    /// ([`Self::size_for_newcomer`], or the same size for a client without one). Two clients
    /// joining at once may both have been given their own size: the rule then settles it.
    pub fn join(
        &mut self,
        attachment: u64,
        wanted: Option<TerminalSize>,
        drawn: TerminalSize,
    ) -> bool {
        let mut changed = self.set_size(drawn);
        let active = self.tick();
        self.viewers.retain(|v| v.attachment != attachment);
        self.viewers.push(Viewer {
            attachment,
            wanted,
            active,
        });
        if self.shared.lead.is_none() {
            self.shared.lead = Some(attachment);
            changed = true;
        }
        self.settle(changed)
    }

    /// `attachment` left; if it led, the most recently active of the others leads.
    pub fn leave(&mut self, attachment: u64) -> bool {
        let before = self.viewers.len();
        self.viewers.retain(|v| v.attachment != attachment);
        if self.viewers.len() == before || self.shared.lead != Some(attachment) {
            return false;
        }
        self.shared.lead = self
            .viewers
            .iter()
            .max_by_key(|v| v.active)
            .map(|v| v.attachment);
        self.settle(true)
    }

    /// The user typed in `attachment`'s client, or asked to fit the terminal there: it leads.
    /// An unknown attachment (it left meanwhile) changes nothing.
    pub fn lead(&mut self, attachment: u64) -> bool {
        let active = self.tick();
        let Some(viewer) = self.viewer_mut(attachment) else {
            return false;
        };
        viewer.active = active;
        if self.shared.lead == Some(attachment) {
            return false;
        }
        self.shared.lead = Some(attachment);
        self.settle(true)
    }

    /// `attachment`'s cell is now `wanted` (the window or the layout changed).
    pub fn fit(&mut self, attachment: u64, wanted: TerminalSize) -> bool {
        let Some(viewer) = self.viewer_mut(attachment) else {
            return false;
        };
        if viewer.wanted == Some(wanted) {
            return false;
        }
        viewer.wanted = Some(wanted);
        self.settle(false)
    }

    /// Whether `attachment` leads now (a keystroke from a leading client changes nothing).
    #[must_use]
    pub fn leads(&self, attachment: u64) -> bool {
        self.shared.lead == Some(attachment)
    }

    /// The session was resized to `size` by a caller outside the rule (`resizeTerminal`): it
    /// holds until the leading client's cell changes or another client leads.
    pub fn resized(&mut self, size: TerminalSize) -> bool {
        if !self.set_size(size) {
            return false;
        }
        self.shared.epoch += 1;
        true
    }

    fn viewer_mut(&mut self, attachment: u64) -> Option<&mut Viewer> {
        self.viewers.iter_mut().find(|v| v.attachment == attachment)
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    fn set_size(&mut self, size: TerminalSize) -> bool {
        let changed = self.shared.size != size;
        self.shared.size = size;
        changed
    }

    /// Gives the session the leading client's size; counts a change (of the size or, when
    /// `changed`, of anything else) in the epoch.
    fn settle(&mut self, changed: bool) -> bool {
        let lead = self.shared.lead;
        let wanted = self
            .viewers
            .iter()
            .find(|v| Some(v.attachment) == lead)
            .and_then(|v| v.wanted);
        let resized = wanted.is_some_and(|wanted| self.set_size(at_least_shared_min(wanted)));
        if changed || resized {
            self.shared.epoch += 1;
            return true;
        }
        false
    }
}

fn at_least_shared_min(size: TerminalSize) -> TerminalSize {
    TerminalSize {
        rows: size.rows.max(SHARED_MIN.rows),
        cols: size.cols.max(SHARED_MIN.cols),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESKTOP: TerminalSize = TerminalSize {
        rows: 40,
        cols: 160,
    };
    const PHONE: TerminalSize = TerminalSize { rows: 30, cols: 44 };
    const LAUNCH: TerminalSize = TerminalSize { rows: 24, cols: 80 };

    fn size(v: &Viewers) -> TerminalSize {
        v.shared().size
    }

    /// A desktop attached and leading; returns the rule.
    fn desktop_leading() -> Viewers {
        let mut v = Viewers::new(LAUNCH);
        let drawn = v.size_for_newcomer(Some(DESKTOP));
        assert_eq!(drawn, DESKTOP);
        assert!(v.join(1, Some(DESKTOP), drawn));
        v
    }

    #[test]
    fn the_first_client_leads_and_sets_the_size() {
        let v = desktop_leading();
        assert_eq!(v.shared().lead, Some(1));
        assert_eq!(size(&v), DESKTOP);
    }

    #[test]
    fn a_second_client_opening_the_page_takes_nothing_over() {
        let mut v = desktop_leading();
        let drawn = v.size_for_newcomer(Some(PHONE));
        assert_eq!(
            drawn, DESKTOP,
            "the phone's replay is drawn at the desktop's size"
        );
        v.join(2, Some(PHONE), drawn);
        assert!(!v.fit(2, PHONE), "a follower's cell changes nothing");
        assert_eq!(size(&v), DESKTOP);
        assert_eq!(v.shared().lead, Some(1));
    }

    #[test]
    fn typing_on_the_phone_gives_it_the_size_and_typing_back_on_the_desktop_restores_it() {
        let mut v = desktop_leading();
        v.join(2, Some(PHONE), v.size_for_newcomer(Some(PHONE)));
        let epoch = v.shared().epoch;
        assert!(v.lead(2));
        assert_eq!(size(&v), PHONE);
        assert!(v.shared().epoch > epoch);
        assert!(!v.lead(2), "a second keystroke changes nothing");
        assert!(v.lead(1));
        assert_eq!(size(&v), DESKTOP);
    }

    #[test]
    fn when_the_leader_leaves_the_most_recently_active_other_leads() {
        let mut v = desktop_leading();
        v.join(2, Some(PHONE), DESKTOP);
        v.join(
            3,
            Some(TerminalSize {
                rows: 20,
                cols: 100,
            }),
            DESKTOP,
        );
        v.lead(2); // phone typed last
        v.lead(1); // then the desktop
        assert!(v.leave(1));
        assert_eq!(
            v.shared().lead,
            Some(2),
            "the phone was active after the third joined"
        );
        assert_eq!(size(&v), PHONE);
        assert!(v.leave(2));
        assert_eq!(v.shared().lead, Some(3));
        assert!(v.leave(3));
        assert_eq!(v.shared().lead, None);
        assert_eq!(
            size(&v),
            TerminalSize {
                rows: 20,
                cols: 100
            },
            "the size stays"
        );
    }

    #[test]
    fn a_follower_leaving_changes_nothing() {
        let mut v = desktop_leading();
        v.join(2, Some(PHONE), DESKTOP);
        let before = v.shared();
        assert!(!v.leave(2));
        assert!(!v.leave(9), "an unknown attachment");
        assert_eq!(v.shared(), before);
    }

    #[test]
    fn a_tiny_cell_never_shrinks_the_session_below_the_minimum() {
        let mut v = Viewers::new(LAUNCH);
        let tiny = TerminalSize { rows: 2, cols: 2 };
        assert_eq!(v.size_for_newcomer(Some(tiny)), SHARED_MIN);
        v.join(1, Some(tiny), SHARED_MIN);
        assert_eq!(size(&v), SHARED_MIN);
        v.fit(1, TerminalSize { rows: 3, cols: 90 });
        assert_eq!(size(&v), TerminalSize { rows: 5, cols: 90 });
    }

    #[test]
    fn the_leaders_cell_changing_resizes_the_session() {
        let mut v = desktop_leading();
        let bigger = TerminalSize {
            rows: 50,
            cols: 200,
        };
        assert!(v.fit(1, bigger));
        assert_eq!(size(&v), bigger);
        assert!(!v.fit(1, bigger), "the same size again is no change");
    }

    #[test]
    fn two_clients_joining_at_once_settle_on_the_first_ones_size() {
        let mut v = Viewers::new(LAUNCH);
        // Both asked before either joined: each was given its own size.
        let (a, b) = (
            v.size_for_newcomer(Some(DESKTOP)),
            v.size_for_newcomer(Some(PHONE)),
        );
        v.join(1, Some(DESKTOP), a);
        assert!(
            v.join(2, Some(PHONE), b),
            "the PHONE replay resized the session"
        );
        assert_eq!(
            size(&v),
            DESKTOP,
            "…and the rule puts it back to the leader's"
        );
    }

    #[test]
    fn a_client_without_a_size_leaves_the_size_as_it_is() {
        let mut v = Viewers::new(LAUNCH);
        assert_eq!(v.size_for_newcomer(None), LAUNCH);
        v.join(1, None, LAUNCH);
        assert_eq!(size(&v), LAUNCH);
        assert_eq!(v.shared().lead, Some(1));
    }

    #[test]
    fn a_direct_resize_holds_until_the_leaders_cell_changes() {
        let mut v = desktop_leading();
        assert!(v.resized(LAUNCH));
        assert_eq!(size(&v), LAUNCH);
        v.fit(1, DESKTOP);
        assert_eq!(size(&v), LAUNCH, "the leader's cell did not change");
        v.fit(1, PHONE);
        assert_eq!(size(&v), PHONE);
    }
}
