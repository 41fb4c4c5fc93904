use crate::support::world;
use idea_application::agents::{self, NewAgent};
use idea_application::layouts;
use idea_application::layouts::MoveCell;
use idea_domain::CellRef;
use idea_domain::layout::Direction;
use idea_domain::{DomainEvent, LayoutId, NodeId, ProfileId};
use uuid::Uuid;

#[test]
fn get_creates_one_saved_layout_with_stable_ids() {
    let w = world();
    let first = layouts::get(&w.deps).unwrap();
    assert_eq!(first.layouts.len(), 1);
    assert_eq!(first.layouts[0].name, layouts::DEFAULT_LAYOUT_NAME);
    assert_eq!(
        layouts::get(&w.deps).unwrap(),
        first,
        "ids must not change between calls"
    );
}

#[test]
fn split_assign_close_round_trip() {
    let w = world();
    let l = layouts::get(&w.deps).unwrap();
    let layout = l.active;
    let first_cell = l.layouts[0].tree.leaves()[0].id;
    let second = layouts::split(
        &w.deps,
        CellRef::new(layout, first_cell),
        Direction::Horizontal,
    )
    .unwrap();
    let agent = agents::create_from_scratch(
        &w.deps,
        NewAgent {
            name: "Ada".into(),
            profile_id: ProfileId::new("shell"),
        },
    )
    .unwrap();
    w.events.take();
    layouts::assign_agent(&w.deps, CellRef::new(layout, second), Some(agent.agent_id)).unwrap();
    assert!(w.events.take().contains(&DomainEvent::CellAgentAssigned {
        layout_id: layout,
        node_id: second,
        agent_id: Some(agent.agent_id)
    }));
    let saved = layouts::get(&w.deps).unwrap();
    assert_eq!(
        saved.layouts[0].tree.agent_leaves(agent.agent_id),
        vec![second]
    );
    layouts::close(&w.deps, CellRef::new(layout, first_cell)).unwrap();
    assert_eq!(
        layouts::get(&w.deps).unwrap().layouts[0]
            .tree
            .leaves()
            .len(),
        1
    );
    assert_eq!(
        layouts::close(&w.deps, CellRef::new(layout, second))
            .unwrap_err()
            .code(),
        "INVALID_LAYOUT_OPERATION"
    );
}

#[test]
fn deleting_an_agent_empties_its_cells() {
    let w = world();
    let l = layouts::get(&w.deps).unwrap();
    let cell = l.layouts[0].tree.leaves()[0].id;
    let agent = agents::create_from_scratch(
        &w.deps,
        NewAgent {
            name: "Ada".into(),
            profile_id: ProfileId::new("shell"),
        },
    )
    .unwrap();
    layouts::assign_agent(&w.deps, CellRef::new(l.active, cell), Some(agent.agent_id)).unwrap();
    agents::delete(&w.deps, agent.agent_id).unwrap();
    assert_eq!(
        layouts::get(&w.deps).unwrap().layouts[0].tree.leaves()[0].agent,
        None
    );
}

#[test]
fn named_layouts_create_rename_switch_delete() {
    let w = world();
    let main = layouts::get(&w.deps).unwrap().active;
    let review = layouts::create(&w.deps, "Review").unwrap();
    assert_eq!(layouts::get(&w.deps).unwrap().active, review.id);
    layouts::rename(&w.deps, review.id, "Code review").unwrap();
    layouts::set_active(&w.deps, main).unwrap();
    layouts::delete(&w.deps, review.id).unwrap();
    let now = layouts::get(&w.deps).unwrap();
    assert_eq!(now.layouts.len(), 1);
    assert_eq!(
        layouts::delete(&w.deps, main).unwrap_err().code(),
        "INVALID_LAYOUT_OPERATION"
    );
}

#[test]
fn unknown_ids_are_reported_and_nothing_is_saved() {
    let w = world();
    let before = layouts::get(&w.deps).unwrap();
    let ghost = NodeId(Uuid::from_u128(12345));
    assert_eq!(
        layouts::split(
            &w.deps,
            CellRef::new(before.active, ghost),
            Direction::Vertical
        )
        .unwrap_err()
        .code(),
        "NODE_NOT_FOUND"
    );
    assert_eq!(
        layouts::rename(&w.deps, LayoutId(Uuid::from_u128(9)), "x")
            .unwrap_err()
            .code(),
        "LAYOUT_NOT_FOUND"
    );
    let cell = before.layouts[0].tree.leaves()[0].id;
    let ghost_agent = idea_domain::AgentId(Uuid::from_u128(77));
    assert_eq!(
        layouts::assign_agent(
            &w.deps,
            CellRef::new(before.active, cell),
            Some(ghost_agent)
        )
        .unwrap_err()
        .code(),
        "AGENT_NOT_FOUND"
    );
    assert_eq!(layouts::get(&w.deps).unwrap(), before);
}

#[test]
fn move_cell_puts_a_cell_on_the_chosen_side_and_swap_exchanges_agents() {
    let w = world();
    let l = layouts::get(&w.deps).unwrap();
    let (layout, a) = (l.active, l.layouts[0].tree.leaves()[0].id);
    let b = layouts::split(&w.deps, CellRef::new(layout, a), Direction::Horizontal).unwrap();
    let c = layouts::split(&w.deps, CellRef::new(layout, b), Direction::Horizontal).unwrap();
    let order = |w: &crate::support::World| -> Vec<NodeId> {
        layouts::get(&w.deps).unwrap().layouts[0]
            .tree
            .leaves()
            .iter()
            .map(|l| l.id)
            .collect()
    };
    assert_eq!(order(&w), [a, b, c]);
    layouts::move_cell(
        &w.deps,
        MoveCell {
            cell: CellRef::new(layout, c),
            target: a,
            direction: Direction::Horizontal,
            side: idea_domain::layout::Side::Before,
        },
    )
    .unwrap();
    assert_eq!(order(&w), [c, a, b]);
    let ada = agents::create_from_scratch(
        &w.deps,
        NewAgent {
            name: "Ada".into(),
            profile_id: ProfileId::new("shell"),
        },
    )
    .unwrap();
    layouts::assign_agent(&w.deps, CellRef::new(layout, a), Some(ada.agent_id)).unwrap();
    layouts::swap(&w.deps, layout, a, b).unwrap();
    let saved = layouts::get(&w.deps).unwrap();
    assert_eq!(
        saved.layouts[0].tree.leaf(b).unwrap().agent,
        Some(ada.agent_id)
    );
    assert_eq!(saved.layouts[0].tree.leaf(a).unwrap().agent, None);
}
