//! The streamable HTTP endpoint's guard: an axum middleware in front of rmcp's
//! `StreamableHttpService` that answers the protocol edges rmcp answers with bare text,
//! the wrong status or not at all, each with a JSON-RPC error object
//! (`{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}`):
//!
//! - a `POST` with a JSON `Content-Type` whose body is over the limit: `413`, `-32600`.
//!   The rest of the body is read and dropped (up to [`DRAIN_BYTES`] more, within
//!   [`DRAIN_TIME`]) so the client gets to read the answer instead of a reset
//!   connection; a longer body gets the answer and `Connection: close`;
//! - a body that is not JSON: `400`, `-32700`; a lone surrogate escape (`\ud800` without
//!   its pair) is named as such, with its path, line and column;
//! - JSON that is not one JSON-RPC 2.0 message (a batch, `jsonrpc` other than `"2.0"`, no
//!   `method`, a message rmcp cannot decode): `400`, `-32600`;
//! - a `DELETE` naming a session that does not exist (or was already deleted): `404`,
//!   `-32001` (the code other MCP servers use for an unknown session); one of a live
//!   session ends it and is `204` (rmcp's `202` is not an answer the transport's clients
//!   expect);
//! - an `Origin` that is not a loopback origin or one of the configured origins (the
//!   transport requires servers to validate it): `403`, `-32600`, before anything is read;
//! - with bearer authentication configured ([`super::auth`]): a request without a token,
//!   or with one the server does not accept, `401` with `WWW-Authenticate`, before
//!   anything is read; the protected-resource metadata is answered at its well-known
//!   paths; a session belongs to the token that opened it (a request of another token
//!   naming it is answered as for an unknown session, `404`), and the token rides in the
//!   request's extensions to the session (its tool scope);
//! - a JSON body that does not arrive within the body timeout: `408`, `-32600`, and
//!   `Connection: close`;
//! - an `initialize` opening a session past the session cap: `503`, `-32000`, naming the
//!   cap.
//!
//! The health routes (`GET /healthz`, `GET /readyz`) pass through untouched (no token,
//! `Origin` or `Host` check: a probe has none). Everything else goes to rmcp unchanged (a `POST` whose `Content-Type` is not JSON gets
//! rmcp's `415`, as the transport requires). The guard never reaches a session: a
//! rejected request runs nothing.
//!
//! This module owns the HTTP framing of request bodies and of `DELETE`; it must not
//! interpret valid messages (rmcp and the session handler do).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::Value;

use super::Shared;
use super::auth::{self, Principal, Refusal, Resource};
use super::envelope;
use super::lifecycle::{InFlight, Kind, STOPPING};
use super::listen::{Counted, SERVER_BUSY};
use super::tenants::Stream;

/// The largest request body accepted by default, in bytes (4 MiB). A `run_code` program
/// is at most [`MAX_PROGRAM_BYTES`](crate::runtime::MAX_PROGRAM_BYTES) (512 KiB); even
/// with every byte escaped (`\u0000`, six bytes) its `tools/call` stays under this.
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// How many bytes past the limit are read and dropped so the client reads the `413`.
pub(crate) const DRAIN_BYTES: usize = 64 * 1024 * 1024;

/// How long the rest of an oversized body may take to be read and dropped.
pub(crate) const DRAIN_TIME: Duration = Duration::from_secs(10);

/// The header naming the MCP session.
const SESSION_HEADER: &str = "mcp-session-id";

/// The JSON-RPC code answering an unknown session (not in the JSON-RPC range; the
/// TypeScript and Python MCP SDKs answer `Session not found` with it).
const SESSION_NOT_FOUND: i64 = -32001;

/// The hosts requests may name (the DNS-rebinding defence; rmcp enforces it too).
pub(crate) const ALLOWED_HOSTS: [&str; 4] = ["localhost", "127.0.0.1", "::1", "[::1]"];

