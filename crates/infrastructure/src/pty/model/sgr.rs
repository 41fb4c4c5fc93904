//! A cell's look (colours, attributes, hyperlink) as the SGR and OSC 8 sequences that give it.

use alacritty_terminal::term::cell::{Cell, Flags, Hyperlink};
use alacritty_terminal::vte::ansi::{Color, NamedColor};
use std::io::Write;

/// The attributes SGR sets; the rest of a cell's flags are layout (wrap, wide characters).
const STYLE: Flags = Flags::BOLD
    .union(Flags::DIM)
    .union(Flags::ITALIC)
    .union(Flags::ALL_UNDERLINES)
    .union(Flags::INVERSE)
    .union(Flags::HIDDEN)
    .union(Flags::STRIKEOUT);

/// What printing a character takes from the terminal's current attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Pen {
    fg: Color,
    bg: Color,
    flags: Flags,
    underline: Option<Color>,
}

impl Default for Pen {
    fn default() -> Self {
        Self::of(&Cell::default())
    }
}

impl Pen {
    pub(super) fn of(cell: &Cell) -> Self {
        Self {
            fg: cell.fg,
            bg: cell.bg,
            flags: cell.flags & STYLE,
            underline: cell.underline_color(),
        }
    }

    /// Whether a newline or a wrap that scrolls would paint the new line (background colour
    /// erase): it must not, the line's own cells say what it holds.
    pub(super) fn paints_background(&self) -> bool {
        self.bg != Color::Named(NamedColor::Background)
    }

    /// `CSI 0;…m`: from any state to exactly this pen.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"\x1b[0");
        let attributes = [
            (Flags::BOLD, "1"),
            (Flags::DIM, "2"),
            (Flags::ITALIC, "3"),
            (Flags::UNDERLINE, "4"),
            (Flags::DOUBLE_UNDERLINE, "4:2"),
            (Flags::UNDERCURL, "4:3"),
            (Flags::DOTTED_UNDERLINE, "4:4"),
            (Flags::DASHED_UNDERLINE, "4:5"),
            (Flags::INVERSE, "7"),
            (Flags::HIDDEN, "8"),
            (Flags::STRIKEOUT, "9"),
        ];
        for (flag, code) in attributes {
            if self.flags.contains(flag) {
                out.push(b';');
                out.extend_from_slice(code.as_bytes());
            }
        }
        colour(out, self.fg, Layer::Foreground);
        colour(out, self.bg, Layer::Background);
        if let Some(underline) = self.underline {
            colour(out, underline, Layer::Underline);
        }
        out.push(b'm');
    }
}

#[derive(Clone, Copy)]
enum Layer {
    Foreground,
    Background,
    Underline,
}

/// `;3x`, `;9x`, `;38;5;n`, `;38;2;r;g;b` and their background and underline twins; nothing
/// for the default colour.
fn colour(out: &mut Vec<u8>, colour: Color, layer: Layer) {
    let extended = match layer {
        Layer::Foreground => 38,
        Layer::Background => 48,
        Layer::Underline => 58,
    };
    // `write!` into a Vec cannot fail.
    let _ = match colour {
        Color::Named(named) => {
            let index = named as usize;
            match (layer, index) {
                (Layer::Underline, 0..=15) => write!(out, ";58;5;{index}"),
                (Layer::Foreground, 0..=7) => write!(out, ";{}", 30 + index),
                (Layer::Foreground, 8..=15) => write!(out, ";{}", 90 + index - 8),
                (Layer::Background, 0..=7) => write!(out, ";{}", 40 + index),
                (Layer::Background, 8..=15) => write!(out, ";{}", 100 + index - 8),
                // The default colours, and the renderer's own (dim, cursor) that SGR never sets.
                _ => Ok(()),
            }
        }
        Color::Indexed(index) => write!(out, ";{extended};5;{index}"),
        Color::Spec(rgb) => write!(out, ";{extended};2;{};{};{}", rgb.r, rgb.g, rgb.b),
    };
}

/// `OSC 8 ; id=… ; uri ST`, or the end of a link for `None`.
pub(super) fn write_link(out: &mut Vec<u8>, link: Option<&Hyperlink>) {
    out.extend_from_slice(b"\x1b]8;");
    if let Some(link) = link {
        out.extend_from_slice(b"id=");
        out.extend(clean(link.id()));
        out.push(b';');
        out.extend(clean(link.uri()));
    } else {
        out.push(b';');
    }
    out.extend_from_slice(b"\x1b\\");
}

/// The bytes of `text` without control characters, which would end the sequence early.
pub(super) fn clean(text: &str) -> impl Iterator<Item = u8> + '_ {
    text.chars().filter(|c| !c.is_control()).flat_map(|c| {
        let mut buf = [0; 4];
        c.encode_utf8(&mut buf).as_bytes().to_vec()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alacritty_terminal::vte::ansi::Rgb;

    fn sgr(pen: &Pen) -> String {
        let mut out = Vec::new();
        pen.write(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn writes_attributes_and_every_kind_of_colour() {
        let mut cell = Cell {
            fg: Color::Named(NamedColor::BrightRed),
            bg: Color::Indexed(236),
            flags: Flags::BOLD | Flags::UNDERCURL | Flags::WRAPLINE,
            ..Cell::default()
        };
        cell.set_underline_color(Some(Color::Spec(Rgb { r: 1, g: 2, b: 3 })));
        assert_eq!(sgr(&Pen::of(&cell)), "\x1b[0;1;4:3;91;48;5;236;58;2;1;2;3m");
        assert_eq!(sgr(&Pen::default()), "\x1b[0m");
        let cell = Cell {
            fg: Color::Named(NamedColor::Blue),
            bg: Color::Named(NamedColor::White),
            ..Cell::default()
        };
        assert_eq!(sgr(&Pen::of(&cell)), "\x1b[0;34;47m");
    }

    #[test]
    fn links_never_carry_control_characters() {
        let mut out = Vec::new();
        let link = Hyperlink::new(Some("a\x07b"), "https://x/\x1by".into());
        write_link(&mut out, Some(&link));
        write_link(&mut out, None);
        assert_eq!(out, b"\x1b]8;id=ab;https://x/y\x1b\\\x1b]8;;\x1b\\");
    }
}
