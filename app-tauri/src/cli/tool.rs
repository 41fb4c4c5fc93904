//! `idea tool …`: the project's tools (`.ideai/tools/<name>/TOOL.json`), served to every
//! agent over MCP; listed and run by hand here.

use super::skill::call;
use super::{Failure, print_json};
use clap::Subcommand;
use idea_application::knowledge::tools::{ToolCallResult, ToolsView};
use serde_json::json;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum ToolCommand {
    /// Every project tool (.ideai/tools and ~/.ideai/tools) with its parameters; broken
    /// definitions with the reason.
    List {
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Run a tool as you (no rule asks; it runs unsandboxed, as you do): its output, and its
    /// exit status as this command's.
    Run {
        name: String,
        /// The arguments, as a JSON object: --args '{"path": "src"}'.
        #[arg(long, default_value = "{}")]
        args: String,
        #[arg(long, default_value = ".")]
        project: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: ToolCommand) -> Result<(), Failure> {
    match command {
        ToolCommand::List { project, json } => {
            let view: ToolsView = call(&project, "listTools", json!(null))?;
            if json {
                return print_json(&view);
            }
            if view.listing.tools.is_empty() && view.listing.problems.is_empty() {
                println!("No project tool: write .ideai/tools/NAME/TOOL.json");
            }
            for tool in &view.listing.tools {
                let params: Vec<String> = tool
                    .params
                    .iter()
                    .map(|p| match &p.default {
                        Some(default) => format!("{}={default}", p.name),
                        None => p.name.clone(),
                    })
                    .collect();
                println!("{}({}): {}", tool.name, params.join(", "), tool.description);
            }
            for problem in &view.listing.problems {
                println!("skipped {}: {}", problem.path, problem.reason);
            }
            Ok(())
        }
        ToolCommand::Run {
            name,
            args,
            project,
            json,
        } => {
            let arguments: serde_json::Value = serde_json::from_str(&args)
                .map_err(|e| Failure::User(format!("--args is not JSON: {e}")))?;
            if !arguments.is_object() {
                return Err(Failure::User("--args must be a JSON object".into()));
            }
            let params = json!({ "tool": name, "arguments": arguments });
            let result: ToolCallResult = call(&project, "callTool", params)?;
            if json {
                print_json(&result)?;
            } else {
                print!("{}", result.stdout);
                eprint!("{}", result.stderr);
                if result.timed_out {
                    eprintln!("idea: {name} was stopped after 2 minutes");
                }
            }
            if result.ok {
                Ok(())
            } else {
                let code = result
                    .exit_code
                    .and_then(|c| u8::try_from(c).ok())
                    .filter(|c| *c != 0)
                    .unwrap_or(1);
                Err(Failure::Status(code, String::new()))
            }
        }
    }
}
