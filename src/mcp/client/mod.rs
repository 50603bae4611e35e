//! The MCP client: MCP servers as tool sources (through the official Rust SDK, `rmcp`): stdio servers
//! started as processes, and streamable HTTP servers.
//!
//! Loading a server connects to it, lists its tools (every page) and turns each into a
//! [`ToolDefinition`] with the server's raw input schema (and output schema, for SDKs).
//! The rules:
//!
//! - **Names.** A tool keeps its own name unless that name is taken by a local tool
//!   (built-in or command tool, or a name the registry reserves) or listed by more than
//!   one server; then
//!   every such MCP tool is registered as `<server>__<tool>` (local tools never change).
//! - **Concurrency.** `readOnlyHint: true` makes calls parallel-safe; anything else runs
//!   alone; `[mcp.tools.NAME] concurrency_safe` overrides both.
//! - **Values.** See [`call`]: `structuredContent`, else the text of a text-only result,
//!   else the content blocks as JSON; `isError` fails the call.
//! - **Failures.** A malformed tool is skipped with a warning naming server, tool and
//!   reason; a server that cannot start is reported ([`ServerState::Failed`]) and the rest
//!   keep working; a server that stops fails its in-flight calls at once and is restarted
//!   (stdio) or reconnected to (a URL: a streamable-HTTP server that dies or answers `400` or
//!   `404` for the session, see `http`) on the next call, its tools listed again
//!   ([`ServerConnection`]).
//! - **Choice.** `include` / `exclude` keep or drop tools by their names on the server; a
//!   name the server does not list is an `INVALID_CONFIG` error when it is first listed.
//! - **Changes.** [`follow`] lists a server's tools again after its
//!   `notifications/tools/list_changed`; [`McpCatalog`] names the new lists of every server
//!   together, by the rules above; [`SyncedServers`] registers them in a scope and keeps
//!   that scope's MCP tools equal to what the servers list (the host's global layer, or a
//!   host library's agent scope).
//!
//! This module owns MCP connections, the definitions of their tools and their syncing into
//! a registry; only `sync` touches the registry, and only through its public scope API.

pub mod call;

mod connect;
pub mod discover;
pub mod follow;
mod http;
mod supervise;
pub mod sync;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

pub use crate::config::mcp::{McpServerConfig, McpToolSettings, McpTransport};
pub use crate::mcp::wire::CallOutcome;
pub use discover::{McpToolSpec, SkippedTool};
pub use supervise::ServerConnection;
pub use sync::SyncedServers;

use crate::error::Error;
use crate::schema::JsonSchema;
use crate::tool::{ExecutionToken, ToolAnnotations, ToolDefinition, ToolOutput, render_json};

/// The separator of renamed tools: `<server>__<tool>`.
pub const RENAME_SEPARATOR: &str = "__";

/// A connected server and what it lists.
#[derive(Debug)]
pub struct McpSource {
    /// The server (its supervised session).
    pub server: Arc<ServerConnection>,
    /// Its well-formed tools.
    pub tools: Vec<McpToolSpec>,
    /// Its malformed tools, with the reasons.
    pub skipped: Vec<SkippedTool>,
}

