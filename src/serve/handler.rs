//! One MCP session: its agent scope, `tools/list` from the scope's assembly, `tools/call`
//! through the registry's pipeline, and the mapping of results onto MCP.
//!
//! - `tools/list`: the assembly's wire tools in the configured mode. A native tool carries
//!   `outputSchema` when its output schema (or the schema its source advertised) has an
//!   object root — MCP only allows object-rooted output schemas — and then its calls carry
//!   the value as `structuredContent`. `run_code` carries its description followed by the
//!   assembly's prompt sections (`tools:code-only` in `code` mode, then `tools:sdk`), and no
//!   `outputSchema`: its result is the model-facing text of the run, as the spec defines.
//! - `tools/call`: a success maps its content blocks (and the content of deferred
//!   contexts, e.g. images of `run_code` sub-calls, after them) to MCP content; a failure
//!   is an `isError` result whose one text block is the model text the spec defines
//!   (`Error: <message>`), with the stable code in `_meta` (`codemode/errorCode`).
//!   Unknown tools are error results too (the registry's `UNKNOWN_TOOL` text).
//! - `notifications/cancelled` cancels the call's signal (rmcp cancels the request token).
//! - A change of the registry's tool set that changes this session's list sends
//!   `notifications/tools/list_changed`.
//!
//! This module owns the protocol mapping of one session; it must not decide visibility or
//! policy, nor run anything except through [`Registry::execute`].

use std::borrow::Cow;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation,
    InitializeRequestParams, InitializeResult, JsonObject, ListToolsResult, MetaObject,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, Peer, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::codemode::assemble;
use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::registry::{Disposer, PresentationMode, Registry, ScopeHandle};
use crate::tool::{RUN_CODE, ToolExecutionInput, ToolExecutionResult};

use super::approval::{ElicitationApprovals, SessionLink};

/// The server's name in `serverInfo`.
pub const SERVER_NAME: &str = "codemode";

/// The `_meta` key carrying a failed call's stable error code.
pub const ERROR_CODE_META: &str = "codemode/errorCode";

/// How long tool-set changes are gathered before one `list_changed` is considered.
const CHANGE_DEBOUNCE: Duration = Duration::from_millis(50);

/// What a session shares with its background task and drops when it ends.
struct Session {
    registry: Registry,
    scope: ScopeHandle,
    approvals: Arc<ElicitationApprovals>,
    link: SessionLink,
    number: u64,
    changes: tokio::sync::watch::Receiver<u64>,
    on_change: Disposer,
    closed: CancellationToken,
}

impl Drop for Session {
    fn drop(&mut self) {
        self.closed.cancel();
        self.on_change.dispose();
        self.approvals.close(self.scope.id());
        self.scope.close();
        tracing::debug!(session = self.number, "MCP session closed");
    }
}

/// The MCP handler of one session.
pub struct CodemodeServer {
    session: Arc<Session>,
}

impl std::fmt::Debug for CodemodeServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodemodeServer")
            .field("session", &self.session.number)
            .finish_non_exhaustive()
    }
}

impl CodemodeServer {
    pub(crate) fn new(
        registry: Registry,
        approvals: Arc<ElicitationApprovals>,
        number: u64,
    ) -> Result<Self, Error> {
        let scope = registry.create_scope(format!("mcp session {number}"), None)?;
        let link = SessionLink::default();
        approvals.open(scope.id(), link.clone());
        let (tx, changes) = tokio::sync::watch::channel(0u64);
        let on_change = registry.on_change(move || {
            tx.send_modify(|n| *n = n.wrapping_add(1));
        });
        Ok(CodemodeServer {
            session: Arc::new(Session {
                registry,
                scope,
                approvals,
                link,
                number,
                changes,
                on_change,
                closed: CancellationToken::new(),
            }),
        })
    }
}

impl Session {
    fn mode(&self) -> PresentationMode {
        self.registry.mode(Some(self.scope.id()))
    }

    /// The session's tool list in its mode.
    fn tools(&self) -> Result<Vec<Tool>, Error> {
        let scope = Some(self.scope.id());
        let assembly = assemble(&self.registry, scope)?;
        let sections: Vec<&str> = assembly.sections.iter().map(|s| s.text.as_str()).collect();
        let sections = sections.join("\n\n");
        let mut tools = Vec::with_capacity(assembly.tools.len());
        for schema in assembly.tools {
            let input = match &schema.parameters {
                Value::Object(map) => map.clone(),
                _ => object_of(json!({"type": "object"})),
            };
            let is_run_code = schema.name == RUN_CODE;
            let description = if is_run_code && !sections.is_empty() {
                format!("{}\n\n{sections}", schema.description)
            } else {
                schema.description.clone()
            };
            let mut tool = Tool::new(schema.name.clone(), description, Arc::new(input));
            if !is_run_code && let Some(output) = self.output_schema(&schema.name) {
                tool = tool.with_raw_output_schema(Arc::new(output));
            }
            tools.push(tool);
        }
        Ok(tools)
    }

