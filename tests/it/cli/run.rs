//! `codemode run`: programs against the configured (or built-in) tools.

use serde_json::Value;

use super::{codemode, example, stderr, stdout, succeeded, workspace};

#[test]
fn the_example_counts_todo_markers_over_the_built_in_tools() {
    let dir = workspace();
    let output = codemode(dir.path(), &["run", &example("count-todos.ts")], "");
    assert_eq!(
        succeeded(&output),
        "5 markers in 2 files\n    3  src/lib.rs\n    2  src/main.rs\n"
    );
}

#[test]
fn parallel_reads_and_verbose_sub_call_lines() {
    let dir = workspace();
    let output = codemode(
        dir.path(),
        &["run", &example("longest-files.ts"), "--verbose"],
        "",
    );
    assert_eq!(
        succeeded(&output),
        "     4  src/lib.rs\n     4  src/main.rs\n"
    );
    let lines: Vec<String> = stderr(&output).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with("[run:code:1] glob ") && lines[0].ends_with(" ok"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .skip(1)
            .all(|l| l.contains(" read_file ") && l.ends_with(" ok")),
        "{lines:?}"
    );
}

#[test]
fn a_caught_tool_error_and_the_program_text_from_stdin() {
    let dir = workspace();
    let output = codemode(dir.path(), &["run", &example("recover.ts")], "");
    let text = succeeded(&output);
    assert!(text.starts_with("read_file refused: "), "{text}");
    assert!(
        text.ends_with("the working directory has 2 entries\n"),
        "{text}"
    );

    let piped = codemode(
        dir.path(),
        &["run", "-"],
        "const { total } = await tools.glob({pattern: '*.md'}); return total;",
    );
    assert_eq!(stdout(&piped), "1\n");
}

#[test]
fn a_failed_run_prints_the_failure_text_and_exits_1() {
    let dir = workspace();
    let output = codemode(
        dir.path(),
        &["run", "-"],
        "console.log('before'); throw new Error('bad idea');",
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.starts_with("Error: code run failed (exception): "),
        "{text}"
    );
    assert!(text.ends_with("\nCaptured output:\nbefore\n"), "{text}");
}

#[test]
fn usage_and_configuration_errors_exit_2_with_a_message() {
    let dir = workspace();
    let missing = codemode(dir.path(), &["run", "nope.ts"], "");
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("cannot read the program nope.ts"),
        "{}",
        stderr(&missing)
    );
    std::fs::write(
        dir.path().join("codemode.toml"),
        "mode = \"code\"\n[[tools]]\nnam = \"x\"\n",
    )
    .unwrap();
    let bad = codemode(dir.path(), &["run", "-"], "return 1");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("codemode.toml:3:1: unknown field `nam`"),
        "{}",
        stderr(&bad)
    );
    // Tool settings without the `[[mcp]]` entry they belong to.
    std::fs::write(
        dir.path().join("codemode.toml"),
        "[mcp.tools.write_file]\npolicy = \"deny\"\n",
    )
    .unwrap();
    let orphan = codemode(dir.path(), &["run", "-"], "return 1");
    assert_eq!(orphan.status.code(), Some(2));
    assert!(
        stderr(&orphan).contains("codemode.toml:1:2: `mcp` is a table here")
            && stderr(&orphan).contains("below the `[[mcp]]` entry of the server"),
        "{}",
        stderr(&orphan)
    );
}

#[test]
fn json_output_has_the_outer_result_and_the_sub_call_log() {
    let dir = workspace();
    let output = codemode(
        dir.path(),
        &["run", "-", "--json"],
        "const a = await tools.glob({pattern: '*.rs'}); return a.total;",
    );
    let json: Value = serde_json::from_str(&succeeded(&output)).expect("JSON output");
    assert_eq!(json["isError"], false);
    assert_eq!(json["text"], "2");
    assert_eq!(json["value"], serde_json::json!({"logs": [], "value": 2}));
    let call = &json["subCalls"][0];
    assert_eq!(call["id"], "run:code:1");
    assert_eq!(call["name"], "glob");
    assert_eq!(call["arguments"], serde_json::json!({"pattern": "*.rs"}));
    assert_eq!(call["mode"], "parallel");
    assert_eq!(call["isError"], false);
    assert!(call["endMs"].as_f64() >= call["startMs"].as_f64());
}

