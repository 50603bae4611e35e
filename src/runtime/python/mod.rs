//! The Python code runtime (feature `python-host`; `python` adds the embedding): each program
//! runs in a worker process of its own running CPython, confined by rlimits, Landlock and a
//! seccomp allowlist, and speaks length-prefixed JSON frames over pipes or a unix socket.
//! The host enforces every budget and stops a run by killing its worker.
//!
//! - `worker_main` / [`WORKER_ARG`] (feature `python`): the worker side, entered by
//!   re-running the host's binary (`codemode __python-worker`), which embeds CPython (pyo3,
//!   links libpython); a library host calls `worker_main` first thing in `main` when
//!   `is_worker_invocation` says so, or points [`WorkerCommand`] at a binary that does.
//!   It is also the template (a fork server of ready workers).
//! - [`hosted_worker_main`] (feature `python-host`): the same worker inside an interpreter
//!   already running, entered from an extension module (the Python package starts its
//!   workers as `sys.executable -I -S -B` running a launcher that calls it; see
//!   [`WorkerCommand::with_args`] and [`WorkerCommand::set_process_default`]). Nothing
//!   here links libpython then.
//! - `confine`: what the worker applies to itself before the program arrives.
//! - `protocol`: the frames and their codec (tokio-util's `LengthDelimitedCodec`);
//!   everything a worker sends is hostile input.
//! - `fds`: descriptor passing between the template and the host (rustix).
//! - `process`: the worker processes as the host holds them — one spawn path for workers
//!   and the template, their channels, standard error, CPU clock and kill (signals go
//!   through the platform room, `crate::process`).
//! - `error`: why a worker or the template failed (`WorkerError`),
//!   with the texts users read.
//! - `run`: one program on one worker, budgets included.
//! - [`PythonEngine`]: the [`CodeRuntime`], with a warm pool of ready, confined workers
//!   refilled after each run.
//!
//! One mutex type across `runtime/`: `std::sync::Mutex` (a poisoned lock is taken as it
//! is). The only `unsafe` left in this room is in the worker: `fork` (the template),
//! `_exit`, and CPython's configuration through pyo3's FFI.
//!
//! This module owns running Python programs; it must not know about tools or the registry
//! (its callers reach it through the [`CodeRuntime`] seam).

mod confine;
mod error;
mod fds;
mod process;
mod protocol;
mod run;
mod worker;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;

use crate::error::{Error, ErrorCode};
use crate::runtime::{
    CodeRunError, CodeRunErrorKind, CodeRunOutcome, CodeRunRequest, CodeRuntime, EngineConfig,
    Language,
};

pub use process::WorkerCommand;
pub use worker::{WORKER_ARG, hosted_worker_main};
#[cfg(feature = "python")]
pub use worker::{is_worker_invocation, worker_main};

use confine::Limits;
use error::WorkerError;
use process::{Template, Worker, lock};
use protocol::FrameLimits;

/// The isolation label of a fully confined engine.
pub const CONFINED: &str = "cpython worker process per run: landlock+seccomp+rlimits";
/// The isolation label when `allow_unconfined` let an incompletely confined engine run.
pub const UNCONFINED: &str =
    "cpython worker process per run: NOT CONFINED (landlock or seccomp is not enforced here)";

/// How long a worker may take from spawn to `ready`.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// Settings of the Python runtime beyond the budgets.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PythonConfig {
    /// The command that starts a worker.
    pub worker: WorkerCommand,
    /// Run programs even where Landlock or seccomp is not fully enforced. Off by default:
    /// without them a program can read the host's files, use the network and start
    /// processes as this user.
    pub allow_unconfined: bool,
}

impl PythonConfig {
    /// Workers started by `worker`, refused where confinement is incomplete.
    pub fn new(worker: WorkerCommand) -> Self {
        PythonConfig {
            worker,
            allow_unconfined: false,
        }
    }

    /// The same settings, allowing (or not) unconfined workers.
    pub fn with_allow_unconfined(mut self, allow: bool) -> Self {
        self.allow_unconfined = allow;
        self
    }
}

