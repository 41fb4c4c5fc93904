//! Editing operations on one layout tree.
//!
//! Each public operation either succeeds and leaves a tree that passes
//! [`LayoutTree::validate`], or fails and leaves the tree exactly as it was: the structural ones
//! work on a copy and commit it only on success (trees are a handful of nodes, so the copy is
//! cheaper than reasoning about half-applied edits).

use super::LayoutError;
use super::ratios::{normalise, normalise_resize};
use super::tree::{Direction, LayoutNode, LayoutTree, Leaf, MAX_LAYOUT_DEPTH, Side, Split};
use crate::ids::{AgentId, ConversationId, NodeId};

impl LayoutTree {
    /// Splits the cell `target`, putting a new empty cell `new_leaf_id` after it (right of it
    /// for [`Direction::Horizontal`], below it for [`Direction::Vertical`]).
    ///
    /// Same as [`Self::split_at`] with [`Side::After`].
    ///
    /// # Errors
    ///
    /// See [`Self::split_at`].
    pub fn split(
        &mut self,
        target: NodeId,
        direction: Direction,
        new_leaf_id: NodeId,
        new_split_id: NodeId,
    ) -> Result<(), LayoutError> {
        self.split_at(target, direction, Side::After, new_leaf_id, new_split_id)
    }

    /// Splits the cell `target`, putting a new empty cell `new_leaf_id` on `side` of it.
    ///
    /// - If `target`'s parent split already runs in `direction`, the new cell joins that parent
    ///   next to `target` and takes half of `target`'s share; `new_split_id` is **not used**
    ///   (so three side-by-side cells are one split, not nested ones).
    /// - Otherwise `target` is replaced by a new split `new_split_id` holding `target` and the
    ///   new cell with ratios `[0.5, 0.5]`.
    ///
    /// # Errors
    ///
    /// [`LayoutError::NodeNotFound`] / [`LayoutError::NotALeaf`] for `target`;
    /// [`LayoutError::DuplicateNode`] if a new id is already in the tree (or both new ids are
    /// equal and the split id is needed); [`LayoutError::InvalidRatios`] if `target` is already
    /// too small to halve; [`LayoutError::TooDeep`] if the new split would nest past
    /// [`super::MAX_LAYOUT_DEPTH`].
    pub fn split_at(
        &mut self,
        target: NodeId,
        direction: Direction,
        side: Side,
        new_leaf_id: NodeId,
        new_split_id: NodeId,
    ) -> Result<(), LayoutError> {
        self.transact(|tree| {
            tree.insert_beside(
                target,
                direction,
                side,
                Leaf::empty(new_leaf_id),
                new_split_id,
            )
        })
    }

    /// Removes the cell `leaf` and returns it (with its agent and conversation, so the caller
    /// can stop the session). Its siblings share its space in proportion to their sizes; a
    /// split left with one child is replaced by that child, and if that child is a split
    /// running the same way as the grandparent its children are merged into the grandparent.
    ///
    /// # Errors
    ///
    /// [`LayoutError::NodeNotFound`] / [`LayoutError::NotALeaf`] for `leaf`;
    /// [`LayoutError::LastCell`] if it is the only cell.
    pub fn close(&mut self, leaf: NodeId) -> Result<Leaf, LayoutError> {
        self.transact(|tree| tree.detach(leaf))
    }

    /// Moves the cell `leaf` (id and contents) next to the cell `target`, after it.
    ///
    /// Same as [`Self::move_leaf_to`] with [`Side::After`].
    ///
    /// # Errors
    ///
    /// See [`Self::move_leaf_to`].
    pub fn move_leaf(
        &mut self,
        leaf: NodeId,
        target: NodeId,
        direction: Direction,
        new_split_id: NodeId,
    ) -> Result<(), LayoutError> {
        self.move_leaf_to(leaf, target, direction, Side::After, new_split_id)
    }

