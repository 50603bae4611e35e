//! The code runtime against the floor measured in the same process (compare ratios: absolute
//! times drift on a shared machine):
//! - `raw_quickjs`: a raw QuickJS runtime + context + `eval('1')` through QuickJS-ng's own C
//!   API ([`super::floor`]): the floor of a trivial run;
//! - `raw_context_creation`: a bare context on an existing isolate, through the V8 API
//!   deno_core re-exports: what v8x's emulation costs per context (not a floor);
//! - `run_return_1_warm`: `JsEngine::run` of `return 1` from the warm pool, measured from the
//!   caller (dispatch to an engine thread, the run, the answer back);
//! - `run_code_return_1_warm`: the same program through `run_code` of a registry with Code
//!   Mode installed (the whole pipeline around the run).
//!
//! After the group, `runtime/paired` prints run_code / floor measured round by round, and
//! `runtime/load` the CPU per run (refills included) over four concurrent streams against
//! the floor's CPU.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::code::{CodeMode, CodeModeConfig, PresentationMode};
use codemode::registry::Registry;
use codemode::runtime::{CodeRunRequest, CodeRuntime, EngineConfig, JsEngine};
use codemode::tool::{ToolDefinition, ToolExecutionInput};
use criterion::Criterion;
use deno_core::{JsRuntime, v8};
use serde_json::json;

/// Contexts created on one isolate before it is replaced (untimed), so the figure is the cost
/// of a context, not of an isolate filling up.
const CONTEXTS_PER_ISOLATE: u64 = 50;

/// A registry in code mode (default limits) with `tools` and `run_code` over `engine`.
pub fn code_mode_registry(
    engine: Arc<JsEngine>,
    tools: impl IntoIterator<Item = ToolDefinition>,
) -> Registry {
    let registry = Registry::new();
    for tool in tools {
        registry
            .global()
            .register(tool)
            .expect("the tool registers")
            .keep();
    }
    let runtime: Arc<dyn CodeRuntime> = engine;
    CodeMode::install(
        &registry,
        CodeModeConfig::default().with_mode(PresentationMode::Code),
    )
    .and_then(|code| code.set_runtime(runtime))
    .expect("run_code installs");
    registry
}

/// Runs `code` through `run_code` of `registry` once the pool is warm; the time the
/// registry took. Panics if the run failed (a benchmark of a failing run measures nothing).
pub fn time_run_code(
    host_runtime: &tokio::runtime::Runtime,
    registry: &Registry,
    engine: &JsEngine,
    code: &str,
) -> Duration {
    wait_warm(engine);
    let input = ToolExecutionInput::new(
        "bench",
        "run_code",
        json!({"code": code, "description": "benchmark"}),
    );
    let started = Instant::now();
    let result = host_runtime.block_on(registry.execute(input));
    let elapsed = started.elapsed();
    assert!(!result.is_error(), "{}", result.model_text());
    elapsed
}

/// Waits until the pool holds its full count of fresh runtimes.
pub fn wait_warm(engine: &JsEngine) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while engine.thread_counts().1 < engine.config().warm_pool && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// An engine with the default budgets and a warm pool of two.
pub fn engine() -> Arc<JsEngine> {
    Arc::new(JsEngine::new(EngineConfig::default().with_warm_pool(2)).expect("engine"))
}

fn raw_context_creation(iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let batch = left.min(CONTEXTS_PER_ISOLATE);
        left -= batch;
        let mut isolate = v8::Isolate::new(Default::default());
        {
            v8::scope!(let scope, &mut isolate);
            let started = Instant::now();
            for _ in 0..batch {
                v8::scope!(let inner, scope);
                std::hint::black_box(v8::Context::new(inner, Default::default()));
            }
            total += started.elapsed();
        }
        drop(isolate);
    }
    total
}