/// Runs Python programs: the body of an async function, `tools` and `ToolCallError`
/// injected, the offered standard library pre-imported, each run in a fresh confined
/// worker process.
///
/// ```no_run
/// use codemode::runtime::python::{PythonConfig, PythonEngine, WorkerCommand};
/// use codemode::runtime::{CodeRunRequest, CodeRuntime, EngineConfig};
///
/// # async fn demo() -> Result<(), codemode::Error> {
/// let worker = WorkerCommand::current_exe().map_err(|e| codemode::Error::new(codemode::ErrorCode::HostFailed, e.to_string()))?;
/// let engine = PythonEngine::new(EngineConfig::default(), PythonConfig::new(worker))?;
/// let outcome = engine
///     .run(CodeRunRequest::new("print('hi')\nreturn 6 * 7", Vec::new()))
///     .await;
/// assert_eq!(outcome.value, Some(serde_json::json!(42)));
/// assert_eq!(outcome.logs, ["hi"]);
/// # Ok(()) }
/// ```
pub struct PythonEngine {
    config: EngineConfig,
    pool: Arc<Pool>,
    isolation: &'static str,
}

impl std::fmt::Debug for PythonEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PythonEngine")
            .field("config", &self.config)
            .field("isolation", &self.isolation)
            .finish_non_exhaustive()
    }
}

impl PythonEngine {
    /// Validates `config`, checks (in a probe worker) that confinement is enforced on this
    /// machine — refusing with an actionable error where it is not, unless
    /// `allow_unconfined` — and starts the warm pool.
    ///
    /// # Errors
    ///
    /// Nothing is started when
    ///
    /// - `config` is out of range ([`EngineConfig::validate`], naming the field):
    ///   [`ErrorCode::InvalidConfig`];
    /// - the probe worker cannot be started with `python.worker`, dies, or does not report
    ///   ready within 20 s: [`ErrorCode::HostFailed`];
    /// - Landlock, seccomp or the rlimits are not fully enforced on this machine and
    ///   `allow_unconfined` is off: [`ErrorCode::InvalidConfig`], naming what is missing
    ///   and how to fix it.
    ///
    /// Workers of the warm pool start in the background: a worker that cannot start later
    /// makes that run a `worker-exit` outcome, not an error of this call.
    pub fn new(config: EngineConfig, python: PythonConfig) -> Result<PythonEngine, Error> {
        config.validate()?;
        let limits = limits(&config);
        let probe_frames = FrameLimits::new(1 << 16, config.max_json_depth);
        let probe = Worker::start(&python.worker, limits, probe_frames, true, START_TIMEOUT)
            .map_err(|err| Error::with_source(ErrorCode::HostFailed, err.to_string(), err))?;
        let confinement = probe.confinement.clone();
        drop(probe);
        let confined = confinement.complete();
        if !confined && !python.allow_unconfined {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "Python programs need Landlock, seccomp and rlimits fully enforced, and this machine gives landlock: {}, seccomp: {}{}. \
                     Run on a Linux kernel with Landlock (ABI 6 or later, Linux 6.12+) and seccomp filters (not in a container that \
                     blocks them), or set `[runtime] allow_unconfined = true` to run anyway: programs could then read this \
                     user's files, use the network and start processes",
                    confinement.landlock,
                    if confinement.seccomp { "on" } else { "off" },
                    if confinement.detail.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", confinement.detail)
                    }
                ),
            ));
        }
        let pool = Arc::new(Pool {
            command: python.worker,
            limits,
            frames: FrameLimits::new(frame_cap(&config), config.max_json_depth),
            size: config.warm_pool,
            require_confined: !python.allow_unconfined,
            ready: Mutex::new(VecDeque::new()),
            starting: AtomicUsize::new(0),
            template: Mutex::new(None),
        });
        pool.refill();
        Ok(PythonEngine {
            config,
            pool,
            isolation: if confined { CONFINED } else { UNCONFINED },
        })
    }

    /// The budgets.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// How many ready workers the pool holds now (for tests and monitoring).
    pub fn ready_workers(&self) -> usize {
        lock(&self.pool.ready).len()
    }
}

impl CodeRuntime for PythonEngine {
    fn language(&self) -> Language {
        Language::Python
    }

    fn isolation(&self) -> &'static str {
        self.isolation
    }

    fn run(&self, request: CodeRunRequest) -> BoxFuture<'static, CodeRunOutcome> {
        let pool = self.pool.clone();
        let config = self.config;
        Box::pin(async move {
            // The same cap as TypeScript programs (checked before a worker is taken).
            let limit = crate::runtime::MAX_PROGRAM_BYTES;
            if request.program.len() > limit {
                let message = format!(
                    "the program is {} bytes; the limit is {limit} bytes",
                    request.program.len()
                );
                return CodeRunOutcome {
                    error: Some(CodeRunError::new(CodeRunErrorKind::Exception, message)),
                    ..CodeRunOutcome::default()
                };
            }
            let worker = match pool.take().await {
                Ok(worker) => worker,
                Err(err) => {
                    return CodeRunOutcome {
                        error: Some(CodeRunError::new(
                            CodeRunErrorKind::WorkerExit,
                            err.to_string(),
                        )),
                        ..CodeRunOutcome::default()
                    };
                }
            };
            let outcome = run::drive(worker, request, config).await;
            // Refilled after the run, off its path.
            pool.refill();
            outcome
        })
    }
}

