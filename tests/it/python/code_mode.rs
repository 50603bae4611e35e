//! Python programs through Code Mode: the bridge's overlap limit and exclusive barrier,
//! the Python flavor of assembly, `codemode run FILE.py`, and the SDK's typed program run
//! against stub tools.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::code::{CodeMode, CodeModeConfig, PresentationMode, assemble};
use codemode::registry::Registry;
use codemode::runtime::CodeRuntime;
use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolOutput};
use serde_json::json;

use super::ENGINE;
use crate::cli::{codemode, stderr, stdout, workspace};
use crate::runtime::{TestHost, tools, value};

/// A registry in code mode with Python Code Mode on the shared engine, limit `limit`.
fn registry(limit: usize) -> Registry {
    let registry = Registry::new();
    let engine: Arc<dyn CodeRuntime> = ENGINE.clone();
    let config = CodeModeConfig::default()
        .with_mode(PresentationMode::Code)
        .with_max_parallel_sub_calls(limit);
    CodeMode::install(&registry, config)
        .and_then(|code| code.set_runtime(engine))
        .expect("Code Mode installs");
    registry
}

fn sleeper(name: &str, safe: bool) -> ToolDefinition {
    let builder = ToolDefinition::builder(name)
        .parameters(json!({"type": "object", "properties": {"ms": {"type": "number"}, "n": {}}}))
        .output(ToolOutput::any())
        .execute(|args, _| async move {
            let ms = args["ms"].as_u64().unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok(args["n"].clone())
        });
    let builder = if safe {
        builder.always_concurrency_safe()
    } else {
        builder
    };
    builder.build().unwrap()
}

async fn run_code(registry: &Registry, program: &str) -> Arc<codemode::tool::ToolExecutionResult> {
    registry
        .execute(ToolExecutionInput::new(
            "py-1",
            "run_code",
            json!({"code": program, "description": "a Python test program"}),
        ))
        .await
}

#[tokio::test]
async fn gather_overlaps_up_to_the_limit_and_exclusive_calls_run_alone_in_order() {
    let _cpu = crate::runtime::CPU.lock().await;
    let registry = registry(5);
    registry
        .global()
        .register(sleeper("nap", true))
        .unwrap()
        .keep();
    registry
        .global()
        .register(sleeper("write", false))
        .unwrap()
        .keep();
    let started = Instant::now();
    let result = run_code(
        &registry,
        "import asyncio\nout = await asyncio.gather(*[tools.nap({'ms': 50, 'n': i}) for i in range(20)])\nreturn sum(out)",
    )
    .await;
    let took = started.elapsed();
    assert_eq!(result.model_text(), "190");
    // 20 calls of 50 ms at limit 5: about 200 ms (slack for a loaded machine, and at
    // least the four rounds the limit allows).
    assert!(
        took >= Duration::from_millis(195) && took < Duration::from_millis(1_500),
        "{took:?}"
    );
    let result = run_code(
        &registry,
        "import asyncio\nout = await asyncio.gather(tools.write({'ms': 60, 'n': 'a'}), tools.nap({'ms': 0, 'n': 'b'}), tools.write({'ms': 0, 'n': 'c'}))\nreturn out",
    )
    .await;
    assert_eq!(result.model_text(), "[\n  \"a\",\n  \"b\",\n  \"c\"\n]");
}

#[tokio::test]
async fn denied_and_invalid_calls_raise_and_the_assembly_is_the_python_flavor() {
    let registry = registry(10);
    registry
        .global()
        .register(sleeper("nap", true))
        .unwrap()
        .keep();
    registry
        .global()
        .guard(|exec| (exec.arguments["n"] == json!("no")).then(|| "not that one".to_owned()))
        .keep();
    let result = run_code(
        &registry,
        "out = []\nfor args in [{'n': 'no'}, {'ms': float('nan')}]:\n    try:\n        await tools.nap(args)\n    except ToolCallError as e:\n        out.append(e.toolName + ': ' + str(e))\nreturn out",
    )
    .await;
    let text = result.model_text();
    assert!(
        text.contains("nap: the call to `nap` was denied by a guard: not that one"),
        "{text}"
    );
    assert!(
        text.contains("nap: the arguments are not lossless JSON: $.ms"),
        "{text}"
    );
    let assembly = assemble(&registry.global()).unwrap();
    let sdk = &assembly.section("tools:sdk").unwrap().text;
    assert!(sdk.contains("```python"), "{sdk}");
    assert!(assembly.tools[0].description.contains("asyncio.gather"));
    assert!(assembly.instructions().contains("Python SDK"));
}

