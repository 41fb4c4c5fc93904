//! Project tools: `<folder>/<name>/TOOL.json` (or `tool.json`) in the project's `.ideai/tools`
//! and the user's `~/.ideai/tools`.

use super::files;
use super::{FsKnowledgeStore, Place, relative_to};
use idea_domain::knowledge::ToolListing;
use idea_domain::project_tool::{ToolProblem, ToolSource, parse_tool_json};
use std::collections::BTreeSet;

pub(super) fn place(store: &FsKnowledgeStore, source: ToolSource) -> Option<Place> {
    match source {
        ToolSource::Project => store.base(true, ".ideai/tools", ""),
        ToolSource::User => store.base(false, "", "tools"),
    }
}

pub(super) fn list(store: &FsKnowledgeStore) -> ToolListing {
    let mut listing = ToolListing::default();
    let mut names = BTreeSet::new();
    for source in [ToolSource::Project, ToolSource::User] {
        let Some(place) = place(store, source) else {
            continue;
        };
        let (entries, problems) = files::entries(&place);
        let shown = |path: &std::path::Path| relative_to(&store.root, path);
        listing
            .problems
            .extend(problems.into_iter().map(|(path, reason)| ToolProblem {
                path: shown(&path),
                reason,
            }));
        for entry in entries.iter().filter(|e| e.is_dir) {
            let folder = place.join(&entry.name);
            let read = ["TOOL.json", "tool.json"].into_iter().find_map(|file| {
                let path = folder.dir.join(file);
                match files::read_text(&folder, &path) {
                    Ok(Some(text)) => Some((path, Ok(text))),
                    Ok(None) => None,
                    Err(e) => Some((path, Err(e.to_string()))),
                }
            });
            let Some((path, text)) = read else {
                continue;
            };
            let parsed = text.and_then(|text| parse_tool_json(&entry.name, &text, source));
            match parsed {
                Ok(tool) if names.contains(&tool.name) => {
                    let reason = match source {
                        ToolSource::Project => format!("another tool is named {}", tool.name),
                        ToolSource::User => {
                            format!("the project's tool {} is used instead", tool.name)
                        }
                    };
                    listing.problems.push(ToolProblem {
                        path: shown(&path),
                        reason,
                    });
                }
                Ok(tool) => {
                    names.insert(tool.name.clone());
                    listing.tools.push(tool);
                }
                Err(reason) => listing.problems.push(ToolProblem {
                    path: shown(&path),
                    reason,
                }),
            }
        }
    }
    listing
}
