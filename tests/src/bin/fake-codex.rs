//! `fake-codex`: one `codex exec` turn of Codex CLI 0.171.0, for tests.
//!
//! `fake-codex exec [--json] [--skip-git-repo-check] [-c key=value]… [-m model] [-s mode]
//! [--add-dir dir]… [resume <thread id>] [--] <prompt>` answers `echo: <prompt>` with Codex's
//! own events (with `--json`; else only the answer on stdout). Like the real one it mints the
//! thread id (`thread.started`), continues a thread on `exec resume <id>` and refuses one it
//! never saved, refuses an unknown option the way clap does (exit 2), and on a new thread reads
//! a piped stdin to its end ("Reading additional input from stdin..."), appending it to the
//! prompt. Conversations and knobs (`FAKE_CLI_STATE`, `FAKE_CLI_DELAY_MS`, `FAKE_CLI_FAIL=429`,
//! `FAKE_CLI_TOOL`, `ask <agent>: <message>` prompts that call IdeA's MCP server for real, with
//! the server from `-c mcp_servers.idea.*` given before or after `exec`): see
//! `idea_e2e::fake_cli`.

use idea_e2e::fake_cli::args::{ArgError, Arity, Parsed, Spec, parse};
use idea_e2e::fake_cli::codex as events;
use idea_e2e::fake_cli::mcp::{AskPrompt, CODEX_INHERITED_ENV, ServerSpec, call_tool};
use idea_e2e::fake_cli::{
    Conversation, Knobs, answer, emit, new_id, read_piped_stdin, record_call, tool_output,
};
use std::collections::BTreeMap;

const SPECS: &[Spec] = &[
    Spec {
        names: &["--json"],
        arity: Arity::Flag,
    },
    Spec {
        names: &["--skip-git-repo-check"],
        arity: Arity::Flag,
    },
    Spec {
        names: &["--last"],
        arity: Arity::Flag,
    },
    Spec {
        names: &["-c", "--config"],
        arity: Arity::Value,
    },
    Spec {
        names: &["-m", "--model"],
        arity: Arity::Value,
    },
    Spec {
        names: &["-s", "--sandbox"],
        arity: Arity::Value,
    },
    Spec {
        names: &["-C", "--cd"],
        arity: Arity::Value,
    },
    Spec {
        names: &["--add-dir"],
        arity: Arity::Value,
    },
];

const SANDBOX_MODES: [&str; 3] = ["read-only", "workspace-write", "danger-full-access"];

fn main() {
    std::process::exit(run());
}

/// A refused command line, worded as clap words it; exit 2.
fn usage_error(message: &str) -> i32 {
    eprintln!(
        "error: {message}\n\nUsage: codex exec [OPTIONS] [PROMPT]\n       codex exec [OPTIONS] <COMMAND> [ARGS]\n\nFor more information, try '--help'."
    );
    2
}

fn run() -> i32 {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    record_call("codex", &argv);
    let knobs = match Knobs::from_env() {
        Ok(knobs) => knobs,
        Err(message) => {
            eprintln!("fake-codex: {message}");
            return 1;
        }
    };
    // Global options (`-c key=value`) may come before the subcommand, as in the real one.
    let mut overrides: Vec<String> = Vec::new();
    let mut rest = argv.as_slice();
    while let [flag, value, tail @ ..] = rest
        && (flag == "-c" || flag == "--config")
    {
        overrides.push(value.clone());
        rest = tail;
    }
    if !matches!(rest.first().map(String::as_str), Some("exec" | "e")) {
        eprintln!("fake-codex: only `codex exec` is supported");
        return 1;
    }
    let args = match parse(&rest[1..], SPECS) {
        Ok(args) => args,
        Err(ArgError::Unknown(option)) => {
            return usage_error(&format!(
                "unexpected argument '{option}' found\n\n  tip: to pass '{option}' as a value, use '-- {option}'"
            ));
        }
        Err(ArgError::MissingValue(option)) => {
            return usage_error(&format!(
                "a value is required for '{option} <VALUE>' but none was supplied"
            ));
        }
    };
    if let Some(mode) = args.value("--sandbox")
        && !SANDBOX_MODES.contains(&mode)
    {
        return usage_error(&format!(
            "invalid value '{mode}' for '--sandbox <SANDBOX_MODE>'\n  [possible values: read-only, workspace-write, danger-full-access]"
        ));
    }
    let resuming = args.before_dash_dash > 0 && args.positionals[0] == "resume";
    let (thread, prompt) = if resuming {
        match args.positionals.get(1) {
            Some(id) if !args.has("--last") => (Some(id.clone()), args.positionals.get(2)),
            _ => {
                return usage_error(
                    "the following required arguments were not provided:\n  <SESSION_ID>",
                );
            }
        }
    } else {
        (None, args.positionals.first())
    };
    let mut prompt = prompt.cloned().unwrap_or_default();
    if !resuming {
        // Codex 0.171.0 says this on a new thread even when stdin is /dev/null.
        if let Some(piped) = read_piped_stdin(None) {
            eprintln!("Reading additional input from stdin...");
            if !piped.trim().is_empty() {
                if !prompt.is_empty() {
                    prompt.push_str("\n\n");
                }
                prompt.push_str(piped.trim_end());
            }
        }
    }
    if prompt.is_empty() {
        eprintln!(
            "No prompt provided. Either specify one as an argument or pipe the prompt into stdin."
        );
        return 1;
    }
    overrides.extend(args.values("-c").iter().cloned());
    let servers = match mcp_servers(&overrides) {
        Ok(servers) => servers,
        Err(message) => {
            eprintln!("Error loading config.toml: {message}");
            return 1;
        }
    };
    turn(&args, thread, &prompt, &knobs, &servers)
}

