//! Named layouts (the tabs) and the `layouts.json` document that holds them.
//!
//! ```json
//! {"version":1,"active":"…","layouts":[{"id":"…","name":"Main","tree":{"type":"leaf","id":"…","agentWasRunning":false}}]}
//! ```

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::LayoutError;
use super::tree::{LayoutTree, Leaf};
use crate::agent::is_invisible_or_bidi;
use crate::ids::{AgentId, LayoutId, NodeId};

/// The `layouts.json` schema version this build reads and writes.
pub const LAYOUTS_VERSION: u32 = 1;

/// Longest layout name, in characters (a tab title has to fit).
pub const MAX_LAYOUT_NAME_CHARS: usize = 64;

/// Checks a layout name and returns it trimmed: 1 to [`MAX_LAYOUT_NAME_CHARS`] characters
/// after trimming, no control characters (they would break the tab bar and the JSON diff), and
/// nothing invisible or text-reordering (look-alike tab names; see
/// [`crate::agent::is_invisible_or_bidi`]).
///
/// # Errors
///
/// [`LayoutError::InvalidName`] saying which rule the name breaks.
pub fn layout_name(raw: &str) -> Result<String, LayoutError> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(LayoutError::InvalidName(
            "a layout name cannot be empty".into(),
        ));
    }
    if name.chars().count() > MAX_LAYOUT_NAME_CHARS {
        return Err(LayoutError::InvalidName(format!(
            "a layout name has at most {MAX_LAYOUT_NAME_CHARS} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(LayoutError::InvalidName(
            "a layout name cannot contain control characters".into(),
        ));
    }
    if let Some(c) = name.chars().find(|&c| is_invisible_or_bidi(c)) {
        return Err(LayoutError::InvalidName(format!(
            "a layout name cannot contain invisible or text-direction characters (U+{:04X})",
            u32::from(c)
        )));
    }
    Ok(name.to_owned())
}

/// One tab: a named layout tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct NamedLayout {
    /// Stable id of the tab.
    pub id: LayoutId,
    /// The tab title, already checked by [`layout_name`].
    pub name: String,
    /// The cells.
    pub tree: LayoutTree,
}

impl NamedLayout {
    /// A layout with one empty cell `leaf_id`.
    ///
    /// # Errors
    ///
    /// [`LayoutError::InvalidName`] if `name` breaks the naming rules.
    pub fn new(id: LayoutId, name: &str, leaf_id: NodeId) -> Result<Self, LayoutError> {
        Ok(Self {
            id,
            name: layout_name(name)?,
            tree: LayoutTree::single(leaf_id),
        })
    }
}

/// Every named layout of a project and which one is shown: the content of `layouts.json`.
///
/// Invariants (checked by [`Self::validate`], kept by every operation): at least one layout,
/// unique layout ids, `active` names one of them, valid names and trees. Layout names need not
/// be unique; ids identify tabs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Layouts {
    /// Schema version, [`LAYOUTS_VERSION`] when written by this build.
    pub version: u32,
    /// The layout shown.
    pub active: LayoutId,
    /// The tabs, in display order.
    pub layouts: Vec<NamedLayout>,
}

impl Layouts {
    /// A document with one active layout holding one empty cell.
    ///
    /// # Errors
    ///
    /// [`LayoutError::InvalidName`] if `name` breaks the naming rules.
    pub fn new(layout_id: LayoutId, name: &str, leaf_id: NodeId) -> Result<Self, LayoutError> {
        Ok(Self {
            version: LAYOUTS_VERSION,
            active: layout_id,
            layouts: vec![NamedLayout::new(layout_id, name, leaf_id)?],
        })
    }

