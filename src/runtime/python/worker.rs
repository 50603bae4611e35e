//! The worker process: one confined CPython that runs one program. Two ways in:
//!
//! - [`worker_main`] (feature `python`): re-running the host's binary with [`WORKER_ARG`]
//!   (the way codex enters its Linux sandbox); the binary embeds CPython and starts it here.
//! - [`hosted_worker_main`] (feature `python-host`): an interpreter already running (the
//!   Python package's launcher under the host's own `sys.executable`, `-I -S -B`) calls in
//!   through an extension module; nothing is started, only the stable ABI is used.
//!
//! Steps: die with the parent; move the protocol to private descriptors (fd 0 becomes
//! `/dev/null`, fd 1 standard error, so no stray write can forge a frame); start CPython
//! with an isolated configuration (no `site`, no bytecode writes, no signal handlers) when
//! embedded;
//! `prepare()` the bootstrap (pre-imports, the event loop); confine the process
//! ([`super::confine`]) and report it in a `confined` frame; `serve()` the one program; exit
//! without finalizing. With `--template` it is a fork server instead: prepared and
//! landlocked once, it forks a child per request that makes its own event loop, applies
//! rlimits and seccomp and serves one program on a socket handed to the host with its
//! standard-error pipe and pidfd. The environment is empty (the host cleared it); the
//! limits come on the command line. System calls go through rustix, except `fork` (between
//! CPython's fork hooks) and `_exit`. This module owns the worker's life; it must not talk
//! to the host except through the frames.

use std::ffi::CString;
use std::io::Write;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::PyModule;
use rustix::process::{Pid, Signal};

use super::confine::{Limits, confine};
use super::protocol::{FromWorker, write_frame};

/// The first argument that makes the codemode binary (or a host binary that calls
/// [`worker_main`]) a Python worker.
pub const WORKER_ARG: &str = "__python-worker";

/// The Python side of the worker.
const BOOTSTRAP: &str = include_str!("bootstrap.py");

/// Whether this process was started as a Python worker (its first argument is
/// [`WORKER_ARG`]).
#[cfg(feature = "python")]
pub fn is_worker_invocation() -> bool {
    std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == WORKER_ARG)
}

/// Runs this process as a Python worker and exits; call it first thing in `main` when
/// [`is_worker_invocation`] says so. A library host whose binary is the worker command
/// does exactly what the codemode command does:
///
/// ```no_run
/// // First thing in the host's `main`:
/// if codemode::runtime::python::is_worker_invocation() {
///     codemode::runtime::python::worker_main();
/// }
/// // ... the host's own work
/// ```
#[cfg(feature = "python")]
pub fn worker_main() -> ! {
    let args: Vec<String> = std::env::args().skip(2).collect();
    exit(run(&args, Interpreter::Embedded))
}

/// Runs this process, an interpreter already running, as a Python worker and exits: the
/// same worker as [`worker_main`] (the same descriptors, bootstrap, confinement and frames)
/// without starting an interpreter. `args` are the worker's arguments (what follows
/// [`WORKER_ARG`]: the limits and the mode, as the host appends them to its
/// [`WorkerCommand`](super::WorkerCommand)).
///
/// The caller is an extension module's function called by a launcher that the host's own
/// interpreter runs isolated (`python -I -S -B`), before it did anything else: no other
/// thread, nothing imported but what the launcher needed. Confinement is applied here, by
/// the same code as in the embedded worker; the program's modules are imported before it.
#[cfg(feature = "python-host")]
pub fn hosted_worker_main(_py: Python<'_>, args: &[String]) -> ! {
    exit(run(args, Interpreter::Running))
}

/// Ends the process with `code`.
fn exit(code: i32) -> ! {
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process at once; nothing after it runs. Skipping the
    // interpreter's finalization (and Rust's destructors) is the point: the worker is single
    // use, and a finalizer of the program must not run after its budget.
    unsafe { libc::_exit(code) }
}

/// What the worker process is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// One program, on its standard input and output.
    Single,
    /// Confine and report, nothing else.
    Probe,
    /// A fork server on a `SOCK_SEQPACKET` standard input: a ready worker per request.
    Template,
}

