//! Skipping text that scrolls out of the model before anyone could see it again.
//!
//! Drawing a byte costs the model about 10 ns (alacritty's cell writes and row resets), as much
//! CPU as the PTY, the server and a client together: during a flood (`cat` of a big log, a
//! verbose build) the model would take half the machine. Yet most of a long flood is lines
//! that end up beyond the last `scrollback + rows` lines, dropped. When a *run* of output is
//! only printable ASCII, CR, LF and colour changes (SGR), the state it leaves can be had
//! without drawing all of it:
//!
//! - the cursor's column and pending wrap follow from a walk over the run ([`Walk`]);
//! - the pen (colours, attributes) follows from the run's SGR sequences alone;
//! - every row on the grid or in the scrollback before the run's last `scrollback + 2 * rows`
//!   line advances is gone once those advances are drawn (at most `rows - 1` of them move the
//!   cursor down without scrolling, the rest scroll a row out each; `rows` scrolls empty the
//!   screen and `scrollback` more empty the scrollback).
//!
//! So the model applies the SGR sequences of the part it skips, puts the cursor where that part
//! would have left it, and draws the rest: the same grid, cell for cell (the tests compare it
//! with a model that drew every byte). The caller checks the rest of the conditions on the
//! terminal: main screen, auto-wrap on, no insert mode, LF not a newline, ASCII character sets,
//! the scrolling region the whole screen, and the parser between sequences.

use super::ScreenModel;
use alacritty_terminal::grid::{Charsets, Dimensions};
use alacritty_terminal::index::Column;
use alacritty_terminal::term::TermMode;

/// One piece of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    /// This many printable ASCII characters (one column each).
    Text(usize),
    CarriageReturn,
    LineFeed,
    /// `ESC [ params m`, this many bytes long.
    Sgr(usize),
}

impl Piece {
    fn len(self) -> usize {
        match self {
            Self::Text(len) | Self::Sgr(len) => len,
            Self::CarriageReturn | Self::LineFeed => 1,
        }
    }
}

fn printable(byte: u8) -> bool {
    (0x20..=0x7e).contains(&byte)
}

/// How many bytes at the start of `bytes` are printable ASCII (a block at a time while they
/// all are: that loop compiles to vector compares).
fn printable_len(bytes: &[u8]) -> usize {
    const BLOCK: usize = 32;
    let mut at = 0;
    for block in bytes.chunks_exact(BLOCK) {
        if !block.iter().all(|b| printable(*b)) {
            break;
        }
        at += BLOCK;
    }
    at + bytes[at..]
        .iter()
        .position(|b| !printable(*b))
        .unwrap_or(bytes.len() - at)
}

/// The piece starting at `bytes[0]`, if it can be part of a run.
fn piece(bytes: &[u8]) -> Option<Piece> {
    match *bytes.first()? {
        0x20..=0x7e => Some(Piece::Text(printable_len(bytes))),
        b'\r' => Some(Piece::CarriageReturn),
        b'\n' => Some(Piece::LineFeed),
        0x1b => sgr_len(bytes).map(Piece::Sgr),
        _ => None,
    }
}

/// The length of the complete SGR sequence at the start of `bytes` (`ESC [`, digits, `;` or
/// `:`, then `m`); `None` for anything else, or one cut short.
fn sgr_len(bytes: &[u8]) -> Option<usize> {
    if bytes.get(1) != Some(&b'[') {
        return None;
    }
    let params = bytes[2..]
        .iter()
        .take(65)
        .take_while(|b| b.is_ascii_digit() || **b == b';' || **b == b':')
        .count();
    // Long parameter lists are not worth proving equal to the parser's reading of them.
    (params <= 64 && bytes.get(2 + params) == Some(&b'm')).then_some(3 + params)
}

/// The pieces of `bytes` from its start, with their offsets, up to the first byte that cannot
/// be part of a run.
fn pieces(bytes: &[u8]) -> impl Iterator<Item = (usize, Piece)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let piece = piece(&bytes[at..])?;
        let this = at;
        at += piece.len();
        Some((this, piece))
    })
}

/// Where a run starting at `from` ends (`from` itself when the byte there cannot start one).
pub(super) fn run_end(bytes: &[u8], from: usize) -> usize {
    pieces(&bytes[from..])
        .last()
        .map_or(from, |(at, piece)| from + at + piece.len())
}

