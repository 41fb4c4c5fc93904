//! The built-in runtime profiles (one note each in `docs/profiles/`).
//!
//! Every flag below was checked against the CLI's own `--help` (and, where the help is silent,
//! its source or a run against a local fake model server) at the version named over each
//! profile. The facts behind each profile are in `docs/profiles/<cli>.md`; how to re-check them
//! when a CLI's version changes is in `docs/profiles/README.md`.

use idea_domain::profile::{
    AgentProfile, CliHome, ContextInjection, CwdTemplate, McpStyle, ProfileId, SessionStrategy,
    StructuredMode,
};
use std::collections::BTreeMap;

/// Id of the Claude Code profile.
pub const CLAUDE_CODE: &str = "claude-code";
/// Id of the Codex CLI profile.
pub const CODEX: &str = "codex";
/// Id of the Gemini CLI profile.
pub const GEMINI: &str = "gemini";
/// Id of the Aider profile.
pub const AIDER: &str = "aider";
/// Id of the OpenCode profile.
pub const OPENCODE: &str = "opencode";
/// Id of the login-shell profile.
pub const SHELL: &str = "shell";

/// The built-in catalogue, in the order the UI lists it.
pub fn builtin_profiles() -> Vec<AgentProfile> {
    vec![
        claude_code(),
        codex(),
        gemini(),
        aider(),
        opencode(),
        shell(),
    ]
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn convention_file(target: &str) -> ContextInjection {
    ContextInjection::ConventionFile {
        target: target.to_owned(),
    }
}

/// A profile with the defaults every agent CLI shares: isolated run dir, no shell, `--version`.
fn agent(id: &str, name: &str, command: &str, context_injection: ContextInjection) -> AgentProfile {
    AgentProfile {
        id: ProfileId::new(id),
        name: name.to_owned(),
        command: command.to_owned(),
        args: Vec::new(),
        cwd_template: CwdTemplate::AgentRunDir,
        env: BTreeMap::new(),
        context_injection,
        session: None,
        mcp: None,
        structured: None,
        via_shell: false,
        home: None,
        seed_files: Vec::new(),
        version_args: strings(&["--version"]),
        install_hint: install_hint(id),
    }
}

/// How a user installs each built-in CLI (its package at the version the profile was checked
/// against or later); the picker and `idea doctor` show it when the command is missing.
fn install_hint(id: &str) -> Option<String> {
    let hint = match id {
        CLAUDE_CODE => "npm install -g @anthropic-ai/claude-code",
        CODEX => "npm install -g @openai/codex",
        GEMINI => "npm install -g @google/gemini-cli",
        AIDER => "python3 -m pip install aider-install && aider-install",
        OPENCODE => "npm install -g opencode-ai",
        _ => return None,
    };
    Some(hint.to_owned())
}

/// Claude Code — checked against `claude --help` of `@anthropic-ai/claude-code` 2.1.332 (and
/// 2.1.197, same flags); facts in `docs/profiles/claude-code.md`.
fn claude_code() -> AgentProfile {
    AgentProfile {
        // The cwd is the agent's run dir: `--add-dir` lets its tools reach the project root.
        args: strings(&["--add-dir", "{projectRoot}"]),
        // Claude shows a trust screen for an unknown cwd, and for every `--add-dir` folder not
        // accepted in ~/.claude.json a dialog whose default answer exits: IdeA accepts both
        // the run dir and the project root there. Transcripts tell whether a session exists.
        home: Some(CliHome::ClaudeCode),
        // docs/profiles/claude-code.md: the quiet-start variables (no auto-update, no telemetry,
        // no extra traffic).
        env: env(&[
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
            ("DISABLE_AUTOUPDATER", "1"),
            ("DISABLE_TELEMETRY", "1"),
        ]),
        // docs/profiles/claude-code.md: `--session-id` refuses an id already in use, so an
        // existing conversation is reopened with `--resume` (which also works from another cwd).
        session: Some(SessionStrategy {
            assign_args: Some(strings(&["--session-id", "{id}"])),
            resume_args: strings(&["--resume", "{id}"]),
        }),
        mcp: Some(McpStyle::ConfigFileFlag {
            flag: "--mcp-config".to_owned(),
        }),
        // docs/profiles/claude-code.md, "Structured mode": `-p` takes no value; the message is
        // the positional argument, after `--` (a message starting with `-`, and options such
        // as `--add-dir` or `--mcp-config` that take every value up to the next option, would
        // otherwise swallow or misread it). `stream-json` needs `--verbose`. Stdin is
        // `/dev/null`: on a pipe `-p` waits 3 s for input and adds it to the message.
        structured: Some(StructuredMode {
            provider: "claude".to_owned(),
            args: strings(&[
                "-p",
                "--output-format",
                "stream-json",
                "--verbose",
                "--add-dir",
                "{projectRoot}",
                "--session-id",
                "{id}",
                "--",
                "{prompt}",
            ]),
            resume_args: strings(&[
                "-p",
                "--output-format",
                "stream-json",
                "--verbose",
                "--add-dir",
                "{projectRoot}",
                "--resume",
                "{id}",
                "--",
                "{prompt}",
            ]),
        }),
        ..agent(
            CLAUDE_CODE,
            "Claude Code",
            "claude",
            convention_file("CLAUDE.md"),
        )
    }
}

/// Codex CLI — checked against `codex --help`, `codex resume --help`, `codex exec --help` and
/// `codex exec resume --help` of `@openai/codex` 0.171.0; facts in `docs/profiles/codex.md`.
fn codex() -> AgentProfile {
    AgentProfile {
        // docs/profiles/codex.md: without `--no-daemon` the TUI leaves a background daemon
        // running after `/quit`.
        // The cwd is the agent's run dir: `--add-dir` makes the project root writable too.
        args: strings(&["--no-daemon", "--add-dir", "{projectRoot}"]),
        // Inside a git repo Codex asks to trust the folder unless config.toml says so. Its
        // rollouts (`$CODEX_HOME/sessions/`) record each thread's cwd: IdeA finds the agent's
        // latest thread in its run dir there.
        home: Some(CliHome::Codex),
        // Codex mints its own thread ids: it can be resumed (`codex resume <SESSION_ID>`, a UUID
        // or a session name) but not started with an id of ours.
        session: Some(SessionStrategy {
            assign_args: None,
            resume_args: strings(&["resume", "{id}"]),
        }),
        // docs/profiles/codex.md: `-c mcp_servers.idea.*=…` overrides; MCP servers do not
        // inherit Codex's env.
        mcp: Some(McpStyle::ConfigOverrides),
        // docs/profiles/codex.md, "Structured mode": Codex mints the thread id (no `{id}` in
        // a first turn); the global `exec` flags go before `resume`; the message after `--`.
        // `codex exec` waits for EOF on a piped stdin: stdin is `/dev/null`.
        structured: Some(StructuredMode {
            provider: "codex".to_owned(),
            args: strings(&[
                "exec",
                "--json",
                "--skip-git-repo-check",
                "--add-dir",
                "{projectRoot}",
                "--",
                "{prompt}",
            ]),
            resume_args: strings(&[
                "exec",
                "--json",
                "--skip-git-repo-check",
                "--add-dir",
                "{projectRoot}",
                "resume",
                "{id}",
                "--",
                "{prompt}",
            ]),
        }),
        ..agent(CODEX, "Codex CLI", "codex", convention_file("AGENTS.md"))
    }
}

/// Gemini CLI — checked against `gemini --help` of `@google/gemini-cli` 0.61.0, its bundled
/// source, and runs against a local fake Gemini API.
///
/// Facts in `docs/profiles/gemini.md`. Besides resuming by index or `latest`, 0.61.0 has
/// `--session-id <uuid>` ("Start a new session with a manually provided UUID"; an id already
/// used fails with exit 42) and `--resume <uuid>` (verified: the earlier turns are sent again).
/// Sessions are stored per working directory (`~/.gemini/tmp/<dir>/chats/`), so resuming works
/// only from the same cwd — the agent's run dir, which is stable.
fn gemini() -> AgentProfile {
    // Gemini refuses headless mode in an untrusted folder (exit 55) and ignores a workspace
    // `.gemini/settings.json` (where IdeA's MCP server is declared) unless the folder is trusted.
    // The cwd is IdeA's own run dir, so it is trusted for the session. `--include-directories`
    // of a folder not in ~/.gemini/trustedFolders.json asks at every launch (`--skip-trust`
    // does not cover it): IdeA records the run dir and the project root there.
    AgentProfile {
        home: Some(CliHome::Gemini),
        // `--include-directories`: the cwd is the run dir; the project is the real workspace.
        args: strings(&["--skip-trust", "--include-directories", "{projectRoot}"]),
        session: Some(SessionStrategy {
            assign_args: Some(strings(&["--session-id", "{id}"])),
            resume_args: strings(&["--resume", "{id}"]),
        }),
        // Turns only, and named by GEMINI_CLI_SYSTEM_SETTINGS_PATH rather than written as a
        // workspace `.gemini/settings.json`: Gemini CLI 0.61.0's interactive mode resumes a
        // chat with its history emptied when extra settings (a workspace file, an MCP server)
        // slow its start-up (docs/profiles/gemini.md). Headless turns wait for their MCP
        // servers before resuming.
        mcp: Some(McpStyle::SettingsFile {
            path: ".idea-gemini-settings.json".to_owned(),
            env: Some("GEMINI_CLI_SYSTEM_SETTINGS_PATH".to_owned()),
            turns_only: true,
        }),
        // docs/profiles/gemini.md, "Structured mode": the message as `--prompt=<message>`, so
        // that one starting with `-` stays the option's value; `--skip-trust` because headless
        // mode is refused in an untrusted folder (exit 55).
        structured: Some(StructuredMode {
            provider: "gemini".to_owned(),
            args: strings(&[
                "-o",
                "stream-json",
                "--skip-trust",
                "--include-directories",
                "{projectRoot}",
                "--session-id",
                "{id}",
                "--prompt={prompt}",
            ]),
            resume_args: strings(&[
                "-o",
                "stream-json",
                "--skip-trust",
                "--include-directories",
                "{projectRoot}",
                "--resume",
                "{id}",
                "--prompt={prompt}",
            ]),
        }),
        ..agent(GEMINI, "Gemini CLI", "gemini", convention_file("GEMINI.md"))
    }
}

/// Aider — checked against `aider --help` of `aider-chat` 0.86.2.
///
/// Aider reads no instruction file by convention; `--read FILE` adds a read-only file to the
/// chat. It has no conversation id (only `--restore-chat-history` of the cwd's history file),
/// no MCP support and no JSON mode.
fn aider() -> AgentProfile {
    agent(
        AIDER,
        "Aider",
        "aider",
        ContextInjection::Args {
            template: strings(&["--read", "{path}"]),
        },
    )
}

/// OpenCode — checked against `opencode --help` and `opencode run --help` of `opencode-ai`
/// 1.18.33, and the strings of its binary.
///
/// It reads `AGENTS.md` found upwards from the cwd. It mints its own session ids (resume with
/// `--session <id>`). Its MCP servers live under `"mcp"` in an `opencode.json` found from the
/// cwd (shape `{"type":"local","command":[…],"environment":{…}}`): IdeA writes one in the run
/// dir. `opencode run --format json` exists but no structured adapter reads it yet.
fn opencode() -> AgentProfile {
    AgentProfile {
        // Otherwise it may upgrade itself in the background on launch (read by the binary as
        // "true" or "1").
        env: env(&[("OPENCODE_DISABLE_AUTOUPDATE", "1")]),
        session: Some(SessionStrategy {
            assign_args: None,
            resume_args: strings(&["--session", "{id}"]),
        }),
        mcp: Some(McpStyle::OpencodeConfig {
            path: "opencode.json".to_owned(),
        }),
        ..agent(
            OPENCODE,
            "OpenCode",
            "opencode",
            convention_file("AGENTS.md"),
        )
    }
}

/// The user's login shell (`$SHELL -l`), opened at the project root: it gets no context, so it
/// shares no convention file with anyone.
fn shell() -> AgentProfile {
    AgentProfile {
        args: strings(&["-l"]),
        cwd_template: CwdTemplate::ProjectRoot,
        ..agent(SHELL, "Shell", "{loginShell}", ContextInjection::None)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use std::collections::BTreeSet;

    fn profile(id: &str) -> AgentProfile {
        builtin_profiles()
            .into_iter()
            .find(|p| p.id.as_str() == id)
            .unwrap()
    }

    fn target(p: &AgentProfile) -> Option<&str> {
        match &p.context_injection {
            ContextInjection::ConventionFile { target } => Some(target),
            _ => None,
        }
    }

    #[test]
    fn catalogue_has_the_six_builtins_in_order() {
        let ids: Vec<String> = builtin_profiles().into_iter().map(|p| p.id.0).collect();
        assert_eq!(ids, [CLAUDE_CODE, CODEX, GEMINI, AIDER, OPENCODE, SHELL]);
    }

    #[test]
    fn ids_are_unique() {
        let all = builtin_profiles();
        let ids: BTreeSet<_> = all.iter().map(|p| &p.id).collect();
        assert_eq!(ids.len(), all.len());
    }

    #[test]
    fn every_builtin_survives_a_json_round_trip() {
        for p in builtin_profiles() {
            let json = serde_json::to_string(&p).unwrap();
            let back: AgentProfile = serde_json::from_str(&json).unwrap();
            assert_eq!(back, p, "{json}");
        }
    }

    #[test]
    fn builtins_serialise_in_the_spec_vocabulary() {
        let json = serde_json::to_value(profile(CLAUDE_CODE)).unwrap();
        assert_eq!(json["cwdTemplate"], "{agentRunDir}");
        assert_eq!(json["contextInjection"]["kind"], "conventionFile");
        assert_eq!(json["contextInjection"]["target"], "CLAUDE.md");
        assert_eq!(json["session"]["assignArgs"][0], "--session-id");
        assert_eq!(json["mcp"]["kind"], "configFileFlag");
        assert_eq!(json["structured"]["provider"], "claude");
    }

    #[test]
    fn convention_targets() {
        assert_eq!(target(&profile(CLAUDE_CODE)), Some("CLAUDE.md"));
        assert_eq!(target(&profile(CODEX)), Some("AGENTS.md"));
        assert_eq!(target(&profile(GEMINI)), Some("GEMINI.md"));
        assert_eq!(target(&profile(OPENCODE)), Some("AGENTS.md"));
        assert_eq!(
            profile(AIDER).context_injection,
            ContextInjection::Args {
                template: strings(&["--read", "{path}"])
            }
        );
        assert_eq!(profile(SHELL).context_injection, ContextInjection::None);
    }

    #[test]
    fn agents_run_in_their_own_dir_and_the_shell_at_the_root() {
        for p in builtin_profiles() {
            let expected = if p.id.as_str() == SHELL {
                CwdTemplate::ProjectRoot
            } else {
                CwdTemplate::AgentRunDir
            };
            assert_eq!(p.cwd_template, expected, "{}", p.id);
            assert!(!p.via_shell, "{}", p.id);
        }
    }

    #[test]
    fn session_capabilities() {
        let assign: Vec<String> = builtin_profiles()
            .into_iter()
            .filter(AgentProfile::can_assign_session)
            .map(|p| p.id.0)
            .collect();
        assert_eq!(assign, [CLAUDE_CODE, GEMINI]);
        let resume: Vec<String> = builtin_profiles()
            .into_iter()
            .filter(AgentProfile::can_resume_session)
            .map(|p| p.id.0)
            .collect();
        assert_eq!(resume, [CLAUDE_CODE, CODEX, GEMINI, OPENCODE]);
        assert_eq!(
            profile(CODEX).session.unwrap().resume_args,
            ["resume", "{id}"]
        );
    }

    #[test]
    fn every_session_template_mentions_the_id() {
        for p in builtin_profiles() {
            let Some(s) = p.session else { continue };
            assert!(s.resume_args.iter().any(|a| a == "{id}"), "{}", p.id);
            if let Some(assign) = s.assign_args {
                assert!(assign.iter().any(|a| a == "{id}"), "{}", p.id);
            }
        }
    }

    #[test]
    fn structured_modes_put_the_message_last_and_claude_assigns_its_ids() {
        let claude = profile(CLAUDE_CODE).structured.unwrap();
        assert_eq!(claude.provider, "claude");
        assert!(claude.assigns_ids());
        assert_eq!(
            claude.args[..4],
            ["-p", "--output-format", "stream-json", "--verbose"]
        );
        assert_eq!(claude.args[6..], ["--session-id", "{id}", "--", "{prompt}"]);
        assert_eq!(
            claude.resume_args[6..],
            ["--resume", "{id}", "--", "{prompt}"]
        );
        let codex = profile(CODEX).structured.unwrap();
        assert!(!codex.assigns_ids());
        assert_eq!(codex.args[..3], ["exec", "--json", "--skip-git-repo-check"]);
        assert_eq!(codex.args[5..], ["--", "{prompt}"]);
        assert_eq!(codex.resume_args[5..], ["resume", "{id}", "--", "{prompt}"]);
        let gemini = profile(GEMINI).structured.unwrap();
        assert!(gemini.assigns_ids());
        assert_eq!(gemini.args.last().unwrap(), "--prompt={prompt}");
        assert_eq!(
            gemini.resume_args[5..],
            ["--resume", "{id}", "--prompt={prompt}"]
        );
        for p in builtin_profiles() {
            if p.structured.is_some() {
                // Every built-in JSON mode is one IdeA can read, with well-formed templates.
                idea_domain::turn::json_mode(&p).unwrap();
            }
        }
    }

    #[test]
    fn mcp_styles() {
        assert_eq!(
            profile(CLAUDE_CODE).mcp,
            Some(McpStyle::ConfigFileFlag {
                flag: "--mcp-config".into()
            })
        );
        assert_eq!(profile(CODEX).mcp, Some(McpStyle::ConfigOverrides));
        assert_eq!(
            profile(GEMINI).mcp,
            Some(McpStyle::SettingsFile {
                path: ".idea-gemini-settings.json".into(),
                env: Some("GEMINI_CLI_SYSTEM_SETTINGS_PATH".into()),
                turns_only: true,
            })
        );
        assert_eq!(profile(AIDER).mcp, None);
        assert_eq!(
            profile(OPENCODE).mcp,
            Some(McpStyle::OpencodeConfig {
                path: "opencode.json".into()
            })
        );
        assert_eq!(profile(SHELL).mcp, None);
    }

    #[test]
    fn claude_starts_quietly() {
        let env = profile(CLAUDE_CODE).env;
        for var in [
            "DISABLE_AUTOUPDATER",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
            "DISABLE_TELEMETRY",
        ] {
            assert_eq!(env.get(var).map(String::as_str), Some("1"), "{var}");
        }
    }

    #[test]
    fn shell_is_a_login_shell() {
        let shell = profile(SHELL);
        assert_eq!(shell.command, "{loginShell}");
        assert_eq!(shell.args, ["-l"]);
        assert!(shell.session.is_none() && shell.structured.is_none() && shell.mcp.is_none());
    }
}
