//! The terminal state a program set beyond the cells: modes, title, cursor shape and
//! visibility, as the sequences that set them again.

use super::sgr;
use alacritty_terminal::term::{Term, TermMode};
use alacritty_terminal::vte::ansi::{CursorShape, CursorStyle};

/// Modes set with `CSI ? n h`, in the order they are written.
const PRIVATE_MODES: [(TermMode, u16); 8] = [
    (TermMode::APP_CURSOR, 1),
    (TermMode::MOUSE_REPORT_CLICK, 1000),
    (TermMode::MOUSE_DRAG, 1002),
    (TermMode::MOUSE_MOTION, 1003),
    (TermMode::FOCUS_IN_OUT, 1004),
    (TermMode::UTF8_MOUSE, 1005),
    (TermMode::SGR_MOUSE, 1006),
    (TermMode::BRACKETED_PASTE, 2004),
];

/// The sequences that restore what differs from a fresh terminal. Written after the cells
/// (insert mode or no auto-wrap would change how they print), with cursor visibility last.
pub(super) fn sequences<T>(term: &Term<T>, title: Option<&str>) -> Vec<u8> {
    let mode = *term.mode();
    let mut out = Vec::new();
    for (flag, number) in PRIVATE_MODES {
        if mode.contains(flag) {
            out.extend_from_slice(format!("\x1b[?{number}h").as_bytes());
        }
    }
    if mode.contains(TermMode::APP_KEYPAD) {
        out.extend_from_slice(b"\x1b=");
    }
    if mode.contains(TermMode::INSERT) {
        out.extend_from_slice(b"\x1b[4h");
    }
    if mode.contains(TermMode::LINE_FEED_NEW_LINE) {
        out.extend_from_slice(b"\x1b[20h");
    }
    if !mode.contains(TermMode::LINE_WRAP) {
        out.extend_from_slice(b"\x1b[?7l");
    }
    if let Some(title) = title {
        out.extend_from_slice(b"\x1b]2;");
        out.extend(sgr::clean(title));
        out.push(0x07);
    }
    let style = term.cursor_style();
    if style != CursorStyle::default() {
        out.extend_from_slice(format!("\x1b[{} q", decscusr(style)).as_bytes());
    }
    if !mode.contains(TermMode::SHOW_CURSOR) {
        out.extend_from_slice(b"\x1b[?25l");
    }
    out
}

/// DECSCUSR's number for a cursor style.
fn decscusr(style: CursorStyle) -> u8 {
    let steady = u8::from(!style.blinking);
    match style.shape {
        CursorShape::Block | CursorShape::HollowBlock | CursorShape::Hidden => 1 + steady,
        CursorShape::Underline => 3 + steady,
        CursorShape::Beam => 5 + steady,
    }
}
