//! JSON-RPC over the WebSocket of a running `idea serve`: connect with a token, send a request,
//! wait for its answer (events and terminal bytes skipped), or both at once.
// Each test binary uses only part of these helpers.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The WebSocket of the server on `port`, opened with `token`.
pub async fn connect(port: u16, token: &str) -> Ws {
    let url = format!("ws://127.0.0.1:{port}/ws?token={token}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// Sends request `id`.
pub async fn send(ws: &mut Ws, id: u64, method: &str, params: Value) {
    let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    ws.send(Message::text(request.to_string())).await.unwrap();
}

/// The next answer within `deadline` (events and terminal bytes are skipped).
pub async fn answer(ws: &mut Ws, deadline: Duration) -> Value {
    loop {
        let message = tokio::time::timeout(deadline, ws.next())
            .await
            .expect("no answer in time")
            .unwrap()
            .unwrap();
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(text.as_str()).unwrap();
            if value.get("id").is_some() {
                return value;
            }
        }
    }
}

/// Sends request `id` and returns its result, asserting it answered `id` without an error.
pub async fn call(ws: &mut Ws, deadline: Duration, id: u64, method: &str, params: Value) -> Value {
    send(ws, id, method, params).await;
    let value = answer(ws, deadline).await;
    assert_eq!(value["id"], id, "{value}");
    assert!(value.get("error").is_none(), "{method}: {value}");
    value["result"].clone()
}
