//! The agents as a delegating agent sees them: who they are and whether they run, from
//! `listAgents` and `listSessions`.

use idea_domain::terminal::{SessionInfo, SessionStatus};
use idea_domain::{Agent, AgentId, CellRef};
use serde::Serialize;

/// One agent in `idea_list_agents`' answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentView {
    pub name: String,
    pub id: AgentId,
    pub profile: String,
    /// `"running"`, `"exited"` or `"not started"`.
    pub state: &'static str,
    /// The cell that shows its terminal (`null` when none does).
    pub cell: Option<CellRef>,
    /// Its exit code when it `exited`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<u32>,
    /// Whether it is the agent calling the tool.
    pub you: bool,
}

/// Every agent with its live state: a running session wins over exited ones; among exited
/// sessions, the last one listed (the most recent) is shown.
pub fn views(agents: &[Agent], sessions: &[SessionInfo], requester: &str) -> Vec<AgentView> {
    let me = find(agents, requester).map(|a| a.agent_id);
    agents
        .iter()
        .map(|agent| {
            let own: Vec<&SessionInfo> = sessions
                .iter()
                .filter(|s| s.agent_id == Some(agent.agent_id))
                .collect();
            let session = own
                .iter()
                .find(|s| s.status == SessionStatus::Running)
                .or(own.last())
                .copied();
            let state = match session.map(|s| s.status) {
                Some(SessionStatus::Running) => "running",
                Some(_) => "exited",
                None => "not started",
            };
            AgentView {
                name: agent.name.as_str().to_owned(),
                id: agent.agent_id,
                profile: agent.profile_id.as_str().to_owned(),
                state,
                cell: session.and_then(|s| s.cell),
                exit_code: session
                    .filter(|s| s.status != SessionStatus::Running)
                    .and_then(|s| s.exit.as_ref())
                    .map(|e| e.code),
                you: me == Some(agent.agent_id),
            }
        })
        .collect()
}

/// The agent named or identified by `name_or_id`: its id first, else its name ignoring case
/// and surrounding blanks (the rule of `idea agent show`).
pub fn find<'a>(agents: &'a [Agent], name_or_id: &str) -> Option<&'a Agent> {
    let wanted = name_or_id.trim();
    if let Ok(id) = wanted.parse::<AgentId>()
        && let Some(agent) = agents.iter().find(|a| a.agent_id == id)
    {
        return Some(agent);
    }
    let wanted = wanted.to_lowercase();
    agents
        .iter()
        .find(|a| a.name.as_str().to_lowercase() == wanted)
}

/// A readable list of names, for "no such agent" answers.
pub fn names(agents: &[Agent]) -> String {
    if agents.is_empty() {
        return "this project has no agents yet".to_owned();
    }
    let names: Vec<&str> = agents.iter().map(|a| a.name.as_str()).collect();
    format!("its agents are: {}", names.join(", "))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const A: &str = "00000000-0000-4000-8000-00000000000a";
    const B: &str = "00000000-0000-4000-8000-00000000000b";
    const C: &str = "00000000-0000-4000-8000-00000000000c";
    const CELL: &str = "00000000-0000-4000-8000-0000000000ce";

    fn agent(id: &str, name: &str) -> Agent {
        serde_json::from_value(json!({
            "agentId": id, "name": name, "mdPath": "agents/x.md", "profileId": "shell",
            "origin": {"kind": "scratch"}, "skills": [],
        }))
        .unwrap()
    }

    fn session(agent: &str, running: bool, code: u32) -> SessionInfo {
        serde_json::from_value(json!({
            "sessionId": uuid::Uuid::new_v4(), "agentId": agent,
            "cell": if running { json!({"layoutId": CELL, "nodeId": CELL}) } else { Value::Null },
            "pid": null, "status": if running { "running" } else { "exited" },
            "exit": if running { Value::Null } else { json!({"code": code, "stopped": false}) },
            "conversationId": null, "engineSessionId": null,
            "state": if running { "working" } else { "exited" }, "stateSource": "start",
        }))
        .unwrap()
    }

    #[test]
    fn each_agent_gets_its_live_state_and_the_requester_is_marked() {
        let agents = [agent(A, "Ada"), agent(B, "Bob"), agent(C, "Cy")];
        let sessions = [
            session(A, false, 1),
            session(A, true, 0),
            session(B, false, 1),
            session(B, false, 0),
        ];
        let views = views(&agents, &sessions, " bob ");
        let states: Vec<_> = views
            .iter()
            .map(|v| (v.state, v.exit_code, v.you))
            .collect();
        assert_eq!(
            states,
            [
                ("running", None, false),
                ("exited", Some(0), true),
                ("not started", None, false)
            ]
        );
        assert!(views[0].cell.is_some() && views[1].cell.is_none());
    }

    #[test]
    fn an_agent_is_found_by_id_then_by_name_in_any_case() {
        let agents = [agent(A, "Ada"), agent(B, "Bob")];
        assert_eq!(find(&agents, B).map(|a| a.name.as_str()), Some("Bob"));
        assert_eq!(
            find(&agents, "  ADA ").map(|a| a.name.as_str()),
            Some("Ada")
        );
        assert!(find(&agents, "Eve").is_none());
        assert_eq!(names(&agents), "its agents are: Ada, Bob");
        assert_eq!(names(&[]), "this project has no agents yet");
    }
}
