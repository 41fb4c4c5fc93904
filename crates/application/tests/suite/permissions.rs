//! Permissions: MAIA's cases through the real shell parser, the parser's robustness, and the
//! get/save use cases.

use crate::support::{fs_world, world};
use idea_application::permissions::{self, PermissionEdit, shell};
use idea_domain::DomainEvent;
use idea_domain::permissions::{
    Decision, PathContext, PermissionScope, PermissionSet, RuleChange, RuleKind,
};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

use Decision::{Allow, Ask, Deny};

fn rules(allow: &[&str], ask: &[&str], deny: &[&str]) -> PermissionSet {
    let mut set = PermissionSet::new(PathContext {
        root: PathBuf::from("/work/p"),
        home: Some(PathBuf::from("/home/u")),
    });
    let text = serde_json::json!({"permissions": {"allow": allow, "ask": ask, "deny": deny}});
    set.add_file(
        PermissionScope::Project,
        Path::new("/work/p/.ideai/permissions.json"),
        Some(&text.to_string()),
    );
    set
}

/// MAIA's « Permissions » section, command by command.
#[test]
fn maia_bash_cases() {
    let set = rules(
        &[
            "Bash(allow stop *)",
            "Bash(git status)",
            "Bash(npm run test:*)",
            "Bash(ls *)",
            "Bash(echo *)",
            "Bash(cat *)",
        ],
        &["Bash(allow ask *)", "Bash(git push *)"],
        &["Bash(allow deny *)", "Bash(rm *)", "Bash(curl *)"],
    );
    let cases: &[(&str, Decision)] = &[
        // One command.
        ("allow stop", Allow),
        ("allow stop now please", Allow),
        ("allow stopx", Ask),
        ("allow ask x", Ask),
        ("allow deny x", Deny),
        ("git status", Allow),
        ("git status --short", Ask),
        ("git log", Ask),
        ("npm run test:unit", Allow),
        ("npm run build", Ask),
        ("rm -rf build", Deny),
        ("'rm' -rf build", Deny),
        ("\"r\"m -rf build", Deny),
        ("\\rm -rf build", Deny),
        ("/bin/rm -rf build", Deny),
        ("FOO=1 rm -rf build", Deny),
        ("", Ask),
        // Compound commands: allowed only when every part is.
        ("git status && ls -la", Allow),
        ("ls | cat", Allow),
        ("ls; echo done", Allow),
        ("ls || echo failed", Allow),
        ("ls && make", Ask),
        ("(ls; git status)", Allow),
        ("{ ls; echo x; }", Allow),
        ("for f in a b; do echo $f; done", Allow),
        ("if ls; then echo y; else echo n; fi", Allow),
        // ... and denied or asked as soon as one part matches, wherever it hides.
        ("ls && rm -rf /", Deny),
        ("ls | rm x", Deny),
        ("ls; git push origin main", Ask),
        ("(cd /tmp; rm -rf x)", Deny),
        ("echo $(rm -rf /)", Deny),
        ("echo `rm -rf /`", Deny),
        ("echo \"$(rm -rf /)\"", Deny),
        ("echo \"`rm -rf /`\"", Deny),
        ("ls $(echo $(rm -rf /))", Deny),
        ("echo ${x:-$(rm -rf /)}", Deny),
        ("echo $((1 + $(rm -rf / | wc -l)))", Deny),
        ("X=$(rm -rf /)", Deny),
        ("export X=$(rm -rf /)", Deny),
        ("diff <(ls) <(rm x)", Deny),
        ("cat <<EOF\n$(rm -rf /)\nEOF", Deny),
        ("f() { rm -rf /; }; f", Deny),
        ("[[ -n $(rm x) ]] && echo y", Deny),
        ("while true; do curl x; done", Deny),
        ("echo $(git push)", Ask),
        // Commands run by a part's program.
        ("bash -c 'rm -rf /'", Deny),
        ("sh -lc \"ls && rm -rf /\"", Deny),
        ("eval rm -rf /", Deny),
        ("eval 'rm -rf /'", Deny),
        ("sudo rm -rf /", Deny),
        ("sudo -u bob rm -rf /", Deny),
        ("env FOO=1 rm x", Deny),
        ("timeout 10 rm x", Deny),
        ("ls | xargs rm", Deny),
        ("find . -name '*.o' -exec rm {} \\;", Deny),
        ("nohup sudo rm x", Deny),
        // An allow never covers a redirection or a substitution: back to ask.
        ("echo hi > out.txt", Ask),
        ("echo hi >> out.txt", Ask),
        ("cat < secret", Ask),
        ("cat <<EOF\nhi\nEOF", Ask),
        ("cat <<< hi", Ask),
        ("ls &> all.log", Ask),
        ("echo $(ls)", Ask),
        ("echo `ls`", Ask),
        ("cat <(ls)", Ask),
        ("bash -c 'echo hi > f'", Ask),
        // Duplicating a descriptor or /dev/null writes no file.
        ("ls 2>&1", Allow),
        ("ls >/dev/null 2>&1", Allow),
        ("ls 2>/dev/null | cat", Allow),
        ("echo hi >&2", Allow),
        // Words after a redirection still belong to the command.
        ("git >/dev/null push origin", Ask),
        ("echo >/dev/null hi; rm x", Deny),
        // Not readable: never allowed, still denied where it can be seen.
        ("ls (", Ask),
        ("rm x; ls (", Deny),
        ("echo 'unterminated", Ask),
        // A program that is not plain text is not known.
        ("$CMD -la", Ask),
        ("l? -la", Ask),
        ("LD_PRELOAD=/tmp/x.so ls", Ask),
        ("ls $HOME", Allow),
    ];
    let mut failures = Vec::new();
    for (command, expected) in cases {
        let got = permissions::evaluate(&set, "Bash", command);
        if got != *expected {
            failures.push(format!(
                "{command:?}: {got:?}, expected {expected:?}\n  {:?}",
                shell::parse(command)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn bare_bash_rules() {
    let deny_all = rules(&["Bash(ls *)"], &[], &["Bash"]);
    assert_eq!(permissions::evaluate(&deny_all, "Bash", "ls"), Deny);
    let allow_all = rules(&["Bash"], &[], &["Bash(rm *)"]);
    assert_eq!(
        permissions::evaluate(&allow_all, "Bash", "make && ls"),
        Allow
    );
    assert_eq!(permissions::evaluate(&allow_all, "Bash", "make > f"), Ask);
    assert_eq!(
        permissions::evaluate(&allow_all, "Bash", "make; rm x"),
        Deny
    );
}

#[test]
fn other_tools_through_the_text_doors() {
    let set = rules(
        &[
            "Read(src/**)",
            "WebFetch(domain:docs.example.com)",
            "Skill(pdf)",
        ],
        &[],
        &["Read(./.deny.md)", "WebFetch(domain:*.evil.org)"],
    );
    let cases = [
        ("Read", "src/lib.rs", Allow),
        ("Read", ".deny.md", Deny),
        ("Read", "/work/p/.deny.md", Deny),
        ("Read", "README.md", Ask),
        ("WebFetch", "https://docs.example.com/a?b#c", Allow),
        ("WebFetch", "https://user@DOCS.example.com:8443/", Allow),
        ("WebFetch", "http://x.evil.org/", Deny),
        ("WebFetch", "not a url", Ask),
        ("Skill", "pdf", Allow),
        ("Skill", "docx", Ask),
    ];
    for (tool, input, expected) in cases {
        assert_eq!(
            permissions::evaluate(&set, tool, input),
            expected,
            "{tool}({input})"
        );
    }
}

#[test]
fn parser_details() {
    let c = shell::parse("FOO=1 'git' \"log\" --format='%h %s' 2>&1");
    assert!(c.complete && !c.redirects && !c.substitutes);
    assert_eq!(c.parts.len(), 1);
    assert_eq!(c.parts[0].assignments, ["FOO=1"]);
    assert_eq!(c.parts[0].command_text(), "git log --format=%h %s");
    let c = shell::parse("echo \"a \\\"b\\\" \\$c\"");
    assert_eq!(c.parts[0].command_text(), "echo a \"b\" $c");
    let c = shell::parse("sudo -u bob rm x");
    let nested: Vec<String> = c.nested.iter().map(|p| p.command_text()).collect();
    assert_eq!(nested, ["bob rm x", "rm x", "x"]);
    let c = shell::parse("sudo nohup env A=1 time rm x");
    let nested: Vec<String> = c.nested.iter().map(|p| p.command_text()).collect();
    assert_eq!(nested, ["rm x", "x"]);
}

/// tree-sitter-bash 0.25.1 crashes the process on `{` and a 4-byte character (upstream
/// issue 337); the reader swaps such characters out and back.
#[test]
fn four_byte_characters_neither_crash_nor_get_lost() {
    for command in ["{\u{E010A}", "{\u{31860}", "{ echo 🎉; }", "echo {a,🎉}"] {
        let _ = shell::parse(command);
    }
    let c = shell::parse("git commit -m '🎉 release 𝄞' && echo 🎉{");
    assert!(c.complete);
    let texts: Vec<String> = c.parts.iter().map(|p| p.command_text()).collect();
    assert_eq!(texts, ["git commit -m 🎉 release 𝄞", "echo 🎉{"]);
    let set = rules(&["Bash(git commit *)"], &[], &["Bash(echo 🎉*)"]);
    assert_eq!(
        permissions::evaluate(&set, "Bash", "git commit -m '🎉'"),
        Allow
    );
    assert_eq!(permissions::evaluate(&set, "Bash", "ls; echo 🎉 x"), Deny);
    // A command that already holds the stand-in characters is read, never allowed.
    let c = shell::parse("echo \u{E000} 🎉");
    assert!(!c.complete);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Shell punctuation mixed with characters of every UTF-8 length.
    #[test]
    fn any_mix_of_punctuation_and_wide_characters_is_read(
        chars in prop::collection::vec(prop_oneof![
            prop::sample::select(vec!['{', '}', '(', ')', '$', '`', '"', '\'', '\\', ' ', '\n', '<', '>', '|', ';', '&', '#', '=', 'a']),
            any::<char>(),
        ], 0..40),
    ) {
        let command: String = chars.into_iter().collect();
        let _ = shell::parse(&command);
    }

    /// Any text, shell-like or not, is read without a panic, and what is allowed is complete.
    #[test]
    fn any_text_is_read(command in "\\PC{0,60}") {
        let parsed = shell::parse(&command);
        let set = rules(&["Bash", "Bash(ls *)"], &[], &[]);
        if permissions::evaluate(&set, "Bash", &command) == Allow {
            prop_assert!(parsed.complete && !parsed.redirects && !parsed.substitutes);
        }
    }

    /// Shell-shaped text: operators, quotes, substitutions and wrappers in any order, after
    /// a denied command (before it, they could turn it into a here-document or a file name):
    /// the denied command is found whatever follows, even when that does not parse.
    #[test]
    fn a_denied_command_is_found_whatever_follows(
        pieces in prop::collection::vec(prop::sample::select(vec![
            "ls", "echo", "x", "&&", "||", ";", "|", "(", ")", "{", "}", "$(", "`", "\"", "'",
            ">", "2>&1", "<<", "sudo", "bash -c", "eval", "${a:-", "<(", "\\", "\n", "#",
        ]), 0..16),
        hide in prop::sample::select(vec!["rm -rf /", "echo $(rm -rf /)", "echo `rm -rf /`", "sudo rm -rf /", "bash -c 'rm -rf /'"]),
    ) {
        let rest = pieces.join(" ");
        let set = rules(&["Bash(ls *)"], &[], &["Bash(rm *)"]);
        let _ = permissions::evaluate(&set, "Bash", &rest);
        let command = format!("{hide}\n{rest}");
        prop_assert_eq!(
            permissions::evaluate(&set, "Bash", &command),
            Deny,
            "{:?}",
            shell::parse(&command)
        );
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let deep = format!("{}rm x{}", "$(".repeat(2000), ")".repeat(2000));
    let set = rules(&[], &[], &["Bash(rm *)"]);
    assert_eq!(permissions::evaluate(&set, "Bash", &deep), Deny);
    let wrappers = format!("{}rm x", "sudo ".repeat(5000));
    assert_eq!(permissions::evaluate(&set, "Bash", &wrappers), Deny);
    let shells = format!("{}rm x{}", "bash -c '".repeat(50), "'".repeat(50));
    let _ = permissions::evaluate(&set, "Bash", &shells);
}

#[test]
fn get_lists_both_files_with_entries_and_warnings() {
    let w = world();
    *w.permissions.user.lock().unwrap() =
        Some(r#"{"permissions":{"allow":["Bash(git *)"]}}"#.into());
    *w.permissions.project.lock().unwrap() =
        Some(r#"{"permissions":{"deny":["Bash(rm *)","bash(x)"]}}"#.into());
    let view = permissions::get(&w.deps);
    assert!(view.has_rules);
    assert_eq!(view.files.len(), 2);
    assert_eq!(view.files[0].scope, PermissionScope::User);
    assert!(!view.files[0].editable);
    assert_eq!(view.files[1].scope, PermissionScope::Project);
    assert!(view.files[1].editable);
    let project: Vec<(RuleKind, &str, bool)> = view.files[1]
        .rules
        .iter()
        .map(|r| (r.kind, r.rule.as_str(), r.problem.is_some()))
        .collect();
    assert_eq!(
        project,
        [
            (RuleKind::Deny, "Bash(rm *)", false),
            (RuleKind::Deny, "bash(x)", true)
        ]
    );
    assert_eq!(view.warnings.len(), 1);
    assert!(view.warnings[0].message.contains("did you mean \"Bash\""));
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["files"][1]["rules"][0]["kind"], "deny");
    assert_eq!(json["files"][0]["scope"], "user");
}

#[test]
fn save_edits_the_project_file_and_refuses_bad_rules() {
    let (dir, deps, events) = fs_world();
    let change = |kind, rule: &str| RuleChange {
        kind,
        rule: rule.to_owned(),
    };
    let view = permissions::save(
        &deps,
        &PermissionEdit {
            add: vec![change(RuleKind::Deny, "Bash(rm *)")],
            remove: vec![],
        },
    )
    .unwrap();
    let file = dir.path().join(".ideai/permissions.json");
    let saved = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
    };
    assert_eq!(
        saved(),
        serde_json::json!({"permissions": {"deny": ["Bash(rm *)"]}})
    );
    assert!(view.warnings.is_empty());
    assert!(events.take().contains(&DomainEvent::PermissionsChanged));

    // An invalid addition is refused, naming the rule, and nothing is written.
    for bad in ["Edit(src/[)", "Bash(rm -rf"] {
        let err = permissions::save(
            &deps,
            &PermissionEdit {
                add: vec![
                    change(RuleKind::Allow, "Bash(git *)"),
                    change(RuleKind::Allow, bad),
                ],
                remove: vec![change(RuleKind::Deny, "Bash(rm *)")],
            },
        )
        .unwrap_err();
        assert_eq!(
            err.kind(),
            idea_application::error::ErrorKind::InvalidParams,
            "{err}"
        );
        assert!(err.to_string().contains(bad), "{err}");
        assert_eq!(
            saved(),
            serde_json::json!({"permissions": {"deny": ["Bash(rm *)"]}})
        );
        assert!(!events.take().contains(&DomainEvent::PermissionsChanged));
    }

    // A bad rule written by hand is still removed.
    std::fs::write(
        &file,
        r#"{"permissions": {"deny": ["Bash(rm *)"], "allow": ["Edit(src/[)"]}}"#,
    )
    .unwrap();
    permissions::save(
        &deps,
        &PermissionEdit {
            add: vec![],
            remove: vec![change(RuleKind::Allow, "Edit(src/[)")],
        },
    )
    .unwrap();
    let set = permissions::load(&deps);
    assert!(set.warnings().is_empty());
    assert_eq!(permissions::evaluate(&set, "Bash", "ls; rm x"), Deny);
}

#[test]
fn save_refuses_to_rewrite_a_file_it_cannot_read_whole() {
    let (dir, deps, _events) = fs_world();
    let file = dir.path().join(".ideai/permissions.json");
    std::fs::write(&file, "{\"permissions\": {\"deny\": [\"Bash(rm *)\"").unwrap();
    let edit = PermissionEdit {
        add: vec![RuleChange {
            kind: RuleKind::Allow,
            rule: "Bash(ls *)".into(),
        }],
        remove: vec![],
    };
    let err = permissions::save(&deps, &edit).unwrap_err();
    assert_eq!(err.code(), idea_application::ErrorCode::CorruptFile);
    assert!(err.to_string().contains("invalid JSON"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "{\"permissions\": {\"deny\": [\"Bash(rm *)\""
    );
    // A link in its place is refused as well, and its target left alone.
    std::fs::remove_file(&file).unwrap();
    let target = dir.path().join("elsewhere.json");
    std::fs::write(&target, "{}").unwrap();
    std::os::unix::fs::symlink(&target, &file).unwrap();
    let err = permissions::save(&deps, &edit).unwrap_err();
    assert_eq!(err.code(), idea_application::ErrorCode::UnsafePath);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "{}");
}
