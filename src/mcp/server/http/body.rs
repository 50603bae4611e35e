//! The body layer: a `POST` with a JSON `Content-Type` is read within the body limit and
//! the body timeout and checked to be one JSON-RPC 2.0 message rmcp can decode; it goes on
//! with the same bytes and, in its extensions, what the later layers need to know of it
//! ([`Parsed`]: whether it opens a session, whether it is a call). The errors, each a
//! JSON-RPC error object:
//!
//! - a body over the limit: `413`, `-32600`. The rest of the body is read and dropped (up
//!   to [`DRAIN_BYTES`] more, within [`DRAIN_TIME`]) so the client gets to read the answer
//!   instead of a reset connection; a longer body gets the answer and `Connection: close`;
//! - a body that is not JSON: `400`, `-32700`; a lone surrogate escape (`\ud800` without
//!   its pair) is named as such, with its path, line and column;
//! - JSON that is not one JSON-RPC 2.0 message (a batch, `jsonrpc` other than `"2.0"`, no
//!   `method`, a message rmcp cannot decode): `400`, `-32600`;
//! - a body that does not arrive within the body timeout: `408`, `-32600`, and
//!   `Connection: close`.
//!
//! Any other request goes on untouched (a `POST` whose `Content-Type` is not JSON gets
//! rmcp's `415`, as the transport requires).
//!
//! This module owns the HTTP framing of request bodies; it must not interpret valid
//! messages (rmcp and the session handler do).

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt;
use rmcp::model::ClientJsonRpcMessage;
use serde_json::Value;

use super::super::envelope;
use super::super::listen::Counted;
use super::{SESSION_HEADER, rpc_error};

/// How many bytes past the limit are read and dropped so the client reads the `413`.
pub(crate) const DRAIN_BYTES: usize = 64 * 1024 * 1024;

/// How long the rest of an oversized body may take to be read and dropped.
pub(crate) const DRAIN_TIME: Duration = Duration::from_secs(10);

/// The layer's state: the body limit and timeout.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub(super) max_bytes: usize,
    pub(super) timeout: Duration,
}

/// What the later layers know of a message that passed: the id of an `initialize` that
/// opens a session, and the id of a `tools/call`.
#[derive(Debug, Clone, Default)]
pub(super) struct Parsed {
    pub(super) opens: Option<Value>,
    pub(super) call: Option<Value>,
}

impl Parsed {
    /// The id of the `initialize` `request` is, when it opens a session.
    pub(super) fn opens(request: &Request) -> Option<Value> {
        request.extensions().get::<Self>()?.opens.clone()
    }

    /// The id of the `tools/call` `request` is.
    pub(super) fn call(request: &Request) -> Option<Value> {
        request.extensions().get::<Self>()?.call.clone()
    }
}

/// Bodies that did not arrive in time (for counted warnings).
static SLOW_BODIES: Counted = Counted::new();

