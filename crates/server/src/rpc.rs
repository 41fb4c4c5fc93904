//! JSON-RPC 2.0 framing of the WebSocket's text frames: parsing one call, shaping answers
//! and notifications, and mapping IdeA's errors to JSON-RPC error codes.

use crate::api::StreamRequest;
use idea_application::{ErrorKind, WireError};
use serde_json::{Map, Value, json};

pub(crate) const PARSE_ERROR: i64 = -32700;
pub(crate) const INVALID_REQUEST: i64 = -32600;
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// An IdeA error; its stable code is in `data.code`.
pub(crate) const APPLICATION_ERROR: i64 = -32000;

/// One well-formed call. `id` is `None` for a notification (no answer is sent).
#[derive(Debug)]
pub(crate) struct Call {
    pub id: Option<Value>,
    pub method: String,
    pub params: Option<Value>,
}

/// The `error` member of a JSON-RPC answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RpcError {
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

    /// An IdeA error: `data` is `{code, ...details}`; the JSON-RPC code is `-32601` for an
    /// unknown method, `-32602` for bad params, `-32000` for everything else.
    pub fn from_wire(error: WireError) -> Self {
        let code = match error.kind {
            ErrorKind::UnknownMethod { .. } => METHOD_NOT_FOUND,
            ErrorKind::InvalidParams => INVALID_PARAMS,
            _ => APPLICATION_ERROR,
        };
        Self {
            code,
            message: error.message,
            data: serde_json::to_value(&error.kind).ok(),
        }
    }

    /// `INTERNAL` as an application error (a use case that panicked, say).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::from_wire(WireError::new(ErrorKind::Internal, message))
    }
}

/// Parses one text frame. A frame that is not a valid call yields the error answer to send
/// (always answered, with `id: null` when the id itself is unusable).
pub(crate) fn parse(text: &str) -> Result<Call, Box<(Value, RpcError)>> {
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

/// The params of a stream method (`attachTerminal`, …); malformed ones are `-32602`.
pub(crate) fn stream_call(method: &str, params: Option<Value>) -> Result<StreamRequest, RpcError> {
    StreamRequest::decode(method, params).map_err(|e| RpcError::from_wire(e.into()))
}

/// `{"jsonrpc":"2.0","id":…,"result":…}`.
pub(crate) fn result(id: Value, result: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string()
}

/// `{"jsonrpc":"2.0","id":…,"error":{code,message,data?}}`.
pub(crate) fn error(id: Value, error: &RpcError) -> String {
    let mut body = Map::new();
    body.insert("code".into(), Value::from(error.code));
    body.insert("message".into(), Value::from(error.message.as_str()));
    if let Some(data) = &error.data {
        body.insert("data".into(), data.clone());
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": body }).to_string()
}

/// The answer to a call: its result or its error.
pub(crate) fn answer(id: Value, outcome: Result<Value, RpcError>) -> String {
    match outcome {
        Ok(value) => result(id, value),
        Err(e) => error(id, &e),
    }
}

/// `{"jsonrpc":"2.0","method":…,"params":…}` (a server → client notification).
pub(crate) fn notification(
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
    fn unknown_methods_and_bad_params_keep_their_json_rpc_codes() {
        let unknown = RpcError::from_wire(
            crate::api::Request::decode("launchRocket", None)
                .unwrap_err()
                .into(),
        );
        assert_eq!(unknown.code, METHOD_NOT_FOUND);
        assert_eq!(
            unknown.data,
            Some(json!({"code": "UNKNOWN_METHOD", "method": "launchRocket"}))
        );
        let missing = RpcError::from_wire(
            crate::api::Request::decode("createLayout", None)
                .unwrap_err()
                .into(),
        );
        assert_eq!(missing.code, INVALID_PARAMS);
        assert_eq!(
            stream_call("ackTerminal", Some(json!({"bytes": 1})))
                .unwrap_err()
                .code,
            INVALID_PARAMS
        );
    }

    #[test]
    fn application_errors_carry_the_idea_code_and_details() {
        let nil = idea_domain::LayoutId(uuid::Uuid::nil());
        let node = idea_domain::NodeId(uuid::Uuid::nil());
        let agent = idea_domain::AgentId(uuid::Uuid::nil());
        let error = RpcError::from_wire(WireError::new(
            ErrorKind::AgentAlreadyRunning {
                agent_id: agent,
                layout_id: nil,
                node_id: node,
            },
            "Ada is already running in another cell",
        ));
        let text = super::error(json!(1), &error);
        let answer: Value = serde_json::from_str(&text).unwrap();
        let zero = "00000000-0000-0000-0000-000000000000";
        assert_eq!(
            answer,
            json!({"jsonrpc": "2.0", "id": 1, "error": {
                "code": -32000,
                "message": "Ada is already running in another cell",
                "data": {"code": "AGENT_ALREADY_RUNNING", "agentId": zero, "layoutId": zero, "nodeId": zero}
            }})
        );
    }

    #[test]
    fn a_null_result_is_kept() {
        let answer: Value = serde_json::from_str(&result(json!("x"), Value::Null)).unwrap();
        assert_eq!(answer, json!({"jsonrpc": "2.0", "id": "x", "result": null}));
    }
}
