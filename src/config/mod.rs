//! The command's configuration file (TOML; `--config FILE`, or `codemode.toml` in the
//! working directory).
//!
//! ```toml
//! mode = "code"                  # native | code | both
//! max_parallel_sub_calls = 10
//! sdk_max_tokens = 10000         # optional: over it run_code's description carries an index
//! describe_max_tokens = 5000     # optional: one describe_tools answer's budget (see `search`)
//! [runtime]                      # every key optional
//! language = "typescript"        # typescript | python (the code runtime and SDK flavor)
//! typecheck = "warn"             # off | warn | refuse: TypeScript programs checked before they run
//! compute_ms = 60000
//! [store]                        # every key optional: the bounds of each session's store
//! max_bytes = 16777216           # keys plus values' JSON text, per session
//! max_value_bytes = 4194304      # one value's JSON text
//! max_keys = 1000
//! [[tools]]
//! name = "add"
//! description = "Add two numbers."
//! command = ["python3", "tools/add.py"]   # runs in the config file's folder unless `cwd` is set
//! parameters = { type = "object", properties = { a = { type = "number" }, b = { type = "number" } }, required = ["a", "b"] }
//! output = { type = "number" }   # optional; absent = any JSON
//! concurrency_safe = true        # optional, default false
//! timeout_ms = 5000              # optional
//! policy = "allow"               # optional: allow | deny | ask
//! [builtin]                      # the built-in file tools, on by default
//! root = "."                     # default: the working directory
//! enabled = ["read_file", "list_dir", "glob", "grep"]   # write_file, edit_file: opt-in
//! [policy]                       # per tool name: allow | deny | ask
//! write_file = "ask"
//! [[mcp]]                        # an MCP server: `command` (stdio) or `url` (streamable HTTP)
//! name = "fs"
//! command = ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."]
//! env = { KEY = "value" }        # optional; `cwd` too (relative to the file's folder)
//! timeout_ms = 60000             # optional: the call timeout of its tools
//! startup_timeout_ms = 30000     # optional: start, initialize and list within this
//! [mcp.tools.write_file]         # optional, per tool (its name on the server)
//! policy = "ask"
//! concurrency_safe = false       # default: the tool's readOnlyHint
//! timeout_ms = 5000
//! [search.embeddings]           # optional: describe_tools ranks with an embedder too (see `search`)
//! url = "http://127.0.0.1:11434/v1"
//! model = "nomic-embed-text"
//! [[serve.tokens]]               # `codemode serve --http`: bearer tokens (see `serve`)
//! name = "ci-agent"
//! sha256 = "…"                   # `codemode token hash` prints it
//! allow = ["read_file", "grep"]  # optional tool scope of the sessions it opens
//! ```
//!
//! Unknown keys and invalid values are errors that name the key, the file and the line.
//! This module owns reading and checking the file; it must not build or run anything
//! (the composition root, `host`, turns a [`Config`] into a ready host).

pub mod mcp;
pub mod search;
pub mod serve;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::code::{CodeModeConfig, PresentationMode, StoreLimits, TypeCheck};
use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;
use crate::registry::Policy;
use crate::runtime::{EngineConfig, Language};
use crate::schema::JsonSchema;
use crate::sources::builtin::BuiltinConfig;
use crate::sources::command::CommandTool;

use mcp::{McpServerConfig, RawMcpServer};
use search::{EmbeddingsConfig, RawSearch};
use serve::{RawServe, ServeToken};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    mode: Option<Spanned<String>>,
    max_parallel_sub_calls: Option<Spanned<i64>>,
    sdk_max_tokens: Option<Spanned<i64>>,
    describe_max_tokens: Option<Spanned<i64>>,
    search: Option<RawSearch>,
    runtime: Option<RawRuntime>,
    store: Option<RawStore>,
    #[serde(default)]
    tools: EntryList<RawCommandTool>,
    builtin: Option<RawBuiltin>,
    #[serde(default)]
    policy: BTreeMap<Spanned<String>, Spanned<Policy>>,
    #[serde(default)]
    mcp: EntryList<RawMcpServer>,
    serve: Option<RawServe>,
}

/// An array of tables (`[[tools]]`, `[[mcp]]`) that explains the table written by mistake
/// (`[mcp.tools.x]` before any `[[mcp]]`, `[tools.x]`) instead of serde's "expected a
/// sequence"; the error keeps the place of the key.
struct EntryList<T>(Vec<T>);

impl<T> Default for EntryList<T> {
    fn default() -> Self {
        EntryList(Vec::new())
    }
}

/// What an [`EntryList`] of `T` is called in messages.
trait Entries {
    /// The key (`mcp`, `tools`).
    const KEY: &'static str;
    /// What to write instead of a table.
    const HINT: &'static str;
}

impl Entries for RawCommandTool {
    const KEY: &'static str = "tools";
    const HINT: &'static str = "each command tool is a `[[tools]]` entry with a `name` and a `command`; \
        settings of an MCP server's tool go in `[mcp.tools.NAME]` below that server's `[[mcp]]` entry";
}

impl Entries for RawMcpServer {
    const KEY: &'static str = "mcp";
    const HINT: &'static str = "each MCP server is an `[[mcp]]` entry with a `name` and a `command` or `url`; \
        `[mcp.tools.NAME]` settings go below the `[[mcp]]` entry of the server that lists the tool";
}

