//! The built-in file tools, confined to one root directory: `read_file`, `list_dir`, `glob`
//! and `grep` (on by default, read-only, concurrency-safe) and `write_file` and `edit_file`
//! (opt-in, exclusive).
//!
//! Owns the tools' arguments, outputs, model-facing texts and UI cards. Every path argument
//! goes through `root` first, and a model only ever sees root-relative paths; UI cards name
//! files by absolute path (so an editor can open them) and are built from the replayable
//! presentation meta, never from the file system. Failures are tool failures: a refused path
//! or a malformed pattern is `INVALID_ARGS`, anything the file system refuses is
//! `TOOL_FAILED`, each with a message that says what to do next.
//!
//! This module must not register tools or know about scopes: a host registers what
//! [`builtin_tools`] returns.
//!
//! ```
//! use codemode::sources::builtin::{builtin_tools, BuiltinConfig};
//! let config = BuiltinConfig::new(std::env::temp_dir()).with_enabled(BuiltinConfig::ALL_TOOLS);
//! let tools = builtin_tools(&config).unwrap();
//! let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
//! assert_eq!(names, ["read_file", "list_dir", "glob", "grep", "write_file", "edit_file"]);
//! ```

mod diff;
mod edit;
mod glob;
mod grep;
mod list;
mod read;
mod root;
mod text;
mod walk;
mod write;

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;
use crate::presentation::{FileLocation, ToolResultView};
use crate::tool::{Signal, ToolDefinition, ToolResult};

use root::Root;

/// Which built-in tools to offer, and the directory they are confined to.
///
/// In a configuration file this is the `[builtin]` table: `root` (default: the working
/// directory) and `enabled` (default: [`BuiltinConfig::DEFAULT_TOOLS`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct BuiltinConfig {
    /// The directory every path is relative to; nothing outside it can be read or written.
    pub root: PathBuf,
    /// The names of the tools to offer (see [`BuiltinConfig::ALL_TOOLS`]).
    pub enabled: Vec<String>,
}

impl BuiltinConfig {
    /// The tools on by default: the read-only ones.
    pub const DEFAULT_TOOLS: [&str; 4] = ["read_file", "list_dir", "glob", "grep"];
    /// Every built-in tool; `write_file` and `edit_file` change files and are opt-in.
    pub const ALL_TOOLS: [&str; 6] = [
        "read_file",
        "list_dir",
        "glob",
        "grep",
        "write_file",
        "edit_file",
    ];

    /// The default tools over `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        BuiltinConfig {
            root: root.into(),
            enabled: Self::DEFAULT_TOOLS
                .iter()
                .map(|&name| name.to_owned())
                .collect(),
        }
    }

    /// The same root with exactly the tools `enabled` (names from
    /// [`BuiltinConfig::ALL_TOOLS`]; unknown ones fail when the tools are built).
    pub fn with_enabled<S: Into<String>>(mut self, enabled: impl IntoIterator<Item = S>) -> Self {
        self.enabled = enabled.into_iter().map(Into::into).collect();
        self
    }
}

impl Default for BuiltinConfig {
    /// The default tools over the current working directory.
    fn default() -> Self {
        let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        BuiltinConfig::new(root)
    }
}

/// The enabled built-in tools, confined to `config.root` (canonicalized here), in the order
/// of [`BuiltinConfig::ALL_TOOLS`]; each carries the annotation source `builtin`. Naming a
/// tool twice is the same as once.
///
/// # Errors
///
/// [`ErrorCode::InvalidConfig`] naming it for an unknown tool name, a root that cannot be
/// canonicalized (missing, unreadable) or a root that is not a directory.
pub fn builtin_tools(config: &BuiltinConfig) -> Result<Vec<ToolDefinition>, Error> {
    builtin_tools_at(config, None)
}

/// [`builtin_tools`], with the place of `root` in a configuration file
/// (`codemode.toml:4:8`) at the start of an error about the root.
pub(crate) fn builtin_tools_at(
    config: &BuiltinConfig,
    root_place: Option<&str>,
) -> Result<Vec<ToolDefinition>, Error> {
    for name in &config.enabled {
        if !BuiltinConfig::ALL_TOOLS.contains(&name.as_str()) {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "unknown built-in tool `{name}` (the built-in tools are {})",
                    BuiltinConfig::ALL_TOOLS.join(", ")
                ),
            ));
        }
    }
    let root = Root::new(&config.root).map_err(|err| match root_place {
        Some(place) => Error::new(err.code(), format!("{place}: {}", err.message())),
        None => err,
    })?;
    let root = Arc::new(root);
    let mut tools = Vec::new();
    for name in BuiltinConfig::ALL_TOOLS {
        if !config.enabled.iter().any(|enabled| enabled == name) {
            continue;
        }
        let mut tool = match name {
            "read_file" => read::definition(root.clone()),
            "list_dir" => list::definition(root.clone()),
            "glob" => glob::definition(root.clone()),
            "grep" => grep::definition(root.clone()),
            "write_file" => write::definition(root.clone()),
            _ => edit::definition(root.clone()),
        }?;
        tool.annotations.source = Some("builtin".to_owned());
        tools.push(tool);
    }
    Ok(tools)
}

/// Runs blocking file-system work off the async runtime; `work` should poll the signal in
/// long loops and stop with [`aborted`].
async fn blocking<T, F>(signal: &Signal, work: F) -> Result<T, Error>
where
    T: Send + 'static,
    F: FnOnce(&Signal) -> Result<T, Error> + Send + 'static,
{
    let signal = signal.clone();
    match tokio::task::spawn_blocking(move || work(&signal)).await {
        Ok(result) => result,
        Err(err) => Err(Error::new(
            ErrorCode::ToolFailed,
            format!("the file operation failed unexpectedly: {err}"),
        )),
    }
}

/// The error a long operation returns when its signal fires.
fn aborted() -> Error {
    Error::new(ErrorCode::Aborted, "the operation was cancelled")
}

/// A file-system failure on `display` (a root-relative path).
fn io_failure(action: &str, display: &str, err: &std::io::Error) -> Error {
    Error::new(
        ErrorCode::ToolFailed,
        format!("cannot {action} `{display}`: {}", root::io_reason(err)),
    )
}

/// A missing path, with a hint to look around.
fn not_found(display: &str) -> Error {
    Error::new(
        ErrorCode::ToolFailed,
        format!(
            "`{display}` does not exist (paths are relative to the workspace root); use list_dir or glob to find the right path"
        ),
    )
}

/// A result card stored as presentation meta (a replayed log reads the same card back).
fn card_meta(view: &ToolResultView) -> JsonValue {
    serde_json::to_value(view).unwrap_or(JsonValue::Null)
}

/// The result card of a successful call: the one its presentation meta holds.
fn card_from_meta(result: &ToolResult) -> Option<ToolResultView> {
    if result.is_error {
        return None;
    }
    serde_json::from_value(result.meta.clone()?).ok()
}

/// A file a call reads or changes, by absolute path, for a UI to follow.
fn location(root: &Root, display: &str, line: Option<u64>) -> FileLocation {
    FileLocation {
        path: root.absolute_display(display),
        line,
    }
}

/// `1 line`, `2 lines`.
fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}