/// A command line the worker does not understand.
#[derive(Debug, thiserror::Error)]
enum ArgError {
    #[error("{0} needs a number")]
    NeedsNumber(String),
    #[error("--probe-out needs a file")]
    NeedsFile,
    #[error("--probe-out is for --probe")]
    ProbeOutWithoutProbe,
    #[error("unknown worker argument `{0}`")]
    Unknown(String),
}

/// The limits, the mode and the probe's file from the command line:
/// `--heap-mb N --cpu-seconds N [--probe [--probe-out FILE] | --template]`.
///
/// `--probe-out FILE` (with `--probe`): the probe also writes its result to FILE — the
/// `confined` frame's JSON, one line (`{"t":"confined","landlock":"full","seccomp":true,…}`;
/// see [`probe_to_file`]). Standard output gets the frame as always (length first, as the
/// host reads it; `.ci/run` reads it there), so a caller that wants the result without the
/// frame's length, or whose standard output is not its own, reads the file.
fn parse(args: &[String]) -> Result<(Limits, Mode, Option<PathBuf>), ArgError> {
    let mut limits = Limits {
        heap_mb: 512,
        cpu_seconds: 3600,
    };
    let mut mode = Mode::Single;
    let mut probe_out = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = || {
            args.next()
                .and_then(|n| n.parse::<u64>().ok())
                .ok_or_else(|| ArgError::NeedsNumber(arg.clone()))
        };
        match arg.as_str() {
            "--heap-mb" => limits.heap_mb = number()?,
            "--cpu-seconds" => limits.cpu_seconds = number()?,
            "--probe" => mode = Mode::Probe,
            "--template" => mode = Mode::Template,
            "--probe-out" => {
                let file = args.next().filter(|file| !file.is_empty());
                probe_out = Some(PathBuf::from(file.ok_or(ArgError::NeedsFile)?));
            }
            other => return Err(ArgError::Unknown(other.to_owned())),
        }
    }
    if probe_out.is_some() && mode != Mode::Probe {
        return Err(ArgError::ProbeOutWithoutProbe);
    }
    Ok((limits, mode, probe_out))
}

/// Where the worker's interpreter comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Interpreter {
    /// Started here, embedded (the codemode binary; feature `python`).
    #[cfg(feature = "python")]
    Embedded,
    /// Already running: this code was called from it (feature `python-host`).
    Running,
}

impl Interpreter {
    /// Makes sure the interpreter runs.
    fn start(self) -> Result<(), InterpreterError> {
        match self {
            #[cfg(feature = "python")]
            Interpreter::Embedded => start_interpreter(),
            Interpreter::Running => Ok(()),
        }
    }
}

fn run(args: &[String], interpreter: Interpreter) -> i32 {
    let (limits, mode, probe_out) = match parse(args) {
        Ok(parsed) => parsed,
        Err(err) => {
            eprintln!("codemode python worker: {err}");
            return 2;
        }
    };
    if probe_out.is_some() && interpreter == Interpreter::Running {
        eprintln!("codemode python worker: --probe-out is for the codemode binary");
        return 2;
    }
    // Dies with the host's spawner thread; a host that is gone already was (an orphan is
    // re-parented to init).
    let _ = rustix::process::set_parent_process_death_signal(Some(Signal::KILL));
    if rustix::process::getppid().is_some_and(Pid::is_init) {
        return 1;
    }
    let (rfd, wfd) = match private_descriptors() {
        Ok(fds) => fds,
        Err(err) => {
            eprintln!("codemode python worker: cannot set up its descriptors: {err}");
            return 1;
        }
    };
    if mode == Mode::Template {
        return template(limits, rfd, interpreter);
    }
    // The protocol's descriptors stay open until the worker exits: the interpreter reads
    // and writes them by number.
    let mut out = std::fs::File::from(wfd);
    if mode == Mode::Probe {
        return match &probe_out {
            Some(file) => probe_to_file(args, &mut out, file),
            None => probe(limits, &mut out),
        };
    }
    if let Err(err) = interpreter.start() {
        eprintln!("codemode python worker: the interpreter did not start: {err}");
        return 1;
    }
    let served = Python::attach(|py| -> PyResult<()> {
        let source = CString::new(BOOTSTRAP)
            .map_err(|_| pyo3::exceptions::PyValueError::new_err("NUL in the bootstrap"))?;
        let module =
            PyModule::from_code(py, &source, c"codemode_bootstrap.py", c"codemode_bootstrap")?;
        module.getattr("prepare")?.call0()?;
        let confinement = confine(limits);
        let frame = FromWorker::from(confinement);
        write_frame(&mut out, &frame)
            .map_err(|err| pyo3::exceptions::PyOSError::new_err(err.to_string()))?;
        module
            .getattr("serve")?
            .call1((rfd.as_raw_fd(), out.as_raw_fd()))?;
        Ok(())
    });
    match served {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("codemode python worker: {err}");
            1
        }
    }
}

