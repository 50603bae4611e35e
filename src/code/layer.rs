//! Code Mode as installed in a registry: its configuration, the code runtimes it runs
//! programs on (one per language; the default one's `run_code` is what models see, and a
//! host's [`Program`] may name another), and the [`ToolProvider`] through which the registry
//! sees `run_code` — reserved, provided to scopes that present in a code mode, and the only
//! tool a model may call directly in pure Code Mode.

use std::collections::HashMap;
use std::sync::Arc;

use futures::future::BoxFuture;
use parking_lot::{Mutex, RwLock};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::error::{Error, ErrorCode};
use crate::registry::{Disposer, Registry, ReservedName, Scope, ToolProvider, WeakRegistry};
use crate::runtime::js::typecheck::{CheckerConfig, TypeChecker};
use crate::runtime::{CodeRunOutcome, CodeRuntime, Language};
use crate::tool::{
    ProgressSink, ScopeId, ToolDefinition, ToolExecution, ToolExecutionInput, ToolExecutionResult,
};

use super::checks::typecheck::{ProgramChecker, TypeCheck, Verdict};
use super::index::DESCRIBE_TOOLS;
use super::index::describe::{self, PlanCache, Planned};
use super::mode::{PresentationMode, ScopePresentation};
use super::run::record::{SubCallHooks, SubCallObserver, SubCallRecord};
use super::search::{SearchConfig, SearchState};
use super::store::{SessionStore, StoreLimits};
use super::{RUN_CODE, run};

/// The smallest `describe_max_tokens` accepted (a few short declarations).
pub const MIN_DESCRIBE_MAX_TOKENS: usize = 500;

/// What Code Mode is configured with.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CodeModeConfig {
    /// The deployment's default presentation (`native`); a scope's `present_as` overrides it.
    pub mode: PresentationMode,
    /// How many sub-calls of one program may overlap (default 10; 1 = serial).
    pub max_parallel_sub_calls: usize,
    /// The budget of `run_code`'s whole description, in estimated tokens
    /// ([`estimate_tokens`](super::estimate_tokens)); over it the SDK is replaced by a
    /// compact index and `describe_tools` is offered ([`IndexStep`](super::IndexStep)).
    /// `None` (the default): no budget, the whole SDK.
    pub sdk_max_tokens: Option<usize>,
    /// Whether TypeScript programs are type-checked before they run (default
    /// [`TypeCheck::Off`]).
    pub typecheck: TypeCheck,
    /// The type checker's budgets (used unless `typecheck` is `off`).
    pub checker: CheckerConfig,
    /// The budget of one `describe_tools` answer, in estimated tokens: declarations are
    /// shortened (the largest first) and, past that, left out by name to fit it. `None`
    /// (the default): half of `sdk_max_tokens` (5,000 of the usual 10,000), so an answer
    /// never costs more than half of what the whole SDK was not allowed to.
    pub describe_max_tokens: Option<usize>,
    /// How `describe_tools` ranks: lexically, or fused with an embedder's ranking
    /// ([`SearchConfig`]).
    pub search: SearchConfig,
    /// The bounds of each session's store ([`CodeMode::session_store`]).
    pub store: StoreLimits,
}

impl Default for CodeModeConfig {
    fn default() -> Self {
        CodeModeConfig {
            mode: PresentationMode::Native,
            max_parallel_sub_calls: 10,
            sdk_max_tokens: None,
            typecheck: TypeCheck::Off,
            checker: CheckerConfig::default(),
            describe_max_tokens: None,
            search: SearchConfig::default(),
            store: StoreLimits::default(),
        }
    }
}

impl CodeModeConfig {
    /// The same configuration with another default mode.
    pub fn with_mode(mut self, mode: PresentationMode) -> Self {
        self.mode = mode;
        self
    }

