//! Building calls: the params skeletons, the aim, and valid values.

use super::*;

/// Every field name some method takes: the params of a method this file does not know yet
/// are drawn from these.
#[rustfmt::skip]
pub(crate) const ALL_FIELDS: &[&str] = &[
    "layoutId", "nodeId", "targetId", "a", "b", "splitId", "ratios", "agentId", "sessionId",
    "direction", "side", "rows", "cols", "name", "profileId", "template", "content", "data",
    "bytes", "target", "message", "requester", "timeoutSecs", "requestId",
];

/// The required and optional fields of each method's params (`None`: a method this file does
/// not know yet).
pub(crate) fn fields(method: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    Some(match method {
        "getProject" | "listProfiles" | "listTemplates" | "listAgents" | "getLayouts"
        | "listSessions" | "listRequests" => (&[], &[]),
        "createAgent" => (&["name", "profileId"], &["template"]),
        "readAgentContext" | "deleteAgent" => (&["agentId"], &[]),
        "updateAgentContext" => (&["agentId", "content"], &[]),
        "createLayout" => (&["name"], &[]),
        "renameLayout" => (&["layoutId", "name"], &[]),
        "deleteLayout" | "setActiveLayout" => (&["layoutId"], &[]),
        "splitCell" => (&["layoutId", "nodeId", "direction"], &[]),
        "closeCell" => (&["layoutId", "nodeId"], &[]),
        "moveCell" => (&["layoutId", "nodeId", "targetId", "direction"], &["side"]),
        "swapCells" => (&["layoutId", "a", "b"], &[]),
        "resizeSplit" => (&["layoutId", "splitId", "ratios"], &[]),
        "assignAgent" => (&["layoutId", "nodeId", "agentId"], &[]),
        "launchAgent" => (&["layoutId", "nodeId", "agentId", "rows", "cols"], &[]),
        "openShell" => (&["layoutId", "nodeId", "rows", "cols"], &[]),
        "stopSession" | "attachTerminal" | "detachTerminal" => (&["sessionId"], &[]),
        "restartSession" | "resizeTerminal" => (&["sessionId", "rows", "cols"], &[]),
        "writeTerminal" => (&["sessionId", "data"], &[]),
        "ackTerminal" => (&["sessionId", "bytes"], &[]),
        "askAgent" => (&["target", "message"], &["requester", "timeoutSecs"]),
        "cancelRequest" => (&["requestId"], &[]),
        _ => return None,
    })
}

/// Methods that start a process.
pub(crate) const SPAWNING: &[&str] = &["openShell", "launchAgent", "restartSession"];

/// Pieces of awkward text.
#[rustfmt::skip]
pub(crate) const PIECES: &[&str] = &[
    "", "a", "Ada", " ", "  lead", "trail  ", "\u{202E}", "\u{202D}", "\u{2066}", "\u{2069}",
    "\u{200B}", "\u{200D}", "\u{FEFF}", "\0", "\u{1}", "\u{1b}[2J", "\u{7f}", "\u{85}",
    "\u{2028}", "\n", "\r\n", "\t", "é", "e\u{301}", "日本語", "\u{1F600}",
    "\u{1F469}\u{200D}\u{1F4BB}", "\u{10FFFF}", "\u{FFFD}", "..", "../", "../../etc/passwd",
    "/", "\\", "C:\\", "NUL", "con", "%s%n", "${HOME}", "$(id)", "`id`", "'", "\"", "<b>", "{}",
    "[]", "null", "-1", "0", "ﷺ", ".ideai", "agents.json", ";", "|", "*", "?", "~",
];

/// Text typed into a terminal, made harmless: `^U` kills whatever the line held, `# ` makes
/// the rest a comment, every control character is dropped (no Enter, `^D` or escape inside),
/// then Enter. A shell never runs any of it.
pub(crate) fn harmless(text: &str) -> String {
    let mut line = String::from("\u{15}# ");
    line.extend(text.chars().filter(|c| !c.is_control()));
    line.push('\r');
    line
}

