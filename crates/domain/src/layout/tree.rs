//! The layout tree's node types, its read-only queries and its well-formedness rules.
//!
//! JSON shape (as stored in `layouts.json`; a tree serialises as its root node):
//!
//! ```json
//! {"type":"split","id":"…","direction":"horizontal","ratios":[0.5,0.5],"children":[
//!   {"type":"leaf","id":"…","agent":"…","conversationId":"…","engineSessionId":"…","agentWasRunning":true},
//!   {"type":"leaf","id":"…","agentWasRunning":false}]}
//! ```

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::LayoutError;
use super::ratios;
use crate::ids::{AgentId, ConversationId, NodeId};

/// How many splits may nest from a layout's root to its deepest cell.
///
/// Only splits across their parent's direction nest (a split along it joins the parent), so
/// 16 levels already halve a cell 8 times each way, to 1/256 of the window's width and height:
/// far past a usable cell, yet well inside what `layouts.json`'s reader accepts (each level
/// nests the JSON two deeper; serde_json stops at 128, about 62 levels).
pub const MAX_LAYOUT_DEPTH: usize = 16;

/// How a split lays out its children.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum Direction {
    /// Children side by side, first on the left.
    Horizontal,
    /// Children stacked, first on top.
    Vertical,
}

/// Which side of a target cell a new or moved cell goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum Side {
    /// Left of the target (horizontal) or above it (vertical).
    Before,
    /// Right of the target (horizontal) or below it (vertical).
    After,
}

/// A cell: the place an agent is shown, and what is needed to bring it back after a restart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Leaf {
    /// The cell's id, stable for the cell's whole life (moves and swaps keep it).
    pub id: NodeId,
    /// The agent shown in this cell, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentId>,
    /// The conversation the cell was showing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<ConversationId>,
    /// The CLI's own session id, used to resume the same engine session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_session_id: Option<String>,
    /// Whether the agent was running when the layout was last saved (offer to resume it).
    #[serde(default)]
    pub agent_was_running: bool,
}

impl Leaf {
    /// A cell with no agent.
    pub const fn empty(id: NodeId) -> Self {
        Self {
            id,
            agent: None,
            conversation_id: None,
            engine_session_id: None,
            agent_was_running: false,
        }
    }

    /// Copies everything but the id from `other`: a swap moves contents, never cells.
    pub(super) fn set_contents_from(&mut self, other: Leaf) {
        self.agent = other.agent;
        self.conversation_id = other.conversation_id;
        self.engine_session_id = other.engine_session_id;
        self.agent_was_running = other.agent_was_running;
    }
}

/// A node dividing its space between two or more children.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Split {
    /// The split's id (what [`LayoutTree::resize`] addresses).
    pub id: NodeId,
    /// Side by side or stacked.
    pub direction: Direction,
    /// Each child's share of the space, in child order; positive, summing to 1.
    pub ratios: Vec<f64>,
    /// At least two children.
    pub children: Vec<LayoutNode>,
}

/// A node of the layout tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum LayoutNode {
    /// An inner node.
    Split(Split),
    /// A cell.
    Leaf(Leaf),
}

impl LayoutNode {
    /// The node's id, whatever its kind.
    pub const fn id(&self) -> NodeId {
        match self {
            Self::Split(split) => split.id,
            Self::Leaf(leaf) => leaf.id,
        }
    }

    /// The node as a cell, if it is one.
    pub const fn as_leaf(&self) -> Option<&Leaf> {
        match self {
            Self::Leaf(leaf) => Some(leaf),
            Self::Split(_) => None,
        }
    }

    /// The node as a split, if it is one.
    pub const fn as_split(&self) -> Option<&Split> {
        match self {
            Self::Split(split) => Some(split),
            Self::Leaf(_) => None,
        }
    }

    fn find(&self, id: NodeId) -> Option<&LayoutNode> {
        if self.id() == id {
            return Some(self);
        }
        match self {
            Self::Split(split) => split.children.iter().find_map(|child| child.find(id)),
            Self::Leaf(_) => None,
        }
    }

    pub(super) fn find_mut(&mut self, id: NodeId) -> Option<&mut LayoutNode> {
        if self.id() == id {
            return Some(self);
        }
        match self {
            Self::Split(split) => split
                .children
                .iter_mut()
                .find_map(|child| child.find_mut(id)),
            Self::Leaf(_) => None,
        }
    }

    /// Appends the indices leading from `self` to `id`; false (and `path` unchanged) if absent.
    fn path_to(&self, id: NodeId, path: &mut Vec<usize>) -> bool {
        if self.id() == id {
            return true;
        }
        if let Self::Split(split) = self {
            for (index, child) in split.children.iter().enumerate() {
                path.push(index);
                if child.path_to(id, path) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }

    fn for_each<'a>(&'a self, visit: &mut impl FnMut(&'a LayoutNode)) {
        visit(self);
        if let Self::Split(split) = self {
            for child in &split.children {
                child.for_each(visit);
            }
        }
    }

    /// Splits on the longest path from this node down to a cell.
    fn depth(&self) -> usize {
        match self {
            Self::Leaf(_) => 0,
            Self::Split(split) => 1 + split.children.iter().map(Self::depth).max().unwrap_or(0),
        }
    }

    fn collect_leaves_mut<'a>(&'a mut self, out: &mut Vec<&'a mut Leaf>) {
        match self {
            Self::Leaf(leaf) => out.push(leaf),
            Self::Split(split) => {
                for child in &mut split.children {
                    child.collect_leaves_mut(out);
                }
            }
        }
    }
}

/// One layout: a tree of splits whose leaves are the cells. Never empty.
///
/// Node ids are unique within a tree. Serialises as its root node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, as = "LayoutNode"))]
#[serde(transparent)]
pub struct LayoutTree {
    /// The root: a single cell, or a split.
    pub root: LayoutNode,
}

impl LayoutTree {
    /// A layout made of one empty cell.
    pub const fn single(leaf_id: NodeId) -> Self {
        Self {
            root: LayoutNode::Leaf(Leaf::empty(leaf_id)),
        }
    }

