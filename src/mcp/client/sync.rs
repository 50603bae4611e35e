//! Keeping a registry's MCP tools equal to what the servers list.
//!
//! [`register`] starts the configured servers, registers their tools by the naming rules of
//! [`super::McpCatalog`], installs each tool's `[mcp.tools.NAME] policy`, and follows every
//! server's `tools/list_changed`: a new list is named with every server's tools again, and
//! only the tools whose name or listing changed are unregistered and registered again.
//!
//! This module owns that syncing; it must not talk to a server itself (the `follow` and
//! `supervise` modules do) or decide names (the catalog does).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::error::Error;
use crate::registry::{Disposer, Policy, Registry, WeakRegistry};

use super::{
    McpCatalog, McpServerConfig, McpTool, McpToolSpec, ServerConnection, ServerStatus, SkippedTool,
};

/// `[mcp.tools.NAME] policy` by the tool's registered name, kept current as servers
/// re-list their tools.
pub(crate) type McpPolicies = Arc<parking_lot::RwLock<BTreeMap<String, Policy>>>;

/// Starts the MCP servers and registers their tools (see [`crate::mcp::client`] for naming
/// and collisions), and follows their changes ([`McpTools`]); returns each server's status,
/// the policy names no available source serves (a server is down), and the MCP tools'
/// own policies. `policies` are the host's `[policy]` and command-tool policies, which win
/// over `[mcp.tools.NAME] policy`.
pub(crate) async fn register(
    settings: &[McpServerConfig],
    registry: &Registry,
    local_names: &BTreeSet<String>,
    policies: &mut BTreeMap<String, Policy>,
) -> Result<(Vec<ServerStatus>, Vec<String>, McpPolicies), Error> {
    if settings.is_empty() {
        return Ok((Vec::new(), Vec::new(), McpPolicies::default()));
    }
    let local = local_names.clone();
    let weak = registry.downgrade();
    let taken = move |name: &str| {
        local.contains(name) || weak.upgrade().is_some_and(|r| r.reserved(name).is_some())
    };
    let (mut load, mut catalog) = super::load(settings, &taken).await?;
    let global = registry.global();
    let servers = catalog.take_servers();
    // The registry keeps the servers running, also while one lists no tools.
    global.extend(McpServers(servers.clone())).keep();
    let tools = Arc::new(McpTools {
        registry: registry.downgrade(),
        catalog: parking_lot::Mutex::new(catalog),
        registered: parking_lot::Mutex::new(BTreeMap::new()),
        policies: Arc::new(parking_lot::RwLock::new(BTreeMap::new())),
        fixed: policies.keys().cloned().collect(),
        settings: settings.to_vec(),
        taken: Box::new(taken),
    });
    // `[mcp.tools.NAME] policy` follows the tool's registered name as it changes;
    // `[policy]` wins over it.
    let lookup = tools.policies.clone();
    global
        .install_policy_lookup(move |name| lookup.read().get(name).copied())
        .keep();
    tools.apply(std::mem::take(&mut load.tools))?;
    for server in &servers {
        let tools = tools.clone();
        tokio::spawn(super::follow::follow(
            Arc::downgrade(server),
            move |name, listed, skipped| tools.relisted(name, listed, skipped),
        ));
    }
    // With a server down, a policy may name one of its tools: that tool cannot be called,
    // so the policy waits for it instead of failing the configuration.
    let unavailable: Vec<String> = if load.any_failed() {
        let known = global.known_names();
        let missing: Vec<String> = policies
            .keys()
            .filter(|name| !known.contains(name))
            .cloned()
            .collect();
        for name in &missing {
            tracing::warn!(
                "a policy names `{name}`, which no available source serves (an MCP server is down)"
            );
        }
        missing
    } else {
        Vec::new()
    };
    Ok((load.servers, unavailable, tools.policies.clone()))
}

/// The MCP servers, held by the registry so they live as long as it does.
struct McpServers(#[allow(dead_code)] Vec<Arc<ServerConnection>>);

/// The registered MCP tools, kept equal to what the servers list: each new list (a server's
/// `tools/list_changed`) is named with every server's tools by the rules of the start, and
/// only the tools whose name or listing changed are unregistered and registered again.
struct McpTools {
    registry: WeakRegistry,
    catalog: parking_lot::Mutex<McpCatalog>,
    /// Registered name → (server, the tool as listed, its registration).
    registered: parking_lot::Mutex<BTreeMap<String, (String, McpToolSpec, Disposer)>>,
    /// `[mcp.tools.NAME] policy` by registered name.
    policies: McpPolicies,
    /// The names `[policy]` and command tools set a policy for (they win).
    fixed: BTreeSet<String>,
    settings: Vec<McpServerConfig>,
    taken: Box<dyn Fn(&str) -> bool + Send + Sync>,
}

impl McpTools {
    /// A server listed its tools again; returns whether to keep following (the registry
    /// is still there).
    fn relisted(&self, server: &str, listed: Vec<McpToolSpec>, skipped: Vec<SkippedTool>) -> bool {
        if self.registry.upgrade().is_none() {
            return false;
        }
        // The catalog stays locked through `apply`: two servers re-listing at once apply
        // their combined lists in the order they computed them, so a later change is never
        // undone by an earlier list (lock order: catalog, then registered).
        let mut catalog = self.catalog.lock();
        catalog.set(server, listed, skipped);
        let tools = catalog.tools(&*self.taken).0;
        let applied = self.apply(tools);
        drop(catalog);
        if let Err(err) = applied {
            tracing::warn!(server = %server, "MCP server `{server}`: {}", err.message());
        }
        true
    }

    /// Makes the registered MCP tools `tools`.
    fn apply(&self, tools: Vec<McpTool>) -> Result<(), Error> {
        let Some(registry) = self.registry.upgrade() else {
            return Ok(());
        };
        let global = registry.global();
        let mut registered = self.registered.lock();
        let mut next_policies = BTreeMap::new();
        for tool in &tools {
            let policy = self
                .settings
                .iter()
                .find(|server| server.name == tool.server)
                .and_then(|server| server.tools.get(&tool.remote_name))
                .and_then(|settings| settings.policy);
            let name = tool.definition.name();
            if let Some(policy) = policy
                && !self.fixed.contains(name)
            {
                next_policies.insert(name.to_owned(), policy);
            }
        }
        // A tool is never registered before its policy, nor left without its policy while
        // it is still registered.
        {
            let mut policies = self.policies.write();
            policies.extend(next_policies.clone());
        }
        let mut wanted: BTreeMap<String, McpTool> = tools
            .into_iter()
            .map(|tool| (tool.definition.name().to_owned(), tool))
            .collect();
        registered.retain(|name, (server, spec, registration)| {
            let same = wanted
                .get(name)
                .is_some_and(|tool| &tool.server == server && &tool.spec == spec);
            if same {
                wanted.remove(name);
            } else {
                registration.dispose();
            }
            same
        });
        let mut first_error = None;
        for (name, tool) in wanted {
            match global.register(tool.definition) {
                Ok(registration) => {
                    registered.insert(name, (tool.server, tool.spec, registration));
                }
                Err(err) => {
                    first_error.get_or_insert(err);
                }
            }
        }
        *self.policies.write() = next_policies;
        first_error.map_or(Ok(()), Err)
    }
}
