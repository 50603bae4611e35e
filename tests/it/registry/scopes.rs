//! Layers, scopes, visibility, restrictions, handles and change notifications.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use codemode::ErrorCode;
use codemode::registry::{PresentationMode, Registry};
use serde_json::json;

use super::{echo, run};

fn names(tools: &[Arc<codemode::tool::ToolDefinition>]) -> Vec<String> {
    tools.iter().map(|t| t.name().to_owned()).collect()
}

#[tokio::test]
async fn global_registrations_are_visible_sorted_and_schemas_expose_only_model_fields() {
    let registry = Registry::new();
    registry.register(echo("zeta")).unwrap().keep();
    registry.register(echo("alpha")).unwrap().keep();
    assert_eq!(names(&registry.visible(None)), ["alpha", "zeta"]);
    let schemas = serde_json::to_value(registry.schemas(None)).unwrap();
    assert_eq!(
        schemas[0],
        json!({"name": "alpha", "description": "The alpha tool.", "parameters": {"type": "object", "properties": {"value": {}}}})
    );
    assert!(registry.get("alpha", None).is_some());
    assert!(registry.get("missing", None).is_none());
}

#[test]
fn duplicates_in_one_layer_and_the_reserved_name_are_refused() {
    let registry = Registry::new();
    registry.register(echo("a")).unwrap().keep();
    let err = registry.register(echo("a")).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidDefinition);
    assert!(
        err.message()
            .contains("already registered in the global layer"),
        "{err}"
    );
    let err = registry.register(echo("run_code")).unwrap_err();
    assert!(err.message().contains("reserved"), "{err}");
    let scope = registry.create_scope("agent", None).unwrap();
    scope.register(echo("a")).unwrap().keep();
    assert!(scope.register(echo("a")).is_err());
    assert!(scope.register(echo("run_code")).is_err());
}

#[tokio::test]
async fn scoped_registrations_shadow_inherited_ones_and_stay_private() {
    let registry = Registry::new();
    registry.register(echo("shared")).unwrap().keep();
    let preset = registry.create_scope("preset", None).unwrap();
    let agent = registry.create_scope("agent", Some(preset.id())).unwrap();
    let other = registry.create_scope("other", None).unwrap();
    let shadow = codemode::tool::ToolDefinition::builder("shared")
        .description("the preset's own")
        .output(codemode::tool::ToolOutput::any())
        .execute(|_, _| async { Ok(json!("preset")) })
        .build()
        .unwrap();
    preset.register(shadow).unwrap().keep();
    agent.register(echo("mine")).unwrap().keep();

    assert_eq!(
        registry
            .get("shared", Some(agent.id()))
            .unwrap()
            .schema()
            .description,
        "the preset's own"
    );
    assert_eq!(
        registry.get("shared", None).unwrap().schema().description,
        "The shared tool."
    );
    assert_eq!(
        names(&registry.visible(Some(agent.id()))),
        ["mine", "shared"]
    );
    assert_eq!(names(&registry.visible(Some(other.id()))), ["shared"]);
    assert!(registry.get("mine", Some(preset.id())).is_none());

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
        registry.register(echo(name)).unwrap().keep();
    }
    let agent = registry.create_scope("agent", None).unwrap();
    agent.register(echo("own")).unwrap().keep();
    let allow = agent.restrict(Some(&["a", "b", "c"]), None).unwrap();
    let deny = agent.restrict(None, Some(&["b"])).unwrap();
    assert_eq!(
        names(&registry.visible(Some(agent.id()))),
        ["a", "c", "own"]
    );
    // The pre-restriction universe still knows the restricted-away names.
    assert_eq!(
        registry.known_names(Some(agent.id())),
        ["a", "b", "c", "d", "own"]
    );
    assert!(registry.get("d", Some(agent.id())).is_none());

    assert!(deny.dispose());
    assert!(!deny.dispose(), "disposing twice does nothing");
    assert_eq!(
        names(&registry.visible(Some(agent.id()))),
        ["a", "b", "c", "own"]
    );
    allow.dispose();
    assert_eq!(
        names(&registry.visible(Some(agent.id()))),
        ["a", "b", "c", "d", "own"]
    );
}

#[test]
fn deny_lists_admit_later_tools_while_allow_lists_exclude_them() {
    let registry = Registry::new();
    registry.register(echo("a")).unwrap().keep();
    let denying = registry.create_scope("denying", None).unwrap();
    let allowing = registry.create_scope("allowing", None).unwrap();
    denying.restrict(None, Some(&["a"])).unwrap().keep();
    allowing.restrict(Some(&["a"]), None).unwrap().keep();
    registry.register(echo("later")).unwrap().keep();
    assert_eq!(names(&registry.visible(Some(denying.id()))), ["later"]);
    assert_eq!(names(&registry.visible(Some(allowing.id()))), ["a"]);
}

