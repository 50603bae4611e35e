//! Modes and assembly: what each scope's model is given.

use std::sync::Arc;

use codemode::ErrorCode;
use codemode::code::assembly::{CODE_ONLY_SECTION, SDK_SECTION};
use codemode::code::{CodeMode, CodeModeConfig, assemble};
use codemode::code::{PresentationMode, ScopePresentation};
use codemode::registry::Registry;
use codemode::runtime::CodeRuntime;

use super::{ENGINE, add_value_tool, registry};

fn names(schemas: &[codemode::tool::ToolSchema]) -> Vec<&str> {
    schemas.iter().map(|s| s.name.as_str()).collect()
}

#[tokio::test]
async fn native_mode_presents_every_visible_tool_and_no_sections() {
    let registry = registry(PresentationMode::Native, 10);
    add_value_tool(&registry, "b", true);
    add_value_tool(&registry, "a", true);
    let assembly = assemble(&registry.global()).unwrap();
    assert_eq!(names(&assembly.tools), ["a", "b"]);
    assert!(assembly.sections.is_empty());
}

#[tokio::test]
async fn code_mode_presents_exactly_run_code_the_rule_and_the_sdk() {
    let registry = registry(PresentationMode::Code, 10);
    add_value_tool(&registry, "b", true);
    add_value_tool(&registry, "a", true);
    let assembly = assemble(&registry.global()).unwrap();
    assert_eq!(names(&assembly.tools), ["run_code"]);
    let ids: Vec<&str> = assembly.sections.iter().map(|s| s.id).collect();
    assert_eq!(
        ids,
        [CODE_ONLY_SECTION, SDK_SECTION],
        "the rule comes before the SDK"
    );
    assert!(assembly.sections[0].order < assembly.sections[1].order);
    assert_eq!(assembly.sections[1].order, 150);
    let sdk = &assembly.section(SDK_SECTION).unwrap().text;
    assert!(sdk.starts_with("## Writing code for run_code"));
    assert!(sdk.contains("  a: ") && sdk.contains("  b: "), "{sdk}");
    assert!(
        !sdk.contains("run_code: "),
        "the transport is not an SDK binding"
    );
    let run_code = &assembly.tools[0];
    assert_eq!(
        run_code.parameters["required"],
        serde_json::json!(["code", "description"])
    );
    assert!(run_code.description.contains("TypeScript"));
    // Byte-stable across assemblies.
    assert_eq!(assemble(&registry.global()).unwrap(), assembly);
}

#[tokio::test]
async fn both_mode_presents_the_tools_run_code_and_the_sdk() {
    let registry = registry(PresentationMode::Both, 10);
    add_value_tool(&registry, "zed", true);
    add_value_tool(&registry, "alpha", true);
    let assembly = assemble(&registry.global()).unwrap();
    assert_eq!(names(&assembly.tools), ["alpha", "run_code", "zed"]);
    let ids: Vec<&str> = assembly.sections.iter().map(|s| s.id).collect();
    assert_eq!(ids, [SDK_SECTION]);
}

#[tokio::test]
async fn code_modes_without_a_runtime_fail_with_an_actionable_error() {
    let registry = Registry::new();
    let code = CodeMode::install(
        &registry,
        CodeModeConfig::default().with_mode(PresentationMode::Code),
    )
    .unwrap();
    let err = assemble(&registry.global()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidConfig);
    assert!(err.message().contains("CodeMode::install"), "{err}");
    // Installing and removing the runtime is reflected at once.
    let engine: Arc<dyn CodeRuntime> = ENGINE.clone();
    code.set_runtime(engine).unwrap();
    assert!(assemble(&registry.global()).is_ok());
    code.clear_runtime();
    assert!(assemble(&registry.global()).is_err());
}

#[tokio::test]
async fn modes_are_per_scope_and_restrictions_cannot_remove_the_transport() {
    let registry = registry(PresentationMode::Native, 10);
    add_value_tool(&registry, "read", true);
    add_value_tool(&registry, "write", false);
    let coder = registry.global().create_scope("coder").unwrap();
    coder.present_as(PresentationMode::Code).unwrap().keep();
    coder.restrict(Some(&["read"]), None).unwrap().keep();
    let assembly = assemble(&coder).unwrap();
    assert_eq!(names(&assembly.tools), ["run_code"]);
    let sdk = &assembly.section(SDK_SECTION).unwrap().text;
    assert!(
        sdk.contains("  read: ") && !sdk.contains("  write: "),
        "the SDK is the scope's visible set"
    );
    assert!(coder.restrict(None, Some(&["run_code"])).is_err());
    // The global scope stays native.
    assert_eq!(
        names(&assemble(&registry.global()).unwrap().tools),
        ["read", "write"]
    );
}
