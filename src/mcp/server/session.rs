//! One MCP session: its agent scope, `tools/list` from the scope's assembly, `tools/call`
//! through the registry's pipeline, and the mapping of results onto MCP.
//!
//! - `tools/list`: the assembly's wire tools in the configured mode. A native tool carries
//!   `outputSchema` when its output schema (or the schema its source advertised) has an
//!   object root — MCP only allows object-rooted output schemas — and then its calls carry
//!   the value as `structuredContent`. The transport carries its description followed by the
//!   assembly's prompt sections (`tools:code-only` in `code` mode, then `tools:sdk`), and no
//!   `outputSchema`: its result is the model-facing text of the run, as the spec defines.
//! - `tools/call`: a success maps its content blocks (and the content of deferred
//!   contexts, e.g. images of a program's sub-calls, after them) to MCP content; a failure
//!   is an `isError` result whose one text block is the model text the spec defines
//!   (`Error: <message>`), with the stable code in `_meta` (`codemode/errorCode`).
//!   Unknown tools are error results too (the registry's `UNKNOWN_TOOL` text).
//! - A request for a method this server implements (`initialize`, `ping`, `tools/list`,
//!   `tools/call`) whose params do not decode is `-32602 Invalid params`, saying what is
//!   wrong (rmcp hands such a request over as a custom one, which would be `-32601`);
//!   other unknown methods are `-32601 Method not found`.
//! - Every `tools/call` first takes a slot of the server's run cap (`runs`; over
//!   authenticated HTTP within its token's share): it waits in the bounded queue, or is an
//!   `isError` result (`HOST_FAILED`, "the server is busy") past it.
//! - While the server drains (`lifecycle`), a new `tools/call` is an `isError` result
//!   (`HOST_FAILED`, "the server is stopping"); a call still running when the shutdown
//!   grace ends is cancelled and answered `ABORTED`, saying the server is stopping.
//! - Over HTTP a call is registered by session and id (`calls`), so the HTTP edge cancels it
//!   when its client went away.
//! - `notifications/cancelled` cancels the call's signal (rmcp cancels the request token).
//! - Over authenticated HTTP, the `initialize` request carries the bearer token that
//!   opened the session ([`Principal`]); a token with a tool scope (`allow` / `deny`)
//!   restricts the session's agent scope before anything is listed, so its tool list, its
//!   SDK and its programs' sub-calls see only those tools.
//! - A change of the registry's tool set that changes this session's list sends
//!   `notifications/tools/list_changed`.
//! - Where Code Mode is installed, `initialize` gives the session its store (its
//!   programs' `store`), bounded by Code Mode's store limits and counted against the
//!   server's memory for stores and the token's share of it; the store ends with the
//!   session (its scope closes).
//!
//! This module owns the protocol mapping of one session; it must not decide visibility or
//! policy, nor run anything except through [`Registry::execute`].

use std::borrow::Cow;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use rmcp::model::{
    CallToolRequestMethod, CallToolRequestParams, CallToolResponse, CallToolResult, ConstString,
    CustomRequest, CustomResult, ErrorCode as McpErrorCode, Implementation,
    InitializeRequestParams, InitializeResult, InitializeResultMethod, JsonObject,
    ListToolsRequestMethod, ListToolsResult, PaginatedRequestParams, PingRequestMethod,
    ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, Peer, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use crate::code::{Assembly, CodeMode, SessionStore, advertised_output, assemble};
use crate::error::{Error, ErrorCode};
use crate::mcp::wire::{ERROR_CODE_META, output_schema, to_call_result};
use crate::registry::{Disposer, Registry, Scope};
use crate::tool::{ScopeId, ToolExecutionInput, ToolExecutionResult};

use super::Shared;
use super::approval::{ElicitationApprovals, SessionLink};
use super::auth::Principal;
use super::calls::id_key;
use super::lifecycle::STOPPING;
use super::metrics::CallKind;
use super::runs::Refused;

/// The server's name in `serverInfo`.
pub const SERVER_NAME: &str = "codemode";

/// How long tool-set changes are gathered before one `list_changed` is considered.
const CHANGE_DEBOUNCE: Duration = Duration::from_millis(50);

/// What a session shares with its background task and drops when it ends.
struct Session {
    registry: Registry,
    scope: Scope,
    /// The session scope's id.
    agent: ScopeId,
    approvals: Arc<ElicitationApprovals>,
    shared: Arc<Shared>,
    link: SessionLink,
    number: u64,
    changes: tokio::sync::watch::Receiver<u64>,
    on_change: Disposer,
    closed: CancellationToken,
    /// The session's store, made at `initialize` (when its token is known) where Code Mode
    /// is installed; attached to the session's scope, it ends with the session.
    store: std::sync::OnceLock<SessionStore>,
    /// The session counted open (a drain lets clients close their sessions).
    _open: super::lifecycle::Counted,
}

impl Drop for Session {
    fn drop(&mut self) {
        self.closed.cancel();
        self.on_change.dispose();
        self.approvals.close(self.agent);
        self.scope.close();
        tracing::debug!(session = self.number, "MCP session closed");
    }
}

/// The MCP handler of one session.
pub struct SessionHandler {
    session: Arc<Session>,
}

impl std::fmt::Debug for SessionHandler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionHandler")
            .field("session", &self.session.number)
            .finish_non_exhaustive()
    }
}

