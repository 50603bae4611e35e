//! The command's OTLP export, received by an OTLP/HTTP collector written here (a small
//! HTTP server decoding the official protobuf types): a served `run_code` joins the
//! caller's trace from `_meta.traceparent`, its sub-calls are spans under the run in call
//! order, an upstream MCP server receives the sub-call's context in `_meta`, and a dead or
//! silent collector costs a run nothing. The upstream servers: the repository's fixture
//! server (it logs every message it receives) and one made with the official Python SDK
//! (`fixtures/mcp/traced_server.py`, from the test tools' venv), whose tool answers the
//! trace context the SDK ran it under.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use parking_lot::Mutex;
use prost::Message as _;
use serde_json::{Value, json};

use crate::cli::workspace;
use crate::mcp::{command, fixture_server, quoted};

/// One span as the collector received it.
#[derive(Debug, Clone)]
struct Received {
    trace_id: String,
    span_id: String,
    parent_span_id: String,
    name: String,
    /// OTLP's span kind: 1 internal, 2 server, 3 client.
    kind: i32,
    start: u64,
    attributes: BTreeMap<String, String>,
    service: Option<String>,
}

/// An OTLP/HTTP collector on loopback: `POST /v1/traces` bodies decoded and kept.
struct Collector {
    port: u16,
    spans: Arc<Mutex<Vec<Received>>>,
}

impl Collector {
    fn start() -> Collector {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let spans: Arc<Mutex<Vec<Received>>> = Arc::default();
        let kept = spans.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { break };
                let kept = kept.clone();
                std::thread::spawn(move || serve_connection(stream, &kept));
            }
        });
        Collector { port, spans }
    }

    fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn spans(&self) -> Vec<Received> {
        self.spans.lock().clone()
    }
}

fn text_of(value: Option<&Any>) -> String {
    match value {
        Some(Any::StringValue(text)) => text.clone(),
        Some(Any::IntValue(number)) => number.to_string(),
        Some(Any::BoolValue(flag)) => flag.to_string(),
        Some(Any::DoubleValue(number)) => number.to_string(),
        other => format!("{other:?}"),
    }
}

/// Answers HTTP/1.1 requests on one connection (keep-alive) until it closes.
fn serve_connection(stream: TcpStream, kept: &Mutex<Vec<Received>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        assert!(
            request_line.starts_with("POST /v1/traces "),
            "{request_line}"
        );
        let request = ExportTraceServiceRequest::decode(body.as_slice()).unwrap();
        for resource in request.resource_spans {
            let service = resource.resource.as_ref().and_then(|resource| {
                resource
                    .attributes
                    .iter()
                    .find(|kv| kv.key == "service.name")
                    .map(|kv| text_of(kv.value.as_ref().and_then(|v| v.value.as_ref())))
            });
            for scope in resource.scope_spans {
                for span in scope.spans {
                    kept.lock().push(Received {
                        trace_id: hex(&span.trace_id),
                        span_id: hex(&span.span_id),
                        parent_span_id: hex(&span.parent_span_id),
                        name: span.name,
                        kind: span.kind,
                        start: span.start_time_unix_nano,
                        attributes: span
                            .attributes
                            .iter()
                            .map(|kv| {
                                (
                                    kv.key.clone(),
                                    text_of(kv.value.as_ref().and_then(|v| v.value.as_ref())),
                                )
                            })
                            .collect(),
                        service: service.clone(),
                    });
                }
            }
        }
        let answer =
            "HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n";
        if writer.write_all(answer.as_bytes()).is_err() {
            return;
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn children<'a>(spans: &'a [Received], parent: &Received) -> Vec<&'a Received> {
    let mut found: Vec<&Received> = spans
        .iter()
        .filter(|span| span.parent_span_id == parent.span_id)
        .collect();
    found.sort_by_key(|span| span.start);
    found
}

fn attribute<'a>(span: &'a Received, key: &str) -> Option<&'a str> {
    span.attributes.get(key).map(String::as_str)
}

