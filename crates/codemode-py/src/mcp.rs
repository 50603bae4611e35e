//! MCP servers as tool sources of a Python registry, configured as the command configures
//! them.
//!
//! A server is described by an `[[mcp]]` entry: the Python half writes the entry for
//! `Scope.add_mcp_server(...)` and the whole file for `Registry.from_config(path)`, and both
//! are checked by the library's own configuration parser ([`Config::parse`]), so a Python
//! host accepts and refuses exactly what `codemode.toml` does. Starting, listing and naming
//! the servers' tools is the library's MCP client ([`codemode::mcp::client::load`]): a tool
//! keeps its name unless a tool the scope already sees (or a name the registry reserves)
//! has it, then it is `<server>__<tool>`; `readOnlyHint` makes it parallel-safe;
//! `[mcp.tools.NAME]` settings override.
//!
//! [`PyMcpServers`] is what `add_mcp_server` gives back: the servers' status, the names
//! their tools were registered under, and `close()`, which unregisters those tools and
//! ends the servers (a stdio server's processes are killed). Until then the scope keeps
//! the servers running (they are attached to it, and go when it closes). Servers that
//! announce a changed tool list are not followed here (the command's `serve` does that).
//!
//! This module owns the mapping of MCP sources onto a scope; it must not parse TOML itself
//! or speak the protocol (the library does both).

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use codemode::config::Config;
use codemode::mcp::client::{McpServerConfig, ServerConnection, ServerState, ServerStatus, load};
use codemode::registry::{Disposer, Scope};
use codemode::{Error, ErrorCode, JsonValue};
use pyo3::prelude::*;
use serde_json::json;

use crate::guarded;
use crate::registry::Policies;
use crate::runtime::{awaitable, next_call_id};

/// Keeps a scope's MCP servers running while it is attached to the scope.
struct KeepServers(#[allow(dead_code)] Vec<Arc<ServerConnection>>);

/// The `[[mcp]]` entries of a configuration text (`path` names it in errors and is what
/// relative paths resolve against).
///
/// # Errors
///
/// `INVALID_CONFIG` for whatever `codemode.toml` would refuse, with its place.
pub(crate) fn server_configs(text: &str, path: &Path) -> Result<Vec<McpServerConfig>, Error> {
    Ok(Config::parse(text, path)?.mcp)
}

/// The status of each server, as JSON: `{name, ok, tools?, renamed?, skipped?, message?}`.
pub(crate) fn statuses(servers: &[ServerStatus]) -> JsonValue {
    JsonValue::Array(
        servers
            .iter()
            .map(|server| match &server.state {
                ServerState::Ready {
                    tools,
                    renamed,
                    skipped,
                } => json!({
                    "name": server.name,
                    "ok": true,
                    "tools": tools,
                    "renamed": renamed.iter().map(|(remote, name)| json!([remote, name])).collect::<Vec<_>>(),
                    "skipped": skipped.iter().map(|tool| json!([tool.name, tool.reason])).collect::<Vec<_>>(),
                }),
                ServerState::Failed { message } => json!({
                    "name": server.name,
                    "ok": false,
                    "message": message,
                }),
            })
            .collect(),
    )
}

/// Starts the servers `configs`, registers their tools in `scope` (with the policies their
/// `[mcp.tools.NAME]` settings give, in `policies`).
///
/// # Errors
///
/// `INVALID_CONFIG` for an `include` / `exclude` naming a tool a server does not list;
/// `HOST_FAILED` naming every server that could not be started (none of the servers is
/// kept then); a registration's own error (a name taken in this layer).
async fn add_servers(
    scope: Scope,
    policies: Policies,
    configs: Vec<McpServerConfig>,
) -> Result<PyMcpServers, Error> {
    let visible: BTreeSet<String> = scope
        .visible_tools()
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect();
    let weak = scope.registry().downgrade();
    let taken = move |name: &str| {
        visible.contains(name) || weak.upgrade().is_some_and(|r| r.reserved(name).is_some())
    };
    let (load, mut catalog) = load(&configs, &taken).await?;
    let servers = catalog.take_servers();
    drop(catalog);
    let failed: Vec<String> = load
        .servers
        .iter()
        .filter_map(|server| match &server.state {
            ServerState::Failed { message } => Some(message.clone()),
            ServerState::Ready { .. } => None,
        })
        .collect();
    let handle = PyMcpServers {
        servers: servers.clone(),
        registrations: Mutex::new(vec![scope.extend(KeepServers(servers))]),
        status: statuses(&load.servers).to_string(),
        tool_names: load
            .tools
            .iter()
            .map(|tool| tool.definition.name().to_owned())
            .collect(),
    };
    if !failed.is_empty() {
        handle.shut().await;
        return Err(Error::new(ErrorCode::HostFailed, failed.join("; ")));
    }
    for tool in load.tools {
        let policy = configs
            .iter()
            .find(|config| config.name == tool.server)
            .and_then(|config| config.tools.get(&tool.remote_name))
            .and_then(|settings| settings.policy);
        let name = tool.definition.name().to_owned();
        match scope.register(tool.definition) {
            Ok(disposer) => handle.lock().push(disposer),
            Err(err) => {
                handle.shut().await;
                return Err(err);
            }
        }
        if let Some(policy) = policy {
            policies
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(name, policy);
        }
    }
    Ok(handle)
}

/// MCP servers added to a scope (`codemode.McpServers` wraps it).
#[pyclass(module = "codemode._native", name = "McpServers", frozen)]
pub(crate) struct PyMcpServers {
    servers: Vec<Arc<ServerConnection>>,
    registrations: Mutex<Vec<Disposer>>,
    status: String,
    tool_names: Vec<String>,
}

impl PyMcpServers {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Disposer>> {
        self.registrations
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Unregisters the tools and ends the servers.
    async fn shut(&self) {
        let registrations: Vec<Disposer> = std::mem::take(&mut *self.lock());
        for registration in registrations {
            registration.dispose();
        }
        for server in &self.servers {
            server.shutdown().await;
        }
    }
}

#[pymethods]
impl PyMcpServers {
    /// Each server's status as JSON text.
    fn status(&self) -> String {
        self.status.clone()
    }

    /// The names the servers' tools were registered under.
    fn tool_names(&self) -> Vec<String> {
        self.tool_names.clone()
    }

    /// Unregisters the tools and ends the servers: an awaitable of nothing.
    fn close<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        guarded(py, || {
            let this: Py<Self> = slf.unbind();
            awaitable(py, next_call_id(), move |_token| async move {
                this.get().shut().await;
                Ok(())
            })
        })
    }
}

/// `Scope.add_mcp_servers`: parses `text` (`[[mcp]]` entries; `path` names it) and starts
/// the servers in `scope`: an awaitable of a [`PyMcpServers`].
pub(crate) fn add_mcp_servers<'py>(
    py: Python<'py>,
    scope: Scope,
    policies: Policies,
    text: String,
    path: String,
) -> PyResult<Bound<'py, PyAny>> {
    let configs =
        server_configs(&text, Path::new(&path)).map_err(|err| crate::to_py_err(py, &err))?;
    awaitable(py, next_call_id(), move |_token| async move {
        add_servers(scope, policies, configs)
            .await
            .map_err(|err| crate::to_py_err_detached(&err))
    })
}