/// Whether `bytes[from..]` (starting at a piece) is all run, but perhaps for an SGR sequence
/// cut short at the end: then where a later look should start, once more bytes have come.
pub(super) fn text_until(bytes: &[u8], from: usize) -> Option<usize> {
    let end = run_end(bytes, from);
    let rest = &bytes[end..];
    let sgr_cut_short = rest.first().is_none_or(|b| *b == 0x1b)
        && rest.len() <= 66
        && rest.get(1).is_none_or(|b| *b == b'[')
        && rest
            .iter()
            .skip(2)
            .all(|b| b.is_ascii_digit() || *b == b';' || *b == b':');
    sgr_cut_short.then_some(end)
}

/// The first run of at least `min_len` bytes at or after `from`, as `start..end`.
pub(super) fn find_run(bytes: &[u8], from: usize, min_len: usize) -> Option<(usize, usize)> {
    find_run_before(bytes, from, min_len, bytes.len())
}

/// [`find_run`], for a run that starts before `before` (so a caller looking at a slice of a
/// long output scans only that slice, and the run it finds to its end).
pub(super) fn find_run_before(
    bytes: &[u8],
    from: usize,
    min_len: usize,
    before: usize,
) -> Option<(usize, usize)> {
    let mut at = from;
    while at < before && bytes.len().saturating_sub(at) >= min_len {
        let end = run_end(bytes, at);
        if end - at >= min_len {
            return Some((at, end));
        }
        at = end + 1;
    }
    None
}

/// The offset of the first printable character of `run` (not one inside an SGR sequence).
pub(super) fn first_char(run: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        match *run.get(at)? {
            b'\r' | b'\n' => at += 1,
            0x1b => at += sgr_len(&run[at..])?,
            byte => return printable(byte).then_some(at),
        }
    }
}

/// The cursor as a run moves it: column and pending wrap, on a screen `cols` wide with
/// auto-wrap on (as alacritty moves it for these pieces).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Walk {
    pub(super) col: usize,
    pub(super) pending_wrap: bool,
}

impl Walk {
    /// Draws `n` characters; returns the line advances they made. A character drawn in the
    /// last column leaves the cursor there with a wrap pending; the next one wraps first.
    fn text(&mut self, n: usize, cols: usize) -> u64 {
        if n == 0 {
            return 0;
        }
        let wrapped = u64::from(self.pending_wrap);
        let first = if self.pending_wrap { 0 } else { self.col };
        // Where the last character lands, counting columns from the start of the first row.
        let last = first + n - 1;
        let column = last % cols;
        if column + 1 < cols {
            self.col = column + 1;
            self.pending_wrap = false;
        } else {
            self.col = column;
            self.pending_wrap = true;
        }
        wrapped + (last / cols) as u64
    }

    /// How many of `n` characters can be drawn making at most `allowed` line advances.
    fn text_within(&self, n: usize, cols: usize, allowed: u64) -> usize {
        let wrapped = u64::from(self.pending_wrap);
        let Some(after_first) = allowed.checked_sub(wrapped) else {
            return 0;
        };
        let first = if self.pending_wrap { 0 } else { self.col };
        // The next advance comes with the character landing at column 0 of row
        // `after_first + 1`, counting rows from the first character's.
        let next_advance_at = (after_first + 1)
            .saturating_mul(cols as u64)
            .saturating_sub(first as u64);
        n.min(usize::try_from(next_advance_at).unwrap_or(usize::MAX))
    }

    /// Moves over a piece that is not text; returns the line advances it made.
    fn control(&mut self, piece: Piece) -> u64 {
        match piece {
            Piece::CarriageReturn => {
                self.col = 0;
                self.pending_wrap = false;
                0
            }
            // A line feed keeps a pending wrap, as in alacritty.
            Piece::LineFeed => 1,
            Piece::Text(_) | Piece::Sgr(_) => 0,
        }
    }
}

/// What to skip of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Skip {
    /// The run's first `to` bytes are skipped...
    pub(super) to: usize,
    /// ...after which the cursor is here...
    pub(super) cursor: Walk,
    /// ...and the pen as these SGR sequences (those of the skipped part, in order) leave it.
    pub(super) sgr: Vec<u8>,
}

