//! JSON-RPC 2.0 framing of the WebSocket's text frames: parsing one call, shaping answers
//! and notifications, and mapping IdeA's errors to JSON-RPC error codes.

use crate::api;
use idea_application::WireError;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

pub(super) const PARSE_ERROR: i64 = -32700;
pub(super) const INVALID_REQUEST: i64 = -32600;
pub(super) const METHOD_NOT_FOUND: i64 = -32601;
pub(super) const INVALID_PARAMS: i64 = -32602;
/// An IdeA error; its stable code is in `data.code`.
pub(super) const APPLICATION_ERROR: i64 = -32000;

/// One well-formed call. `id` is `None` for a notification (no answer is sent).
#[derive(Debug)]
pub(super) struct Call {
    pub id: Option<Value>,
    pub method: String,
    pub params: Option<Value>,
}

/// The `error` member of a JSON-RPC answer.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// An application error: `-32000` with `data: {code, ...details}`.
    pub fn from_wire(error: WireError) -> Self {
        let mut data = Map::new();
        data.insert("code".into(), Value::from(error.code));
        match error.data {
            Some(Value::Object(details)) => {
                for (key, value) in details {
                    if key != "code" {
                        data.insert(key, value);
                    }
                }
            }
            Some(Value::Null) | None => {}
            Some(other) => {
                data.insert("details".into(), other);
            }
        }
        Self {
            code: APPLICATION_ERROR,
            message: error.message,
            data: Some(Value::Object(data)),
        }
    }

    /// `INTERNAL` as an application error (a use case that panicked, say).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::from_wire(WireError {
            code: "INTERNAL",
            message: message.into(),
            data: None,
        })
    }
}

/// Parses one text frame. A frame that is not a valid call yields the error answer to send
/// (always answered, with `id: null` when the id itself is unusable).
pub(super) fn parse(text: &str) -> Result<Call, Box<(Value, RpcError)>> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        Box::new((
            Value::Null,
            RpcError::new(PARSE_ERROR, format!("parse error: {e}")),
        ))
    })?;
    let invalid = |id: Value, why: &str| Box::new((id, RpcError::new(INVALID_REQUEST, why)));
    let mut object = match value {
        Value::Object(object) => object,
        Value::Array(_) => return Err(invalid(Value::Null, "batch requests are not supported")),
        _ => return Err(invalid(Value::Null, "a request must be a JSON object")),
    };
    let id = match object.remove("id") {
        None => None,
        Some(id @ (Value::Null | Value::Number(_) | Value::String(_))) => Some(id),
        Some(_) => {
            return Err(invalid(
                Value::Null,
                "id must be a string, a number or null",
            ));
        }
    };
    let answer_id = id.clone().unwrap_or(Value::Null);
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid(answer_id, "jsonrpc must be \"2.0\""));
    }
    let Some(Value::String(method)) = object.remove("method") else {
        return Err(invalid(answer_id, "method must be a string"));
    };
    Ok(Call {
        id,
        method,
        params: object.remove("params"),
    })
}

/// Whether `params` carries nothing (absent, `null`, `{}` or `[]`).
fn is_empty(params: Option<&Value>) -> bool {
    match params {
        None | Some(Value::Null) => true,
        Some(Value::Object(o)) => o.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    }
}

/// Decodes an API request, telling an unknown method (`-32601`) from bad params (`-32602`).
///
/// The method alone is decoded first: with no params, the only "unknown variant" serde can
/// report is the method itself, so the test below cannot confuse it with an unknown value
/// inside the params (say `direction: "diagonal"`).
pub(super) fn decode_request(
    method: &str,
    params: Option<Value>,
) -> Result<api::Request, RpcError> {
    let probe = api::decode(json!({ "method": method }));
    match probe {
        Ok(request) if is_empty(params.as_ref()) => return Ok(request),
        Err(e) if e.message.contains(&format!("unknown variant `{method}`")) => {
            return Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("unknown method \"{method}\""),
            ));
        }
        _ => {}
    }
    let mut raw = Map::new();
    raw.insert("method".into(), Value::from(method));
    if let Some(params) = params {
        raw.insert("params".into(), params);
    }
    api::decode(Value::Object(raw)).map_err(|e| RpcError::new(INVALID_PARAMS, e.message))
}

/// The params of a stream method (`attachTerminal`, …); malformed ones are `-32602`.
pub(super) fn params<T: DeserializeOwned>(params: Option<Value>) -> Result<T, RpcError> {
    serde_json::from_value(params.unwrap_or(Value::Null))
        .map_err(|e| RpcError::new(INVALID_PARAMS, format!("bad params: {e}")))
}

/// `{"jsonrpc":"2.0","id":…,"result":…}`.
pub(super) fn result(id: Value, result: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string()
}