    /// The same configuration with another sub-call overlap limit.
    pub fn with_max_parallel_sub_calls(mut self, limit: usize) -> Self {
        self.max_parallel_sub_calls = limit;
        self
    }

    /// The same configuration with another budget for `run_code`'s description (`None`:
    /// none).
    pub fn with_sdk_max_tokens(mut self, budget: Option<usize>) -> Self {
        self.sdk_max_tokens = budget;
        self
    }

    /// The same configuration with another type-check mode.
    pub fn with_typecheck(mut self, typecheck: TypeCheck) -> Self {
        self.typecheck = typecheck;
        self
    }

    /// The same configuration with another budget for `describe_tools` answers (`None`:
    /// half of `sdk_max_tokens`).
    pub fn with_describe_max_tokens(mut self, budget: Option<usize>) -> Self {
        self.describe_max_tokens = budget;
        self
    }

    /// The same configuration with another search setup (an embedder, its bounds).
    pub fn with_search(mut self, search: SearchConfig) -> Self {
        self.search = search;
        self
    }

    /// The budget of one `describe_tools` answer: `describe_max_tokens`, else half of
    /// `sdk_max_tokens`, else none.
    pub fn describe_budget(&self) -> Option<usize> {
        self.describe_max_tokens
            .or(self.sdk_max_tokens.map(|budget| budget / 2))
    }

    /// The same configuration with other bounds for session stores.
    pub fn with_store_limits(mut self, limits: StoreLimits) -> Self {
        self.store = limits;
        self
    }

    /// The same configuration with other type-checker budgets.
    pub fn with_checker(mut self, checker: CheckerConfig) -> Self {
        self.checker = checker;
        self
    }

    /// Checks the values: `max_parallel_sub_calls` is a positive integer (at most 1024),
    /// `sdk_max_tokens` at least [`MIN_SDK_MAX_TOKENS`](super::MIN_SDK_MAX_TOKENS), the
    /// checker's budgets in range ([`CheckerConfig::validate`]).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] when `max_parallel_sub_calls` is 0 or larger than 1024,
    /// `sdk_max_tokens` is below the minimum, a checker budget or a store bound is out of
    /// range ([`StoreLimits::validate`]); the message gives the value.
    pub fn validate(&self) -> Result<(), Error> {
        self.checker.validate()?;
        self.store.validate()?;
        if let Some(budget) = self.sdk_max_tokens
            && budget < super::MIN_SDK_MAX_TOKENS
        {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "sdk_max_tokens must be at least {}, got {budget}",
                    super::MIN_SDK_MAX_TOKENS
                ),
            ));
        }
        if let Some(budget) = self.describe_max_tokens
            && budget < MIN_DESCRIBE_MAX_TOKENS
        {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "describe_max_tokens must be at least {MIN_DESCRIBE_MAX_TOKENS}, got {budget}"
                ),
            ));
        }
        if !(1..=1024).contains(&self.max_parallel_sub_calls) {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "max_parallel_sub_calls must be a positive integer no larger than 1024, got {}",
                    self.max_parallel_sub_calls
                ),
            ));
        }
        Ok(())
    }
}

/// One program for [`CodeMode::run_program`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Program {
    /// The program: the body of an async function in the runtime's language.
    pub code: String,
    /// What the program does (the `description` argument of `run_code`).
    pub description: String,
    /// The id of the outer call (sub-calls are `<call_id>:code:<n>`). Default `run`.
    pub call_id: String,
    /// Cancels the run.
    pub signal: CancellationToken,
    /// How many settled sub-calls [`ProgramRun::sub_calls`] keeps (the first to settle);
    /// the others are only counted. `None` (the default): all of them.
    pub keep_sub_calls: Option<usize>,
    /// The program's language; `None` (the default): the default runtime's
    /// ([`CodeMode::language`]). Another language needs its runtime installed
    /// ([`CodeMode::add_runtime`]).
    pub language: Option<Language>,
    /// The store of the session the program belongs to (the global `store`); `None` (the
    /// default): the one attached to the parent scope ([`SessionStore::attach`]), if any,
    /// else none, and a program that uses `store` gets `NO_SESSION` errors.
    pub session: Option<SessionStore>,
    /// Where the run's progress goes as it runs: each `progress(...)` call of the program
    /// and each line it prints ([`Progress::printed`](crate::tool::Progress::printed)),
    /// on the engine's thread (the sink must not block; [`ProgressRelay`](crate::tool::ProgressRelay)
    /// paces it for a slower consumer). `None` (the default): `progress(...)` does nothing.
    pub progress: Option<ProgressSink>,
}