pub fn bench(c: &mut Criterion) {
    JsRuntime::init_platform(None);
    let host_runtime = tokio::runtime::Runtime::new().expect("tokio");
    let mut group = c.benchmark_group("runtime");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));

    group.bench_function("raw_quickjs", |b| b.iter_custom(super::floor::raw_quickjs));

    group.bench_function("raw_context_creation", |b| {
        b.iter_custom(raw_context_creation)
    });

    let engine = engine();
    group.bench_function("run_return_1_warm", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                wait_warm(&engine);
                let started = Instant::now();
                let outcome =
                    host_runtime.block_on(engine.run(CodeRunRequest::new("return 1", vec![])));
                total += started.elapsed();
                assert!(outcome.error.is_none(), "{outcome:?}");
            }
            total
        })
    });

    let registry = code_mode_registry(engine.clone(), []);
    group.bench_function("run_code_return_1_warm", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                total += time_run_code(&host_runtime, &registry, &engine, "return 1");
            }
            total
        })
    });
    group.finish();
    if super::floor::wanted("runtime/paired") {
        paired(&host_runtime, &registry, &engine);
    }
    if super::floor::wanted("runtime/load") {
        load(&host_runtime, &registry);
    }
}

/// Rounds of the paired measurement, and runs per round.
const PAIRED_ROUNDS: usize = 15;
const PAIRED_RUNS: usize = 40;

/// run_code of `return 1` from the warm pool against the raw QuickJS floor, round by round:
/// the median of each round's ratio of medians.
fn paired(host_runtime: &tokio::runtime::Runtime, registry: &Registry, engine: &JsEngine) {
    use super::floor::{median, raw_quickjs};
    let mut ratios = Vec::new();
    let mut runs = Vec::new();
    let mut floors = Vec::new();
    for _ in 0..PAIRED_ROUNDS {
        let mut floor: Vec<Duration> = (0..PAIRED_RUNS).map(|_| raw_quickjs(1)).collect();
        let mut run: Vec<Duration> = (0..PAIRED_RUNS)
            .map(|_| time_run_code(host_runtime, registry, engine, "return 1"))
            .collect();
        let (floor, run) = (median(&mut floor), median(&mut run));
        ratios.push(run.as_secs_f64() / floor.as_secs_f64());
        runs.push(run);
        floors.push(floor);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "runtime/paired: run_code return 1 (warm) = {:?} median, raw QuickJS floor = {:?}; ratio {:.1}x median of {PAIRED_ROUNDS} rounds (min {:.1}x, max {:.1}x)",
        median(&mut runs),
        median(&mut floors),
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1],
    );
}

/// Runs made over four concurrent streams for the CPU-per-run figure.
const LOAD_RUNS: usize = 400;

/// CPU per run of `return 1` through run_code over four concurrent streams, refills
/// included (the whole process's CPU), against the floor's CPU per raw context.
fn load(host_runtime: &tokio::runtime::Runtime, registry: &Registry) {
    use super::procfs::process_cpu;
    let floor = super::floor::raw_quickjs_cpu();
    let cpu_started = process_cpu();
    let wall_started = Instant::now();
    host_runtime.block_on(async {
        let streams = (0..4).map(|stream| {
            let registry = registry.clone();
            tokio::spawn(async move {
                for run in 0..LOAD_RUNS / 4 {
                    let input = ToolExecutionInput::new(
                        format!("load-{stream}-{run}"),
                        "run_code",
                        json!({"code": "return 1", "description": "load"}),
                    );
                    let result = registry.execute(input).await;
                    assert!(!result.is_error(), "{}", result.model_text());
                }
            })
        });
        for stream in futures::future::join_all(streams).await {
            stream.expect("a load stream");
        }
    });
    let wall = wall_started.elapsed();
    let per_run = (process_cpu() - cpu_started) / LOAD_RUNS as u32;
    println!(
        "runtime/load: {LOAD_RUNS} run_code return 1 over 4 streams: {:.0} runs/s, CPU per run {per_run:?} (refills included), raw QuickJS floor CPU {floor:?}; ratio {:.1}x",
        LOAD_RUNS as f64 / wall.as_secs_f64(),
        per_run.as_secs_f64() / floor.as_secs_f64(),
    );
}
