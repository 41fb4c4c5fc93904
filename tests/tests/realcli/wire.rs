//! `idea serve`'s WebSocket as the browser UI uses it: JSON-RPC calls, events, and terminal
//! output fed into a screen model (vt100) per session, acknowledged as it is processed.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

pub struct Wire {
    socket: WebSocket<TcpStream>,
    next_id: u64,
    answers: HashMap<u64, Value>,
    screens: HashMap<String, vt100::Parser>,
    exits: HashMap<String, Value>,
    /// Every `sessionStateChanged` per session, with when it arrived.
    states: HashMap<String, Vec<(Instant, Value)>>,
}

impl Wire {
    pub fn connect(port: u16, token: &str) -> Self {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect to idea serve");
        let mut request = format!("ws://127.0.0.1:{port}/ws?token={token}")
            .into_client_request()
            .expect("request");
        request.headers_mut().insert(
            "Origin",
            format!("http://127.0.0.1:{port}").parse().expect("origin"),
        );
        let (socket, _) = tungstenite::client(request, stream).expect("WebSocket handshake");
        socket
            .get_ref()
            .set_read_timeout(Some(Duration::from_millis(20)))
            .expect("read timeout");
        Self {
            socket,
            next_id: 1,
            answers: HashMap::new(),
            screens: HashMap::new(),
            exits: HashMap::new(),
            states: HashMap::new(),
        }
    }

    /// Calls `method`; panics with the error when it fails.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let text = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.socket
            .send(Message::text(text.to_string()))
            .expect("send");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(answer) = self.answers.remove(&id) {
                if let Some(error) = answer.get("error") {
                    panic!("{method} failed: {error}");
                }
                return answer["result"].clone();
            }
            assert!(Instant::now() < deadline, "{method}: no answer within 30 s");
            self.pump(Duration::from_millis(50));
        }
    }

    /// Attaches to a session's output with a screen of `rows` × `cols`.
    pub fn attach(&mut self, session: &str, rows: u16, cols: u16) {
        self.screens
            .insert(session.to_owned(), vt100::Parser::new(rows, cols, 0));
        self.call("attachTerminal", json!({"sessionId": session}));
    }

    /// The session's screen as text.
    pub fn screen(&self, session: &str) -> String {
        self.screens
            .get(session)
            .map(|p| p.screen().contents())
            .unwrap_or_default()
    }

    /// The session's visible rows, top to bottom, as a screen detector reads them.
    pub fn rows(&self, session: &str) -> Vec<String> {
        self.screens
            .get(session)
            .map(|p| {
                let (_, cols) = p.screen().size();
                p.screen().rows(0, cols).collect()
            })
            .unwrap_or_default()
    }

    /// The `sessionStateChanged` events of a session so far, with when each arrived.
    pub fn states(&self, session: &str) -> &[(Instant, Value)] {
        self.states.get(session).map_or(&[], Vec::as_slice)
    }

    /// The session's exit, once `sessionExited` arrived.
    pub fn exit_of(&self, session: &str) -> Option<Value> {
        self.exits.get(session).cloned()
    }

    /// Reads whatever arrives for about `wait`.
    pub fn pump(&mut self, wait: Duration) {
        let until = Instant::now() + wait;
        while Instant::now() < until {
            match self.socket.read() {
                Ok(Message::Binary(frame)) => self.output(&frame),
                Ok(Message::Text(text)) => self.message(&text),
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock
                            | std::io::ErrorKind::TimedOut
                            | std::io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => panic!("the WebSocket failed: {e}"),
            }
        }
    }

    fn output(&mut self, frame: &[u8]) {
        let Some((id, bytes)) = frame.split_at_checked(16) else {
            return;
        };
        let session = uuid::Uuid::from_slice(id).expect("uuid").to_string();
        if let Some(parser) = self.screens.get_mut(&session) {
            parser.process(bytes);
        }
        let ack = json!({"jsonrpc": "2.0", "method": "ackTerminal", "params": {"sessionId": session, "bytes": bytes.len()}});
        let _ = self.socket.send(Message::text(ack.to_string()));
    }

    fn message(&mut self, text: &str) {
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            return;
        };
        if let Some(id) = message.get("id").and_then(Value::as_u64) {
            self.answers.insert(id, message);
            return;
        }
        let event = &message["params"];
        if event["type"] == "sessionStateChanged"
            && let Some(session) = event["sessionId"].as_str()
        {
            self.states
                .entry(session.to_owned())
                .or_default()
                .push((Instant::now(), event.clone()));
        }
        if event["type"] == "sessionExited"
            && let Some(session) = event["sessionId"].as_str()
        {
            self.exits.insert(session.to_owned(), event["exit"].clone());
        }
    }
}