impl Program {
    /// A program with its description.
    pub fn new(code: impl Into<String>, description: impl Into<String>) -> Self {
        Program {
            code: code.into(),
            description: description.into(),
            call_id: "run".into(),
            signal: CancellationToken::new(),
            keep_sub_calls: None,
            language: None,
            session: None,
            progress: None,
        }
    }

    /// The same program, its progress reported to `sink` as it runs ([`Program::progress`]).
    pub fn with_progress(mut self, sink: ProgressSink) -> Self {
        self.progress = Some(sink);
        self
    }

    /// The same program, in the session whose store is `store`: what the program stores
    /// stays there for the session's next programs (also when this one fails).
    pub fn with_session(mut self, store: SessionStore) -> Self {
        self.session = Some(store);
        self
    }

    /// The same program, in `language`.
    pub fn with_language(mut self, language: Language) -> Self {
        self.language = Some(language);
        self
    }

    /// The same program, its run keeping at most `limit` sub-call records (`Some(0)`: none;
    /// `None`: all). A long program's records otherwise grow with every call it makes.
    pub fn with_sub_call_limit(mut self, limit: Option<usize>) -> Self {
        self.keep_sub_calls = limit;
        self
    }

    /// The same program, cancelled by `signal`.
    pub fn with_signal(mut self, signal: CancellationToken) -> Self {
        self.signal = signal;
        self
    }

    /// The same program under another outer call id.
    pub fn with_call_id(mut self, call_id: impl Into<String>) -> Self {
        self.call_id = call_id.into();
        self
    }
}

/// What [`CodeMode::run_program`] returns: the outer result and every settled sub-call in
/// submission order.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ProgramRun {
    /// The outer `run_code` result (what the model would read).
    pub result: Arc<ToolExecutionResult>,
    /// The settled sub-calls, in submission order (at most [`Program::keep_sub_calls`]).
    pub sub_calls: Vec<SubCallRecord>,
    /// How many settled sub-calls were not kept (past [`Program::keep_sub_calls`]).
    pub sub_calls_dropped: u64,
    /// What the runtime answered (logs, value or failure), when the program ran (`None`:
    /// refused before it ran: arguments, policy, the static or the type check).
    pub outcome: Option<CodeRunOutcome>,
}

/// A runtime Code Mode runs programs on, with the `run_code` definition made for it.
#[derive(Clone)]
struct Runtime {
    language: Language,
    /// The engine (its warm sandboxes are counted for monitoring).
    engine: Arc<dyn CodeRuntime>,
    definition: Arc<ToolDefinition>,
    /// `describe_tools`, offered where the SDK is replaced by the index.
    describe: Arc<ToolDefinition>,
}

/// The installed runtimes, one per language, and which language models are given.
#[derive(Default)]
struct Runtimes {
    default: Option<Language>,
    installed: Vec<Runtime>,
}

impl Runtimes {
    fn get(&self, language: Option<Language>) -> Option<&Runtime> {
        let language = language.or(self.default)?;
        self.installed.iter().find(|r| r.language == language)
    }
}

/// One [`CodeMode::run_program`] run, by the scope it runs in: its language, its sub-call
/// observer and, once the program ran, the runtime's outcome.
struct ProgramState {
    language: Option<Language>,
    observer: SubCallObserver,
    outcome: Option<CodeRunOutcome>,
}

