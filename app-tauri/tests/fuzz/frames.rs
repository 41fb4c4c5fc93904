//! Raw frames that are not well-formed calls, and picking the next frame.

use super::*;

impl Gen {
    /// A frame that is not a well-formed call.
    pub(crate) fn raw(&mut self, pool: &Pool) -> String {
        self.next_id += 1;
        let n = self.next_id * CONNECTIONS + self.connection;
        let method = self.rng.pick(&self.methods).unwrap_or("getProject");
        let valid = format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"{method}","params":{{}}}}"#);
        match self.rng.below(17) {
            0 => {
                let mut cut = self.rng.below(valid.len());
                while !valid.is_char_boundary(cut) {
                    cut -= 1;
                }
                valid[..cut].to_owned()
            }
            1 => self.weird(),
            2 => {
                let version =
                    ["\"1.0\"", "2", "2.0", "null", "\"2.0 \"", "\"\""][self.rng.below(6)];
                format!(r#"{{"jsonrpc":{version},"id":{n},"method":"{method}"}}"#)
            }
            3 => format!(r#"{{"id":{n},"method":"{method}"}}"#),
            4 => ["42", "\"call\"", "null", "true", "-0", "1e999"][self.rng.below(6)].to_owned(),
            5 => {
                let other = format!(r#"{{"jsonrpc":"2.0","id":"b{n}","method":"listAgents"}}"#);
                match self.rng.below(3) {
                    0 => "[]".to_owned(),
                    1 => format!("[{valid}]"),
                    _ => format!("[{valid},{other}]"),
                }
            }
            6 => {
                let id = match self.rng.below(6) {
                    0 => "1e308".to_owned(),
                    1 => "-1e308".to_owned(),
                    2 => format!("1234567890123456789012345678901234567890{n}"),
                    3 => u64::MAX.to_string(),
                    4 => format!("\"{}{n}\"", "i".repeat(200_000)),
                    _ => format!("{n}.000000000000000000001"),
                };
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
            }
            7 => {
                let id = ["{}", "[]", "true", "[1]", "{\"id\":1}"][self.rng.below(5)];
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
            }
            8 => {
                let what = ["7", "null", "[]", "{}", "\"\""][self.rng.below(5)];
                format!(r#"{{"jsonrpc":"2.0","id":{n},"method":{what}}}"#)
            }
            9 => format!(r#"{{"jsonrpc":"2.0","id":{n}}}"#),
            10 => format!(
                r#"{{"jsonrpc":"2.0","id":{n},"method":"createLayout","params":{{"name":"a\ud800b"}}}}"#
            ),
            11 => format!(r#"{{"jsonrpc":"2.0","id":{n},"id":"dup{n}","method":"{method}"}}"#),
            12 => String::new(),
            13 => format!("{valid} trailing"),
            14 => format!("\u{FEFF}{valid}"),
            15 => " \n\t ".to_owned(),
            _ => {
                // A near-miss method name.
                let near = match self.rng.below(4) {
                    0 => method.to_uppercase(),
                    1 => format!("{method} "),
                    2 => format!("{method}\u{0}"),
                    _ => format!("_{method}"),
                };
                let layout = pool.layouts.first().cloned().unwrap_or_default();
                let call = json!({"jsonrpc": "2.0", "id": n, "method": near,
                    "params": {"layoutId": layout}});
                call.to_string()
            }
        }
    }

    /// A binary frame: keystrokes for a known session (made harmless), or random bytes.
    pub(crate) fn binary(&mut self, pool: &Pool) -> Vec<u8> {
        let session = self
            .rng
            .pick(&pool.running)
            .and_then(|s| uuid::Uuid::parse_str(&s).ok());
        match session {
            Some(session) if self.rng.percent(60) => {
                let mut bytes = session.as_bytes().to_vec();
                let typed = if self.rng.percent(8) {
                    command(&mut self.rng)
                } else {
                    harmless(&self.weird())
                };
                bytes.extend_from_slice(typed.as_bytes());
                bytes
            }
            _ => (0..self.rng.below(64))
                .map(|_| self.rng.next_u64() as u8)
                .collect(),
        }
    }

    /// The next frame to send.
    pub(crate) fn frame(&mut self, pool: &mut Pool, acks: &mut Acks) -> Out {
        // Too many shells: stop the oldest first.
        if pool.running.len() > MAX_SHELLS {
            let session = pool.running.remove(0);
            let params = json!({ "sessionId": session });
            let id = self.id().or(Some(Value::from(0)));
            return Out::Text {
                text: Self::call_text(id, "stopSession", Some(params.clone())),
                label: "stopSession".into(),
                learn: Some(("stopSession".into(), params)),
            };
        }
        // Acknowledge output, as a client does.
        if self.rng.percent(self.ack_percent)
            && let Some((session, bytes)) = acks.pop_first()
        {
            let params = json!({"sessionId": session, "bytes": bytes});
            return Out::Text {
                text: Self::call_text(None, "ackTerminal", Some(params)),
                label: "ackTerminal".into(),
                learn: None,
            };
        }
        // Keep something to aim at, whatever the fuzzer deleted.
        if (pool.stale && self.rng.percent(25)) || pool.leaves.is_empty() {
            pool.stale = false;
            return self.call("getLayouts", pool, 0);
        }
        if pool.agents.len() < 2 && self.rng.percent(20) {
            return self.call("createAgent", pool, 0);
        }
        if self.hangups && self.rng.below(1000) == 0 {
            return Out::Hangup;
        }
        match self.rng.below(100) {
            0..=3 => Out::Binary(self.binary(pool)),
            4 => Out::Ping,
            5..=12 => Out::Text {
                text: self.raw(pool),
                label: "raw".into(),
                learn: None,
            },
            13..=14 => {
                let method = format!("fuzz{}", self.weird());
                self.call(&method, pool, 0)
            }
            _ => {
                let mut method = self.rng.pick(&self.methods).unwrap_or("getProject");
                if pool.running.len() >= MAX_SHELLS && SPAWNING.contains(&method) {
                    method = "listSessions";
                }
                let mutations = match self.rng.below(10) {
                    0..=4 => 0,
                    5..=7 => 1,
                    8 => 2,
                    _ => 3,
                };
                self.call(method, pool, mutations)
            }
        }
    }
}
