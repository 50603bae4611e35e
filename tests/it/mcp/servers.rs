//! The real MCP servers from the npm registry as sources: discovery, a program calling both
//! in parallel, their SDK under `tsc --strict`, error results, content mapping, and the
//! streamable HTTP transport.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use codemode::ErrorCode;
use codemode::code::sdk::render_sdk_section;
use codemode::code::sdk_tools;
use codemode::runtime::Language;
use codemode::tool::Concurrency;
use serde_json::{Value, json};

use super::{call, everything, filesystem, load, npm_server, quoted, ready, value};
use crate::cli::{codemode, stderr, stdout};
use crate::sdk::compile::{fenced_code, run_compiler, temp_dir, test_tool, typescript_program};

use crate::serve::free_port;

/// A folder the filesystem server may see, with two files.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::write(dir.path().join("hello.txt"), "hello world\n").unwrap();
    std::fs::create_dir(dir.path().join("notes")).unwrap();
    std::fs::write(dir.path().join("notes/todo.md"), "- ship it\n").unwrap();
    dir
}

/// The canonical path (the filesystem server reports resolved paths).
fn canonical(dir: &tempfile::TempDir) -> String {
    dir.path()
        .canonicalize()
        .expect("the temp dir resolves")
        .display()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_registers_both_servers_tools_with_their_raw_schemas_and_hints() {
    let dir = workspace();
    let toml = format!("{}{}", everything(), filesystem(dir.path()));
    let (registry, load) = load(&toml, dir.path()).await;

    let (count, renamed, skipped) = ready(&load, "everything");
    assert!(count >= 10, "{count}");
    assert!(renamed.is_empty(), "{renamed:?}");
    assert!(skipped.is_empty(), "{skipped:?}");
    let (count, renamed, skipped) = ready(&load, "fs");
    assert!(count >= 10, "{count}");
    // The built-in `read_file` keeps its name; the server's collides and is renamed.
    assert_eq!(
        renamed,
        vec![("read_file".to_owned(), "fs__read_file".to_owned())]
    );
    assert!(skipped.is_empty(), "{skipped:?}");

    let tool = |name: &str| {
        registry
            .global()
            .get(name)
            .unwrap_or_else(|| panic!("`{name}` is registered"))
    };
    assert_eq!(
        tool("read_file").annotations().source.as_deref(),
        Some("builtin")
    );
    let sum = tool("get-sum");
    assert_eq!(sum.annotations().source.as_deref(), Some("mcp:everything"));
    // The raw schema, as the server wrote it (`$schema` included).
    assert_eq!(
        sum.schema().parameters["$schema"],
        json!("http://json-schema.org/draft-07/schema#")
    );
    assert_eq!(
        sum.schema().parameters["properties"]["a"]["type"],
        json!("number")
    );
    assert_eq!(sum.schema().description, "Returns the sum of two numbers");
    // readOnlyHint: true -> parallel; anything else -> exclusive.
    assert_eq!(sum.concurrency(), Concurrency::Parallel);
    assert_eq!(tool("list_directory").concurrency(), Concurrency::Parallel);
    assert_eq!(tool("fs__read_file").concurrency(), Concurrency::Parallel);
    assert_eq!(tool("write_file").concurrency(), Concurrency::Exclusive);
    assert_eq!(
        tool("write_file").annotations().source.as_deref(),
        Some("mcp:fs")
    );
    assert_eq!(
        tool("gzip-file-as-resource").concurrency(),
        Concurrency::Exclusive
    );
    // Output schemas are advertised for SDKs.
    let read = tool("read_text_file");
    let output = read
        .annotations()
        .advertised_output
        .as_ref()
        .expect("read_text_file declares an output schema");
    assert_eq!(output["properties"]["content"]["type"], json!("string"));
    assert_eq!(tool("get-sum").annotations().advertised_output, None);
}

#[test]
fn a_program_calls_tools_of_both_servers_in_parallel_and_gets_their_values() {
    let dir = workspace();
    let root = canonical(&dir);
    let config = format!(
        "max_parallel_sub_calls = 8\n{}{}",
        everything(),
        filesystem(dir.path())
    );
    std::fs::write(dir.path().join("codemode.toml"), config).unwrap();
    let program = format!(
        r#"
const root = {root};
const [slow, echo, sum, weather, listing, text, old] = await Promise.all([
  tools["trigger-long-running-operation"]({{ duration: 0.4, steps: 1 }}),
  tools.echo({{ message: "hi" }}),
  tools["get-sum"]({{ a: 2, b: 3 }}),
  tools["get-structured-content"]({{ location: "Chicago" }}),
  tools.list_directory({{ path: root }}),
  tools.read_text_file({{ path: root + "/notes/todo.md" }}),
  tools.fs__read_file({{ path: root + "/hello.txt" }}),
]);
const own = await tools.read_file({{ path: "hello.txt" }});
return {{ slow, echo, sum, weather, listing: listing.content.split("\n").sort().join("\n"), text: text.content, old: old.content, own: own.content }};
"#,
        root = quoted(&root)
    );
    let output = codemode(dir.path(), &["run", "-", "--json"], &program);
    assert!(
        output.status.success(),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    let result: Value = serde_json::from_str(&stdout(&output)).expect("JSON output");
    assert_eq!(
        result["value"]["value"],
        json!({
            "slow": "Long running operation completed. Duration: 0.4 seconds, Steps: 1.",
            "echo": "Echo: hi",
            "sum": "The sum of 2 and 3 is 5.",
            "weather": {"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82},
            "listing": "[DIR] notes\n[FILE] codemode.toml\n[FILE] hello.txt",
            "text": "- ship it\n",
            "old": "hello world\n",
            "own": "hello world\n",
        }),
        "{result:#}"
    );
    // The seven read-only calls overlapped: each started before the slow one ended.
    let calls = result["subCalls"].as_array().expect("sub-calls");
    assert_eq!(calls.len(), 8);
    let slow_end = calls[0]["endMs"].as_f64().unwrap();
    for call in &calls[..7] {
        assert_eq!(call["mode"], json!("parallel"), "{call:#}");
        assert!(
            call["startMs"].as_f64().unwrap() < slow_end,
            "{} started after the slow call ended: {result:#}",
            call["name"]
        );
    }
    assert!(
        slow_end - calls[0]["startMs"].as_f64().unwrap() >= 400.0,
        "{result:#}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_of_both_servers_passes_tsc_strict() {
    let tsc = test_tool("node_modules/.bin/tsc");
    let dir = workspace();
    let toml = format!("{}{}", everything(), filesystem(dir.path()));
    let (registry, _load) = load(&toml, dir.path()).await;
    let mut tools = sdk_tools(&registry.global());
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    let section = render_sdk_section(Language::TypeScript, &tools);
    assert!(section.contains("  fs__read_file: {"), "{section}");
    assert!(section.contains("  \"get-sum\": {"), "{section}");
    // The filesystem server's output schemas are typed, not `JsonValue`.
    assert!(
        section.contains("  read_text_file: {\n    content: string;"),
        "{section}"
    );
    let mut source = fenced_code(&section, "```ts\n");
    source.push_str(&typescript_program(&tools));
    let out = temp_dir("mcp-ts");
    let file = out.join("mcp.ts");
    std::fs::write(&file, source).unwrap();
    let mut command = Command::new(tsc);
    command
        .args([
            "--strict", "--noEmit", "--target", "es2022", "--lib", "es2022", "--pretty", "false",
        ])
        .arg(&file);
    run_compiler(command, "tsc --strict --noEmit");
    let _ = std::fs::remove_dir_all(&out);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_result_fails_the_call_and_a_program_sees_a_tool_call_error() {
    let dir = workspace();
    let (registry, _load) = load(&filesystem(dir.path()), dir.path()).await;
    let result = call(&registry, "read_text_file", json!({"path": "/etc/passwd"})).await;
    let failure = result.failure_info().expect("the call fails");
    assert_eq!(failure.code, ErrorCode::ToolFailed);
    assert!(
        failure
            .message
            .starts_with("Access denied - path outside allowed directories: /etc/passwd"),
        "{}",
        failure.message
    );

    std::fs::write(dir.path().join("codemode.toml"), filesystem(dir.path())).unwrap();
    let output = codemode(
        dir.path(),
        &["run", "-"],
        r#"try {
  await tools.read_text_file({ path: "/etc/passwd" });
  return "read it";
} catch (error) {
  return [error instanceof ToolCallError, error.toolName, error.message.split(":")[0]];
}"#,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "[\n  true,\n  \"read_text_file\",\n  \"Access denied - path outside allowed directories\"\n]\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn images_stay_images_and_structured_content_is_the_value() {
    let dir = workspace();
    let (registry, _load) = load(&everything(), dir.path()).await;
    let image = call(&registry, "get-tiny-image", json!({})).await;
    let blocks = value(&image);
    let kinds: Vec<&str> = blocks
        .as_array()
        .expect("mixed content is the blocks as JSON")
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "image", "text"]);
    assert_eq!(blocks[1]["mimeType"], json!("image/png"));
    let content: Vec<&str> = image.content.iter().map(|b| b.kind()).collect();
    assert_eq!(content, ["text", "image", "text"]);

    let weather = call(
        &registry,
        "get-structured-content",
        json!({"location": "New York"}),
    )
    .await;
    assert_eq!(
        value(&weather),
        json!({"temperature": 33, "conditions": "Cloudy", "humidity": 82})
    );
    assert_eq!(weather.content.len(), 1);
    assert!(weather.content[0].as_text().is_some());

    let bad = call(&registry, "get-sum", json!({"a": "two", "b": 3})).await;
    assert!(bad.is_error(), "{}", bad.model_text());
}

/// server-everything in streamable HTTP mode on a free loopback port; killed on drop.
struct HttpServer {
    child: Child,
    port: u16,
}

impl HttpServer {
    fn start(port: u16) -> HttpServer {
        let mut command = Command::new("node");
        command
            .args([npm_server("server-everything").as_str(), "streamableHttp"])
            .env("PORT", port.to_string());
        HttpServer::spawn(command, port)
    }

    /// The Python SDK's streamable-HTTP server (`fixtures/mcp/http_server.py`).
    fn start_python(port: u16) -> HttpServer {
        HttpServer::python(port, &[])
    }

    fn python(port: u16, flags: &[&str]) -> HttpServer {
        let mut command = Command::new(crate::sdk::compile::test_tool("venv/bin/python"));
        command
            .arg(super::fixture_server().replace("fixture_server.py", "http_server.py"))
            .arg(port.to_string())
            .args(flags);
        HttpServer::spawn(command, port)
    }

    fn spawn(mut command: Command, port: u16) -> HttpServer {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the HTTP server did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        HttpServer { child, port }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamable_http_servers_serve_tools_and_reconnect_after_a_restart() {
    let dir = workspace();
    let mut server = HttpServer::start(free_port());
    let toml = format!(
        "[[mcp]]\nname = \"remote\"\nurl = \"http://127.0.0.1:{}/mcp\"\ntimeout_ms = 10000\n",
        server.port
    );
    let (registry, load) = load(&toml, dir.path()).await;
    let (count, _, _) = ready(&load, "remote");
    assert!(count >= 10, "{count}");
    assert_eq!(
        registry
            .global()
            .get("echo")
            .and_then(|t| t.annotations().source.clone())
            .as_deref(),
        Some("mcp:remote")
    );
    let echo = call(&registry, "echo", json!({"message": "over http"})).await;
    assert_eq!(value(&echo), json!("Echo: over http"));
    let sum = call(&registry, "get-sum", json!({"a": 20, "b": 22})).await;
    assert_eq!(value(&sum), json!("The sum of 20 and 22 is 42."));

    // The server goes away: calls fail clearly; once it is back, a new session is opened.
    let port = server.port;
    server.stop();
    let down = call(&registry, "echo", json!({"message": "anyone?"})).await;
    let failure = down.failure_info().expect("the call fails");
    assert_eq!(failure.code, ErrorCode::ToolFailed, "{}", failure.message);
    assert!(failure.message.contains("`remote`"), "{}", failure.message);
    let _server = HttpServer::start(port);
    let back = call(&registry, "echo", json!({"message": "back"})).await;
    assert_eq!(value(&back), json!("Echo: back"));
}

/// A registry over server-everything's streamable HTTP transport on a fresh port, its calls
/// timing out after `timeout_ms`.
async fn http_registry(
    timeout_ms: u64,
) -> (HttpServer, codemode::registry::Registry, tempfile::TempDir) {
    let dir = workspace();
    let server = HttpServer::start(free_port());
    let toml = format!(
        "[[mcp]]\nname = \"remote\"\nurl = \"http://127.0.0.1:{}/mcp\"\ntimeout_ms = {timeout_ms}\n",
        server.port
    );
    let (registry, load) = load(&toml, dir.path()).await;
    assert!(ready(&load, "remote").0 >= 10);
    (server, registry, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_in_flight_fails_at_once_when_its_http_server_dies() {
    let (mut server, registry, _dir) = http_registry(30_000).await;
    let slow = {
        let registry = registry.clone();
        tokio::spawn(async move {
            let started = Instant::now();
            let result = call(
                &registry,
                "trigger-long-running-operation",
                json!({"duration": 20, "steps": 1}),
            )
            .await;
            (result, started.elapsed())
        })
    };
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let port = server.port;
    server.stop();
    let (result, took) = slow.await.unwrap();
    let failure = result.failure_info().expect("the call fails");
    assert_eq!(failure.code, ErrorCode::ToolFailed, "{}", failure.message);
    assert!(
        took < Duration::from_secs(10),
        "it failed after {took:?}, not at once: {}",
        failure.message
    );
    assert!(failure.message.contains("reconnect"), "{}", failure.message);
    assert!(!failure.message.contains("restart"), "{}", failure.message);
    // Back on its port, it serves the next call.
    let _server = HttpServer::start(port);
    let back = call(&registry, "echo", json!({"message": "back"})).await;
    assert_eq!(value(&back), json!("Echo: back"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_server_restarted_between_calls_is_reconnected_without_a_timeout() {
    let (mut server, registry, _dir) = http_registry(30_000).await;
    let echo = call(&registry, "echo", json!({"message": "first"})).await;
    assert_eq!(value(&echo), json!("Echo: first"));
    // Restarted on the same port: it answers the old session with 400.
    let port = server.port;
    server.stop();
    let _server = HttpServer::start(port);
    let started = Instant::now();
    let next = call(&registry, "echo", json!({"message": "again"})).await;
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "{took:?}: {}",
        next.model_text()
    );
    if let Some(failure) = next.failure_info() {
        // The lost session fails the call at once and says so ...
        assert!(failure.message.contains("session"), "{}", failure.message);
        assert!(failure.message.contains("reconnect"), "{}", failure.message);
    }
    // ... and the calls after it work.
    let later = call(&registry, "echo", json!({"message": "later"})).await;
    assert_eq!(value(&later), json!("Echo: later"));
}

/// A TCP relay from a port of its own to `backend`, one backend connection per client
/// connection. When a backend connection ends, the client's side is left open and silent:
/// the client sees no break, as when a server restarts behind a load balancer that keeps
/// idle client connections (its next request on a new connection reaches the new server).
async fn silent_relay(backend: u16) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            tokio::spawn(async move {
                let Ok(server) = tokio::net::TcpStream::connect(("127.0.0.1", backend)).await
                else {
                    return;
                };
                let (mut client_read, mut client_write) = client.into_split();
                let (mut server_read, mut server_write) = server.into_split();
                let upstream = tokio::io::copy(&mut client_read, &mut server_write);
                let downstream = tokio::io::copy(&mut server_read, &mut client_write);
                let _ = tokio::join!(upstream, downstream);
                // Keep the client's side open and silent until the test ends.
                std::future::pending::<()>().await;
                drop(client_write);
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_the_restarted_server_does_not_know_fails_one_call_at_once_and_reconnects() {
    // server-everything answers a session it does not know with 400 (a JSON-RPC error
    // without an id); the Python SDK's server with 404. Behind the relay the client does
    // not see the old server go.
    lost_session_case(
        HttpServer::start,
        "it refused the request without answering it: Bad Request: No valid session ID provided",
    )
    .await;
    lost_session_case(
        HttpServer::start_python,
        "it answered HTTP 404 Not Found for the session",
    )
    .await;
}

/// A server from `start` restarted behind a silent relay between two calls: the call on
/// the old session fails at once with `reason`, the next one works.
async fn lost_session_case(start: fn(u16) -> HttpServer, reason: &str) {
    let dir = workspace();
    let mut server = start(free_port());
    let relay = silent_relay(server.port).await;
    let toml = format!(
        "[[mcp]]\nname = \"remote\"\nurl = \"http://127.0.0.1:{relay}/mcp\"\ntimeout_ms = 30000\n"
    );
    let (registry, load) = load(&toml, dir.path()).await;
    assert!(ready(&load, "remote").0 >= 2);
    // (The Python SDK's answer is structured, `{"result": ...}`.)
    let echo = call(&registry, "echo", json!({"message": "first"})).await;
    assert!(
        echo.model_text().contains("Echo: first"),
        "{}",
        echo.model_text()
    );
    let port = server.port;
    server.stop();
    let _server = start(port);
    let started = Instant::now();
    let lost = call(&registry, "echo", json!({"message": "again"})).await;
    let took = started.elapsed();
    let failure = lost
        .failure_info()
        .expect("the call on the lost session fails");
    assert!(
        took < Duration::from_secs(10),
        "{took:?}: {}",
        failure.message
    );
    assert_eq!(failure.code, ErrorCode::ToolFailed);
    assert!(
        failure.message.starts_with(&format!(
            "MCP server `remote` (http://127.0.0.1:{relay}/mcp) lost the session during the call to `echo`: {reason}"
        )),
        "{}",
        failure.message
    );
    assert!(
        failure
            .message
            .ends_with("codemode reconnects on the next call"),
        "{}",
        failure.message
    );
    let later = call(&registry, "echo", json!({"message": "later"})).await;
    assert!(
        later.model_text().contains("Echo: later"),
        "{}",
        later.model_text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_new_session_after_a_lost_one_lists_the_tools_again() {
    let dir = workspace();
    let mut server = HttpServer::start_python(free_port());
    let relay = silent_relay(server.port).await;
    let toml = format!(
        "[[mcp]]\nname = \"remote\"\nurl = \"http://127.0.0.1:{relay}/mcp\"\ntimeout_ms = 30000\n"
    );
    let (registry, _load) = load(&toml, dir.path()).await;
    assert!(registry.global().get("added").is_none());
    let port = server.port;
    server.stop();
    // Restarted, it lists one more tool.
    let _server = HttpServer::python(port, &["--extra"]);
    let lost = call(&registry, "echo", json!({"message": "again"})).await;
    assert!(lost.is_error(), "{}", lost.model_text());
    let back = call(&registry, "echo", json!({"message": "back"})).await;
    assert!(
        back.model_text().contains("Echo: back"),
        "{}",
        back.model_text()
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while registry.global().get("added").is_none() {
        assert!(Instant::now() < deadline, "the tools were not listed again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let added = call(&registry, "added", json!({})).await;
    assert!(
        added.model_text().contains("added"),
        "{}",
        added.model_text()
    );
}

#[test]
fn codemode_run_fails_a_call_at_once_when_its_http_server_dies_mid_call() {
    let dir = workspace();
    let mut server = HttpServer::start(free_port());
    std::fs::write(
        dir.path().join("codemode.toml"),
        format!(
            "[[mcp]]\nname = \"remote\"\nurl = \"http://127.0.0.1:{}/mcp\"\ntimeout_ms = 30000\n",
            server.port
        ),
    )
    .unwrap();
    let program = "try {\n  await tools['trigger-long-running-operation']({ duration: 20, steps: 1 });\n  return 'finished';\n} catch (e) {\n  return e.message;\n}";
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(2500));
        server.stop();
    });
    let started = Instant::now();
    let output = codemode(dir.path(), &["run", "-"], program);
    let took = started.elapsed();
    killer.join().unwrap();
    let text = stdout(&output);
    assert!(took < Duration::from_secs(15), "{took:?}: {text}");
    assert!(
        text.contains("lost the session during the call to `trigger-long-running-operation`")
            && text.contains("codemode reconnects on the next call"),
        "{text}{}",
        stderr(&output)
    );
}

#[test]
fn codemode_serve_fails_a_call_at_once_when_its_http_upstream_dies_and_reconnects_after() {
    let mut server = HttpServer::start(free_port());
    let port = server.port;
    let workspace = crate::serve::Workspace::new(&format!(
        "mode = \"code\"\n[[mcp]]\nname = \"remote\"\nurl = \"http://127.0.0.1:{port}/mcp\"\ntimeout_ms = 30000\n"
    ));
    // Killed 4 s into the long call, back on its port at once.
    let restarter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(4000));
        server.stop();
        HttpServer::start(port)
    });
    let started = Instant::now();
    let report = workspace.drive(json!({"steps": [
        crate::serve::run_code(
            "try {\n  await tools['trigger-long-running-operation']({ duration: 25, steps: 1 });\n  return 'finished';\n} catch (e) {\n  return e.message;\n}"
        ),
        // Time for the server to be back on its port (a Node process starting on a
        // loaded machine); the next call then reconnects.
        {"op": "sleep", "seconds": 6.0},
        crate::serve::run_code("return await tools.echo({ message: 'back' });"),
    ]}));
    let took = started.elapsed();
    let _server = restarter.join().unwrap();
    let all = crate::serve::steps(&report);
    let failed = crate::serve::text(&all[0]);
    assert!(
        failed.contains("lost the session during the call to `trigger-long-running-operation`")
            && failed.contains("codemode reconnects on the next call"),
        "{report}"
    );
    assert!(took < Duration::from_secs(30), "{took:?}");
    assert_eq!(crate::serve::text(&all[2]), "Echo: back", "{report}");
}