/// The layer.
pub(super) async fn layer(State(limits): State<Limits>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST || !has_json_content_type(request.headers()) {
        return next.run(request).await;
    }
    match tokio::time::timeout(limits.timeout, read(limits.max_bytes, request)).await {
        Ok(Ok(request)) => next.run(request).await,
        Ok(Err(response)) => response,
        Err(_) => {
            if let Some(count) = SLOW_BODIES.bump() {
                tracing::warn!(
                    timeout_ms = limits.timeout.as_millis() as u64,
                    count,
                    "HTTP request bodies too slow: answered 408 and closed"
                );
            }
            let mut response = rpc_error(
                StatusCode::REQUEST_TIMEOUT,
                Value::Null,
                envelope::INVALID_REQUEST,
                format!(
                    "Request Timeout: the request body did not arrive within {} ms (`--body-timeout`); send the whole body at once",
                    limits.timeout.as_millis()
                ),
            );
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

/// Whether the `Content-Type` is `application/json` (parameters aside), as rmcp checks.
fn has_json_content_type(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

/// Reads the body within `limit` and checks it is one JSON-RPC 2.0 message rmcp can
/// decode: the request rebuilt with the same body and [`Parsed`] in its extensions, or
/// the error response.
async fn read(limit: usize, request: Request) -> Result<Request, Response> {
    let (mut parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64 + DRAIN_BYTES as u64) {
        return Err(too_large(limit, false));
    }
    let mut stream = body.into_data_stream();
    let mut collected: Vec<u8> = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|err| {
            rpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                envelope::PARSE_ERROR,
                format!("Parse error: the request body could not be read: {err}"),
            )
        })?;
        if chunk.len() > limit.saturating_sub(collected.len()) {
            let seen = collected.len() + chunk.len();
            drop(collected);
            let ended = drain(&mut stream, limit, seen).await;
            return Err(too_large(limit, ended));
        }
        collected.extend_from_slice(&chunk);
    }
    let value: Value = serde_json::from_slice(&collected).map_err(|err| {
        let message = match envelope::lone_surrogate(&collected, &err) {
            Some(surrogate) => format!("Parse error: in the request body, {surrogate}"),
            None => format!(
                "Parse error: the request body is not JSON ({err}); send one JSON-RPC 2.0 message object per POST"
            ),
        };
        rpc_error(
            StatusCode::BAD_REQUEST,
            Value::Null,
            envelope::PARSE_ERROR,
            message,
        )
    })?;
    if let Some((id, reason)) = envelope::problem(&value) {
        return Err(invalid_request(id, reason));
    }
    if let Err(err) = <ClientJsonRpcMessage as serde::Deserialize>::deserialize(&value) {
        let id = value.get("id").cloned().unwrap_or(Value::Null);
        return Err(invalid_request(
            id,
            &format!("the message is not a JSON-RPC message MCP defines ({err})"),
        ));
    }
    let method = value.get("method").and_then(Value::as_str);
    let id = || value.get("id").cloned().unwrap_or(Value::Null);
    let parsed = Parsed {
        opens: (!parts.headers.contains_key(SESSION_HEADER) && method == Some("initialize"))
            .then(id),
        call: (method == Some("tools/call") && value.get("id").is_some()).then(id),
    };
    parts.extensions.insert(parsed);
    Ok(Request::from_parts(
        parts,
        Body::from(Bytes::from(collected)),
    ))
}

/// Reads and drops the rest of a body over `limit` (`seen` bytes read so far); whether it
/// ended within [`DRAIN_BYTES`] past the limit and [`DRAIN_TIME`].
async fn drain<S, E>(stream: &mut S, limit: usize, seen: usize) -> bool
where
    S: futures::Stream<Item = Result<Bytes, E>> + Unpin,
{
    let most = limit.saturating_add(DRAIN_BYTES);
    let mut seen = seen;
    let read = async {
        while let Some(chunk) = stream.next().await {
            let Ok(chunk) = chunk else { return false };
            seen = seen.saturating_add(chunk.len());
            if seen > most {
                return false;
            }
        }
        true
    };
    tokio::time::timeout(DRAIN_TIME, read)
        .await
        .unwrap_or(false)
}

/// `413` for a body over `limit`; `ended` says whether the body was read to its end (the
/// connection can then be kept).
fn too_large(limit: usize, ended: bool) -> Response {
    let mut response = rpc_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        Value::Null,
        envelope::INVALID_REQUEST,
        format!(
            "Invalid Request: the request body is over the limit of {limit} bytes; send a smaller message (a run_code program is at most {} bytes)",
            crate::runtime::MAX_PROGRAM_BYTES
        ),
    );
    if !ended {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// `400`, `-32600` with `reason`.
fn invalid_request(id: Value, reason: &str) -> Response {
    rpc_error(
        StatusCode::BAD_REQUEST,
        id,
        envelope::INVALID_REQUEST,
        format!("Invalid Request: {reason}; send one JSON-RPC 2.0 message object per POST"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::server::http::DEFAULT_MAX_BODY_BYTES;
    use crate::mcp::server::http::tests::{send, text};

    #[test]
    fn json_content_types_are_recognised_as_rmcp_does() {
        let with = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(value));
            has_json_content_type(&headers)
        };
        assert!(with("application/json"));
        assert!(with("Application/JSON; charset=utf-8"));
        assert!(!with("text/plain"));
        assert!(!with("application/json-seq"));
        assert!(!has_json_content_type(&HeaderMap::new()));
    }

    #[test]
    fn the_largest_program_fits_the_default_limit_with_every_byte_escaped() {
        let program = "\u{1}".repeat(crate::runtime::MAX_PROGRAM_BYTES);
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "run_code", "arguments": {"code": program, "description": "largest"}}});
        assert!(call.to_string().len() < DEFAULT_MAX_BODY_BYTES);
    }

    fn edge(max_bytes: usize) -> axum::Router {
        // The inner service says what it was told of the message, and echoes the body.
        let inner = axum::Router::new().fallback(|request: Request| async move {
            let parsed = request
                .extensions()
                .get::<Parsed>()
                .cloned()
                .unwrap_or_default();
            let body = axum::body::to_bytes(request.into_body(), usize::MAX)
                .await
                .unwrap();
            format!(
                "opens {:?} call {:?} body {}",
                parsed.opens,
                parsed.call,
                String::from_utf8_lossy(&body)
            )
        });
        let limits = Limits {
            max_bytes,
            timeout: Duration::from_secs(5),
        };
        inner.layer(axum::middleware::from_fn_with_state(limits, layer))
    }

    fn post(body: &str) -> Request {
        Request::builder()
            .method("POST")
            .uri("/mcp")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_owned()))
            .unwrap()
    }

    #[tokio::test]
    async fn a_message_goes_on_with_its_bytes_and_what_it_is() {
        let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}"#;
        assert_eq!(
            text(send(edge(1024), post(call)).await).await,
            format!("opens None call Some(Number(7)) body {call}")
        );
        let hello = r#"{"jsonrpc":"2.0","id":"h","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
        assert!(
            text(send(edge(1024), post(hello)).await)
                .await
                .starts_with("opens Some(String(\"h\")) call None")
        );
    }

    #[tokio::test]
    async fn bodies_over_the_limit_not_json_or_not_one_message_are_refused() {
        let over = send(edge(16), post(&format!("\"{}\"", "x".repeat(64)))).await;
        assert_eq!(over.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert!(text(over).await.contains("over the limit of 16 bytes"));
        let not_json = send(edge(1024), post("{")).await;
        assert_eq!(not_json.status(), StatusCode::BAD_REQUEST);
        assert!(text(not_json).await.contains("-32700"));
        let batch = send(
            edge(1024),
            post(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#),
        )
        .await;
        assert_eq!(batch.status(), StatusCode::BAD_REQUEST);
        assert!(text(batch).await.contains("-32600"));
    }

    #[tokio::test]
    async fn a_body_that_does_not_arrive_in_time_is_408_and_closes() {
        let (_sender, body) = futures::channel::mpsc::channel::<Result<Bytes, std::io::Error>>(1);
        let request = Request::builder()
            .method("POST")
            .uri("/mcp")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from_stream(body))
            .unwrap();
        let inner = axum::Router::new().fallback(|| async { "inner" });
        let limits = Limits {
            max_bytes: 1024,
            timeout: Duration::from_millis(50),
        };
        let edge = inner.layer(axum::middleware::from_fn_with_state(limits, layer));
        let slow = send(edge, request).await;
        assert_eq!(slow.status(), StatusCode::REQUEST_TIMEOUT);
        assert_eq!(slow.headers()[header::CONNECTION], "close");
    }
}
