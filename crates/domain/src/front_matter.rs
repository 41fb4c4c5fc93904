//! Front matter of Markdown files (`SKILL.md`, memory entries): a YAML block between two
//! `---` lines at the top, then the body.
//!
//! The coding-agent CLIs read these files leniently (Claude Code loads
//! `description: Use when: x`, which strict YAML refuses), so a file they would load must
//! load here too: strict YAML first, then a line-by-line reading with a warning.

mod lines;
mod yaml;

use std::collections::BTreeMap;

/// The top-level scalar fields of a front matter block, and what was odd about it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FrontMatter {
    /// Top-level keys with a scalar value, as text (`42`, `true`, `Use when: x`). Keys whose
    /// value is a map, a list or null are left out.
    pub fields: BTreeMap<String, String>,
    /// Non-fatal problems, for the user (the block was read line by line).
    pub warnings: Vec<String>,
}

impl FrontMatter {
    /// A field's value, trimmed; `None` when absent or blank.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .get(key)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
    }
}

/// Where the front matter block and the body lie in a text, as byte ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Start of the first YAML line (after the BOM and the opening `---` line).
    pub yaml_start: usize,
    /// Start of the closing `---` line.
    pub yaml_end: usize,
    /// Start of the body (after the closing line and its line break).
    pub body_start: usize,
}

const BOM: char = '\u{FEFF}';

/// Finds the front matter of `text`: `None` when it does not start with a `---` line or the
/// block is never closed.
pub(crate) fn layout(text: &str) -> Option<Layout> {
    let start = if text.starts_with(BOM) {
        BOM.len_utf8()
    } else {
        0
    };
    let mut lines = LineSpans::new(text, start);
    let (first, _, yaml_start) = lines.next()?;
    if !is_fence(first) {
        return None;
    }
    for (line, line_start, next) in lines {
        if is_fence(line) {
            return Some(Layout {
                yaml_start,
                yaml_end: line_start,
                body_start: next,
            });
        }
    }
    None
}

/// The YAML of the front matter and the body after it (its first line break removed).
/// Tolerates a UTF-8 BOM and CRLF line endings.
pub fn split(text: &str) -> Option<(&str, &str)> {
    let at = layout(text)?;
    Some((&text[at.yaml_start..at.yaml_end], &text[at.body_start..]))
}

/// The body as IdeA keeps it: leading blank lines and trailing white space removed, so a
/// rendered file (front matter, blank line, body, newline) reads back to the same body.
pub fn trim_body(body: &str) -> &str {
    let mut rest = body;
    while let Some(pos) = rest.find('\n') {
        if rest[..pos].trim().is_empty() {
            rest = &rest[pos + 1..];
        } else {
            break;
        }
    }
    rest.trim_end()
}

/// Reads a front matter block. Never fails: YAML that does not parse is read line by line
/// (`key: value`, the key before the first `: `), with a warning.
pub fn parse(yaml: &str) -> FrontMatter {
    match yaml::parse_yaml(yaml) {
        Ok(fields) => FrontMatter {
            fields,
            warnings: Vec::new(),
        },
        Err(reason) => FrontMatter {
            fields: lines::parse_lines(yaml),
            warnings: vec![format!(
                "front matter is not valid YAML ({reason}); read line by line"
            )],
        },
    }
}

/// Writes `text` as a YAML double-quoted scalar: any text survives, newlines included.
pub fn yaml_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | BOM) => {
                out.push_str(&format!("\\u{:04X}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn is_fence(line: &str) -> bool {
    line.trim_end_matches([' ', '\t', '\r']) == "---"
}

/// Lines of `text` from `start`: each as (line without `\n`, its start, start of the next).
struct LineSpans<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> LineSpans<'a> {
    fn new(text: &'a str, start: usize) -> Self {
        Self { text, at: start }
    }
}

impl<'a> Iterator for LineSpans<'a> {
    type Item = (&'a str, usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.text.len() {
            return None;
        }
        let start = self.at;
        let rest = &self.text[start..];
        let (line, next) = match rest.find('\n') {
            Some(pos) => (&rest[..pos], start + pos + 1),
            None => (rest, self.text.len()),
        };
        self.at = next;
        Some((line, start, next))
    }
}

#[cfg(test)]
mod tests;
