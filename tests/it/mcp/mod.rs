//! MCP servers as tool sources, end to end: the real servers from the npm registry
//! (`@modelcontextprotocol/server-everything` and `server-filesystem`, installed into
//! `tests/tools/` by `.ci/tools`) and a misbehaving fixture server
//! (`fixtures/mcp/fixture_server.py`: malformed schemas, noise, crashes, hangs).

mod changes;
mod fixture;
mod noise;
mod servers;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use codemode::config::Config;
use codemode::host::{Engine, Host};
use codemode::mcp::client::{McpLoad, ServerState, ServerStatus};
use codemode::registry::{Registry, RegistryConfig};
use codemode::tool::{ToolExecutionInput, ToolExecutionResult};
use serde_json::Value;

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The entry point of an npm MCP server package, or a failure saying how to install it.
pub fn npm_server(package: &str) -> String {
    let path = repo()
        .join("tests/tools/node_modules/@modelcontextprotocol")
        .join(package)
        .join("dist/index.js");
    assert!(
        path.exists(),
        "{} is missing: run `.ci/tools` to install the test tools (MCP servers, TypeScript compiler)",
        path.display()
    );
    path.display().to_string()
}

/// The fixture server's script.
pub fn fixture_server() -> String {
    repo()
        .join("fixtures/mcp/fixture_server.py")
        .display()
        .to_string()
}

/// A TOML string literal.
pub fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// A TOML array of strings.
pub fn command(parts: &[&str]) -> String {
    let items: Vec<String> = parts.iter().map(|p| quoted(p)).collect();
    format!("[{}]", items.join(", "))
}

/// `[[mcp]]` for the server-everything over stdio.
pub fn everything() -> String {
    format!(
        "[[mcp]]\nname = \"everything\"\ncommand = {}\n",
        command(&["node", &npm_server("server-everything"), "stdio"])
    )
}

/// `[[mcp]]` for the filesystem server over `root`.
pub fn filesystem(root: &Path) -> String {
    format!(
        "[[mcp]]\nname = \"fs\"\ncommand = {}\n",
        command(&[
            "node",
            &npm_server("server-filesystem"),
            &root.display().to_string()
        ])
    )
}

/// `[[mcp]]` for the fixture server named `name` with `flags`, and extra lines.
pub fn fixture_entry(name: &str, flags: &[&str], extra: &str) -> String {
    let mut parts = vec!["python3", "-u"];
    let script = fixture_server();
    parts.push(&script);
    parts.extend_from_slice(flags);
    format!(
        "[[mcp]]\nname = {}\ncommand = {}\n{extra}\n",
        quoted(name),
        command(&parts)
    )
}

/// A registry with the sources of `toml` (as if the file were in `dir`).
pub async fn load(toml: &str, dir: &Path) -> (Registry, McpLoad) {
    let config = Config::parse(toml, &dir.join("codemode.toml"))
        .unwrap_or_else(|err| panic!("the configuration parses: {err}\n{toml}"));
    let host = Host::builder(config)
        .registry_config(RegistryConfig::default().with_cancel_grace(Duration::from_millis(500)))
        .engine(Engine::Never)
        .build()
        .await
        .unwrap_or_else(|err| panic!("the sources load: {err}"));
    let load = McpLoad {
        tools: Vec::new(),
        servers: host.servers().to_vec(),
    };
    (host.registry().clone(), load)
}

/// Calls `name` through the pipeline.
pub async fn call(registry: &Registry, name: &str, args: Value) -> Arc<ToolExecutionResult> {
    registry
        .execute(ToolExecutionInput::new("c", name, args))
        .await
}

/// The status of server `name`.
pub fn status<'a>(load: &'a McpLoad, name: &str) -> &'a ServerStatus {
    load.servers
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no status for `{name}`: {:?}", load.servers))
}

/// Asserts server `name` is ready and returns (tool count, renamed, skipped names).
pub fn ready(load: &McpLoad, name: &str) -> (usize, Vec<(String, String)>, Vec<String>) {
    match &status(load, name).state {
        ServerState::Ready {
            tools,
            renamed,
            skipped,
        } => (
            *tools,
            renamed.clone(),
            skipped.iter().map(|s| s.name.clone()).collect(),
        ),
        ServerState::Failed { message } => panic!("`{name}` failed: {message}"),
    }
}

/// The value of a successful result, or a panic with its text.
pub fn value(result: &ToolExecutionResult) -> Value {
    match result.value() {
        Some(value) => value.clone(),
        None => panic!("the call failed: {}", result.model_text()),
    }
}
