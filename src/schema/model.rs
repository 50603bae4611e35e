//! The schema model: the checked tree a raw JSON Schema of the enforced subset parses into.
//!
//! The parser (`subset`) builds it and the validator (`validate`) walks it; this file owns the
//! tree's types and must not parse or validate anything.

use std::collections::HashMap;

use crate::json::JsonValue;

/// The single-type keywords of the subset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonType {
    /// `"object"`
    Object,
    /// `"array"`
    Array,
    /// `"string"`
    String,
    /// `"number"`
    Number,
    /// `"integer"` (a number with no fractional part)
    Integer,
    /// `"boolean"`
    Boolean,
    /// `"null"`
    Null,
}

impl JsonType {
    /// The keyword's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::String => "string",
            JsonType::Number => "number",
            JsonType::Integer => "integer",
            JsonType::Boolean => "boolean",
            JsonType::Null => "null",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<JsonType> {
        Some(match text {
            "object" => JsonType::Object,
            "array" => JsonType::Array,
            "string" => JsonType::String,
            "number" => JsonType::Number,
            "integer" => JsonType::Integer,
            "boolean" => JsonType::Boolean,
            "null" => JsonType::Null,
            _ => return None,
        })
    }

    pub(crate) fn is_scalar(self) -> bool {
        !matches!(self, JsonType::Object | JsonType::Array)
    }

    /// Whether `value` has this type (`integer` accepts `2.0`, as JSON Schema does).
    pub fn matches(self, value: &JsonValue) -> bool {
        match (self, value) {
            (JsonType::Object, JsonValue::Object(_))
            | (JsonType::Array, JsonValue::Array(_))
            | (JsonType::String, JsonValue::String(_))
            | (JsonType::Number, JsonValue::Number(_))
            | (JsonType::Boolean, JsonValue::Bool(_))
            | (JsonType::Null, JsonValue::Null) => true,
            (JsonType::Integer, JsonValue::Number(n)) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            _ => false,
        }
    }
}

/// The shape part of a node: what kind of value it accepts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shape {
    /// No `type`: any JSON value.
    Any,
    /// A scalar type.
    Scalar(JsonType),
    /// `type: "array"`, with an optional item schema.
    Array { items: Option<Box<Node>> },
    /// `type: "object"`.
    Object(ObjectShape),
    /// `oneOf`: exactly one branch must match.
    OneOf(Vec<Node>),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ObjectShape {
    /// Declared properties, in declaration order.
    pub properties: Vec<(String, Node)>,
    /// Index of `properties` by name.
    pub index: HashMap<String, usize>,
    /// Required property names (each declared).
    pub required: Vec<String>,
    /// `additionalProperties` (absent = `true`).
    pub additional: bool,
}

/// One checked node of the subset.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub shape: Shape,
    /// `enum`: allowed scalar values.
    pub allowed: Option<Vec<JsonValue>>,
    /// `const`: the single allowed scalar value.
    pub constant: Option<JsonValue>,
}
