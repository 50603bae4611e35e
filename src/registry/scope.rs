//! The scope handle: everything is registered and queried through one — the global layer
//! ([`Registry::global`]) or an agent scope ([`Scope::create_scope`]).
//!
//! Registrations, guards and listeners made through an agent scope apply to that scope and
//! the scopes under it; through the global layer, to every call. Queries answer what the
//! scope sees (its resolution, with providers' tools included where they apply).

use std::any::{Any, TypeId};
use std::future::Future;
use std::sync::Arc;

use crate::error::{Error, ErrorCode};
use crate::tool::{
    PostToolDecision, PreToolDecision, ScopeId, ToolDefinition, ToolExecution, ToolExecutionResult,
    ToolSchema,
};

use super::chain::link;
use super::listeners::{DispatchExecution, DispatchNext, Extension, PostNext, PreNext, Reach};
use super::state::ScopeState;
use super::{Disposer, Registry};

/// A handle to the global layer or one agent scope. Cheap to clone.
#[derive(Clone)]
pub struct Scope {
    registry: Registry,
    id: Option<ScopeId>,
}

impl std::fmt::Debug for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.id {
            None => f.write_str("Scope(global)"),
            Some(id) => write!(f, "Scope({id})"),
        }
    }
}

/// A handle to an agent scope, as [`Scope::create_scope`] makes it: a [`Scope`] (it
/// dereferences to one) whose id is known, so [`AgentScope::id`] needs no `Option`.
#[derive(Clone)]
pub struct AgentScope {
    scope: Scope,
    id: ScopeId,
}

impl std::fmt::Debug for AgentScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.scope.fmt(f)
    }
}

impl AgentScope {
    /// The scope's id; pass it as a call's `agent`.
    pub fn id(&self) -> ScopeId {
        self.id
    }

    /// The scope as a plain handle.
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The scope as a plain handle, by value.
    pub fn into_scope(self) -> Scope {
        self.scope
    }
}

impl std::ops::Deref for AgentScope {
    type Target = Scope;

    fn deref(&self) -> &Scope {
        &self.scope
    }
}

impl From<AgentScope> for Scope {
    fn from(agent: AgentScope) -> Scope {
        agent.scope
    }
}

impl Scope {
    pub(super) fn new(registry: Registry, id: Option<ScopeId>) -> Self {
        Scope { registry, id }
    }

    /// The scope's id (`None` for the global layer); pass it as a call's `agent`.
    pub fn id(&self) -> Option<ScopeId> {
        self.id
    }

    /// Whether this is the global layer.
    pub fn is_global(&self) -> bool {
        self.id.is_none()
    }

    /// The registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The scope's label (empty for the global layer and for a closed scope).
    pub fn label(&self) -> String {
        let Some(id) = self.id else {
            return String::new();
        };
        self.registry
            .inner
            .state
            .read()
            .scopes
            .get(&id)
            .map(|s| s.label.clone())
            .unwrap_or_default()
    }

    /// The scopes from this one up to the global layer, nearest first, the global layer
    /// last.
    pub fn chain(&self) -> Vec<Scope> {
        let ids = self.registry.inner.state.read().chain(self.id);
        ids.into_iter()
            .map(Some)
            .chain([None])
            .map(|id| Scope::new(self.registry.clone(), id))
            .collect()
    }

    /// Creates an agent scope under this one (under the global layer, a top-level agent).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidDefinition`] when this handle is an agent scope that no longer
    /// exists (it, or a scope above it, was closed). Under the global layer it never fails.
    pub fn create_scope(&self, label: impl Into<String>) -> Result<AgentScope, Error> {
        let id = ScopeId(self.registry.next_id());
        {
            let mut state = self.registry.inner.state.write();
            if let Some(parent) = self.id {
                state.scope(parent)?;
            }
            state.scopes.insert(
                id,
                ScopeState {
                    parent: self.id,
                    label: label.into(),
                    layer: Default::default(),
                    restrictions: Vec::new(),
                },
            );
        }
        Ok(AgentScope {
            scope: Scope::new(self.registry.clone(), Some(id)),
            id,
        })
    }

