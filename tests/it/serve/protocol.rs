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
pub(super) fn exchange(workspace: &Workspace, lines: &[String]) -> (Vec<Value>, Option<i32>) {
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

/// The requests of a short session: initialize, initialized, `run_code` (id 2), tools/list
/// (id 3), one per line.
fn session_lines() -> String {
    [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "run_code", "arguments": {"code": "return 6 * 7", "description": "answer"}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
    ]
    .iter()
    .map(|line| format!("{line}\n"))
    .collect()
}

/// The session's answers, checked: `run_code` gave 42 and tools/list listed it.
fn check_session(messages: &[Value]) {
    assert_eq!(
        response(messages, 2)["result"]["content"][0]["text"],
        "42",
        "{messages:#?}"
    );
    let tools = response(messages, 3)["result"]["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        tools.iter().any(|tool| tool["name"] == "run_code"),
        "{messages:#?}"
    );
}

#[test]
fn standard_streams_may_be_one_unix_socket() {
    use std::os::unix::net::UnixStream;
    let workspace = Workspace::new("mode = \"code\"");
    let (ours, theirs) = UnixStream::pair().expect("a socket pair");
    let theirs_out = theirs.try_clone().expect("a second descriptor");
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["serve", "--config", &workspace.config()])
        .current_dir(workspace.path())
        .stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs)))
        .stdout(Stdio::from(std::os::fd::OwnedFd::from(theirs_out)))
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    ours.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a read timeout");
    (&ours)
        .write_all(session_lines().as_bytes())
        .expect("the requests are sent");
    let mut messages = Vec::new();
    let mut reader = BufReader::new(&ours);
    let answered =
        |messages: &[Value], id: i64| messages.iter().any(|m| m.get("id") == Some(&json!(id)));
    while !(answered(&messages, 2) && answered(&messages, 3)) {
        let mut line = String::new();
        let read = reader.read_line(&mut line).expect("the server answers");
        assert!(read > 0, "the socket closed early: {messages:#?}");
        messages.push(serde_json::from_str(&line).expect("a protocol line"));
    }
    check_session(&messages);
    ours.shutdown(std::net::Shutdown::Both).expect("shutdown");
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().ok().flatten().is_none() {
        assert!(Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn standard_streams_may_be_regular_files() {
    let workspace = Workspace::new("mode = \"code\"");
    let input = workspace.path().join("requests.jsonl");
    let output = workspace.path().join("responses.jsonl");
    std::fs::write(&input, session_lines()).expect("the requests file");
    let status = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["serve", "--config", &workspace.config()])
        .current_dir(workspace.path())
        .stdin(std::fs::File::open(&input).expect("open the requests"))
        .stdout(std::fs::File::create(&output).expect("create the responses"))
        .stderr(Stdio::null())
        .status()
        .expect("the server runs");
    assert!(status.success(), "{status:?}");
    let text = std::fs::read_to_string(&output).expect("the responses");
    let messages: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("a protocol line"))
        .collect();
    check_session(&messages);
}
