//! Why a Python worker, or the template that forks them, could not be started or used: one
//! typed error per failure, keeping the error it wraps as its source. Their texts are what
//! users read (a `worker-exit` outcome, the engine's start error), so each variant's message
//! is fixed here.
//!
//! This module owns the failures and their texts; it must not decide what a failure does to
//! a run (the pool and the engine do).

use std::io;
use std::path::PathBuf;

use super::confine::Confinement;
use super::protocol::{FromWorker, ReadError};

/// Which kind of process failed to start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A worker started as a process of its own (or the probe).
    Worker,
    /// The template (the fork server).
    Template,
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Worker => "worker",
            Role::Template => "template",
        })
    }
}

/// A worker or the template failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WorkerError {
    /// The process could not be spawned.
    #[error("cannot start the Python {role} with `[runtime] python` `{}`: {source}", .program.display())]
    Spawn {
        role: Role,
        program: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The interpreter or the payload is not usable.
    #[error(transparent)]
    Interpreter(#[from] InterpreterError),
    /// A spawned worker came without its pipes.
    #[error("the Python worker's pipes are missing")]
    PipesMissing,
    /// The threads that serve a worker's pipes could not start.
    #[error("cannot start the Python worker's threads: {0}")]
    Threads(#[source] io::Error),
    /// The thread that drains a forked worker's standard error could not start.
    #[error("cannot start the Python worker's thread: {0}")]
    StderrThread(#[source] io::Error),
    /// A worker did not report its confinement and readiness.
    #[error("the Python worker did not start: {why}{tail}")]
    NotReady {
        #[source]
        why: Handshake,
        tail: Tail,
    },
    /// The template's control socket could not be made.
    #[error("cannot make the template's socket: {0}")]
    TemplateSocket(#[source] io::Error),
    /// The template's first message was not its confinement.
    #[error("the Python template sent {0:?} first")]
    TemplateSentFirst(Box<FromWorker>),
    /// The template did not report its confinement; `tail` is its standard error.
    #[error("the Python template did not start: {why}; {tail}")]
    TemplateNotReady {
        #[source]
        why: TemplateStart,
        tail: String,
    },
    /// The template's control socket failed.
    #[error("the Python template is gone: {0}")]
    TemplateGone(#[source] io::Error),
    /// The template did not answer a fork request in time.
    #[error("the Python template did not answer")]
    TemplateSilent,
    /// The template could not fork; its standard error.
    #[error("the Python template could not fork a worker: {0}")]
    ForkFailed(String),
    /// The template's answer came without the worker's socket and standard error.
    #[error("the Python template sent no descriptors")]
    NoDescriptors,
    /// The template's answer came without the worker's pidfd (it could not be killed
    /// reliably).
    #[error("the Python template could not open the worker's pidfd")]
    NoPidfd,
    /// The worker is not fully confined, and the engine requires it.
    #[error(
        "the Python worker is not confined (landlock: {}, seccomp: {}, rlimits: {}; {}): refusing to run the program",
        .0.landlock, .0.seccomp, .0.rlimits, .0.detail
    )]
    Unconfined(Confinement),
    /// The task that starts a worker failed.
    #[error("the Python worker could not be started: {0}")]
    StartTask(#[source] tokio::task::JoinError),
}

/// Why a worker's handshake (`confined`, then `ready`) failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Handshake {
    /// A frame could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The worker's pipes closed.
    #[error("the worker exited")]
    Exited,
    /// A worker on pipes was silent for the whole start timeout (in ms).
    #[error("the worker was not ready within {0} ms")]
    Timeout(u128),
    /// A forked worker was silent for the whole start timeout.
    #[error("not ready within the start timeout")]
    SocketTimeout,
    /// The first frame was not `confined`.
    #[error("it sent {0:?} first")]
    NotConfined(Box<FromWorker>),
    /// The second frame was not `ready`.
    #[error("it sent {0:?} instead of ready")]
    NotReady(Box<FromWorker>),
}

/// A failed worker's standard error, as its message ends.
#[derive(Debug)]
pub(crate) enum Tail {
    /// A worker on pipes: `; its standard error: <tail>`, nothing when it wrote nothing.
    Labelled(String),
    /// A forked worker: `; <tail>`.
    Bare(String),
}

impl std::fmt::Display for Tail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tail::Labelled(tail) if tail.is_empty() => Ok(()),
            Tail::Labelled(tail) => write!(f, "; its standard error: {tail}"),
            Tail::Bare(tail) => write!(f, "; {tail}"),
        }
    }
}

/// Why the template did not report its confinement.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TemplateStart {
    /// Its control socket failed.
    #[error(transparent)]
    Recv(io::Error),
    /// It was silent for the whole start timeout (in ms).
    #[error("not ready within {0} ms")]
    Timeout(u128),
    /// It closed the socket.
    #[error("it exited")]
    Exited,
    /// Its status was not a frame.
    #[error(transparent)]
    Status(serde_json::Error),
}

/// Why the Python interpreter (`[runtime] python`) cannot run workers, or what they run
/// cannot be prepared.
#[derive(Debug, thiserror::Error)]
pub(crate) enum InterpreterError {
    /// The setting is empty.
    #[error(
        "`[runtime] python` is empty: name a Python interpreter (a command on PATH such as `python3`, or a path)"
    )]
    Empty,
    /// A command name found in no directory of `PATH`.
    #[error(
        "`[runtime] python` is `{}`, which is not on PATH ({path}): install CPython 3.10 or later (Debian and Ubuntu: `apt install python3`), or set `[runtime] python` to an interpreter's path",
        .name.display()
    )]
    NotOnPath { name: PathBuf, path: String },
    /// A path that is not an executable file.
    #[error(
        "`[runtime] python` is `{}`, which cannot run ({why}): set it to a CPython 3.10 or later",
        .path.display()
    )]
    NotExecutable { path: PathBuf, why: String },
    /// An interpreter older than 3.10 (its version as it says).
    #[error(
        "`[runtime] python` is `{}`, which is Python {version}: Python programs need CPython 3.10 or later; install one and set `[runtime] python` to it",
        .path.display()
    )]
    TooOld { path: PathBuf, version: String },
    /// Not CPython (the worker's native part is a CPython extension module).
    #[error(
        "`[runtime] python` is `{}`, which is {implementation}, not CPython: Python programs need CPython 3.10 or later",
        .path.display()
    )]
    NotCPython {
        path: PathBuf,
        implementation: String,
    },
    /// The interpreter did not run the probe worker (not a CPython, or broken).
    #[error("`[runtime] python` is `{}`, which did not start a Python worker: {why}", .path.display())]
    DidNotStart { path: PathBuf, why: String },
    /// The memfds workers inherit could not be made.
    #[error("cannot prepare the Python workers: {0}")]
    Payload(String),
}

impl InterpreterError {
    /// The error code: a setting to change ([`ErrorCode::InvalidConfig`]), or a failure of
    /// this host ([`ErrorCode::HostFailed`]).
    pub(crate) fn code(&self) -> crate::error::ErrorCode {
        use crate::error::ErrorCode;
        match self {
            InterpreterError::Payload(_) | InterpreterError::DidNotStart { .. } => {
                ErrorCode::HostFailed
            }
            _ => ErrorCode::InvalidConfig,
        }
    }
}
