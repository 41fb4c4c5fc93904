//! The terminal model of one session, behind the replay a client gets on attach.
//!
//! Every published byte goes through `alacritty_terminal` (its VT parser and grid): scrollback
//! bounded in lines like the frontend's xterm.js, attributes, wrap flags, modes, the alternate
//! screen. A resize reflows wrapped lines as xterm.js does. On attach the model is written
//! back out as escape sequences ([`serialize`]), so a fresh terminal of the same size shows
//! what the user saw, whatever the raw output was and wherever an old byte ring would have cut
//! it.

mod fast_forward;
mod feed;
mod handler;
mod modes;
mod serialize;
mod sgr;
#[cfg(test)]
mod tests;

pub(crate) use feed::ModelFeed;

use alacritty_terminal::event::{Event, EventListener};
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::term::{Config, Term, TermMode};
use alacritty_terminal::vte::ansi::{Processor, Timeout};
use handler::{Noted, Notes};
use idea_domain::terminal::TerminalSize;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The program's title (OSC 0/2), which the model only reports through its listener.
#[derive(Debug, Clone, Default)]
struct Titles(Arc<Mutex<Option<String>>>);

impl EventListener for Titles {
    fn send_event(&self, event: Event) {
        let title = match event {
            Event::Title(title) => Some(title),
            Event::ResetTitle => None,
            // Replies to queries (PtyWrite, colour requests…) are the client's xterm's job.
            _ => return,
        };
        *super::lock(&self.0) = title;
    }
}

/// Synchronized updates (mode 2026) are applied at once: the model draws nothing, so it has no
/// tearing to avoid, and a replay must never miss bytes held back waiting for the update's end.
#[derive(Debug, Default)]
struct Unsynchronized;

impl Timeout for Unsynchronized {
    fn set_timeout(&mut self, _: Duration) {}
    fn clear_timeout(&mut self) {}
    fn pending_timeout(&self) -> bool {
        false
    }
}

/// A terminal size as the model's grid takes it: at least one row and two columns.
#[derive(Debug, Clone, Copy)]
struct GridSize {
    rows: usize,
    cols: usize,
}

impl From<TerminalSize> for GridSize {
    fn from(size: TerminalSize) -> Self {
        Self {
            rows: usize::from(size.rows.max(1)),
            cols: usize::from(size.cols.max(2)),
        }
    }
}

impl Dimensions for GridSize {
    fn total_lines(&self) -> usize {
        self.rows
    }

    fn screen_lines(&self) -> usize {
        self.rows
    }

    fn columns(&self) -> usize {
        self.cols
    }
}

/// One session's screen and scrollback.
pub(crate) struct ScreenModel {
    term: Term<Titles>,
    parser: Processor<Unsynchronized>,
    titles: Titles,
    notes: Notes,
    scrollback_lines: usize,
    /// Nothing was fed yet: the replay is empty rather than a blank screen.
    blank: bool,
    /// Skips text that scrolls out anyway ([`fast_forward`]); off only to test it.
    fast_forward: bool,
}

impl std::fmt::Debug for ScreenModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScreenModel")
            .field("rows", &self.term.screen_lines())
            .field("cols", &self.term.columns())
            .field("history", &self.term.history_size())
            .finish_non_exhaustive()
    }
}

impl ScreenModel {
    /// An empty model of `size` keeping at most `scrollback_lines` lines above the screen.
    pub(crate) fn new(size: TerminalSize, scrollback_lines: usize) -> Self {
        let titles = Titles::default();
        let config = Config {
            scrolling_history: scrollback_lines,
            ..Config::default()
        };
        Self {
            term: Term::new(config, &GridSize::from(size), titles.clone()),
            parser: Processor::new(),
            titles,
            notes: Notes::default(),
            scrollback_lines,
            blank: true,
            fast_forward: true,
        }
    }

    /// One batch of output, in order. Long runs of text are fast-forwarded where that leaves
    /// the model as drawing every byte would ([`fast_forward`]).
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        self.feed_deferring(bytes, false);
    }

    /// Parses `bytes` into the terminal.
    pub(super) fn parse(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut handler = Noted {
            term: &mut self.term,
            notes: &mut self.notes,
        };
        let parser = &mut self.parser;
        // The model only serves replays: should the parser ever panic on some output, the
        // session starts a fresh model rather than losing its reader thread.
        let parsed = panic::catch_unwind(AssertUnwindSafe(|| parser.advance(&mut handler, bytes)));
        if parsed.is_err() {
            tracing::warn!("terminal model failed on this output: the replay starts over");
            let size = self.size();
            *self = Self::new(size, self.scrollback_lines);
            self.blank = false;
        }
    }

    /// Resizes the grid, reflowing wrapped lines (the alternate screen is cut, not reflowed,
    /// as in xterm.js).
    pub(crate) fn resize(&mut self, size: TerminalSize) {
        let target = GridSize::from(size);
        let narrower = target.cols < self.term.columns();
        let scrollback_was_empty = self.term.grid().history_size() == 0;
        self.term.resize(target);
        // Resizing resets the scrolling region.
        self.notes.region_is_screen = true;
        if narrower && scrollback_was_empty && !self.term.mode().contains(TermMode::ALT_SCREEN) {
            self.fill_below_like_xterm(target);
        }
    }

    /// The rows a narrower reflow adds go, in xterm.js, into the blank rows below the cursor
    /// while the scrollback is empty (the cursor moves down), and only then into the
    /// scrollback; alacritty pushes them all into the scrollback at once. Pull those lines back
    /// down: growing the screen takes them from the scrollback (the cursor moves down with
    /// them), shrinking it again drops as many rows from the bottom.
    fn fill_below_like_xterm(&mut self, target: GridSize) {
        let grid = self.term.grid();
        let below = target.rows - 1 - usize::try_from(grid.cursor.point.line.0).unwrap_or(0);
        let pull = grid.history_size().min(below);
        if pull > 0 {
            self.term.resize(GridSize {
                rows: target.rows + pull,
                cols: target.cols,
            });
            self.term.resize(target);
        }
    }

    /// The model's size (after the grid's minimum).
    pub(crate) fn size(&self) -> TerminalSize {
        let clamp = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        TerminalSize {
            rows: clamp(self.term.screen_lines()),
            cols: clamp(self.term.columns()),
        }
    }

    /// The model as escape sequences that rebuild it in a fresh terminal of the same size
    /// (see [`serialize`]); empty before any output.
    pub(crate) fn replay(&mut self) -> Vec<u8> {
        if self.blank {
            return Vec::new();
        }
        let title = super::lock(&self.titles.0).clone();
        serialize::replay(&mut self.term, title.as_deref(), serialize::Scope::Whole)
    }

    /// [`ScreenModel::replay`] without the scrollback: what the screen shows now.
    pub(crate) fn replay_screen(&mut self) -> Vec<u8> {
        if self.blank {
            return Vec::new();
        }
        let title = super::lock(&self.titles.0).clone();
        serialize::replay(&mut self.term, title.as_deref(), serialize::Scope::Screen)
    }
}
