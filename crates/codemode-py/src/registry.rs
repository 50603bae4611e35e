//! The `Registry` and `Scope` classes of `codemode._native` (the Python half wraps them in
//! `codemode.Registry` and `codemode.Scope`).
//!
//! A `Registry` is a codemode [`Registry`] with Code Mode installed over the embedded
//! JavaScript engine (wrapped to report each run's outcome), a name-policy table and an
//! optional approver. A `Scope` is one layer of it: the global layer or an agent scope;
//! tools, restrictions, guards and listeners are registered through it, and its calls
//! (`execute`, `run_code`) are asyncio awaitables (see [`crate::tokio_runtime::awaitable`]).
//! Every method runs inside the panic boundary, and the ones that do real work (schema
//! checks, SDK rendering) release the GIL while they do it.
//!
//! This module owns the Python-facing surface; results, tools, listeners and the asyncio
//! bridge live in their own modules.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use codemode::code::sdk::render_sdk_section_within;
use codemode::code::search::SearchConfig;
use codemode::code::{
    CodeMode, CodeModeConfig, PresentationMode, Program, ScopePresentation, TypeCheck, assemble,
    sdk_tools,
};
use codemode::config::Config;
use codemode::host::{Engine, Host};
use codemode::json::DepthLimit;
use codemode::registry::{Disposer, Policy, Registry, RegistryConfig, Scope};
use codemode::runtime::{EngineConfig, Language};
use codemode::tool::{ToolExecutionInput, ToolSchema};
use codemode::{Error, ErrorCode, JsonValue};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use serde_json::json;

use crate::embedder::PyEmbedder;
use crate::policies::Policies;
use crate::pycall::PyFn;
use crate::results;
use crate::session::PySession;
use crate::tokio_runtime::{OffThread, awaitable, next_call_id};
use crate::{guarded, listeners, to_py_err, tool};

/// A registry with Code Mode over the JavaScript engine.
#[pyclass(module = "codemode._native", name = "Registry", frozen)]
pub(crate) struct PyRegistry {
    core: OffThread<RegistryCore>,
    policies: Policies,
}

/// What a registry object holds (dropped off the Python thread).
struct RegistryCore {
    registry: Registry,
    code: CodeMode,
}

fn invalid_config(message: String) -> Error {
    Error::new(ErrorCode::InvalidConfig, message)
}

fn parse_mode(mode: &str) -> Result<PresentationMode, Error> {
    PresentationMode::from_str(mode)
}

fn parse_language(language: &str) -> Result<Language, Error> {
    match language {
        "typescript" => Ok(Language::TypeScript),
        "python" => Ok(Language::Python),
        other => Err(invalid_config(format!(
            "language must be `typescript` or `python`, got `{other}`"
        ))),
    }
}

/// The registry's settings, as the Python constructor passes them (a dict with every key).
#[derive(Debug, FromPyObject)]
#[pyo3(from_item_all)]
struct Settings {
    mode: String,
    compute_ms: Option<u64>,
    wall_ms: Option<u64>,
    heap_mb: Option<u64>,
    max_output_bytes: Option<u64>,
    /// The largest arguments one tool call of a program may send, in bytes.
    max_call_bytes: Option<u64>,
    warm_pool: Option<usize>,
    max_json_depth: Option<usize>,
    max_parallel_sub_calls: Option<usize>,
    typecheck: String,
    sdk_max_tokens: Option<usize>,
    /// The budget of one `describe_tools` answer (`None`: half of `sdk_max_tokens`).
    describe_max_tokens: Option<usize>,
    /// `describe_tools`' embedder: the Python half's adapter of the user's callable.
    embedder: Option<Py<PyAny>>,
    /// The model name its vectors are cached under.
    embedder_model: String,
    /// The longest a search waits for a query's vector, and for the tools' vectors.
    embedder_timeout_ms: Option<u64>,
    embedder_index_timeout_ms: Option<u64>,
    /// `typescript` or `python`: the code runtime's language.
    language: String,
    /// Run Python programs where the workers' confinement is incomplete.
    allow_unconfined: bool,
}

