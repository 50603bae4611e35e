//! The tool registry: where tools live, who sees which, and the one guarded pipeline every
//! call goes through — a model's native call or a `run_code` program's nested call alike.
//!
//! - Layers and scopes: a global layer, and agent scopes that may have a parent scope. A
//!   scope sees what it inherits (the global layer and its ancestors' registrations, nearer
//!   shadowing farther) filtered by the restrictions of every scope it is inherited through,
//!   plus its own registrations, which shadow inherited ones and are never filtered.
//! - The pipeline ([`Registry::execute`]): materialize and freeze the call, assign its token,
//!   resolve visibility, `tools/pre-execute` (allow / deny / ask), guards, `tools/execute`
//!   (around-dispatch wrappers, the timeout policy innermost), the body in its own error
//!   boundary, output validation and rendering, `tools/post-execute`, `finalize_content`
//!   exactly once, then the frozen result goes to observers and the session sink.
//! - Scheduling ([`scheduler`]): the ordered lane that runs one turn's native calls (and
//!   each `run_code` program's sub-calls) with bounded overlap and exclusive barriers.
//!
//! The registry owns resolution and execution; it must not know how tools are presented to
//! a model (that is [`crate::codemode`]'s job) or where they come from.

mod events;
mod listeners;
mod pipeline;
pub mod scheduler;
mod state;
mod timeout;

pub use events::{MemorySink, SessionEvent, SessionSink};
pub use listeners::{
    CodeDispatchLog, CodeLogNext, DispatchExecution, DispatchNext, PostNext, PreNext,
};
pub use timeout::timeout_error;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures::future::BoxFuture;
use parking_lot::RwLock;

use crate::error::{Error, ErrorCode};
use crate::tool::{
    ApprovalAnswer, PostToolDecision, PreToolDecision, RUN_CODE, ScopeId, ToolDefinition,
    ToolExecution, ToolExecutionInput, ToolExecutionResult, ToolSchema,
};

use listeners::{CallListeners, Listeners, Reach};
use state::{HandleId, ScopeState, State};

/// How a scope's tools are presented to its model.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum PresentationMode {
    /// Each visible tool is a function-calling schema.
    #[default]
    Native,
    /// The model sees only `run_code` and the SDK of the visible tools.
    Code,
    /// Both the native schemas and `run_code` with the SDK.
    Both,
}

impl PresentationMode {
    /// The mode's spelling (`native`, `code`, `both`).
    pub fn as_str(self) -> &'static str {
        match self {
            PresentationMode::Native => "native",
            PresentationMode::Code => "code",
            PresentationMode::Both => "both",
        }
    }
}

impl std::str::FromStr for PresentationMode {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self, Error> {
        match text {
            "native" => Ok(PresentationMode::Native),
            "code" => Ok(PresentationMode::Code),
            "both" => Ok(PresentationMode::Both),
            other => Err(Error::new(
                ErrorCode::InvalidConfig,
                format!("mode must be `native`, `code` or `both`, got `{other}`"),
            )),
        }
    }
}

/// Whether a pending call may overlap with its siblings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecutionMode {
    /// May overlap with other parallel calls.
    Parallel,
    /// Runs alone and is an ordering barrier.
    Exclusive,
}

/// Registry configuration.
#[derive(Debug, Clone)]
pub struct RegistryConfig {
    /// The deployment's default presentation (`native`).
    pub mode: PresentationMode,
    /// How many sub-calls of one `run_code` program may overlap (default 10; 1 = serial).
    pub max_parallel_sub_calls: usize,
    /// Install the timeout policy (enforces each tool's `timeout_ms`). Default on.
    pub enforce_timeouts: bool,
    /// How long a cancelled body, listener or approval may take to stop before the
    /// registry abandons it (drops its future). Default 2 s.
    pub cancel_grace: Duration,
}

impl Default for RegistryConfig {
    fn default() -> Self {
        RegistryConfig {
            mode: PresentationMode::Native,
            max_parallel_sub_calls: 10,
            enforce_timeouts: true,
            cancel_grace: Duration::from_secs(2),
        }
    }
}

