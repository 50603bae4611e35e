//! `codemode sdk`: prints the section for a file or stdin; malformed input gives a message
//! naming the problem and exit status 2.

use std::process::Output;

use codemode::code::sdk::render_sdk_section;
use codemode::runtime::Language;

use super::{fixture, root};

fn codemode(args: &[&str], stdin: Option<&str>) -> Output {
    crate::cli::codemode(&root(), args, stdin.unwrap_or(""))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn prints_the_typescript_section_of_a_file() {
    let output = codemode(
        &["sdk", "--schemas", "fixtures/tools/example.tools.json"],
        None,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = render_sdk_section(Language::TypeScript, &fixture("tools/example.tools.json"));
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
}

#[test]
fn prints_the_python_section_from_stdin() {
    let text = std::fs::read_to_string(root().join("fixtures/corpus/github-mcp-server.tools.json"))
        .expect("read corpus");
    let output = codemode(&["sdk", "--schemas", "-", "--lang", "python"], Some(&text));
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = render_sdk_section(
        Language::Python,
        &fixture("corpus/github-mcp-server.tools.json"),
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
}

#[test]
fn bad_json_names_the_file_line_and_column() {
    let output = codemode(
        &["sdk", "--schemas", "-"],
        Some("[\n  {\"name\": \"a\",}\n]"),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr(&output),
        "codemode: <stdin>:2:16: not valid JSON: trailing comma\n"
    );
}

#[test]
fn a_malformed_tool_names_its_index() {
    let output = codemode(
        &["sdk", "--schemas", "-"],
        Some(r#"{"tools": [{"name": "ok"}, {"name": 7}]}"#),
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "codemode: <stdin>: tool 1: `name` must be a string, got integer\n"
    );
}

#[test]
fn an_unreadable_file_is_named() {
    let output = codemode(&["sdk", "--schemas", "fixtures/does-not-exist.json"], None);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.starts_with("codemode: cannot read fixtures/does-not-exist.json: "),
        "{message}"
    );
}

#[test]
fn an_unknown_language_is_a_usage_error() {
    let output = codemode(&["sdk", "--schemas", "-", "--lang", "ruby"], Some("[]"));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unknown SDK language `ruby`"),
        "{}",
        stderr(&output)
    );
}

/// A tool list whose schema nests `depth` objects around a string with a `maximum` no
/// JavaScript number holds (a schema may say so), as text: serde_json stops at 128
/// levels of JSON, each of these is two.
fn deep_tool_list(depth: usize) -> String {
    let mut schema = String::from(r#"{"type": "integer", "maximum": 18446744073709551616}"#);
    for _ in 0..depth {
        schema = format!(
            r#"{{"type": "object", "properties": {{"a": {schema}}}, "required": ["a"], "additionalProperties": false}}"#
        );
    }
    format!(r#"{{"tools": [{{"name": "deep", "inputSchema": {schema}}}]}}"#)
}

#[test]
fn a_schema_nested_five_thousand_levels_renders_fully() {
    let depth = 5_000;
    let text = deep_tool_list(depth);
    let started = std::time::Instant::now();
    let output = codemode(&["sdk", "--schemas", "-"], Some(&text));
    let elapsed = started.elapsed();
    assert!(output.status.success(), "{}", stderr(&output));
    // Generous: a loaded machine, a debug build.
    assert!(elapsed < std::time::Duration::from_secs(10), "{elapsed:?}");
    let section = String::from_utf8_lossy(&output.stdout);
    assert!(!section.contains("unknown"));
    assert_eq!(section.matches("a: {").count(), depth - 1);
    assert!(
        section.contains("maximum: 1.8446744073709552e+19"),
        "the number as read"
    );
    assert!(section.len() < 100 * depth, "{} bytes", section.len());
}

#[test]
fn a_schema_nested_deeper_than_the_limit_ends_in_unknown() {
    let depth = codemode::json::DEFAULT_MAX_DEPTH + 1;
    let output = codemode(
        &["sdk", "--schemas", "-", "--lang", "python"],
        Some(&deep_tool_list(depth)),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let section = String::from_utf8_lossy(&output.stdout);
    assert_eq!(section.matches(": Any\n").count(), 1);
}
