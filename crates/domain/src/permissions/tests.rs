#![allow(clippy::unwrap_used)]

use super::file::{edit_file, parse_file};
use super::*;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const USER: &str = "/home/u/.ideai/permissions.json";
const PROJECT: &str = "/work/p/.ideai/permissions.json";

fn context() -> PathContext {
    PathContext {
        root: PathBuf::from("/work/p"),
        home: Some(PathBuf::from("/home/u")),
    }
}

fn file(allow: &[&str], ask: &[&str], deny: &[&str]) -> String {
    serde_json::json!({"permissions": {"allow": allow, "ask": ask, "deny": deny}}).to_string()
}

fn set(allow: &[&str], ask: &[&str], deny: &[&str]) -> PermissionSet {
    let mut set = PermissionSet::new(context());
    set.add_file(
        PermissionScope::Project,
        Path::new(PROJECT),
        Some(&file(allow, ask, deny)),
    );
    set
}

/// A command of plain parts, as the shell parser would give for `a && b | c`.
fn bash(parts: &[&str]) -> ToolCall {
    ToolCall {
        tool: "Bash".into(),
        input: ToolInput::Command(ShellCommand {
            parts: parts.iter().map(|p| CommandPart::plain(p)).collect(),
            nested: Vec::new(),
            redirects: false,
            substitutes: false,
            complete: true,
        }),
    }
}

fn call(tool: &str, input: ToolInput) -> ToolCall {
    ToolCall {
        tool: tool.into(),
        input,
    }
}

fn path(tool: &str, p: &str) -> ToolCall {
    call(tool, ToolInput::Path(p.into()))
}

use Decision::{Allow, Ask, Deny};

#[test]
fn rule_grammar() {
    let ok = [
        ("Bash", "Bash", false),
        ("  Bash(git status)  ", "Bash", true),
        ("Read(./.deny.md)", "Read", true),
        ("WebFetch(domain:*.example.org)", "WebFetch", true),
        ("mcp__db__query(SELECT *)", "mcp__db__query", true),
        ("Bash(echo (a))", "Bash", true),
        ("Skill(pdf)", "Skill", true),
    ];
    for (text, tool, has_pattern) in ok {
        let rule = Rule::parse(text).unwrap();
        assert_eq!(rule.tool(), tool, "{text}");
        assert_eq!(rule.pattern().is_some(), has_pattern, "{text}");
        assert_eq!(rule.text(), text.trim());
    }
    let bad = [
        ("", RuleError::Empty),
        ("   ", RuleError::Empty),
        ("Bash(git status", RuleError::Unclosed),
        ("Bash()", RuleError::EmptyPattern("Bash".into())),
        ("bash(rm *)", RuleError::ToolCase("Bash")),
        ("READ", RuleError::ToolCase("Read")),
        ("My Tool", RuleError::ToolName("My Tool".into())),
        ("(x)", RuleError::ToolName(String::new())),
        ("WebFetch(example.org)", RuleError::NotADomain),
        (
            "WebFetch(domain:exa mple.org)",
            RuleError::BadDomain("exa mple.org".into()),
        ),
    ];
    for (text, error) in bad {
        assert_eq!(Rule::parse(text), Err(error), "{text:?}");
    }
    assert!(matches!(
        Rule::parse("Edit(src/[a)"),
        Err(RuleError::BadPath(_))
    ));
    assert!(matches!(
        Rule::parse("Read(src/../x)"),
        Err(RuleError::BadPath(_))
    ));
}

#[test]
fn no_rule_means_ask_for_every_tool() {
    let empty = PermissionSet::new(context());
    for c in [
        bash(&["ls"]),
        path("Read", "src/main.rs"),
        call("Grep", ToolInput::Path(".".into())),
        call("WebFetch", ToolInput::Domain("example.org".into())),
        call("Skill", ToolInput::Text("pdf".into())),
    ] {
        assert_eq!(empty.evaluate(&c), Ask, "{c:?}");
    }
    assert!(!empty.has_rules());
}

