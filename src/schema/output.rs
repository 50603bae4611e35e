//! The structured-output subset: an object-rooted, deliberately narrow schema for callers
//! that demand a machine-readable value (a subagent's or workflow's forced output).

use crate::error::{Error, ErrorCode};
use crate::json::{DEFAULT_MAX_DEPTH, JsonValue};

use super::subset::{Dialect, JsonSchema, parse_dialect};
use super::{SchemaIssue, Violation};

/// An object-rooted schema inside the structured-output subset: single-string `type` on
/// every node, `properties`/`required`/`additionalProperties` (boolean; every required key
/// declared), `items`, scalar-only `enum`/`const`, and the annotations `description`,
/// `title`, `default`, `examples` (ignored, but lossless JSON). Everything else — `oneOf`,
/// type arrays, `pattern`, `$ref`, ... — is refused loudly, because accepting a keyword the
/// validator does not enforce would validate less than the schema promises.
///
/// ```
/// use codemode::schema::StructuredOutputSchema;
/// use serde_json::json;
/// let schema = StructuredOutputSchema::parse(&json!({
///     "type": "object",
///     "properties": {"score": {"type": "integer"}},
///     "required": ["score"]
/// })).unwrap();
/// assert!(schema.validate(&json!({"score": 3})).is_empty());
/// assert_eq!(schema.validate(&json!({}))[0].to_string(), "$.score: required property is missing");
///
/// let err = StructuredOutputSchema::parse(&json!({"type": "string"})).unwrap_err();
/// assert_eq!(err.code(), codemode::ErrorCode::UnsupportedSchema);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct StructuredOutputSchema(JsonSchema);

impl StructuredOutputSchema {
    /// `assertSupportedOutputSchema`: accepts the schema or fails with
    /// `UNSUPPORTED_SCHEMA`, listing every violation with its path.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::UnsupportedSchema`] listing every issue with its pointer: a root that is not
    /// `"type": "object"`, a node without `type`, a `oneOf`, or anything else outside the subset.
    pub fn parse(schema: &JsonValue) -> Result<StructuredOutputSchema, Error> {
        let parsed = parse_dialect(schema, Dialect::StructuredOutput, DEFAULT_MAX_DEPTH);
        let mut issues = match &parsed {
            Ok(_) => Vec::new(),
            Err(err) => err.issues.clone(),
        };
        let object_root = schema.get("type").and_then(JsonValue::as_str) == Some("object");
        if !object_root {
            issues.insert(
                0,
                SchemaIssue {
                    pointer: "#".into(),
                    message:
                        "a structured-output schema has an object root (`\"type\": \"object\"`)"
                            .into(),
                },
            );
        }
        match parsed {
            Ok(schema) if issues.is_empty() => Ok(StructuredOutputSchema(schema)),
            _ => Err(Error::new(
                ErrorCode::UnsupportedSchema,
                super::SchemaError { issues }.to_string(),
            )),
        }
    }

    /// `validateStructuredValue`: every path-qualified violation; empty means valid.
    /// Total: never panics.
    pub fn validate(&self, value: &JsonValue) -> Vec<Violation> {
        self.0.validate(value)
    }

    /// The schema as JSON, exactly as given (what travels to the model).
    pub fn as_json(&self) -> &JsonValue {
        self.0.as_json()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(schema: JsonValue) -> String {
        StructuredOutputSchema::parse(&schema)
            .unwrap_err()
            .message()
            .to_owned()
    }

    #[test]
    fn the_subset_accepts_typed_object_trees() {
        let schema = json!({
            "type": "object",
            "description": "result",
            "properties": {
                "verdict": {"type": "string", "enum": ["pass", "fail"]},
                "score": {"type": "number"},
                "notes": {"type": "array", "items": {"type": "string"}},
                "meta": {"type": "object", "properties": {"k": {"type": "null"}}, "additionalProperties": false}
            },
            "required": ["verdict"],
            "additionalProperties": false
        });
        let parsed = StructuredOutputSchema::parse(&schema).unwrap();
        assert_eq!(parsed.as_json(), &schema);
        assert!(
            parsed
                .validate(&json!({"verdict": "pass", "notes": []}))
                .is_empty()
        );
        assert_eq!(
            parsed
                .validate(&json!({"verdict": "maybe", "score": "high", "x": 1}))
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            [
                "$.verdict: expected one of \"pass\", \"fail\", got \"maybe\"",
                "$.score: expected number, got string",
                "$.x: property is not allowed (additionalProperties is false)"
            ]
        );
    }

    #[test]
    fn the_root_must_be_an_object() {
        assert_eq!(
            refused(json!({"type": "array"})),
            "unsupported schema (1 issue):\n- #: a structured-output schema has an object root (`\"type\": \"object\"`)"
        );
    }

    #[test]
    fn loud_outside_the_subset() {
        let message = refused(json!({
            "type": "object",
            "properties": {
                "a": {"oneOf": [{"type": "string"}, {"type": "null"}]},
                "b": {"type": ["string", "null"]},
                "c": {},
                "d": {"type": "string", "format": "date"}
            }
        }));
        assert_eq!(
            message,
            "unsupported schema (4 issues):\n\
             - #/properties/a/oneOf: unsupported keyword `oneOf`\n\
             - #/properties/b/type: type arrays are not supported\n\
             - #/properties/c: every node of a structured-output schema declares `type`\n\
             - #/properties/d/format: unsupported keyword `format`"
        );
    }

    #[test]
    fn required_keys_must_be_declared_and_annotations_must_be_data() {
        let message = refused(json!({
            "type": "object",
            "required": ["ghost"],
            "examples": [9007199254740993u64]
        }));
        assert!(
            message.contains("required property \"ghost\" is not declared"),
            "{message}"
        );
        assert!(
            message.contains("#/examples: `examples` must be lossless JSON data"),
            "{message}"
        );
    }

    #[test]
    fn validation_is_total() {
        let parsed = StructuredOutputSchema::parse(&json!({"type": "object"})).unwrap();
        for value in [
            json!(null),
            json!(1),
            json!("x"),
            json!([]),
            json!({"a": [[[]]]}),
        ] {
            let _ = parsed.validate(&value);
        }
        assert_eq!(
            parsed.validate(&json!([]))[0].to_string(),
            "$: expected object, got array"
        );
    }
}
