//! Command tools declared in configuration: real processes, real failures.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::config::Config;
use codemode::host::Host;
use codemode::registry::{Registry, RegistryConfig};
use codemode::tool::{ToolExecutionInput, ToolExecutionResult};
use serde_json::json;
use tokio_util::sync::CancellationToken;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/command-tools")
}

/// A registry with the tools of `toml`, as if the file were in the fixtures folder.
fn registry(toml: &str) -> Registry {
    let config =
        Config::parse(toml, &fixtures().join("codemode.toml")).expect("the configuration parses");
    let host = Host::builder(config)
        .registry_config(RegistryConfig::default().with_cancel_grace(Duration::from_millis(500)))
        .build_local()
        .expect("the tools register");
    host.registry().clone()
}

async fn call(
    registry: &Registry,
    name: &str,
    args: serde_json::Value,
) -> Arc<ToolExecutionResult> {
    registry
        .execute(ToolExecutionInput::new("c", name, args))
        .await
}

const ADD: &str = r#"
[[tools]]
name = "add"
description = "Add two numbers."
command = ["python3", "add.py"]
parameters = { type = "object", properties = { a = { type = "number" }, b = { type = "number" } }, required = ["a", "b"], additionalProperties = false }
output = { type = "number" }
concurrency_safe = true
"#;

#[tokio::test]
async fn a_command_tool_gets_json_on_stdin_and_returns_json_from_stdout() {
    let registry = registry(ADD);
    let result = call(&registry, "add", json!({"a": 2, "b": 40.5})).await;
    assert_eq!(
        result.value(),
        Some(&json!(42.5)),
        "{}",
        result.model_text()
    );
    assert_eq!(
        registry.execution_mode(&ToolExecutionInput::new("c", "add", json!({}))),
        codemode::registry::ExecutionMode::Parallel
    );
}

#[tokio::test]
async fn arguments_are_validated_before_the_process_starts() {
    let registry = registry(ADD);
    let result = call(&registry, "add", json!({"a": "2"})).await;
    assert_eq!(
        result.failure_info().unwrap().code,
        codemode::ErrorCode::InvalidArgs
    );
    assert_eq!(
        result.model_text(),
        "Error: invalid arguments:\n- $.b: required property is missing\n- $.a: expected number, got string"
    );
}

#[tokio::test]
async fn a_crashing_command_fails_with_its_stderr() {
    let registry = registry("[[tools]]\nname = \"fail\"\ncommand = [\"python3\", \"fail.py\"]\n");
    let result = call(&registry, "fail", json!({})).await;
    assert_eq!(
        result.model_text(),
        "Error: command tool `fail` exited with status 3: boom: the widget is missing"
    );
}

#[tokio::test]
async fn output_that_is_not_json_fails_the_call() {
    let registry =
        registry("[[tools]]\nname = \"text\"\ncommand = [\"python3\", \"not_json.py\"]\n");
    let result = call(&registry, "text", json!({})).await;
    assert!(
        result
            .model_text()
            .starts_with("Error: command tool `text` printed output that is not one JSON value"),
        "{}",
        result.model_text()
    );
    assert!(result.model_text().contains("hello, this is not JSON"));
}

#[tokio::test]
async fn output_that_breaks_the_output_schema_fails_the_call() {
    let registry = registry(
        "[[tools]]\nname = \"where\"\ncommand = [\"python3\", \"cwd.py\"]\noutput = { type = \"number\" }\n",
    );
    let result = call(&registry, "where", json!({})).await;
    assert_eq!(
        result.model_text(),
        "Error: invalid tool output:\n- $: expected number, got string"
    );
}

#[tokio::test]
async fn commands_run_in_the_configuration_folder_unless_cwd_is_set() {
    let registry = registry(
        "[[tools]]\nname = \"here\"\ncommand = [\"python3\", \"cwd.py\"]\n\
         [[tools]]\nname = \"there\"\ncommand = [\"python3\", \"command-tools/cwd.py\"]\ncwd = \"..\"\n",
    );
    let here = call(&registry, "here", json!({})).await;
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap();
    assert_eq!(
        here.value()
            .and_then(|v| v.as_str())
            .map(|p| canonical(Path::new(p))),
        Some(canonical(&fixtures()))
    );
    let there = call(&registry, "there", json!({})).await;
    let parent = fixtures().join("..");
    assert_eq!(
        there
            .value()
            .and_then(|v| v.as_str())
            .map(|p| canonical(Path::new(p))),
        Some(canonical(&parent))
    );
}

