//! Guards, `tools/pre-execute` listeners, result observers and the approver as Python
//! callables (adapters from `codemode._bridge`, called with the call as JSON text).
//!
//! - A guard is synchronous (the pipeline's guards are): it answers a reason (deny) or
//!   `null`. A guard that raises denies the call: guards fail closed.
//! - A pre-execute listener (sync or async) answers `{"decision": "next" | "allow" |
//!   "deny" | "ask", "reason"?}`; one that raises fails the call with `LISTENER_FAILED`.
//! - A post-execute listener (sync or async) sees the call and its result and answers
//!   `{"decision": "next" | "accept" | "block", ...}`: `accept` may carry a replacement
//!   `value` or `content` (text), `block` the `feedback` the model reads instead
//!   (`RESULT_BLOCKED`); one that raises fails the call with `LISTENER_FAILED`.
//! - An around-dispatch wrapper (async) gets the call and a handle of the rest of the chain
//!   (`{"next": id}` in the call's text; `codemode._native._call_next(id)` runs it, any
//!   number of times, each an awaitable of the result as JSON with its `index`) and answers
//!   `{"result": index}`: the result it passes on. One that raises fails the call
//!   (`LISTENER_FAILED`).
//! - A result observer is synchronous and sees each final result; what it raises is
//!   reported on stderr by its adapter and changes nothing.
//! - The approver (sync or async) answers `true` to run an `ask`ed call once; anything
//!   else, or an exception, is a rejection.
//!
//! This module owns the mapping of these hooks onto the registry's; it must not know how
//! Python is entered (see [`crate::pycall`]).

use std::sync::Arc;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

use codemode::registry::{ApprovalService, DispatchNext, Disposer, Scope};
use codemode::tool::{
    ApprovalAnswer, PostToolDecision, PreToolDecision, Replacement, ToolExecution,
    ToolExecutionResult,
};
use codemode::{ContentBlock, Error, ErrorCode, JsonValue};
use futures::FutureExt;
use futures::future::BoxFuture;
use pyo3::prelude::*;
use serde_json::json;

use crate::pycall::{CallArg, PyFn};
use crate::results;
use crate::tokio_runtime::{awaitable, next_call_id};

fn call_text(execution: &ToolExecution) -> String {
    results::call(execution).to_string()
}

/// Installs `guard` on `scope`.
pub(crate) fn guard(scope: &Scope, guard: PyFn) -> Disposer {
    scope.guard(
        move |execution| match guard.call_blocking(call_text(execution)) {
            Ok(JsonValue::String(reason)) => Some(reason),
            Ok(JsonValue::Null) => None,
            Ok(other) => Some(format!("the guard answered {other}, not a reason or None")),
            Err(failure) => Some(format!("the guard raised {failure}")),
        },
    )
}

/// Installs the pre-execute `listener` on `scope`.
pub(crate) fn pre_execute(scope: &Scope, listener: PyFn) -> Disposer {
    scope.on_pre_execute(move |execution, next| {
        let listener = listener.clone();
        async move {
            let answer = listener
                .call(
                    &execution.root_call_id,
                    CallArg::Text(call_text(&execution)),
                    &execution.signal,
                )
                .await
                .map_err(|failure| {
                    Error::new(
                        ErrorCode::ListenerFailed,
                        format!("a pre-execute listener raised {failure}"),
                    )
                })?;
            let reason = answer
                .get("reason")
                .and_then(JsonValue::as_str)
                .map(str::to_owned);
            match answer.get("decision").and_then(JsonValue::as_str) {
                Some("allow") => Ok(PreToolDecision::Allow),
                Some("deny") => Ok(PreToolDecision::Deny {
                    reason: reason.unwrap_or_else(|| "a listener denied the call".to_owned()),
                }),
                Some("ask") => Ok(PreToolDecision::Ask { reason }),
                Some("next") => next.run().await,
                _ => Err(Error::new(
                    ErrorCode::ListenerFailed,
                    format!("a pre-execute listener answered {answer}"),
                )),
            }
        }
    })
}

