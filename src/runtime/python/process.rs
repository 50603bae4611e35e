//! One worker process as the host holds it: spawned with an empty environment in a process
//! group of its own, its frames read by a thread into a channel, its writes made by another
//! thread (a worker that stops reading cannot block the host), its standard error kept as a
//! capped tail, its CPU clock readable, and killed (the whole group) when dropped.
//!
//! This module owns the process and its threads; it must not interpret frames beyond the
//! handshake.

use std::ffi::OsString;
use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use super::confine::Limits;
use super::protocol::{FrameLimits, FromWorker, ReadError, ToWorker, read_frame, write_to_worker};

/// How much of a worker's standard error is kept (its end).
const STDERR_TAIL: usize = 64 * 1024;

/// The command that starts a worker: a program and its arguments, to which the limits are
/// appended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerCommand {
    /// The executable (by default the running binary).
    pub program: PathBuf,
    /// Its first arguments (by default [`super::WORKER_ARG`]).
    pub args: Vec<OsString>,
}

impl WorkerCommand {
    /// The running binary started with [`super::WORKER_ARG`]: what the codemode command,
    /// and a host binary that calls [`super::worker_main`], answer to.
    pub fn current_exe() -> std::io::Result<Self> {
        Ok(WorkerCommand {
            program: std::env::current_exe()?,
            args: vec![super::WORKER_ARG.into()],
        })
    }

    /// `program` started with [`super::WORKER_ARG`].
    pub fn new(program: impl Into<PathBuf>) -> Self {
        WorkerCommand {
            program: program.into(),
            args: vec![super::WORKER_ARG.into()],
        }
    }
}

/// Spawns `command` from one long-lived thread. A worker dies with the thread that
/// started it (`PR_SET_PDEATHSIG` follows the parent *thread*), so workers must not be
/// started from short-lived threads (a refill thread, tokio's blocking pool): they would be
/// killed when that thread ends.
fn spawn_from_the_spawner(command: Command) -> std::io::Result<Child> {
    type Request = (Command, mpsc::Sender<std::io::Result<Child>>);
    static SPAWNER: std::sync::LazyLock<Option<Mutex<mpsc::Sender<Request>>>> =
        std::sync::LazyLock::new(|| {
            let (tx, rx) = mpsc::channel::<Request>();
            std::thread::Builder::new()
                .name("codemode-py-spawner".into())
                .spawn(move || {
                    for (mut command, reply) in rx {
                        let _ = reply.send(command.spawn());
                    }
                })
                .ok()
                .map(|_| Mutex::new(tx))
        });
    let Some(spawner) = SPAWNER.as_ref() else {
        return Err(std::io::Error::other("the spawner thread could not start"));
    };
    let (reply, answer) = mpsc::channel();
    spawner
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .send((command, reply))
        .map_err(|_| std::io::Error::other("the spawner thread is gone"))?;
    answer
        .recv()
        .map_err(|_| std::io::Error::other("the spawner thread is gone"))?
}

/// A frame as the reader thread delivers it.
pub(crate) type Incoming = Result<FromWorker, ReadError>;

/// How frames travel to and from a worker.
enum Channel {
    /// Pipes, each served by a thread (a worker started as a process of its own).
    Threads {
        frames: tokio::sync::mpsc::UnboundedReceiver<Incoming>,
        writer: mpsc::Sender<Vec<u8>>,
        /// Bytes queued for the writer thread and not yet written.
        queued: Arc<std::sync::atomic::AtomicU64>,
    },
    /// A unix socket read and written by the run's task itself (a worker forked by the
    /// template): no thread hop per frame.
    Socket(Box<SocketChannel>),
}

struct SocketChannel {
    /// Blocking until the run starts, then non-blocking under `async_fd`.
    file: std::fs::File,
    async_fd: Option<tokio::io::unix::AsyncFd<std::fs::File>>,
    inbox: Vec<u8>,
    outbox: Vec<u8>,
    limits: FrameLimits,
    closed: bool,
}

