//! The registry's mutable state: layers of registrations, scopes and restrictions, and the
//! one visibility resolver every other part uses.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use crate::error::{Error, ErrorCode};
use crate::tool::{ScopeId, ToolDefinition};

/// A handle id: names one registration, restriction, listener, extension or provider.
pub(crate) type HandleId = u64;

/// One layer of registrations (the global layer, or one scope's own).
#[derive(Default)]
pub(crate) struct Layer {
    pub tools: BTreeMap<String, (HandleId, Arc<ToolDefinition>)>,
}

/// A compiled `restrict` filter.
#[derive(Debug, Clone)]
pub(crate) struct Restriction {
    pub allow: Option<BTreeSet<String>>,
    pub deny: BTreeSet<String>,
}

impl Restriction {
    fn admits(&self, name: &str) -> bool {
        self.allow.as_ref().is_none_or(|allow| allow.contains(name)) && !self.deny.contains(name)
    }
}

pub(crate) struct ScopeState {
    pub parent: Option<ScopeId>,
    pub label: String,
    pub layer: Layer,
    pub restrictions: Vec<(HandleId, Restriction)>,
}

#[derive(Default)]
pub(crate) struct State {
    pub global: Layer,
    pub scopes: HashMap<ScopeId, ScopeState>,
}

impl State {
    pub(super) fn scope(&self, id: ScopeId) -> Result<&ScopeState, Error> {
        self.scopes.get(&id).ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidDefinition,
                format!("{id} does not exist (was it closed?)"),
            )
        })
    }

    fn layer(&self, scope: Option<ScopeId>) -> Option<&Layer> {
        match scope {
            None => Some(&self.global),
            Some(id) => self.scopes.get(&id).map(|s| &s.layer),
        }
    }

    /// The scopes from `scope` up to (not including) the global layer, nearest first.
    pub(super) fn chain(&self, scope: Option<ScopeId>) -> Vec<ScopeId> {
        let mut chain = Vec::new();
        let mut current = scope;
        while let Some(id) = current {
            let Some(state) = self.scopes.get(&id) else {
                break;
            };
            chain.push(id);
            current = state.parent;
        }
        chain
    }

    /// Whether `scope` is `ancestor` or one of its descendants.
    pub(super) fn is_within(&self, scope: Option<ScopeId>, ancestor: ScopeId) -> bool {
        self.chain(scope).contains(&ancestor)
    }

    /// The definition `scope` resolves `name` to: its own registration, else what it
    /// inherits (nearer ancestors shadow farther ones, the global layer last), filtered by
    /// the restrictions of every scope it is inherited through.
    pub(super) fn resolve(
        &self,
        scope: Option<ScopeId>,
        name: &str,
    ) -> Option<Arc<ToolDefinition>> {
        let Some(id) = scope else {
            return self.global.tools.get(name).map(|(_, def)| def.clone());
        };
        let state = self.scopes.get(&id)?;
        if let Some((_, def)) = state.layer.tools.get(name) {
            return Some(def.clone());
        }
        let inherited = self.resolve(state.parent, name)?;
        state
            .restrictions
            .iter()
            .all(|(_, restriction)| restriction.admits(name))
            .then_some(inherited)
    }

    /// Every name visible to `scope`, sorted.
    pub(super) fn visible_names(&self, scope: Option<ScopeId>) -> Vec<String> {
        self.known_names(scope)
            .into_iter()
            .filter(|name| self.resolve(scope, name).is_some())
            .collect()
    }

    /// The pre-restriction universe: every name registered in `scope`'s own layer, its
    /// ancestors' layers and the global layer, sorted.
    pub(super) fn known_names(&self, scope: Option<ScopeId>) -> BTreeSet<String> {
        let mut names: BTreeSet<String> = self.global.tools.keys().cloned().collect();
        for id in self.chain(scope) {
            if let Some(layer) = self.layer(Some(id)) {
                names.extend(layer.tools.keys().cloned());
            }
        }
        names
    }

    pub(super) fn register(
        &mut self,
        scope: Option<ScopeId>,
        handle: HandleId,
        def: Arc<ToolDefinition>,
        reserved: impl Fn(&str) -> Option<String>,
    ) -> Result<(), Error> {
        let name = def.name().to_owned();
        if let Some(owner) = reserved(&name) {
            return Err(Error::new(
                ErrorCode::InvalidDefinition,
                format!("`{name}` is {owner} and cannot be registered"),
            ));
        }
        let layer = match scope {
            None => &mut self.global,
            Some(id) => {
                &mut self
                    .scopes
                    .get_mut(&id)
                    .ok_or_else(|| {
                        Error::new(ErrorCode::InvalidDefinition, format!("{id} does not exist"))
                    })?
                    .layer
            }
        };
        if layer.tools.contains_key(&name) {
            let place = scope.map_or("the global layer".to_owned(), |id| id.to_string());
            return Err(Error::new(
                ErrorCode::InvalidDefinition,
                format!("a tool named `{name}` is already registered in {place}"),
            ));
        }
        layer.tools.insert(name, (handle, def));
        Ok(())
    }

    /// Where `name` is registered, if it is anywhere ("the global layer", "scope#3").
    pub(super) fn registered_at(&self, name: &str) -> Option<String> {
        if self.global.tools.contains_key(name) {
            return Some("the global layer".to_owned());
        }
        self.scopes
            .iter()
            .find(|(_, scope)| scope.layer.tools.contains_key(name))
            .map(|(id, _)| id.to_string())
    }

    pub(super) fn unregister(&mut self, handle: HandleId) -> bool {
        let layers =
            std::iter::once(&mut self.global).chain(self.scopes.values_mut().map(|s| &mut s.layer));
        for layer in layers {
            let found = layer
                .tools
                .iter()
                .find(|(_, (h, _))| *h == handle)
                .map(|(name, _)| name.clone());
            if let Some(name) = found {
                layer.tools.remove(&name);
                return true;
            }
        }
        false
    }

    /// Validates and compiles a `restrict` filter for `scope`.
    pub(super) fn compile_restriction(
        &self,
        scope: ScopeId,
        allow: Option<&[String]>,
        deny: Option<&[String]>,
        reserved: impl Fn(&str) -> Option<String>,
    ) -> Result<Restriction, Error> {
        let invalid = |message: String| Err(Error::new(ErrorCode::InvalidDefinition, message));
        if allow.is_none() && deny.is_none_or(|d| d.is_empty()) {
            return invalid(
                "an empty restriction restricts nothing: give `allow` (keep only these) and/or a non-empty `deny`"
                    .into(),
            );
        }
        let state = self.scope(scope)?;
        let inherited = self.known_names(state.parent);
        let mut problems = Vec::new();
        for name in allow
            .into_iter()
            .flatten()
            .chain(deny.into_iter().flatten())
        {
            if let Some(owner) = reserved(name) {
                problems.push(format!("`{name}` is {owner} and cannot be restricted"));
            } else if state.layer.tools.contains_key(name) {
                problems.push(format!(
                    "`{name}` is registered in this scope itself; restrictions only filter inherited tools"
                ));
            } else if !inherited.contains(name) {
                problems.push(format!("unknown tool `{name}`"));
            }
        }
        if !problems.is_empty() {
            return invalid(format!("invalid restriction: {}", problems.join("; ")));
        }
        Ok(Restriction {
            allow: allow.map(|names| names.iter().cloned().collect()),
            deny: deny.into_iter().flatten().cloned().collect(),
        })
    }
}
