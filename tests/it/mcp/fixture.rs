//! A misbehaving server as a source: malformed tools and noise, a crash mid-call, a hung
//! tool, cancellation, a server that cannot start, policies on MCP tools.

use std::path::Path;
use std::time::{Duration, Instant};

use codemode::ErrorCode;
use codemode::config::Config;
use codemode::host::Host;
use codemode::mcp::client::ServerState;
use codemode::tool::ToolExecutionInput;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::{call, fixture_entry, load, quoted, ready, status, value};
use crate::cli::{codemode, stderr, stdout};

/// The `tools/call` requests and `notifications/cancelled` the fixture logged.
fn logged(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// Waits (up to 3 s) until the fixture logged a cancellation of the `tools/call` of
/// `tool`, and returns that request's id.
async fn wait_for_cancellation(log: &Path, tool: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let messages = logged(log);
        let request = messages
            .iter()
            .find(|m| m["method"] == "tools/call" && m["params"]["name"] == tool)
            .map(|m| m["id"].clone());
        if let Some(id) = &request
            && messages.iter().any(|m| {
                m["method"] == "notifications/cancelled" && &m["params"]["requestId"] == id
            })
        {
            return id.clone();
        }
        assert!(
            Instant::now() < deadline,
            "the server was not told to cancel `{tool}`: {messages:#?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_tools_and_noise_are_skipped_and_the_rest_is_served() {
    let dir = tempfile::tempdir().unwrap();
    // Seven pages of three, malformed tools between good ones, garbage before every line.
    let toml = fixture_entry("odd", &["--bad-tools", "--garbage", "--page-size", "3"], "");
    let (registry, load) = load(&toml, dir.path()).await;
    let (count, renamed, skipped) = ready(&load, "odd");
    assert_eq!(count, 8);
    assert!(renamed.is_empty());
    assert_eq!(
        skipped,
        ["bad_schema", "array_root", "has space", "#7", "no_schema"]
    );
    let ServerState::Ready { skipped, .. } = &status(&load, "odd").state else {
        unreachable!()
    };
    assert_eq!(
        skipped[0].reason,
        "its inputSchema is not a JSON Schema object: \"not a schema\""
    );
    assert_eq!(
        skipped[1].reason,
        "its inputSchema must describe an object (`\"type\": \"object\"`), got `type` \"array\""
    );
    assert_eq!(skipped[3].reason, "it has no name");
    assert_eq!(skipped[4].reason, "it has no `inputSchema`");
    let mut names = registry.global().known_names();
    names.retain(|n| {
        registry
            .global()
            .get(n)
            .and_then(|t| t.annotations().source.clone())
            .as_deref()
            == Some("mcp:odd")
    });
    assert_eq!(
        names,
        [
            "add", "crash", "echo", "fail", "hang", "picture", "pid", "sleep"
        ]
    );
    // The noise on the stream does not disturb calls.
    let echo = call(&registry, "echo", json!({"text": "still here"})).await;
    assert_eq!(value(&echo), json!("still here"));
    let add = call(&registry, "add", json!({"a": 1.5, "b": 2})).await;
    assert_eq!(value(&add), json!({"sum": 3.5}));
    let picture = call(&registry, "picture", json!({})).await;
    assert_eq!(
        value(&picture),
        json!([
            {"type": "text", "text": "a red dot"},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
        ])
    );
    assert!(picture.content[1].is_image());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_crashes_mid_call_fails_its_calls_and_is_restarted_on_the_next_call() {
    let dir = tempfile::tempdir().unwrap();
    let (registry, _load) = load(&fixture_entry("flaky", &[], ""), dir.path()).await;
    let registry = std::sync::Arc::new(registry);
    let first = value(&*call(&registry, "pid", json!({})).await);

    // A call in flight when the server dies fails too.
    let in_flight = tokio::spawn({
        let registry = registry.clone();
        async move { call(&registry, "sleep", json!({"ms": 5000})).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let crash = call(&registry, "crash", json!({})).await;
    let failure = crash.failure_info().expect("the crash fails the call");
    assert_eq!(failure.code, ErrorCode::ToolFailed);
    assert!(
        failure
            .message
            .starts_with("MCP server `flaky` stopped during the call to `crash` (it exited with status 7; its last error output:\nfixture: crashing on purpose)"),
        "{}",
        failure.message
    );
    assert!(
        failure
            .message
            .ends_with("; it is restarted on the next call"),
        "{}",
        failure.message
    );
    let sleeping = tokio::time::timeout(Duration::from_secs(3), in_flight)
        .await
        .expect("the in-flight call settles")
        .expect("the task completes");
    let failure = sleeping.failure_info().expect("the in-flight call fails");
    assert!(
        failure
            .message
            .starts_with("MCP server `flaky` stopped during the call to `sleep`"),
        "{}",
        failure.message
    );

    // The next call starts the server again.
    let second = value(&*call(&registry, "pid", json!({})).await);
    assert_ne!(first, second);
    let echo = call(&registry, "echo", json!({"text": "again"})).await;
    assert_eq!(value(&echo), json!("again"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_tool_is_bounded_by_its_timeout_and_the_server_is_told_to_cancel() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("messages.log");
    let toml = fixture_entry(
        "slow",
        &["--log", &log.display().to_string()],
        "[mcp.tools.hang]\ntimeout_ms = 300\n",
    );
    let (registry, _load) = load(&toml, dir.path()).await;
    assert_eq!(
        registry.global().get("hang").unwrap().timeout(),
        Some(Duration::from_millis(300))
    );
    assert_eq!(
        registry.global().get("echo").unwrap().timeout(),
        Some(Duration::from_secs(60))
    );
    let started = Instant::now();
    let hung = call(&registry, "hang", json!({})).await;
    let failure = hung.failure_info().expect("the hung call fails");
    assert_eq!(failure.code, ErrorCode::ToolTimeout);
    assert_eq!(failure.message, "the tool `hang` timed out after 300 ms");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    wait_for_cancellation(&log, "hang").await;
    // The session is fine: no restart needed.
    let echo = call(&registry, "echo", json!({"text": "next"})).await;
    assert_eq!(value(&echo), json!("next"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_call_cancels_the_upstream_request() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("messages.log");
    let toml = fixture_entry("slow", &["--log", &log.display().to_string()], "");
    let (registry, _load) = load(&toml, dir.path()).await;
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let result = registry
        .execute(ToolExecutionInput::new("c", "hang", json!({})).with_signal(cancel))
        .await;
    assert_eq!(
        result.failure_info().map(|f| f.code),
        Some(ErrorCode::Aborted),
        "{}",
        result.model_text()
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    wait_for_cancellation(&log, "hang").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_settles_cancels_its_upstream_requests() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("messages.log");
    let toml = format!(
        "mode = \"code\"\n{}",
        fixture_entry("slow", &["--log", &log.display().to_string()], "")
    );
    let (registry, _load) = load(&toml, dir.path()).await;
    let engine: std::sync::Arc<dyn codemode::runtime::CodeRuntime> =
        crate::codemode::ENGINE.clone();
    codemode::code::CodeMode::of(&registry)
        .expect("Code Mode is installed")
        .set_runtime(engine)
        .expect("run_code installs");
    // The program returns while `hang` is in flight: the run settles, its sub-calls are
    // cancelled, and the server is told.
    let result = crate::codemode::run_program(
        &registry,
        "tools.hang({}).catch(() => {}); await new Promise((r) => setTimeout(r, 200)); return 'left';",
    )
    .await;
    assert_eq!(result.model_text(), "left");
    wait_for_cancellation(&log, "hang").await;
}

#[test]
fn servers_that_cannot_start_are_reported_and_the_other_tools_keep_working() {
    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "{}[[mcp]]\nname = \"gone\"\ncommand = [\"/nonexistent/mcp-server\"]\n{}[policy]\necho = \"allow\"\nbroken_tool = \"deny\"\n",
        fixture_entry("good", &[], ""),
        fixture_entry("broken", &["--fail-start"], ""),
    );
    std::fs::write(dir.path().join("codemode.toml"), &config).unwrap();

    let tools = codemode(dir.path(), &["tools"], "");
    assert!(tools.status.success(), "{}", stderr(&tools));
    let text = stdout(&tools);
    assert!(
        text.contains("\nMCP servers:\n  good    ready: 8 tools\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  gone    failed: MCP server `gone` could not be started: `/nonexistent/mcp-server` in "),
        "{text}"
    );
    assert!(
        text.contains("\n  broken  failed: MCP server `broken` failed to initialize: ")
            && text.contains("(it exited with status 3; its last error output: | fixture: cannot start: the database is missing)"),
        "{text}"
    );
    assert!(text.contains("\necho "), "{text}");

    let json_listing = codemode(dir.path(), &["tools", "--json"], "");
    let listing: Value = serde_json::from_str(&stdout(&json_listing)).unwrap();
    assert_eq!(listing["servers"][0]["status"], json!("ready"));
    assert_eq!(listing["servers"][1]["status"], json!("failed"));
    assert_eq!(listing["servers"][2]["name"], json!("broken"));

    let sdk = codemode(dir.path(), &["sdk"], "");
    assert!(sdk.status.success(), "{}", stderr(&sdk));
    assert!(
        stdout(&sdk).contains("\n  echo: {\n    text: string;\n  } & Record<string, JsonValue>;\n"),
        "{}",
        stdout(&sdk)
    );
    assert!(stdout(&sdk).contains("\n  add: {\n    sum: number;\n  } & Record<string, JsonValue>;\n  crash: JsonValue;\n  echo: JsonValue;\n"), "{}", stdout(&sdk));

    let run = codemode(
        dir.path(),
        &["run", "-"],
        "return (await tools.echo({text: 'works'})) + ' ' + (await tools.list_dir({})).entries.length;",
    );
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(stdout(&run), "works 1\n");
    let warnings = stderr(&run);
    assert!(
        warnings.contains("codemode: warning: MCP server `gone` could not be started"),
        "{warnings}"
    );
    assert!(
        warnings.contains("codemode: warning: MCP server `broken` failed to initialize"),
        "{warnings}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn policies_and_settings_may_name_mcp_tools() {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "{}[policy]\nfail = \"deny\"\n",
        fixture_entry(
            "fx",
            &[],
            "[mcp.tools.pid]\npolicy = \"deny\"\n[mcp.tools.echo]\nconcurrency_safe = false\n[mcp.tools.crash]\nconcurrency_safe = true\n"
        )
    );
    let (registry, _load) = load(&toml, dir.path()).await;
    for tool in ["fail", "pid"] {
        let denied = call(&registry, tool, json!({})).await;
        assert_eq!(
            denied.failure_info().map(|f| f.code),
            Some(ErrorCode::ToolDenied),
            "{tool}: {}",
            denied.model_text()
        );
    }
    use codemode::tool::Concurrency;
    assert_eq!(
        registry.global().get("echo").unwrap().concurrency(),
        Concurrency::Exclusive
    );
    assert_eq!(
        registry.global().get("crash").unwrap().concurrency(),
        Concurrency::Parallel
    );

    // A policy naming no tool is an error while every server is up...
    let typo = format!(
        "{}[policy]\nehco = \"deny\"\n",
        fixture_entry("fx", &[], "")
    );
    let config = Config::parse(&typo, &dir.path().join("codemode.toml")).unwrap();
    let err = Host::builder(config).build().await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidConfig);
    assert!(err.message().contains("a policy names `ehco`"), "{err}");
    // ...and waits for its tool while a server is down.
    let down = format!(
        "{}[[mcp]]\nname = \"down\"\ncommand = [{}]\n[policy]\nits_tool = \"deny\"\n",
        fixture_entry("fx", &[], ""),
        quoted("/nonexistent/mcp-server")
    );
    let config = Config::parse(&down, &dir.path().join("codemode.toml")).unwrap();
    let host = Host::builder(config).build().await.unwrap();
    assert!(
        host.servers()
            .iter()
            .any(|server| matches!(server.state, ServerState::Failed { .. }))
    );
}

/// `codemode tools` shows an MCP tool's own `[mcp.tools.NAME] policy`, and `[policy]` over
/// it.
#[test]
fn tools_shows_the_policies_of_mcp_tools() {
    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "{}[policy]\nfail = \"deny\"\nhang = \"allow\"\n",
        fixture_entry(
            "fx",
            &[],
            "[mcp.tools.pid]\npolicy = \"ask\"\n[mcp.tools.hang]\npolicy = \"deny\"\n"
        ),
    );
    std::fs::write(dir.path().join("codemode.toml"), &config).unwrap();
    let listing = codemode(dir.path(), &["tools", "--json"], "");
    assert!(listing.status.success(), "{}", stderr(&listing));
    let listing: Value = serde_json::from_str(&stdout(&listing)).unwrap();
    let policy = |name: &str| {
        listing["tools"]
            .as_array()
            .and_then(|tools| tools.iter().find(|tool| tool["name"] == name))
            .map(|tool| tool["policy"].clone())
    };
    assert_eq!(policy("pid"), Some(json!("ask")), "{listing}");
    assert_eq!(policy("fail"), Some(json!("deny")), "{listing}");
    assert_eq!(policy("hang"), Some(json!("allow")), "{listing}");
    assert_eq!(policy("echo"), Some(json!("allow")), "{listing}");
}