fn build(settings: Settings) -> Result<(Registry, CodeMode), Error> {
    let mut engine = EngineConfig::default();
    if let Some(ms) = settings.compute_ms {
        engine = engine.with_compute_ms(ms);
    }
    if let Some(ms) = settings.wall_ms {
        engine = engine.with_wall_ms(ms);
    }
    if let Some(mb) = settings.heap_mb {
        engine = engine.with_heap_mb(mb);
    }
    if let Some(bytes) = settings.max_output_bytes {
        engine = engine.with_max_output_bytes(bytes);
    }
    if let Some(bytes) = settings.max_call_bytes {
        engine = engine.with_max_call_bytes(bytes);
    }
    if let Some(pool) = settings.warm_pool {
        engine = engine.with_warm_pool(pool);
    }
    if let Some(depth) = settings.max_json_depth {
        engine = engine.with_max_json_depth(depth);
    }
    engine.validate()?;
    let mut config = CodeModeConfig::default()
        .with_mode(parse_mode(&settings.mode)?)
        .with_typecheck(TypeCheck::from_str(&settings.typecheck)?)
        .with_sdk_max_tokens(settings.sdk_max_tokens)
        .with_describe_max_tokens(settings.describe_max_tokens);
    if let Some(embedder) = settings.embedder {
        let mut search = SearchConfig::default();
        let query = settings
            .embedder_timeout_ms
            .map_or(search.query_timeout, Duration::from_millis);
        let index = settings
            .embedder_index_timeout_ms
            .map_or(search.index_timeout, Duration::from_millis);
        search = search
            .with_embedder(Some(Arc::new(PyEmbedder {
                adapter: PyFn::new(embedder, false),
                model: settings.embedder_model,
            })))
            .with_timeouts(query, index);
        config = config.with_search(search);
    }
    if let Some(limit) = settings.max_parallel_sub_calls {
        config = config.with_max_parallel_sub_calls(limit);
    }
    let depth = DepthLimit::for_programs(engine.max_json_depth)?;
    let registry = Registry::with_config(RegistryConfig::default().with_value_depth(depth));
    let code = CodeMode::install(&registry, config)?;
    // Models are given `language`; a host's `run_code(language=...)` may run the other
    // ([`crate::languages`]). Python programs run in confined workers under this process's
    // interpreter ([`crate::program_workers`]); where the confinement is incomplete that is refused,
    // as the command refuses it, unless `allow_unconfined`. Blocks while a Python probe
    // worker starts: called without the GIL.
    let language = parse_language(&settings.language)?;
    let [own, other] =
        crate::languages::code_runtimes(language, engine, settings.allow_unconfined)?;
    code.set_runtime(own)?;
    code.add_runtime(other)?;
    Ok((registry, code))
}

/// `execute`'s arguments as JSON data: a `dict` of plain data converted at once
/// ([`crate::pyjson`]), anything else through the Python half's `_arguments_text` (which
/// converts it, or raises the error that names what has no JSON form), JSON text as it is.
fn call_arguments(arguments: &Bound<'_, PyAny>) -> PyResult<JsonValue> {
    static ARGUMENTS_TEXT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let py = arguments.py();
    let text: String = if let Ok(text) = arguments.cast::<PyString>() {
        text.to_str()?.to_owned()
    } else if let Some(value @ JsonValue::Object(_)) = crate::pyjson::to_json(arguments) {
        return Ok(value);
    } else {
        ARGUMENTS_TEXT
            .import(py, "codemode._registry", "_arguments_text")?
            .call1((arguments,))?
            .extract()?
    };
    // Iterative (serde_json's own parser stops at 128 levels): the Python half wrote the
    // text from a value it checked; the pipeline checks the depth.
    codemode::json::parse_within(&text, usize::MAX).map_err(|err| {
        crate::exception(
            py,
            "INVALID_ARGS",
            &format!("the arguments are not JSON: {err}"),
        )
    })
}

