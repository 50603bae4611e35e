//! Both code runtimes behind one registry: `run_code(code, language=...)` picks the
//! language per run, as the package's API promises. Code Mode holds one runtime per
//! language ([`CodeMode::add_runtime`](codemode::code::CodeMode::add_runtime)) and a
//! program names its own ([`Program::with_language`](codemode::code::Program::with_language)):
//! nothing is passed around the pipeline.
//!
//! [`code_runtimes`] makes them: the registry's own language's runtime starts with the
//! registry (a Python registry where the workers cannot be confined is refused there, as
//! the command refuses); the other is a [`LazyRuntime`] that starts on its first run.
//!
//! This module owns starting the runtimes; it must not know about tools or results.

use std::sync::{Arc, Mutex, PoisonError};

use codemode::runtime::{
    CodeRunError, CodeRunErrorKind, CodeRunOutcome, CodeRunRequest, CodeRuntime, EngineConfig,
    JsEngine, Language,
};
use codemode::{Error, ErrorCode};
use futures::FutureExt;
use futures::future::BoxFuture;

/// The runtime of each language: `language`'s started now (blocks while a Python probe
/// worker starts: call it without the GIL), then the other's, started on its first run.
pub(crate) fn code_runtimes(
    language: Language,
    engine: EngineConfig,
    allow_unconfined: bool,
) -> Result<[Arc<dyn CodeRuntime>; 2], Error> {
    let other = match language {
        Language::TypeScript => Language::Python,
        _ => Language::TypeScript,
    };
    let own = start(language, engine, allow_unconfined)?;
    let lazy = LazyRuntime {
        language: other,
        engine,
        allow_unconfined,
        started: Arc::default(),
    };
    Ok([own, Arc::new(lazy)])
}

/// The runtime of `language` (blocks while it starts).
fn start(
    language: Language,
    engine: EngineConfig,
    allow_unconfined: bool,
) -> Result<Arc<dyn CodeRuntime>, Error> {
    match language {
        Language::Python => Ok(Arc::new(crate::program_workers::python_engine(
            engine,
            allow_unconfined,
        )?)),
        Language::TypeScript => Ok(Arc::new(JsEngine::new(engine)?)),
        other => Err(Error::new(
            ErrorCode::InvalidConfig,
            format!(
                "this build of the package does not run {} programs",
                other.as_str()
            ),
        )),
    }
}

/// A runtime started on its first run (on tokio's blocking pool).
pub(crate) struct LazyRuntime {
    language: Language,
    engine: EngineConfig,
    allow_unconfined: bool,
    /// The runtime once started (shared with the task that starts it).
    started: Arc<Mutex<Option<Arc<dyn CodeRuntime>>>>,
}

impl std::fmt::Debug for LazyRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyRuntime")
            .field("language", &self.language)
            .finish_non_exhaustive()
    }
}

impl LazyRuntime {
    fn started(&self) -> Option<Arc<dyn CodeRuntime>> {
        self.started
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl CodeRuntime for LazyRuntime {
    fn language(&self) -> Language {
        self.language
    }

    fn isolation(&self) -> &'static str {
        match self.started() {
            Some(runtime) => runtime.isolation(),
            None => "not started",
        }
    }

    fn run(&self, request: CodeRunRequest) -> BoxFuture<'static, CodeRunOutcome> {
        if let Some(runtime) = self.started() {
            return runtime.run(request);
        }
        let (language, engine, allow_unconfined) =
            (self.language, self.engine, self.allow_unconfined);
        let started = self.started.clone();
        async move {
            let made = tokio::task::spawn_blocking(move || {
                let mut slot = started.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(runtime) = &*slot {
                    return Ok(runtime.clone());
                }
                let runtime = start(language, engine, allow_unconfined)?;
                *slot = Some(runtime.clone());
                Ok::<_, Error>(runtime)
            })
            .await;
            let failed = |why: String| {
                CodeRunOutcome::failure(
                    CodeRunError::new(
                        CodeRunErrorKind::WorkerExit,
                        format!("the {} runtime did not start: {why}", language.as_str()),
                    ),
                    Vec::new(),
                )
            };
            match made {
                Ok(Ok(runtime)) => runtime.run(request).await,
                Ok(Err(err)) => failed(err.message().to_owned()),
                Err(join) => failed(join.to_string()),
            }
        }
        .boxed()
    }
}
