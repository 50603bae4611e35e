//! The streamable HTTP endpoint's edge: ordered tower layers in front of rmcp's
//! `StreamableHttpService`, one concern each, composed with `ServiceBuilder` by [`edge`].
//! Each answers the protocol edges rmcp answers with bare text, the wrong status or not
//! at all, with a JSON-RPC error object
//! (`{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}`). In order:
//!
//! 1. [`host`]: a request naming a foreign `Host` on a loopback listener goes to rmcp
//!    alone, which refuses it (the DNS-rebinding defence).
//! 2. [`origin`]: a foreign `Origin`, `403`.
//! 3. [`bearer`]: with tokens, the protected-resource metadata; a missing or wrong token,
//!    `401`; the accepted token rides on in the request's extensions.
//! 4. [`owners`]: a session named by a token that did not open it, `404`.
//! 5. [`streams`]: a token past its share of open requests, `503`.
//! 6. [`body`]: a JSON `POST` read within the limit and the timeout and checked to be one
//!    message (`413`, `400`, `408`).
//! 7. [`sessions`]: an `initialize` while draining, past the session cap or the token's
//!    share of it, `503`; the owner of an opened session recorded.
//! 8. [`inflight`]: a `tools/call` while draining, `503`; a call counted in flight until
//!    its answer was written, and cancelled when its client went away.
//! 9. [`delete`]: a `DELETE` of an unknown session, `404`; of a live one, its calls
//!    cancelled and `204`.
//!
//! The health routes (`GET /healthz`, `GET /readyz`) are answered before the edge (no
//! token, `Origin` or `Host` check: a probe has none). Everything that passes goes to rmcp
//! unchanged. A rejected request runs nothing.
//!
//! This module owns the order of the layers and the answers they share; it must not
//! interpret valid messages (rmcp and the session handler do).

mod bearer;
mod body;
mod delete;
mod hold;
mod host;
mod inflight;
mod origin;
mod owners;
pub(crate) use owners::SessionsByToken;
mod sessions;
mod streams;

use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::Value;
use tower::ServiceBuilder;

use super::Shared;
use super::auth::Resource;
use super::envelope;
use super::lifecycle::STOPPING;
use super::listen::SERVER_BUSY;

pub(crate) use host::ALLOWED_HOSTS;

/// The largest request body accepted by default, in bytes (4 MiB). A `run_code` program
/// is at most [`MAX_PROGRAM_BYTES`](crate::runtime::MAX_PROGRAM_BYTES) (512 KiB); even
/// with every byte escaped (`\u0000`, six bytes) its `tools/call` stays under this.
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The header naming the MCP session.
const SESSION_HEADER: &str = "mcp-session-id";

/// The JSON-RPC code answering an unknown session (not in the JSON-RPC range; the
/// TypeScript and Python MCP SDKs answer `Session not found` with it).
const SESSION_NOT_FOUND: i64 = -32001;

/// What the edge needs: the body limit and timeout, the session cap and the sessions (to
/// count them and to know a `DELETE`'s), whether the `Host` must be a loopback name, the
/// origins it accepts besides loopback ones, where the resource is (for `401` answers and
/// the metadata document), and what the server's sessions share with it.
pub(crate) struct Edge {
    pub(crate) max_body_bytes: usize,
    pub(crate) body_timeout: Duration,
    pub(crate) max_sessions: usize,
    pub(crate) sessions: Arc<LocalSessionManager>,
    pub(crate) host_check: bool,
    pub(crate) allowed_origins: Arc<[String]>,
    pub(crate) resource: Resource,
    pub(crate) shared: Arc<Shared>,
}

