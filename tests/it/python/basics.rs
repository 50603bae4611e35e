//! The language-neutral behaviour of a code runtime, in Python: values, logs, tools,
//! failures, budgets, cancellation, fresh state.

use std::time::{Duration, Instant};

use codemode::runtime::{CodeRunErrorKind, CodeRuntime, Language};
use serde_json::json;

use super::{ENGINE, engine_with, request, run, run_with_tools, test_config};
use crate::runtime::{TestHost, failure, tools, value};

#[tokio::test]
async fn programs_over_the_size_cap_are_refused_like_typescript_ones() {
    let limit = codemode::runtime::MAX_PROGRAM_BYTES;
    let outcome = run(&"x = 1\n".repeat(limit / 6 + 1)).await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(
        message.ends_with(&format!("the limit is {limit} bytes")),
        "{message}"
    );
}

#[tokio::test]
async fn values_none_and_no_output() {
    assert_eq!(value(&run("return 6 * 7").await), json!(42));
    assert_eq!(
        value(&run("return {'a': [1, 2.5, None, True], 'b': 'x'}").await),
        json!({"a": [1, 2.5, null, true], "b": "x"})
    );
    for program in ["x = 1", "return None", "return", ""] {
        let outcome = run(program).await;
        assert!(outcome.error.is_none(), "{program}: {outcome:?}");
        assert_eq!(outcome.value, None, "{program}");
        assert!(outcome.logs.is_empty());
    }
    assert_eq!(ENGINE.language(), Language::Python);
    assert!(
        ENGINE.isolation().contains("landlock+seccomp"),
        "{}",
        ENGINE.isolation()
    );
}

#[tokio::test]
async fn print_is_one_log_per_call_as_print_formats_it() {
    let outcome = run(
        "print('a', 1, None, [1, 'x'])\nprint('b', 'c', sep='-')\nprint()\nprint({'k': 1.5})\nprint('multi\\nline')\nreturn 'done'",
    )
    .await;
    assert_eq!(value(&outcome), json!("done"));
    assert_eq!(
        outcome.logs,
        ["a 1 None [1, 'x']", "b-c", "", "{'k': 1.5}", "multi\nline"]
    );
}

#[tokio::test]
async fn the_bootstraps_type_hints_are_not_what_a_program_sees() {
    // bootstrap.py is typed for mypy; the functions a program reaches (print, a tool) carry
    // no annotations, as builtins do (`sys`, and with it the output stream, is not reachable).
    let host = TestHost::new();
    let outcome = run_with_tools(
        &host,
        &["echo"],
        "import typing\nreturn [print.__annotations__, tools.echo.__annotations__, typing.get_type_hints(tools.echo)]",
    )
    .await;
    assert_eq!(value(&outcome), json!([{}, {}, {}]));
}