pub(super) struct Layer {
    registry: WeakRegistry,
    config: CodeModeConfig,
    runtimes: RwLock<Runtimes>,
    observer: RwLock<Option<SubCallObserver>>,
    /// The runs of [`CodeMode::run_program`], by the scope they run in.
    runs: Mutex<HashMap<ScopeId, ProgramState>>,
    handles: Mutex<Vec<Disposer>>,
    plans: PlanCache,
    /// Tool vectors and fallback counts of `describe_tools`' semantic ranking.
    search: Arc<SearchState>,
    /// The type check before a run (`None`: `typecheck = "off"`).
    checker: Option<ProgramChecker>,
}

impl SubCallHooks for Layer {
    fn max_parallel_sub_calls(&self) -> usize {
        self.config.max_parallel_sub_calls
    }

    /// Tells the observers about one settled sub-call of a run for `agent`.
    fn observe(&self, agent: Option<ScopeId>, record: &SubCallRecord) {
        let observer = self.observer.read().clone();
        if let Some(observer) = observer {
            observer(record);
        }
        let run = agent.and_then(|agent| {
            self.runs
                .lock()
                .get(&agent)
                .map(|state| state.observer.clone())
        });
        if let Some(run) = run {
            run(record);
        }
    }

    /// Keeps the outcome of a [`CodeMode::run_program`] run for its [`ProgramRun`].
    fn settled(&self, agent: Option<ScopeId>, outcome: &CodeRunOutcome) {
        if let Some(agent) = agent
            && let Some(state) = self.runs.lock().get_mut(&agent)
        {
            state.outcome = Some(outcome.clone());
        }
    }

    /// The type check of a TypeScript program against the declarations of every tool the
    /// scope sees (also where `run_code`'s description carries only the index).
    fn check_program<'a>(
        &'a self,
        scope: &'a Scope,
        language: Language,
        program: &'a str,
    ) -> Option<BoxFuture<'a, Verdict>> {
        let checker = self.checker.as_ref()?;
        if language != Language::TypeScript {
            return None;
        }
        Some(Box::pin(async move {
            let planned = self.plans.plan(scope, language, self.config.sdk_max_tokens);
            checker.judge(&planned.declarations(), program).await
        }))
    }
}

impl Layer {
    /// The runtime of `scope`: its program's language for a [`CodeMode::run_program`] run,
    /// else the default.
    fn runtime_of(&self, scope: &Scope) -> Option<Runtime> {
        let language = scope.id().and_then(|agent| {
            self.runs
                .lock()
                .get(&agent)
                .and_then(|state| state.language)
        });
        self.runtimes.read().get(language).cloned()
    }

    fn transport(&self, scope: &Scope) -> Option<Arc<ToolDefinition>> {
        if scope.mode() == PresentationMode::Native {
            return None;
        }
        self.runtime_of(scope).map(|runtime| runtime.definition)
    }

    /// `describe_tools`, when `scope` presents in a code mode and its SDK is over budget.
    fn describe(&self, scope: &Scope) -> Option<Arc<ToolDefinition>> {
        if scope.mode() == PresentationMode::Native || self.config.sdk_max_tokens.is_none() {
            return None;
        }
        let Runtime {
            language, describe, ..
        } = self.runtime_of(scope)?;
        let planned = self.plans.plan(scope, language, self.config.sdk_max_tokens);
        planned.plan.step().map(|_| describe)
    }
}

impl ToolProvider for Layer {
    fn reserved(&self) -> Vec<ReservedName> {
        vec![
            ReservedName {
                name: RUN_CODE.to_owned(),
                what: "Code Mode's reserved transport".to_owned(),
            },
            ReservedName {
                name: DESCRIBE_TOOLS.to_owned(),
                what: "Code Mode's tool that declares tools from the index".to_owned(),
            },
        ]
    }

