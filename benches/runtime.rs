//! The code runtime, against baselines measured in the same process:
//! - `run_return_1_warm`: `JsEngine::run` of `return 1` with a warm pool, against
//!   `raw_context_creation` (a bare context on an existing isolate, through deno_core's v8 API);
//! - `binding_call_round_trip`: one `await tools.noop({})` through the `BindingHost` seam with a
//!   trivial host, against `bare_async_op_round_trip` (a deno_core async op that resolves at once).
//!
//! Compare them as ratios: absolute times drift on a shared machine.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::JsonValue;
use codemode::runtime::{
    BindingHost, BindingNamespace, CodeRunRequest, CodeRuntime, EngineConfig, JsEngine,
};
use criterion::Criterion;
use deno_core::{JsRuntime, RuntimeOptions, op2, v8};
use futures::future::BoxFuture;

#[op2]
async fn op_bench_ready() {}

deno_core::extension!(bench_ops, ops = [op_bench_ready]);

struct Noop;

impl BindingHost for Noop {
    fn call(
        &self,
        _member: &str,
        _args: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, String>> {
        Box::pin(async { Ok(JsonValue::Null) })
    }
}

fn request(program: String) -> CodeRunRequest {
    CodeRunRequest {
        program,
        namespaces: vec![BindingNamespace {
            global: "tools".to_owned(),
            error_class: "ToolCallError".to_owned(),
            member_property: "toolName".to_owned(),
            members: vec!["noop".to_owned()],
            host: Arc::new(Noop),
        }],
        signal: Default::default(),
    }
}

/// Waits until the pool holds its full count of fresh runtimes.
fn wait_warm(engine: &JsEngine) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while engine.thread_counts().1 < engine.config().warm_pool && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
}

pub fn bench(c: &mut Criterion) {
    let host_runtime = tokio::runtime::Runtime::new().expect("tokio");
    let local = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    let mut group = c.benchmark_group("runtime");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));

    let mut js = JsRuntime::new(RuntimeOptions {
        extensions: vec![bench_ops::init()],
        ..Default::default()
    });
    group.bench_function("raw_context_creation", |b| {
        b.iter(|| {
            v8::scope!(let scope, js.v8_isolate());
            std::hint::black_box(v8::Context::new(scope, Default::default()));
        })
    });

    let engine = JsEngine::new(EngineConfig {
        warm_pool: 2,
        ..EngineConfig::default()
    })
    .expect("engine");
    group.bench_function("run_return_1_warm", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                wait_warm(&engine);
                let started = Instant::now();
                let outcome = host_runtime.block_on(engine.run(request("return 1".to_owned())));
                total += started.elapsed();
                assert!(outcome.error.is_none(), "{outcome:?}");
            }
            total
        })
    });

    group.bench_function("bare_async_op_round_trip", |b| {
        b.iter_custom(|iters| {
            let script = format!(
                "(async () => {{ const op = Deno.core.ops.op_bench_ready; for (let i = 0; i < {iters}; i++) await op(); }})()"
            );
            let started = Instant::now();
            let promise = js.execute_script("bench", script).expect("script");
            let settled = js.resolve(promise);
            local
                .block_on(js.with_event_loop_promise(settled, Default::default()))
                .expect("ops");
            started.elapsed()
        })
    });

    group.bench_function("binding_call_round_trip", |b| {
        b.iter_custom(|iters| {
            wait_warm(&engine);
            let program = format!("for (let i = 0; i < {iters}; i++) await tools.noop({{}});");
            let started = Instant::now();
            let outcome = host_runtime.block_on(engine.run(request(program)));
            let elapsed = started.elapsed();
            assert!(outcome.error.is_none(), "{outcome:?}");
            elapsed
        })
    });
    group.finish();
}
