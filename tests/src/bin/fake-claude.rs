//! `fake-claude`: one print-mode turn of Claude Code 2.1.332, for tests.
//!
//! `fake-claude -p [--output-format text|json|stream-json] [--verbose] [--session-id <uuid> |
//! --resume <id>] [--mcp-config <file…>] [--allowedTools <tool…>] [--add-dir <dir…>]
//! [--model <m>] [--] <prompt>` answers `echo: <prompt>` with Claude's own events (`stream-json`
//! needs `--verbose`, as in the real one). Like the real one it refuses an unknown option
//! (`error: unknown option '--x'`, exit 1), a `--session-id` already used, a `--resume` of a
//! conversation it never saved, and waits up to 3 s for piped stdin, appending it to the
//! prompt. Conversations and knobs (`FAKE_CLI_STATE`, `FAKE_CLI_DELAY_MS`, `FAKE_CLI_FAIL=429`,
//! `FAKE_CLI_TOOL`, `ask <agent>: <message>` prompts that call IdeA's MCP server for real): see
//! `idea_e2e::fake_cli`.

use idea_e2e::fake_cli::args::{ArgError, Arity, Parsed, Spec, parse};
use idea_e2e::fake_cli::claude::{self as events, Ending};
use idea_e2e::fake_cli::mcp::{AskPrompt, ServerSpec, call_tool};
use idea_e2e::fake_cli::{
    Conversation, Knobs, answer, emit, new_id, read_piped_stdin, record_call, stdin_is_piped,
    tokens, tool_output,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

const SPECS: &[Spec] = &[
    flag(&["-p", "--print"]),
    flag(&["--verbose"]),
    flag(&["--dangerously-skip-permissions"]),
    value(&["--output-format"]),
    value(&["--session-id"]),
    value(&["--resume", "-r"]),
    value(&["--model"]),
    value(&["--permission-mode"]),
    value(&["--append-system-prompt"]),
    many(&["--mcp-config"]),
    many(&["--allowedTools", "--allowed-tools"]),
    many(&["--disallowedTools", "--disallowed-tools"]),
    many(&["--add-dir"]),
];

const fn flag(names: &'static [&'static str]) -> Spec {
    Spec {
        names,
        arity: Arity::Flag,
    }
}

const fn value(names: &'static [&'static str]) -> Spec {
    Spec {
        names,
        arity: Arity::Value,
    }
}

const fn many(names: &'static [&'static str]) -> Spec {
    Spec {
        names,
        arity: Arity::Many,
    }
}

/// Where the turn's lines go: every event (`stream-json`), only the result (`json`) or only
/// its text (`text`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    StreamJson,
}

impl Format {
    fn event(self, line: &Value) {
        if self == Self::StreamJson {
            emit(line);
        }
    }

    fn result(self, line: &Value) {
        match self {
            Self::Text => println!(
                "{}",
                line.get("result")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
            ),
            Self::Json | Self::StreamJson => emit(line),
        }
    }
}

fn main() {
    std::process::exit(run());
}

fn fail(message: &str) -> i32 {
    eprintln!("{message}");
    1
}

fn run() -> i32 {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    record_call("claude", &argv);
    let knobs = match Knobs::from_env() {
        Ok(knobs) => knobs,
        Err(message) => return fail(&format!("fake-claude: {message}")),
    };
    let args = match parse(&argv, SPECS) {
        Ok(args) => args,
        Err(ArgError::Unknown(option)) => {
            return fail(&format!("error: unknown option '{option}'"));
        }
        Err(ArgError::MissingValue(option)) => {
            return fail(&format!(
                "error: option '{option} <value>' argument missing"
            ));
        }
    };
    match check(&args) {
        Ok((format, prompt)) => turn(&args, format, &prompt, &knobs),
        Err(message) => fail(&message),
    }
}

