//! The static check before a run, in Python: a call of a tool the scope does not have
//! refuses the run before any tool is called (no worker is used), naming the nearest
//! tools; names in strings and comments, and computed names, are not refused.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use codemode::ErrorCode;
use codemode::registry::Registry;
use codemode::tool::ToolExecutionInput;
use serde_json::json;

use super::code_mode_registry as registry;
use crate::codemode::static_check::recording_registry;
use crate::codemode::text;

async fn run(registry: &Registry, program: &str) -> Arc<codemode::tool::ToolExecutionResult> {
    registry
        .execute(ToolExecutionInput::new(
            "py-static",
            "run_code",
            json!({"code": program, "description": "a Python test program"}),
        ))
        .await
}

#[tokio::test]
async fn an_unknown_tool_refuses_the_run_before_any_call() {
    let registry = registry();
    let calls = recording_registry(&registry);
    let result = run(
        &registry,
        "await tools.create_issue({'title': 'x'})\nopen = await tools.listIssues()\nreturn open\n",
    )
    .await;
    assert_eq!(result.failure_info().unwrap().code, ErrorCode::UnknownTool);
    assert_eq!(
        result.model_text(),
        "Error: code run refused before it started (no tool was called): the program calls a tool this scope does not have:\n\
         - tools.listIssues (line 2, column 20): did you mean list_issues?"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0, "no tool ran");
}

#[tokio::test]
async fn names_in_strings_comments_and_computed_calls_are_not_refused() {
    let registry = registry();
    let calls = recording_registry(&registry);
    let program = r#"
# tools.nope({}) in a comment
s = "tools.nope({})" + 'tools.nope({})' + """
tools.nope({})
"""
t = f"tools.nope({{}}) {await tools.list_issues({})}"
name = "no" + "pe"
try:
    await tools[name]({})
    refused = ""
except KeyError as e:
    refused = str(e)
return [t, "nope" in refused]
"#;
    let result = run(&registry, program).await;
    let value = result.value().map(|v| v["value"].clone());
    assert_eq!(
        value,
        Some(json!(["tools.nope({}) done", true])),
        "{}",
        text(&result)
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

/// A call the program never awaits is reported in what the model reads, after the
/// program's own output; awaited and gathered calls are not.
#[tokio::test]
async fn a_call_never_awaited_is_reported() {
    let registry = registry();
    let calls = recording_registry(&registry);
    let program = r#"import asyncio
print("start")
tools.list_issues({})
bad = tools.create_issue({"n": float("nan")})
await asyncio.sleep(0.3)
await asyncio.gather(tools.list_issues({}))
await tools.list_issues()
done = tools.list_issues()
await asyncio.sleep(0.3)
done.result()
return "end"
"#;
    let result = run(&registry, program).await;
    let logs: Vec<String> = result.value().unwrap()["logs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        logs,
        [
            "start",
            "tools.list_issues (line 3) was called but never awaited: it ran, and its result was dropped; await it to use the result",
            "tools.create_issue (line 4) was called but never awaited: it failed and the error was never raised: the arguments are not lossless JSON: $.n: nan is not a finite number (JSON has no NaN or Infinity)",
        ],
        "{}",
        text(&result)
    );
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    assert!(text(&result).ends_with("\nend"), "{}", text(&result));
}

/// A name the check leaves to the run (computed) still gets one suggestion, the
/// namespace's, not Python's second one after it.
#[tokio::test]
async fn a_computed_unknown_name_gets_one_suggestion() {
    let registry = registry();
    recording_registry(&registry);
    let result = run(
        &registry,
        "name = 'list_issue'\nreturn await getattr(tools, name)()",
    )
    .await;
    assert_eq!(
        result.model_text(),
        "Error: code run failed (exception): AttributeError: tools has no member 'list_issue'; did you mean tools.list_issues or tools.create_issue?\n  at program.py, line 2"
    );
}

/// An attribute the check leaves to the run (`tools` reached through another name) gets the
/// namespace's one suggestion too.
#[tokio::test]
async fn an_unknown_attribute_reached_through_an_alias_gets_one_suggestion() {
    let registry = registry();
    recording_registry(&registry);
    let result = run(&registry, "t = tools\nreturn await t.list_issue()").await;
    assert_eq!(
        result.model_text(),
        "Error: code run failed (exception): AttributeError: tools has no member 'list_issue'; did you mean tools.list_issues or tools.create_issue?\n  at program.py, line 2"
    );
}