impl SocketChannel {
    /// A whole frame from the front of `inbox`, if one is there.
    fn take_frame(&mut self) -> Option<Incoming> {
        if self.inbox.len() < 4 {
            return None;
        }
        let length = u64::from(u32::from_le_bytes([
            self.inbox[0],
            self.inbox[1],
            self.inbox[2],
            self.inbox[3],
        ]));
        if length > self.limits.cap {
            return Some(Err(ReadError::TooLong(length)));
        }
        let end = 4 + length as usize;
        if self.inbox.len() < end {
            return None;
        }
        let parsed = super::protocol::decode(&self.inbox[4..end], self.limits.depth);
        self.inbox.drain(..end);
        Some(parsed)
    }

    /// Writes what it can of `outbox` without blocking.
    fn flush_some(&mut self) {
        while !self.outbox.is_empty() {
            // SAFETY: `send` reads `outbox` within its length from a descriptor we own;
            // MSG_DONTWAIT never blocks, MSG_NOSIGNAL turns a gone peer into EPIPE.
            let sent = unsafe {
                libc::send(
                    self.file.as_raw_fd(),
                    self.outbox.as_ptr() as *const libc::c_void,
                    self.outbox.len(),
                    libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL,
                )
            };
            if sent > 0 {
                self.outbox.drain(..sent as usize);
                continue;
            }
            let err = std::io::Error::last_os_error();
            match err.kind() {
                std::io::ErrorKind::Interrupted => continue,
                std::io::ErrorKind::WouldBlock => return,
                _ => {
                    // The worker is gone: nobody reads what is left.
                    self.outbox.clear();
                    return;
                }
            }
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
    /// What the worker reported of its confinement.
    pub confinement: super::confine::Confinement,
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
    ) -> Result<Worker, String> {
        let mut spawn = Command::new(&command.program);
        spawn
            .args(&command.args)
            .arg("--heap-mb")
            .arg(limits.heap_mb.to_string())
            .arg("--cpu-seconds")
            .arg(limits.cpu_seconds.to_string());
        if probe {
            spawn.arg("--probe");
        }
        {
            use std::os::unix::process::CommandExt;
            spawn.process_group(0);
        }
        spawn
            .env_clear()
            .current_dir("/")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = spawn_from_the_spawner(spawn).map_err(|err| {
            format!(
                "cannot start the Python worker `{}`: {err}",
                command.program.display()
            )
        })?;
        let pid = child.id();
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            crate::process::kill_group(Some(pid));
            let _ = child.wait();
            return Err("the Python worker's pipes are missing".into());
        };
        let mut worker = Worker::from_parts(
            pid,
            Some(child),
            None,
            Box::new(stdout),
            Box::new(stdin),
            Box::new(stderr),
            frames,
        )?;
        worker.handshake(probe, timeout)?;
        Ok(worker)
    }

    /// A worker over its three channels, with the threads that serve them.
    fn from_parts(
        pid: u32,
        child: Option<Child>,
        pidfd: Option<OwnedFd>,
        stdout: Box<dyn Read + Send>,
        stdin: Box<dyn std::io::Write + Send>,
        stderr: Box<dyn Read + Send>,
        limits: FrameLimits,
    ) -> Result<Worker, String> {
        let (frames_tx, frames) = tokio::sync::mpsc::unbounded_channel();
        let spawned = std::thread::Builder::new()
            .name("codemode-py-read".into())
            .spawn(move || {
                let mut stdout = stdout;
                loop {
                    let frame = read_frame::<FromWorker>(&mut stdout, limits);
                    let stop = frame.is_err();
                    if frames_tx.send(frame).is_err() || stop {
                        break;
                    }
                }
            });
        let (writer, to_write) = mpsc::channel::<Vec<u8>>();
        let queued = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let spawned = spawned.and_then(|_| {
            let queued = queued.clone();
            std::thread::Builder::new()
                .name("codemode-py-write".into())
                .spawn(move || {
                    let mut stdin = stdin;
                    for bytes in to_write {
                        let written = stdin.write_all(&bytes).and_then(|()| stdin.flush());
                        queued.fetch_sub(bytes.len() as u64, std::sync::atomic::Ordering::SeqCst);
                        if written.is_err() {
                            break;
                        }
                    }
                })
        });
        let tail = Arc::new(Mutex::new(Vec::new()));
        let spawned = spawned.and_then(|_| {
            let tail = tail.clone();
            std::thread::Builder::new()
                .name("codemode-py-stderr".into())
                .spawn(move || drain_into(stderr, &tail))
        });
        let worker = Worker {
            child,
            pid,
            pidfd,
            reaped: false,
            killed: false,
            channel: Channel::Threads {
                frames,
                writer,
                queued,
            },
            stderr: tail,
            confinement: super::confine::Confinement::none(),
        };
        if let Err(err) = spawned {
            return Err(format!("cannot start the Python worker's threads: {err}"));
        }
        Ok(worker)
    }