/// MAIA's own examples: the first family that matches decides, however precise its rule.
#[test]
fn deny_beats_ask_beats_allow() {
    let s = set(&["Bash(aws s3 ls)"], &[], &["Bash(aws *)"]);
    assert_eq!(s.evaluate(&bash(&["aws s3 ls"])), Deny);
    let s = set(&["Bash(aws s3 ls)"], &["Bash(aws *)"], &[]);
    assert_eq!(s.evaluate(&bash(&["aws s3 ls"])), Ask);
    let s = set(
        &["Bash(allow stop *)"],
        &["Bash(allow ask *)"],
        &["Bash(allow deny *)", "Read(./.deny.md)"],
    );
    assert_eq!(s.evaluate(&bash(&["allow stop now"])), Allow);
    assert_eq!(s.evaluate(&bash(&["allow ask now"])), Ask);
    assert_eq!(s.evaluate(&bash(&["allow deny now"])), Deny);
    assert_eq!(s.evaluate(&bash(&["allow other"])), Ask);
    assert_eq!(s.evaluate(&path("Read", ".deny.md")), Deny);
    assert_eq!(s.evaluate(&path("Read", "/work/p/.deny.md")), Deny);
    assert_eq!(s.evaluate(&path("Read", "other.md")), Ask);
}

#[test]
fn bash_patterns() {
    let s = set(
        &["Bash(git status)", "Bash(npm run test:*)", "Bash(cargo *)"],
        &[],
        &[],
    );
    let cases = [
        ("git status", Allow),
        ("git status -s", Ask),
        ("git  status", Allow),
        ("npm run test:unit", Allow),
        ("npm run test", Ask),
        ("cargo", Allow),
        ("cargo build --release", Allow),
        ("cargox build", Ask),
    ];
    for (command, expected) in cases {
        assert_eq!(s.evaluate(&bash(&[command])), expected, "{command}");
    }
}

#[test]
fn compound_commands_part_by_part() {
    let s = set(
        &["Bash(git *)", "Bash(ls *)"],
        &["Bash(npm *)"],
        &["Bash(rm *)"],
    );
    // Allowed only when every part is covered.
    assert_eq!(s.evaluate(&bash(&["git status", "ls -la"])), Allow);
    assert_eq!(s.evaluate(&bash(&["git status", "make"])), Ask);
    // Denied or asked as soon as one part matches, wherever it is.
    assert_eq!(s.evaluate(&bash(&["git status", "rm -rf /"])), Deny);
    assert_eq!(s.evaluate(&bash(&["ls", "npm install", "git push"])), Ask);
    assert_eq!(s.evaluate(&bash(&["npm i", "rm x"])), Deny);
    // Nothing to run is not something allowed.
    assert_eq!(s.evaluate(&bash(&[])), Ask);
    // A program named by its path is still caught.
    assert_eq!(s.evaluate(&bash(&["/bin/rm -rf /"])), Deny);
    assert_eq!(s.evaluate(&bash(&["./node_modules/.bin/npm ci"])), Ask);
}

#[test]
fn nested_commands_are_caught_and_covered_by_their_outer_part() {
    let s = set(
        &["Bash(sudo *)", "Bash(git *)"],
        &["Bash(curl *)"],
        &["Bash(rm *)"],
    );
    let nested = |outer: &str, inner: &[&str]| {
        let mut c = bash(&[outer]);
        if let ToolInput::Command(command) = &mut c.input {
            command.nested = inner.iter().map(|p| CommandPart::plain(p)).collect();
        }
        c
    };
    assert_eq!(s.evaluate(&nested("sudo rm -rf /", &["rm -rf /"])), Deny);
    assert_eq!(s.evaluate(&nested("sudo curl x", &["curl x"])), Ask);
    assert_eq!(s.evaluate(&nested("sudo make", &["make"])), Allow);
}