/// The longest part of `run` (starting with the cursor at `start`) that can be skipped so that
/// what is left still makes `keep_advances` line advances, and still draws a character (the
/// parser remembers the last one drawn, for REP). `None` when no line advance can be skipped.
pub(super) fn plan(run: &[u8], start: Walk, cols: usize, keep_advances: u64) -> Option<Skip> {
    let cols = cols.max(1);
    let (mut advances, mut chars) = (0u64, 0usize);
    let mut walk = start;
    for (_, piece) in pieces(run) {
        advances += match piece {
            Piece::Text(n) => {
                chars += n;
                walk.text(n, cols)
            }
            other => walk.control(other),
        };
    }
    let budget = advances.checked_sub(keep_advances)?;
    // Skip as much as the budget allows: stop before the advance that would go over it.
    let (mut used, mut skipped_chars, mut to) = (0u64, 0usize, 0usize);
    let mut walk = start;
    let mut sgr = Vec::new();
    for (at, piece) in pieces(run) {
        match piece {
            Piece::Text(n) => {
                let fits = walk.text_within(n, cols, budget - used);
                used += walk.text(fits, cols);
                skipped_chars += fits;
                to = at + fits;
                if fits < n {
                    break;
                }
            }
            Piece::Sgr(len) => {
                sgr.extend_from_slice(&run[at..at + len]);
                to = at + len;
            }
            other => {
                let mut next = walk;
                let advance = next.control(other);
                if used + advance > budget {
                    break;
                }
                used += advance;
                walk = next;
                to = at + 1;
            }
        }
    }
    (used > 0 && chars > skipped_chars).then_some(Skip {
        to,
        cursor: walk,
        sgr,
    })
}

/// How many characters of a run may be drawn one by one to find the parser ready for text.
const PROBES_PER_RUN: usize = 8;

impl ScreenModel {
    /// [`ScreenModel::feed`], except that with `more_coming` the text of a fast-forwarded run
    /// that reaches the end of `bytes` is left unparsed: returns how many bytes at the end were
    /// not parsed, for the caller to feed again before what comes next. During a flood, the
    /// next batch then scrolls that text out too, and the model draws next to nothing.
    pub(crate) fn feed_deferring(&mut self, bytes: &[u8], more_coming: bool) -> usize {
        if bytes.is_empty() {
            return 0;
        }
        self.blank = false;
        let mut drawn = 0;
        let min_run = self.min_run();
        while self.fast_forward {
            let Some((start, end)) = find_run(bytes, drawn, min_run) else {
                break;
            };
            self.parse(&bytes[drawn..start]);
            drawn = start;
            let mut skipped = false;
            // A character of the run drawn alone proves the parser ready for text (the run may
            // start inside a sequence: its first characters may be the sequence's end).
            for _ in 0..PROBES_PER_RUN {
                let Some(probe) = first_char(&bytes[drawn..end]).map(|at| drawn + at) else {
                    break;
                };
                self.parse(&bytes[drawn..probe]);
                self.notes.start_probe();
                self.parse(&bytes[probe..=probe]);
                drawn = probe + 1;
                if self.notes.drew_only(char::from(bytes[probe])) {
                    if self.plain_text_draws_plainly() {
                        let skip = self.skip_scrolled_out(&bytes[drawn..end]);
                        drawn += skip;
                        skipped = skip > 0;
                    }
                    break;
                }
            }
            if more_coming && skipped && end == bytes.len() {
                return end - drawn;
            }
            self.parse(&bytes[drawn..end]);
            drawn = end;
        }
        self.parse(&bytes[drawn..]);
        0
    }

    /// How long a run must be to be worth planning a fast-forward (a run makes at most one
    /// line advance per byte).
    pub(super) fn min_run(&self) -> usize {
        usize::try_from(self.advances_to_keep()).unwrap_or(usize::MAX)
    }

    /// How much of `bytes` to feed in one go, so that whoever waits for the model waits for
    /// at most about `slice` bytes of parsing: through the end of the first run worth
    /// fast-forwarding if one starts within `slice` (a run must stay whole to be skipped, and
    /// only its last part is parsed), otherwise `slice` bytes.
    pub(super) fn next_step(&self, bytes: &[u8], slice: usize) -> usize {
        let slice = slice.min(bytes.len());
        if !self.fast_forward {
            return slice;
        }
        match find_run_before(bytes, 0, self.min_run(), slice) {
            Some((_, end)) => end,
            None => slice,
        }
    }

    /// Line advances after which nothing of the grid or scrollback before them is left.
    fn advances_to_keep(&self) -> u64 {
        let rows = self.term.screen_lines() as u64;
        self.scrollback_lines as u64 + 2 * rows
    }

    /// Printable ASCII, CR and LF do here what this module computes: main screen, auto-wrap,
    /// no insert mode, LF only a line feed, ASCII in every character set, scrolling region the
    /// whole screen.
    fn plain_text_draws_plainly(&self) -> bool {
        let mode = *self.term.mode();
        mode.contains(TermMode::LINE_WRAP)
            && !mode
                .intersects(TermMode::ALT_SCREEN | TermMode::INSERT | TermMode::LINE_FEED_NEW_LINE)
            && self.term.grid().cursor.charsets == Charsets::default()
            && self.notes.region_is_screen
    }

