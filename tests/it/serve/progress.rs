//! Progress while a program runs, through `codemode serve` and the Python MCP SDK's client:
//! a `tools/call` of `run_code` with a progress token gets `notifications/progress` for the
//! lines its program prints — coalesced (a bounded number for 10,000 lines), the last line
//! always among them, before the answer — and the answer is what it is without one.

use serde_json::{Value, json};

use super::{Workspace, run_code, steps, text};

/// A program printing 10,000 lines over about two seconds.
const PRINTS: &str = "for (let i = 0; i < 10000; i++) {\n  console.log('line ' + i);\n  if (i % 500 === 499) await new Promise((r) => setTimeout(r, 100));\n}\nreturn 'done';";

#[test]
fn printed_lines_reach_the_client_as_coalesced_progress_with_the_last_line() {
    let workspace = Workspace::new("mode = \"code\"");
    let mut with_progress = run_code(PRINTS);
    with_progress["progress"] = json!(true);
    let report = workspace.drive(json!({"steps": [with_progress, run_code(PRINTS)]}));
    let all = steps(&report);
    let reports = all[0]["progress"].as_array().expect("progress reports");
    // 10,000 lines over about 2 s, at most one notification every 250 ms: a few, not
    // thousands (slack for a loaded machine, where the program takes longer).
    assert!(
        (2..=80).contains(&reports.len()),
        "{} reports: {reports:?}",
        reports.len()
    );
    let last = reports.last().expect("a report");
    assert_eq!(last["message"], "line 9999", "{reports:?}");
    assert_eq!(last["progress"], json!(10000.0));
    let counts: Vec<f64> = reports
        .iter()
        .map(|r| r["progress"].as_f64().unwrap_or(-1.0))
        .collect();
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
    assert!(reports.iter().all(|r| r["total"].is_null()));
    // What the model gets is the same with and without a progress token.
    assert_eq!(text(&all[0]), text(&all[1]));
    assert!(text(&all[0]).contains("line 9999"));
    assert!(all[1].get("progress").is_none());
}

#[test]
fn a_long_line_is_cut_in_its_notification_and_whole_in_the_answer() {
    let workspace = Workspace::new("mode = \"code\"");
    let mut call = run_code("console.log('x'.repeat(5000)); return 1;");
    call["progress"] = json!(true);
    let report = workspace.drive(json!({"steps": [call]}));
    let step = &steps(&report)[0];
    let reports = step["progress"].as_array().expect("progress reports");
    let message = reports
        .last()
        .and_then(|r| r["message"].as_str())
        .unwrap_or_default();
    assert_eq!(
        message.chars().count(),
        codemode::mcp::server::MAX_PROGRESS_MESSAGE_CHARS + 1
    );
    assert!(message.ends_with('…'));
    assert!(
        text(step).contains(&"x".repeat(5000)),
        "{}",
        Value::from(text(step))
    );
}

/// `progress(i, 10)` ten times, 100 ms apart, in a program of `language`'s.
fn ten_reports(workspace: &Workspace, program: &str) -> Vec<Value> {
    let mut call = run_code(program);
    call["progress"] = json!(true);
    let report = workspace.drive(json!({"steps": [call]}));
    let step = &steps(&report)[0];
    assert!(!super::is_error(step), "{report}");
    step["progress"]
        .as_array()
        .cloned()
        .expect("progress reports")
}

#[test]
fn each_progress_call_of_a_program_reaches_the_client_in_both_languages() {
    let typescript = Workspace::new("mode = \"code\"");
    let python = Workspace::new("mode = \"code\"\n[runtime]\nlanguage = \"python\"");
    for (workspace, program) in [
        (
            &typescript,
            "for (let i = 1; i <= 10; i++) {\n  await new Promise((r) => setTimeout(r, 100));\n  await progress(i, 10, 'step ' + i);\n}\nreturn 'done';",
        ),
        (
            &python,
            "import asyncio\nfor i in range(1, 11):\n    await asyncio.sleep(0.1)\n    await progress(i, 10, f'step {i}')\nreturn 'done'",
        ),
    ] {
        let reports = ten_reports(workspace, program);
        let seen: Vec<(f64, f64, String)> = reports
            .iter()
            .map(|r| {
                (
                    r["progress"].as_f64().unwrap_or(-1.0),
                    r["total"].as_f64().unwrap_or(-1.0),
                    r["message"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect();
        let expected: Vec<(f64, f64, String)> = (1..=10)
            .map(|i| (f64::from(i), 10.0, format!("step {i}")))
            .collect();
        assert_eq!(seen, expected, "{program}");
    }
}

#[test]
fn a_wrong_progress_call_fails_with_what_it_takes_and_the_program_goes_on() {
    let workspace = Workspace::new("mode = \"code\"");
    let report = workspace.drive(json!({"steps": [run_code(
        "try { await progress('half'); } catch (e) { return e.message; }"
    )]}));
    let text = text(&steps(&report)[0]).to_owned();
    assert!(
        text.contains("progress(done, total?, message?) takes a number"),
        "{text}"
    );
}

/// Raw JSON-RPC over stdio, so that every message on the wire is seen: a call without a
/// progress token gets no `notifications/progress` at all, the same call with one gets its
/// notifications (with its token, before its answer); the store the program wrote ends with
/// the connection (the server exits when its standard input closes).
#[test]
fn no_progress_without_a_token_on_the_wire_and_the_store_ends_with_the_connection() {
    let workspace = Workspace::new("mode = \"code\"");
    let program = "await store.set('kept', 'x'.repeat(100000));\n\
                   for (let i = 0; i < 50; i++) console.log('line ' + i);\n\
                   await progress(1, 1, 'all done');\nreturn (await store.keys()).length;";
    let call = |id: i64, meta: Option<Value>| {
        let mut params =
            json!({"name": "run_code", "arguments": {"code": program, "description": "p"}});
        if let Some(meta) = meta {
            params["_meta"] = meta;
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string()
    };
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}})
        .to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        call(2, None),
        call(3, Some(json!({"progressToken": "tok-3"}))),
    ];
    let (messages, status) = super::protocol::exchange(&workspace, &lines);
    let at = |id: i64| {
        messages
            .iter()
            .position(|m| m.get("id") == Some(&json!(id)))
            .unwrap_or_else(|| panic!("no answer to {id}: {messages:#?}"))
    };
    let (second, third) = (at(2), at(3));
    assert_eq!(
        messages[second]["result"]["content"][0]["text"]
            .as_str()
            .map(|t| t.ends_with("\n1")),
        Some(true),
        "{:#}",
        messages[second]
    );
    let notifications: Vec<(usize, &Value)> = messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m["method"] == "notifications/progress")
        .collect();
    assert!(!notifications.is_empty(), "{messages:#?}");
    for (position, notification) in &notifications {
        assert_eq!(
            notification["params"]["progressToken"], "tok-3",
            "{notification:#}"
        );
        assert!(
            (second..third).contains(position),
            "a notification outside the call with the token: {messages:#?}"
        );
    }
    let last = notifications.last().map(|(_, m)| &m["params"]);
    assert_eq!(last.map(|p| p["message"].clone()), Some(json!("all done")));
    // The connection ended (standard input closed): the server, and its store, are gone.
    assert_eq!(status, Some(0), "{messages:#?}");
}
