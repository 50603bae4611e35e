//! The tool registry: where tools live, who sees which, and the one guarded pipeline every
//! call goes through — a model's direct call or a program's nested call alike.
//!
//! - Scopes ([`Scope`]): the global layer, and agent scopes that may have a parent scope.
//!   Everything is registered and queried through a scope. A scope sees what it inherits
//!   (the global layer and its ancestors' registrations, nearer shadowing farther) filtered
//!   by the restrictions of every scope it is inherited through, plus its own
//!   registrations, which shadow inherited ones and are never filtered.
//! - The pipeline ([`Registry::execute`], or its stages [`Registry::prepare`] →
//!   [`Prepared::dispatch`] → [`Dispatched::commit`]): materialize and freeze the call,
//!   assign its token, resolve visibility, `tools/pre-execute` (allow / deny / ask), guards,
//!   `tools/execute` (around-dispatch wrappers, the timeout policy innermost), the body in
//!   its own error boundary, output validation and rendering, `tools/post-execute`,
//!   `finalize_content` exactly once, then the frozen result goes to observers and the
//!   journal.
//! - Waterfalls share one chain type ([`Next`]). Layers above attach values to scopes
//!   ([`Scope::extend`], [`Scope::declare`]) and reserve or provide tools through a
//!   [`ToolProvider`].
//! - Scheduling ([`scheduler`]): the ordered lane that runs one turn's calls (and a
//!   program's sub-calls) with bounded overlap and exclusive barriers.
//!
//! The registry owns resolution and execution; it must not know how tools are presented to
//! a model (Code Mode, a layer above, does that through the hooks here) or where they come
//! from.

mod chain;
mod listeners;
mod pipeline;
mod policy;
mod provider;
pub mod scheduler;
mod scope;
mod state;
mod timeout;

pub(crate) use chain::panic_message;
pub use chain::{End, Link, Next};
pub use listeners::{DispatchExecution, DispatchNext, PostNext, PreNext};
pub use pipeline::{Dispatched, Prepared, execution_span};
pub use policy::Policy;
pub use provider::{ReservedName, ToolProvider};
pub use scope::{AgentScope, Scope};
pub use timeout::timeout_error;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures::future::BoxFuture;
use parking_lot::RwLock;

use crate::journal::{JournalEvent, JournalSink};
use crate::json::DepthLimit;
use crate::tool::{
    ApprovalAnswer, ScopeId, ToolExecution, ToolExecutionInput, ToolExecutionResult,
};

use listeners::{CallListeners, Listeners, Reach};
use state::{HandleId, State};

/// Whether a pending call may overlap with its siblings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecutionMode {
    /// May overlap with other parallel calls.
    Parallel,
    /// Runs alone and is an ordering barrier.
    Exclusive,
}

impl ExecutionMode {
    /// The mode's spelling (`parallel`, `exclusive`).
    pub fn as_str(self) -> &'static str {
        match self {
            ExecutionMode::Parallel => "parallel",
            ExecutionMode::Exclusive => "exclusive",
        }
    }
}

/// Registry configuration.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RegistryConfig {
    /// Install the timeout policy (enforces each tool's `timeout_ms`). Default on.
    pub enforce_timeouts: bool,
    /// How long a cancelled body, listener or approval may take to stop before the
    /// registry abandons it (drops its future). Default 2 s.
    pub cancel_grace: Duration,
    /// How deep the values crossing this registry may nest: arguments, tool values and
    /// listener results are checked against it (and output schemas validated within it),
    /// each tool body reads it from its context
    /// ([`ToolRunContext::value_depth`](crate::tool::ToolRunContext::value_depth)), and
    /// Code Mode renders the SDK's schemas to it. Default [`DepthLimit::DEFAULT`]; a host
    /// sets [`DepthLimit::for_programs`] of its engines' `max_json_depth`.
    pub value_depth: DepthLimit,
    /// Whether the tracing spans of executions record what they carry: a tool call's
    /// arguments (`gen_ai.tool.call.arguments`) and result (`gen_ai.tool.call.result`), and
    /// a Code Mode program's text (`codemode.run.code`). Default off: these hold users'
    /// data, and spans leave the process (`docs/observability.md`).
    pub trace_content: bool,
}

impl Default for RegistryConfig {
    fn default() -> Self {
        RegistryConfig {
            enforce_timeouts: true,
            cancel_grace: Duration::from_secs(2),
            value_depth: DepthLimit::DEFAULT,
            trace_content: false,
        }
    }
}

