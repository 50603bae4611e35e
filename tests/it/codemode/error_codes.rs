//! A failed tool call reaches the program with its stable code (`e.code`), one case for
//! each code a sub-call can carry ([`codemode::code::SUB_CALL_CODES`]); the Python flavor
//! runs the same cases (`python::code_mode`).

use std::sync::Arc;
use std::time::Duration;

use codemode::code::{PresentationMode, SUB_CALL_CODES};
use codemode::registry::{Disposer, Registry};
use codemode::schema::{JsonSchema, ParameterSchema, ValueSchema};
use codemode::tool::{PostToolDecision, PreToolDecision, ToolDefinition, ToolOutput};
use codemode::{ContentBlock, ErrorCode};
use parking_lot::Mutex;
use serde_json::{Value, json};

use super::{registry, run_program};

/// Each tool, the arguments it is called with (JSON text: a TypeScript object and a Python
/// dict alike) and the code the call fails with. `HOST_FAILED` (the host could not carry
/// the call) has no pipeline case: the runtime tests answer calls with it directly.
pub const CASES: [(&str, &str, &str); 10] = [
    ("strict", r#"{"n": "x"}"#, "INVALID_ARGS"),
    ("bad_output", "{}", "INVALID_TOOL_OUTPUT"),
    ("gone", "{}", "UNKNOWN_TOOL"),
    ("denied", "{}", "TOOL_DENIED"),
    ("guarded", "{}", "GUARD_DENIED"),
    ("asks", "{}", "APPROVAL_DENIED"),
    ("blocked", "{}", "RESULT_BLOCKED"),
    ("failing", "{}", "TOOL_FAILED"),
    ("slow", "{}", "TOOL_TIMEOUT"),
    ("listener_bug", "{}", "LISTENER_FAILED"),
];

fn tool(name: &str) -> codemode::tool::ToolBuilder {
    ToolDefinition::builder(name)
        .description(format!("The {name} tool."))
        .output(ToolOutput::any())
        .always_concurrency_safe()
}

/// Registers the tools of [`CASES`] (and `remove_gone`, which unregisters `gone`: a tool
/// the SDK offered that is gone when the program calls it) and the policies that fail
/// them.
pub fn install_failing_tools(registry: &Registry) {
    let global = registry.global();
    let keep = |disposer: Result<Disposer, codemode::Error>| disposer.expect("registers").keep();
    #[derive(serde::Deserialize)]
    struct Strict {
        n: i64,
    }
    keep(
        global.register(
            codemode::tool::define_tool::<Strict, i64>("strict")
                .description("Takes an integer.")
                .parameters(ParameterSchema::new().required("n", ValueSchema::integer()))
                .output(ValueSchema::integer(), |_, n| {
                    vec![ContentBlock::text(n.to_string())]
                })
                .concurrency_safe(|_| true)
                .execute(|args, _| async move { Ok(args.n) })
                .build()
                .unwrap(),
        ),
    );
    keep(
        global.register(
            tool("bad_output")
                .output(ToolOutput::new(
                    JsonSchema::parse(&json!({"type": "integer"})).unwrap(),
                    |_, value| vec![ContentBlock::text(value.to_string())],
                ))
                .execute(|_, _| async { Ok(json!("not a number")) })
                .build()
                .unwrap(),
        ),
    );
    let gone = Arc::new(Mutex::new(Some(
        global
            .register(
                tool("gone")
                    .execute(|_, _| async { Ok(json!(1)) })
                    .build()
                    .unwrap(),
            )
            .unwrap(),
    )));
    keep(
        global.register(
            tool("remove_gone")
                .execute(move |_, _| {
                    let gone = gone.clone();
                    async move {
                        if let Some(disposer) = gone.lock().take() {
                            disposer.dispose();
                        }
                        Ok(json!(null))
                    }
                })
                .build()
                .unwrap(),
        ),
    );
    for name in ["denied", "guarded", "asks", "blocked", "listener_bug"] {
        keep(
            global.register(
                tool(name)
                    .execute(|_, _| async { Ok(json!(1)) })
                    .build()
                    .unwrap(),
            ),
        );
    }
    keep(
        global.register(
            tool("failing")
                .execute(|_, _| async {
                    Err(codemode::Error::new(
                        ErrorCode::ToolFailed,
                        "the disk is full",
                    ))
                })
                .build()
                .unwrap(),
        ),
    );
    keep(global.register(
        tool("slow")
            .timeout_ms(50.0)
            .execute(|_, ctx| async move {
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_secs(30)) => Ok(json!(1)),
                    () = ctx.signal().cancelled() => Err(codemode::Error::new(ErrorCode::Aborted, "stopped")),
                }
            })
            .build()
            .unwrap(),
    ));
    global
        .on_pre_execute(|exec, next| async move {
            match exec.name.as_str() {
                "denied" => Ok(PreToolDecision::Deny {
                    reason: "not today".into(),
                }),
                "asks" => Ok(PreToolDecision::Ask {
                    reason: Some("it writes".into()),
                }),
                // A listener's bug (an error it returns keeps its own code).
                "listener_bug" => panic!("a listener's bug"),
                _ => next.run().await,
            }
        })
        .keep();
    global
        .guard(|exec| (exec.name == "guarded").then(|| "not for programs".to_owned()))
        .keep();
    global
        .on_post_execute(|exec, _, next| async move {
            if exec.name == "blocked" {
                return Ok(PostToolDecision::Block {
                    feedback: vec![ContentBlock::text("too much")],
                    additional_contexts: vec![],
                });
            }
            next.run().await
        })
        .keep();
}

/// The `{tool: code}` a program reported, checked against [`CASES`].
pub fn assert_codes(value: &Value) {
    let expected: serde_json::Map<String, Value> = CASES
        .iter()
        .map(|(tool, _, code)| ((*tool).to_owned(), json!(code)))
        .collect();
    assert_eq!(value, &Value::Object(expected));
    let declared: Vec<&str> = SUB_CALL_CODES.iter().map(|code| code.as_str()).collect();
    for (_, _, code) in CASES {
        assert!(declared.contains(&code), "{code} is not declared");
    }
}

#[tokio::test]
async fn each_failure_reaches_a_typescript_program_with_its_code() {
    let registry = registry(PresentationMode::Code, 10);
    install_failing_tools(&registry);
    let calls = CASES
        .iter()
        .map(|(tool, args, _)| format!("[{tool:?}, () => tools.{tool}({args})]"))
        .collect::<Vec<_>>()
        .join(", ");
    let program = format!(
        r#"
        await tools.remove_gone({{}});
        const codes = {{}};
        for (const [name, call] of [{calls}]) {{
          try {{
            await call();
            codes[name] = "succeeded";
          }} catch (e) {{
            codes[name] = e instanceof ToolCallError && e.toolName === name ? e.code : String(e);
          }}
        }}
        return codes;
        "#
    );
    let result = run_program(&registry, &program).await;
    let value = result.value().expect("the program returns")["value"].clone();
    assert_codes(&value);
}

#[tokio::test]
async fn the_engines_own_refusal_of_arguments_is_invalid_args() {
    let registry = registry(PresentationMode::Code, 10);
    install_failing_tools(&registry);
    let result = run_program(
        &registry,
        "try { await tools.strict({n: 10n}); } catch (e) { return [e.code, e.message]; }",
    )
    .await;
    let value = &result.value().expect("the program returns")["value"];
    assert_eq!(value[0], "INVALID_ARGS", "{value}");
}
