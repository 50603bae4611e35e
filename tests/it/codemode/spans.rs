//! The tracing spans of a `run_code` run, as a subscriber sees them: the run's
//! `execute_tool` span, its `run_code` span, and one `execute_tool` span per sub-call under
//! it in call order, each with its `queue` and `dispatch` stages. Programs' text, arguments
//! and results appear only when the host opts in (`RegistryConfig::trace_content`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use codemode::code::{CodeMode, CodeModeConfig, PresentationMode};
use codemode::registry::{Registry, RegistryConfig};
use codemode::runtime::CodeRuntime;
use codemode::tool::{ToolDefinition, ToolOutput};
use parking_lot::Mutex;
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};
use tracing_subscriber::registry::LookupSpan;

use super::{ENGINE, add_value_tool, run_program};

/// One span as the layer saw it.
#[derive(Debug, Clone)]
pub struct SpanRecord {
    pub id: u64,
    pub name: &'static str,
    pub parent: Option<u64>,
    pub fields: BTreeMap<String, String>,
}

/// A layer that records every span's name, parent and fields, in the order they open.
#[derive(Clone, Default)]
pub struct Recorder {
    spans: Arc<Mutex<Vec<SpanRecord>>>,
}

impl Recorder {
    pub fn spans(&self) -> Vec<SpanRecord> {
        self.spans.lock().clone()
    }
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl<S> Layer<S> for Recorder
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let parent = ctx
            .span(id)
            .and_then(|span| span.parent())
            .map(|parent| parent.id().into_u64());
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        self.spans.lock().push(SpanRecord {
            id: id.into_u64(),
            name: attrs.metadata().name(),
            parent,
            fields,
        });
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _ctx: Context<'_, S>) {
        let mut spans = self.spans.lock();
        if let Some(span) = spans.iter_mut().find(|span| span.id == id.into_u64()) {
            values.record(&mut Fields(&mut span.fields));
        }
    }
}

/// A Code Mode registry on the shared engine, recording content in spans or not.
fn registry(trace_content: bool) -> Registry {
    let registry = Registry::with_config(
        RegistryConfig::default()
            .with_cancel_grace(Duration::from_millis(500))
            .with_trace_content(trace_content),
    );
    let engine: Arc<dyn CodeRuntime> = ENGINE.clone();
    CodeMode::install(
        &registry,
        CodeModeConfig::default().with_mode(PresentationMode::Code),
    )
    .and_then(|code| code.set_runtime(engine))
    .expect("run_code installs");
    add_value_tool(&registry, "get", true);
    registry
        .global()
        .register(
            ToolDefinition::builder("fail")
                .description("Always fails.")
                .parameters(json!({"type": "object"}))
                .output(ToolOutput::any())
                .execute(|_, _| async {
                    Err(codemode::Error::new(
                        codemode::ErrorCode::ToolFailed,
                        "it failed",
                    ))
                })
                .build()
                .expect("the tool builds"),
        )
        .expect("the tool registers")
        .keep();
    registry
}

/// Three calls made in this order; the first finishes last.
const PROGRAM: &str = "const secret = 'marker-7731';\n\
    const [a, b] = await Promise.all([tools.get({value: 'first-value', ms: 40}), tools.get({value: 'second-value'})]);\n\
    try { await tools.fail({}); } catch (e) { console.log(e.code); }\n\
    return [a, b];";

/// Runs [`PROGRAM`] under a recording subscriber and returns the spans.
async fn spans_of_a_run(trace_content: bool) -> Vec<SpanRecord> {
    let registry = registry(trace_content);
    let recorder = Recorder::default();
    let subscriber = tracing_subscriber::registry().with(recorder.clone());
    let guard = tracing::subscriber::set_default(subscriber);
    let result = run_program(&registry, PROGRAM).await;
    drop(guard);
    assert!(!result.is_error(), "{}", result.model_text());
    recorder.spans()
}

fn field<'a>(span: &'a SpanRecord, name: &str) -> Option<&'a str> {
    span.fields.get(name).map(String::as_str)
}

fn children<'a>(spans: &'a [SpanRecord], parent: &SpanRecord) -> Vec<&'a SpanRecord> {
    spans
        .iter()
        .filter(|span| span.parent == Some(parent.id))
        .collect()
}