impl SessionHandler {
    pub(crate) fn new(
        registry: Registry,
        approvals: Arc<ElicitationApprovals>,
        shared: Arc<Shared>,
        number: u64,
    ) -> Result<Self, Error> {
        let scope = registry
            .global()
            .create_scope(format!("mcp session {number}"))?;
        let agent = scope.id();
        let link = SessionLink::default();
        approvals.open(agent, link.clone());
        let open = shared.lifecycle.count(super::lifecycle::Kind::Session);
        let (tx, changes) = tokio::sync::watch::channel(0u64);
        let on_change = registry.on_change(move || {
            tx.send_modify(|n| *n = n.wrapping_add(1));
        });
        Ok(SessionHandler {
            session: Arc::new(Session {
                registry,
                scope: scope.into_scope(),
                agent,
                approvals,
                shared,
                link,
                number,
                changes,
                on_change,
                closed: CancellationToken::new(),
                store: std::sync::OnceLock::new(),
                _open: open,
            }),
        })
    }
}

impl Session {
    fn assembly(&self) -> Result<Assembly, Error> {
        assemble(&self.scope)
    }

    /// The session's tool list in its mode.
    fn tools(&self) -> Result<Vec<Tool>, Error> {
        let assembly = self.assembly()?;
        let mut tools = Vec::with_capacity(assembly.tools.len());
        for schema in assembly.self_describing_tools() {
            let input = match &schema.parameters {
                Value::Object(map) => map.clone(),
                _ => object_of(json!({"type": "object"})),
            };
            let output = assembly.outputs.get(&schema.name).and_then(output_schema);
            let mut tool = Tool::new(schema.name, schema.description, Arc::new(input));
            if let Some(output) = output {
                tool = tool.with_raw_output_schema(Arc::new(output));
            }
            tools.push(tool);
        }
        Ok(tools)
    }

    /// The MCP output schema of a tool this session calls: its advertised output schema
    /// when the root is an object; a provider's tool (the transport) has none: its result
    /// is the model-facing text of the run.
    fn output_schema(&self, name: &str) -> Option<JsonObject> {
        if self.registry.reserved(name).is_some() {
            return None;
        }
        output_schema(&advertised_output(&*self.scope.get(name)?))
    }

    /// Makes the session's store (once) and attaches it to the session's scope: within
    /// Code Mode's bounds, counted against the server's memory for stores and, over
    /// authenticated HTTP, `principal`'s share of it. Without Code Mode there is none.
    fn open_store(&self, principal: Option<&Principal>) {
        let Some(code) = CodeMode::of(&self.registry) else {
            return;
        };
        self.store.get_or_init(|| {
            let mut budgets = vec![self.shared.stores.clone()];
            budgets.extend(principal.map(|principal| self.shared.tenants.store_budget(principal)));
            let store = SessionStore::with_budgets(code.config().store, budgets);
            // Detached when the session's scope closes (the session's end).
            store.attach(&self.scope).keep();
            store
        });
    }

    /// Restricts the session's scope to what `principal`'s token may see (nothing to do
    /// for a token without a tool scope).
    fn limit_to(&self, principal: &Principal) -> Result<(), McpError> {
        let token = principal.token();
        fn names(list: Option<&[String]>) -> Option<Vec<&str>> {
            list.map(|names| names.iter().map(String::as_str).collect())
        }
        let (allow, deny) = (names(token.allow()), names(token.deny()));
        if allow.is_none() && deny.is_none() {
            return Ok(());
        }
        tracing::debug!(
            session = self.number,
            token = token.name(),
            "MCP session limited to its token's tools"
        );
        self.scope
            .restrict(allow.as_deref(), deny.as_deref())
            .map(drop)
            .map_err(|err| {
                tracing::error!(token = token.name(), error = %err, "a token's tool scope cannot be applied");
                McpError::internal_error(
                    format!(
                        "the tool scope of bearer token `{}` cannot be applied: {}",
                        token.name(),
                        err.message()
                    ),
                    None,
                )
            })
    }

