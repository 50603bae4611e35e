//! Raw HTTP against `codemode serve --http`: the protocol edges get JSON-RPC error objects
//! with the status the transport calls for (malformed JSON and invalid messages `400`, a
//! body over the limit `413` and the server goes on, an unknown session's `DELETE`
//! `404`, a non-JSON `Content-Type` `415`, bad `tools/call` params `-32602`), and ordinary
//! traffic (requests, notifications, the client's responses) still works through the guard;
//! a session that idles out gives its store's bytes back, and a hundred sessions storing a
//! megabyte each hold about that much, given back when they end.

use std::time::Duration;

use codemode::mcp::server::{DEFAULT_MAX_BODY_BYTES, McpServer, ServeOptions};
use codemode::registry::Registry;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::Workspace;

fn serve(workspace: &Workspace) -> super::Served {
    super::serve_http(workspace, "127.0.0.1:0", &[], &[])
}

fn client() -> reqwest::Client {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

/// A POST as MCP clients send it, with `content_type`, `session` and `body`.
async fn post(
    client: &reqwest::Client,
    url: &str,
    content_type: &str,
    session: Option<&str>,
    body: impl Into<reqwest::Body>,
) -> (u16, reqwest::header::HeaderMap, String) {
    let request = super::mcp_post(client, url, content_type, session).body(body);
    super::status_headers_text(request.send().await.unwrap()).await
}

async fn post_json(client: &reqwest::Client, url: &str, body: &str) -> (u16, Value) {
    let (status, _, text) = post(client, url, "application/json", None, body.to_owned()).await;
    (status, error_body(&text))
}

/// A JSON-RPC error object body, checked for its shape.
#[track_caller]
fn error_body(text: &str) -> Value {
    let value: Value =
        serde_json::from_str(text).unwrap_or_else(|err| panic!("not JSON ({err}): {text}"));
    assert_eq!(value["jsonrpc"], "2.0", "{value}");
    assert!(value.get("id").is_some(), "{value}");
    assert!(value["error"]["code"].is_i64(), "{value}");
    assert!(value["error"]["message"].is_string(), "{value}");
    value
}

/// The one JSON-RPC message of a response body (JSON, or SSE `data:` lines).
#[track_caller]
fn message(text: &str) -> Value {
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return value;
    }
    let messages: Vec<Value> = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .filter(|data| !data.is_empty())
        .map(|data| serde_json::from_str(data).unwrap())
        .collect();
    assert_eq!(messages.len(), 1, "{text}");
    messages.into_iter().next().unwrap()
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// Initializes a session; its id.
async fn initialize(client: &reqwest::Client, url: &str) -> String {
    let (status, headers, text) =
        post(client, url, "application/json", None, INITIALIZE.to_owned()).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(message(&text)["result"]["serverInfo"]["name"], "codemode");
    let session = headers["mcp-session-id"].to_str().unwrap().to_owned();
    let notified = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (status, _, text) = post(
        client,
        url,
        "application/json",
        Some(&session),
        notified.to_string(),
    )
    .await;
    assert_eq!(status, 202, "a notification is accepted: {text}");
    session
}

#[tokio::test]
async fn a_foreign_host_is_refused_before_the_guard_reads_anything() {
    let workspace = Workspace::new("mode = \"both\"");
    let served = serve(&workspace);
    let client = client();
    let port = served
        .url
        .rsplit(':')
        .next()
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    // The status of a `method` request naming `host`, with a malformed body.
    let status_for = |method: &'static str, host: String| {
        let request = client
            .request(method.parse().unwrap(), &served.url)
            .header("host", host)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-session-id", "nope")
            .body(if method == "POST" { "{not json" } else { "" });
        async move { request.send().await.unwrap().status().as_u16() }
    };
    // A foreign host, and ones only a hand-rolled parser would misread: the guard agrees
    // with rmcp on every one (403 from rmcp, or the guard's own answers for a local host).
    for host in [
        "attacker.example:8931",
        "x@attacker.example",
        "[attacker.example]",
    ] {
        for method in ["POST", "DELETE"] {
            assert_eq!(
                status_for(method, host.to_owned()).await,
                403,
                "{method} {host}"
            );
        }
    }
    for host in [
        format!("x@localhost:{port}"),
        format!("[127.0.0.1]:{port}"),
        format!("LOCALHOST:{port}"),
    ] {
        assert_eq!(
            status_for("POST", host.clone()).await,
            400,
            "{host}: the guard's parse error"
        );
    }
}

