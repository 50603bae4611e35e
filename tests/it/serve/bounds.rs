//! `codemode serve --http` bounded against its neighbours, through the binary: slow
//! headers and slow bodies are closed at their timeouts, connections past the cap are
//! refused at once while a client within it is served, sessions past the cap are refused
//! naming it, calls past the run cap queue and past the queue are refused as busy, a
//! foreign `Origin` is `403`, and a `DELETE` of a live session is `204` (the Python MCP
//! client closes without a warning).
//!
//! The timeouts are short in these tests and every assertion leaves wide slack: the
//! machine may be loaded.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Workspace, python, root};

fn serve(workspace: &Workspace, flags: &[&str]) -> super::Served {
    super::serve_http(workspace, "127.0.0.1:0", flags, &[])
}

/// A client that opens a new connection for every request (no kept-alive connection the
/// server's header timeout could close under it).
pub(super) fn client() -> reqwest::Client {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .pool_max_idle_per_host(0)
        .build()
        .unwrap()
}

/// A POST of `body` in `session` (and with `origin`); status, headers and text.
pub(super) async fn post(
    client: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    origin: Option<&str>,
    body: &Value,
) -> (u16, reqwest::header::HeaderMap, String) {
    let mut request =
        super::mcp_post(client, url, "application/json", session).body(body.to_string());
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    super::status_headers_text(request.send().await.unwrap()).await
}

/// The one JSON-RPC message of a response body (JSON, or SSE `data:` lines).
#[track_caller]
pub(super) fn message(text: &str) -> Value {
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return value;
    }
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .filter(|data| !data.is_empty())
        .map(|data| serde_json::from_str(data).unwrap())
        .next()
        .unwrap_or_else(|| panic!("no message: {text}"))
}

pub(super) fn initialize_message() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bounds", "version": "0"}}})
}

/// Opens a session: its id, or the refusal's status and body.
pub(super) async fn open(client: &reqwest::Client, url: &str) -> Result<String, (u16, String)> {
    let (status, headers, text) = post(client, url, None, None, &initialize_message()).await;
    if status != 200 {
        return Err((status, text));
    }
    let session = headers["mcp-session-id"].to_str().unwrap().to_owned();
    let notified = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (status, _, text) = post(client, url, Some(&session), None, &notified).await;
    assert_eq!(status, 202, "{text}");
    Ok(session)
}

/// `tools/call` of `name` in `session`; the result.
pub(super) async fn call(
    client: &reqwest::Client,
    url: &str,
    session: &str,
    id: u64,
    name: &str,
    arguments: Value,
) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}});
    let (status, _, text) = post(client, url, Some(session), None, &body).await;
    assert_eq!(status, 200, "{text}");
    message(&text)["result"].clone()
}

/// How a raw connection ended: whatever it read before the end, and how long it took.
/// Fails the test when it did not end within `within`.
fn wait_closed(mut stream: TcpStream, within: Duration) -> (String, Duration) {
    let started = Instant::now();
    stream.set_read_timeout(Some(within)).unwrap();
    let mut read = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => read.extend_from_slice(&buffer[..n]),
            Err(err)
                if matches!(
                    err.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                panic!(
                    "the connection was still open after {within:?}: {}",
                    String::from_utf8_lossy(&read)
                )
            }
            // A reset ends it too.
            Err(_) => break,
        }
    }
    (
        String::from_utf8_lossy(&read).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test]
async fn slow_headers_and_slow_bodies_are_closed_at_their_timeouts() {
    let workspace = Workspace::new("mode = \"code\"");
    let served = serve(
        &workspace,
        &["--header-timeout", "1000", "--body-timeout", "1000"],
    );
    let address = format!("127.0.0.1:{}", served.port);

    // Half a request line and headers, then nothing; a connection that sends nothing.
    let mut slow_header = TcpStream::connect(&address).unwrap();
    slow_header
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let silent = TcpStream::connect(&address).unwrap();
    // Whole headers, a tenth of the declared body, then nothing.
    let mut slow_body = TcpStream::connect(&address).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\"",
        served.port
    );
    slow_body.write_all(head.as_bytes()).unwrap();

    let slack = Duration::from_secs(30);
    let (_, elapsed) = wait_closed(slow_header, slack);
    assert!(elapsed >= Duration::from_millis(500), "{elapsed:?}");
    wait_closed(silent, slack);
    let (answer, _) = wait_closed(slow_body, slack);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("--body-timeout"), "{answer}");

    // The server goes on.
    let client = client();
    let session = open(&client, &served.url).await.unwrap();
    let result = call(
        &client,
        &served.url,
        &session,
        2,
        "run_code",
        json!({"code": "return 6 * 7", "description": "t"}),
    )
    .await;
    assert_eq!(result["content"][0]["text"], "42", "{result}");
}