/// Connects to the server described by `config` and lists its tools, within its startup
/// timeout. An `include` / `exclude` name the server does not list is an
/// `INVALID_CONFIG` error at the list's place in the file.
///
/// # Errors
///
/// [`ErrorCode::ToolFailed`](crate::ErrorCode::ToolFailed) naming the server when it cannot be
/// started or reached, does not complete `initialize`, or does not list its tools within the
/// startup timeout; [`ErrorCode::InvalidConfig`](crate::ErrorCode::InvalidConfig) for an
/// `include` / `exclude` name it does not list.
pub async fn start(config: McpServerConfig) -> Result<McpSource, Error> {
    let name = config.name.clone();
    let changed = Arc::new(connect::ToolsChanged::new(0));
    let connection = connect::connect(&config, &changed).await?;
    let peer = connection.peer();
    // A change announced from here on is followed (see `follow`).
    let version = *changed.borrow();
    let (tools, skipped) = list_within(&config, &peer).await?;
    let listed: Vec<&str> = tools
        .iter()
        .map(|t| t.name.as_str())
        .chain(skipped.iter().map(|t| t.name.as_str()))
        .collect();
    let unknown = config.filter.unknown(&listed);
    if let Some(key) = config.filter.key()
        && !unknown.is_empty()
    {
        let place = config
            .filter
            .place
            .as_deref()
            .map_or_else(String::new, |place| format!("{place}: "));
        let names: Vec<String> = unknown.iter().map(|n| format!("`{n}`")).collect();
        let mut known: Vec<&str> = listed.clone();
        known.sort_unstable();
        return Err(Error::new(
            crate::error::ErrorCode::InvalidConfig,
            format!(
                "{place}MCP server `{name}`: `{key}` names {} that the server does not list (it lists: {})",
                names.join(", "),
                known.join(", ")
            ),
        ));
    }
    let (tools, skipped) = filtered(&config, tools, skipped);
    Ok(McpSource {
        server: ServerConnection::new(config, connection, changed, version),
        tools,
        skipped,
    })
}

/// `tools/list` on `peer`, within the server's startup timeout.
async fn list_within(
    config: &McpServerConfig,
    peer: &rmcp::service::Peer<rmcp::service::RoleClient>,
) -> Result<(Vec<McpToolSpec>, Vec<SkippedTool>), Error> {
    let timeout = Duration::from_secs_f64(config.startup_timeout_ms / 1000.0);
    match tokio::time::timeout(timeout, discover::list_tools(&config.name, peer)).await {
        Ok(listed) => listed,
        Err(_) => Err(Error::new(
            crate::error::ErrorCode::ToolFailed,
            format!(
                "MCP server `{}` did not list its tools within {} ms",
                config.name,
                timeout.as_millis()
            ),
        )),
    }
}

/// The tools (and skipped tools) `include` / `exclude` let through.
fn filtered(
    config: &McpServerConfig,
    mut tools: Vec<McpToolSpec>,
    mut skipped: Vec<SkippedTool>,
) -> (Vec<McpToolSpec>, Vec<SkippedTool>) {
    tools.retain(|tool| config.filter.admits(&tool.name));
    skipped.retain(|tool| config.filter.admits(&tool.name));
    (tools, skipped)
}

/// Lists the tools of `server` again (its current session, started again if it ended),
/// through the same checks and `include` / `exclude` as at start.
///
/// # Errors
///
/// [`ErrorCode::ToolFailed`](crate::ErrorCode::ToolFailed) naming the server when a new session
/// cannot be started or initialized, or `tools/list` fails or does not finish within the
/// startup timeout.
pub async fn relist(
    server: &ServerConnection,
) -> Result<(Vec<McpToolSpec>, Vec<SkippedTool>), Error> {
    let session = server.session().await?;
    let (tools, skipped) = list_within(server.config(), &session.peer()).await?;
    Ok(filtered(server.config(), tools, skipped))
}

/// What became of one configured server.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ServerStatus {
    /// The server's name.
    pub name: String,
    /// Ready or failed.
    pub state: ServerState,
}

/// Whether a server is serving tools.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerState {
    /// Connected; its tools are registered.
    Ready {
        /// How many tools it serves.
        tools: usize,
        /// Tools registered under `<server>__<tool>`: (name on the server, registered name).
        renamed: Vec<(String, String)>,
        /// Tools not registered, and why.
        skipped: Vec<SkippedTool>,
    },
    /// It could not be started, initialized or listed; none of its tools are registered.
    Failed {
        /// Why.
        message: String,
    },
}

/// One MCP tool, ready to register.
#[derive(Debug)]
pub struct McpTool {
    /// The server it belongs to.
    pub server: String,
    /// Its name on the server.
    pub remote_name: String,
    /// The tool as the server lists it.
    pub spec: McpToolSpec,
    /// The definition (under the registered name).
    pub definition: ToolDefinition,
}

/// Every configured server's tools and status.
#[derive(Debug, Default)]
pub struct McpLoad {
    /// The tools to register, in configuration order, then server order.
    pub tools: Vec<McpTool>,
    /// One status per configured server, in configuration order.
    pub servers: Vec<ServerStatus>,
}

