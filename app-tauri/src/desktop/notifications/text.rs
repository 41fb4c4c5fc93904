//! The text of a native notification. Its summary is plain text; its body may be read as
//! markup by the notification service (`body-markup`: `<b>`, `<a href>`…), and it carries what
//! an agent's terminal printed (a prompt's question, an OSC 9 text), so it is escaped. Both are
//! kept short and free of control characters.

/// The longest summary, in characters (a service cuts it anyway).
const TITLE_CHARS: usize = 120;
/// The longest body, in characters, before escaping.
const BODY_CHARS: usize = 400;

/// The summary: plain text on one line, at most [`TITLE_CHARS`] characters.
pub fn title(text: &str) -> String {
    shorten(&one_line(text), TITLE_CHARS)
}

/// The body: at most [`BODY_CHARS`] characters, control characters removed, markup escaped.
pub fn body(text: &str) -> String {
    let plain: String = text
        .chars()
        .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
        .collect();
    escape_markup(&shorten(plain.trim(), BODY_CHARS))
}

fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(max - 1).collect();
    short.push('…');
    short
}

fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_cannot_carry_markup() {
        assert_eq!(
            body("Run <a href=\"x\">this</a> & go?"),
            "Run &lt;a href=\"x\"&gt;this&lt;/a&gt; &amp; go?"
        );
    }

    #[test]
    fn control_characters_go_and_lines_stay_in_the_body() {
        assert_eq!(
            body("\u{1b}[31mDo you want\nto proceed?\u{7}"),
            "[31mDo you want\nto proceed?"
        );
        assert_eq!(title("Hooked\nneeds you\u{7}"), "Hooked needs you");
    }

    #[test]
    fn long_texts_are_cut_on_a_character() {
        let long = "é".repeat(1000);
        let cut = body(&long);
        assert_eq!(cut.chars().count(), BODY_CHARS);
        assert!(cut.ends_with('…'));
        assert_eq!(title(&long).chars().count(), TITLE_CHARS);
        assert_eq!(title("short"), "short");
    }
}
