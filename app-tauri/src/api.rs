//! The transport-agnostic application API: one request enum named after the use cases, one
//! dispatcher. The Tauri shell and `idea serve` only decode a request, call [`handle`] and
//! encode the answer.

use idea_application::agents::{self, NewAgent, templates};
use idea_application::sessions::{self, LaunchAgent};
use idea_application::{AppError, Deps, WireError, layouts};
use idea_domain::layout::{Direction, Side};
use idea_domain::terminal::TerminalSize;
use idea_domain::{AgentId, LayoutId, NodeId, ProfileId, SessionId};
use serde::Deserialize;
use serde_json::{Value, json};

/// Every request a front end can make, as `{"method": "...", "params": {...}}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "method", content = "params", rename_all = "camelCase")]
pub enum Request {
    GetProject,
    ListProfiles,
    ListTemplates,
    ListAgents,
    #[serde(rename_all = "camelCase")]
    CreateAgent {
        name: String,
        profile_id: ProfileId,
        template: Option<String>,
    },
    #[serde(rename_all = "camelCase")]
    ReadAgentContext {
        agent_id: AgentId,
    },
    #[serde(rename_all = "camelCase")]
    UpdateAgentContext {
        agent_id: AgentId,
        content: String,
    },
    #[serde(rename_all = "camelCase")]
    DeleteAgent {
        agent_id: AgentId,
    },
    GetLayouts,
    CreateLayout {
        name: String,
    },
    #[serde(rename_all = "camelCase")]
    RenameLayout {
        layout_id: LayoutId,
        name: String,
    },
    #[serde(rename_all = "camelCase")]
    DeleteLayout {
        layout_id: LayoutId,
    },
    #[serde(rename_all = "camelCase")]
    SetActiveLayout {
        layout_id: LayoutId,
    },
    #[serde(rename_all = "camelCase")]
    SplitCell {
        layout_id: LayoutId,
        node_id: NodeId,
        direction: Direction,
    },
    #[serde(rename_all = "camelCase")]
    CloseCell {
        layout_id: LayoutId,
        node_id: NodeId,
    },
    #[serde(rename_all = "camelCase")]
    MoveCell {
        layout_id: LayoutId,
        node_id: NodeId,
        target_id: NodeId,
        direction: Direction,
        /// Where next to the target; after (right/below) when absent.
        #[serde(default = "after")]
        side: Side,
    },
    #[serde(rename_all = "camelCase")]
    SwapCells {
        layout_id: LayoutId,
        a: NodeId,
        b: NodeId,
    },
    #[serde(rename_all = "camelCase")]
    ResizeSplit {
        layout_id: LayoutId,
        split_id: NodeId,
        ratios: Vec<f64>,
    },
    #[serde(rename_all = "camelCase")]
    AssignAgent {
        layout_id: LayoutId,
        node_id: NodeId,
        agent_id: Option<AgentId>,
    },
    #[serde(rename_all = "camelCase")]
    LaunchAgent {
        layout_id: LayoutId,
        node_id: NodeId,
        agent_id: AgentId,
        rows: u16,
        cols: u16,
    },
    #[serde(rename_all = "camelCase")]
    OpenShell {
        layout_id: LayoutId,
        node_id: NodeId,
        rows: u16,
        cols: u16,
    },
    #[serde(rename_all = "camelCase")]
    StopSession {
        session_id: SessionId,
    },
    #[serde(rename_all = "camelCase")]
    RestartSession {
        session_id: SessionId,
        rows: u16,
        cols: u16,
    },
    ListSessions,
    #[serde(rename_all = "camelCase")]
    WriteTerminal {
        session_id: SessionId,
        data: String,
    },
    #[serde(rename_all = "camelCase")]
    ResizeTerminal {
        session_id: SessionId,
        rows: u16,
        cols: u16,
    },
}

fn after() -> Side {
    Side::After
}

/// Decodes a raw `{method, params}` value; a malformed one is a `BAD_REQUEST`.
///
/// # Errors
/// `BAD_REQUEST` with serde's explanation.
pub fn decode(raw: Value) -> Result<Request, WireError> {
    serde_json::from_value(raw).map_err(|e| WireError {
        code: "BAD_REQUEST",
        message: format!("malformed request: {e}"),
        data: None,
    })
}

