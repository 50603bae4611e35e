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
//!   keep working; a server that stops fails its in-flight calls and is restarted on the
//!   next call ([`ServerConnection`]).
//!
//! This module owns MCP connections and the definitions of their tools; it must not touch
//! the registry (the host registers what it returns).

pub mod call;

mod connect;
pub mod discover;
mod supervise;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

pub use crate::config::mcp::{McpServerConfig, McpToolSettings, McpTransport};
pub use crate::mcp::wire::CallOutcome;
pub use discover::{McpToolSpec, SkippedTool};
pub use supervise::ServerConnection;

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
/// timeout.
pub async fn start(config: McpServerConfig) -> Result<McpSource, Error> {
    let timeout = Duration::from_secs_f64(config.startup_timeout_ms / 1000.0);
    let deadline = tokio::time::Instant::now() + timeout;
    let name = config.name.clone();
    let connection = connect::connect(&config).await?;
    let peer = connection.peer();
    let listed = tokio::time::timeout_at(deadline, discover::list_tools(&name, &peer)).await;
    let (tools, skipped) = match listed {
        Ok(listed) => listed?,
        Err(_) => {
            return Err(Error::new(
                crate::error::ErrorCode::ToolFailed,
                format!(
                    "MCP server `{name}` did not list its tools within {} ms",
                    timeout.as_millis()
                ),
            ));
        }
    };
    for skip in &skipped {
        tracing::warn!(
            server = %name,
            tool = %skip.name,
            "MCP server `{name}`: skipped the tool `{}`: {}",
            skip.name,
            skip.reason
        );
    }
    let malformed = connection.report().malformed();
    if malformed > 0 {
        tracing::warn!(server = %name, "MCP server `{name}` sent {malformed} malformed message(s)");
    }
    Ok(McpSource {
        server: ServerConnection::new(config, connection),
        tools,
        skipped,
    })
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
/// server that fails is reported in its status and logged; the others still load.
pub async fn load(configs: &[McpServerConfig], taken: &(dyn Fn(&str) -> bool + Sync)) -> McpLoad {
    let started = futures::future::join_all(configs.iter().cloned().map(start)).await;
    let mut sources = Vec::new();
    let mut statuses: Vec<Option<ServerStatus>> = Vec::new();
    for (config, result) in configs.iter().zip(started) {
        match result {
            Ok(source) => {
                sources.push(source);
                statuses.push(None);
            }
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
    let listed: Vec<(&str, Vec<&str>)> = sources
        .iter()
        .map(|source| {
            (
                source.server.name(),
                source.tools.iter().map(|t| t.name.as_str()).collect(),
            )
        })
        .collect();
    let names = resolve_names(taken, &listed);
    let mut load = McpLoad::default();
    let mut ready = HashMap::new();
    for (source, names) in sources.iter().zip(names) {
        let server_name = source.server.name().to_owned();
        for configured in source.server.config().tools.keys() {
            if !source.tools.iter().any(|tool| &tool.name == configured) {
                tracing::warn!(server = %server_name, "MCP server `{server_name}` lists no tool `{configured}`; its `[mcp.tools.{configured}]` settings apply to nothing");
            }
        }
        let mut renamed = Vec::new();
        let mut skipped = source.skipped.clone();
        let mut count = 0;
        for (spec, name) in source.tools.iter().zip(names) {
            let registered = match name {
                Ok(registered) => registered,
                Err(reason) => {
                    tracing::warn!(server = %server_name, tool = %spec.name, "MCP server `{server_name}`: skipped the tool `{}`: {reason}", spec.name);
                    skipped.push(SkippedTool {
                        name: spec.name.clone(),
                        reason,
                    });
                    continue;
                }
            };
            match definition(&source.server, spec, registered.clone()) {
                Ok(definition) => {
                    if registered != spec.name {
                        renamed.push((spec.name.clone(), registered));
                    }
                    count += 1;
                    load.tools.push(McpTool {
                        server: server_name.clone(),
                        remote_name: spec.name.clone(),
                        definition,
                    });
                }
                Err(err) => {
                    tracing::warn!(server = %server_name, tool = %spec.name, "MCP server `{server_name}`: skipped the tool `{}`: {}", spec.name, err.message());
                    skipped.push(SkippedTool {
                        name: spec.name.clone(),
                        reason: err.message().to_owned(),
                    });
                }
            }
        }
        ready.insert(
            server_name.clone(),
            ServerStatus {
                name: server_name,
                state: ServerState::Ready {
                    tools: count,
                    renamed,
                    skipped,
                },
            },
        );
    }
    load.servers = configs
        .iter()
        .zip(statuses)
        .filter_map(|(config, status)| status.or_else(|| ready.remove(&config.name)))
        .collect();
    load
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
