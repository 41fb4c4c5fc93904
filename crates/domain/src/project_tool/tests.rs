use super::*;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

const ADD: &str = r#"{
  "name": "Addition",
  "description": "Adds two numbers",
  "version": 3,
  "command": {
    "parameters": [
      {"name": "a", "type": "number", "default": "0", "description": "First"},
      {"name": "b", "type": "number"},
    ],
    "run": "node ./add.js {{a}} {{b}}",
  },
}"#;

fn tool(text: &str) -> Result<ProjectTool, String> {
    parse_tool_json("folder", text, ToolSource::Project)
}

fn with_run(params: &str, run: &str) -> Result<ProjectTool, String> {
    tool(&format!(
        r#"{{"description": "d", "command": {{"parameters": [{params}], "run": {}}}}}"#,
        Value::from(run)
    ))
}

fn args(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

#[test]
fn maia_s_format_reads_with_trailing_commas_and_unknown_fields() {
    let add = parse_tool_json("add", ADD, ToolSource::User).unwrap();
    assert_eq!(
        add,
        ProjectTool {
            name: "Addition".into(),
            folder: "add".into(),
            source: ToolSource::User,
            description: "Adds two numbers".into(),
            params: vec![
                ToolParam {
                    name: "a".into(),
                    kind: ParamKind::Number,
                    default: Some("0".into()),
                    description: Some("First".into()),
                },
                ToolParam {
                    name: "b".into(),
                    kind: ParamKind::Number,
                    default: None,
                    description: None,
                },
            ],
            run: vec![
                "node".into(),
                "./add.js".into(),
                "{{a}}".into(),
                "{{b}}".into()
            ],
        }
    );
}

#[test]
fn the_name_defaults_to_the_folder_and_parameters_are_optional() {
    let t = tool(r#"{"description": "Lists", "command": {"run": "ls -la"}}"#).unwrap();
    assert_eq!(t.name, "folder");
    assert!(t.params.is_empty());
    assert_eq!(t.run, ["ls", "-la"]);
    let blank = tool(r#"{"name": " ", "description": "d", "command": {"run": "ls"}}"#).unwrap();
    assert_eq!(blank.name, "folder");
}

#[test]
fn defaults_may_be_numbers_or_strings() {
    let t = with_run(
        r#"{"name":"n","type":"number","default":2.5},{"name":"s","type":"string","default":7}"#,
        "x {{n}} {{s}}",
    )
    .unwrap();
    assert_eq!(t.params[0].default.as_deref(), Some("2.5"));
    assert_eq!(t.params[1].default.as_deref(), Some("7"));
}

#[test]
fn trailing_commas_inside_strings_are_kept() {
    let t = tool(r#"{"description": "a ,] b ,}", "command": {"run": "echo ',]'",},}"#).unwrap();
    assert_eq!(t.description, "a ,] b ,}");
    assert_eq!(t.run, ["echo", ",]"]);
    let escaped = tool(r#"{"description": "q\" ,}", "command": {"run": "x"}}"#).unwrap();
    assert_eq!(escaped.description, "q\" ,}");
}

#[test]
fn run_lines_split_like_a_shell_without_expansion() {
    let t = with_run(
        r#"{"name":"n","type":"string"}"#,
        r#"sh -c 'echo $HOME | wc' "two words" back\ slash --n={{n}} * $(x)"#,
    )
    .unwrap();
    assert_eq!(
        t.run,
        [
            "sh",
            "-c",
            "echo $HOME | wc",
            "two words",
            "back slash",
            "--n={{n}}",
            "*",
            "$(x)"
        ]
    );
}

#[test]
fn refusals_name_what_is_wrong() {
    let cases = [
        ("not json", "TOOL.json is not valid"),
        ("[]", "TOOL.json is not valid"),
        (r#"{"command": {"run": "x"}}"#, "no `description`"),
        (
            r#"{"description": " ", "command": {"run": "x"}}"#,
            "no `description`",
        ),
        (r#"{"description": "d"}"#, "no `command`"),
        (r#"{"description": "d", "command": {}}"#, "no `command.run`"),
        (
            r#"{"description": "d", "command": {"run": "  "}}"#,
            "no `command.run`",
        ),
        (
            r#"{"description": "d", "command": {"run": "echo 'open"}}"#,
            "cannot be split",
        ),
        (
            r#"{"name": "idea_ask_agent", "description": "d", "command": {"run": "x"}}"#,
            "cannot start with `idea_`",
        ),
        (
            r#"{"name": "IDEA_x", "description": "d", "command": {"run": "x"}}"#,
            "`idea_`",
        ),
        (
            r#"{"name": "a b", "description": "d", "command": {"run": "x"}}"#,
            "(not ' ')",
        ),
        (
            &format!(
                r#"{{"name": "{}", "description": "d", "command": {{"run": "x"}}}}"#,
                "a".repeat(65)
            ),
            "at most 64",
        ),
    ];
    for (text, reason) in cases {
        let err = tool(text).unwrap_err();
        assert!(err.contains(reason), "{text}: {err}");
    }
    let param_cases = [
        (r#"{"type":"string"}"#, "x", "parameter 1 has no `name`"),
        (r#"{"name":"a.b","type":"string"}"#, "x", "`a.b` is refused"),
        (r#"{"name":"a"}"#, "x", "`a` has no `type`"),
        (
            r#"{"name":"a","type":"boolean"}"#,
            "x",
            "the type `boolean`",
        ),
        (
            r#"{"name":"a","type":"number","default":"three"}"#,
            "x",
            "(`three`) is not a number",
        ),
        (
            r#"{"name":"a","type":"string","default":[1]}"#,
            "x",
            "a string or a number",
        ),
        (
            r#"{"name":"a","type":"string"},{"name":"a","type":"number"}"#,
            "x",
            "`a` is declared twice",
        ),
        (
            r#"{"name":"a","type":"string"}"#,
            "{{a}} x",
            "the program (`{{a}}`) cannot hold",
        ),
        (
            r#"{"name":"a","type":"string"}"#,
            "./run-{{a}}.sh",
            "cannot hold a placeholder",
        ),
        (
            r#"{"name":"a","type":"string"}"#,
            "x {{b}}",
            "`{{b}}`, which is not a declared parameter",
        ),
    ];
    for (params, run, reason) in param_cases {
        let err = with_run(params, run).unwrap_err();
        assert!(err.contains(reason), "{params} {run}: {err}");
    }
}

#[test]
fn only_name_like_braces_are_placeholders() {
    let t = with_run(
        r#"{"name":"a","type":"string"}"#,
        "docker ps --format {{.Names}} '{{ a }}' {{{a}}} {{a}}{{a}} {{ open",
    )
    .unwrap();
    let call = t.bind(&args(json!({"a": "V"}))).unwrap();
    assert_eq!(
        call.argv,
        [
            "docker",
            "ps",
            "--format",
            "{{.Names}}",
            "V",
            "{V}",
            "VV",
            "{{",
            "open"
        ]
    );
}

#[test]
fn the_schema_lists_parameters_in_order() {
    let t = with_run(
        r#"{"name":"path","type":"string","description":"File"},
           {"name":"count","type":"number","description":"How many","default":"3"},
           {"name":"ratio","type":"number","default":"2.50"},
           {"name":"mode","type":"string","default":"fast"}"#,
        "x {{path}} {{count}} {{ratio}} {{mode}}",
    )
    .unwrap();
    assert_eq!(
        Value::Object(t.input_schema()),
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File"},
                "count": {"type": "number", "description": "How many", "default": 3},
                "ratio": {"type": "number", "default": 2.5},
                "mode": {"type": "string", "default": "fast"},
            },
            "required": ["path"],
            "additionalProperties": false,
        })
    );
    assert_eq!(
        serde_json::to_string(&t.input_schema()).unwrap(),
        r#"{"type":"object","properties":{"path":{"type":"string","description":"File"},"count":{"type":"number","description":"How many","default":3},"ratio":{"type":"number","default":2.5},"mode":{"type":"string","default":"fast"}},"required":["path"],"additionalProperties":false}"#
    );
    let none = tool(r#"{"description": "d", "command": {"run": "x"}}"#).unwrap();
    assert_eq!(
        Value::Object(none.input_schema()),
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
}

#[test]
fn binding_fills_values_and_defaults() {
    let add = tool(ADD).unwrap();
    let call = add.bind(&args(json!({"b": 2}))).unwrap();
    assert_eq!(call.argv, ["node", "./add.js", "0", "2"]);
    assert_eq!(call.values, ["0", "2"]);
    let call = add.bind(&args(json!({"a": "3", "b": 2.5}))).unwrap();
    assert_eq!(call.values, ["3", "2.5"]);
    let call = add.bind(&args(json!({"a": 3.0, "b": " 1e2 ", }))).unwrap();
    assert_eq!(call.values, ["3", "100"]);
    let call = add.bind(&args(json!({"a": null, "b": -7}))).unwrap();
    assert_eq!(call.values, ["0", "-7"]);
}

#[test]
fn binding_refusals_tell_the_model_what_to_send() {
    let add = tool(ADD).unwrap();
    let cases = [
        (json!({}), ToolArgsError::Missing("b".into())),
        (json!({"b": null}), ToolArgsError::Missing("b".into())),
        (json!({"b": 1, "c": 2}), ToolArgsError::Unknown("c".into())),
        (
            json!({"b": "two"}),
            ToolArgsError::WrongType {
                param: "b".into(),
                expected: "a number",
            },
        ),
        (
            json!({"b": "NaN"}),
            ToolArgsError::WrongType {
                param: "b".into(),
                expected: "a number",
            },
        ),
        (
            json!({"b": true}),
            ToolArgsError::WrongType {
                param: "b".into(),
                expected: "a number",
            },
        ),
    ];
    for (value, expected) in cases {
        assert_eq!(add.bind(&args(value.clone())), Err(expected), "{value}");
    }
    assert_eq!(add.bind_value(&json!([1])), Err(ToolArgsError::NotAnObject));
    assert_eq!(add.bind_value(&json!("x")), Err(ToolArgsError::NotAnObject));
    assert_eq!(
        add.bind_value(&Value::Null),
        Err(ToolArgsError::Missing("b".into()))
    );
    assert_eq!(
        ToolArgsError::Missing("b".into()).to_string(),
        "the argument `b` is required"
    );
    assert_eq!(
        ToolArgsError::WrongType {
            param: "b".into(),
            expected: "a number"
        }
        .to_string(),
        "the argument `b` must be a number"
    );
}

#[test]
fn string_parameters_take_strings_and_numbers_as_text() {
    let t = with_run(r#"{"name":"s","type":"string"}"#, "echo {{s}}").unwrap();
    assert_eq!(
        t.bind(&args(json!({"s": 42}))).unwrap().argv,
        ["echo", "42"]
    );
    assert_eq!(t.bind(&args(json!({"s": ""}))).unwrap().argv, ["echo", ""]);
    for bad in [json!(true), json!([]), json!({})] {
        assert_eq!(
            t.bind(&args(json!({"s": bad}))),
            Err(ToolArgsError::WrongType {
                param: "s".into(),
                expected: "a string"
            })
        );
    }
}

#[test]
fn a_value_is_never_split_nor_expanded() {
    let t = with_run(
        r#"{"name":"q","type":"string"}"#,
        "grep -e {{q}} --label={{q}} file",
    )
    .unwrap();
    let call = t
        .bind(&args(json!({"q": "; rm -rf / $(cmd) 'x' \"y\" {{q}}"})))
        .unwrap();
    assert_eq!(
        call.argv,
        [
            "grep",
            "-e",
            "; rm -rf / $(cmd) 'x' \"y\" {{q}}",
            "--label=; rm -rf / $(cmd) 'x' \"y\" {{q}}",
            "file"
        ]
    );
}

#[test]
fn tools_serialize_in_camel_case() {
    let add = tool(ADD).unwrap();
    let json = serde_json::to_value(&add).unwrap();
    assert_eq!(json["source"], "project");
    assert_eq!(json["params"][0]["type"], "number");
    assert!(json["params"][1].get("default").is_none());
    assert_eq!(ToolSource::Project.folder(), ".ideai/tools");
    assert_eq!(ToolSource::User.folder(), "~/.ideai/tools");
}

proptest! {
    #[test]
    fn any_string_value_stays_one_word(value in "\\PC{0,40}", prefix in "[a-z=-]{0,5}") {
        let t = with_run(
            r#"{"name":"v","type":"string"}"#,
            &format!("cmd {prefix}{{{{v}}}} 'fixed word' {{{{v}}}}"),
        ).unwrap();
        let call = t.bind(&args(json!({"v": value.clone()}))).unwrap();
        prop_assert_eq!(call.argv.len(), t.run.len());
        prop_assert_eq!(&call.argv[1], &format!("{prefix}{value}"));
        prop_assert_eq!(&call.argv[3], &value);
        prop_assert_eq!(call.values, vec![value]);
    }

    #[test]
    fn parsing_never_panics(text in "\\PC{0,200}") {
        let _ = tool(&text);
    }
}