#[tokio::test]
async fn connections_past_the_cap_are_refused_and_a_client_within_it_is_served() {
    let workspace = Workspace::new("mode = \"native\"");
    let served = serve(
        &workspace,
        &["--max-connections", "4", "--header-timeout", "120000"],
    );
    let address = format!("127.0.0.1:{}", served.port);
    // A client keeps one connection open across its requests.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let keeping = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap();
    let session = open(&keeping, &served.url).await.unwrap();

    // Twelve neighbours each open a connection and send half a request.
    let neighbours: Vec<TcpStream> = (0..12)
        .map(|_| {
            let mut stream = TcpStream::connect(&address).unwrap();
            let _ = stream.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            stream
        })
        .collect();
    // At most three fit beside the client's; the others are closed long before the
    // header timeout (two minutes).
    let ended: Vec<(String, Duration)> = neighbours
        .into_iter()
        .skip(3)
        .map(|stream| wait_closed(stream, Duration::from_secs(60)))
        .collect();
    assert_eq!(ended.len(), 9);
    for (answer, _) in &ended {
        assert!(
            answer.is_empty()
                || (answer.starts_with("HTTP/1.1 503") && answer.contains("--max-connections")),
            "{answer}"
        );
    }

    // The client within the cap is served on its connection.
    let result = call(
        &keeping,
        &served.url,
        &session,
        2,
        "add",
        json!({"a": 40, "b": 2}),
    )
    .await;
    assert_eq!(result["content"][0]["text"], "42", "{result}");
}

#[tokio::test]
async fn sessions_past_the_cap_are_refused_and_delete_of_a_live_session_is_204() {
    let workspace = Workspace::new("mode = \"native\"");
    let served = serve(&workspace, &["--max-sessions", "2"]);
    let client = client();
    let url = &served.url;
    let first = open(&client, url).await.unwrap();
    let second = open(&client, url).await.unwrap();
    let (status, text) = open(&client, url).await.unwrap_err();
    assert_eq!(status, 503, "{text}");
    let refusal = message(&text);
    assert_eq!(refusal["error"]["code"], -32000, "{refusal}");
    assert_eq!(refusal["id"], 1, "{refusal}");
    let says = refusal["error"]["message"].as_str().unwrap();
    assert!(
        says.contains("2 MCP sessions") && says.contains("--max-sessions"),
        "{says}"
    );

    // The sessions within the cap are served.
    let result = call(&client, url, &second, 2, "add", json!({"a": 1, "b": 2})).await;
    assert_eq!(result["content"][0]["text"], "3", "{result}");

    // DELETE ends a live session with 204; its place is free again.
    let response = client
        .delete(url)
        .header("mcp-session-id", &first)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 204);
    assert_eq!(response.text().await.unwrap(), "");
    let (status, _, _) = post(
        &client,
        url,
        Some(&first),
        None,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
    )
    .await;
    assert_eq!(status, 404);
    open(&client, url).await.unwrap();
}