    /// Parses and checks a `layouts.json` document. The version is read first, so a file from
    /// a newer IdeA is reported as such rather than as corrupt.
    ///
    /// # Errors
    ///
    /// [`LayoutError::UnsupportedVersion`] for another schema version, [`LayoutError::Malformed`]
    /// for anything else that is not a valid document.
    pub fn from_json(json: &str) -> Result<Self, LayoutError> {
        let value: serde_json::Value =
            serde_json::from_str(json).map_err(|err| LayoutError::Malformed(err.to_string()))?;
        if let Some(found) = value.get("version").and_then(serde_json::Value::as_u64)
            && found != u64::from(LAYOUTS_VERSION)
        {
            return Err(LayoutError::UnsupportedVersion {
                found,
                supported: LAYOUTS_VERSION,
            });
        }
        let layouts: Self =
            serde_json::from_value(value).map_err(|err| LayoutError::Malformed(err.to_string()))?;
        layouts.validate()?;
        Ok(layouts)
    }

    /// The document as pretty-printed JSON, refusing to produce a file [`Self::from_json`]
    /// would reject (better to fail the save than to corrupt the project).
    ///
    /// # Errors
    ///
    /// Whatever [`Self::validate`] reports.
    pub fn to_json(&self) -> Result<String, LayoutError> {
        self.validate()?;
        serde_json::to_string_pretty(self).map_err(|err| LayoutError::Malformed(err.to_string()))
    }

    /// Adds a layout with one empty cell `leaf_id` at the end of the tabs. The active layout
    /// does not change; call [`Self::set_active`] to show it.
    ///
    /// # Errors
    ///
    /// [`LayoutError::DuplicateLayout`] if `id` is taken, [`LayoutError::InvalidName`].
    pub fn create(&mut self, id: LayoutId, name: &str, leaf_id: NodeId) -> Result<(), LayoutError> {
        if self.get(id).is_some() {
            return Err(LayoutError::DuplicateLayout(id));
        }
        self.layouts.push(NamedLayout::new(id, name, leaf_id)?);
        Ok(())
    }

    /// Renames a layout (the name is trimmed).
    ///
    /// # Errors
    ///
    /// [`LayoutError::LayoutNotFound`], [`LayoutError::InvalidName`].
    pub fn rename(&mut self, id: LayoutId, name: &str) -> Result<(), LayoutError> {
        let name = layout_name(name)?;
        self.get_mut(id)
            .ok_or(LayoutError::LayoutNotFound(id))?
            .name = name;
        Ok(())
    }

    /// Removes a layout and returns it (so the caller can stop its cells' sessions). If it was
    /// the active one, the first remaining layout becomes active.
    ///
    /// # Errors
    ///
    /// [`LayoutError::LayoutNotFound`]; [`LayoutError::LastLayout`] if it is the only one.
    pub fn delete(&mut self, id: LayoutId) -> Result<NamedLayout, LayoutError> {
        let index = self
            .layouts
            .iter()
            .position(|layout| layout.id == id)
            .ok_or(LayoutError::LayoutNotFound(id))?;
        if self.layouts.len() == 1 {
            return Err(LayoutError::LastLayout);
        }
        let removed = self.layouts.remove(index);
        if self.active == id
            && let Some(first) = self.layouts.first()
        {
            self.active = first.id;
        }
        Ok(removed)
    }

    /// Shows the layout `id`.
    ///
    /// # Errors
    ///
    /// [`LayoutError::LayoutNotFound`].
    pub fn set_active(&mut self, id: LayoutId) -> Result<(), LayoutError> {
        if self.get(id).is_none() {
            return Err(LayoutError::LayoutNotFound(id));
        }
        self.active = id;
        Ok(())
    }

    /// The layout `id`.
    pub fn get(&self, id: LayoutId) -> Option<&NamedLayout> {
        self.layouts.iter().find(|layout| layout.id == id)
    }

    /// The layout `id`, mutably.
    pub fn get_mut(&mut self, id: LayoutId) -> Option<&mut NamedLayout> {
        self.layouts.iter_mut().find(|layout| layout.id == id)
    }

    /// The tree of layout `id`.
    ///
    /// # Errors
    ///
    /// [`LayoutError::LayoutNotFound`].
    pub fn tree(&self, id: LayoutId) -> Result<&LayoutTree, LayoutError> {
        self.get(id)
            .map(|layout| &layout.tree)
            .ok_or(LayoutError::LayoutNotFound(id))
    }

