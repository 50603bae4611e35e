//! The Python runtime against the JavaScript engine, measured in the same process and
//! minute (compare ratios: absolute times drift on a shared machine):
//! - `python/run_return_1_warm` (criterion) and `python/paired_warm` (printed, round by
//!   round): a warm `return 1` — a ready worker taken from the pool — against the JS
//!   engine's warm `return 1`. Target ≤ 1 ms.
//! - `python/subcall`: one binding round trip, (T(N) - T(0)) / N for N sequential
//!   `await tools.echo({})`, against the same in the JS engine. Target ≤ 100 µs.
//! - `python/gather`: 100 gathered 20 ms tool calls at `max_parallel_sub_calls` 10 through
//!   Code Mode, against the ideal 200 ms. Target ≤ 1.15x.
//! - `python/sustained`: CPU per run over 4 concurrent streams of `return 1`, refills
//!   included — the whole machine's busy time (`/proc/stat`) divided by the runs, so the
//!   host, the template and every worker are counted. Target ≤ 10 ms.
//! - `python/growth`: 10,000 runs; the host's resident memory, descriptors and worker
//!   processes after 100 and after 10,000.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::code::{CodeMode, CodeModeConfig, PresentationMode};
use codemode::registry::Registry;
use codemode::runtime::python::{PythonConfig, PythonEngine, WorkerCommand};
use codemode::runtime::{
    BindingHost, BindingNamespace, CallAnswer, CodeRunRequest, CodeRuntime, EngineConfig, JsEngine,
};
use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolOutput};
use criterion::Criterion;
use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::floor::{median, wanted};

fn python(config: EngineConfig) -> Arc<PythonEngine> {
    let worker = WorkerCommand::new(WorkerCommand::DEFAULT_PYTHON);
    Arc::new(PythonEngine::new(config, PythonConfig::new(worker)).expect("the Python engine"))
}

fn wait_ready(engine: &PythonEngine) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while engine.ready_workers() < engine.config().warm_pool && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn wait_warm_js(engine: &JsEngine) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while engine.thread_counts().1 < engine.config().warm_pool && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn request(program: &str, namespaces: Vec<BindingNamespace>) -> CodeRunRequest {
    CodeRunRequest::new(program, namespaces)
}

/// Answers every call at once with its arguments (from the caller's thread).
struct Echo;

impl BindingHost for Echo {
    fn call(&self, _member: &str, args: Value) -> BoxFuture<'static, CallAnswer> {
        Box::pin(async move { Ok(args) })
    }
}

fn echo_tools() -> Vec<BindingNamespace> {
    vec![BindingNamespace::tools(vec!["echo".into()], Arc::new(Echo))]
}

/// Times one run polled as a task on the host runtime (as a pipeline call is: on a worker
/// thread that also drives the runtime's I/O, not from `block_on` on another thread).
fn time_run(
    host: &tokio::runtime::Runtime,
    engine: &dyn CodeRuntime,
    program: &str,
    namespaces: Vec<BindingNamespace>,
) -> Duration {
    let run = engine.run(request(program, namespaces));
    let (outcome, took) = host.block_on(async move {
        tokio::spawn(async move {
            let started = Instant::now();
            let outcome = run.await;
            (outcome, started.elapsed())
        })
        .await
        .expect("the run's task")
    });
    assert!(outcome.error.is_none(), "{outcome:?}");
    took
}

/// The machine's busy time so far (all CPUs), from `/proc/stat`.
fn busy() -> Duration {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let fields: Vec<u64> = stat
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .filter_map(|f| f.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
    let busy: u64 = fields
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3 && *i != 4 && *i < 8)
        .map(|(_, v)| *v)
        .sum();
    // SAFETY: `sysconf` only reads a configuration value.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_micros(busy * 1_000_000 / hz)
}

/// Descriptors this process holds.
fn descriptors() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count())
}

/// Processes that run the Python worker (the template and its workers).
fn worker_processes() -> usize {
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| {
                    std::fs::read(e.path().join("cmdline"))
                        .map(|c| String::from_utf8_lossy(&c).contains("__python-worker"))
                        .unwrap_or(false)
                })
                .count()
        })
        .unwrap_or(0)
}

