//! The `run_code` transport tool: its schema (two required strings, `code` and
//! `description`, described for the loaded runtime's language), its body (first the static
//! check: a call of a tool the scope does not have refuses the run with `UNKNOWN_TOOL`
//! before it starts; then, when it is on, the type check, which may refuse the run too;
//! then the program runs on the code runtime, every `tools` call going through the bridge
//! and every `store` call to the session's store), and its presentation.
//!
//! - `bridge`: a run's binding calls re-entering the registry's staged pipeline through a
//!   bounded, ordered per-run lane.
//! - `record`: the sub-call records and the hooks observers and the type checker attach by.
//! - `store`: the `store` namespace over the session's store (none: `NO_SESSION`), and
//!   its `code/store` journal events.
//! - `dispatch_log`: the `tools/code-dispatch-log` waterfall of a run's sub-calls.
//! - [`output`]: the model-facing text of a run.
//!
//! Each run is a tracing span, `run_code` (inside its call's `execute_tool` span): the
//! language, the engine, the outcome (`ok`, or the failure kind in `codemode.run.failure`,
//! and `codemode.run.budget` when a budget ran out), the number of sub-calls; the
//! sub-calls' `execute_tool` spans are its children, opened in the order the program made
//! the calls. The program's text is recorded (`codemode.run.code`) only with
//! [`RegistryConfig::trace_content`](crate::registry::RegistryConfig::trace_content).

use std::sync::{Arc, Weak};

use serde_json::json;
use tracing::Instrument as _;
use tracing::field::Empty;

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;
use crate::presentation::{ToolCallKind, ToolCallView};
use crate::registry::{Registry, WeakRegistry};
use crate::runtime::{BindingNamespace, CodeRunErrorKind, CodeRunRequest, CodeRuntime, Language};
use crate::schema::JsonSchema;
use crate::tool::{ToolDefinition, ToolExecution, ToolOutput, ToolRunContext};

use crate::code::checks::static_check;
use crate::code::checks::typecheck::{TYPE_ERROR, Verdict};
use crate::code::store::SessionStore;
use crate::code::{RUN_CODE, TOOLS};

mod bridge;
pub(super) mod dispatch_log;
pub mod output;
mod progress;
pub(super) mod record;
pub(crate) mod store;

use bridge::{BridgeHost, RunBridge};
use output::{failure_text, success_text};
use progress::RunProgress;
use record::SubCallHooks;
use store::{OPERATIONS, STORE, StoreHost};

/// The description of `run_code` a model reads, per language.
pub fn run_code_description(language: Language) -> &'static str {
    match language {
        Language::TypeScript => {
            "Run a TypeScript program that calls the tools declared in the SDK. `code` is the body of an async \
             function: call tools with `await tools.name(args)`, overlap independent calls with `Promise.all`, \
             and `return` a value and/or `console.log` what you need. Only what the program prints or returns \
             comes back to you. `store` keeps JSON values between your programs for as long as this session \
             lasts (`await store.set(key, value)`, `await store.get(key)`). `description` is a short summary of \
             what the program does."
        }
        Language::Python => {
            "Run a Python program that calls the tools declared in the SDK. `code` is the body of an async \
             function: call tools with `await tools.name(args)`, overlap independent calls with \
             `asyncio.gather`, and `return` a value and/or `print` what you need. Only what the program prints \
             or returns comes back to you. `store` keeps JSON values between your programs for as long as this \
             session lasts (`await store.set(key, value)`, `await store.get(key)`). `description` is a short \
             summary of what the program does."
        }
    }
}

fn parameters(language: Language) -> JsonValue {
    let code = match language {
        Language::TypeScript => {
            "The program: the body of an async TypeScript function (erasable syntax only)."
        }
        Language::Python => "The program: the body of an async Python function.",
    };
    json!({
        "type": "object",
        "properties": {
            "code": {"type": "string", "description": code},
            "description": {"type": "string", "description": "A short summary of what the program does."}
        },
        "required": ["code", "description"],
        "additionalProperties": false
    })
}

