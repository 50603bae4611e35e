//! Python programs' workers under the host's own interpreter.
//!
//! The package embeds no interpreter and links no libpython; its Python workers are the
//! core's, on the interpreter the host runs on (`sys.executable`): the same launcher,
//! confinement primitive, bootstrap, pre-imports, confinement (rlimits, Landlock with no rule
//! at all, the seccomp allowlist) and frames as the `codemode` command's workers
//! ([`codemode::runtime::python::WorkerCommand`]). Nothing of this extension module is
//! loaded in a worker.
//!
//! - [`worker_command`]: the command for this process's interpreter;
//! - [`python_engine`]: a [`PythonEngine`] whose workers start that way (refused, as the
//!   command refuses, where the confinement is not fully enforced, unless allowed).
//!
//! This module owns which interpreter the package's workers run on; it must not know about
//! tools.

use codemode::runtime::EngineConfig;
use codemode::runtime::python::{PythonConfig, PythonEngine, WorkerCommand};
use codemode::{Error, ErrorCode};
use pyo3::prelude::*;

/// Workers on this process's interpreter, `sys.executable`.
pub(crate) fn worker_command(py: Python<'_>) -> Result<WorkerCommand, Error> {
    let executable: Option<String> = py
        .import("sys")
        .and_then(|sys| sys.getattr("executable"))
        .and_then(|exe| exe.extract())
        .map_err(|err| {
            Error::new(
                ErrorCode::HostFailed,
                format!("cannot start Python workers: cannot read sys.executable: {err}"),
            )
        })?;
    let Some(executable) = executable.filter(|exe| !exe.is_empty()) else {
        return Err(Error::new(
            ErrorCode::HostFailed,
            "cannot start Python workers: this interpreter does not know its executable (sys.executable is empty)",
        ));
    };
    Ok(WorkerCommand::new(executable))
}

/// Makes [`worker_command`] this process's default, so that every host built from a
/// configuration that does not name `[runtime] python` (the command's `run` and `serve`)
/// starts its workers on this interpreter.
pub(crate) fn set_process_default(py: Python<'_>) -> Result<(), Error> {
    WorkerCommand::set_process_default(worker_command(py)?);
    Ok(())
}

/// The Python code runtime with `engine`'s budgets, its workers started on this process's
/// interpreter ([`worker_command`]). Where Landlock, seccomp or the rlimits are not fully
/// enforced it is refused with `INVALID_CONFIG` (the command's message), unless
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