#[test]
fn an_ancestors_restriction_covers_the_scopes_under_it() {
    let registry = Registry::new();
    registry.register(echo("a")).unwrap().keep();
    registry.register(echo("b")).unwrap().keep();
    let preset = registry.create_scope("preset", None).unwrap();
    preset.register(echo("preset_tool")).unwrap().keep();
    preset.restrict(None, Some(&["a"])).unwrap().keep();
    let agent = registry.create_scope("agent", Some(preset.id())).unwrap();
    assert_eq!(
        names(&registry.visible(Some(agent.id()))),
        ["b", "preset_tool"]
    );
    // A child may filter its parent's own registrations, which it inherits.
    agent.restrict(None, Some(&["preset_tool"])).unwrap().keep();
    assert_eq!(names(&registry.visible(Some(agent.id()))), ["b"]);
}

#[test]
fn bad_restrictions_fail_loudly() {
    let registry = Registry::new();
    registry.register(echo("a")).unwrap().keep();
    let agent = registry.create_scope("agent", None).unwrap();
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
    assert_eq!(names(&registry.visible(Some(agent.id()))), ["own"]);
}

#[test]
fn handles_dispose_exactly_their_registration() {
    let registry = Registry::new();
    let global = registry.register(echo("x")).unwrap();
    let agent = registry.create_scope("agent", None).unwrap();
    let scoped = agent.register(echo("x")).unwrap();
    assert!(scoped.dispose());
    assert!(
        registry.get("x", Some(agent.id())).is_some(),
        "the global x shows through again"
    );
    assert!(global.dispose());
    assert!(registry.get("x", Some(agent.id())).is_none());
    assert!(!global.dispose());
    // A new registration under the old name is not touched by the old handle.
    registry.register(echo("x")).unwrap().keep();
    assert!(!global.dispose());
    assert!(registry.get("x", None).is_some());
}

#[test]
fn every_change_of_a_tool_set_notifies() {
    let registry = Registry::new();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    let subscription = registry.on_change(move || {
        seen.fetch_add(1, Ordering::SeqCst);
    });
    let a = registry.register(echo("a")).unwrap();
    let agent = registry.create_scope("agent", None).unwrap();
    agent.register(echo("b")).unwrap().keep();
    let restriction = agent.restrict(None, Some(&["a"])).unwrap();
    restriction.dispose();
    let mode = agent.present_as(PresentationMode::Code).unwrap();
    mode.dispose();
    a.dispose();
    agent.close();
    assert_eq!(count.load(Ordering::SeqCst), 8);
    subscription.dispose();
    registry.register(echo("c")).unwrap().keep();
    assert_eq!(count.load(Ordering::SeqCst), 8);
}

#[test]
fn a_panicking_change_listener_is_contained() {
    let registry = Registry::new();
    registry.on_change(|| panic!("listener bug")).keep();
    registry.register(echo("a")).unwrap().keep();
    assert!(registry.get("a", None).is_some());
}

#[test]
fn present_as_is_nearest_wins_once_per_scope_and_restorable() {
    let registry = Registry::new();
    let preset = registry.create_scope("preset", None).unwrap();
    let agent = registry.create_scope("agent", Some(preset.id())).unwrap();
    assert_eq!(registry.mode(Some(agent.id())), PresentationMode::Native);
    let declared = preset.present_as(PresentationMode::Code).unwrap();
    assert_eq!(registry.mode(Some(agent.id())), PresentationMode::Code);
    agent.present_as(PresentationMode::Both).unwrap().keep();
    assert_eq!(registry.mode(Some(agent.id())), PresentationMode::Both);
    assert_eq!(registry.mode(Some(preset.id())), PresentationMode::Code);
    assert!(
        preset
            .present_as(PresentationMode::Native)
            .unwrap_err()
            .to_string()
            .contains("already declared")
    );
    declared.dispose();
    assert_eq!(registry.mode(Some(preset.id())), PresentationMode::Native);
}

#[tokio::test]
async fn closing_a_scope_removes_it_and_its_children() {
    let registry = Registry::new();
    let preset = registry.create_scope("preset", None).unwrap();
    let agent = registry.create_scope("agent", Some(preset.id())).unwrap();
    agent.register(echo("mine")).unwrap().keep();
    preset.close();
    assert!(registry.scope(agent.id()).is_err());
    assert!(registry.get("mine", Some(agent.id())).is_none());
    assert!(registry.create_scope("late", Some(preset.id())).is_err());
    assert_eq!(
        run(&registry, "mine", json!({}))
            .await
            .failure_info()
            .unwrap()
            .code,
        ErrorCode::UnknownTool
    );
}