    /// Moves the cell `leaf` (id and contents) to `side` of the cell `target`: detaches it as
    /// [`Self::close`] does, then inserts it as [`Self::split_at`] does (with the same rule for
    /// when `new_split_id` is used).
    ///
    /// # Errors
    ///
    /// [`LayoutError::NodeNotFound`] / [`LayoutError::NotALeaf`] for either id;
    /// [`LayoutError::SameNode`] if they are equal; [`LayoutError::DuplicateNode`] if
    /// `new_split_id` is needed and already in the tree; [`LayoutError::InvalidRatios`] if
    /// `target` is too small to halve; [`LayoutError::TooDeep`] as for [`Self::split_at`].
    pub fn move_leaf_to(
        &mut self,
        leaf: NodeId,
        target: NodeId,
        direction: Direction,
        side: Side,
        new_split_id: NodeId,
    ) -> Result<(), LayoutError> {
        self.leaf_path(leaf)?;
        self.leaf_path(target)?;
        if leaf == target {
            return Err(LayoutError::SameNode);
        }
        self.transact(|tree| {
            let moved = tree.detach(leaf)?;
            tree.insert_beside(target, direction, side, moved, new_split_id)
        })
    }

    /// Exchanges the contents (agent, conversation, engine session, running flag) of cells `a`
    /// and `b`. Ids and positions stay, so anything keyed by cell id keeps pointing at a place.
    ///
    /// # Errors
    ///
    /// [`LayoutError::NodeNotFound`] / [`LayoutError::NotALeaf`] for either id;
    /// [`LayoutError::SameNode`] if they are equal (a caller bug worth surfacing).
    pub fn swap(&mut self, a: NodeId, b: NodeId) -> Result<(), LayoutError> {
        let contents_a = self.leaf_ref(a)?.clone();
        let contents_b = self.leaf_ref(b)?.clone();
        if a == b {
            return Err(LayoutError::SameNode);
        }
        self.leaf_mut(a)?.set_contents_from(contents_b);
        self.leaf_mut(b)?.set_contents_from(contents_a);
        Ok(())
    }

    /// Sets the shares of the split `split_id`'s children. `ratios` (one per child, in child
    /// order) are normalised to sum to 1, so the caller may pass pixel sizes; after
    /// normalisation each must be at least [`super::MIN_RESIZE_RATIO`].
    ///
    /// # Errors
    ///
    /// [`LayoutError::NodeNotFound`] / [`LayoutError::NotASplit`] for `split_id`;
    /// [`LayoutError::InvalidRatios`] for a wrong count, a value that is not finite and
    /// positive, or a share below the minimum.
    pub fn resize(&mut self, split_id: NodeId, ratios: Vec<f64>) -> Result<(), LayoutError> {
        let split = self.split_mut(split_id)?;
        split.ratios = normalise_resize(ratios, split.children.len())?;
        Ok(())
    }

    /// Puts `agent` in the cell `leaf` (or empties it with `None`). When the agent changes, the
    /// conversation, engine session and running flag are cleared: they belonged to the old one.
    ///
    /// # Errors
    ///
    /// [`LayoutError::NodeNotFound`] / [`LayoutError::NotALeaf`] for `leaf`.
    pub fn assign_agent(
        &mut self,
        leaf: NodeId,
        agent: Option<AgentId>,
    ) -> Result<(), LayoutError> {
        let cell = self.leaf_mut(leaf)?;
        if cell.agent != agent {
            *cell = Leaf {
                agent,
                ..Leaf::empty(cell.id)
            };
        }
        Ok(())
    }

    /// Records the conversation and engine session the cell `leaf` is showing.
    ///
    /// # Errors
    ///
    /// [`LayoutError::NodeNotFound`] / [`LayoutError::NotALeaf`] for `leaf`.
    pub fn set_conversation(
        &mut self,
        leaf: NodeId,
        conversation_id: Option<ConversationId>,
        engine_session_id: Option<String>,
    ) -> Result<(), LayoutError> {
        let cell = self.leaf_mut(leaf)?;
        cell.conversation_id = conversation_id;
        cell.engine_session_id = engine_session_id;
        Ok(())
    }

