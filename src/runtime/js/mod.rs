//! [`JsEngine`]: the JavaScript engine — the deno_core code runtime (QuickJS by default, V8
//! by feature) — and [`strip`], which turns the TypeScript the model wrote into the
//! JavaScript it runs.
//!
//! Each run gets a fresh sandbox (a bare isolate and context with the bootstrap of
//! `js-runtime/` loaded: `sandbox`, its host functions: `natives`, on V8 the budget of its
//! `ArrayBuffer`s: `buffers`) on its own engine
//! thread, from a warm pool (`pool`); the program runs there under its budgets (`budget`)
//! driven by the run's own event loop (`event_loop`, `timers`). No deno_core `JsRuntime`
//! is created and no op exists. The caller's side of a run lives here: it
//! submits the job, forwards the caller's cancellation, turns a vanished engine thread
//! into a `worker-exit` outcome that still carries the logs, and, once the run is stopped,
//! waits at most [`STOP_GRACE`] for the engine to end it: a single long engine operation
//! (a huge sort, a regular expression, a collection over a large heap) cannot delay the
//! answer, and its thread is written off instead.
//!
//! This module owns the public engine type; it must not know about tools or the registry.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::sync::oneshot;

use super::{
    CodeRunError, CodeRunErrorKind, CodeRunOutcome, CodeRunRequest, CodeRuntime, EngineConfig,
    Language,
};
use crate::error::{Error, ErrorCode};

mod budget;
#[cfg(feature = "v8")]
mod buffers;
mod clock;
mod event_loop;
mod natives;
mod pool;
mod run;
mod sandbox;
mod scripts;
#[cfg(feature = "v8")]
mod snapshot;
pub mod strip;
mod threads;
mod timers;
pub mod typecheck;

use crate::runtime::ledger::Ledger;
use budget::{RunStop, StopReason, Watchdog};
use pool::Pool;
use run::{Job, written_off_outcome};

/// How long the caller waits for a stopped run to end before it answers without it.
pub const STOP_GRACE: Duration = Duration::from_millis(100);

/// The JavaScript engine this build runs programs on: `"quickjs"` (the default feature) or
/// `"v8"` (the `v8` feature). deno_core links one V8 API, so a build carries one engine.
pub const ENGINE: &str = if cfg!(feature = "v8") {
    "v8"
} else {
    "quickjs"
};

/// The JavaScript/TypeScript code runtime.
///
/// ```no_run
/// use codemode::runtime::{CodeRunRequest, CodeRuntime, EngineConfig, JsEngine};
/// # async fn demo() -> Result<(), codemode::Error> {
/// let engine = JsEngine::new(EngineConfig::default())?;
/// let outcome = engine
///     .run(CodeRunRequest::new(
///         "const n: number = 2; console.log('hi'); return n * 21;",
///         vec![],
///     ))
///     .await;
/// assert_eq!(outcome.value, Some(serde_json::json!(42)));
/// assert_eq!(outcome.logs, ["hi"]);
/// # Ok(()) }
/// ```
pub struct JsEngine {
    pool: Arc<Pool>,
    config: EngineConfig,
}

impl JsEngine {
    /// Validates `config` (`INVALID_CONFIG` naming the field) and starts the engine: its
    /// watchdog thread and the warm pool.
    ///
    /// # Errors
    ///
    /// - [`ErrorCode::InvalidConfig`] when `config` is out of range
    ///   ([`EngineConfig::validate`]; the message names the field).
    /// - [`ErrorCode::HostFailed`] when the operating system refuses to start the engine's
    ///   watchdog thread (the I/O error is the error's [`source`](std::error::Error::source)).
    ///
    /// The warm pool fills in the background and never fails here.
    pub fn new(config: EngineConfig) -> Result<JsEngine, Error> {
        config.validate()?;
        let watchdog = Watchdog::start().map_err(|err| {
            Error::with_source(
                ErrorCode::HostFailed,
                format!("the engine's watchdog thread could not start: {err}"),
                err,
            )
        })?;
        Ok(JsEngine {
            pool: Arc::new(Pool::start(config, watchdog)),
            config,
        })
    }