/// The rest of the dispatch chain of each wrapper call in progress, with the results it
/// gave so far, by handle.
struct Pending {
    next: DispatchNext,
    results: Vec<ToolExecutionResult>,
}

type PendingTable = Mutex<HashMap<u64, Pending>>;

fn pending() -> &'static PendingTable {
    static PENDING: OnceLock<PendingTable> = OnceLock::new();
    PENDING.get_or_init(PendingTable::default)
}

fn lock_pending() -> std::sync::MutexGuard<'static, HashMap<u64, Pending>> {
    pending().lock().unwrap_or_else(PoisonError::into_inner)
}

/// Forgets a wrapper call's handle when the wrapper is done (or abandoned).
struct PendingGuard(u64);

impl Drop for PendingGuard {
    fn drop(&mut self) {
        let removed = lock_pending().remove(&self.0);
        // Results and the chain are dropped outside the lock.
        drop(removed);
    }
}

/// Installs the around-dispatch `wrapper` (async) on `scope`.
pub(crate) fn around(scope: &Scope, wrapper: PyFn) -> Disposer {
    static NEXT_HANDLE: AtomicU64 = AtomicU64::new(1);
    scope.on_execute(move |dispatch, next| {
        let wrapper = wrapper.clone();
        async move {
            let execution = dispatch.execution().clone();
            let handle = NEXT_HANDLE.fetch_add(1, Ordering::Relaxed);
            lock_pending().insert(
                handle,
                Pending {
                    next,
                    results: Vec::new(),
                },
            );
            let guard = PendingGuard(handle);
            let mut event = results::call(&execution);
            if let JsonValue::Object(fields) = &mut event {
                fields.insert("next".into(), json!(handle));
            }
            let failed = |what: String| Error::new(ErrorCode::ListenerFailed, what);
            let answer = wrapper
                .call(
                    &execution.root_call_id,
                    CallArg::Text(event.to_string()),
                    dispatch.signal(),
                )
                .await
                .map_err(|failure| {
                    failed(format!("an around-dispatch wrapper raised {failure}"))
                })?;
            let index = answer
                .get("result")
                .and_then(JsonValue::as_u64)
                .and_then(|index| usize::try_from(index).ok());
            let entry = lock_pending().remove(&guard.0);
            match (index, entry) {
                (Some(index), Some(mut entry)) if index < entry.results.len() => {
                    Ok(entry.results.swap_remove(index))
                }
                _ => Err(failed(format!(
                    "an around-dispatch wrapper answered {answer}, not a result of call_next()"
                ))),
            }
        }
    })
}