/// `{"jsonrpc":"2.0","id":…,"error":{code,message,data?}}`.
pub(super) fn error(id: Value, error: &RpcError) -> String {
    let mut body = Map::new();
    body.insert("code".into(), Value::from(error.code));
    body.insert("message".into(), Value::from(error.message.as_str()));
    if let Some(data) = &error.data {
        body.insert("data".into(), data.clone());
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": body }).to_string()
}

/// The answer to a call: its result or its error.
pub(super) fn answer(id: Value, outcome: Result<Value, RpcError>) -> String {
    match outcome {
        Ok(value) => result(id, value),
        Err(e) => error(id, &e),
    }
}

/// `{"jsonrpc":"2.0","method":…,"params":…}` (a server → client notification).
pub(super) fn notification(
    method: &str,
    params: &impl serde::Serialize,
) -> serde_json::Result<String> {
    let params = serde_json::to_value(params)?;
    Ok(json!({ "jsonrpc": "2.0", "method": method, "params": params }).to_string())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn parse_err(text: &str) -> (Value, i64) {
        let (id, e) = *parse(text).unwrap_err();
        (id, e.code)
    }

    #[test]
    fn malformed_json_is_a_parse_error_with_a_null_id() {
        assert_eq!(parse_err("{nope"), (Value::Null, PARSE_ERROR));
        assert_eq!(parse_err(""), (Value::Null, PARSE_ERROR));
    }

    #[test]
    fn batches_and_non_objects_are_invalid_requests() {
        assert_eq!(parse_err("[]"), (Value::Null, INVALID_REQUEST));
        assert_eq!(parse_err("42"), (Value::Null, INVALID_REQUEST));
        assert_eq!(
            parse_err(r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#),
            (Value::Null, INVALID_REQUEST)
        );
        assert_eq!(
            parse_err(r#"{"jsonrpc":"1.0","id":3,"method":"x"}"#),
            (json!(3), INVALID_REQUEST)
        );
        assert_eq!(
            parse_err(r#"{"jsonrpc":"2.0","id":"a","method":7}"#),
            (json!("a"), INVALID_REQUEST)
        );
    }

    #[test]
    fn a_call_and_a_notification_parse() {
        let call = parse(r#"{"jsonrpc":"2.0","id":7,"method":"listAgents","params":{}}"#).unwrap();
        assert_eq!(call.id, Some(json!(7)));
        assert_eq!(call.method, "listAgents");
        let note = parse(r#"{"jsonrpc":"2.0","method":"ackTerminal"}"#).unwrap();
        assert_eq!(note.id, None);
        assert_eq!(note.params, None);
    }

    #[test]
    fn unit_methods_accept_absent_null_or_empty_params() {
        for params in [None, Some(Value::Null), Some(json!({})), Some(json!([]))] {
            let request = decode_request("getProject", params).unwrap();
            assert!(matches!(request, api::Request::GetProject));
        }
    }

    #[test]
    fn unknown_methods_and_bad_params_are_told_apart() {
        let unknown = decode_request("launchRocket", None).unwrap_err();
        assert_eq!(unknown.code, METHOD_NOT_FOUND);
        let missing = decode_request("createLayout", None).unwrap_err();
        assert_eq!(missing.code, INVALID_PARAMS);
        let wrong = decode_request("createLayout", Some(json!({"name": 5}))).unwrap_err();
        assert_eq!(wrong.code, INVALID_PARAMS);
        // An unknown enum value inside the params is still a params problem.
        let nil = "00000000-0000-0000-0000-000000000000";
        let direction = decode_request(
            "splitCell",
            Some(json!({"layoutId": nil, "nodeId": nil, "direction": "splitCell"})),
        )
        .unwrap_err();
        assert_eq!(direction.code, INVALID_PARAMS);
        let ok = decode_request("createLayout", Some(json!({"name": "Review"}))).unwrap();
        assert!(matches!(ok, api::Request::CreateLayout { .. }));
    }

    #[test]
    fn application_errors_carry_the_idea_code_and_details() {
        let error = RpcError::from_wire(WireError {
            code: "AGENT_ALREADY_RUNNING",
            message: "Ada is already running in another cell".into(),
            data: Some(json!({"layoutId": "l", "nodeId": "n"})),
        });
        let text = super::error(json!(1), &error);
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            answer,
            json!({"jsonrpc": "2.0", "id": 1, "error": {
                "code": -32000,
                "message": "Ada is already running in another cell",
                "data": {"code": "AGENT_ALREADY_RUNNING", "layoutId": "l", "nodeId": "n"}
            }})
        );
    }

    #[test]
    fn a_null_result_is_kept() {
        let answer: Value = serde_json::from_str(&result(json!("x"), Value::Null)).unwrap();
        assert_eq!(answer, json!({"jsonrpc": "2.0", "id": "x", "result": null}));
    }
}
