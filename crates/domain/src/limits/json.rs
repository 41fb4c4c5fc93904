//! Reading the CLIs' JSON lines: capped, never a panic on bad input.

use serde_json::Value;

/// The longest line the recognisers parse: a limit record is a few kilobytes, and a longer
/// line (a model's long answer, a big tool result) is never one.
pub(crate) const LINE_MAX: usize = 256 * 1024;

/// `line` as a JSON object, unless it is too long or not one.
pub(crate) fn parse_line(line: &str) -> Option<Value> {
    let line = line.trim();
    if line.len() > LINE_MAX || !line.starts_with('{') {
        return None;
    }
    serde_json::from_str::<Value>(line)
        .ok()
        .filter(Value::is_object)
}

/// `value[key]` as a string.
pub(crate) fn str_at<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// `value[key]` is `true`.
pub(crate) fn is_true(value: &Value, key: &str) -> bool {
    value.get(key).and_then(Value::as_bool) == Some(true)
}

/// `value[key]` as Unix seconds (a whole number; a float is cut).
pub(crate) fn epoch_at(value: &Value, key: &str) -> Option<u64> {
    let number = value.get(key)?;
    number.as_u64().or_else(|| {
        number
            .as_f64()
            .filter(|f| f.is_finite() && *f > 0.0 && *f < 1e12)
            .map(|f| f as u64)
    })
}

/// The text of a message's content: a string, or the `text` of its text blocks.
pub(crate) fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| str_at(b, "type").is_none_or(|t| t == "text"))
            .filter_map(|b| str_at(b, "text"))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