/// The MCP servers of the `-c mcp_servers.<name>.<field>=<TOML value>` overrides, with the
/// approval each one was given.
fn mcp_servers(overrides: &[String]) -> Result<BTreeMap<String, (ServerSpec, bool)>, String> {
    let mut servers: BTreeMap<String, (ServerSpec, bool)> = BTreeMap::new();
    for item in overrides {
        let Some((key, value)) = item.split_once('=') else {
            return Err(format!("Invalid override (missing '='): {item}"));
        };
        let Some(path) = key.trim().strip_prefix("mcp_servers.") else {
            continue;
        };
        let Some((name, field)) = path.split_once('.') else {
            continue;
        };
        let value: toml_edit::Value = value
            .trim()
            .parse()
            .map_err(|e| format!("invalid TOML value for {key}: {e}"))?;
        let (server, approved) = servers.entry(name.to_owned()).or_insert_with(|| {
            let spec = ServerSpec {
                // MCP servers get only Codex's default variables plus their `env`.
                inherited: Some(CODEX_INHERITED_ENV),
                ..ServerSpec::default()
            };
            (spec, false)
        });
        match field {
            "command" => server.command = value.as_str().unwrap_or_default().to_owned(),
            "args" => {
                server.args = value
                    .as_array()
                    .into_iter()
                    .flat_map(|a| a.iter())
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect();
            }
            "env" => {
                server.env = value
                    .as_inline_table()
                    .into_iter()
                    .flat_map(|t| t.iter())
                    .filter_map(|(k, v)| Some((k.to_owned(), v.as_str()?.to_owned())))
                    .collect();
            }
            "default_tools_approval_mode" => *approved = value.as_str() == Some("approve"),
            _ => {}
        }
    }
    Ok(servers)
}

/// A real `idea_ask_agent` call for an `ask <agent>: <message>` prompt: its output, or the
/// error the item reports.
fn ask_through_mcp(
    servers: &BTreeMap<String, (ServerSpec, bool)>,
    ask: &AskPrompt,
) -> Result<String, String> {
    match servers.get("idea") {
        None => Err("unknown MCP server 'idea'".to_owned()),
        Some((_, false)) => Err("MCP tool call requires approval".to_owned()),
        Some((server, true)) => call_tool(server, "idea_ask_agent", ask.arguments()),
    }
}

fn turn(
    args: &Parsed,
    thread: Option<String>,
    prompt: &str,
    knobs: &Knobs,
    servers: &BTreeMap<String, (ServerSpec, bool)>,
) -> i32 {
    let json = args.has("--json");
    let out = |line: serde_json::Value| {
        if json {
            emit(&line);
        }
    };
    let thread_id = match thread {
        Some(id) if !Conversation::new("codex", &id).exists() => {
            eprintln!(
                "Error: thread/resume: thread/resume failed: no rollout found for thread id {id} (code -32600)"
            );
            return 1;
        }
        Some(id) => id,
        None => new_id(),
    };
    let conversation = Conversation::new("codex", &thread_id);
    conversation.append("user", prompt);
    out(events::thread_started(&thread_id));
    out(events::turn_started());
    knobs.wait();
    if knobs.fail_429 {
        let message = "exceeded retry limit, last status: 429 Too Many Requests";
        out(events::error(message));
        out(events::turn_failed(message));
        if !json {
            eprintln!("ERROR: {message}");
        }
        return 1;
    }
    if knobs.fail_limit {
        let message = "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 7:49 PM.";
        out(events::error(message));
        out(events::turn_failed(message));
        if !json {
            eprintln!("ERROR: {message}");
        }
        return 1;
    }
    let mut item = 0;
    if let Some(tool) = &knobs.tool {
        let id = format!("item_{item}");
        out(events::mcp_tool_call(&id, "idea", tool, None));
        out(events::mcp_tool_call(
            &id,
            "idea",
            tool,
            Some(&tool_output(tool)),
        ));
        item += 1;
    }
    let text = match AskPrompt::parse(prompt) {
        Some(ask) => {
            let id = format!("item_{item}");
            let tool = "idea_ask_agent";
            out(events::mcp_tool_call(&id, "idea", tool, None));
            let output =
                ask_through_mcp(servers, &ask).unwrap_or_else(|e| format!("tool error: {e}"));
            out(events::mcp_tool_call(&id, "idea", tool, Some(&output)));
            item += 1;
            ask.answer(&output)
        }
        None => answer(prompt),
    };
    out(events::agent_message(&format!("item_{item}"), &text));
    conversation.append("assistant", &text);
    let (input, output) = conversation.token_totals();
    out(events::turn_completed(input, output));
    if !json {
        println!("{text}");
    }
    0
}
