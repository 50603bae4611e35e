//! 100 parallel-safe sub-calls that each sleep 20 ms, through `run_code` at
//! `max_parallel_sub_calls = 10`, against the ideal `ceil(100 / 10) * 20 ms = 200 ms`
//! (target: within 1.15x; the ratio is the figure over 200 ms). The program starts them all
//! with `Promise.all`; the figure is the whole `run_code` call, run included.

use std::time::Duration;

use codemode::tool::{ToolDefinition, ToolOutput};
use criterion::{Criterion, SamplingMode};
use serde_json::json;

use super::runtime::{code_mode_registry, engine, time_run_code};

pub fn bench(c: &mut Criterion) {
    let host_runtime = tokio::runtime::Runtime::new().expect("tokio");
    let engine = engine();
    // `max_parallel_sub_calls` is 10 by default.
    let nap = ToolDefinition::builder("nap")
        .description("Sleeps 20 ms.")
        .parameters(json!({"type": "object"}))
        .output(ToolOutput::any())
        .concurrency_safe(|_| true)
        .execute(|_, _| async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            Ok(json!(null))
        })
        .build()
        .expect("the tool builds");
    let registry = code_mode_registry(engine.clone(), [nap]);

    let mut group = c.benchmark_group("parallel");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("hundred_20ms_calls_at_limit_10", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                total += time_run_code(
                    &host_runtime,
                    &registry,
                    &engine,
                    "await Promise.all(Array.from({ length: 100 }, () => tools.nap({})));",
                );
            }
            total
        })
    });
    group.finish();
}