#[test]
fn json_lists_every_call_even_the_ones_the_run_abandoned() {
    let dir = workspace();
    let output = codemode(
        dir.path(),
        &["run", "-", "--json"],
        "for (let i = 0; i < 50; i++) tools.read_file({path: 'src/lib.rs'}); return 1",
    );
    let json: Value = serde_json::from_str(&succeeded(&output)).expect("JSON output");
    let calls = json["subCalls"].as_array().unwrap();
    let ids: Vec<&str> = calls.iter().map(|c| c["id"].as_str().unwrap()).collect();
    let expected: Vec<String> = (1..=50).map(|n| format!("run:code:{n}")).collect();
    assert_eq!(ids, expected);
    for call in calls {
        if call["startMs"].is_null() {
            assert_eq!(call["error"]["code"], "ABORTED_BEFORE_DISPATCH", "{call}");
            assert_eq!(call["mode"], Value::Null);
        } else {
            assert!(
                call["dispatchedMs"].as_f64() >= call["startMs"].as_f64(),
                "{call}"
            );
        }
    }
}

#[test]
fn the_configured_depth_and_call_caps_apply() {
    let dir = workspace();
    std::fs::write(
        dir.path().join("codemode.toml"),
        "[runtime]\nmax_json_depth = 50\nmax_call_bytes = 2048\n",
    )
    .unwrap();
    let deep = codemode(
        dir.path(),
        &["run", "-"],
        "let v: any = 1; for (let i = 0; i < 51; i++) v = [v]; return v",
    );
    assert_eq!(deep.status.code(), Some(1));
    assert!(
        stdout(&deep).contains("arrays and objects nest deeper than 50 levels"),
        "{}",
        stdout(&deep)
    );
    let fits = codemode(
        dir.path(),
        &["run", "-"],
        "let v: any = 1; for (let i = 0; i < 50; i++) v = [v]; return JSON.stringify(v).length",
    );
    assert_eq!(succeeded(&fits), "101\n");
    let big = codemode(
        dir.path(),
        &["run", "-"],
        "try { await tools.glob({pattern: 'x'.repeat(3000)}) } catch (e) { return e.message }",
    );
    assert!(
        succeeded(&big).contains("over the per-call limit"),
        "{}",
        stdout(&big)
    );
}

#[test]
fn trace_files_are_chrome_trace_events() {
    let dir = workspace();
    let trace = dir.path().join("trace.json");
    let output = codemode(
        dir.path(),
        &[
            "run",
            &example("longest-files.ts"),
            "--trace",
            trace.to_str().unwrap(),
        ],
        "",
    );
    succeeded(&output);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    let spans: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    assert_eq!(spans.len(), 4, "the run and its three sub-calls");
    assert!(
        spans
            .iter()
            .all(|e| e["ts"].is_u64() && e["dur"].as_u64() >= Some(1))
    );
    assert_eq!(spans.iter().filter(|e| e["name"] == "read_file").count(), 2);
}

#[test]
fn the_trace_draws_run_time_on_at_most_limit_lanes_and_queue_time_apart() {
    let dir = workspace();
    for n in 0..40 {
        std::fs::write(dir.path().join(format!("f{n}.rs")), "fn x() {}\n").unwrap();
    }
    let trace = dir.path().join("trace.json");
    let output = codemode(
        dir.path(),
        &[
            "run",
            &example("longest-files.ts"),
            "--json",
            "--trace",
            trace.to_str().unwrap(),
        ],
        "",
    );
    let json: Value = serde_json::from_str(&succeeded(&output)).expect("JSON output");
    let calls = json["subCalls"].as_array().unwrap();
    assert_eq!(calls.len(), 43, "the glob and 42 reads");
    for call in calls {
        let submitted = call["submittedMs"].as_f64().unwrap();
        let started = call["startMs"].as_f64().unwrap();
        let ended = call["endMs"].as_f64().unwrap();
        assert!(submitted <= started && started <= ended, "{call}");
    }
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    let lanes: std::collections::BTreeSet<u64> = events
        .iter()
        .filter(|e| e["ph"] == "X" && e["cat"] == "sub-call")
        .map(|e| e["tid"].as_u64().unwrap())
        .collect();
    assert!(
        !lanes.is_empty() && lanes.len() <= 10,
        "reads at the default limit of 10 overlap at most 10 wide: {lanes:?}"
    );
    let counters: Vec<&Value> = events.iter().filter(|e| e["ph"] == "C").collect();
    assert!(
        counters
            .iter()
            .all(|c| c["args"]["running"].as_i64() <= Some(10)),
        "{counters:?}"
    );
    let last = counters.last().expect("a queue counter");
    assert_eq!(last["args"], serde_json::json!({"queued": 0, "running": 0}));
}

