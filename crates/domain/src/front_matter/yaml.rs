//! Strict YAML reading of a front matter block with serde-saphyr: top-level scalars as
//! their text, maps and lists skipped.

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;

pub(super) fn parse_yaml(yaml: &str) -> Result<BTreeMap<String, String>, String> {
    let options = serde_saphyr::options! {
        // `yes`/`no`/`on`/`off` stay text, as in YAML 1.2.
        strict_booleans: true,
        // `007` and `1_000` stay as written.
        leading_zero_numbers_as_strings: true,
        underscored_numbers_as_strings: true,
        // A one-line error for the warning; the file path is the caller's.
        with_snippet: false,
    };
    let raw: BTreeMap<String, serde_saphyr::Spanned<Value>> =
        serde_saphyr::from_str_with_options(yaml, options)
            .map_err(|e| first_line(&e.to_string()))?;
    Ok(raw
        .into_iter()
        .filter_map(|(key, spanned)| {
            let text = match spanned.value {
                Value::Text(text) => text,
                // A number or a boolean keeps its spelling (`1.10`, not `1.1`).
                Value::Other(parsed) => source_text(yaml, &spanned.referenced).unwrap_or(parsed),
                Value::Skipped => return None,
            };
            Some((key, text))
        })
        .collect())
}

/// The parser's message on one line, without its advice to the programmer.
fn first_line(text: &str) -> String {
    text.lines()
        .next()
        .unwrap_or_default()
        .replace(", set DuplicateKeyPolicy in Options if acceptable", "")
        .trim()
        .to_owned()
}

/// The source text of a plain scalar, when the parser told where it is.
fn source_text(yaml: &str, at: &serde_saphyr::Location) -> Option<String> {
    let span = at.span();
    let start = usize::try_from(span.byte_offset()?).ok()?;
    let len = usize::try_from(span.byte_len()?).ok()?;
    let text = yaml.get(start..start.checked_add(len)?)?.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// A top-level value: text as parsed, a number or boolean (as parsed, in case its source
/// cannot be found), or something `fields` leaves out (map, list, null).
enum Value {
    Text(String),
    Other(String),
    Skipped,
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Other(v.to_string()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Other(v.to_string()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Other(v.to_string()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        Ok(Value::Other(v.to_string()))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        Ok(Value::Other(v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Other(v.to_string()))
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<Value, E> {
        Ok(Value::Text(v.to_string()))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Text(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::Text(v))
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Value, E> {
        Ok(Value::Skipped)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Skipped)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Skipped)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Value::Skipped)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Value::Skipped)
    }
}
