//! The rules as Claude Code's own `permissions` settings (advisory: Claude Code asks or refuses
//! by itself; the kernel sandbox enforces the path denials). Claude Code reads
//! `.claude/settings.local.json` in its working folder, the agent's run dir.
//!
//! The grammar is Claude Code's, so rules are copied as written, except path patterns: IdeA
//! reads a relative pattern from the project root, Claude Code from its working folder (the
//! run dir). Every path pattern is therefore written absolute (`Read(//abs/path)`, Claude
//! Code's spelling of an absolute path).

use super::{Pattern, PermissionSet, Rule, RuleKind};
use std::path::Path;

/// Where Claude Code reads the settings, relative to its working folder.
pub const CLAUDE_SETTINGS: &str = ".claude/settings.local.json";

/// `{"permissions": {"allow": […], "ask": […], "deny": […]}}` from every valid rule of `set`
/// (the user's file, then the project's).
pub fn claude_settings(set: &PermissionSet) -> String {
    let mut lists: [(RuleKind, Vec<String>); 3] = RuleKind::ALL.map(|k| (k, Vec::new()));
    for file in set.files() {
        for (kind, rule) in file.rules() {
            let text = claude_rule(rule, set);
            if let Some((_, list)) = lists.iter_mut().find(|(k, _)| k == kind)
                && !list.contains(&text)
            {
                list.push(text);
            }
        }
    }
    let permissions: serde_json::Map<String, serde_json::Value> = lists
        .into_iter()
        .map(|(kind, list)| (kind.key().to_owned(), list.into()))
        .collect();
    let settings = serde_json::json!({ "permissions": permissions });
    let mut text = serde_json::to_string_pretty(&settings).unwrap_or_default();
    text.push('\n');
    text
}

fn claude_rule(rule: &Rule, set: &PermissionSet) -> String {
    let Some(Pattern::Path(pattern)) = rule.pattern() else {
        return rule.text().to_owned();
    };
    let Some(base) = pattern.base(set.context()) else {
        return rule.text().to_owned();
    };
    let absolute = match pattern.glob_text() {
        None => base.display().to_string(),
        Some(glob) => Path::new(&base).join(glob).display().to_string(),
    };
    // `//abs/path`: Claude Code's absolute path (a single `/` is relative to the settings file).
    format!("{}(/{absolute})", rule.tool())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::permissions::{PathContext, PermissionScope};
    use std::path::PathBuf;

    #[test]
    fn rules_are_copied_and_path_patterns_made_absolute() {
        let mut set = PermissionSet::new(PathContext {
            root: PathBuf::from("/w/proj"),
            home: Some(PathBuf::from("/h")),
        });
        set.add_file(
            PermissionScope::User,
            Path::new("/h/.ideai/permissions.json"),
            Some(r#"{"permissions":{"deny":["Read(~/.ssh/**)","Bash(rm *)"]}}"#),
        );
        set.add_file(
            PermissionScope::Project,
            Path::new("/w/proj/.ideai/permissions.json"),
            Some(
                r#"{"permissions":{"allow":["Bash(git status)","Edit(src/**)","WebFetch(domain:x.org)"],
                    "ask":["Bash(git push *)"],"deny":["Read(./.env)","Bash(rm *)","Write"]}}"#,
            ),
        );
        let settings: serde_json::Value = serde_json::from_str(&claude_settings(&set)).unwrap();
        assert_eq!(
            settings,
            serde_json::json!({"permissions": {
                "allow": ["Bash(git status)", "Edit(//w/proj/src/**)", "WebFetch(domain:x.org)"],
                "ask": ["Bash(git push *)"],
                "deny": ["Read(//h/.ssh/**)", "Bash(rm *)", "Read(//w/proj/.env)", "Write"],
            }})
        );
    }
}