impl McpLoad {
    /// Whether any server failed.
    pub fn any_failed(&self) -> bool {
        self.servers
            .iter()
            .any(|s| matches!(s.state, ServerState::Failed { .. }))
    }
}

/// Starts every server (concurrently), names their tools against `taken` (the names of
/// the other sources and the names the registry reserves) and builds the definitions. A
/// server that fails is reported in its status and logged; the others still load. An
/// `include` / `exclude` naming a tool its server does not list is an error (a typo must
/// not serve a tool meant to be left out). The [`McpCatalog`] follows later changes.
///
/// # Errors
///
/// [`ErrorCode::InvalidConfig`](crate::ErrorCode::InvalidConfig) (the first such server's) when
/// an `include` / `exclude` names a tool its server does not list. A server that cannot start
/// or list is not an error: its [`ServerStatus`] is [`ServerState::Failed`].
pub async fn load(
    configs: &[McpServerConfig],
    taken: &(dyn Fn(&str) -> bool + Sync),
) -> Result<(McpLoad, McpCatalog), Error> {
    let started = futures::future::join_all(configs.iter().cloned().map(start)).await;
    let mut sources = Vec::new();
    let mut statuses: Vec<Option<ServerStatus>> = Vec::new();
    for (config, result) in configs.iter().zip(started) {
        match result {
            Ok(source) => {
                sources.push(source);
                statuses.push(None);
            }
            Err(err) if err.code() == crate::error::ErrorCode::InvalidConfig => return Err(err),
            Err(err) => {
                tracing::warn!(server = %config.name, "{}", err.message());
                statuses.push(Some(ServerStatus {
                    name: config.name.clone(),
                    state: ServerState::Failed {
                        message: err.message().to_owned(),
                    },
                }));
            }
        }
    }
    for source in &sources {
        let server_name = source.server.name();
        for configured in source.server.config().tools.keys() {
            if !source.tools.iter().any(|tool| &tool.name == configured) {
                tracing::warn!(server = %server_name, "MCP server `{server_name}` lists no tool `{configured}`; its `[mcp.tools.{configured}]` settings apply to nothing");
            }
        }
    }
    let mut catalog = McpCatalog {
        servers: sources
            .into_iter()
            .map(|source| CatalogEntry {
                name: source.server.name().to_owned(),
                server: Arc::downgrade(&source.server),
                strong: Some(source.server),
                tools: source.tools,
                skipped: source.skipped,
            })
            .collect(),
        warned: BTreeSet::new(),
    };
    let (tools, ready) = catalog.tools(taken);
    let mut ready: HashMap<String, ServerStatus> = ready
        .into_iter()
        .map(|status| (status.name.clone(), status))
        .collect();
    let load = McpLoad {
        tools,
        servers: configs
            .iter()
            .zip(statuses)
            .filter_map(|(config, status)| status.or_else(|| ready.remove(&config.name)))
            .collect(),
    };
    Ok((load, catalog))
}

/// The listed tools of every server that started, named together: what is registered is
/// `tools()` of the current lists, so a server whose tools change ([`McpCatalog::set`])
/// is named by exactly the rules of the start (a new tool that collides renames every
/// holder of the name).
#[derive(Debug, Default)]
pub struct McpCatalog {
    servers: Vec<CatalogEntry>,
    /// (server, tool, reason) already warned about, so a re-list does not repeat them.
    warned: BTreeSet<(String, String, String)>,
}

#[derive(Debug)]
struct CatalogEntry {
    name: String,
    server: std::sync::Weak<ServerConnection>,
    /// Held until [`McpCatalog::take_servers`] hands it to the registry's owner.
    strong: Option<Arc<ServerConnection>>,
    tools: Vec<McpToolSpec>,
    skipped: Vec<SkippedTool>,
}

impl McpCatalog {
    /// The servers (whoever holds them keeps them running; the catalog itself does not).
    pub fn take_servers(&mut self) -> Vec<Arc<ServerConnection>> {
        self.servers
            .iter_mut()
            .filter_map(|entry| entry.strong.take())
            .collect()
    }