    fn handshake(&mut self, probe: bool, timeout: Duration) -> Result<(), String> {
        let deadline = std::time::Instant::now() + timeout;
        if let Channel::Socket(socket) = &mut self.channel {
            return socket_handshake(socket, probe, deadline)
                .map_err(|why| {
                    let tail = String::from_utf8_lossy(
                        &self.stderr.lock().unwrap_or_else(|p| p.into_inner()),
                    )
                    .trim()
                    .to_owned();
                    format!("the Python worker did not start: {why}; {tail}")
                })
                .map(|confinement| {
                    self.confinement = confinement;
                });
        }
        let Channel::Threads { frames, .. } = &mut self.channel else {
            return Err("no channel".into());
        };
        let mut next = || -> Result<FromWorker, String> {
            loop {
                match frames.try_recv() {
                    Ok(Ok(frame)) => return Ok(frame),
                    Ok(Err(err)) => return Err(err.to_string()),
                    Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => {
                        return Err("the worker exited".into());
                    }
                    Err(tokio::sync::mpsc::error::TryRecvError::Empty) => {
                        if std::time::Instant::now() >= deadline {
                            return Err(format!(
                                "the worker was not ready within {} ms",
                                timeout.as_millis()
                            ));
                        }
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
            }
        };
        let failed = |why: String, worker: &Worker| {
            let tail = worker.stderr_tail();
            if tail.is_empty() {
                format!("the Python worker did not start: {why}")
            } else {
                format!("the Python worker did not start: {why}; its standard error: {tail}")
            }
        };
        match next() {
            Ok(FromWorker::Confined {
                landlock,
                seccomp,
                rlimits,
                detail,
            }) => {
                self.confinement = super::confine::Confinement {
                    landlock,
                    seccomp,
                    rlimits,
                    detail,
                };
            }
            Ok(other) => return Err(failed(format!("it sent {other:?} first"), self)),
            Err(why) => return Err(failed(why, self)),
        }
        if probe {
            return Ok(());
        }
        match next() {
            Ok(FromWorker::Ready {}) => Ok(()),
            Ok(other) => Err(failed(format!("it sent {other:?} instead of ready"), self)),
            Err(why) => Err(failed(why, self)),
        }
    }

    /// The next frame (`None` once the reader stopped).
    pub(crate) async fn next_frame(&mut self) -> Option<Incoming> {
        match &mut self.channel {
            Channel::Threads { frames, .. } => frames.recv().await,
            Channel::Socket(socket) => {
                if socket.closed {
                    return None;
                }
                loop {
                    if let Some(frame) = socket.take_frame() {
                        if frame.is_err() {
                            socket.closed = true;
                        }
                        return Some(frame);
                    }
                    socket.flush_some();
                    let interest = if socket.outbox.is_empty() {
                        tokio::io::Interest::READABLE
                    } else {
                        tokio::io::Interest::READABLE | tokio::io::Interest::WRITABLE
                    };
                    let async_fd = match async_fd(socket) {
                        Ok(fd) => fd,
                        Err(err) => {
                            socket.closed = true;
                            return Some(Err(ReadError::Io(err)));
                        }
                    };
                    let mut guard = match async_fd.ready(interest).await {
                        Ok(guard) => guard,
                        Err(err) => {
                            socket.closed = true;
                            return Some(Err(ReadError::Io(err)));
                        }
                    };
                    let ready = guard.ready();
                    if ready.is_writable() {
                        guard.clear_ready_matching(tokio::io::Ready::WRITABLE);
                    }
                    if !(ready.is_readable() || ready.is_read_closed()) {
                        // Writable only: the loop flushes.
                        drop(guard);
                        continue;
                    }
                    let mut chunk = [0u8; 64 * 1024];
                    let read = guard.get_ref().get_ref().read(&mut chunk);
                    match read {
                        Ok(0) => {
                            socket.closed = true;
                            return Some(Err(ReadError::Closed));
                        }
                        Ok(n) => socket.inbox.extend_from_slice(&chunk[..n]),
                        Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                            guard.clear_ready_matching(tokio::io::Ready::READABLE);
                        }
                        Err(err) => {
                            socket.closed = true;
                            return Some(Err(ReadError::Io(err)));
                        }
                    }
                }
            }
        }
    }

    /// Queues a frame for the worker (a worker that is gone just never reads it).
    pub(crate) fn send(&mut self, frame: &ToWorker) {
        let mut bytes = Vec::new();
        if write_to_worker(&mut bytes, frame).is_err() {
            return;
        }
        match &mut self.channel {
            Channel::Threads { writer, queued, .. } => {
                queued.fetch_add(bytes.len() as u64, std::sync::atomic::Ordering::SeqCst);
                if writer.send(bytes).is_err() {
                    queued.store(0, std::sync::atomic::Ordering::SeqCst);
                }
            }
            Channel::Socket(socket) => {
                socket.outbox.extend_from_slice(&bytes);
                socket.flush_some();
            }
        }
    }

    /// Bytes sent to the worker that it has not read yet (host memory they hold).
    pub(crate) fn queued_bytes(&self) -> u64 {
        match &self.channel {
            Channel::Threads { queued, .. } => queued.load(std::sync::atomic::Ordering::SeqCst),
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
        let pid = i32::try_from(self.pid).ok()?;
        let mut clock: libc::clockid_t = 0;
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: both calls only write the out-parameters we pass; a pid that is gone
        // makes them fail, which we report as `None`.
        unsafe {
            if libc::clock_getcpuclockid(pid, &mut clock) != 0
                || libc::clock_gettime(clock, &mut now) != 0
            {
                return None;
            }
        }
        Some(Duration::new(
            u64::try_from(now.tv_sec).unwrap_or(0),
            u32::try_from(now.tv_nsec).unwrap_or(0),
        ))
    }

    /// The end of what the worker wrote to standard error, as text.
    pub(crate) fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&tail).trim().to_owned()
    }

