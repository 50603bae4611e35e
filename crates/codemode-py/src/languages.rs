//! Both code runtimes behind one registry: `run_code(code, language=...)` picks the
//! language per run, as the package's API promises, while Code Mode holds one runtime.
//!
//! [`LanguageRouter`] is that runtime: it runs each program on the JavaScript engine or the
//! Python runtime ([`crate::worker::python_engine`]), by the language the run was started
//! with ([`LANGUAGE`], a task-local the `run_code` entry point sets around the run), else
//! the registry's own language (a model's `run_code` call, `execute("run_code", ...)`). Its
//! [`CodeRuntime::language`] answers the same way, so the static check of a program's tool
//! calls reads it in its own language. The registry's language's engine starts with the
//! registry (a Python registry where the workers cannot be confined is refused there, as
//! the command refuses); the other starts on its first run.
//!
//! This module owns the choice of runtime; it must not know about tools or results.

use std::sync::{Arc, Mutex, PoisonError};

use codemode::runtime::{
    CodeRunError, CodeRunErrorKind, CodeRunOutcome, CodeRunRequest, CodeRuntime, EngineConfig,
    JsEngine, Language,
};
use codemode::{Error, ErrorCode};
use futures::FutureExt;
use futures::future::BoxFuture;

tokio::task_local! {
    /// The language of the run the current task drives (set by `Scope.run_code`).
    pub(crate) static LANGUAGE: Language;
}

/// The two runtimes, each started when first needed.
pub(crate) struct LanguageRouter {
    default: Language,
    engines: Arc<Engines>,
}

/// The runtimes and what starts them.
struct Engines {
    engine: EngineConfig,
    allow_unconfined: bool,
    typescript: Mutex<Option<Arc<dyn CodeRuntime>>>,
    python: Mutex<Option<Arc<dyn CodeRuntime>>>,
}

impl std::fmt::Debug for LanguageRouter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LanguageRouter")
            .field("default", &self.default)
            .finish_non_exhaustive()
    }
}

impl LanguageRouter {
    /// A router whose own language is `default`, its engine started now (blocks while a
    /// Python probe worker starts: call it without the GIL).
    pub(crate) fn new(
        default: Language,
        engine: EngineConfig,
        allow_unconfined: bool,
    ) -> Result<Self, Error> {
        let engines = Arc::new(Engines {
            engine,
            allow_unconfined,
            typescript: Mutex::new(None),
            python: Mutex::new(None),
        });
        engines.runtime(default)?;
        Ok(LanguageRouter { default, engines })
    }

    /// The language of the run being driven, else the registry's.
    fn current(&self) -> Language {
        LANGUAGE
            .try_with(|language| *language)
            .unwrap_or(self.default)
    }
}

impl Engines {
    fn slot(&self, language: Language) -> Result<&Mutex<Option<Arc<dyn CodeRuntime>>>, Error> {
        match language {
            Language::TypeScript => Ok(&self.typescript),
            Language::Python => Ok(&self.python),
            other => Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "this build of the package does not run {} programs",
                    other.as_str()
                ),
            )),
        }
    }

    /// The runtime of `language` if it started.
    fn started(&self, language: Language) -> Option<Arc<dyn CodeRuntime>> {
        let slot = self.slot(language).ok()?;
        slot.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The runtime of `language`, started on first use (blocks while it starts).
    fn runtime(&self, language: Language) -> Result<Arc<dyn CodeRuntime>, Error> {
        let mut slot = self
            .slot(language)?
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(runtime) = &*slot {
            return Ok(runtime.clone());
        }
        let runtime: Arc<dyn CodeRuntime> = match language {
            Language::Python => Arc::new(crate::worker::python_engine(
                self.engine,
                self.allow_unconfined,
            )?),
            _ => Arc::new(JsEngine::new(self.engine)?),
        };
        *slot = Some(runtime.clone());
        Ok(runtime)
    }
}

impl CodeRuntime for LanguageRouter {
    fn language(&self) -> Language {
        self.current()
    }

    fn isolation(&self) -> &'static str {
        match self.engines.started(self.current()) {
            Some(runtime) => runtime.isolation(),
            None => "not started",
        }
    }

    fn run(&self, request: CodeRunRequest) -> BoxFuture<'static, CodeRunOutcome> {
        let language = self.current();
        if let Some(runtime) = self.engines.started(language) {
            return runtime.run(request);
        }
        // The other language's engine starts now, on tokio's blocking pool.
        let engines = self.engines.clone();
        async move {
            let started = tokio::task::spawn_blocking(move || engines.runtime(language)).await;
            let failed = |why: String| {
                CodeRunOutcome::failure(
                    CodeRunError::new(
                        CodeRunErrorKind::WorkerExit,
                        format!("the {} runtime did not start: {why}", language.as_str()),
                    ),
                    Vec::new(),
                )
            };
            match started {
                Ok(Ok(runtime)) => runtime.run(request).await,
                Ok(Err(err)) => failed(err.message().to_owned()),
                Err(join) => failed(join.to_string()),
            }
        }
        .boxed()
    }
}
