//! One `await tools.noop({})` through the FULL pipeline, against baselines measured in the
//! same process (compare ratios: absolute times drift on a shared machine):
//! - `bare_host_fn_remote`: the floor of any host call, in the same engine the code runtime
//!   uses: a bare isolate (the V8 API deno_core re-exports), one native function returning a
//!   promise whose answer comes from a task on another thread (a multi-thread tokio runtime)
//!   through a oneshot, the engine thread waiting for it on a current-thread tokio runtime,
//!   then resolving the promise and running the microtasks. No JSON, no pipeline;
//! - `deno_core_async_op_remote`: the same round trip as a deno_core `#[op2] async` op driven
//!   by `JsRuntime`'s event loop (the design's "bare async op");
//! - `deno_core_async_op_ready`: a deno_core async op that completes at once (no thread hop:
//!   a lower bound no host call can reach, shown for scale);
//! - `subcall_full_pipeline`: `run_code` of a registry with Code Mode installed and a no-op
//!   tool, a program doing N sequential `await tools.noop({})`; per call = (T(N) - T(0)) / N,
//!   so the run's own cost is not counted. Each call crosses the lossless-JSON checks, the
//!   bridge's ordered lane and the whole tool pipeline (validation, guards, events).
//!
//! The target (design, "Targets"): `subcall_full_pipeline` at most 2.5x
//! `bare_host_fn_remote`. After the group, `subcall/paired` prints that ratio measured
//! round by round (both figures a few milliseconds apart), which drift cannot skew.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use codemode::registry::Registry;
use codemode::runtime::JsEngine;
use codemode::tool::{ToolDefinition, ToolOutput};
use criterion::{Criterion, SamplingMode};
use deno_core::{JsRuntime, RuntimeOptions, op2, v8};
use serde_json::json;
use tokio::sync::oneshot;

use super::runtime::{code_mode_registry, engine, time_run_code};

/// The host runtime the remote answers come from.
static REMOTE: OnceLock<tokio::runtime::Handle> = OnceLock::new();

#[op2]
async fn op_bench_ready() {}

#[op2]
async fn op_bench_remote() {
    let (reply, answer) = oneshot::channel::<()>();
    if let Some(remote) = REMOTE.get() {
        remote.spawn(async move {
            let _ = reply.send(());
        });
    }
    let _ = answer.await;
}

deno_core::extension!(bench_ops, ops = [op_bench_ready, op_bench_remote]);

thread_local! {
    /// The one call of the bare native function in flight (the program awaits each call).
    static IN_FLIGHT: RefCell<Option<(v8::Global<v8::PromiseResolver>, oneshot::Receiver<()>)>> =
        const { RefCell::new(None) };
}

/// The bare native function: a promise answered from another thread.
fn remote_native(
    scope: &mut v8::PinScope,
    _args: v8::FunctionCallbackArguments,
    mut rv: v8::ReturnValue,
) {
    let Some(resolver) = v8::PromiseResolver::new(scope) else {
        return;
    };
    rv.set(resolver.get_promise(scope).into());
    let (reply, answer) = oneshot::channel::<()>();
    if let Some(remote) = REMOTE.get() {
        remote.spawn(async move {
            let _ = reply.send(());
        });
    }
    let resolver = v8::Global::new(scope, resolver);
    IN_FLIGHT.with(|in_flight| *in_flight.borrow_mut() = Some((resolver, answer)));
}

/// `iters` sequential `await remote()` in a bare isolate and context; the elapsed time.
fn bare_host_fn_remote(
    isolate: &mut v8::OwnedIsolate,
    context: &v8::Global<v8::Context>,
    local: &tokio::runtime::Runtime,
    iters: u64,
) -> Duration {
    let started = Instant::now();
    let promise = {
        v8::scope_with_context!(let scope, isolate, context);
        let source =
            format!("(async () => {{ for (let i = 0; i < {iters}; i++) await remote(); }})()");
        let source = v8::String::new(scope, &source).expect("source");
        let script = v8::Script::compile(scope, source, None).expect("compiles");
        let promise = script.run(scope).expect("runs");
        let promise = v8::Local::<v8::Promise>::try_from(promise).expect("a promise");
        v8::Global::new(scope, promise)
    };
    loop {
        let pending = {
            v8::scope_with_context!(let scope, isolate, context);
            scope.perform_microtask_checkpoint();
            let promise = v8::Local::new(scope, &promise);
            assert_ne!(promise.state(), v8::PromiseState::Rejected);
            if promise.state() == v8::PromiseState::Fulfilled {
                break;
            }
            IN_FLIGHT.with(|in_flight| in_flight.borrow_mut().take())
        };
        let (resolver, answer) = pending.expect("a call in flight");
        local.block_on(answer).expect("answered");
        v8::scope_with_context!(let scope, isolate, context);
        let resolver = v8::Local::new(scope, resolver);
        let undefined = v8::undefined(scope).into();
        resolver.resolve(scope, undefined);
    }
    started.elapsed()
}

