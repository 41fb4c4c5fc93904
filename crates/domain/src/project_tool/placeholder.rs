//! `{{name}}` placeholders inside the words of a run line.

use super::parse::valid_param_name;

/// A piece of a run word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Piece<'a> {
    Text(&'a str),
    /// A parameter's name (the braces' content, trimmed).
    Param(&'a str),
}

/// Splits a word into text and placeholders. Only `{{…}}` around a possible parameter name
/// is a placeholder: `{{.Name}}` (a Go template for `docker --format`) stays text.
pub(super) fn pieces(word: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = word;
    let mut text_start = 0;
    let mut offset = 0;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            break;
        };
        let name = after[..close].trim();
        let consumed = open + 2 + close + 2;
        if valid_param_name(name).is_ok() {
            if offset + open > text_start {
                out.push(Piece::Text(&word[text_start..offset + open]));
            }
            out.push(Piece::Param(name));
            text_start = offset + consumed;
            offset += consumed;
            rest = &rest[consumed..];
        } else {
            // Not a placeholder: look again from the second brace (`{{{a}}}`).
            offset += open + 1;
            rest = &rest[open + 1..];
        }
    }
    if text_start < word.len() {
        out.push(Piece::Text(&word[text_start..]));
    }
    out
}

/// The parameter names a word uses.
pub(super) fn params(word: &str) -> impl Iterator<Item = &str> {
    pieces(word).into_iter().filter_map(|piece| match piece {
        Piece::Param(name) => Some(name),
        Piece::Text(_) => None,
    })
}
