//! The model written back out as the escape sequences that rebuild it, modelled on xterm.js's
//! serialize addon: scrollback then screen, row by row. A wrapped row is printed to its last
//! column and its continuation follows with no line break, so the receiving terminal wraps it
//! itself, marks it wrapped and can reflow it later; other rows end with CR LF. Then the
//! alternate screen over the main one, the modes a program set, and the cursor last.

use super::modes;
use super::sgr::{self, Pen};
use alacritty_terminal::grid::{Dimensions, Grid};
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::cell::{Cell, Flags, Hyperlink};
use alacritty_terminal::term::{Term, TermMode};
use std::io::Write;

/// How much of the model a replay draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    /// Scrollback and screen.
    Whole,
    /// The screen alone.
    Screen,
}

/// The model (all of it, or its screen), ready to be written into a fresh terminal of the
/// model's size.
pub(super) fn replay<T>(term: &mut Term<T>, title: Option<&str>, scope: Scope) -> Vec<u8>
where
    T: alacritty_terminal::event::EventListener,
{
    let mut out = Writer::default();
    if term.mode().contains(TermMode::ALT_SCREEN) {
        // The main screen is only reachable as the active grid: swap, read it, swap back and
        // put the alternate screen back (swapping in clears it).
        let alternate = term.grid().clone();
        term.swap_alt();
        out.grid(term.grid(), scope);
        out.goto(
            term.grid().cursor.point.line,
            term.grid().cursor.point.column,
        );
        term.swap_alt();
        *term.grid_mut() = alternate;
        out.reset_pen();
        out.bytes.extend_from_slice(b"\x1b[?1049h\x1b[H");
    }
    out.grid(term.grid(), scope);
    out.cursor(term.grid());
    out.bytes.extend(modes::sequences(term, title));
    out.bytes
}

/// The bytes written so far and the receiving terminal's state as they leave it.
#[derive(Default)]
struct Writer {
    bytes: Vec<u8>,
    pen: Pen,
    link: Option<Hyperlink>,
    /// Where the next character lands in the current row; `cols` when a wrap is pending.
    at: usize,
}

/// Where a row sits among its neighbours.
struct RowContext {
    line: Line,
    /// The cursor's column, on the cursor's row.
    cursor_col: Option<Column>,
    /// The previous row wrapped into this one.
    continues: bool,
    /// The next row starts with a wide character.
    next_starts_wide: bool,
}

/// A cell that looks and is like an erased one: skipped rather than printed.
fn is_blank(cell: &Cell) -> bool {
    cell.c == ' '
        && cell.fg == Cell::default().fg
        && cell.bg == Cell::default().bg
        && (cell.flags - Flags::WRAPLINE).is_empty()
        && cell.extra.is_none()
}

impl Writer {
    /// Every row of `grid` (scrollback first, unless `scope` is the screen alone), from the
    /// receiving terminal's top-left corner.
    fn grid(&mut self, grid: &Grid<Cell>, scope: Scope) {
        let (top, scrolls) = match scope {
            Scope::Whole => (grid.topmost_line(), grid.history_size() > 0),
            Scope::Screen => (Line(0), false),
        };
        let mut bottom = grid.bottommost_line();
        if !scrolls {
            // No scrolling is needed to put the rows in place: stop at the last that matters.
            // (With scrollback every screen row is written, so the last lands at the bottom.)
            let cursor = grid.cursor.point.line;
            while bottom > cursor && grid[bottom].is_clear() {
                bottom -= 1;
            }
        }
        let mut line = top;
        let mut continues = false;
        while line <= bottom {
            let cursor_col = (grid.cursor.point.line == line).then_some(grid.cursor.point.column);
            let next_starts_wide = line < bottom
                && grid[line + 1i32][Column(0)]
                    .flags
                    .contains(Flags::WIDE_CHAR);
            let row = RowContext {
                line,
                cursor_col,
                continues,
                next_starts_wide,
            };
            continues = self.row(grid, &row);
            if line < bottom && !continues {
                self.newline();
            }
            line += 1;
        }
    }