/// `mcp` (rmcp's service at its path) behind the edge's layers, in the order of the
/// module's doc.
pub(crate) fn edge(mcp: axum::Router, edge: Edge) -> axum::Router {
    let Edge {
        max_body_bytes,
        body_timeout,
        max_sessions,
        sessions,
        host_check,
        allowed_origins,
        resource,
        shared,
    } = edge;
    let owners = Arc::new(owners::Owners::default());
    // The first HTTP listener's sessions are the ones the metrics count by token.
    let _ = shared.sessions_by_token.set(owners::SessionsByToken {
        owners: owners.clone(),
        sessions: sessions.clone(),
    });
    let layers = ServiceBuilder::new()
        .layer(from_fn_with_state(
            host::Host {
                check: host_check,
                bypass: mcp.clone(),
            },
            host::layer,
        ))
        .layer(from_fn_with_state(allowed_origins, origin::layer))
        .layer(from_fn_with_state(
            bearer::Bearer {
                tenants: shared.tenants.clone(),
                resource,
            },
            bearer::layer,
        ))
        .layer(from_fn_with_state(owners.clone(), owners::layer))
        .layer(from_fn_with_state(shared.tenants.clone(), streams::layer))
        .layer(from_fn_with_state(
            body::Limits {
                max_bytes: max_body_bytes,
                timeout: body_timeout,
            },
            body::layer,
        ))
        .layer(from_fn_with_state(
            sessions::Admission {
                max_sessions,
                opening: Arc::default(),
                sessions: sessions.clone(),
                owners: owners.clone(),
                lifecycle: shared.lifecycle.clone(),
                tenants: shared.tenants.clone(),
            },
            sessions::layer,
        ))
        .layer(from_fn_with_state(
            inflight::Answers {
                lifecycle: shared.lifecycle.clone(),
                calls: shared.calls.clone(),
            },
            inflight::layer,
        ))
        .layer(from_fn_with_state(
            delete::Deletes {
                sessions,
                owners,
                calls: shared.calls.clone(),
            },
            delete::layer,
        ));
    mcp.layer(layers)
}

/// The session a request (or an `initialize`'s answer) names.
fn session_of(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(SESSION_HEADER)
        .and_then(|value| value.to_str().ok())
}

/// `503`, `-32000` with `message` and `Retry-After: 5`.
fn busy(id: Value, message: String) -> Response {
    let mut response = rpc_error(StatusCode::SERVICE_UNAVAILABLE, id, SERVER_BUSY, message);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

/// `503` with `Retry-After` for a new session or call while the server drains.
fn stopping(id: Value) -> Response {
    busy(
        id,
        format!("Service Unavailable: {STOPPING}; retry on another instance or once it is back"),
    )
}

/// `404`, `-32001`: no session `id` (or not one of this request's token).
fn session_not_found(id: &str) -> Response {
    rpc_error(
        StatusCode::NOT_FOUND,
        Value::Null,
        SESSION_NOT_FOUND,
        format!(
            "Session not found: no session `{id}` (it ended or was deleted); start a new one with `initialize`"
        ),
    )
}

/// A response with `status` whose body is a JSON-RPC error object.
fn rpc_error(status: StatusCode, id: Value, code: i64, message: String) -> Response {
    envelope::json_response(status, &envelope::error(id, code, message))
}

/// What the layers' tests share: an inner service, a way to send one request, and tokens.
#[cfg(test)]
pub(super) mod tests {
    use axum::extract::Request;
    use tower::ServiceExt;

    pub(crate) use crate::mcp::server::tenants::tests::principal as principal_of;

    use crate::mcp::server::BearerToken;
    use crate::mcp::server::auth::{BearerAuth, Principal};
    use crate::mcp::server::tenants::Caps;
    use crate::mcp::server::tenants::tests::token;

    /// A service answering `inner` to everything.
    pub(crate) fn inner() -> axum::Router {
        axum::Router::new().fallback(|| async { "inner" })
    }

    /// `router`'s answer to `request`.
    pub(crate) async fn send(router: axum::Router, request: Request) -> axum::response::Response {
        match router.oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        }
    }

    /// A response's body as text.
    pub(crate) async fn text(response: axum::response::Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Caps large enough not to matter.
    pub(crate) fn caps() -> Caps {
        Caps {
            sessions: 64,
            streams: 64,
            runs: 8,
            queue: 16,
            store: 1 << 30,
        }
    }

    /// Tokens `a` and `b`.
    pub(crate) fn tokens() -> [BearerToken; 2] {
        ["a", "b"].map(token)
    }

    /// The principals of tokens `a` and `b`.
    pub(crate) fn principals() -> [Principal; 2] {
        let auth = BearerAuth::new(tokens().to_vec()).unwrap();
        ["a", "b"].map(|name| principal_of(&auth, name))
    }
}