    /// The cells, left to right and top to bottom (depth first, children in order).
    pub fn leaves(&self) -> Vec<&Leaf> {
        let mut leaves = Vec::new();
        self.root
            .for_each(&mut |node| leaves.extend(node.as_leaf()));
        leaves
    }

    /// The cells, mutably, in the same order as [`Self::leaves`].
    ///
    /// Changing a leaf's `id` through this breaks the tree's invariants; edit contents only.
    pub fn leaves_mut(&mut self) -> Vec<&mut Leaf> {
        let mut leaves = Vec::new();
        self.root.collect_leaves_mut(&mut leaves);
        leaves
    }

    /// How many cells the layout has.
    pub fn leaf_count(&self) -> usize {
        self.leaves().len()
    }

    /// The cell with this id, if there is one (a split's id gives `None`).
    pub fn leaf(&self, id: NodeId) -> Option<&Leaf> {
        self.find(id).and_then(LayoutNode::as_leaf)
    }

    /// The node (split or cell) with this id.
    pub fn find(&self, id: NodeId) -> Option<&LayoutNode> {
        self.root.find(id)
    }

    /// Whether any node has this id.
    pub fn contains(&self, id: NodeId) -> bool {
        self.find(id).is_some()
    }

    /// The cells showing `agent`, in [`Self::leaves`] order.
    pub fn agent_leaves(&self, agent: AgentId) -> Vec<NodeId> {
        self.leaves()
            .into_iter()
            .filter(|leaf| leaf.agent == Some(agent))
            .map(|leaf| leaf.id)
            .collect()
    }

    /// How many splits nest on the longest path from the root to a cell (0 for one cell); at
    /// most [`MAX_LAYOUT_DEPTH`] in a valid tree.
    pub fn depth(&self) -> usize {
        self.root.depth()
    }

    /// Every node id (splits and cells), depth first, parents before children.
    pub fn node_ids(&self) -> Vec<NodeId> {
        let mut ids = Vec::new();
        self.root.for_each(&mut |node| ids.push(node.id()));
        ids
    }

    /// Checks the tree is well formed: at most [`MAX_LAYOUT_DEPTH`] nested splits, unique node
    /// ids, every split has at least two children and one ratio per child, every ratio finite
    /// and positive, ratios summing to 1 (within [`super::RATIO_SUM_TOLERANCE`]). Used on trees
    /// read from disk, which nothing else checked.
    ///
    /// # Errors
    ///
    /// [`LayoutError::DuplicateNode`], [`LayoutError::Malformed`] or
    /// [`LayoutError::InvalidRatios`] naming the first offending node.
    pub fn validate(&self) -> Result<(), LayoutError> {
        let depth = self.depth();
        if depth > MAX_LAYOUT_DEPTH {
            return Err(LayoutError::Malformed(format!(
                "splits nest {depth} deep, more than the {MAX_LAYOUT_DEPTH} IdeA allows"
            )));
        }
        let mut seen = BTreeSet::new();
        let mut result = Ok(());
        self.root.for_each(&mut |node| {
            if result.is_ok() {
                result = validate_node(node, &mut seen);
            }
        });
        result
    }

    /// The indices from the root to the node `id`.
    pub(super) fn path_of(&self, id: NodeId) -> Option<Vec<usize>> {
        let mut path = Vec::new();
        self.root.path_to(id, &mut path).then_some(path)
    }

    /// The node at `path`, as returned by [`Self::path_of`].
    pub(super) fn node_at_mut(&mut self, path: &[usize]) -> Option<&mut LayoutNode> {
        let mut node = &mut self.root;
        for &index in path {
            node = match node {
                LayoutNode::Split(split) => split.children.get_mut(index)?,
                LayoutNode::Leaf(_) => return None,
            };
        }
        Some(node)
    }
}

fn validate_node(node: &LayoutNode, seen: &mut BTreeSet<NodeId>) -> Result<(), LayoutError> {
    if !seen.insert(node.id()) {
        return Err(LayoutError::DuplicateNode(node.id()));
    }
    let LayoutNode::Split(split) = node else {
        return Ok(());
    };
    if split.children.len() < 2 {
        return Err(LayoutError::Malformed(format!(
            "split {} has {} child(ren); a split needs at least 2",
            split.id,
            split.children.len()
        )));
    }
    ratios::check_stored(&split.ratios, split.children.len())
        .map_err(|why| LayoutError::InvalidRatios(format!("split {}: {why}", split.id)))
}
