//! The `ask` policy over MCP: an [`ApprovalService`] that asks the session's client with
//! `elicitation/create` (form mode, an empty form: the question is the message).
//!
//! - Only an explicit `accept` answers `allowed-once`; `decline` is rejected, `cancel` is
//!   cancelled; a client that did not declare the elicitation capability, a session that is
//!   gone, a failed request and no answer within the timeout are "approver unavailable".
//!   Every non-`accept` path denies the call (`APPROVAL_DENIED`, the pipeline's texts).
//! - The request is bounded: by the server's approval timeout, and by the call's signal
//!   (a cancelled call cancels its pending question).
//! - The question rides the originating `tools/call` (its SSE stream over HTTP), also for
//!   a program's sub-calls, whose root call id names that request (the question says
//!   which tool's program asks).
//!
//! This module owns asking and interpreting the answer; it must not decide which calls
//! need approval (the configured policy does).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use parking_lot::Mutex;
use rmcp::model::{
    ClientResult, ElicitRequest, ElicitRequestParams, ElicitationAction, ElicitationSchema,
    RequestId, ServerRequest,
};
use rmcp::service::{OriginatingRequestId, PeerRequestOptions};
use rmcp::{Peer, RoleServer};

use crate::registry::ApprovalService;
use crate::tool::{ApprovalAnswer, ScopeId, ToolExecution};

/// The longest argument text a question shows.
const ARGUMENTS_SHOWN: usize = 2000;

/// What the approval service knows about one MCP session.
#[derive(Clone, Default)]
pub(crate) struct SessionLink {
    /// The client, once it initialized.
    pub peer: Option<Peer<RoleServer>>,
    /// In-flight `tools/call` requests (and the tool each called) by the call id given
    /// to the pipeline.
    pub in_flight: Arc<Mutex<HashMap<String, (RequestId, String)>>>,
}

/// Answers `ask` decisions by eliciting the client of the call's session.
pub struct ElicitationApprovals {
    timeout: Duration,
    sessions: Mutex<HashMap<ScopeId, SessionLink>>,
}

impl std::fmt::Debug for ElicitationApprovals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ElicitationApprovals")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl ElicitationApprovals {
    /// A service whose questions wait at most `timeout` for an answer.
    pub fn new(timeout: Duration) -> Self {
        ElicitationApprovals {
            timeout,
            sessions: Mutex::new(HashMap::new()),
        }
    }

    /// Registers the session of `scope`.
    pub(crate) fn open(&self, scope: ScopeId, link: SessionLink) {
        self.sessions.lock().insert(scope, link);
    }

    /// Records the client of the session of `scope`.
    pub(crate) fn set_peer(&self, scope: ScopeId, peer: Peer<RoleServer>) {
        if let Some(link) = self.sessions.lock().get_mut(&scope) {
            link.peer = Some(peer);
        }
    }

    /// Forgets the session of `scope`.
    pub(crate) fn close(&self, scope: ScopeId) {
        self.sessions.lock().remove(&scope);
    }

    fn link(&self, scope: Option<ScopeId>) -> Option<SessionLink> {
        self.sessions.lock().get(&scope?).cloned()
    }
}

/// The question the client shows its user; `root` is the tool of the client's call when
/// `execution` is a sub-call of it.
fn question(execution: &ToolExecution, root: Option<&str>, reason: Option<&str>) -> String {
    let mut arguments = serde_json::to_string_pretty(&*execution.arguments).unwrap_or_default();
    if arguments.len() > ARGUMENTS_SHOWN {
        let mut end = ARGUMENTS_SHOWN;
        while !arguments.is_char_boundary(end) {
            end -= 1;
        }
        arguments.truncate(end);
        arguments.push_str("\n…");
    }
    let why = reason.map(|r| format!(" ({r})")).unwrap_or_default();
    let within = match root {
        Some(root) if execution.is_nested() => format!(" from a {root} program"),
        _ if execution.is_nested() => " from a program".to_owned(),
        _ => String::new(),
    };
    format!(
        "Allow the call to `{}`{within}{why}? Accept to run it once; decline to refuse it.\n\nArguments:\n{arguments}",
        execution.name
    )
}

impl ApprovalService for ElicitationApprovals {
    fn request(
        &self,
        execution: Arc<ToolExecution>,
        reason: Option<String>,
    ) -> BoxFuture<'static, ApprovalAnswer> {
        let link = self.link(execution.agent);
        let timeout = self.timeout;
        async move {
            let Some(link) = link else {
                return ApprovalAnswer::Unavailable;
            };
            let Some(peer) = link.peer else {
                return ApprovalAnswer::Unavailable;
            };
            if !peer
                .supported_elicitation_modes()
                .contains(&rmcp::service::ElicitationMode::Form)
            {
                tracing::debug!(tool = %execution.name, "the client cannot be asked (no elicitation capability)");
                return ApprovalAnswer::Unavailable;
            }
            let origin = link
                .in_flight
                .lock()
                .get(execution.root_call_id.as_str())
                .cloned();
            let root = origin.as_ref().map(|(_, tool)| tool.as_str());
            let mut request = ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: question(&execution, root, reason.as_deref()),
                requested_schema: ElicitationSchema::new(BTreeMap::new()),
            });
            if let Some((origin, _)) = origin {
                request.extensions.insert(OriginatingRequestId(origin));
            }
            let mut options = PeerRequestOptions::no_options();
            options.timeout = Some(timeout);
            let handle = match peer
                .send_request_with_option(ServerRequest::ElicitRequest(request), options)
                .await
            {
                Ok(handle) => handle,
                Err(err) => {
                    tracing::warn!(tool = %execution.name, error = %err, "cannot send the approval question");
                    return ApprovalAnswer::Unavailable;
                }
            };
            let answer = tokio::select! {
                answer = handle.await_response() => answer,
                () = execution.signal.cancelled() => return ApprovalAnswer::Cancelled,
            };
            match answer {
                Ok(ClientResult::ElicitResult(result)) => match result.action {
                    ElicitationAction::Accept => ApprovalAnswer::AllowedOnce,
                    ElicitationAction::Decline => ApprovalAnswer::Rejected,
                    ElicitationAction::Cancel => ApprovalAnswer::Cancelled,
                    _ => ApprovalAnswer::Unavailable,
                },
                Ok(other) => {
                    tracing::warn!(tool = %execution.name, ?other, "the client answered the approval question with something else");
                    ApprovalAnswer::Unavailable
                }
                Err(err) => {
                    tracing::warn!(tool = %execution.name, error = %err, "no answer to the approval question");
                    ApprovalAnswer::Unavailable
                }
            }
        }
        .boxed()
    }
}
