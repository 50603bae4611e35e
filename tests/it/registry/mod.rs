//! The registry and the execute pipeline, through the public API.

mod pipeline;
mod policy;
mod scheduler;
mod scopes;

use std::sync::Arc;
use std::time::Duration;

use codemode::ContentBlock;
use codemode::json::JsonValue;
use codemode::registry::Registry;
use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolExecutionResult, ToolOutput};
use serde_json::json;

/// A registry with the Code Mode layer installed (no runtime): the spec's whole tool
/// service, where `run_code` is reserved and modes apply.
pub fn with_code_mode() -> Registry {
    let registry = Registry::new();
    codemode::code::CodeMode::install(&registry, codemode::code::CodeModeConfig::default())
        .expect("Code Mode installs");
    registry
}

/// A tool that returns its `value` argument (or `null`).
pub fn echo(name: &str) -> ToolDefinition {
    ToolDefinition::builder(name)
        .description(format!("The {name} tool."))
        .parameters(json!({"type": "object", "properties": {"value": {}}}))
        .output(ToolOutput::any())
        .execute(|args, _| async move { Ok(args.get("value").cloned().unwrap_or(JsonValue::Null)) })
        .build()
        .expect("echo builds")
}

/// A tool that sleeps `ms`, observing its signal, then returns "done".
pub fn sleeper(name: &str, ms: u64, safe: bool) -> ToolDefinition {
    let mut builder = ToolDefinition::builder(name)
        .output(ToolOutput::any())
        .execute(move |_, ctx| async move {
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(ms)) => Ok(json!("done")),
                _ = ctx.signal().cancelled() => Err(codemode::Error::new(codemode::ErrorCode::Aborted, "stopped")),
            }
        });
    if safe {
        builder = builder.concurrency_safe(|_| true);
    }
    builder.build().expect("sleeper builds")
}

pub fn call(name: &str, args: JsonValue) -> ToolExecutionInput {
    ToolExecutionInput::new(format!("call-{name}"), name, args)
}

pub async fn run(registry: &Registry, name: &str, args: JsonValue) -> Arc<ToolExecutionResult> {
    registry.execute(call(name, args)).await
}

pub fn code(result: &ToolExecutionResult) -> Option<&'static str> {
    result.failure_info().map(|f| f.code.as_str())
}

pub fn text(result: &ToolExecutionResult) -> String {
    codemode::content::text_of(&result.content)
}

#[allow(dead_code)]
pub fn texts(blocks: &[ContentBlock]) -> String {
    codemode::content::text_of(blocks)
}
