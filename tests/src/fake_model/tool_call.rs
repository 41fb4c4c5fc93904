//! The tool calls the fake model makes. When the user's last message says
//! `please run: <command>`, the answer is the provider's call of the CLI's shell tool with that
//! command, so a test sees the CLI's real permission prompt. When it says
//! `please call tool: <name> <json-object>`, the answer is a call of the tool the request offers
//! under that name, or under a name ending with it after a separator (MCP tools are offered
//! prefixed: `mcp__idea__run_tests`, `mcp_idea_run_tests`…), with the object as its arguments.
//! The request that carries the tool's result gets a text answer quoting it. Each API module
//! shapes the call its own way.

use serde_json::Value;

/// What a user message says to make the model call the shell tool.
pub const RUN_MARKER: &str = "please run: ";

/// The same, asking to run the command outside the CLI's own sandbox, where the tool lets
/// the model ask for that (Codex's `sandbox_permissions: "require_escalated"`, which its
/// approval policy `on-request` always puts to the user).
pub const RUN_UNSANDBOXED_MARKER: &str = "please run unsandboxed: ";

/// A command the user asked the model to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRequest {
    pub command: String,
    /// Outside the CLI's sandbox (where the tool can ask for it).
    pub unsandboxed: bool,
}

/// The command a user message asks to run: what follows a marker, up to the line's end.
pub fn requested_command(user_text: &str) -> Option<RunRequest> {
    let (unsandboxed, rest) = match user_text.split_once(RUN_UNSANDBOXED_MARKER) {
        Some((_, rest)) => (true, rest),
        None => (false, user_text.split_once(RUN_MARKER)?.1),
    };
    let command = rest.lines().next().unwrap_or_default().trim();
    (!command.is_empty()).then(|| RunRequest {
        command: command.to_owned(),
        unsandboxed,
    })
}

/// What a user message says to make the model call a tool by name: `please call tool: <name>
/// <json-object>` (the object is optional; `{}` when absent).
pub const CALL_MARKER: &str = "please call tool: ";

/// A tool the user asked the model to call, and the arguments to call it with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCallRequest {
    /// The name as the user wrote it (`run_tests`, `idea__run_tests`…), matched against the
    /// offered names by [`offered_match`].
    pub name: String,
    /// A JSON object.
    pub arguments: Value,
}

/// The tool call a user message asks for: after [`CALL_MARKER`], a name (up to a space or a
/// `{`), then a JSON object on the rest of the line (text after the object is ignored). No
/// object means `{}`; anything else than an object there is no request.
pub fn requested_tool_call(user_text: &str) -> Option<ToolCallRequest> {
    let rest = user_text.split_once(CALL_MARKER)?.1;
    let line = rest.lines().next().unwrap_or_default().trim();
    let end = line
        .find(|c: char| c.is_whitespace() || c == '{')
        .unwrap_or(line.len());
    let (name, rest) = line.split_at(end);
    if name.is_empty() {
        return None;
    }
    let rest = rest.trim();
    let arguments = if rest.is_empty() {
        Value::Object(serde_json::Map::new())
    } else {
        let first = serde_json::Deserializer::from_str(rest)
            .into_iter::<Value>()
            .next()?
            .ok()?;
        first.is_object().then_some(first)?
    };
    Some(ToolCallRequest {
        name: name.to_owned(),
        arguments,
    })
}

/// The separators an offered name puts before a tool's own name: Claude Code's
/// `mcp__<server>__<tool>`, Gemini CLI's `mcp_<server>_<tool>`, dotted and slashed forms.
const SEPARATORS: [&str; 4] = ["__", ".", "/", "_"];

/// A name with every separator made `_` (`mcp__idea__run_tests` and `idea.run_tests` become
/// `mcp_idea_run_tests` and `idea_run_tests`).
fn normalized(name: &str) -> String {
    name.replace("__", "_").replace(['.', '/'], "_")
}

/// The offered tool `wanted` names: the one named exactly so; else the first ending with
/// `__<wanted>`, then `.<wanted>`, `/<wanted>`, `_<wanted>`; else, separators aside (all made
/// `_`), the first named the same or ending with `_<wanted>` (so `mcp__idea__run_tests` finds
/// Gemini's `mcp_idea_run_tests`).
pub fn offered_match<'a>(offered: impl Iterator<Item = &'a str>, wanted: &str) -> Option<&'a str> {
    let offered: Vec<&str> = offered.collect();
    if wanted.is_empty() {
        return None;
    }
    if let Some(name) = offered.iter().find(|name| **name == wanted) {
        return Some(name);
    }
    for separator in SEPARATORS {
        let suffix = format!("{separator}{wanted}");
        if let Some(name) = offered.iter().find(|name| name.ends_with(&suffix)) {
            return Some(name);
        }
    }
    let wanted = normalized(wanted);
    let suffix = format!("_{wanted}");
    offered
        .iter()
        .find(|name| normalized(name) == wanted)
        .or_else(|| {
            offered
                .iter()
                .find(|name| normalized(name).ends_with(&suffix))
        })
        .copied()
}

/// The answer when no offered tool has the name asked for: says what was offered, so a failed
/// test shows it.
pub fn no_tool_reply<'a>(wanted: &str, offered: impl Iterator<Item = &'a str>) -> String {
    let offered: Vec<&str> = offered.collect();
    format!(
        "FAKE-MODEL-NO-TOOL: {wanted} (offered: {})",
        offered.join(", ")
    )
}

