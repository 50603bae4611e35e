//! The registry's policy table: the policy of each tool, set by `Registry.set_policy` and
//! by an MCP server's tool settings, asked at each call. Shared by [`crate::registry`],
//! which installs the listener that asks it, and [`crate::mcp`], which fills it for the
//! servers' tools.
//!
//! This module owns the table's type; it must not decide a policy (the registry does).

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use codemode::registry::Policy;

/// The policy table, by tool name.
pub(crate) type Policies = Arc<RwLock<HashMap<String, Policy>>>;