/// The output format and the prompt, or why the command line is refused.
fn check(args: &Parsed) -> Result<(Format, String), String> {
    if !args.has("-p") {
        return Err("fake-claude: only print mode (-p) is supported".into());
    }
    let format = match args.value("--output-format").unwrap_or("text") {
        "text" => Format::Text,
        "json" => Format::Json,
        "stream-json" => Format::StreamJson,
        other => {
            return Err(format!(
                "error: option '--output-format <format>' argument '{other}' is invalid. Allowed choices are text, json, stream-json."
            ));
        }
    };
    if format == Format::StreamJson && !args.has("--verbose") {
        return Err(
            "Error: When using --print, --output-format=stream-json requires --verbose".into(),
        );
    }
    if args.has("--session-id") && args.has("--resume") {
        return Err("Error: --session-id can only be used with --continue or --resume if --fork-session is also specified.".into());
    }
    if args
        .value("--session-id")
        .is_some_and(|id| uuid::Uuid::parse_str(id).is_err())
    {
        return Err("Error: Invalid session ID. Must be a valid UUID.".into());
    }
    if args.positionals.len() > 1 {
        return Err(format!(
            "error: too many arguments. Expected 1 argument but got {}.",
            args.positionals.len()
        ));
    }
    let mut prompt = args.positionals.first().cloned().unwrap_or_default();
    match read_piped_stdin(Some(Duration::from_secs(3))) {
        Some(piped) if !piped.trim().is_empty() => {
            if !prompt.is_empty() {
                prompt.push_str("\n\n");
            }
            prompt.push_str(piped.trim_end());
        }
        None if stdin_is_piped() => eprintln!(
            "Warning: no stdin data received in 3s, proceeding without it. If piping from a slow command, redirect stdin explicitly: < /dev/null to skip, or wait longer."
        ),
        _ => {}
    }
    if prompt.is_empty() {
        // Claude's variadic options take every value up to the next option, a prompt too.
        for option in [
            "--mcp-config",
            "--allowedTools",
            "--disallowedTools",
            "--add-dir",
        ] {
            if let Some(value) = args.values(option).last().filter(|v| v.contains(' ')) {
                eprintln!(
                    "\"{value}\" was read as a value of {option}, not as a prompt · put a prompt before {option} or after --"
                );
            }
        }
        return Err("Error: Input must be provided either through stdin or as a prompt argument when using --print".into());
    }
    Ok((format, prompt))
}

/// The MCP servers of the `--mcp-config` files (or inline JSON), by name.
fn mcp_servers(args: &Parsed) -> Result<BTreeMap<String, ServerSpec>, String> {
    let mut servers = BTreeMap::new();
    for config in args.values("--mcp-config") {
        let text = if config.trim_start().starts_with('{') {
            config.clone()
        } else {
            std::fs::read_to_string(config).map_err(|_| {
                format!("Error: Invalid MCP configuration: MCP config file not found: {config}")
            })?
        };
        let json: Value = serde_json::from_str(&text)
            .map_err(|e| format!("Error: Invalid MCP configuration: {e}"))?;
        let Some(entries) = json.get("mcpServers").and_then(Value::as_object) else {
            continue;
        };
        for (name, server) in entries {
            let strings = |key: &str| -> Vec<String> {
                server[key]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            };
            let env = server["env"]
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                .collect();
            let spec = ServerSpec {
                command: server["command"].as_str().unwrap_or_default().to_owned(),
                args: strings("args"),
                env,
                // Claude Code starts stdio servers with its own environment plus `env`.
                inherited: None,
            };
            servers.insert(name.clone(), spec);
        }
    }
    Ok(servers)
}

/// Whether `--allowedTools` lets `tool` of server `idea` run without a prompt (`mcp__idea`
/// allows every tool of the server).
fn allowed(args: &Parsed, tool: &str) -> bool {
    let full = format!("mcp__idea__{tool}");
    args.values("--allowedTools")
        .iter()
        .flat_map(|v| v.split([',', ' ']))
        .any(|rule| rule == "mcp__idea" || rule == full)
}

/// A real `idea_ask_agent` call for an `ask <agent>: <message>` prompt: the tool-use and
/// tool-result events, and the text the turn ends with.
fn ask_through_mcp(
    args: &Parsed,
    servers: &BTreeMap<String, ServerSpec>,
    ask: &AskPrompt,
    format: Format,
    session_id: &str,
    input: u64,
) -> String {
    let tool = "idea_ask_agent";
    let message_id = format!("msg_fake_{}", &new_id()[..8]);
    let tool_id = format!("toolu_fake_{}", &new_id()[..8]);
    let name = format!("mcp__idea__{tool}");
    let block = events::tool_use_block(&tool_id, &name);
    format.event(&events::assistant(session_id, &message_id, block, input));
    let outcome = match servers.get("idea") {
        None => Err(format!("No such tool available: {name}")),
        // What Claude Code answers the model when a tool needs a permission nobody can give.
        Some(_) if !allowed(args, tool) => Err(format!(
            "Claude requested permissions to use {name}, but you haven't granted it yet."
        )),
        Some(server) => call_tool(server, tool, ask.arguments()),
    };
    let output = outcome.unwrap_or_else(|e| format!("tool error: {e}"));
    format.event(&events::tool_result(session_id, &tool_id, &output));
    ask.answer(&output)
}