/// The messages the fixture server logged.
fn logged(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

const CALLER_TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";

#[test]
fn a_served_run_joins_the_callers_trace_and_its_sub_calls_carry_it_upstream() {
    let dir = workspace();
    let log = dir.path().join("upstream.jsonl");
    let script = fixture_server();
    let log_path = log.display().to_string();
    std::fs::write(
        dir.path().join("codemode.toml"),
        format!(
            "mode = \"code\"\n[[mcp]]\nname = {}\ncommand = {}\n",
            quoted("up"),
            command(&["python3", "-u", &script, "--log", &log_path])
        ),
    )
    .unwrap();
    let collector = Collector::start();
    let program = "const secret = 'marker-5521';\n\
        for (const text of ['a', 'b', 'c']) { await tools.echo({text}); }\n\
        return 'done';";
    let meta = json!({"traceparent": format!("00-{CALLER_TRACE}-{CALLER_SPAN}-01"),
        "baggage": "tenant=acme"});
    let result = served_run(dir.path(), &collector, program, meta);
    assert_eq!(result["result"]["isError"], json!(false), "{result}");

    let spans = collector.spans();
    assert!(!spans.is_empty(), "nothing was exported");
    let served: Vec<&Received> = spans
        .iter()
        .filter(|span| span.parent_span_id == CALLER_SPAN)
        .collect();
    assert_eq!(served.len(), 1, "{spans:#?}");
    let served = served[0];
    assert_eq!(served.name, "tools/call run_code");
    assert_eq!(served.kind, 2, "a server span");
    assert_eq!(served.service.as_deref(), Some("codemode"));
    assert!(
        spans.iter().all(|span| span.trace_id == CALLER_TRACE),
        "{spans:#?}"
    );

    // tools/call run_code -> execute_tool run_code -> dispatch -> run_code
    let execute = children(&spans, served)
        .into_iter()
        .find(|span| span.name == "execute_tool run_code")
        .expect("the run's execution span");
    assert_eq!(
        attribute(execute, "gen_ai.operation.name"),
        Some("execute_tool")
    );
    let stages = children(&spans, execute);
    let dispatch: Vec<_> = stages.iter().filter(|s| s.name == "dispatch").collect();
    assert_eq!(dispatch.len(), 1, "{stages:#?}");
    let run = children(&spans, dispatch[0]);
    assert_eq!(run.len(), 1);
    let run = run[0];
    assert_eq!(run.name, "run_code");
    assert_eq!(attribute(run, "codemode.run.sub_calls"), Some("3"));
    assert_eq!(attribute(run, "codemode.run.outcome"), Some("ok"));

    let calls = children(&spans, run);
    let outer_id = attribute(execute, "gen_ai.tool.call.id").unwrap();
    let ids: Vec<(String, String)> = calls
        .iter()
        .map(|call| {
            let id = attribute(call, "gen_ai.tool.call.id").unwrap_or_default();
            (call.name.clone(), id.to_owned())
        })
        .collect();
    let expected: Vec<(String, String)> = (1..=3)
        .map(|n| {
            (
                "execute_tool echo".to_owned(),
                format!("{outer_id}:code:{n}"),
            )
        })
        .collect();
    assert_eq!(ids, expected);

    // Each sub-call's upstream request carried the context of its client span.
    let mut client_spans = Vec::new();
    for call in &calls {
        let stages = children(&spans, call);
        let dispatch = stages
            .iter()
            .find(|span| span.name == "dispatch")
            .expect("a dispatch stage");
        let client: Vec<_> = children(&spans, dispatch)
            .into_iter()
            .filter(|span| span.name == "tools/call echo")
            .collect();
        assert_eq!(client.len(), 1, "{stages:#?}");
        assert_eq!(client[0].kind, 3, "a client span");
        client_spans.push(client[0].span_id.clone());
    }
    let calls_upstream: Vec<Value> = logged(&log)
        .into_iter()
        .filter(|message| message["method"] == "tools/call")
        .collect();
    for message in &calls_upstream {
        assert_eq!(
            message["params"]["_meta"]["baggage"], "tenant=acme",
            "{message}"
        );
    }
    let upstream: Vec<String> = calls_upstream
        .iter()
        .map(|message| {
            message["params"]["_meta"]["traceparent"]
                .as_str()
                .unwrap_or_else(|| panic!("no traceparent: {message}"))
                .to_owned()
        })
        .collect();
    let expected: Vec<String> = client_spans
        .iter()
        .map(|span| format!("00-{CALLER_TRACE}-{span}-01"))
        .collect();
    assert_eq!(upstream, expected);

    // No program text, arguments or results by default.
    for span in &spans {
        for (key, value) in &span.attributes {
            assert!(!value.contains("marker-5521"), "{key} of {span:?}");
        }
        assert!(!span.attributes.contains_key("codemode.run.code"));
        assert!(!span.attributes.contains_key("gen_ai.tool.call.arguments"));
    }
}

/// Runs `program` through `run_code` of `codemode serve` (stdio) in `dir`, exporting to
/// `collector`, the `tools/call` carrying `meta`; the answer, once the server has stopped
/// (the end of its input) and exported what was left.
fn served_run(dir: &Path, collector: &Collector, program: &str, meta: Value) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["serve"])
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint().as_str())
        .env_remove("OTEL_SERVICE_NAME")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answer = |id: u64| -> Value {
        loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "the server ended");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    };
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "run_code",
            "arguments": {"code": program, "description": "a test program"},
            "_meta": meta}}),
    ];
    let mut result = Value::Null;
    for message in messages {
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
        if let Some(id) = message["id"].as_u64() {
            result = answer(id);
        }
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    result
}

