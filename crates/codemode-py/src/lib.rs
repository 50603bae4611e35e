//! `codemode._native`: the Rust half of the `codemode` Python package.
//!
//! The package is an extension module over the `codemode` crate (with its `python` feature,
//! which links no interpreter: the one running is the host's, and Python programs' workers
//! run on that interpreter too).
//! The Python half (`python/codemode/`) owns the public API: decorators, type hints to JSON
//! Schema, result dataclasses, the exception classes. This half owns what must be Rust:
//!
//! - `lib.rs` (this module): the module's init, the mapping of library errors onto the
//!   package's exception classes (defined in `codemode._errors`), and the panic boundary
//!   every synchronous entry point goes through ([`guarded`]);
//! - [`tokio_runtime`]: the process-wide tokio runtime, Rust futures as asyncio awaitables with
//!   cancellation, and which event loop each top-level call came from;
//! - [`driver`]: those futures polled by the thread of the event loop that awaits them;
//! - [`pycall`]: calling Python callables from the pipeline (sync ones on a worker thread,
//!   async ones on the caller's event loop);
//! - [`sync_threads`]: the threads sync Python functions run on, and the hand-off to them;
//! - [`tool`]: a Python function as a codemode [`ToolDefinition`](codemode::tool::ToolDefinition);
//! - [`listeners`]: guards, pre-execute listeners, result observers and the approver as
//!   Python callables;
//! - [`results`]: results and runs as the JSON text the Python half turns into dataclasses;
//! - [`registry`]: the `Registry` and `Scope` classes;
//! - [`session`]: the `Session` class (a session's store, passed with `run_code`);
//! - [`mcp`]: MCP servers as tool sources, configured as `codemode.toml` configures them;
//! - [`policies`]: the registry's policy table, which MCP servers' tools fill too;
//! - [`bench`]: hooks for `benches/python_bench.py` (not API);
//! - [`languages`]: both code runtimes behind one registry, picked per run;
//! - [`program_workers`]: Python programs' workers under the host's own interpreter;
//! - [`cli`]: the `codemode` command (the core's) for the package's script.
//!
//! Rules: no `unwrap`/`expect` on data from outside; no `unsafe`; the GIL is never held
//! while Rust waits (every future is polled outside `Python::attach`: on tokio, or on an
//! event loop's thread with the GIL released); a panic
//! becomes `codemode.PanicError`, never a crash or pyo3's `PanicException`.

use std::panic::AssertUnwindSafe;

use codemode::{Error, ErrorCode};
use pyo3::prelude::*;

mod bench;
mod cli;
mod driver;
mod embedder;
mod languages;
mod listeners;
mod mcp;
mod policies;
mod program_workers;
mod progress;
mod pycall;
mod pyjson;
mod registry;
mod results;
mod session;
mod sync_threads;
mod tokio_runtime;
mod tool;

/// The module `codemode._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<registry::PyRegistry>()?;
    m.add_class::<registry::PyScope>()?;
    m.add_class::<registry::PyDisposer>()?;
    m.add_class::<session::PySession>()?;
    m.add_class::<pycall::Completion>()?;
    m.add_class::<mcp::PyMcpServers>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|code| code.as_str()).collect();
    m.add("ERROR_CODES", codes)?;
    // The numbers `codemode._limits` writes out for the pure-Python parts (a test checks
    // that they agree).
    let limits = pyo3::types::PyDict::new(m.py());
    limits.set_item("DEFAULT_VALUE_DEPTH", codemode::json::DEFAULT_VALUE_DEPTH)?;
    limits.set_item(
        "MAX_VALUE_DEPTH",
        codemode::json::MAX_DEPTH_CEILING - codemode::json::WRAP_DEPTH,
    )?;
    limits.set_item("MAX_SAFE_INTEGER", codemode::json::MAX_SAFE_INTEGER)?;
    limits.set_item("MAX_TOOL_NAME", codemode::tool::MAX_TOOL_NAME)?;
    m.add("LIMITS", limits)?;
    m.add_function(wrap_pyfunction!(panic_for_tests, m)?)?;
    m.add_function(wrap_pyfunction!(listeners::call_next, m)?)?;
    bench::add_to(m)?;
    tokio_runtime::register_at_exit(m)?;
    m.add_function(wrap_pyfunction!(cli::run_cli, m)?)?;
    Ok(())
}

/// Panics inside the panic boundary (the test of [`guarded`]).
#[pyfunction]
#[pyo3(name = "_panic_for_tests")]
fn panic_for_tests(py: Python<'_>, message: String) -> PyResult<()> {
    guarded(py, || -> PyResult<()> { panic!("{message}") })
}

/// The `codemode` exception for a library error: `codemode._errors.error_for(code,
/// message)` picks the class (`CodemodeError` or a subclass) and sets `.code`.
pub(crate) fn to_py_err(py: Python<'_>, err: &Error) -> PyErr {
    exception(py, err.code().as_str(), err.message())
}

/// [`to_py_err`] from a thread that may not be attached to the interpreter.
pub(crate) fn to_py_err_detached(err: &Error) -> PyErr {
    Python::attach(|py| to_py_err(py, err))
}

/// A `codemode` exception with `code` and `message`; if the Python half cannot be reached
/// (it always can, short of interpreter shutdown), a `RuntimeError` with both.
pub(crate) fn exception(py: Python<'_>, code: &str, message: &str) -> PyErr {
    let built = py
        .import("codemode._errors")
        .and_then(|module| module.getattr("error_for"))
        .and_then(|error_for| error_for.call1((code, message)));
    match built {
        Ok(value) => PyErr::from_value(value),
        Err(_) => pyo3::exceptions::PyRuntimeError::new_err(format!("{code}: {message}")),
    }
}

/// Runs `f`, turning a panic into `codemode.PanicError` (code `HOST_FAILED`).
pub(crate) fn guarded<T>(py: Python<'_>, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => Err(panic_error(py, &panic_text(panic.as_ref()))),
    }
}

/// `codemode.PanicError` saying what panicked.
pub(crate) fn panic_error(py: Python<'_>, what: &str) -> PyErr {
    exception(py, "PANIC", &format!("codemode panicked (a bug): {what}"))
}

/// The message of a panic payload.
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

/// `ExcType: message` of a Python exception (what a model reads of a failed tool).
pub(crate) fn describe_py_err(py: Python<'_>, err: &PyErr) -> String {
    let kind = err
        .get_type(py)
        .name()
        .map(|name| name.to_string())
        .unwrap_or_else(|_| "Exception".to_owned());
    let message = err
        .value(py)
        .str()
        .map(|text| text.to_string())
        .unwrap_or_default();
    if message.is_empty() {
        kind
    } else {
        format!("{kind}: {message}")
    }
}
