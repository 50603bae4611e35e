//! The static check before a run, in TypeScript: a call of a tool the scope does not have
//! refuses the run before any tool is called, naming the nearest tools; names in strings,
//! comments, regular expressions and template text, and computed names, are not refused.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use codemode::ErrorCode;
use codemode::code::PresentationMode;
use codemode::registry::Registry;
use codemode::tool::{ToolDefinition, ToolOutput};
use serde_json::json;

use super::{registry, run_program, text};

/// `list_issues` and `create_issue`, counting their calls.
pub fn recording_registry(registry: &Registry) -> Arc<AtomicUsize> {
    let calls = Arc::new(AtomicUsize::new(0));
    for name in ["list_issues", "create_issue"] {
        let calls = calls.clone();
        let tool = ToolDefinition::builder(name)
            .parameters(json!({"type": "object"}))
            .output(ToolOutput::any())
            .execute(move |_, _| {
                let calls = calls.clone();
                async move {
                    calls.fetch_add(1, Ordering::SeqCst);
                    Ok(json!("done"))
                }
            })
            .build()
            .unwrap();
        registry.global().register(tool).unwrap().keep();
    }
    calls
}

#[tokio::test]
async fn an_unknown_tool_refuses_the_run_before_any_call() {
    let registry = registry(PresentationMode::Code, 10);
    let calls = recording_registry(&registry);
    let result = run_program(
        &registry,
        "await tools.create_issue({title: 'x'});\nconst open = await tools.list_issue({});\nreturn open;",
    )
    .await;
    assert_eq!(result.failure_info().unwrap().code, ErrorCode::UnknownTool);
    assert_eq!(
        result.model_text(),
        "Error: code run refused before it started (no tool was called): the program calls a tool this scope does not have:\n\
         - tools.list_issue (line 2, column 26): did you mean list_issues?"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0, "no tool ran");

    let result = run_program(
        &registry,
        "await tools['createIssue']({}); await tools.deploy({}); await tools.deploy({})",
    )
    .await;
    assert_eq!(
        result.model_text(),
        "Error: code run refused before it started (no tool was called): the program calls tools this scope does not have:\n\
         - tools['createIssue'] (line 1, column 13): did you mean create_issue?\n\
         - tools.deploy (line 1, column 45): no tool is named like it; the tools are create_issue, list_issues"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn names_in_strings_comments_and_computed_calls_are_not_refused() {
    let registry = registry(PresentationMode::Code, 10);
    let calls = recording_registry(&registry);
    let program = r#"
        // tools.nope({}) in a comment
        /* and tools.nope({}) in a block comment */
        const s: string = "tools.nope({})" + 'tools.nope({})';
        const t = `tools.nope({}) ${await tools.list_issues({})} tools.nope({})`;
        const r = /tools\.nope\(\{\}\)/;
        const name = 'no' + 'pe';
        let refused = '';
        try { await tools[name]({}); } catch (e) { refused = String(e); }
        return [t, r.test(s), refused, typeof tools.maybe];
    "#;
    let result = run_program(&registry, program).await;
    let value = result.value().map(|v| v["value"].clone());
    assert_eq!(
        value,
        Some(json!([
            "tools.nope({}) done tools.nope({})",
            true,
            // Each engine's own wording: QuickJS names the object, V8 the expression.
            if cfg!(feature = "v8") {
                "TypeError: tools[name] is not a function"
            } else {
                "TypeError: tools is not a function"
            },
            "undefined"
        ])),
        "{}",
        text(&result)
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

/// A computed name the check leaves to the run: when the run fails calling it, the
/// failure names the member and the nearest tools, as the check's refusal does (the error
/// a program catches is the engine's own, and `typeof tools.x` stays `undefined`).
#[tokio::test]
async fn a_computed_unknown_name_gets_the_checks_suggestion_when_the_run_fails() {
    let registry = registry(PresentationMode::Code, 10);
    let calls = recording_registry(&registry);
    let result = run_program(
        &registry,
        "const name = 'list_issue';\nawait tools.create_issue({});\nreturn await tools[name]({});",
    )
    .await;
    assert_eq!(
        result.failure_info().unwrap().code,
        ErrorCode::CodeRunFailed
    );
    let text = result.model_text();
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("Error: code run failed (exception): TypeError: tools")
            && first.ends_with(
                " is not a function (tools has no member \"list_issue\"; did you mean list_issues?)"
            ),
        "{text}"
    );
    assert_eq!(text.matches("did you mean").count(), 1, "{text}");
    assert_eq!(calls.load(Ordering::SeqCst), 1, "the call before it ran");

    // No tool is near: the tools there are, as the refusal lists them.
    let result = run_program(
        &registry,
        "const name = 'deploy';\nif (typeof (tools as any).maybe !== 'undefined') return 'no';\nawait tools[name]({});",
    )
    .await;
    let text = result.model_text();
    assert!(
        text.lines().next().unwrap_or_default().ends_with(
            " is not a function (tools has no member \"deploy\"; no tool is named like it; the tools are create_issue, list_issues)"
        ),
        "{text}"
    );

    // Another call of something that is not a function says nothing of tools.
    let result = run_program(
        &registry,
        "const name = 'nope';\nconst f: any = tools[name];\nf();",
    )
    .await;
    assert!(
        !result.model_text().contains("has no member"),
        "{}",
        result.model_text()
    );
}