    /// Registers `definition` here, shadowing an inherited tool of the same name.
    /// Duplicates within one layer and names a provider reserves are refused.
    ///
    /// The definition was already checked when it was built
    /// ([`ToolBuilder::build`](crate::tool::ToolBuilder::build)); registering checks only
    /// where it goes. Dropping the returned [`Disposer`] keeps the registration; call
    /// [`Disposer::dispose`] to remove it.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidDefinition`], and nothing is registered, when
    ///
    /// - the name is reserved by an installed [`ToolProvider`](super::ToolProvider) (for
    ///   example `run_code` once Code Mode is installed),
    /// - this layer already holds a tool of that name (dispose it first; registering in an
    ///   agent scope shadows an inherited one instead),
    /// - its parameters, output or advertised output schema nests deeper than the
    ///   registry's [`value_depth`](super::RegistryConfig::value_depth) in levels of
    ///   subschemas ([`nests_deeper`](crate::schema::nests_deeper)): `tool `deep` cannot be
    ///   registered: its parameters schema nests deeper than 28 levels (the registry's
    ///   value-depth limit)`, or
    /// - this handle is an agent scope that no longer exists (it was closed).
    ///
    /// # Examples
    ///
    /// ```
    /// use codemode::ErrorCode;
    /// use codemode::registry::Registry;
    /// use codemode::tool::{ToolDefinition, ToolOutput};
    /// use serde_json::json;
    ///
    /// fn lookup(description: &str) -> codemode::Result<ToolDefinition> {
    ///     ToolDefinition::builder("lookup")
    ///         .description(description)
    ///         .output(ToolOutput::any())
    ///         .execute(|_, _| async { Ok(json!(1)) })
    ///         .build()
    /// }
    ///
    /// let registry = Registry::new();
    /// let global = registry.global();
    /// let registration = global.register(lookup("the global one")?)?;
    ///
    /// // One `lookup` per layer...
    /// let refused = global.register(lookup("another")?);
    /// assert_eq!(refused.err().map(|err| err.code()), Some(ErrorCode::InvalidDefinition));
    ///
    /// // ...but an agent scope may shadow the one it inherits.
    /// let agent = global.create_scope("agent")?;
    /// agent.register(lookup("the agent's own")?)?.keep();
    /// let seen = |scope: &codemode::registry::Scope| scope.get("lookup").map(|t| t.schema().description.clone());
    /// assert_eq!(seen(&agent).as_deref(), Some("the agent's own"));
    ///
    /// // Disposing removes the global registration only.
    /// assert!(registration.dispose());
    /// assert_eq!(seen(&global), None);
    /// assert_eq!(seen(&agent).as_deref(), Some("the agent's own"));
    /// # Ok::<(), codemode::Error>(())
    /// ```
    pub fn register(&self, definition: ToolDefinition) -> Result<Disposer, Error> {
        let registry = &self.registry;
        schemas_within(&definition, registry.inner.config.value_depth.get())?;
        let handle = registry.next_id();
        registry
            .inner
            .state
            .write()
            .register(self.id, handle, Arc::new(definition), |name| {
                registry.reserved(name)
            })?;
        registry.notify_change();
        Ok(registry.disposer(handle))
    }

