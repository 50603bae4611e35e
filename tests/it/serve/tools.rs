//! `tools/list` in each mode and `tools/call` of native tools and `run_code`, over stdio and
//! over streamable HTTP.

use codemode::code::{assemble, run_code_description};
use codemode::config::Config;
use codemode::host::Host;
use codemode::runtime::Language;
use serde_json::{Value, json};

use super::{Workspace, call, is_error, run_code, steps, text, tool_names};

/// The assembly the server should present for the workspace's configuration, built
/// in-process from the same file.
fn expected_assembly(workspace: &Workspace) -> codemode::code::Assembly {
    let config = Config::load(&workspace.path().join("codemode.toml")).expect("the config loads");
    let host = Host::builder(config)
        .build_local()
        .expect("the tools register");
    assemble(&host.registry().global()).expect("the assembly")
}

fn tool<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {list}"))
}

/// The workspace's tools in name order: its command tools and the built-in file tools.
const CONFIGURED_TOOLS: [&str; 7] = [
    "add",
    "crash",
    "glob",
    "grep",
    "hang",
    "list_dir",
    "read_file",
];

#[test]
fn native_mode_lists_every_tool_with_its_schemas_and_calls_them_directly() {
    let workspace = Workspace::new("mode = \"native\"");
    let report = workspace.drive(json!({
        "steps": [
            {"op": "list"},
            call("read_file", json!({"path": "hello.txt"})),
            call("add", json!({"a": 2, "b": 3})),
            call("add", json!({"a": 2})),
            call("nope", json!({})),
            call("run_code", json!({"code": "return 1", "description": "x"})),
            call("crash", json!({})),
            call("add", json!({"a": 1, "b": 1})),
        ]
    }));
    let steps = steps(&report);
    let list = &steps[0];
    assert_eq!(tool_names(list), CONFIGURED_TOOLS);
    let expected = expected_assembly(&workspace);
    for schema in &expected.tools {
        let listed = tool(list, &schema.name);
        assert_eq!(listed["description"], json!(schema.description));
        assert_eq!(listed["inputSchema"], schema.parameters, "{}", schema.name);
    }
    // Object-rooted output schemas are advertised; `add` returns a number, so it has none.
    let read_output = &tool(list, "read_file")["outputSchema"];
    assert_eq!(read_output["type"], "object", "{list}");
    assert!(tool(list, "add").get("outputSchema").is_none(), "{list}");

    let read = &steps[1];
    assert!(!is_error(read), "{read}");
    assert_eq!(text(read), "     1\thello\n     2\tworld");
    assert_eq!(read["structuredContent"]["total_lines"], 2, "{read}");

    let add = &steps[2];
    assert_eq!(text(add), "5");
    assert!(add.get("structuredContent").is_none(), "{add}");

    let invalid = &steps[3];
    assert!(is_error(invalid));
    assert!(
        text(invalid).starts_with("Error: invalid arguments:\n- $.b: "),
        "{invalid}"
    );
    assert_eq!(invalid["_meta"]["codemode/errorCode"], "INVALID_ARGS");

    assert_eq!(text(&steps[4]), "Error: unknown tool `nope`");
    assert_eq!(steps[4]["_meta"]["codemode/errorCode"], "UNKNOWN_TOOL");
    // No run_code in native mode.
    assert_eq!(text(&steps[5]), "Error: unknown tool `run_code`");
    let crash = &steps[6];
    assert!(is_error(crash));
    assert!(
        text(crash).contains("boom: the widget is missing"),
        "{crash}"
    );
    // The server keeps serving after failures.
    assert_eq!(text(&steps[7]), "2");

    let info = &report["initialize"];
    assert_eq!(info["serverInfo"]["name"], "codemode");
    assert_eq!(info["capabilities"]["tools"]["listChanged"], true);
}

