//! `idea agent …`

use super::{Failure, print_json};
use crate::compose::{OPENER, open_project};
use clap::Subcommand;
use idea_application::agents;
use idea_domain::{Agent, AgentOrigin};
use idea_server::owner::client;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum AgentCommand {
    /// Create an agent (empty persona, or from a template: architect, implementer, reviewer, tester).
    Create {
        #[arg(long)]
        name: String,
        #[arg(long)]
        profile: String,
        #[arg(long)]
        template: Option<String>,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// List the project's agents.
    List {
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Show one agent (by name or id) and its persona.
    Show {
        agent: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Delete an agent (by name or id); its persona file is kept.
    Delete {
        agent: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
    },
}

pub fn run(command: AgentCommand) -> Result<(), Failure> {
    match command {
        AgentCommand::Create {
            name,
            profile,
            template,
            project,
            json,
        } => {
            // Through the project's owner when one runs, so its open windows show the agent.
            let params =
                serde_json::json!({ "name": name, "profileId": profile, "template": template });
            let agent: Agent = decode(client::call(&project, "createAgent", params, &OPENER)?)?;
            if json {
                print_json(&agent)
            } else {
                println!(
                    "Created {} ({}) — persona: .ideai/{}",
                    agent.name, agent.agent_id, agent.md_path
                );
                Ok(())
            }
        }
        AgentCommand::List { project, json } => {
            let open = open_project(&project)?;
            let list = agents::list(&open.deps)?;
            if json {
                return print_json(&list);
            }
            if list.is_empty() {
                println!("No agents yet: idea agent create --name NAME --profile ID");
            }
            for agent in list {
                println!(
                    "{:<24} {:<12} {}  .ideai/{}",
                    agent.name.as_str(),
                    agent.profile_id.as_str(),
                    agent.agent_id,
                    agent.md_path
                );
            }
            Ok(())
        }
        AgentCommand::Show {
            agent,
            project,
            json,
        } => {
            let open = open_project(&project)?;
            let found = agents::find(&open.deps, &agent)?;
            let persona = agents::read_context(&open.deps, found.agent_id)?;
            if json {
                let mut value =
                    serde_json::to_value(&found).map_err(|e| Failure::Internal(e.into()))?;
                value["persona"] = serde_json::Value::String(persona);
                return print_json(&value);
            }
            let origin = match &found.origin {
                AgentOrigin::Scratch => "scratch".to_owned(),
                AgentOrigin::Template { template } => format!("template {template}"),
            };
            println!(
                "name:    {}\nid:      {}\nprofile: {}\norigin:  {origin}\npersona: .ideai/{}\n",
                found.name, found.agent_id, found.profile_id, found.md_path
            );
            print!("{persona}");
            Ok(())
        }
        AgentCommand::Delete { agent, project } => {
            let open = open_project(&project)?;
            let found = agents::find(&open.deps, &agent)?;
            let params = serde_json::json!({ "agentId": found.agent_id });
            let removed: Agent = decode(client::call(&project, "deleteAgent", params, &OPENER)?)?;
            println!(
                "Deleted {} ({}); its persona .ideai/{} was kept",
                removed.name, removed.agent_id, removed.md_path
            );
            Ok(())
        }
    }
}

/// A request's result as its Rust type.
fn decode<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, Failure> {
    serde_json::from_value(value).map_err(|e| Failure::Internal(e.into()))
}