/// Whether the request names an allowed host (any port), parsed exactly as rmcp parses
/// it (the `Host` header as a URI authority, else the URI's own authority; the host part,
/// brackets trimmed, lowercased), so the two can never disagree. A request that does not —
/// or whose host cannot be read — is passed to rmcp untouched, which refuses it: the guard
/// never reads its body or answers whether a session exists.
fn host_allowed(request: &Request) -> bool {
    let authority = match request.headers().get(header::HOST) {
        Some(host) => match host
            .to_str()
            .ok()
            .and_then(|host| axum::http::uri::Authority::try_from(host).ok())
        {
            Some(authority) => authority,
            None => return false,
        },
        None => match request.uri().authority() {
            Some(authority) => authority.clone(),
            None => return false,
        },
    };
    let host = authority
        .host()
        .trim_matches('[')
        .trim_matches(']')
        .to_ascii_lowercase();
    ALLOWED_HOSTS
        .iter()
        .any(|allowed| allowed.trim_matches('[').trim_matches(']') == host)
}

/// Whether the request's `Origin` is absent, a loopback origin (`http` or `https`, a host
/// in [`ALLOWED_HOSTS`], any port) or one of `listed` (compared as `scheme://host[:port]`,
/// case-insensitively): the transport requires servers to validate it and answer an
/// invalid one `403`. `null` and anything unparsable are foreign.
fn origin_allowed(headers: &HeaderMap, listed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Some(uri) = origin
        .to_str()
        .ok()
        .and_then(|origin| axum::http::Uri::try_from(origin.trim()).ok())
    else {
        return false;
    };
    let web = matches!(uri.scheme_str(), Some("http" | "https"));
    let path_free = matches!(uri.path(), "" | "/") && uri.query().is_none();
    let Some(authority) = uri.authority() else {
        return false;
    };
    if !web || !path_free || authority.as_str().contains('@') {
        return false;
    }
    let normalized = format!(
        "{}://{}",
        uri.scheme_str().unwrap_or_default(),
        authority.as_str()
    );
    if listed.iter().any(|origin| {
        origin
            .trim_end_matches('/')
            .eq_ignore_ascii_case(&normalized)
    }) {
        return true;
    }
    let host = authority
        .host()
        .trim_matches('[')
        .trim_matches(']')
        .to_ascii_lowercase();
    ALLOWED_HOSTS
        .iter()
        .any(|allowed| allowed.trim_matches('[').trim_matches(']') == host)
}

/// What the guard needs: the body limit and timeout, the session cap and the sessions (to
/// count them and to know a `DELETE`'s), the origins and hosts it accepts, and the
/// bearer tokens when serving is authenticated.
#[derive(Clone)]
pub(crate) struct Guard {
    pub(crate) max_body_bytes: usize,
    pub(crate) body_timeout: Duration,
    pub(crate) max_sessions: usize,
    /// Held by an `initialize` from its cap check until it was answered (its session then
    /// exists, or never will): so the count of sessions is exact when the cap is checked.
    /// An `initialize` is answered by the server alone (no client round trip), so it is held
    /// for the server's work on one `initialize` at a time.
    pub(crate) opening: Arc<tokio::sync::Mutex<()>>,
    pub(crate) sessions: Arc<LocalSessionManager>,
    /// Whether the `Host` must be a loopback name (the DNS-rebinding defence of a
    /// loopback listener; rmcp checks the same list).
    pub(crate) host_check: bool,
    /// Origins allowed besides loopback ones.
    pub(crate) allowed_origins: Arc<[String]>,
    /// Where the resource is (for `401` answers and the metadata document).
    pub(crate) resource: Resource,
    /// Which token opened each session (authenticated serving only).
    pub(crate) owners: Arc<parking_lot::Mutex<HashMap<String, Principal>>>,
    /// The drain state, the tokens and their shares, the calls in flight.
    pub(crate) shared: Arc<Shared>,
}