    /// How the worker ended, if it has: `exited with status N` / `was killed by signal N`
    /// (a forked worker, not our child: `ended`).
    pub(crate) fn exit_status(&mut self, wait: Duration) -> Option<String> {
        use std::os::unix::process::ExitStatusExt;
        if let Some(pidfd) = &self.pidfd {
            let mut poll = libc::pollfd {
                fd: pidfd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let millis = i32::try_from(wait.as_millis()).unwrap_or(i32::MAX);
            // SAFETY: `poll` reads and writes the one pollfd we pass.
            let ready = unsafe { libc::poll(&mut poll, 1, millis) };
            return (ready > 0).then(|| "ended".to_owned());
        }
        let child = self.child.as_mut()?;
        let deadline = std::time::Instant::now() + wait;
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
                Ok(None) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                _ => return None,
            }
        }
    }

    /// Kills the worker (its whole process group) and reaps it off the caller's path.
    pub(crate) fn kill(&mut self) {
        if self.reaped || self.killed {
            return;
        }
        self.killed = true;
        if let Some(pidfd) = &self.pidfd {
            // SAFETY: `pidfd_send_signal` on our own pidfd names exactly the forked worker,
            // alive or dead (a pidfd never refers to a reused pid).
            unsafe {
                libc::syscall(
                    libc::SYS_pidfd_send_signal,
                    pidfd.as_raw_fd(),
                    libc::SIGKILL,
                    std::ptr::null::<libc::siginfo_t>(),
                    0,
                );
            }
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

/// The socket under tokio's reactor (made non-blocking on first use, in the run).
fn async_fd(
    socket: &mut SocketChannel,
) -> std::io::Result<&tokio::io::unix::AsyncFd<std::fs::File>> {
    if socket.async_fd.is_none() {
        let fd = socket.file.try_clone()?;
        // SAFETY: fcntl on a descriptor we own, reading then setting its flags.
        unsafe {
            let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) < 0
            {
                return Err(std::io::Error::last_os_error());
            }
        }
        // SAFETY: `fd` is a descriptor we own (a fresh `try_clone`), moved into the AsyncFd
        // and closed only when it is dropped: it stays open and the same for the AsyncFd's
        // whole life, as `register` requires.
        let registered = unsafe { tokio::io::unix::AsyncFd::register(fd) };
        socket.async_fd = Some(registered.map_err(|err| std::io::Error::other(err.to_string()))?);
    }
    socket
        .async_fd
        .as_ref()
        .ok_or_else(|| std::io::Error::other("no reactor registration"))
}

/// Reads the worker's `confined` and (unless probing) `ready` frames, blocking until
/// `deadline`.
fn socket_handshake(
    socket: &mut SocketChannel,
    probe: bool,
    deadline: std::time::Instant,
) -> Result<super::confine::Confinement, String> {
    let mut next = || -> Result<FromWorker, String> {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if !readable(&socket.file, left) {
            return Err("not ready within the start timeout".to_owned());
        }
        read_frame::<FromWorker>(&mut socket.file, socket.limits).map_err(|err| err.to_string())
    };
    let confinement = match next()? {
        FromWorker::Confined {
            landlock,
            seccomp,
            rlimits,
            detail,
        } => super::confine::Confinement {
            landlock,
            seccomp,
            rlimits,
            detail,
        },
        other => return Err(format!("it sent {other:?} first")),
    };
    if !probe {
        match next()? {
            FromWorker::Ready {} => {}
            other => return Err(format!("it sent {other:?} instead of ready")),
        }
    }
    Ok(confinement)
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
        let mut tail = tail.lock().unwrap_or_else(|p| p.into_inner());
        tail.extend_from_slice(&chunk[..n]);
        if tail.len() > STDERR_TAIL {
            let cut = tail.len() - STDERR_TAIL;
            tail.drain(..cut);
        }
    }
}

