//! The composition root: one builder turns a checked [`Config`] into a ready [`Host`] — a
//! registry with every configured source's tools, the configured policies, and Code Mode
//! installed with its engine. `codemode run`, `tools`, `sdk` and `serve` all start here,
//! and so can a library host.
//!
//! ```no_run
//! use codemode::config::Config;
//! use codemode::host::Host;
//! use codemode::code::Program;
//!
//! # async fn demo() -> Result<(), codemode::Error> {
//! let config = Config::load("codemode.toml".as_ref())?;
//! let host = Host::builder(config).build().await?;
//! let run = host
//!     .run_program(Program::new("return (await tools.list_dir({path: '.'})).length", "count"), None)
//!     .await?;
//! println!("{} ({} sub-calls)", run.result.model_text(), run.sub_calls.len());
//! # Ok(()) }
//! ```
//!
//! This module owns the order things are wired in; it must not parse configuration (the
//! [`crate::config`] module does) or implement any layer it wires.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::code::{CodeMode, PresentationMode, Program, ProgramRun, SubCallObserver};
use crate::config::Config;
use crate::error::{Error, ErrorCode};
#[cfg(feature = "mcp")]
use crate::mcp::client::sync::McpPolicies;
use crate::registry::{Policy, Registry, RegistryConfig};
use crate::runtime::{CodeRuntime, JsEngine, Language};
use crate::sources::builtin::builtin_tools_at;
use crate::tool::ToolDefinition;

/// Whether the host creates a code runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Engine {
    /// When the configured mode needs one (`code` or `both`).
    #[default]
    Auto,
    /// Always (for running programs whatever the mode).
    Always,
    /// Never (listing tools, rendering the SDK).
    Never,
}

// What became of each configured MCP server (`Host::servers`).
#[cfg(feature = "mcp")]
pub use crate::mcp::client::{ServerState, ServerStatus};

/// Builds a [`Host`] from a [`Config`].
///
/// Get one from [`Host::builder`], adjust it (the engine, a runtime of your own, the
/// registry's settings), then [`build`](HostBuilder::build) it — or, for a configuration
/// without MCP servers, [`build_local`](HostBuilder::build_local), which needs no async
/// runtime.
///
/// # Examples
///
/// A configuration parsed from TOML text (relative paths resolve against the folder of the
/// path it is said to come from), built locally, and a program run on it:
///
/// ```
/// use codemode::ErrorCode;
/// use codemode::code::{Program, assemble};
/// use codemode::config::Config;
/// use codemode::host::Host;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # let root = std::env::temp_dir().join("codemode-doc-host-builder");
/// # std::fs::create_dir_all(&root).unwrap();
/// # std::fs::write(root.join("a.txt"), "one\ntwo\n").unwrap();
/// let toml = "mode = \"code\"\n[builtin]\nroot = \".\"\nenabled = [\"read_file\"]\n";
/// let config = Config::parse(toml, &root.join("codemode.toml"))?;
/// let host = Host::builder(config).build_local()?;
///
/// // In `code` mode the model is given `run_code` alone, with the SDK of `read_file`.
/// let assembly = assemble(&host.registry().global())?;
/// assert_eq!(assembly.tools.len(), 1);
/// assert_eq!(assembly.tools[0].name, "run_code");
///
/// let run = host
///     .run_program(Program::new("return (await tools.read_file({path: 'a.txt'})).total_lines", "count lines"), None)
///     .await?;
/// assert_eq!(run.result.model_text(), "2");
/// assert_eq!(run.sub_calls[0].name, "read_file");
///
/// // MCP servers are started by `build`; `build_local` refuses them.
/// let with_mcp = Config::parse("[[mcp]]\nname = \"fs\"\ncommand = [\"true\"]\n", &root.join("codemode.toml"))?;
/// let refused = Host::builder(with_mcp).build_local();
/// assert_eq!(refused.err().map(|err| err.code()), Some(ErrorCode::InvalidConfig));
/// # Ok::<(), codemode::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
#[must_use = "a builder does nothing until `build` is awaited"]
pub struct HostBuilder {
    config: Config,
    engine: Engine,
    runtime: Option<Arc<dyn CodeRuntime>>,
    registry: RegistryConfig,
    #[cfg(feature = "python")]
    python_worker: Option<crate::runtime::python::WorkerCommand>,
}

