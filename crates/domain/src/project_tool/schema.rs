//! The JSON Schema of a tool's arguments, as MCP's `tools/list` gives it to the model.

use super::bind::number_text;
use super::{ParamKind, ProjectTool};
use serde_json::{Map, Number, Value};

impl ProjectTool {
    /// `{"type":"object","properties":{…},"required":[…],"additionalProperties":false}`,
    /// properties in declaration order; `required` left out when every parameter has a
    /// default.
    pub fn input_schema(&self) -> Map<String, Value> {
        let mut properties = Map::new();
        for param in &self.params {
            let mut property = Map::new();
            property.insert("type".into(), param.kind.as_str().into());
            if let Some(description) = &param.description {
                property.insert("description".into(), description.clone().into());
            }
            if let Some(default) = &param.default {
                let value = match param.kind {
                    ParamKind::Number => number_value(default),
                    ParamKind::String => None,
                };
                property.insert(
                    "default".into(),
                    value.unwrap_or_else(|| default.clone().into()),
                );
            }
            properties.insert(param.name.clone(), Value::Object(property));
        }
        let required: Vec<Value> = self
            .params
            .iter()
            .filter(|p| p.required())
            .map(|p| p.name.clone().into())
            .collect();
        let mut schema = Map::new();
        schema.insert("type".into(), "object".into());
        schema.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        schema.insert("additionalProperties".into(), false.into());
        schema
    }
}

/// A number default as a JSON number (`3`, not `3.0`).
fn number_value(text: &str) -> Option<Value> {
    let text = number_text(text)?;
    if let Ok(n) = text.parse::<i64>() {
        return Some(n.into());
    }
    text.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map(Value::Number)
}
