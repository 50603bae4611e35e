//! Results as the JSON documents the Python half turns into its dataclasses
//! (`codemode._results`): one text crosses per call, parsed once on the Python side; an
//! `execute` result is made into its `ToolResult` here ([`ToolResultObject`]), from the
//! same document.
//!
//! - a tool result: `{ok, text, value?, error_code?, error_message?, content, duration_ms}`;
//! - a run: the same fields for the outer `run_code` result, plus `logs`, `error_kind`
//!   (`exception`, `timeout`, `abort`, `worker-exit`, `invalid-output`, `output-limit`,
//!   `type-error`; `null` when it succeeded or failed before running), `typecheck` and
//!   `sub_calls` (each with its name, arguments, result fields and timings, in submission
//!   order);
//! - a call, for listeners: `{name, arguments, call_id, root_call_id, nested}`.
//!
//! A run's logs and failure kind come from the runtime's outcome
//! ([`ProgramRun::outcome`](codemode::code::ProgramRun::outcome)), since the `run_code`
//! result carries them only inside its text when the run fails.
//!
//! This module owns the shape of what crosses; it must not run anything.

use std::time::Duration;

use codemode::code::{ProgramRun, SubCallRecord};
use codemode::runtime::CodeRunOutcome;
use codemode::tool::{ToolExecution, ToolExecutionResult};
use codemode::{ContentBlock, JsonValue};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use pyo3::{IntoPyObject, intern};
use serde_json::{Map, json};

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// The fields every result has.
fn result_fields(result: &ToolExecutionResult, duration: Duration) -> Map<String, JsonValue> {
    let mut fields = Map::new();
    fields.insert("ok".into(), json!(!result.is_error()));
    fields.insert("text".into(), json!(result.model_text()));
    if let Some(value) = result.value() {
        fields.insert("value".into(), value.clone());
    }
    if let Some(failure) = result.failure_info() {
        fields.insert("error_code".into(), json!(failure.code.as_str()));
        fields.insert("error_message".into(), json!(failure.message));
    }
    let content: Vec<JsonValue> = result
        .content
        .iter()
        .map(|block: &ContentBlock| serde_json::to_value(block).unwrap_or(JsonValue::Null))
        .collect();
    fields.insert("content".into(), JsonValue::Array(content));
    fields.insert("duration_ms".into(), json!(ms(duration)));
    fields
}

/// A top-level call's result.
pub(crate) fn tool_result(result: &ToolExecutionResult, duration: Duration) -> JsonValue {
    JsonValue::Object(result_fields(result, duration))
}

/// A top-level call's result as the `codemode.ToolResult` it becomes on the caller's thread
/// (with the GIL): the same fields as [`tool_result`]'s document, made into Python data
/// without JSON text when they are plain ([`crate::pyjson`]), else through the text.
#[derive(Debug)]
pub(crate) struct ToolResultObject(JsonValue);

impl ToolResultObject {
    pub(crate) fn new(result: &ToolExecutionResult, duration: Duration) -> Self {
        ToolResultObject(tool_result(result, duration))
    }
}

impl<'py> IntoPyObject<'py> for ToolResultObject {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        static TOOL_RESULT: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let data = match crate::pyjson::to_python(py, &self.0)? {
            Some(data) => data,
            None => LOADS
                .import(py, "codemode._json", "loads")?
                .call1((codemode::json::to_text(&self.0),))?,
        };
        TOOL_RESULT
            .import(py, "codemode._results", "ToolResult")?
            .call_method1(intern!(py, "_from_json"), (data,))
    }
}

/// A listener's view of a call.
pub(crate) fn call(execution: &ToolExecution) -> JsonValue {
    json!({
        "name": execution.name,
        "arguments": *execution.arguments,
        "call_id": execution.call_id,
        "root_call_id": execution.root_call_id,
        "nested": execution.is_nested(),
    })
}

fn sub_call(record: &SubCallRecord) -> JsonValue {
    let mut fields = result_fields(&record.result, record.ran());
    fields.insert("index".into(), json!(record.index));
    fields.insert("call_id".into(), json!(record.sub_call_id));
    fields.insert("name".into(), json!(record.name));
    fields.insert("arguments".into(), record.arguments.clone());
    fields.insert("mode".into(), json!(record.mode.map(|mode| mode.as_str())));
    fields.insert("submitted_ms".into(), json!(ms(record.submitted)));
    fields.insert("queued_ms".into(), json!(ms(record.queued())));
    fields.insert("settled_ms".into(), json!(ms(record.settled)));
    JsonValue::Object(fields)
}

/// A run: the outer result, the run's own outcome when it ran, every kept sub-call.
pub(crate) fn run(
    run: &ProgramRun,
    outcome: Option<&CodeRunOutcome>,
    duration: Duration,
) -> JsonValue {
    let result = &run.result;
    let mut fields = result_fields(result, duration);
    // On success the value is `{logs, value?, typecheck?}`: the program's value is inside.
    let outer = fields.remove("value");
    let mut logs = outcome.map(|o| o.logs.clone()).unwrap_or_default();
    let mut typecheck = JsonValue::Null;
    if let Some(JsonValue::Object(mut outer)) = outer {
        if let Some(JsonValue::Array(items)) = outer.remove("logs") {
            logs = items
                .into_iter()
                .filter_map(|item| item.as_str().map(str::to_owned))
                .collect();
        }
        if let Some(value) = outer.remove("value") {
            fields.insert("value".into(), value);
        }
        if let Some(note) = outer.remove("typecheck") {
            typecheck = note;
        }
    }
    let error_kind = match (
        outcome.and_then(|o| o.error.as_ref()),
        result.failure_info(),
    ) {
        (Some(error), _) => json!(error.kind.as_str()),
        // Failed before running (the type check refused it, a policy denied `run_code`):
        // the kind is in the text when there is one.
        (None, Some(failure)) => failure
            .message
            .strip_prefix("code run failed (")
            .and_then(|rest| rest.split_once(')'))
            .map_or(JsonValue::Null, |(kind, _)| json!(kind)),
        (None, None) => JsonValue::Null,
    };
    fields.insert("logs".into(), json!(logs));
    fields.insert("error_kind".into(), error_kind);
    fields.insert("typecheck".into(), typecheck);
    fields.insert(
        "sub_calls".into(),
        JsonValue::Array(run.sub_calls.iter().map(sub_call).collect()),
    );
    fields.insert("sub_calls_dropped".into(), json!(run.sub_calls_dropped));
    JsonValue::Object(fields)
}