#[tokio::test]
async fn tools_are_called_in_submission_order_and_gather_overlaps() {
    let host = TestHost::new();
    let started = Instant::now();
    let outcome = run_with_tools(
        &host,
        &["sleep", "echo", "odd-name"],
        "import asyncio\nfirst = tools.echo({'n': 1})\nsecond = tools['odd-name']({'n': 2})\nslow = [tools.sleep({'ms': 200, 'value': i}) for i in range(5)]\nvalues = await asyncio.gather(*slow)\nreturn [await first, await second, values]",
    )
    .await;
    assert_eq!(
        value(&outcome),
        json!([{"n": 1}, {"n": 2}, [0, 1, 2, 3, 4]])
    );
    assert_eq!(
        host.names(),
        [
            "echo", "odd-name", "sleep", "sleep", "sleep", "sleep", "sleep"
        ]
    );
    let max = host.max_in_flight.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(max, 5, "the five sleeps overlapped");
    assert!(
        started.elapsed() < Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_failed_call_raises_tool_call_error_with_the_tool_name() {
    let host = TestHost::new();
    let outcome = run_with_tools(
        &host,
        &["fail"],
        "try:\n    await tools.fail({'message': 'no such file'})\nexcept ToolCallError as e:\n    return [e.toolName, str(e), isinstance(e, Exception), e.code]",
    )
    .await;
    assert_eq!(
        value(&outcome),
        json!(["fail", "no such file", true, "TOOL_FAILED"])
    );
    // The host's code reaches the program as it is, `HOST_FAILED` included.
    let outcome = run_with_tools(
        &host,
        &["fail"],
        "try:\n    await tools.fail({'message': 'interrupted', 'code': 'HOST_FAILED'})\nexcept ToolCallError as e:\n    return [e.code, str(e)]",
    )
    .await;
    assert_eq!(value(&outcome), json!(["HOST_FAILED", "interrupted"]));
    // Uncaught, it fails the run with its line.
    let outcome = run_with_tools(
        &host,
        &["fail"],
        "print('before')\n\nawait tools.fail({'message': 'boom'})",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.starts_with("ToolCallError: boom"), "{message}");
    assert!(message.contains("line 3"), "{message}");
    assert_eq!(outcome.logs, ["before"]);
}

#[tokio::test]
async fn arguments_and_results_that_are_not_lossless_json_are_refused() {
    let host = TestHost::new();
    let outcome = run_with_tools(
        &host,
        &["echo", "unsafe_result"],
        r#"
messages = []
for bad in [{'t': (1, 2)}, {'x': float('nan')}, {'big': 2**60}, {'s': {1}}, {1: 'int key'}, {'b': b'x'}]:
    try:
        await tools.echo(bad)
    except ToolCallError as e:
        messages.append(str(e))
try:
    await tools.unsafe_result({})
except ToolCallError as e:
    messages.append(str(e))
return messages
"#,
    )
    .await;
    let messages = value(&outcome);
    let messages: Vec<&str> = messages
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 7, "{messages:?}");
    for (message, expected) in messages
        .iter()
        .zip(["$.t", "$.x", "$.big", "$.s", "$", "$.b"])
    {
        assert!(
            message.starts_with("the arguments are not lossless JSON: ")
                && message.contains(expected),
            "{message} should name {expected}"
        );
    }
    assert!(messages[6].contains("not lossless JSON"), "{}", messages[6]);
    // Nothing that failed the check reached the host.
    assert_eq!(host.names(), ["unsafe_result"]);
}

#[tokio::test]
async fn exceptions_syntax_errors_and_invalid_outputs_say_where() {
    let outcome = run("print('one')\ndef f(x):\n    return 1 / x\nreturn f(0)").await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.starts_with("ZeroDivisionError"), "{message}");
    assert!(
        message.contains("line 3") && message.contains("line 4"),
        "{message}"
    );
    assert!(!message.contains("bootstrap"), "{message}");
    assert_eq!(outcome.logs, ["one"]);

    let message = failure(&run("x = (1,\nreturn x").await, CodeRunErrorKind::Exception);
    assert!(message.starts_with("SyntaxError"), "{message}");
    assert!(message.contains("line 1"), "{message}");

    for (program, path) in [
        ("return (1, 2)", "$"),
        ("return {'a': {1, 2}}", "$.a"),
        ("return [float('inf')]", "$[0]"),
        ("return {'n': 2**64}", "$.n"),
        ("x = []\nx.append(x)\nreturn x", "$[0]"),
        ("class A: pass\nreturn A()", "$"),
    ] {
        let message = failure(&run(program).await, CodeRunErrorKind::InvalidOutput);
        assert!(
            message.starts_with("the return value is not lossless JSON: ")
                && message.contains(path),
            "{program}: {message}"
        );
    }
}

#[tokio::test]
async fn only_the_offered_modules_import_and_the_dangerous_builtins_are_absent() {
    let outcome = run(
        "import json, re, math, asyncio, collections.abc\nfrom datetime import date\nreturn [json.dumps([1]), math.floor(2.5), date(2020, 1, 2).isoformat()]",
    )
    .await;
    assert_eq!(value(&outcome), json!(["[1]", 2, "2020-01-02"]));
    for module in ["os", "subprocess", "socket", "ctypes", "sys.monitoring"] {
        let outcome = run(&format!("import {module}")).await;
        let message = failure(&outcome, CodeRunErrorKind::Exception);
        assert!(message.starts_with("ImportError"), "{module}: {message}");
    }
    for name in ["open", "input", "breakpoint", "help", "exit", "quit"] {
        let outcome = run(&format!("return {name}")).await;
        let message = failure(&outcome, CodeRunErrorKind::Exception);
        assert!(message.starts_with("NameError"), "{name}: {message}");
    }
}

#[tokio::test]
async fn negative_zero_and_over_large_arguments_are_refused_with_a_reason() {
    let host = TestHost::new();
    let outcome = run("return {'ok': 0.0, 'z': [-0.0]}").await;
    let message = failure(&outcome, CodeRunErrorKind::InvalidOutput);
    assert!(
        message.contains("$.z[0]: -0.0 is not JSON (JSON text would make it 0; use 0.0)"),
        "{message}"
    );
    let outcome = run_with_tools(
        &host,
        &["echo"],
        "try:\n    await tools.echo({'v': -0.0})\nexcept ToolCallError as e:\n    return str(e)",
    )
    .await;
    assert!(
        value(&outcome)
            .as_str()
            .unwrap()
            .contains("$.v: -0.0 is not JSON"),
        "{outcome:?}"
    );
    // An argument larger than the output cap crosses (the per-call cap is separate).
    let outcome = run_with_tools(
        &host,
        &["echo"],
        "back = await tools.echo({'v': 'x' * 3_000_000})\nreturn len(back['v'])",
    )
    .await;
    assert_eq!(value(&outcome), json!(3_000_000));
}