impl HostBuilder {
    /// Whether to create the engine (default: when the mode needs it).
    pub fn engine(mut self, engine: Engine) -> Self {
        self.engine = engine;
        self
    }

    /// Runs programs on `runtime` instead of creating the configured language's engine.
    pub fn runtime(mut self, runtime: Arc<dyn CodeRuntime>) -> Self {
        self.runtime = Some(runtime);
        self
    }

    /// The Python interpreter workers run on (default: the configuration's `[runtime]
    /// python`, else
    /// [`WorkerCommand::for_this_process`](crate::runtime::python::WorkerCommand::for_this_process):
    /// `python3` on `PATH` unless the process set another).
    #[cfg(feature = "python")]
    pub fn python_worker(mut self, worker: crate::runtime::python::WorkerCommand) -> Self {
        self.python_worker = Some(worker);
        self
    }

    /// The registry's own settings (default: [`RegistryConfig::default`]). Its
    /// [`value_depth`](RegistryConfig::value_depth) is the configuration's: the
    /// engines' `max_json_depth` plus [`WRAP_DEPTH`](crate::json::WRAP_DEPTH)
    /// ([`DepthLimit::for_programs`](crate::json::DepthLimit::for_programs)).
    pub fn registry_config(mut self, config: RegistryConfig) -> Self {
        self.registry = config;
        self
    }

    /// Starts every source (MCP servers concurrently), registers their tools, installs the
    /// policies and Code Mode. An MCP server that cannot be started is reported in
    /// [`Host::servers`] and logged, not an error: the other tools keep working.
    ///
    /// # Errors
    ///
    /// The first of these, in wiring order:
    ///
    /// - [`ErrorCode::InvalidConfig`] for a value [`Config::parse`] would have refused,
    ///   when the [`Config`] was built by hand (`runtime.max_json_depth`,
    ///   `max_parallel_sub_calls`);
    /// - [`ErrorCode::InvalidConfig`] for the local sources: an unknown name in
    ///   `[builtin] enabled`, a `[builtin] root` that is missing or not a directory, a
    ///   command tool with an empty `command` or with the name of an enabled built-in tool;
    ///   [`ErrorCode::InvalidDefinition`] for a command tool whose definition or
    ///   registration is refused ([`Scope::register`](crate::registry::Scope::register));
    /// - [`ErrorCode::InvalidConfig`] for an `[[mcp]]` server whose `include` / `exclude`
    ///   names a tool the server does not list, or for any `[[mcp]]` server in a build
    ///   without the `mcp` feature;
    /// - when an engine is wanted ([`Engine`]) and no [`runtime`](HostBuilder::runtime)
    ///   was given: [`ErrorCode::HostFailed`] when the engine's threads or the Python probe
    ///   worker cannot start (or this program cannot be found to start Python workers), and
    ///   [`ErrorCode::InvalidConfig`] for Python where confinement is not enforced and
    ///   `allow_unconfined` is off, or in a build without the `python` feature (see
    ///   [`JsEngine::new`] and [`PythonEngine::new`](crate::runtime::python::PythonEngine::new));
    /// - [`ErrorCode::InvalidConfig`] for a `[policy]` (or a command tool's `policy`) that
    ///   names no configured tool — except a tool of an MCP server that could not start.
    pub async fn build(self) -> Result<Host, Error> {
        let mut wiring = self.local()?;
        let registered = register_mcp(
            &wiring.config,
            &wiring.registry,
            &wiring.local,
            &mut wiring.policies,
        )
        .await?;
        #[cfg(feature = "mcp")]
        let unavailable = {
            wiring.servers = registered.servers;
            wiring.mcp_policies = registered.policies;
            registered.unavailable
        };
        #[cfg(not(feature = "mcp"))]
        let unavailable = registered;
        wiring.finish(&unavailable)
    }

