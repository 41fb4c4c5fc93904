//! What the run has learnt: ids to aim at.

use super::*;

#[derive(Default)]
pub(crate) struct Pool {
    pub(crate) layouts: Vec<String>,
    /// `(layoutId, nodeId)` of every leaf.
    pub(crate) leaves: Vec<(String, String)>,
    /// `(layoutId, splitId, children)`.
    pub(crate) splits: Vec<(String, String, usize)>,
    pub(crate) agents: Vec<String>,
    pub(crate) templates: Vec<String>,
    pub(crate) running: Vec<String>,
    pub(crate) exited: Vec<String>,
    pub(crate) requests: Vec<String>,
    /// Layouts changed since the last `getLayouts`.
    pub(crate) stale: bool,
}

pub(crate) fn push_unique(items: &mut Vec<String>, item: &str, cap: usize) {
    if !items.iter().any(|i| i == item) {
        items.push(item.to_owned());
    }
    if items.len() > cap {
        items.remove(0);
    }
}

impl Pool {
    pub(crate) fn walk(&mut self, layout: &str, node: &Value) {
        let Some(id) = node["id"].as_str() else {
            return;
        };
        match node["children"].as_array() {
            Some(children) => {
                self.splits
                    .push((layout.to_owned(), id.to_owned(), children.len()));
                for child in children {
                    self.walk(layout, child);
                }
            }
            None => self.leaves.push((layout.to_owned(), id.to_owned())),
        }
    }

    pub(crate) fn add_layout(&mut self, layout: &Value) {
        if let Some(id) = layout["id"].as_str() {
            push_unique(&mut self.layouts, id, 64);
            self.walk(id, &layout["tree"]);
        }
    }

    pub(crate) fn session(&mut self, info: &Value) {
        let Some(id) = info["sessionId"].as_str() else {
            return;
        };
        if info["status"] == "running" {
            push_unique(&mut self.running, id, 256);
        } else {
            self.running.retain(|s| s != id);
            push_unique(&mut self.exited, id, 32);
        }
    }

    pub(crate) fn exited(&mut self, id: &str) {
        self.running.retain(|s| s != id);
        push_unique(&mut self.exited, id, 32);
    }

    pub(crate) fn event(&mut self, event: &Value) {
        match event["type"].as_str() {
            Some("sessionStarted") => self.session(&event["session"]),
            Some("sessionExited") => {
                if let Some(id) = event["sessionId"].as_str() {
                    self.exited(id);
                }
            }
            Some("agentCreated") => {
                if let Some(id) = event["agentId"].as_str() {
                    push_unique(&mut self.agents, id, 64);
                }
            }
            Some("agentDeleted") => self
                .agents
                .retain(|a| Some(a.as_str()) != event["agentId"].as_str()),
            Some("layoutsChanged" | "cellAgentAssigned" | "sessionMoved") => self.stale = true,
            _ => {}
        }
    }

    /// Learns from a successful answer to `method(params)`.
    pub(crate) fn result(&mut self, method: &str, params: &Value, result: &Value) {
        match method {
            "getLayouts" => {
                if let Some(layouts) = result["layouts"].as_array() {
                    self.layouts.clear();
                    self.leaves.clear();
                    self.splits.clear();
                    for layout in layouts {
                        self.add_layout(layout);
                    }
                    self.stale = false;
                }
            }
            "createLayout" => self.add_layout(result),
            "splitCell" => {
                if let (Some(layout), Some(node)) = (params["layoutId"].as_str(), result.as_str()) {
                    self.leaves.push((layout.to_owned(), node.to_owned()));
                }
            }
            "closeCell" => {
                let node = params["nodeId"].as_str();
                self.leaves.retain(|(_, n)| Some(n.as_str()) != node);
            }
            "deleteLayout" => {
                let layout = params["layoutId"].as_str();
                self.layouts.retain(|l| Some(l.as_str()) != layout);
                self.leaves.retain(|(l, _)| Some(l.as_str()) != layout);
                self.splits.retain(|(l, _, _)| Some(l.as_str()) != layout);
            }
            "listAgents" => {
                if let Some(agents) = result.as_array() {
                    self.agents = agents
                        .iter()
                        .filter_map(|a| a["agentId"].as_str().map(str::to_owned))
                        .collect();
                }
            }
            "createAgent" => {
                if let Some(id) = result["agentId"].as_str() {
                    push_unique(&mut self.agents, id, 64);
                }
            }
            "deleteAgent" => {
                let id = result["agentId"].as_str();
                self.agents.retain(|a| Some(a.as_str()) != id);
            }
            "listTemplates" => {
                if let Some(templates) = result.as_array() {
                    self.templates = templates
                        .iter()
                        .filter_map(|t| t["id"].as_str().map(str::to_owned))
                        .collect();
                }
            }
            "openShell" | "launchAgent" | "restartSession" => self.session(result),
            "listRequests" => {
                if let Some(requests) = result.as_array() {
                    self.requests = requests
                        .iter()
                        .filter_map(|r| r["requestId"].as_str().map(str::to_owned))
                        .collect();
                }
            }
            "listSessions" => {
                if let Some(sessions) = result.as_array() {
                    self.running.clear();
                    for session in sessions {
                        self.session(session);
                    }
                }
            }
            _ => {}
        }
    }
}