/// Commands now and then typed into a session instead of a comment, all harmless: output
/// enough for the server's flow control to pause a session, binary output, a shell that
/// ignores SIGHUP and SIGTERM (stopping it takes the whole escalation), one that exits by
/// itself, escape sequences.
pub(crate) const COMMANDS: &[&str] = &[
    "head -c 3000000 /dev/zero | tr '\\0' x",
    "head -c 300000 /dev/urandom",
    "trap '' HUP TERM",
    "exit 3",
    "printf '\\033[?1049h\\033[2J\\033[31m'",
];

/// One of [`COMMANDS`] as typed: the line killed first, then Enter.
pub(crate) fn command(rng: &mut Rng) -> String {
    format!("\u{15}{}\r", rng.pick(COMMANDS).unwrap_or("exit 3"))
}

/// The same id spelt another way the server may accept (or not).
pub(crate) fn respell(rng: &mut Rng, id: &str) -> Value {
    let Ok(parsed) = uuid::Uuid::parse_str(id) else {
        return Value::from(format!("{id}x"));
    };
    Value::from(match rng.below(7) {
        0 => parsed.simple().to_string(),
        1 => parsed.braced().to_string(),
        2 => parsed.urn().to_string(),
        3 => parsed.hyphenated().to_string().to_uppercase(),
        4 => format!(" {id}"),
        5 => id[..id.len() - 1].to_owned(),
        _ => uuid::Uuid::nil().to_string(),
    })
}

/// Ids of one call that belong together (a cell of that layout, a split of it, …).
pub(crate) struct Aim {
    pub(crate) layout: String,
    pub(crate) node: String,
    pub(crate) other: String,
    pub(crate) split: String,
    pub(crate) children: usize,
    pub(crate) agent: String,
    pub(crate) session: String,
}

/// Output bytes received per session and not acknowledged yet (one connection's).
pub(crate) type Acks = BTreeMap<String, u64>;

pub(crate) struct Gen {
    pub(crate) rng: Rng,
    pub(crate) methods: Vec<&'static str>,
    pub(crate) connection: u64,
    pub(crate) next_id: u64,
    /// How often a frame is an `ackTerminal` when output is owed: a prompt client, or a
    /// slow one that lets the server's flow control pause its sessions.
    pub(crate) ack_percent: u64,
    /// Whether this connection hangs up now and then (a client that goes away mid-call).
    pub(crate) hangups: bool,
}

/// One frame to send and what to expect of it.
pub(crate) enum Out {
    Text {
        text: String,
        /// The method, or `raw`.
        label: String,
        /// The method and params to learn from when it succeeds.
        learn: Option<(String, Value)>,
    },
    Binary(Vec<u8>),
    Ping,
    /// Drop the connection without a close frame, mid-call, and connect again.
    Hangup,
}

impl Gen {
    pub(crate) fn aim(&mut self, pool: &Pool) -> Aim {
        let rng = &mut self.rng;
        let (layout, node) = match rng.pick(&pool.leaves) {
            Some(leaf) if rng.percent(92) => leaf,
            _ => (
                rng.pick(&pool.layouts).unwrap_or_else(|| rng.uuid()),
                rng.uuid(),
            ),
        };
        let siblings: Vec<String> = pool
            .leaves
            .iter()
            .filter(|(l, n)| *l == layout && *n != node)
            .map(|(_, n)| n.clone())
            .collect();
        let other = rng.pick(&siblings).unwrap_or_else(|| rng.uuid());
        let splits: Vec<(String, usize)> = pool
            .splits
            .iter()
            .filter(|(l, _, _)| *l == layout)
            .map(|(_, s, n)| (s.clone(), *n))
            .collect();
        let (split, children) = rng
            .pick(&splits)
            .unwrap_or_else(|| (node.clone(), 2 + rng.below(2)));
        let agent = match rng.pick(&pool.agents) {
            Some(agent) if rng.percent(90) => agent,
            _ => rng.uuid(),
        };
        let session = match rng.below(20) {
            0..=12 => rng.pick(&pool.running),
            13..=17 => rng.pick(&pool.exited),
            _ => None,
        }
        .unwrap_or_else(|| rng.uuid());
        Aim {
            layout,
            node,
            other,
            split,
            children,
            agent,
            session,
        }
    }

