use super::*;
use crate::profile::CliHome;
use proptest::prelude::*;

fn parse(folder: &str, text: &str) -> Result<Skill, String> {
    parse_skill(folder, text, SkillSource::Project, Vec::new())
}

#[test]
fn a_skill_reads_its_name_from_the_folder() {
    let skill = parse_skill(
        "pdf",
        "---\nname: pdf\ndescription: Reads PDFs.\n---\n\n\n# PDF\n\nSteps.\n\n",
        SkillSource::User,
        vec![
            "scripts/run.sh".into(),
            "README.md".into(),
            "scripts/run.sh".into(),
        ],
    )
    .unwrap();
    assert_eq!(
        skill,
        Skill {
            name: "pdf".into(),
            source: SkillSource::User,
            description: "Reads PDFs.".into(),
            body: "# PDF\n\nSteps.".into(),
            files: vec!["README.md".into(), "scripts/run.sh".into()],
            warnings: vec![],
        }
    );
}

#[test]
fn the_folder_wins_over_a_different_front_matter_name() {
    let skill = parse("pdf", "---\nname: PDF Tools\ndescription: x\n---\n").unwrap();
    assert_eq!(skill.name, "pdf");
    assert_eq!(skill.body, "");
    assert_eq!(
        skill.warnings,
        ["its front matter names it `PDF Tools`: the folder's name `pdf` is used"]
    );
}

#[test]
fn a_missing_name_is_fine() {
    let skill = parse("pdf", "---\ndescription: x\n---\nbody").unwrap();
    assert_eq!((skill.name.as_str(), skill.body.as_str()), ("pdf", "body"));
    assert!(skill.warnings.is_empty());
}

#[test]
fn a_colon_in_the_description_loads_like_in_the_clis() {
    let skill = parse(
        "pdf",
        "---\nname: pdf\ndescription: Use when: the user sends a PDF\n---\nbody\n",
    )
    .unwrap();
    assert_eq!(skill.description, "Use when: the user sends a PDF");
    assert_eq!(skill.warnings.len(), 1);
    assert!(skill.warnings[0].contains("read line by line"));
}

#[test]
fn crlf_and_a_bom_load() {
    let skill = parse(
        "pdf",
        "\u{FEFF}---\r\nname: pdf\r\ndescription: Reads PDFs.\r\n---\r\n\r\nBody\r\n",
    )
    .unwrap();
    assert_eq!(
        (skill.description.as_str(), skill.body.as_str()),
        ("Reads PDFs.", "Body")
    );
}

#[test]
fn refusals_say_why() {
    let cases = [
        ("PDF", "---\ndescription: x\n---\n", "not a skill name"),
        ("pdf", "# no front matter\n", "no front matter"),
        ("pdf", "---\ndescription: x\n", "no front matter"),
        ("pdf", "---\nname: pdf\n---\n", "no `description`"),
        ("pdf", "---\ndescription: '  '\n---\n", "no `description`"),
        (
            "pdf",
            "---\ndescription:\n  - a list\n---\n",
            "no `description`",
        ),
    ];
    for (folder, text, reason) in cases {
        let err = parse(folder, text).unwrap_err();
        assert!(err.contains(reason), "{folder} {text:?}: {err}");
    }
    let long = format!("---\ndescription: {}\n---\n", "x".repeat(1025));
    assert_eq!(
        parse("pdf", &long).unwrap_err(),
        "the description has 1025 characters, over the limit of 1024"
    );
    let max = format!("---\ndescription: {}\n---\n", "é".repeat(1024));
    assert!(parse("pdf", &max).is_ok());
}

#[test]
fn skill_names_follow_the_standard() {
    for ok in ["pdf", "a", "pdf-tools", "v2", "0", &"a".repeat(64)] {
        assert_eq!(valid_skill_name(ok), Ok(()), "{ok}");
    }
    let cases = [
        ("", "cannot be empty"),
        (
            &"a".repeat(65) as &str,
            "at most 64 characters (this one has 65)",
        ),
        ("PDF", "(not 'P')"),
        ("pdf_tools", "(not '_')"),
        ("pdf tools", "(not ' ')"),
        ("../x", "(not '.')"),
        ("é", "(not 'é')"),
        ("-pdf", "start or end"),
        ("pdf-", "start or end"),
        ("pdf--tools", "`--`"),
    ];
    for (name, reason) in cases {
        let err = valid_skill_name(name).unwrap_err();
        assert!(err.contains(reason), "{name}: {err}");
    }
}

#[test]
fn sources_map_to_scopes_and_folders() {
    assert_eq!(SkillSource::Project.scope(), Some(SkillScope::Project));
    assert_eq!(SkillSource::User.scope(), Some(SkillScope::User));
    assert_eq!(SkillSource::ClaudeFolder.scope(), None);
    assert_eq!(SkillSource::AgentsFolder.scope(), None);
    let folders = [
        SkillSource::Project,
        SkillSource::User,
        SkillSource::ClaudeFolder,
        SkillSource::AgentsFolder,
    ]
    .map(SkillSource::folder);
    assert_eq!(
        folders,
        [
            ".ideai/skills",
            "~/.ideai/skills",
            ".claude/skills",
            ".agents/skills"
        ]
    );
    assert_eq!(SkillSource::from(SkillScope::User), SkillSource::User);
}