    /// Like [`HostBuilder::build`] for a configuration without MCP servers, without an async
    /// runtime (a configuration with `[[mcp]]` servers is an error: they need `build`).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] when the configuration has any `[[mcp]]` server;
    /// otherwise every error of [`HostBuilder::build`] but the MCP ones.
    pub fn build_local(self) -> Result<Host, Error> {
        if !self.config.mcp.is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                "the configuration has MCP servers: build the host with `HostBuilder::build`, which starts them",
            ));
        }
        self.local()?.finish(&[])
    }

    /// The registry with Code Mode and the local sources' tools.
    fn local(self) -> Result<Wiring, Error> {
        let HostBuilder {
            config,
            engine,
            runtime,
            registry,
            #[cfg(feature = "python")]
            python_worker,
        } = self;
        // The registry's value-depth limit follows the configured one, with room for the
        // levels the library wraps values in: this host's own, whatever other hosts use.
        let depth = crate::json::DepthLimit::for_programs(config.engine.max_json_depth)?;
        let registry = Registry::with_config(registry.with_value_depth(depth));
        // Code Mode first: the names it reserves shape how the sources' tools are named.
        let code = CodeMode::install(
            &registry,
            config
                .code_mode_config()
                .with_search(search_config(&config)?),
        )?;
        let global = registry.global();
        let tools = local_tools(&config)?;
        let local: BTreeSet<String> = tools.iter().map(|tool| tool.name().to_owned()).collect();
        for tool in tools {
            global.register(tool)?.keep();
        }
        Ok(Wiring {
            policies: config.policies.clone(),
            config,
            engine,
            runtime,
            #[cfg(feature = "python")]
            python_worker,
            registry,
            code,
            local,
            #[cfg(feature = "mcp")]
            servers: Vec::new(),
            #[cfg(feature = "mcp")]
            mcp_policies: McpPolicies::default(),
        })
    }
}

/// A host being wired.
struct Wiring {
    config: Config,
    engine: Engine,
    runtime: Option<Arc<dyn CodeRuntime>>,
    #[cfg(feature = "python")]
    python_worker: Option<crate::runtime::python::WorkerCommand>,
    registry: Registry,
    code: CodeMode,
    local: BTreeSet<String>,
    policies: BTreeMap<String, Policy>,
    #[cfg(feature = "mcp")]
    servers: Vec<ServerStatus>,
    #[cfg(feature = "mcp")]
    mcp_policies: McpPolicies,
}

impl Wiring {
    /// The configured language's engine.
    fn engine_for_language(&self) -> Result<Arc<dyn CodeRuntime>, Error> {
        match self.config.language {
            Language::TypeScript => Ok(Arc::new(JsEngine::new(self.config.engine)?)),
            #[cfg(feature = "python")]
            Language::Python => {
                use crate::runtime::python::{PythonConfig, PythonEngine, WorkerCommand};
                let worker = match (&self.python_worker, &self.config.python) {
                    (Some(worker), _) => worker.clone(),
                    (None, Some(python)) => WorkerCommand::new(python),
                    (None, None) => WorkerCommand::for_this_process(),
                };
                let python =
                    PythonConfig::new(worker).with_allow_unconfined(self.config.allow_unconfined);
                Ok(Arc::new(PythonEngine::new(self.config.engine, python)?))
            }
            #[cfg(not(feature = "python"))]
            Language::Python => Err(Error::new(
                ErrorCode::InvalidConfig,
                "the configuration asks for Python programs, but this build of codemode has no Python runtime: \
                 build it with the cargo feature `python`",
            )),
        }
    }