    /// The tree of layout `id`, mutably, so tree operations chain with `?`.
    ///
    /// # Errors
    ///
    /// [`LayoutError::LayoutNotFound`].
    pub fn tree_mut(&mut self, id: LayoutId) -> Result<&mut LayoutTree, LayoutError> {
        self.get_mut(id)
            .map(|layout| &mut layout.tree)
            .ok_or(LayoutError::LayoutNotFound(id))
    }

    /// The layout shown.
    ///
    /// # Errors
    ///
    /// [`LayoutError::LayoutNotFound`] only for a document that fails [`Self::validate`].
    pub fn active_layout(&self) -> Result<&NamedLayout, LayoutError> {
        self.get(self.active)
            .ok_or(LayoutError::LayoutNotFound(self.active))
    }

    /// The layout shown, mutably.
    ///
    /// # Errors
    ///
    /// [`LayoutError::LayoutNotFound`] only for a document that fails [`Self::validate`].
    pub fn active_layout_mut(&mut self) -> Result<&mut NamedLayout, LayoutError> {
        let active = self.active;
        self.get_mut(active)
            .ok_or(LayoutError::LayoutNotFound(active))
    }

    /// Every tree, mutably, in tab order (for edits that span layouts).
    pub fn trees_mut(&mut self) -> impl Iterator<Item = &mut LayoutTree> {
        self.layouts.iter_mut().map(|layout| &mut layout.tree)
    }

    /// Every cell showing `agent`, in every layout, mutably: e.g. to clear the running flag or
    /// record a new engine session wherever the agent is shown.
    pub fn leaves_of_agent_mut(&mut self, agent: AgentId) -> Vec<&mut Leaf> {
        self.trees_mut()
            .flat_map(LayoutTree::leaves_mut)
            .filter(|leaf| leaf.agent == Some(agent))
            .collect()
    }

    /// Where `agent` is shown: `(layout, cell)` pairs in tab order (for "go to cell").
    pub fn cells_of_agent(&self, agent: AgentId) -> Vec<(LayoutId, NodeId)> {
        self.layouts
            .iter()
            .flat_map(|layout| {
                layout
                    .tree
                    .agent_leaves(agent)
                    .into_iter()
                    .map(move |node| (layout.id, node))
            })
            .collect()
    }

    /// Checks the document: supported version, at least one layout, unique layout ids,
    /// `active` present, valid names and well-formed trees. A file failing this is corrupt and
    /// must be reported, not replaced.
    ///
    /// # Errors
    ///
    /// [`LayoutError::UnsupportedVersion`], [`LayoutError::DuplicateLayout`], or
    /// [`LayoutError::Malformed`] naming the offending layout.
    pub fn validate(&self) -> Result<(), LayoutError> {
        if self.version != LAYOUTS_VERSION {
            return Err(LayoutError::UnsupportedVersion {
                found: u64::from(self.version),
                supported: LAYOUTS_VERSION,
            });
        }
        if self.layouts.is_empty() {
            return Err(LayoutError::Malformed("there are no layouts".into()));
        }
        let mut seen = BTreeSet::new();
        for layout in &self.layouts {
            if !seen.insert(layout.id) {
                return Err(LayoutError::DuplicateLayout(layout.id));
            }
            let name_ok = layout_name(&layout.name).is_ok_and(|name| name == layout.name);
            if !name_ok {
                return Err(LayoutError::Malformed(format!(
                    "layout {} has an invalid name {:?}",
                    layout.id, layout.name
                )));
            }
            layout.tree.validate().map_err(|err| {
                LayoutError::Malformed(format!("layout {:?} ({}): {err}", layout.name, layout.id))
            })?;
        }
        if !seen.contains(&self.active) {
            return Err(LayoutError::Malformed(format!(
                "the active layout {} is not in the file",
                self.active
            )));
        }
        Ok(())
    }
}
