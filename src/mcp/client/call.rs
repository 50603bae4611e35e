//! The body of an MCP tool: one `tools/call` on the server's current session, its result
//! mapped by [`crate::mcp::wire`]. Cancellation drops the request, which
//! sends the server `notifications/cancelled`. A session that breaks during the call fails
//! it at once (an HTTP server that dies or answers that the session is gone, too) and is
//! replaced on the next call. This module must not register anything.

use rmcp::ServiceError;
use rmcp::model::CallToolRequestParams;
use tracing::Instrument as _;

use super::connect::settle;
use super::supervise::ServerConnection;
use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;
use crate::mcp::wire::{CallOutcome, map_result};
use crate::tool::Signal;

fn failed(message: String) -> Error {
    Error::new(ErrorCode::ToolFailed, message)
}

/// Calls `tool` (its name on the server) with `args`; `shown` is its registered name. The
/// call is a span, `tools/call {tool}` (kind client); with feature `otel`, its context goes
/// to the server in the request's `_meta` (`traceparent`, `tracestate`, `baggage`).
pub(crate) async fn call_tool(
    server: &ServerConnection,
    tool: &str,
    shown: &str,
    args: &JsonValue,
    signal: &Signal,
    declares_output: bool,
) -> Result<CallOutcome, Error> {
    let span = tracing::info_span!(
        "tools/call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "client",
        mcp.method.name = "tools/call",
        gen_ai.tool.name = tool,
        codemode.mcp.server = server.name(),
    );
    let call = call_tool_in(&span, server, tool, shown, args, signal, declares_output);
    call.instrument(span.clone()).await
}

async fn call_tool_in(
    span: &tracing::Span,
    server: &ServerConnection,
    tool: &str,
    shown: &str,
    args: &JsonValue,
    signal: &Signal,
    declares_output: bool,
) -> Result<CallOutcome, Error> {
    let name = server.name();
    let Some(arguments) = args.as_object() else {
        return Err(Error::new(
            ErrorCode::InvalidArgs,
            format!("invalid arguments:\n- $: the arguments of `{shown}` must be an object"),
        ));
    };
    let cancelled = || {
        Error::new(
            ErrorCode::Aborted,
            format!("the call to `{shown}` was cancelled"),
        )
    };
    let session = tokio::select! {
        biased;
        () = signal.cancelled() => return Err(cancelled()),
        session = server.session() => session?,
    };
    let peer = session.peer();
    #[cfg_attr(not(feature = "otel"), allow(unused_mut))]
    let mut params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments.clone());
    #[cfg(feature = "otel")]
    {
        let mut meta = serde_json::Map::new();
        crate::mcp::trace_context::inject(span, &mut meta);
        if !meta.is_empty() {
            params.meta = Some(rmcp::model::MetaObject(meta).into());
        }
    }
    #[cfg(not(feature = "otel"))]
    let _ = span;
    // Dropping this future before it resolves (cancellation, the timeout) sends the
    // server `notifications/cancelled` for the request.
    let call = peer.call_tool(params);
    let result = tokio::select! {
        biased;
        () = signal.cancelled() => {
            return Err(Error::new(
                ErrorCode::Aborted,
                format!("the call to `{shown}` was cancelled; MCP server `{name}` was told to stop it"),
            ));
        }
        result = call => result,
        // An HTTP server that died or forgot the session: fail now, not at the timeout.
        reason = session.lost() => {
            server.invalidate(&session).await;
            return Err(lost(server, shown, &reason));
        }
    };
    match result {
        Ok(result) => {
            let raw = serde_json::to_value(&result).map_err(|err| {
                failed(format!(
                    "MCP server `{name}` answered the call to `{shown}` with an unreadable result: {err}"
                ))
            })?;
            map_result(name, shown, &raw, declares_output)
        }
        // The transport's own error may come first when an HTTP session is lost.
        Err(ServiceError::TransportClosed | ServiceError::TransportSend(_))
            if let Some(reason) = session.lost_reason() =>
        {
            server.invalidate(&session).await;
            Err(lost(server, shown, &reason))
        }
        Err(ServiceError::TransportClosed | ServiceError::TransportSend(_)) => {
            let report = session.report();
            settle(&report).await;
            server.invalidate(&session).await;
            Err(failed(format!(
                "MCP server `{name}`{} stopped during the call to `{shown}`{}; {}",
                server.location(),
                report.describe(),
                server.recovery()
            )))
        }
        Err(ServiceError::McpError(error)) => Err(failed(format!(
            "MCP server `{name}` refused the call to `{shown}`: {} (error {})",
            error.message, error.code.0
        ))),
        Err(ServiceError::UnexpectedResponse) => Err(failed(format!(
            "MCP server `{name}` answered the call to `{shown}` with a malformed result"
        ))),
        Err(other) => Err(failed(format!(
            "the call to `{shown}` on MCP server `{name}` failed: {}",
            super::connect::service_problem(&other)
        ))),
    }
}

/// The failure of a call whose HTTP session was lost (`reason`: what the server answered).
fn lost(server: &ServerConnection, shown: &str, reason: &str) -> Error {
    failed(format!(
        "MCP server `{}`{} lost the session during the call to `{shown}`: {reason}; the call may or may not have run there; {}",
        server.name(),
        server.location(),
        server.recovery()
    ))
}
