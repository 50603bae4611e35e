//! Layers, scopes, visibility, restrictions, handles and change notifications.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use codemode::ErrorCode;
use codemode::code::{PresentationMode, ScopePresentation};
use codemode::registry::Registry;
use serde_json::json;

use super::{echo, run};

fn names(tools: &[Arc<codemode::tool::ToolDefinition>]) -> Vec<String> {
    tools.iter().map(|t| t.name().to_owned()).collect()
}

#[tokio::test]
async fn global_registrations_are_visible_sorted_and_schemas_expose_only_model_fields() {
    let registry = Registry::new();
    registry.global().register(echo("zeta")).unwrap().keep();
    registry.global().register(echo("alpha")).unwrap().keep();
    assert_eq!(names(&registry.global().visible()), ["alpha", "zeta"]);
    let schemas = serde_json::to_value(registry.global().schemas()).unwrap();
    assert_eq!(
        schemas[0],
        json!({"name": "alpha", "description": "The alpha tool.", "parameters": {"type": "object", "properties": {"value": {}}}})
    );
    assert!(registry.global().get("alpha").is_some());
    assert!(registry.global().get("missing").is_none());
}

#[test]
fn duplicates_in_one_layer_and_the_reserved_name_are_refused() {
    let registry = super::with_code_mode();
    registry.global().register(echo("a")).unwrap().keep();
    let err = registry.global().register(echo("a")).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidDefinition);
    assert!(
        err.message()
            .contains("already registered in the global layer"),
        "{err}"
    );
    let err = registry.global().register(echo("run_code")).unwrap_err();
    assert!(err.message().contains("reserved"), "{err}");
    let scope = registry.global().create_scope("agent").unwrap();
    scope.register(echo("a")).unwrap().keep();
    assert!(scope.register(echo("a")).is_err());
    assert!(scope.register(echo("run_code")).is_err());
}

#[tokio::test]
async fn scoped_registrations_shadow_inherited_ones_and_stay_private() {
    let registry = Registry::new();
    registry.global().register(echo("shared")).unwrap().keep();
    let preset = registry.global().create_scope("preset").unwrap();
    let agent = preset.create_scope("agent").unwrap();
    let other = registry.global().create_scope("other").unwrap();
    let shadow = codemode::tool::ToolDefinition::builder("shared")
        .description("the preset's own")
        .output(codemode::tool::ToolOutput::any())
        .execute(|_, _| async { Ok(json!("preset")) })
        .build()
        .unwrap();
    preset.register(shadow).unwrap().keep();
    agent.register(echo("mine")).unwrap().keep();

    assert_eq!(
        agent.get("shared").unwrap().schema().description,
        "the preset's own"
    );
    assert_eq!(
        registry
            .global()
            .get("shared")
            .unwrap()
            .schema()
            .description,
        "The shared tool."
    );
    assert_eq!(names(&agent.visible()), ["mine", "shared"]);
    assert_eq!(names(&other.visible()), ["shared"]);
    assert!(preset.get("mine").is_none());

    let result = registry
        .execute(
            codemode::tool::ToolExecutionInput::new("c", "shared", json!({})).for_agent(agent.id()),
        )
        .await;
    assert_eq!(result.value(), Some(&json!("preset")));
}

#[test]
fn restrictions_filter_inherited_tools_and_intersect() {
    let registry = Registry::new();
    for name in ["a", "b", "c", "d"] {
        registry.global().register(echo(name)).unwrap().keep();
    }
    let agent = registry.global().create_scope("agent").unwrap();
    agent.register(echo("own")).unwrap().keep();
    let allow = agent.restrict(Some(&["a", "b", "c"]), None).unwrap();
    let deny = agent.restrict(None, Some(&["b"])).unwrap();
    assert_eq!(names(&agent.visible()), ["a", "c", "own"]);
    // The pre-restriction universe still knows the restricted-away names.
    assert_eq!(agent.known_names(), ["a", "b", "c", "d", "own"]);
    assert!(agent.get("d").is_none());

    assert!(deny.dispose());
    assert!(!deny.dispose(), "disposing twice does nothing");
    assert_eq!(names(&agent.visible()), ["a", "b", "c", "own"]);
    allow.dispose();
    assert_eq!(names(&agent.visible()), ["a", "b", "c", "d", "own"]);
}

#[test]
fn deny_lists_admit_later_tools_while_allow_lists_exclude_them() {
    let registry = Registry::new();
    registry.global().register(echo("a")).unwrap().keep();
    let denying = registry.global().create_scope("denying").unwrap();
    let allowing = registry.global().create_scope("allowing").unwrap();
    denying.restrict(None, Some(&["a"])).unwrap().keep();
    allowing.restrict(Some(&["a"]), None).unwrap().keep();
    registry.global().register(echo("later")).unwrap().keep();
    assert_eq!(names(&denying.visible()), ["later"]);
    assert_eq!(names(&allowing.visible()), ["a"]);
}

