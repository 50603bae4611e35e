//! The timeout policy: an around-dispatch wrapper that enforces a tool's `timeout_ms`.
//!
//! At the deadline it fires the signal it handed to the body and waits for the body to
//! reach quiescence (bounded by the registry's cancel grace, after which the body is
//! abandoned), then reports `TOOL_TIMEOUT`.

use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use tokio_util::sync::CancellationToken;

use crate::error::{Error, ErrorCode};
use crate::tool::{Signal, ToolExecutionResult};

use super::chain::Link;
use super::listeners::{DispatchExecution, DispatchNext};

/// The `TOOL_TIMEOUT` error of a tool that ran past `timeout`.
pub fn timeout_error(name: &str, timeout: Duration) -> Error {
    Error::new(
        ErrorCode::ToolTimeout,
        format!(
            "the tool `{name}` timed out after {} ms",
            timeout.as_millis()
        ),
    )
}

/// The policy wrapper for a tool whose definition declares `timeout`; the registry
/// installs it innermost, so each attempt of an outer retry wrapper gets its own deadline.
pub(crate) fn policy(timeout: Duration) -> Arc<Link<DispatchExecution, ToolExecutionResult>> {
    Arc::new(move |dispatch: DispatchExecution, next: DispatchNext| {
        async move {
            let execution = dispatch.execution().clone();
            let deadline = CancellationToken::new();
            let signal = dispatch.signal().fuse(&Signal::from(deadline.clone()));
            let mut run = next.run_with(dispatch.with_signal(signal));
            tokio::select! {
                biased;
                result = &mut run => return result,
                _ = tokio::time::sleep(timeout) => {}
            }
            deadline.cancel();
            // Quiescence: the body has the grace period to stop; the dispatch itself
            // abandons it after that.
            let _ = run.await;
            Ok(ToolExecutionResult::failure(timeout_error(
                &execution.name,
                timeout,
            )))
        }
        .boxed()
    })
}
