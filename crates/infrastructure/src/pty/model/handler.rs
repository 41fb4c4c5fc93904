//! What the parser calls on the model's terminal, passed on to alacritty's `Term` unchanged,
//! with notes on two things `Term` keeps to itself and the fast-forward
//! ([`super::fast_forward`]) must know: whether the scrolling region is the whole screen, and
//! which calls one byte caused (to prove the parser was between sequences before it).
//!
//! Every method of the handler trait must be passed on: one left out would silently fall back
//! to the trait's default, which does nothing. A test compares a model fed through this handler
//! with a bare `Term` fed the same sequences of every kind.

use super::Titles;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::term::Term;
use alacritty_terminal::vte::ansi::{
    Attr, CharsetIndex, ClearMode, CursorShape, CursorStyle, Handler, Hyperlink, KeyboardModes,
    KeyboardModesApplyBehavior, LineClearMode, Mode, ModifyOtherKeys, PrivateMode, Rgb,
    ScpCharPath, ScpUpdateMode, StandardCharset, TabulationClearMode,
};
use cursor_icon::CursorIcon;

/// What the model notes of the calls it passes on.
#[derive(Debug, Clone, Copy)]
pub(super) struct Notes {
    /// The scrolling region is the whole screen (as `Term` starts, and after a reset or a
    /// resize). Any other region, even one that only might be, clears it.
    pub(super) region_is_screen: bool,
    /// Characters drawn since [`Notes::start_probe`].
    pub(super) drawn: usize,
    /// The last of them.
    pub(super) last_drawn: Option<char>,
    /// Other calls since [`Notes::start_probe`].
    pub(super) other_calls: usize,
}

impl Default for Notes {
    fn default() -> Self {
        Self {
            region_is_screen: true,
            drawn: 0,
            last_drawn: None,
            other_calls: 0,
        }
    }
}

impl Notes {
    pub(super) fn start_probe(&mut self) {
        self.drawn = 0;
        self.last_drawn = None;
        self.other_calls = 0;
    }

    /// Since [`Notes::start_probe`], the one call was drawing `c`. The parser draws only
    /// between sequences, with no partial UTF-8 character pending (else it would have drawn a
    /// replacement character first): so it was, and still is, ready for plain text.
    pub(super) fn drew_only(&self, c: char) -> bool {
        self.drawn == 1 && self.other_calls == 0 && self.last_drawn == Some(c)
    }
}

/// `Term` as the parser's handler, noting what [`Notes`] holds.
pub(super) struct Noted<'a> {
    pub(super) term: &'a mut Term<Titles>,
    pub(super) notes: &'a mut Notes,
}

/// Passes each call on to `Term`, counting it.
macro_rules! pass_on {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            #[inline]
            fn $name(&mut self, $($arg: $ty),*) {
                self.notes.other_calls += 1;
                self.term.$name($($arg),*)
            }
        )*
    };
}

impl Handler for Noted<'_> {
    #[inline]
    fn input(&mut self, c: char) {
        self.notes.drawn += 1;
        self.notes.last_drawn = Some(c);
        self.term.input(c);
    }

    fn set_scrolling_region(&mut self, top: usize, bottom: Option<usize>) {
        self.notes.other_calls += 1;
        // As `Term` reads it: an empty region is ignored, top 1 is the first line, no bottom
        // is the last line; anything but the whole screen counts as a region.
        let lines = self.term.screen_lines();
        let bottom_line = bottom.unwrap_or(lines);
        if top < bottom_line {
            self.notes.region_is_screen = top == 1 && bottom_line >= lines;
        }
        self.term.set_scrolling_region(top, bottom);
    }

    /// A tab moves the cursor as xterm.js's does: it writes nothing (`Term` would mark the cell
    /// it leaves with a tab character, which a replay would print as a jump to a stop that a
    /// reflow has since moved), and while a wrap is pending it does nothing (`Term` would break
    /// the line).
    fn put_tab(&mut self, count: u16) {
        self.notes.other_calls += 1;
        if !self.term.grid().cursor.input_needs_wrap {
            self.term.move_forward_tabs(count);
        }
    }

    fn reset_state(&mut self) {
        self.notes.other_calls += 1;
        self.notes.region_is_screen = true;
        self.term.reset_state();
    }

    pass_on! {
        set_title(a0: Option<String>);
        set_cursor_style(a0: Option<CursorStyle>);
        set_cursor_shape(a0: CursorShape);
        goto(a0: i32, a1: usize);
        goto_line(a0: i32);
        goto_col(a0: usize);
        insert_blank(a0: usize);
        move_up(a0: usize);
        move_down(a0: usize);
        identify_terminal(a0: Option<char>);
        device_status(a0: usize);
        move_forward(a0: usize);
        move_backward(a0: usize);
        move_down_and_cr(a0: usize);
        move_up_and_cr(a0: usize);
        backspace();
        carriage_return();
        linefeed();
        bell();
        substitute();
        newline();
        set_horizontal_tabstop();
        scroll_up(a0: usize);
        scroll_down(a0: usize);
        insert_blank_lines(a0: usize);
        delete_lines(a0: usize);
        erase_chars(a0: usize);
        delete_chars(a0: usize);
        move_backward_tabs(a0: u16);
        move_forward_tabs(a0: u16);
        save_cursor_position();
        restore_cursor_position();
        clear_line(a0: LineClearMode);
        clear_screen(a0: ClearMode);
        clear_tabs(a0: TabulationClearMode);
        set_tabs(a0: u16);
        reverse_index();
        terminal_attribute(a0: Attr);
        set_mode(a0: Mode);
        unset_mode(a0: Mode);
        report_mode(a0: Mode);
        set_private_mode(a0: PrivateMode);
        unset_private_mode(a0: PrivateMode);
        report_private_mode(a0: PrivateMode);
        set_keypad_application_mode();
        unset_keypad_application_mode();
        set_active_charset(a0: CharsetIndex);
        configure_charset(a0: CharsetIndex, a1: StandardCharset);
        set_color(a0: usize, a1: Rgb);
        dynamic_color_sequence(a0: String, a1: usize, a2: &str);
        reset_color(a0: usize);
        clipboard_store(a0: u8, a1: &[u8]);
        clipboard_load(a0: u8, a1: &str);
        decaln();
        push_title();
        pop_title();
        text_area_size_pixels();
        text_area_size_chars();
        set_hyperlink(a0: Option<Hyperlink>);
        set_mouse_cursor_icon(a0: CursorIcon);
        report_keyboard_mode();
        push_keyboard_mode(a0: KeyboardModes);
        pop_keyboard_modes(a0: u16);
        set_keyboard_mode(a0: KeyboardModes, a1: KeyboardModesApplyBehavior);
        set_modify_other_keys(a0: ModifyOtherKeys);
        report_modify_other_keys();
        set_scp(a0: ScpCharPath, a1: ScpUpdateMode);
    }
}