#[test]
fn code_mode_lists_exactly_run_code_carrying_the_sdk() {
    let workspace = Workspace::new("mode = \"code\"");
    let report = workspace
        .drive(json!({"steps": [{"op": "list"}, call("read_file", json!({"path": "hello.txt"}))]}));
    let list = &steps(&report)[0];
    assert_eq!(tool_names(list), ["run_code"]);
    let expected = expected_assembly(&workspace);
    let sections: Vec<&str> = expected.sections.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        expected.sections.iter().map(|s| s.id).collect::<Vec<_>>(),
        ["tools:code-only", "tools:sdk"]
    );
    let description = format!(
        "{}\n\n{}",
        run_code_description(Language::TypeScript),
        sections.join("\n\n")
    );
    let run_code_tool = tool(list, "run_code");
    assert_eq!(run_code_tool["description"], json!(description));
    assert!(description.contains("interface ToolArgsMap"));
    assert!(description.contains("read_file: {"));
    assert_eq!(run_code_tool["inputSchema"], expected.tools[0].parameters);
    assert!(run_code_tool.get("outputSchema").is_none());
    // In pure Code Mode a direct call of a native tool is unknown.
    assert_eq!(
        text(&steps(&report)[1]),
        "Error: unknown tool `read_file` (in Code Mode, call tools from a run_code program)"
    );
    assert!(
        report["initialize"]["instructions"]
            .as_str()
            .is_some_and(|i| i.contains("run_code")),
        "{report}"
    );
}

#[test]
fn both_mode_lists_the_tools_and_run_code_with_the_sdk() {
    let workspace = Workspace::new("mode = \"both\"");
    let report = workspace.drive(json!({"steps": [{"op": "list"}]}));
    let list = &steps(&report)[0];
    assert_eq!(
        tool_names(list),
        [&CONFIGURED_TOOLS[..], &["run_code"]].concat()
    );
    let expected = expected_assembly(&workspace);
    assert_eq!(
        expected.sections.iter().map(|s| s.id).collect::<Vec<_>>(),
        ["tools:sdk"]
    );
    let description = tool(list, "run_code")["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(
        description,
        format!(
            "{}\n\n{}",
            run_code_description(Language::TypeScript),
            expected.sections[0].text
        )
    );
    assert!(tool(list, "read_file").get("outputSchema").is_some());
}

/// The program texts the run_code tests use: a success over the built-in tools, a program
/// that throws after printing, one whose sub-call fails uncaught, and one that catches it.
const READS: &str = "const r = await tools.read_file({path: 'hello.txt'});\nconst g = await tools.grep({pattern: 'TODO'});\nconsole.log(r.content.split('\\n').length, 'lines');\nreturn {total: r.total_lines, matches: g.matches.length};";
const THROWS: &str = "console.log('before'); throw new Error('bad idea');";
const SUB_CALL_FAILS: &str =
    "console.log('reading'); await tools.read_file({path: '../outside.txt'});";
const CATCHES: &str =
    "try { await tools.add({a: 1}); } catch (e) { return `caught ${e.name} from ${e.toolName}`; }";

fn check_run_code_results(workspace: &Workspace, results: &[Value]) {
    // Each text is byte for byte what `codemode run` prints for the same program.
    for (program, result) in [READS, THROWS, SUB_CALL_FAILS, CATCHES].iter().zip(results) {
        assert_eq!(
            text(result),
            workspace.codemode_run(program),
            "program: {program}\nresult: {result}"
        );
    }
    let reads = &results[0];
    assert!(!is_error(reads), "{reads}");
    assert_eq!(
        text(reads),
        "3 lines\n{\n  \"total\": 2,\n  \"matches\": 1\n}"
    );
    assert!(reads.get("structuredContent").is_none(), "{reads}");

    let throws = &results[1];
    assert!(is_error(throws));
    assert!(
        text(throws).starts_with("Error: code run failed (exception): "),
        "{throws}"
    );
    assert!(text(throws).contains("bad idea"), "{throws}");
    assert!(
        text(throws).ends_with("\nCaptured output:\nbefore"),
        "{throws}"
    );
    assert_eq!(throws["_meta"]["codemode/errorCode"], "CODE_RUN_FAILED");

    let sub = &results[2];
    assert!(is_error(sub));
    assert!(
        text(sub).starts_with("Error: code run failed (exception): "),
        "{sub}"
    );
    assert!(
        text(sub).contains("leads outside the workspace root"),
        "{sub}"
    );
    assert!(text(sub).ends_with("\nCaptured output:\nreading"), "{sub}");

    let caught = &results[3];
    assert!(!is_error(caught), "{caught}");
    assert_eq!(text(caught), "caught ToolCallError from add");
    // The server kept serving: the last step succeeded again.
    assert_eq!(text(&results[4]), text(&results[0]));
}

