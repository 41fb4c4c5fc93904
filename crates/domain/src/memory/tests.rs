use super::*;
use proptest::prelude::*;

fn entry(slug: &str, kind: MemoryType, updated_at: Option<u64>) -> MemoryEntry {
    MemoryEntry {
        slug: slug.into(),
        title: format!("Title {slug}"),
        hook: format!("hook {slug}"),
        kind,
        writer: None,
        updated_at,
        body: String::new(),
    }
}

#[test]
fn types_parse_ignoring_case() {
    assert_eq!(MemoryType::parse("Feedback"), Some(MemoryType::Feedback));
    assert_eq!(MemoryType::parse(" USER "), Some(MemoryType::User));
    assert_eq!(MemoryType::parse("reference"), Some(MemoryType::Reference));
    assert_eq!(MemoryType::parse("project"), Some(MemoryType::Project));
    assert_eq!(MemoryType::parse("note"), None);
    assert_eq!(MemoryType::parse(""), None);
}

#[test]
fn slugs_from_titles() {
    let cases = [
        ("CI fails on Windows", "ci-fails-on-windows"),
        ("  --Hello,   World!--  ", "hello-world"),
        ("Café crème à l'œil", "cafe-creme-a-l-oeil"),
        ("Straße", "strasse"),
        ("e\u{301}te\u{301}", "ete"),
        ("日本語 notes", "notes"),
        ("日本語", "note"),
        ("", "note"),
        ("---", "note"),
        ("../../etc/passwd", "etc-passwd"),
        ("v1.2 → v2", "v1-2-v2"),
    ];
    for (title, slug) in cases {
        assert_eq!(memory_slug(title), slug, "{title}");
    }
}

#[test]
fn long_slugs_are_cut_at_a_dash() {
    assert_eq!(memory_slug(&"word ".repeat(20)), ["word"; 13].join("-"));
    let slug = memory_slug(&"words ".repeat(20));
    assert_eq!(slug, ["words"; 10].join("-"));
    assert_eq!(slug.len(), 59);
    let one_word = "a".repeat(100);
    assert_eq!(memory_slug(&one_word), "a".repeat(64));
    // A dash right after the limit: the first 64 characters as they are.
    let exact = format!("{} rest", "b".repeat(64));
    assert_eq!(memory_slug(&exact), "b".repeat(64));
}

#[test]
fn valid_slugs_refuse_paths() {
    for ok in ["a", "ci-fails", "0-1", &"x".repeat(64)] {
        assert!(valid_memory_slug(ok), "{ok}");
    }
    for bad in [
        "",
        "-a",
        "a-",
        "A",
        "a_b",
        "..",
        "../a",
        "a/b",
        "a\\b",
        "a.md",
        "é",
        &"x".repeat(65),
    ] {
        assert!(!valid_memory_slug(bad), "{bad}");
    }
}

#[test]
fn an_entry_parses_with_every_field() {
    let text = "---\ntitle: CI on Windows\nhook: when CI fails on Windows\ntype: Project\nwriter: Ada\nupdated: 1700000000\n---\n\nRun `cargo test` twice.\n";
    assert_eq!(
        parse_memory_entry("ci", text).unwrap(),
        MemoryEntry {
            slug: "ci".into(),
            title: "CI on Windows".into(),
            hook: "when CI fails on Windows".into(),
            kind: MemoryType::Project,
            writer: Some("Ada".into()),
            updated_at: Some(1_700_000_000),
            body: "Run `cargo test` twice.".into(),
        }
    );
}

#[test]
fn optional_fields_may_be_missing_and_a_colon_is_tolerated() {
    let text = "---\ntitle: Tone\nhook: Use when: writing docs\ntype: feedback\n---\nShort.";
    let entry = parse_memory_entry("tone", text).unwrap();
    assert_eq!(entry.hook, "Use when: writing docs");
    assert_eq!((entry.writer, entry.updated_at), (None, None));
}

#[test]
fn entry_refusals_say_why() {
    let ok = "title: t\nhook: h\ntype: user\n";
    let cases = [
        ("../x", format!("---\n{ok}---\n"), "not a memory slug"),
        ("x", "no front matter".to_owned(), "no front matter"),
        (
            "x",
            "---\nhook: h\ntype: user\n---\n".to_owned(),
            "no `title`",
        ),
        (
            "x",
            "---\ntitle: t\ntype: user\n---\n".to_owned(),
            "no `hook`",
        ),
        ("x", "---\ntitle: t\nhook: h\n---\n".to_owned(), "no `type`"),
        (
            "x",
            "---\ntitle: t\nhook: h\ntype: note\n---\n".to_owned(),
            "the type `note` is not one of user, feedback, project, reference",
        ),
        (
            "x",
            format!("---\n{ok}updated: yesterday\n---\n"),
            "`updated` must be unix seconds (a whole number), not `yesterday`",
        ),
        ("x", format!("---\n{ok}updated: -5\n---\n"), "not `-5`"),
    ];
    for (slug, text, reason) in cases {
        let err = parse_memory_entry(slug, &text).unwrap_err();
        assert!(err.contains(reason), "{text:?}: {err}");
    }
}

#[test]
fn render_writes_quoted_values() {
    let full = MemoryEntry {
        writer: Some("user".into()),
        updated_at: Some(5),
        body: "Body.".into(),
        ..entry("ci", MemoryType::Reference, None)
    };
    assert_eq!(
        render_memory_entry(&full),
        "---\ntitle: \"Title ci\"\nhook: \"hook ci\"\ntype: reference\nwriter: \"user\"\nupdated: 5\n---\n\nBody.\n"
    );
    assert_eq!(
        render_memory_entry(&entry("x", MemoryType::User, None)),
        "---\ntitle: \"Title x\"\nhook: \"hook x\"\ntype: user\n---\n"
    );
}