#[tokio::test]
async fn calls_past_the_run_cap_queue_and_past_the_queue_are_busy() {
    let workspace = Workspace::new("mode = \"native\"");
    let served = serve(&workspace, &["--max-runs", "1", "--run-queue", "1"]);
    let client = client();
    let url = served.url.clone();
    let holder = open(&client, &url).await.unwrap();
    let others = [
        open(&client, &url).await.unwrap(),
        open(&client, &url).await.unwrap(),
    ];

    // The one slot: a call that never finishes (its grandchild writes the marker once it
    // has run for two seconds).
    let hanging = {
        let (client, url, holder) = (client.clone(), url.clone(), holder.clone());
        tokio::spawn(async move { call(&client, &url, &holder, 7, "hang", json!({})).await })
    };
    let marker = workspace.path().join("hang-marker");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "the hanging call did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Two more: one waits in the queue, the other is refused at once as busy.
    let mut waiting = tokio::task::JoinSet::new();
    for (n, session) in others.iter().enumerate() {
        let (client, url, session) = (client.clone(), url.clone(), session.clone());
        waiting.spawn(async move {
            call(
                &client,
                &url,
                &session,
                10 + n as u64,
                "add",
                json!({"a": 40, "b": 2}),
            )
            .await
        });
    }
    let first = waiting.join_next().await.unwrap().unwrap();
    assert_eq!(first["isError"], true, "{first}");
    let says = first["content"][0]["text"].as_str().unwrap();
    assert!(
        says.contains("busy") && says.contains("--max-runs") && says.contains("--run-queue"),
        "{says}"
    );
    assert_eq!(
        first["_meta"]["codemode/errorCode"], "HOST_FAILED",
        "{first}"
    );

    // The slot frees (the hanging call is cancelled): the queued call runs.
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7, "reason": "test"}});
    let (status, _, text) = post(&client, &url, Some(&holder), None, &cancelled).await;
    assert_eq!(status, 202, "{text}");
    let queued = tokio::time::timeout(Duration::from_secs(60), waiting.join_next())
        .await
        .expect("the queued call ran")
        .unwrap()
        .unwrap();
    assert_eq!(queued["content"][0]["text"], "42", "{queued}");
    hanging.abort();
}

#[tokio::test]
async fn a_foreign_origin_is_403_and_loopback_or_absent_origins_are_served() {
    let workspace = Workspace::new("mode = \"native\"");
    let served = serve(&workspace, &[]);
    let client = client();
    let url = &served.url;
    let own = format!("http://127.0.0.1:{}", served.port);
    for origin in [
        "http://attacker.example",
        "https://attacker.example:443",
        "http://localhost.attacker.example",
        "null",
        "http://x@localhost",
        "not an origin",
    ] {
        let (status, _, text) = post(&client, url, None, Some(origin), &initialize_message()).await;
        assert_eq!(status, 403, "{origin}: {text}");
        let error = message(&text);
        assert_eq!(error["id"], Value::Null, "{error}");
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Origin"),
            "{error}"
        );
    }
    // A DELETE with a foreign Origin is refused before the session is looked up.
    let response = client
        .delete(url)
        .header("origin", "http://attacker.example")
        .header("mcp-session-id", "whatever")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 403);

    for origin in [
        Some(own.as_str()),
        Some("http://localhost:3000"),
        Some("http://[::1]:8080"),
        None,
    ] {
        let (status, _, text) = post(&client, url, None, origin, &initialize_message()).await;
        assert_eq!(status, 200, "{origin:?}: {text}");
    }
}

#[test]
fn the_python_client_closes_its_session_without_a_warning() {
    let workspace = Workspace::new("mode = \"native\"");
    let plan = json!({
        "binary": env!("CARGO_BIN_EXE_codemode"),
        "cwd": workspace.path(),
        "args": ["--config", workspace.config()],
        "transport": "http",
        "steps": [{"op": "call", "name": "add", "arguments": {"a": 1, "b": 2}}],
    });
    let output = Command::new(python())
        .arg(root().join("tests/tools/mcp_driver.py"))
        .arg(plan.to_string())
        .output()
        .expect("the MCP driver runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["steps"][0]["content"][0]["text"], "3", "{report}");
    assert!(
        !stderr.contains("Session termination failed"),
        "the client warned on close: {stderr}"
    );
}

/// Sessions opened all at once are counted exactly: as many as the cap all open (an
/// `initialize` whose session was made but not yet answered was counted twice, and 100
/// sessions at once were refused under the cap of 128), and one more is refused.
#[tokio::test]
async fn sessions_opened_at_once_up_to_the_cap_all_open() {
    let workspace = Workspace::new("mode = \"native\"");
    let served = serve(&workspace, &["--max-sessions", "60"]);
    let client = client();
    let mut opening = tokio::task::JoinSet::new();
    for _ in 0..60 {
        let (client, url) = (client.clone(), served.url.clone());
        opening.spawn(async move { open(&client, &url).await });
    }
    let mut opened = 0;
    while let Some(result) = opening.join_next().await {
        let session = result
            .unwrap()
            .unwrap_or_else(|(status, text)| panic!("{status}: {text}"));
        assert!(!session.is_empty());
        opened += 1;
    }
    assert_eq!(opened, 60);
    let (status, _) = open(&client, &served.url).await.unwrap_err();
    assert_eq!(status, 503);
}
