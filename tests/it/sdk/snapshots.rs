//! Golden SDK text, both languages, for every fixture tool list. A change to the SDK shows
//! up here as a reviewable diff (`cargo insta review`).

use codemode::code::sdk::{json_schema_to_ts, render_sdk_section};
use codemode::runtime::Language;
use serde_json::json;

use super::{CORPUS, fixture};

fn snapshot_both(name: &str, path: &str) {
    let tools = fixture(path);
    for language in [Language::TypeScript, Language::Python] {
        let text = render_sdk_section(language, &tools);
        insta::assert_snapshot!(format!("{name}.{language}"), text);
    }
}

#[test]
fn enforced_subset() {
    snapshot_both("subset", CORPUS[1].1);
}

#[test]
fn real_world_constructs() {
    snapshot_both("real_world", CORPUS[2].1);
}

#[test]
fn exotic_names() {
    snapshot_both("exotic_names", CORPUS[3].1);
}

#[test]
fn malformed_schemas_degrade_to_unknown() {
    snapshot_both("malformed", CORPUS[4].1);
}

#[test]
fn readme_example() {
    snapshot_both("example", CORPUS[5].1);
}

#[test]
fn empty_tool_set() {
    snapshot_both("empty", CORPUS[6].1);
}

/// zod-to-json-schema's `$ref`s to another property (`isRevision` -> `nextThoughtNeeded`)
/// are that property's schema, not its name or its documentation.
#[test]
fn sequential_thinking_references_between_properties() {
    snapshot_both("sequential_thinking", CORPUS[7].1);
    let tools = fixture(CORPUS[7].1);
    let ts = render_sdk_section(Language::TypeScript, &tools);
    assert!(!ts.contains("NextThoughtNeeded"), "{ts}");
    assert!(
        ts.contains(
            "    /** Whether this revises previous thinking */\n    isRevision?: boolean;\n"
        ),
        "{ts}"
    );
    assert!(
        ts.contains("    /** If more thoughts are needed */\n    needsMoreThoughts?: boolean;\n"),
        "{ts}"
    );
    let py = render_sdk_section(Language::Python, &tools);
    assert!(!py.contains("NextThoughtNeeded"), "{py}");
    assert!(
        py.contains("    # Whether this revises previous thinking\n    isRevision: bool\n"),
        "{py}"
    );
}

#[test]
fn github_mcp_server_corpus() {
    snapshot_both("github", CORPUS[0].1);
}

#[test]
fn json_schema_to_ts_expressions() {
    let cases = [
        json!({"type": "integer"}),
        json!({"type": "string", "enum": ["a", "b"]}),
        json!({"type": ["string", "null"]}),
        json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "number"}]}}),
        json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "minItems": 1}),
        json!({"type": "object", "additionalProperties": {"type": "integer"}}),
        json!({"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "number"}}, "required": ["b"]}]}),
        json!({"$ref": "#/$defs/a", "$defs": {"a": {"type": "string", "nullable": true}}}),
        json!({"$ref": "#/definitions/list", "definitions": {"list": {"type": "object", "properties": {"next": {"$ref": "#/definitions/list"}}, "additionalProperties": false}}}),
        json!({"const": {"a": [1, "two", null]}}),
        json!(false),
        json!(true),
        json!(42),
    ];
    let rendered: Vec<String> = cases
        .iter()
        .map(|schema| format!("{schema}\n=> {}\n", json_schema_to_ts(schema)))
        .collect();
    insta::assert_snapshot!("json_schema_to_ts", rendered.join("\n"));
}