#[test]
fn an_allow_never_covers_a_redirection_a_substitution_or_an_unread_command() {
    let s = set(&["Bash", "Bash(echo *)"], &[], &["Bash(rm *)"]);
    let with = |edit: fn(&mut ShellCommand)| {
        let mut c = bash(&["echo hi"]);
        if let ToolInput::Command(command) = &mut c.input {
            edit(command);
        }
        c
    };
    assert_eq!(s.evaluate(&with(|_| {})), Allow);
    assert_eq!(s.evaluate(&with(|c| c.redirects = true)), Ask);
    assert_eq!(s.evaluate(&with(|c| c.substitutes = true)), Ask);
    assert_eq!(s.evaluate(&with(|c| c.complete = false)), Ask);
    // A deny still applies to what could be read.
    let mut broken = bash(&["rm -rf /"]);
    if let ToolInput::Command(c) = &mut broken.input {
        c.complete = false;
    }
    assert_eq!(s.evaluate(&broken), Deny);
}

#[test]
fn assignments_and_unknown_programs() {
    let s = set(&["Bash(git *)"], &[], &["Bash(rm *)"]);
    let part = |assignments: &[&str], words: Vec<Word>| ShellCommand {
        parts: vec![CommandPart {
            assignments: assignments.iter().map(|a| (*a).to_owned()).collect(),
            words,
        }],
        nested: Vec::new(),
        redirects: false,
        substitutes: false,
        complete: true,
    };
    let run = |c: ShellCommand| s.evaluate(&call("Bash", ToolInput::Command(c)));
    // A deny sees through assignments; an allow does not cover them.
    assert_eq!(
        run(part(
            &["X=1"],
            vec![Word::literal("rm"), Word::literal("x")]
        )),
        Deny
    );
    assert_eq!(
        run(part(&["LD_PRELOAD=/tmp/e.so"], vec![Word::literal("git")])),
        Ask
    );
    // An expanded argument is fine; an expanded program is never allowed.
    assert_eq!(
        run(part(
            &[],
            vec![Word::literal("git"), Word::expanded("$REF")]
        )),
        Allow
    );
    assert_eq!(
        run(part(
            &[],
            vec![Word::expanded("$CMD"), Word::literal("status")]
        )),
        Ask
    );
    let bare = set(&["Bash"], &[], &[]);
    let unknown = call(
        "Bash",
        ToolInput::Command(part(&[], vec![Word::expanded("$CMD")])),
    );
    assert_eq!(bare.evaluate(&unknown), Ask);
}

#[test]
fn path_patterns() {
    let s = set(
        &["Edit(src/**)", "Read", "Write(~/notes/*.md)"],
        &[],
        &[
            "Read(secrets)",
            "Read(**/*.pem)",
            "Edit(/etc/**)",
            "Read(../other)",
        ],
    );
    let cases = [
        (path("Edit", "src/a/b.rs"), Allow),
        (path("Edit", "./src/lib.rs"), Allow),
        (path("Edit", "/work/p/src/x.rs"), Allow),
        (path("Edit", "srcx/a.rs"), Ask),
        (path("Edit", "src/../README.md"), Ask),
        (path("Edit", "/etc/passwd"), Deny),
        (path("Read", "secrets"), Deny),
        (path("Read", "secrets/inner/key"), Deny),
        (path("Read", "deep/dir/cert.pem"), Deny),
        (path("Read", "/work/other/x"), Deny),
        (path("Read", "../other/x"), Deny),
        (path("Read", "src/../secrets/k"), Deny),
        (path("Read", "src/main.rs"), Allow),
        (path("Write", "~/notes/today.md"), Allow),
        (path("Write", "/home/u/notes/today.md"), Allow),
        (path("Write", "~/notes/sub/today.md"), Ask),
        (path("Write", "/home/u/notes.md"), Ask),
    ];
    for (c, expected) in cases {
        assert_eq!(s.evaluate(&c), expected, "{c:?}");
    }
    // A path rule never matches another kind of input.
    assert_eq!(
        s.evaluate(&call("Edit", ToolInput::Text("src/a".into()))),
        Ask
    );
}

