//! `codemode serve`: the MCP server that exposes a registry's presentation to any MCP
//! client, over stdio or streamable HTTP (the official Rust SDK, `rmcp`): on loopback, or on
//! any address with bearer authentication, optionally over TLS.
//!
//! - [`SessionHandler`]: one MCP session — `tools/list` is the session scope's assembly
//!   in its mode (native schemas, the transport carrying the SDK, or both), `tools/call`
//!   runs [`Registry::execute`](crate::registry::Registry::execute) (the pipeline `codemode
//!   run` uses) and maps the frozen result onto an MCP `CallToolResult`
//!   ([`crate::mcp::wire`]); client
//!   cancellation cancels the call's signal; tool-set changes become
//!   `notifications/tools/list_changed`.
//! - `stdio`: the line filter in front of rmcp's stdio transport (JSON-RPC errors for
//!   lines that are not messages; one writer of standard output).
//! - `listen`: the HTTP listener (the connection cap, the header read timeout).
//! - `http`: the edge in front of rmcp's streamable HTTP service, one tower layer per
//!   concern (host, origin, bearer token, session owner, a token's open requests, the
//!   body, session admission, calls in flight, `DELETE`), answering each refusal with a
//!   JSON-RPC error and the right status.
//! - `auth`: bearer tokens (kept as digests, checked in constant time), the `401`
//!   answers and the protected-resource metadata.
//! - `tls`: the rustls acceptor from certificate and key files.
//! - `runs`: the cap on concurrent calls across the server, with its bounded queue (and
//!   each token's lane within its share).
//! - `tenants`: the accepted tokens (replaceable while serving) and each token's share of
//!   the caps, its session stores' bytes among them.
//! - `lifecycle`: draining and stopping ([`McpServer::shutdown`]) and the calls in flight.
//! - `calls`: the HTTP calls in flight by session and id, cancelled when their client
//!   went away.
//! - `health`: `/healthz` and `/readyz`.
//! - `progress`: a call's progress reports as `notifications/progress` for its request
//!   (`_meta.progressToken`), coalesced.
//! - `metrics`: the Prometheus metrics (`--metrics`): counted as calls end, read when
//!   scraped, served on a listener of their own.
//! - `envelope`: what both transports accept as one JSON-RPC 2.0 message.
//! - `approval`: the [`ApprovalService`](crate::registry::ApprovalService) that answers
//!   the `ask` policy by MCP elicitation, bounded in time.
//!
//! Each MCP session gets its own agent scope (so an `ask` knows which client to ask) and,
//! where Code Mode is installed, its own store (the global `store` of its programs, counted
//! against the server's `--max-store-mb` and its token's share of it); both end with the
//! session (`DELETE`, the idle expiry, the end of the stdio connection).
//!
//! This module owns the server side of the protocol (sessions, transports); it must not
//! decide visibility or policy (the registry and configuration do), what a model is given
//! (the assembly does) or touch stdout for anything but the protocol.

mod approval;
mod auth;
mod calls;
mod envelope;
mod health;
mod http;
mod lifecycle;
mod listen;
mod metrics;
mod progress;
mod runs;
mod session;
mod stdio;
mod tenants;
mod tls;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rmcp::ServiceExt;

use crate::code::StoreBudget;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::registry::Registry;

pub use crate::tool::{MAX_PROGRESS_MESSAGE_CHARS, PROGRESS_INTERVAL};
pub use approval::ElicitationApprovals;
pub use auth::{
    AuthError, BearerAuth, BearerToken, MIN_SECRET_CHARS, Principal, Shares, sha256_hex,
};
pub use health::{HEALTH_PATH, READY_PATH};
pub use http::DEFAULT_MAX_BODY_BYTES;
pub use lifecycle::{CANCEL_GRACE, Drained, Lifecycle, SESSION_LINGER, STOPPING};
pub use listen::{CONNECTION_UNWRITTEN_BUDGET, SERVER_UNWRITTEN_BUDGET};
pub use metrics::{METRICS_PATH, Metrics};
pub use session::{SERVER_NAME, SessionHandler};
pub use tenants::{QUEUE_FLOOR, RUNS_FLOOR, SESSIONS_FLOOR, STORE_FLOOR, STREAMS_FLOOR};
pub use tls::TlsFiles;

