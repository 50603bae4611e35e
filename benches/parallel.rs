//! 100 parallel-safe sub-calls that each sleep 20 ms, through `run_code` at
//! `max_parallel_sub_calls = 10`, against the ideal `ceil(100 / 10) * 20 ms = 200 ms`
//! (target: within 1.15x; the ratio is the figure over 200 ms). The program starts them all
//! with `Promise.all`; the figure is the whole `run_code` call, run included.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::codemode::CodeMode;
use codemode::registry::{PresentationMode, Registry, RegistryConfig};
use codemode::runtime::CodeRuntime;
use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolOutput};
use criterion::{Criterion, SamplingMode};
use serde_json::json;

use super::runtime::{engine, wait_warm};

pub fn bench(c: &mut Criterion) {
    let host_runtime = tokio::runtime::Runtime::new().expect("tokio");
    let engine = engine();
    let registry = Registry::with_config(RegistryConfig {
        mode: PresentationMode::Code,
        max_parallel_sub_calls: 10,
        ..RegistryConfig::default()
    })
    .expect("valid config");
    registry
        .register(
            ToolDefinition::builder("nap")
                .description("Sleeps 20 ms.")
                .parameters(json!({"type": "object"}))
                .output(ToolOutput::any())
                .concurrency_safe(|_| true)
                .execute(|_, _| async {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    Ok(json!(null))
                })
                .build()
                .expect("the tool builds"),
        )
        .expect("the tool registers")
        .keep();
    let runtime: Arc<dyn CodeRuntime> = engine.clone();
    CodeMode::install(&registry, runtime).expect("run_code installs");

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
                wait_warm(&engine);
                let input = ToolExecutionInput::new(
                    "bench",
                    "run_code",
                    json!({
                        "code": "await Promise.all(Array.from({ length: 100 }, () => tools.nap({})));",
                        "description": "100 naps"
                    }),
                );
                let started = Instant::now();
                let result = host_runtime.block_on(registry.execute(input));
                total += started.elapsed();
                assert!(!result.is_error(), "{}", result.model_text());
            }
            total
        })
    });
    group.finish();
}
