//! `codemode serve` gives memory back: after heavy programs (each builds a heap of a few
//! hundred megabytes) the process returns to about its idle size instead of staying at its
//! high-water mark. Through the binary over stdio; the bound leaves slack for a loaded
//! machine (the README's figure is measured with the optimized build).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use super::Workspace;

/// The resident size of process `pid`, in MiB.
fn rss_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse::<u64>().ok())
        .expect("VmRSS")
        / 1024
}

#[test]
fn a_served_process_returns_to_about_its_idle_size_after_heavy_runs() {
    let workspace = Workspace::new("mode = \"code\"\n[runtime]\nheap_mb = 512");
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["serve", "--config", &workspace.config()])
        .current_dir(workspace.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("codemode serve starts");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut next_id = 0;
    let mut request = |method: &str, params: Value| -> Value {
        next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params});
        writeln!(input, "{message}").expect("a request is written");
        loop {
            let mut line = String::new();
            assert!(
                output.read_line(&mut line).expect("an answer") > 0,
                "the server ended"
            );
            let answer: Value = serde_json::from_str(&line).expect("JSON-RPC");
            if answer["id"] == next_id {
                return answer;
            }
        }
    };
    request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
    );
    let run = |request: &mut dyn FnMut(&str, Value) -> Value, code: &str| -> Value {
        request(
            "tools/call",
            json!({"name": "run_code", "arguments": {"code": code, "description": "memory"}}),
        )
    };
    let warm = run(&mut request, "return 1");
    assert_eq!(warm["result"]["isError"], false, "{warm}");
    std::thread::sleep(Duration::from_millis(500));
    let idle = rss_mib(child.id());
    let heavy = "const a = []; for (let i = 0; i < 600000; i++) a.push({i, s: 'x' + i}); \
                 const m = new Map(); for (let i = 0; i < 150000; i++) m.set('k' + i, [i, i]); \
                 return a.length + m.size;";
    for _ in 0..10 {
        let answer = run(&mut request, heavy);
        assert_eq!(answer["result"]["isError"], false, "{answer}");
    }
    // The last run's teardown comes after its answer.
    std::thread::sleep(Duration::from_secs(3));
    let after = rss_mib(child.id());
    drop(input);
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        after <= idle + 96,
        "{after} MiB resident after the heavy runs, {idle} MiB idle"
    );
}