#[tokio::test]
async fn nested_values_cross_both_ways() {
    let host = TestHost::new();
    let outcome = run_with_tools(
        &host,
        &["echo"],
        "v = []\nfor _ in range(4998):\n    v = [v]\nback = await tools.echo({'v': v})\nd = 0\nx = back['v']\nwhile x:\n    x = x[0]\n    d += 1\nreturn d",
    )
    .await;
    assert_eq!(value(&outcome), json!(4998));
    // Deeper than the limit (runtime.max_json_depth, 5,000): refused in the worker with
    // the reason, not a broken frame.
    let outcome = run_with_tools(
        &host,
        &["echo"],
        "v = []\nfor _ in range(6000):\n    v = [v]\ntry:\n    await tools.echo({'v': v})\nexcept ToolCallError as e:\n    return str(e)",
    )
    .await;
    let message = value(&outcome);
    assert!(
        message.as_str().unwrap().contains("nest deeper than 5000"),
        "{message}"
    );
}

#[tokio::test]
async fn the_compute_budget_ends_loops_and_c_level_work_and_waiting_is_free() {
    let _cpu = crate::runtime::CPU.lock().await;
    let engine = engine_with(test_config().with_compute_ms(1_000).with_wall_ms(20_000));
    for program in [
        "while True: pass",
        "x = 10**10**8",
        "print('start')\nwhile True:\n    try:\n        pass\n    except BaseException:\n        pass",
    ] {
        let started = Instant::now();
        let outcome = engine.run(request(program, Vec::new())).await;
        let message = failure(&outcome, CodeRunErrorKind::Timeout);
        assert!(message.contains("compute budget"), "{message}");
        // Budget + the host's poll; slack for a loaded 2-core machine.
        assert!(
            started.elapsed() < Duration::from_millis(4_000),
            "{program}: {:?}",
            started.elapsed()
        );
    }
    let host = TestHost::new();
    let outcome = engine
        .run(request(
            "import asyncio\nawait tools.sleep({'ms': 1500})\nawait asyncio.sleep(0.6)\nreturn 'waited'",
            vec![tools(&host, &["sleep"])],
        ))
        .await;
    assert_eq!(value(&outcome), json!("waited"));
}

#[tokio::test]
async fn wall_budget_abort_memory_and_output_cap() {
    let engine = engine_with(
        test_config()
            .with_wall_ms(1_000)
            .with_heap_mb(64)
            .with_max_output_bytes(64 * 1024),
    );
    let outcome = engine
        .run(request(
            "import asyncio\nprint('waiting')\nawait asyncio.sleep(100)",
            Vec::new(),
        ))
        .await;
    assert!(failure(&outcome, CodeRunErrorKind::Timeout).contains("wall-time"));
    assert_eq!(outcome.logs, ["waiting"], "logs before the kill are kept");

    let cancel = tokio_util::sync::CancellationToken::new();
    let mut aborted = request("import asyncio\nawait asyncio.sleep(100)", Vec::new());
    aborted.signal = cancel.clone();
    let run = tokio::spawn({
        let engine = std::sync::Arc::new(engine);
        async move { engine.run(aborted).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    cancel.cancel();
    let outcome = tokio::time::timeout(Duration::from_secs(5), run)
        .await
        .unwrap()
        .unwrap();
    failure(&outcome, CodeRunErrorKind::Abort);

    let engine = engine_with(
        test_config()
            .with_heap_mb(64)
            .with_max_output_bytes(64 * 1024),
    );
    let outcome = engine
        .run(request("x = bytearray(10 * 1024**3)", Vec::new()))
        .await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.starts_with("MemoryError"), "{message}");
    let outcome = engine
        .run(request("while True:\n    print('x' * 1000)", Vec::new()))
        .await;
    failure(&outcome, CodeRunErrorKind::OutputLimit);
    assert!(!outcome.logs.is_empty(), "the logs that fit are kept");
}

#[tokio::test]
async fn every_run_starts_fresh() {
    let first = run("import json\njson.secret = 'left behind'\nglobal_state = 1\nreturn 1").await;
    assert_eq!(value(&first), json!(1));
    for _ in 0..3 {
        let outcome = run("import json\nreturn getattr(json, 'secret', None)").await;
        assert_eq!(outcome.value, None, "{outcome:?}");
    }
}

/// `codemode __python-worker --probe --probe-out FILE` (what CI checks confinement with):
/// the file holds the `confined` frame's JSON, one line, and standard output still has the
/// frame itself, length first.
#[test]
fn the_worker_probe_writes_its_result_to_a_file_too() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("probe.json");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args([
            "__python-worker",
            "--probe",
            "--heap-mb",
            "64",
            "--cpu-seconds",
            "5",
        ])
        .arg("--probe-out")
        .arg(&file)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let written = std::fs::read_to_string(&file).unwrap();
    let line = written
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("one line: {written:?}"));
    assert!(!line.contains('\n'), "{written:?}");
    let result: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(result["t"], "confined", "{result}");
    assert!(
        result["landlock"].is_string() && result["seccomp"].is_boolean(),
        "{result}"
    );
    // Standard output as before: the frame's length (4 bytes, little-endian), then its JSON.
    let (length, body) = output.stdout.split_at(4.min(output.stdout.len()));
    assert_eq!(body, line.as_bytes());
    assert_eq!(length, (body.len() as u32).to_le_bytes());

    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["__python-worker", "--probe-out", "x.json"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--probe-out is for --probe"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}
