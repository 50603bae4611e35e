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
    /// is the place itself (`file:line:col`). The keys are checked one at a time, in this
    /// order, and the first problem is the error: `name`, the transport (`command` or `url`
    /// with their keys), `timeout_ms`, `startup_timeout_ms`, `tools`, `include`/`exclude`.
    pub(crate) fn check(
        self,
        base_dir: &Path,
        error: &dyn Fn(Range<usize>, String) -> Error,
        at: &dyn Fn(Range<usize>) -> String,
    ) -> Result<McpServerConfig, Error> {
        let name_span = self.name.span();
        let name = self.name.into_inner();
        if !is_valid_server_name(&name) {
            return Err(error(
                name_span,
                format!(
                    "MCP server name {name:?} must be 1 to 64 ASCII letters, digits, `_` or `-`"
                ),
            ));
        }
        let entry = Entry {
            label: format!("MCP server `{name}`"),
            error,
        };
        let transport = match (self.command, self.url) {
            (Some(_), Some(url)) => {
                return Err(entry.fail(
                    url.span(),
                    "give either `command` (stdio) or `url` (streamable HTTP), not both",
                ));
            }
            (None, None) => {
                return Err(entry.fail(
                    name_span,
                    "needs `command` (a stdio server) or `url` (a streamable HTTP server)",
                ));
            }
            (Some(command), None) => {
                entry.stdio(command, self.env, self.cwd, self.headers.as_ref(), base_dir)?
            }
            (None, Some(url)) => {
                entry.http(url, self.env.as_ref(), self.cwd.as_ref(), self.headers)?
            }
        };
        let timeout_ms = match &self.timeout_ms {
            Some(value) => entry.positive(value, "timeout_ms")?,
            None => DEFAULT_TIMEOUT_MS,
        };
        let startup_timeout_ms = match &self.startup_timeout_ms {
            Some(value) => entry.positive(value, "startup_timeout_ms")?,
            None => DEFAULT_STARTUP_TIMEOUT_MS,
        };
        Ok(McpServerConfig {
            name,
            transport,
            timeout_ms,
            startup_timeout_ms,
            tools: entry.tools(self.tools)?,
            filter: entry.filter(self.include, self.exclude, at)?,
        })
    }
}

/// One `[[mcp]]` entry being checked: its label (`MCP server `name``), which prefixes
/// every problem, and the caller's `error`, which places it in the file.
struct Entry<'a> {
    label: String,
    error: &'a dyn Fn(Range<usize>, String) -> Error,
}

