//! The agent manifest (`.ideai/agents.json`): the list of a project's agents.

use crate::agent::{Agent, AgentName};
use crate::ids::AgentId;
use serde::{Deserialize, Serialize};

/// Schema version written by this build; a file with a higher one is refused, not rewritten.
pub const MANIFEST_VERSION: u32 = 1;

/// Why the manifest refused a change or a loaded file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    #[error("an agent with id {0} already exists")]
    DuplicateId(AgentId),
    #[error("two agents use the persona file {0}")]
    DuplicateMdPath(String),
    #[error("an agent named \"{0}\" already exists")]
    DuplicateName(String),
    #[error("persona path \"{0}\" is not of the form agents/<slug>.md")]
    InvalidMdPath(String),
}

/// The project's agents, in creation order. Ids, names (case-insensitively) and persona paths
/// are unique.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct AgentManifest {
    pub version: u32,
    pub entries: Vec<Agent>,
}

impl Default for AgentManifest {
    fn default() -> Self {
        Self {
            version: MANIFEST_VERSION,
            entries: Vec::new(),
        }
    }
}

impl AgentManifest {
    /// Checks the invariants of a manifest read from disk.
    ///
    /// # Errors
    /// The first broken invariant.
    pub fn validate(&self) -> Result<(), ManifestError> {
        for (i, agent) in self.entries.iter().enumerate() {
            if !is_valid_md_path(&agent.md_path) {
                return Err(ManifestError::InvalidMdPath(agent.md_path.clone()));
            }
            for other in &self.entries[..i] {
                if other.agent_id == agent.agent_id {
                    return Err(ManifestError::DuplicateId(agent.agent_id));
                }
                if other.md_path == agent.md_path {
                    return Err(ManifestError::DuplicateMdPath(agent.md_path.clone()));
                }
                if same_name(&other.name, &agent.name) {
                    return Err(ManifestError::DuplicateName(agent.name.to_string()));
                }
            }
        }
        Ok(())
    }

    /// Adds an agent, keeping every invariant.
    ///
    /// # Errors
    /// When its id, name or persona path is taken, or the path is malformed.
    pub fn add(&mut self, agent: Agent) -> Result<(), ManifestError> {
        if !is_valid_md_path(&agent.md_path) {
            return Err(ManifestError::InvalidMdPath(agent.md_path));
        }
        if self.get(agent.agent_id).is_some() {
            return Err(ManifestError::DuplicateId(agent.agent_id));
        }
        if self.entries.iter().any(|a| a.md_path == agent.md_path) {
            return Err(ManifestError::DuplicateMdPath(agent.md_path));
        }
        if self.find_by_name(agent.name.as_str()).is_some() {
            return Err(ManifestError::DuplicateName(agent.name.to_string()));
        }
        self.entries.push(agent);
        Ok(())
    }

    /// Removes an agent and returns it.
    pub fn remove(&mut self, id: AgentId) -> Option<Agent> {
        let index = self.entries.iter().position(|a| a.agent_id == id)?;
        Some(self.entries.remove(index))
    }

    pub fn get(&self, id: AgentId) -> Option<&Agent> {
        self.entries.iter().find(|a| a.agent_id == id)
    }

    pub fn get_mut(&mut self, id: AgentId) -> Option<&mut Agent> {
        self.entries.iter_mut().find(|a| a.agent_id == id)
    }

    /// Finds an agent by name, ignoring case and surrounding blanks.
    pub fn find_by_name(&self, name: &str) -> Option<&Agent> {
        let wanted = name.trim().to_lowercase();
        self.entries
            .iter()
            .find(|a| a.name.as_str().to_lowercase() == wanted)
    }

    /// Finds an agent by its uuid or, failing that, by its name.
    pub fn find(&self, name_or_id: &str) -> Option<&Agent> {
        name_or_id
            .trim()
            .parse::<AgentId>()
            .ok()
            .and_then(|id| self.get(id))
            .or_else(|| self.find_by_name(name_or_id))
    }

