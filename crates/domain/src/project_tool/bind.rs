//! Binding an MCP call's arguments to a tool's run line.

use super::placeholder::{Piece, pieces};
use super::{ParamKind, ProjectTool, ToolParam};
use serde_json::{Map, Value};

/// The process to start for a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundCall {
    /// The run line's words with the values in place: one word per word of `run`.
    pub argv: Vec<String>,
    /// The values of the call, in parameter order, as text (what permission rules match).
    pub values: Vec<String>,
}

/// Why a call's arguments do not fit the tool; the message tells the model what to send.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolArgsError {
    #[error("the arguments must be a JSON object of the tool's parameters")]
    NotAnObject,
    #[error("the argument `{0}` is required")]
    Missing(String),
    #[error("the argument `{param}` must be {expected}")]
    WrongType {
        param: String,
        expected: &'static str,
    },
    #[error("`{0}` is not a parameter of this tool: send only the parameters its schema lists")]
    Unknown(String),
}

impl ProjectTool {
    /// Binds a call's arguments (any JSON: `null` means none) to the run line.
    ///
    /// # Errors
    /// As [`Self::bind`]; [`ToolArgsError::NotAnObject`] for anything but an object or null.
    pub fn bind_value(&self, args: &Value) -> Result<BoundCall, ToolArgsError> {
        match args {
            Value::Object(map) => self.bind(map),
            Value::Null => self.bind(&Map::new()),
            _ => Err(ToolArgsError::NotAnObject),
        }
    }

    /// Binds a call's arguments to the run line: each value (or the parameter's default)
    /// replaces its `{{placeholder}}` inside its word, never splitting it, so
    /// `; rm -rf /` stays one argument.
    ///
    /// # Errors
    /// An argument the tool does not declare, a required one missing (`null` counts as
    /// missing), or one of the wrong type.
    pub fn bind(&self, args: &Map<String, Value>) -> Result<BoundCall, ToolArgsError> {
        if let Some(unknown) = args.keys().find(|key| self.param(key).is_none()) {
            return Err(ToolArgsError::Unknown(unknown.clone()));
        }
        let values = self
            .params
            .iter()
            .map(|param| value_text(param, args.get(&param.name)))
            .collect::<Result<Vec<_>, _>>()?;
        let argv = self
            .run
            .iter()
            .map(|word| self.substitute(word, &values))
            .collect();
        Ok(BoundCall { argv, values })
    }

    fn substitute(&self, word: &str, values: &[String]) -> String {
        let mut out = String::with_capacity(word.len());
        for piece in pieces(word) {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Param(name) => {
                    // Every placeholder names a parameter (checked when the tool was read).
                    if let Some(value) = self
                        .params
                        .iter()
                        .position(|p| p.name == name)
                        .and_then(|index| values.get(index))
                    {
                        out.push_str(value);
                    }
                }
            }
        }
        out
    }
}

fn value_text(param: &ToolParam, value: Option<&Value>) -> Result<String, ToolArgsError> {
    let wrong = |expected| ToolArgsError::WrongType {
        param: param.name.clone(),
        expected,
    };
    let value = match value.filter(|v| !v.is_null()) {
        Some(value) => value,
        None => {
            let default = param
                .default
                .as_deref()
                .ok_or_else(|| ToolArgsError::Missing(param.name.clone()))?;
            return Ok(match param.kind {
                ParamKind::Number => number_text(default).unwrap_or_else(|| default.to_owned()),
                ParamKind::String => default.to_owned(),
            });
        }
    };
    match (param.kind, value) {
        (ParamKind::Number, Value::Number(n)) => Ok(n
            .as_f64()
            .and_then(shortest)
            .unwrap_or_else(|| n.to_string())),
        (ParamKind::Number, Value::String(text)) => number_text(text).ok_or(wrong("a number")),
        (ParamKind::Number, _) => Err(wrong("a number")),
        (ParamKind::String, Value::String(text)) => Ok(text.clone()),
        (ParamKind::String, Value::Number(n)) => Ok(n.to_string()),
        (ParamKind::String, _) => Err(wrong("a string")),
    }
}

/// A number written as text (`"3"`, `" 2.50 "`), in its shortest form; `None` when it is
/// not a finite number.
pub(super) fn number_text(text: &str) -> Option<String> {
    let text = text.trim();
    if let Ok(n) = text.parse::<i64>() {
        return Some(n.to_string());
    }
    text.parse::<f64>().ok().and_then(shortest)
}

/// `3` for 3.0, `2.5` for 2.5; `None` for NaN and infinities.
fn shortest(n: f64) -> Option<String> {
    if !n.is_finite() {
        return None;
    }
    // Whole numbers in the range where f64 is exact print without a fraction.
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        return Some(format!("{}", n as i64));
    }
    Some(format!("{n}"))
}
