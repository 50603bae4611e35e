//! What a program leaves behind must not cost its answer or the next run (printed figures,
//! `cargo bench --bench codemode -- leftovers`):
//! - `leftovers/timers`: a program that schedules 1,000,000 timers and returns: the time from
//!   its body's end to the answer (the teardown is after the answer), and the next run;
//! - `leftovers/promise_all`: 100,000 binding calls in one `Promise.all` through `run_code`
//!   (a tool answering at once): the time, the process's peak RSS, and how time grows with
//!   the count (10,000 against 100,000: linear is 10x).

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::runtime::{CodeRunRequest, CodeRuntime, EngineConfig, JsEngine};
use codemode::tool::{ToolDefinition, ToolOutput};
use criterion::Criterion;
use serde_json::json;

use super::floor::wanted;
use super::procfs::peak_rss_bytes;
use super::runtime::{code_mode_registry, time_run_code};

pub fn bench(_c: &mut Criterion) {
    let host_runtime = tokio::runtime::Runtime::new().expect("tokio");
    if wanted("leftovers/timers") {
        timers(&host_runtime);
    }
    if wanted("leftovers/promise_all") {
        promise_all(&host_runtime);
    }
}

fn timers(host_runtime: &tokio::runtime::Runtime) {
    let engine = JsEngine::new(EngineConfig::default().with_warm_pool(2)).expect("engine");
    let program = "const started = Date.now();\nfor (let i = 0; i < 1_000_000; i++) setTimeout(() => {}, 1e6 + i);\nreturn Date.now() - started;";
    let run =
        |program: &str| host_runtime.block_on(engine.run(CodeRunRequest::new(program, vec![])));
    let _ = run("return 0");
    let started = Instant::now();
    let outcome = run(program);
    let answered = started.elapsed();
    let body = outcome
        .value
        .as_ref()
        .and_then(|value| value.as_u64())
        .map(Duration::from_millis)
        .unwrap_or_else(|| panic!("the timers program failed: {outcome:?}"));
    let started = Instant::now();
    let next = run("return 1");
    let next_took = started.elapsed();
    assert!(next.error.is_none(), "{next:?}");
    println!(
        "leftovers/timers: 1,000,000 pending timers: body {body:?}, answer {answered:?} after submit ({:?} after the body, target <= 100 ms); the next run {next_took:?}",
        answered.saturating_sub(body),
    );
}

fn promise_all(host_runtime: &tokio::runtime::Runtime) {
    let engine = Arc::new(
        JsEngine::new(EngineConfig::default().with_heap_mb(256).with_warm_pool(2)).expect("engine"),
    );
    let read_file = ToolDefinition::builder("read_file")
        .description("Answers at once.")
        .parameters(json!({"type": "object"}))
        .output(ToolOutput::any())
        .concurrency_safe(|_| true)
        .execute(|_, _| async { Ok(json!("tiny")) })
        .build()
        .expect("the tool builds");
    let registry = code_mode_registry(engine.clone(), [read_file]);
    let mut figures = Vec::new();
    for calls in [10_000u32, 100_000] {
        let code = format!(
            "const pending = [];\nfor (let i = 0; i < {calls}; i++) pending.push(tools.read_file({{ path: \"tiny.txt\" }}));\nreturn (await Promise.all(pending)).length;"
        );
        let took = time_run_code(host_runtime, &registry, &engine, &code);
        figures.push((calls, took));
    }
    let (small, large) = (figures[0].1, figures[1].1);
    println!(
        "leftovers/promise_all: 10,000 calls {small:?}, 100,000 calls {large:?} ({:.1}x for 10x the calls; target <= 20 s), peak RSS {} MiB at heap_mb = 256 (target <= 600)",
        large.as_secs_f64() / small.as_secs_f64(),
        peak_rss_bytes() >> 20,
    );
}
