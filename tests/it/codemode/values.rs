//! Values crossing `run_code` both ways: lossless or refused with the path, intermediate
//! values not capped by the outer result's cap, and deep values without recursion.

use std::sync::Arc;

use codemode::code::{CodeMode, CodeModeConfig, PresentationMode};
use codemode::registry::Registry;
use codemode::runtime::{CodeRuntime, EngineConfig, JsEngine};
use serde_json::json;

use super::{add_value_tool, registry, run_program, text};

fn echo_registry() -> Registry {
    let registry = registry(PresentationMode::Code, 10);
    add_value_tool(&registry, "echo", true);
    registry
}

#[tokio::test]
async fn negative_zero_is_refused_like_every_value_json_cannot_carry() {
    let registry = echo_registry();
    let result = run_program(
        &registry,
        "try { await tools.echo({value: {v: -0}}); } catch (e) { return e.message }",
    )
    .await;
    assert_eq!(
        text(&result),
        "the arguments are not lossless JSON: $.value.v: -0 is not JSON (JSON text would make it 0; use 0)"
    );
    let result = run_program(&registry, "return {ok: 0, z: [-0]}").await;
    assert!(
        text(&result).contains("the return value is not lossless JSON: $.z[0]: -0 is not JSON"),
        "{}",
        text(&result)
    );
    // 0 itself is fine, and so is -0 the program keeps to itself.
    let result = run_program(&registry, "const z = -0; return Object.is(z, -0) ? 0 : 1").await;
    assert_eq!(text(&result), "0");
}