/// The probe: confines itself and reports how, as a frame on `out`.
fn probe(limits: Limits, out: &mut std::fs::File) -> i32 {
    let frame = FromWorker::from(confine(limits));
    if write_frame(out, &frame).is_ok() {
        0
    } else {
        1
    }
}

/// `--probe --probe-out FILE`: a confined process can write no file (its file-size limit
/// is 0, and Landlock closes the file system), so the probe runs as a child of this process,
/// `args` without `--probe-out`; this one, never confined, passes the child's frame on to
/// `out` as it came and writes its JSON to FILE as one line. The child's exit status, or 1
/// when the file cannot be written or the child wrote no frame.
fn probe_to_file(args: &[String], out: &mut std::fs::File, file: &Path) -> i32 {
    let fail = |what: &str, err: &dyn std::fmt::Display| {
        eprintln!("codemode python worker: {what}: {err}");
        1
    };
    let mut target = match std::fs::File::create(file) {
        Ok(target) => target,
        Err(err) => return fail(&format!("cannot create {}", file.display()), &err),
    };
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(err) => return fail("cannot find this program to run the probe", &err),
    };
    let mut rest = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--probe-out" {
            args.next();
        } else {
            rest.push(arg);
        }
    }
    let child = std::process::Command::new(exe)
        .arg(WORKER_ARG)
        .args(rest)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::inherit())
        .output();
    let child = match child {
        Ok(child) => child,
        Err(err) => return fail("cannot run the probe", &err),
    };
    if let Err(err) = out.write_all(&child.stdout).and_then(|()| out.flush()) {
        return fail("cannot write the probe's frame", &err);
    }
    if !child.status.success() {
        return child.status.code().unwrap_or(1);
    }
    let body = match child.stdout.split_first_chunk::<4>() {
        Some((length, body)) if u32::from_le_bytes(*length) as usize == body.len() => body,
        _ => return fail("the probe wrote no frame", &"its output ended early"),
    };
    let written = target
        .write_all(body)
        .and_then(|()| target.write_all(b"\n"))
        .and_then(|()| target.flush());
    match written {
        Ok(()) => 0,
        Err(err) => fail(&format!("cannot write {}", file.display()), &err),
    }
}

/// The fork server: the interpreter is started and prepared once, Landlock applied once
/// (inherited by every child); each `spawn` request on `control` forks a child that makes a
/// fresh event loop, applies rlimits and seccomp, and serves one program on a socket whose
/// other end, with the child's standard-error pipe and a pidfd, goes back to the host.
fn template(limits: Limits, control: OwnedFd, interpreter: Interpreter) -> i32 {
    if let Err(err) = interpreter.start() {
        eprintln!("codemode python template: the interpreter did not start: {err}");
        return 1;
    }
    let served = Python::attach(|py| -> PyResult<i32> {
        let source = CString::new(BOOTSTRAP)
            .map_err(|_| pyo3::exceptions::PyValueError::new_err("NUL in the bootstrap"))?;
        let module =
            PyModule::from_code(py, &source, c"codemode_bootstrap.py", c"codemode_bootstrap")?;
        module.getattr("prepare")?.call0()?;
        let (landlock, detail, size) = super::confine::confine_template();
        let status = FromWorker::Confined {
            landlock: landlock.clone(),
            seccomp: false,
            rlimits: size > 0,
            detail: detail.clone(),
        };
        let body = serde_json::to_vec(&status).unwrap_or_default();
        if super::fds::send(&control, &body, &[]).is_err() {
            return Ok(1);
        }
        let mut control = control;
        loop {
            let (body, _) = match super::fds::recv(&control, 4096) {
                Ok(message) => message,
                Err(_) => return Ok(1),
            };
            if body.is_empty() {
                return Ok(0);
            }
            // Finished workers stay zombies until here, so a pid is never reused while the
            // template may still open a pidfd for it.
            reap_children();
            // Only `spawn` is ever sent; any message is taken as one.
            control = fork_worker(&module, limits, control, &landlock, &detail, size);
        }
    });
    match served {
        Ok(code) => code,
        Err(err) => {
            eprintln!("codemode python template: {err}");
            1
        }
    }
}