#[tokio::test]
async fn a_command_that_never_exits_is_killed_at_its_timeout_with_everything_it_started() {
    let marker = tempfile::tempdir().unwrap();
    let marker_file = marker.path().join("grandchild-survived");
    let toml = format!(
        "[[tools]]\nname = \"hang\"\ncommand = [\"python3\", \"hang.py\", {:?}]\ntimeout_ms = 300\n",
        marker_file.display().to_string()
    );
    let registry = registry(&toml);
    let started = Instant::now();
    let result = call(&registry, "hang", json!({})).await;
    assert_eq!(
        result.failure_info().unwrap().code,
        codemode::ErrorCode::ToolTimeout
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(
        !marker_file.exists(),
        "the grandchild was killed with the process group"
    );
}

#[tokio::test]
async fn cancelling_the_call_kills_the_process() {
    let marker = tempfile::tempdir().unwrap();
    let marker_file = marker.path().join("grandchild-survived");
    let toml = format!(
        "[[tools]]\nname = \"hang\"\ncommand = [\"python3\", \"hang.py\", {:?}]\n",
        marker_file.display().to_string()
    );
    let registry = registry(&toml);
    let caller = CancellationToken::new();
    let input = ToolExecutionInput::new("c", "hang", json!({})).with_signal(caller.clone());
    let pending = tokio::spawn({
        let registry = registry.clone();
        async move { registry.execute(input).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    caller.cancel();
    let result = tokio::time::timeout(Duration::from_secs(3), pending)
        .await
        .unwrap()
        .unwrap();
    assert!(result.is_error());
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(!marker_file.exists());
}

#[tokio::test]
async fn a_command_printing_100_mb_fails_clearly_and_the_registry_carries_on() {
    let registry = registry(&format!(
        "{ADD}\n[[tools]]\nname = \"flood\"\ncommand = [\"python3\", \"flood.py\"]\n"
    ));
    let started = Instant::now();
    let result = call(&registry, "flood", json!({})).await;
    assert_eq!(
        result.model_text(),
        "Error: command tool `flood` printed more than 16 MiB; print one JSON value"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(
        call(&registry, "add", json!({"a": 1, "b": 1}))
            .await
            .value(),
        Some(&json!(2))
    );
}

#[tokio::test]
async fn a_missing_program_is_a_clear_failure() {
    let registry =
        registry("[[tools]]\nname = \"ghost\"\ncommand = [\"no-such-program-anywhere\"]\n");
    let result = call(&registry, "ghost", json!({})).await;
    assert!(
        result
            .model_text()
            .starts_with("Error: command tool `ghost` could not start `no-such-program-anywhere`"),
        "{}",
        result.model_text()
    );
}

#[tokio::test]
async fn configured_policies_deny() {
    let registry = registry(&format!("{ADD}policy = \"deny\"\n"));
    let result = call(&registry, "add", json!({"a": 1, "b": 2})).await;
    assert_eq!(
        result.model_text(),
        "Error: the call to `add` was denied: the configuration denies this tool"
    );
}

#[test]
fn tool_names_follow_one_rule_for_every_source() {
    // A command tool whose name an MCP tool could not have is refused where it is written.
    let err = Config::parse(
        "[[tools]]\nname = \"bad name\"\ncommand = [\"cat\"]\n",
        &fixtures().join("codemode.toml"),
    )
    .unwrap_err();
    assert!(
        err.message().ends_with(
            "codemode.toml:2:8: the tool name \"bad name\" cannot be used: its name \"bad name\" contains whitespace or control characters"
        ),
        "{err}"
    );
    // And so is a registered definition.
    let err = codemode::tool::ToolDefinition::builder("x".repeat(129))
        .output(codemode::tool::ToolOutput::any())
        .execute(|_, _| async { Ok(json!(1)) })
        .build()
        .unwrap_err();
    assert!(
        err.message().contains("longer than 128 characters"),
        "{err}"
    );
}