#[test]
fn a_project_root_with_glob_characters_matches_literally() {
    let mut s = PermissionSet::new(PathContext {
        root: PathBuf::from("/work/[p]*"),
        home: None,
    });
    s.add_file(
        PermissionScope::Project,
        Path::new("/work/[p]*/.ideai/permissions.json"),
        Some(&file(&[], &[], &["Read(.env)"])),
    );
    assert_eq!(s.evaluate(&path("Read", ".env")), Deny);
    assert_eq!(s.evaluate(&path("Read", "/work/p/.env")), Ask);
    assert_eq!(s.denied_paths()[0].absolute_glob(), "/work/[[]p[]][*]/.env");
}

#[test]
fn web_fetch_and_other_tools() {
    let s = set(
        &[
            "WebFetch(domain:docs.example.com)",
            "Skill(pdf)",
            "mcp__db__query(SELECT *)",
        ],
        &[],
        &["WebFetch(domain:*.evil.org)", "Addition(5)"],
    );
    let fetch = |host: &str| call("WebFetch", ToolInput::Domain(host.into()));
    assert_eq!(s.evaluate(&fetch("docs.example.com")), Allow);
    assert_eq!(s.evaluate(&fetch("DOCS.Example.com.")), Allow);
    assert_eq!(s.evaluate(&fetch("example.com")), Ask);
    assert_eq!(s.evaluate(&fetch("a.b.evil.org")), Deny);
    assert_eq!(s.evaluate(&fetch("evil.org")), Ask);
    let text = |tool: &str, value: &str| call(tool, ToolInput::Text(value.into()));
    assert_eq!(s.evaluate(&text("Skill", "pdf")), Allow);
    assert_eq!(s.evaluate(&text("Skill", "pdfx")), Ask);
    assert_eq!(s.evaluate(&text("mcp__db__query", "SELECT 1")), Allow);
    assert_eq!(s.evaluate(&text("mcp__db__query", "DROP TABLE t")), Ask);
    assert_eq!(s.evaluate(&text("Addition", "5")), Deny);
    assert_eq!(s.evaluate(&call("Addition", ToolInput::None)), Ask);
}

#[test]
fn user_and_project_lists_add_together() {
    let mut s = PermissionSet::new(context());
    s.add_file(
        PermissionScope::User,
        Path::new(USER),
        Some(&file(&["Bash(git *)"], &[], &[])),
    );
    s.add_file(
        PermissionScope::Project,
        Path::new(PROJECT),
        Some(&file(&[], &[], &["Bash(git push *)"])),
    );
    assert_eq!(s.evaluate(&bash(&["git status"])), Allow);
    let verdict = s.explain(&bash(&["git push origin"]));
    assert_eq!(verdict.decision, Deny);
    let rule = verdict.rule.unwrap();
    assert_eq!(
        (rule.kind, rule.rule.as_str(), rule.path.as_path()),
        (RuleKind::Deny, "Bash(git push *)", Path::new(PROJECT))
    );
    let allowed = s.explain(&bash(&["git log"])).rule.unwrap();
    assert_eq!(allowed.path, Path::new(USER));
    assert_eq!(s.explain(&bash(&["make"])).rule, None);
}