impl Guard {
    /// A place for one more session (within the cap, and within `principal`'s share of
    /// it), or the `503` naming the cap or the share.
    async fn open_session(
        &self,
        id: Value,
        principal: Option<&Principal>,
    ) -> Result<tokio::sync::OwnedMutexGuard<()>, Response> {
        if self.shared.lifecycle.is_draining() {
            return Err(stopping(id));
        }
        let opening = self.opening.clone().lock_owned().await;
        let live = self.sessions.sessions.read().await;
        let existing = live.len();
        if let Some(principal) = principal {
            let share = self.shared.tenants.share(principal).sessions;
            let own = self
                .owners
                .lock()
                .iter()
                .filter(|(session, owner)| {
                    owner.same(principal) && live.contains_key(session.as_str())
                })
                .count();
            drop(live);
            if own >= share && existing < self.max_sessions.max(share) {
                drop(opening);
                return Err(busy(
                    id,
                    format!(
                        "Server busy: this token has {own} MCP sessions open, its share of the server's cap (`max_sessions` of its `[[serve.tokens]]` entry, else an even share of `--max-sessions`); end an unused session with DELETE, or retry after idle sessions expire"
                    ),
                ));
            }
        } else {
            drop(live);
        }
        if existing < self.max_sessions {
            return Ok(opening);
        }
        drop(opening);
        if let Some(count) = SESSIONS_REFUSED.bump() {
            tracing::warn!(
                cap = self.max_sessions,
                count,
                "MCP sessions refused: the session cap is reached"
            );
        }
        Err(busy(
            id,
            format!(
                "Server busy: the server has reached its cap of {} MCP sessions (`--max-sessions`); end an unused session with DELETE, or retry after idle sessions expire",
                self.max_sessions
            ),
        ))
    }
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

/// Sessions refused at the cap (for counted warnings).
static SESSIONS_REFUSED: Counted = Counted::new();

/// Bodies that did not arrive in time (for counted warnings).
static SLOW_BODIES: Counted = Counted::new();

/// Requests refused for their bearer token (for counted warnings).
static UNAUTHORIZED: Counted = Counted::new();

impl Guard {
    /// The principal of an authenticated request (then in its extensions), `Ok(None)`
    /// when serving is not authenticated, or why it is refused (answered `401`).
    fn authenticate(&self, request: &mut Request) -> Result<Option<Principal>, Refusal> {
        let Some(auth) = self.shared.tenants.auth() else {
            return Ok(None);
        };
        match auth.check(request.headers()) {
            Ok(principal) => {
                request.extensions_mut().insert(principal.clone());
                Ok(Some(principal))
            }
            Err(refusal) => {
                if let Some(count) = UNAUTHORIZED.bump() {
                    let why = match refusal {
                        Refusal::Missing => "no bearer token",
                        Refusal::Invalid => "a bearer token the server does not accept",
                    };
                    tracing::warn!(count, "HTTP requests refused with 401: {why} (and others)");
                }
                Err(refusal)
            }
        }
    }

    /// Whether the session a request names was opened by another token.
    fn foreign_session(&self, principal: &Principal, session: &str) -> bool {
        self.owners
            .lock()
            .get(session)
            .is_some_and(|owner| !owner.same(principal))
    }

    /// Records which token opened the session an `initialize` answer names, and forgets
    /// sessions that ended once more are recorded than can exist.
    fn own(
        &self,
        principal: Principal,
        response: &Response,
    ) -> impl Future<Output = ()> + Send + '_ {
        let id = response
            .headers()
            .get(SESSION_HEADER)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        async move {
            if let Some(id) = id {
                self.own_id(principal, id).await;
            }
        }
    }

    async fn own_id(&self, principal: Principal, id: String) {
        let crowded = {
            let mut owners = self.owners.lock();
            owners.insert(id, principal);
            owners.len() > self.max_sessions.saturating_mul(2).max(16)
        };
        if crowded {
            let live: std::collections::HashSet<String> = self
                .sessions
                .sessions
                .read()
                .await
                .keys()
                .map(|id| id.to_string())
                .collect();
            self.owners.lock().retain(|id, _| live.contains(id));
        }
    }
}