#[test]
fn the_user_scope_reads_the_old_global_spelling() {
    let old: SkillRef = serde_json::from_str(r#"{"scope":"global","skillId":"pdf"}"#).unwrap();
    assert_eq!(old.scope, SkillScope::User);
    assert_eq!(
        serde_json::to_string(&old).unwrap(),
        r#"{"scope":"user","skillId":"pdf"}"#
    );
    assert_eq!(
        serde_json::to_string(&SkillSource::ClaudeFolder).unwrap(),
        r#""claudeFolder""#
    );
}

#[test]
fn native_folders_and_invocations() {
    assert_eq!(native_skills_folder(CliHome::ClaudeCode), ".claude/skills");
    assert_eq!(native_skills_folder(CliHome::Codex), ".agents/skills");
    assert_eq!(native_skills_folder(CliHome::Gemini), ".agents/skills");
    assert_eq!(
        skill_invocation(Some(CliHome::ClaudeCode), "pdf").as_deref(),
        Some("/pdf")
    );
    assert_eq!(
        skill_invocation(Some(CliHome::Gemini), "pdf").as_deref(),
        Some("/pdf")
    );
    assert_eq!(
        skill_invocation(Some(CliHome::Codex), "pdf").as_deref(),
        Some("$pdf")
    );
    assert_eq!(skill_invocation(None, "pdf"), None);
}

#[test]
fn with_name_replaces_the_name_line_and_keeps_the_rest() {
    let text = "---\n# c\nname: Old Name\ndescription: x\n---\nbody\n";
    assert_eq!(
        skill_md_with_name(text, "pdf"),
        "---\n# c\nname: pdf\ndescription: x\n---\nbody\n"
    );
}

#[test]
fn with_name_inserts_a_missing_name_first() {
    let text = "---\ndescription: x\nmetadata:\n  name: nested\n---\nname: in the body\n";
    assert_eq!(
        skill_md_with_name(text, "pdf"),
        "---\nname: pdf\ndescription: x\nmetadata:\n  name: nested\n---\nname: in the body\n"
    );
    assert_eq!(
        skill_md_with_name("---\n---\n", "pdf"),
        "---\nname: pdf\n---\n"
    );
}

#[test]
fn with_name_drops_the_old_value_s_other_lines_and_duplicates() {
    let text = "---\nname: >\n  folded\n  name\ndescription: x\nname: again\n---\n";
    assert_eq!(
        skill_md_with_name(text, "pdf"),
        "---\nname: pdf\ndescription: x\n---\n"
    );
    let empty = "---\nname:\ndescription: x\n---\n";
    assert_eq!(
        skill_md_with_name(empty, "pdf"),
        "---\nname: pdf\ndescription: x\n---\n"
    );
    // `names:` is another key.
    let other = "---\nnames: a\ndescription: x\n---\n";
    assert_eq!(
        skill_md_with_name(other, "pdf"),
        "---\nname: pdf\nnames: a\ndescription: x\n---\n"
    );
}

#[test]
fn with_name_keeps_crlf_and_the_bom() {
    let text = "\u{FEFF}---\r\ndescription: x\r\nname: old\r\n---\r\nbody\r\n";
    assert_eq!(
        skill_md_with_name(text, "pdf"),
        "\u{FEFF}---\r\ndescription: x\r\nname: pdf\r\n---\r\nbody\r\n"
    );
    assert_eq!(
        skill_md_with_name("---\r\ndescription: x\r\n---\r\n", "pdf"),
        "---\r\nname: pdf\r\ndescription: x\r\n---\r\n"
    );
}

#[test]
fn with_name_adds_front_matter_when_there_is_none() {
    assert_eq!(
        skill_md_with_name("# Just a body\n", "pdf"),
        "---\nname: pdf\n---\n# Just a body\n"
    );
    assert_eq!(
        skill_md_with_name("\u{FEFF}body", "pdf"),
        "\u{FEFF}---\nname: pdf\n---\nbody"
    );
}

#[test]
fn with_name_output_parses_to_the_folder_without_warning() {
    let text = "---\nname: Other\ndescription: Reads PDFs.\n---\nbody\n";
    let skill = parse("pdf", &skill_md_with_name(text, "pdf")).unwrap();
    assert!(skill.warnings.is_empty(), "{:?}", skill.warnings);
}

#[test]
fn render_writes_a_file_every_cli_reads() {
    assert_eq!(
        render_skill_md(
            "pdf",
            "Use when: a \"PDF\" arrives",
            "\n# PDF\n\nSteps.\n\n"
        ),
        "---\nname: pdf\ndescription: \"Use when: a \\\"PDF\\\" arrives\"\n---\n\n# PDF\n\nSteps.\n"
    );
    assert_eq!(
        render_skill_md("pdf", "x", "  \n"),
        "---\nname: pdf\ndescription: \"x\"\n---\n"
    );
}

proptest! {
    #[test]
    fn render_then_parse_gives_back_the_description_and_body(
        description in "[ -~\u{e9}\u{2014}\t\n]{0,200}",
        body in "[ -~\u{e9}\n]{0,300}",
    ) {
        prop_assume!(!description.trim().is_empty());
        let text = render_skill_md("my-skill", &description, &body);
        let skill = parse("my-skill", &text).unwrap();
        prop_assert_eq!(skill.description.as_str(), description.trim());
        prop_assert_eq!(skill.body.as_str(), crate::front_matter::trim_body(&body));
        prop_assert!(skill.warnings.is_empty());
    }

    #[test]
    fn with_name_never_loses_the_body(body in "[ -~\n]{0,200}", name in "[a-z]{1,10}") {
        let text = format!("---\nname: other\ndescription: d\n---\n{body}");
        let named = skill_md_with_name(&text, &name);
        let tail = format!("---\n{body}");
        prop_assert!(named.ends_with(&tail));
        prop_assert_eq!(parse(&name, &named).unwrap().warnings.len(), 0);
    }
}