#[test]
fn a_bad_rule_is_reported_and_the_others_apply() {
    let text = r#"{"permissions": {
        "allow": ["Bash(ls *)", "Bash(oops", 42],
        "deny": "Bash(rm *)",
        "ask": ["Edit(src/[)"],
        "defaultMode": "plan"
    }, "other": 1}"#;
    let mut s = PermissionSet::new(context());
    s.add_file(PermissionScope::Project, Path::new(PROJECT), Some(text));
    assert_eq!(s.evaluate(&bash(&["ls"])), Allow);
    assert_eq!(
        s.evaluate(&bash(&["rm x"])),
        Ask,
        "the malformed deny list is skipped"
    );
    let messages: Vec<(Option<&str>, &str)> = s
        .warnings()
        .iter()
        .map(|w| {
            assert_eq!(w.path, Path::new(PROJECT));
            (w.rule.as_deref(), w.message.as_str())
        })
        .collect();
    assert_eq!(messages.len(), 6, "{messages:#?}");
    assert!(messages.contains(&(None, "unknown key \"other\" ignored")));
    assert!(
        messages
            .iter()
            .any(|(r, m)| r.is_none() && m.contains("permissions.defaultMode"))
    );
    assert!(
        messages
            .iter()
            .any(|(r, m)| *r == Some("Bash(oops") && m.starts_with("allow[1]: "))
    );
    assert!(
        messages
            .iter()
            .any(|(r, m)| r.is_none() && m.starts_with("allow[2] is not a string"))
    );
    assert!(
        messages
            .iter()
            .any(|(r, m)| r.is_none() && m.contains("\"permissions.deny\" is not a list"))
    );
    assert!(
        messages
            .iter()
            .any(|(r, m)| *r == Some("Edit(src/[)") && m.starts_with("ask[0]: invalid path"))
    );
    let entries = &s.files()[0].entries;
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[1].text, "Bash(oops");
    assert!(entries[1].problem.is_some());
}

#[test]
fn a_file_that_is_not_permissions_is_one_warning() {
    for (text, expect) in [
        ("{\"permissions\": {\"allow\": [", "invalid JSON"),
        ("[1, 2]", "not a JSON object"),
        ("{\"permissions\": []}", "\"permissions\" is not an object"),
    ] {
        let mut s = PermissionSet::new(context());
        s.add_file(PermissionScope::User, Path::new(USER), Some(text));
        assert!(!s.has_rules());
        assert_eq!(s.warnings().len(), 1, "{text}");
        assert!(
            s.warnings()[0].message.contains(expect),
            "{:?}",
            s.warnings()
        );
    }
    let mut s = PermissionSet::new(context());
    s.add_unreadable(
        PermissionScope::Project,
        Path::new(PROJECT),
        "too big".into(),
    );
    assert_eq!(s.warnings()[0].message, "too big; no rule of it applies");
    assert!(s.files()[0].exists);
}

#[test]
fn denied_paths_are_absolute() {
    let mut s = set(
        &["Read(src/**)"],
        &["Edit(docs/**)"],
        &[
            "Read(./.env)",
            "Edit(~/.ssh/**)",
            "Write(/etc)",
            "Grep(x)",
            "Read",
            "Bash(rm *)",
        ],
    );
    s.add_file(PermissionScope::User, Path::new(USER), None);
    let denied: Vec<(PathAccess, String)> = s
        .denied_paths()
        .iter()
        .map(|d| (d.access, d.absolute_glob()))
        .collect();
    assert_eq!(
        denied,
        [
            (PathAccess::Read, "/work/p/.env".to_owned()),
            (PathAccess::Write, "/home/u/.ssh/**".to_owned()),
            (PathAccess::Write, "/etc".to_owned()),
            (PathAccess::Read, "/".to_owned()),
        ]
    );
    assert_eq!(s.denied_paths()[0].source, Path::new(PROJECT));
}

#[test]
fn home_rules_without_a_home_warn_and_match_nothing() {
    let mut s = PermissionSet::new(PathContext {
        root: PathBuf::from("/work/p"),
        home: None,
    });
    s.add_file(
        PermissionScope::Project,
        Path::new(PROJECT),
        Some(&file(&[], &[], &["Read(~/.ssh/**)"])),
    );
    assert_eq!(s.warnings().len(), 1);
    assert_eq!(s.evaluate(&path("Read", "~/.ssh/id")), Ask);
    assert!(s.denied_paths().is_empty());
}