impl RegistryConfig {
    /// The same configuration with the timeout policy on or off.
    pub fn with_enforce_timeouts(mut self, enforce: bool) -> Self {
        self.enforce_timeouts = enforce;
        self
    }

    /// The same configuration with another cancel grace.
    pub fn with_cancel_grace(mut self, grace: Duration) -> Self {
        self.cancel_grace = grace;
        self
    }

    /// The same configuration with another value-depth limit.
    ///
    /// ```
    /// use codemode::json::DepthLimit;
    /// use codemode::registry::{Registry, RegistryConfig};
    /// let limit = DepthLimit::for_programs(300)?;
    /// let registry = Registry::with_config(RegistryConfig::default().with_value_depth(limit));
    /// assert_eq!(registry.config().value_depth.get(), 308);
    /// # Ok::<(), codemode::Error>(())
    /// ```
    pub fn with_value_depth(mut self, limit: DepthLimit) -> Self {
        self.value_depth = limit;
        self
    }

    /// The same configuration with spans recording arguments, results and programs' text
    /// (see [`RegistryConfig::trace_content`]), or not.
    pub fn with_trace_content(mut self, record: bool) -> Self {
        self.trace_content = record;
        self
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

    /// Why nobody could be asked about `execution` when this service answered
    /// [`ApprovalAnswer::Unavailable`], and what to do instead: the denial says "the call
    /// to `NAME` needs approval (REASON), but WHAT THIS RETURNS". The default, `None`, says
    /// "the approver is unavailable". A host that never has anyone to ask (`codemode run`)
    /// answers every request `Unavailable` and says here how to allow the tool.
    fn unavailable(&self, execution: &ToolExecution) -> Option<String> {
        let _ = execution;
        None
    }
}

type ChangeFn = dyn Fn() + Send + Sync;
type Providers = Arc<[Installed]>;

/// An installed provider and the names it reserves.
#[derive(Clone)]
struct Installed {
    handle: HandleId,
    provider: Arc<dyn ToolProvider>,
    reserved: std::collections::BTreeMap<String, String>,
}

struct Inner {
    config: RegistryConfig,
    state: RwLock<State>,
    listeners: RwLock<Arc<Listeners>>,
    change: RwLock<Vec<(HandleId, Arc<ChangeFn>)>>,
    providers: RwLock<Providers>,
    approval: RwLock<Option<Arc<dyn ApprovalService>>>,
    sink: RwLock<Option<Arc<dyn JournalSink>>>,
    next_id: AtomicU64,
}

/// The tool registry and execution pipeline. Cheap to clone (shared state); `Send + Sync`.
///
/// # Examples
///
/// Register a tool in the global layer and call it through the pipeline; a failed call
/// (here, an unknown tool) is an error *result*, not an `Err`:
///
/// ```
/// use codemode::registry::Registry;
/// use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolOutput};
/// use serde_json::json;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let registry = Registry::new();
/// registry.global().register(
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
///
/// An agent scope inherits the global layer, filtered by its restrictions:
///
/// ```
/// use codemode::registry::Registry;
/// use codemode::tool::{ToolDefinition, ToolOutput};
/// use serde_json::json;
///
/// let registry = Registry::new();
/// let global = registry.global();
/// for name in ["read", "write"] {
///     global
///         .register(
///             ToolDefinition::builder(name)
///                 .output(ToolOutput::any())
///                 .execute(|_, _| async { Ok(json!(null)) })
///                 .build()?,
///         )?
///         .keep();
/// }
/// let agent = global.create_scope("reader")?;
/// agent.restrict(None, Some(&["write"][..]))?.keep();
/// let names: Vec<String> = agent.visible().iter().map(|t| t.name().to_owned()).collect();
/// assert_eq!(names, ["read"]);
/// # Ok::<(), codemode::Error>(())
/// ```
#[derive(Clone)]
pub struct Registry {
    inner: Arc<Inner>,
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

/// A handle that does not keep its registry alive (for tools the registry itself holds,
/// which would otherwise form a reference cycle).
#[derive(Clone)]
pub struct WeakRegistry(std::sync::Weak<Inner>);

impl std::fmt::Debug for WeakRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WeakRegistry").finish_non_exhaustive()
    }
}

impl WeakRegistry {
    /// The registry, if it still exists.
    pub fn upgrade(&self) -> Option<Registry> {
        self.0.upgrade().map(|inner| Registry { inner })
    }
}

