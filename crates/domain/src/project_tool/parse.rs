//! Reading `TOOL.json`.

use super::placeholder;
use super::{ParamKind, ProjectTool, ToolParam, ToolSource};
use serde::Deserialize;
use serde_json::Value;

/// Longest tool or parameter name, in characters (MCP's limit for tool names).
pub const MAX_TOOL_NAME_CHARS: usize = 64;
/// Tool names IdeA keeps for its own MCP tools (`idea_ask_agent`, `idea_memory_write`…).
pub const RESERVED_PREFIX: &str = "idea_";

#[derive(Deserialize)]
struct RawTool {
    name: Option<String>,
    description: Option<String>,
    command: Option<RawCommand>,
}

#[derive(Deserialize)]
struct RawCommand {
    parameters: Option<Vec<RawParam>>,
    run: Option<String>,
}

#[derive(Deserialize)]
struct RawParam {
    name: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    default: Option<Value>,
    description: Option<String>,
}

/// Checks a tool name: 1–64 ASCII letters, digits, `_` and `-`, not starting with `idea_`.
///
/// # Errors
/// The rule the name breaks, in plain English.
pub fn valid_tool_name(name: &str) -> Result<(), String> {
    valid_param_name(name)?;
    if name
        .get(..RESERVED_PREFIX.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(RESERVED_PREFIX))
    {
        return Err(format!(
            "a tool name cannot start with `{RESERVED_PREFIX}`, kept for IdeA's own tools"
        ));
    }
    Ok(())
}

/// Checks a parameter name: 1–64 ASCII letters, digits, `_` and `-`.
pub(super) fn valid_param_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a name cannot be empty".into());
    }
    if name.len() > MAX_TOOL_NAME_CHARS {
        return Err(format!(
            "a name is at most {MAX_TOOL_NAME_CHARS} characters"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-')))
    {
        return Err(format!(
            "a name may only hold letters, digits, `_` and `-` (not {bad:?})"
        ));
    }
    Ok(())
}

/// Reads the `TOOL.json` of the folder `folder`.
///
/// # Errors
/// Why the tool cannot load, in plain English (naming the field or parameter at fault).
pub fn parse_tool_json(
    folder: &str,
    text: &str,
    source: ToolSource,
) -> Result<ProjectTool, String> {
    let json = strip_trailing_commas(text.trim_start_matches('\u{FEFF}'));
    let raw: RawTool =
        serde_json::from_str(&json).map_err(|e| format!("TOOL.json is not valid: {e}"))?;
    let name = match raw.name.as_deref().map(str::trim) {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => folder.to_owned(),
    };
    valid_tool_name(&name)
        .map_err(|reason| format!("the tool name `{name}` is refused: {reason}"))?;
    let description = raw
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .ok_or("TOOL.json has no `description` (what the tool does, for the model)")?
        .to_owned();
    let command = raw
        .command
        .ok_or("TOOL.json has no `command` (with its `run` line)")?;
    let mut params: Vec<ToolParam> = Vec::new();
    for (index, raw) in command
        .parameters
        .unwrap_or_default()
        .into_iter()
        .enumerate()
    {
        let param = parse_param(index, raw)?;
        if params.iter().any(|p| p.name == param.name) {
            return Err(format!("the parameter `{}` is declared twice", param.name));
        }
        params.push(param);
    }
    let run_line = command
        .run
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .ok_or("TOOL.json has no `command.run` (the command line to start)")?;
    let run = shell_words::split(run_line)
        .map_err(|e| format!("the run line cannot be split into words: {e}"))?;
    check_run(&run, &params)?;
    Ok(ProjectTool {
        name,
        folder: folder.to_owned(),
        source,
        description,
        params,
        run,
    })
}

fn parse_param(index: usize, raw: RawParam) -> Result<ToolParam, String> {
    let name = raw
        .name
        .map(|n| n.trim().to_owned())
        .ok_or_else(|| format!("parameter {} has no `name`", index + 1))?;
    valid_param_name(&name)
        .map_err(|reason| format!("the parameter name `{name}` is refused: {reason}"))?;
    let kind = match raw.kind.as_deref().map(str::trim) {
        Some("number") => ParamKind::Number,
        Some("string") => ParamKind::String,
        Some(other) => {
            return Err(format!(
                "the parameter `{name}` has the type `{other}`: only `number` and `string` are supported"
            ));
        }
        None => {
            return Err(format!(
                "the parameter `{name}` has no `type` (`number` or `string`)"
            ));
        }
    };
    let default = match raw.default {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(_) => {
            return Err(format!(
                "the default of `{name}` must be a string or a number"
            ));
        }
    };
    if kind == ParamKind::Number
        && let Some(text) = &default
        && super::bind::number_text(text).is_none()
    {
        return Err(format!(
            "the default of `{name}` (`{text}`) is not a number"
        ));
    }
    Ok(ToolParam {
        name,
        kind,
        default,
        description: raw
            .description
            .map(|d| d.trim().to_owned())
            .filter(|d| !d.is_empty()),
    })
}

/// The program must be fixed (a value choosing it would run anything) and every placeholder
/// must be a declared parameter.
fn check_run(run: &[String], params: &[ToolParam]) -> Result<(), String> {
    let Some(program) = run.first() else {
        return Err("the run line is empty".into());
    };
    if let Some(name) = placeholder::params(program).next() {
        return Err(format!(
            "the program (`{program}`) cannot hold a placeholder (`{{{{{name}}}}}`): it must be fixed"
        ));
    }
    for word in run {
        for name in placeholder::params(word) {
            if !params.iter().any(|p| p.name == name) {
                return Err(format!(
                    "the run line uses `{{{{{name}}}}}`, which is not a declared parameter"
                ));
            }
        }
    }
    Ok(())
}

/// Drops a comma before `]` or `}` (outside strings): hand-written `TOOL.json` files often
/// have one, and it is not what the tool's author would want refused.
fn strip_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            ',' if text[at + 1..].trim_start().starts_with([']', '}']) => continue,
            _ => {}
        }
        out.push(c);
    }
    out
}