    /// Records whether the agent in the cell `leaf` is running (saved so it can be resumed).
    ///
    /// # Errors
    ///
    /// [`LayoutError::NodeNotFound`] / [`LayoutError::NotALeaf`] for `leaf`.
    pub fn set_running(&mut self, leaf: NodeId, running: bool) -> Result<(), LayoutError> {
        self.leaf_mut(leaf)?.agent_was_running = running;
        Ok(())
    }

    /// Runs `edit` on a copy and keeps the copy only if it succeeded.
    fn transact<T>(
        &mut self,
        edit: impl FnOnce(&mut LayoutTree) -> Result<T, LayoutError>,
    ) -> Result<T, LayoutError> {
        let mut draft = self.clone();
        let value = edit(&mut draft)?;
        *self = draft;
        Ok(value)
    }

    /// The path to the cell `id`, distinguishing "absent" from "a split".
    fn leaf_path(&self, id: NodeId) -> Result<Vec<usize>, LayoutError> {
        let path = self.path_of(id).ok_or(LayoutError::NodeNotFound(id))?;
        match self.find(id) {
            Some(LayoutNode::Leaf(_)) => Ok(path),
            _ => Err(LayoutError::NotALeaf(id)),
        }
    }

    fn leaf_ref(&self, id: NodeId) -> Result<&Leaf, LayoutError> {
        match self.find(id) {
            Some(LayoutNode::Leaf(leaf)) => Ok(leaf),
            Some(LayoutNode::Split(_)) => Err(LayoutError::NotALeaf(id)),
            None => Err(LayoutError::NodeNotFound(id)),
        }
    }

    fn leaf_mut(&mut self, id: NodeId) -> Result<&mut Leaf, LayoutError> {
        match self.root.find_mut(id) {
            Some(LayoutNode::Leaf(leaf)) => Ok(leaf),
            Some(LayoutNode::Split(_)) => Err(LayoutError::NotALeaf(id)),
            None => Err(LayoutError::NodeNotFound(id)),
        }
    }

    fn split_mut(&mut self, id: NodeId) -> Result<&mut Split, LayoutError> {
        match self.root.find_mut(id) {
            Some(LayoutNode::Split(split)) => Ok(split),
            Some(LayoutNode::Leaf(_)) => Err(LayoutError::NotASplit(id)),
            None => Err(LayoutError::NodeNotFound(id)),
        }
    }

    /// The split at `path` (which must name a split).
    fn split_at_path_mut(&mut self, path: &[usize]) -> Result<&mut Split, LayoutError> {
        match self.node_at_mut(path) {
            Some(LayoutNode::Split(split)) => Ok(split),
            _ => Err(LayoutError::Malformed("lost track of a split".into())),
        }
    }

    /// Inserts `leaf` on `side` of the cell `target`; the rules are [`Self::split_at`]'s.
    /// Not transactional: callers go through [`Self::transact`].
    fn insert_beside(
        &mut self,
        target: NodeId,
        direction: Direction,
        side: Side,
        leaf: Leaf,
        new_split_id: NodeId,
    ) -> Result<(), LayoutError> {
        let path = self.leaf_path(target)?;
        if self.contains(leaf.id) {
            return Err(LayoutError::DuplicateNode(leaf.id));
        }
        if let Some((&index, parent_path)) = path.split_last() {
            let parent = self.split_at_path_mut(parent_path)?;
            if parent.direction == direction {
                return parent.insert_halving(index, side, leaf);
            }
        }
        if new_split_id == leaf.id || self.contains(new_split_id) {
            return Err(LayoutError::DuplicateNode(new_split_id));
        }
        let slot = self
            .node_at_mut(&path)
            .ok_or_else(|| LayoutError::Malformed("lost track of a cell".into()))?;
        // The placeholder is overwritten two lines down; it only lets us take `slot` by value.
        let old = std::mem::replace(slot, LayoutNode::Leaf(Leaf::empty(new_split_id)));
        let new = LayoutNode::Leaf(leaf);
        let children = match side {
            Side::Before => vec![new, old],
            Side::After => vec![old, new],
        };
        *slot = LayoutNode::Split(Split {
            id: new_split_id,
            direction,
            ratios: vec![0.5, 0.5],
            children,
        });
        // Checked on the result (callers roll back): only a nesting split can deepen the tree.
        if self.depth() > MAX_LAYOUT_DEPTH {
            return Err(LayoutError::TooDeep {
                max: MAX_LAYOUT_DEPTH,
            });
        }
        Ok(())
    }

