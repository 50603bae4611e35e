//! The worker processes as the host holds them: the interpreter they run on
//! ([`WorkerCommand`]), how they start (one path, [`spawn`], for workers and the template:
//! the platform room's [`crate::process::isolated`] with the launcher, the payload's
//! descriptors and the limits on the command line), how their frames travel, their standard error kept as a
//! capped tail, their CPU clock, and their end (the whole process group, or the pidfd of a
//! forked worker) when dropped.
//!
//! A worker started as a process of its own speaks over pipes, each served by a thread (a
//! worker that stops reading cannot block the host). A worker forked by the template speaks
//! over a unix stream socket that the run's task reads and writes itself under tokio's
//! reactor (no thread hop per frame); the frames are cut by [`FrameDecoder`] from one
//! buffer, and writes are `send(MSG_DONTWAIT | MSG_NOSIGNAL)`, so a worker that does not
//! read never blocks the run and one that is gone never raises `SIGPIPE`.
//!
//! This module owns the processes, their channels and their threads; it must not interpret
//! frames beyond the handshake, and it signals processes only through the platform room.

use std::io::{self, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant};

use tokio::io::Interest;
use tokio_util::bytes::{Buf, Bytes, BytesMut};

use super::confine::{Confinement, Limits};
use super::error::{Handshake, InterpreterError, Role, Tail, TemplateStart, WorkerError};
use super::fds::readable;
use super::protocol::{
    FrameDecoder, FrameLimits, FromWorker, ReadError, ToWorker, encode_to_worker, read_some,
};

/// How much of a worker's standard error is kept (its end).
const STDERR_TAIL: usize = 64 * 1024;

/// How many bytes of room the socket's inbox has before each read.
const READ_ROOM: usize = 64 * 1024;

/// Locks `mutex`; a poisoned lock only means a panic elsewhere, and the data (a byte tail,
/// a descriptor, a list of workers) stays valid.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poison| poison.into_inner())
}

/// The Python interpreter workers run on (`[runtime] python`): a command name looked up on
/// `PATH` when the engine is made (the default, `python3`), or a path. Any CPython 3.10 or
/// later; nothing of it is linked into this program, and nothing of it is touched until a
/// Python engine is made. Each worker is this interpreter, isolated (`-I -S -B`), running
/// codemode's launcher (see the module `launch`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerCommand {
    /// The interpreter: a command name (`python3`) or a path.
    pub python: PathBuf,
}

impl WorkerCommand {
    /// The interpreter when nothing names one: `python3` on `PATH`.
    pub const DEFAULT_PYTHON: &'static str = "python3";

    /// Workers on the interpreter `python` (a command name on `PATH`, or a path).
    pub fn new(python: impl Into<PathBuf>) -> Self {
        WorkerCommand {
            python: python.into(),
        }
    }

    /// The interpreter this process starts workers with when a host is not given one: what
    /// [`set_process_default`](Self::set_process_default) set, else
    /// [`DEFAULT_PYTHON`](Self::DEFAULT_PYTHON).
    pub fn for_this_process() -> Self {
        lock(&PROCESS_DEFAULT)
            .clone()
            .unwrap_or_else(|| WorkerCommand::new(Self::DEFAULT_PYTHON))
    }

    /// Makes `command` what [`for_this_process`](Self::for_this_process) gives from now on
    /// (the Python package names its own interpreter, `sys.executable`, here).
    pub fn set_process_default(command: WorkerCommand) {
        *lock(&PROCESS_DEFAULT) = Some(command);
    }

    /// The same command with the interpreter resolved to its executable, checked to be a
    /// CPython 3.10 or later (see `launch::resolve` and `launch::identify`).
    pub(crate) fn resolved(&self) -> Result<WorkerCommand, InterpreterError> {
        let found = super::launch::resolve(&self.python)?;
        Ok(WorkerCommand {
            python: super::launch::identify(&found)?,
        })
    }
}

/// The command set by [`WorkerCommand::set_process_default`].
static PROCESS_DEFAULT: Mutex<Option<WorkerCommand>> = Mutex::new(None);

