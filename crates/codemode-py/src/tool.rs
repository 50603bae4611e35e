//! A Python function as a codemode tool.
//!
//! The Python half describes the function (`codemode._hints.tool_spec`: name, description,
//! input and output schemas) and wraps it in an adapter (`codemode._bridge`) that turns the
//! JSON arguments into the function's keyword arguments and its return value into JSON,
//! answering `{"value": ...}` or `{"code": ..., "message": ...}` (a Python exception in the
//! tool is `TOOL_FAILED` with `ExcType: message`). This module builds the
//! [`ToolDefinition`]: the schemas checked against the enforced subset when the tool is
//! registered, the arguments validated against the input schema before Python is entered
//! (a raw definition validates its own input; the pipeline does not), the output schema
//! enforced by the pipeline, the timeout and the scheduling class.
//!
//! This module owns the mapping of a Python tool onto a definition; it must not know how
//! Python is entered (see [`crate::pycall`]).

use std::sync::Arc;

use codemode::schema::{JsonSchema, validate_args_within};
use codemode::tool::{ToolDefinition, ToolOutput};
use codemode::{Error, ErrorCode, JsonValue};

use crate::pycall::{CallArg, PyFn};

/// What the Python half says about a tool.
#[derive(Debug)]
pub(crate) struct ToolSpec {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) input_schema: JsonValue,
    pub(crate) output_schema: Option<JsonValue>,
    pub(crate) timeout_ms: Option<f64>,
    pub(crate) parallel: bool,
    pub(crate) invoke: PyFn,
}

/// The definition of `spec`, its schemas checked within `depth` levels.
///
/// # Errors
///
/// `UNSUPPORTED_SCHEMA` when a schema is outside the enforced subset (every issue with its
/// pointer), `INVALID_DEFINITION` for what the builder refuses (name, timeout).
pub(crate) fn definition(spec: ToolSpec, depth: usize) -> Result<ToolDefinition, Error> {
    let name = spec.name;
    let input = JsonSchema::parse_within(&spec.input_schema, depth).map_err(|err| {
        Error::new(
            ErrorCode::UnsupportedSchema,
            format!("the input schema of tool `{name}` is not supported: {err}"),
        )
    })?;
    let output = match &spec.output_schema {
        None => ToolOutput::any(),
        Some(schema) => {
            ToolOutput::json(JsonSchema::parse_within(schema, depth).map_err(|err| {
                Error::new(
                    ErrorCode::UnsupportedSchema,
                    format!("the output schema of tool `{name}` is not supported: {err}"),
                )
            })?)
        }
    };
    let input = Arc::new(input);
    let invoke = spec.invoke;
    let tool_name = name.clone();
    let mut builder = ToolDefinition::builder(name)
        .description(spec.description)
        .parameters(spec.input_schema)
        .output(output)
        .execute(move |args, ctx| {
            let input = input.clone();
            let invoke = invoke.clone();
            let tool_name = tool_name.clone();
            async move {
                validate_args_within(&input, &args, ctx.value_depth().get())?;
                let execution = ctx.execution();
                let answer = invoke
                    .call(&execution.root_call_id, CallArg::Data(args), ctx.signal())
                    .await
                    .map_err(|message| Error::new(ErrorCode::ToolFailed, message))?;
                read_answer(&tool_name, answer)
            }
        });
    if let Some(ms) = spec.timeout_ms {
        builder = builder.timeout_ms(ms);
    }
    if spec.parallel {
        builder = builder.always_concurrency_safe();
    }
    builder.build()
}

/// The adapter's answer: `{"value": v}` is the tool's value, `{"code", "message"}` its
/// failure.
fn read_answer(tool: &str, answer: JsonValue) -> Result<JsonValue, Error> {
    let JsonValue::Object(mut answer) = answer else {
        return Err(malformed(tool));
    };
    if let Some(value) = answer.remove("value") {
        return Ok(value);
    }
    let code = answer
        .get("code")
        .and_then(JsonValue::as_str)
        .and_then(|code| code.parse::<ErrorCode>().ok())
        .unwrap_or(ErrorCode::ToolFailed);
    match answer.get("message").and_then(JsonValue::as_str) {
        Some(message) => Err(Error::new(code, message)),
        None => Err(malformed(tool)),
    }
}

fn malformed(tool: &str) -> Error {
    Error::new(
        ErrorCode::ToolFailed,
        format!("codemode's adapter of `{tool}` answered neither a value nor an error"),
    )
}