    /// Replaces what `server` lists.
    pub fn set(&mut self, server: &str, tools: Vec<McpToolSpec>, skipped: Vec<SkippedTool>) {
        if let Some(entry) = self.servers.iter_mut().find(|entry| entry.name == server) {
            entry.tools = tools;
            entry.skipped = skipped;
        }
    }

    /// Every tool to register (configuration order, then server order) and each server's
    /// status. Skipped tools are warned about once.
    pub fn tools(
        &mut self,
        taken: &(dyn Fn(&str) -> bool + Sync),
    ) -> (Vec<McpTool>, Vec<ServerStatus>) {
        let live: Vec<(&CatalogEntry, Arc<ServerConnection>)> = self
            .servers
            .iter()
            .filter_map(|entry| entry.server.upgrade().map(|server| (entry, server)))
            .collect();
        let listed: Vec<(&str, Vec<&str>)> = live
            .iter()
            .map(|(entry, _)| {
                (
                    entry.name.as_str(),
                    entry.tools.iter().map(|t| t.name.as_str()).collect(),
                )
            })
            .collect();
        let names = resolve_names(taken, &listed);
        let mut tools = Vec::new();
        let mut statuses = Vec::new();
        let mut warnings = Vec::new();
        for ((entry, server), names) in live.iter().zip(names) {
            let server_name = entry.name.clone();
            let mut renamed = Vec::new();
            let mut skipped = entry.skipped.clone();
            for skip in &skipped {
                warnings.push((server_name.clone(), skip.name.clone(), skip.reason.clone()));
            }
            let mut count = 0;
            for (spec, name) in entry.tools.iter().zip(names) {
                let built = name.and_then(|registered| {
                    definition(server, spec, registered.clone())
                        .map(|definition| (registered, definition))
                        .map_err(|err| err.message().to_owned())
                });
                match built {
                    Ok((registered, definition)) => {
                        if registered != spec.name {
                            renamed.push((spec.name.clone(), registered));
                        }
                        count += 1;
                        tools.push(McpTool {
                            server: server_name.clone(),
                            remote_name: spec.name.clone(),
                            spec: spec.clone(),
                            definition,
                        });
                    }
                    Err(reason) => {
                        warnings.push((server_name.clone(), spec.name.clone(), reason.clone()));
                        skipped.push(SkippedTool {
                            name: spec.name.clone(),
                            reason,
                        });
                    }
                }
            }
            statuses.push(ServerStatus {
                name: server_name,
                state: ServerState::Ready {
                    tools: count,
                    renamed,
                    skipped,
                },
            });
        }
        for warning in warnings {
            if self.warned.insert(warning.clone()) {
                let (server, tool, reason) = warning;
                tracing::warn!(server = %server, tool = %tool, "MCP server `{server}`: skipped the tool `{tool}`: {reason}");
            }
        }
        (tools, statuses)
    }
}

/// The registered name of every listed tool: its own name, or `<server>__<tool>` when a
/// local tool has the name or more than one server lists it. A name that still collides
/// after renaming is an `Err` with the reason. `servers` holds each server's name and its
/// tools' names; the result has the same shape.
pub fn resolve_names(
    taken: &(dyn Fn(&str) -> bool + Sync),
    servers: &[(&str, Vec<&str>)],
) -> Vec<Vec<Result<String, String>>> {
    let mut listed_by: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, tools) in servers {
        for tool in tools.iter().collect::<BTreeSet<_>>() {
            *listed_by.entry(tool).or_default() += 1;
        }
    }
    let proposed: Vec<Vec<String>> = servers
        .iter()
        .map(|(server, tools)| {
            tools
                .iter()
                .map(|tool| {
                    if taken(tool) || listed_by.get(tool).copied().unwrap_or(0) > 1 {
                        format!("{server}{RENAME_SEPARATOR}{tool}")
                    } else {
                        (*tool).to_owned()
                    }
                })
                .collect()
        })
        .collect();
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for name in proposed.iter().flatten() {
        *uses.entry(name).or_default() += 1;
    }
    proposed
        .iter()
        .zip(servers)
        .map(|(names, (_, tools))| {
            names
                .iter()
                .zip(tools)
                .map(|(name, tool)| {
                    if taken(name) || uses.get(name.as_str()).copied().unwrap_or(0) > 1 {
                        Err(if name == tool {
                            format!("its name `{name}` is taken by another tool")
                        } else {
                            format!(
                                "its name is taken, and so is the renamed `{name}`; rename one of the servers"
                            )
                        })
                    } else {
                        Ok(name.clone())
                    }
                })
                .collect()
        })
        .collect()
}