    fn provide(&self, scope: &Scope, name: &str) -> Option<Arc<ToolDefinition>> {
        match name {
            RUN_CODE => self.transport(scope),
            DESCRIBE_TOOLS => self.describe(scope),
            _ => None,
        }
    }

    fn provided(&self, scope: &Scope) -> Vec<Arc<ToolDefinition>> {
        let transport = self.transport(scope);
        let describe = transport.as_ref().and_then(|_| self.describe(scope));
        transport.into_iter().chain(describe).collect()
    }

    fn admit(&self, scope: &Scope, execution: &ToolExecution) -> Result<(), Error> {
        let name = execution.name.as_str();
        // A program cannot start another program, nor read declarations (the model does).
        if execution.parent.is_some() && (name == RUN_CODE || name == DESCRIBE_TOOLS) {
            return Err(Error::new(
                ErrorCode::UnknownTool,
                format!("unknown tool `{name}`"),
            ));
        }
        // In pure Code Mode a model can only call run_code; every other tool is reached
        // from a program (a sub-call, which carries a parent).
        if execution.parent.is_none()
            && name != RUN_CODE
            && name != DESCRIBE_TOOLS
            && scope.mode() == PresentationMode::Code
        {
            return Err(Error::new(
                ErrorCode::UnknownTool,
                format!("unknown tool `{name}` (in Code Mode, call tools from a run_code program)"),
            ));
        }
        Ok(())
    }
}

fn already_installed() -> Error {
    Error::new(
        ErrorCode::InvalidConfig,
        "Code Mode is already installed in this registry; use `CodeMode::of(&registry)`",
    )
}

/// How [`CodeMode::of`] finds the layer installed in a registry.
struct Installed(Arc<Layer>);

/// Code Mode in one registry: the `run_code` transport over a code runtime, the modes, and
/// what each scope's model is given ([`assemble`](super::assemble)). Cheap to clone.
///
/// ```no_run
/// use std::sync::Arc;
/// use codemode::code::{CodeMode, CodeModeConfig, PresentationMode, assemble};
/// use codemode::registry::Registry;
/// use codemode::runtime::{EngineConfig, JsEngine};
///
/// let registry = Registry::new();
/// let code = CodeMode::install(&registry, CodeModeConfig::default().with_mode(PresentationMode::Code))?;
/// code.set_runtime(Arc::new(JsEngine::new(EngineConfig::default())?))?;
/// let assembly = assemble(&registry.global())?;
/// assert_eq!(assembly.tools.len(), 1); // run_code
/// # Ok::<(), codemode::Error>(())
/// ```
#[derive(Clone)]
pub struct CodeMode {
    layer: Arc<Layer>,
}

impl std::fmt::Debug for CodeMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeMode")
            .field("config", &self.layer.config)
            .field("language", &self.language())
            .finish_non_exhaustive()
    }
}