/// The metrics listener of a server, bound ([`McpServer::bind_metrics`]).
#[derive(Debug)]
pub struct MetricsServer {
    server: McpServer,
    listener: tokio::net::TcpListener,
}

impl MetricsServer {
    /// The address it is bound to.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// Answers scrapes until `shutdown` fires. A failing connection ends alone.
    pub async fn serve(self, shutdown: CancellationToken) {
        let server = self.server;
        let app = axum::Router::new().route(
            METRICS_PATH,
            axum::routing::get(move || {
                let server = server.clone();
                async move {
                    (
                        [(
                            axum::http::header::CONTENT_TYPE,
                            "text/plain; version=0.0.4; charset=utf-8",
                        )],
                        server.metrics_text().await,
                    )
                }
            }),
        );
        let served = axum::serve(self.listener, app)
            .with_graceful_shutdown(shutdown.cancelled_owned())
            .await;
        if let Err(err) = served {
            tracing::warn!(%err, "the metrics listener stopped");
        }
    }
}

/// The endpoint path of the streamable HTTP transport.
pub const HTTP_PATH: &str = "/mcp";

/// How long the last responses may take to reach standard output after the session ended.
const STDOUT_DRAIN: Duration = Duration::from_secs(5);

/// How long an `ask` waits for the client's answer by default before the call is denied.
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(120);

/// Why serving failed. Each variant has a stable [`ServeError::code`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// `--http` named an address that is not on the loopback interface, and no bearer
    /// token is configured.
    #[error(
        "refusing to listen on {0}: without authentication `codemode serve --http` binds loopback addresses only (127.0.0.1, ::1 or localhost), because the server runs tools on this machine; to serve other machines, configure bearer tokens (`[[serve.tokens]]`, `--token-file` or `--token-env`) and preferably TLS (`--tls-cert`, `--tls-key`)"
    )]
    NotLoopback(SocketAddr),
    /// The TLS certificate or key cannot be used.
    #[error("cannot serve TLS: {0}")]
    Tls(String),
    /// The HTTP listener could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The cause.
        source: std::io::Error,
    },
    /// The MCP transport failed (the client went away during the handshake, an I/O error).
    #[error("the MCP connection failed: {0}")]
    Transport(String),
}

impl ServeError {
    /// The stable code of the failure.
    pub fn code(&self) -> &'static str {
        match self {
            ServeError::NotLoopback(_) => "SERVE_NOT_LOOPBACK",
            ServeError::Tls(_) => "SERVE_TLS_FAILED",
            ServeError::Bind { .. } => "SERVE_BIND_FAILED",
            ServeError::Transport(_) => "SERVE_TRANSPORT_FAILED",
        }
    }
}

/// How long a connection may take to send a request's line and headers by default.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request body may take to arrive by default.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long an answer may wait for a client that does not read it by default.
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// How many HTTP connections may be open at once by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;

/// How many HTTP sessions may exist at once by default.
pub const DEFAULT_MAX_SESSIONS: usize = 128;

/// How long an HTTP session may stay idle before it is closed by default (rmcp's).
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(300);

/// How many calls may run at once across the server by default.
pub const DEFAULT_MAX_RUNS: usize = 8;

/// How many calls may wait for a run slot by default: two for each session of the default
/// session cap, so sessions that each keep a call or two in flight are queued, never
/// refused (a waiting call costs a few KB).
pub const DEFAULT_RUN_QUEUE: usize = 2 * DEFAULT_MAX_SESSIONS;

/// How many bytes the stores of all sessions may hold together by default (256 MiB): keys
/// plus values' JSON text, as [`SessionStore`](crate::code::SessionStore) counts them.
pub const DEFAULT_MAX_STORE_BYTES: usize = 256 * 1024 * 1024;

