//! The `codemode` command inside the package: the script `pip` installs
//! (`codemode._cli:main`) runs the library's command line ([`codemode::cli::run`], the very
//! code of the binary) through [`run_cli`], with the interpreter's lock released. Python
//! programs' workers are this interpreter under its launcher ([`crate::program_workers`]), made the
//! process's default before the command builds its host.
//!
//! This module owns the command's entry point in the package; the command itself lives in
//! the core crate.

use std::ffi::OsString;
use std::io::Write;

use pyo3::prelude::*;

use crate::{guarded, to_py_err};

/// `codemode._native._run_cli(argv)`: runs the command with `argv` (the program's name
/// first) and returns its exit status; what it prints goes to this process's standard
/// output and error, as the binary's does. Blocks until the command ends (`serve` until
/// its client leaves or a signal ends it).
#[pyfunction]
#[pyo3(name = "_run_cli")]
pub(crate) fn run_cli(py: Python<'_>, argv: Vec<OsString>) -> PyResult<u8> {
    guarded(py, || {
        crate::program_workers::set_process_default(py).map_err(|err| to_py_err(py, &err))?;
        let status = py.detach(move || {
            let status = codemode::cli::run(argv);
            // A binary's standard output is flushed when `main` returns; an extension
            // module's never is.
            let _ = std::io::stdout().flush();
            status
        });
        Ok(status)
    })
}