impl CodeMode {
    /// Installs Code Mode in `registry`: `run_code` is reserved from now on, and once a
    /// runtime is set ([`CodeMode::set_runtime`]) scopes presenting in `code` or `both`
    /// resolve it. One installation per registry.
    ///
    /// # Errors
    ///
    /// Nothing is installed when
    ///
    /// - `config` is invalid ([`CodeModeConfig::validate`]): [`ErrorCode::InvalidConfig`];
    /// - Code Mode is already installed in `registry` (get it with [`CodeMode::of`]):
    ///   [`ErrorCode::InvalidConfig`];
    /// - a tool named `run_code` is already registered in the registry (any layer), or
    ///   another provider reserves the name: [`ErrorCode::InvalidDefinition`], from
    ///   [`Registry::add_provider`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use codemode::ErrorCode;
    /// use codemode::code::{CodeMode, CodeModeConfig, PresentationMode, ScopePresentation, assemble};
    /// use codemode::registry::Registry;
    /// use codemode::runtime::{EngineConfig, JsEngine};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let registry = Registry::new();
    /// // The deployment default stays `native`; one agent scope presents in `code`.
    /// let code = CodeMode::install(&registry, CodeModeConfig::default())?;
    /// code.set_runtime(Arc::new(JsEngine::new(EngineConfig::default())?))?;
    /// let agent = registry.global().create_scope("coder")?;
    /// agent.present_as(PresentationMode::Code)?.keep();
    /// assert_eq!(assemble(&agent)?.tools[0].name, "run_code");
    /// assert!(assemble(&registry.global())?.tools.is_empty());
    ///
    /// // `run_code` is reserved now, and there is one installation per registry.
    /// assert!(registry.reserved("run_code").is_some());
    /// let again = CodeMode::install(&registry, CodeModeConfig::default());
    /// assert_eq!(again.err().map(|err| err.code()), Some(ErrorCode::InvalidConfig));
    /// # Ok::<(), codemode::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn install(registry: &Registry, config: CodeModeConfig) -> Result<CodeMode, Error> {
        config.validate()?;
        if CodeMode::of(registry).is_some() {
            return Err(already_installed());
        }
        let checker = match config.typecheck {
            TypeCheck::Off => None,
            mode => Some(ProgramChecker::new(mode, TypeChecker::new(config.checker)?)),
        };
        let layer = Arc::new(Layer {
            registry: registry.downgrade(),
            config,
            runtimes: RwLock::new(Runtimes::default()),
            observer: RwLock::new(None),
            runs: Mutex::new(HashMap::new()),
            handles: Mutex::new(Vec::new()),
            plans: PlanCache::default(),
            search: Arc::new(SearchState::default()),
            checker,
        });
        // A second installation that raced past the check above is refused here: one
        // provider per reserved name.
        let provider =
            registry
                .add_provider(layer.clone())
                .map_err(|err| match CodeMode::of(registry) {
                    Some(_) => already_installed(),
                    None => err,
                })?;
        let found = registry.global().extend(Installed(layer.clone()));
        layer.handles.lock().extend([provider, found]);
        Ok(CodeMode { layer })
    }

    /// The Code Mode installed in `registry`, if any.
    pub fn of(registry: &Registry) -> Option<CodeMode> {
        registry
            .global()
            .nearest::<Installed>()
            .map(|installed| CodeMode {
                layer: installed.0.clone(),
            })
    }

    /// Removes Code Mode from its registry (`run_code` is no longer reserved or resolved).
    pub fn uninstall(&self) {
        for handle in self.layer.handles.lock().drain(..) {
            handle.dispose();
        }
    }

    /// The configuration.
    pub fn config(&self) -> &CodeModeConfig {
        &self.layer.config
    }

    /// Runs programs on `runtime` from now on, and makes its language the one models are
    /// given (`run_code`'s description and SDK); it replaces any runtime of that language
    /// set before.
    ///
    /// # Errors
    ///
    /// Infallible in practice: the `Result` carries the check of the `run_code` definition
    /// made for `runtime`'s language, whose name and schemas are fixed and valid
    /// ([`ErrorCode::InvalidDefinition`] would mean a bug of this crate). On an error the
    /// runtimes set before stay.
    pub fn set_runtime(&self, runtime: Arc<dyn CodeRuntime>) -> Result<(), Error> {
        self.install_runtime(runtime, true)
    }

    /// Adds `runtime` for programs of its language that a host runs
    /// ([`Program::with_language`]), replacing any runtime of that language; the language
    /// models are given stays (it becomes this one's when no runtime was set).
    ///
    /// # Errors
    ///
    /// As [`CodeMode::set_runtime`].
    pub fn add_runtime(&self, runtime: Arc<dyn CodeRuntime>) -> Result<(), Error> {
        self.install_runtime(runtime, false)
    }

    fn install_runtime(&self, runtime: Arc<dyn CodeRuntime>, default: bool) -> Result<(), Error> {
        let language = runtime.language();
        let definition = Arc::new(run::definition(
            self.layer.registry.clone(),
            Arc::downgrade(&self.layer) as std::sync::Weak<dyn SubCallHooks>,
            runtime.clone(),
        )?);
        let describe = Arc::new(describe::definition(self.layer.registry.clone(), language)?);
        {
            let mut runtimes = self.layer.runtimes.write();
            runtimes.installed.retain(|r| r.language != language);
            runtimes.installed.push(Runtime {
                language,
                engine: runtime,
                definition,
                describe,
            });
            if default || runtimes.default.is_none() {
                runtimes.default = Some(language);
            }
        }
        self.tools_changed();
        Ok(())
    }

    /// Removes every runtime: `run_code` is no longer provided (assembly in `code` or
    /// `both` then fails).
    pub fn clear_runtime(&self) {
        *self.layer.runtimes.write() = Runtimes::default();
        self.tools_changed();
    }

    fn tools_changed(&self) {
        if let Some(registry) = self.layer.registry.upgrade() {
            registry.notify_tools_changed();
        }
    }

    /// The language models are given (the default runtime's), if a runtime is set.
    pub fn language(&self) -> Option<Language> {
        self.layer.runtimes.read().default
    }

    /// The languages a runtime is installed for.
    pub fn languages(&self) -> Vec<Language> {
        let runtimes = self.layer.runtimes.read();
        runtimes.installed.iter().map(|r| r.language).collect()
    }

    /// What replaces `scope`'s SDK in `run_code`'s description (the whole SDK, or the index
    /// over [`CodeModeConfig::sdk_max_tokens`]), when a runtime is set.
    pub(crate) fn sdk_plan(&self, scope: &Scope) -> Option<Arc<Planned>> {
        let language = self.language()?;
        Some(
            self.layer
                .plans
                .plan(scope, language, self.layer.config.sdk_max_tokens),
        )
    }

    /// What `describe_tools` ranks and fits with: the configuration and the shared state.
    pub(crate) fn describe_setup(&self) -> (&CodeModeConfig, Arc<SearchState>) {
        (&self.layer.config, self.layer.search.clone())
    }

    /// How many `describe_tools` searches fell back to lexical ranking because the
    /// embedder failed or was slow.
    pub fn search_degraded(&self) -> u64 {
        self.layer.search.degraded()
    }

    /// How many tool vectors the semantic ranking has cached.
    pub fn cached_tool_vectors(&self) -> usize {
        self.layer.search.cache.len()
    }

    /// The sandboxes the installed engines made ahead and hold for the next runs (of the
    /// engines that keep a warm pool; `None` when none does).
    pub fn warm_sandboxes(&self) -> Option<usize> {
        let runtimes = self.layer.runtimes.read();
        runtimes
            .installed
            .iter()
            .filter_map(|runtime| runtime.engine.warm())
            .reduce(|a, b| a + b)
    }

    /// The observer of settled sub-calls installed now, if any.
    pub fn observer(&self) -> Option<SubCallObserver> {
        self.layer.observer.read().clone()
    }

    /// A new, empty store for one session, within [`CodeModeConfig::store`]'s bounds (the
    /// same as `SessionStore::new(config.store)`). Pass it with each program of the
    /// session ([`Program::with_session`]) or attach it to the session's scope
    /// ([`SessionStore::attach`]); it lives as long as a handle of it does.
    pub fn session_store(&self) -> SessionStore {
        SessionStore::new(self.layer.config.store)
    }

    /// Installs an observer of every settled sub-call of every program (`None` removes it).
    pub fn set_observer(&self, observer: Option<SubCallObserver>) {
        *self.layer.observer.write() = observer;
    }

    /// Runs one program through `run_code` and the whole pipeline, in a fresh scope that
    /// presents in `code` mode under `parent` (its tools are `parent`'s), and returns the
    /// outer result with the settled sub-calls in submission order (as many as
    /// [`Program::keep_sub_calls`] allows). `on_sub_call` observes each one as it settles,
    /// kept or not.
    ///
    /// A failed program is not an `Err`: it is `result`, a failure with
    /// [`ErrorCode::CodeRunFailed`] (or the pipeline's code for the `run_code` call itself:
    /// `UNKNOWN_TOOL` when no runtime is set, `ABORTED_BEFORE_DISPATCH`, `TOOL_DENIED`, ...),
    /// and a failed sub-call is an error inside the program.
    ///
    /// # Errors
    ///
    /// Only when the run cannot be set up, before anything runs:
    ///
    /// - `parent` is an agent scope that no longer exists (it was closed):
    ///   [`ErrorCode::InvalidDefinition`];
    /// - this Code Mode was [uninstalled](CodeMode::uninstall) from its registry:
    ///   [`ErrorCode::InvalidConfig`];
    /// - the program names a [language](Program::language) no runtime is installed for:
    ///   [`ErrorCode::InvalidConfig`].
    pub async fn run_program(
        &self,
        parent: &Scope,
        program: Program,
        on_sub_call: Option<SubCallObserver>,
    ) -> Result<ProgramRun, Error> {
        if let Some(language) = program.language
            && !self.languages().contains(&language)
        {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "no {} runtime is installed for Code Mode (CodeMode::add_runtime)",
                    language.as_str()
                ),
            ));
        }
        let scope = parent.create_scope(format!("program {}", program.call_id))?;
        let agent = scope.id();
        // Undone however this future ends (also when it is dropped mid-run).
        let guard = ProgramScope {
            layer: self.layer.clone(),
            agent,
            scope: scope.scope().clone(),
        };
        scope.present_as(PresentationMode::Code)?.keep();
        if let Some(store) = &program.session {
            // Detached when the scope closes (the guard above closes it).
            store.attach(scope.scope()).keep();
        }
        let records: Arc<Mutex<(Vec<SubCallRecord>, u64)>> = Arc::default();
        {
            let records = records.clone();
            let keep = program.keep_sub_calls.unwrap_or(usize::MAX);
            let observe: SubCallObserver = Arc::new(move |record: &SubCallRecord| {
                if let Some(observer) = &on_sub_call {
                    observer(record);
                }
                let mut records = records.lock();
                if records.0.len() < keep {
                    records.0.push(record.clone());
                } else {
                    records.1 += 1;
                }
            });
            self.layer.runs.lock().insert(
                agent,
                ProgramState {
                    language: program.language,
                    observer: observe,
                    outcome: None,
                },
            );
        }
        let mut input = ToolExecutionInput::new(
            program.call_id,
            RUN_CODE,
            json!({"code": program.code, "description": program.description}),
        )
        .for_agent(agent)
        .with_signal(program.signal);
        if let Some(sink) = program.progress {
            input = input.with_progress(sink);
        }
        let result = scope.registry().execute(input).await;
        let outcome = self
            .layer
            .runs
            .lock()
            .get_mut(&agent)
            .and_then(|state| state.outcome.take());
        drop(guard);
        let (mut sub_calls, sub_calls_dropped) = std::mem::take(&mut *records.lock());
        sub_calls.sort_by_key(|record| record.index);
        Ok(ProgramRun {
            result,
            sub_calls,
            sub_calls_dropped,
            outcome,
        })
    }
}

/// The scope of one [`CodeMode::run_program`] run: closed (with its declaration) and its
/// observer removed when dropped, however the run's future ends.
struct ProgramScope {
    layer: Arc<Layer>,
    agent: ScopeId,
    scope: Scope,
}

impl Drop for ProgramScope {
    fn drop(&mut self) {
        self.layer.runs.lock().remove(&self.agent);
        self.scope.close();
    }
}
