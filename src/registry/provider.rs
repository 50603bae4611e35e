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

/// A name a provider reserves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReservedName {
    /// The tool name.
    pub name: String,
    /// What it is, as a phrase completing "`name` is …" (e.g. "Code Mode's reserved
    /// transport"): the text of the errors that refuse it.
    pub what: String,
}

/// A layer that reserves tool names and provides tools of its own.
///
/// The registry reads the reserved names once, when the provider is installed, and refuses
/// the installation when a name is already registered or reserved; afterwards `register`
/// and `restrict` refuse them. Provided tools are resolved only under reserved names (the
/// registry drops any other), so a provided tool can never be shadowed, registered over or
/// restricted away. The callbacks run with none of the registry's locks held; they sit on
/// every resolution, so they must be quick.
pub trait ToolProvider: Send + Sync + 'static {
    /// The names this provider reserves (read once, at installation).
    fn reserved(&self) -> Vec<ReservedName>;

    /// The tool `scope` resolves the reserved `name` to, if it sees one now.
    fn provide(&self, scope: &Scope, name: &str) -> Option<Arc<ToolDefinition>>;

    /// Every tool this provider adds to what `scope` sees now (under its reserved names).
    fn provided(&self, scope: &Scope) -> Vec<Arc<ToolDefinition>>;

    /// Checks a call before its tool is resolved: an error fails the call with it (the
    /// call's body never runs). The default admits every call.
    ///
    /// # Errors
    ///
    /// An implementation returns `Err` to refuse the call; the call's result is then a
    /// failure with exactly that error (its code and message reach the model), before
    /// visibility, arguments, listeners or guards are checked. Code Mode, for example,
    /// refuses with [`ErrorCode::UnknownTool`](crate::ErrorCode::UnknownTool) a direct call
    /// of any tool but `run_code` in pure Code Mode. The default implementation never fails.
    fn admit(&self, scope: &Scope, execution: &ToolExecution) -> Result<(), Error> {
        let _ = (scope, execution);
        Ok(())
    }
}