/// A bare isolate whose context has the global `remote`.
fn bare_isolate() -> (v8::OwnedIsolate, v8::Global<v8::Context>) {
    let mut isolate = v8::Isolate::new(Default::default());
    isolate.set_microtasks_policy(v8::MicrotasksPolicy::Explicit);
    let context = {
        v8::scope!(let scope, &mut isolate);
        let context = v8::Context::new(scope, Default::default());
        let scope = &mut v8::ContextScope::new(scope, context);
        let function = v8::Function::new(scope, remote_native).expect("the native");
        let key = v8::String::new(scope, "remote").expect("its name");
        context
            .global(scope)
            .set(scope, key.into(), function.into())
            .expect("defined");
        v8::Global::new(scope, context)
    };
    (isolate, context)
}

/// Calls in one sample of the pipeline figure (the difference of two runs is divided by it).
pub const CALLS: u64 = 1000;

pub fn registry_with_noop(engine: Arc<JsEngine>) -> Registry {
    let noop = ToolDefinition::builder("noop")
        .description("Does nothing.")
        .parameters(json!({"type": "object"}))
        .output(ToolOutput::any())
        .concurrency_safe(|_| true)
        .execute(|_, _| async { Ok(json!(null)) })
        .build()
        .expect("the no-op tool builds");
    code_mode_registry(engine, [noop])
}

pub fn bench(c: &mut Criterion) {
    JsRuntime::init_platform(None);
    let host_runtime = tokio::runtime::Runtime::new().expect("tokio");
    let _ = REMOTE.set(host_runtime.handle().clone());
    // As an engine thread's runtime.
    let local = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    let mut group = c.benchmark_group("subcall");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));

    let (mut isolate, context) = bare_isolate();
    group.bench_function("bare_host_fn_remote", |b| {
        b.iter_custom(|iters| bare_host_fn_remote(&mut isolate, &context, &local, iters))
    });

    let mut js = JsRuntime::new(RuntimeOptions {
        extensions: vec![bench_ops::init()],
        ..Default::default()
    });
    for (label, op) in [
        ("deno_core_async_op_remote", "op_bench_remote"),
        ("deno_core_async_op_ready", "op_bench_ready"),
    ] {
        group.bench_function(label, |b| {
            b.iter_custom(|iters| {
                let script = format!(
                    "(async () => {{ const op = Deno.core.ops.{op}; for (let i = 0; i < {iters}; i++) await op(); }})()"
                );
                // deno_core submits an async op's task when the script calls it: inside the
                // runtime's context.
                let _entered = local.enter();
                let started = Instant::now();
                let promise = js.execute_script("bench", script).expect("script");
                let settled = js.resolve(promise);
                local
                    .block_on(js.with_event_loop_promise(settled, Default::default()))
                    .expect("ops");
                started.elapsed()
            })
        });
    }
    drop(js);

    let engine = engine();
    let registry = registry_with_noop(engine.clone());
    let run = |calls: u64| {
        let code = format!("for (let i = 0; i < {calls}; i++) await tools.noop({{}});");
        time_run_code(&host_runtime, &registry, &engine, &code)
    };
    // One iteration is two whole runs: flat sampling (the same count per sample) suits it.
    group.sampling_mode(SamplingMode::Flat);
    group.bench_function("subcall_full_pipeline", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let without = run(0);
                let with = run(CALLS);
                total += with.saturating_sub(without) / CALLS as u32;
            }
            total
        })
    });
    group.finish();

    // The target is a ratio, and the machine's speed drifts between criterion's groups:
    // the same two measurements again, alternated round by round, each round's ratio
    // from runs a few milliseconds apart.
    if !super::floor::wanted("subcall/paired") {
        return;
    }
    let mut ratios: Vec<f64> = (0..PAIRED_ROUNDS)
        .map(|_| {
            let bare = bare_host_fn_remote(&mut isolate, &context, &local, CALLS);
            let without = run(0);
            let with = run(CALLS);
            with.saturating_sub(without).as_secs_f64() / bare.as_secs_f64()
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "subcall/paired: full pipeline / bare host fn = {:.2}x median of {} rounds of {} calls (min {:.2}x, max {:.2}x; target <= 2.5x)",
        ratios[ratios.len() / 2],
        ratios.len(),
        CALLS,
        ratios[0],
        ratios[ratios.len() - 1],
    );
    drop(context);
    drop(isolate);
}

/// Rounds of the paired measurement.
const PAIRED_ROUNDS: usize = 15;