    /// The first free `agents/<slug>.md`, `agents/<slug>-2.md`, `-3`… that no entry uses and
    /// that `is_taken` (e.g. an existing file kept from a deleted agent) does not reject.
    pub fn unique_md_path(&self, name: &AgentName, is_taken: impl Fn(&str) -> bool) -> String {
        let slug = name.slug();
        let used = |path: &str| self.entries.iter().any(|a| a.md_path == path) || is_taken(path);
        let first = format!("agents/{slug}.md");
        if !used(&first) {
            return first;
        }
        (2u32..)
            .map(|n| format!("agents/{slug}-{n}.md"))
            .find(|path| !used(path))
            .unwrap_or(first)
    }
}

fn same_name(a: &AgentName, b: &AgentName) -> bool {
    a.as_str().to_lowercase() == b.as_str().to_lowercase()
}

/// `agents/<slug>.md` with a slug of `[a-z0-9-]`: nothing a hand-edited manifest can use to
/// point outside `.ideai/agents/`.
pub fn is_valid_md_path(path: &str) -> bool {
    let Some(stem) = path
        .strip_prefix("agents/")
        .and_then(|p| p.strip_suffix(".md"))
    else {
        return false;
    };
    !stem.is_empty()
        && !stem.starts_with('-')
        && stem
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use crate::agent::AgentOrigin;
    use crate::profile::ProfileId;
    use uuid::Uuid;

    fn agent(n: u128, name: &str, md: &str) -> Agent {
        Agent {
            agent_id: AgentId(Uuid::from_u128(n)),
            name: AgentName::new(name).expect("valid name"),
            md_path: md.into(),
            profile_id: ProfileId::new("shell"),
            origin: AgentOrigin::Scratch,
            skills: vec![],
            on_limit: Default::default(),
            worktree: None,
        }
    }

    #[test]
    fn md_paths_get_numbered_suffixes() {
        let mut m = AgentManifest::default();
        let name = AgentName::new("Ada").expect("valid");
        assert_eq!(m.unique_md_path(&name, |_| false), "agents/ada.md");
        m.add(agent(1, "Ada", "agents/ada.md")).expect("added");
        assert_eq!(m.unique_md_path(&name, |_| false), "agents/ada-2.md");
        assert_eq!(
            m.unique_md_path(&name, |p| p == "agents/ada-2.md"),
            "agents/ada-3.md"
        );
    }

    #[test]
    fn duplicates_are_refused() {
        let mut m = AgentManifest::default();
        m.add(agent(1, "Ada", "agents/ada.md")).expect("added");
        assert_eq!(
            m.add(agent(1, "Bob", "agents/bob.md")),
            Err(ManifestError::DuplicateId(AgentId(Uuid::from_u128(1))))
        );
        assert_eq!(
            m.add(agent(2, "ADA", "agents/x.md")),
            Err(ManifestError::DuplicateName("ADA".into()))
        );
        assert_eq!(
            m.add(agent(2, "Bob", "agents/ada.md")),
            Err(ManifestError::DuplicateMdPath("agents/ada.md".into()))
        );
        assert_eq!(m.entries.len(), 1);
    }

    #[test]
    fn md_paths_cannot_escape_the_agents_folder() {
        for bad in [
            "../x.md",
            "agents/../x.md",
            "agents/a/b.md",
            "agents/.md",
            "agents/A.md",
            "/etc/x.md",
            "agents/x.txt",
        ] {
            assert!(!is_valid_md_path(bad), "{bad} accepted");
        }
        assert!(is_valid_md_path("agents/ada-2.md"));
    }

    #[test]
    fn find_by_id_or_name() {
        let mut m = AgentManifest::default();
        m.add(agent(1, "Ada", "agents/ada.md")).expect("added");
        assert!(m.find("ada").is_some());
        assert!(m.find(&Uuid::from_u128(1).to_string()).is_some());
        assert!(m.find("bob").is_none());
    }
}