    /// Skips what it can of `run` (see the module's comment): applies the skipped part's colours and
    /// moves the cursor where it would have left it. Returns how many bytes were skipped.
    fn skip_scrolled_out(&mut self, run: &[u8]) -> usize {
        let cursor = &self.term.grid().cursor;
        let start = Walk {
            col: cursor.point.column.0,
            pending_wrap: cursor.input_needs_wrap,
        };
        let cols = self.term.columns();
        let Some(skip) = plan(run, start, cols, self.advances_to_keep()) else {
            return 0;
        };
        self.parse(&skip.sgr);
        let cursor = &mut self.term.grid_mut().cursor;
        cursor.point.column = Column(skip.cursor.col);
        cursor.input_needs_wrap = skip.cursor.pending_wrap;
        skip.to
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_run_is_plain_text_line_ends_and_whole_sgr_sequences() {
        let bytes = b"ab\r\n\x1b[1;32mok\x1b[m \x1b[2Kx";
        assert_eq!(run_end(bytes, 0), 17);
        assert_eq!(run_end(b"a\tb", 0), 1);
        assert_eq!(run_end(b"a\x1b[3", 0), 1, "an SGR cut short ends the run");
        assert_eq!(run_end("é".as_bytes(), 0), 0);
        assert_eq!(find_run(b"\x07abc\tabcdef", 0, 4), Some((5, 11)));
        assert_eq!(find_run(b"abc\tdef", 0, 4), None);
        assert_eq!(text_until(b"ab\r\n\x1b[1m", 0), Some(8));
        assert_eq!(
            text_until(b"ab\x1b[1;3", 0),
            Some(2),
            "an SGR cut short by the batch"
        );
        assert_eq!(text_until(b"ab\x1b[H", 0), None);
        assert_eq!(text_until(b"ab\x07", 0), None);
        assert_eq!(first_char(b"\r\n\x1b[31mx"), Some(7));
        let mut long = vec![b'a'; 100];
        assert_eq!(printable_len(&long), 100);
        long[70] = b'\n';
        assert_eq!(printable_len(&long), 70);
    }

    #[test]
    fn the_walk_wraps_as_the_terminal_does() {
        let mut walk = Walk {
            col: 0,
            pending_wrap: false,
        };
        let advances: u64 = (0..4).map(|_| walk.text(1, 4)).sum();
        assert_eq!((advances, walk.col, walk.pending_wrap), (0, 3, true));
        assert_eq!(walk.control(Piece::LineFeed), 1);
        assert!(walk.pending_wrap, "a line feed keeps the pending wrap");
        assert_eq!(walk.text(1, 4), 1);
        assert_eq!((walk.col, walk.pending_wrap), (1, false));
        walk.control(Piece::CarriageReturn);
        assert_eq!(walk.col, 0);
    }

    #[test]
    fn drawing_text_at_once_is_drawing_it_character_by_character() {
        for cols in 1..7 {
            for col in 0..cols {
                for pending_wrap in [false, true] {
                    let start = Walk { col, pending_wrap };
                    for n in 0..40 {
                        let mut once = start;
                        let advances = once.text(n, cols);
                        let mut each = start;
                        let mut steps = Vec::new();
                        for _ in 0..n {
                            steps.push(each.text(1, cols));
                        }
                        assert_eq!((once, advances), (each, steps.iter().sum()));
                        // The most characters that make at most `allowed` advances.
                        for allowed in 0..10u64 {
                            let mut sum = 0;
                            let fits = steps
                                .iter()
                                .take_while(|a| {
                                    sum += **a;
                                    sum <= allowed
                                })
                                .count();
                            assert_eq!(start.text_within(n, cols, allowed), fits);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_plan_keeps_the_last_advances_and_collects_the_skipped_colours() {
        let run = b"\x1b[31ma\r\nb\r\n\x1b[32mc\r\nd\r\ne";
        let start = Walk {
            col: 0,
            pending_wrap: false,
        };
        let skip = plan(run, start, 80, 2).unwrap();
        // Four line feeds, two kept: the skip ends just before the third.
        assert_eq!(&run[skip.to..], b"\nd\r\ne".as_slice());
        assert_eq!(skip.sgr, b"\x1b[31m\x1b[32m");
        assert_eq!(skip.cursor, start);
        assert_eq!(plan(run, start, 80, 4), None, "nothing to spare");
        assert_eq!(
            plan(b"a\n\n\n", start, 80, 1),
            None,
            "the rest must draw a character"
        );
    }
}