/// The middleware: answers the edges itself, passes everything else to `next` (rmcp).
pub(crate) async fn guard(
    State(guard): State<Guard>,
    mut request: Request,
    next: Next,
) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD)
        && matches!(
            request.uri().path(),
            super::health::HEALTH_PATH | super::health::READY_PATH
        )
    {
        return next.run(request).await;
    }
    if guard.host_check && !host_allowed(&request) {
        return next.run(request).await;
    }
    if !origin_allowed(request.headers(), &guard.allowed_origins) {
        let origin = request
            .headers()
            .get(header::ORIGIN)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
            .unwrap_or_default();
        return rpc_error(
            StatusCode::FORBIDDEN,
            Value::Null,
            envelope::INVALID_REQUEST,
            format!(
                "Forbidden: the Origin `{origin}` is not a loopback origin or one the server allows (`--allowed-origin`); this server answers clients that send no Origin, pages served from localhost, 127.0.0.1 or [::1], and the origins its operator lists"
            ),
        );
    }
    if guard.shared.tenants.auth().is_some()
        && request.method() == Method::GET
        && matches!(
            request.uri().path(),
            auth::METADATA_PATH | auth::METADATA_ROOT_PATH
        )
    {
        return auth::metadata_response(&guard.resource, request.headers());
    }
    let principal = match guard.authenticate(&mut request) {
        Ok(principal) => principal,
        Err(refusal) => return auth::unauthorized(refusal, &guard.resource, request.headers()),
    };
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    if let (Some(principal), Some(session)) = (&principal, &session)
        && guard.foreign_session(principal, session)
    {
        return session_not_found(session);
    }
    // Each request of a token that holds a connection for a while (an event stream, a
    // call being answered) counts against the token's share of the connections.
    let stream = match &principal {
        Some(principal) if matches!(*request.method(), Method::GET | Method::POST) => {
            match guard.shared.tenants.open_stream(principal) {
                Ok(stream) => Some(stream),
                Err(share) => {
                    return busy(
                        Value::Null,
                        format!(
                            "Server busy: this token holds {share} requests open (event streams and calls being answered), its share of the server's connections (`max_streams` of its `[[serve.tokens]]` entry, else an even share of `--max-connections`); close an event stream or wait for a call's answer"
                        ),
                    );
                }
            }
        }
        _ => None,
    };
    if request.method() == Method::POST && has_json_content_type(request.headers()) {
        let read = tokio::time::timeout(guard.body_timeout, read_message(&guard, request)).await;
        return match read {
            Ok(Ok(message)) => {
                let Message {
                    request,
                    opens,
                    call,
                } = message;
                if let Some(id) = opens {
                    return match guard.open_session(id, principal.as_ref()).await {
                        Ok(opening) => {
                            let response = next.run(request).await;
                            if let Some(principal) = principal {
                                guard.own(principal, &response).await;
                            }
                            drop(opening);
                            watched(response, stream, None)
                        }
                        Err(response) => response,
                    };
                }
                let Some(id) = call else {
                    return watched(next.run(request).await, stream, None);
                };
                // A call: counted in flight until its answer was written (a drain waits for
                // it), and cancelled when its answer is dropped unread (its client went
                // away).
                let Some(in_flight) = guard.shared.lifecycle.enter_as(Kind::Answer) else {
                    return stopping(id);
                };
                let gone = session.map(|session| Gone {
                    calls: guard.shared.calls.clone(),
                    session,
                    id,
                });
                let response = next.run(request).await;
                watched(response, stream, Some((in_flight, gone)))
            }
            Ok(Err(response)) => response,
            Err(_) => {
                if let Some(count) = SLOW_BODIES.bump() {
                    tracing::warn!(
                        timeout_ms = guard.body_timeout.as_millis() as u64,
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
                        guard.body_timeout.as_millis()
                    ),
                );
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
                response
            }
        };
    }
    if request.method() == Method::DELETE
        && let Some(id) = session
    {
        match guard.sessions.has_session(&Arc::from(id.as_str())).await {
            Ok(false) => {
                guard.owners.lock().remove(&id);
                return session_not_found(&id);
            }
            Ok(true) => {}
            Err(err) => tracing::warn!(error = %err, "cannot look up an MCP session"),
        }
        guard.shared.calls.cancel_session(&id);
        let mut response = next.run(request).await;
        if response.status().is_success() {
            guard.owners.lock().remove(&id);
        }
        // rmcp answers a closed session `202`; the transport's clients expect 200 or 204
        // (the Python SDK warns on anything else).
        if response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::NO_CONTENT;
            response.headers_mut().remove(header::CONTENT_TYPE);
            response.headers_mut().remove(header::CONTENT_LENGTH);
            *response.body_mut() = Body::empty();
        }
        return response;
    }
    watched(next.run(request).await, stream, None)
}

/// A call whose client going away cancels it: its session and JSON-RPC id.
struct Gone {
    calls: Arc<super::calls::Calls>,
    session: String,
    id: Value,
}