/// Runs one request against an open project.
///
/// # Errors
/// The use case's error as a [`WireError`].
pub fn handle(deps: &Deps, request: Request) -> Result<Value, WireError> {
    run(deps, request).map_err(|e| e.to_wire())
}

fn to_value<T: serde::Serialize>(value: T) -> Result<Value, AppError> {
    serde_json::to_value(value).map_err(|e| AppError::Internal(e.to_string()))
}

fn run(deps: &Deps, request: Request) -> Result<Value, AppError> {
    use Request as R;
    match request {
        R::GetProject => to_value(idea_application::project::open(deps.store.as_ref())?),
        R::ListProfiles => to_value(
            json!({ "profiles": deps.profiles.profiles(), "problems": deps.profiles.problems() }),
        ),
        R::ListTemplates => to_value(templates::TEMPLATES),
        R::ListAgents => to_value(agents::list(deps)?),
        R::CreateAgent {
            name,
            profile_id,
            template,
        } => {
            let new = NewAgent { name, profile_id };
            to_value(match template {
                Some(t) => agents::create_from_template(deps, new, &t)?,
                None => agents::create_from_scratch(deps, new)?,
            })
        }
        R::ReadAgentContext { agent_id } => to_value(agents::read_context(deps, agent_id)?),
        R::UpdateAgentContext { agent_id, content } => {
            to_value(agents::update_context(deps, agent_id, &content)?)
        }
        R::DeleteAgent { agent_id } => to_value(agents::delete(deps, agent_id)?),
        R::GetLayouts => to_value(layouts::get(deps)?),
        R::CreateLayout { name } => to_value(layouts::create(deps, &name)?),
        R::RenameLayout { layout_id, name } => to_value(layouts::rename(deps, layout_id, &name)?),
        R::DeleteLayout { layout_id } => to_value(layouts::delete(deps, layout_id)?),
        R::SetActiveLayout { layout_id } => to_value(layouts::set_active(deps, layout_id)?),
        R::SplitCell {
            layout_id,
            node_id,
            direction,
        } => to_value(layouts::split(deps, layout_id, node_id, direction)?),
        R::CloseCell { layout_id, node_id } => to_value(layouts::close(deps, layout_id, node_id)?),
        R::MoveCell {
            layout_id,
            node_id,
            target_id,
            direction,
            side,
        } => to_value(layouts::move_cell(
            deps, layout_id, node_id, target_id, direction, side,
        )?),
        R::SwapCells { layout_id, a, b } => to_value(layouts::swap(deps, layout_id, a, b)?),
        R::ResizeSplit {
            layout_id,
            split_id,
            ratios,
        } => to_value(layouts::resize(deps, layout_id, split_id, ratios)?),
        R::AssignAgent {
            layout_id,
            node_id,
            agent_id,
        } => to_value(layouts::assign_agent(deps, layout_id, node_id, agent_id)?),
        R::LaunchAgent {
            layout_id,
            node_id,
            agent_id,
            rows,
            cols,
        } => {
            let size = TerminalSize { rows, cols };
            to_value(sessions::launch_agent(
                deps,
                LaunchAgent {
                    agent_id,
                    layout_id,
                    node_id,
                    size,
                },
            )?)
        }
        R::OpenShell {
            layout_id,
            node_id,
            rows,
            cols,
        } => to_value(sessions::open_shell(
            deps,
            layout_id,
            node_id,
            TerminalSize { rows, cols },
        )?),
        R::StopSession { session_id } => to_value(sessions::stop(deps, session_id)?),
        R::RestartSession {
            session_id,
            rows,
            cols,
        } => to_value(sessions::restart(
            deps,
            session_id,
            TerminalSize { rows, cols },
        )?),
        R::ListSessions => to_value(sessions::list(deps)),
        R::WriteTerminal { session_id, data } => {
            to_value(sessions::write(deps, session_id, data.as_bytes())?)
        }
        R::ResizeTerminal {
            session_id,
            rows,
            cols,
        } => to_value(sessions::resize(
            deps,
            session_id,
            TerminalSize { rows, cols },
        )?),
    }
}
