//! The schema layer: one vocabulary for tool arguments, tool outputs and structured output.
//!
//! - [`JsonSchema`]: the *enforced raw subset* of JSON Schema. [`JsonSchema::parse`] is the
//!   spec's `assertSupportedJsonSchema` (it rejects every unsupported keyword and invalid
//!   combination, reporting every offending path at once), [`JsonSchema::validate`] is
//!   `validateJsonSchemaValue`, [`JsonSchema::assert_object`] the object-root assertion.
//! - [`StructuredOutputSchema`]: the narrower structured-output subset (object root, a
//!   `type` on every node, no `oneOf`), loud outside it (`UNSUPPORTED_SCHEMA`), with a
//!   total, path-qualified validator.
//! - [`ValueSchema`] and [`ParameterSchema`]: the author-facing DSL, compiled to the
//!   enforced subset.
//! - [`Typed`]: serde types checked against those schemas, for typed tools.
//!
//! Validation never applies defaults. Schemas may nest as deep as values do (subschemas
//! [`DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH) levels below the root, or the
//! limit a `_within` function is given: a registry's
//! [`DepthLimit`](crate::json::DepthLimit)); parsing, compiling, validating, copying,
//! comparing and dropping them keep their own stacks on the heap, so no depth reaches the
//! thread's stack. This module must not know about tools or the registry.

mod dsl;
mod model;
mod output;
mod subset;
mod typed;
mod validate;

#[cfg(test)]
mod deep_tests;
#[cfg(test)]
mod proptests;

pub use dsl::{ParameterSchema, PropertySpec, ValueSchema};
pub use model::JsonType;
pub use output::StructuredOutputSchema;
pub use subset::{JsonSchema, ObjectJsonSchema};
pub use typed::Typed;

use std::fmt;

use crate::error::{Error, ErrorCode};

/// One way a value fails a schema: where, and what is wrong.
///
/// ```
/// use codemode::schema::JsonSchema;
/// let schema = JsonSchema::parse(&serde_json::json!({"type": "string"})).unwrap();
/// let violations = schema.validate(&serde_json::json!(3));
/// assert_eq!(violations[0].to_string(), "$: expected string, got integer");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Where in the value (`$.a[0]`).
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// One way a schema is outside the supported subset: where in the schema (a JSON Pointer
/// fragment such as `#/properties/a/items`), and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaIssue {
    /// Where in the schema.
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for SchemaIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

/// A schema was refused: every issue found, in document order. Its code is
/// `UNSUPPORTED_SCHEMA`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", render_issues(.issues))]
pub struct SchemaError {
    /// Every issue found (never empty).
    pub issues: Vec<SchemaIssue>,
}

fn render_issues(issues: &[SchemaIssue]) -> String {
    let mut text = format!(
        "unsupported schema ({} issue{}):",
        issues.len(),
        if issues.len() == 1 { "" } else { "s" }
    );
    for issue in issues {
        text.push_str("\n- ");
        text.push_str(&issue.to_string());
    }
    text
}

impl From<SchemaError> for Error {
    fn from(err: SchemaError) -> Self {
        Error::new(ErrorCode::UnsupportedSchema, err.to_string())
    }
}

/// Whether any subschema of `schema` — any JSON Schema, not only the enforced subset —
/// sits more than `limit` levels below the root: the rule a registry applies, with its
/// value-depth limit, to the schemas of every tool registered in it. A level is one step
/// through a keyword that holds schemas (`properties/<name>`, `items`, `prefixItems/<i>`,
/// `additionalProperties`, `allOf`/`anyOf`/`oneOf/<i>`, `not`, `$defs/<name>`, ...);
/// data (`enum`, `const`, `default`, `examples`) adds none. Walked with a stack of its
/// own.
///
/// ```
/// use codemode::schema::nests_deeper;
/// let schema = serde_json::json!({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "null"}]}}});
/// assert!(!nests_deeper(&schema, 2));
/// assert!(nests_deeper(&schema, 1));
/// ```
pub fn nests_deeper(schema: &crate::json::JsonValue, limit: usize) -> bool {
    use crate::json::JsonValue;
    let mut pending = vec![(schema, 0usize)];
    while let Some((node, depth)) = pending.pop() {
        if depth > limit {
            return true;
        }
        let Some(map) = node.as_object() else {
            continue;
        };
        let below = depth + 1;
        for (key, value) in map {
            match (key.as_str(), value) {
                (
                    "items" | "prefixItems" | "allOf" | "anyOf" | "oneOf",
                    JsonValue::Array(schemas),
                ) => pending.extend(schemas.iter().map(|schema| (schema, below))),
                (
                    "properties" | "patternProperties" | "$defs" | "definitions"
                    | "dependentSchemas",
                    JsonValue::Object(schemas),
                ) => pending.extend(schemas.values().map(|schema| (schema, below))),
                (
                    "items"
                    | "additionalItems"
                    | "additionalProperties"
                    | "unevaluatedItems"
                    | "unevaluatedProperties"
                    | "contains"
                    | "propertyNames"
                    | "not"
                    | "if"
                    | "then"
                    | "else",
                    schema,
                ) => pending.push((schema, below)),
                _ => {}
            }
        }
    }
    false
}

