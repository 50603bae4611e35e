//! The type check before a run (`typecheck = "warn" | "refuse"`): TypeScript's own compiler,
//! in the engine, checks the program against the scope's SDK declarations. `refuse` stops a
//! program with an error before any tool is called; `warn` runs it and appends the
//! diagnostics; a check that runs out of its budget lets the program run unchecked.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use codemode::ErrorCode;
use codemode::code::{CodeMode, CodeModeConfig, PresentationMode, TypeCheck};
use codemode::registry::{Registry, RegistryConfig};
use codemode::runtime::CodeRuntime;
use codemode::runtime::js::typecheck::CheckerConfig;
use codemode::tool::{ToolDefinition, ToolOutput};
use serde_json::json;

use super::{ENGINE, run_program, text};

/// A registry presenting in `code` with the type check in `mode`, and `list_issues`
/// (typed arguments and result) and `create_issue`, counting their calls.
fn checked_registry(mode: TypeCheck, checker: CheckerConfig) -> (Registry, Arc<AtomicUsize>) {
    let registry = Registry::with_config(
        RegistryConfig::default().with_cancel_grace(Duration::from_millis(500)),
    );
    let engine: Arc<dyn CodeRuntime> = ENGINE.clone();
    let config = CodeModeConfig::default()
        .with_mode(PresentationMode::Code)
        .with_typecheck(mode)
        .with_checker(checker);
    CodeMode::install(&registry, config)
        .and_then(|code| code.set_runtime(engine))
        .expect("run_code installs");
    let calls = Arc::new(AtomicUsize::new(0));
    let list_issues = {
        let calls = calls.clone();
        ToolDefinition::builder("list_issues")
            .description("List the issues of a repository.")
            .parameters(json!({
                "type": "object",
                "properties": {
                    "repo": {"type": "string"},
                    "state": {"enum": ["open", "closed"]},
                    "limit": {"type": "integer"}
                },
                "required": ["repo"]
            }))
            .output(ToolOutput::json(codemode::schema::JsonSchema::parse(&json!({
                "type": "object",
                "properties": {
                    "total": {"type": "integer"},
                    "items": {"type": "array", "items": {
                        "type": "object",
                        "properties": {"number": {"type": "integer"}, "title": {"type": "string"}},
                        "required": ["number", "title"]
                    }}
                },
                "required": ["total", "items"]
            })).expect("the output schema is valid")))
            .execute(move |_, _| {
                let calls = calls.clone();
                async move {
                    calls.fetch_add(1, Ordering::SeqCst);
                    Ok(json!({"total": 1, "items": [{"number": 7, "title": "Crash"}]}))
                }
            })
            .build()
            .expect("list_issues builds")
    };
    let create_issue = {
        let calls = calls.clone();
        ToolDefinition::builder("create_issue")
            .description("Open an issue.")
            .parameters(json!({
                "type": "object",
                "properties": {"repo": {"type": "string"}, "title": {"type": "string"}},
                "required": ["repo", "title"]
            }))
            .output(ToolOutput::any())
            .execute(move |_, _| {
                let calls = calls.clone();
                async move {
                    calls.fetch_add(1, Ordering::SeqCst);
                    Ok(json!({"number": 8}))
                }
            })
            .build()
            .expect("create_issue builds")
    };
    for tool in [list_issues, create_issue] {
        registry.global().register(tool).expect("registers").keep();
    }
    (registry, calls)
}

/// A program whose check takes seconds, ending with `last`: recursive conditional types
/// building template-literal unions of 8^6 members, ten times over (seconds of checking
/// under Node's V8, more on QuickJS).
fn checker_bomb(last: &str) -> String {
    let mut bomb = String::new();
    for i in 0..10 {
        bomb.push_str(&format!(
            "type U{i} = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h';\n\
             type S{i}<N extends unknown[], A extends string = ''> = N['length'] extends 6 ? A : S{i}<[...N, 0], `${{A}}${{U{i}}}`>;\n\
             const x{i}: S{i}<[]> = 0 as any;\n"
        ));
    }
    bomb.push_str(last);
    bomb
}

/// What `refuse` says for a program whose diagnostics are `listed`.
fn refused(listed: &str) -> String {
    format!(
        "Error: code run failed (type-error): the program does not type-check against the SDK, so it did not run and no tool was called:\n{listed}"
    )
}

