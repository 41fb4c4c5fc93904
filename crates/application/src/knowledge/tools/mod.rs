//! Project tools (`.ideai/tools/<name>/TOOL.json`): listed, and run for an agent's MCP call or
//! the user's `idea tool run`, after the permission rules (and, for `ask`, the user) agree, under
//! the calling agent's sandbox plan.

mod gate;

pub use gate::ToolGate;

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::agent_state::{HookEvent, Signal};
use idea_domain::knowledge::ToolListing;
use idea_domain::permissions::{Decision, PermissionSet, ToolCall, ToolInput};
use idea_domain::project_tool::ProjectTool;
use idea_domain::tool_run::{ToolApproval, ToolRun, ToolRunOutput, ToolRunRecord};
use idea_domain::{Agent, DomainEvent};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::time::{Duration, Instant};

/// A tool is killed (its whole process group) after this long.
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(120);
/// Characters of a tool's output returned, each of stdout and stderr.
pub const TOOL_OUTPUT_CAP: usize = 30_000;
/// How long a call waits for the user to answer an `ask`, then counts as refused.
pub const APPROVAL_WAIT: Duration = Duration::from_secs(600);

/// Every tool, those skipped, and the last runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ToolsView {
    #[serde(flatten)]
    pub listing: ToolListing,
    /// Newest first.
    pub recent: Vec<ToolRunRecord>,
    /// Calls waiting for the user.
    pub pending: Vec<ToolApproval>,
}

/// ListTools.
pub fn list(deps: &Deps) -> ToolsView {
    let listing = deps.knowledge.tools();
    for problem in &listing.problems {
        tracing::warn!(path = %problem.path, reason = %problem.reason, "project tool skipped");
    }
    ToolsView {
        listing,
        recent: deps.tool_gate.recent(),
        pending: deps.tool_gate.pending(),
    }
}

/// Who calls a tool.
#[derive(Debug, Clone)]
pub enum ToolCaller {
    /// An agent, over MCP: the rules apply, and its sandbox.
    Agent(Box<Agent>),
    /// The user, from `idea tool run`: they chose to run it, so no rule asks; it runs as
    /// they do.
    User,
}

impl ToolCaller {
    fn name(&self) -> String {
        match self {
            Self::Agent(agent) => agent.name.to_string(),
            Self::User => "user".to_owned(),
        }
    }
}

/// What a tool call gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ToolCallResult {
    /// Exited 0 (a failure is a tool error for the model, with its stderr).
    pub ok: bool,
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub truncated: bool,
    pub timed_out: bool,
}

/// The decision of the rules on `tool` called with `values`: the strictest over a bare call
/// and each value (a rule `run_tests(fast)` reads one value of the call). Without a rule that
/// names the tool, `ask` (a project tool runs a program).
pub fn decision(
    rules: &PermissionSet,
    tool: &str,
    values: &[String],
) -> (Decision, Option<String>) {
    explicit_decision(rules, tool, values).unwrap_or((Decision::Ask, None))
}

/// As [`decision`], `None` when no rule names the tool.
fn explicit_decision(
    rules: &PermissionSet,
    tool: &str,
    values: &[String],
) -> Option<(Decision, Option<String>)> {
    let calls = std::iter::once(ToolInput::None).chain(values.iter().cloned().map(ToolInput::Text));
    let mut worst = (Decision::Allow, None);
    let mut any_rule = false;
    for input in calls {
        let verdict = rules.explain(&ToolCall {
            tool: tool.to_owned(),
            input,
        });
        any_rule |= verdict.rule.is_some();
        let rank = |d: Decision| match d {
            Decision::Allow => 0,
            Decision::Ask => 1,
            Decision::Deny => 2,
        };
        if verdict.rule.is_some() && rank(verdict.decision) >= rank(worst.0) {
            worst = (
                verdict.decision,
                verdict
                    .rule
                    .map(|r| format!("{} \"{}\" in {}", r.kind.key(), r.rule, r.path.display())),
            );
        }
    }
    any_rule.then_some(worst)
}