/// Waits until `fd` is readable, at most `timeout`.
fn readable(fd: &impl AsRawFd, timeout: Duration) -> bool {
    let mut poll = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let millis = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
    // SAFETY: `poll` reads and writes the one pollfd we pass.
    unsafe { libc::poll(&mut poll, 1, millis) > 0 }
}

impl Template {
    /// Starts a template and waits for its status.
    pub(crate) fn start(
        command: &WorkerCommand,
        limits: Limits,
        timeout: Duration,
    ) -> Result<Template, String> {
        let (control, theirs) = super::fds::seqpacket_pair()
            .map_err(|err| format!("cannot make the template's socket: {err}"))?;
        let mut spawn = Command::new(&command.program);
        spawn
            .args(&command.args)
            .arg("--heap-mb")
            .arg(limits.heap_mb.to_string())
            .arg("--cpu-seconds")
            .arg(limits.cpu_seconds.to_string())
            .arg("--template");
        {
            use std::os::unix::process::CommandExt;
            spawn.process_group(0);
        }
        spawn
            .env_clear()
            .current_dir("/")
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = spawn_from_the_spawner(spawn).map_err(|err| {
            format!(
                "cannot start the Python template `{}`: {err}",
                command.program.display()
            )
        })?;
        let tail = Arc::new(Mutex::new(Vec::new()));
        if let Some(stderr) = child.stderr.take() {
            let tail = tail.clone();
            let _ = std::thread::Builder::new()
                .name("codemode-py-template".into())
                .spawn(move || drain_into(stderr, &tail));
        }
        let status = if readable(&control, timeout) {
            super::fds::recv(&control, 64 * 1024).map_err(|err| err.to_string())
        } else {
            Err(format!("not ready within {} ms", timeout.as_millis()))
        };
        let frame = status.and_then(|(body, _)| {
            serde_json::from_slice::<FromWorker>(&body).map_err(|err| {
                if body.is_empty() {
                    "it exited".to_owned()
                } else {
                    err.to_string()
                }
            })
        });
        match frame {
            Ok(FromWorker::Confined { .. }) => Ok(Template {
                child,
                control: Mutex::new(control),
                stderr: tail,
            }),
            Ok(other) => Err(format!("the Python template sent {other:?} first")),
            Err(why) => {
                let text = String::from_utf8_lossy(&tail.lock().unwrap_or_else(|p| p.into_inner()))
                    .trim()
                    .to_owned();
                crate::process::kill_group(Some(child.id()));
                let _ = child.wait();
                Err(format!("the Python template did not start: {why}; {text}"))
            }
        }
    }