/// How deep the JSON of a schema may nest where nothing but its numbers is checked (a
/// tool's parameters, when it is built): two JSON levels per level of subschemas (a
/// keyword's array or object, then the subschema) up to the highest value-depth limit,
/// and data inside as deep again. Where the schema is registered, its levels of
/// subschemas are checked against the registry's limit ([`nests_deeper`]).
pub(crate) const SCHEMA_JSON_DEPTH: usize = 3 * crate::json::MAX_DEPTH_CEILING + 1;

/// Turns violations into an error with `code` whose message lists every violation.
///
/// `subject` names what was checked, e.g. "arguments" or "output".
pub(crate) fn violations_error(code: ErrorCode, subject: &str, violations: &[Violation]) -> Error {
    let mut text = format!("invalid {subject}:");
    for violation in violations {
        text.push_str("\n- ");
        text.push_str(&violation.to_string());
    }
    Error::new(code, text)
}

/// Validates tool arguments: `Err` with code `INVALID_ARGS` listing every violation.
///
/// ```
/// use codemode::schema::{validate_args, ParameterSchema, ValueSchema};
/// let params = ParameterSchema::new()
///     .required("path", ValueSchema::string())
///     .optional("limit", ValueSchema::integer())
///     .compile()
///     .unwrap();
/// let err = validate_args(&params, &serde_json::json!({"limit": 1.5})).unwrap_err();
/// assert_eq!(err.code(), codemode::ErrorCode::InvalidArgs);
/// assert_eq!(err.message(), "invalid arguments:\n- $.path: required property is missing\n- $.limit: expected integer, got number");
/// ```
///
/// # Errors
///
/// As [`validate_args_within`] with [`DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH).
pub fn validate_args(schema: &JsonSchema, args: &crate::json::JsonValue) -> Result<(), Error> {
    validate_args_within(schema, args, crate::json::DEFAULT_MAX_DEPTH)
}

/// [`validate_args`] with the arguments' nesting bounded by `limit` levels (a registry's
/// [`DepthLimit`](crate::json::DepthLimit)).
///
/// # Errors
///
/// [`ErrorCode::InvalidArgs`] (`invalid arguments:` then one `- <path>: <violation>` line
/// each) when `args` violates `schema` or nests deeper than `limit`.
pub fn validate_args_within(
    schema: &JsonSchema,
    args: &crate::json::JsonValue,
    limit: usize,
) -> Result<(), Error> {
    check_within(schema, args, limit, ErrorCode::InvalidArgs, "arguments")
}

/// Validates a tool's output value: `Err` with code `INVALID_TOOL_OUTPUT` listing every
/// violation.
///
/// # Errors
///
/// As [`validate_output_within`] with [`DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH).
pub fn validate_output(schema: &JsonSchema, value: &crate::json::JsonValue) -> Result<(), Error> {
    validate_output_within(schema, value, crate::json::DEFAULT_MAX_DEPTH)
}

/// [`validate_output`] with the value's nesting bounded by `limit` levels (a registry's
/// [`DepthLimit`](crate::json::DepthLimit)).
///
/// # Errors
///
/// [`ErrorCode::InvalidToolOutput`] (`invalid tool output:` then one `- <path>: <violation>`
/// line each) when `value` violates `schema` or nests deeper than `limit`.
pub fn validate_output_within(
    schema: &JsonSchema,
    value: &crate::json::JsonValue,
    limit: usize,
) -> Result<(), Error> {
    check_within(
        schema,
        value,
        limit,
        ErrorCode::InvalidToolOutput,
        "tool output",
    )
}

/// `value` validated against `schema` within `limit` levels: `Err` with `code` listing
/// every violation of the `subject`.
fn check_within(
    schema: &JsonSchema,
    value: &crate::json::JsonValue,
    limit: usize,
    code: ErrorCode,
    subject: &str,
) -> Result<(), Error> {
    let violations = schema.validate_within(value, limit);
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations_error(code, subject, &violations))
    }
}