    /// Restricts what this agent scope inherits: `allow` keeps only the listed tools,
    /// `deny` removes them; restrictions intersect; own registrations stay visible. Empty
    /// filters, unknown names, this scope's own names, reserved names and the global layer
    /// are refused.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidDefinition`], and nothing is restricted, when
    ///
    /// - this handle is the global layer (it inherits nothing),
    /// - the restriction is empty: no `allow` and no (or an empty) `deny`,
    /// - a listed name is reserved by a provider, is registered in this scope itself
    ///   (restrictions filter only inherited tools), or is not registered anywhere this scope
    ///   inherits from (unknown tool; every such problem is named in one message), or
    /// - this agent scope no longer exists (it was closed).
    pub fn restrict(
        &self,
        allow: Option<&[&str]>,
        deny: Option<&[&str]>,
    ) -> Result<Disposer, Error> {
        let Some(id) = self.id else {
            return Err(Error::new(
                ErrorCode::InvalidDefinition,
                "the global layer inherits nothing and cannot be restricted; restrict an agent scope",
            ));
        };
        let own = |names: Option<&[&str]>| {
            names.map(|n| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
        };
        let (allow, deny) = (own(allow), own(deny));
        let registry = &self.registry;
        let handle = registry.next_id();
        {
            let mut state = registry.inner.state.write();
            let restriction =
                state.compile_restriction(id, allow.as_deref(), deny.as_deref(), |name| {
                    registry.reserved(name)
                })?;
            let scope = state.scopes.get_mut(&id).ok_or_else(|| {
                Error::new(ErrorCode::InvalidDefinition, format!("{id} does not exist"))
            })?;
            scope.restrictions.push((handle, restriction));
        }
        registry.notify_change();
        Ok(registry.disposer(handle))
    }

    /// Registers a guard, evaluated after every `tools/pre-execute` listener and before the
    /// body: a returned reason denies the call, and nothing can turn a guard's denial back
    /// into permission.
    pub fn guard(
        &self,
        guard: impl Fn(&ToolExecution) -> Option<String> + Send + Sync + 'static,
    ) -> Disposer {
        self.registry.add_listener(self.id, |list, h, reach| {
            list.guards.push((h, reach, Arc::new(guard)))
        })
    }

    /// Adds a `tools/pre-execute` listener (allow / deny / ask, or delegate).
    pub fn on_pre_execute<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<ToolExecution>, PreNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<PreToolDecision, Error>> + Send + 'static,
    {
        let boxed = link(listener);
        self.registry
            .add_listener(self.id, |list, h, reach| list.pre.push((h, reach, boxed)))
    }

    /// Adds a `tools/execute` (around-dispatch) wrapper; the first registered is the
    /// outermost.
    pub fn on_execute<F, Fut>(&self, wrapper: F) -> Disposer
    where
        F: Fn(DispatchExecution, DispatchNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolExecutionResult, Error>> + Send + 'static,
    {
        let boxed = link(wrapper);
        self.registry.add_listener(self.id, |list, h, reach| {
            list.around.push((h, reach, boxed))
        })
    }

    /// Adds a `tools/post-execute` listener (accept, replace or block the result).
    pub fn on_post_execute<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<ToolExecution>, Arc<ToolExecutionResult>, PostNext) -> Fut
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<PostToolDecision, Error>> + Send + 'static,
    {
        let boxed = link(move |(execution, result), next| listener(execution, result, next));
        self.registry
            .add_listener(self.id, |list, h, reach| list.post.push((h, reach, boxed)))
    }

    /// Adds a `tools/result` observer of frozen final results. A panicking observer is
    /// contained.
    pub fn on_result(
        &self,
        observer: impl Fn(&Arc<ToolExecution>, &Arc<ToolExecutionResult>) + Send + Sync + 'static,
    ) -> Disposer {
        self.registry.add_listener(self.id, |list, h, reach| {
            list.results.push((h, reach, Arc::new(observer)))
        })
    }

    /// Attaches `value` to this scope for a layer above the registry (for example a
    /// listener of that layer's own events); [`Scope::extensions`] finds it from this
    /// scope and the scopes under it. Disposed like a listener; removed when the scope
    /// closes.
    pub fn extend<T: Any + Send + Sync>(&self, value: T) -> Disposer {
        self.attach(value, false)
    }

    /// Like [`Scope::extend`] for a value that changes what scopes see (for example how
    /// they are presented): adding and disposing it fire `tools/change`.
    pub fn declare<T: Any + Send + Sync>(&self, value: T) -> Disposer {
        let disposer = self.attach(value, true);
        self.registry.notify_change();
        disposer
    }

    /// Like [`Scope::declare`] for a value an agent scope holds at most one of: refused
    /// (with the value already declared) when this scope already holds a `T`, and refused
    /// (`None`) for the global layer or a closed scope. Checked and attached atomically.
    ///
    /// # Errors
    ///
    /// Not a [`crate::Error`]: the refusal carries what the caller needs to word its own
    /// error (Code Mode's `present_as` turns it into `INVALID_DEFINITION`).
    ///
    /// - `Err(Some(existing))` when this scope itself already holds a `T` (one declared on
    ///   an ancestor does not count); `existing` is that value.
    /// - `Err(None)` when this handle is the global layer, or an agent scope that no longer
    ///   exists.
    pub fn declare_unique<T: Any + Send + Sync>(
        &self,
        value: T,
    ) -> Result<Disposer, Option<Arc<T>>> {
        let Some(id) = self.id else {
            return Err(None);
        };
        let handle = self.registry.next_id();
        {
            let state = self.registry.inner.state.read();
            if state.scope(id).is_err() {
                return Err(None);
            }
            let mut guard = self.registry.inner.listeners.write();
            let existing = guard
                .extensions
                .iter()
                .filter(|(_, reach, ext)| reach.0 == self.id && ext.type_id == TypeId::of::<T>())
                .find_map(|(_, _, ext)| ext.value.clone().downcast::<T>().ok());
            if let Some(existing) = existing {
                return Err(Some(existing));
            }
            let mut next = (**guard).clone();
            next.extensions.push((
                handle,
                Reach(self.id),
                Extension {
                    type_id: TypeId::of::<T>(),
                    value: Arc::new(value),
                    changes_tools: true,
                },
            ));
            *guard = Arc::new(next);
        }
        self.registry.notify_change();
        Ok(self.registry.disposer(handle))
    }

    fn attach<T: Any + Send + Sync>(&self, value: T, changes_tools: bool) -> Disposer {
        let extension = Extension {
            type_id: TypeId::of::<T>(),
            value: Arc::new(value),
            changes_tools,
        };
        self.registry.add_listener(self.id, |list, h, reach| {
            list.extensions.push((h, reach, extension))
        })
    }

    /// Every `T` attached to this scope, its ancestors or the global layer, in
    /// registration order.
    pub fn extensions<T: Any + Send + Sync>(&self) -> Vec<Arc<T>> {
        let all = self.registry.inner.listeners.read().clone();
        let state = self.registry.inner.state.read();
        all.extensions
            .iter()
            .filter(|(_, reach, ext)| {
                ext.type_id == TypeId::of::<T>()
                    && reach.0.is_none_or(|scope| state.is_within(self.id, scope))
            })
            .filter_map(|(_, _, ext)| ext.value.clone().downcast::<T>().ok())
            .collect()
    }

    /// The `T` attached nearest to this scope: its own, else its nearest ancestor's, else
    /// the global layer's (the latest one where a layer holds several).
    pub fn nearest<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        let all = self.registry.inner.listeners.read().clone();
        let chain = self.registry.inner.state.read().chain(self.id);
        let at = |level: Option<ScopeId>| {
            all.extensions
                .iter()
                .rev()
                .filter(|(_, reach, ext)| reach.0 == level && ext.type_id == TypeId::of::<T>())
                .find_map(|(_, _, ext)| ext.value.clone().downcast::<T>().ok())
        };
        chain.into_iter().map(Some).chain([None]).find_map(at)
    }

