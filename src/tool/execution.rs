//! The identity of one tool call as it travels through the pipeline.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::content::UserMessage;
use crate::json::{DepthLimit, JsonValue};

use super::Signal;
use super::progress::{Progress, ProgressSink};

/// A call identifier chosen by the caller (the model's tool-call id, or a sub-call id
/// such as `call-7:code:2`).
pub type CallId = String;

/// An opaque call identity assigned by the registry: comparable for equality, carrying
/// no state. Nested calls receive their enclosing execution's token as `parent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExecutionToken(u64);

impl ExecutionToken {
    pub(crate) fn next() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        ExecutionToken(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// An agent scope (the spec's `ScopeKey`): which layer of registrations, restrictions,
/// guards and listeners a call runs under. Created by the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopeId(pub(crate) u64);

impl std::fmt::Display for ScopeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "scope#{}", self.0)
    }
}

/// A caller's description of one call. The registry adds the token and freezes it into a
/// [`ToolExecution`]; callers never choose the token.
///
/// ```
/// use codemode::tool::ToolExecutionInput;
/// let input = ToolExecutionInput::new("call-1", "read_file", serde_json::json!({"path": "a.txt"}));
/// assert_eq!(input.name, "read_file");
/// ```
#[derive(Debug, Clone)]
pub struct ToolExecutionInput {
    /// The call's id.
    pub call_id: CallId,
    /// The model-requested call that owns this execution tree (omit for a root call;
    /// nested dispatchers pass the enclosing value on).
    pub root_call_id: Option<CallId>,
    /// The tool's name as the caller wrote it.
    pub name: String,
    /// The parsed arguments (must be lossless JSON).
    pub arguments: JsonValue,
    /// The agent scope the call runs for; `None` is the global view.
    pub agent: Option<ScopeId>,
    /// The enclosing transport execution (Code Mode sub-calls); marks a sub-dispatch.
    pub parent: Option<ExecutionToken>,
    /// The caller's cancellation.
    pub signal: Signal,
    /// Where the call's progress goes, if the caller wants it.
    pub progress: Option<ProgressSink>,
}

impl ToolExecutionInput {
    /// A root call for the global view, with a signal that never fires.
    pub fn new(call_id: impl Into<CallId>, name: impl Into<String>, arguments: JsonValue) -> Self {
        ToolExecutionInput {
            call_id: call_id.into(),
            root_call_id: None,
            name: name.into(),
            arguments,
            agent: None,
            parent: None,
            signal: Signal::never(),
            progress: None,
        }
    }

    /// Sends the call's progress reports to `sink`.
    pub fn with_progress(mut self, sink: ProgressSink) -> Self {
        self.progress = Some(sink);
        self
    }

    /// Runs the call for `agent`.
    pub fn for_agent(mut self, agent: impl Into<Option<ScopeId>>) -> Self {
        self.agent = agent.into();
        self
    }

    /// Sets the caller's cancellation signal.
    pub fn with_signal(mut self, signal: impl Into<Signal>) -> Self {
        self.signal = signal.into();
        self
    }

    /// Marks the call as a sub-dispatch of `parent` within the tree rooted at `root_call_id`.
    pub fn nested_in(mut self, parent: ExecutionToken, root_call_id: impl Into<CallId>) -> Self {
        self.parent = Some(parent);
        self.root_call_id = Some(root_call_id.into());
        self
    }
}

/// One call inside the pipeline: identity, frozen arguments and the caller's signal. Every
/// listener sees the same immutable value; only an around-dispatch wrapper may substitute
/// the signal its delegate sees (the registry's `DispatchExecution`).
#[derive(Debug)]
pub struct ToolExecution {
    /// The call's id.
    pub call_id: CallId,
    /// The root model-requested call of this execution tree.
    pub root_call_id: CallId,
    /// The tool's name.
    pub name: String,
    /// The frozen arguments: the exact value logged and handed to the tool.
    pub arguments: Arc<JsonValue>,
    /// The agent scope, if any.
    pub agent: Option<ScopeId>,
    /// The enclosing transport execution, if this is a sub-dispatch.
    pub parent: Option<ExecutionToken>,
    /// The registry-assigned identity.
    pub token: ExecutionToken,
    /// The caller's cancellation.
    pub signal: Signal,
    /// Where the call's progress goes, if the caller wants it.
    pub progress: Option<ProgressSink>,
}

impl ToolExecution {
    /// Whether this is a Code Mode sub-dispatch (it has a parent).
    pub fn is_nested(&self) -> bool {
        self.parent.is_some()
    }
}

/// What a tool body receives besides its arguments: the execution identity, the signal
/// it must observe (the caller's, fused with any wrapper's, e.g. a deadline), and the
/// channels to attach context to its own result.
#[derive(Debug, Clone)]
pub struct ToolRunContext {
    execution: Arc<ToolExecution>,
    signal: Signal,
    value_depth: DepthLimit,
    effects: Arc<Mutex<RunEffects>>,
}

/// Context a body attached to its own result.
#[derive(Debug, Default)]
pub(crate) struct RunEffects {
    pub deferred: Vec<UserMessage>,
    pub concludes_turn: bool,
}

impl ToolRunContext {
    pub(crate) fn new(
        execution: Arc<ToolExecution>,
        signal: Signal,
        value_depth: DepthLimit,
    ) -> (Self, Arc<Mutex<RunEffects>>) {
        let effects = Arc::new(Mutex::new(RunEffects::default()));
        (
            ToolRunContext {
                execution,
                signal,
                value_depth,
                effects: effects.clone(),
            },
            effects,
        )
    }

    /// Reports the call's progress to its caller (nothing when the caller did not ask for
    /// it).
    pub fn progress(&self, progress: Progress) {
        if let Some(sink) = &self.execution.progress {
            sink.report(progress);
        }
    }

    /// Whether the caller asked for the call's progress.
    pub fn wants_progress(&self) -> bool {
        self.execution.progress.is_some()
    }

    /// A context for calling a tool body directly (tests, or hosts composing tools by hand),
    /// with the default value-depth limit.
    pub fn detached(execution: Arc<ToolExecution>, signal: Signal) -> Self {
        Self::new(execution, signal, DepthLimit::DEFAULT).0
    }

    /// The execution this body runs for.
    pub fn execution(&self) -> &Arc<ToolExecution> {
        &self.execution
    }

    /// The signal the body must observe: when it fires, stop and return promptly.
    pub fn signal(&self) -> &Signal {
        &self.signal
    }

    /// How deep the values of this call may nest: the limit of the registry running it
    /// ([`RegistryConfig::value_depth`](crate::registry::RegistryConfig::value_depth)),
    /// for a body that reads or validates values itself.
    pub fn value_depth(&self) -> DepthLimit {
        self.value_depth
    }

    /// Attaches `context` to this execution's own result; the agent loop appends it after
    /// the result. Contexts keep their source and are emitted in call order.
    pub fn defer_context(&self, context: UserMessage) {
        self.effects.lock().deferred.push(context);
    }

    /// Marks a successful result of this execution as ending the agent's turn.
    pub fn conclude_turn(&self) {
        self.effects.lock().concludes_turn = true;
    }
}
