//! MCP sources that change: a server's `notifications/tools/list_changed` is followed (its
//! tools listed again and registered again; the registry's change event fires, so `codemode
//! serve` tells its own client), bounded when a server spams them; and `include` /
//! `exclude` choose a server's tools.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode::ErrorCode;
use codemode::config::Config;
use codemode::host::Host;
use codemode::registry::Registry;
use serde_json::{Value, json};

use super::{call, everything, fixture_entry, load, value};
use crate::serve::{Workspace, run_code, steps, tool_names};

/// Waits (up to 30 s) until `check(registry)` holds.
async fn until(registry: &Registry, what: &str, check: impl Fn(&Registry) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !check(registry) {
        assert!(
            Instant::now() < deadline,
            "{what}: {:?}",
            registry.global().known_names()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn has(registry: &Registry, name: &str) -> bool {
    registry.global().get(name).is_some()
}

/// How many `tools/list` requests the fixture logged.
fn lists(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|m| m["method"] == "tools/list")
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_changes_its_tools_is_listed_again_and_registered_again() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.jsonl");
    let log_text = log.display().to_string();
    let toml = fixture_entry(
        "dyn",
        &["--dynamic", "--log", &log_text],
        "[mcp.tools.grown_2]\npolicy = \"deny\"\n",
    );
    let (registry, _load) = load(&toml, dir.path()).await;
    let changes = Arc::new(AtomicUsize::new(0));
    registry
        .on_change({
            let changes = changes.clone();
            move || {
                changes.fetch_add(1, Ordering::SeqCst);
            }
        })
        .keep();
    assert!(has(&registry, "grow") && !has(&registry, "grown_1"));

    // A tool the server adds is registered, and the registry's change event fires.
    assert_eq!(
        value(&*call(&registry, "grow", json!({})).await),
        json!("grown_1")
    );
    until(&registry, "grown_1 is registered", |r| has(r, "grown_1")).await;
    assert!(changes.load(Ordering::SeqCst) > 0);
    assert_eq!(
        value(&*call(&registry, "grown_1", json!({})).await),
        json!("grown_1 works")
    );
    assert_eq!(
        registry
            .global()
            .get("grown_1")
            .unwrap()
            .annotations()
            .source
            .as_deref(),
        Some("mcp:dyn")
    );
    // Its `[mcp.tools.NAME]` settings apply to a tool that appears later.
    assert_eq!(
        value(&*call(&registry, "grow", json!({})).await),
        json!("grown_2")
    );
    until(&registry, "grown_2 is registered", |r| has(r, "grown_2")).await;
    let denied = call(&registry, "grown_2", json!({})).await;
    assert_eq!(
        denied.failure_info().map(|f| f.code),
        Some(ErrorCode::ToolDenied),
        "{}",
        denied.model_text()
    );

    // A tool the server removes is unregistered; the others stay.
    assert_eq!(
        value(&*call(&registry, "shrink", json!({})).await),
        json!("grown_2")
    );
    until(&registry, "grown_2 is unregistered", |r| !has(r, "grown_2")).await;
    assert!(has(&registry, "grown_1") && has(&registry, "echo"));

    // 100 notifications at once are a few lists, not 100.
    let before = lists(&log);
    assert_eq!(
        value(&*call(&registry, "storm", json!({})).await),
        json!("stormed")
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while lists(&log) == before {
        assert!(Instant::now() < deadline, "the storm caused no list");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Give any further lists time to happen: they are bounded by the minimum interval.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after = lists(&log) - before;
    assert!(after <= 5, "{after} lists for one storm");
    assert!(has(&registry, "grown_1"));
}

#[test]
fn codemode_serve_passes_a_servers_tool_change_on_to_its_client() {
    let workspace = Workspace::new(&format!(
        "mode = \"code\"\n{}",
        fixture_entry("dyn", &["--dynamic"], "")
    ));
    let report = workspace.drive(json!({"steps": [
        {"op": "list"},
        run_code("return await tools.grow({});"),
        {"op": "wait_list_changed", "count": 1, "timeout": 60},
        {"op": "list"},
        run_code("return await tools.grown_1({});"),
    ]}));
    let steps = steps(&report);
    let description = |list: &Value| {
        list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "run_code")
            .map(|t| t["description"].as_str().unwrap_or_default().to_owned())
            .unwrap_or_else(|| panic!("no run_code: {list}"))
    };
    let before = description(&steps[0]);
    assert!(
        before.contains("grow") && !before.contains("grown_1"),
        "{before}"
    );
    assert_eq!(tool_names(&steps[0]), tool_names(&steps[3]));
    let after = description(&steps[3]);
    assert!(after.contains("grown_1"), "{after}");
    assert!(
        steps[4]["content"][0]["text"]
            .as_str()
            .is_some_and(|text| text.contains("grown_1 works")),
        "{}",
        steps[4]
    );
    assert!(report["listChanged"].as_u64() >= Some(1), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn include_and_exclude_choose_a_servers_tools() {
    let dir = tempfile::tempdir().unwrap();
    let mcp_tools = |registry: &Registry| {
        let mut names = registry.global().known_names();
        names.retain(|n| {
            registry
                .global()
                .get(n)
                .and_then(|t| t.annotations().source.clone())
                .as_deref()
                == Some("mcp:everything")
        });
        names
    };
    let (registry, _load) = load(
        &format!("{}include = [\"echo\", \"get-sum\"]\n", everything()),
        dir.path(),
    )
    .await;
    assert_eq!(mcp_tools(&registry), ["echo", "get-sum"]);

    let (registry, _load) = load(
        &format!("{}exclude = [\"echo\"]\n", everything()),
        dir.path(),
    )
    .await;
    let names = mcp_tools(&registry);
    assert!(!names.contains(&"echo".to_owned()), "{names:?}");
    assert!(
        names.contains(&"get-sum".to_owned()) && names.len() > 5,
        "{names:?}"
    );

    // Names the server does not list are a configuration error naming them, at the list.
    let typo = format!("{}include = [\"echo\", \"nope\", \"nah\"]\n", everything());
    let config = Config::parse(&typo, &dir.path().join("codemode.toml")).unwrap();
    let err = Host::builder(config).build().await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidConfig);
    assert!(
        err.message().contains(
            "codemode.toml:4:11: MCP server `everything`: `include` names `nope`, `nah` that the server does not list (it lists: "
        ),
        "{err}"
    );
    assert!(err.message().contains("get-sum"), "{err}");

    // The command says so and exits 2, like every configuration error.
    let exclude = fixture_entry("fx", &[], "exclude = [\"echo\", \"ehco\"]");
    std::fs::write(dir.path().join("codemode.toml"), &exclude).unwrap();
    let tools = crate::cli::codemode(dir.path(), &["tools"], "");
    let stderr = crate::cli::stderr(&tools);
    assert_eq!(tools.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("codemode.toml:4:11: MCP server `fx`: `exclude` names `ehco` that the server does not list"),
        "{stderr}"
    );
}