/// Reaps every child that has exited (without waiting for the others).
fn reap_children() {
    use rustix::process::{WaitOptions, waitpid};
    while let Ok(Some(_)) = waitpid(None, WaitOptions::NOHANG) {}
}

/// Forks one worker (see [`template`]) and hands its descriptors to the host; gives the
/// control socket back (the child closes its copy and never returns).
fn fork_worker(
    module: &Bound<'_, PyModule>,
    limits: Limits,
    control: OwnedFd,
    landlock: &str,
    detail: &str,
    size: u64,
) -> OwnedFd {
    let failed = |control: &OwnedFd, why: std::io::Error| {
        eprintln!("codemode python template: cannot fork a worker: {why}");
        let body = br#"{"t":"spawned","pid":0}"#;
        let _ = super::fds::send(control, body, &[]);
    };
    let (host_end, worker_end) = match super::fds::stream_pair() {
        Ok(pair) => pair,
        Err(err) => {
            failed(&control, err);
            return control;
        }
    };
    let (stderr_read, stderr_write) =
        match rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC) {
            Ok(pipe) => pipe,
            Err(err) => {
                failed(&control, err.into());
                return control;
            }
        };
    // SAFETY: the template is single-threaded (the interpreter starts no threads and the
    // worker code none), so `fork` duplicates a consistent process. PyOS_BeforeFork /
    // AfterFork_* keep the interpreter's locks consistent across it, as `os.fork` does.
    let pid = unsafe {
        pyo3::ffi::PyOS_BeforeFork();
        let pid = libc::fork();
        if pid == 0 {
            pyo3::ffi::PyOS_AfterFork_Child();
        } else {
            pyo3::ffi::PyOS_AfterFork_Parent();
        }
        pid
    };
    if pid < 0 {
        failed(&control, std::io::Error::last_os_error());
        return control;
    }
    if pid == 0 {
        // The child: one program, then exit. Dies with the template (which dies with the
        // host); keeps none of the template's ends.
        let _ = rustix::process::set_parent_process_death_signal(Some(Signal::KILL));
        drop(control);
        drop(host_end);
        drop(stderr_read);
        let _ = rustix::stdio::dup2_stderr(&stderr_write);
        let _ = rustix::stdio::dup2_stdout(&stderr_write);
        drop(stderr_write);
        let code = forked_worker(module, limits, worker_end, landlock, detail, size);
        let _ = std::io::stderr().flush();
        exit(code)
    }
    // The template: hand the descriptors over, keep none (they close when dropped here).
    drop(worker_end);
    drop(stderr_write);
    // Our own child, not reaped before the next request (`reap_children` runs only then),
    // so `pid` names it even if it already exited.
    let pidfd = Pid::from_raw(pid)
        .map(|pid| rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()));
    let body = format!(r#"{{"t":"spawned","pid":{pid}}}"#);
    let mut fds = vec![host_end.as_fd(), stderr_read.as_fd()];
    if let Some(Ok(pidfd)) = &pidfd {
        fds.push(pidfd.as_fd());
    }
    if let Err(err) = super::fds::send(&control, body.as_bytes(), &fds) {
        eprintln!("codemode python template: cannot hand over a worker: {err}");
        if let Some(pid) = Pid::from_raw(pid) {
            let _ = rustix::process::kill_process(pid, Signal::KILL);
        }
    }
    control
}

