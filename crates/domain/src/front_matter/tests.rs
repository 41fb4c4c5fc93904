use super::*;

fn fields(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn split_finds_the_block_and_the_body() {
    let text = "---\nname: a\n---\n# Body\n";
    assert_eq!(split(text), Some(("name: a\n", "# Body\n")));
}

#[test]
fn split_tolerates_a_bom_crlf_and_trailing_spaces_on_fences() {
    let text = "\u{FEFF}---  \r\nname: a\r\n---\t\r\nbody\r\n";
    assert_eq!(split(text), Some(("name: a\r\n", "body\r\n")));
}

#[test]
fn split_of_an_empty_block_or_body() {
    assert_eq!(split("---\n---\n"), Some(("", "")));
    assert_eq!(split("---\na: 1\n---"), Some(("a: 1\n", "")));
}

#[test]
fn split_needs_an_opening_line_and_a_closing_one() {
    assert_eq!(split("# no front matter\n---\n"), None);
    assert_eq!(split("---\nname: a\nbody without end\n"), None);
    assert_eq!(split(" ---\na: 1\n---\n"), None);
    assert_eq!(split("----\na: 1\n---\n"), None);
    assert_eq!(split(""), None);
    // `---x` inside the block is not a closing line.
    assert_eq!(
        split("---\na: 1\n---x\n---\nb"),
        Some(("a: 1\n---x\n", "b"))
    );
}

#[test]
fn parse_keeps_scalars_as_their_text() {
    let fm = parse(
        "name: pdf\ncount: 42\nversion: 1.10\nenabled: true\nanswer: yes\nquoted: \"a: b\"\n",
    );
    assert_eq!(
        fm.fields,
        fields(&[
            ("answer", "yes"),
            ("count", "42"),
            ("enabled", "true"),
            ("name", "pdf"),
            ("quoted", "a: b"),
            ("version", "1.10"),
        ])
    );
    assert!(fm.warnings.is_empty());
}

#[test]
fn parse_skips_maps_lists_and_nulls() {
    let fm = parse("name: x\nallowed-tools:\n  - Read\n  - Grep\nmetadata:\n  a: 1\nempty:\n");
    assert_eq!(fm.fields, fields(&[("name", "x")]));
    assert!(fm.warnings.is_empty());
}

#[test]
fn parse_reads_block_scalars() {
    let fm = parse("description: >\n  Folded\n  text.\nbody: |\n  a\n  b\n");
    assert_eq!(fm.get("description"), Some("Folded text."));
    assert_eq!(fm.fields["body"], "a\nb\n");
}

#[test]
fn parse_of_an_empty_block_is_empty() {
    assert_eq!(parse(""), FrontMatter::default());
    assert_eq!(parse("# only a comment\n"), FrontMatter::default());
}

#[test]
fn invalid_yaml_is_read_line_by_line_like_the_clis() {
    let fm = parse("name: pdf\ndescription: Use when: the user asks for a PDF\n");
    assert_eq!(
        fm.fields,
        fields(&[
            ("description", "Use when: the user asks for a PDF"),
            ("name", "pdf")
        ])
    );
    assert_eq!(fm.warnings.len(), 1);
    assert!(
        fm.warnings[0].starts_with("front matter is not valid YAML (")
            && fm.warnings[0].ends_with("); read line by line"),
        "{:?}",
        fm.warnings
    );
}

#[test]
fn the_line_reading_joins_indented_lines_and_unquotes() {
    let fm = parse(
        "# comment\nname: \"pdf\"\ndescription: Use when: a\n  and b\n\n   and c\nother: 'x'\nkey:\n  value on the next line\nnot a key\n",
    );
    assert_eq!(
        fm.fields,
        fields(&[
            ("description", "Use when: a and b and c"),
            ("key", "value on the next line"),
            ("name", "pdf"),
            ("other", "x"),
        ])
    );
}

#[test]
fn the_line_reading_keeps_the_last_of_a_duplicate_key() {
    let fm = parse("name: a\nname: b\n");
    assert_eq!(fm.fields, fields(&[("name", "b")]));
    assert_eq!(fm.warnings.len(), 1);
}

#[test]
fn the_line_reading_drops_block_indicators() {
    let fm = parse("a: Use when: x\nlit: |\n  one\n  two\nfold: >-\n  three\n  four\n");
    assert_eq!(fm.fields["lit"], "one\ntwo");
    assert_eq!(fm.fields["fold"], "three four");
}

#[test]
fn garbage_never_panics() {
    for text in [
        "{",
        "[",
        ": :",
        "---",
        "\"",
        "'",
        "a: [1, 2",
        "a: *nope",
        "!!binary x",
        "\t\t",
        "a:\n\t- b",
        "? complex\n: key",
        "&a [*a]",
        "a: \"\\u\"",
        "\u{0}",
    ] {
        let _ = parse(text);
        let _ = split(text);
    }
}

#[test]
fn get_trims_and_hides_blank_values() {
    let fm = parse("a: '  x  '\nb: '  '\n");
    assert_eq!(fm.get("a"), Some("x"));
    assert_eq!(fm.get("b"), None);
    assert_eq!(fm.get("c"), None);
}

#[test]
fn trim_body_drops_leading_blank_lines_and_trailing_space() {
    assert_eq!(trim_body("\n  \n  code\ntext\n\n"), "  code\ntext");
    assert_eq!(trim_body("\r\n\r\nx\r\n"), "x");
    assert_eq!(trim_body(""), "");
    assert_eq!(trim_body("\n\n"), "");
}

#[test]
fn quoted_text_reads_back_the_same() {
    for text in [
        "plain",
        "Use when: x",
        "# not a comment",
        "\"quotes\" and 'single'",
        "back\\slash",
        "two\nlines\r\n\ttab",
        "nul \u{0} bell \u{7} nel \u{85} ls \u{2028} bom \u{FEFF}",
        "",
        " spaces ",
        "- dash",
        "---",
    ] {
        let fm = parse(&format!("v: {}\n", yaml_quoted(text)));
        assert_eq!(
            fm.fields.get("v").map(String::as_str),
            Some(text),
            "{text:?}"
        );
        assert!(fm.warnings.is_empty());
    }
}

#[test]
fn parse_keeps_the_spelling_of_numbers_next_to_comments_and_crlf() {
    let fm = parse("n: 42 # the answer\r\nf: .5\r\nbig: 1e3\r\nq: \"42\"\r\nhex: 0x1F\r\n");
    assert_eq!(
        fm.fields,
        fields(&[
            ("big", "1e3"),
            ("f", ".5"),
            ("hex", "0x1F"),
            ("n", "42"),
            ("q", "42")
        ])
    );
    assert!(fm.warnings.is_empty());
}

#[test]
fn parse_joins_a_plain_scalar_over_lines() {
    let fm = parse("description: first line\n  second line\nname: x\n");
    assert_eq!(fm.get("description"), Some("first line second line"));
    assert!(fm.warnings.is_empty());
}

proptest::proptest! {
    #[test]
    fn reading_never_panics(text in "\\PC{0,200}") {
        let _ = parse(&text);
        if let Some((yaml, body)) = split(&text) {
            proptest::prop_assert!(text.ends_with(body));
            let _ = parse(yaml);
        }
    }

    #[test]
    fn yaml_like_text_never_panics(text in "[-:#'\"|>\\[\\]{}&*!? \\n\\ta-c0-9]{0,120}") {
        let _ = parse(&text);
    }
}