    /// Forks a worker and waits for its `ready`.
    pub(crate) fn fork(&self, frames: FrameLimits, timeout: Duration) -> Result<Worker, String> {
        let (body, fds) = {
            let control = self.control.lock().unwrap_or_else(|p| p.into_inner());
            super::fds::send(control.as_raw_fd(), br#"{"t":"spawn"}"#, &[])
                .map_err(|err| format!("the Python template is gone: {err}"))?;
            if !readable(&*control, timeout) {
                return Err("the Python template did not answer".into());
            }
            super::fds::recv(&*control, 4096)
                .map_err(|err| format!("the Python template is gone: {err}"))?
        };
        let pid = match serde_json::from_slice::<FromWorker>(&body) {
            Ok(FromWorker::Spawned { pid }) if pid > 0 => pid,
            _ => {
                return Err(format!(
                    "the Python template could not fork a worker: {}",
                    self.stderr_tail()
                ));
            }
        };
        let mut fds = fds.into_iter();
        let (Some(socket), Some(stderr)) = (fds.next(), fds.next()) else {
            return Err("the Python template sent no descriptors".into());
        };
        // Without its pidfd a forked worker could not be killed reliably: refused.
        let Some(pidfd) = fds.next() else {
            return Err("the Python template could not open the worker's pidfd".into());
        };
        let pidfd = Some(pidfd);
        let tail = Arc::new(Mutex::new(Vec::new()));
        {
            let tail = tail.clone();
            let stderr = std::fs::File::from(stderr);
            std::thread::Builder::new()
                .name("codemode-py-stderr".into())
                .spawn(move || drain_into(stderr, &tail))
                .map_err(|err| format!("cannot start the Python worker's thread: {err}"))?;
        }
        let mut worker = Worker {
            child: None,
            pid,
            pidfd,
            reaped: false,
            killed: false,
            channel: Channel::Socket(Box::new(SocketChannel {
                file: std::fs::File::from(socket),
                async_fd: None,
                inbox: Vec::new(),
                outbox: Vec::new(),
                limits: frames,
                closed: false,
            })),
            stderr: tail,
            confinement: super::confine::Confinement::none(),
        };
        worker.handshake(false, timeout)?;
        Ok(worker)
    }

    /// Whether the template still runs.
    pub(crate) fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&tail).trim().to_owned()
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
