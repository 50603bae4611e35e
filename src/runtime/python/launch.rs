//! How a worker process is made of a Python interpreter found at run time: which interpreter
//! ([`resolve`]: `[runtime] python`, a command on `PATH` or a path), and what it runs.
//!
//! A worker is `<python> -I -S -B -c LAUNCHER __python-worker <native fd> <bootstrap fd>
//! <worker arguments>` (`-I`: no environment variables, no user site, no script directory on
//! `sys.path`; `-S`: no `site`, so no `site-packages` and no `.pth` file runs; `-B`: no
//! bytecode written). The two descriptors are memfds this process makes once ([`payload`])
//! and each worker inherits (the spawn clears their close-on-exec flag in the child only):
//!
//! - the native primitive (`confine.c`, compiled by `build.rs` without Python.h and embedded
//!   here), which the launcher loads as the `_codemode_confine` extension module from
//!   `/proc/self/fd/N`: the only native code a worker runs besides its interpreter, making
//!   only the confinement's system calls;
//! - the bootstrap: one line of JSON (the confinement's [`Setup`](super::confine::Setup)),
//!   one line with the length in bytes of the deep JSON parser the worker shares with the
//!   Python package (`python/codemode/_deep_json.py`, embedded at build time), that parser,
//!   which the launcher runs as the module `_deep_json`, then `bootstrap.py`, which it runs
//!   as the module `codemode_bootstrap` (importing `_deep_json`) and whose `worker_main` is
//!   the worker from there on (private descriptors, pre-imports, confinement, frames, or
//!   the template's fork server).
//!
//! The launcher closes both descriptors once read. It refuses an interpreter older than 3.10
//! with [`TOO_OLD`] on standard error, before anything else.
//!
//! An engine finds its interpreter once ([`resolve`], then [`identify`]: one quick run that
//! gives its version and its own executable, so a launcher script on `PATH` such as pyenv's
//! shim runs once, not per worker).
//!
//! This module owns the launcher, the payload and the interpreter's resolution; it must not
//! speak the protocol.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::LazyLock;
use std::time::Duration;

use super::confine::{Limits, SETUP};
use super::error::InterpreterError;

/// The argument that marks a process as a codemode Python worker (after the launcher, so
/// `ps` and `/proc/PID/cmdline` show it), and the `codemode` command's hidden subcommand
/// that probes the confinement (`codemode __python-worker --probe`).
pub const WORKER_ARG: &str = "__python-worker";

/// What the launcher writes to standard error (then exits with status 3) when the
/// interpreter is older than 3.10; the version follows.
pub(crate) const TOO_OLD: &str = "codemode: this interpreter is too old for Python programs (CPython 3.10 or later is needed): Python ";

/// The worker's launcher, run with `-c`: `sys.argv` is `['-c', '__python-worker', <native
/// fd>, <bootstrap fd>, <worker arguments>...]`. Written for any Python 3, so that an old
/// one says what it is.
const LAUNCHER: &str = "import sys
if sys.version_info < (3, 10):
    sys.stderr.write('codemode: this interpreter is too old for Python programs (CPython 3.10 or later is needed): Python ' + sys.version.split()[0] + '\\n')
    sys.exit(3)
import os
from importlib.machinery import ExtensionFileLoader, ModuleSpec
def _launch(argv):
    native_fd, bootstrap_fd = int(argv[2]), int(argv[3])
    path = '/proc/self/fd/%d' % native_fd
    loader = ExtensionFileLoader('_codemode_confine', path)
    native = loader.create_module(ModuleSpec('_codemode_confine', loader, origin=path))
    loader.exec_module(native)
    os.close(native_fd)
    chunks = []
    while True:
        chunk = os.pread(bootstrap_fd, 1 << 20, sum(map(len, chunks)))
        if not chunk:
            break
        chunks.append(chunk)
    os.close(bootstrap_fd)
    setup, _, rest = b''.join(chunks).partition(b'\\n')
    size, _, rest = rest.partition(b'\\n')
    parser, source = rest[:int(size)], rest[int(size):]
    for name, code in (('_deep_json', parser), ('codemode_bootstrap', source)):
        module = type(sys)(name)
        module.__file__ = name + '.py'
        sys.modules[name] = module
        exec(compile(code, name + '.py', 'exec'), module.__dict__)
    return module.worker_main, native, setup