/// Settings of the server.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServeOptions {
    /// How long an `ask` waits for the client's elicitation answer before the call is
    /// denied (the approver is then "unavailable").
    pub approval_timeout: Duration,
    /// The largest request body the HTTP endpoint accepts, in bytes
    /// ([`DEFAULT_MAX_BODY_BYTES`] by default); a larger one is answered `413`.
    pub max_body_bytes: usize,
    /// How long an HTTP connection may take to send a request's line and headers (also
    /// the longest idle time between kept-alive requests) before it is closed.
    pub header_timeout: Duration,
    /// How long a request body may take to arrive; a slower one is answered `408` and its
    /// connection closed.
    pub body_timeout: Duration,
    /// How long an answer's bytes may wait for a client that does not read them; the
    /// connection is then closed and the answer released.
    pub write_timeout: Duration,
    /// How many HTTP connections may be open at once; one more is answered `503`.
    pub max_connections: usize,
    /// How many HTTP sessions may exist at once; an `initialize` past it is `503`.
    pub max_sessions: usize,
    /// How long an HTTP session may stay idle before it is closed.
    pub session_idle: Duration,
    /// How many `tools/call`s may run at once across the server.
    pub max_runs: usize,
    /// How many `tools/call`s may wait for a run slot; one more is refused as busy.
    pub run_queue: usize,
    /// How many bytes the stores of all sessions may hold together (each token's share:
    /// this divided among the tokens, at least
    /// [`STORE_FLOOR`]); a write past it fails with `STORE_LIMIT`.
    pub max_store_bytes: usize,
    /// The bearer tokens HTTP requests must present (none: no authentication, and then
    /// only loopback addresses are served).
    pub auth: Option<BearerAuth>,
    /// TLS certificate and key files for the HTTP listener.
    pub tls: Option<TlsFiles>,
    /// Origins (`scheme://host[:port]`) allowed besides loopback ones.
    pub allowed_origins: Vec<String>,
    /// The endpoint's URL as clients reach it (behind a proxy or load balancer), for the
    /// protected-resource metadata; default: made from each request's `Host`.
    pub public_url: Option<String>,
}

impl ServeOptions {
    /// The same options with another approval timeout.
    pub fn with_approval_timeout(mut self, timeout: Duration) -> Self {
        self.approval_timeout = timeout;
        self
    }

    /// The same options with another HTTP request body limit, in bytes.
    pub fn with_max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// The same options with another header read timeout.
    pub fn with_header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    /// The same options with another body read timeout.
    pub fn with_body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// The same options with another write timeout (a client that does not read).
    pub fn with_write_timeout(mut self, timeout: Duration) -> Self {
        self.write_timeout = timeout;
        self
    }

    /// The same options with another cap on open HTTP connections (at least 1).
    pub fn with_max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections.max(1);
        self
    }

    /// The same options with another cap on HTTP sessions (at least 1).
    pub fn with_max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions.max(1);
        self
    }

    /// The same options with another idle expiry of HTTP sessions.
    pub fn with_session_idle(mut self, idle: Duration) -> Self {
        self.session_idle = idle;
        self
    }

    /// The same options with another cap on concurrent calls (at least 1).
    pub fn with_max_runs(mut self, runs: usize) -> Self {
        self.max_runs = runs.max(1);
        self
    }

    /// The same options with another length of the queue of calls waiting for a slot.
    pub fn with_run_queue(mut self, queue: usize) -> Self {
        self.run_queue = queue;
        self
    }

    /// The same options with another bound on the bytes of all sessions' stores.
    pub fn with_max_store_bytes(mut self, bytes: usize) -> Self {
        self.max_store_bytes = bytes;
        self
    }

    /// The same options with bearer authentication by `auth`'s tokens (or none).
    pub fn with_auth(mut self, auth: Option<BearerAuth>) -> Self {
        self.auth = auth;
        self
    }

    /// The same options with TLS from `files` (or none).
    pub fn with_tls(mut self, files: Option<TlsFiles>) -> Self {
        self.tls = files;
        self
    }

    /// The same options allowing `origins` (`scheme://host[:port]`) besides loopback ones.
    pub fn with_allowed_origins(mut self, origins: Vec<String>) -> Self {
        self.allowed_origins = origins;
        self
    }

    /// The same options with the endpoint's public URL (for the resource metadata).
    pub fn with_public_url(mut self, url: Option<String>) -> Self {
        self.public_url = url;
        self
    }
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            approval_timeout: DEFAULT_APPROVAL_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle: DEFAULT_SESSION_IDLE,
            max_runs: DEFAULT_MAX_RUNS,
            run_queue: DEFAULT_RUN_QUEUE,
            max_store_bytes: DEFAULT_MAX_STORE_BYTES,
            auth: None,
            tls: None,
            allowed_origins: Vec::new(),
            public_url: None,
        }
    }
}