/// `Registry.from_config`: the registry `codemode.toml` at `path` describes (`None`:
/// `./codemode.toml` if there is one, else the defaults: the built-in tools over the
/// working directory), built as the command builds it, MCP servers started.
async fn from_config(
    path: Option<PathBuf>,
) -> Result<(RegistryCore, JsonValue, &'static str), Error> {
    let path = path.or_else(|| Some(PathBuf::from("codemode.toml")).filter(|p| p.is_file()));
    let config = match path {
        Some(path) => Config::load(&path)?,
        None => {
            let cwd = std::env::current_dir().map_err(|err| {
                Error::new(
                    ErrorCode::HostFailed,
                    format!("cannot read the working directory: {err}"),
                )
            })?;
            Config::defaults(cwd)
        }
    };
    let language = config.language;
    let [own, other] =
        crate::languages::code_runtimes(language, config.engine, config.allow_unconfined)?;
    let host = Host::builder(config)
        .engine(Engine::Always)
        .runtime(own)
        .build()
        .await?;
    host.code_mode().add_runtime(other)?;
    let servers = crate::mcp::statuses(host.servers());
    Ok((
        RegistryCore {
            registry: host.registry().clone(),
            code: host.code_mode().clone(),
        },
        servers,
        language.as_str(),
    ))
}

impl PyRegistry {
    /// `core`, with the policy table installed in its global layer.
    fn wrap(core: RegistryCore) -> Self {
        let policies = Policies::default();
        let lookup = policies.clone();
        core.registry
            .global()
            .install_policy_lookup(move |name| {
                lookup
                    .read()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get(name)
                    .copied()
            })
            .keep();
        PyRegistry {
            core: OffThread::new(core),
            policies,
        }
    }
}

#[pymethods]
impl PyRegistry {
    /// `settings`: the Python constructor's keyword arguments, as a dict (see [`Settings`]).
    #[new]
    fn new(py: Python<'_>, settings: Settings) -> PyResult<Self> {
        guarded(py, || {
            let runtime = crate::tokio_runtime::runtime()?;
            let (registry, code) = py
                .detach(|| {
                    let _entered = runtime.enter();
                    build(settings)
                })
                .map_err(|err| to_py_err(py, &err))?;
            Ok(PyRegistry::wrap(RegistryCore { registry, code }))
        })
    }

    /// `Registry.from_config(path)`: an awaitable of `(registry, servers' status as JSON
    /// text, language)`.
    #[staticmethod]
    #[pyo3(signature = (path = None))]
    fn from_config(py: Python<'_>, path: Option<PathBuf>) -> PyResult<Bound<'_, PyAny>> {
        guarded(py, || {
            awaitable(py, next_call_id(), move |_token| async move {
                let (core, servers, language) = from_config(path)
                    .await
                    .map_err(|err| crate::to_py_err_detached(&err))?;
                Ok((PyRegistry::wrap(core), servers.to_string(), language))
            })
        })
    }

    /// The global layer.
    fn global_scope(&self) -> PyScope {
        PyScope::new(
            self.core.registry.global(),
            self.core.code.clone(),
            self.policies.clone(),
        )
    }

    /// The registry's default presentation mode.
    #[getter]
    fn mode(&self) -> &'static str {
        self.core.code.config().mode.as_str()
    }

    /// Sets (`allow`, `deny`, `ask`) or clears (`None`) the policy of the tool `name`.
    #[pyo3(signature = (name, policy))]
    fn set_policy(&self, py: Python<'_>, name: String, policy: Option<String>) -> PyResult<()> {
        guarded(py, || {
            let policy = match policy.as_deref() {
                None => None,
                Some("allow") => Some(Policy::Allow),
                Some("deny") => Some(Policy::Deny),
                Some("ask") => Some(Policy::Ask),
                Some(other) => {
                    return Err(to_py_err(
                        py,
                        &invalid_config(format!(
                            "a policy is `allow`, `deny` or `ask`, got `{other}`"
                        )),
                    ));
                }
            };
            let mut table = self
                .policies
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            match policy {
                Some(policy) => table.insert(name, policy),
                None => table.remove(&name),
            };
            Ok(())
        })
    }

    /// Installs the approver of `ask` decisions (`None`: asks are denied).
    #[pyo3(signature = (approver, is_async = false))]
    fn set_approver(
        &self,
        py: Python<'_>,
        approver: Option<Py<PyAny>>,
        is_async: bool,
    ) -> PyResult<()> {
        guarded(py, || {
            let service = approver.map(|approver| {
                Arc::new(listeners::Approver {
                    approver: PyFn::new(approver, is_async),
                }) as Arc<dyn codemode::registry::ApprovalService>
            });
            self.core.registry.set_approval_service(service);
            Ok(())
        })
    }
}

/// One layer of a registry: the global layer or an agent scope.
#[pyclass(module = "codemode._native", name = "Scope", frozen)]
pub(crate) struct PyScope {
    core: OffThread<ScopeCore>,
}

