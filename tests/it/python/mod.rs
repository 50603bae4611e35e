//! The Python runtime through its public API: `PythonEngine` as a `CodeRuntime` (real
//! CPython in confined worker processes of `python3` on PATH), the same
//! behaviour the JavaScript engine's tests pin, the adversarial suite of
//! `fixtures/python-hostile/`, and `codemode run FILE.py`.

mod basics;
mod code_mode;
mod hostile;
mod static_check;
mod store;

use std::sync::{Arc, LazyLock};

use codemode::runtime::python::{PythonConfig, PythonEngine, WorkerCommand};
use codemode::runtime::{
    BindingNamespace, CodeRunOutcome, CodeRunRequest, CodeRuntime, EngineConfig,
};

use crate::runtime::TestHost;

/// The worker command of the tests: `python3` on PATH (the default interpreter).
pub(crate) fn worker() -> WorkerCommand {
    WorkerCommand::new(WorkerCommand::DEFAULT_PYTHON)
}

/// Budgets small enough for tests to hit them quickly, large enough for a loaded machine.
pub(crate) fn test_config() -> EngineConfig {
    EngineConfig::default()
        .with_compute_ms(2_000)
        .with_wall_ms(10_000)
        .with_heap_mb(128)
        .with_max_output_bytes(1 << 20)
        .with_warm_pool(2)
}

pub(crate) fn engine_with(config: EngineConfig) -> PythonEngine {
    PythonEngine::new(config, PythonConfig::new(worker())).expect("the Python engine starts")
}

/// One engine for the tests that need no budgets of their own.
pub(crate) static ENGINE: LazyLock<Arc<PythonEngine>> =
    LazyLock::new(|| Arc::new(engine_with(test_config())));

pub(crate) fn request(program: &str, namespaces: Vec<BindingNamespace>) -> CodeRunRequest {
    CodeRunRequest::new(program, namespaces)
}

pub(crate) async fn run(program: &str) -> CodeRunOutcome {
    ENGINE.run(request(program, Vec::new())).await
}

pub(crate) async fn run_with_tools(
    host: &Arc<TestHost>,
    members: &[&str],
    program: &str,
) -> CodeRunOutcome {
    ENGINE
        .run(request(program, vec![crate::runtime::tools(host, members)]))
        .await
}

/// A registry with Code Mode in `code` mode on the Python engine.
pub(crate) fn code_mode_registry() -> codemode::registry::Registry {
    let registry = codemode::registry::Registry::new();
    let engine: Arc<dyn codemode::runtime::CodeRuntime> = ENGINE.clone();
    codemode::code::CodeMode::install(
        &registry,
        codemode::code::CodeModeConfig::default().with_mode(codemode::code::PresentationMode::Code),
    )
    .and_then(|code| code.set_runtime(engine))
    .expect("Code Mode installs");
    registry
}