    /// The MCP output schema of a native tool: its declared (or advertised) output schema
    /// when the root is an object; `run_code` has none.
    fn output_schema(&self, name: &str) -> Option<JsonObject> {
        if name == RUN_CODE {
            // run_code's result is the model-facing text of the run.
            return None;
        }
        let tool = self.registry.get(name, Some(self.scope.id()))?;
        let schema = tool
            .annotations()
            .advertised_output
            .clone()
            .unwrap_or_else(|| tool.output().schema().as_json().clone());
        match schema {
            Value::Object(map) if map.get("type") == Some(&json!("object")) => Some(map),
            _ => None,
        }
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

    async fn call(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let name = request.name.to_string();
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let call_id = format!("mcp:{}:{}", self.number, ctx.id);
        self.link
            .in_flight
            .lock()
            .insert(call_id.clone(), ctx.id.clone());
        let input = ToolExecutionInput::new(call_id.clone(), name.clone(), arguments)
            .for_agent(self.scope.id())
            .with_signal(ctx.ct.clone());
        let outcome = AssertUnwindSafe(self.registry.execute(input))
            .catch_unwind()
            .await;
        self.link.in_flight.lock().remove(&call_id);
        match outcome {
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

fn object_of(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// One of our content blocks as an MCP content block (the shapes match field for field).
fn content_block(block: &ContentBlock) -> rmcp::model::ContentBlock {
    serde_json::to_value(block)
        .ok()
        .and_then(|value| serde_json::from_value(value).ok())
        .unwrap_or_else(|| {
            rmcp::model::ContentBlock::text(crate::content::text_of(std::slice::from_ref(block)))
        })
}

/// Maps a frozen pipeline result onto an MCP tool result: a failure is `isError` with the
/// model text (`Error: <message>`) and its code in `_meta`; a success carries its content
/// (then the content of deferred contexts) and, when `structured`, the value.
pub fn to_call_result(result: &ToolExecutionResult, structured: bool) -> CallToolResult {
    if let Some(failure) = result.failure_info() {
        let mut meta = MetaObject::new();
        meta.insert(ERROR_CODE_META.to_owned(), json!(failure.code.as_str()));
        return CallToolResult::error(vec![rmcp::model::ContentBlock::text(result.model_text())])
            .with_meta(Some(meta));
    }
    let mut content: Vec<rmcp::model::ContentBlock> =
        result.content.iter().map(content_block).collect();
    for context in &result.additional_contexts {
        content.extend(context.content.iter().map(content_block));
    }
    let mut mapped = CallToolResult::success(content);
    if structured && let Some(value @ Value::Object(_)) = result.value() {
        mapped.structured_content = Some(value.clone());
    }
    mapped
}

impl ServerHandler for CodemodeServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        let instructions = match self.session.mode() {
            PresentationMode::Native => {
                "Tools served by codemode: every call runs through its guarded pipeline."
            }
            PresentationMode::Code => {
                "Code Mode: `run_code` is the only tool. Its description declares the tools as a TypeScript SDK; \
                 write a program that calls them with `await tools.name(args)` and returns or prints what you need."
            }
            PresentationMode::Both => {
                "The tools can be called directly, or from a `run_code` program: its description declares them as a \
                 TypeScript SDK (`await tools.name(args)`)."
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
        context.peer.set_peer_info(request.clone());
        self.session
            .approvals
            .set_peer(self.session.scope.id(), context.peer.clone());
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
        Ok(self.session.call(request, context).await.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{MessageSource, UserMessage};

    #[test]
    fn a_failure_is_an_error_result_with_the_model_text_and_its_code() {
        let failed = ToolExecutionResult::failure(Error::new(
            ErrorCode::CodeRunFailed,
            "code run failed (exception): Error: x\nCaptured output:\nbefore",
        ));
        let mut mapped = serde_json::to_value(to_call_result(&failed, true)).unwrap_or_default();
        // The protocol layer strips `resultType` for pre-2026 peers.
        if let Some(map) = mapped.as_object_mut() {
            map.remove("resultType");
        }
        assert_eq!(
            mapped,
            json!({
                "content": [{"type": "text", "text": "Error: code run failed (exception): Error: x\nCaptured output:\nbefore"}],
                "isError": true,
                "_meta": {"codemode/errorCode": "CODE_RUN_FAILED"}
            })
        );
    }

    #[test]
    fn a_success_carries_its_content_then_deferred_contexts_and_the_value_when_structured() {
        let mut result = ToolExecutionResult::success(
            json!({"n": 1}),
            vec![
                ContentBlock::text("one"),
                ContentBlock::image("aGk=", "image/png"),
            ],
        );
        result.additional_contexts.push(UserMessage::new(
            MessageSource::Tool {
                name: "shot".into(),
                call_id: "c:code:0".into(),
            },
            vec![ContentBlock::image("aGk=", "image/gif")],
        ));
        let mapped = serde_json::to_value(to_call_result(&result, true)).unwrap_or_default();
        assert_eq!(mapped["content"][0], json!({"type": "text", "text": "one"}));
        assert_eq!(
            mapped["content"][1],
            json!({"type": "image", "data": "aGk=", "mimeType": "image/png"})
        );
        assert_eq!(mapped["content"][2]["mimeType"], "image/gif");
        assert_eq!(mapped["structuredContent"], json!({"n": 1}));
        assert!(mapped.get("isError").is_none_or(|e| e == false));
        let plain = serde_json::to_value(to_call_result(&result, false)).unwrap_or_default();
        assert!(plain.get("structuredContent").is_none());
    }
}
