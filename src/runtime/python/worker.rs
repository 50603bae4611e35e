//! The worker process: one confined CPython that runs one program, entered by re-running
//! the host's binary with [`WORKER_ARG`] (the way codex enters its Linux sandbox).
//!
//! Steps: die with the parent; move the protocol to private descriptors (fd 0 becomes
//! `/dev/null`, fd 1 standard error, so no stray write can forge a frame); start CPython
//! with an isolated configuration (no `site`, no bytecode writes, no signal handlers);
//! `prepare()` the bootstrap (pre-imports, the event loop); confine the process
//! ([`super::confine`]) and report it in a `confined` frame; `serve()` the one program; exit
//! without finalizing. The environment is empty (the host cleared it); the limits come on the
//! command line. This module owns the worker's life; it must not talk to the host except
//! through the frames.

use std::ffi::CString;
use std::io::Write;
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;

use pyo3::prelude::*;
use pyo3::types::PyModule;

use super::confine::{Limits, confine};
use super::protocol::{FromWorker, write_frame};

/// The first argument that makes the codemode binary (or a host binary that calls
/// [`worker_main`]) a Python worker.
pub const WORKER_ARG: &str = "__python-worker";

/// The Python side of the worker.
const BOOTSTRAP: &str = include_str!("bootstrap.py");

/// Whether this process was started as a Python worker (its first argument is
/// [`WORKER_ARG`]).
pub fn is_worker_invocation() -> bool {
    std::env::args_os().nth(1).is_some_and(|arg| arg == WORKER_ARG)
}

/// Runs this process as a Python worker and exits; call it first thing in `main` when
/// [`is_worker_invocation`] says so. A library host whose binary is the worker command
/// does exactly what the codemode command does:
///
/// ```no_run
/// fn main() {
///     if codemode::runtime::python::is_worker_invocation() {
///         codemode::runtime::python::worker_main();
///     }
///     // ... the host's own work
/// }
/// ```
pub fn worker_main() -> ! {
    let args: Vec<String> = std::env::args().skip(2).collect();
    let code = run(&args);
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process at once; nothing after it runs. Skipping the
    // interpreter's finalization (and Rust's destructors) is the point: the worker is single
    // use, and a finalizer of the program must not run after its budget.
    unsafe { libc::_exit(code) }
}

/// The limits and mode from the command line: `--heap-mb N --cpu-seconds N [--probe]`.
fn parse(args: &[String]) -> Result<(Limits, bool), String> {
    let mut limits = Limits {
        heap_mb: 512,
        cpu_seconds: 3600,
    };
    let mut probe = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = || {
            args.next()
                .and_then(|n| n.parse::<u64>().ok())
                .ok_or_else(|| format!("{arg} needs a number"))
        };
        match arg.as_str() {
            "--heap-mb" => limits.heap_mb = number()?,
            "--cpu-seconds" => limits.cpu_seconds = number()?,
            "--probe" => probe = true,
            other => return Err(format!("unknown worker argument `{other}`")),
        }
    }
    Ok((limits, probe))
}

/// A descriptor-owning file that is never closed by Rust.
fn borrowed_file(fd: i32) -> ManuallyDrop<std::fs::File> {
    // SAFETY: `fd` is a descriptor this process opened (a `dup` below) and keeps open for
    // its whole life; `ManuallyDrop` keeps Rust from closing it, so the interpreter may use
    // the same descriptor.
    ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) })
}

fn run(args: &[String]) -> i32 {
    let (limits, probe) = match parse(args) {
        Ok(parsed) => parsed,
        Err(err) => {
            eprintln!("codemode python worker: {err}");
            return 2;
        }
    };
    // SAFETY: plain prctl/getppid calls with integer arguments.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        if libc::getppid() == 1 {
            return 1;
        }
    }
    let Some((rfd, wfd)) = private_descriptors() else {
        eprintln!(
            "codemode python worker: cannot set up its descriptors: {}",
            std::io::Error::last_os_error()
        );
        return 1;
    };
    let mut out = borrowed_file(wfd);
    if probe {
        let confinement = confine(limits);
        let frame = FromWorker::Confined {
            landlock: confinement.landlock,
            seccomp: confinement.seccomp,
            detail: confinement.detail,
        };
        return if write_frame(&mut *out, &frame).is_ok() { 0 } else { 1 };
    }
    if let Err(err) = start_interpreter() {
        eprintln!("codemode python worker: the interpreter did not start: {err}");
        return 1;
    }
    let served = Python::attach(|py| -> PyResult<()> {
        let source = CString::new(BOOTSTRAP)
            .map_err(|_| pyo3::exceptions::PyValueError::new_err("NUL in the bootstrap"))?;
        let module = PyModule::from_code(
            py,
            &source,
            c"codemode_bootstrap.py",
            c"codemode_bootstrap",
        )?;
        module.getattr("prepare")?.call0()?;
        let confinement = confine(limits);
        let frame = FromWorker::Confined {
            landlock: confinement.landlock,
            seccomp: confinement.seccomp,
            detail: confinement.detail,
        };
        write_frame(&mut *out, &frame)
            .map_err(|err| pyo3::exceptions::PyOSError::new_err(err.to_string()))?;
        module.getattr("serve")?.call1((rfd, wfd))?;
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

/// Moves the protocol off fds 0 and 1: returns private copies (read, write), points fd 0
/// at `/dev/null` and fd 1 at standard error.
fn private_descriptors() -> Option<(i32, i32)> {
    // SAFETY: dup/open/dup2 on descriptors this process owns; every result is checked.
    unsafe {
        let rfd = libc::dup(0);
        let wfd = libc::dup(1);
        if rfd < 0 || wfd < 0 {
            return None;
        }
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if null < 0 || libc::dup2(null, 0) < 0 || libc::dup2(2, 1) < 0 {
            return None;
        }
        libc::close(null);
        Some((rfd, wfd))
    }
}

/// Starts CPython: isolated (no environment variables, no user site), no `site`, no
/// bytecode writes, no signal handlers of its own.
fn start_interpreter() -> Result<(), String> {
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
            return Err(message);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_gives_the_limits() {
        let args: Vec<String> = ["--heap-mb", "64", "--cpu-seconds", "5"]
            .map(String::from)
            .to_vec();
        let (limits, probe) = parse(&args).unwrap();
        assert_eq!((limits.heap_mb, limits.cpu_seconds, probe), (64, 5, false));
        assert!(parse(&["--heap-mb".to_owned()]).is_err());
        assert!(parse(&["--shell".to_owned()]).is_err());
        assert!(parse(&["--probe".to_owned()]).unwrap().1);
    }
}