impl<'de, T: Deserialize<'de> + Entries> Deserialize<'de> for EntryList<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Entries> serde::de::Visitor<'de> for Visit<T> {
            type Value = EntryList<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "`[[{}]]` entries ({})", T::KEY, T::HINT)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = seq.next_element()? {
                    entries.push(entry);
                }
                Ok(EntryList(entries))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                _map: A,
            ) -> Result<Self::Value, A::Error> {
                Err(serde::de::Error::custom(format_args!(
                    "`{key}` is a table here (`[{key}]` or `[{key}.…]`), not a list of `[[{key}]]` entries: {hint}",
                    key = T::KEY,
                    hint = T::HINT
                )))
            }
        }
        deserializer.deserialize_seq(Visit(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuiltin {
    root: Option<Spanned<PathBuf>>,
    enabled: Option<Spanned<Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuntime {
    compute_ms: Option<Spanned<u64>>,
    wall_ms: Option<Spanned<u64>>,
    heap_mb: Option<Spanned<u64>>,
    max_output_bytes: Option<Spanned<u64>>,
    warm_pool: Option<Spanned<usize>>,
    max_call_bytes: Option<Spanned<u64>>,
    max_json_depth: Option<Spanned<usize>>,
    language: Option<Spanned<String>>,
    typecheck: Option<Spanned<String>>,
    allow_unconfined: Option<bool>,
    python: Option<Spanned<String>>,
    engine: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStore {
    max_bytes: Option<Spanned<usize>>,
    max_value_bytes: Option<Spanned<usize>>,
    max_keys: Option<Spanned<usize>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCommandTool {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    command: Spanned<Vec<String>>,
    cwd: Option<PathBuf>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    parameters: Option<Spanned<JsonValue>>,
    output: Option<Spanned<JsonValue>>,
    #[serde(default)]
    concurrency_safe: bool,
    timeout_ms: Option<Spanned<f64>>,
    policy: Option<Policy>,
}

/// A checked configuration.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// The file it came from, if any.
    pub path: Option<PathBuf>,
    /// The folder relative paths are resolved against (the file's folder).
    pub base_dir: PathBuf,
    /// The presentation mode.
    pub mode: PresentationMode,
    /// How many sub-calls of one Code Mode program may overlap.
    pub max_parallel_sub_calls: usize,
    /// The budget of `run_code`'s description in estimated tokens (`sdk_max_tokens`;
    /// `None`: the whole SDK however large).
    pub sdk_max_tokens: Option<usize>,
    /// The budget of one `describe_tools` answer in estimated tokens
    /// (`describe_max_tokens`; `None`: half of `sdk_max_tokens`).
    pub describe_max_tokens: Option<usize>,
    /// `[search.embeddings]`: the embeddings endpoint of `describe_tools`' semantic ranking
    /// (`None`: lexical ranking only).
    pub embeddings: Option<EmbeddingsConfig>,
    /// The code runtime's budgets.
    pub engine: EngineConfig,
    /// The language Code Mode programs are written in (`[runtime] language`): it picks the
    /// runtime, the SDK flavor and the description of Code Mode's tool. Default TypeScript.
    pub language: Language,
    /// Whether TypeScript programs are type-checked before they run (`[runtime]
    /// typecheck`). Default off.
    pub typecheck: TypeCheck,
    /// `[store]`: the bounds of each session's store.
    pub store: StoreLimits,
    /// Run Python programs even where Landlock or seccomp is not fully enforced
    /// (`[runtime] allow_unconfined`). Default off.
    pub allow_unconfined: bool,
    /// The Python interpreter Python programs run on (`[runtime] python`): a command name
    /// looked up on `PATH` when the Python engine is made, or a path (a relative one is
    /// resolved against [`base_dir`](Self::base_dir)). `None`: `python3` on `PATH` (or what
    /// the process set as its default: the Python package names its own interpreter).
    pub python: Option<PathBuf>,
    /// Command tools.
    pub command_tools: Vec<CommandTool>,
    /// Per-tool policies.
    pub policies: BTreeMap<String, Policy>,
    /// The built-in file tools.
    pub builtin: BuiltinConfig,
    /// MCP servers.
    pub mcp: Vec<McpServerConfig>,
    /// `[[serve.tokens]]`: the bearer tokens `codemode serve --http` accepts.
    pub serve_tokens: Vec<ServeToken>,
    /// Where the file sets what only the host can check (`file:line:col`).
    places: Places,
}

/// Where the file sets what is checked only when the host is built (a `[policy]` name
/// against the tools there are, a command tool's name against the built-in tools, the
/// `[builtin] root` against the file system), so that those errors name the place too.
#[derive(Debug, Clone, Default)]
struct Places {
    /// Each `[policy]` key, with its offset in the file (for file order).
    policies: BTreeMap<String, (usize, String)>,
    /// Each command tool's `name`.
    command_tools: BTreeMap<String, String>,
    /// `[builtin] root`, with the root it resolved to.
    builtin_root: Option<(PathBuf, String)>,
}

/// Where a problem is: file, line and column.
struct Place<'a> {
    path: &'a str,
    text: &'a str,
}

impl Place<'_> {
    fn error(&self, span: std::ops::Range<usize>, message: impl std::fmt::Display) -> Error {
        Error::new(
            ErrorCode::InvalidConfig,
            format!("{}: {message}", self.at(span)),
        )
    }

    /// `file:line:column` of the start of `span`.
    fn at(&self, span: std::ops::Range<usize>) -> String {
        let before = self
            .text
            .get(..span.start.min(self.text.len()))
            .unwrap_or(self.text);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{}:{line}:{column}", self.path)
    }
}

impl Config {
    /// The configuration with no file: defaults, resolved against `base_dir`.
    pub fn defaults(base_dir: impl Into<PathBuf>) -> Config {
        Config {
            path: None,
            base_dir: base_dir.into(),
            mode: PresentationMode::Native,
            max_parallel_sub_calls: 10,
            sdk_max_tokens: None,
            describe_max_tokens: None,
            embeddings: None,
            engine: EngineConfig::default(),
            language: Language::TypeScript,
            typecheck: TypeCheck::Off,
            store: StoreLimits::default(),
            allow_unconfined: false,
            python: None,
            command_tools: Vec::new(),
            policies: BTreeMap::new(),
            builtin: BuiltinConfig::default(),
            mcp: Vec::new(),
            serve_tokens: Vec::new(),
            places: Places::default(),
        }
    }

    /// Where `[policy]` names `tool` (`file:line:col`), if the file does.
    pub(crate) fn policy_place(&self, tool: &str) -> Option<&str> {
        self.places.policies.get(tool).map(|(_, at)| at.as_str())
    }

    /// Where in the file `tool`'s `[policy]` entry starts (its byte offset; names the file
    /// does not have come last), to sort names in file order.
    pub(crate) fn policy_order(&self, tool: &str) -> usize {
        self.places
            .policies
            .get(tool)
            .map_or(usize::MAX, |(offset, _)| *offset)
    }

    /// Where the command tool `name` is named (`file:line:col`), if it came from the file.
    pub(crate) fn command_tool_place(&self, name: &str) -> Option<&str> {
        self.places.command_tools.get(name).map(String::as_str)
    }

    /// Where `[builtin] root` is set (`file:line:col`), if the file sets the root the
    /// configuration has (a host may have changed it since).
    pub(crate) fn builtin_root_place(&self) -> Option<&str> {
        self.places
            .builtin_root
            .as_ref()
            .filter(|(root, _)| *root == self.builtin.root)
            .map(|(_, at)| at.as_str())
    }

    /// Reads and checks the file at `path`.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] when the file cannot be read (`cannot read the
    /// configuration <path>: ...`, with the I/O error as the source), or as [`Config::parse`].
    pub fn load(path: &Path) -> Result<Config, Error> {
        let text = std::fs::read_to_string(path).map_err(|err| {
            Error::with_source(
                ErrorCode::InvalidConfig,
                format!("cannot read the configuration {}: {err}", path.display()),
                err,
            )
        })?;
        Self::parse(&text, path)
    }

    /// Checks configuration `text` that came from `path`. The keys are checked one at a
    /// time, in this order, and the first problem is the error: `mode`,
    /// `max_parallel_sub_calls`, `sdk_max_tokens`, `describe_max_tokens`, `[search]`, `[runtime]`, `[store]`, `[[tools]]`, `[builtin]`, `[[mcp]]`, `[serve]`, then
    /// `[policy]` (which overrides a tool's own `policy`). What only the host can check (a
    /// `[policy]` name no tool has, a command tool named like a built-in one, a `[builtin]
    /// root` that is not a directory) is refused when the host is built, at its place in the
    /// file too.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] for the first problem in the order above (TOML syntax, an
    /// unknown key, a value of the wrong type or out of range, ...), the message starting with
    /// `<path>:<line>:<column>: `, or `<path>: ` when the TOML library gives no place.
    pub fn parse(text: &str, path: &Path) -> Result<Config, Error> {
        let shown = path.display().to_string();
        let place = Place { path: &shown, text };
        let raw: RawConfig = toml::from_str(text).map_err(|err| {
            let message = err.message().to_owned();
            match err.span() {
                Some(span) => place.error(span, message),
                None => Error::new(ErrorCode::InvalidConfig, format!("{shown}: {message}")),
            }
        })?;
        let mut config = Config::defaults(base_dir_of(path));
        config.path = Some(path.to_path_buf());
        config.apply_mode(&place, raw.mode)?;
        if let Some(limit) = Self::code_mode_count(&place, raw.max_parallel_sub_calls, |c, n| {
            c.with_max_parallel_sub_calls(n)
        })? {
            config.max_parallel_sub_calls = limit;
        }
        if let Some(budget) = Self::code_mode_count(&place, raw.sdk_max_tokens, |c, n| {
            c.with_sdk_max_tokens(Some(n))
        })? {
            config.sdk_max_tokens = Some(budget);
        }
        if let Some(budget) = Self::code_mode_count(&place, raw.describe_max_tokens, |c, n| {
            c.with_describe_max_tokens(Some(n))
        })? {
            config.describe_max_tokens = Some(budget);
        }
        if let Some(search) = raw.search {
            config.embeddings = search::check(&place, search)?;
        }
        config.apply_runtime(&place, raw.runtime)?;
        config.apply_store(&place, raw.store)?;
        config.apply_tools(&place, raw.tools.0)?;
        config.apply_builtin(&place, raw.builtin)?;
        config.apply_mcp(&place, raw.mcp.0)?;
        if let Some(serve) = raw.serve {
            config.serve_tokens = serve::check(&place, serve)?;
        }
        for (name, policy) in raw.policy {
            let span = name.span();
            let name = name.into_inner();
            config
                .places
                .policies
                .insert(name.clone(), (span.start, place.at(span)));
            config.policies.insert(name, policy.into_inner());
        }
        Ok(config)
    }

    /// `mode`: a presentation mode (`native`, `code` or `both`).
    fn apply_mode(
        &mut self,
        place: &Place<'_>,
        mode: Option<Spanned<String>>,
    ) -> Result<(), Error> {
        if let Some(mode) = mode {
            self.mode = mode
                .get_ref()
                .parse()
                .map_err(|err: Error| place.error(mode.span(), err.message()))?;
        }
        Ok(())
    }

    /// A count `set` puts into a default [`CodeModeConfig`] that Code Mode's own rules
    /// accept (`max_parallel_sub_calls`, `sdk_max_tokens`, `describe_max_tokens`), or the
    /// error at its place in the file.
    fn code_mode_count(
        place: &Place<'_>,
        count: Option<Spanned<i64>>,
        set: impl FnOnce(CodeModeConfig, usize) -> CodeModeConfig,
    ) -> Result<Option<usize>, Error> {
        let Some(count) = count else {
            return Ok(None);
        };
        let value = usize::try_from(*count.get_ref()).unwrap_or(0);
        set(CodeModeConfig::default(), value)
            .validate()
            .map_err(|err| place.error(count.span(), err.message()))?;
        Ok(Some(value))
    }

    /// `[runtime]`: the `language`, `typecheck`, `allow_unconfined`, `python`, then the
    /// engine's budgets.
    fn apply_runtime(
        &mut self,
        place: &Place<'_>,
        runtime: Option<RawRuntime>,
    ) -> Result<(), Error> {
        if let Some(mut runtime) = runtime {
            if let Some(language) = runtime.language.take() {
                self.language = language
                    .get_ref()
                    .parse()
                    .map_err(|err: Error| place.error(language.span(), err.message()))?;
            }
            if let Some(typecheck) = runtime.typecheck.take() {
                self.typecheck = typecheck
                    .get_ref()
                    .parse()
                    .map_err(|err: Error| place.error(typecheck.span(), err.message()))?;
            }
            if let Some(allow) = runtime.allow_unconfined.take() {
                self.allow_unconfined = allow;
            }
            if let Some(python) = runtime.python.take() {
                let named = python.get_ref();
                if named.trim().is_empty() {
                    return Err(place.error(
                        python.span(),
                        "`python` names the Python interpreter (a command on PATH such as `python3`, or a path) and cannot be empty",
                    ));
                }
                let path = PathBuf::from(named);
                // A command name stays a name (looked up on PATH); a relative path is the
                // file's.
                self.python = Some(if named.contains('/') && path.is_relative() {
                    self.base_dir.join(path)
                } else {
                    path
                });
            }
            if let Some(engine) = runtime.engine.take() {
                check_engine(engine.get_ref())
                    .map_err(|message| place.error(engine.span(), message))?;
            }
            self.engine = engine_config(place, runtime)?;
        }
        Ok(())
    }

    /// `[[tools]]`: each command tool under a usable name declared once, its `policy` kept
    /// with the others.
    fn apply_tools(&mut self, place: &Place<'_>, tools: Vec<RawCommandTool>) -> Result<(), Error> {
        let mut seen = BTreeMap::new();
        for tool in tools {
            let name = tool.name.get_ref().clone();
            if name.is_empty() {
                return Err(place.error(tool.name.span(), "a tool needs a non-empty `name`"));
            }
            if let Some(problem) = crate::tool::tool_name_problem(&name) {
                return Err(place.error(
                    tool.name.span(),
                    format!("the tool name {name:?} cannot be used: {problem}"),
                ));
            }
            if seen.insert(name.clone(), ()).is_some() {
                return Err(place.error(
                    tool.name.span(),
                    format!("a tool named `{name}` is declared twice"),
                ));
            }
            if let Some(policy) = tool.policy {
                self.policies.insert(name.clone(), policy);
            }
            self.places
                .command_tools
                .insert(name.clone(), place.at(tool.name.span()));
            self.command_tools
                .push(command_tool(place, &self.base_dir, tool)?);
        }
        Ok(())
    }

    /// `[builtin]`: the `root` (relative to the file's folder) and the `enabled` tools, each
    /// a built-in one.
    fn apply_builtin(
        &mut self,
        place: &Place<'_>,
        builtin: Option<RawBuiltin>,
    ) -> Result<(), Error> {
        let Some(builtin) = builtin else {
            return Ok(());
        };
        if let Some(root) = builtin.root {
            let at = place.at(root.span());
            let root = root.into_inner();
            self.builtin.root = if root.is_absolute() {
                root
            } else {
                self.base_dir.join(root)
            };
            self.places.builtin_root = Some((self.builtin.root.clone(), at));
        }
        if let Some(enabled) = builtin.enabled {
            for name in enabled.get_ref() {
                if !BuiltinConfig::ALL_TOOLS.contains(&name.as_str()) {
                    return Err(place.error(
                        enabled.span(),
                        format!(
                            "unknown built-in tool `{name}` (the built-in tools are {})",
                            BuiltinConfig::ALL_TOOLS.join(", ")
                        ),
                    ));
                }
            }
            self.builtin.enabled = enabled.into_inner();
        }
        Ok(())
    }

    /// `[[mcp]]`: each server declared once, then checked by [`RawMcpServer::check`].
    fn apply_mcp(&mut self, place: &Place<'_>, servers: Vec<RawMcpServer>) -> Result<(), Error> {
        let mut seen = BTreeMap::new();
        for server in servers {
            let (name, span) = server.name();
            if seen.insert(name.to_owned(), ()).is_some() {
                return Err(place.error(
                    span,
                    format!("an MCP server named `{name}` is declared twice"),
                ));
            }
            let checked = server.check(
                &self.base_dir,
                &|span, message| place.error(span, message),
                &|span| place.at(span),
            )?;
            self.mcp.push(checked);
        }
        Ok(())
    }

    /// `[store]`: each bound given replaces its default; together they must be valid
    /// ([`StoreLimits::validate`]), else the error is at the table's first key.
    fn apply_store(&mut self, place: &Place<'_>, store: Option<RawStore>) -> Result<(), Error> {
        let Some(store) = store else {
            return Ok(());
        };
        let mut limits = self.store;
        let mut first: Option<std::ops::Range<usize>> = None;
        let mut note = |span: std::ops::Range<usize>| {
            if first.as_ref().is_none_or(|at| span.start < at.start) {
                first = Some(span);
            }
        };
        if let Some(bytes) = store.max_bytes {
            note(bytes.span());
            limits = limits.with_max_bytes(bytes.into_inner());
        }
        match store.max_value_bytes {
            Some(bytes) => {
                note(bytes.span());
                limits = limits.with_max_value_bytes(bytes.into_inner());
            }
            // A session's bound below the default value bound is the value bound too.
            None => {
                limits = limits.with_max_value_bytes(limits.max_value_bytes.min(limits.max_bytes))
            }
        }
        if let Some(keys) = store.max_keys {
            note(keys.span());
            limits = limits.with_max_keys(keys.into_inner());
        }
        limits
            .validate()
            .map_err(|err| place.error(first.clone().unwrap_or(0..0), err.message()))?;
        self.store = limits;
        Ok(())
    }

    /// The Code Mode settings of this configuration.
    pub fn code_mode_config(&self) -> CodeModeConfig {
        CodeModeConfig::default()
            .with_mode(self.mode)
            .with_max_parallel_sub_calls(self.max_parallel_sub_calls)
            .with_sdk_max_tokens(self.sdk_max_tokens)
            .with_describe_max_tokens(self.describe_max_tokens)
            .with_typecheck(self.typecheck)
            .with_store_limits(self.store)
    }
}

/// The folder of the configuration file at `path` (`.` for a bare file name).
fn base_dir_of(path: &Path) -> PathBuf {
    path.parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// `[runtime] engine`: the JavaScript engine the configuration needs, which must be the one
/// this build carries (a build carries one: the `quickjs` or the `v8` feature).
fn check_engine(wanted: &str) -> Result<(), String> {
    let built = crate::runtime::ENGINE;
    match wanted {
        "quickjs" | "v8" if wanted == built => Ok(()),
        "quickjs" | "v8" => Err(format!(
            "`engine = \"{wanted}\"`, but this codemode was built with {built}: a build carries one engine (build with `--features {wanted}`; README, Engines)"
        )),
        other => Err(format!(
            "`engine` must be \"quickjs\" or \"v8\", not {other:?}"
        )),
    }
}

fn engine_config(place: &Place<'_>, raw: RawRuntime) -> Result<EngineConfig, Error> {
    let mut config = EngineConfig::default();
    // Each value is checked alone with the engine's own rules, so an error points at its
    // line.
    fn check<T: Copy>(
        place: &Place<'_>,
        config: &mut EngineConfig,
        value: Option<Spanned<T>>,
        set: impl Fn(&mut EngineConfig, T),
    ) -> Result<(), Error> {
        if let Some(value) = value {
            let mut alone = EngineConfig::default();
            set(&mut alone, *value.get_ref());
            alone
                .validate()
                .map_err(|err| place.error(value.span(), err.message()))?;
            set(config, *value.get_ref());
        }
        Ok(())
    }
    check(place, &mut config, raw.compute_ms, |c, v| c.compute_ms = v)?;
    check(place, &mut config, raw.wall_ms, |c, v| c.wall_ms = v)?;
    check(place, &mut config, raw.heap_mb, |c, v| c.heap_mb = v)?;
    check(place, &mut config, raw.max_output_bytes, |c, v| {
        c.max_output_bytes = v
    })?;
    check(place, &mut config, raw.warm_pool, |c, v| c.warm_pool = v)?;
    check(place, &mut config, raw.max_call_bytes, |c, v| {
        c.max_call_bytes = v
    })?;
    check(place, &mut config, raw.max_json_depth, |c, v| {
        c.max_json_depth = v
    })?;
    config.validate()?;
    Ok(config)
}

fn schema_of(
    place: &Place<'_>,
    value: &Spanned<JsonValue>,
    what: &str,
) -> Result<JsonSchema, Error> {
    JsonSchema::parse(value.get_ref())
        .map_err(|err| place.error(value.span(), format!("{what}: {err}")))
}

fn command_tool(
    place: &Place<'_>,
    base_dir: &Path,
    raw: RawCommandTool,
) -> Result<CommandTool, Error> {
    let name = raw.name.get_ref().clone();
    if raw.command.get_ref().is_empty() || raw.command.get_ref()[0].is_empty() {
        return Err(place.error(
            raw.command.span(),
            format!("tool `{name}`: `command` needs at least the program"),
        ));
    }
    let parameters = match &raw.parameters {
        None => JsonSchema::parse(&serde_json::json!({"type": "object", "properties": {}}))
            .map_err(|err| Error::new(ErrorCode::InvalidConfig, err.to_string()))?,
        Some(value) => {
            let schema = schema_of(place, value, &format!("tool `{name}`: `parameters`"))?;
            schema
                .assert_object()
                .map_err(|err| {
                    place.error(value.span(), format!("tool `{name}`: `parameters`: {err}"))
                })?
                .schema()
                .clone()
        }
    };
    let output = match &raw.output {
        None => None,
        Some(value) => Some(schema_of(
            place,
            value,
            &format!("tool `{name}`: `output`"),
        )?),
    };
    if let Some(ms) = &raw.timeout_ms {
        let value = *ms.get_ref();
        if !(value.is_finite() && value > 0.0) {
            return Err(place.error(
                ms.span(),
                format!("tool `{name}`: `timeout_ms` must be a positive number of milliseconds, got {value}"),
            ));
        }
    }
    let cwd = match raw.cwd {
        Some(dir) if dir.is_absolute() => dir,
        Some(dir) => base_dir.join(dir),
        None => base_dir.to_path_buf(),
    };
    Ok(CommandTool {
        name,
        description: raw.description,
        command: raw.command.into_inner(),
        cwd,
        env: raw.env,
        parameters,
        output,
        concurrency_safe: raw.concurrency_safe,
        timeout_ms: raw.timeout_ms.map(Spanned::into_inner),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, Error> {
        Config::parse(text, Path::new("dir/codemode.toml"))
    }

    #[test]
    fn the_documented_example_parses() {
        let config = parse(
            r#"
mode = "code"
max_parallel_sub_calls = 4
[runtime]
compute_ms = 1000
warm_pool = 1
[[tools]]
name = "add"
description = "Add two numbers."
command = ["python3", "tools/add.py"]
parameters = { type = "object", properties = { a = { type = "number" }, b = { type = "number" } }, required = ["a", "b"], additionalProperties = false }
output = { type = "number" }
concurrency_safe = true
timeout_ms = 5000
policy = "allow"
"#,
        )
        .unwrap();
        assert_eq!(config.mode, PresentationMode::Code);
        assert_eq!(config.max_parallel_sub_calls, 4);
        assert_eq!(
            (config.engine.compute_ms, config.engine.warm_pool),
            (1000, 1)
        );
        let tool = &config.command_tools[0];
        assert_eq!(tool.cwd, Path::new("dir"));
        assert_eq!(tool.command, ["python3", "tools/add.py"]);
        assert!(tool.concurrency_safe);
        assert_eq!(config.policies.get("add"), Some(&Policy::Allow));
    }

    #[test]
    fn errors_name_the_key_the_file_and_the_line() {
        let err =
            parse("mode = \"code\"\n\n[[tools]]\nname = \"x\"\ncomand = [\"a\"]\n").unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidConfig);
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:5:1: unknown field `comand`"),
            "{err}"
        );
        let err = parse("mode = \"fast\"\n").unwrap_err();
        assert_eq!(
            err.message(),
            "dir/codemode.toml:1:8: mode must be `native`, `code` or `both`, got `fast`"
        );
        let config = parse("sdk_max_tokens = 10000\n").unwrap();
        assert_eq!(config.code_mode_config().sdk_max_tokens, Some(10_000));
        let err = parse("sdk_max_tokens = 10\n").unwrap_err();
        assert!(
            err.message().starts_with(
                "dir/codemode.toml:1:18: sdk_max_tokens must be at least 1000, got 10"
            ),
            "{err}"
        );
        let config = parse("sdk_max_tokens = 10000\ndescribe_max_tokens = 3000\n").unwrap();
        assert_eq!(config.code_mode_config().describe_budget(), Some(3_000));
        let err = parse("describe_max_tokens = 10\n").unwrap_err();
        assert!(
            err.message().starts_with(
                "dir/codemode.toml:1:23: describe_max_tokens must be at least 500, got 10"
            ),
            "{err}"
        );
        let config = parse(
            "[search.embeddings]\nurl = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\napi_key_env = \"KEY\"\ntimeout_ms = 500\n",
        )
        .unwrap();
        let embeddings = config.embeddings.clone().unwrap();
        assert_eq!(embeddings.url, "http://127.0.0.1:9/v1");
        assert_eq!(embeddings.model, "m");
        assert_eq!(embeddings.api_key_env.as_deref(), Some("KEY"));
        assert_eq!(
            embeddings.query_timeout,
            std::time::Duration::from_millis(500)
        );
        assert_eq!(embeddings.index_timeout, std::time::Duration::from_secs(30));
        for (text, says) in [
            (
                "[search.embeddings]\nurl = \"localhost\"\nmodel = \"m\"\n",
                "dir/codemode.toml:2:7: search.embeddings.url must be an http:// or https:// URL",
            ),
            (
                "[search.embeddings]\nurl = \"http://h/v1\"\nmodel = \"\"\n",
                "dir/codemode.toml:3:9: search.embeddings.model names the embedding model",
            ),
            (
                "[search.embeddings]\nurl = \"http://h/v1\"\nmodel = \"m\"\ntimeout_ms = 0\n",
                "dir/codemode.toml:4:14: search.embeddings.timeout_ms must be between 1 and 600000",
            ),
            (
                "[search.embeddings]\nurl = \"http://h/v1\"\n",
                "dir/codemode.toml:1:1: missing field `model`",
            ),
            (
                "[search.embeddings]\nurl = \"http://h/v1\"\nmodel = \"m\"\nkey = \"x\"\n",
                "dir/codemode.toml:4:1: unknown field `key`",
            ),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.message().starts_with(says), "{text}: {err}");
        }
        let err = parse("max_parallel_sub_calls = 0\n").unwrap_err();
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:1:26: max_parallel_sub_calls must be a positive"),
            "{err}"
        );
        let err = parse("[runtime]\nheap_mb = 1\n").unwrap_err();
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:2:11: runtime.heap_mb must be between"),
            "{err}"
        );
        let err = parse("[runtime]\nmax_json_depth = 0\n").unwrap_err();
        assert!(
            err.message().starts_with(
                "dir/codemode.toml:2:18: runtime.max_json_depth must be between 1 and"
            ),
            "{err}"
        );
        let config = parse("[runtime]\nmax_json_depth = 300\nmax_call_bytes = 4096\n").unwrap();
        assert_eq!(
            (config.engine.max_json_depth, config.engine.max_call_bytes),
            (300, 4096)
        );
        let err = parse("[runtime]\nheap = 1\n").unwrap_err();
        assert!(
            err.message().contains(":2:1: unknown field `heap`"),
            "{err}"
        );
    }

    #[test]
    fn an_unknown_language_is_named_as_the_runtime_language_at_its_place() {
        let err = parse("[runtime]\nlanguage = \"ruby\"\n").unwrap_err();
        assert_eq!(
            err.message(),
            "dir/codemode.toml:2:12: unknown runtime language `ruby` (expected `typescript` or `python`)"
        );
        let config = parse("[runtime]\nlanguage = \"python\"\n").unwrap();
        assert_eq!(config.language, Language::Python);
    }

    #[test]
    fn store_bounds_replace_their_defaults_and_are_checked_at_their_place() {
        let config = parse("[store]\nmax_keys = 50\nmax_bytes = 2000000\n").unwrap();
        assert_eq!(
            config.code_mode_config().store,
            StoreLimits::default()
                .with_max_keys(50)
                .with_max_bytes(2_000_000)
                .with_max_value_bytes(2_000_000)
        );
        let err = parse("[store]\nmax_keys = 0\n").unwrap_err();
        assert_eq!(
            err.message(),
            "dir/codemode.toml:2:12: store.max_keys must be positive, got 0"
        );
        let err = parse("[store]\nmax_bytes = 10\nmax_value_bytes = 20\n").unwrap_err();
        assert!(
            err.message().starts_with("dir/codemode.toml:2:13: store.max_value_bytes must be positive and at most store.max_bytes (10), got 20"),
            "{err}"
        );
        assert!(parse("[store]\nmax_entries = 3\n").is_err());
    }

    #[test]
    fn the_engine_named_must_be_the_one_built_in() {
        let built = crate::runtime::ENGINE;
        let other = if built == "v8" { "quickjs" } else { "v8" };
        assert!(parse(&format!("[runtime]\nengine = \"{built}\"\n")).is_ok());
        let err = parse(&format!("[runtime]\nengine = \"{other}\"\n")).unwrap_err();
        assert!(
            err.message().contains(":2:10:")
                && err.message().contains(&format!("built with {built}")),
            "{err}"
        );
        let err = parse("[runtime]\nengine = \"spidermonkey\"\n").unwrap_err();
        assert!(
            err.message().contains("must be \"quickjs\" or \"v8\""),
            "{err}"
        );
    }

    #[test]
    fn tool_declarations_are_checked() {
        let tool = |body: &str| {
            parse(&format!("[[tools]]\nname = \"t\"\n{body}\n"))
                .unwrap_err()
                .to_string()
        };
        assert!(
            tool("command = []").contains(":3:11: tool `t`: `command` needs at least the program")
        );
        assert!(tool("").contains("missing field `command`"));
        let message = tool(
            "command = [\"x\"]\nparameters = { type = \"object\", properties = { a = { type = \"string\", pattern = \"x\" } } }",
        );
        assert!(
            message.contains(":4:14: tool `t`: `parameters`: unsupported schema"),
            "{message}"
        );
        assert!(
            message.contains("unsupported keyword `pattern`"),
            "{message}"
        );
        assert!(
            tool("command = [\"x\"]\nparameters = { type = \"string\" }")
                .contains("the root must be")
        );
        assert!(
            tool("command = [\"x\"]\ntimeout_ms = -1").contains("`timeout_ms` must be a positive")
        );
        assert!(tool("command = [\"x\"]\npolicy = \"maybe\"").contains("unknown variant `maybe`"));
        let twice = parse("[[tools]]\nname = \"t\"\ncommand = [\"x\"]\n[[tools]]\nname = \"t\"\ncommand = [\"y\"]\n").unwrap_err();
        assert!(
            twice
                .message()
                .contains(":5:8: a tool named `t` is declared twice"),
            "{twice}"
        );
    }

    #[test]
    fn builtin_and_policy_tables_are_read_and_checked() {
        let config = parse("[builtin]\nroot = \"src\"\nenabled = [\"read_file\", \"write_file\"]\n[policy]\nwrite_file = \"ask\"\n").unwrap();
        assert_eq!(config.builtin.root, Path::new("dir/src"));
        assert_eq!(config.builtin.enabled, ["read_file", "write_file"]);
        assert_eq!(config.policies.get("write_file"), Some(&Policy::Ask));
        let err = parse("[builtin]\nenabled = [\"read_file\", \"rm\"]\n").unwrap_err();
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:2:11: unknown built-in tool `rm`"),
            "{err}"
        );
        let err = parse("[policy]\nx = \"sometimes\"\n").unwrap_err();
        assert!(
            err.message().contains(":2:5: unknown variant `sometimes`"),
            "{err}"
        );
        let err = parse("[policy]\nx = \"sometimes\"\n").unwrap_err();
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:2:5: unknown variant `sometimes`, expected one of `allow`, `deny`, `ask`"),
            "{err}"
        );
        let err =
            parse("[[tools]]\nname = \"t\"\ncommand = [\"x\"]\npolicy = \"maybe\"\n").unwrap_err();
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:4:10: unknown variant `maybe`, expected one of"),
            "{err}"
        );
        let err = parse("[builtin]\nroots = \".\"\n").unwrap_err();
        assert!(
            err.message().contains(":2:1: unknown field `roots`"),
            "{err}"
        );
    }

    #[test]
    fn mcp_servers_are_read_and_checked() {
        use super::mcp::McpTransport;
        let config = parse(
            r#"
[[mcp]]
name = "fs"
command = ["npx", "-y", "server-filesystem", "."]
env = { TOKEN = "x" }
cwd = "servers"
[mcp.tools.write_file]
policy = "ask"
concurrency_safe = false
timeout_ms = 5000
[[mcp]]
name = "remote-1"
url = "https://example.invalid/mcp"
headers = { Authorization = "Bearer t" }
timeout_ms = 1500
startup_timeout_ms = 2000
"#,
        )
        .unwrap();
        let fs = &config.mcp[0];
        assert_eq!(
            fs.transport,
            McpTransport::Stdio {
                command: vec![
                    "npx".into(),
                    "-y".into(),
                    "server-filesystem".into(),
                    ".".into()
                ],
                env: [("TOKEN".to_owned(), "x".to_owned())].into(),
                cwd: Path::new("dir/servers").to_path_buf(),
            }
        );
        assert_eq!(fs.timeout_ms, 60_000.0);
        let write = &fs.tools["write_file"];
        assert_eq!(write.policy, Some(Policy::Ask));
        assert_eq!(write.concurrency_safe, Some(false));
        assert_eq!(write.timeout_ms, Some(5000.0));
        let remote = &config.mcp[1];
        assert!(
            matches!(&remote.transport, McpTransport::Http { url, headers }
            if url == "https://example.invalid/mcp" && headers["Authorization"] == "Bearer t")
        );
        assert_eq!(
            (remote.timeout_ms, remote.startup_timeout_ms),
            (1500.0, 2000.0)
        );

        let err = |text: &str| parse(text).unwrap_err().to_string();
        assert!(err("[[mcp]]\nname = \"a\"\n").contains(":2:8: MCP server `a`: needs `command`"));
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\nurl = \"http://h/mcp\"\n")
                .contains(":4:7: MCP server `a`: give either `command` (stdio) or `url`")
        );
        assert!(
            err("[[mcp]]\nname = \"a b\"\ncommand = [\"x\"]\n")
                .contains("MCP server name \"a b\" must be")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = []\n")
                .contains("`command` needs at least the program")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\nurl = \"ftp://h\"\n")
                .contains("`url` must be an http:// or https:// address")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\nurl = \"http://h\"\nenv = { A = \"b\" }\n")
                .contains("`env` is for `command` servers")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\nheaders = { A = \"b\" }\n")
                .contains("`headers` is for `url` servers")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\ntimeout_ms = 0\n")
                .contains(":4:14: MCP server `a`: `timeout_ms` must be a positive")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\n[mcp.tools.t]\nconcurrency = 1\n")
                .contains("unknown field `concurrency`")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\ncomand = 1\n")
                .contains(":4:1: unknown field `comand`")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\n[[mcp]]\nname = \"a\"\ncommand = [\"y\"]\n")
                .contains(":5:8: an MCP server named `a` is declared twice")
        );
        assert_eq!(
            parse("[[mcp]]\nname = \"a\"\n").unwrap_err().code(),
            ErrorCode::InvalidConfig
        );
    }

    #[test]
    fn tables_written_instead_of_entries_say_where_the_settings_go() {
        let err = |text: &str| parse(text).unwrap_err().to_string();
        let orphan = err("[mcp.tools.write_file]\npolicy = \"deny\"\n");
        assert!(
            orphan.contains("dir/codemode.toml:1:2: `mcp` is a table here"),
            "{orphan}"
        );
        assert!(
            orphan.contains("`[mcp.tools.NAME]` settings go below the `[[mcp]]` entry of the server that lists the tool"),
            "{orphan}"
        );
        let single = err("[mcp]\nname = \"a\"\ncommand = [\"x\"]\n");
        assert!(single.contains(":1:1: `mcp` is a table here"), "{single}");
        assert!(
            single.contains("each MCP server is an `[[mcp]]` entry"),
            "{single}"
        );
        let command_tools =
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\n[tools.write_file]\npolicy = \"ask\"\n");
        assert!(
            command_tools.contains(":4:2: `tools` is a table here"),
            "{command_tools}"
        );
        assert!(
            command_tools.contains("settings of an MCP server's tool go in `[mcp.tools.NAME]`"),
            "{command_tools}"
        );
        let scalar = err("mcp = 3\n");
        assert!(
            scalar.contains(":1:7: invalid type: integer `3`, expected `[[mcp]]` entries"),
            "{scalar}"
        );
    }

    #[test]
    fn include_and_exclude_are_read_and_checked() {
        let config = parse(
            "[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\ninclude = [\"one\", \"two\"]\n[[mcp]]\nname = \"b\"\ncommand = [\"x\"]\nexclude = [\"three\"]\n[[mcp]]\nname = \"c\"\ncommand = [\"x\"]\n",
        )
        .unwrap();
        let [a, b, c] = &config.mcp[..] else {
            panic!("three servers")
        };
        assert_eq!(
            a.filter.include,
            Some(vec!["one".to_owned(), "two".to_owned()])
        );
        assert_eq!(a.filter.place.as_deref(), Some("dir/codemode.toml:4:11"));
        assert!(a.filter.admits("one") && !a.filter.admits("three"));
        assert_eq!(a.filter.unknown(&["two", "three"]), ["one"]);
        assert_eq!(b.filter.key(), Some("exclude"));
        assert!(!b.filter.admits("three") && b.filter.admits("one"));
        assert_eq!(c.filter.key(), None);
        assert!(c.filter.admits("anything"));

        let err = |text: &str| parse(text).unwrap_err().to_string();
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\ninclude = [\"t\"]\nexclude = [\"u\"]\n")
                .contains(":5:11: MCP server `a`: give either `include` or `exclude`, not both")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\nexclude = [\"t\", \"t\"]\n")
                .contains(":4:11: MCP server `a`: `exclude` names `t` twice")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\ninclude = [\"\"]\n")
                .contains(":4:11: MCP server `a`: `include` has an empty tool name")
        );
        assert!(
            err("[[mcp]]\nname = \"a\"\ncommand = [\"x\"]\ninclude = \"t\"\n")
                .contains(":4:11: invalid type: string \"t\", expected a sequence")
        );
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        let config = parse("").unwrap();
        assert_eq!(config.mode, PresentationMode::Native);
        assert_eq!(config.engine, EngineConfig::default());
    }
}
