//! Layout use cases: named layouts (tabs) and the cells inside them. Every change is saved
//! at once and published as an event.

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::layout::{Direction, LayoutError, Layouts, NamedLayout, Side};
use idea_domain::{AgentId, CellRef, DomainEvent, LayoutId, NodeId};

/// Name of the layout a new project starts with.
pub const DEFAULT_LAYOUT_NAME: &str = "Main";

/// GetLayouts: the saved layouts, or a fresh one-cell layout (saved, so its ids stay stable).
///
/// # Errors
/// Store errors (a corrupt `layouts.json` is reported, never replaced).
pub fn get(deps: &Deps) -> AppResult<Layouts> {
    let _guard = deps.lock_state();
    load_or_create(deps)
}

fn load_or_create(deps: &Deps) -> AppResult<Layouts> {
    if let Some(layouts) = deps.store.load_layouts()? {
        return Ok(layouts);
    }
    let layouts = Layouts::new(
        LayoutId(deps.ids.new_uuid()),
        DEFAULT_LAYOUT_NAME,
        NodeId(deps.ids.new_uuid()),
    )?;
    deps.store.save_layouts(&layouts)?;
    Ok(layouts)
}

/// Applies `change` to the saved layouts, saves and publishes. Nothing is saved when the
/// change fails.
fn update<T>(
    deps: &Deps,
    change: impl FnOnce(&mut Layouts) -> Result<T, AppError>,
) -> AppResult<T> {
    let _guard = deps.lock_state();
    let mut layouts = load_or_create(deps)?;
    let out = change(&mut layouts)?;
    deps.store.save_layouts(&layouts)?;
    deps.publish(DomainEvent::LayoutsChanged {
        active: layouts.active,
    });
    Ok(out)
}

fn layout_mut(layouts: &mut Layouts, id: LayoutId) -> Result<&mut NamedLayout, LayoutError> {
    layouts.get_mut(id).ok_or(LayoutError::LayoutNotFound(id))
}

/// CreateLayout: a new named layout with one empty cell; it becomes the active one.
///
/// # Errors
/// `INVALID_LAYOUT_OPERATION` for a bad name, store errors.
pub fn create(deps: &Deps, name: &str) -> AppResult<NamedLayout> {
    let id = LayoutId(deps.ids.new_uuid());
    let leaf = NodeId(deps.ids.new_uuid());
    update(deps, |l| {
        l.create(id, name, leaf)?;
        l.set_active(id)?;
        l.get(id)
            .cloned()
            .ok_or_else(|| AppError::Internal("created layout vanished".into()))
    })
}

/// RenameLayout.
///
/// # Errors
/// `LAYOUT_NOT_FOUND`, a bad name, store errors.
pub fn rename(deps: &Deps, id: LayoutId, name: &str) -> AppResult<()> {
    update(deps, |l| Ok(l.rename(id, name)?))
}

/// DeleteLayout (its cells' terminals are stopped); the last one cannot be deleted.
///
/// # Errors
/// `LAYOUT_NOT_FOUND`, `INVALID_LAYOUT_OPERATION`, store errors.
pub fn delete(deps: &Deps, id: LayoutId) -> AppResult<()> {
    // Under the launch lock: a launch checks its cell and registers its session under it too,
    // so no session can start in a cell this removes after the sweep below.
    let _launching = deps.sessions.lock_launch();
    update(deps, |l| l.delete(id).map(drop).map_err(AppError::from))?;
    // The tab's terminals go with it.
    crate::sessions::stop_orphaned(deps)
}

/// SwitchLayout: makes `id` the active tab.
///
/// # Errors
/// `LAYOUT_NOT_FOUND`, store errors.
pub fn set_active(deps: &Deps, id: LayoutId) -> AppResult<()> {
    update(deps, |l| Ok(l.set_active(id)?))
}

/// SplitCell: `node` becomes two cells side by side (`Horizontal`) or stacked (`Vertical`);
/// returns the new empty cell's id.
///
/// # Errors
/// `LAYOUT_NOT_FOUND`, `NODE_NOT_FOUND`, store errors.
pub fn split(deps: &Deps, cell: CellRef, direction: Direction) -> AppResult<NodeId> {
    let new_leaf = NodeId(deps.ids.new_uuid());
    let new_split = NodeId(deps.ids.new_uuid());
    update(deps, |l| {
        layout_mut(l, cell.layout_id)?
            .tree
            .split(cell.node_id, direction, new_leaf, new_split)?;
        Ok(new_leaf)
    })
}