/// The definition of `spec` on `server`, registered as `registered`.
fn definition(
    server: &Arc<ServerConnection>,
    spec: &McpToolSpec,
    registered: String,
) -> Result<ToolDefinition, Error> {
    let settings = server
        .config()
        .tools
        .get(&spec.name)
        .cloned()
        .unwrap_or_default();
    // The output schema is enforced when it is inside the enforced subset; SDKs show it
    // as the server wrote it either way.
    let output = spec
        .output_schema
        .as_ref()
        .and_then(|schema| JsonSchema::parse(schema).ok())
        .map_or_else(ToolOutput::any, ToolOutput::json);
    let stash: Arc<Mutex<HashMap<ExecutionToken, CallOutcome>>> = Arc::default();
    let declares_output = spec.output_schema.is_some();
    let mut builder = ToolDefinition::builder(registered.clone())
        .description(spec.description.clone())
        .parameters(spec.input_schema.clone())
        .output(output)
        .annotations(ToolAnnotations {
            source: Some(format!("mcp:{}", server.name())),
            advertised_output: spec.output_schema.clone(),
        })
        .timeout_ms(settings.timeout_ms.unwrap_or(server.config().timeout_ms))
        .execute({
            let server = server.clone();
            let remote = spec.name.clone();
            let stash = stash.clone();
            move |args, ctx| {
                let server = server.clone();
                let remote = remote.clone();
                let stash = stash.clone();
                async move {
                    let shown = ctx.execution().name.clone();
                    let outcome = call::call_tool(
                        &server,
                        &remote,
                        &shown,
                        &args,
                        ctx.signal(),
                        declares_output,
                    )
                    .await?;
                    let value = outcome.value.clone();
                    stash.lock().insert(ctx.execution().token, outcome);
                    Ok(value)
                }
            }
        })
        // The result shows the server's own content blocks (images stay images), unless a
        // listener replaced the value or the content on the way.
        .finalize_content(move |execution, result| {
            let outcome = stash.lock().remove(&execution.token)?;
            let untouched = result.value() == Some(&outcome.value)
                && result.content == render_json(&outcome.value);
            (untouched && !outcome.content.is_empty()).then_some(outcome.content)
        });
    if settings.concurrency_safe.unwrap_or(spec.read_only) {
        builder = builder.always_concurrency_safe();
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colliding_tools_are_renamed_on_every_server_and_local_tools_keep_their_names() {
        let local: BTreeSet<String> = ["read_file".to_owned(), "transport".to_owned()].into();
        let names = resolve_names(
            &|name| local.contains(name),
            &[
                ("fs", vec!["read_file", "search", "own"]),
                ("web", vec!["search", "fetch", "transport"]),
            ],
        );
        assert_eq!(
            names,
            vec![
                vec![
                    Ok("fs__read_file".to_owned()),
                    Ok("fs__search".to_owned()),
                    Ok("own".to_owned())
                ],
                vec![
                    Ok("web__search".to_owned()),
                    Ok("fetch".to_owned()),
                    Ok("web__transport".to_owned())
                ],
            ]
        );
    }

    #[test]
    fn a_renamed_tool_that_still_collides_is_refused() {
        let local: BTreeSet<String> = ["x".to_owned(), "a__x".to_owned()].into();
        let names = resolve_names(&|name| local.contains(name), &[("a", vec!["x", "y"])]);
        assert!(names[0][0].as_ref().unwrap_err().contains("renamed `a__x`"));
        assert_eq!(names[0][1], Ok("y".to_owned()));
    }
}