/// Disposes exactly one registration, restriction, listener, extension or provider.
/// Disposing twice (or after the registry is gone) does nothing.
#[derive(Debug, Clone)]
#[must_use = "keep the handle to undo the registration later, or call `.keep()` to drop it knowingly"]
pub struct Disposer {
    registry: WeakRegistry,
    handle: HandleId,
}

impl Disposer {
    /// Undoes the registration. Returns whether anything was removed.
    pub fn dispose(&self) -> bool {
        match self.registry.upgrade() {
            Some(registry) => registry.remove_handle(self.handle),
            None => false,
        }
    }

    /// Drops the handle without disposing (the registration stays for the registry's life).
    pub fn keep(self) {}
}

impl Registry {
    /// A registry with the default configuration.
    pub fn new() -> Self {
        Self::with_config(RegistryConfig::default())
    }

    /// A registry with `config`.
    pub fn with_config(config: RegistryConfig) -> Self {
        Registry {
            inner: Arc::new(Inner {
                config,
                state: RwLock::new(State::default()),
                listeners: RwLock::new(Arc::new(Listeners::default())),
                change: RwLock::new(Vec::new()),
                providers: RwLock::new(Arc::from(Vec::new())),
                approval: RwLock::new(None),
                sink: RwLock::new(None),
                next_id: AtomicU64::new(1),
            }),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &RegistryConfig {
        &self.inner.config
    }

    /// A handle that does not keep the registry alive.
    pub fn downgrade(&self) -> WeakRegistry {
        WeakRegistry(Arc::downgrade(&self.inner))
    }

    /// The global layer: every scope inherits what is registered here, and its listeners
    /// apply to every call.
    pub fn global(&self) -> Scope {
        Scope::new(self.clone(), None)
    }

    /// A handle to an existing agent scope.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidDefinition`](crate::ErrorCode::InvalidDefinition) when no scope
    /// `id` exists: it was never created in this registry, or it (or a scope above it) has
    /// been closed ([`Scope::close`]).
    pub fn scope(&self, id: ScopeId) -> Result<Scope, crate::Error> {
        self.inner.state.read().scope(id)?;
        Ok(Scope::new(self.clone(), Some(id)))
    }

    /// The scope a call runs for (`agent`, or the global layer when `None`), for queries of
    /// what the call sees. Unlike [`Registry::scope`] it does not check the scope exists: a
    /// closed scope's handle sees nothing (its registrations are gone), and what is attached
    /// through it is never removed, so attach through handles from
    /// [`Scope::create_scope`] or [`Registry::scope`].
    pub fn scope_of(&self, agent: Option<ScopeId>) -> Scope {
        Scope::new(self.clone(), agent)
    }

    fn next_id(&self) -> u64 {
        self.inner.next_id.fetch_add(1, Ordering::Relaxed)
    }

    fn disposer(&self, handle: HandleId) -> Disposer {
        Disposer {
            registry: self.downgrade(),
            handle,
        }
    }

    /// Installs the approval service that answers `ask` decisions (`None` removes it: asks
    /// are then denied).
    pub fn set_approval_service(&self, service: Option<Arc<dyn ApprovalService>>) {
        *self.inner.approval.write() = service;
    }

    /// Installs the durable journal sink.
    pub fn set_journal(&self, sink: Option<Arc<dyn JournalSink>>) {
        *self.inner.sink.write() = sink;
    }

    /// Whether a journal sink is installed (a layer that would build events for nothing
    /// otherwise asks first).
    pub fn has_journal(&self) -> bool {
        self.inner.sink.read().is_some()
    }

    /// Records `event` in the journal, awaiting the sink (a slow sink applies
    /// backpressure instead of losing events). The registry records top-level calls
    /// itself; a layer above records its own events here, so the log stays one ordered
    /// stream.
    pub async fn emit(&self, event: JournalEvent) {
        let sink = self.inner.sink.read().clone();
        if let Some(sink) = sink {
            let append =
                futures::FutureExt::catch_unwind(std::panic::AssertUnwindSafe(sink.append(event)));
            if let Err(panic) = append.await {
                tracing::warn!(panic = %panic_message(&panic), "the journal sink panicked; the event was lost");
            }
        }
    }

    /// Installs a [`ToolProvider`]: the names it reserves can no longer be registered or
    /// restricted, and the tools it provides join what scopes see. A name it reserves that
    /// is already registered (in any layer) or reserved is refused.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidDefinition`](crate::ErrorCode::InvalidDefinition), and nothing is
    /// installed, when a name the provider reserves
    ///
    /// - is already reserved by another installed provider (one provider per name), or
    /// - is already registered in the global layer or any agent scope (dispose that
    ///   registration first).
    pub fn add_provider(&self, provider: Arc<dyn ToolProvider>) -> Result<Disposer, crate::Error> {
        let reserved: std::collections::BTreeMap<String, String> = provider
            .reserved()
            .into_iter()
            .map(|r| (r.name, r.what))
            .collect();
        let handle = self.next_id();
        {
            // The state lock first, as `register` takes it: a name cannot slip in between.
            let state = self.inner.state.read();
            let mut providers = self.inner.providers.write();
            for name in reserved.keys() {
                if let Some(taken) = providers.iter().find(|p| p.reserved.contains_key(name)) {
                    return Err(crate::Error::new(
                        crate::ErrorCode::InvalidDefinition,
                        format!(
                            "`{name}` is already {}; one provider per name",
                            taken.reserved[name]
                        ),
                    ));
                }
                if let Some(place) = state.registered_at(name) {
                    return Err(crate::Error::new(
                        crate::ErrorCode::InvalidDefinition,
                        format!(
                            "`{name}` is registered in {place}, so it cannot be reserved; dispose that registration first"
                        ),
                    ));
                }
            }
            let mut next: Vec<_> = providers.iter().cloned().collect();
            next.push(Installed {
                handle,
                provider,
                reserved,
            });
            *providers = next.into();
        }
        self.notify_change();
        Ok(self.disposer(handle))
    }

    fn providers(&self) -> Providers {
        self.inner.providers.read().clone()
    }

    /// What `name` is when an installed provider reserves it (for example "Code Mode's
    /// reserved transport"); `None` for a name anyone may register.
    pub fn reserved(&self, name: &str) -> Option<String> {
        self.providers()
            .iter()
            .find_map(|installed| installed.reserved.get(name).cloned())
    }

    /// Subscribes to `tools/change`: fires on every change of any scope's tool set
    /// (registrations, restrictions, declarations, providers), unfiltered.
    pub fn on_change(&self, listener: impl Fn() + Send + Sync + 'static) -> Disposer {
        let handle = self.next_id();
        self.inner.change.write().push((handle, Arc::new(listener)));
        self.disposer(handle)
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
            }
            changed
        };
        if changed {
            self.notify_change();
            return true;
        }
        let removed = {
            let mut guard = self.inner.listeners.write();
            let mut next = (**guard).clone();
            let removed = next.remove(handle);
            if removed.is_some() {
                *guard = Arc::new(next);
            }
            removed
        };
        if let Some(changes_tools) = removed {
            if changes_tools {
                self.notify_change();
            }
            return true;
        }
        let provider_removed = {
            let mut providers = self.inner.providers.write();
            let next: Vec<_> = providers
                .iter()
                .filter(|installed| installed.handle != handle)
                .cloned()
                .collect();
            let removed = next.len() != providers.len();
            *providers = next.into();
            removed
        };
        if provider_removed {
            self.notify_change();
            return true;
        }
        let mut change = self.inner.change.write();
        let before = change.len();
        change.retain(|(h, _)| *h != handle);
        change.len() != before
    }

