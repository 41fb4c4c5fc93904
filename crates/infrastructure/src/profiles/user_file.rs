//! Reading `~/.ideai/profiles.json`: `{"version":1,"profiles":[…]}` or a bare array of
//! profiles. Entry by entry: a bad entry is reported and skipped, the others still load.

use idea_domain::ports::ProfileProblem;
use idea_domain::profile::AgentProfile;
use serde_json::Value;
use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::Path;

/// The newest `profiles.json` schema this IdeA understands.
pub const PROFILES_VERSION: u64 = 1;

/// What a user profiles file yielded: the profiles that loaded, in file order, and why the
/// others did not.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct UserProfiles {
    pub profiles: Vec<AgentProfile>,
    pub problems: Vec<ProfileProblem>,
}

impl UserProfiles {
    fn failed(source: &Path, message: String) -> Self {
        Self {
            profiles: Vec::new(),
            problems: vec![problem(source, message)],
        }
    }
}

fn problem(source: &Path, message: String) -> ProfileProblem {
    ProfileProblem {
        source: source.to_path_buf(),
        message,
    }
}

/// Reads the user profiles file at `path`. An absent file is an empty, problem-free result; an
/// unreadable or non-JSON file is one problem. The file is never written.
pub fn read_user_profiles(path: &Path) -> UserProfiles {
    match fs::read_to_string(path) {
        Ok(text) => parse_user_profiles(path, &text),
        Err(e) if e.kind() == io::ErrorKind::NotFound => UserProfiles::default(),
        Err(e) => UserProfiles::failed(
            path,
            format!("cannot read the file: {e}; no user profile loaded"),
        ),
    }
}

/// Parses the text of a user profiles file; `source` names it in the problems.
pub fn parse_user_profiles(source: &Path, text: &str) -> UserProfiles {
    let document: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return UserProfiles::failed(
                source,
                format!("not valid JSON: {e}; no user profile loaded"),
            );
        }
    };
    let (entries, list) = match document {
        Value::Array(entries) => (entries, ""),
        Value::Object(mut object) => {
            match object.get("version") {
                None => {}
                Some(Value::Number(n)) if n.as_u64().is_some_and(|v| v <= PROFILES_VERSION) => {}
                Some(Value::Number(n)) if n.as_u64().is_some() => {
                    return UserProfiles::failed(
                        source,
                        format!(
                            "schema version {n} is newer than the {PROFILES_VERSION} this IdeA understands; no user profile loaded"
                        ),
                    );
                }
                Some(other) => {
                    return UserProfiles::failed(
                        source,
                        format!(
                            "\"version\" must be a whole number, found {other}; no user profile loaded"
                        ),
                    );
                }
            }
            match object.remove("profiles") {
                Some(Value::Array(entries)) => (entries, "profiles"),
                Some(_) => {
                    return UserProfiles::failed(
                        source,
                        "\"profiles\" must be an array; no user profile loaded".to_owned(),
                    );
                }
                None => {
                    return UserProfiles::failed(
                        source,
                        "no \"profiles\" array; no user profile loaded".to_owned(),
                    );
                }
            }
        }
        _ => {
            return UserProfiles::failed(
                source,
                "expected {\"version\":1,\"profiles\":[…]} or an array of profiles; no user profile loaded"
                    .to_owned(),
            );
        }
    };

    let mut loaded = UserProfiles::default();
    let mut seen = BTreeSet::new();
    for (index, entry) in entries.into_iter().enumerate() {
        let id = entry.get("id").and_then(Value::as_str).map(str::to_owned);
        let label = match &id {
            Some(id) => format!("{list}[{index}] (id \"{id}\")"),
            None => format!("{list}[{index}]"),
        };
        let skip = |why: String| problem(source, format!("{label} {why}; entry skipped"));
        if !entry.is_object() {
            loaded
                .problems
                .push(skip("is not a JSON object".to_owned()));
            continue;
        }
        let profile = match serde_json::from_value::<AgentProfile>(entry) {
            Ok(p) => p,
            Err(e) => {
                loaded
                    .problems
                    .push(skip(format!("is not a valid profile: {e}")));
                continue;
            }
        };
        if let Some(why) = invalid(&profile) {
            loaded.problems.push(skip(why));
            continue;
        }
        if !seen.insert(profile.id.clone()) {
            loaded
                .problems
                .push(skip("repeats an id defined earlier in the file".to_owned()));
            continue;
        }
        loaded.profiles.push(profile);
    }
    loaded
}