fn output_schema() -> JsonSchema {
    JsonSchema::parse(&json!({
        "type": "object",
        "properties": {
            "logs": {"type": "array", "items": {"type": "string"}},
            "value": {},
            "typecheck": {"type": "string"}
        },
        "required": ["logs"],
        "additionalProperties": false
    }))
    .unwrap_or_else(|_| JsonSchema::any())
}

/// Builds the `run_code` definition over `runtime` for the registry and layer (its hooks) it
/// is installed in. Both hold this definition, so it holds them weakly.
pub(crate) fn definition(
    registry: WeakRegistry,
    hooks: Weak<dyn SubCallHooks>,
    runtime: Arc<dyn CodeRuntime>,
) -> Result<ToolDefinition, Error> {
    let language = runtime.language();
    ToolDefinition::builder(RUN_CODE)
        .description(run_code_description(language))
        .parameters(parameters(language))
        .output(ToolOutput::new(output_schema(), |_, value| {
            let logs: Vec<String> = value["logs"]
                .as_array()
                .map(|l| {
                    l.iter()
                        .filter_map(|s| s.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            let text = success_text(&logs, value.get("value"));
            vec![ContentBlock::text(with_note(
                text,
                value.get("typecheck").and_then(JsonValue::as_str),
            ))]
        }))
        .present_call(|args| {
            let title = args
                .get("description")
                .and_then(JsonValue::as_str)?
                .to_owned();
            Some(ToolCallView::Generic {
                title,
                kind: Some(ToolCallKind::Execute),
                raw_input: args.get("code").cloned(),
                content: None,
                locations: None,
            })
        })
        .execute(move |args, ctx| {
            let installed = registry.upgrade().zip(hooks.upgrade());
            let runtime = runtime.clone();
            async move {
                let Some((registry, hooks)) = installed else {
                    return Err(Error::new(
                        ErrorCode::ToolFailed,
                        "Code Mode is no longer installed in this registry",
                    ));
                };
                let span = run_span(&registry, runtime.as_ref(), &args);
                run(registry, hooks, runtime, &args, ctx, span.clone())
                    .instrument(span)
                    .await
            }
        })
        .build()
}

fn read_arguments(args: &JsonValue) -> Result<(String, String), Error> {
    let mut problems = Vec::new();
    let code = args.get("code").and_then(JsonValue::as_str);
    let description = args.get("description").and_then(JsonValue::as_str);
    if code.is_none() {
        problems.push("- $.code: required, a string holding the program".to_owned());
    }
    match description {
        None => problems
            .push("- $.description: required, a short summary of what the program does".to_owned()),
        Some(text) if text.trim().is_empty() => problems
            .push("- $.description: must not be empty; summarize what the program does".to_owned()),
        Some(_) => {}
    }
    if let Some(map) = args.as_object() {
        for key in map.keys().filter(|k| *k != "code" && *k != "description") {
            problems.push(format!(
                "- $.{key}: unexpected argument (only `code` and `description`)"
            ));
        }
    }
    match (code, description, problems.is_empty()) {
        (Some(code), Some(description), true) => Ok((code.to_owned(), description.to_owned())),
        _ => Err(Error::new(
            ErrorCode::InvalidArgs,
            format!("invalid arguments:\n{}", problems.join("\n")),
        )),
    }
}

/// The span of one run, a child of the current span (the `dispatch` stage of the run's
/// `execute_tool` span); `run` records its outcome.
fn run_span(registry: &Registry, runtime: &dyn CodeRuntime, args: &JsonValue) -> tracing::Span {
    let span = tracing::info_span!(
        "run_code",
        codemode.run.language = runtime.language().as_str(),
        codemode.run.engine = runtime.isolation(),
        codemode.run.outcome = Empty,
        codemode.run.failure = Empty,
        codemode.run.budget = Empty,
        codemode.run.sub_calls = Empty,
        codemode.run.code = Empty,
        error.type = Empty,
        otel.status_code = Empty,
    );
    if registry.config().trace_content
        && !span.is_disabled()
        && let Some(code) = args.get("code").and_then(JsonValue::as_str)
    {
        span.record("codemode.run.code", code);
    }
    span
}

/// Records how a run ended on its span: `failure` is the failure's kind (or a refusal
/// before the run, `code` its error code), `None` a success.
fn record_outcome(span: &tracing::Span, failure: Option<(&str, ErrorCode)>, sub_calls: u64) {
    if span.is_disabled() {
        return;
    }
    span.record("codemode.run.sub_calls", sub_calls);
    match failure {
        None => {
            span.record("codemode.run.outcome", "ok");
        }
        Some((kind, code)) => {
            span.record("codemode.run.outcome", "error");
            span.record("codemode.run.failure", kind);
            span.record("error.type", code.as_str());
            span.record("otel.status_code", "ERROR");
        }
    }
}

/// The budget a failure of `kind` ran out of, if it is one.
fn budget_of(kind: CodeRunErrorKind) -> Option<&'static str> {
    match kind {
        CodeRunErrorKind::Timeout => Some("time"),
        CodeRunErrorKind::OutputLimit => Some("output"),
        CodeRunErrorKind::WorkerExit => Some("memory"),
        _ => None,
    }
}

/// What a program's checks before its run found: the scope's tool names, the session's
/// store, and the type check's note.
struct Checked {
    members: Vec<String>,
    session: Option<SessionStore>,
    note: Option<String>,
}

/// The checks before a program runs: a call of a tool the scope does not have (or of an
/// operation the store does not have) refuses it; then the type check, when it is on,
/// may. A refusal is the error and its failure kind.
async fn check_before_run(
    registry: &Registry,
    hooks: &dyn SubCallHooks,
    language: Language,
    program: &str,
    outer: &ToolExecution,
) -> Result<Checked, (Error, &'static str)> {
    let scope = registry.scope_of(outer.agent);
    let members: Vec<String> = scope
        .visible_tools()
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect();
    let operations: Vec<String> = OPERATIONS.iter().map(|op| (*op).to_owned()).collect();
    for (global, names) in [(TOOLS, &members), (STORE, &operations)] {
        let unknown = static_check::unknown_calls(language, program, global, names);
        if !unknown.is_empty() {
            let err = Error::new(
                ErrorCode::UnknownTool,
                static_check::refusal_text(global, &unknown, names),
            );
            return Err((err, "unknown-tool"));
        }
    }
    let session = SessionStore::of(&scope);
    let note = match hooks.check_program(&scope, language, program) {
        None => None,
        Some(check) => match check.await {
            Verdict::Refuse { message } => {
                let err = Error::new(
                    ErrorCode::CodeRunFailed,
                    failure_text(TYPE_ERROR, &message, &[]),
                );
                return Err((err, TYPE_ERROR));
            }
            Verdict::Run { note } => note,
        },
    };
    Ok(Checked {
        members,
        session,
        note,
    })
}

/// A run's request: the program with its globals — `tools`, and `store` (with
/// `StoreError`) and `progress` where the program's text contains their names (each bound global costs the run's
/// engine a namespace and an error class to make, and most programs use neither; a
/// program that spells a name only at run time, `globalThis["st" + "ore"]`, finds it
/// absent) — the caller's cancellation, and its printed lines as progress when the caller
/// wants them.
fn run_request(
    program: String,
    tools: BindingNamespace,
    store: BindingNamespace,
    ctx: &ToolRunContext,
) -> CodeRunRequest {
    let progress = RunProgress::new(ctx.clone());
    let mut namespaces = vec![tools];
    if program.contains(STORE) || program.contains(store::STORE_ERROR) {
        namespaces.push(store);
    }
    if program.contains(progress::PROGRESS) {
        namespaces.push(progress.namespace());
    }
    let request = CodeRunRequest::new(program, namespaces).with_signal(ctx.signal().child_token());
    match progress.lines() {
        Some(lines) => request.with_line_sink(lines),
        None => request,
    }
}

async fn run(
    registry: Registry,
    hooks: Arc<dyn SubCallHooks>,
    runtime: Arc<dyn CodeRuntime>,
    args: &JsonValue,
    ctx: ToolRunContext,
    span: tracing::Span,
) -> Result<JsonValue, Error> {
    let refused = |err: Error, kind: &str| {
        record_outcome(&span, Some((kind, err.code())), 0);
        err
    };
    let (program, _description) =
        read_arguments(args).map_err(|err| refused(err, "invalid-arguments"))?;
    let outer = ctx.execution().clone();
    let Checked {
        members,
        session,
        note,
    } = check_before_run(
        &registry,
        hooks.as_ref(),
        runtime.language(),
        &program,
        &outer,
    )
    .await
    .map_err(|(err, kind)| refused(err, kind))?;
    let agent = outer.agent;
    let bridge = RunBridge::new(
        registry.clone(),
        hooks.clone(),
        outer,
        ctx.signal(),
        span.clone(),
    );
    let host = Arc::new(BridgeHost {
        bridge: bridge.clone(),
        runtime: tokio::runtime::Handle::current(),
    });
    let store = StoreHost::new(
        session,
        registry,
        ctx.execution().call_id.clone(),
        tokio::runtime::Handle::current(),
        bridge.tasks(),
    );
    let request = run_request(
        program,
        BindingNamespace::tools(members, host),
        store.namespace(),
        &ctx,
    );
    let outcome = runtime.run(request).await;
    store.finish();
    bridge.settle().await;
    hooks.settled(agent, &outcome);
    let failure = outcome.error.as_ref().map(|error| error.kind);
    record_outcome(
        &span,
        failure.map(|kind| (kind.as_str(), ErrorCode::CodeRunFailed)),
        bridge.sub_calls(),
    );
    if let Some(budget) = failure.and_then(budget_of)
        && !span.is_disabled()
    {
        span.record("codemode.run.budget", budget);
    }

    let (contexts, concludes) = bridge.deferred();
    for context in contexts {
        ctx.defer_context(context);
    }
    match outcome.error {
        Some(error) => Err(Error::new(
            ErrorCode::CodeRunFailed,
            with_note(
                failure_text(error.kind.as_str(), &error.message, &outcome.logs),
                note.as_deref(),
            ),
        )),
        None => {
            if concludes {
                ctx.conclude_turn();
            }
            let mut value = serde_json::Map::new();
            value.insert("logs".into(), json!(outcome.logs));
            if let Some(returned) = outcome.value {
                value.insert("value".into(), returned);
            }
            if let Some(note) = note {
                value.insert("typecheck".into(), JsonValue::String(note));
            }
            Ok(JsonValue::Object(value))
        }
    }
}

/// `text`, then the type check's note after an empty line.
fn with_note(mut text: String, note: Option<&str>) -> String {
    if let Some(note) = note {
        text.push_str("\n\n");
        text.push_str(note);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_two_required_strings_and_the_description_is_not_empty() {
        assert!(read_arguments(&json!({"code": "return 1", "description": "one"})).is_ok());
        let err = read_arguments(&json!({"code": "x", "description": "  "})).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidArgs);
        assert!(err.message().contains("must not be empty"), "{err}");
        let err = read_arguments(&json!({"extra": 1})).unwrap_err();
        assert_eq!(
            err.message(),
            "invalid arguments:\n- $.code: required, a string holding the program\n- $.description: required, a short summary of what the program does\n- $.extra: unexpected argument (only `code` and `description`)"
        );
    }

    #[test]
    fn the_schema_has_a_flavor_per_language() {
        for language in [Language::TypeScript, Language::Python] {
            let schema = parameters(language);
            assert_eq!(schema["required"], json!(["code", "description"]));
            assert!(JsonSchema::parse(&schema).is_ok());
        }
        assert!(run_code_description(Language::TypeScript).contains("Promise.all"));
        assert!(run_code_description(Language::Python).contains("asyncio.gather"));
    }
}
