//! Unit tests of the named-layouts collection and layout names.

use super::{agent, layout, n};
use crate::layout::{
    Direction, LayoutError, Layouts, MAX_LAYOUT_NAME_CHARS, NamedLayout, layout_name,
};

fn two_tabs() -> Layouts {
    let mut layouts = Layouts::new(layout(1), "Main", n(1)).unwrap();
    layouts.create(layout(2), "  Review ", n(10)).unwrap();
    layouts
}

#[test]
fn new_has_one_active_layout_with_one_cell() {
    let layouts = Layouts::new(layout(1), "Main", n(1)).unwrap();
    assert_eq!(
        layouts.active_layout().map(|active| active.id),
        Ok(layout(1))
    );
    assert_eq!(layouts.tree(layout(1)).map(|tree| tree.leaf_count()), Ok(1));
    assert_eq!(layouts.validate(), Ok(()));
}

#[test]
fn create_appends_a_trimmed_tab_without_activating_it() {
    let mut layouts = two_tabs();
    assert_eq!(layouts.active, layout(1));
    assert_eq!(
        layouts.get(layout(2)).map(|tab| tab.name.as_str()),
        Some("Review")
    );
    assert_eq!(
        layouts.create(layout(2), "Again", n(20)),
        Err(LayoutError::DuplicateLayout(layout(2)))
    );
    assert!(matches!(
        layouts.create(layout(3), " ", n(30)),
        Err(LayoutError::InvalidName(_))
    ));
    assert_eq!(layouts.layouts.len(), 2);
    assert_eq!(layouts.validate(), Ok(()));
}

#[test]
fn rename_checks_the_name_and_the_id() {
    let mut layouts = two_tabs();
    layouts.rename(layout(2), " Docs\t").unwrap();
    assert_eq!(
        layouts.get(layout(2)).map(|tab| tab.name.as_str()),
        Some("Docs")
    );
    assert_eq!(
        layouts.rename(layout(9), "x"),
        Err(LayoutError::LayoutNotFound(layout(9)))
    );
    assert!(matches!(
        layouts.rename(layout(2), "a\u{7}b"),
        Err(LayoutError::InvalidName(_))
    ));
}

#[test]
fn deleting_the_active_layout_activates_the_first_remaining() {
    let mut layouts = two_tabs();
    layouts.create(layout(3), "Third", n(30)).unwrap();
    layouts.set_active(layout(3)).unwrap();
    layouts.delete(layout(1)).unwrap();
    assert_eq!(
        layouts.active,
        layout(3),
        "deleting another tab keeps the active one"
    );
    let removed = layouts.delete(layout(3)).unwrap();
    assert_eq!(removed.id, layout(3));
    assert_eq!(layouts.active, layout(2));
    assert_eq!(layouts.delete(layout(2)), Err(LayoutError::LastLayout));
    assert_eq!(
        layouts.delete(layout(9)),
        Err(LayoutError::LayoutNotFound(layout(9)))
    );
    assert_eq!(layouts.validate(), Ok(()));
}

#[test]
fn set_active_refuses_unknown_layouts() {
    let mut layouts = two_tabs();
    assert_eq!(
        layouts.set_active(layout(9)),
        Err(LayoutError::LayoutNotFound(layout(9)))
    );
    layouts.set_active(layout(2)).unwrap();
    assert_eq!(layouts.active_layout_mut().map(|tab| tab.id), Ok(layout(2)));
    assert!(layouts.get_mut(layout(9)).is_none());
    assert_eq!(
        layouts.tree_mut(layout(9)).err(),
        Some(LayoutError::LayoutNotFound(layout(9)))
    );
}

#[test]
fn an_agents_cells_are_found_and_edited_across_layouts() {
    let mut layouts = two_tabs();
    let main = layouts.tree_mut(layout(1)).unwrap();
    main.split(n(1), Direction::Vertical, n(2), n(3)).unwrap();
    main.assign_agent(n(2), Some(agent(7))).unwrap();
    layouts
        .tree_mut(layout(2))
        .unwrap()
        .assign_agent(n(10), Some(agent(7)))
        .unwrap();

    assert_eq!(
        layouts.cells_of_agent(agent(7)),
        vec![(layout(1), n(2)), (layout(2), n(10))]
    );
    for leaf in layouts.leaves_of_agent_mut(agent(7)) {
        leaf.agent_was_running = true;
    }
    let running: Vec<_> = layouts
        .trees_mut()
        .flat_map(|tree| tree.leaves_mut())
        .filter(|leaf| leaf.agent_was_running)
        .map(|leaf| leaf.id)
        .collect();
    assert_eq!(running, vec![n(2), n(10)]);
    assert!(layouts.cells_of_agent(agent(8)).is_empty());
}

#[test]
fn validate_catches_broken_documents() {
    let mut duplicate = two_tabs();
    duplicate.layouts[1].id = layout(1);
    assert_eq!(
        duplicate.validate(),
        Err(LayoutError::DuplicateLayout(layout(1)))
    );

    let mut dangling = two_tabs();
    dangling.active = layout(9);
    assert!(matches!(
        dangling.validate(),
        Err(LayoutError::Malformed(_))
    ));
    assert_eq!(
        dangling.active_layout().err(),
        Some(LayoutError::LayoutNotFound(layout(9)))
    );

    let mut empty = two_tabs();
    empty.layouts.clear();
    assert!(matches!(empty.validate(), Err(LayoutError::Malformed(_))));

    let mut untrimmed = two_tabs();
    untrimmed.layouts[0].name = " Main".into();
    assert!(matches!(
        untrimmed.validate(),
        Err(LayoutError::Malformed(_))
    ));

    let mut old = two_tabs();
    old.version = 0;
    assert!(matches!(
        old.validate(),
        Err(LayoutError::UnsupportedVersion { found: 0, .. })
    ));
    assert!(
        old.to_json().is_err(),
        "an invalid document is never written"
    );
}

#[test]
fn layout_names_are_trimmed_bounded_and_printable() {
    assert_eq!(layout_name("  Main  "), Ok("Main".to_owned()));
    let longest = "é".repeat(MAX_LAYOUT_NAME_CHARS);
    assert_eq!(layout_name(&longest), Ok(longest.clone()));
    for bad in ["", "   ", "a\nb", "tab\u{0}", &format!("{longest}x")] {
        assert!(
            matches!(layout_name(bad), Err(LayoutError::InvalidName(_))),
            "{bad:?} accepted"
        );
    }
    assert!(NamedLayout::new(layout(1), "\u{1b}[31m", n(1)).is_err());
}

#[test]
fn layout_names_refuse_invisible_and_direction_characters() {
    for c in [
        '\u{202E}', '\u{2067}', '\u{200F}', '\u{061C}', '\u{200B}', '\u{200D}', '\u{FEFF}',
    ] {
        let err = layout_name(&format!("Ma{c}in")).expect_err("refused");
        let code = format!("U+{:04X}", u32::from(c));
        assert!(err.to_string().contains(&code), "{code}: {err}");
    }
    let mut layouts = two_tabs();
    assert!(matches!(
        layouts.rename(layout(2), "Docs\u{202E}"),
        Err(LayoutError::InvalidName(_))
    ));
    assert_eq!(layout_name("Révision 2").as_deref(), Ok("Révision 2"));
}
