//! The Python code runtime (feature `python`): each program runs in a worker process of its
//! own running CPython — an interpreter found at run time (`[runtime] python`, default
//! `python3` on `PATH`; nothing of Python is linked into this library) — confined by
//! rlimits, Landlock and a seccomp allowlist, and speaks length-prefixed JSON frames over
//! pipes or a unix socket. The host enforces every budget and stops a run by killing its
//! worker.
//!
//! - `launch`: the interpreter's resolution and what a worker runs: `<python> -I -S -B -c
//!   LAUNCHER` with two inherited memfds, the native confinement primitive (`confine.c`, an
//!   extension module built by `build.rs` without Python.h) and the bootstrap
//!   (`bootstrap.py`), whose `worker_main` is the worker: private descriptors, pre-imports,
//!   confinement, frames — or the template, a fork server of ready workers.
//! - `confine`: what the worker applies to itself before the program arrives, prepared here
//!   (the Landlock ruleset attribute, the compiled seccomp filter, the limits).
//! - `protocol`: the frames and their codec (tokio-util's `LengthDelimitedCodec`);
//!   everything a worker sends is hostile input.
//! - `fds`: descriptor passing between the template and the host (rustix).
//! - `process`: the worker processes as the host holds them — one spawn path for workers
//!   and the template, their channels, standard error, CPU clock and kill (signals go
//!   through the platform room, `crate::process`).
//! - `error`: why a worker, the template or the interpreter failed, with the texts users
//!   read.
//! - `run`: one program on one worker, budgets included.
//! - `probe`: `codemode __python-worker --probe` ([`probe_main`]), the confinement probe as
//!   a command.
//! - [`PythonEngine`]: the [`CodeRuntime`], with a warm pool of ready, confined workers
//!   refilled after each run.
//!
//! Nothing here touches Python until a [`PythonEngine`] is made (a TypeScript host never
//! needs an interpreter). Its mutexes are `std::sync::Mutex`, as the JavaScript runtime's
//! (a poisoned lock is taken as it is; only the type checker's cache of checkers uses
//! `parking_lot`). The `unsafe` of this room: the Landlock ABI query (`confine`).
//!
//! This module owns running Python programs; it must not know about tools or the registry
//! (its callers reach it through the [`CodeRuntime`] seam).

mod confine;
mod error;
mod fds;
mod launch;
mod probe;
mod process;
mod protocol;
mod run;

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

pub use launch::WORKER_ARG;
pub use probe::{is_worker_invocation, probe_main};
pub use process::WorkerCommand;

use confine::Limits;
use error::{Handshake, InterpreterError, Tail, WorkerError};
use process::{Template, Worker, lock};
use protocol::FrameLimits;

/// The isolation label of a fully confined engine.
pub const CONFINED: &str = "cpython worker process per run: landlock+seccomp+rlimits";
/// The isolation label when `allow_unconfined` let an incompletely confined engine run.
pub const UNCONFINED: &str =
    "cpython worker process per run: NOT CONFINED (landlock or seccomp is not enforced here)";

/// How long a worker may take from spawn to `ready`.
pub(crate) const START_TIMEOUT: Duration = Duration::from_secs(20);

/// Settings of the Python runtime beyond the budgets.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PythonConfig {
    /// The interpreter workers run on (`[runtime] python`).
    pub worker: WorkerCommand,
    /// Run programs even where Landlock or seccomp is not fully enforced. Off by default:
    /// without them a program can read the host's files, use the network and start
    /// processes as this user.
    pub allow_unconfined: bool,
}

impl PythonConfig {
    /// Workers on the interpreter `worker`, refused where confinement is incomplete.
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
/// // `python3` on PATH (any CPython 3.10 or later; a path works too).
/// let worker = WorkerCommand::new("python3");
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
    /// Validates `config`, finds the interpreter (`python.worker`) and checks that it is
    /// CPython 3.10 or later, starts the template and its first worker, which is the probe:
    /// confinement must be enforced on this machine — refusing with an actionable error
    /// where it is not, unless `allow_unconfined` — and the worker is the warm pool's first.
    ///
    /// # Errors
    ///
    /// Nothing is started when
    ///
    /// - `config` is out of range ([`EngineConfig::validate`], naming the field):
    ///   [`ErrorCode::InvalidConfig`];
    /// - the interpreter is not on `PATH`, not an executable file, or older than 3.10:
    ///   [`ErrorCode::InvalidConfig`], naming `[runtime] python`, what was found and what
    ///   to install;
    /// - the first worker cannot be started, dies, or does not report within 20 s:
    ///   [`ErrorCode::HostFailed`], naming `[runtime] python`;
    /// - Landlock, seccomp or the rlimits are not fully enforced on this machine and
    ///   `allow_unconfined` is off: [`ErrorCode::InvalidConfig`], naming what is missing
    ///   and how to fix it.
    ///
    /// The rest of the warm pool starts in the background: a worker that cannot start later
    /// makes that run a `worker-exit` outcome, not an error of this call.
    pub fn new(config: EngineConfig, python: PythonConfig) -> Result<PythonEngine, Error> {
        config.validate()?;
        let limits = limits(&config);
        let interpreter_error =
            |err: InterpreterError| Error::with_source(err.code(), err.to_string(), err);
        let command = python.worker.resolved().map_err(interpreter_error)?;
        let pool = Arc::new(Pool {
            command,
            limits,
            frames: FrameLimits::new(frame_cap(&config), config.max_json_depth),
            size: config.warm_pool,
            require_confined: !python.allow_unconfined,
            ready: Mutex::new(VecDeque::new()),
            starting: AtomicUsize::new(0),
            template: Mutex::new(None),
        });
        // The probe is the pool's first worker (from the template, as every later one):
        // what it reports is what runs get, and it is kept for the first run.
        let probe = pool
            .fork_or_start()
            .map_err(|err| interpreter_error(probe_failed(&pool.command, err)))?;
        let confinement = probe.confinement.clone();
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
        if pool.size > 0 {
            lock(&pool.ready).push_back(probe);
        }
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

    fn warm(&self) -> Option<usize> {
        Some(self.ready_workers())
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

/// What a probe worker's failure says about the interpreter: too old (the launcher's
/// [`launch::TOO_OLD`] line on its standard error), or not able to start a worker.
fn probe_failed(command: &WorkerCommand, err: WorkerError) -> InterpreterError {
    if let WorkerError::NotReady {
        why: Handshake::Exited | Handshake::Read(_),
        tail: Tail::Labelled(tail),
    } = &err
        && let Some(at) = tail.find(launch::TOO_OLD)
    {
        let version = tail[at + launch::TOO_OLD.len()..]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_owned();
        return InterpreterError::TooOld {
            path: command.python.clone(),
            version,
        };
    }
    InterpreterError::DidNotStart {
        path: command.python.clone(),
        why: err.to_string(),
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
    /// The interpreter, resolved to a path.
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