/// What a scope object holds (dropped off the Python thread).
struct ScopeCore {
    scope: Scope,
    code: CodeMode,
    policies: Policies,
}

impl PyScope {
    fn new(scope: Scope, code: CodeMode, policies: Policies) -> Self {
        PyScope {
            core: OffThread::new(ScopeCore {
                scope,
                code,
                policies,
            }),
        }
    }

    /// The codemode scope (for the benchmark hooks of [`crate::bench`]).
    pub(crate) fn scope(&self) -> &Scope {
        &self.core.scope
    }
}

/// Undoes one registration.
#[pyclass(module = "codemode._native", name = "Disposer", frozen)]
pub(crate) struct PyDisposer {
    disposer: Disposer,
}

#[pymethods]
impl PyDisposer {
    /// Undoes the registration; whether anything was removed.
    fn dispose(&self, py: Python<'_>) -> PyResult<bool> {
        guarded(py, || Ok(py.detach(|| self.disposer.dispose())))
    }
}

fn borrowed(names: Option<&[String]>) -> Option<Vec<&str>> {
    names.map(|names| names.iter().map(String::as_str).collect())
}

fn disposer(disposer: Disposer) -> PyDisposer {
    PyDisposer { disposer }
}

fn schema_json(tool: &ToolSchema) -> JsonValue {
    json!({
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
    })
}

#[pymethods]
impl PyScope {
    /// `global` for the global layer, else the agent scope's label.
    #[getter]
    fn label(&self) -> String {
        self.core.scope.label()
    }

    /// Whether this is the global layer.
    #[getter]
    fn is_global(&self) -> bool {
        self.core.scope.is_global()
    }

