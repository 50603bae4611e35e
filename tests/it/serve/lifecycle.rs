//! `codemode serve` as a service, through the binary: a `SIGTERM` drains over HTTP (new
//! sessions `503` with `Retry-After`, `/readyz` not ready, `/healthz` ok, the calls in flight
//! answered — finished, or "stopping" once the grace is over — no tool process left, exit 0),
//! a second signal stops at once, `SIGHUP` re-reads the token file, and one token's burst
//! leaves another token's calls answered. Over stdio a `SIGTERM` answers the call in flight and
//! refuses new ones with an error result.
//!
//! Every time bound leaves wide slack: the machine may be loaded.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::Workspace;
use super::bounds::{call, client, initialize_message, message, open, post};

/// The processes whose command line holds `needle` (a tool process of this test).
fn processes_holding(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(needle) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

async fn get(client: &reqwest::Client, url: &str) -> (u16, String) {
    let response = client.get(url).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

fn program(code: &str) -> Value {
    json!({"code": code, "description": "a drain test"})
}

#[tokio::test]
async fn sigterm_drains_answers_every_call_leaves_no_process_and_exits_0() {
    let workspace = Workspace::new("mode = \"both\"");
    let mut served = super::serve_http(&workspace, "127.0.0.1:0", &["--shutdown-grace", "4"], &[]);
    let client = client();
    let url = served.url.clone();
    let base = format!("http://127.0.0.1:{}", served.port);
    assert_eq!(get(&client, &format!("{base}/healthz")).await.0, 200);
    assert_eq!(
        get(&client, &format!("{base}/readyz")).await,
        (200, "ok\n".to_owned())
    );

    // Four calls in flight: two programs that end within the grace, one that does not, and
    // a command tool that never ends (its grandchild writes the marker after 2 s).
    let session = open(&client, &url).await.unwrap();
    let mut calls = tokio::task::JoinSet::new();
    let plans = [
        (
            1,
            "run_code",
            program("await new Promise(r => setTimeout(r, 1000)); return 'one'"),
        ),
        (
            2,
            "run_code",
            program("await new Promise(r => setTimeout(r, 1500)); return 'two'"),
        ),
        (
            3,
            "run_code",
            program("await new Promise(r => setTimeout(r, 600000)); return 'never'"),
        ),
        (4, "hang", json!({})),
    ];
    for (id, name, arguments) in plans {
        let (client, url, session) = (client.clone(), url.clone(), session.clone());
        calls.spawn(async move { (id, call(&client, &url, &session, id, name, arguments).await) });
    }
    let marker = workspace.path().join("hang-marker");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "the hanging call did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!processes_holding(&marker.display().to_string()).is_empty());

    served.signal("TERM");
    let stopped_at = Instant::now();
    // Draining: a new session is refused with Retry-After, not ready, still alive.
    let deadline = Instant::now() + Duration::from_secs(2);
    let (status, headers, text) = loop {
        let answer = post(&client, &url, None, None, &initialize_message()).await;
        if answer.0 != 200 || Instant::now() > deadline {
            break answer;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(status, 503, "{text}");
    assert!(headers.contains_key("retry-after"), "{headers:?}");
    assert!(
        message(&text)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("stopping"),
        "{text}"
    );
    assert_eq!(get(&client, &format!("{base}/readyz")).await.0, 503);
    assert_eq!(get(&client, &format!("{base}/healthz")).await.0, 200);

    let mut answers = std::collections::BTreeMap::new();
    while let Some(joined) = calls.join_next().await {
        let (id, result) = joined.unwrap();
        answers.insert(id, result);
    }
    assert_eq!(answers[&1]["content"][0]["text"], "one", "{}", answers[&1]);
    assert_eq!(answers[&2]["content"][0]["text"], "two", "{}", answers[&2]);
    for id in [3, 4] {
        let answer = &answers[&id];
        assert_eq!(answer["isError"], true, "{answer}");
        let text = answer["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("the server is stopping"), "{answer}");
    }
    let status = served
        .exited_within(Duration::from_secs(30))
        .expect("the server exits after the drain");
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert!(
        stopped_at.elapsed() < Duration::from_secs(4 + 5 + 10),
        "the drain took {:?}",
        stopped_at.elapsed()
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        processes_holding(&marker.display().to_string()),
        Vec::<String>::new(),
        "a tool process outlived the server"
    );
}

#[tokio::test]
async fn a_second_signal_stops_at_once_and_kills_the_tools() {
    let workspace = Workspace::new("mode = \"native\"");
    let mut served = super::serve_http(&workspace, "127.0.0.1:0", &["--shutdown-grace", "60"], &[]);
    let client = client();
    let url = served.url.clone();
    let session = open(&client, &url).await.unwrap();
    let hanging = {
        let (client, url) = (client.clone(), url.clone());
        tokio::spawn(async move {
            let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                "params": {"name": "hang", "arguments": {}}});
            post(&client, &url, Some(&session), None, &body).await
        })
    };
    let marker = workspace.path().join("hang-marker");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "the hanging call did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    served.signal("INT");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        served.exited_within(Duration::ZERO).is_none(),
        "the first signal drains"
    );
    served.signal("INT");
    let status = served
        .exited_within(Duration::from_secs(10))
        .expect("a second signal stops at once");
    assert_eq!(status.code(), Some(128 + 2), "{status:?}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        processes_holding(&marker.display().to_string()),
        Vec::<String>::new()
    );
    hanging.abort();
}

#[tokio::test]
async fn sighup_rereads_the_token_file_and_orphans_nothing() {
    let workspace = Workspace::new("mode = \"native\"");
    let tokens = workspace.path().join("tokens");
    let (old, new) = (
        "old-token-0123456789abcdefghijklmn",
        "new#token-0123456789abcdefghijklmn",
    );
    std::fs::write(&tokens, format!("ci {old}\n")).unwrap();
    let mut served = super::serve_http(
        &workspace,
        "127.0.0.1:0",
        &["--token-file", &tokens.display().to_string()],
        &[],
    );
    let client = client();
    let status = |token: &'static str| {
        let (client, url) = (client.clone(), served.url.clone());
        async move {
            client
                .post(&url)
                .header("authorization", format!("Bearer {token}"))
                .header("accept", "application/json, text/event-stream")
                .header("content-type", "application/json")
                .body(initialize_message().to_string())
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    assert_eq!(status(old).await, 200);
    assert_eq!(status(new).await, 401);
    // The new token as its digest line (what `codemode token hash --name` prints).
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["token", "hash", "--name", "ci"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(new.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let line = String::from_utf8(output.stdout).unwrap();
    assert!(line.starts_with("ci sha256:"), "{line}");
    std::fs::write(&tokens, format!("# rotated\n{line}")).unwrap();
    served.signal("HUP");
    let deadline = Instant::now() + Duration::from_secs(10);
    while status(new).await != 200 {
        assert!(
            Instant::now() < deadline,
            "the new token was not accepted after SIGHUP"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(status(old).await, 401);
    // A file that no longer reads keeps the tokens in use.
    std::fs::write(&tokens, "short\n").unwrap();
    served.signal("HUP");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(status(new).await, 200);
    assert!(
        served.exited_within(Duration::ZERO).is_none(),
        "SIGHUP does not stop"
    );
}

/// A POST with a bearer token; status and text.
async fn post_as(
    client: &reqwest::Client,
    url: &str,
    token: &str,
    session: Option<&str>,
    body: &Value,
) -> (u16, reqwest::header::HeaderMap, String) {
    let request = super::mcp_post(client, url, "application/json", session)
        .bearer_auth(token)
        .body(body.to_string());
    super::status_headers_text(request.send().await.unwrap()).await
}

async fn open_as(client: &reqwest::Client, url: &str, token: &str) -> Result<String, String> {
    let (status, headers, text) = post_as(client, url, token, None, &initialize_message()).await;
    if status != 200 {
        return Err(text);
    }
    let session = headers["mcp-session-id"].to_str().unwrap().to_owned();
    let notified = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    post_as(client, url, token, Some(&session), &notified).await;
    Ok(session)
}

fn call_body(id: u64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}})
}

#[tokio::test]
async fn one_tokens_burst_leaves_another_tokens_calls_answered() {
    const A: &str = "tenant-a-0123456789abcdefghijklmnop";
    const B: &str = "tenant-b-0123456789abcdefghijklmnop";
    let workspace = Workspace::new("mode = \"native\"");
    let tokens = workspace.path().join("tokens");
    std::fs::write(&tokens, format!("a {A}\nb {B}\n")).unwrap();
    let served = super::serve_http(
        &workspace,
        "127.0.0.1:0",
        &[
            "--token-file",
            &tokens.display().to_string(),
            "--max-sessions",
            "8",
            "--max-connections",
            "24",
            "--max-runs",
            "4",
            "--run-queue",
            "8",
        ],
        &[],
    );
    let client = client();
    let url = served.url.clone();

    // A opens sessions up to the server's cap: it gets its share (4 of 8), then 503s that
    // name the share.
    let mut a_sessions = Vec::new();
    let mut refused = None;
    for _ in 0..8 {
        match open_as(&client, &url, A).await {
            Ok(session) => a_sessions.push(session),
            Err(text) => refused = Some(text),
        }
    }
    assert_eq!(a_sessions.len(), 4);
    assert!(refused.unwrap().contains("this token has 4 MCP sessions"));

    // A holds event streams up to the server's connection cap: it gets its share (12).
    let mut streams = Vec::new();
    let mut stream_refusals = 0;
    for n in 0..24 {
        let response = client
            .get(&url)
            .header("authorization", format!("Bearer {A}"))
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &a_sessions[n % a_sessions.len()])
            .header("mcp-protocol-version", "2025-06-18")
            .send()
            .await
            .unwrap();
        if response.status().as_u16() == 503 {
            stream_refusals += 1;
        } else {
            streams.push(response);
        }
    }
    assert!(
        stream_refusals >= 12,
        "{stream_refusals} of A's streams were refused"
    );
    // Meanwhile B opens a session and an event stream, and its call is answered.
    let b_session = open_as(&client, &url, B).await.expect("B gets a session");
    let b_stream = client
        .get(&url)
        .header("authorization", format!("Bearer {B}"))
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &b_session)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .unwrap();
    assert_eq!(b_stream.status().as_u16(), 200);
    drop(b_stream);
    drop(streams);

    // A's calls fill its share of the runs (2) and of the queue (4) and are refused past it.
    let mut a_calls = tokio::task::JoinSet::new();
    let mut a_aborts = Vec::new();
    for n in 0..6 {
        let (client, url, session) = (client.clone(), url.clone(), a_sessions[0].clone());
        let handle = a_calls.spawn(async move {
            post_as(
                &client,
                &url,
                A,
                Some(&session),
                &call_body(100 + n, "hang", json!({})),
            )
            .await
        });
        a_aborts.push(handle);
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_, _, past) = post_as(
        &client,
        &url,
        A,
        Some(&a_sessions[1]),
        &call_body(200, "add", json!({"a": 1, "b": 2})),
    )
    .await;
    assert!(
        message(&past)["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("busy for this token"),
        "{past}"
    );

    // B's calls are answered within 2 s each, throughout.
    for n in 0..5 {
        let started = Instant::now();
        let (status, _, text) = post_as(
            &client,
            &url,
            B,
            Some(&b_session),
            &call_body(300 + n, "add", json!({"a": 40, "b": 2})),
        )
        .await;
        assert_eq!(status, 200, "{text}");
        assert_eq!(
            message(&text)["result"]["content"][0]["text"],
            "42",
            "{text}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "B waited {:?}",
            started.elapsed()
        );
    }

    // A's clients go away: their queued calls leave the queue within a second, so A can
    // queue again.
    for handle in &a_aborts {
        handle.abort();
    }
    drop(a_calls);
    let dropped_at = Instant::now();
    let requeued = {
        let (client, url, session) = (client.clone(), url.clone(), a_sessions[2].clone());
        tokio::spawn(async move {
            post_as(
                &client,
                &url,
                A,
                Some(&session),
                &call_body(400, "add", json!({"a": 1, "b": 1})),
            )
            .await
        })
    };
    let (_, _, text) = tokio::time::timeout(Duration::from_secs(20), requeued)
        .await
        .expect("A's new call is answered once its dropped calls are gone")
        .unwrap();
    // Within a second of the drop, with slack for a loaded machine.
    assert!(
        dropped_at.elapsed() < Duration::from_secs(3),
        "{:?}",
        dropped_at.elapsed()
    );
    assert_eq!(
        message(&text)["result"]["content"][0]["text"],
        "2",
        "{text}"
    );
}

/// One JSON-RPC message of a stdio server's stdout (skipping notifications).
fn read_answer(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> Value {
    loop {
        let line = lines
            .next()
            .expect("the server answers before closing stdout")
            .expect("stdout is readable");
        let message: Value = serde_json::from_str(&line).expect("a JSON-RPC line");
        if message.get("id").is_some() {
            return message;
        }
    }
}

#[test]
fn sigterm_over_stdio_answers_the_call_in_flight_refuses_new_ones_and_exits_0() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};

    let workspace = Workspace::new("mode = \"code\"");
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args([
            "serve",
            "--config",
            &workspace.config(),
            "--shutdown-grace",
            "20",
        ])
        .current_dir(workspace.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut send = |message: Value| {
        writeln!(stdin, "{message}").expect("the server reads stdin");
        stdin.flush().expect("flush");
    };
    let hello = initialize_message();
    send(hello.clone());
    assert_eq!(read_answer(&mut lines)["id"], hello["id"]);
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(
        json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {
            "name": "run_code",
            "arguments": program("await new Promise(r => setTimeout(r, 6000)); return 'finished'"),
        }}),
    );
    // The call is in flight: the server answers a ping while the program waits.
    send(json!({"jsonrpc": "2.0", "id": 12, "method": "ping"}));
    assert_eq!(read_answer(&mut lines)["id"], 12);

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    std::thread::sleep(Duration::from_millis(300));
    send(
        json!({"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {
            "name": "run_code",
            "arguments": program("return 'too late'"),
        }}),
    );

    let mut answers = std::collections::BTreeMap::new();
    while answers.len() < 2 {
        let answer = read_answer(&mut lines);
        answers.insert(answer["id"].as_u64().expect("a numeric id"), answer);
    }
    let refused = &answers[&13]["result"];
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .contains("stopping"),
        "{refused}"
    );
    let finished = &answers[&11]["result"];
    assert_eq!(finished["content"][0]["text"], "finished", "{finished}");

    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not exit after the drain"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0), "{status:?}");
}
