//! The default engine links and evaluates a script.

#[test]
fn deno_core_evaluates_a_script_on_the_default_engine() {
    let value = codemode::engine_smoke::eval_json(
        "({sum: [1, 2, 3].reduce((a, b) => a + b, 0), s: 'x'.repeat(3)})",
    )
    .expect("the engine evaluates a script");
    assert_eq!(value, serde_json::json!({"sum": 6, "s": "xxx"}));
}