/// `codemode._native._call_next(handle)`: runs the rest of a wrapper's dispatch chain once
/// more; an awaitable of the result's JSON text (with its `index` for the wrapper's answer).
#[pyfunction]
#[pyo3(name = "_call_next")]
pub(crate) fn call_next(py: Python<'_>, handle: u64) -> PyResult<Bound<'_, PyAny>> {
    crate::guarded(py, || {
        let next = lock_pending().get(&handle).map(|entry| entry.next.clone());
        let Some(next) = next else {
            return Err(crate::exception(
                py,
                "HOST_FAILED",
                "call_next() was called after its wrapper returned",
            ));
        };
        awaitable(py, next_call_id(), move |token| async move {
            let started = Instant::now();
            let result = tokio::select! {
                result = next.run() => result.unwrap_or_else(ToolExecutionResult::failure),
                () = token.cancelled() => ToolExecutionResult::failure(Error::new(
                    ErrorCode::Aborted,
                    "call_next() was cancelled",
                )),
            };
            let mut text = results::tool_result(&result, started.elapsed());
            let mut table = lock_pending();
            let Some(entry) = table.get_mut(&handle) else {
                return Err(crate::to_py_err_detached(&Error::new(
                    ErrorCode::HostFailed,
                    "the wrapper's call ended while call_next() ran",
                )));
            };
            if let JsonValue::Object(fields) = &mut text {
                fields.insert("index".into(), json!(entry.results.len()));
            }
            entry.results.push(result);
            drop(table);
            Ok(text.to_string())
        })
    })
}

/// The call with its result, as post-execute listeners and observers see it.
fn call_with_result(execution: &ToolExecution, result: &ToolExecutionResult) -> JsonValue {
    let mut event = results::call(execution);
    if let JsonValue::Object(fields) = &mut event {
        fields.insert(
            "result".into(),
            results::tool_result(result, std::time::Duration::ZERO),
        );
    }
    event
}

/// Installs the post-execute `listener` on `scope`.
pub(crate) fn post_execute(scope: &Scope, listener: PyFn) -> Disposer {
    scope.on_post_execute(move |execution, result, next| {
        let listener = listener.clone();
        async move {
            let event = call_with_result(&execution, &result).to_string();
            let failed = |what: String| Error::new(ErrorCode::ListenerFailed, what);
            let mut answer = listener
                .call(
                    &execution.root_call_id,
                    CallArg::Text(event),
                    &execution.signal,
                )
                .await
                .map_err(|failure| failed(format!("a post-execute listener raised {failure}")))?;
            let text = |answer: &JsonValue, key: &str| {
                answer
                    .get(key)
                    .and_then(JsonValue::as_str)
                    .map(str::to_owned)
            };
            match answer.get("decision").and_then(JsonValue::as_str) {
                Some("next") => next.run().await,
                Some("accept") => {
                    let replace = match (
                        answer.get_mut("value").map(JsonValue::take),
                        text(&answer, "content"),
                    ) {
                        (Some(value), None) => Some(Replacement::Value(value)),
                        (None, Some(content)) => {
                            Some(Replacement::Content(vec![ContentBlock::text(content)]))
                        }
                        (None, None) => None,
                        (Some(_), Some(_)) => {
                            return Err(failed(
                                "a post-execute listener replaced both the value and the content"
                                    .to_owned(),
                            ));
                        }
                    };
                    Ok(PostToolDecision::Accept {
                        replace,
                        additional_contexts: Vec::new(),
                    })
                }
                Some("block") => Ok(PostToolDecision::Block {
                    feedback: vec![ContentBlock::text(
                        text(&answer, "feedback").unwrap_or_default(),
                    )],
                    additional_contexts: Vec::new(),
                }),
                _ => Err(failed(format!("a post-execute listener answered {answer}"))),
            }
        }
    })
}

/// Installs the result `observer` on `scope`.
pub(crate) fn on_result(scope: &Scope, observer: PyFn) -> Disposer {
    scope.on_result(move |execution, result| {
        let event = call_with_result(execution, result);
        // The adapter reports its own exceptions; nothing to do about one here.
        let _ = observer.call_blocking(event.to_string());
    })
}

/// The approval service of a registry: the Python approver.
#[derive(Debug)]
pub(crate) struct Approver {
    pub(crate) approver: PyFn,
}

impl ApprovalService for Approver {
    fn request(
        &self,
        execution: Arc<ToolExecution>,
        reason: Option<String>,
    ) -> BoxFuture<'static, ApprovalAnswer> {
        let approver = self.approver.clone();
        async move {
            let mut event = results::call(&execution);
            if let JsonValue::Object(fields) = &mut event {
                fields.insert(
                    "reason".into(),
                    reason.map_or(JsonValue::Null, JsonValue::String),
                );
            }
            match approver
                .call(
                    &execution.root_call_id,
                    CallArg::Text(event.to_string()),
                    &execution.signal,
                )
                .await
            {
                Ok(JsonValue::Bool(true)) => ApprovalAnswer::AllowedOnce,
                Ok(_) => ApprovalAnswer::Rejected,
                Err(_) if execution.signal.is_cancelled() => ApprovalAnswer::Cancelled,
                Err(_) => ApprovalAnswer::Rejected,
            }
        }
        .boxed()
    }
}