#[test]
fn editing_keeps_everything_else() {
    let current = r#"{"note": "keep me", "permissions": {"allow": ["Bash(ls *)", 7, "Bash(ls *)"], "defaultMode": "x"}}"#;
    let add = [
        RuleChange {
            kind: RuleKind::Deny,
            rule: "Bash(rm *)".into(),
        },
        RuleChange {
            kind: RuleKind::Allow,
            rule: "Bash(git *)".into(),
        },
    ];
    let remove = [RuleChange {
        kind: RuleKind::Allow,
        rule: "Bash(ls *)".into(),
    }];
    let text = edit_file(Some(current), &add, &remove).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        value,
        serde_json::json!({"note": "keep me", "permissions": {
            "allow": [7, "Bash(git *)"], "defaultMode": "x", "deny": ["Bash(rm *)"]}})
    );
    // Adding twice keeps one copy; a new file is made from nothing.
    let again = edit_file(Some(&text), &add, &[]).unwrap();
    assert_eq!(again, text);
    let fresh = edit_file(None, &add[..1], &[]).unwrap();
    assert_eq!(
        fresh,
        "{\n  \"permissions\": {\n    \"deny\": [\n      \"Bash(rm *)\"\n    ]\n  }\n}\n"
    );
    for broken in [
        "{",
        "[]",
        "{\"permissions\": 1}",
        "{\"permissions\": {\"deny\": 1}}",
    ] {
        assert!(edit_file(Some(broken), &add, &[]).is_err(), "{broken}");
    }
}

fn arbitrary_command() -> impl Strategy<Value = ShellCommand> {
    let word = (".{0,12}", any::<bool>()).prop_map(|(text, literal)| Word { text, literal });
    let part = (
        prop::collection::vec(".{0,8}", 0..2),
        prop::collection::vec(word, 0..4),
    )
        .prop_map(|(assignments, words)| CommandPart { assignments, words });
    (
        prop::collection::vec(part, 0..4),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(parts, redirects, substitutes, complete)| ShellCommand {
            nested: parts.iter().rev().cloned().collect(),
            parts,
            redirects,
            substitutes,
            complete,
        })
}

proptest! {
    #[test]
    fn any_rule_text_parses_or_errs(text in "\\PC{0,40}") {
        let _ = Rule::parse(&text);
        let _ = Rule::parse(&format!("Read({text})"));
        let _ = Rule::parse(&format!("Bash({text})"));
        let _ = Rule::parse(&format!("WebFetch(domain:{text})"));
    }

    #[test]
    fn any_file_text_loads_or_warns(text in "\\PC{0,80}") {
        let parsed = parse_file(&text);
        prop_assert!(parsed.rules.len() <= parsed.entries.len());
        let _ = edit_file(Some(&text), &[], &[]);
    }

    #[test]
    fn any_call_gets_a_decision(
        command in arbitrary_command(),
        patterns in prop::collection::vec("[a-z *]{0,10}", 0..4),
        target in "[a-z./~*]{0,12}",
    ) {
        let rules: Vec<String> = patterns.iter().map(|p| format!("Bash({p})")).collect();
        let rules: Vec<&str> = rules.iter().map(String::as_str).collect();
        let s = set(&rules, &rules[..rules.len() / 2], &[]);
        let decision = s.evaluate(&call("Bash", ToolInput::Command(command.clone())));
        if decision == Decision::Allow {
            prop_assert!(command.allowable());
        }
        let p = set(&["Read(src/**)"], &[], &[&format!("Read({target})")]);
        let _ = p.evaluate(&path("Read", &target));
        let _ = p.denied_paths();
    }
}