    /// Watches the registry and tells the client when this session's list changed.
    fn watch_changes(self: &Arc<Self>, peer: Peer<RoleServer>) {
        let weak = Arc::downgrade(self);
        let mut changes = self.changes.clone();
        let closed = self.closed.clone();
        let mut last = self.tools().ok();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    changed = changes.changed() => if changed.is_err() { break },
                    () = closed.cancelled() => break,
                }
                tokio::time::sleep(CHANGE_DEBOUNCE).await;
                changes.mark_unchanged();
                let Some(session) = weak.upgrade() else { break };
                let now = session.tools().ok();
                drop(session);
                if now == last {
                    continue;
                }
                last = now;
                if let Err(err) = peer.notify_tool_list_changed().await {
                    tracing::debug!(error = %err, "cannot send tools/list_changed; the client is gone");
                    break;
                }
            }
        });
    }

    /// The error answering a call that got no run slot: busy, or cancelled while it waited
    /// (by the drain, counted as stopped, or by its client).
    fn refusal(&self, name: &str, refused: Refused) -> Error {
        let lifecycle = &self.shared.lifecycle;
        match refused {
            Refused::Busy(text) => Error::new(ErrorCode::HostFailed, text),
            Refused::Cancelled if lifecycle.is_stopping() => {
                self.shared.metrics.stopped();
                Error::new(
                    ErrorCode::AbortedBeforeDispatch,
                    format!(
                        "the call to `{name}` was cancelled while it waited for a run slot: {STOPPING}; call it again once the server is back"
                    ),
                )
            }
            Refused::Cancelled => Error::new(
                ErrorCode::AbortedBeforeDispatch,
                format!("the call to `{name}` was cancelled while it waited for a run slot"),
            ),
        }
    }

    /// One `tools/call`, inside its span: `tools/call {name}` (kind server), a child of the
    /// caller's trace context when the request carries one (feature `otel`).
    async fn call(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let span = tracing::info_span!(
            "tools/call",
            otel.name = %format_args!("tools/call {}", request.name),
            otel.kind = "server",
            mcp.method.name = "tools/call",
            gen_ai.tool.name = %request.name,
            jsonrpc.request.id = %ctx.id,
        );
        #[cfg(feature = "otel")]
        crate::mcp::trace_context::adopt(
            &span,
            &[
                request.meta.as_deref().map(|meta| &meta.0),
                Some(&ctx.meta.0),
            ],
            ctx.extensions
                .get::<axum::http::request::Parts>()
                .map(|parts| &parts.headers),
        );
        self.call_in_span(request, ctx).instrument(span).await
    }

    async fn call_in_span(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let name = request.name.to_string();
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let lifecycle = &self.shared.lifecycle;
        // A draining server takes no new call (the HTTP edge refuses most before they
        // reach here; over stdio this is the refusal).
        // The call's signal: the client's cancellation (rmcp's request token), which the
        // end of the shutdown grace and (over HTTP) its client going away cancel too.
        let signal = ctx.ct.clone();
        let Some(_in_flight) = lifecycle.enter(&signal) else {
            self.shared.metrics.stopped();
            return to_call_result(
                &ToolExecutionResult::failure(Error::new(
                    ErrorCode::HostFailed,
                    format!(
                        "the call to `{name}` was not started: {STOPPING}; call it again once the server is back"
                    ),
                )),
                false,
            );
        };
        let parts = ctx.extensions.get::<axum::http::request::Parts>();
        let _registered = parts
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .and_then(|value| value.to_str().ok())
            .map(|session| {
                self.shared
                    .calls
                    .register(session, id_key(&ctx.id), signal.clone())
            });
        let tenant = parts
            .and_then(|parts| parts.extensions.get::<Principal>())
            .map(|principal| (principal.key(), self.shared.tenants.share(principal)));
        // A slot of the server's run cap first (or the queue, or a busy refusal).
        let slot = self.shared.runs.enter(&signal, tenant);
        let _slot = match slot.instrument(tracing::info_span!("run_slot")).await {
            Ok(slot) => slot,
            Err(refused) => {
                let error = self.refusal(&name, refused);
                return to_call_result(&ToolExecutionResult::failure(error), false);
            }
        };
        let call_id = format!("mcp:{}:{}", self.number, ctx.id);
        self.link
            .in_flight
            .lock()
            .insert(call_id.clone(), (ctx.id.clone(), name.clone()));
        let mut input = ToolExecutionInput::new(call_id.clone(), name.clone(), arguments)
            .for_agent(self.agent)
            .with_signal(signal.clone());
        // The call's progress, when the client asked for it (`_meta.progressToken`).
        let relay = match ctx.meta.get_progress_token() {
            Some(token) => {
                let (sink, relay) = super::progress::relay(ctx.peer.clone(), token);
                input = input.with_progress(sink);
                Some(relay)
            }
            None => None,
        };
        let outcome = AssertUnwindSafe(self.registry.execute(input))
            .catch_unwind()
            .await;
        if let Some(relay) = relay {
            relay.finish().await;
        }
        self.link.in_flight.lock().remove(&call_id);
        match outcome {
            Ok(result) if result.is_error() && lifecycle.is_stopping() => {
                self.shared.metrics.stopped();
                to_call_result(
                    &ToolExecutionResult::failure(Error::new(
                        ErrorCode::Aborted,
                        format!(
                            "the call to `{name}` was cancelled: {STOPPING}, and the call did not end within its shutdown grace; call it again once the server is back"
                        ),
                    )),
                    false,
                )
            }
            Ok(result) => {
                let structured = !result.is_error() && self.output_schema(&name).is_some();
                to_call_result(&result, structured)
            }
            Err(_) => {
                tracing::error!(tool = %name, "the pipeline panicked");
                to_call_result(
                    &ToolExecutionResult::failure(Error::new(
                        ErrorCode::ToolFailed,
                        format!("the call to `{name}` failed inside the server"),
                    )),
                    false,
                )
            }
        }
    }
}

