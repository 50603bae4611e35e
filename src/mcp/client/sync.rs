//! Keeping a scope's MCP tools equal to what the servers list.
//!
//! [`SyncedServers::start`] registers the tools of loaded servers in one scope by the naming
//! rules of [`super::McpCatalog`], installs each tool's `[mcp.tools.NAME] policy` there, and
//! follows every server's `tools/list_changed`: a new list is named with every server's tools
//! again, and only the tools whose name or listing changed are unregistered and registered
//! again. `register` is the command's use of it (the registry's global layer); a host
//! library adds servers to an agent scope the same way.
//!
//! This module owns that syncing; it must not talk to a server itself (the `follow` and
//! `supervise` modules do) or decide names (the catalog does).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::Error;
use crate::registry::{Disposer, Policy, Registry, Scope, WeakRegistry};
use crate::tool::ScopeId;

use super::{
    McpCatalog, McpServerConfig, McpTool, McpToolSpec, ServerConnection, ServerStatus, SkippedTool,
};

/// `[mcp.tools.NAME] policy` by the tool's registered name, kept current as servers
/// re-list their tools.
pub(crate) type McpPolicies = Arc<parking_lot::RwLock<BTreeMap<String, Policy>>>;

/// What [`register`] started: each server's status, the policy names no available source
/// serves (a server is down), and the MCP tools' own policies.
#[derive(Default)]
pub(crate) struct Registered {
    /// Each configured server's status, in configuration order.
    pub(crate) servers: Vec<ServerStatus>,
    /// The policy names no available source serves (a server is down).
    pub(crate) unavailable: Vec<String>,
    /// `[mcp.tools.NAME] policy` of the servers' tools.
    pub(crate) policies: McpPolicies,
}

/// A test of a tool name.
type NameTest = Box<dyn Fn(&str) -> bool + Send + Sync>;

/// Starts the MCP servers and registers their tools (see [`crate::mcp::client`] for naming
/// and collisions), and follows their changes ([`McpTools`]); returns what it started
/// ([`Registered`]). `policies` are the host's `[policy]` and command-tool policies, which win
/// over `[mcp.tools.NAME] policy`.
pub(crate) async fn register(
    settings: &[McpServerConfig],
    registry: &Registry,
    local_names: &BTreeSet<String>,
    policies: &mut BTreeMap<String, Policy>,
) -> Result<Registered, Error> {
    if settings.is_empty() {
        return Ok(Registered::default());
    }
    let local = local_names.clone();
    let weak = registry.downgrade();
    let taken = move |name: &str| {
        local.contains(name) || weak.upgrade().is_some_and(|r| r.reserved(name).is_some())
    };
    let (mut load, catalog) = super::load(settings, &taken).await?;
    let fixed: BTreeSet<String> = policies.keys().cloned().collect();
    let global = registry.global();
    let synced = SyncedServers::start(
        &global,
        catalog,
        std::mem::take(&mut load.tools),
        settings,
        move |name| fixed.contains(name),
        taken,
    )?;
    let mcp_policies = synced.tools.policies.clone();
    // The registry keeps the servers running and followed, also while one lists no tools.
    global.extend(synced).keep();
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
    Ok(Registered {
        servers: load.servers,
        unavailable,
        policies: mcp_policies,
    })
}

/// MCP servers whose tools are registered in one scope and kept equal to what the servers
/// list (see the module doc). Whoever holds it keeps the servers running: drop it, or
/// [`SyncedServers::close`] it, to end them.
pub struct SyncedServers {
    tools: Arc<McpTools>,
    servers: Vec<Arc<ServerConnection>>,
    policy_lookup: Disposer,
}

impl std::fmt::Debug for SyncedServers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyncedServers")
            .field("tools", &self.tool_names())
            .finish_non_exhaustive()
    }
}

