//! The `[[mcp]]` entries of the configuration file: their raw TOML shape and the checks
//! that turn one into an [`McpServerConfig`] (what the MCP client connects to).
//!
//! This module owns what an MCP server entry may say and how it is checked; it must not
//! start anything. Errors name the entry (and, through the caller's `place`, the file,
//! line and column).

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::error::Error;
use crate::registry::Policy;

/// The call timeout of MCP tools when the configuration gives none (a hung server must
/// not hold a run for its whole wall budget).
pub const DEFAULT_TIMEOUT_MS: f64 = 60_000.0;
/// How long connecting to a server (start, `initialize`, `tools/list`) may take when the
/// configuration gives no `startup_timeout_ms`.
pub const DEFAULT_STARTUP_TIMEOUT_MS: f64 = 30_000.0;

/// One configured MCP server.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct McpServerConfig {
    /// The server's name: the prefix of renamed tools and the `mcp:<name>` source label.
    pub name: String,
    /// How to reach it.
    pub transport: McpTransport,
    /// The call timeout of its tools, in milliseconds.
    pub timeout_ms: f64,
    /// The bound on starting and initializing it, in milliseconds.
    pub startup_timeout_ms: f64,
    /// Per-tool settings, by the tool's name on the server.
    pub tools: BTreeMap<String, McpToolSettings>,
    /// Which of its tools are served (`include` / `exclude`).
    pub filter: ToolFilter,
}

/// `include` / `exclude` of an `[[mcp]]` entry: lists of the server's own tool names. At
/// most one of them is given (both is a configuration error). A name the server does not
/// list is a configuration error found when it is first listed ([`ToolFilter::unknown`]).
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ToolFilter {
    /// Only these tools are served (`None`: every tool).
    pub include: Option<Vec<String>>,
    /// These tools are not served.
    pub exclude: Vec<String>,
    /// Where the list is written (`codemode.toml:7:11`), for errors found later.
    pub place: Option<String>,
}

impl ToolFilter {
    /// Whether the tool `name` (its name on the server) is served.
    pub fn admits(&self, name: &str) -> bool {
        match &self.include {
            Some(include) => include.iter().any(|n| n == name),
            None => !self.exclude.iter().any(|n| n == name),
        }
    }

    /// The key that holds the list (`include` or `exclude`), if any.
    pub fn key(&self) -> Option<&'static str> {
        if self.include.is_some() {
            Some("include")
        } else if !self.exclude.is_empty() {
            Some("exclude")
        } else {
            None
        }
    }

    /// The names of the list that are not in `listed`.
    pub fn unknown<'a>(&'a self, listed: &[&str]) -> Vec<&'a str> {
        self.include
            .as_deref()
            .unwrap_or(&self.exclude)
            .iter()
            .filter(|name| !listed.contains(&name.as_str()))
            .map(String::as_str)
            .collect()
    }
}

/// How a server is reached.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum McpTransport {
    /// A process speaking MCP over its standard input and output.
    Stdio {
        /// The program and its arguments.
        command: Vec<String>,
        /// Extra environment variables.
        env: BTreeMap<String, String>,
        /// The working directory.
        cwd: PathBuf,
    },
    /// A streamable HTTP endpoint.
    Http {
        /// The endpoint (`http://` or `https://`).
        url: String,
        /// Extra request headers (e.g. `Authorization`).
        headers: BTreeMap<String, String>,
    },
}

/// Settings of one tool of a server, overriding what the server says.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct McpToolSettings {
    /// allow / deny / ask.
    pub policy: Option<Policy>,
    /// Whether calls may overlap (default: the server's `readOnlyHint`).
    pub concurrency_safe: Option<bool>,
    /// The call timeout (default: the server's).
    pub timeout_ms: Option<f64>,
}

/// An `[[mcp]]` entry as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMcpServer {
    name: Spanned<String>,
    command: Option<Spanned<Vec<String>>>,
    url: Option<Spanned<String>>,
    env: Option<Spanned<BTreeMap<String, String>>>,
    cwd: Option<Spanned<PathBuf>>,
    headers: Option<Spanned<BTreeMap<String, String>>>,
    timeout_ms: Option<Spanned<f64>>,
    startup_timeout_ms: Option<Spanned<f64>>,
    include: Option<Spanned<Vec<String>>>,
    exclude: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    tools: BTreeMap<String, Spanned<RawToolSettings>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToolSettings {
    policy: Option<Policy>,
    concurrency_safe: Option<bool>,
    timeout_ms: Option<Spanned<f64>>,
}

