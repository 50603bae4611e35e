//! `CODEMODE_LOG_FORMAT=json`: one JSON object per event on stderr, with the spans the event
//! happened in; a repeated warning still logged at counts 1, 2, 4, ... with its `count`.

use std::io::Read as _;
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cli::workspace;

/// Every line of `stderr`, each of which must be one JSON object.
fn json_lines(stderr: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            serde_json::from_str::<Value>(line)
                .unwrap_or_else(|err| panic!("not a JSON line ({err}): {line}"))
        })
        .collect()
}

#[test]
fn json_events_carry_the_spans_they_happened_in() {
    let dir = workspace();
    let output = crate::cli::codemode_with_env(
        dir.path(),
        &["run", "-"],
        "try { await tools.read_file({path: 'secret-name.txt'}); } catch (e) {} return 1;",
        &[
            ("CODEMODE_LOG_FORMAT", "json"),
            ("CODEMODE_LOG", "warn,codemode=debug"),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let events = json_lines(&output.stderr);
    let failed: Vec<&Value> = events
        .iter()
        .filter(|event| event["fields"]["message"] == "the call failed")
        .collect();
    assert_eq!(failed.len(), 1, "{events:#?}");
    let event = failed[0];
    assert_eq!(event["level"], "DEBUG");
    assert!(event["fields"]["code"].is_string(), "{event}");
    let spans = event["spans"].as_array().expect("a span list");
    let names: Vec<&str> = spans
        .iter()
        .map(|span| span["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["execute_tool", "dispatch", "run_code", "execute_tool"],
        "{event}"
    );
    assert_eq!(spans[0]["gen_ai.tool.name"], "run_code");
    assert_eq!(spans[2]["codemode.run.language"], "typescript");
    assert_eq!(spans[3]["gen_ai.tool.name"], "read_file");
    assert!(
        spans[3]["gen_ai.tool.call.id"]
            .as_str()
            .is_some_and(|id| id.ends_with(":code:1")),
        "{event}"
    );
    assert_eq!(event["span"]["name"], "execute_tool");
    // Nothing the call carried.
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("secret-name"),
        "{events:#?}"
    );
}

#[test]
fn a_repeated_warning_is_counted_in_json_too() {
    let dir = workspace();
    let stderr_path = dir.path().join("stderr.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["serve", "--http", "127.0.0.1:0", "--max-connections", "1"])
        .env("CODEMODE_LOG_FORMAT", "json")
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let port: u16 = loop {
        let text = std::fs::read_to_string(&stderr_path).unwrap();
        if let Some(port) = text
            .split_once("streamable HTTP at http://127.0.0.1:")
            .and_then(|(_, rest)| rest.split('/').next())
            .and_then(|port| port.parse().ok())
        {
            break port;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not start: {text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // One connection holds the cap; three more are refused.
    let held = TcpStream::connect(("127.0.0.1", port)).unwrap();
    for _ in 0..3 {
        let mut refused = TcpStream::connect(("127.0.0.1", port)).unwrap();
        refused
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut answer = String::new();
        let _ = refused.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    }
    drop(held);
    let _ = child.kill();
    let _ = child.wait();
    let stderr = std::fs::read(&stderr_path).unwrap();
    // The address line is the command's own output, not an event; every other line is one.
    let events: Vec<Value> = json_lines(
        &String::from_utf8_lossy(&stderr)
            .lines()
            .filter(|line| !line.starts_with("codemode: serving"))
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
    );
    let refusals: Vec<&Value> = events
        .iter()
        .filter(|event| {
            event["fields"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("HTTP connections refused"))
        })
        .collect();
    let counts: Vec<&Value> = refusals
        .iter()
        .map(|event| &event["fields"]["count"])
        .collect();
    assert_eq!(counts, [1, 2], "{events:#?}");
    assert_eq!(refusals[0]["level"], "WARN");
    assert_eq!(refusals[0]["fields"]["cap"], 1);
}