/// The forked child: a fresh event loop, then rlimits and seccomp, then the program.
fn forked_worker(
    module: &Bound<'_, PyModule>,
    limits: Limits,
    socket: OwnedFd,
    landlock: &str,
    detail: &str,
    size: u64,
) -> i32 {
    let prepared = module
        .getattr("after_fork")
        .and_then(|after_fork| after_fork.call0());
    if let Err(err) = prepared {
        eprintln!("codemode python worker: {err}");
        return 1;
    }
    let confinement = super::confine::confine_forked(limits, landlock, detail, size);
    let frame = FromWorker::from(confinement);
    // Open until the worker exits: the interpreter reads and writes it by number.
    let mut out = std::fs::File::from(socket);
    if write_frame(&mut out, &frame).is_err() {
        return 1;
    }
    let socket = out.as_raw_fd();
    match module
        .getattr("serve")
        .and_then(|serve| serve.call1((socket, socket)))
    {
        Ok(_) => 0,
        Err(err) => {
            eprintln!("codemode python worker: {err}");
            1
        }
    }
}

/// Moves the protocol off fds 0 and 1: returns private copies (read, write), points fd 0
/// at `/dev/null` and fd 1 at standard error.
fn private_descriptors() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let rfd = std::io::stdin().as_fd().try_clone_to_owned()?;
    let wfd = std::io::stdout().as_fd().try_clone_to_owned()?;
    let null = std::fs::File::open("/dev/null")?;
    rustix::stdio::dup2_stdin(&null)?;
    rustix::stdio::dup2_stdout(std::io::stderr())?;
    Ok((rfd, wfd))
}

/// Starts CPython: isolated (no environment variables, no user site), no `site`, no
/// bytecode writes, no signal handlers of its own.
#[cfg(feature = "python")]
fn start_interpreter() -> Result<(), InterpreterError> {
    use pyo3::ffi;
    let mut config = std::mem::MaybeUninit::<ffi::PyConfig>::uninit();
    // SAFETY: `PyConfig_InitIsolatedConfig` initializes every field of the struct it is
    // given; the fields set afterwards are plain ints; `Py_InitializeFromConfig` reads the
    // initialized config; `PyConfig_Clear` frees what the config owns, once.
    unsafe {
        ffi::PyConfig_InitIsolatedConfig(config.as_mut_ptr());
        let config = config.assume_init_mut();
        config.site_import = 0;
        config.write_bytecode = 0;
        config.install_signal_handlers = 0;
        config.user_site_directory = 0;
        let status = ffi::Py_InitializeFromConfig(config);
        ffi::PyConfig_Clear(config);
        if ffi::PyStatus_Exception(status) != 0 {
            let message = if status.err_msg.is_null() {
                "unknown error".to_owned()
            } else {
                std::ffi::CStr::from_ptr(status.err_msg)
                    .to_string_lossy()
                    .into_owned()
            };
            return Err(InterpreterError(message));
        }
    }
    Ok(())
}

/// CPython's own message for why it did not start.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct InterpreterError(String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_gives_the_limits() {
        let args: Vec<String> = ["--heap-mb", "64", "--cpu-seconds", "5"]
            .map(String::from)
            .to_vec();
        let (limits, mode, probe_out) = parse(&args).unwrap();
        assert_eq!(
            (limits.heap_mb, limits.cpu_seconds, mode),
            (64, 5, Mode::Single)
        );
        assert_eq!(probe_out, None);
        assert!(parse(&["--heap-mb".to_owned()]).is_err());
        assert!(parse(&["--shell".to_owned()]).is_err());
        assert_eq!(parse(&["--probe".to_owned()]).unwrap().1, Mode::Probe);
        assert_eq!(parse(&["--template".to_owned()]).unwrap().1, Mode::Template);
    }

    #[test]
    fn the_probe_may_write_its_result_to_a_file() {
        let args = |list: &[&str]| list.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>();
        let (_, mode, out) = parse(&args(&["--probe", "--probe-out", "p.json"])).unwrap();
        assert_eq!((mode, out), (Mode::Probe, Some(PathBuf::from("p.json"))));
        let err = |list: &[&str]| parse(&args(list)).unwrap_err().to_string();
        assert_eq!(
            err(&["--probe-out", "p.json"]),
            "--probe-out is for --probe"
        );
        assert_eq!(err(&["--probe", "--probe-out"]), "--probe-out needs a file");
        assert_eq!(
            err(&["--template", "--probe-out", "p"]),
            "--probe-out is for --probe"
        );
    }
}
