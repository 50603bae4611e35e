//! `await store.get(key)` of a 1 MB value against `await tools.big({})` of a tool
//! returning the same value, each through `run_code` in the same registry (the store
//! attached to the global scope). Per operation = (T(N) - T(0)) / N, so a run's own cost is
//! not counted. The target (issue 42): a `get` costs no more than the tool call.
//! `store/paired` prints the ratio measured round by round (both a few milliseconds apart).

use std::time::Duration;

use codemode::code::{CodeMode, SessionStore};
use codemode::json::JsonValue;
use codemode::tool::{ToolDefinition, ToolOutput};
use criterion::{Criterion, SamplingMode};
use serde_json::json;

use super::runtime::{code_mode_registry, engine, time_run_code};

/// Operations per measured run.
const OPS: u64 = 20;
/// Rounds of the paired measurement.
const PAIRED_ROUNDS: usize = 9;

/// About 1 MB of JSON: 10,000 small records.
fn big_value() -> JsonValue {
    JsonValue::Array(
        (0..10_000)
            .map(|i| json!({"id": i, "title": format!("issue {i:05} of the benchmark"), "labels": ["bug", "p2"], "open": i % 3 != 0}))
            .collect(),
    )
}

pub fn bench(c: &mut Criterion) {
    let host_runtime = tokio::runtime::Runtime::new().expect("tokio");
    let engine = engine();
    let value = big_value();
    let returned = value.clone();
    let big = ToolDefinition::builder("big")
        .description("A 1 MB value.")
        .parameters(json!({"type": "object"}))
        .output(ToolOutput::any())
        .execute(move |_, _| {
            let value = returned.clone();
            async move { Ok(value) }
        })
        .build()
        .expect("the tool builds");
    let registry = code_mode_registry(engine.clone(), [big]);
    let code = CodeMode::of(&registry).expect("Code Mode");
    let store: SessionStore = code.session_store();
    store
        .set("big", &value, 100)
        .expect("1 MB fits the default bounds");
    store.attach(&registry.global()).keep();
    let per_op = |call: &str| {
        let run = |ops: u64| {
            let program = format!(
                "let n = 0; for (let i = 0; i < {ops}; i++) n += (await {call}).length; return n;"
            );
            time_run_code(&host_runtime, &registry, &engine, &program)
        };
        let without = run(0);
        run(OPS).saturating_sub(without) / OPS as u32
    };
    let mut group = c.benchmark_group("store");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for (label, call) in [
        ("get_1mb", "store.get('big')"),
        ("tool_call_1mb", "tools.big({})"),
    ] {
        group.bench_function(label, |b| {
            b.iter_custom(|iters| (0..iters).map(|_| per_op(call)).sum())
        });
    }
    group.finish();
    if !super::floor::wanted("store/paired") {
        return;
    }
    let mut ratios: Vec<f64> = (0..PAIRED_ROUNDS)
        .map(|_| {
            let get = per_op("store.get('big')");
            let tool = per_op("tools.big({})");
            get.as_secs_f64() / tool.as_secs_f64()
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "store/paired: store.get / tool call of a 1 MB value = {:.2}x median of {} rounds of {OPS} operations (min {:.2}x, max {:.2}x; target <= 1.0x)",
        ratios[ratios.len() / 2],
        ratios.len(),
        ratios[0],
        ratios[ratios.len() - 1],
    );
}
