//! `idea skill …`: skills written once and delivered to every agent's CLI
//! (`docs/skills-memory-tools.md`).

use super::{Failure, print_json};
use crate::compose::OPENER;
use clap::Subcommand;
use idea_domain::Agent;
use idea_domain::knowledge::SkillListing;
use idea_domain::skill::{Skill, SkillSource};
use idea_server::owner::client;
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Debug, Subcommand)]
pub enum SkillCommand {
    /// Every skill: the project's (.ideai/skills), yours (~/.ideai/skills), and the ones found
    /// in the project's .claude/skills and .agents/skills; broken ones with the reason.
    List {
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// One skill: its description, files and instructions.
    Show {
        name: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Write a new skill (.ideai/skills/NAME/SKILL.md, or ~/.ideai/skills with --user).
    Create {
        /// Lowercase letters, digits and -, as the folder is named.
        name: String,
        /// What it does and when to use it (at most 1,024 characters).
        #[arg(long, short)]
        description: String,
        /// The instructions (Markdown); read from FILE with --body-file.
        #[arg(long, conflicts_with = "body_file")]
        body: Option<String>,
        #[arg(long, value_name = "FILE")]
        body_file: Option<PathBuf>,
        /// In your own ~/.ideai/skills, for every project.
        #[arg(long)]
        user: bool,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Give an agent a skill (after its others); its CLI gets it at its next launch or ask.
    Assign {
        agent: String,
        skill: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Take a skill from an agent.
    Unassign {
        agent: String,
        skill: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Copy a skill found in .claude/skills or .agents/skills into .ideai/skills, so any agent
    /// can be given it.
    Adopt {
        name: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: SkillCommand) -> Result<(), Failure> {
    match command {
        SkillCommand::List { project, json } => {
            let listing: SkillListing = call(&project, "listSkills", json!(null))?;
            if json {
                return print_json(&listing);
            }
            if listing.skills.is_empty() && listing.problems.is_empty() {
                println!("No skill yet: idea skill create NAME --description \"…\"");
            }
            for skill in &listing.skills {
                println!(
                    "{} ({}): {}",
                    skill.name,
                    skill.source.folder(),
                    skill.description
                );
            }
            for problem in &listing.problems {
                println!("skipped {}: {}", problem.path, problem.reason);
            }
            Ok(())
        }
        SkillCommand::Show {
            name,
            project,
            json,
        } => {
            let skill: Skill = call(&project, "showSkill", json!({ "name": name }))?;
            if json {
                return print_json(&skill);
            }
            println!(
                "{} ({})\n\n{}\n",
                skill.name,
                skill.source.folder(),
                skill.description
            );
            for file in &skill.files {
                println!("  {file}");
            }
            for warning in &skill.warnings {
                println!("warning: {warning}");
            }
            println!("{}", skill.body);
            Ok(())
        }
        SkillCommand::Create {
            name,
            description,
            body,
            body_file,
            user,
            project,
            json,
        } => {
            let body = match body_file {
                Some(file) => std::fs::read_to_string(&file)
                    .map_err(|e| Failure::User(format!("cannot read {}: {e}", file.display())))?,
                None => body.unwrap_or_default(),
            };
            let params = json!({
                "scope": if user { "user" } else { "project" },
                "name": name, "description": description, "body": body,
            });
            let skill: Skill = call(&project, "createSkill", params)?;
            if json {
                return print_json(&skill);
            }
            println!("Created {} in {}", skill.name, skill.source.folder());
            Ok(())
        }
        SkillCommand::Assign {
            agent,
            skill,
            project,
            json,
        } => assignment(&project, "assignSkill", &agent, &skill, json),
        SkillCommand::Unassign {
            agent,
            skill,
            project,
            json,
        } => assignment(&project, "unassignSkill", &agent, &skill, json),
        SkillCommand::Adopt {
            name,
            project,
            json,
        } => {
            let listing: SkillListing = call(&project, "listSkills", json!(null))?;
            let found = listing
                .skills
                .iter()
                .find(|s| s.name == name && s.source.scope().is_none())
                .map(|s| s.source)
                .unwrap_or(SkillSource::ClaudeFolder);
            let skill: Skill = call(
                &project,
                "adoptSkill",
                json!({ "source": found, "name": name }),
            )?;
            if json {
                return print_json(&skill);
            }
            println!("Adopted {} into .ideai/skills", skill.name);
            Ok(())
        }
    }
}

fn assignment(
    project: &Path,
    method: &str,
    agent: &str,
    skill: &str,
    json: bool,
) -> Result<(), Failure> {
    let agent: Agent = call(project, method, json!({ "agent": agent, "skill": skill }))?;
    if json {
        return print_json(&agent);
    }
    let skills: Vec<&str> = agent.skills.iter().map(|r| r.skill_id.as_str()).collect();
    if skills.is_empty() {
        println!("{} has no skill", agent.name);
    } else {
        println!("{}'s skills: {}", agent.name, skills.join(", "));
    }
    Ok(())
}

pub(super) fn call<T: serde::de::DeserializeOwned>(
    project: &Path,
    method: &str,
    params: serde_json::Value,
) -> Result<T, Failure> {
    let value = client::call(project, method, params, &OPENER)?;
    serde_json::from_value(value).map_err(|e| Failure::Internal(e.into()))
}