pub fn bench(c: &mut Criterion) {
    let names = [
        "python/run_return_1_warm",
        "python/paired_warm",
        "python/subcall",
        "python/gather",
        "python/sustained",
        "python/growth",
    ];
    if !names.iter().any(|name| wanted(name)) {
        return;
    }
    let host = tokio::runtime::Runtime::new().expect("tokio");
    let py = python(EngineConfig::default().with_warm_pool(2));
    let js = Arc::new(JsEngine::new(EngineConfig::default().with_warm_pool(2)).expect("js"));

    let mut group = c.benchmark_group("python");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("run_return_1_warm", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                wait_ready(&py);
                total += time_run(&host, &*py, "return 1", Vec::new());
            }
            total
        })
    });
    group.finish();

    if wanted("python/paired_warm") {
        let (mut pys, mut jss) = (Vec::new(), Vec::new());
        for _ in 0..60 {
            wait_ready(&py);
            pys.push(time_run(&host, &*py, "return 1", Vec::new()));
            wait_warm_js(&js);
            jss.push(time_run(&host, &*js, "return 1", Vec::new()));
        }
        let (p, j) = (median(&mut pys), median(&mut jss));
        println!(
            "python/paired_warm: python {:.3} ms, js {:.3} ms: {:.2}x (target: python <= 1 ms)",
            p.as_secs_f64() * 1e3,
            j.as_secs_f64() * 1e3,
            p.as_secs_f64() / j.as_secs_f64()
        );
    }

    if wanted("python/subcall") {
        const N: usize = 500;
        let per_call =
            |engine: &dyn CodeRuntime, wait: &dyn Fn(), loop_program: &str, empty: &str| {
                let (mut full, mut none) = (Vec::new(), Vec::new());
                for _ in 0..9 {
                    wait();
                    full.push(time_run(&host, engine, loop_program, echo_tools()));
                    wait();
                    none.push(time_run(&host, engine, empty, echo_tools()));
                }
                median(&mut full).saturating_sub(median(&mut none)) / N as u32
            };
        let python_call = per_call(
            &*py,
            &|| wait_ready(&py),
            &format!("for _ in range({N}):\n    await tools.echo({{}})"),
            "pass",
        );
        let js_call = per_call(
            &*js,
            &|| wait_warm_js(&js),
            &format!("for (let i = 0; i < {N}; i++) await tools.echo({{}});"),
            "",
        );
        println!(
            "python/subcall: python {:.1} us, js {:.1} us per round trip: {:.2}x (target: python <= 100 us)",
            python_call.as_secs_f64() * 1e6,
            js_call.as_secs_f64() * 1e6,
            python_call.as_secs_f64() / js_call.as_secs_f64()
        );
    }

    if wanted("python/gather") {
        let registry = Registry::new();
        let runtime: Arc<dyn CodeRuntime> = py.clone();
        CodeMode::install(
            &registry,
            CodeModeConfig::default()
                .with_mode(PresentationMode::Code)
                .with_max_parallel_sub_calls(10),
        )
        .and_then(|code| code.set_runtime(runtime))
        .expect("Code Mode");
        registry
            .global()
            .register(
                ToolDefinition::builder("nap")
                    .output(ToolOutput::any())
                    .always_concurrency_safe()
                    .execute(|_, _| async {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        Ok(json!(1))
                    })
                    .build()
                    .expect("a tool"),
            )
            .expect("registers")
            .keep();
        let program = "import asyncio\nreturn sum(await asyncio.gather(*[tools.nap({}) for _ in range(100)]))";
        let mut times = Vec::new();
        for _ in 0..9 {
            wait_ready(&py);
            let started = Instant::now();
            let result = host.block_on(registry.execute(ToolExecutionInput::new(
                "bench",
                "run_code",
                json!({"code": program, "description": "gather"}),
            )));
            times.push(started.elapsed());
            assert_eq!(result.model_text(), "100");
        }
        let took = median(&mut times);
        println!(
            "python/gather: 100 x 20 ms at limit 10 in {:.1} ms: {:.3}x the ideal 200 ms (target <= 1.15x)",
            took.as_secs_f64() * 1e3,
            took.as_secs_f64() / 0.2
        );
    }

    if wanted("python/sustained") {
        const STREAMS: usize = 4;
        const RUNS: usize = 100;
        let engine = python(EngineConfig::default().with_warm_pool(4));
        wait_ready(&engine);
        let cpu_before = busy();
        let started = Instant::now();
        host.block_on(async {
            let streams = (0..STREAMS).map(|_| {
                let engine = engine.clone();
                async move {
                    for _ in 0..RUNS {
                        let outcome = engine.run(request("return 1", Vec::new())).await;
                        assert!(outcome.error.is_none(), "{outcome:?}");
                    }
                }
            });
            futures::future::join_all(streams).await;
        });
        // The refills of the last runs are part of their cost.
        wait_ready(&engine);
        let wall = started.elapsed();
        let cpu = busy().saturating_sub(cpu_before);
        let runs = (STREAMS * RUNS) as f64;
        println!(
            "python/sustained: {:.2} ms of CPU per run (whole machine, refills included), {:.0} runs/s over {STREAMS} streams (target <= 10 ms)",
            cpu.as_secs_f64() * 1e3 / runs,
            runs / wall.as_secs_f64()
        );
    }

    if wanted("python/growth") {
        let engine = python(EngineConfig::default().with_warm_pool(2));
        let sample = || {
            (
                super::procfs::rss_bytes() / (1024 * 1024),
                descriptors(),
                worker_processes(),
            )
        };
        let mut after_100 = (0, 0, 0);
        for run in 1..=10_000 {
            let outcome = host.block_on(engine.run(request(
                "xs = [str(i) for i in range(200)]\nprint(len(xs))\nreturn len(xs)",
                Vec::new(),
            )));
            assert!(outcome.error.is_none(), "{outcome:?}");
            if run == 100 {
                wait_ready(&engine);
                after_100 = sample();
            }
        }
        wait_ready(&engine);
        let after = sample();
        println!(
            "python/growth: after 100 runs {} MiB, {} fds, {} worker processes; after 10,000 runs {} MiB, {} fds, {} worker processes",
            after_100.0, after_100.1, after_100.2, after.0, after.1, after.2
        );
    }
}
