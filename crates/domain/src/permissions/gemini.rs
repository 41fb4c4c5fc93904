//! The rules as Gemini CLI's own command-line settings (advisory: Gemini asks by itself; the
//! kernel sandbox enforces the path denials). A settings file is not an option for Gemini's
//! cells (extra start-up settings lose a resumed chat's history, `docs/profiles/gemini.md`), so
//! the rules travel as flags: `--approval-mode default` (Gemini asks before every tool that is
//! not allowed, never `yolo` under rules) and `--allowed-tools` for what the rules allow
//! outright. Only what Gemini's tool names can say is mapped: `Bash(cmd …)` allows become
//! `run_shell_command(cmd …)` (a prefix, as Gemini matches it); a bare `Read`, `Edit`, `Write`
//! or `WebFetch` allow becomes Gemini's tools of that kind. Path-scoped and domain-scoped
//! allows are left to Gemini's prompt. Deny and ask rules need no flag: Gemini asks, and the
//! kernel refuses what the plan denies.

use super::{Pattern, PermissionSet, RuleKind};

/// Gemini CLI's tools for a bare allow of IdeA's tool `tool`.
fn gemini_tools(tool: &str) -> &'static [&'static str] {
    match tool {
        "Read" => &[
            "read_file",
            "read_many_files",
            "glob",
            "search_file_content",
            "list_directory",
        ],
        "Edit" => &["replace"],
        "Write" => &["write_file"],
        "WebFetch" => &["web_fetch"],
        _ => &[],
    }
}

/// The flags put before Gemini CLI's own arguments; none without rules.
pub fn gemini_args(set: &PermissionSet) -> Vec<String> {
    if !set.has_rules() {
        return Vec::new();
    }
    let mut allowed: Vec<String> = Vec::new();
    for file in set.files() {
        for (kind, rule) in file.rules() {
            if *kind != RuleKind::Allow {
                continue;
            }
            let names: Vec<String> = match (rule.tool(), rule.pattern()) {
                ("Bash", Some(Pattern::Command(_))) => {
                    let text = rule.text();
                    let inner = text
                        .strip_prefix("Bash(")
                        .and_then(|t| t.strip_suffix(')'))
                        .unwrap_or_default();
                    let prefix = inner.trim_end_matches('*').trim_end();
                    if prefix.is_empty() {
                        Vec::new()
                    } else {
                        vec![format!("run_shell_command({prefix})")]
                    }
                }
                ("Bash", None) => vec!["run_shell_command".to_owned()],
                (tool, None) => gemini_tools(tool).iter().map(|t| (*t).to_owned()).collect(),
                _ => Vec::new(),
            };
            for name in names {
                if !allowed.contains(&name) {
                    allowed.push(name);
                }
            }
        }
    }
    let mut args = vec!["--approval-mode".to_owned(), "default".to_owned()];
    // One option per tool: Gemini CLI's array options take one value each (`--allowed-tools a
    // b` makes `b` a positional prompt: an interactive cell sent it as a first message, and a
    // headless turn refused it beside `--prompt`; found by the real-CLI suite).
    for tool in allowed {
        args.push("--allowed-tools".to_owned());
        args.push(tool);
    }
    args
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::permissions::{PathContext, PermissionScope};
    use std::path::{Path, PathBuf};

    fn set(json: &str) -> PermissionSet {
        let mut set = PermissionSet::new(PathContext {
            root: PathBuf::from("/w/proj"),
            home: None,
        });
        set.add_file(
            PermissionScope::Project,
            Path::new("/w/proj/.ideai/permissions.json"),
            Some(json),
        );
        set
    }

    #[test]
    fn allows_become_gemini_tools_and_the_approval_mode_asks() {
        let args = gemini_args(&set(
            r#"{"permissions":{"allow":["Bash(git status)","Bash(cargo test *)","Read","Edit(src/**)","WebFetch(domain:x.org)"],
                "deny":["Bash(rm *)"]}}"#,
        ));
        assert_eq!(
            args,
            [
                "--approval-mode",
                "default",
                "--allowed-tools",
                "run_shell_command(git status)",
                "--allowed-tools",
                "run_shell_command(cargo test)",
                "--allowed-tools",
                "read_file",
                "--allowed-tools",
                "read_many_files",
                "--allowed-tools",
                "glob",
                "--allowed-tools",
                "search_file_content",
                "--allowed-tools",
                "list_directory",
            ]
        );
    }

    #[test]
    fn no_rules_no_flags() {
        assert!(gemini_args(&set(r#"{"permissions":{}}"#)).is_empty());
        let only_deny = gemini_args(&set(r#"{"permissions":{"deny":["Bash(rm *)"]}}"#));
        assert_eq!(only_deny, ["--approval-mode", "default"]);
    }
}