    /// The engine's configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Live engine threads and idle warm runtimes (diagnostics; the counts move as the pool
    /// refills in the background).
    pub fn thread_counts(&self) -> (usize, usize) {
        self.pool.counts()
    }
}

impl Drop for JsEngine {
    fn drop(&mut self) {
        self.pool.shutdown();
    }
}

impl std::fmt::Debug for JsEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsEngine")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl CodeRuntime for JsEngine {
    fn language(&self) -> Language {
        Language::TypeScript
    }

    fn isolation(&self) -> &'static str {
        if cfg!(feature = "quickjs") {
            "deno_core/quickjs isolate on its own thread, fresh per run"
        } else {
            "deno_core/v8 isolate on its own thread, fresh per run"
        }
    }

    fn warm(&self) -> Option<usize> {
        Some(self.pool.counts().1)
    }

    fn run(&self, request: CodeRunRequest) -> BoxFuture<'static, CodeRunOutcome> {
        let pool = self.pool.clone();
        Box::pin(run_on_pool(pool, self.config, request))
    }
}

fn failure(kind: CodeRunErrorKind, message: &str) -> CodeRunOutcome {
    CodeRunOutcome {
        error: Some(CodeRunError::new(kind, message)),
        ..Default::default()
    }
}

async fn run_on_pool(
    pool: Arc<Pool>,
    config: EngineConfig,
    request: CodeRunRequest,
) -> CodeRunOutcome {
    let CodeRunRequest {
        program,
        namespaces,
        signal,
        on_line,
    } = request;
    if signal.is_cancelled() {
        return failure(
            CodeRunErrorKind::Abort,
            "the run was cancelled by its caller",
        );
    }
    let stop = Arc::new(RunStop::default());
    let ledger = Arc::new(Mutex::new(
        Ledger::new(config.max_output_bytes).with_sink(on_line),
    ));
    let (reply, mut outcome) = oneshot::channel();
    let mut stop_if_dropped = StopIfDropped(Some(stop.clone()));
    pool.submit(Job {
        program,
        namespaces,
        stop: stop.clone(),
        ledger: ledger.clone(),
        reply,
    });
    let stopped = async {
        tokio::select! {
            () = signal.cancelled() => {
                stop.request(StopReason::Abort);
            }
            () = stop.stopped() => {}
        }
    };
    let settled = tokio::select! {
        biased;
        outcome = &mut outcome => Some(outcome),
        () = stopped => None,
    };
    let settled = match settled {
        Some(settled) => settled,
        // Stopped: the engine has the grace to end the run, then the run is written off.
        None => match tokio::time::timeout(STOP_GRACE, &mut outcome).await {
            Ok(settled) => settled,
            // V8 ran out of heap inside one operation: its thread will never answer.
            Err(_) if stop.held() && pool.release_held(&stop) => {
                stop_if_dropped.0 = None;
                return written_off_outcome(&stop, &ledger, &config);
            }
            Err(_) if pool.write_off(&stop) => {
                stop_if_dropped.0 = None;
                return written_off_outcome(&stop, &ledger, &config);
            }
            // Not written off: the run ended just now (its answer is on its way), has not
            // started yet (its sandbox is being created), or too many threads are written
            // off already: wait for the engine.
            Err(_) => outcome.await,
        },
    };
    stop_if_dropped.0 = None;
    settled.unwrap_or_else(|_| lost_run(&ledger, "the engine thread running the program is gone"))
}

/// The outcome of a run the engine lost (its thread ended or it panicked): what the
/// program printed so far, and a `worker-exit` failure saying why.
pub(crate) fn lost_run(ledger: &Mutex<Ledger>, reason: &str) -> CodeRunOutcome {
    let logs = ledger
        .lock()
        .map(|mut ledger| ledger.take_logs())
        .unwrap_or_default();
    CodeRunOutcome {
        value: None,
        logs,
        error: Some(CodeRunError::new(CodeRunErrorKind::WorkerExit, reason)),
    }
}

/// Stops the run when the caller drops its future before the outcome arrives.
struct StopIfDropped(Option<Arc<RunStop>>);

impl Drop for StopIfDropped {
    fn drop(&mut self) {
        if let Some(stop) = self.0.take() {
            stop.request(StopReason::Abort);
        }
    }
}
