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
//! their tools are registered under, and `close()`, which unregisters those tools and
//! ends the servers (a stdio server's processes are killed). Until then the scope keeps
//! the servers running (they are attached to it, and go when it closes), and a server that
//! announces a changed tool list (`notifications/tools/list_changed`) is listed again and
//! its tools in the scope follow, as in the command ([`SyncedServers`]).
//!
//! This module owns the mapping of MCP sources onto a scope; it must not parse TOML itself
//! or speak the protocol (the library does both).

use std::path::Path;
use std::sync::{Arc, PoisonError};

use codemode::config::Config;
use codemode::mcp::client::{McpServerConfig, ServerState, ServerStatus, SyncedServers, load};
use codemode::registry::{Disposer, Scope};
use codemode::{Error, ErrorCode, JsonValue};
use pyo3::prelude::*;
use serde_json::json;

use crate::guarded;
use crate::policies::Policies;
use crate::tokio_runtime::{awaitable, next_call_id};

/// Keeps a scope's MCP servers running (and followed) while it is attached to the scope.
struct KeepServers(#[allow(dead_code)] Arc<SyncedServers>);

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

/// Starts the servers `configs`, registers their tools in `scope` with the policies their
/// `[mcp.tools.NAME]` settings give (unless `policies` has the host's own for that name),
/// and follows their changes.
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
    // What the scope sees when a server's list is named (at the start and at each re-list):
    // weak, as the registry holds the servers.
    let weak = scope.registry().downgrade();
    let id = scope.id();
    let taken = move |name: &str| {
        weak.upgrade().is_some_and(|registry| {
            registry.scope_of(id).get(name).is_some() || registry.reserved(name).is_some()
        })
    };
    let (load, mut catalog) = load(&configs, &taken).await?;
    let failed: Vec<String> = load
        .servers
        .iter()
        .filter_map(|server| match &server.state {
            ServerState::Failed { message } => Some(message.clone()),
            ServerState::Ready { .. } => None,
        })
        .collect();
    if !failed.is_empty() {
        for server in catalog.take_servers() {
            server.shutdown().await;
        }
        return Err(Error::new(ErrorCode::HostFailed, failed.join("; ")));
    }
    let status = statuses(&load.servers).to_string();
    let fixed = move |name: &str| {
        policies
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .contains_key(name)
    };
    let synced = Arc::new(SyncedServers::start(
        &scope, catalog, load.tools, &configs, fixed, taken,
    )?);
    // The scope keeps the servers running and followed, also when the handle is dropped.
    let kept = scope.extend(KeepServers(synced.clone()));
    // A scope closed meanwhile has dropped what was attached to it before: end the servers.
    if let Some(id) = id
        && let Err(err) = scope.registry().scope(id)
    {
        kept.dispose();
        synced.close().await;
        return Err(err);
    }
    Ok(PyMcpServers {
        synced,
        kept,
        status,
    })
}

/// MCP servers added to a scope (`codemode.McpServers` wraps it).
#[pyclass(module = "codemode._native", name = "McpServers", frozen)]
pub(crate) struct PyMcpServers {
    synced: Arc<SyncedServers>,
    kept: Disposer,
    status: String,
}

#[pymethods]
impl PyMcpServers {
    /// Each server's status as JSON text.
    fn status(&self) -> String {
        self.status.clone()
    }

    /// The names the servers' tools are registered under now (they follow the servers'
    /// changes), sorted.
    fn tool_names(&self) -> Vec<String> {
        self.synced.tool_names()
    }

    /// Unregisters the tools and ends the servers: an awaitable of nothing.
    fn close<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        guarded(py, || {
            let this: Py<Self> = slf.unbind();
            awaitable(py, next_call_id(), move |_token| async move {
                let this = this.get();
                this.kept.dispose();
                this.synced.close().await;
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
