//! Hooks for `benches/python_bench.py`, not part of the package's API (the names start with
//! `_bench_`, and `codemode._native.pyi` does not declare them).
//!
//! The benchmark compares what Python pays against what a Rust host pays, in one process
//! and one minute (ratios hold on a machine whose speed drifts):
//!
//! - [`add_native_noop`]: a no-op tool written in Rust, registered in a scope, so a program
//!   can call a Rust tool and a Python tool side by side;
//! - [`time_execute`] and [`time_run_code`]: the same calls the Python API makes
//!   (`Scope.execute`, `run_code` through the pipeline), timed from Rust with the GIL
//!   released: the Rust host's figure, as `benches/runtime.rs` and `benches/pipeline.rs`
//!   measure it.
//!
//! This module owns nothing the package needs; deleting it (and its lines in `lib.rs`)
//! changes no behaviour.

use std::time::{Duration, Instant};

use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolOutput};
use codemode::{Error, ErrorCode, JsonValue};
use pyo3::prelude::*;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::registry::PyScope;
use crate::tokio_runtime::runtime;
use crate::{guarded, to_py_err};

/// Registers in `scope` a Rust tool `name` that answers `null` (exclusive, as a Python
/// tool is by default). It stays until the scope is closed.
#[pyfunction]
#[pyo3(name = "_bench_add_native_noop")]
pub(crate) fn add_native_noop(py: Python<'_>, scope: &PyScope, name: String) -> PyResult<()> {
    guarded(py, || {
        let registered = py.detach(|| {
            let tool = ToolDefinition::builder(name)
                .description("Does nothing (a Rust tool, for benchmarks).")
                .parameters(json!({"type": "object"}))
                .output(ToolOutput::any())
                .execute(|_, _| async { Ok(JsonValue::Null) })
                .build()?;
            // Kept for the scope's life.
            scope.scope().register(tool).map(|disposer| disposer.keep())
        });
        registered.map_err(|err| to_py_err(py, &err))
    })
}

/// Times `rounds` calls of `name` with `arguments` (JSON text) through the pipeline, as
/// `Scope.execute` makes them, from Rust (the GIL released, the calls driven by
/// `block_on` on this thread; with `signal`, each carrying a cancellation token as the
/// Python API's calls do), each after a pause of `pause_ms` (untimed: lets an engine's
/// warm pool refill, as `benches/runtime.rs` waits for it). Each call's seconds; a failed
/// call is an error.
#[pyfunction]
#[pyo3(name = "_bench_time_execute", signature = (scope, name, arguments, rounds, pause_ms = 0.0, signal = false))]
pub(crate) fn time_execute(
    py: Python<'_>,
    scope: &PyScope,
    name: String,
    arguments: String,
    rounds: usize,
    pause_ms: f64,
    signal: bool,
) -> PyResult<Vec<f64>> {
    guarded(py, || {
        let arguments: JsonValue = serde_json::from_str(&arguments).map_err(|err| {
            to_py_err(
                py,
                &Error::new(ErrorCode::InvalidArgs, format!("not JSON: {err}")),
            )
        })?;
        let host = runtime()?;
        let timed = py.detach(|| {
            let registry = scope.scope().registry().clone();
            let agent = scope.scope().id();
            let mut seconds = Vec::with_capacity(rounds);
            let pause = Duration::from_secs_f64(pause_ms.max(0.0) / 1000.0);
            for round in 0..rounds {
                if !pause.is_zero() {
                    std::thread::sleep(pause);
                }
                let mut input =
                    ToolExecutionInput::new(format!("bench-{round}"), &name, arguments.clone())
                        .for_agent(agent);
                if signal {
                    // As the Python API's calls carry one (their cancellation).
                    input = input.with_signal(CancellationToken::new());
                }
                let started = Instant::now();
                let result = host.block_on(registry.execute(input));
                seconds.push(started.elapsed().as_secs_f64());
                if result.is_error() {
                    return Err(Error::new(ErrorCode::ToolFailed, result.model_text()));
                }
            }
            Ok(seconds)
        });
        timed.map_err(|err| to_py_err(py, &err))
    })
}

/// Times `rounds` runs of `code` through `run_code` in `scope` (which must present in
/// `code` or `both` mode), as `benches/runtime.rs` does: `Registry::execute` of
/// `run_code`, from Rust, each after a pause of `pause_ms` (with `signal`: carrying a
/// cancellation token). Each run's seconds.
#[pyfunction]
#[pyo3(name = "_bench_time_run_code", signature = (scope, code, rounds, pause_ms = 0.0, signal = false))]
pub(crate) fn time_run_code(
    py: Python<'_>,
    scope: &PyScope,
    code: String,
    rounds: usize,
    pause_ms: f64,
    signal: bool,
) -> PyResult<Vec<f64>> {
    let arguments = json!({"code": code, "description": "benchmark"}).to_string();
    time_execute(
        py,
        scope,
        "run_code".to_owned(),
        arguments,
        rounds,
        pause_ms,
        signal,
    )
}

/// Adds the hooks to the module `codemode._native`.
pub(crate) fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(add_native_noop, m)?)?;
    m.add_function(wrap_pyfunction!(time_execute, m)?)?;
    m.add_function(wrap_pyfunction!(time_run_code, m)?)?;
    Ok(())
}