    /// The mode this scope presents in.
    #[getter]
    fn mode(&self, py: Python<'_>) -> PyResult<&'static str> {
        guarded(py, || Ok(self.core.scope.mode().as_str()))
    }

    /// An agent scope under this one, presenting in `mode` (`None`: as this one does).
    #[pyo3(signature = (label, mode = None))]
    fn create_scope(
        &self,
        py: Python<'_>,
        label: String,
        mode: Option<String>,
    ) -> PyResult<PyScope> {
        guarded(py, || {
            let scope = py
                .detach(|| {
                    let scope = self.core.scope.create_scope(label)?;
                    if let Some(mode) = mode {
                        let declared = parse_mode(&mode).and_then(|mode| scope.present_as(mode));
                        match declared {
                            // Removed with the scope when it closes.
                            Ok(declaration) => declaration.keep(),
                            Err(err) => {
                                scope.close();
                                return Err(err);
                            }
                        }
                    }
                    Ok(scope)
                })
                .map_err(|err| to_py_err(py, &err))?;
            Ok(PyScope::new(
                scope.into_scope(),
                self.core.code.clone(),
                self.core.policies.clone(),
            ))
        })
    }

    /// Registers a tool described by the Python half; `invoke` is its adapter.
    #[pyo3(signature = (*, name, description, input_schema, output_schema, invoke, is_async, timeout_ms = None, parallel = false))]
    #[allow(clippy::too_many_arguments)]
    fn register(
        &self,
        py: Python<'_>,
        name: String,
        description: String,
        input_schema: String,
        output_schema: Option<String>,
        invoke: Py<PyAny>,
        is_async: bool,
        timeout_ms: Option<f64>,
        parallel: bool,
    ) -> PyResult<PyDisposer> {
        guarded(py, || {
            let registered = py.detach(|| {
                let invalid = |what: &str, err: serde_json::Error| {
                    Error::new(
                        ErrorCode::InvalidDefinition,
                        format!("the {what} schema of tool `{name}` is not JSON: {err}"),
                    )
                };
                let input_schema: JsonValue =
                    serde_json::from_str(&input_schema).map_err(|err| invalid("input", err))?;
                let output_schema: Option<JsonValue> = output_schema
                    .map(|text| serde_json::from_str(&text))
                    .transpose()
                    .map_err(|err| invalid("output", err))?;
                let depth = self.core.scope.registry().config().value_depth.get();
                let definition = tool::definition(
                    tool::ToolSpec {
                        name: name.clone(),
                        description,
                        input_schema,
                        output_schema,
                        timeout_ms,
                        parallel,
                        invoke: PyFn::new(invoke, is_async),
                    },
                    depth,
                )?;
                self.core.scope.register(definition)
            });
            registered.map(disposer).map_err(|err| to_py_err(py, &err))
        })
    }

    /// Restricts what this agent scope inherits.
    #[pyo3(signature = (allow = None, deny = None))]
    fn restrict(
        &self,
        py: Python<'_>,
        allow: Option<Vec<String>>,
        deny: Option<Vec<String>>,
    ) -> PyResult<PyDisposer> {
        guarded(py, || {
            let (allow, deny) = (borrowed(allow.as_deref()), borrowed(deny.as_deref()));
            self.core
                .scope
                .restrict(allow.as_deref(), deny.as_deref())
                .map(disposer)
                .map_err(|err| to_py_err(py, &err))
        })
    }

    /// Adds a guard (a sync adapter answering a reason or `null`).
    fn guard(&self, py: Python<'_>, guard: Py<PyAny>) -> PyResult<PyDisposer> {
        guarded(py, || {
            Ok(disposer(listeners::guard(
                &self.core.scope,
                PyFn::new(guard, false),
            )))
        })
    }

    /// Adds a `tools/pre-execute` listener.
    #[pyo3(signature = (listener, is_async = false))]
    fn on_pre_execute(
        &self,
        py: Python<'_>,
        listener: Py<PyAny>,
        is_async: bool,
    ) -> PyResult<PyDisposer> {
        guarded(py, || {
            Ok(disposer(listeners::pre_execute(
                &self.core.scope,
                PyFn::new(listener, is_async),
            )))
        })
    }

    /// Adds a `tools/post-execute` listener.
    #[pyo3(signature = (listener, is_async = false))]
    fn on_post_execute(
        &self,
        py: Python<'_>,
        listener: Py<PyAny>,
        is_async: bool,
    ) -> PyResult<PyDisposer> {
        guarded(py, || {
            Ok(disposer(listeners::post_execute(
                &self.core.scope,
                PyFn::new(listener, is_async),
            )))
        })
    }

    /// Adds a `tools/execute` (around-dispatch) wrapper: an async adapter.
    fn on_execute(&self, py: Python<'_>, wrapper: Py<PyAny>) -> PyResult<PyDisposer> {
        guarded(py, || {
            Ok(disposer(listeners::around(
                &self.core.scope,
                PyFn::new(wrapper, true),
            )))
        })
    }

    /// Adds a `tools/result` observer.
    fn on_result(&self, py: Python<'_>, observer: Py<PyAny>) -> PyResult<PyDisposer> {
        guarded(py, || {
            Ok(disposer(listeners::on_result(
                &self.core.scope,
                PyFn::new(observer, false),
            )))
        })
    }

    /// Starts the MCP servers of `text` (`[[mcp]]` entries, named `path` in errors) and
    /// registers their tools in this scope: an awaitable of a `McpServers`.
    fn add_mcp_servers<'py>(
        &self,
        py: Python<'py>,
        text: String,
        path: String,
    ) -> PyResult<Bound<'py, PyAny>> {
        guarded(py, || {
            crate::mcp::add_mcp_servers(
                py,
                self.core.scope.clone(),
                self.core.policies.clone(),
                text,
                path,
            )
        })
    }

    /// The names of the tools this scope sees, sorted.
    fn tool_names(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        guarded(py, || {
            let mut names: Vec<String> = self
                .core
                .scope
                .visible_tools()
                .iter()
                .map(|tool| tool.name().to_owned())
                .collect();
            names.sort();
            Ok(names)
        })
    }

    /// The SDK text of this scope's tools in `language`.
    #[pyo3(signature = (language = "typescript".to_owned()))]
    fn sdk(&self, py: Python<'_>, language: String) -> PyResult<String> {
        guarded(py, || {
            py.detach(|| {
                let language: Language = parse_language(&language)?;
                let depth = self.core.scope.registry().config().value_depth;
                Ok(render_sdk_section_within(
                    language,
                    &sdk_tools(&self.core.scope),
                    depth,
                ))
            })
            .map_err(|err: Error| to_py_err(py, &err))
        })
    }

    /// What this scope's model is given, as JSON text: `{mode, language, tools,
    /// self_describing, outputs, sections, instructions}`.
    fn assemble(&self, py: Python<'_>) -> PyResult<String> {
        guarded(py, || {
            py.detach(|| {
                let assembly = assemble(&self.core.scope)?;
                let tools: Vec<JsonValue> = assembly.tools.iter().map(schema_json).collect();
                let described: Vec<JsonValue> = assembly
                    .self_describing_tools()
                    .iter()
                    .map(schema_json)
                    .collect();
                let sections: Vec<JsonValue> = assembly
                    .sections
                    .iter()
                    .map(|section| json!({"id": section.id, "text": section.text}))
                    .collect();
                Ok(json!({
                    "mode": assembly.mode.as_str(),
                    "language": assembly.language.map(|language| language.as_str()),
                    "tools": tools,
                    "self_describing": described,
                    "outputs": assembly.outputs,
                    "sections": sections,
                    "instructions": assembly.instructions(),
                })
                .to_string())
            })
            .map_err(|err: Error| to_py_err(py, &err))
        })
    }

    /// Closes this agent scope (its registrations, listeners and scopes under it go).
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        guarded(py, || {
            py.detach(|| self.core.scope.close());
            Ok(())
        })
    }

    /// Runs one call of `name` with `arguments` (a mapping, or JSON text) through the
    /// pipeline, as this scope's model would: an awaitable of its `codemode.ToolResult`.
    fn execute<'py>(
        &self,
        py: Python<'py>,
        name: String,
        arguments: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        guarded(py, || {
            let arguments = call_arguments(&arguments)?;
            let registry = self.core.scope.registry().clone();
            let agent = self.core.scope.id();
            let call_id = next_call_id();
            awaitable(py, call_id.clone(), move |token| async move {
                let input = ToolExecutionInput::new(call_id, name, arguments)
                    .for_agent(agent)
                    .with_signal(token);
                let started = Instant::now();
                let result = registry.execute(input).await;
                Ok(results::ToolResultObject::new(&result, started.elapsed()))
            })
        })
    }

    /// A new session: an empty store within the registry's bounds, for the runs passed it.
    fn session(&self) -> PySession {
        PySession::new(self.core.code.session_store())
    }

    /// Runs one program in a fresh scope under this one that presents in code mode: an
    /// awaitable of the run's JSON text.
    /// `language` (`typescript` or `python`; `None`: the registry's) picks the runtime;
    /// `session` (`None`: none, and `store` fails with `NO_SESSION`) is the run's session;
    /// `on_progress(done, total, message, printed)` (thread-safe: it is called on a worker
    /// thread) receives the run's progress as it runs, the last report before the answer.
    #[pyo3(signature = (code, description, keep_sub_calls = None, language = None, session = None, on_progress = None))]
    // The Python half's keyword arguments, one to one (as `register`'s).
    #[allow(clippy::too_many_arguments)]
    fn run_code<'py>(
        &self,
        py: Python<'py>,
        code: String,
        description: String,
        keep_sub_calls: Option<usize>,
        language: Option<String>,
        session: Option<PyRef<'py, PySession>>,
        on_progress: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        guarded(py, || {
            let language = language
                .map(|language| parse_language(&language))
                .transpose()
                .map_err(|err| to_py_err(py, &err))?;
            let scope = self.core.scope.clone();
            let code_mode = self.core.code.clone();
            let call_id = next_call_id();
            let session = session.map(|session| session.store().clone());
            awaitable(py, call_id.clone(), move |token| async move {
                let mut program = Program::new(code, description)
                    .with_call_id(call_id)
                    .with_signal(token)
                    .with_sub_call_limit(keep_sub_calls);
                if let Some(language) = language {
                    program = program.with_language(language);
                }
                if let Some(store) = session {
                    program = program.with_session(store);
                }
                let relay = match on_progress {
                    Some(deliver) => {
                        let (sink, relay) = crate::progress::relay(deliver);
                        program = program.with_progress(sink);
                        Some(relay)
                    }
                    None => None,
                };
                let started = Instant::now();
                let run = code_mode.run_program(&scope, program, None).await;
                let elapsed = started.elapsed();
                if let Some(relay) = relay {
                    relay.finish().await;
                }
                match run {
                    Ok(run) => Ok(results::run(&run, run.outcome.as_ref(), elapsed).to_string()),
                    Err(err) => Err(crate::to_py_err_detached(&err)),
                }
            })
        })
    }
}