impl Entry<'_> {
    /// The problem `message` of this entry, placed at `span`.
    fn fail(&self, span: Range<usize>, message: impl std::fmt::Display) -> Error {
        (self.error)(span, format!("{}: {message}", self.label))
    }

    /// A timeout (`key`): a positive, finite number of milliseconds, at most 1e12.
    fn positive(&self, value: &Spanned<f64>, key: &str) -> Result<f64, Error> {
        let ms = *value.get_ref();
        if ms.is_finite() && ms > 0.0 && ms <= 1e12 {
            Ok(ms)
        } else {
            Err(self.fail(
                value.span(),
                format!("`{key}` must be a positive number of milliseconds, got {ms}"),
            ))
        }
    }

    /// A `command` (stdio) server: no `headers`, a program, `env`, and `cwd` relative to
    /// `base_dir` (the configuration file's directory) unless absolute.
    fn stdio(
        &self,
        command: Spanned<Vec<String>>,
        env: Option<Spanned<BTreeMap<String, String>>>,
        cwd: Option<Spanned<PathBuf>>,
        headers: Option<&Spanned<BTreeMap<String, String>>>,
        base_dir: &Path,
    ) -> Result<McpTransport, Error> {
        if let Some(headers) = headers {
            return Err(self.fail(headers.span(), "`headers` is for `url` servers"));
        }
        if command.get_ref().first().is_none_or(String::is_empty) {
            return Err(self.fail(command.span(), "`command` needs at least the program"));
        }
        let cwd = match cwd.map(Spanned::into_inner) {
            Some(dir) if dir.is_absolute() => dir,
            Some(dir) => base_dir.join(dir),
            None => base_dir.to_path_buf(),
        };
        Ok(McpTransport::Stdio {
            command: command.into_inner(),
            env: env.map(Spanned::into_inner).unwrap_or_default(),
            cwd,
        })
    }

    /// A `url` (streamable HTTP) server: no `env` or `cwd`, an http(s) address, and valid
    /// `headers`.
    fn http(
        &self,
        url: Spanned<String>,
        env: Option<&Spanned<BTreeMap<String, String>>>,
        cwd: Option<&Spanned<PathBuf>>,
        headers: Option<Spanned<BTreeMap<String, String>>>,
    ) -> Result<McpTransport, Error> {
        for (key, span) in [
            ("env", env.map(Spanned::span)),
            ("cwd", cwd.map(Spanned::span)),
        ] {
            if let Some(span) = span {
                return Err(self.fail(span, format!("`{key}` is for `command` servers")));
            }
        }
        let text = self.url(&url)?;
        let headers = headers.map(Spanned::into_inner).unwrap_or_default();
        self.headers(&headers, url.span())?;
        Ok(McpTransport::Http {
            url: text.to_owned(),
            headers,
        })
    }

    /// `url`: `http://` or `https://` and a host, trimmed.
    fn url<'u>(&self, url: &'u Spanned<String>) -> Result<&'u str, Error> {
        let text = url.get_ref().trim();
        let rest = text
            .strip_prefix("http://")
            .or_else(|| text.strip_prefix("https://"));
        if rest.is_none_or(|rest| rest.is_empty() || rest.starts_with('/')) {
            return Err(self.fail(
                url.span(),
                format!("`url` must be an http:// or https:// address, got {text:?}"),
            ));
        }
        Ok(text)
    }

    /// `headers`: each a valid HTTP header name (a token) and value (visible ASCII, spaces
    /// and tabs); a problem is placed at the `url`.
    fn headers(&self, headers: &BTreeMap<String, String>, url: Range<usize>) -> Result<(), Error> {
        for (header, value) in headers {
            let valid_name = !header.is_empty()
                && header
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
            let valid_value = value
                .bytes()
                .all(|b| b == b'\t' || (0x20..0x7f).contains(&b));
            if !valid_name || !valid_value {
                return Err(self.fail(
                    url,
                    format!("header {header:?} is not a valid HTTP header name and value"),
                ));
            }
        }
        Ok(())
    }

    /// `tools`: per-tool settings, each under a non-empty name, with a positive
    /// `timeout_ms` if given.
    fn tools(
        &self,
        raw: BTreeMap<String, Spanned<RawToolSettings>>,
    ) -> Result<BTreeMap<String, McpToolSettings>, Error> {
        let mut tools = BTreeMap::new();
        for (tool, settings) in raw {
            let span = settings.span();
            let settings = settings.into_inner();
            if tool.is_empty() {
                return Err(self.fail(span, "a `tools` entry needs a name"));
            }
            let timeout_ms = match &settings.timeout_ms {
                Some(value) => Some(self.positive(value, &format!("tools.{tool}.timeout_ms"))?),
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
        Ok(tools)
    }

    /// `include` / `exclude`: at most one of them, naming no tool twice and none empty;
    /// `at` places the list for errors found when the server lists its tools.
    fn filter(
        &self,
        include: Option<Spanned<Vec<String>>>,
        exclude: Option<Spanned<Vec<String>>>,
        at: &dyn Fn(Range<usize>) -> String,
    ) -> Result<ToolFilter, Error> {
        if let (Some(_), Some(exclude)) = (&include, &exclude) {
            return Err(self.fail(
                exclude.span(),
                "give either `include` or `exclude`, not both",
            ));
        }
        let list = include.as_ref().or(exclude.as_ref());
        if let Some(list) = list {
            let key = if include.is_some() {
                "include"
            } else {
                "exclude"
            };
            self.tool_names(list, key)?;
        }
        Ok(ToolFilter {
            place: list.map(|list| at(list.span())),
            include: include.map(Spanned::into_inner),
            exclude: exclude.map(Spanned::into_inner).unwrap_or_default(),
        })
    }

    /// The tool names of an `include` or `exclude` list (`key`): none empty, none twice.
    fn tool_names(&self, list: &Spanned<Vec<String>>, key: &str) -> Result<(), Error> {
        let mut seen = std::collections::BTreeSet::new();
        for tool in list.get_ref() {
            if tool.is_empty() {
                return Err(self.fail(list.span(), format!("`{key}` has an empty tool name")));
            }
            if !seen.insert(tool.as_str()) {
                return Err(self.fail(list.span(), format!("`{key}` names `{tool}` twice")));
            }
        }
        Ok(())
    }
}