#[tokio::test]
async fn bodies_that_are_not_one_message_get_400_with_json_rpc_errors() {
    let workspace = Workspace::new("mode = \"both\"");
    let served = serve(&workspace);
    let client = client();
    let url = &served.url;

    for body in ["{not json", "", "{\"jsonrpc\": \"2.0\", \"id\": 1"] {
        let (status, error) = post_json(&client, url, body).await;
        assert_eq!(status, 400, "{body:?}: {error}");
        assert_eq!(error["error"]["code"], -32700, "{body:?}: {error}");
        assert_eq!(error["id"], Value::Null);
        let text = error["error"]["message"].as_str().unwrap();
        assert!(
            text.starts_with("Parse error") && text.contains("one JSON-RPC 2.0 message"),
            "{text}"
        );
    }

    let batch = json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]).to_string();
    for body in [batch.as_str(), "[]"] {
        let (status, error) = post_json(&client, url, body).await;
        assert_eq!(status, 400, "{body}: {error}");
        assert_eq!(error["error"]["code"], -32600, "{body}: {error}");
        let text = error["error"]["message"].as_str().unwrap();
        assert!(
            text.contains("MCP 2025-06-18 removed JSON-RPC batching"),
            "{text}"
        );
    }

    let cases = [
        (
            json!({"jsonrpc": "1.0", "id": 2, "method": "ping"}),
            "\"2.0\"",
        ),
        (json!({"id": 3, "method": "ping"}), "\"2.0\""),
        (
            json!({"jsonrpc": "2.0", "id": 4, "params": {}}),
            "no `method`",
        ),
        (json!({"jsonrpc": "2.0", "id": 5, "method": 7}), "`method`"),
        (json!("ping"), "JSON object"),
    ];
    for (body, says) in cases {
        let (status, error) = post_json(&client, url, &body.to_string()).await;
        assert_eq!(status, 400, "{body}: {error}");
        assert_eq!(error["error"]["code"], -32600, "{body}: {error}");
        assert_eq!(error["id"], body.get("id").cloned().unwrap_or(Value::Null));
        let text = error["error"]["message"].as_str().unwrap();
        assert!(
            text.starts_with("Invalid Request") && text.contains(says),
            "{text}"
        );
    }

    // A content type that is not JSON keeps the transport's 415.
    let ping = json!({"jsonrpc": "2.0", "id": 6, "method": "ping"}).to_string();
    let (status, _, text) = post(&client, url, "text/plain", None, ping).await;
    assert_eq!(status, 415, "{text}");

    // None of that hurt: a session starts.
    initialize(&client, url).await;
}

/// JSON text may escape a lone surrogate, but no Unicode text holds one: the answer says
/// so, and where, instead of serde_json's "unexpected end of hex escape".
#[tokio::test]
async fn a_lone_surrogate_in_a_body_is_named_as_such_with_where_it_is() {
    let workspace = Workspace::new("mode = \"code\"");
    let served = serve(&workspace);
    let client = client();
    let url = &served.url;
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"return '\ud800'","description":"x"}}}"#;
    let (status, error) = post_json(&client, url, body).await;
    assert_eq!(status, 400, "{error}");
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(
        error["error"]["message"],
        "Parse error: in the request body, a lone surrogate is not allowed: a string at $.params.arguments.code (near line 1, column 110) has the escape \\ud800 without its pair, which no Unicode text holds; escape a character outside the Basic Multilingual Plane as a pair (\\ud83d\\ude00), or send it as UTF-8"
    );
    let body = r#"{"jsonrpc":"2.0","id":8,"method":"ping","params":{"\udfff x":1}}"#;
    let (status, error) = post_json(&client, url, body).await;
    assert_eq!(status, 400, "{error}");
    let text = error["error"]["message"].as_str().unwrap();
    assert!(
        text.starts_with(
            "Parse error: in the request body, a lone surrogate is not allowed: a key at $.params"
        ),
        "{text}"
    );
    assert!(text.contains("\\udfff without its pair"), "{text}");
    // A pair is one character: a client named with one initializes.
    let paired = INITIALIZE.replace("\"raw\"", r#""raw \ud83d\ude00""#);
    assert_ne!(paired, INITIALIZE);
    let (status, _, text) = post(&client, url, "application/json", None, paired).await;
    assert_eq!(status, 200, "{text}");
}