_main, _native, _setup = _launch(sys.argv)
del _launch
_main(_native, _setup, sys.argv[4:])
";

/// The Python side of the worker.
const BOOTSTRAP: &str = include_str!("bootstrap.py");

/// The deep JSON parser of the Python side, one file for the package and the worker (the
/// crate's `include` ships it): `bootstrap.py` imports it as `_deep_json`.
const DEEP_JSON: &str = include_str!("../../../python/codemode/_deep_json.py");

/// The native primitive, compiled by `build.rs` from `confine.c`.
static NATIVE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/codemode_confine.so"));

/// The two memfds every worker inherits.
#[derive(Debug)]
pub(crate) struct Payload {
    native: OwnedFd,
    bootstrap: OwnedFd,
}

impl Payload {
    /// The descriptors a worker inherits.
    pub(crate) fn inherited(&self) -> [RawFd; 2] {
        [self.native.as_raw_fd(), self.bootstrap.as_raw_fd()]
    }

    /// A worker's arguments to `python`: the launcher, then `limits` and `mode` (none,
    /// `--probe` or `--template`).
    pub(crate) fn args(&self, limits: Limits, mode: Option<&str>) -> Vec<OsString> {
        let mut args: Vec<OsString> = ["-I", "-S", "-B", "-c", LAUNCHER, WORKER_ARG]
            .into_iter()
            .map(OsString::from)
            .collect();
        args.extend([
            self.native.as_raw_fd().to_string().into(),
            self.bootstrap.as_raw_fd().to_string().into(),
            "--heap-mb".into(),
            limits.heap_mb.to_string().into(),
            "--cpu-seconds".into(),
            limits.cpu_seconds.to_string().into(),
        ]);
        args.extend(mode.map(OsString::from));
        args
    }
}

/// This process's payload, made on first use.
static PAYLOAD: LazyLock<Result<Payload, String>> = LazyLock::new(|| {
    let setup = serde_json::to_string(&*SETUP).map_err(|err| err.to_string())?;
    let mut bootstrap = setup.into_bytes();
    bootstrap.push(b'\n');
    bootstrap.extend_from_slice(format!("{}\n", DEEP_JSON.len()).as_bytes());
    bootstrap.extend_from_slice(DEEP_JSON.as_bytes());
    bootstrap.extend_from_slice(BOOTSTRAP.as_bytes());
    let native = memfd("codemode-confine", NATIVE, true)
        .map_err(|err| format!("cannot hold the native primitive in a memfd: {err}"))?;
    let bootstrap = memfd("codemode-bootstrap", &bootstrap, false)
        .map_err(|err| format!("cannot hold the bootstrap in a memfd: {err}"))?;
    Ok(Payload { native, bootstrap })
});

/// The payload, or why it could not be made.
pub(crate) fn payload() -> Result<&'static Payload, InterpreterError> {
    PAYLOAD
        .as_ref()
        .map_err(|why| InterpreterError::Payload(why.clone()))
}

/// A sealed, close-on-exec memfd holding `bytes`; `exec`: one that may be mapped
/// executable (`MFD_EXEC` where the kernel knows it, for `vm.memfd_noexec`; older kernels
/// refuse the flag and have no such restriction).
fn memfd(name: &str, bytes: &[u8], exec: bool) -> std::io::Result<OwnedFd> {
    use rustix::fs::{MemfdFlags, SealFlags, fcntl_add_seals, memfd_create};
    let flags = MemfdFlags::CLOEXEC | MemfdFlags::ALLOW_SEALING;
    let fd = if exec {
        match memfd_create(name, flags | MemfdFlags::EXEC) {
            Ok(fd) => fd,
            Err(_) => memfd_create(name, flags)?,
        }
    } else {
        memfd_create(name, flags)?
    };
    let mut file = std::fs::File::from(fd);
    file.write_all(bytes)?;
    let fd = OwnedFd::from(file);
    fcntl_add_seals(
        &fd,
        SealFlags::SHRINK | SealFlags::GROW | SealFlags::WRITE | SealFlags::SEAL,
    )?;
    Ok(fd)
}