#[tokio::test]
async fn a_big_integer_constant_is_declared_exactly_and_sent_as_a_float() {
    let registry = registry(10);
    registry
        .global()
        .register(
            ToolDefinition::builder("pick")
                .parameters(json!({
                    "type": "object",
                    "properties": {"n": {"type": "integer", "const": 1e21}},
                    "required": ["n"]
                }))
                .output(ToolOutput::any())
                .execute(|args, _| async move { Ok(json!(args["n"] == json!(1e21))) })
                .build()
                .unwrap(),
        )
        .unwrap()
        .keep();
    // The Python SDK declares the exact integer.
    let assembly = assemble(&registry.global()).unwrap();
    let sdk = &assembly.section("tools:sdk").unwrap().text;
    assert!(sdk.contains("n: Literal[1000000000000000000000]"), "{sdk}");
    // What a program sends: the float crosses as the same JSON number and is the constant;
    // the int is refused at the boundary (it would change as a JavaScript number).
    let result = run_code(
        &registry,
        "sent = await tools.pick({'n': 1e21})\n\
         try:\n    await tools.pick({'n': 10**21})\n    refused = ''\n\
         except ToolCallError as e:\n    refused = str(e)\n\
         return [sent, refused]",
    )
    .await;
    let value = result
        .value()
        .unwrap_or_else(|| panic!("{}", result.model_text()));
    assert_eq!(value["value"][0], json!(true), "{}", result.model_text());
    let refused = value["value"][1].as_str().unwrap_or_default();
    assert!(
        refused.contains("integer 1000000000000000000000 is outside"),
        "{refused}"
    );
}

#[test]
fn codemode_run_runs_python_by_extension_or_lang() {
    let dir = workspace();
    std::fs::write(
        dir.path().join("count.py"),
        "files = await tools.list_dir({'path': '.'})\nprint('listed')\nreturn len(files['entries']) > 0",
    )
    .unwrap();
    let output = codemode(dir.path(), &["run", "count.py"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "listed\ntrue\n");
    let output = codemode(
        dir.path(),
        &["run", "--lang", "python", "-"],
        "return 1 + 1\n",
    );
    assert_eq!(stdout(&output), "2\n", "{}", stderr(&output));
    let output = codemode(dir.path(), &["run", "-", "--lang", "python"], "1 / 0\n");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).starts_with("Error: code run failed (exception): ZeroDivisionError"),
        "{}",
        stdout(&output)
    );
    // TypeScript still runs as TypeScript.
    let output = codemode(dir.path(), &["run", "-"], "return [1, 2].length");
    assert_eq!(stdout(&output), "2\n", "{}", stderr(&output));
}

#[tokio::test]
async fn the_typed_sdk_program_of_every_corpus_runs_against_stub_tools() {
    for (name, path) in crate::sdk::CORPUS {
        let corpus = crate::sdk::compile::sorted(crate::sdk::fixture(path));
        let program = crate::sdk::compile::python_program(&corpus);
        // The program defines `_program`; run its body.
        let body = format!("{program}\nawait _program()\n");
        let members: Vec<&str> = corpus.iter().map(|tool| tool.name.as_str()).collect();
        let host = TestHost::new();
        let outcome = ENGINE
            .run(super::request(&body, vec![tools(&host, &members)]))
            .await;
        assert!(outcome.error.is_none(), "{name}: {:?}", outcome.error);
        assert_eq!(
            host.calls().len(),
            corpus.len(),
            "{name}: every tool was called"
        );
        let _ = value(&outcome);
    }
}

