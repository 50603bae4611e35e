//! The execute pipeline for a no-op tool: bare, with one listener on each waterfall
//! (pre-execute, around-dispatch, post-execute, result), and with ten on each.

use std::hint::black_box;

use codemode::registry::Registry;
use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolOutput};
use criterion::Criterion;
use serde_json::json;

fn registry(listeners: usize) -> Registry {
    let registry = Registry::new();
    registry
        .global()
        .register(
            ToolDefinition::builder("noop")
                .output(ToolOutput::any())
                .execute(|_, _| async { Ok(json!(null)) })
                .build()
                .expect("the no-op tool builds"),
        )
        .expect("the no-op tool registers")
        .keep();
    for _ in 0..listeners {
        registry
            .global()
            .on_pre_execute(|_, next| next.run())
            .keep();
        registry
            .global()
            .on_execute(|dispatch, next| next.run_with(dispatch))
            .keep();
        registry
            .global()
            .on_post_execute(|_, _, next| next.run())
            .keep();
        registry.global().on_result(|_, _| {}).keep();
    }
    registry
}

pub fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let mut group = c.benchmark_group("pipeline");
    for (label, listeners) in [
        ("bare", 0),
        ("one_listener_each", 1),
        ("ten_listeners_each", 10),
    ] {
        let registry = registry(listeners);
        group.bench_function(label, |b| {
            b.iter(|| {
                runtime.block_on(registry.execute(black_box(ToolExecutionInput::new(
                    "c",
                    "noop",
                    json!({"a": 1}),
                ))))
            })
        });
    }
    group.finish();
}