    /// Gives Code Mode its runtime (when one is wanted), installs the policies, and makes
    /// the host.
    fn finish(mut self, unavailable: &[String]) -> Result<Host, Error> {
        let wants_engine = match self.engine {
            Engine::Always => true,
            Engine::Never => false,
            Engine::Auto => self.config.mode != PresentationMode::Native,
        };
        match self.runtime.take() {
            Some(runtime) => self.code.set_runtime(runtime)?,
            None if wants_engine => self.code.set_runtime(self.engine_for_language()?)?,
            None => {}
        }
        let policies = std::mem::take(&mut self.policies);
        install_policies(&self.config, &self.registry, policies, unavailable)?;
        Ok(Host {
            registry: self.registry,
            code: self.code,
            config: self.config,
            #[cfg(feature = "mcp")]
            servers: self.servers,
            #[cfg(feature = "mcp")]
            mcp_policies: self.mcp_policies,
        })
    }
}

/// A registry with the configured tools and policies, and Code Mode installed.
#[derive(Debug, Clone)]
pub struct Host {
    registry: Registry,
    code: CodeMode,
    config: Config,
    #[cfg(feature = "mcp")]
    servers: Vec<ServerStatus>,
    #[cfg(feature = "mcp")]
    mcp_policies: McpPolicies,
}

impl Host {
    /// A builder of the host `config` describes.
    pub fn builder(config: Config) -> HostBuilder {
        HostBuilder {
            config,
            engine: Engine::Auto,
            runtime: None,
            registry: RegistryConfig::default(),
            #[cfg(feature = "python")]
            python_worker: None,
        }
    }

    /// The registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Code Mode, as installed in the registry.
    pub fn code_mode(&self) -> &CodeMode {
        &self.code
    }

    /// The configuration it was built from.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The policy the configuration gives the tool `name`: its `[policy]` entry, else its
    /// own `policy` (a command tool's, or an MCP tool's `[mcp.tools.NAME] policy`, under
    /// the name it is registered by now), else [`Policy::Allow`], the default — what the
    /// installed policies apply to its calls.
    ///
    /// ```
    /// use codemode::config::Config;
    /// use codemode::host::Host;
    /// use codemode::registry::Policy;
    ///
    /// let config = Config::parse("[policy]\nglob = \"deny\"\n", "codemode.toml".as_ref())?;
    /// let host = Host::builder(config).build_local()?;
    /// assert_eq!(host.policy("glob"), Policy::Deny);
    /// assert_eq!(host.policy("read_file"), Policy::Allow);
    /// # Ok::<(), codemode::Error>(())
    /// ```
    pub fn policy(&self, name: &str) -> Policy {
        if let Some(policy) = self.config.policies.get(name) {
            return *policy;
        }
        #[cfg(feature = "mcp")]
        if let Some(policy) = self.mcp_policies.read().get(name) {
            return *policy;
        }
        Policy::Allow
    }

    /// What became of each configured MCP server, in configuration order.
    #[cfg(feature = "mcp")]
    pub fn servers(&self) -> &[ServerStatus] {
        &self.servers
    }

    /// Runs one program through Code Mode against the global layer's tools, whatever the
    /// configured mode (see [`CodeMode::run_program`]).
    ///
    /// Without a code runtime (a `native` configuration built with [`Engine::Auto`], or
    /// [`Engine::Never`]) the run's result is an `UNKNOWN_TOOL` failure, not an `Err`;
    /// build with [`Engine::Always`] to run programs in every mode.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] when Code Mode was uninstalled from the host's registry
    /// ([`CodeMode::uninstall`]); see [`CodeMode::run_program`]. A failed program is a
    /// failed `result`, not an `Err`.
    pub async fn run_program(
        &self,
        program: Program,
        on_sub_call: Option<SubCallObserver>,
    ) -> Result<ProgramRun, Error> {
        self.code
            .run_program(&self.registry.global(), program, on_sub_call)
            .await
    }
}

