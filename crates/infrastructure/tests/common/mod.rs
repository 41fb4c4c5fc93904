//! What the PTY tests share: a `sh -c` spawn spec, a sink that collects a client's bytes, and
//! a terminal model (what a client's terminal shows after some bytes: the same
//! `alacritty_terminal` grid as the PTY host's, used here as an independent terminal).
#![allow(dead_code)]

use alacritty_terminal::event::VoidListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::Column;
use alacritty_terminal::term::cell::{Cell, Flags};
use alacritty_terminal::term::{Config, Term};
use alacritty_terminal::vte::ansi::Processor;
use idea_domain::terminal::{OutputSink, SpawnSpec, TerminalSize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// `command args…` in the temp dir, at the default size, with no extra environment.
pub fn spec(command: &str, args: &[&str]) -> SpawnSpec {
    SpawnSpec {
        command: command.to_owned(),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        env: BTreeMap::new(),
        env_remove: vec![],
        cwd: std::env::temp_dir(),
        size: TerminalSize::default(),
        stdin_injection: None,
        sandbox: None,
    }
}

/// `sh -c script`, as [`spec`].
pub fn sh(script: &str) -> SpawnSpec {
    spec("sh", &["-c", script])
}

/// A sink appending every batch it gets to `bytes`.
pub fn collecting_sink(bytes: &Arc<Mutex<Vec<u8>>>) -> OutputSink {
    let bytes = Arc::clone(bytes);
    Box::new(move |batch: &[u8]| bytes.lock().unwrap().extend_from_slice(batch))
}

struct Size(TerminalSize);

impl Dimensions for Size {
    fn total_lines(&self) -> usize {
        self.screen_lines()
    }
    fn screen_lines(&self) -> usize {
        usize::from(self.0.rows)
    }
    fn columns(&self) -> usize {
        usize::from(self.0.cols)
    }
}

/// One client terminal.
pub struct Shown {
    term: Term<VoidListener>,
    parser: Processor,
}

/// Everything one row holds: its cells (text, colours, attributes) and whether it wraps.
pub type Row = Vec<Cell>;

impl Shown {
    pub fn new(size: TerminalSize, scrollback: usize) -> Self {
        let config = Config {
            scrolling_history: scrollback,
            ..Config::default()
        };
        Self {
            term: Term::new(config, &Size(size), VoidListener),
            parser: Processor::new(),
        }
    }

    pub fn feed(&mut self, bytes: &[u8]) -> &mut Self {
        self.parser.advance(&mut self.term, bytes);
        self
    }

    pub fn resize(&mut self, size: TerminalSize) -> &mut Self {
        self.term.resize(Size(size));
        self
    }

    /// Scrollback then screen, cell by cell.
    pub fn rows(&self) -> Vec<Row> {
        let grid = self.term.grid();
        let mut rows = Vec::new();
        let mut line = grid.topmost_line();
        while line <= grid.bottommost_line() {
            let row = &grid[line];
            rows.push(
                (0..grid.columns())
                    .map(|c| row[Column(c)].clone())
                    .collect(),
            );
            line += 1;
        }
        rows
    }

    /// Row, column and pending wrap of the cursor, and whether the alternate screen is on.
    pub fn cursor(&self) -> (i32, usize, bool, bool) {
        let cursor = &self.term.grid().cursor;
        let alt = self
            .term
            .mode()
            .contains(alacritty_terminal::term::TermMode::ALT_SCREEN);
        (
            cursor.point.line.0,
            cursor.point.column.0,
            cursor.input_needs_wrap,
            alt,
        )
    }

    /// The text of each logical line (wrapped rows joined), trailing blanks and trailing empty
    /// lines cut.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![String::new()];
        for row in self.rows() {
            let text = lines.last_mut().unwrap_or_else(|| unreachable!());
            for cell in &row {
                if !cell
                    .flags
                    .intersects(Flags::WIDE_CHAR_SPACER | Flags::LEADING_WIDE_CHAR_SPACER)
                {
                    text.push(cell.c);
                }
            }
            if !row
                .last()
                .is_some_and(|c| c.flags.contains(Flags::WRAPLINE))
            {
                lines.push(String::new());
            }
        }
        let mut lines: Vec<String> = lines.iter().map(|l| l.trim_end().to_owned()).collect();
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        lines
    }
}

/// Panics naming the first row and cell where two terminals differ.
pub fn assert_same_rows(actual: &[Row], expected: &[Row]) {
    let text = |row: &Row| row.iter().map(|c| c.c).collect::<String>();
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        if let Some(col) = a.iter().zip(e).position(|(x, y)| x != y) {
            panic!(
                "row {i} differs at column {col}: {:?} vs {:?}\n got {:?}\nwant {:?}",
                a[col],
                e[col],
                text(a),
                text(e)
            );
        }
    }
    assert_eq!(actual.len(), expected.len(), "number of rows");
}
