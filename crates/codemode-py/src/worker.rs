//! Python programs' workers under the host's own interpreter.
//!
//! The package embeds no interpreter and links no libpython, so its Python workers are not
//! the codemode binary re-run (`codemode __python-worker`) but the interpreter the host runs
//! on, `sys.executable`, started isolated (`-I`: no environment variables, no user site, no
//! script directory on `sys.path`; `-S`: no `site`, so no `site-packages` and no `.pth`
//! files run; `-B`: no bytecode written) with a launcher of a few lines ([`LAUNCHER`]) that
//! loads this extension module from its file alone (not the `codemode` package: nothing
//! else of the host's installation is imported) and calls [`python_worker`]. From there the
//! worker is the core's, line for line: the same private descriptors, bootstrap, pre-imports,
//! confinement (rlimits, Landlock with no rule at all, the seccomp allowlist) and frames
//! ([`codemode::runtime::python::hosted_worker_main`]).
//!
//! - [`worker_command`]: the command for this process's interpreter and this module's file;
//! - [`python_engine`]: a [`PythonEngine`] whose workers start that way (refused, as the
//!   command refuses, where the confinement is not fully enforced, unless allowed);
//! - [`python_worker`] (`codemode._native._python_worker`): the worker's entry point.
//!
//! This module owns how the package's workers start; it must not know about tools.

use codemode::runtime::EngineConfig;
use codemode::runtime::python::{PythonConfig, PythonEngine, WorkerCommand};
use codemode::{Error, ErrorCode};
use pyo3::prelude::*;

/// The worker's launcher, run with `-c`: `sys.argv` is `['-c', <this module's file>,
/// <the worker's arguments>...]`. It loads the extension module from its file under its
/// own name without importing the `codemode` package, then hands the process over (the
/// call never returns).
const LAUNCHER: &str = "import sys
from importlib.machinery import ExtensionFileLoader
from importlib.util import module_from_spec, spec_from_file_location
path = sys.argv[1]
spec = spec_from_file_location('codemode._native', path, loader=ExtensionFileLoader('codemode._native', path))
native = module_from_spec(spec)
spec.loader.exec_module(native)
native._python_worker(sys.argv[2:])
";

/// The command that starts a worker under this process's interpreter: `sys.executable -I
/// -S -B -c LAUNCHER <this module's file>` (the limits are appended by the engine).
pub(crate) fn worker_command(py: Python<'_>) -> Result<WorkerCommand, Error> {
    let failed = |what: &str, err: PyErr| {
        Error::new(
            ErrorCode::HostFailed,
            format!("cannot start Python workers: {what}: {err}"),
        )
    };
    let executable: Option<String> = py
        .import("sys")
        .and_then(|sys| sys.getattr("executable"))
        .and_then(|exe| exe.extract())
        .map_err(|err| failed("cannot read sys.executable", err))?;
    let Some(executable) = executable.filter(|exe| !exe.is_empty()) else {
        return Err(Error::new(
            ErrorCode::HostFailed,
            "cannot start Python workers: this interpreter does not know its executable (sys.executable is empty)",
        ));
    };
    let module: String = py
        .import("codemode._native")
        .and_then(|native| native.getattr("__file__"))
        .and_then(|file| file.extract())
        .map_err(|err| failed("cannot find the extension module's file", err))?;
    Ok(WorkerCommand::with_args(
        executable,
        ["-I", "-S", "-B", "-c", LAUNCHER, module.as_str()],
    ))
}

/// Makes [`worker_command`] this process's default, so that every host built from a
/// configuration (the command's `run` and `serve`) starts its workers that way.
pub(crate) fn set_process_default(py: Python<'_>) -> Result<(), Error> {
    WorkerCommand::set_process_default(worker_command(py)?);
    Ok(())
}

/// The Python code runtime with `engine`'s budgets, its workers started under this
/// process's interpreter ([`worker_command`]). Where Landlock, seccomp or the rlimits are
/// not fully enforced it is refused with `INVALID_CONFIG` (the command's message), unless
/// `allow_unconfined`.
///
/// Blocks while the probe worker starts (about 0.1 s): call it without the GIL.
pub(crate) fn python_engine(
    engine: EngineConfig,
    allow_unconfined: bool,
) -> Result<PythonEngine, Error> {
    let command = Python::attach(worker_command)?;
    let python = PythonConfig::new(command).with_allow_unconfined(allow_unconfined);
    PythonEngine::new(engine, python)
}

/// `codemode._native._python_worker(args)`: turns this process into a Python worker and
/// exits it. Only the launcher calls it, as the first thing a fresh isolated interpreter
/// does; `args` are the worker's (the limits and the mode). It never returns.
#[pyfunction]
#[pyo3(name = "_python_worker")]
pub(crate) fn python_worker(py: Python<'_>, args: Vec<String>) {
    codemode::runtime::python::hosted_worker_main(py, &args)
}
