//! Temporary: proves the engine links.
/// Evaluates `source` in a fresh deno_core runtime and returns its JSON value.
pub fn eval_json(source: &'static str) -> Result<serde_json::Value, String> {
    let mut rt = deno_core::JsRuntime::new(Default::default());
    let value = rt
        .execute_script("<smoke>", source)
        .map_err(|e| e.to_string())?;
    deno_core::scope!(scope, rt);
    let local = deno_core::v8::Local::new(scope, value);
    deno_core::serde_v8::from_v8(scope, local).map_err(|e| e.to_string())
}