impl RegistryConfig {
    /// Checks the values: `max_parallel_sub_calls` is a positive integer (at most 1024).
    pub fn validate(&self) -> Result<(), Error> {
        if !(1..=1024).contains(&self.max_parallel_sub_calls) {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "max_parallel_sub_calls must be a positive integer no larger than 1024, got {}",
                    self.max_parallel_sub_calls
                ),
            ));
        }
        Ok(())
    }
}

/// The service that answers `ask` decisions.
pub trait ApprovalService: Send + Sync + 'static {
    /// Asks whether `execution` may run; `reason` is the policy's explanation.
    fn request(
        &self,
        execution: Arc<ToolExecution>,
        reason: Option<String>,
    ) -> BoxFuture<'static, ApprovalAnswer>;
}

/// The Code Mode transport, as the registry sees it: the `run_code` definition a scope
/// resolves in non-native modes. Installed by [`crate::codemode`].
pub(crate) trait Transport: Send + Sync + 'static {
    fn definition(
        &self,
        registry: &Registry,
        scope: Option<ScopeId>,
    ) -> Option<Arc<ToolDefinition>>;
    fn language(&self) -> crate::runtime::Language;
}

type ChangeFn = dyn Fn() + Send + Sync;

pub(crate) struct Inner {
    pub config: RegistryConfig,
    pub state: RwLock<State>,
    pub listeners: RwLock<Arc<Listeners>>,
    pub change: RwLock<Vec<(HandleId, Arc<ChangeFn>)>>,
    pub approval: RwLock<Option<Arc<dyn ApprovalService>>>,
    pub sink: RwLock<Option<Arc<dyn SessionSink>>>,
    pub transport: RwLock<Option<Arc<dyn Transport>>>,
    next_id: AtomicU64,
}

/// The tool registry and execution pipeline. Cheap to clone (shared state); `Send + Sync`.
///
/// ```
/// use codemode::registry::Registry;
/// use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolOutput};
/// use serde_json::json;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let registry = Registry::new();
/// registry.register(
///     ToolDefinition::builder("echo")
///         .output(ToolOutput::any())
///         .execute(|args, _| async move { Ok(args["text"].clone()) })
///         .build()?,
/// )?;
/// let result = registry.execute(ToolExecutionInput::new("c1", "echo", json!({"text": "hi"}))).await;
/// assert_eq!(result.value(), Some(&json!("hi")));
/// let missing = registry.execute(ToolExecutionInput::new("c2", "nope", json!({}))).await;
/// assert_eq!(missing.model_text(), "Error: unknown tool `nope`");
/// # Ok::<(), codemode::Error>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct Registry {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

impl Default for Registry {
    fn default() -> Self {
        Registry::new()
    }
}

/// Disposes exactly one registration, restriction, listener or declaration. Disposing
/// twice (or after the registry is gone) does nothing.
#[derive(Debug, Clone)]
#[must_use = "keep the handle to undo the registration later, or call `.keep()` to drop it knowingly"]
pub struct Disposer {
    registry: std::sync::Weak<Inner>,
    handle: HandleId,
}

impl Disposer {
    /// Undoes the registration. Returns whether anything was removed.
    pub fn dispose(&self) -> bool {
        let Some(inner) = self.registry.upgrade() else {
            return false;
        };
        let registry = Registry { inner };
        registry.remove_handle(self.handle)
    }

    /// Drops the handle without disposing (the registration stays for the registry's life).
    pub fn keep(self) {}
}

impl Registry {
    /// A registry with the default configuration.
    pub fn new() -> Self {
        Self::with_config(RegistryConfig::default())
            .unwrap_or_else(|_| unreachable!("the default configuration is valid"))
    }

