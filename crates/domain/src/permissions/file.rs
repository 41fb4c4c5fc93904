//! A permissions file: `{"permissions": {"allow": […], "ask": […], "deny": […]}}`, every list
//! optional. Reading never fails as a whole: a bad rule is one problem and the others load; a
//! file that is not that shape at all is one problem and loads nothing. Editing changes only
//! the lists, keeping every other key and entry as it was.

use super::RuleKind;
use super::rule::Rule;
use serde_json::{Map, Value};

/// What one file's text gave.
#[derive(Debug, Clone, Default)]
pub struct ParsedFile {
    /// Every valid rule, in file order, `allow` then `ask` then `deny`.
    pub rules: Vec<(RuleKind, Rule)>,
    /// Every entry as written, valid or not (what an editor shows).
    pub entries: Vec<RuleEntry>,
    pub problems: Vec<Problem>,
}

/// One string of a list, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleEntry {
    pub kind: RuleKind,
    pub text: String,
    /// Why it is skipped, when it is.
    pub problem: Option<String>,
}

/// Something skipped: the rule's text when it is one rule, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub rule: Option<String>,
    pub message: String,
}

impl Problem {
    fn file(message: impl Into<String>) -> Self {
        Self {
            rule: None,
            message: message.into(),
        }
    }
}

/// Reads a file's text.
pub fn parse_file(text: &str) -> ParsedFile {
    let mut parsed = ParsedFile::default();
    let object = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(object)) => object,
        Ok(_) => {
            parsed.problems.push(Problem::file(
                "not a JSON object: expected {\"permissions\": {\"allow\": […], \"ask\": […], \"deny\": […]}}",
            ));
            return parsed;
        }
        Err(e) => {
            parsed.problems.push(Problem::file(format!(
                "invalid JSON ({e}); no rule of it applies"
            )));
            return parsed;
        }
    };
    for key in object.keys().filter(|k| *k != "permissions") {
        parsed
            .problems
            .push(Problem::file(format!("unknown key \"{key}\" ignored")));
    }
    let lists = match object.get("permissions") {
        None => return parsed,
        Some(Value::Object(lists)) => lists,
        Some(_) => {
            parsed.problems.push(Problem::file(
                "\"permissions\" is not an object; no rule of it applies",
            ));
            return parsed;
        }
    };
    for key in lists.keys().filter(|k| RuleKind::from_key(k).is_none()) {
        parsed.problems.push(Problem::file(format!(
            "unknown key \"permissions.{key}\" ignored (only allow, ask and deny)"
        )));
    }
    for kind in RuleKind::ALL {
        read_list(kind, lists.get(kind.key()), &mut parsed);
    }
    parsed
}

fn read_list(kind: RuleKind, list: Option<&Value>, parsed: &mut ParsedFile) {
    let key = kind.key();
    let items = match list {
        None => return,
        Some(Value::Array(items)) => items,
        Some(_) => {
            parsed.problems.push(Problem::file(format!(
                "\"permissions.{key}\" is not a list of rules; it is skipped"
            )));
            return;
        }
    };
    for (index, item) in items.iter().enumerate() {
        let Some(text) = item.as_str() else {
            parsed.problems.push(Problem::file(format!(
                "{key}[{index}] is not a string ({item}); it is skipped"
            )));
            continue;
        };
        let problem = match Rule::parse(text) {
            Ok(rule) => {
                parsed.rules.push((kind, rule));
                None
            }
            Err(e) => {
                parsed.problems.push(Problem {
                    rule: Some(text.to_owned()),
                    message: format!("{key}[{index}]: {e}; the rule is skipped"),
                });
                Some(e.to_string())
            }
        };
        parsed.entries.push(RuleEntry {
            kind,
            text: text.to_owned(),
            problem,
        });
    }
}

/// One change to a file's lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleChange {
    pub kind: RuleKind,
    pub rule: String,
}

/// Why a file cannot be edited without losing what it holds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EditError(String);

/// The file's new text: `remove`d rules taken out of their list (every copy), then `add`ed
/// rules appended to theirs unless already there. `current` is the file's text, `None` when it
/// does not exist yet. Other keys and entries (even invalid ones) are kept; an emptied list
/// stays as `[]`.
///
/// # Errors
/// When `current` is not an object with list-shaped `permissions`: rewriting it would lose
/// what the user wrote, so the user fixes it first.
pub fn edit_file(
    current: Option<&str>,
    add: &[RuleChange],
    remove: &[RuleChange],
) -> Result<String, EditError> {
    let mut root = match current.map(serde_json::from_str::<Value>) {
        None => Map::new(),
        Some(Ok(Value::Object(object))) => object,
        Some(Ok(_)) => return Err(EditError("it is not a JSON object".into())),
        Some(Err(e)) => return Err(EditError(format!("invalid JSON ({e})"))),
    };
    let lists = match root
        .entry("permissions")
        .or_insert_with(|| Value::Object(Map::new()))
    {
        Value::Object(lists) => lists,
        _ => return Err(EditError("\"permissions\" is not an object".into())),
    };
    for change in remove {
        if let Some(Value::Array(items)) = lists.get_mut(change.kind.key()) {
            items.retain(|item| item.as_str() != Some(change.rule.as_str()));
        }
    }
    for change in add {
        let list = lists
            .entry(change.kind.key())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(items) = list else {
            return Err(EditError(format!(
                "\"permissions.{}\" is not a list",
                change.kind.key()
            )));
        };
        if !items
            .iter()
            .any(|i| i.as_str() == Some(change.rule.as_str()))
        {
            items.push(Value::String(change.rule.clone()));
        }
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(root))
        .map_err(|e| EditError(format!("cannot encode: {e}")))?;
    text.push('\n');
    Ok(text)
}