/// The tools of the built-in and command sources. Two sources declaring one name is an
/// error that names both; errors about what the file sets name its place.
fn local_tools(config: &Config) -> Result<Vec<ToolDefinition>, Error> {
    let mut tools = builtin_tools_at(&config.builtin, config.builtin_root_place())?;
    for command in &config.command_tools {
        if tools.iter().any(|t| t.name() == command.name) {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "{}the command tool `{}` has the name of a built-in tool; rename it, or leave `{}` out of `[builtin] enabled`",
                    placed(config.command_tool_place(&command.name)),
                    command.name,
                    command.name
                ),
            ));
        }
        tools.push(command.clone().into_definition()?);
    }
    Ok(tools)
}

/// `PLACE: ` for a message about what the file sets at `place`, or nothing.
fn placed(place: Option<&str>) -> String {
    place.map_or_else(String::new, |place| format!("{place}: "))
}

/// How `describe_tools` ranks: with `[search.embeddings]`, an embedder over that
/// OpenAI-compatible endpoint (its key read from the named environment variable now).
#[cfg(feature = "mcp")]
fn search_config(config: &Config) -> Result<crate::code::search::SearchConfig, Error> {
    use crate::code::search::openai::OpenAiEmbedder;
    let search = crate::code::search::SearchConfig::default();
    let Some(embeddings) = &config.embeddings else {
        return Ok(search);
    };
    let api_key = match &embeddings.api_key_env {
        Some(name) => Some(std::env::var(name).map_err(|_| {
            Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "search.embeddings.api_key_env names {name}, which is not set (or not UTF-8) in the environment"
                ),
            )
        })?),
        None => None,
    };
    let embedder = OpenAiEmbedder::new(
        &embeddings.url,
        &embeddings.model,
        api_key,
        embeddings.index_timeout.max(embeddings.query_timeout),
    )
    .map_err(|err| {
        Error::new(
            ErrorCode::InvalidConfig,
            format!("search.embeddings: {err}"),
        )
    })?;
    Ok(search
        .with_embedder(Some(Arc::new(embedder)))
        .with_timeouts(embeddings.query_timeout, embeddings.index_timeout))
}

/// Without MCP support (no HTTP client), `[search.embeddings]` cannot be used.
#[cfg(not(feature = "mcp"))]
fn search_config(config: &Config) -> Result<crate::code::search::SearchConfig, Error> {
    if config.embeddings.is_none() {
        return Ok(crate::code::search::SearchConfig::default());
    }
    Err(Error::new(
        ErrorCode::InvalidConfig,
        "the configuration has `[search.embeddings]`, but this build of codemode has no HTTP client: \
         build it with the cargo feature `mcp`",
    ))
}

/// Starts the MCP servers, registers their tools and keeps them in sync
/// ([`crate::mcp::client::sync`]); returns what it started.
#[cfg(feature = "mcp")]
async fn register_mcp(
    config: &Config,
    registry: &Registry,
    local_names: &BTreeSet<String>,
    policies: &mut BTreeMap<String, Policy>,
) -> Result<crate::mcp::client::sync::Registered, Error> {
    crate::mcp::client::sync::register(&config.mcp, registry, local_names, policies).await
}

/// Without MCP support, a configuration with MCP servers cannot be served.
#[cfg(not(feature = "mcp"))]
async fn register_mcp(
    config: &Config,
    _registry: &Registry,
    _local_names: &BTreeSet<String>,
    _policies: &mut BTreeMap<String, Policy>,
) -> Result<Vec<String>, Error> {
    if config.mcp.is_empty() {
        return Ok(Vec::new());
    }
    Err(Error::new(
        ErrorCode::InvalidConfig,
        "the configuration has `[[mcp]]` servers, but this build of codemode has no MCP support: \
         build it with the cargo feature `mcp`",
    ))
}