#[tokio::test]
async fn a_session_lists_and_calls_through_the_guard_and_bad_params_are_invalid_params() {
    let workspace = Workspace::new("mode = \"both\"");
    let served = serve(&workspace);
    let client = client();
    let url = &served.url;
    let id = initialize(&client, url).await;
    let session = Some(id.as_str());
    let send = |body: Value| {
        let client = client.clone();
        async move {
            let (status, _, text) =
                post(&client, url, "application/json", session, body.to_string()).await;
            (status, text)
        }
    };

    let (status, text) = send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})).await;
    assert_eq!(status, 200, "{text}");
    let names: Vec<String> = message(&text)["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(names.iter().any(|n| n == "run_code"), "{names:?}");
    assert!(names.iter().any(|n| n == "add"), "{names:?}");

    let add = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 20, "b": 22}}});
    let (status, text) = send(add).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(
        message(&text)["result"]["content"][0]["text"],
        "42",
        "{text}"
    );

    for (id, params) in [
        (4, json!({"params": {"name": 42}})),
        (5, json!({})),
        (6, json!({"params": {"name": "add", "arguments": [1, 2]}})),
    ] {
        let mut call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call"});
        if let Some(params) = params.get("params") {
            call["params"] = params.clone();
        }
        let (status, text) = send(call).await;
        assert_eq!(status, 200, "a JSON-RPC error answers the request: {text}");
        let answer = message(&text);
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        let says = answer["error"]["message"].as_str().unwrap();
        assert!(
            says.starts_with("Invalid params for `tools/call`") && says.contains("\"name\""),
            "{says}"
        );
    }

    let (status, text) = send(json!({"jsonrpc": "2.0", "id": 7, "method": "no/such"})).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(message(&text)["error"]["code"], -32601, "{text}");

    // The client's own responses and notifications are accepted.
    let (status, text) = send(json!({"jsonrpc": "2.0", "id": 99, "result": {}})).await;
    assert_eq!(status, 202, "{text}");
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 98}});
    let (status, text) = send(cancelled).await;
    assert_eq!(status, 202, "{text}");

    // DELETE ends the session; the same DELETE again, or one of a session that never
    // existed, is 404 with a JSON-RPC error body.
    let delete = |id: String| {
        let client = client.clone();
        async move {
            let response = client
                .delete(url)
                .header("mcp-session-id", id)
                .header("mcp-protocol-version", "2025-06-18")
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            (status, response.text().await.unwrap())
        }
    };
    let (status, text) = delete(id.clone()).await;
    assert_eq!(status, 204, "{text}");
    for id in [id.clone(), "no-such-session".to_owned()] {
        let (status, text) = delete(id.clone()).await;
        assert_eq!(status, 404, "{id}: {text}");
        let error = error_body(&text);
        assert_eq!(error["error"]["code"], -32001, "{error}");
        let says = error["error"]["message"].as_str().unwrap();
        assert!(says.contains(&id) && says.contains("initialize"), "{says}");
    }
    // A request in the deleted session is 404 too (rmcp's answer).
    let (status, text) = send(json!({"jsonrpc": "2.0", "id": 8, "method": "tools/list"})).await;
    assert_eq!(status, 404, "{text}");
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_and_the_server_goes_on() {
    let workspace = Workspace::new("mode = \"code\"");
    let served = serve(&workspace);
    let client = client();
    let url = &served.url;
    let session = initialize(&client, url).await;

    // Just over the limit, then six times over it: the client reads the answer either way.
    for (round, size) in [DEFAULT_MAX_BODY_BYTES + 1, 6 * DEFAULT_MAX_BODY_BYTES]
        .into_iter()
        .enumerate()
    {
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "run_code", "arguments": {"code": "x".repeat(size), "description": "big"}}});
        let (status, headers, text) = post(
            &client,
            url,
            "application/json",
            Some(&session),
            call.to_string(),
        )
        .await;
        assert_eq!(status, 413, "round {round}: {text}");
        assert_eq!(headers["content-type"], "application/json");
        let error = error_body(&text);
        assert_eq!(error["error"]["code"], -32600, "{error}");
        let says = error["error"]["message"].as_str().unwrap();
        assert!(says.contains(&DEFAULT_MAX_BODY_BYTES.to_string()), "{says}");
    }

    // The session and the server go on.
    let run = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "run_code", "arguments": {"code": "return 6 * 7", "description": "small"}}});
    let (status, _, text) = post(
        &client,
        url,
        "application/json",
        Some(&session),
        run.to_string(),
    )
    .await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(message(&text)["result"]["isError"], false, "{text}");
    initialize(&client, url).await;
}