/// Starts a worker process (`mode`: none, `--probe` or `--template`) on the interpreter of
/// `command` (resolved) with `limits` on its command line, its standard input and output as
/// given and its standard error piped: the one way workers and the template start. The
/// platform room gives it an empty environment, `/`, a process group of its own, the
/// payload's descriptors and its parent-death signal (from the long-lived spawner thread).
fn spawn(
    command: &WorkerCommand,
    limits: Limits,
    mode: Option<&str>,
    role: Role,
    stdin: Stdio,
    stdout: Stdio,
) -> Result<Child, WorkerError> {
    let payload = super::launch::payload()?;
    let args = payload.args(limits, mode);
    crate::process::isolated(
        &command.python,
        &args,
        stdin,
        stdout,
        Stdio::piped(),
        &payload.inherited(),
    )
    .map_err(|source| WorkerError::Spawn {
        role,
        program: command.python.clone(),
        source,
    })
}

/// A frame as the worker's channel delivers it.
pub(crate) type Incoming = Result<FromWorker, ReadError>;

/// How frames travel to and from a worker.
enum Channel {
    /// Pipes, each served by a thread (a worker started as a process of its own).
    Threads {
        frames: tokio::sync::mpsc::UnboundedReceiver<Incoming>,
        writer: mpsc::Sender<Bytes>,
        /// Bytes queued for the writer thread and not yet written.
        queued: Arc<AtomicU64>,
    },
    /// A unix socket read and written by the run's task itself (a worker forked by the
    /// template): no thread hop per frame.
    Socket(Box<SocketChannel>),
}

/// The socket of a forked worker, with what was read and not yet cut into frames and what
/// is to be written and not yet sent.
struct SocketChannel {
    socket: Socket,
    inbox: BytesMut,
    /// Encoded frames not sent yet (charged to the run's host memory by the caller).
    outbox: BytesMut,
    frames: FrameDecoder,
    closed: bool,
}

/// The socket, blocking for the handshake on the starting thread, then non-blocking under
/// tokio's reactor from the run's first frame on.
enum Socket {
    Blocking(UnixStream),
    Registered(tokio::net::UnixStream),
    /// After a registration failed.
    Gone,
}

/// Sends what it can of `bytes` now, never blocking and never raising `SIGPIPE`.
fn send_now(socket: impl AsFd, bytes: &[u8]) -> io::Result<usize> {
    use rustix::net::SendFlags;
    Ok(rustix::net::send(
        socket,
        bytes,
        SendFlags::DONTWAIT | SendFlags::NOSIGNAL,
    )?)
}

impl SocketChannel {
    /// Writes what it can of `outbox` without blocking.
    fn flush_some(&mut self) {
        while !self.outbox.is_empty() {
            let sent = match &self.socket {
                Socket::Blocking(socket) => send_now(socket, &self.outbox),
                // Through the reactor, so a full socket clears its write readiness.
                Socket::Registered(socket) => {
                    socket.try_io(Interest::WRITABLE, || send_now(socket, &self.outbox))
                }
                Socket::Gone => Err(io::ErrorKind::BrokenPipe.into()),
            };
            match sent {
                Ok(0) => return,
                Ok(n) => self.outbox.advance(n),
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    // The worker is gone: nobody reads what is left.
                    self.outbox.clear();
                    return;
                }
            }
        }
    }

    /// Puts the socket under tokio's reactor (made non-blocking on first use, in the run).
    fn register(&mut self) -> io::Result<()> {
        match &self.socket {
            Socket::Registered(_) => return Ok(()),
            Socket::Gone => return Err(io::ErrorKind::NotConnected.into()),
            Socket::Blocking(_) => {}
        }
        if let Socket::Blocking(socket) = std::mem::replace(&mut self.socket, Socket::Gone) {
            socket.set_nonblocking(true)?;
            self.socket = Socket::Registered(tokio::net::UnixStream::from_std(socket)?);
        }
        Ok(())
    }

    /// The next frame, read without blocking the runtime, writing what is queued meanwhile.
    async fn next_frame(&mut self) -> Incoming {
        loop {
            if let Some(frame) = self.frames.take(&mut self.inbox) {
                return frame;
            }
            self.flush_some();
            let interest = if self.outbox.is_empty() {
                Interest::READABLE
            } else {
                Interest::READABLE | Interest::WRITABLE
            };
            self.register().map_err(ReadError::Io)?;
            let Socket::Registered(socket) = &self.socket else {
                return Err(ReadError::Closed);
            };
            let ready = socket.ready(interest).await.map_err(ReadError::Io)?;
            if !(ready.is_readable() || ready.is_read_closed()) {
                // Writable only: the loop flushes.
                continue;
            }
            self.inbox.reserve(READ_ROOM);
            match socket.try_read_buf(&mut self.inbox) {
                Ok(0) => return Err(ReadError::Closed),
                Ok(_) => {}
                Err(err)
                    if matches!(
                        err.kind(),
                        io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                    ) => {}
                Err(err) => return Err(ReadError::Io(err)),
            }
        }
    }

    /// The next frame of the handshake, blocking until `deadline`.
    fn next_blocking(&mut self, deadline: Instant) -> Result<FromWorker, Handshake> {
        loop {
            if let Some(frame) = self.frames.take(&mut self.inbox) {
                return Ok(frame?);
            }
            let Socket::Blocking(socket) = &mut self.socket else {
                return Err(ReadError::Closed.into());
            };
            let left = deadline.saturating_duration_since(Instant::now());
            if !readable(&*socket, left) {
                return Err(Handshake::SocketTimeout);
            }
            read_some(socket, &mut self.inbox)?;
        }
    }
}

