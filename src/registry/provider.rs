//! The resolution hook: how a layer above the registry reserves names and adds tools of its
//! own to what a scope sees, without the registry knowing what the layer is.
//!
//! Code Mode is such a layer: it reserves its transport tool's name, provides the tool to
//! scopes that present in a code mode, and refuses direct calls of the other tools in pure
//! Code Mode. The registry
//! consults every installed [`ToolProvider`] in one place each: `register` and `restrict`
//! (reservations), [`Scope::get`] and [`Scope::visible`] (provided tools), and the pipeline's
//! resolution step ([`ToolProvider::admit`]).
//!
//! This module owns the hook's contract; it must not know any provider.

use std::sync::Arc;

use crate::error::Error;
use crate::tool::{ToolDefinition, ToolExecution};

use super::Scope;

/// A layer that reserves tool names and provides tools of its own.
///
/// Provided tools are resolved by name only when the provider reserves that name, so a
/// provided tool can never be shadowed, registered over or restricted away.
pub trait ToolProvider: Send + Sync + 'static {
    /// What `name` is, if this provider reserves it, as a phrase completing "`name` is …"
    /// (e.g. "Code Mode's reserved transport"). `register` and `restrict` refuse it.
    fn reserved(&self, name: &str) -> Option<String>;

    /// The tool `scope` resolves the reserved `name` to, if it sees one now.
    fn provide(&self, scope: &Scope, name: &str) -> Option<Arc<ToolDefinition>>;

    /// Every tool this provider adds to what `scope` sees now.
    fn provided(&self, scope: &Scope) -> Vec<Arc<ToolDefinition>>;

    /// Checks a call before its tool is resolved: an error fails the call with it (the
    /// call's body never runs). The default admits every call.
    fn admit(&self, scope: &Scope, execution: &ToolExecution) -> Result<(), Error> {
        let _ = (scope, execution);
        Ok(())
    }
}
