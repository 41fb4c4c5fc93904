#![allow(clippy::unwrap_used)]
use super::*;

fn bridge() -> McpBridge {
    McpBridge {
        program: PathBuf::from("/opt/idea/bin/idea"),
        env: BTreeMap::from([
            ("XDG_RUNTIME_DIR".to_owned(), "/run/user/1000".to_owned()),
            ("TMPDIR".to_owned(), "/tmp/x \"y\"".to_owned()),
        ]),
    }
}

fn handoff(style: &McpStyle) -> McpHandoff {
    let bridge = bridge();
    let command = BridgeCommand {
        bridge: &bridge,
        project_root: Path::new("/home/u/my project"),
        requester: "0b6c7a52-1111-4222-8333-444455556666",
    };
    mcp_handoff(
        style,
        &command,
        Path::new("/home/u/my project/.ideai/run/a1"),
    )
}

const BRIDGE_ARGS: [&str; 5] = [
    "mcp-server",
    "--project",
    "/home/u/my project",
    "--requester",
    "0b6c7a52-1111-4222-8333-444455556666",
];

#[test]
fn claude_gets_a_config_file_flag_and_only_idea_s_tools_allowed() {
    let out = handoff(&McpStyle::ConfigFileFlag {
        flag: "--mcp-config".into(),
    });
    let file = "/home/u/my project/.ideai/run/a1/.idea-mcp.json";
    assert_eq!(
        out.args,
        ["--mcp-config", file, "--allowedTools", "mcp__idea"]
    );
    let [(path, text)] = out.files.as_slice() else {
        panic!("one file");
    };
    assert_eq!(path, Path::new(file));
    let json: Value = serde_json::from_str(text).unwrap();
    let server = &json["mcpServers"]["idea"];
    assert_eq!(server["type"], "stdio");
    assert_eq!(server["command"], "/opt/idea/bin/idea");
    assert_eq!(server["args"], json!(BRIDGE_ARGS));
    assert_eq!(server["env"]["XDG_RUNTIME_DIR"], "/run/user/1000");
}

#[test]
fn codex_gets_toml_overrides_with_env_and_approval() {
    let out = handoff(&McpStyle::ConfigOverrides);
    assert!(out.files.is_empty());
    let overrides: Vec<&str> = out
        .args
        .chunks(2)
        .map(|pair| {
            assert_eq!(pair[0], "-c");
            pair[1].as_str()
        })
        .collect();
    assert_eq!(
        overrides,
        [
            r#"mcp_servers.idea.command="/opt/idea/bin/idea""#,
            r#"mcp_servers.idea.args=["mcp-server","--project","/home/u/my project","--requester","0b6c7a52-1111-4222-8333-444455556666"]"#,
            r#"mcp_servers.idea.env={TMPDIR="/tmp/x \"y\"",XDG_RUNTIME_DIR="/run/user/1000"}"#,
            r#"mcp_servers.idea.default_tools_approval_mode="approve""#,
        ]
    );
}

#[test]
fn odd_env_keys_are_quoted_in_toml() {
    let env = BTreeMap::from([("A.B".to_owned(), "1".to_owned())]);
    assert_eq!(toml_inline_table(&env), r#"{"A.B"="1"}"#);
    assert_eq!(toml_inline_table(&BTreeMap::new()), "{}");
}

#[test]
fn gemini_and_opencode_get_their_own_files_in_the_cwd() {
    let gemini = handoff(&McpStyle::SettingsFile {
        path: ".idea-gemini-settings.json".into(),
        env: Some("GEMINI_CLI_SYSTEM_SETTINGS_PATH".into()),
        turns_only: true,
    });
    assert!(gemini.args.is_empty());
    let (path, text) = &gemini.files[0];
    let file = "/home/u/my project/.ideai/run/a1/.idea-gemini-settings.json";
    assert_eq!(path, Path::new(file));
    assert_eq!(
        gemini.env,
        [(
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH".to_owned(),
            file.to_owned()
        )]
    );
    let json: Value = serde_json::from_str(text).unwrap();
    assert_eq!(json["mcpServers"]["idea"]["args"], json!(BRIDGE_ARGS));
    assert_eq!(json["mcpServers"]["idea"]["trust"], true);

    let opencode = handoff(&McpStyle::OpencodeConfig {
        path: "opencode.json".into(),
    });
    let json: Value = serde_json::from_str(&opencode.files[0].1).unwrap();
    let server = &json["mcp"]["idea"];
    assert_eq!(server["type"], "local");
    assert_eq!(server["command"][0], "/opt/idea/bin/idea");
    assert_eq!(server["command"][1], "mcp-server");
    assert_eq!(server["environment"]["XDG_RUNTIME_DIR"], "/run/user/1000");
}

#[test]
fn the_mcp_guide_names_the_tools_and_shows_one_example() {
    let guide = mcp_guide();
    assert!(guide.contains("idea_ask_agent") && guide.contains("Example:"));
}

#[test]
fn a_turns_only_style_serves_no_cell() {
    let gemini = McpStyle::SettingsFile {
        path: ".idea-gemini-settings.json".into(),
        env: None,
        turns_only: true,
    };
    assert!(!gemini.serves_cells());
    assert!(McpStyle::ConfigOverrides.serves_cells());
}