#[tokio::test]
async fn a_run_is_a_span_with_its_sub_calls_nested_in_call_order() {
    let spans = spans_of_a_run(false).await;
    let outer: Vec<_> = spans
        .iter()
        .filter(|span| span.name == "execute_tool" && span.parent.is_none())
        .collect();
    assert_eq!(outer.len(), 1, "{spans:#?}");
    let outer = outer[0];
    assert_eq!(field(outer, "gen_ai.tool.name"), Some("run_code"));
    assert_eq!(field(outer, "gen_ai.tool.call.id"), Some("run-1"));
    assert_eq!(field(outer, "gen_ai.operation.name"), Some("execute_tool"));
    assert_eq!(field(outer, "otel.name"), Some("execute_tool run_code"));
    assert_eq!(field(outer, "error.type"), None);

    // execute_tool run_code -> dispatch -> run_code
    let stages = children(&spans, outer);
    assert_eq!(
        stages.iter().map(|s| s.name).collect::<Vec<_>>(),
        ["dispatch"]
    );
    let runs = children(&spans, stages[0]);
    assert_eq!(runs.len(), 1, "{spans:#?}");
    let run = runs[0];
    assert_eq!(run.name, "run_code");
    assert_eq!(field(run, "codemode.run.language"), Some("typescript"));
    assert!(
        field(run, "codemode.run.engine").is_some_and(|engine| engine.contains("quickjs")),
        "{run:?}"
    );
    assert_eq!(field(run, "codemode.run.outcome"), Some("ok"));
    assert_eq!(field(run, "codemode.run.sub_calls"), Some("3"));
    assert_eq!(field(run, "codemode.run.failure"), None);

    // The sub-calls, in the order the program made them.
    let calls = children(&spans, run);
    let described: Vec<_> = calls
        .iter()
        .map(|call| {
            (
                call.name,
                field(call, "gen_ai.tool.name"),
                field(call, "gen_ai.tool.call.id"),
                field(call, "error.type"),
            )
        })
        .collect();
    assert_eq!(
        described,
        [
            ("execute_tool", Some("get"), Some("run-1:code:1"), None),
            ("execute_tool", Some("get"), Some("run-1:code:2"), None),
            (
                "execute_tool",
                Some("fail"),
                Some("run-1:code:3"),
                Some("TOOL_FAILED")
            ),
        ]
    );
    for call in &calls {
        assert_eq!(field(call, "gen_ai.operation.name"), Some("execute_tool"));
        let stages: Vec<_> = children(&spans, call).iter().map(|s| s.name).collect();
        assert_eq!(stages, ["queue", "dispatch"], "{call:?}");
    }
    assert_eq!(field(calls[2], "otel.status_code"), Some("ERROR"));

    // Nothing the program holds or the tools carry is recorded.
    for span in &spans {
        for (name, value) in &span.fields {
            for private in ["marker-7731", "first-value", "second-value", "it failed"] {
                assert!(!value.contains(private), "{name} of {span:?}");
            }
        }
        assert!(!span.fields.contains_key("codemode.run.code"), "{span:?}");
        assert!(
            !span.fields.contains_key("gen_ai.tool.call.arguments"),
            "{span:?}"
        );
    }
}

#[tokio::test]
async fn with_trace_content_spans_record_the_program_arguments_and_results() {
    let spans = spans_of_a_run(true).await;
    let run = spans.iter().find(|span| span.name == "run_code").unwrap();
    assert_eq!(field(run, "codemode.run.code"), Some(PROGRAM));
    let calls = children(&spans, run);
    assert_eq!(calls.len(), 3);
    assert_eq!(
        field(calls[0], "gen_ai.tool.call.arguments"),
        Some(r#"{"value":"first-value","ms":40}"#)
    );
    assert_eq!(
        field(calls[0], "gen_ai.tool.call.result"),
        Some(r#""first-value""#)
    );
    assert_eq!(
        field(calls[2], "gen_ai.tool.call.result"),
        Some("it failed")
    );
}

#[tokio::test]
async fn a_failed_run_records_its_failure_kind_and_code() {
    let registry = registry(false);
    let recorder = Recorder::default();
    let subscriber = tracing_subscriber::registry().with(recorder.clone());
    let guard = tracing::subscriber::set_default(subscriber);
    let result = run_program(&registry, "await tools.get({}); throw new Error('boom');").await;
    drop(guard);
    assert!(result.is_error());
    let spans = recorder.spans();
    let run = spans.iter().find(|span| span.name == "run_code").unwrap();
    assert_eq!(field(run, "codemode.run.outcome"), Some("error"));
    assert_eq!(field(run, "codemode.run.failure"), Some("exception"));
    assert_eq!(field(run, "error.type"), Some("CODE_RUN_FAILED"));
    assert_eq!(field(run, "codemode.run.sub_calls"), Some("1"));
    let outer = spans
        .iter()
        .find(|span| span.name == "execute_tool" && span.parent.is_none())
        .unwrap();
    assert_eq!(field(outer, "error.type"), Some("CODE_RUN_FAILED"));
}