#[tokio::test]
async fn refuse_stops_each_kind_of_mistake_before_any_call_with_its_position() {
    let (registry, calls) = checked_registry(TypeCheck::Refuse, CheckerConfig::default());
    // The same programs without the mistakes run: the check passes what works.
    let result = run_program(
        &registry,
        "const open = await tools.list_issues({ repo: 'a/b', state: 'open' });\n\
         const [first] = await Promise.all([tools.list_issues({ repo: 'a/b' })]);\n\
         try { await tools.create_issue({ repo: 'a/b', title: 'x' }); } catch (e) { console.log(e.message); }\n\
         await new Promise((resolve) => setTimeout(resolve, 1));\n\
         const n: number = open.total + first.items.length;\n\
         return open.items.map((issue) => issue.title.toUpperCase()).join(',') + n;",
    )
    .await;
    assert_eq!(text(&result), "CRASH2", "{result:?}");
    assert_eq!(calls.swap(0, Ordering::SeqCst), 3);

    // The static check does not see a tool reached through another name; the compiler does.
    let cases: [(&str, &str); 5] = [
        (
            "const t = tools;\nawait t.list_issuez({ repo: 'a/b' });",
            "2:9 - error TS2551: Property 'list_issuez' does not exist on type",
        ),
        (
            "await tools.create_issue({ repo: 'a/b', title: 'x' });\nawait tools.list_issues({ state: 'open' });",
            "2:25 - error TS2345: Argument of type '{ state: \"open\"; }' is not assignable to parameter of type",
        ),
        (
            "await tools.list_issues({ repo: 42 });",
            "1:27 - error TS2322: Type 'number' is not assignable to type 'string'.",
        ),
        (
            "const open = await tools.list_issues({ repo: 'a/b' });\nreturn open.total.toUpperCase();",
            "2:19 - error TS2339: Property 'toUpperCase' does not exist on type 'number'.",
        ),
        (
            "const open = tools.list_issues({ repo: 'a/b' });\nreturn open.items.length;",
            "2:13 - error TS2339: Property 'items' does not exist on type 'Promise<",
        ),
    ];
    for (program, expected) in cases {
        let result = run_program(&registry, program).await;
        let failure = result.failure_info().expect("refused");
        assert_eq!(failure.code, ErrorCode::CodeRunFailed, "{program}");
        let model_text = result.model_text();
        assert!(
            model_text.starts_with(&refused(expected)),
            "{program}\n{model_text}"
        );
        assert_eq!(calls.load(Ordering::SeqCst), 0, "no tool ran: {program}");
    }
    // The forgotten `await` is named as such, and the unknown member's nearest name.
    let result = run_program(
        &registry,
        "const open = tools.list_issues({ repo: 'a/b' });\nreturn open.items.length;",
    )
    .await;
    assert!(
        result
            .model_text()
            .contains("Did you forget to use 'await'?"),
        "{}",
        result.model_text()
    );
    let result = run_program(
        &registry,
        "const t = tools;\nawait t.list_issuez({ repo: 'a/b' });",
    )
    .await;
    assert!(
        result.model_text().contains("Did you mean 'list_issues'?"),
        "{}",
        result.model_text()
    );

    // At most ten are listed, and how many more there were.
    let many: String = (0..12)
        .map(|_| "await tools.list_issues({ repo: 1 });\n")
        .collect();
    let result = run_program(&registry, &many).await;
    let model_text = result.model_text();
    assert_eq!(
        model_text.matches("error TS2322").count(),
        10,
        "{model_text}"
    );
    assert!(
        model_text.ends_with("\n... and 2 more errors"),
        "{model_text}"
    );
    assert!(
        model_text.contains("\n10:27 - error TS2322"),
        "{model_text}"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn warn_runs_the_program_and_appends_what_the_compiler_found() {
    let (registry, calls) = checked_registry(TypeCheck::Warn, CheckerConfig::default());
    let result = run_program(
        &registry,
        "const open = await tools.list_issues({ repo: 'a/b' });\nconst total: string = open.total;\nreturn total;",
    )
    .await;
    assert_eq!(
        text(&result),
        "1\n\nType check (the program ran anyway):\n2:7 - error TS2322: Type 'number' is not assignable to type 'string'."
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    // A failing run carries the note after its failure.
    let result = run_program(
        &registry,
        "const open = await tools.list_issues({ repo: 'a/b' });\nreturn open.total.toUpperCase();",
    )
    .await;
    let model_text = result.model_text();
    assert!(
        model_text.starts_with("Error: code run failed (exception): TypeError: "),
        "{model_text}"
    );
    assert!(
        model_text.ends_with(
            "\n\nType check (the program ran anyway):\n2:19 - error TS2339: Property 'toUpperCase' does not exist on type 'number'."
        ),
        "{model_text}"
    );
    // A program without errors gets no note.
    let result = run_program(
        &registry,
        "return (await tools.list_issues({ repo: 'a/b' })).total;",
    )
    .await;
    assert_eq!(text(&result), "1");
}

#[tokio::test]
async fn a_check_past_its_budget_lets_the_program_run_unchecked_and_says_so() {
    let (registry, calls) = checked_registry(
        TypeCheck::Refuse,
        CheckerConfig::default().with_check_ms(300),
    );
    // The checker starts (its start-up budget is separate) and checks a small program.
    let result = run_program(
        &registry,
        "return (await tools.list_issues({ repo: 'a/b' })).total;",
    )
    .await;
    assert_eq!(text(&result), "1");
    let bomb = checker_bomb("return (await tools.list_issues({ repo: 'a/b' })).total;");
    let started = std::time::Instant::now();
    let result = run_program(&registry, &bomb).await;
    assert_eq!(
        text(&result),
        "1\n\nType check: not done (the type check took longer than its budget of 300 ms); the program ran unchecked."
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    // The next check has a fresh checker.
    let result = run_program(&registry, "await tools.list_issues({ repo: 5 });").await;
    assert!(
        result
            .model_text()
            .starts_with(&refused("1:27 - error TS2322")),
        "{}",
        result.model_text()
    );
}

#[tokio::test]
async fn a_long_check_never_delays_the_check_of_other_declarations() {
    // One registry's program keeps its checker busy for seconds; another registry (other
    // tools, so other declarations, on a checker of the same kind) checks meanwhile.
    let (slow, _) = checked_registry(TypeCheck::Refuse, CheckerConfig::default());
    let quick = Registry::new();
    let engine: Arc<dyn CodeRuntime> = ENGINE.clone();
    CodeMode::install(
        &quick,
        CodeModeConfig::default()
            .with_mode(PresentationMode::Code)
            .with_typecheck(TypeCheck::Refuse),
    )
    .and_then(|code| code.set_runtime(engine))
    .expect("run_code installs");
    super::add_value_tool(&quick, "echo", true);
    // Warm both checkers.
    assert_eq!(text(&*run_program(&slow, "return 1;").await), "1");
    assert_eq!(text(&*run_program(&quick, "return 2;").await), "2");
    let bomb = checker_bomb("return 'slow';");
    let slow_run = tokio::spawn(async move { text(&*run_program(&slow, &bomb).await) });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = std::time::Instant::now();
    let quick_result = run_program(&quick, "return (await tools.echo({ value: 3 }));").await;
    let quick_took = started.elapsed();
    assert_eq!(text(&quick_result), "3");
    assert!(
        !slow_run.is_finished(),
        "the slow check was still running when the other one answered"
    );
    assert!(quick_took < Duration::from_secs(5), "{quick_took:?}");
    // (Whether the slow check finished within its own budget does not matter here.)
    assert!(slow_run.await.unwrap().starts_with("slow"));
}

#[tokio::test]
async fn the_type_check_knows_the_store() {
    let (registry, _calls) = checked_registry(TypeCheck::Refuse, CheckerConfig::default());
    let good = run_program(
        &registry,
        "try {\n\
           const kept = await store.get<number[]>('n');\n\
           await store.set('n', [...(kept ?? []), 1]);\n\
           const removed: boolean = await store.delete('x');\n\
           const keys: string[] = await store.keys();\n\
         } catch (e) { if (e instanceof StoreError && e.code === 'NO_SESSION') return e.operation; }",
    )
    .await;
    assert_eq!(text(&good), "get", "{}", text(&good));
    let bad = run_program(
        &registry,
        "await store.set(1, 2);\nconst keys: number[] = await store.keys();\nconst n: number = await store.delete('k');",
    )
    .await;
    let said = text(&bad);
    assert!(said.contains("1:17 - error TS2345"), "{said}");
    assert!(said.contains("2:7 - error TS2322"), "{said}");
    assert!(said.contains("3:7 - error TS2322"), "{said}");
}