/// Whether `name` may name a server: ASCII letters, digits, `_` and `-`, at most 64.
pub fn is_valid_server_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl RawMcpServer {
    /// The span of the entry's name (for "declared twice" errors).
    pub(crate) fn name(&self) -> (&str, Range<usize>) {
        (self.name.get_ref(), self.name.span())
    }

    /// Checks the entry; `error(span, message)` places a problem in the file, `at(span)`
    /// is the place itself (`file:line:col`).
    pub(crate) fn check(
        self,
        base_dir: &Path,
        error: &dyn Fn(Range<usize>, String) -> Error,
        at: &dyn Fn(Range<usize>) -> String,
    ) -> Result<McpServerConfig, Error> {
        let name = self.name.get_ref().clone();
        if !is_valid_server_name(&name) {
            return Err(error(
                self.name.span(),
                format!(
                    "MCP server name {name:?} must be 1 to 64 ASCII letters, digits, `_` or `-`"
                ),
            ));
        }
        let entry = format!("MCP server `{name}`");
        let positive = |value: &Spanned<f64>, key: &str| -> Result<f64, Error> {
            let ms = *value.get_ref();
            if ms.is_finite() && ms > 0.0 && ms <= 1e12 {
                Ok(ms)
            } else {
                Err(error(
                    value.span(),
                    format!("{entry}: `{key}` must be a positive number of milliseconds, got {ms}"),
                ))
            }
        };
        let transport = match (self.command, self.url) {
            (Some(_), Some(url)) => {
                return Err(error(
                    url.span(),
                    format!(
                        "{entry}: give either `command` (stdio) or `url` (streamable HTTP), not both"
                    ),
                ));
            }
            (None, None) => {
                return Err(error(
                    self.name.span(),
                    format!(
                        "{entry}: needs `command` (a stdio server) or `url` (a streamable HTTP server)"
                    ),
                ));
            }
            (Some(command), None) => {
                if let Some(headers) = &self.headers {
                    return Err(error(
                        headers.span(),
                        format!("{entry}: `headers` is for `url` servers"),
                    ));
                }
                if command.get_ref().first().is_none_or(String::is_empty) {
                    return Err(error(
                        command.span(),
                        format!("{entry}: `command` needs at least the program"),
                    ));
                }
                let cwd = match self.cwd.map(Spanned::into_inner) {
                    Some(dir) if dir.is_absolute() => dir,
                    Some(dir) => base_dir.join(dir),
                    None => base_dir.to_path_buf(),
                };
                McpTransport::Stdio {
                    command: command.into_inner(),
                    env: self.env.map(Spanned::into_inner).unwrap_or_default(),
                    cwd,
                }
            }
            (None, Some(url)) => {
                for (key, span) in [
                    ("env", self.env.as_ref().map(Spanned::span)),
                    ("cwd", self.cwd.as_ref().map(Spanned::span)),
                ] {
                    if let Some(span) = span {
                        return Err(error(
                            span,
                            format!("{entry}: `{key}` is for `command` servers"),
                        ));
                    }
                }
                let text = url.get_ref().trim();
                let rest = text
                    .strip_prefix("http://")
                    .or_else(|| text.strip_prefix("https://"));
                if rest.is_none_or(|rest| rest.is_empty() || rest.starts_with('/')) {
                    return Err(error(
                        url.span(),
                        format!(
                            "{entry}: `url` must be an http:// or https:// address, got {text:?}"
                        ),
                    ));
                }
                let headers = self.headers.map(Spanned::into_inner).unwrap_or_default();
                for (header, value) in &headers {
                    let valid_name = !header.is_empty()
                        && header
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
                    let valid_value = value
                        .bytes()
                        .all(|b| b == b'\t' || (0x20..0x7f).contains(&b));
                    if !valid_name || !valid_value {
                        return Err(error(
                            url.span(),
                            format!(
                                "{entry}: header {header:?} is not a valid HTTP header name and value"
                            ),
                        ));
                    }
                }
                McpTransport::Http {
                    url: text.to_owned(),
                    headers,
                }
            }
        };
        let timeout_ms = match &self.timeout_ms {
            Some(value) => positive(value, "timeout_ms")?,
            None => DEFAULT_TIMEOUT_MS,
        };
        let startup_timeout_ms = match &self.startup_timeout_ms {
            Some(value) => positive(value, "startup_timeout_ms")?,
            None => DEFAULT_STARTUP_TIMEOUT_MS,
        };
        let mut tools = BTreeMap::new();
        for (tool, settings) in self.tools {
            let span = settings.span();
            let settings = settings.into_inner();
            if tool.is_empty() {
                return Err(error(
                    span,
                    format!("{entry}: a `tools` entry needs a name"),
                ));
            }
            let timeout_ms = match &settings.timeout_ms {
                Some(value) => Some(positive(value, &format!("tools.{tool}.timeout_ms"))?),
                None => None,
            };
            tools.insert(
                tool,
                McpToolSettings {
                    policy: settings.policy,
                    concurrency_safe: settings.concurrency_safe,
                    timeout_ms,
                },
            );
        }
        let filter = match (self.include, self.exclude) {
            (Some(_), Some(exclude)) => {
                return Err(error(
                    exclude.span(),
                    format!("{entry}: give either `include` or `exclude`, not both"),
                ));
            }
            (include, exclude) => {
                let list = include.as_ref().or(exclude.as_ref());
                if let Some(list) = list {
                    let key = if include.is_some() {
                        "include"
                    } else {
                        "exclude"
                    };
                    let mut seen = std::collections::BTreeSet::new();
                    for tool in list.get_ref() {
                        if tool.is_empty() {
                            return Err(error(
                                list.span(),
                                format!("{entry}: `{key}` has an empty tool name"),
                            ));
                        }
                        if !seen.insert(tool.as_str()) {
                            return Err(error(
                                list.span(),
                                format!("{entry}: `{key}` names `{tool}` twice"),
                            ));
                        }
                    }
                }
                ToolFilter {
                    place: list.map(|list| at(list.span())),
                    include: include.map(Spanned::into_inner),
                    exclude: exclude.map(Spanned::into_inner).unwrap_or_default(),
                }
            }
        };
        Ok(McpServerConfig {
            name,
            transport,
            timeout_ms,
            startup_timeout_ms,
            tools,
            filter,
        })
    }
}