#[test]
fn an_upstream_server_made_with_the_python_sdk_runs_its_tool_in_the_sub_calls_trace() {
    let python = crate::mcp::repo().join("tests/tools/venv/bin/python");
    assert!(
        python.exists(),
        "{} is missing: run `.ci/tools` to install the test tools (the Python MCP SDK)",
        python.display()
    );
    let dir = workspace();
    let script = crate::mcp::repo().join("fixtures/mcp/traced_server.py");
    std::fs::write(
        dir.path().join("codemode.toml"),
        format!(
            "mode = \"code\"\n[[mcp]]\nname = \"traced\"\ncommand = {}\n",
            command(&[&python.display().to_string(), &script.display().to_string()])
        ),
    )
    .unwrap();
    let collector = Collector::start();
    let meta = json!({"traceparent": format!("00-{CALLER_TRACE}-{CALLER_SPAN}-01")});
    let result = served_run(
        dir.path(),
        &collector,
        "return (await tools.seen({})).result;",
        meta,
    );
    let seen = result["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let spans = collector.spans();
    let client = spans
        .iter()
        .find(|span| span.name == "tools/call seen")
        .unwrap_or_else(|| panic!("no client span: {result} {spans:#?}"));
    assert_eq!(client.kind, 3);
    assert_eq!(
        seen,
        format!("{CALLER_TRACE}-{}", client.span_id),
        "{result}"
    );
}

/// Runs `program` with the command, exporting to `endpoint` (none: no export); its stdout
/// and how long the whole command took.
fn timed_run(dir: &Path, endpoint: Option<&str>, program: &str) -> (String, Duration) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_codemode"));
    command
        .args(["run", "-"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    if let Some(endpoint) = endpoint {
        command.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
    }
    let started = Instant::now();
    let mut child = command.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(program.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let elapsed = started.elapsed();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        elapsed,
    )
}

#[test]
fn a_dead_or_silent_collector_neither_fails_nor_holds_up_a_run() {
    let dir = workspace();
    // Enough spans that the batch processor exports while the run goes on.
    let program = "let n = 0; for (let i = 0; i < 600; i++) { n += (await tools.glob({pattern: '*.md'})).total; } return n;";
    let (expected, baseline) = timed_run(dir.path(), None, program);
    assert_eq!(expected, "600\n");

    // A closed port: every export is refused at once.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let (output, elapsed) = timed_run(dir.path(), Some(&dead), program);
    assert_eq!(output, expected);
    assert!(
        elapsed < baseline + Duration::from_secs(6),
        "{elapsed:?} against {baseline:?} without export"
    );

    // A collector that accepts connections and never answers: exports hang until their
    // timeout, on the exporter's thread; the command waits at most 2 s for it at exit.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = silent.local_addr().unwrap();
    let held: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
    let holder = held.clone();
    std::thread::spawn(move || {
        for stream in silent.incoming().flatten() {
            holder.lock().push(stream);
        }
    });
    let (output, elapsed) = timed_run(dir.path(), Some(&format!("http://{address}")), program);
    assert_eq!(output, expected);
    assert!(
        elapsed < baseline + Duration::from_secs(6),
        "{elapsed:?} against {baseline:?} without export"
    );
    assert!(!held.lock().is_empty(), "the exporter never connected");
}

#[test]
fn json_log_events_name_the_trace_and_span_they_happened_in() {
    let dir = workspace();
    let collector = Collector::start();
    let output = crate::cli::codemode_with_env(
        dir.path(),
        &["run", "-"],
        "try { await tools.read_file({path: 'missing.txt'}); } catch (e) {} return 1;",
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint().as_str()),
            ("CODEMODE_LOG_FORMAT", "json"),
            ("CODEMODE_LOG", "warn,codemode=debug"),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let event: Value = stderr
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|event| event["fields"]["message"] == "the call failed")
        .unwrap_or_else(|| panic!("no event of the failed call: {stderr}"));
    let trace_id = event["trace_id"].as_str().expect("a trace id");
    let span_id = event["span_id"].as_str().expect("a span id");
    let spans = collector.spans();
    let span = spans
        .iter()
        .find(|span| span.span_id == span_id)
        .unwrap_or_else(|| panic!("{span_id} was not exported: {spans:#?}"));
    assert_eq!(span.name, "execute_tool read_file");
    assert_eq!(span.trace_id, trace_id);
    assert_eq!(
        attribute(span, "error.type"),
        event["fields"]["code"].as_str()
    );
}

/// A POST of `body` to a streamable-HTTP session with extra `headers`; the one JSON-RPC
/// message answered (JSON, or SSE `data:` lines).
async fn post(
    client: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    headers: &[(&str, &str)],
    body: Value,
) -> (reqwest::header::HeaderMap, Option<Value>) {
    let mut request =
        crate::serve::mcp_post(client, url, "application/json", session).body(body.to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let message = serde_json::from_str::<Value>(&text).ok().or_else(|| {
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .find(|message| message.get("id").is_some())
    });
    (headers, message)
}

#[tokio::test]
async fn over_http_the_traceparent_header_counts_when_meta_has_none() {
    let workspace = crate::serve::Workspace::new("mode = \"code\"");
    let collector = Collector::start();
    let endpoint = collector.endpoint();
    let mut served = crate::serve::serve_http(
        &workspace,
        "127.0.0.1:0",
        &[],
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str())],
    );
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let url = served.url.clone();
    let (headers, _) = post(
        &client,
        &url,
        None,
        &[],
        json!({"jsonrpc": "2.0", "id": 1,
        "method": "initialize", "params": {"protocolVersion": "2025-06-18",
        "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}),
    )
    .await;
    let session = headers["mcp-session-id"].to_str().unwrap().to_owned();
    let session = Some(session.as_str());
    post(
        &client,
        &url,
        session,
        &[],
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;

    let header_trace = "0af7651916cd43dd8448eb211c80319c";
    let header_span = "b7ad6b7169203331";
    let traceparent = format!("00-{header_trace}-{header_span}-01");
    let call = |id: u64, meta: Option<Value>| {
        let mut params = json!({"name": "run_code",
            "arguments": {"code": "return 1", "description": "one"}});
        if let Some(meta) = meta {
            params["_meta"] = meta;
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
    };
    // The header alone.
    let (_, answer) = post(
        &client,
        &url,
        session,
        &[("traceparent", &traceparent)],
        call(2, None),
    )
    .await;
    assert_eq!(answer.unwrap()["result"]["isError"], json!(false));
    // `_meta` and the header: `_meta` wins.
    let meta = json!({"traceparent": format!("00-{CALLER_TRACE}-{CALLER_SPAN}-01")});
    let (_, answer) = post(
        &client,
        &url,
        session,
        &[("traceparent", &traceparent)],
        call(3, Some(meta)),
    )
    .await;
    assert_eq!(answer.unwrap()["result"]["isError"], json!(false));

    served.signal("TERM");
    assert!(served.exited_within(Duration::from_secs(20)).is_some());
    let spans = collector.spans();
    let served_spans: Vec<(&str, &str, &str)> = spans
        .iter()
        .filter(|span| span.name == "tools/call run_code")
        .map(|span| {
            (
                span.trace_id.as_str(),
                span.parent_span_id.as_str(),
                attribute(span, "jsonrpc.request.id").unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(served_spans.len(), 2, "{spans:#?}");
    assert!(
        served_spans.contains(&(header_trace, header_span, "2")),
        "{served_spans:?}"
    );
    assert!(
        served_spans.contains(&(CALLER_TRACE, CALLER_SPAN, "3")),
        "{served_spans:?}"
    );
}

#[test]
fn codemode_trace_content_records_the_program_in_the_exported_span() {
    let dir = workspace();
    let collector = Collector::start();
    let program = "const { total } = await tools.glob({pattern: '*.md'}); return total;";
    let output = crate::cli::codemode_with_env(
        dir.path(),
        &["run", "-"],
        program,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint().as_str()),
            ("CODEMODE_TRACE_CONTENT", "1"),
        ],
    );
    assert!(output.status.success());
    let spans = collector.spans();
    let run = spans
        .iter()
        .find(|span| span.name == "run_code")
        .expect("a run span");
    assert_eq!(attribute(run, "codemode.run.code"), Some(program));
    let glob = spans
        .iter()
        .find(|span| span.name == "execute_tool glob")
        .expect("the sub-call's span");
    assert_eq!(
        attribute(glob, "gen_ai.tool.call.arguments"),
        Some(r#"{"pattern":"*.md"}"#)
    );
    assert!(attribute(glob, "gen_ai.tool.call.result").is_some());
}
