//! `idea agent …`

use super::{Failure, print_json};
use crate::compose::open_project;
use clap::Subcommand;
use idea_application::agents::{self, NewAgent};
use idea_domain::{AgentOrigin, ProfileId};
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
            let open = open_project(&project)?;
            let new = NewAgent {
                name,
                profile_id: ProfileId::new(profile),
            };
            let agent = match template {
                Some(t) => agents::create_from_template(&open.deps, new, &t)?,
                None => agents::create_from_scratch(&open.deps, new)?,
            };
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
            let removed = agents::delete(&open.deps, found.agent_id)?;
            println!(
                "Deleted {} ({}); its persona .ideai/{} was kept",
                removed.name, removed.agent_id, removed.md_path
            );
            Ok(())
        }
    }
}
