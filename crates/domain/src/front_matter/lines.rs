//! The line-by-line reading of a front matter block that is not valid YAML, as the CLIs do
//! it: a top-level `key: value` line (the key before the first `: `), indented lines after it
//! continuing the value.

use std::collections::BTreeMap;

/// A value being read: its key, its lines so far, and how they join.
struct Pending {
    key: String,
    parts: Vec<String>,
    /// `|` keeps line breaks; anything else joins with a space.
    literal: bool,
}

impl Pending {
    fn finish(self, fields: &mut BTreeMap<String, String>) {
        let joined = self.parts.join(if self.literal { "\n" } else { " " });
        fields.insert(self.key, unquote(joined.trim()).to_owned());
    }
}

pub(super) fn parse_lines(yaml: &str) -> BTreeMap<String, String> {
    let mut fields = BTreeMap::new();
    let mut pending: Option<Pending> = None;
    for line in yaml.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let Some(p) = pending.as_mut() {
                p.parts.push(line.trim().to_owned());
            }
            continue;
        }
        if let Some(p) = pending.take() {
            p.finish(&mut fields);
        }
        if line.starts_with('#') {
            continue;
        }
        pending = key_value(line).map(|(key, value)| start(key, value));
    }
    if let Some(p) = pending {
        p.finish(&mut fields);
    }
    fields
}

fn key_value(line: &str) -> Option<(&str, &str)> {
    let (key, value) = match line.find(": ") {
        Some(pos) => (&line[..pos], &line[pos + 2..]),
        None => (line.strip_suffix(':')?, ""),
    };
    let key = unquote(key.trim());
    (!key.is_empty()).then_some((key, value.trim()))
}

fn start(key: &str, value: &str) -> Pending {
    // A block scalar indicator (`|`, `>-`, …) is not part of the value.
    let block = !value.is_empty() && value.len() <= 3 && value.starts_with(['|', '>']);
    let block = block
        && value[1..]
            .chars()
            .all(|c| matches!(c, '-' | '+' | '1'..='9'));
    Pending {
        key: key.to_owned(),
        parts: if block || value.is_empty() {
            Vec::new()
        } else {
            vec![value.to_owned()]
        },
        literal: block && value.starts_with('|'),
    }
}

/// `"x"` and `'x'` lose their quotes.
fn unquote(text: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = text
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    text
}
