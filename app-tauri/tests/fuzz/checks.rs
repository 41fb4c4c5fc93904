//! Which answer a frame should get, and whether an answer is well formed.

use super::*;

/// The key of the answer `text` must get (`None`: no answer), following JSON-RPC 2.0 as
/// `docs/api.md` describes it: a frame that is not JSON, not an object, or whose id is not a
/// string, a number or null is answered with `id: null`; a call without an id is a
/// notification. The key is [`id_key`] of the id, so it matches the echoed id.
pub(crate) fn expected_key(text: &str) -> Option<String> {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Some(NULL_KEY.into());
    };
    let Value::Object(mut object) = value else {
        return Some(NULL_KEY.into());
    };
    let id = match object.remove("id") {
        None => None,
        Some(id @ (Value::Null | Value::Number(_) | Value::String(_))) => Some(id),
        Some(_) => return Some(NULL_KEY.into()),
    };
    let answer = id_key(&id.clone().unwrap_or(Value::Null));
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Some(answer);
    }
    if !matches!(object.get("method"), Some(Value::String(_))) {
        return Some(answer);
    }
    id.map(|id| id_key(&id))
}

/// The key an id is matched by: as `serde_json` prints it, except that a number too large for
/// an integer is compared to 10 significant digits (`serde_json` reads such a number to the
/// nearest `f64` or a neighbour of it, so the echo of a huge id may differ in its last digit).
pub(crate) fn id_key(id: &Value) -> String {
    match id {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            format!("{:.10e}", n.as_f64().unwrap_or_default())
        }
        _ => id.to_string(),
    }
}

/// What is wrong with an answer, or its outcome (`ok`, the IdeA code, the JSON-RPC code).
pub(crate) fn check_answer(answer: &Value, declared: bool) -> Result<String, String> {
    if answer["jsonrpc"] != "2.0" {
        return Err("no \"jsonrpc\":\"2.0\"".into());
    }
    let (result, error) = (answer.get("result"), answer.get("error"));
    match (result, error) {
        (Some(_), None) => Ok("ok".into()),
        (None, Some(error)) => {
            let Some(code) = error["code"].as_i64().filter(|c| RPC_CODES.contains(c)) else {
                return Err("error without a JSON-RPC code".into());
            };
            if !error["message"].is_string() {
                return Err("error without a message".into());
            }
            let data = error.get("data");
            let idea = data.map(|d| d["code"].as_str());
            match (code, idea) {
                (-32000, None | Some(None)) => Err("-32000 without a string data.code".into()),
                (_, Some(None)) => Err("data without a string code".into()),
                (-32601, _) if declared => Err("a declared method is unknown".into()),
                (_, Some(Some(idea))) => Ok(idea.to_owned()),
                (code, None) => Ok(code.to_string()),
            }
        }
        _ => Err("not exactly one of result and error".into()),
    }
}