    /// The `T` attached to this very scope, if any (the latest).
    pub fn own<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        let all = self.registry.inner.listeners.read().clone();
        all.extensions
            .iter()
            .rev()
            .filter(|(_, reach, ext)| reach.0 == self.id && ext.type_id == TypeId::of::<T>())
            .find_map(|(_, _, ext)| ext.value.clone().downcast::<T>().ok())
    }

    /// The definition this scope resolves `name` to: shadowing applied, restricted-away
    /// tools absent, a reserved name resolved by its provider.
    pub fn get(&self, name: &str) -> Option<Arc<ToolDefinition>> {
        let providers = self.registry.providers();
        if let Some(installed) = providers.iter().find(|p| p.reserved.contains_key(name)) {
            return installed
                .provider
                .provide(self, name)
                .filter(|tool| tool.name() == name);
        }
        self.registry.inner.state.read().resolve(self.id, name)
    }

    /// The registered tools this scope can see (no provider's tools), sorted by name.
    pub fn visible_tools(&self) -> Vec<Arc<ToolDefinition>> {
        let state = self.registry.inner.state.read();
        state
            .visible_names(self.id)
            .iter()
            .filter_map(|name| state.resolve(self.id, name))
            .collect()
    }

    /// The canonical executable view: the registered tools this scope can see plus what
    /// the providers add for it, sorted by name.
    pub fn visible(&self) -> Vec<Arc<ToolDefinition>> {
        let mut tools = self.visible_tools();
        for installed in self.registry.providers().iter() {
            let provided = installed.provider.provided(self);
            for tool in provided
                .into_iter()
                .filter(|tool| installed.reserved.contains_key(tool.name()))
            {
                let at = tools.partition_point(|t| t.name() < tool.name());
                tools.insert(at, tool);
            }
        }
        tools
    }

    /// The model-facing schemas of everything this scope can see: copies of name,
    /// description and parameters only.
    pub fn schemas(&self) -> Vec<ToolSchema> {
        self.visible()
            .iter()
            .map(|tool| tool.schema().clone())
            .collect()
    }

    /// The pre-restriction universe of names this scope could see (what `restrict`
    /// validates against), sorted.
    pub fn known_names(&self) -> Vec<String> {
        self.registry
            .inner
            .state
            .read()
            .known_names(self.id)
            .into_iter()
            .collect()
    }

    /// Checks a call against every provider before it resolves (see
    /// [`ToolProvider::admit`](super::ToolProvider::admit)).
    pub(super) fn admit(&self, execution: &ToolExecution) -> Result<(), Error> {
        self.registry
            .providers()
            .iter()
            .try_for_each(|installed| installed.provider.admit(self, execution))
    }

    /// Removes this agent scope, the scopes under it, and everything registered or
    /// attached through them. The global layer cannot be closed (this does nothing).
    pub fn close(&self) {
        let Some(id) = self.id else {
            return;
        };
        let removed: Vec<ScopeId> = {
            let mut state = self.registry.inner.state.write();
            let doomed: Vec<ScopeId> = state
                .scopes
                .keys()
                .copied()
                .filter(|scope| state.is_within(Some(*scope), id))
                .collect();
            for scope in &doomed {
                state.scopes.remove(scope);
            }
            doomed
        };
        {
            let mut guard = self.registry.inner.listeners.write();
            let mut next = (**guard).clone();
            next.retain(|_, reach: Reach| reach.0.is_none_or(|s| !removed.contains(&s)));
            *guard = Arc::new(next);
        }
        self.registry.notify_change();
    }
}