/// A running worker.
pub(crate) struct Worker {
    child: Option<Child>,
    pid: u32,
    /// The worker's pidfd, for a worker forked by the template (not our child).
    pidfd: Option<OwnedFd>,
    /// Set once the process was reaped: its pid may be reused, so it is never signalled.
    reaped: bool,
    /// Set once it was killed (a second kill could hit a reused pid).
    killed: bool,
    channel: Channel,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Set when the thread that drains a worker on pipes read its standard error to the end.
    stderr_ended: Arc<AtomicBool>,
    /// What the worker reported of its confinement.
    pub confinement: Confinement,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("pid", &self.pid)
            .finish_non_exhaustive()
    }
}

impl Worker {
    /// Spawns a worker and waits (blocking, at most `timeout`) for its `confined` and
    /// `ready` frames. `frames` bounds every frame it may send.
    pub(crate) fn start(
        command: &WorkerCommand,
        limits: Limits,
        frames: FrameLimits,
        probe: bool,
        timeout: Duration,
    ) -> Result<Worker, WorkerError> {
        let mode = probe.then_some("--probe");
        let mut child = spawn(
            command,
            limits,
            mode,
            Role::Worker,
            Stdio::piped(),
            Stdio::piped(),
        )?;
        let pid = child.id();
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            crate::process::kill_group(Some(pid));
            let _ = child.wait();
            return Err(WorkerError::PipesMissing);
        };
        let mut worker = Worker::on_pipes(pid, child, stdout, stdin, stderr, frames)?;
        worker.handshake(probe, timeout)?;
        Ok(worker)
    }

    /// A worker over its pipes, with the threads that serve them.
    fn on_pipes(
        pid: u32,
        child: Child,
        stdout: impl Read + Send + 'static,
        stdin: impl Write + Send + 'static,
        stderr: impl Read + Send + 'static,
        limits: FrameLimits,
    ) -> Result<Worker, WorkerError> {
        let (frames_tx, frames) = tokio::sync::mpsc::unbounded_channel();
        let spawned = std::thread::Builder::new()
            .name("codemode-py-read".into())
            .spawn(move || {
                let mut stdout = stdout;
                let mut decoder = FrameDecoder::new(limits);
                let mut inbox = BytesMut::new();
                loop {
                    let frame = decoder.read::<FromWorker>(&mut stdout, &mut inbox);
                    let stop = frame.is_err();
                    if frames_tx.send(frame).is_err() || stop {
                        break;
                    }
                }
            });
        let (writer, to_write) = mpsc::channel::<Bytes>();
        let queued = Arc::new(AtomicU64::new(0));
        let spawned = spawned.and_then(|_| {
            let queued = queued.clone();
            std::thread::Builder::new()
                .name("codemode-py-write".into())
                .spawn(move || {
                    let mut stdin = stdin;
                    for bytes in to_write {
                        let written = stdin.write_all(&bytes).and_then(|()| stdin.flush());
                        queued.fetch_sub(bytes.len() as u64, Ordering::SeqCst);
                        if written.is_err() {
                            break;
                        }
                    }
                })
        });
        let tail = Arc::new(Mutex::new(Vec::new()));
        let stderr_ended = Arc::new(AtomicBool::new(false));
        let spawned = spawned.and_then(|_| {
            let tail = tail.clone();
            let ended = stderr_ended.clone();
            std::thread::Builder::new()
                .name("codemode-py-stderr".into())
                .spawn(move || {
                    drain_into(stderr, &tail);
                    ended.store(true, Ordering::SeqCst);
                })
        });
        // Built first, so that a failure below still kills (on drop) what was spawned.
        let worker = Worker {
            child: Some(child),
            pid,
            pidfd: None,
            reaped: false,
            killed: false,
            channel: Channel::Threads {
                frames,
                writer,
                queued,
            },
            stderr: tail,
            stderr_ended,
            confinement: Confinement::none(),
        };
        spawned.map_err(WorkerError::Threads)?;
        Ok(worker)
    }

    /// The next frame of the handshake, waiting until `deadline` (`timeout` after the start).
    fn next_handshake_frame(
        &mut self,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<FromWorker, Handshake> {
        let frames = match &mut self.channel {
            Channel::Socket(socket) => return socket.next_blocking(deadline),
            Channel::Threads { frames, .. } => frames,
        };
        loop {
            match frames.try_recv() {
                Ok(frame) => return Ok(frame?),
                Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => {
                    return Err(Handshake::Exited);
                }
                Err(tokio::sync::mpsc::error::TryRecvError::Empty) => {
                    if Instant::now() >= deadline {
                        return Err(Handshake::Timeout(timeout.as_millis()));
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
    }

    /// Reads the worker's `confined` and (unless probing) `ready` frames, blocking at most
    /// `timeout`.
    fn handshake(&mut self, probe: bool, timeout: Duration) -> Result<(), WorkerError> {
        let deadline = Instant::now() + timeout;
        let steps = |worker: &mut Worker| -> Result<(), Handshake> {
            match worker.next_handshake_frame(deadline, timeout)? {
                FromWorker::Confined {
                    landlock,
                    seccomp,
                    rlimits,
                    detail,
                } => {
                    worker.confinement = Confinement {
                        landlock,
                        seccomp,
                        rlimits,
                        detail,
                    };
                }
                other => return Err(Handshake::NotConfined(Box::new(other))),
            }
            if probe {
                return Ok(());
            }
            match worker.next_handshake_frame(deadline, timeout)? {
                FromWorker::Ready {} => Ok(()),
                other => Err(Handshake::NotReady(Box::new(other))),
            }
        };
        steps(self).map_err(|why| {
            // A worker that exited said why on standard error: read to its end (briefly).
            if matches!(why, Handshake::Exited | Handshake::Read(_)) {
                let until = Instant::now() + Duration::from_secs(1);
                while !self.stderr_ended.load(Ordering::SeqCst) && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            let tail = self.stderr_tail();
            let tail = match self.channel {
                Channel::Threads { .. } => Tail::Labelled(tail),
                Channel::Socket(_) => Tail::Bare(tail),
            };
            WorkerError::NotReady { why, tail }
        })
    }

    /// The next frame (`None` once the channel stopped).
    pub(crate) async fn next_frame(&mut self) -> Option<Incoming> {
        match &mut self.channel {
            Channel::Threads { frames, .. } => frames.recv().await,
            Channel::Socket(socket) => {
                if socket.closed {
                    return None;
                }
                let frame = socket.next_frame().await;
                // After an error the stream is out of step: nothing more is read.
                socket.closed = frame.is_err();
                Some(frame)
            }
        }
    }

    /// Queues a frame for the worker (a worker that is gone just never reads it).
    pub(crate) fn send(&mut self, frame: &ToWorker) {
        match &mut self.channel {
            Channel::Threads { writer, queued, .. } => {
                let mut bytes = BytesMut::new();
                if encode_to_worker(frame, &mut bytes).is_err() {
                    return;
                }
                queued.fetch_add(bytes.len() as u64, Ordering::SeqCst);
                if writer.send(bytes.freeze()).is_err() {
                    queued.store(0, Ordering::SeqCst);
                }
            }
            Channel::Socket(socket) => {
                // Encoded straight into the outbox (nothing is appended on a failure).
                if encode_to_worker(frame, &mut socket.outbox).is_ok() {
                    socket.flush_some();
                }
            }
        }
    }

    /// Bytes sent to the worker that it has not read yet (host memory they hold).
    pub(crate) fn queued_bytes(&self) -> u64 {
        match &self.channel {
            Channel::Threads { queued, .. } => queued.load(Ordering::SeqCst),
            Channel::Socket(socket) => socket.outbox.len() as u64,
        }
    }

    /// Whether the worker process still runs (a ready worker whose template died is gone).
    pub(crate) fn is_alive(&mut self) -> bool {
        if let Some(pidfd) = &self.pidfd {
            return !readable(pidfd, Duration::ZERO);
        }
        match self.child.as_mut() {
            Some(child) => matches!(child.try_wait(), Ok(None)),
            None => false,
        }
    }

    /// The CPU time the worker has used, or `None` once it is gone.
    pub(crate) fn cpu_time(&self) -> Option<Duration> {
        crate::process::cpu_time(self.pid)
    }

    /// The end of what the worker wrote to standard error, as text.
    pub(crate) fn stderr_tail(&self) -> String {
        tail_text(&self.stderr)
    }

    /// How the worker ended, if it has: `exited with status N` / `was killed by signal N`
    /// (a forked worker, not our child: `ended`).
    pub(crate) fn exit_status(&mut self, wait: Duration) -> Option<String> {
        use std::os::unix::process::ExitStatusExt;
        if let Some(pidfd) = &self.pidfd {
            // A pidfd becomes readable when its process ends.
            return readable(pidfd, wait).then(|| "ended".to_owned());
        }
        let child = self.child.as_mut()?;
        let deadline = Instant::now() + wait;
        loop {
            match child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return Some(match (status.code(), status.signal()) {
                        (Some(code), _) => format!("exited with status {code}"),
                        (None, Some(signal)) => format!("was killed by signal {signal}"),
                        _ => "ended".to_owned(),
                    });
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                _ => return None,
            }
        }
    }

    /// Kills the worker (its whole process group, or through its pidfd) and reaps it off
    /// the caller's path.
    pub(crate) fn kill(&mut self) {
        if self.reaped || self.killed {
            return;
        }
        self.killed = true;
        if let Some(pidfd) = &self.pidfd {
            crate::process::kill_pidfd(pidfd);
            return;
        }
        crate::process::kill_group(Some(self.pid));
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let reaped = std::thread::Builder::new()
                .name("codemode-py-reap".into())
                .spawn(move || {
                    let _ = child.wait();
                });
            if let Err(err) = reaped {
                tracing::warn!(error = %err, "cannot start a thread to reap a Python worker");
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A template worker (a fork server): a prepared, Landlock-confined interpreter that forks
/// a ready worker per request in milliseconds, where starting a process costs ~100 ms of
/// CPU. Its workers are its children, in its process group: killing the template kills
/// them all.
pub(crate) struct Template {
    child: Child,
    control: Mutex<OwnedFd>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl std::fmt::Debug for Template {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Template")
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

/// Keeps the end of what `input` writes in `tail` (at most [`STDERR_TAIL`] bytes).
fn drain_into(mut input: impl Read, tail: &Mutex<Vec<u8>>) {
    let mut chunk = [0u8; 4096];
    while let Ok(n) = input.read(&mut chunk) {
        if n == 0 {
            break;
        }
        let mut tail = lock(tail);
        tail.extend_from_slice(&chunk[..n]);
        if tail.len() > STDERR_TAIL {
            let cut = tail.len() - STDERR_TAIL;
            tail.drain(..cut);
        }
    }
}

/// The tail kept by [`drain_into`], as text.
fn tail_text(tail: &Mutex<Vec<u8>>) -> String {
    String::from_utf8_lossy(&lock(tail)).trim().to_owned()
}

impl Template {
    /// Starts a template and waits for its status.
    pub(crate) fn start(
        command: &WorkerCommand,
        limits: Limits,
        timeout: Duration,
    ) -> Result<Template, WorkerError> {
        let (control, theirs) =
            super::fds::seqpacket_pair().map_err(WorkerError::TemplateSocket)?;
        let mut child = spawn(
            command,
            limits,
            Some("--template"),
            Role::Template,
            Stdio::from(theirs),
            Stdio::null(),
        )?;
        let tail = Arc::new(Mutex::new(Vec::new()));
        if let Some(stderr) = child.stderr.take() {
            let tail = tail.clone();
            let _ = std::thread::Builder::new()
                .name("codemode-py-template".into())
                .spawn(move || drain_into(stderr, &tail));
        }
        let status = if readable(&control, timeout) {
            super::fds::recv(&control, 64 * 1024).map_err(TemplateStart::Recv)
        } else {
            Err(TemplateStart::Timeout(timeout.as_millis()))
        };
        let frame = status.and_then(|(body, _)| {
            serde_json::from_slice::<FromWorker>(&body).map_err(|err| {
                if body.is_empty() {
                    TemplateStart::Exited
                } else {
                    TemplateStart::Status(err)
                }
            })
        });
        match frame {
            Ok(FromWorker::Confined { .. }) => Ok(Template {
                child,
                control: Mutex::new(control),
                stderr: tail,
            }),
            Ok(other) => Err(WorkerError::TemplateSentFirst(Box::new(other))),
            Err(why) => {
                let tail = tail_text(&tail);
                crate::process::kill_group(Some(child.id()));
                let _ = child.wait();
                Err(WorkerError::TemplateNotReady { why, tail })
            }
        }
    }

    /// Forks a worker and waits for its `ready`.
    pub(crate) fn fork(
        &self,
        frames: FrameLimits,
        timeout: Duration,
    ) -> Result<Worker, WorkerError> {
        let (body, fds) = {
            let control = lock(&self.control);
            super::fds::send(&*control, br#"{"t":"spawn"}"#, &[])
                .map_err(WorkerError::TemplateGone)?;
            if !readable(&*control, timeout) {
                return Err(WorkerError::TemplateSilent);
            }
            super::fds::recv(&*control, 4096).map_err(WorkerError::TemplateGone)?
        };
        let pid = match serde_json::from_slice::<FromWorker>(&body) {
            Ok(FromWorker::Spawned { pid }) if pid > 0 => pid,
            _ => return Err(WorkerError::ForkFailed(self.stderr_tail())),
        };
        let mut fds = fds.into_iter();
        let (Some(socket), Some(stderr)) = (fds.next(), fds.next()) else {
            return Err(WorkerError::NoDescriptors);
        };
        // Without its pidfd a forked worker could not be killed reliably: refused.
        let Some(pidfd) = fds.next() else {
            return Err(WorkerError::NoPidfd);
        };
        let tail = Arc::new(Mutex::new(Vec::new()));
        {
            let tail = tail.clone();
            let stderr = std::fs::File::from(stderr);
            std::thread::Builder::new()
                .name("codemode-py-stderr".into())
                .spawn(move || drain_into(stderr, &tail))
                .map_err(WorkerError::StderrThread)?;
        }
        let mut worker = Worker {
            child: None,
            pid,
            pidfd: Some(pidfd),
            reaped: false,
            killed: false,
            channel: Channel::Socket(Box::new(SocketChannel {
                socket: Socket::Blocking(UnixStream::from(socket)),
                inbox: BytesMut::new(),
                outbox: BytesMut::new(),
                frames: FrameDecoder::new(frames),
                closed: false,
            })),
            stderr: tail,
            // Not waited for (a forked worker's tail is read as it is).
            stderr_ended: Arc::new(AtomicBool::new(true)),
            confinement: Confinement::none(),
        };
        worker.handshake(false, timeout)?;
        Ok(worker)
    }

    /// Whether the template still runs.
    pub(crate) fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn stderr_tail(&self) -> String {
        tail_text(&self.stderr)
    }
}

impl Drop for Template {
    fn drop(&mut self) {
        // The template and every worker it forked (they share its process group).
        crate::process::kill_group(Some(self.child.id()));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