#[test]
fn index_entries_and_the_index_file() {
    let mut b = entry("b", MemoryType::User, None);
    b.title = "Multi\nline [title]".into();
    let entries = [entry("c", MemoryType::Project, Some(1)), b];
    let index: Vec<_> = entries.iter().map(MemoryEntry::index_entry).collect();
    assert_eq!(index[0].slug, "c");
    assert_eq!(index[0].kind, MemoryType::Project);
    assert_eq!(
        render_memory_index(&index),
        "# Project memory\n\nGenerated by IdeA from the entries in this folder: edit the entries, not this file.\n\n- [Multi line title](b.md) (user): hook b\n- [Title c](c.md) (project): hook c\n"
    );
    assert!(render_memory_index(&[]).ends_with("not this file.\n"));
    assert_eq!(MEMORY_INDEX, "MEMORY.md");
}

#[test]
fn recall_puts_feedback_first_then_recent_then_slug() {
    let mut entries = vec![
        entry("r", MemoryType::Reference, Some(9)),
        entry("p-old", MemoryType::Project, Some(1)),
        entry("p-undated", MemoryType::Project, None),
        entry("p-new", MemoryType::Project, Some(5)),
        entry("u", MemoryType::User, None),
        entry("f-b", MemoryType::Feedback, Some(3)),
        entry("f-a", MemoryType::Feedback, Some(3)),
    ];
    recall_order(&mut entries);
    let slugs: Vec<_> = entries.iter().map(|e| e.slug.as_str()).collect();
    assert_eq!(
        slugs,
        ["f-a", "f-b", "u", "p-new", "p-old", "p-undated", "r"]
    );
}

#[test]
fn search_scores_title_hook_and_body() {
    let mut ci = entry("ci", MemoryType::Project, None);
    ci.title = "CI on Windows".into();
    ci.hook = "when ci fails".into();
    ci.body = "First line.\nRetry the CI job on windows runners.\nwindows again".into();
    let mut docs = entry("docs", MemoryType::Feedback, None);
    docs.title = "Docs tone".into();
    docs.hook = "when writing for Windows users".into();
    let other = entry("other", MemoryType::User, None);
    let hits = search_memory(&[other, docs, ci], "Windows  CI", 10);
    let summary: Vec<_> = hits
        .iter()
        .map(|h| (h.slug.as_str(), h.score, h.excerpt.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            // title 2×3 + hook 1×2 + body 3
            ("ci", 11, "Retry the CI job on windows runners."),
            ("docs", 2, "when writing for Windows users"),
        ]
    );
    assert_eq!(hits[0].title, "CI on Windows");
    assert_eq!(hits[0].kind, MemoryType::Project);
}

#[test]
fn search_ties_go_by_slug_and_the_limit_holds() {
    let entries: Vec<_> = ["c", "a", "b"]
        .into_iter()
        .map(|s| {
            let mut e = entry(s, MemoryType::User, None);
            e.body = "shared word".into();
            e
        })
        .collect();
    let hits = search_memory(&entries, "SHARED shared", 2);
    let slugs: Vec<_> = hits.iter().map(|h| h.slug.as_str()).collect();
    assert_eq!(slugs, ["a", "b"]);
    assert!(hits.iter().all(|h| h.score == 1));
    assert!(search_memory(&entries, "   ", 10).is_empty());
    assert!(search_memory(&entries, "absent", 10).is_empty());
    assert!(search_memory(&entries, "shared", 0).is_empty());
}

#[test]
fn excerpts_are_at_most_200_characters() {
    let mut e = entry("long", MemoryType::User, None);
    e.body = format!("needle {}", "é".repeat(300));
    let hits = search_memory(&[e], "needle", 1);
    assert_eq!(hits[0].excerpt.chars().count(), 200);
    assert!(hits[0].excerpt.ends_with('…'));
}

#[test]
fn entries_serialize_in_camel_case_without_empty_options() {
    let json = serde_json::to_value(entry("x", MemoryType::User, None)).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"slug": "x", "title": "Title x", "hook": "hook x", "type": "user", "body": ""})
    );
    let dated = MemoryEntry {
        updated_at: Some(3),
        ..entry("x", MemoryType::User, None)
    };
    assert_eq!(serde_json::to_value(dated).unwrap()["updatedAt"], 3);
}

proptest! {
    #[test]
    fn render_then_parse_round_trips(
        title in "[ -~\u{e9}\n]{1,80}",
        hook in "[ -~\u{e9}\t]{1,80}",
        writer in proptest::option::of("[ -~]{1,20}"),
        updated_at in proptest::option::of(any::<u64>()),
        body in "[ -~\n]{0,300}",
        kind in prop::sample::select(MemoryType::ALL.to_vec()),
    ) {
        prop_assume!(!title.trim().is_empty() && !hook.trim().is_empty());
        prop_assume!(writer.as_ref().is_none_or(|w| !w.trim().is_empty()));
        let written = MemoryEntry {
            slug: "a-slug".into(),
            title: title.trim().to_owned(),
            hook: hook.trim().to_owned(),
            kind,
            writer: writer.map(|w| w.trim().to_owned()),
            updated_at,
            body: crate::front_matter::trim_body(&body).to_owned(),
        };
        let read = parse_memory_entry("a-slug", &render_memory_entry(&written)).unwrap();
        prop_assert_eq!(read, written);
    }

    #[test]
    fn slugs_are_always_valid(title in "\\PC{0,120}") {
        prop_assert!(valid_memory_slug(&memory_slug(&title)));
    }
}