#[tokio::test]
async fn a_lone_surrogate_is_refused_naming_its_path() {
    let registry = echo_registry();
    let result = run_program(
        &registry,
        r#"try { await tools.echo({value: {s: "ok \ud800 no"}}); } catch (e) { return e.message }"#,
    )
    .await;
    assert_eq!(
        text(&result),
        "the arguments are not lossless JSON: $.value.s: a string with a lone surrogate (U+D800 at index 3) is not UTF-8 text"
    );
    // A key's problem names the object holding it.
    let result = run_program(&registry, r#"return {a: {["k\udc00"]: 1}}"#).await;
    assert!(
        text(&result).contains("$.a: a key with a lone surrogate (U+DC00 at index 1)"),
        "{}",
        text(&result)
    );
    // A pair is one character and crosses both ways.
    let result = run_program(
        &registry,
        r#"return (await tools.echo({value: "\ud83d\ude00"})) === "😀""#,
    )
    .await;
    assert_eq!(text(&result), "true");
}

/// A registry whose engine caps the outer result at 200,000 bytes and each call's
/// arguments at `call_bytes`.
fn capped(call_bytes: u64) -> Registry {
    let registry = Registry::new();
    let engine: Arc<dyn CodeRuntime> = Arc::new(
        JsEngine::new(
            EngineConfig::default()
                .with_max_output_bytes(200_000)
                .with_max_call_bytes(call_bytes)
                .with_warm_pool(0),
        )
        .unwrap(),
    );
    CodeMode::install(
        &registry,
        CodeModeConfig::default().with_mode(PresentationMode::Code),
    )
    .and_then(|code| code.set_runtime(engine))
    .unwrap();
    add_value_tool(&registry, "echo", true);
    registry
}

#[tokio::test]
async fn intermediate_values_are_not_capped_by_the_outer_results_cap() {
    let program = "const big = 'x'.repeat(5_000_000); const back = await tools.echo({value: big}); return back.length";
    let result = run_program(&capped(64 << 20), program).await;
    assert_eq!(text(&result), "5000000");
    // The separate per-call cap (runtime.max_call_bytes) refuses that call alone.
    let result = run_program(
        &capped(1 << 20),
        &format!("try {{ {program} }} catch (e) {{ return e.message }}"),
    )
    .await;
    assert_eq!(
        text(&result),
        "the arguments are over the per-call limit: their JSON text is longer than 1048576 bytes (runtime.max_call_bytes)"
    );
    // The cap is in UTF-8 bytes: 400,000 three-byte characters are 1.2 MB of JSON text.
    let result = run_program(
        &capped(1 << 20),
        "try { await tools.echo({value: '語'.repeat(400_000)}); return 'crossed' } catch (e) { return e.message }",
    )
    .await;
    assert_eq!(
        text(&result),
        "the arguments are over the per-call limit: their JSON text is 1200012 bytes, more than 1048576 (runtime.max_call_bytes)"
    );
}

/// Runs `f` on a runtime whose threads have the command's 16 MiB of stack: room for
/// serde_json's own recursive drop of deep values (as the README tells hosts), far too
/// little for a recursion per level in the library's walks over 5,000 levels in a debug
/// build.
fn on_command_stacks(f: impl FnOnce(tokio::runtime::Runtime) + Send + 'static) {
    const STACK: usize = 16 << 20;
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_stack_size(STACK)
                .enable_all()
                .build()
                .unwrap();
            f(runtime);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn values_5000_levels_deep_cross_a_tool_call_both_ways_and_are_returned() {
    on_command_stacks(|runtime| {
        runtime.block_on(async {
            let registry = echo_registry();
            // The arguments `{value: v}` nest 5,000 levels; the result 4,999; the returned
            // value 5,000.
            let result = run_program(
                &registry,
                "let v: any = 1; for (let i = 0; i < 4999; i++) v = i % 2 ? [v] : {k: v};\n\
                 const back = await tools.echo({value: v});\n\
                 let depth = 0; for (let x: any = back; typeof x === 'object'; x = Array.isArray(x) ? x[0] : x.k) depth++;\n\
                 return [depth === 4999 ? 'ok' : depth, back];",
            )
            .await;
            let value = codemode::json::deep_clone(result.value().unwrap_or_else(|| {
                panic!("{}", &text(&result)[..2000.min(text(&result).len())])
            }));
            let returned = &value["value"];
            assert_eq!(returned[0], json!("ok"), "{}", text(&result).len());
            assert!(text(&result).starts_with("[\n  \"ok\",\n  {\n"));
            codemode::json::check_lossless(returned).unwrap();
            codemode::json::dispose(value);
            // One level more is refused with the limit and the path, shortened.
            let result = run_program(
                &registry,
                "let v: any = 1; for (let i = 0; i < 5001; i++) v = [v]; return v",
            )
            .await;
            let message = text(&result);
            assert!(message.contains("...(4900 steps)..."), "{message}");
            assert!(message.ends_with("arrays and objects nest deeper than 5000 levels"));
        });
    });
}

#[test]
fn deep_values_render_as_text_linear_in_their_depth() {
    on_command_stacks(|runtime| {
        runtime.block_on(async {
            // A returned value of 5,000 levels: 4,998 arrays around a two-level leaf.
            let registry = echo_registry();
            let result = run_program(
                &registry,
                "let v: any = {emptyArray: [], emptyObject: {}, pair: ['leaf', 2], record: {first: true, second: null}};\n\
                 for (let i = 0; i < 4998; i++) v = [v];\n\
                 return v;",
            )
            .await;
            let shown = text(&result);
            assert!(!result.is_error(), "{}", &shown[..shown.len().min(2000)]);
            assert!(shown.starts_with("[\n  [\n    ["), "{}", &shown[..200]);
            assert!(shown.contains("\"pair\":[\"leaf\",2]"), "compact deep down");
            assert!(shown.ends_with("\n]"));
            // Upstream's bound for this case; an indented line per level would be 120 KB.
            assert!(shown.len() < 11_000, "{} characters", shown.len());

            // A tool's default rendering of a deep value is the same text.
            let native = super::registry(PresentationMode::Native, 10);
            add_value_tool(&native, "echo", true);
            let mut value = json!({"leaf": [1]});
            for _ in 0..4998 {
                value = serde_json::Value::Array(vec![value]);
            }
            let result = native
                .execute(codemode::tool::ToolExecutionInput::new(
                    "c",
                    "echo",
                    json!({ "value": value }),
                ))
                .await;
            let shown = text(&result);
            assert!(!result.is_error(), "{}", &shown[..shown.len().min(2000)]);
            let inner = 4998 - 5;
            let expected = format!(
                "[\n  [\n    [\n      [\n        [\n          {}{{\"leaf\":[1]}}{}\n        ]\n      ]\n    ]\n  ]\n]",
                "[".repeat(inner),
                "]".repeat(inner)
            );
            assert!(shown == expected, "{}", &shown[..200]);
        });
    });
}