impl SyncedServers {
    /// Registers `tools` (what [`super::load`] named) in `scope` with their
    /// `[mcp.tools.NAME] policy` (unless `fixed(name)`: the host's own policy for that name
    /// wins, asked at each call), and follows the servers of `catalog`: a re-listed tool is
    /// named again by the catalog's rules, with `taken(name)` for the names other tools
    /// hold (asked at each re-list: the names these servers' tools hold then are left out).
    /// Call it inside a tokio runtime (the following is a task per server).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidDefinition`](crate::ErrorCode::InvalidDefinition) when `scope`
    /// is closed; a registration's own error (a name taken in this scope's layer). Nothing
    /// stays registered then, and the servers end (they are dropped with the catalog).
    pub fn start(
        scope: &Scope,
        mut catalog: McpCatalog,
        tools: Vec<McpTool>,
        settings: &[McpServerConfig],
        fixed: impl Fn(&str) -> bool + Send + Sync + 'static,
        taken: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Result<Self, Error> {
        if let Some(id) = scope.id() {
            scope.registry().scope(id)?;
        }
        let servers = catalog.take_servers();
        let synced = Arc::new(McpTools {
            registry: scope.registry().downgrade(),
            scope: scope.id(),
            catalog: parking_lot::Mutex::new(catalog),
            registered: parking_lot::Mutex::new(BTreeMap::new()),
            policies: Arc::new(parking_lot::RwLock::new(BTreeMap::new())),
            fixed: Box::new(fixed),
            settings: settings.to_vec(),
            taken: Box::new(taken),
            closed: AtomicBool::new(false),
        });
        // `[mcp.tools.NAME] policy` follows the tool's registered name as it changes.
        let lookup = synced.clone();
        let policy_lookup = scope.install_policy_lookup(move |name| lookup.policy(name));
        let started = SyncedServers {
            tools: synced,
            servers,
            policy_lookup,
        };
        if let Err(err) = started.tools.apply(tools) {
            started.unregister();
            return Err(err);
        }
        for server in &started.servers {
            let tools = started.tools.clone();
            tokio::spawn(super::follow::follow(
                Arc::downgrade(server),
                move |name, listed, skipped| tools.relisted(name, listed, skipped),
            ));
        }
        Ok(started)
    }

    /// The names the servers' tools are registered under now, sorted.
    pub fn tool_names(&self) -> Vec<String> {
        self.tools.registered.lock().keys().cloned().collect()
    }

    /// The servers.
    pub fn servers(&self) -> &[Arc<ServerConnection>] {
        &self.servers
    }

    /// Stops following the servers and unregisters their tools and policies; the servers
    /// keep running until [`SyncedServers::close`] or the last handle goes. Doing it twice
    /// does nothing.
    pub fn unregister(&self) {
        self.tools.closed.store(true, Ordering::SeqCst);
        // The catalog lock waits out a re-list being applied (see `McpTools::relisted`).
        let _catalog = self.tools.catalog.lock();
        let registered = std::mem::take(&mut *self.tools.registered.lock());
        for (_, (_, _, registration)) in registered {
            registration.dispose();
        }
        self.tools.policies.write().clear();
        self.policy_lookup.dispose();
    }

    /// [`SyncedServers::unregister`], then ends the servers (a stdio server's processes are
    /// killed).
    pub async fn close(&self) {
        self.unregister();
        for server in &self.servers {
            server.shutdown().await;
        }
    }
}

/// The registered MCP tools, kept equal to what the servers list: each new list (a server's
/// `tools/list_changed`) is named with every server's tools by the rules of the start, and
/// only the tools whose name or listing changed are unregistered and registered again.
struct McpTools {
    registry: WeakRegistry,
    /// The scope the tools are registered in (`None`: the global layer).
    scope: Option<ScopeId>,
    catalog: parking_lot::Mutex<McpCatalog>,
    /// Registered name → (server, the tool as listed, its registration).
    registered: parking_lot::Mutex<BTreeMap<String, (String, McpToolSpec, Disposer)>>,
    /// `[mcp.tools.NAME] policy` by registered name.
    policies: McpPolicies,
    /// The names the host sets a policy for (its policy wins).
    fixed: NameTest,
    settings: Vec<McpServerConfig>,
    /// The names other tools hold (asked at each re-list, without these servers' own).
    taken: NameTest,
    /// Set by [`SyncedServers::unregister`]: nothing is registered again.
    closed: AtomicBool,
}

impl McpTools {
    /// A server listed its tools again; returns whether to keep following (the scope is
    /// still there and the servers were not unregistered).
    fn relisted(&self, server: &str, listed: Vec<McpToolSpec>, skipped: Vec<SkippedTool>) -> bool {
        // The catalog stays locked through `apply`: two servers re-listing at once apply
        // their combined lists in the order they computed them, so a later change is never
        // undone by an earlier list (lock order: catalog, then registered).
        let mut catalog = self.catalog.lock();
        if self.closed.load(Ordering::SeqCst) || self.scope().is_none() {
            return false;
        }
        catalog.set(server, listed, skipped);
        // The names these servers' own tools hold now are theirs to rename or keep.
        let own: BTreeSet<String> = self.registered.lock().keys().cloned().collect();
        let tools = catalog
            .tools(&|name: &str| !own.contains(name) && (self.taken)(name))
            .0;
        let applied = self.apply(tools);
        drop(catalog);
        if let Err(err) = applied {
            tracing::warn!(server = %server, "MCP server `{server}`: {}", err.message());
        }
        true
    }

    /// The scope, while it (and the registry) exists.
    fn scope(&self) -> Option<Scope> {
        let registry = self.registry.upgrade()?;
        match self.scope {
            None => Some(registry.global()),
            Some(id) => registry.scope(id).ok(),
        }
    }

    /// The `[mcp.tools.NAME] policy` of the tool registered as `name`, unless the host
    /// sets its own.
    fn policy(&self, name: &str) -> Option<Policy> {
        if (self.fixed)(name) {
            return None;
        }
        self.policies.read().get(name).copied()
    }

    /// Makes the registered MCP tools `tools`.
    fn apply(&self, tools: Vec<McpTool>) -> Result<(), Error> {
        let Some(scope) = self.scope() else {
            return Ok(());
        };
        let mut registered = self.registered.lock();
        let mut next_policies = BTreeMap::new();
        for tool in &tools {
            let policy = self
                .settings
                .iter()
                .find(|server| server.name == tool.server)
                .and_then(|server| server.tools.get(&tool.remote_name))
                .and_then(|settings| settings.policy);
            if let Some(policy) = policy {
                next_policies.insert(tool.definition.name().to_owned(), policy);
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
            match scope.register(tool.definition) {
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
