//! The code runtime through its public API: `JsEngine` as a `CodeRuntime`, with a small test
//! `BindingHost` whose members echo, sleep, fail, hang or panic.

mod basics;
mod bindings;
mod budgets;
mod exhaustion;
pub(crate) mod hostile;
mod isolation;
mod memory;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode::ErrorCode;
use codemode::JsonValue;
use codemode::runtime::{
    BindingHost, BindingNamespace, CallAnswer, CallError, CodeRunErrorKind, CodeRunOutcome,
    CodeRunRequest, CodeRuntime, EngineConfig, JsEngine,
};
use futures::future::BoxFuture;
use serde_json::json;

/// Taken by tests that keep a core busy (endless loops, big allocations), so the tests that
/// measure CPU-time budgets against the clock get a core to themselves within this binary.
pub static CPU: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Budgets small enough for tests to hit them quickly, large enough for a loaded machine.
pub fn test_config() -> EngineConfig {
    EngineConfig::default()
        .with_compute_ms(2_000)
        .with_wall_ms(10_000)
        .with_heap_mb(128)
        .with_max_output_bytes(1 << 20)
        .with_warm_pool(1)
}

pub fn engine() -> JsEngine {
    JsEngine::new(test_config()).expect("the engine starts")
}

pub fn engine_with(config: EngineConfig) -> JsEngine {
    JsEngine::new(config).expect("the engine starts")
}

/// Runs `program` with no bindings.
pub async fn run(engine: &JsEngine, program: &str) -> CodeRunOutcome {
    engine.run(request(program, vec![])).await
}

pub fn request(program: &str, namespaces: Vec<BindingNamespace>) -> CodeRunRequest {
    CodeRunRequest::new(program, namespaces)
}

/// The value of a successful run (panics with the outcome otherwise).
#[track_caller]
pub fn value(outcome: &CodeRunOutcome) -> JsonValue {
    assert!(outcome.error.is_none(), "the run failed: {outcome:#?}");
    outcome.value.clone().unwrap_or(JsonValue::Null)
}

/// The error message of a failed run of `kind` (panics with the outcome otherwise).
#[track_caller]
pub fn failure(outcome: &CodeRunOutcome, kind: CodeRunErrorKind) -> String {
    match &outcome.error {
        Some(error) if error.kind == kind => error.message.clone(),
        _ => panic!("expected a {kind} failure, got {outcome:#?}"),
    }
}

/// A binding host whose members behave as their names say:
/// `echo(args)` resolves to its arguments; `sleep({ms, value})` resolves to `value` after `ms`;
/// `fail({message})` rejects; `unsafe_result` resolves to an integer JavaScript cannot hold;
/// `hang` never resolves (its future's drop is counted); `panic` panics when invoked.
/// Every other member echoes.
#[derive(Default)]
pub struct TestHost {
    pub calls: Mutex<Vec<(String, JsonValue)>>,
    pub hanging_dropped: Arc<AtomicUsize>,
    pub in_flight: Arc<AtomicUsize>,
    pub max_in_flight: Arc<AtomicUsize>,
}

impl TestHost {
    pub fn new() -> Arc<TestHost> {
        Arc::new(TestHost::default())
    }

    pub fn calls(&self) -> Vec<(String, JsonValue)> {
        self.calls.lock().unwrap().clone()
    }

    pub fn names(&self) -> Vec<String> {
        self.calls().into_iter().map(|(name, _)| name).collect()
    }
}

struct DropCounter(Arc<AtomicUsize>);

impl Drop for DropCounter {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl BindingHost for TestHost {
    fn call(&self, member: &str, args: JsonValue) -> BoxFuture<'static, CallAnswer> {
        self.calls
            .lock()
            .unwrap()
            .push((member.to_owned(), codemode::json::deep_clone(&args)));
        match member {
            "sleep" => {
                let ms = args["ms"].as_u64().unwrap_or(0);
                let value = args.get("value").cloned().unwrap_or(JsonValue::Null);
                let in_flight = self.in_flight.clone();
                let max = self.max_in_flight.clone();
                Box::pin(async move {
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    max.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                    Ok(value)
                })
            }
            "fail" => {
                // `{message, code?}`: a failure with that code (`TOOL_FAILED` by default).
                let message = args["message"].as_str().unwrap_or("failed").to_owned();
                let code = ErrorCode::ALL
                    .into_iter()
                    .find(|code| Some(code.as_str()) == args["code"].as_str())
                    .unwrap_or(ErrorCode::ToolFailed);
                Box::pin(async move { Err(CallError::new(code, message)) })
            }
            "unsafe_result" => Box::pin(async { Ok(json!({"id": 9_007_199_254_740_993u64})) }),
            "hang" => {
                let counter = DropCounter(self.hanging_dropped.clone());
                Box::pin(async move {
                    let _counter = counter;
                    futures::future::pending::<()>().await;
                    Ok(JsonValue::Null)
                })
            }
            "panic" => panic!("the test host panics on purpose"),
            _ => Box::pin(async move { Ok(args) }),
        }
    }
}

/// The `tools` namespace over `host` with `members`.
pub fn tools(host: &Arc<TestHost>, members: &[&str]) -> BindingNamespace {
    BindingNamespace::tools(
        members.iter().map(|m| (*m).to_owned()).collect(),
        host.clone(),
    )
}

/// Runs `program` with `tools` over `host`.
pub async fn run_with_tools(
    engine: &JsEngine,
    host: &Arc<TestHost>,
    members: &[&str],
    program: &str,
) -> CodeRunOutcome {
    engine
        .run(request(program, vec![tools(host, members)]))
        .await
}
