//! `idea worktree …`: an agent on its own branch (`docs/worktrees.md`).

use super::{Failure, print_json};
use crate::compose::{OPENER, open_project};
use clap::Subcommand;
use idea_application::{agents, worktrees};
use idea_domain::worktree::{PullRequest, RebaseOutcome, Removed, SquashPlan, WorktreeStatus};
use idea_server::owner::client;
use std::path::{Path, PathBuf};

#[derive(Debug, Subcommand)]
pub enum WorktreeCommand {
    /// Give an agent its own worktree on a new branch (`idea/<agent>`) from BASE (default: the
    /// current branch's HEAD); its launches then work there.
    Create {
        agent: String,
        #[arg(long)]
        base: Option<String>,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Every agent's worktree: branch, base, commits behind it, files changed, overlaps.
    List {
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// The files an agent changed against its base, or one file's diff.
    Diff {
        agent: String,
        /// One of the changed files: print its diff.
        file: Option<String>,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Squash everything in the agent's worktree into its base branch as one commit. Shows
    /// what it will do and stops there unless --yes.
    Merge {
        agent: String,
        #[arg(long, short)]
        message: Option<String>,
        /// Do it (without: only the plan and its conflicts).
        #[arg(long)]
        yes: bool,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Rebase the agent's branch onto its base's tip, inside its worktree (--abort: abandon
    /// the rebase in progress). On conflicts it stops and lists the files.
    Rebase {
        agent: String,
        #[arg(long)]
        abort: bool,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Save the worktree's uncommitted work under refs/idea/wip/<agent> and remove its
    /// folder; the branch stays.
    Archive {
        agent: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Push the agent's branch and open a pull request onto its base with `gh` (installed and
    /// logged in); otherwise print the commands to run.
    Pr {
        agent: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Remove the agent's worktree: archived first (nothing uncommitted is lost); its branch is
    /// deleted only when its work is on the base.
    Remove {
        agent: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Bring an archived worktree back, with its uncommitted work.
    Restore {
        agent: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: WorktreeCommand) -> Result<(), Failure> {
    match command {
        WorktreeCommand::Create {
            agent,
            base,
            project,
            json,
        } => {
            let params =
                serde_json::json!({ "agentId": agent_id(&project, &agent)?, "base": base });
            let status: WorktreeStatus = call(&project, "createWorktree", params)?;
            show(&status, json, "Created")?;
            run_setup_script(&project, &agent, &status.path, json)
        }
        WorktreeCommand::List { project, json } => {
            let open = open_project(&project)?;
            let all = worktrees::list(&open.deps)?;
            if json {
                return print_json(&all);
            }
            if all.is_empty() {
                println!("No agent has its own worktree: idea worktree create AGENT");
            }
            for status in &all {
                print_status(status);
            }
            Ok(())
        }
        WorktreeCommand::Diff {
            agent,
            file,
            project,
            json,
        } => {
            let open = open_project(&project)?;
            if let Some(file) = file {
                let diff = worktrees::diff(&open.deps, &agent, &file)?;
                if json {
                    return print_json(&diff);
                }
                // git's diff without its last newline (trimmed): give it back.
                println!("{diff}");
                return Ok(());
            }
            let status = worktrees::status(&open.deps, &agent)?;
            if json {
                return print_json(&status.changed);
            }
            if let Some(problem) = &status.problem {
                return Err(Failure::User(problem.clone()));
            }
            print_changes(&status);
            Ok(())
        }
        WorktreeCommand::Merge {
            agent,
            message,
            yes,
            project,
            json,
        } => {
            let plan = if yes {
                let params = serde_json::json!({
                    "agentId": agent_id(&project, &agent)?,
                    "message": message,
                });
                call::<SquashPlan>(&project, "squashWorktree", params)?
            } else {
                worktrees::plan_squash(&open_project(&project)?.deps, &agent)?
            };
            if json {
                return print_json(&plan);
            }
            print_plan(&plan, yes);
            Ok(())
        }
        WorktreeCommand::Rebase {
            agent,
            abort,
            project,
            json,
        } => {
            let params = serde_json::json!({ "agentId": agent_id(&project, &agent)? });
            if abort {
                let status: WorktreeStatus = call(&project, "abortRebase", params)?;
                return show(&status, json, "Rebase abandoned");
            }
            let outcome: RebaseOutcome = call(&project, "rebaseWorktree", params)?;
            if json {
                return print_json(&outcome);
            }
            if outcome.conflicts.is_empty() {
                return show(&outcome.status, false, "Rebased");
            }
            println!(
                "The rebase stopped on conflicts in: {}\nIt is still in progress in {}: fix the files there and `git rebase --continue`, abandon it (idea worktree rebase {agent} --abort), or ask the agent:\n\n{}",
                outcome.conflicts.join(", "),
                outcome.status.path.display(),
                outcome.resolve_request.unwrap_or_default()
            );
            Ok(())
        }
        WorktreeCommand::Archive {
            agent,
            project,
            json,
        } => {
            let params = serde_json::json!({ "agentId": agent_id(&project, &agent)? });
            let status: WorktreeStatus = call(&project, "archiveWorktree", params)?;
            show(
                &status,
                json,
                "Archived (its uncommitted work is saved; restore brings it back)",
            )
        }
        WorktreeCommand::Pr {
            agent,
            project,
            json,
        } => {
            let params = serde_json::json!({ "agentId": agent_id(&project, &agent)? });
            let pr: PullRequest = call(&project, "createPullRequest", params)?;
            if json {
                return print_json(&pr);
            }
            match (&pr.url, &pr.reason) {
                (Some(url), _) => println!("Opened {url}"),
                (None, reason) => {
                    println!(
                        "IdeA did not open it: {}. In {}, run:",
                        reason.as_deref().unwrap_or("no reason given"),
                        worktrees::status(&open_project(&project)?.deps, &agent)?
                            .path
                            .display()
                    );
                    for command in &pr.commands {
                        println!("  {command}");
                    }
                }
            }
            Ok(())
        }
        WorktreeCommand::Remove {
            agent,
            project,
            json,
        } => {
            let params = serde_json::json!({ "agentId": agent_id(&project, &agent)? });
            let removed: Removed = call(&project, "removeWorktree", params)?;
            if json {
                return print_json(&removed);
            }
            println!("{}", removed.summary);
            Ok(())
        }
        WorktreeCommand::Restore {
            agent,
            project,
            json,
        } => {
            let params = serde_json::json!({ "agentId": agent_id(&project, &agent)? });
            let status: WorktreeStatus = call(&project, "restoreWorktree", params)?;
            show(&status, json, "Restored")
        }
    }
}

/// The project's set-up script, in this terminal (the user sees it, Ctrl+C stops it), in the
/// new worktree with the agent's `IDEA_*` variables; its failure is reported, the worktree
/// stays.
fn run_setup_script(project: &Path, agent: &str, dir: &Path, json: bool) -> Result<(), Failure> {
    let open = open_project(project)?;
    let Some(script) = open
        .deps
        .store
        .load_project()
        .map_err(idea_application::AppError::from)?
        .worktrees
        .setup_script
        .filter(|s| !s.trim().is_empty())
    else {
        return Ok(());
    };
    let found = agents::find(&open.deps, agent)?;
    let env = worktrees::setup_env(&open.deps, &found, dir)?;
    if !json {
        println!("Running the set-up script: {script}");
    }
    let mut command = std::process::Command::new(&open.deps.login_shell);
    command
        .args(["-l", "-c", &script])
        .current_dir(dir)
        .envs(env);
    if json {
        // stdout is the JSON: the script's output goes to stderr.
        command.stdout(std::io::stderr());
    }
    let status = command
        .status()
        .map_err(|e| Failure::User(format!("cannot run the set-up script: {e}")))?;
    if !status.success() {
        return Err(Failure::User(format!(
            "the set-up script failed ({status}); the worktree {} is kept as it is",
            dir.display()
        )));
    }
    Ok(())
}

/// A change through the project's owner when one runs, so its open windows see it.
fn call<T: serde::de::DeserializeOwned>(
    project: &Path,
    method: &str,
    params: serde_json::Value,
) -> Result<T, Failure> {
    let value = client::call(project, method, params, &OPENER)?;
    serde_json::from_value(value).map_err(|e| Failure::Internal(e.into()))
}

fn agent_id(project: &Path, agent: &str) -> Result<String, Failure> {
    let open = open_project(project)?;
    Ok(agents::find(&open.deps, agent)?.agent_id.to_string())
}

fn show(status: &WorktreeStatus, json: bool, verb: &str) -> Result<(), Failure> {
    if json {
        return print_json(status);
    }
    println!("{verb}:");
    print_status(status);
    Ok(())
}

fn print_status(status: &WorktreeStatus) {
    let record = &status.record;
    let state = if record.archived { " (archived)" } else { "" };
    let behind = status
        .behind_base
        .map_or_else(String::new, |n| format!(", {n} behind base"));
    println!(
        "{}{state}: branch {} from {} ({}){behind}\n  {}",
        status.agent_name,
        record.branch,
        record.base_ref,
        record.base_commit.get(..12).unwrap_or(&record.base_commit),
        status.path.display()
    );
    if let Some(problem) = &status.problem {
        println!("  problem: {problem}");
    }
    if !record.archived {
        println!("  {} file(s) changed", status.changed.len());
    }
    for overlap in &status.overlaps {
        println!(
            "  overlap: {} is changed by {} too",
            overlap.path,
            overlap.with.join(", ")
        );
    }
}

fn print_changes(status: &WorktreeStatus) {
    if status.changed.is_empty() {
        println!(
            "{} changed nothing since {}",
            status.agent_name, status.record.base_ref
        );
    }
    for file in &status.changed {
        let lines = match (file.added, file.removed) {
            (Some(added), Some(removed)) => format!("+{added} -{removed}"),
            _ => "binary".to_owned(),
        };
        println!("{} {:<12} {}", file.status, lines, file.path);
    }
}

fn print_plan(plan: &SquashPlan, done: bool) {
    match &plan.commit {
        Some(commit) => println!(
            "Squashed {} file(s) into {} as {}",
            plan.files.len(),
            plan.base_branch,
            commit.get(..12).unwrap_or(commit)
        ),
        None => println!(
            "Would squash {} file(s) into {} as one commit",
            plan.files.len(),
            plan.base_branch
        ),
    }
    match &plan.checkout {
        Some(dir) => println!(
            "  {} is checked out in {}: git fast-forwards it (it must be clean)",
            plan.base_branch,
            dir.display()
        ),
        None => println!(
            "  {} is not checked out anywhere: only the branch moves",
            plan.base_branch
        ),
    }
    if !plan.conflicts.is_empty() {
        println!("  would conflict in: {}", plan.conflicts.join(", "));
    }
    if !done && plan.conflicts.is_empty() {
        println!("Run again with --yes to do it.");
    }
}