/// Refuses a definition whose parameters, output or advertised output schema nests deeper
/// than the registry's value-depth limit (`limit` levels of subschemas).
fn schemas_within(definition: &ToolDefinition, limit: usize) -> Result<(), Error> {
    let schemas = [
        ("parameters", Some(&definition.schema().parameters)),
        ("output", Some(definition.output().schema().as_json())),
        (
            "advertised output",
            definition.annotations().advertised_output.as_ref(),
        ),
    ];
    for (what, schema) in schemas {
        if let Some(schema) = schema
            && crate::schema::nests_deeper(schema, limit)
        {
            return Err(Error::new(
                ErrorCode::InvalidDefinition,
                format!(
                    "tool `{}` cannot be registered: its {what} schema nests deeper than {limit} levels (the registry's value-depth limit)",
                    definition.name()
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use serde_json::json;

    use super::*;
    use crate::registry::{ReservedName, ToolProvider};
    use crate::tool::{ToolExecutionInput, ToolOutput};

    fn tool(name: &str) -> ToolDefinition {
        ToolDefinition::builder(name)
            .output(ToolOutput::any())
            .execute(|_, _| async { Ok(json!(1)) })
            .build()
            .unwrap()
    }

    #[test]
    fn extensions_apply_down_the_chain_and_nearest_wins() {
        let registry = Registry::new();
        let global = registry.global();
        let parent = global.create_scope("parent").unwrap();
        let child = parent.create_scope("child").unwrap();
        let sibling = global.create_scope("sibling").unwrap();
        global.extend("global").keep();
        parent.extend("parent").keep();
        let own = child.extend("child");
        let texts = |scope: &Scope| -> Vec<&'static str> {
            scope
                .extensions::<&'static str>()
                .iter()
                .map(|t| **t)
                .collect()
        };
        assert_eq!(texts(&child), ["global", "parent", "child"]);
        assert_eq!(texts(&sibling), ["global"]);
        assert_eq!(child.nearest::<&'static str>().map(|t| *t), Some("child"));
        assert_eq!(
            sibling.nearest::<&'static str>().map(|t| *t),
            Some("global")
        );
        assert!(child.own::<u32>().is_none(), "values are found by type");
        assert!(own.dispose());
        assert_eq!(child.nearest::<&'static str>().map(|t| *t), Some("parent"));
        parent.close();
        assert_eq!(
            texts(&child),
            ["global"],
            "closing a scope removes what it attached"
        );
    }

    #[test]
    fn declarations_fire_tools_change_and_extensions_do_not() {
        let registry = Registry::new();
        let changes = Arc::new(AtomicUsize::new(0));
        let counter = changes.clone();
        registry
            .on_change(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            })
            .keep();
        let scope = registry.global().create_scope("agent").unwrap();
        let extension = scope.extend(1u8);
        assert!(extension.dispose());
        assert_eq!(changes.load(Ordering::SeqCst), 0);
        let declaration = scope.declare(2u8);
        assert_eq!(changes.load(Ordering::SeqCst), 1);
        assert!(declaration.dispose());
        assert_eq!(changes.load(Ordering::SeqCst), 2);
    }

    /// A provider reserving `special`, providing it to scopes labelled `special`, and
    /// refusing direct calls of `hidden`.
    struct Special(Arc<ToolDefinition>);

    impl ToolProvider for Special {
        fn reserved(&self) -> Vec<ReservedName> {
            vec![ReservedName {
                name: "special".into(),
                what: "the test's reserved tool".into(),
            }]
        }
        fn provide(&self, scope: &Scope, name: &str) -> Option<Arc<ToolDefinition>> {
            (name == "special" && scope.label() == "special").then(|| self.0.clone())
        }
        fn provided(&self, scope: &Scope) -> Vec<Arc<ToolDefinition>> {
            self.provide(scope, "special").into_iter().collect()
        }
        fn admit(&self, _: &Scope, execution: &ToolExecution) -> Result<(), Error> {
            match execution.name.as_str() {
                "hidden" => Err(Error::new(ErrorCode::UnknownTool, "not from here")),
                _ => Ok(()),
            }
        }
    }

    #[tokio::test]
    async fn a_provider_reserves_provides_and_admits() {
        let registry = Registry::new();
        let global = registry.global();
        global.register(tool("hidden")).unwrap().keep();
        global.register(tool("plain")).unwrap().keep();
        let provider = registry
            .add_provider(Arc::new(Special(Arc::new(tool("special")))))
            .unwrap();
        // One provider per name; a name already registered cannot be reserved.
        assert!(
            registry
                .add_provider(Arc::new(Special(Arc::new(tool("special")))))
                .is_err()
        );
        let err = global.register(tool("special")).unwrap_err();
        assert_eq!(
            err.message(),
            "`special` is the test's reserved tool and cannot be registered"
        );
        let special = global.create_scope("special").unwrap();
        let other = global.create_scope("other").unwrap();
        let names = |scope: &Scope| -> Vec<String> {
            scope
                .visible()
                .iter()
                .map(|t| t.name().to_owned())
                .collect()
        };
        assert_eq!(names(&special), ["hidden", "plain", "special"]);
        assert_eq!(names(&other), ["hidden", "plain"]);
        assert!(other.get("special").is_none());
        assert_eq!(special.visible_tools().len(), 2, "registered tools only");
        let refused = registry
            .execute(ToolExecutionInput::new("c", "hidden", json!({})))
            .await;
        assert_eq!(refused.model_text(), "Error: not from here");
        let called = registry
            .execute(ToolExecutionInput::new("c", "special", json!({})).for_agent(special.id()))
            .await;
        assert_eq!(called.value(), Some(&json!(1)));
        assert!(provider.dispose());
        assert!(
            global.register(tool("special")).is_ok(),
            "no longer reserved"
        );
        assert_eq!(registry.reserved("special"), None);
    }
}