#[test]
fn configured_command_tools_and_policies_apply() {
    let dir = workspace();
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/command-tools/add.py");
    std::fs::write(
        dir.path().join("codemode.toml"),
        format!(
            "[[tools]]\nname = \"add\"\ncommand = [\"python3\", {:?}]\n\
             parameters = {{ type = \"object\", properties = {{ a = {{ type = \"number\" }}, b = {{ type = \"number\" }} }}, required = [\"a\", \"b\"] }}\n\
             [policy]\nglob = \"deny\"\n",
            script.display().to_string()
        ),
    )
    .unwrap();
    let output = codemode(
        dir.path(),
        &["run", "-"],
        "const sum = await tools.add({a: 2, b: 3}); try { await tools.glob({pattern: '*'}); } catch (e) { console.log(e.message); } return sum;",
    );
    assert_eq!(
        succeeded(&output),
        "the call to `glob` was denied: the configuration denies this tool\n5\n"
    );
}

/// One program, then exit: the engine creates the one sandbox the program runs in, and no
/// warm pool (the engine logs each sandbox it creates at debug level).
#[test]
fn a_run_creates_exactly_one_sandbox() {
    let dir = workspace();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "-"])
        .current_dir(dir.path())
        .env("CODEMODE_LOG", "codemode::runtime::js::pool=debug")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            if let Some(mut input) = child.stdin.take() {
                input.write_all(b"return 6 * 7")?;
            }
            child.wait_with_output()
        })
        .expect("the command runs");
    assert_eq!(succeeded(&output), "42\n");
    let created = stderr(&output).matches("creating a sandbox").count();
    assert_eq!(created, 1, "{}", stderr(&output));
}

