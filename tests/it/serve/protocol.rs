//! Raw JSON-RPC over stdio: malformed input gets JSON-RPC errors and the server keeps
//! serving; standard output carries only protocol messages; `--http` refuses addresses
//! off the loopback interface.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::Workspace;

/// Sends `lines` to `codemode serve` one by one, waiting for the response of each request
/// (a line with an `id`), and returns every stdout message and the exit status.
fn exchange(workspace: &Workspace, lines: &[String]) -> (Vec<Value>, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["serve", "--config", &workspace.config()])
        .current_dir(workspace.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut messages = Vec::new();
    for line in lines {
        writeln!(stdin, "{line}").expect("write a line");
        stdin.flush().expect("flush");
        let wants = serde_json::from_str::<Value>(line)
            .ok()
            .and_then(|v| v.get("id").cloned());
        let deadline = Instant::now() + Duration::from_secs(30);
        // Wait for the response to a request; give other lines a moment to be answered.
        loop {
            let left = match &wants {
                Some(_) => deadline.saturating_duration_since(Instant::now()),
                None => Duration::from_millis(500),
            };
            let Ok(out) = rx.recv_timeout(left) else {
                break;
            };
            let message: Value = serde_json::from_str(&out)
                .unwrap_or_else(|err| panic!("stdout carried a non-protocol line ({err}): {out}"));
            let done = wants
                .as_ref()
                .is_some_and(|id| message.get("id") == Some(id));
            messages.push(message);
            if done {
                break;
            }
        }
    }
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    while let Ok(out) = rx.recv_timeout(Duration::from_millis(100)) {
        let message: Value = serde_json::from_str(&out)
            .unwrap_or_else(|err| panic!("stdout carried a non-protocol line ({err}): {out}"));
        messages.push(message);
    }
    (messages, status)
}

fn response(messages: &[Value], id: i64) -> &Value {
    messages
        .iter()
        .find(|m| m.get("id") == Some(&json!(id)))
        .unwrap_or_else(|| panic!("no response to request {id} in {messages:#?}"))
}

#[test]
fn malformed_requests_get_json_rpc_errors_and_the_server_keeps_serving() {
    let workspace = Workspace::new("mode = \"both\"");
    let lines: Vec<String> = vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}})
        .to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        "this is not JSON".to_owned(),
        "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"".to_owned(),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": 42}})
            .to_string(),
        json!({"jsonrpc": "2.0", "id": 4, "method": "no/such/method", "params": {}}).to_string(),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "run_code", "arguments": {"code": "throw new Error('x')", "description": "fails"}}})
        .to_string(),
        json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {
            "name": "add", "arguments": {"a": 20, "b": 22}}})
        .to_string(),
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}).to_string(),
    ];
    let (messages, status) = exchange(&workspace, &lines);
    assert_eq!(
        response(&messages, 1)["result"]["serverInfo"]["name"],
        "codemode",
        "{messages:#?}"
    );
    let parse_errors = messages
        .iter()
        .filter(|m| m["error"]["code"] == -32700 && m["id"].is_null())
        .count();
    assert_eq!(parse_errors, 2, "{messages:#?}");
    assert_eq!(
        response(&messages, 3)["error"]["code"],
        -32602,
        "bad tools/call params are invalid params: {messages:#?}"
    );
    assert_eq!(
        response(&messages, 4)["error"]["code"],
        -32601,
        "{messages:#?}"
    );
    let failed = &response(&messages, 5)["result"];
    assert_eq!(failed["isError"], true);
    assert!(
        failed["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("Error: code run failed (exception): ")),
        "{failed}"
    );
    assert_eq!(response(&messages, 6)["result"]["content"][0]["text"], "42");
    assert!(
        response(&messages, 7)["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
    // Every message on stdout is JSON-RPC (checked while reading); the malformed lines
    // were answered with errors, not with a crash.
    assert!(
        messages.iter().all(|m| m["jsonrpc"] == "2.0"),
        "{messages:#?}"
    );
    assert_eq!(
        status,
        Some(0),
        "the server exits cleanly when stdin closes"
    );
}

#[test]
fn http_refuses_addresses_off_the_loopback_interface() {
    let workspace = Workspace::new("mode = \"code\"");
    for addr in ["0.0.0.0:0", "192.0.2.1:8080", "somewhere:80"] {
        let output = crate::cli::codemode(
            workspace.path(),
            &["serve", "--config", &workspace.config(), "--http", addr],
            "",
        );
        assert_eq!(output.status.code(), Some(2), "{addr}");
        let err = crate::cli::stderr(&output);
        assert!(
            err.contains("loopback") && err.contains(addr.split(':').next().unwrap_or_default()),
            "{addr}: {err}"
        );
        assert!(crate::cli::stdout(&output).is_empty());
    }
}

#[test]
fn a_port_that_is_taken_is_a_failure_not_a_usage_error() {
    let workspace = Workspace::new("mode = \"native\"");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let output = crate::cli::codemode(
        workspace.path(),
        &["serve", "--config", &workspace.config(), "--http", &addr],
        "",
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "exit 1: the request was fine"
    );
    let err = crate::cli::stderr(&output);
    assert!(
        err.contains("cannot listen on") && err.contains("SERVE_BIND_FAILED"),
        "{err}"
    );
}