/// What the sessions and the HTTP guard of one server share.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) lifecycle: Arc<Lifecycle>,
    pub(crate) tenants: Arc<tenants::Tenants>,
    pub(crate) runs: runs::RunGate,
    pub(crate) calls: Arc<calls::Calls>,
    pub(crate) metrics: Arc<Metrics>,
    /// The HTTP listener's sessions by token (unset over stdio).
    pub(crate) sessions_by_token: std::sync::OnceLock<http::SessionsByToken>,
    /// The bytes all sessions' stores hold (`--max-store-mb`).
    pub(crate) stores: StoreBudget,
}

/// The MCP server over one registry: installs the elicitation approval service and makes
/// one [`SessionHandler`] handler per MCP session.
#[derive(Clone)]
pub struct McpServer {
    registry: Registry,
    approvals: Arc<ElicitationApprovals>,
    sessions: Arc<AtomicU64>,
    shared: Arc<Shared>,
    options: ServeOptions,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer").finish_non_exhaustive()
    }
}

impl McpServer {
    /// A server over `registry` (with its tools, policies and, for `code` / `both`, Code
    /// Mode installed). Installs the elicitation approval service on the registry.
    pub fn new(registry: Registry, options: ServeOptions) -> Self {
        let approvals = Arc::new(ElicitationApprovals::new(options.approval_timeout));
        registry.set_approval_service(Some(approvals.clone()));
        let caps = tenants::Caps {
            sessions: options.max_sessions,
            streams: options.max_connections,
            runs: options.max_runs,
            queue: options.run_queue,
            store: options.max_store_bytes,
        };
        let shared = Arc::new(Shared {
            lifecycle: Arc::new(Lifecycle::default()),
            tenants: Arc::new(tenants::Tenants::new(options.auth.clone(), caps)),
            runs: runs::RunGate::new(options.max_runs, options.run_queue),
            calls: Arc::default(),
            metrics: Arc::default(),
            sessions_by_token: std::sync::OnceLock::new(),
            stores: StoreBudget::new(
                format!(
                    "the server's memory for session stores (--max-store-mb {})",
                    options.max_store_bytes / (1024 * 1024)
                ),
                options.max_store_bytes,
            ),
        });
        if let Some(code) = crate::code::CodeMode::of(&registry) {
            // Programs' sub-calls are counted too (after the observer already installed,
            // if any).
            let metrics = shared.metrics.clone();
            let before = code.observer();
            code.set_observer(Some(Arc::new(move |record| {
                if let Some(before) = &before {
                    before(record);
                }
                metrics.sub_call(record);
            })));
        }
        McpServer {
            registry,
            approvals,
            sessions: Arc::new(AtomicU64::new(1)),
            shared,
            options,
        }
    }

    /// The server's drain state and calls in flight.
    pub fn lifecycle(&self) -> &Lifecycle {
        &self.shared.lifecycle
    }

    /// Drains and stops: new sessions and calls are refused at once (HTTP `503` with
    /// `Retry-After`, `/readyz` not ready; over stdio an `isError` result), the calls in
    /// flight get `grace` to finish, then those left are cancelled and answered with
    /// [`STOPPING`]. Returns once no call is in flight (over HTTP: once their answers were
    /// written), or [`CANCEL_GRACE`] after the cancellation for calls that do not end.
    /// Stop serving (the `shutdown` token of [`HttpServer::serve`] or
    /// [`McpServer::serve_stdio`]) after it returns.
    pub async fn shutdown(&self, grace: Duration) -> Drained {
        let drained = self.shared.lifecycle.shutdown(grace).await;
        tracing::info!(
            in_flight = drained.in_flight,
            cancelled = drained.cancelled,
            abandoned = drained.abandoned,
            "drained"
        );
        drained
    }

    /// Replaces the accepted bearer tokens while serving (a token file re-read): requests
    /// from now on are checked against `auth`; the sessions of tokens it still holds stay
    /// theirs. Serving that was not authenticated stays so (the listener was bound for it).
    ///
    /// # Errors
    ///
    /// A message when the server was started without tokens.
    pub fn replace_tokens(&self, auth: BearerAuth) -> Result<(), String> {
        if self.shared.tenants.auth().is_none() {
            return Err(
                "the server was started without bearer tokens; restart it to add them".to_owned(),
            );
        }
        self.shared.tenants.replace(auth);
        Ok(())
    }