/// The error answering a request rmcp did not decode as one of the methods it knows: a
/// method this server implements whose params do not decode (`-32602`), or an unknown
/// method (`-32601`).
fn custom_request_error(request: &CustomRequest) -> McpError {
    let method = request.method.as_str();
    let detail = if method == CallToolRequestMethod::VALUE {
        params_error::<CallToolRequestParams>(request, true)
            .map(|err| format!("{err}; expected {{\"name\": string, \"arguments\"?: object}}"))
    } else if method == ListToolsRequestMethod::VALUE {
        params_error::<PaginatedRequestParams>(request, false)
            .map(|err| format!("{err}; expected nothing or {{\"cursor\"?: string}}"))
    } else if method == InitializeResultMethod::VALUE {
        params_error::<InitializeRequestParams>(request, true).map(|err| {
            format!("{err}; expected {{\"protocolVersion\", \"capabilities\", \"clientInfo\"}}")
        })
    } else if method == PingRequestMethod::VALUE {
        Some("expected no params or an object".to_owned())
    } else {
        return McpError::new(
            McpErrorCode::METHOD_NOT_FOUND,
            format!("Method not found: `{method}`"),
            None,
        );
    };
    let detail = detail.unwrap_or_else(|| "the params do not match the method".to_owned());
    McpError::invalid_params(format!("Invalid params for `{method}`: {detail}"), None)
}

/// Why the request's params do not decode as `T` (or are missing when `required`), if
/// they do not.
fn params_error<T: serde::de::DeserializeOwned>(
    request: &CustomRequest,
    required: bool,
) -> Option<String> {
    match request.params_as::<T>() {
        Err(err) => Some(err.to_string()),
        Ok(None) if required => Some("params are missing".to_owned()),
        Ok(_) => None,
    }
}

fn object_of(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

impl ServerHandler for SessionHandler {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        let instructions = match self.session.assembly() {
            Ok(assembly) => assembly.instructions(),
            Err(err) => {
                tracing::warn!(error = %err, "the session's tools cannot be assembled");
                format!("The tools cannot be listed: {}", err.message())
            }
        };
        let mut info = InitializeResult::new(capabilities).with_instructions(instructions);
        info.server_info = Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"));
        info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        info
    }

    /// Versions with a server-to-client request channel: `ask` needs `elicitation/create`.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(
            &ProtocolVersion::LATEST_WITH_INITIALIZE,
        ))
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        let principal = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Principal>());
        if let Some(principal) = principal {
            self.session.limit_to(principal)?;
        }
        self.session.open_store(principal);
        context.peer.set_peer_info(request.clone());
        self.session
            .approvals
            .set_peer(self.session.agent, context.peer.clone());
        self.negotiate_initialize(&request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        tracing::debug!(session = self.session.number, "MCP client initialized");
        self.session.watch_changes(context.peer);
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools = self.session.tools().map_err(|err| {
            tracing::error!(error = %err, "cannot assemble the tool list");
            McpError::internal_error(err.message().to_owned(), None)
        })?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let started = std::time::Instant::now();
        let kind = if request.name == crate::code::RUN_CODE {
            CallKind::Run
        } else {
            CallKind::Tool
        };
        let answer = self.session.call(request, context).await;
        let failed = (answer.is_error == Some(true)).then(|| {
            answer
                .meta
                .as_ref()
                .and_then(|meta| meta.get(ERROR_CODE_META))
                .and_then(Value::as_str)
                .unwrap_or("")
        });
        self.session
            .shared
            .metrics
            .call(kind, failed, started.elapsed());
        Ok(answer.into())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        Err(custom_request_error(&request))
    }
}