#[test]
fn an_ancestors_restriction_covers_the_scopes_under_it() {
    let registry = Registry::new();
    registry.global().register(echo("a")).unwrap().keep();
    registry.global().register(echo("b")).unwrap().keep();
    let preset = registry.global().create_scope("preset").unwrap();
    preset.register(echo("preset_tool")).unwrap().keep();
    preset.restrict(None, Some(&["a"])).unwrap().keep();
    let agent = preset.create_scope("agent").unwrap();
    assert_eq!(names(&agent.visible()), ["b", "preset_tool"]);
    // A child may filter its parent's own registrations, which it inherits.
    agent.restrict(None, Some(&["preset_tool"])).unwrap().keep();
    assert_eq!(names(&agent.visible()), ["b"]);
}

#[test]
fn bad_restrictions_fail_loudly() {
    let registry = super::with_code_mode();
    registry.global().register(echo("a")).unwrap().keep();
    let agent = registry.global().create_scope("agent").unwrap();
    agent.register(echo("own")).unwrap().keep();
    let refused = |allow: Option<&[&str]>, deny: Option<&[&str]>| {
        agent.restrict(allow, deny).unwrap_err().to_string()
    };
    assert!(refused(None, None).contains("an empty restriction restricts nothing"));
    assert!(refused(None, Some(&[])).contains("an empty restriction"));
    assert!(refused(Some(&["nope"]), None).contains("unknown tool `nope`"));
    assert!(refused(None, Some(&["own"])).contains("registered in this scope itself"));
    assert!(refused(None, Some(&["run_code"])).contains("reserved transport"));
    let all = refused(Some(&["nope"]), Some(&["own", "run_code"]));
    assert!(
        all.contains("nope") && all.contains("own") && all.contains("run_code"),
        "{all}"
    );
    // An explicit empty allow-list is a real mask: nothing inherited stays.
    agent.restrict(Some(&[]), None).unwrap().keep();
    assert_eq!(names(&agent.visible()), ["own"]);
}

#[test]
fn handles_dispose_exactly_their_registration() {
    let registry = Registry::new();
    let global = registry.global().register(echo("x")).unwrap();
    let agent = registry.global().create_scope("agent").unwrap();
    let scoped = agent.register(echo("x")).unwrap();
    assert!(scoped.dispose());
    assert!(agent.get("x").is_some(), "the global x shows through again");
    assert!(global.dispose());
    assert!(agent.get("x").is_none());
    assert!(!global.dispose());
    // A new registration under the old name is not touched by the old handle.
    registry.global().register(echo("x")).unwrap().keep();
    assert!(!global.dispose());
    assert!(registry.global().get("x").is_some());
}

#[test]
fn every_change_of_a_tool_set_notifies() {
    let registry = super::with_code_mode();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    let subscription = registry.on_change(move || {
        seen.fetch_add(1, Ordering::SeqCst);
    });
    let a = registry.global().register(echo("a")).unwrap();
    let agent = registry.global().create_scope("agent").unwrap();
    agent.register(echo("b")).unwrap().keep();
    let restriction = agent.restrict(None, Some(&["a"])).unwrap();
    restriction.dispose();
    let mode = agent.present_as(PresentationMode::Code).unwrap();
    mode.dispose();
    a.dispose();
    agent.close();
    assert_eq!(count.load(Ordering::SeqCst), 8);
    subscription.dispose();
    registry.global().register(echo("c")).unwrap().keep();
    assert_eq!(count.load(Ordering::SeqCst), 8);
}

#[test]
fn a_panicking_change_listener_is_contained() {
    let registry = Registry::new();
    registry.on_change(|| panic!("listener bug")).keep();
    registry.global().register(echo("a")).unwrap().keep();
    assert!(registry.global().get("a").is_some());
}

#[test]
fn present_as_is_nearest_wins_once_per_scope_and_restorable() {
    let registry = super::with_code_mode();
    let preset = registry.global().create_scope("preset").unwrap();
    let agent = preset.create_scope("agent").unwrap();
    assert_eq!(agent.mode(), PresentationMode::Native);
    let declared = preset.present_as(PresentationMode::Code).unwrap();
    assert_eq!(agent.mode(), PresentationMode::Code);
    agent.present_as(PresentationMode::Both).unwrap().keep();
    assert_eq!(agent.mode(), PresentationMode::Both);
    assert_eq!(preset.mode(), PresentationMode::Code);
    assert!(
        preset
            .present_as(PresentationMode::Native)
            .unwrap_err()
            .to_string()
            .contains("already declared")
    );
    declared.dispose();
    assert_eq!(preset.mode(), PresentationMode::Native);
}

#[tokio::test]
async fn closing_a_scope_removes_it_and_its_children() {
    let registry = Registry::new();
    let preset = registry.global().create_scope("preset").unwrap();
    let agent = preset.create_scope("agent").unwrap();
    agent.register(echo("mine")).unwrap().keep();
    preset.close();
    assert!(registry.scope(agent.id()).is_err());
    assert!(agent.get("mine").is_none());
    assert!(preset.create_scope("late").is_err());
    assert_eq!(
        run(&registry, "mine", json!({}))
            .await
            .failure_info()
            .unwrap()
            .code,
        ErrorCode::UnknownTool
    );
}