/// AuthorizeToolCall: the permission rules on `agent`'s call of one of IdeA's own MCP tools
/// (`idea_ask_agent`, …). Only rules that name the tool apply (without one it runs, as it
/// always has); `deny` refuses, `ask` waits for the user. The values rules read are the
/// call's string arguments.
///
/// # Errors
/// `AGENT_NOT_FOUND`, `TOOL_DENIED`.
pub fn authorize_idea_tool(
    deps: &Deps,
    agent: &str,
    tool: &str,
    arguments: &Value,
) -> AppResult<()> {
    let rules = crate::permissions::load(deps);
    if !rules.has_rules() {
        return Ok(());
    }
    let values: Vec<String> = arguments
        .as_object()
        .map(|args| {
            args.values()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    match explicit_decision(&rules, tool, &values) {
        None | Some((Decision::Allow, _)) => Ok(()),
        Some((Decision::Deny, rule)) => Err(AppError::ToolDenied(format!(
            "{tool} is refused by the rule {}",
            rule.unwrap_or_default()
        ))),
        Some((Decision::Ask, rule)) => {
            let agent = crate::agents::find(deps, agent)?;
            ask_user(deps, &agent, tool, arguments.clone(), rule)
        }
    }
}

/// CallTool: runs the project tool `name` with `args` for `caller`.
///
/// # Errors
/// `TOOL_NOT_FOUND`, `INVALID_TOOL_ARGS` (nothing ran), `TOOL_DENIED` (a rule, the user, or no
/// answer in time), `TOOL_FAILED` (it could not start, or cannot run sandboxed), and for an
/// agent `SANDBOX_FAILED`.
pub fn call(
    deps: &Deps,
    caller: &ToolCaller,
    name: &str,
    args: &Map<String, Value>,
) -> AppResult<ToolCallResult> {
    let listing = deps.knowledge.tools();
    let tool = listing
        .tools
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| AppError::ToolNotFound(name.to_owned()))?;
    let started_at = deps.clock.now();
    let record = |outcome: &str, output: Option<&ToolRunOutput>, took: Duration| ToolRunRecord {
        tool: tool.name.clone(),
        caller: caller.name(),
        started_at,
        duration_ms: u64::try_from(took.as_millis()).unwrap_or(u64::MAX),
        exit_code: output.and_then(|o| o.exit_code),
        timed_out: output.is_some_and(|o| o.timed_out),
        outcome: outcome.to_owned(),
    };
    let bound = match tool.bind(args) {
        Ok(bound) => bound,
        Err(e) => {
            ran(deps, record("refused", None, Duration::ZERO));
            return Err(AppError::InvalidToolArgs(format!("{name}: {e}")));
        }
    };
    let sandbox = match caller {
        ToolCaller::User => None,
        ToolCaller::Agent(agent) => {
            if let Err(e) = approve(deps, agent, tool, args, &bound.values) {
                ran(deps, record("denied", None, Duration::ZERO));
                return Err(e);
            }
            let plan = crate::sandbox::plan_of_agent(deps, &agent.agent_id.to_string())?;
            plan.has_rules.then_some(plan.plan)
        }
    };
    let Some((program, rest)) = bound.argv.split_first() else {
        return Err(AppError::ToolFailed(format!(
            "{name}: its run line is empty"
        )));
    };
    let dir = deps.knowledge.tool_dir(tool);
    let run = ToolRun {
        program: program.clone(),
        args: rest.to_vec(),
        cwd: dir.clone(),
        env: vec![
            (
                "IDEA_PROJECT".into(),
                deps.store.root().display().to_string(),
            ),
            ("IDEA_TOOL_DIR".into(), dir.display().to_string()),
        ],
        sandbox,
        timeout: TOOL_TIMEOUT,
        output_cap: TOOL_OUTPUT_CAP,
    };
    let clock = Instant::now();
    match deps.tool_processes.run(&run) {
        Ok(output) => {
            ran(deps, record("allowed", Some(&output), clock.elapsed()));
            tracing::info!(tool = %name, caller = %caller.name(), exit = ?output.exit_code, timed_out = output.timed_out, "project tool ran");
            Ok(ToolCallResult {
                ok: output.succeeded(),
                exit_code: output.exit_code,
                stdout: output.stdout,
                stderr: output.stderr,
                truncated: output.truncated,
                timed_out: output.timed_out,
            })
        }
        Err(e) => {
            ran(deps, record("failed", None, clock.elapsed()));
            Err(AppError::ToolFailed(format!("{name}: {e}")))
        }
    }
}

fn ran(deps: &Deps, record: ToolRunRecord) {
    deps.tool_gate.remember(record.clone());
    deps.publish(DomainEvent::ToolRan { run: record });
}

/// The permission rules on an agent's call: allowed, refused, or asked of the user (the agent
/// shows "needs you" meanwhile).
fn approve(
    deps: &Deps,
    agent: &Agent,
    tool: &ProjectTool,
    args: &Map<String, Value>,
    values: &[String],
) -> AppResult<()> {
    let rules = crate::permissions::load(deps);
    let (decision, rule) = decision(&rules, &tool.name, values);
    match decision {
        Decision::Allow => Ok(()),
        Decision::Deny => Err(AppError::ToolDenied(format!(
            "{} is refused by the rule {}",
            tool.name,
            rule.unwrap_or_default()
        ))),
        Decision::Ask => ask_user(deps, agent, &tool.name, Value::Object(args.clone()), rule),
    }
}

/// Asks the user about `agent`'s call of `tool` and waits for the answer.
///
/// # Errors
/// `TOOL_DENIED`: refused, unanswered in time, or too many calls already waiting.
pub(crate) fn ask_user(
    deps: &Deps,
    agent: &Agent,
    tool: &str,
    arguments: Value,
    rule: Option<String>,
) -> AppResult<()> {
    let approval = ToolApproval {
        approval_id: deps.ids.new_uuid().to_string(),
        agent_id: agent.agent_id,
        agent_name: agent.name.to_string(),
        tool: tool.to_owned(),
        arguments,
        rule,
        asked_at: deps.clock.now(),
    };
    let id = approval.approval_id.clone();
    if !deps.tool_gate.open(approval.clone()) {
        return Err(AppError::ToolDenied(format!(
            "{tool}: too many tool calls are waiting for the user; try again later"
        )));
    }
    deps.publish(DomainEvent::ToolApprovalRequested { approval });
    signal(deps, agent, HookEvent::NeedsInput);
    let answer = deps.tool_gate.wait(&id, APPROVAL_WAIT);
    deps.publish(DomainEvent::ToolApprovalResolved {
        approval_id: id,
        allowed: answer == Some(true),
    });
    signal(deps, agent, HookEvent::ToolDone);
    match answer {
        Some(true) => Ok(()),
        Some(false) => Err(AppError::ToolDenied(format!(
            "the user refused this call of {tool}"
        ))),
        None => Err(AppError::ToolDenied(format!(
            "nobody answered within {} minutes whether to run {tool}",
            APPROVAL_WAIT.as_secs() / 60
        ))),
    }
}

/// Moves the agent's live cell to "needs you" and back, as its CLI's hooks would.
fn signal(deps: &Deps, agent: &Agent, event: HookEvent) {
    if let Some(live) = deps.sessions.live_of_agent(agent.agent_id) {
        crate::sessions::state::apply(
            &deps.sessions,
            deps.events.as_ref(),
            &deps.resume_inbox,
            live.info.session_id,
            Signal::Hook(event),
        );
    }
}

/// AnswerToolApproval: allow once, or deny, a call waiting for the user.
///
/// # Errors
/// `INVALID_PARAMS`: no call waits under that id (answered already, or given up).
pub fn answer(deps: &Deps, approval_id: &str, allow: bool) -> AppResult<()> {
    if deps.tool_gate.answer(approval_id, allow) {
        Ok(())
    } else {
        Err(AppError::InvalidParams(format!(
            "no tool call waits for an answer under {approval_id}"
        )))
    }
}
