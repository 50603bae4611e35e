//! The schema model: the checked tree a raw JSON Schema of the enforced subset parses into.
//!
//! The parser (`subset`) builds it and the validator (`validate`) walks it; this file owns the
//! tree's types (and how a tree is copied and freed without recursion) and must not parse or
//! validate anything.

use std::collections::HashMap;

use crate::json::{JsonValue, Tree};

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
#[derive(Debug)]
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

#[derive(Debug)]
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

/// One checked node of the subset. A tree of them may nest as deep as its schema's limit:
/// it is copied and dropped with a heap stack, never by recursion.
#[derive(Debug)]
pub(crate) struct Node {
    pub shape: Shape,
    /// `enum`: allowed scalar values.
    pub allowed: Option<Vec<JsonValue>>,
    /// `const`: the single allowed scalar value.
    pub constant: Option<JsonValue>,
}

impl Node {}

/// A node holds its subschemas: copied and freed without recursion.
impl Tree for Node {
    /// The `index`-th subschema of this node (items, properties in order, branches).
    fn child(&self, index: usize) -> Option<&Node> {
        match &self.shape {
            Shape::Array { items } => items.as_deref().filter(|_| index == 0),
            Shape::Object(object) => object.properties.get(index).map(|(_, node)| node),
            Shape::OneOf(branches) => branches.get(index),
            Shape::Any | Shape::Scalar(_) => None,
        }
    }

    /// A copy of this node around `children` (copies of its subschemas, in order).
    fn with_children(&self, children: Vec<Node>) -> Node {
        let shape = match &self.shape {
            Shape::Any => Shape::Any,
            Shape::Scalar(kind) => Shape::Scalar(*kind),
            Shape::Array { .. } => Shape::Array {
                items: children.into_iter().next().map(Box::new),
            },
            Shape::Object(object) => Shape::Object(ObjectShape {
                properties: object
                    .properties
                    .iter()
                    .map(|(name, _)| name.clone())
                    .zip(children)
                    .collect(),
                index: object.index.clone(),
                required: object.required.clone(),
                additional: object.additional,
            }),
            Shape::OneOf(_) => Shape::OneOf(children),
        };
        Node {
            shape,
            // Scalars only: their copies do not recurse.
            allowed: self.allowed.clone(),
            constant: self.constant.clone(),
        }
    }

    /// Moves this node's subschemas out into `into`, leaving it without any.
    fn take_children(&mut self, into: &mut Vec<Node>) {
        match &mut self.shape {
            Shape::Array { items } => into.extend(items.take().map(|items| *items)),
            Shape::Object(object) => into.extend(object.properties.drain(..).map(|(_, n)| n)),
            Shape::OneOf(branches) => into.append(branches),
            Shape::Any | Shape::Scalar(_) => {}
        }
    }
}

impl Clone for Node {
    fn clone(&self) -> Node {
        crate::json::clone_tree(self)
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        crate::json::drop_tree(self);
    }
}