/// The worker's limits for `config`.
fn limits(config: &EngineConfig) -> Limits {
    Limits {
        heap_mb: config.heap_mb,
        // A backstop only: the host kills at the budget itself.
        cpu_seconds: config.compute_ms / 1000 + 3,
    }
}

/// The largest frame a worker may send: the output cap (a log, a returned value) or the
/// per-call cap (a tool argument), whichever is larger, bounded by a quarter of the heap
/// budget (the host parses what it reads), and at least 1 MiB.
fn frame_cap(config: &EngineConfig) -> u64 {
    let heap = config.heap_mb * 1024 * 1024;
    let largest = config.max_output_bytes.max(config.max_call_bytes);
    largest.min(heap / 4).max(1024 * 1024) + 64 * 1024
}

/// Ready, confined workers.
struct Pool {
    command: WorkerCommand,
    limits: Limits,
    /// The frames' length cap and the library's value-depth limit (the programs'
    /// `max_json_depth` plus [`WRAP_DEPTH`](crate::json::WRAP_DEPTH)), passed as values.
    frames: FrameLimits,
    size: usize,
    require_confined: bool,
    ready: Mutex<VecDeque<Worker>>,
    starting: AtomicUsize,
    /// The fork server workers come from (started on first use, restarted if it died);
    /// `Err` once it failed to start: workers are then started as processes of their own.
    template: Mutex<Option<Result<Template, WorkerError>>>,
}

impl Pool {
    /// A worker forked from the template (milliseconds), else started as a process of its
    /// own (~100 ms of CPU).
    fn fork_or_start(&self) -> Result<Worker, WorkerError> {
        let mut template = lock(&self.template);
        let dead = match &mut *template {
            Some(Ok(t)) => !t.alive(),
            _ => false,
        };
        if template.is_none() || dead {
            *template = Some(Template::start(&self.command, self.limits, START_TIMEOUT));
            if let Some(Err(err)) = &*template {
                tracing::warn!(error = %err, "the Python template did not start; starting each worker as a process of its own");
            }
        }
        match &*template {
            Some(Ok(template)) => template.fork(self.frames, START_TIMEOUT),
            _ => {
                drop(template);
                Worker::start(
                    &self.command,
                    self.limits,
                    self.frames,
                    false,
                    START_TIMEOUT,
                )
            }
        }
    }

    fn start(&self) -> Result<Worker, WorkerError> {
        let worker = self.fork_or_start()?;
        if self.require_confined && !worker.confinement.complete() {
            return Err(WorkerError::Unconfined(worker.confinement.clone()));
        }
        Ok(worker)
    }

    /// A ready worker, or a freshly started one when none is ready.
    async fn take(self: &Arc<Self>) -> Result<Worker, WorkerError> {
        loop {
            let Some(mut worker) = lock(&self.ready).pop_front() else {
                break;
            };
            // A ready worker whose template died is gone with it.
            if worker.is_alive() {
                return Ok(worker);
            }
        }
        let pool = self.clone();
        match tokio::task::spawn_blocking(move || pool.start()).await {
            Ok(started) => started,
            Err(err) => Err(WorkerError::StartTask(err)),
        }
    }

    /// Starts workers (each on a thread of its own) until the pool will hold `size`.
    fn refill(self: &Arc<Self>) {
        loop {
            let have = lock(&self.ready).len() + self.starting.load(Ordering::SeqCst);
            if have >= self.size {
                return;
            }
            self.starting.fetch_add(1, Ordering::SeqCst);
            let pool = self.clone();
            let spawned = std::thread::Builder::new()
                .name("codemode-py-refill".into())
                .spawn(move || {
                    let started = pool.start();
                    match started {
                        Ok(worker) => lock(&pool.ready).push_back(worker),
                        Err(err) => tracing::warn!(error = %err, "a Python worker did not start"),
                    }
                    pool.starting.fetch_sub(1, Ordering::SeqCst);
                });
            if let Err(err) = spawned {
                self.starting.fetch_sub(1, Ordering::SeqCst);
                tracing::warn!(error = %err, "cannot start a thread to refill the Python pool");
                return;
            }
        }
    }
}