#[test]
fn the_configured_type_check_refuses_or_warns_and_a_bad_mode_names_its_place() {
    let dir = workspace();
    std::fs::write(
        dir.path().join("codemode.toml"),
        "[runtime]\ntypecheck = \"refuse\"\n",
    )
    .unwrap();
    let refused = codemode(
        dir.path(),
        &["run", "-"],
        "const r = await tools.read_file({ path: 1 });\nreturn r;",
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stdout(&refused).starts_with(
            "Error: code run failed (type-error): the program does not type-check against the SDK, so it did not run and no tool was called:\n1:35 - error TS2322: Type 'number' is not assignable to type 'string'.\n"
        ),
        "{}",
        stdout(&refused)
    );
    std::fs::write(
        dir.path().join("codemode.toml"),
        "[runtime]\ntypecheck = \"warn\"\n",
    )
    .unwrap();
    let warned = codemode(dir.path(), &["run", "-"], "const n: string = 5;\nreturn n;");
    assert_eq!(
        succeeded(&warned),
        "5\n\nType check (the program ran anyway):\n1:7 - error TS2322: Type 'number' is not assignable to type 'string'.\n"
    );
    std::fs::write(
        dir.path().join("codemode.toml"),
        "[runtime]\ntypecheck = \"strict\"\n",
    )
    .unwrap();
    let bad = codemode(dir.path(), &["run", "-"], "return 1");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains(
            "codemode.toml:2:13: unknown typecheck mode `strict` (expected `off`, `warn` or `refuse`)"
        ),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn json_records_at_most_max_sub_calls_and_says_how_many_it_left_out() {
    let dir = workspace();
    let program = "for (let i = 0; i < 5; i++) await tools.glob({pattern: '*.rs'}); return 'ok';";
    let output = codemode(
        dir.path(),
        &["run", "-", "--json", "--max-sub-calls", "3"],
        program,
    );
    let json: Value = serde_json::from_str(&succeeded(&output)).expect("JSON output");
    let ids: Vec<&str> = json["subCalls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|call| call["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["run:code:1", "run:code:2", "run:code:3"]);
    assert_eq!(json["subCallsDropped"], 2);
    assert!(
        stderr(&output).contains(
            "the run made 5 sub-calls; --json and --trace hold the first 3 (--max-sub-calls)"
        ),
        "{}",
        stderr(&output)
    );
    // Without --json or --trace nothing is recorded, and nothing is said about it.
    let output = codemode(dir.path(), &["run", "-"], program);
    assert_eq!(succeeded(&output), "ok\n");
    assert_eq!(stderr(&output), "");
    // Under the cap nothing is said and nothing left out.
    let output = codemode(dir.path(), &["run", "-", "--json"], program);
    let json: Value = serde_json::from_str(&succeeded(&output)).expect("JSON output");
    assert_eq!(json["subCalls"].as_array().unwrap().len(), 5);
    assert!(json.get("subCallsDropped").is_none());
    assert_eq!(stderr(&output), "");
}

/// What is checked only when the host is built names its place in the file too.
#[test]
fn configuration_errors_found_while_building_name_file_line_and_column() {
    let dir = workspace();
    let cases = [
        (
            "[policy]\nread_file = \"allow\"\nraed_file = \"deny\"\n",
            "codemode: codemode.toml:3:1: a policy names `raed_file` but no such tool is configured",
        ),
        (
            "[[tools]]\nname = \"grep\"\ncommand = [\"true\"]\n",
            "codemode: codemode.toml:2:8: the command tool `grep` has the name of a built-in tool",
        ),
        (
            "[builtin]\nroot = \"missing\"\n",
            "codemode: codemode.toml:2:8: the built-in tools' root `./missing` cannot be used: ",
        ),
        (
            "[policy]\nread_file = \"sometimes\"\n",
            "codemode: codemode.toml:2:13: unknown variant `sometimes`, expected one of `allow`, `deny`, `ask`",
        ),
        (
            "[runtime]\nlanguage = \"ruby\"\n",
            "codemode: codemode.toml:2:12: unknown runtime language `ruby` (expected `typescript` or `python`)",
        ),
    ];
    for (config, expected) in cases {
        std::fs::write(dir.path().join("codemode.toml"), config).unwrap();
        for args in [&["run", "-"][..], &["tools"][..]] {
            let output = codemode(dir.path(), args, "return 1");
            assert_eq!(output.status.code(), Some(2), "{config}");
            assert!(
                stderr(&output).starts_with(expected),
                "{args:?} {config}: {}",
                stderr(&output)
            );
        }
    }
}

/// `codemode run` has no one to ask: an `ask` tool is denied, and the denial says how to
/// allow it in the file the configuration came from.
#[test]
fn an_ask_tool_is_denied_with_how_to_allow_it() {
    let dir = workspace();
    std::fs::create_dir(dir.path().join("conf")).unwrap();
    std::fs::write(
        dir.path().join("conf/cm.toml"),
        "[builtin]\nroot = \"..\"\n[policy]\nread_file = \"ask\"\n",
    )
    .unwrap();
    let output = codemode(
        dir.path(),
        &["run", "-", "--config", "conf/cm.toml"],
        "try { await tools.read_file({path: 'notes.md'}); } catch (e) { console.log(e.message); }\nreturn 1;",
    );
    assert_eq!(
        succeeded(&output),
        "the call to `read_file` needs approval (the configuration asks for approval of this tool), \
         but `codemode run` has no one to ask; to allow the tool, set `read_file = \"allow\"` in the `[policy]` table of conf/cm.toml\n1\n"
    );
}

/// `--help` says what `run` runs: TypeScript, and Python for `.py` files.
#[test]
fn help_says_run_runs_typescript_and_python() {
    let dir = workspace();
    let help = succeeded(&codemode(dir.path(), &["--help"], ""));
    let run = help
        .lines()
        .find(|line| line.trim_start().starts_with("run "))
        .unwrap_or_default();
    assert!(run.contains("TypeScript or Python program"), "{help}");
    let help = succeeded(&codemode(dir.path(), &["run", "--help"], ""));
    assert!(
        help.contains("a TypeScript or Python (`.py`) file"),
        "{help}"
    );
}

/// The command links no libpython and looks for no interpreter until a Python program runs:
/// with nothing on `PATH`, a TypeScript program runs, and a Python program fails with an
/// error that names `[runtime] python` and what to install (exit 2: a configuration error).
#[test]
fn typescript_needs_no_python_and_python_names_the_setting_when_none_is_found() {
    let dir = workspace();
    std::fs::write(dir.path().join("p.ts"), "return 6 * 7").unwrap();
    std::fs::write(dir.path().join("p.py"), "return 6 * 7").unwrap();
    let run = |file: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_codemode"))
            .args(["run", file])
            .current_dir(dir.path())
            .env_clear()
            .env("PATH", dir.path().join("no-such-dir"))
            .output()
            .expect("the command runs")
    };
    assert_eq!(succeeded(&run("p.ts")), "42\n");
    let python = run("p.py");
    assert_eq!(python.status.code(), Some(2), "{}", stdout(&python));
    let message = stderr(&python);
    assert!(
        message.contains("`[runtime] python` is `python3`"),
        "{message}"
    );
    assert!(message.contains("not on PATH"), "{message}");
    assert!(message.contains("CPython 3.10 or later"), "{message}");
}