/// What an answer's body holds until it ends: the token's open request, and for a call its
/// count in flight and its cancellation should the body be dropped before its end.
struct Held {
    _stream: Option<Stream>,
    call: Option<(InFlight, Option<Gone>)>,
    ended: bool,
}

impl Drop for Held {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        if let Some((_, Some(gone))) = &self.call {
            tracing::debug!(session = %gone.session, "a call's client went away; cancelling it");
            gone.calls.cancel(&gone.session, &gone.id);
        }
    }
}

/// The body of an answer with what it holds ([`Held`]), released when the body ends or
/// is dropped.
struct Watched {
    inner: axum::body::BodyDataStream,
    held: Held,
}

impl futures::Stream for Watched {
    type Item = Result<Bytes, axum::Error>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        let polled = self.inner.poll_next_unpin(cx);
        if let std::task::Poll::Ready(None) = polled {
            self.held.ended = true;
        }
        polled
    }
}

/// `response` whose body holds `stream` and `call` until it ends (nothing to hold: as is).
fn watched(
    response: Response,
    stream: Option<Stream>,
    call: Option<(InFlight, Option<Gone>)>,
) -> Response {
    if stream.is_none() && call.is_none() {
        return response;
    }
    let (parts, body) = response.into_parts();
    let body = Watched {
        inner: body.into_data_stream(),
        held: Held {
            _stream: stream,
            call,
            ended: false,
        },
    };
    Response::from_parts(parts, Body::from_stream(body))
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

/// A request whose body was read and checked: the request rebuilt with the same body, the
/// id of an `initialize` that opens a session, and the id of a `tools/call`.
struct Message {
    request: Request,
    opens: Option<Value>,
    call: Option<Value>,
}

/// Reads the body within the limit and checks it is one JSON-RPC 2.0 message rmcp can
/// decode; the [`Message`], or the error response.
async fn read_message(guard: &Guard, request: Request) -> Result<Message, Response> {
    let limit = guard.max_body_bytes;
    let (parts, body) = request.into_parts();
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
    let opens = !parts.headers.contains_key(SESSION_HEADER)
        && value.get("method").and_then(Value::as_str) == Some("initialize");
    let id = || value.get("id").cloned().unwrap_or(Value::Null);
    let opens = opens.then(id);
    let call = (value.get("method").and_then(Value::as_str) == Some("tools/call")
        && value.get("id").is_some())
    .then(id);
    Ok(Message {
        request: Request::from_parts(parts, Body::from(Bytes::from(collected))),
        opens,
        call,
    })
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

/// A response with `status` whose body is a JSON-RPC error object.
fn rpc_error(status: StatusCode, id: Value, code: i64, message: String) -> Response {
    envelope::json_response(status, &envelope::error(id, code, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_program_fits_the_default_limit_with_every_byte_escaped() {
        let program = "\u{1}".repeat(crate::runtime::MAX_PROGRAM_BYTES);
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "run_code", "arguments": {"code": program, "description": "largest"}}});
        assert!(call.to_string().len() < DEFAULT_MAX_BODY_BYTES);
    }

    #[test]
    fn only_absent_and_loopback_origins_are_allowed() {
        let with = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::ORIGIN, HeaderValue::from_static(value));
            origin_allowed(&headers, &[])
        };
        assert!(origin_allowed(&HeaderMap::new(), &[]));
        for allowed in [
            "http://localhost",
            "http://127.0.0.1:8931",
            "https://LOCALHOST:3000",
            "http://[::1]:80",
        ] {
            assert!(with(allowed), "{allowed}");
        }
        for refused in [
            "null",
            "http://attacker.example",
            "http://localhost.attacker.example",
            "http://x@localhost",
            "file://localhost",
            "http://localhost/path",
            "localhost",
            "",
        ] {
            assert!(!with(refused), "{refused}");
        }
        let listed = ["https://Agents.Example.com".to_owned()];
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://agents.example.com"),
        );
        assert!(origin_allowed(&headers, &listed));
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://agents.example.com"),
        );
        assert!(!origin_allowed(&headers, &listed));
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://agents.example.com:8443"),
        );
        assert!(!origin_allowed(&headers, &listed));
    }

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
}