fn run_code_plan() -> Value {
    json!({"steps": [run_code(READS), run_code(THROWS), run_code(SUB_CALL_FAILS), run_code(CATCHES), run_code(READS)]})
}

#[test]
fn run_code_over_stdio_returns_the_model_text_and_the_spec_failure_texts() {
    let workspace = Workspace::new("mode = \"code\"");
    let report = workspace.drive(run_code_plan());
    check_run_code_results(&workspace, steps(&report));
}

#[test]
fn over_http_the_same_lists_and_calls() {
    let workspace = Workspace::new("mode = \"both\"");
    let mut plan = run_code_plan();
    plan["transport"] = json!("http");
    let steps_in = plan["steps"].as_array_mut().expect("steps");
    steps_in.insert(0, json!({"op": "list"}));
    steps_in.push(call("read_file", json!({"path": "hello.txt"})));
    let report = workspace.drive(plan);
    let url = report["url"].as_str().unwrap_or_default();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{report}"
    );
    let all = steps(&report);
    assert!(tool_names(&all[0]).contains(&"run_code"));
    assert!(tool_names(&all[0]).contains(&"read_file"));
    check_run_code_results(&workspace, &all[1..6]);
    assert_eq!(text(&all[6]), "     1\thello\n     2\tworld");
    assert_eq!(all[6]["structuredContent"]["total_lines"], 2);
}

#[test]
fn a_cancelled_call_cancels_the_tool_and_the_session_goes_on() {
    let workspace = Workspace::new("mode = \"both\"");
    let report = workspace.drive(json!({"steps": [
        {"op": "cancel_call", "name": "hang", "arguments": {}, "after": 1.0},
        {"op": "sleep", "seconds": 3.0},
        call("add", json!({"a": 1, "b": 2})),
        {"op": "cancel_call", "name": "run_code", "after": 1.0,
         "arguments": {"code": "await tools.hang({}); return 'never';", "description": "hangs"}},
        {"op": "sleep", "seconds": 3.0},
        call("add", json!({"a": 2, "b": 2})),
    ]}));
    let all = steps(&report);
    assert_eq!(all[0]["cancelled"], true, "{report}");
    // The command (and the grandchild it started) were killed: no marker after 2 s.
    assert!(
        !workspace.path().join("hang-marker").exists(),
        "the hung command outlived the cancellation"
    );
    assert_eq!(text(&all[2]), "3");
    assert_eq!(all[3]["cancelled"], true, "{report}");
    assert!(
        !workspace.path().join("hang-marker").exists(),
        "the hung sub-call outlived the cancellation"
    );
    assert_eq!(text(&all[5]), "4");
}

#[test]
fn with_python_configured_the_server_serves_the_python_flavor_and_runs_python() {
    let workspace = Workspace::new("mode = \"code\"\n[runtime]\nlanguage = \"python\"");
    let report = workspace.drive(json!({"steps": [
        {"op": "list"},
        run_code("files = await tools.list_dir({'path': '.'})\nprint('seen')\nreturn len(files['entries']) > 0"),
    ]}));
    let list = &steps(&report)[0];
    assert_eq!(tool_names(list), ["run_code"]);
    let description = tool(list, "run_code")["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        description.starts_with(run_code_description(Language::Python)),
        "{description}"
    );
    assert!(description.contains("```python"), "{description}");
    assert!(
        report["initialize"]["instructions"]
            .as_str()
            .is_some_and(|i| i.contains("Python SDK")),
        "{report}"
    );
    assert_eq!(text(&steps(&report)[1]), "seen\ntrue");
}
