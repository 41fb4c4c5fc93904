//! Two agents of different vendors ask each other through IdeA's MCP server, end to end:
//! `idea serve` owns the project; an ask of the Claude agent runs `fake-claude`, which starts
//! the `idea mcp-server` bridge from the `--mcp-config` file IdeA wrote and calls
//! `idea_ask_agent`; the owner runs the Codex agent's turn (`fake-codex`), whose answer comes
//! back as the tool result. And the other way: `fake-codex` starts the bridge from the
//! `-c mcp_servers.idea.*` overrides, with only Codex's default environment plus the `env`
//! IdeA gave it, as the real Codex does.
use crate::support::call_args;
use crate::support::served::serve_project;
use serde_json::{Value, json};

#[test]
fn a_claude_agent_and_a_codex_agent_ask_each_other_through_mcp() {
    let mut project = serve_project();
    let lead = project.agent("Lead", "fake-claude");
    let reviewer = project.agent("Reviewer", "fake-codex");

    let answer = project.ask("Lead", "ask Reviewer: check the parser");
    assert_eq!(answer, "Reviewer answered: echo: check the parser");
    let answer = project.ask("Reviewer", "ask Lead: summarise the plan");
    assert_eq!(answer, "Lead answered: echo: summarise the plan");

    // The requests as the owner saw them: the user asked each agent, and each agent asked the
    // other through MCP.
    let requests = project.wire.call("listRequests", json!(null));
    let by_mcp: Vec<(String, String)> = requests
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["source"] == "mcp")
        .map(|r| {
            assert_eq!(r["state"], "done", "{r}");
            (
                r["requester"].as_str().unwrap().to_owned(),
                r["target"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        by_mcp,
        [
            (lead.clone(), reviewer.clone()),
            (reviewer.clone(), lead.clone())
        ]
    );

    // Claude got a config file and IdeA's tools allowed; Codex got its overrides first.
    let claude = call_args(&project.calls("claude")[0]);
    let at = claude.iter().position(|a| a == "--mcp-config").unwrap();
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(&claude[at + 1]).unwrap()).unwrap();
    let server = &config["mcpServers"]["idea"];
    assert_eq!(server["args"][2], project.root.to_str().unwrap());
    assert_eq!(server["args"][4], lead.as_str());
    assert_eq!(claude[at + 2..at + 4], ["--allowedTools", "mcp__idea"]);
    let codex = call_args(&project.calls("codex")[0]);
    assert_eq!(codex[0], "-c");
    assert!(
        codex[1].starts_with("mcp_servers.idea.command="),
        "{codex:?}"
    );
    assert!(codex.contains(&"mcp_servers.idea.default_tools_approval_mode=\"approve\"".to_owned()));
}