    /// A registry with `config` (validated).
    pub fn with_config(config: RegistryConfig) -> Result<Self, Error> {
        config.validate()?;
        Ok(Registry {
            inner: Arc::new(Inner {
                config,
                state: RwLock::new(State::default()),
                listeners: RwLock::new(Arc::new(Listeners::default())),
                change: RwLock::new(Vec::new()),
                approval: RwLock::new(None),
                sink: RwLock::new(None),
                transport: RwLock::new(None),
                next_id: AtomicU64::new(1),
            }),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &RegistryConfig {
        &self.inner.config
    }

    fn next_id(&self) -> u64 {
        self.inner.next_id.fetch_add(1, Ordering::Relaxed)
    }

    fn disposer(&self, handle: HandleId) -> Disposer {
        Disposer {
            registry: Arc::downgrade(&self.inner),
            handle,
        }
    }

    /// Installs the approval service that answers `ask` decisions (`None` removes it: asks
    /// are then denied).
    pub fn set_approval_service(&self, service: Option<Arc<dyn ApprovalService>>) {
        *self.inner.approval.write() = service;
    }

    /// Installs the durable session sink.
    pub fn set_session_sink(&self, sink: Option<Arc<dyn SessionSink>>) {
        *self.inner.sink.write() = sink;
    }

    pub(crate) fn set_transport(&self, transport: Option<Arc<dyn Transport>>) {
        *self.inner.transport.write() = transport;
        self.notify_change();
    }

    /// Creates an agent scope under `parent` (or directly under the global layer).
    pub fn create_scope(
        &self,
        label: impl Into<String>,
        parent: Option<ScopeId>,
    ) -> Result<ScopeHandle, Error> {
        let id = ScopeId(self.next_id());
        {
            let mut state = self.inner.state.write();
            if let Some(parent) = parent {
                state.scope(parent)?;
            }
            state.scopes.insert(
                id,
                ScopeState {
                    parent,
                    label: label.into(),
                    layer: Default::default(),
                    restrictions: Vec::new(),
                    mode: None,
                },
            );
        }
        Ok(ScopeHandle {
            registry: self.clone(),
            id,
        })
    }

    /// A handle to an existing scope.
    pub fn scope(&self, id: ScopeId) -> Result<ScopeHandle, Error> {
        self.inner.state.read().scope(id)?;
        Ok(ScopeHandle {
            registry: self.clone(),
            id,
        })
    }

    /// Registers `definition` in the global layer.
    pub fn register(&self, definition: ToolDefinition) -> Result<Disposer, Error> {
        self.register_at(None, definition)
    }

    fn register_at(
        &self,
        scope: Option<ScopeId>,
        definition: ToolDefinition,
    ) -> Result<Disposer, Error> {
        let handle = self.next_id();
        self.inner
            .state
            .write()
            .register(scope, handle, Arc::new(definition))?;
        self.notify_change();
        Ok(self.disposer(handle))
    }

    /// Registers a global guard: evaluated after every `tools/pre-execute` listener and
    /// before the body; a returned reason denies the call, and nothing can turn a guard's
    /// denial back into permission.
    pub fn guard(
        &self,
        guard: impl Fn(&ToolExecution) -> Option<String> + Send + Sync + 'static,
    ) -> Disposer {
        self.add_listener(None, |list, h, reach| {
            list.guards.push((h, reach, Arc::new(guard)))
        })
    }

    /// Adds a global `tools/pre-execute` listener.
    pub fn on_pre_execute<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<ToolExecution>, PreNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<PreToolDecision, Error>> + Send + 'static,
    {
        self.add_pre(None, listener)
    }

    /// Adds a global `tools/execute` (around-dispatch) wrapper; the first registered is
    /// the outermost.
    pub fn on_execute<F, Fut>(&self, wrapper: F) -> Disposer
    where
        F: Fn(DispatchExecution, DispatchNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolExecutionResult, Error>> + Send + 'static,
    {
        self.add_around(None, wrapper)
    }

    /// Adds a global `tools/post-execute` listener.
    pub fn on_post_execute<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<ToolExecution>, Arc<ToolExecutionResult>, PostNext) -> Fut
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<PostToolDecision, Error>> + Send + 'static,
    {
        self.add_post(None, listener)
    }

    /// Adds a global `tools/result` observer of frozen final results. A panicking observer
    /// is contained.
    pub fn on_result(
        &self,
        observer: impl Fn(&Arc<ToolExecution>, &Arc<ToolExecutionResult>) + Send + Sync + 'static,
    ) -> Disposer {
        self.add_listener(None, |list, h, reach| {
            list.results.push((h, reach, Arc::new(observer)))
        })
    }

    /// Adds a global `tools/code-dispatch-log` listener: it may replace the content of the
    /// durable log copy of each `run_code` sub-call. A failing listener is contained (the
    /// original content is logged).
    pub fn on_code_dispatch_log<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<CodeDispatchLog>, CodeLogNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<crate::content::ContentBlock>, Error>> + Send + 'static,
    {
        self.add_code_log(None, listener)
    }

    fn add_code_log<F, Fut>(&self, scope: Option<ScopeId>, listener: F) -> Disposer
    where
        F: Fn(Arc<CodeDispatchLog>, CodeLogNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<crate::content::ContentBlock>, Error>> + Send + 'static,
    {
        let boxed: Arc<listeners::CodeLogFn> =
            Arc::new(move |log, next| Box::pin(listener(log, next)));
        self.add_listener(scope, |list, h, reach| {
            list.code_log.push((h, reach, boxed))
        })
    }

    /// Runs the `tools/code-dispatch-log` waterfall for one settled sub-call and returns
    /// the content to log; a failing listener logs the original content.
    pub(crate) async fn code_dispatch_log(
        &self,
        log: CodeDispatchLog,
    ) -> Vec<crate::content::ContentBlock> {
        let listeners = self.call_listeners(log.agent).code_log;
        if listeners.is_empty() {
            return log.content;
        }
        let log = Arc::new(log);
        let chain = CodeLogNext {
            chain: listeners,
            index: 0,
            log: log.clone(),
        };
        match chain.run().await {
            Ok(content) if content.iter().all(|b| b.validate().is_ok()) => content,
            Ok(_) => {
                tracing::warn!(sub_call = %log.sub_call_id, "a tools/code-dispatch-log listener returned invalid content; logging the original");
                log.content.clone()
            }
            Err(err) => {
                tracing::warn!(sub_call = %log.sub_call_id, error = %err, "a tools/code-dispatch-log listener failed; logging the original");
                log.content.clone()
            }
        }
    }

    /// Subscribes to `tools/change`: fires on every change of any scope's tool set
    /// (registrations, restrictions, modes), unfiltered.
    pub fn on_change(&self, listener: impl Fn() + Send + Sync + 'static) -> Disposer {
        let handle = self.next_id();
        self.inner.change.write().push((handle, Arc::new(listener)));
        self.disposer(handle)
    }

    fn add_pre<F, Fut>(&self, scope: Option<ScopeId>, listener: F) -> Disposer
    where
        F: Fn(Arc<ToolExecution>, PreNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<PreToolDecision, Error>> + Send + 'static,
    {
        let boxed: Arc<listeners::PreFn> =
            Arc::new(move |exec, next| Box::pin(listener(exec, next)));
        self.add_listener(scope, |list, h, reach| list.pre.push((h, reach, boxed)))
    }

    fn add_around<F, Fut>(&self, scope: Option<ScopeId>, wrapper: F) -> Disposer
    where
        F: Fn(DispatchExecution, DispatchNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolExecutionResult, Error>> + Send + 'static,
    {
        let boxed: Arc<listeners::AroundFn> =
            Arc::new(move |exec, next| Box::pin(wrapper(exec, next)));
        self.add_listener(scope, |list, h, reach| list.around.push((h, reach, boxed)))
    }

    fn add_post<F, Fut>(&self, scope: Option<ScopeId>, listener: F) -> Disposer
    where
        F: Fn(Arc<ToolExecution>, Arc<ToolExecutionResult>, PostNext) -> Fut
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<PostToolDecision, Error>> + Send + 'static,
    {
        let boxed: Arc<listeners::PostFn> =
            Arc::new(move |exec, result, next| Box::pin(listener(exec, result, next)));
        self.add_listener(scope, |list, h, reach| list.post.push((h, reach, boxed)))
    }

    fn add_listener(
        &self,
        scope: Option<ScopeId>,
        add: impl FnOnce(&mut Listeners, HandleId, Reach),
    ) -> Disposer {
        let handle = self.next_id();
        let mut guard = self.inner.listeners.write();
        let mut next = (**guard).clone();
        add(&mut next, handle, Reach(scope));
        *guard = Arc::new(next);
        self.disposer(handle)
    }

    fn remove_handle(&self, handle: HandleId) -> bool {
        let changed = {
            let mut state = self.inner.state.write();
            let mut changed = state.unregister(handle);
            for scope in state.scopes.values_mut() {
                let before = scope.restrictions.len();
                scope.restrictions.retain(|(h, _)| *h != handle);
                changed |= scope.restrictions.len() != before;
                if scope.mode.is_some_and(|(h, _)| h == handle) {
                    scope.mode = None;
                    changed = true;
                }
            }
            changed
        };
        if changed {
            self.notify_change();
            return true;
        }
        {
            let mut guard = self.inner.listeners.write();
            let mut next = (**guard).clone();
            if next.remove(handle) {
                *guard = Arc::new(next);
                return true;
            }
        }
        let mut change = self.inner.change.write();
        let before = change.len();
        change.retain(|(h, _)| *h != handle);
        change.len() != before
    }

    pub(crate) fn notify_change(&self) {
        let listeners: Vec<Arc<ChangeFn>> = self
            .inner
            .change
            .read()
            .iter()
            .map(|(_, f)| f.clone())
            .collect();
        for listener in listeners {
            if let Err(panic) =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| listener()))
            {
                tracing::warn!(panic = %listeners::panic_message(&panic), "a tools/change listener panicked");
            }
        }
    }

    /// The mode `scope` presents in: the nearest `present_as` declaration on its chain,
    /// else the configured default.
    pub fn mode(&self, scope: Option<ScopeId>) -> PresentationMode {
        self.inner
            .state
            .read()
            .declared_mode(scope)
            .unwrap_or(self.inner.config.mode)
    }

    /// The definition `scope` resolves `name` to (shadowing applied, restricted-away
    /// tools absent; in a non-native mode `run_code` resolves to the transport).
    pub fn get(&self, name: &str, scope: Option<ScopeId>) -> Option<Arc<ToolDefinition>> {
        if name == RUN_CODE {
            return self.transport(scope);
        }
        self.inner.state.read().resolve(scope, name)
    }

    pub(crate) fn transport_handle(&self) -> Option<Arc<dyn Transport>> {
        self.inner.transport.read().clone()
    }

    fn transport(&self, scope: Option<ScopeId>) -> Option<Arc<ToolDefinition>> {
        if self.mode(scope) == PresentationMode::Native {
            return None;
        }
        let transport = self.inner.transport.read().clone()?;
        transport.definition(self, scope)
    }

    /// The end capabilities `scope` can see (not the transport), sorted by name.
    pub fn visible_tools(&self, scope: Option<ScopeId>) -> Vec<Arc<ToolDefinition>> {
        let state = self.inner.state.read();
        state
            .visible_names(scope)
            .iter()
            .filter_map(|name| state.resolve(scope, name))
            .collect()
    }

    /// The canonical executable view: the visible end capabilities, plus the `run_code`
    /// transport in non-native modes, sorted by name.
    pub fn visible(&self, scope: Option<ScopeId>) -> Vec<Arc<ToolDefinition>> {
        let mut tools = self.visible_tools(scope);
        if let Some(run_code) = self.transport(scope) {
            let at = tools.partition_point(|t| t.name() < RUN_CODE);
            tools.insert(at, run_code);
        }
        tools
    }

    /// The pre-restriction universe of names `scope` could see (what `restrict` validates
    /// against), sorted.
    pub fn known_names(&self, scope: Option<ScopeId>) -> Vec<String> {
        self.inner
            .state
            .read()
            .known_names(scope)
            .into_iter()
            .collect()
    }

    /// The model-facing schemas of everything `scope` can see: copies of name,
    /// description and parameters only.
    pub fn schemas(&self, scope: Option<ScopeId>) -> Vec<ToolSchema> {
        self.visible(scope)
            .iter()
            .map(|tool| tool.schema().clone())
            .collect()
    }

    /// How a pending call may be scheduled: parallel only when the visible definition's
    /// classifier returns exactly `true`; unknown, hidden, unclassified or panicking
    /// classifiers are exclusive.
    pub fn execution_mode(&self, input: &ToolExecutionInput) -> ExecutionMode {
        let Some(def) = self.get(&input.name, input.agent) else {
            return ExecutionMode::Exclusive;
        };
        let Some(classify) = def.is_concurrency_safe.clone() else {
            return ExecutionMode::Exclusive;
        };
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| classify(&input.arguments)))
        {
            Ok(true) => ExecutionMode::Parallel,
            _ => ExecutionMode::Exclusive,
        }
    }

    /// Runs one call through the whole pipeline and returns its frozen result (the same
    /// snapshot result observers receive). Never fails: every failure is an error result.
    pub async fn execute(&self, input: ToolExecutionInput) -> Arc<ToolExecutionResult> {
        let prepared = self.prepare(input).await;
        let dispatched = self.dispatch(prepared).await;
        self.commit(dispatched).await
    }

    pub(crate) fn call_listeners(&self, agent: Option<ScopeId>) -> CallListeners {
        let all = self.inner.listeners.read().clone();
        let state = self.inner.state.read();
        CallListeners::select(&all, |reach| match reach.0 {
            None => true,
            Some(scope) => state.is_within(agent, scope),
        })
    }
}

/// A handle to one agent scope: registrations, restrictions, guards and listeners made
/// through it apply to this scope (and the scopes under it).
#[derive(Clone, Debug)]
pub struct ScopeHandle {
    registry: Registry,
    id: ScopeId,
}

impl ScopeHandle {
    /// The scope's id (pass it as a call's `agent`).
    pub fn id(&self) -> ScopeId {
        self.id
    }

    /// The registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Registers `definition` in this scope, shadowing an inherited tool of the same name.
    pub fn register(&self, definition: ToolDefinition) -> Result<Disposer, Error> {
        self.registry.register_at(Some(self.id), definition)
    }

    /// Restricts what this scope inherits: `allow` keeps only the listed tools, `deny`
    /// removes them; restrictions intersect; own registrations stay visible. Empty
    /// filters, unknown names, this scope's own names and reserved names are refused.
    pub fn restrict(
        &self,
        allow: Option<&[&str]>,
        deny: Option<&[&str]>,
    ) -> Result<Disposer, Error> {
        let own = |names: Option<&[&str]>| {
            names.map(|n| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
        };
        let (allow, deny) = (own(allow), own(deny));
        let handle = self.registry.next_id();
        {
            let mut state = self.registry.inner.state.write();
            let restriction =
                state.compile_restriction(self.id, allow.as_deref(), deny.as_deref())?;
            let scope = state.scopes.get_mut(&self.id).ok_or_else(|| {
                Error::new(
                    ErrorCode::InvalidDefinition,
                    format!("{} does not exist", self.id),
                )
            })?;
            scope.restrictions.push((handle, restriction));
        }
        self.registry.notify_change();
        Ok(self.registry.disposer(handle))
    }

    /// Declares how this scope (and the scopes under it, unless they declare their own)
    /// presents its tools. One declaration per scope; the handle restores the default.
    pub fn present_as(&self, mode: PresentationMode) -> Result<Disposer, Error> {
        let handle = self.registry.next_id();
        {
            let mut state = self.registry.inner.state.write();
            let scope = state.scopes.get_mut(&self.id).ok_or_else(|| {
                Error::new(
                    ErrorCode::InvalidDefinition,
                    format!("{} does not exist", self.id),
                )
            })?;
            if let Some((_, existing)) = scope.mode {
                return Err(Error::new(
                    ErrorCode::InvalidDefinition,
                    format!(
                        "{} already declared its presentation ({}); dispose that declaration first",
                        self.id,
                        existing.as_str()
                    ),
                ));
            }
            scope.mode = Some((handle, mode));
        }
        self.registry.notify_change();
        Ok(self.registry.disposer(handle))
    }

    /// Registers a guard for calls of this scope (and the scopes under it).
    pub fn guard(
        &self,
        guard: impl Fn(&ToolExecution) -> Option<String> + Send + Sync + 'static,
    ) -> Disposer {
        self.registry.add_listener(Some(self.id), |list, h, reach| {
            list.guards.push((h, reach, Arc::new(guard)))
        })
    }

    /// Adds a `tools/pre-execute` listener for this scope's calls.
    pub fn on_pre_execute<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<ToolExecution>, PreNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<PreToolDecision, Error>> + Send + 'static,
    {
        self.registry.add_pre(Some(self.id), listener)
    }

    /// Adds a `tools/execute` wrapper for this scope's calls.
    pub fn on_execute<F, Fut>(&self, wrapper: F) -> Disposer
    where
        F: Fn(DispatchExecution, DispatchNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolExecutionResult, Error>> + Send + 'static,
    {
        self.registry.add_around(Some(self.id), wrapper)
    }

    /// Adds a `tools/post-execute` listener for this scope's calls.
    pub fn on_post_execute<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<ToolExecution>, Arc<ToolExecutionResult>, PostNext) -> Fut
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<PostToolDecision, Error>> + Send + 'static,
    {
        self.registry.add_post(Some(self.id), listener)
    }

    /// Adds a `tools/code-dispatch-log` listener for this scope's `run_code` sub-calls.
    pub fn on_code_dispatch_log<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<CodeDispatchLog>, CodeLogNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<crate::content::ContentBlock>, Error>> + Send + 'static,
    {
        self.registry.add_code_log(Some(self.id), listener)
    }

    /// Adds a `tools/result` observer for this scope's calls.
    pub fn on_result(
        &self,
        observer: impl Fn(&Arc<ToolExecution>, &Arc<ToolExecutionResult>) + Send + Sync + 'static,
    ) -> Disposer {
        self.registry.add_listener(Some(self.id), |list, h, reach| {
            list.results.push((h, reach, Arc::new(observer)))
        })
    }

    /// The scope's label.
    pub fn label(&self) -> String {
        self.registry
            .inner
            .state
            .read()
            .scopes
            .get(&self.id)
            .map(|s| s.label.clone())
            .unwrap_or_default()
    }

    /// Removes this scope, the scopes under it, and everything registered through them.
    pub fn close(&self) {
        let removed: Vec<ScopeId> = {
            let mut state = self.registry.inner.state.write();
            let doomed: Vec<ScopeId> = state
                .scopes
                .keys()
                .copied()
                .filter(|id| state.is_within(Some(*id), self.id))
                .collect();
            for id in &doomed {
                state.scopes.remove(id);
            }
            doomed
        };
        {
            let mut guard = self.registry.inner.listeners.write();
            let mut next = (**guard).clone();
            let keep = |reach: &Reach| reach.0.is_none_or(|s| !removed.contains(&s));
            next.pre.retain(|(_, r, _)| keep(r));
            next.around.retain(|(_, r, _)| keep(r));
            next.post.retain(|(_, r, _)| keep(r));
            next.guards.retain(|(_, r, _)| keep(r));
            next.results.retain(|(_, r, _)| keep(r));
            next.code_log.retain(|(_, r, _)| keep(r));
            *guard = Arc::new(next);
        }
        self.registry.notify_change();
    }
}