/// What serde accepts but no launch could use.
fn invalid(profile: &AgentProfile) -> Option<String> {
    if profile.id.as_str().trim().is_empty() {
        return Some("has an empty id".to_owned());
    }
    if profile.command.trim().is_empty() {
        return Some("has an empty command".to_owned());
    }
    None
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use idea_domain::profile::ContextInjection;

    fn parse(text: &str) -> UserProfiles {
        parse_user_profiles(Path::new("/home/u/.ideai/profiles.json"), text)
    }

    const GOOD: &str =
        r#"{"id":"my-agent","name":"Mine","command":"mine","contextInjection":{"kind":"stdin"}}"#;

    #[test]
    fn versioned_document() {
        let loaded = parse(&format!(r#"{{"version":1,"profiles":[{GOOD}]}}"#));
        assert_eq!(loaded.problems, []);
        assert_eq!(loaded.profiles.len(), 1);
        let p = &loaded.profiles[0];
        assert_eq!(p.id.as_str(), "my-agent");
        assert_eq!(p.context_injection, ContextInjection::Stdin);
        assert_eq!(p.version_args, ["--version"], "defaults apply");
    }

    #[test]
    fn bare_array_and_missing_version_are_accepted() {
        assert_eq!(parse(&format!("[{GOOD}]")).profiles.len(), 1);
        assert_eq!(
            parse(&format!(r#"{{"profiles":[{GOOD}]}}"#)).profiles.len(),
            1
        );
        let empty = parse("[]");
        assert!(empty.profiles.is_empty() && empty.problems.is_empty());
    }

    #[test]
    fn bad_entries_are_named_and_skipped() {
        let text = format!(
            r#"{{"version":1,"profiles":[
                {GOOD},
                42,
                {{"id":"no-command","name":"x","contextInjection":{{"kind":"stdin"}}}},
                {{"id":"bad-enum","name":"x","command":"x","contextInjection":{{"kind":"telepathy"}}}},
                {{"name":"no id","command":"x","contextInjection":{{"kind":"stdin"}}}},
                {{"id":"empty-command","name":"x","command":" ","contextInjection":{{"kind":"stdin"}}}},
                {GOOD}
            ]}}"#
        );
        let loaded = parse(&text);
        assert_eq!(loaded.profiles.len(), 1);
        let messages: Vec<&str> = loaded.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(messages.len(), 6, "{messages:#?}");
        for m in &messages {
            assert!(m.starts_with("profiles["), "{m}");
            assert!(m.ends_with("entry skipped"), "{m}");
        }
        assert!(
            messages[0].contains("profiles[1] is not a JSON object"),
            "{}",
            messages[0]
        );
        assert!(
            messages[1].contains(r#"profiles[2] (id "no-command")"#)
                && messages[1].contains("command"),
            "{}",
            messages[1]
        );
        assert!(
            messages[2].contains(r#"profiles[3] (id "bad-enum")"#)
                && messages[2].contains("telepathy"),
            "{}",
            messages[2]
        );
        assert!(
            messages[3].contains("profiles[4] is not a valid profile")
                && messages[3].contains("`id`"),
            "{}",
            messages[3]
        );
        assert!(
            messages[4].contains(r#"(id "empty-command") has an empty command"#),
            "{}",
            messages[4]
        );
        assert!(
            messages[5].contains(r#"profiles[6] (id "my-agent") repeats an id"#),
            "{}",
            messages[5]
        );
        assert!(
            loaded
                .problems
                .iter()
                .all(|p| p.source == Path::new("/home/u/.ideai/profiles.json"))
        );
    }

    #[test]
    fn whole_file_problems() {
        for (text, expect) in [
            ("{not json", "not valid JSON"),
            ("\"text\"", "expected {\"version\":1"),
            (
                r#"{"version":2,"profiles":[]}"#,
                "schema version 2 is newer than the 1",
            ),
            (
                r#"{"version":"one","profiles":[]}"#,
                "\"version\" must be a whole number",
            ),
            (r#"{"version":1}"#, "no \"profiles\" array"),
            (
                r#"{"version":1,"profiles":{}}"#,
                "\"profiles\" must be an array",
            ),
        ] {
            let loaded = parse(text);
            assert!(loaded.profiles.is_empty(), "{text}");
            assert_eq!(loaded.problems.len(), 1, "{text}");
            assert!(
                loaded.problems[0].message.contains(expect),
                "{text}: {}",
                loaded.problems[0].message
            );
        }
    }

    #[test]
    fn bare_array_entries_are_named_by_index() {
        let loaded = parse(r#"[{"id":"x"}]"#);
        assert!(
            loaded.problems[0]
                .message
                .starts_with(r#"[0] (id "x") is not a valid profile"#),
            "{}",
            loaded.problems[0].message
        );
    }
}