    /// Removes the cell `id` and returns it; the rules are [`Self::close`]'s.
    /// Not transactional: callers go through [`Self::transact`].
    fn detach(&mut self, id: NodeId) -> Result<Leaf, LayoutError> {
        let path = self.leaf_path(id)?;
        let Some((&index, parent_path)) = path.split_last() else {
            return Err(LayoutError::LastCell);
        };
        let parent = self.split_at_path_mut(parent_path)?;
        if parent.ratios.len() != parent.children.len() || parent.children.len() < 2 {
            return Err(LayoutError::Malformed(format!(
                "split {} is malformed",
                parent.id
            )));
        }
        let removed = parent.children.remove(index);
        parent.ratios.remove(index);
        normalise(&mut parent.ratios);
        if parent.children.len() == 1
            && let Some(only) = parent.children.pop()
        {
            self.replace_collapsed(parent_path, only)?;
        }
        match removed {
            LayoutNode::Leaf(leaf) => Ok(leaf),
            LayoutNode::Split(split) => Err(LayoutError::NotALeaf(split.id)),
        }
    }

    /// Puts `only` (the last child of the split at `path`) in that split's place, merging it
    /// into the grandparent when both run the same way, so the tree stays free of nested
    /// same-direction splits (which [`Self::split_at`]'s "join the parent" rule relies on).
    fn replace_collapsed(&mut self, path: &[usize], only: LayoutNode) -> Result<(), LayoutError> {
        if let (LayoutNode::Split(inner), Some((&index, grand_path))) = (&only, path.split_last()) {
            let grandparent = self.split_at_path_mut(grand_path)?;
            if grandparent.direction == inner.direction {
                let share = grandparent.ratios.get(index).copied().unwrap_or(0.0);
                let scaled: Vec<f64> = inner.ratios.iter().map(|ratio| ratio * share).collect();
                let children = inner.children.clone();
                grandparent.ratios.splice(index..=index, scaled);
                grandparent.children.splice(index..=index, children);
                normalise(&mut grandparent.ratios);
                return Ok(());
            }
        }
        let slot = self
            .node_at_mut(path)
            .ok_or_else(|| LayoutError::Malformed("lost track of a split".into()))?;
        *slot = only;
        Ok(())
    }
}

impl Split {
    /// Inserts `leaf` on `side` of child `index`, giving it half of that child's share.
    fn insert_halving(&mut self, index: usize, side: Side, leaf: Leaf) -> Result<(), LayoutError> {
        if self.ratios.len() != self.children.len() {
            return Err(LayoutError::Malformed(format!(
                "split {} is malformed",
                self.id
            )));
        }
        let Some(share) = self.ratios.get_mut(index) else {
            return Err(LayoutError::Malformed(format!(
                "split {} is malformed",
                self.id
            )));
        };
        let half = *share / 2.0;
        // Halving is exact until the share underflows; refuse before it reaches 0.
        if !half.is_normal() {
            return Err(LayoutError::InvalidRatios(
                "the cell is too small to split".into(),
            ));
        }
        *share = half;
        let at = match side {
            Side::Before => index,
            Side::After => index + 1,
        };
        self.ratios.insert(at, half);
        self.children.insert(at, LayoutNode::Leaf(leaf));
        Ok(())
    }
}