#[tokio::test]
async fn the_body_limit_is_configurable() {
    let server = McpServer::new(
        Registry::new(),
        ServeOptions::default().with_max_body_bytes(1024),
    );
    let http = server
        .bind_http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let url = http.url();
    let shutdown = CancellationToken::new();
    let serving = tokio::spawn(http.serve(shutdown.clone()));
    let client = client();

    let padded = json!({"jsonrpc": "2.0", "id": 1, "method": "ping",
        "params": {"_meta": {"pad": "p".repeat(1024)}}});
    let (status, error) = post_json(&client, &url, &padded.to_string()).await;
    assert_eq!(status, 413, "{error}");
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("1024 bytes"),
        "{error}"
    );
    // Under the limit, the same server answers.
    initialize(&client, &url).await;

    shutdown.cancel();
    serving.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_session_idle_past_its_expiry_gives_its_store_back() {
    let workspace = Workspace::new("mode = \"code\"");
    let served = super::serve_http(
        &workspace,
        "127.0.0.1:0",
        &["--session-idle", "1", "--max-store-mb", "1"],
        &[],
    );
    let client = client();
    let url = &served.url;
    let store = |session: String| {
        run_in_session(
            &client,
            url,
            session,
            "await store.set('big', 'x'.repeat(700000)); return 'stored';",
        )
    };
    let idle = initialize(&client, url).await;
    assert_eq!(store(idle).await, "stored");
    // A second session cannot store as much while the first holds its 700 KB ...
    let busy = initialize(&client, url).await;
    let refused = store(busy).await;
    assert!(refused.contains("--max-store-mb 1"), "{refused}");
    // ... and a new session can once the first idled out.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let mut stored = String::new();
    for _ in 0..20 {
        let fresh = initialize(&client, url).await;
        stored = store(fresh).await;
        if stored == "stored" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert_eq!(stored, "stored");
}

/// The text `run_code` answers for `code`, posted over raw HTTP in `session`.
async fn run_in_session(
    client: &reqwest::Client,
    url: &str,
    session: String,
    code: &str,
) -> String {
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "run_code", "arguments": {"code": code, "description": "a program"}}});
    let (status, _, text) = post(
        client,
        url,
        "application/json",
        Some(&session),
        call.to_string(),
    )
    .await;
    assert_eq!(status, 200, "{text}");
    message(&text)["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_hundred_sessions_storing_a_megabyte_each_stay_bounded_and_are_freed_when_they_end() {
    let workspace = Workspace::new("mode = \"code\"");
    let served = super::serve_http(&workspace, "127.0.0.1:0", &["--max-store-mb", "128"], &[]);
    let client = client();
    let url = &served.url;
    let store_a_megabyte = |session: String| {
        let run = run_in_session(
            &client,
            url,
            session,
            "await store.set('mb', 'x'.repeat(1000000)); return (await store.keys()).length;",
        );
        async move { assert_eq!(run.await, "1") }
    };
    let round = || async {
        let mut sessions = Vec::new();
        for _ in 0..100 {
            let session = initialize(&client, url).await;
            store_a_megabyte(session.clone()).await;
            sessions.push(session);
        }
        sessions
    };
    let idle = super::memory::rss_mib(served.pid());
    let first = round().await;
    let held = super::memory::rss_mib(served.pid());
    // 100 MB of values (the server's store memory is 128 MiB): resident memory grows by
    // about that, not by a multiple of it.
    assert!(
        held.saturating_sub(idle) < 400,
        "idle {idle} MiB, 100 sessions of 1 MB: {held} MiB"
    );
    for session in first {
        let response = client
            .delete(url)
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-06-18")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 204);
    }
    // Freed: the same again fits the server's 128 MiB (which two rounds would not), and
    // the process does not grow by another round.
    let second = round().await;
    let again = super::memory::rss_mib(served.pid());
    assert!(
        again < held + 64,
        "after 100 sessions ended and 100 more stored 1 MB: {again} MiB, was {held} MiB"
    );
    drop(second);
}
