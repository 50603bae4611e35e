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
//! - A result observer is synchronous and sees each final result; what it raises is
//!   reported on stderr by its adapter and changes nothing.
//! - The approver (sync or async) answers `true` to run an `ask`ed call once; anything
//!   else, or an exception, is a rejection.
//!
//! This module owns the mapping of these hooks onto the registry's; it must not know how
//! Python is entered (see [`crate::pycall`]).

use std::sync::Arc;

use codemode::registry::{ApprovalService, Disposer, Scope};
use codemode::tool::{
    ApprovalAnswer, PostToolDecision, PreToolDecision, Replacement, ToolExecution,
    ToolExecutionResult,
};
use codemode::{ContentBlock, Error, ErrorCode, JsonValue};
use futures::FutureExt;
use futures::future::BoxFuture;

use crate::pycall::PyFn;
use crate::results;

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
                    call_text(&execution),
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
                .call(&execution.root_call_id, event, &execution.signal)
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
                    event.to_string(),
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