    /// The handler of a new MCP session (its own agent scope).
    ///
    /// # Errors
    ///
    /// As [`Scope::create_scope`](crate::registry::Scope::create_scope) for the session's
    /// scope, which never fails under the global layer: in practice this does not fail.
    pub fn session(&self) -> Result<SessionHandler, crate::Error> {
        let number = self.sessions.fetch_add(1, Ordering::Relaxed);
        SessionHandler::new(
            self.registry.clone(),
            self.approvals.clone(),
            self.shared.clone(),
            number,
        )
    }

    /// What the server counted since it started and what it holds now, in Prometheus'
    /// text exposition format (what `--metrics` serves).
    pub async fn metrics_text(&self) -> String {
        let shared = &self.shared;
        let lifecycle = &shared.lifecycle;
        let (runs, queued) = shared.runs.load();
        let mut gauges = metrics::Gauges {
            draining: lifecycle.is_draining(),
            calls_in_flight: lifecycle.counted(lifecycle::Kind::Call),
            sessions: lifecycle.counted(lifecycle::Kind::Session),
            runs,
            queued,
            ..metrics::Gauges::default()
        };
        if let Some(auth) = shared.tenants.auth() {
            let sessions = match shared.sessions_by_token.get() {
                Some(view) => view.count().await,
                None => Default::default(),
            };
            let streams = shared.tenants.open_streams();
            let lanes = shared.runs.load_by_token();
            gauges.tokens = auth
                .tokens()
                .map(|token| {
                    let key = token.key();
                    let (runs, queued) = lanes.get(&key).copied().unwrap_or_default();
                    metrics::TokenGauges {
                        name: token.name().to_owned(),
                        sessions: sessions.get(&key).copied().unwrap_or(0),
                        open_requests: streams.get(&key).copied().unwrap_or(0),
                        runs,
                        queued,
                    }
                })
                .collect();
        }
        gauges.warm_engines =
            crate::code::CodeMode::of(&self.registry).and_then(|code| code.warm_sandboxes());
        // Reading `/proc` is blocking file I/O (a few small files per process).
        gauges.memory = tokio::task::spawn_blocking(metrics::Memory::read)
            .await
            .unwrap_or_default();
        shared.metrics.render(&gauges)
    }

    /// Binds the metrics listener on `addr`: `GET /metrics` answers [`McpServer::metrics_text`]
    /// (anything else `404`). It is a listener of its own, without the MCP endpoint's
    /// authentication: bind it where only the monitoring reaches.
    ///
    /// # Errors
    ///
    /// [`ServeError::Bind`] when the address cannot be bound.
    pub async fn bind_metrics(&self, addr: SocketAddr) -> Result<MetricsServer, ServeError> {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        Ok(MetricsServer {
            server: self.clone(),
            listener,
        })
    }

    /// Serves one client over standard input and output until the client closes the
    /// connection or `shutdown` fires.
    ///
    /// # Errors
    ///
    /// [`ServeError::Transport`] when the session cannot be created, the MCP handshake with the
    /// client fails, or the session's task ends abnormally. The client closing the connection
    /// or `shutdown` firing is `Ok`.
    pub async fn serve_stdio(&self, shutdown: CancellationToken) -> Result<(), ServeError> {
        let handler = self
            .session()
            .map_err(|err| ServeError::Transport(err.message().to_owned()))?;
        let streams = stdio::standard_streams();
        let restore = streams.restore;
        let filter = stdio::filter(streams.input, streams.output);
        let (reader, mut writer) = (filter.reader, filter.writer);
        let served = async {
            let running = handler
                .serve_with_ct((filter.rmcp_reads, filter.rmcp_writes), shutdown)
                .await
                .map_err(|err| ServeError::Transport(err.to_string()))?;
            let reason = running
                .waiting()
                .await
                .map_err(|err| ServeError::Transport(err.to_string()))?;
            tracing::info!(?reason, "the MCP client disconnected");
            // Every response rmcp wrote reaches standard output before the process exits.
            if tokio::time::timeout(STDOUT_DRAIN, &mut writer)
                .await
                .is_err()
            {
                tracing::warn!("standard output did not drain in time");
            }
            Ok(())
        }
        .await;
        // The filter's tasks go before the descriptors' flags are put back (a task left
        // reading or writing a blocking descriptor would block this thread).
        for task in [reader, writer] {
            // A task already awaited to its end is not awaited again.
            if !task.is_finished() {
                task.abort();
                let _ = task.await;
            }
        }
        drop(restore);
        served
    }