    pub(crate) fn name(&mut self) -> String {
        self.next_id += 1;
        if self.rng.percent(80) {
            format!("Fuzz {}-{}", self.connection, self.next_id)
        } else {
            self.weird()
        }
    }

    /// A valid value for `field`.
    pub(crate) fn good(
        &mut self,
        field: &str,
        method: &str,
        aim: &Aim,
        pool: &Pool,
    ) -> Option<Value> {
        let rng = &mut self.rng;
        Some(match field {
            "layoutId" => Value::from(aim.layout.as_str()),
            "nodeId" | "a" => Value::from(aim.node.as_str()),
            "targetId" | "b" => Value::from(aim.other.as_str()),
            "splitId" => Value::from(aim.split.as_str()),
            "ratios" => {
                let weights: Vec<f64> = (0..aim.children)
                    .map(|_| 1.0 + rng.below(9) as f64)
                    .collect();
                let total: f64 = weights.iter().sum();
                Value::from(weights.iter().map(|w| w / total).collect::<Vec<_>>())
            }
            "agentId" if method == "assignAgent" && rng.percent(15) => Value::Null,
            "agentId" => Value::from(aim.agent.as_str()),
            "sessionId" => Value::from(aim.session.as_str()),
            "direction" => Value::from(["horizontal", "vertical"][rng.below(2)]),
            "side" => Value::from(["before", "after"][rng.below(2)]),
            // Within `TerminalSize`'s bound (2 × 2 at least); mutations try the rest.
            "rows" => Value::from(2 + rng.below(79)),
            "cols" => Value::from(2 + rng.below(249)),
            "profileId" => Value::from("shell"),
            "template" => Value::from(rng.pick(&pool.templates)?),
            "bytes" => Value::from(rng.below(100_000)),
            // Only shell agents exist: asking one is refused at once, never a real CLI turn.
            "target" if rng.percent(80) => Value::from(aim.agent.as_str()),
            "requester" if rng.percent(50) => Value::from("user"),
            "requester" => Value::from(aim.agent.as_str()),
            "timeoutSecs" => Value::from(1 + rng.below(5)),
            "requestId" => Value::from(rng.pick(&pool.requests).unwrap_or_else(|| rng.uuid())),
            "target" => Value::from(self.name()),
            "name" => Value::from(self.name()),
            "content" | "data" | "message" => Value::from(self.weird()),
            _ => self.junk(0),
        })
    }

    /// Valid params for `method` (`None`: no params at all).
    pub(crate) fn skeleton(&mut self, method: &str, pool: &Pool) -> Option<Value> {
        let aim = self.aim(pool);
        let (required, optional) = match fields(method) {
            Some(known) => known,
            None => {
                // A method this file does not know yet: some of every field there is.
                let mut params = Map::new();
                for field in ALL_FIELDS {
                    if self.rng.percent(40)
                        && let Some(value) = self.good(field, method, &aim, pool)
                    {
                        params.insert((*field).to_owned(), value);
                    }
                }
                return Some(Value::Object(params));
            }
        };
        if required.is_empty() && optional.is_empty() {
            return match self.rng.below(3) {
                0 => None,
                1 => Some(Value::Null),
                _ => Some(json!({})),
            };
        }
        let mut params = Map::new();
        for field in required {
            if let Some(value) = self.good(field, method, &aim, pool) {
                params.insert((*field).to_owned(), value);
            }
        }
        for field in optional {
            if self.rng.percent(50)
                && let Some(value) = self.good(field, method, &aim, pool)
            {
                params.insert((*field).to_owned(), value);
            }
        }
        Some(Value::Object(params))
    }
}