    /// Fires `tools/change`: for a [`ToolProvider`] whose provided tools changed (the
    /// registry notices its own changes).
    pub fn notify_tools_changed(&self) {
        self.notify_change();
    }

    fn notify_change(&self) {
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
                tracing::warn!(panic = %panic_message(&panic), "a tools/change listener panicked");
            }
        }
    }

    /// How a pending call may be scheduled: parallel only when the visible definition's
    /// classifier returns exactly `true`; unknown, hidden, unclassified or panicking
    /// classifiers are exclusive.
    pub fn execution_mode(&self, input: &ToolExecutionInput) -> ExecutionMode {
        let Some(def) = self.scope_of(input.agent).get(&input.name) else {
            return ExecutionMode::Exclusive;
        };
        let Some(classify) = def.classifier().cloned() else {
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
    ///
    /// Each execution is a tracing span, `execute_tool` ([`execution_span`]), a child of
    /// the current span.
    pub async fn execute(&self, input: ToolExecutionInput) -> Arc<ToolExecutionResult> {
        self.prepare(input).await.dispatch().await.commit().await
    }

    fn call_listeners(&self, agent: Option<ScopeId>) -> CallListeners {
        let all = self.inner.listeners.read().clone();
        let state = self.inner.state.read();
        CallListeners::select(&all, |reach| match reach.0 {
            None => true,
            Some(scope) => state.is_within(agent, scope),
        })
    }
}