fn turn(args: &Parsed, format: Format, prompt: &str, knobs: &Knobs) -> i32 {
    let servers = match mcp_servers(args) {
        Ok(servers) => servers,
        Err(message) => return fail(&message),
    };
    let server_names: Vec<String> = servers.keys().cloned().collect();
    let session_id = match (args.value("--session-id"), args.value("--resume")) {
        (_, Some(id)) => {
            if !Conversation::new("claude", id).exists() {
                let reason = format!("No conversation found with session ID: {id}");
                eprintln!("{reason}");
                if format != Format::Text {
                    emit(&events::resume_refused(id, &reason));
                }
                return 1;
            }
            id.to_owned()
        }
        (Some(id), None) => {
            if Conversation::new("claude", id).exists() {
                return fail(&format!("Error: Session ID {id} is already in use."));
            }
            id.to_owned()
        }
        (None, None) => new_id(),
    };
    let conversation = Conversation::new("claude", &session_id);
    conversation.append("user", prompt);

    let mut tools: Vec<String> = ["Task", "Bash", "Edit", "Read", "Write"]
        .map(str::to_owned)
        .to_vec();
    tools.extend(knobs.tool.iter().map(|t| format!("mcp__idea__{t}")));
    format.event(&events::init(&session_id, &tools, &server_names));
    knobs.wait();
    let input = tokens(prompt);
    // A refused API call: its events, then the synthetic error message and the result.
    let refused = |before: &[serde_json::Value], text: &str| {
        for event in before {
            format.event(event);
        }
        format.event(&events::api_error_message(&session_id, text));
        format.result(&events::result(
            &session_id,
            Ending {
                text,
                input,
                output: 0,
                num_turns: 1,
                rate_limited: true,
            },
        ));
        1
    };
    if knobs.fail_429 {
        let text = "API Error: Request rejected (429) · This request would exceed your organization's rate limit (fake-claude, FAKE_CLI_FAIL=429).";
        let retries = [
            events::api_retry(&session_id, 1, 2),
            events::api_retry(&session_id, 2, 2),
        ];
        return refused(&retries, text);
    }
    if knobs.fail_limit {
        let limit = events::usage_limit_event(&session_id, unix_now() + 3600);
        return refused(
            &[limit],
            "You've hit your 5-hour limit · resets 7:52pm (UTC)",
        );
    }
    let mut num_turns = 1;
    if let Some(tool) = &knobs.tool {
        let message_id = format!("msg_fake_{}", &new_id()[..8]);
        let tool_id = format!("toolu_fake_{}", &new_id()[..8]);
        let call = format!("Let me call {tool}.");
        format.event(&events::assistant(
            &session_id,
            &message_id,
            events::text_block(&call),
            input,
        ));
        let name = format!("mcp__idea__{tool}");
        let block = events::tool_use_block(&tool_id, &name);
        format.event(&events::assistant(&session_id, &message_id, block, input));
        format.event(&events::tool_result(
            &session_id,
            &tool_id,
            &tool_output(tool),
        ));
        num_turns = 2;
    }
    let text = match AskPrompt::parse(prompt) {
        Some(ask) => {
            num_turns += 1;
            ask_through_mcp(args, &servers, &ask, format, &session_id, input)
        }
        None => answer(prompt),
    };
    let message_id = format!("msg_fake_{}", &new_id()[..8]);
    let block = events::text_block(&text);
    format.event(&events::assistant(&session_id, &message_id, block, input));
    conversation.append("assistant", &text);
    format.result(&events::result(
        &session_id,
        Ending {
            text: &text,
            input,
            output: tokens(&text),
            num_turns,
            rate_limited: false,
        },
    ));
    0
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