/// The interpreter `python` names: itself when it is a path (it has a `/`), else the first
/// executable file of that name in a directory of `PATH` (this process's).
///
/// # Errors
///
/// When it is not an executable file, or not on `PATH`.
pub(crate) fn resolve(python: &Path) -> Result<PathBuf, InterpreterError> {
    let is_path = python.as_os_str().as_encoded_bytes().contains(&b'/');
    if python.as_os_str().is_empty() {
        return Err(InterpreterError::Empty);
    }
    if is_path {
        return match executable(python) {
            Ok(()) => Ok(python.to_path_buf()),
            Err(why) => Err(InterpreterError::NotExecutable {
                path: python.to_path_buf(),
                why,
            }),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(python))
        .find(|candidate| executable(candidate).is_ok())
        .ok_or_else(|| InterpreterError::NotOnPath {
            name: python.to_path_buf(),
            path: path.to_string_lossy().into_owned(),
        })
}

/// What the interpreter says it is, asked once when an engine is made.
const IDENTIFY: &str = "import sys
sys.stdout.write('%s\\n%s\\n%d.%d.%d' % ((sys.implementation.name, sys.executable) + tuple(sys.version_info[:3])))
";

/// How long the interpreter may take to say what it is.
const IDENTIFY_TIMEOUT: Duration = Duration::from_secs(20);

/// The interpreter at `path` (resolved), run once the way workers run (isolated, empty
/// environment, `/`): the executable it says it is (`sys.executable`, so that a launcher
/// script on `PATH` such as pyenv's shim runs once here, not for every worker), when it is
/// a CPython 3.10 or later.
///
/// # Errors
///
/// When it cannot run, is not CPython, or is older than 3.10 (naming `[runtime] python`).
pub(crate) fn identify(path: &Path) -> Result<PathBuf, InterpreterError> {
    let did_not_start = |why: String| InterpreterError::DidNotStart {
        path: path.to_path_buf(),
        why,
    };
    let mut child = std::process::Command::new(path)
        .args(["-I", "-S", "-B", "-c", IDENTIFY])
        .env_clear()
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| did_not_start(err.to_string()))?;
    let (Some(mut stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(did_not_start("its output is missing".to_owned()));
    };
    // Standard error on a thread (either pipe could fill while the other is read).
    let errors = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = (&mut stderr).take(64 * 1024).read_to_end(&mut text);
        text
    });
    let mut said = Vec::new();
    let read = (&mut stdout).take(64 * 1024).read_to_end(&mut said);
    let deadline = std::time::Instant::now() + IDENTIFY_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let errors = errors.join().unwrap_or_default();
    let errors = String::from_utf8_lossy(&errors).trim().to_owned();
    let Some(status) = status else {
        return Err(did_not_start(format!(
            "it did not answer within {} s",
            IDENTIFY_TIMEOUT.as_secs()
        )));
    };
    if let Err(err) = read {
        return Err(did_not_start(err.to_string()));
    }
    if !status.success() {
        return Err(did_not_start(format!("it {status}: {errors}")));
    }
    let said = String::from_utf8_lossy(&said);
    let mut lines = said.lines();
    let (Some(implementation), Some(executable), Some(version)) =
        (lines.next(), lines.next(), lines.next())
    else {
        return Err(did_not_start(format!(
            "it did not say what it is: {said:?}"
        )));
    };
    if implementation != "cpython" {
        return Err(InterpreterError::NotCPython {
            path: path.to_path_buf(),
            implementation: implementation.to_owned(),
        });
    }
    let mut numbers = version.split('.').map(|n| n.parse::<u32>().unwrap_or(0));
    let (major, minor) = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
    if (major, minor) < (3, 10) {
        return Err(InterpreterError::TooOld {
            path: path.to_path_buf(),
            version: version.to_owned(),
        });
    }
    // Its own executable when it knows it and it is one (else the path it was found at).
    let executable = PathBuf::from(executable);
    Ok(
        if executable.is_absolute() && self::executable(&executable).is_ok() {
            executable
        } else {
            path.to_path_buf()
        },
    )
}

