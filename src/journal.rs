//! The journal (what the specification calls the session log): its durable events and the
//! sink a host provides to store them. (A "session" elsewhere in this crate is a client's
//! conversation with a server.)
//!
//! One ordered stream per host: the registry records each top-level call (`tool/call`,
//! `tool/result`); Code Mode records each sub-call of a program (`tool/code-dispatch-start`,
//! `tool/code-dispatch`) and each operation on its session's store (`code/store`) through
//! the registry's `emit`. Events
//! carry what replay needs — arguments, content, failure, meta — and never the
//! execution-local canonical value of a call.
//!
//! This module owns the log's vocabulary; it must not decide when anything is logged.

use futures::future::BoxFuture;
use serde::Serialize;

use crate::content::ContentBlock;
use crate::json::JsonValue;
use crate::tool::{CallId, ToolFailure};

/// One durable event.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
#[non_exhaustive]
pub enum JournalEvent {
    /// A top-level call entered the pipeline (after its arguments were frozen).
    #[serde(rename = "tool/call", rename_all = "camelCase")]
    ToolCall {
        /// The call's id.
        call_id: CallId,
        /// The tool's name.
        name: String,
        /// The frozen arguments, byte-identical to what the tool received.
        arguments: JsonValue,
    },
    /// A top-level call's final result.
    #[serde(rename = "tool/result", rename_all = "camelCase")]
    ToolResult {
        /// The call's id.
        call_id: CallId,
        /// The tool's name.
        name: String,
        /// The model-facing content.
        content: Vec<ContentBlock>,
        /// Whether it failed.
        is_error: bool,
        /// The failure.
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<ToolFailure>,
        /// Presentation metadata.
        #[serde(skip_serializing_if = "Option::is_none")]
        meta: Option<JsonValue>,
    },
    /// A Code Mode sub-call started (in submission order): the lane admitted it. A call
    /// the run abandoned before its turn came has no start event, only its
    /// `tool/code-dispatch` record.
    #[serde(rename = "tool/code-dispatch-start", rename_all = "camelCase")]
    CodeDispatchStart {
        /// The outer program's call.
        parent_call_id: CallId,
        /// `<parent>:code:<n>`.
        sub_call_id: CallId,
        /// The tool called.
        name: String,
        /// Its arguments.
        arguments: JsonValue,
    },
    /// A Code Mode sub-call settled (in submission order).
    #[serde(rename = "tool/code-dispatch", rename_all = "camelCase")]
    CodeDispatch {
        /// The outer program's call.
        parent_call_id: CallId,
        /// `<parent>:code:<n>`.
        sub_call_id: CallId,
        /// The tool called.
        name: String,
        /// Whether it failed.
        is_error: bool,
        /// The logged copy of its content (after the `tools/code-dispatch-log` waterfall).
        content: Vec<ContentBlock>,
    },
    /// An operation of a Code Mode program on its session's store (`store.set`, `get`,
    /// `delete`, `keys`), in the order the program made them; it took effect when the
    /// program made it. Values are not logged (the store holds them), only their size.
    #[serde(rename = "code/store", rename_all = "camelCase")]
    StoreOperation {
        /// The outer program's call.
        parent_call_id: CallId,
        /// `<parent>:store:<n>`, counted from 1 in each run.
        operation_id: CallId,
        /// `set`, `get`, `delete` or `keys`.
        operation: String,
        /// The key, for `set`, `get` and `delete`.
        #[serde(skip_serializing_if = "Option::is_none")]
        key: Option<String>,
        /// The bytes of the value's JSON text written (`set`) or read (`get` of a stored
        /// key).
        #[serde(skip_serializing_if = "Option::is_none")]
        bytes: Option<u64>,
        /// Why it failed (`STORE_LIMIT`, `NO_SESSION`, `INVALID_ARGS`, ...).
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<ToolFailure>,
    },
}

/// Where durable events go. `append` resolves when the event is stored; the registry
/// awaits it, so a slow sink applies backpressure instead of losing events.
pub trait JournalSink: Send + Sync + 'static {
    /// Stores one event.
    fn append(&self, event: JournalEvent) -> BoxFuture<'static, ()>;
}

/// A sink that keeps events in memory (tests, the command's `--json` output).
#[derive(Debug, Default, Clone)]
pub struct MemoryJournal {
    events: std::sync::Arc<parking_lot::Mutex<Vec<JournalEvent>>>,
}

impl MemoryJournal {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// Everything appended so far.
    pub fn events(&self) -> Vec<JournalEvent> {
        self.events.lock().clone()
    }
}

impl JournalSink for MemoryJournal {
    fn append(&self, event: JournalEvent) -> BoxFuture<'static, ()> {
        self.events.lock().push(event);
        Box::pin(async {})
    }
}