/// The readable text of a tool's result when it is structured: a string as is; MCP content
/// (`[{type: "text", text}]`, or an object holding it under `content`, `llmContent`, `output`
/// or `result`) as its texts joined by lines; anything else as JSON.
pub fn result_text(result: &Value) -> String {
    match result {
        Value::String(text) => text.clone(),
        Value::Array(parts) => {
            let texts: Vec<String> = parts
                .iter()
                .map(|part| match part {
                    Value::String(text) => text.clone(),
                    _ => part
                        .get("text")
                        .and_then(Value::as_str)
                        .map_or_else(|| result_text(part), str::to_owned),
                })
                .collect();
            texts.join("\n")
        }
        Value::Object(object) => ["output", "llmContent", "content", "result", "text"]
            .iter()
            .find_map(|key| object.get(*key).filter(|v| !v.is_null()))
            .map_or_else(|| result.to_string(), result_text),
        Value::Null => String::new(),
        _ => result.to_string(),
    }
}

/// The answer once the tool ran: quotes its result, so a test sees that the tool ran.
pub fn result_reply(result: &str) -> String {
    let quoted: String = result.trim().chars().take(80).collect();
    format!("FAKE-MODEL-TOOL-DONE: {quoted}")
}

/// The short description the call carries (Claude's `Bash` and Gemini's `run_shell_command`
/// show it above the command; Codex shows the justification in its approval).
pub fn description(command: &str) -> String {
    format!("Run `{command}` as the user asked")
}

/// A fresh call id with `prefix` (`toolu_`, `call_`), unique within this process.
pub fn call_id(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{prefix}fake{:08}", NEXT.fetch_add(1, Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_marker_names_the_command_up_to_the_line_end() {
        let run = |text| requested_command(text).map(|r| (r.command, r.unsandboxed));
        assert_eq!(
            run("hi, please run: touch proof.txt\nthanks"),
            Some(("touch proof.txt".to_owned(), false))
        );
        assert_eq!(
            run("please run unsandboxed: touch a"),
            Some(("touch a".to_owned(), true))
        );
        assert_eq!(run("please run:   "), None);
        assert_eq!(run("run touch proof.txt"), None);
    }

    #[test]
    fn the_call_marker_names_a_tool_and_its_json_object() {
        let call = |text| requested_tool_call(text).map(|r| (r.name, r.arguments));
        assert_eq!(
            call("now please call tool: run_tests {\"filter\": \"x\", \"n\": 2}\nthanks"),
            Some(("run_tests".to_owned(), json!({"filter": "x", "n": 2})))
        );
        assert_eq!(
            call("please call tool: idea_list_agents"),
            Some(("idea_list_agents".to_owned(), json!({})))
        );
        assert_eq!(
            call("please call tool: run_tests{} and report"),
            Some(("run_tests".to_owned(), json!({})))
        );
        assert_eq!(call("please call tool:   "), None);
        assert_eq!(call("please call tool: run_tests [1]"), None);
        assert_eq!(call("please call tool: run_tests {oops"), None);
        assert_eq!(call("please run: ls"), None);
        assert_eq!(requested_command("please call tool: run_tests {}"), None);
    }

    #[test]
    fn an_offered_name_matches_exactly_or_after_a_separator() {
        let pick =
            |offered: &[&'static str], wanted| offered_match(offered.iter().copied(), wanted);
        // Exact first, even when a prefixed one comes earlier.
        assert_eq!(
            pick(&["mcp__idea__run_tests", "run_tests"], "run_tests"),
            Some("run_tests")
        );
        for offered in [
            "mcp__idea__run_tests",
            "idea__run_tests",
            "idea.run_tests",
            "idea/run_tests",
            "mcp_idea_run_tests",
        ] {
            assert_eq!(
                pick(&["Bash", offered], "run_tests"),
                Some(offered),
                "{offered}"
            );
        }
        // `__` before `_`: the MCP tool, not a built-in whose name merely ends the same.
        assert_eq!(
            pick(&["my_run_tests", "mcp__idea__run_tests"], "run_tests"),
            Some("mcp__idea__run_tests")
        );
        // A prefixed wanted name finds the same tool under another CLI's prefix.
        assert_eq!(
            pick(&["mcp_idea_run_tests"], "mcp__idea__run_tests"),
            Some("mcp_idea_run_tests")
        );
        assert_eq!(
            pick(&["mcp__idea__run_tests"], "idea.run_tests"),
            Some("mcp__idea__run_tests")
        );
        assert_eq!(pick(&["mcp__idea__rerun_tests"], "run_tests"), None);
        assert_eq!(pick(&["mcp__other__run_tests"], "idea__run_tests"), None);
        assert_eq!(pick(&[], "run_tests"), None);
        assert_eq!(
            no_tool_reply("run_tests", ["Bash", "Read"].into_iter()),
            "FAKE-MODEL-NO-TOOL: run_tests (offered: Bash, Read)"
        );
    }

    #[test]
    fn a_structured_result_reads_as_its_texts() {
        let mcp = json!({"content": [{"type": "text", "text": "3 passed"},
                                     {"type": "text", "text": "0 failed"}]});
        assert_eq!(result_text(&mcp), "3 passed\n0 failed");
        assert_eq!(
            result_text(&json!({"llmContent": "ok", "returnDisplay": "x"})),
            "ok"
        );
        assert_eq!(result_text(&json!({"output": "done"})), "done");
        assert_eq!(result_text(&json!({"other": 1})), r#"{"other":1}"#);
        assert_eq!(result_text(&json!("plain")), "plain");
    }
}
