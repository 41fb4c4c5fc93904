//! The declared API, its documentation and its generated TypeScript cannot drift apart.

use idea_api::all_methods;
use idea_application::ErrorCode;
use std::collections::HashSet;
use std::path::PathBuf;
use strum::IntoEnumIterator;

fn repo_file(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn method_names_are_unique() {
    let mut seen = HashSet::new();
    for method in all_methods() {
        assert!(seen.insert(method.name), "{} declared twice", method.name);
    }
}

#[test]
fn every_method_has_its_row_in_docs_api_md() {
    let docs = repo_file("docs/api.md");
    let missing: Vec<_> = all_methods()
        .filter(|m| !docs.contains(&format!("| `{}` |", m.name)))
        .map(|m| m.name)
        .collect();
    assert!(missing.is_empty(), "docs/api.md has no row for {missing:?}");
}

#[test]
fn every_error_code_has_its_row_in_docs_api_md() {
    let docs = repo_file("docs/api.md");
    let missing: Vec<_> = ErrorCode::iter()
        .filter(|code| !docs.contains(&format!("| `{}` |", code.as_str())))
        .collect();
    assert!(missing.is_empty(), "docs/api.md has no row for {missing:?}");
}

#[test]
fn every_method_has_its_generated_typescript_entry() {
    let generated = repo_file("frontend/src/generated/Methods.ts");
    for method in all_methods() {
        let entry = format!("  {}: {{ params: ", method.name);
        assert!(
            generated.contains(&entry),
            "{} is missing from the generated Methods.ts: run scripts/gen-types.sh",
            method.name
        );
        for code in method.errors {
            assert!(generated.contains(&format!("\"{}\"", code.as_str())));
        }
    }
}

#[test]
fn unknown_methods_and_bad_params_are_told_apart_by_name_not_by_message() {
    use idea_api::{DecodeError, Request};
    use serde_json::json;
    assert!(matches!(
        Request::decode("launchRocket", None),
        Err(DecodeError::UnknownMethod(m)) if m == "launchRocket"
    ));
    assert!(matches!(
        Request::decode("createLayout", None),
        Err(DecodeError::BadParams { .. })
    ));
    // An unknown value inside the params (a method's name, even) is still a params problem.
    let nil = "00000000-0000-0000-0000-000000000000";
    assert!(matches!(
        Request::decode(
            "splitCell",
            Some(json!({"layoutId": nil, "nodeId": nil, "direction": "splitCell"}))
        ),
        Err(DecodeError::BadParams { .. })
    ));
    // No params: absent, null and {} all do (`[]` is positional: see `tests/params.rs`).
    for params in [None, Some(json!(null)), Some(json!({}))] {
        assert!(matches!(
            Request::decode("getProject", params),
            Ok(Request::GetProject(()))
        ));
    }
    assert!(matches!(
        Request::decode("createLayout", Some(json!({"name": "Review"}))),
        Ok(Request::CreateLayout(_))
    ));
}