    /// Binds the streamable HTTP endpoint ([`HTTP_PATH`]) (port 0 picks a free port): on
    /// a loopback address, or on any address when bearer tokens are configured
    /// ([`ServeOptions::auth`]). The returned [`HttpServer`] says the bound address and
    /// serves when awaited.
    ///
    /// # Errors
    ///
    /// [`ServeError::NotLoopback`] for another address without tokens,
    /// [`ServeError::Tls`] when the TLS files cannot serve, [`ServeError::Bind`] when the
    /// address cannot be bound.
    pub async fn bind_http(&self, addr: SocketAddr) -> Result<HttpServer, ServeError> {
        if !is_loopback(addr.ip()) && self.options.auth.is_none() {
            return Err(ServeError::NotLoopback(addr));
        }
        let tls = self
            .options
            .tls
            .as_ref()
            .map(TlsFiles::acceptor)
            .transpose()
            .map_err(ServeError::Tls)?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| ServeError::Bind { addr, source })?;
        Ok(HttpServer {
            server: self.clone(),
            listener,
            local,
            tls,
        })
    }
}

/// Whether `ip` is a loopback address (IPv4-mapped IPv6 loopback included).
pub fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// A bound streamable HTTP server.
pub struct HttpServer {
    server: McpServer,
    listener: tokio::net::TcpListener,
    local: SocketAddr,
    tls: Option<tokio_rustls::TlsAcceptor>,
}

impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("local", &self.local)
            .finish_non_exhaustive()
    }
}

impl HttpServer {
    /// The bound address.
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The endpoint URL (`http://127.0.0.1:PORT/mcp`; `https` with TLS).
    pub fn url(&self) -> String {
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        format!("{scheme}://{}{HTTP_PATH}", self.local)
    }

    /// Serves until `shutdown` fires.
    ///
    /// # Errors
    ///
    /// None today: the address and TLS were checked by [`McpServer::bind_http`], and a
    /// connection that fails ends alone; `Ok(())` once `shutdown` fires and the connections
    /// have drained.
    pub async fn serve(self, shutdown: CancellationToken) -> Result<(), ServeError> {
        let server = self.server.clone();
        let options = server.options.clone();
        // A loopback listener answers loopback host names only (the DNS-rebinding
        // defence); one on another address is reached by whatever name its clients use,
        // and bearer tokens (which a browser never attaches on its own) guard it.
        let host_check = is_loopback(self.local.ip());
        let config = StreamableHttpServerConfig::default()
            .with_cancellation_token(shutdown.child_token())
            .with_max_request_body_bytes(options.max_body_bytes);
        let config = if host_check {
            config.with_allowed_hosts(http::ALLOWED_HOSTS)
        } else {
            config.disable_allowed_hosts()
        };
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(options.session_idle);
        let sessions = Arc::new(sessions);
        let service = StreamableHttpService::new(
            move || {
                server
                    .session()
                    .map_err(|err| std::io::Error::other(err.message().to_owned()))
            },
            sessions.clone(),
            config,
        );
        let shared = self.server.shared.clone();
        let mcp = axum::Router::new().nest_service(HTTP_PATH, service);
        let edge = http::edge(
            mcp,
            http::Edge {
                max_body_bytes: options.max_body_bytes,
                body_timeout: options.body_timeout,
                max_sessions: options.max_sessions,
                sessions,
                host_check,
                allowed_origins: options.allowed_origins.clone().into(),
                resource: auth::Resource {
                    public_url: options.public_url.clone(),
                    tls: self.tls.is_some(),
                },
                shared: shared.clone(),
            },
        );
        // The health routes are answered before the edge: a probe needs no token, Origin
        // or Host of the edge's lists.
        let router = health::router(shared.lifecycle.clone(), edge);
        let limits = listen::ConnectionLimits {
            max_connections: options.max_connections,
            header_timeout: options.header_timeout,
            write_timeout: options.write_timeout,
            tls: self.tls,
        };
        listen::serve(self.listener, router, limits, shutdown).await;
        Ok(())
    }
}