/// Installs the policies once every source registered its tools. A policy naming no tool
/// is an error (a typo must not leave a tool unguarded), except names in `unavailable`.
fn install_policies(
    config: &Config,
    registry: &Registry,
    policies: BTreeMap<String, Policy>,
    unavailable: &[String],
) -> Result<(), Error> {
    let global = registry.global();
    let known = global.known_names();
    let mut unknown: Vec<&String> = policies
        .keys()
        .filter(|name| !known.contains(name) && !unavailable.contains(name))
        .collect();
    // In the order the file names them: the message starts at the first one's place.
    unknown.sort_by_key(|name| config.policy_order(name));
    if let Some(first) = unknown.first() {
        let names: Vec<String> = unknown
            .iter()
            .enumerate()
            .map(|(i, name)| match config.policy_place(name) {
                Some(place) if i > 0 => format!("`{name}` ({place})"),
                _ => format!("`{name}`"),
            })
            .collect();
        let at = match config.policy_place(first) {
            Some(place) => place.to_owned(),
            None => config
                .path
                .as_ref()
                .map_or("configuration".to_owned(), |p| p.display().to_string()),
        };
        return Err(Error::new(
            ErrorCode::InvalidConfig,
            format!(
                "{at}: a policy names {} but no such tool is configured (known tools: {})",
                names.join(", "),
                known.join(", ")
            ),
        ));
    }
    if let Some(installed) = global.install_policies(policies) {
        installed.keep();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_build_refuses_mcp_servers_and_says_what_builds_them() {
        let config = Config::parse(
            "[[mcp]]\nname = \"fs\"\ncommand = [\"true\"]\n",
            std::path::Path::new("codemode.toml"),
        )
        .unwrap();
        let err = Host::builder(config).build_local().unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidConfig);
        assert!(err.message().contains("`HostBuilder::build`"), "{err}");
    }

    #[test]
    fn a_policy_naming_no_tool_is_refused_with_the_known_tools() {
        let config = Config::parse(
            "[policy]\nehco = \"deny\"\n",
            std::path::Path::new("codemode.toml"),
        )
        .unwrap();
        let err = Host::builder(config).build_local().unwrap_err();
        assert!(err.message().contains("a policy names `ehco`"), "{err}");
        assert!(err.message().contains("read_file"), "{err}");
    }

    /// What only the host can check still names the file, line and column of what the
    /// file wrote: a `[policy]` name no tool has (several: from the first, in file order),
    /// a command tool named like a built-in one, a `[builtin] root` that is not there.
    #[test]
    fn errors_found_while_building_name_their_place_in_the_file() {
        let refused = |text: &str| {
            let config = Config::parse(text, std::path::Path::new("codemode.toml")).unwrap();
            let err = Host::builder(config).build_local().unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidConfig);
            err.message().to_owned()
        };
        let message =
            refused("mode = \"native\"\n[policy]\nread_file = \"allow\"\n  ehco = \"deny\"\n");
        assert!(
            message.starts_with("codemode.toml:4:3: a policy names `ehco` but no such tool is configured (known tools: "),
            "{message}"
        );
        let message = refused("[policy]\nzz = \"deny\"\naa = \"ask\"\n");
        assert!(
            message.starts_with(
                "codemode.toml:2:1: a policy names `zz`, `aa` (codemode.toml:3:1) but no such tool"
            ),
            "{message}"
        );
        let message = refused("[[tools]]\nname = \"read_file\"\ncommand = [\"cat\"]\n");
        assert!(
            message.starts_with(
                "codemode.toml:2:8: the command tool `read_file` has the name of a built-in tool"
            ),
            "{message}"
        );
        let message = refused("[builtin]\nroot = \"no-such-root-dir-here\"\n");
        assert!(
            message.starts_with("codemode.toml:2:8: the built-in tools' root `./no-such-root-dir-here` cannot be used: "),
            "{message}"
        );
        let message = refused("[builtin]\nroot = \"Cargo.toml\"\n");
        assert!(
            message.starts_with(
                "codemode.toml:2:8: the built-in tools' root `./Cargo.toml` is not a directory"
            ),
            "{message}"
        );
    }

    /// A value nested `depth` arrays deep.
    fn nested(depth: usize) -> crate::json::JsonValue {
        let mut value = serde_json::json!(1);
        for _ in 0..depth {
            value = crate::json::JsonValue::Array(vec![value]);
        }
        value
    }

    /// A host of `[runtime] max_json_depth = depth` with a tool `echo` returning its
    /// `value` and a tool `deep` returning a value nested `returns` deep.
    fn host_of_depth(depth: usize, returns: usize) -> Host {
        let config = Config::parse(
            &format!("[runtime]\nmax_json_depth = {depth}\n"),
            std::path::Path::new("codemode.toml"),
        )
        .unwrap();
        let host = Host::builder(config)
            .engine(Engine::Never)
            .build_local()
            .unwrap();
        let global = host.registry().global();
        let echo = ToolDefinition::builder("echo")
            .description("Echo.")
            .parameters(serde_json::json!({"type": "object"}))
            .output(crate::tool::ToolOutput::any())
            .execute(|args, _| async move { Ok(crate::json::deep_clone(&args["value"])) })
            .build()
            .unwrap();
        let deep = ToolDefinition::builder("deep")
            .description("A deep value.")
            .parameters(serde_json::json!({"type": "object"}))
            .output(crate::tool::ToolOutput::any())
            .execute(move |_, _| async move { Ok(nested(returns)) })
            .build()
            .unwrap();
        global.register(echo).unwrap().keep();
        global.register(deep).unwrap().keep();
        host
    }

    #[tokio::test]
    async fn two_hosts_in_one_process_each_apply_their_own_depth_limit() {
        use crate::tool::ToolExecutionInput;
        // Limits 28 and 48 (max_json_depth + WRAP_DEPTH); a value 35 deep is between.
        let shallow = host_of_depth(20, 35);
        let deep = host_of_depth(40, 35);
        assert_eq!(shallow.registry().config().value_depth.get(), 28);
        assert_eq!(deep.registry().config().value_depth.get(), 48);
        // Built after the shallow host, the deep one changed nothing of it (and the other
        // way round): each call below goes to both, in both orders.
        for hosts in [[&shallow, &deep], [&deep, &shallow]] {
            for host in hosts {
                let registry = host.registry();
                let limit = registry.config().value_depth.get();
                let args = serde_json::json!({"value": nested(34)});
                let echoed = registry
                    .execute(ToolExecutionInput::new("c", "echo", args))
                    .await;
                let returned = registry
                    .execute(ToolExecutionInput::new("c", "deep", serde_json::json!({})))
                    .await;
                if limit == 28 {
                    // Arguments: the value sits one level inside them.
                    let info = echoed.failure_info().unwrap();
                    assert_eq!(info.code, ErrorCode::InvalidArgs);
                    assert!(
                        echoed.model_text().contains("nest deeper than 28 levels"),
                        "{}",
                        echoed.model_text()
                    );
                    let info = returned.failure_info().unwrap();
                    assert_eq!(info.code, ErrorCode::InvalidToolOutput);
                    assert!(
                        returned.model_text().contains("nest deeper than 28 levels"),
                        "{}",
                        returned.model_text()
                    );
                } else {
                    assert_eq!(echoed.value(), Some(&nested(34)), "{}", echoed.model_text());
                    assert_eq!(
                        returned.value(),
                        Some(&nested(35)),
                        "{}",
                        returned.model_text()
                    );
                }
            }
        }
    }
}