/// CloseCell: its sibling takes the space; the last cell cannot be closed.
///
/// # Errors
/// `LAYOUT_NOT_FOUND`, `NODE_NOT_FOUND`, `INVALID_LAYOUT_OPERATION`, store errors.
pub fn close(deps: &Deps, cell: CellRef) -> AppResult<()> {
    // Under the launch lock, as in `delete`.
    let _launching = deps.sessions.lock_launch();
    let closed = update(deps, |l| {
        layout_mut(l, cell.layout_id)?.tree.close(cell.node_id)?;
        Ok(())
    });
    // A closed cell's terminal goes with it.
    if closed.is_ok() {
        crate::sessions::stop_orphaned(deps)?;
    }
    closed
}

/// Where [`move_cell`] puts a cell: next to `target` in the same layout, on `side`
/// (before = left/above) of a split in `direction`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveCell {
    pub cell: CellRef,
    pub target: NodeId,
    pub direction: Direction,
    pub side: Side,
}

/// MoveCell: detaches a cell and puts it next to another. The cell keeps its id, so its
/// session stays with it.
///
/// # Errors
/// `LAYOUT_NOT_FOUND`, `NODE_NOT_FOUND`, `INVALID_LAYOUT_OPERATION`, store errors.
pub fn move_cell(deps: &Deps, request: MoveCell) -> AppResult<()> {
    let MoveCell {
        cell,
        target,
        direction,
        side,
    } = request;
    let new_split = NodeId(deps.ids.new_uuid());
    update(deps, |l| {
        Ok(layout_mut(l, cell.layout_id)?.tree.move_leaf_to(
            cell.node_id,
            target,
            direction,
            side,
            new_split,
        )?)
    })
}

/// SwapCells: exchanges what two cells show — agents, conversations and their terminal
/// sessions (a running agent keeps running, in its new cell).
///
/// # Errors
/// `LAYOUT_NOT_FOUND`, `NODE_NOT_FOUND`, store errors.
pub fn swap(deps: &Deps, layout: LayoutId, a: NodeId, b: NodeId) -> AppResult<()> {
    // The sessions move under the launch lock, so no launch sees a half-swapped pair.
    let _launching = deps.sessions.lock_launch();
    update(deps, |l| Ok(layout_mut(l, layout)?.tree.swap(a, b)?))?;
    for moved in deps.sessions.swap_cells(layout, a, b) {
        deps.publish(DomainEvent::SessionMoved {
            session_id: moved.session_id,
            cell: moved.cell,
        });
    }
    Ok(())
}

/// ResizeSplit: sets the ratios of a split's children (normalised).
///
/// # Errors
/// `LAYOUT_NOT_FOUND`, `NODE_NOT_FOUND`, `INVALID_LAYOUT_OPERATION`, store errors.
pub fn resize(deps: &Deps, layout: LayoutId, split: NodeId, ratios: Vec<f64>) -> AppResult<()> {
    update(deps, |l| {
        Ok(layout_mut(l, layout)?.tree.resize(split, ratios)?)
    })
}

/// AssignAgentToCell: puts an agent (or none) in a cell. The agent must exist.
///
/// # Errors
/// `AGENT_NOT_FOUND`, `LAYOUT_NOT_FOUND`, `NODE_NOT_FOUND`, store errors.
pub fn assign_agent(deps: &Deps, cell: CellRef, agent: Option<AgentId>) -> AppResult<()> {
    if let Some(id) = agent
        && deps.store.load_manifest()?.get(id).is_none()
    {
        return Err(AppError::AgentNotFound(id.to_string()));
    }
    update(deps, |l| {
        Ok(layout_mut(l, cell.layout_id)?
            .tree
            .assign_agent(cell.node_id, agent)?)
    })?;
    deps.publish(DomainEvent::CellAgentAssigned {
        layout_id: cell.layout_id,
        node_id: cell.node_id,
        agent_id: agent,
    });
    Ok(())
}
