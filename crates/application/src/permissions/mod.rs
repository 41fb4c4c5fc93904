//! Permissions use cases: the effective rules of a project (its file and the user's, added
//! together), editing the project's file, and the decision for one tool call.
//!
//! The rules themselves are the domain's ([`idea_domain::permissions`]); this module reads the
//! files through the [`PermissionFiles`](idea_domain::ports::PermissionFiles) port and shell
//! commands through [`shell`].

pub mod shell;

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::DomainEvent;
use idea_domain::permissions::file::edit_file;
use idea_domain::permissions::{
    Decision, PathContext, PermissionScope, PermissionSet, PermissionWarning, RuleChange, RuleKind,
    ToolCall, ToolInput,
};
use idea_domain::ports::{PermissionText, StoreError};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The rules of every permissions file, as the UI shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct PermissionsView {
    /// The user's file, then the project's (listed even when absent).
    pub files: Vec<PermissionFileView>,
    /// Every file or rule that was skipped, with why.
    pub warnings: Vec<PermissionWarning>,
    /// Whether any valid rule applies (no rule at all: native behaviour, nothing enforced).
    pub has_rules: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct PermissionFileView {
    pub scope: PermissionScope,
    pub path: PathBuf,
    pub exists: bool,
    /// Only the project's file is edited from IdeA.
    pub editable: bool,
    /// Every entry as written, in file order (allow, ask, deny).
    pub rules: Vec<PermissionRuleView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct PermissionRuleView {
    pub kind: RuleKind,
    pub rule: String,
    /// Why the rule is skipped, when it is.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// Changes to the project's file: `remove` first, then `add`.
#[derive(Debug, Clone, Default)]
pub struct PermissionEdit {
    pub add: Vec<RuleChange>,
    pub remove: Vec<RuleChange>,
}

/// The effective permissions of the project, read now. A file that cannot be read (a link,
/// too big, not UTF-8…) or a bad rule is a warning; the rest still applies.
pub fn load(deps: &Deps) -> PermissionSet {
    let context = PathContext {
        root: deps.store.root(),
        home: deps.permissions.home(),
    };
    PermissionSet::from_files(context, deps.permissions.read())
}

/// GetPermissions.
pub fn get(deps: &Deps) -> PermissionsView {
    view(&load(deps))
}

/// SavePermissions: edits the project's `.ideai/permissions.json` (created when absent)
/// atomically, keeping every other key and entry. An added rule that would be skipped is
/// refused before anything is written (a rule already in the file stays, however wrong, so
/// that it can be removed).
///
/// # Errors
/// `INVALID_PARAMS` naming the first added rule that is invalid and why; `CORRUPT_FILE` when the current file is not one IdeA can edit without losing what it holds
/// (invalid JSON, lists of the wrong shape), `UNSAFE_PATH` for a link, I/O errors.
pub fn save(deps: &Deps, edit: &PermissionEdit) -> AppResult<PermissionsView> {
    let _guard = deps.lock_state();
    let project = deps
        .permissions
        .read()
        .into_iter()
        .find(|f| f.scope == PermissionScope::Project)
        .ok_or_else(|| AppError::Internal("no project permissions file".into()))?;
    let current = project.text?;
    let text = edit_file(current.as_deref(), &edit.add, &edit.remove).map_err(|e| {
        StoreError::Corrupt {
            path: project.path.clone(),
            reason: format!("{e}; fix it by hand first (the file was left untouched)"),
        }
    })?;
    refuse_invalid_additions(deps, &project.path, &text, &edit.add)?;
    deps.permissions.write_project(&text)?;
    deps.publish(DomainEvent::PermissionsChanged);
    Ok(get(deps))
}

/// Reads the edited text as the project's file would be read, and refuses it if one of the
/// added rules would be skipped there.
fn refuse_invalid_additions(
    deps: &Deps,
    path: &std::path::Path,
    text: &str,
    added: &[RuleChange],
) -> AppResult<()> {
    let context = PathContext {
        root: deps.store.root(),
        home: deps.permissions.home(),
    };
    let edited = PermissionText {
        scope: PermissionScope::Project,
        path: path.to_path_buf(),
        text: Ok(Some(text.to_owned())),
    };
    let set = PermissionSet::from_files(context, [edited]);
    let entries = set.files().iter().flat_map(|f| f.entries.iter());
    for entry in entries {
        let Some(problem) = &entry.problem else {
            continue;
        };
        let is_added = added
            .iter()
            .any(|a| a.kind == entry.kind && a.rule.trim() == entry.text.trim());
        if is_added {
            return Err(AppError::InvalidParams(format!(
                "the {} rule \"{}\" is invalid: {problem}; nothing was saved",
                entry.kind.key(),
                entry.text
            )));
        }
    }
    Ok(())
}

fn view(set: &PermissionSet) -> PermissionsView {
    PermissionsView {
        files: set
            .files()
            .iter()
            .map(|f| PermissionFileView {
                scope: f.scope,
                path: f.path.clone(),
                exists: f.exists,
                editable: f.scope == PermissionScope::Project,
                rules: f
                    .entries
                    .iter()
                    .map(|e| PermissionRuleView {
                        kind: e.kind,
                        rule: e.text.clone(),
                        problem: e.problem.clone(),
                    })
                    .collect(),
            })
            .collect(),
        warnings: set.warnings().to_vec(),
        has_rules: set.has_rules(),
    }
}

/// The call of `tool` with its input as text: the command for `Bash`, the path for the file
/// tools, the URL for `WebFetch` (its host is what rules read), else the value rules match.
pub fn tool_call(tool: &str, input: &str) -> ToolCall {
    use idea_domain::permissions::rule::PATH_TOOLS;
    let input = match tool {
        "Bash" => ToolInput::Command(shell::parse(input)),
        t if PATH_TOOLS.contains(&t) => ToolInput::Path(input.to_owned()),
        "WebFetch" => match url::Url::parse(input) {
            Ok(url) => url
                .host_str()
                .map_or(ToolInput::None, |h| ToolInput::Domain(h.to_owned())),
            Err(_) => ToolInput::None,
        },
        _ => ToolInput::Text(input.to_owned()),
    };
    ToolCall {
        tool: tool.to_owned(),
        input,
    }
}

/// Allow, ask or deny `tool` called with `input` (see [`tool_call`]).
pub fn evaluate(set: &PermissionSet, tool: &str, input: &str) -> Decision {
    set.evaluate(&tool_call(tool, input))
}