    /// One row; returns whether it continues on the next (and so ends without a line break).
    fn row(&mut self, grid: &Grid<Cell>, context: &RowContext) -> bool {
        let RowContext {
            line,
            cursor_col,
            continues,
            next_starts_wide,
        } = *context;
        let row = &grid[line];
        let cols = grid.columns();
        let last = &row[Column(cols - 1)];
        let wrapped = last.flags.contains(Flags::WRAPLINE);
        // Blank cells before the last text are skipped with a cursor move; after it, only the
        // cursor's row goes on, with spaces up to the cursor (a prompt's trailing space).
        let text_end = (0..cols)
            .rev()
            .find(|&col| !is_blank(&row[Column(col)]))
            .map_or(0, |col| col + 1);
        let mut end = text_end.max(cursor_col.map_or(0, |c| c.0.min(cols)));
        // A wide character that did not fit left a spacer in the last column; the receiving
        // terminal leaves the same when the character comes, so that spacer is not printed.
        let spacer_wraps =
            wrapped && next_starts_wide && last.flags.contains(Flags::LEADING_WIDE_CHAR_SPACER);
        if wrapped {
            // Printing the last column is what makes the next character wrap.
            end = if spacer_wraps { cols - 1 } else { cols };
        } else if continues {
            // The wrap itself happens when this row's first character is printed.
            end = end.max(1);
        }
        self.at = 0;
        for col in 0..end {
            let cell = &row[Column(col)];
            let spacer = cell.flags.contains(Flags::WIDE_CHAR_SPACER)
                || (cell.flags.contains(Flags::LEADING_WIDE_CHAR_SPACER) && col + 1 < cols);
            // A cursor move would not wrap (it would stay at the previous row's end).
            let must_print = (wrapped && col + 1 == cols) || (continues && col == 0);
            if spacer || (col < text_end && is_blank(cell) && !must_print) {
                continue;
            }
            self.move_to(col);
            self.print(cell);
        }
        wrapped
    }

    /// Prints one cell with its look; tracks where the receiving cursor goes.
    fn print(&mut self, cell: &Cell) {
        let pen = Pen::of(cell);
        if pen != self.pen {
            pen.write(&mut self.bytes);
            self.pen = pen;
        }
        let link = cell.hyperlink();
        if link != self.link {
            sgr::write_link(&mut self.bytes, link.as_ref());
            self.link = link;
        }
        let mut buf = [0; 4];
        self.bytes
            .extend_from_slice(cell.c.encode_utf8(&mut buf).as_bytes());
        for &c in cell.zerowidth().unwrap_or_default() {
            self.bytes
                .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        self.at = if cell.flags.contains(Flags::WIDE_CHAR) {
            self.at + 2
        } else {
            self.at + 1
        };
    }

    /// Moves the receiving cursor to `col` of the current row, over blank cells.
    fn move_to(&mut self, col: usize) {
        let gap = col.saturating_sub(self.at);
        if gap > 0 && gap < 4 && self.pen == Pen::default() && self.link.is_none() {
            // Spaces print the same blank cells, and read better than a cursor move.
            self.bytes.extend(std::iter::repeat_n(b' ', gap));
            self.at = col;
            return;
        }
        // `write!` into a Vec cannot fail.
        let _ = match col.cmp(&self.at) {
            std::cmp::Ordering::Greater => write!(self.bytes, "\x1b[{}C", col - self.at),
            std::cmp::Ordering::Less => write!(self.bytes, "\x1b[{}D", self.at - col),
            std::cmp::Ordering::Equal => Ok(()),
        };
        self.at = col;
    }

    /// CR LF, with a pen that paints nothing on the line a scroll may bring in.
    fn newline(&mut self) {
        if self.pen.paints_background() {
            self.reset_pen();
        }
        self.bytes.extend_from_slice(b"\r\n");
        self.at = 0;
    }

    fn reset_pen(&mut self) {
        if self.pen != Pen::default() {
            self.bytes.extend_from_slice(b"\x1b[0m");
            self.pen = Pen::default();
        }
        if self.link.is_some() {
            sgr::write_link(&mut self.bytes, None);
            self.link = None;
        }
    }

    /// `CUP` to a screen position.
    fn goto(&mut self, line: Line, col: Column) {
        let _ = write!(self.bytes, "\x1b[{};{}H", line.0 + 1, col.0 + 1);
    }

    /// Puts the cursor where the model has it, a pending wrap included (by printing the last
    /// cell again, which sets it), then the attributes the next output will be printed with.
    fn cursor(&mut self, grid: &Grid<Cell>) {
        let cursor = &grid.cursor;
        let line = cursor.point.line;
        let cols = grid.columns();
        let row = &grid[line];
        let mut col = cursor.point.column.0.min(cols - 1);
        if cursor.input_needs_wrap {
            if row[Column(col)].flags.contains(Flags::WIDE_CHAR_SPACER) && col > 0 {
                col -= 1;
            }
            self.goto(line, Column(col));
            self.at = col;
            self.print(&row[Column(col)]);
        } else {
            self.goto(line, Column(col));
        }
        let pen = Pen::of(&cursor.template);
        if pen != self.pen {
            pen.write(&mut self.bytes);
            self.pen = pen;
        }
        let link = cursor.template.hyperlink();
        if link != self.link {
            sgr::write_link(&mut self.bytes, link.as_ref());
            self.link = link;
        }
    }
}