/// Whether `path` is an executable file (what it is otherwise).
fn executable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err("not a file".to_owned()),
        Ok(meta) if meta.permissions().mode() & 0o111 == 0 => Err("not executable".to_owned()),
        Ok(_) => Ok(()),
        Err(err) => Err(err.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interpreter_is_found_on_path_or_by_its_path_and_refused_otherwise() {
        let found = resolve(Path::new("sh")).unwrap();
        assert!(found.is_absolute() && found.ends_with("sh"), "{found:?}");
        assert_eq!(resolve(&found).unwrap(), found);
        let err = resolve(Path::new("no-such-python-here")).unwrap_err();
        assert!(err.to_string().contains("`[runtime] python`"), "{err}");
        assert!(matches!(err, InterpreterError::NotOnPath { .. }), "{err:?}");
        let err = resolve(Path::new("/no/such/python")).unwrap_err();
        assert!(
            matches!(err, InterpreterError::NotExecutable { .. }),
            "{err:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("python3");
        std::fs::write(&plain, "").unwrap();
        let err = resolve(&plain).unwrap_err();
        assert!(err.to_string().contains("not executable"), "{err}");
        let err = resolve(dir.path()).unwrap_err();
        assert!(err.to_string().contains("not a file"), "{err}");
        assert!(matches!(
            resolve(Path::new("")),
            Err(InterpreterError::Empty)
        ));
    }

    #[test]
    fn an_interpreter_says_what_it_is_and_an_old_or_foreign_one_is_refused() {
        let python = resolve(Path::new("python3")).unwrap();
        let executable = identify(&python).unwrap();
        assert!(executable.is_absolute(), "{executable:?}");
        let err = identify(Path::new("/bin/sh")).unwrap_err();
        assert!(
            matches!(err, InterpreterError::DidNotStart { .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("`[runtime] python`"), "{err}");
        // Older interpreters of this machine, when it has them (pyenv's).
        for old in ["3.9.18", "3.6.15"] {
            let path = PathBuf::from(format!("/root/.pyenv/versions/{old}/bin/python3"));
            if path.exists() {
                let err = identify(&path).unwrap_err();
                assert!(
                    matches!(&err, InterpreterError::TooOld { version, .. } if version == old),
                    "{err:?}"
                );
            }
        }
    }

    #[test]
    fn the_payload_is_two_sealed_memfds_and_the_launcher_marks_the_worker() {
        let payload = payload().unwrap();
        let args = payload.args(
            Limits {
                heap_mb: 64,
                cpu_seconds: 5,
            },
            Some("--probe"),
        );
        assert_eq!(args[..4], ["-I", "-S", "-B", "-c"]);
        assert_eq!(args[5], WORKER_ARG);
        assert_eq!(args.last(), Some(&OsString::from("--probe")));
        for fd in payload.inherited() {
            // SAFETY: the payload's descriptors stay open for the whole process.
            let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
            let seals = rustix::fs::fcntl_get_seals(fd).unwrap();
            assert!(
                seals.contains(rustix::fs::SealFlags::WRITE | rustix::fs::SealFlags::SEAL),
                "{seals:?}"
            );
        }
        assert!(LAUNCHER.contains(TOO_OLD.trim_end()));
        assert!(LAUNCHER.len() < 4096);
    }
}
