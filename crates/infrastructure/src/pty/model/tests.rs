//! Replays fed into a fresh model must rebuild the same terminal: cells, attributes, wrap
//! flags, scrollback, cursor, modes, at the model's size after any resize.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::TermMode;
use alacritty_terminal::term::cell::{Cell, Flags};

fn model(rows: u16, cols: u16) -> ScreenModel {
    ScreenModel::new(TerminalSize { rows, cols }, 200)
}

/// A model whose scrollback keeps everything the tests write.
fn roomy(rows: u16, cols: u16) -> ScreenModel {
    ScreenModel::new(TerminalSize { rows, cols }, 5_000)
}

/// Everything a user sees of the active screen and scrollback, cell by cell.
#[derive(Debug)]
struct Snapshot {
    rows: Vec<Vec<Cell>>,
    cursor: (Line, Column, bool),
    template: Cell,
    mode: TermMode,
    title: Option<String>,
}

fn snapshot(model: &ScreenModel) -> Snapshot {
    let grid = model.term.grid();
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
    Snapshot {
        rows,
        cursor: (
            grid.cursor.point.line,
            grid.cursor.point.column,
            grid.cursor.input_needs_wrap,
        ),
        template: grid.cursor.template.clone(),
        mode: *model.term.mode(),
        title: lock(&model.titles.0).clone(),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    super::super::lock(m)
}

/// The replay of `model` fed into a fresh model of the same size.
fn replayed(model: &mut ScreenModel) -> ScreenModel {
    let mut fresh = ScreenModel::new(model.size(), model.scrollback_lines);
    fresh.feed(&model.replay());
    fresh
}

fn assert_round_trip(model: &mut ScreenModel) -> ScreenModel {
    let copy = replayed(model);
    assert_same(&snapshot(&copy), &snapshot(model));
    copy
}

/// Equal snapshots, or a failure naming the first row and cell that differ.
fn assert_same(a: &Snapshot, b: &Snapshot) {
    for (i, (x, y)) in a.rows.iter().zip(&b.rows).enumerate() {
        if let Some(c) = x.iter().zip(y).position(|(p, q)| p != q) {
            let text = |r: &[Cell]| r.iter().map(|c| c.c).collect::<String>();
            panic!(
                "row {i} of {} differs at column {c}: {:?} vs {:?}\n{:?}\n{:?}",
                a.rows.len(),
                x[c],
                y[c],
                text(x),
                text(y)
            );
        }
    }
    assert_eq!(a.rows.len(), b.rows.len(), "rows");
    assert_eq!(a.cursor, b.cursor, "cursor");
    assert_eq!(a.template, b.template, "pen");
    assert_eq!(a.mode, b.mode, "modes");
    assert_eq!(a.title, b.title, "title");
}

/// The text of each logical line (wrapped rows joined), trailing blanks cut.
fn logical_lines(model: &ScreenModel) -> Vec<String> {
    let grid = model.term.grid();
    let mut lines = vec![String::new()];
    let mut line = grid.topmost_line();
    while line <= grid.bottommost_line() {
        let row = &grid[line];
        let text = lines.last_mut().unwrap();
        for c in 0..grid.columns() {
            let cell = &row[Column(c)];
            if !cell
                .flags
                .intersects(Flags::WIDE_CHAR_SPACER | Flags::LEADING_WIDE_CHAR_SPACER)
            {
                text.push(cell.c);
            }
        }
        if !row[Column(grid.columns() - 1)]
            .flags
            .contains(Flags::WRAPLINE)
        {
            lines.push(String::new());
        }
        line += 1;
    }
    let mut lines: Vec<String> = lines.iter().map(|l| l.trim_end().to_owned()).collect();
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

/// Shell-like output: long lines that wrap, colours, wide and combining characters, tabs.
fn busy_output() -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..40 {
        out.extend_from_slice(
            format!(
                "\x1b[1;3{}mline {i}\x1b[0m {} end\r\n",
                i % 8,
                "word ".repeat(i * 3)
            )
            .as_bytes(),
        );
    }
    out.extend_from_slice(
        "wide 你好世界 e\u{301}\tcol\t\x1b[48;5;236;38;2;1;2;3mrgb\x1b[0m\r\n".as_bytes(),
    );
    out.extend_from_slice(
        b"\x1b[4:3;58;5;9mcurly\x1b[0m \x1b[7minverse\x1b[27m \x1b[9mstrike\x1b[0m\r\n",
    );
    out.extend_from_slice(b"\x1b]8;id=site;https://example.com\x1b\\link\x1b]8;;\x1b\\ after\r\n");
    out.extend_from_slice(b"$ ");
    out
}

#[test]
fn nothing_fed_gives_an_empty_replay() {
    assert!(model(24, 80).replay().is_empty());
}

#[test]
fn the_replay_rebuilds_cells_attributes_wraps_scrollback_and_cursor() {
    let mut m = model(10, 40);
    m.feed(&busy_output());
    assert!(
        m.term.grid().history_size() > 0,
        "the test needs scrollback"
    );
    assert_round_trip(&mut m);
}

/// The rows of the screen alone (no scrollback), cell by cell.
fn screen_rows(model: &ScreenModel) -> Vec<Vec<Cell>> {
    let grid = model.term.grid();
    (0..grid.screen_lines())
        .map(|line| {
            let row = &grid[Line(i32::try_from(line).unwrap())];
            (0..grid.columns())
                .map(|c| row[Column(c)].clone())
                .collect()
        })
        .collect()
}

#[test]
fn the_screen_replay_rebuilds_the_screen_and_cursor_without_the_scrollback() {
    let mut m = model(10, 40);
    m.feed(&busy_output());
    assert!(
        m.term.grid().history_size() > 0,
        "the test needs scrollback"
    );
    let whole = m.replay().len();
    let replay = m.replay_screen();
    assert!(
        replay.len() * 3 < whole,
        "{} of {whole} bytes",
        replay.len()
    );
    let mut copy = ScreenModel::new(m.size(), m.scrollback_lines);
    copy.feed(&replay);
    assert_eq!(copy.term.grid().history_size(), 0, "no scrollback replayed");
    let (a, b) = (snapshot(&copy), snapshot(&m));
    assert_eq!(screen_rows(&copy), screen_rows(&m));
    assert_eq!(a.cursor, b.cursor, "cursor");
    assert_eq!(a.template, b.template, "pen");
    assert_eq!(a.mode, b.mode, "modes");
    assert_eq!(a.title, b.title, "title");
}

#[test]
fn the_screen_replay_of_a_full_screen_program_keeps_both_screens_without_scrollback() {
    let mut m = model(6, 30);
    m.feed(&busy_output());
    m.feed(b"\x1b[?1049h\x1b[H\x1b[2Jeditor line one\r\n\x1b[7mstatus\x1b[0m");
    let mut copy = ScreenModel::new(m.size(), m.scrollback_lines);
    copy.feed(&m.replay_screen());
    assert_eq!(screen_rows(&copy), screen_rows(&m), "the alternate screen");
    assert!(copy.term.mode().contains(TermMode::ALT_SCREEN));
    copy.feed(b"\x1b[?1049l");
    m.feed(b"\x1b[?1049l");
    assert_eq!(
        screen_rows(&copy),
        screen_rows(&m),
        "the main screen under it"
    );
}

#[test]
fn a_wrapped_row_replays_as_one_line_the_receiver_wraps_itself() {
    let mut m = model(5, 10);
    m.feed(b"0123456789abcdef\r\nnext");
    let replay = String::from_utf8(m.replay()).unwrap();
    assert!(replay.starts_with("0123456789abcdef\r\nnext"), "{replay:?}");
    let copy = assert_round_trip(&mut m);
    let grid = copy.term.grid();
    assert!(grid[Line(0)][Column(9)].flags.contains(Flags::WRAPLINE));
}

#[test]
fn a_pending_wrap_is_restored() {
    let mut m = model(5, 10);
    m.feed(b"\x1b[32m0123456789");
    assert!(m.term.grid().cursor.input_needs_wrap);
    let mut copy = assert_round_trip(&mut m);
    m.feed(b"x");
    copy.feed(b"x");
    assert_same(&snapshot(&copy), &snapshot(&m));
}

#[test]
fn a_wide_character_that_did_not_fit_wraps_the_same_way() {
    let mut m = model(5, 10);
    m.feed("123456789你好\r\n".as_bytes());
    assert!(
        m.term.grid()[Line(0)][Column(9)]
            .flags
            .contains(Flags::LEADING_WIDE_CHAR_SPACER)
    );
    assert_round_trip(&mut m);
}

#[test]
fn after_a_resize_the_replay_fits_the_new_width_and_keeps_the_logical_lines() {
    let mut wide = roomy(12, 120);
    wide.feed(&busy_output());
    let before = logical_lines(&wide);
    for cols in [60, 33, 80, 140] {
        let mut m = roomy(12, 120);
        m.feed(&busy_output());
        m.resize(TerminalSize { rows: 9, cols });
        let copy = assert_round_trip(&mut m);
        assert_eq!(copy.size(), TerminalSize { rows: 9, cols });
        assert_eq!(logical_lines(&copy), before, "at {cols} columns");
    }
}

#[test]
fn the_alternate_screen_is_replayed_over_the_main_one() {
    let mut m = model(6, 30);
    m.feed(&busy_output());
    m.feed(b"\x1b[?1049h\x1b[2J\x1b[H\x1b[44m status \x1b[0m\x1b[4;5Hmenu\x1b[?25l\x1b[?1h\x1b[?1000h\x1b[?1006h");
    let replay = m.replay();
    let mut copy = replayed(&mut m);
    assert_same(&snapshot(&copy), &snapshot(&m));
    assert!(copy.term.mode().contains(TermMode::ALT_SCREEN));
    // The replay left the model's own alternate screen as it was.
    assert_eq!(replay, m.replay());
    // Leaving the alternate screen shows the same main screen in both.
    m.feed(b"\x1b[?1049l\x1b[?25h");
    copy.feed(b"\x1b[?1049l\x1b[?25h");
    assert_same(&snapshot(&copy), &snapshot(&m));
}

#[test]
fn modes_title_and_cursor_style_are_restored() {
    let mut m = model(5, 20);
    m.feed(b"\x1b]0;my title\x07\x1b[?2004h\x1b[?1002h\x1b[?1004h\x1b=\x1b[5 q\x1b[?25l\x1b[31mred pen");
    let copy = assert_round_trip(&mut m);
    assert_eq!(copy.term.cursor_style(), m.term.cursor_style());
    assert!(copy.term.mode().contains(TermMode::BRACKETED_PASTE));
}

#[test]
fn output_split_anywhere_builds_the_same_model() {
    let output = busy_output();
    let mut whole = model(8, 30);
    whole.feed(&output);
    for step in [1, 3, 7, 100] {
        let mut split = model(8, 30);
        for chunk in output.chunks(step) {
            split.feed(chunk);
        }
        assert_same(&snapshot(&split), &snapshot(&whole));
    }
}

#[test]
fn scrollback_dropped_mid_line_and_mid_sequence_leaves_a_clean_replay() {
    // Far more output than the scrollback keeps: the oldest lines are gone, and with them
    // wherever a byte ring would have started (inside a colour sequence, a wrapped line).
    let mut m = model(5, 20);
    for i in 0..2_000 {
        m.feed(
            format!(
                "\x1b[38;5;{}m{} {}\x1b[0m\r\n",
                i % 256,
                i,
                "x".repeat(i % 50)
            )
            .as_bytes(),
        );
    }
    assert_eq!(m.term.grid().history_size(), 200);
    let replay = m.replay();
    assert!(replay.starts_with(b"\x1b[0;38;5;"), "{:?}", &replay[..20]);
    assert_round_trip(&mut m);
}

#[test]
fn an_unfinished_synchronized_update_is_in_the_replay() {
    let mut m = model(5, 20);
    m.feed(b"\x1b[?2026hdrawn inside");
    let copy = replayed(&mut m);
    assert!(logical_lines(&copy)[0].starts_with("drawn inside"));
}

#[test]
fn a_continuation_row_starting_blank_or_erased_stays_a_continuation() {
    let mut m = model(6, 10);
    m.feed(b"0123456789  indented\r\n0123456789ab\x1b[2K\r\nnext");
    let copy = assert_round_trip(&mut m);
    assert!(
        copy.term.grid()[Line(2)][Column(9)]
            .flags
            .contains(Flags::WRAPLINE)
    );
}

/// `ls` aligns its columns with tabs. After a reflow a tab's cell sits elsewhere relative to the
/// tab stops, here in the last column of a wrapped row: the replay must print the blanks the
/// tab left, not a tab (which would jump to another stop, or not wrap at all, and shift the rest
/// of the line left). Found by the browser replay test after `ls` output was narrowed.
#[test]
fn a_tab_reflowed_to_another_column_replays_as_the_blanks_it_left() {
    for cols in [11, 12, 13, 7] {
        let mut m = roomy(6, 30);
        m.feed(b"0123456789\tX\r\nbin\tetc\t\tlib64\r\n$ ");
        m.resize(TerminalSize { rows: 6, cols });
        let copy = assert_round_trip(&mut m);
        assert_eq!(
            logical_lines(&copy),
            ["0123456789      X", "bin     etc             lib64", "$"],
            "at {cols} columns"
        );
    }
}

/// xterm.js ignores a tab while a wrap is pending (the cursor stays past the last column);
/// alacritty's `Term` would break the line there.
#[test]
fn a_tab_with_a_wrap_pending_changes_nothing_as_in_xterm() {
    let mut m = model(4, 8);
    m.feed(b"01234567\t\tX");
    assert_eq!(logical_lines(&m), ["01234567X"]);
}

#[test]
fn narrowing_without_scrollback_fills_the_rows_below_the_cursor_first_as_xterm_does() {
    let mut m = model(10, 20);
    m.feed(b"0123456789abcdefghi\r\nshort\r\nABCDEFGHIJKLMNOPQRS\r\n$ ");
    m.resize(TerminalSize { rows: 10, cols: 10 });
    let grid = m.term.grid();
    // Two lines became four rows: the rows below the cursor took them, nothing scrolled away.
    assert_eq!(grid.history_size(), 0);
    assert_eq!(grid.cursor.point.line, Line(5));
    assert_eq!(
        logical_lines(&m),
        ["0123456789abcdefghi", "short", "ABCDEFGHIJKLMNOPQRS", "$"]
    );
    // With the cursor at the bottom, what does not fit goes into the scrollback.
    let mut m = model(3, 20);
    m.feed(b"0123456789abcdefghi\r\nABCDEFGHIJKLMNOPQRS\r\n$ ");
    m.resize(TerminalSize { rows: 3, cols: 10 });
    assert_eq!(m.term.grid().history_size(), 2);
    assert_eq!(m.term.grid().cursor.point.line, Line(2));
    assert_round_trip(&mut m);
}

// ---------------------------------------------------------------------------------------------
// Fast-forward: a model that skips text scrolling out equals one that draws every byte.

/// `output` fed in `chunks`-sized pieces to a model that fast-forwards and to one that draws
/// every byte: both must be the same, and give the same replay.
fn assert_fast_forward_exact(rows: u16, cols: u16, scrollback: usize, output: &[u8], chunk: usize) {
    let size = TerminalSize { rows, cols };
    let mut fast = ScreenModel::new(size, scrollback);
    let mut slow = ScreenModel::new(size, scrollback);
    slow.fast_forward = false;
    for piece in output.chunks(chunk.max(1)) {
        fast.feed(piece);
        slow.feed(piece);
    }
    assert_same(&snapshot(&fast), &snapshot(&slow));
    assert_eq!(fast.replay(), slow.replay());
    // As the feeder does during a flood: what a chunk leaves unparsed goes in front of the next.
    let mut deferring = ScreenModel::new(size, scrollback);
    let mut carried = Vec::new();
    for piece in output.chunks(chunk.max(1)) {
        carried.extend_from_slice(piece);
        let left = deferring.feed_deferring(&carried, true);
        carried.drain(..carried.len() - left);
    }
    deferring.feed(&carried);
    assert_same(&snapshot(&deferring), &snapshot(&slow));
}

/// Characters the model drew one by one since its last probe (for one run: after the probe).
fn drawn_chars(model: &ScreenModel) -> usize {
    model.notes.drawn
}

#[test]
fn the_notes_pass_every_call_on_to_the_terminal() {
    // Sequences of every kind the parser turns into handler calls (those that wipe the screen
    // first, so that the others leave a trace).
    let mut output = busy_output();
    output.extend_from_slice(
        b"\x1bc\x1b#8\x1b[5;10H\x1b[2Aup\x1b[3Bdown\x1b[4Cfwd\x1b[2Dback\x1b[2Enext\x1b[Fprev\x1b[7G\x1b[3d\
          \x1b[2@\x1b[3P\x1b[2X\x1b[L\x1b[M\x1b[2S\x1b[T\x1b[1K\x1b[0J\x1bD\x1bM\x1bE\x1b7\x1b8\x1b[s\x1b[u\
          \x1b[3g\x1b[1;5H\x1bH\x1b[1;13H\x1bH\x1b[1;1H\ta\tb\x1b[Z\x1b[2I\tx\x08\x0b\x0c\x1b[4h\x1b[4l\x1b[?6h\x1b[?6l\x1b[3;9r\x1b[r\
          \x1b(0qqq\x1b(B\x1b)0\x0eqq\x0f\x1b=\x1b[?25l\x1b[?25h\x1b[3 q\x1b[?1h\x1b[?2004h\
          \x1b]0;first\x07\x1b[22;0t\x1b]0;second\x07\x1b[23;0t\x1b]4;1;rgb:ff/00/00\x1b\\\x1b]104;1\x07\x1b]10;?\x07\
          \x1b]52;c;aGk=\x07\x1b[>1u\x1b[<u\x1b[=1;1u\x1b[>4;2m\x1b[3b\x1b[?1049h\x1b[2Jalt\
          \x1b[?1049l\x1b[6n\x1b[c\x1b]22;pointer\x07\x1b[20h\nx\x1b[20l\x1b[1;1Hend",
    );
    let mut noted = model(12, 40);
    let mut bare = model(12, 40);
    bare.blank = false;
    for piece in output.chunks(7) {
        noted.feed(piece);
        bare.parser.advance(&mut bare.term, piece);
    }
    // The one call changed on purpose: a tab leaves blanks where `Term` writes a tab character
    // (and no tab here comes with a wrap pending).
    let grid = bare.term.grid_mut();
    let mut line = grid.topmost_line();
    while line <= grid.bottommost_line() {
        for col in 0..grid.columns() {
            let cell = &mut grid[line][Column(col)];
            if cell.c == '\t' {
                cell.c = ' ';
            }
        }
        line += 1;
    }
    // What a call left out would change: the grid, modes, title and pen, the character sets,
    // and so the replay.
    assert_same(&snapshot(&noted), &snapshot(&bare));
    assert_eq!(
        noted.term.grid().cursor.charsets,
        bare.term.grid().cursor.charsets
    );
    assert_eq!(noted.replay(), bare.replay());
}

#[test]
fn a_flood_of_plain_text_is_fast_forwarded_to_the_same_screen() {
    let flood = vec![b'a'; 200_000];
    assert_fast_forward_exact(24, 80, 1_000, &flood, 1 << 20);
    let mut lines = Vec::new();
    for i in 0..20_000 {
        lines.extend_from_slice(
            format!("\x1b[3{}mline {i}\x1b[0m of the log\r\n", i % 8).as_bytes(),
        );
    }
    assert_fast_forward_exact(24, 80, 1_000, &lines, 1 << 20);
    assert_fast_forward_exact(24, 80, 1_000, &lines, 4096);
    assert_fast_forward_exact(10, 33, 100, &lines, 777);
}

#[test]
fn the_fast_forward_skips_most_of_a_flood() {
    let mut model = ScreenModel::new(TerminalSize { rows: 24, cols: 80 }, 1_000);
    model.notes.start_probe();
    model.feed(&vec![b'a'; 2_000_000]);
    // 1 000 lines of scrollback and 2 * 24 rows of 80 columns are drawn, not 25 000 lines.
    let drawn = drawn_chars(&model);
    assert!(drawn < 100_000, "drew {drawn} of 2 000 000 characters");
}

#[test]
fn no_fast_forward_inside_a_string_an_alternate_screen_a_region_or_insert_mode() {
    // Lines of different lengths, so that rows drawn over without being cleared show it.
    let text: String = (0..2_000)
        .map(|i| format!("{}\r\n", "word ".repeat(i % 30)))
        .collect();
    for prefix in [
        &b"\x1b]0;"[..],         // an unfinished title: the text is the title's
        b"\x1bP",                // an unfinished DCS
        b"\x1b[?1049h",          // the alternate screen
        b"\x1b[3;20r",           // a scrolling region
        b"\x1b[1;10r\x1b[20;1H", // a region, and the cursor below it
        b"\x1b[4h",              // insert mode
        b"\x1b[20h",             // LF as newline
        b"\x1b(0",               // line drawing characters
        b"\x1b[?7l",             // no auto-wrap
        b"\xe4\xbd",             // half a UTF-8 character
        b"\x1b[",                // an unfinished CSI: the x ends it
    ] {
        let mut output = prefix.to_vec();
        output.extend_from_slice(text.as_bytes());
        output.extend_from_slice(b"\r\nend\r\n");
        output.extend_from_slice(text.as_bytes());
        for chunk in [1 << 20, 1000] {
            assert_fast_forward_exact(24, 80, 100, &output, chunk);
        }
    }
}

#[test]
fn rows_below_the_cursor_when_a_flood_starts_are_flooded_out_too() {
    // Screen and scrollback full of old lines, the cursor back at the top: the flood's first
    // line advances only move the cursor down over old rows, which must still end up gone.
    let mut output = Vec::new();
    for i in 0..200 {
        output.extend_from_slice(format!("old {i} {}\r\n", "Z".repeat(i % 70)).as_bytes());
    }
    output.extend_from_slice(b"\x1b[H");
    for i in 0..5_000 {
        output.extend_from_slice(format!("new {i}\r\n").as_bytes());
    }
    assert_fast_forward_exact(24, 80, 100, &output, 1 << 20);
}

#[test]
fn a_region_reset_by_a_resize_or_a_reset_allows_it_again() {
    let mut model = ScreenModel::new(TerminalSize { rows: 24, cols: 80 }, 100);
    model.feed(b"\x1b[3;20r");
    assert!(!model.notes.region_is_screen);
    model.resize(TerminalSize { rows: 30, cols: 80 });
    assert!(model.notes.region_is_screen);
    model.feed(b"\x1b[3;20r\x1bc");
    assert!(model.notes.region_is_screen);
    model.feed(b"\x1b[3;20r\x1b[r");
    assert!(model.notes.region_is_screen);
}

mod fast_forward_fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Pieces of terminal output, mostly text that floods, with now and then a sequence that
    /// must stop or survive a fast-forward.
    fn piece() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            8 => ("[a-z ]{0,90}", 0..3usize).prop_map(|(text, end)| {
                let mut bytes = text.into_bytes();
                bytes.extend_from_slice([&b"\r\n"[..], b"\n", b""][end]);
                bytes
            }),
            2 => (0..8u8, 0..3u8).prop_map(|(colour, style)| {
                format!("\x1b[{};3{colour}m", [0, 1, 7][usize::from(style)]).into_bytes()
            }),
            1 => Just(b"\x1b[m".to_vec()),
            1 => prop::sample::select(vec![
                &b"\x1b[K"[..], b"\x1b[2J", b"\x1b[H", b"\x1b[5;3H", b"\t", b"\x08", b"\x1b[A",
                b"\x1b]0;title\x07", b"\x1b]0;unfinished ", b"\x1b[?1049h", b"\x1b[?1049l",
                b"\x1b[2;6r", b"\x1b[r", b"\x1b[4h", b"\x1b[4l", b"\x1b(0", b"\x1b(B",
                b"\x1b[?7l", b"\x1b[?7h", "é".as_bytes(), "你".as_bytes(), b"\xe4", b"\x1b[",
                b"\x1b[3b", b"\x1bc", b"\x1b[20h", b"\x1b[20l", b"\x1b[38:2::1:2:3m",
            ]).prop_map(<[u8]>::to_vec),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn fast_forwarded_and_fully_drawn_models_are_the_same(
            pieces in prop::collection::vec(piece(), 1..400),
            repeat in 1..40usize,
            rows in 2..8u16,
            cols in 2..30u16,
            scrollback in 0..20usize,
            chunk in 1..5000usize,
        ) {
            let once: Vec<u8> = pieces.concat();
            let output = once.repeat(repeat);
            assert_fast_forward_exact(rows, cols, scrollback, &output, chunk);
        }
    }
}
