//! Name policies: a fixed table of allow / deny / ask by tool name, applied by one
//! `tools/pre-execute` listener (what a configuration file's `policy` keys install).
//!
//! This module owns how a policy table decides; it must not know where the table came
//! from.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;

use crate::tool::PreToolDecision;

use super::{Disposer, Scope};

/// What a policy says to do with calls of a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// Run calls.
    Allow,
    /// Refuse calls.
    Deny,
    /// Ask the approval service (the MCP client, when it can be asked); deny otherwise.
    Ask,
}

impl Policy {
    /// The configuration's spelling: `"allow"`, `"deny"` or `"ask"`.
    ///
    /// ```
    /// assert_eq!(codemode::registry::Policy::Ask.as_str(), "ask");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Policy::Allow => "allow",
            Policy::Deny => "deny",
            Policy::Ask => "ask",
        }
    }
}

impl Scope {
    /// Installs a `tools/pre-execute` listener applying `policies` by tool name to this
    /// scope's calls (`None` when the table is empty: nothing to install). A tool without
    /// an entry, and an `allow`, delegate to the rest of the chain.
    pub fn install_policies(&self, policies: BTreeMap<String, Policy>) -> Option<Disposer> {
        if policies.is_empty() {
            return None;
        }
        Some(self.install_policy_lookup(move |name| policies.get(name).copied()))
    }

    /// Like [`Scope::install_policies`] for a table that changes: `lookup(name)` is asked
    /// at each call (for example the policies of tools a source adds later).
    pub fn install_policy_lookup(
        &self,
        lookup: impl Fn(&str) -> Option<Policy> + Send + Sync + 'static,
    ) -> Disposer {
        let lookup = Arc::new(lookup);
        self.on_pre_execute(move |execution, next| {
            let policy = lookup(&execution.name);
            async move {
                match policy {
                    Some(Policy::Deny) => Ok(PreToolDecision::Deny {
                        reason: "the configuration denies this tool".into(),
                    }),
                    Some(Policy::Ask) => Ok(PreToolDecision::Ask {
                        reason: Some("the configuration asks for approval of this tool".into()),
                    }),
                    Some(Policy::Allow) | None => next.run().await,
                }
            }
        })
    }
}