#[tokio::test]
async fn each_failure_reaches_a_python_program_with_its_code() {
    use crate::codemode::error_codes::{CASES, assert_codes, install_failing_tools};
    let _cpu = crate::runtime::CPU.lock().await;
    let registry = registry(10);
    install_failing_tools(&registry);
    let calls = CASES
        .iter()
        .map(|(tool, args, _)| format!("({tool:?}, lambda: tools.{tool}({args}))"))
        .collect::<Vec<_>>()
        .join(", ");
    let program = format!(
        "await tools.remove_gone({{}})\ncodes = {{}}\nfor name, call in [{calls}]:\n    try:\n        await call()\n        codes[name] = 'succeeded'\n    except ToolCallError as e:\n        codes[name] = e.code if e.toolName == name else str(e)\nreturn codes"
    );
    let result = run_code(&registry, &program).await;
    let value = result.value().expect("the program returns")["value"].clone();
    assert_codes(&value);
}

#[tokio::test]
async fn the_workers_own_refusal_of_arguments_is_invalid_args() {
    let _cpu = crate::runtime::CPU.lock().await;
    let registry = registry(10);
    crate::codemode::error_codes::install_failing_tools(&registry);
    let result = run_code(
        &registry,
        "try:\n    await tools.strict({'n': {1, 2}})\nexcept ToolCallError as e:\n    return [e.code, e.toolName]",
    )
    .await;
    let value = &result.value().expect("the program returns")["value"];
    assert_eq!(value, &json!(["INVALID_ARGS", "strict"]), "{value}");
}

#[tokio::test]
async fn a_host_runs_a_program_in_another_language_than_the_models_and_reads_its_outcome() {
    use codemode::code::Program;
    use codemode::runtime::Language;
    let _cpu = crate::runtime::CPU.lock().await;
    // Models are given TypeScript; the host also runs Python programs.
    let registry = Registry::new();
    let code = CodeMode::install(
        &registry,
        CodeModeConfig::default().with_mode(PresentationMode::Code),
    )
    .unwrap();
    let typescript: Arc<dyn CodeRuntime> = crate::codemode::ENGINE.clone();
    let python: Arc<dyn CodeRuntime> = ENGINE.clone();
    code.set_runtime(typescript).unwrap();
    code.add_runtime(python).unwrap();
    assert_eq!(
        code.language(),
        Some(codemode::runtime::Language::TypeScript)
    );
    registry
        .global()
        .register(sleeper("nap", true))
        .unwrap()
        .keep();
    let assembly = assemble(&registry.global()).unwrap();
    assert!(
        assembly.tools[0]
            .description
            .contains("Run a TypeScript program"),
        "models are given the default language"
    );

    let python_run = code
        .run_program(
            &registry.global(),
            Program::new("print('hi')\nreturn await tools.nap({'n': 3})", "python")
                .with_language(Language::Python),
            None,
        )
        .await
        .unwrap();
    assert_eq!(python_run.result.model_text(), "hi\n3");
    let outcome = python_run.outcome.expect("the program ran");
    assert_eq!(
        (outcome.logs, outcome.value),
        (vec!["hi".to_owned()], Some(json!(3)))
    );
    assert_eq!(python_run.sub_calls.len(), 1);

    // The default language is TypeScript; a program refused before it ran has no outcome.
    let typescript_run = code
        .run_program(
            &registry.global(),
            Program::new("return await tools.missing({})", "refused"),
            None,
        )
        .await
        .unwrap();
    assert!(typescript_run.result.is_error());
    assert!(typescript_run.outcome.is_none());

    // A language without a runtime is refused before anything runs.
    code.clear_runtime();
    code.set_runtime(crate::codemode::ENGINE.clone()).unwrap();
    let refused = code
        .run_program(
            &registry.global(),
            Program::new("return 1", "python").with_language(Language::Python),
            None,
        )
        .await
        .unwrap_err();
    assert_eq!(refused.code(), codemode::ErrorCode::InvalidConfig);
}
