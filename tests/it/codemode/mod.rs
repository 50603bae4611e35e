//! Code Mode end to end: modes and assembly, and `run_code` programs whose binding calls
//! go through the registry's pipeline on the real engine.

mod assembly;
pub mod error_codes;
mod index;
mod run_code;
mod search;
mod search_baselines;
mod spans;
pub mod static_check;
mod store;
mod store_hostile;
mod typecheck;
mod values;

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use codemode::code::{CodeMode, CodeModeConfig, PresentationMode};
use codemode::json::JsonValue;
use codemode::registry::{Registry, RegistryConfig};
use codemode::runtime::{CodeRuntime, EngineConfig, JsEngine};
use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolExecutionResult, ToolOutput};
use serde_json::json;

/// One engine for the Code Mode tests (creating engine threads is the slow part).
pub static ENGINE: LazyLock<Arc<JsEngine>> = LazyLock::new(|| {
    Arc::new(
        JsEngine::new(
            EngineConfig::default()
                .with_compute_ms(5_000)
                .with_wall_ms(20_000)
                .with_heap_mb(128)
                .with_max_output_bytes(1 << 20)
                .with_warm_pool(2),
        )
        .expect("the engine starts"),
    )
});

/// A registry in `mode` with Code Mode installed on the shared engine.
pub fn registry(mode: PresentationMode, limit: usize) -> Registry {
    let registry = Registry::with_config(
        RegistryConfig::default().with_cancel_grace(Duration::from_millis(500)),
    );
    let engine: Arc<dyn CodeRuntime> = ENGINE.clone();
    let config = CodeModeConfig::default()
        .with_mode(mode)
        .with_max_parallel_sub_calls(limit);
    CodeMode::install(&registry, config)
        .and_then(|code| code.set_runtime(engine))
        .expect("run_code installs");
    registry
}

/// Runs `program` through `run_code` for the global scope.
pub async fn run_program(registry: &Registry, program: &str) -> Arc<ToolExecutionResult> {
    registry
        .execute(ToolExecutionInput::new(
            "run-1",
            "run_code",
            json!({"code": program, "description": "a test program"}),
        ))
        .await
}

/// Registers [`value_tool`]`(name, safe)` in `registry`'s global layer for good.
pub fn add_value_tool(registry: &Registry, name: &str, safe: bool) {
    registry
        .global()
        .register(value_tool(name, safe))
        .expect("the tool registers")
        .keep();
}

/// A tool that returns `args.value` after `args.ms` (observing its signal).
pub fn value_tool(name: &str, safe: bool) -> ToolDefinition {
    let mut builder = ToolDefinition::builder(name)
        .description(format!("The {name} tool."))
        .parameters(json!({"type": "object", "properties": {"value": {}, "ms": {"type": "number"}}}))
        .output(ToolOutput::any())
        .execute(|args, ctx| async move {
            let ms = args.get("ms").and_then(JsonValue::as_u64).unwrap_or(0);
            if ms > 0 {
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_millis(ms)) => {}
                    _ = ctx.signal().cancelled() => {
                        return Err(codemode::Error::new(codemode::ErrorCode::Aborted, "cancelled while sleeping"));
                    }
                }
            }
            Ok(args.get("value").cloned().unwrap_or(JsonValue::Null))
        });
    if safe {
        builder = builder.concurrency_safe(|_| true);
    }
    builder.build().expect("the tool builds")
}

pub fn text(result: &ToolExecutionResult) -> String {
    codemode::content::text_of(&result.content)
}
