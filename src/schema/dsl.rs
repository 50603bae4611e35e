//! The author-facing schema DSL: one vocabulary for tool parameters and output values,
//! compiled to the enforced JSON Schema subset.
//!
//! A schema may nest as deep as its depth limit: reading, checking, compiling, copying,
//! comparing and dropping one keep their own stacks on the heap, never the thread's.

use std::fmt::Write as _;

use crate::error::{Error, ErrorCode};
use crate::json::{DEFAULT_MAX_DEPTH, JsonValue, Tree, check_lossless_within, deep_clone, deep_eq};

use super::subset::{Dialect, JsonSchema, parse_owned};
use super::{SchemaError, SchemaIssue};

/// The kind of value a [`ValueSchema`] accepts.
#[derive(Debug)]
enum Kind {
    String,
    Number,
    Integer,
    Boolean,
    Null,
    Array(Option<Box<ValueSchema>>),
    Object {
        properties: Vec<PropertySpec>,
        additional_properties: bool,
    },
    /// Any lossless JSON value (author-only: compiles to an unconstrained schema).
    Json,
    /// Exactly one branch matches.
    OneOf(Vec<ValueSchema>),
}

/// One schema for any JSON value, written by a tool author: `string`, `number`,
/// `integer`, `boolean`, `null`, `array`, `object` (with an explicit
/// `additionalProperties`), `json` (anything; it may carry the `default` and `examples`
/// annotations, lossless JSON) and exactly-one `oneOf`. Scalars may carry `enum`/`const`
/// values, which must match the node's type.
///
/// Build it in Rust, or read it from the spec's data form with [`ValueSchema::from_json`].
/// Subschemas may nest [`DEFAULT_MAX_DEPTH`] levels ([`ValueSchema::compile_within`] takes
/// the limit); a deep schema is read, checked, compiled, copied, compared and dropped
/// without recursion.
///
/// ```
/// use codemode::schema::ValueSchema;
/// let point = ValueSchema::object(false)
///     .required("x", ValueSchema::number())
///     .required("y", ValueSchema::number())
///     .property("label", ValueSchema::string().description("Shown next to the point"));
/// let schema = point.compile().unwrap();
/// assert!(schema.is_valid(&serde_json::json!({"x": 1, "y": 2})));
/// assert_eq!(point.to_json_schema()["additionalProperties"], false);
///
/// let bad = ValueSchema::string().enum_values([1, 2]);
/// assert!(bad.compile().is_err());
/// ```
#[derive(Debug)]
pub struct ValueSchema {
    kind: Kind,
    description: Option<String>,
    title: Option<String>,
    enum_values: Option<Vec<JsonValue>>,
    constant: Option<JsonValue>,
    /// `default` (json nodes only): an annotation, lossless JSON, never applied.
    default: Option<JsonValue>,
    /// `examples` (json nodes only): an annotation, lossless JSON.
    examples: Option<JsonValue>,
    /// A builder call that did not fit the node (kept so `compile` reports it).
    misuse: Option<&'static str>,
}

/// One property of an object node or of a parameter map.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertySpec {
    /// The property's name.
    pub name: String,
    /// The property's schema.
    pub schema: ValueSchema,
    /// Whether the property must be present.
    pub required: bool,
}

impl ValueSchema {
    fn of(kind: Kind) -> Self {
        ValueSchema {
            kind,
            description: None,
            title: None,
            enum_values: None,
            constant: None,
            default: None,
            examples: None,
            misuse: None,
        }
    }
    /// A string.
    pub fn string() -> Self {
        Self::of(Kind::String)
    }
    /// Any finite number.
    pub fn number() -> Self {
        Self::of(Kind::Number)
    }
    /// A number with no fractional part.
    pub fn integer() -> Self {
        Self::of(Kind::Integer)
    }
    /// `true` or `false`.
    pub fn boolean() -> Self {
        Self::of(Kind::Boolean)
    }
    /// `null`.
    pub fn null() -> Self {
        Self::of(Kind::Null)
    }
    /// Any lossless JSON value.
    pub fn json() -> Self {
        Self::of(Kind::Json)
    }
    /// An array whose items match `items`.
    pub fn array(items: ValueSchema) -> Self {
        Self::of(Kind::Array(Some(Box::new(items))))
    }
    /// An array of any JSON items.
    pub fn array_of_any() -> Self {
        Self::of(Kind::Array(None))
    }
    /// An object; `additional_properties` says whether undeclared keys are allowed.
    pub fn object(additional_properties: bool) -> Self {
        Self::of(Kind::Object {
            properties: Vec::new(),
            additional_properties,
        })
    }
    /// Exactly one of `branches` must match (at least two branches).
    pub fn one_of(branches: impl IntoIterator<Item = ValueSchema>) -> Self {
        Self::of(Kind::OneOf(branches.into_iter().collect()))
    }

    /// Adds an optional property (object nodes only; ignored elsewhere, and reported by
    /// [`ValueSchema::compile`]).
    pub fn property(self, name: impl Into<String>, schema: ValueSchema) -> Self {
        self.with_property(name.into(), schema, false)
    }

    /// Adds a required property (object nodes only).
    pub fn required(self, name: impl Into<String>, schema: ValueSchema) -> Self {
        self.with_property(name.into(), schema, true)
    }

    fn with_property(mut self, name: String, schema: ValueSchema, required: bool) -> Self {
        match &mut self.kind {
            Kind::Object { properties, .. } => properties.push(PropertySpec {
                name,
                schema,
                required,
            }),
            // Recorded so that compile() reports the misuse instead of losing it.
            _ => self.misuse = Some("properties can only be added to object schemas"),
        }
        self
    }

    /// Sets the description (an annotation the model reads).
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Sets the title annotation.
    pub fn title(mut self, text: impl Into<String>) -> Self {
        self.title = Some(text.into());
        self
    }

    /// Sets the `default` annotation of a json node (documentation only: validation
    /// never applies it). It must be lossless JSON; other nodes report it at compile.
    pub fn default_value(mut self, value: impl Into<JsonValue>) -> Self {
        self.default = Some(value.into());
        self
    }

    /// Sets the `examples` annotation of a json node (lossless JSON; other nodes report
    /// it at compile).
    pub fn examples(mut self, value: impl Into<JsonValue>) -> Self {
        self.examples = Some(value.into());
        self
    }

    /// Restricts a scalar node to these values.
    pub fn enum_values<V: Into<JsonValue>>(mut self, values: impl IntoIterator<Item = V>) -> Self {
        self.enum_values = Some(values.into_iter().map(Into::into).collect());
        self
    }

    /// Restricts a scalar node to exactly this value.
    pub fn constant(mut self, value: impl Into<JsonValue>) -> Self {
        self.constant = Some(value.into());
        self
    }

    /// The JSON Schema this compiles to (without checking it; see [`ValueSchema::compile`]).
    pub fn to_json_schema(&self) -> JsonValue {
        // Post-order: a node's JSON is written once its subschemas' is.
        crate::json::fold_post_order(self, ValueSchema::child, ValueSchema::json_with)
    }

    /// This node's JSON Schema around `children` (its subschemas' JSON, in order).
    fn json_with(&self, children: Vec<JsonValue>) -> JsonValue {
        let mut out = serde_json::Map::new();
        let mut children = children.into_iter();
        match &self.kind {
            Kind::String => type_(&mut out, "string"),
            Kind::Number => type_(&mut out, "number"),
            Kind::Integer => type_(&mut out, "integer"),
            Kind::Boolean => type_(&mut out, "boolean"),
            Kind::Null => type_(&mut out, "null"),
            Kind::Json => {}
            Kind::Array(items) => {
                type_(&mut out, "array");
                if items.is_some()
                    && let Some(items) = children.next()
                {
                    out.insert("items".into(), items);
                }
            }
            Kind::Object {
                properties,
                additional_properties,
            } => {
                type_(&mut out, "object");
                object_members(&mut out, properties, children);
                out.insert(
                    "additionalProperties".into(),
                    JsonValue::Bool(*additional_properties),
                );
            }
            Kind::OneOf(_) => {
                out.insert("oneOf".into(), JsonValue::Array(children.collect()));
            }
        }
        // Data may nest deep: copied without recursion.
        if let Some(values) = &self.enum_values {
            out.insert(
                "enum".into(),
                JsonValue::Array(values.iter().map(deep_clone).collect()),
            );
        }
        if let Some(value) = &self.constant {
            out.insert("const".into(), deep_clone(value));
        }
        if let Some(text) = &self.description {
            out.insert("description".into(), JsonValue::String(text.clone()));
        }
        if let Some(text) = &self.title {
            out.insert("title".into(), JsonValue::String(text.clone()));
        }
        if let Some(value) = &self.default {
            out.insert("default".into(), deep_clone(value));
        }
        if let Some(value) = &self.examples {
            out.insert("examples".into(), deep_clone(value));
        }
        JsonValue::Object(out)
    }

    /// Compiles to the enforced subset, checking the DSL's own rules first (`enum`/`const`
    /// only on scalars, properties only on objects); every problem is reported at once
    /// with code `UNSUPPORTED_SCHEMA`. Subschemas may nest [`DEFAULT_MAX_DEPTH`] levels.
    ///
    /// # Errors
    ///
    /// As [`ValueSchema::compile_within`] with [`DEFAULT_MAX_DEPTH`].
    pub fn compile(&self) -> Result<JsonSchema, Error> {
        self.compile_within(DEFAULT_MAX_DEPTH)
    }

    /// [`ValueSchema::compile`] with subschemas nested at most `limit` levels below the
    /// root (a registry's [`DepthLimit`](crate::json::DepthLimit)).
    ///
    /// ```
    /// use codemode::schema::ValueSchema;
    /// let nested = ValueSchema::one_of([
    ///     ValueSchema::one_of([ValueSchema::string(), ValueSchema::integer()]),
    ///     ValueSchema::null(),
    /// ]);
    /// assert!(nested.compile_within(2).is_ok());
    /// let err = nested.compile_within(1).unwrap_err();
    /// assert!(err.message().contains("#/oneOf/0/oneOf/0: schema nests deeper than 1 levels"), "{err}");
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorCode::UnsupportedSchema`] listing every issue with its pointer: the DSL's own rules
    /// (`enum` / `const` on a non-scalar, properties on a non-object, ...), a subschema nested
    /// deeper than `limit`, or anything the enforced subset refuses.
    pub fn compile_within(&self, limit: usize) -> Result<JsonSchema, Error> {
        let mut issues = Vec::new();
        check_tree(self, &mut String::from("#"), &mut issues, 0, limit);
        if !issues.is_empty() {
            return Err(SchemaError { issues }.into());
        }
        parse_owned(self.to_json_schema(), Dialect::Enforced, limit).map_err(Error::from)
    }

    /// The DSL's rules of this node alone (`depth` levels below the root), at `pointer`;
    /// `false` when it is too deep to look into.
    fn check_node(
        &self,
        pointer: &str,
        issues: &mut Vec<SchemaIssue>,
        depth: usize,
        limit: usize,
    ) -> bool {
        let mut issue = |message: String| {
            issues.push(SchemaIssue {
                pointer: pointer.to_owned(),
                message,
            })
        };
        if depth > limit {
            issue(format!("schema nests deeper than {limit} levels"));
            return false;
        }
        if let Some(misuse) = self.misuse {
            issue(misuse.into());
        }
        let scalar = matches!(
            self.kind,
            Kind::String | Kind::Number | Kind::Integer | Kind::Boolean | Kind::Null
        );
        if !scalar {
            if self.enum_values.is_some() {
                issue("`enum` is only supported on scalar types".into());
            }
            if self.constant.is_some() {
                issue("`const` is only supported on scalar types".into());
            }
        }
        if !matches!(self.kind, Kind::Json) && (self.default.is_some() || self.examples.is_some()) {
            issue("`default` and `examples` are annotations of json nodes only".into());
        }
        true
    }

    /// Whether this node alone (not its subschemas) equals `other`'s, and they have as
    /// many subschemas.
    fn same_node(&self, other: &ValueSchema) -> bool {
        let same_data = |a: &Option<JsonValue>, b: &Option<JsonValue>| match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => deep_eq(a, b),
            _ => false,
        };
        let same_kind = match (&self.kind, &other.kind) {
            (Kind::String, Kind::String)
            | (Kind::Number, Kind::Number)
            | (Kind::Integer, Kind::Integer)
            | (Kind::Boolean, Kind::Boolean)
            | (Kind::Null, Kind::Null)
            | (Kind::Json, Kind::Json) => true,
            (Kind::Array(a), Kind::Array(b)) => a.is_some() == b.is_some(),
            (
                Kind::Object {
                    properties: a,
                    additional_properties: x,
                },
                Kind::Object {
                    properties: b,
                    additional_properties: y,
                },
            ) => {
                x == y
                    && a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(a, b)| a.name == b.name && a.required == b.required)
            }
            (Kind::OneOf(a), Kind::OneOf(b)) => a.len() == b.len(),
            _ => false,
        };
        same_kind
            && self.description == other.description
            && self.title == other.title
            && self.misuse == other.misuse
            && match (&self.enum_values, &other.enum_values) {
                (None, None) => true,
                (Some(a), Some(b)) => {
                    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| deep_eq(a, b))
                }
                _ => false,
            }
            && same_data(&self.constant, &other.constant)
            && same_data(&self.default, &other.default)
            && same_data(&self.examples, &other.examples)
    }

    /// Reads the spec's data form of a value schema: `{"type": "string", "enum": [...]}`,
    /// `{"type": "object", "properties": {"a": {"type": "integer", "required": true}},
    /// "additionalProperties": false}`, `{"type": "json", "default": ..., "examples": [...]}`,
    /// `{"oneOf": [...]}`. Unknown keys
    /// and malformed values are reported, every one, with their pointers. Subschemas may
    /// nest [`DEFAULT_MAX_DEPTH`] levels.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::UnsupportedSchema`] listing every issue with its pointer: an unknown key, a
    /// value of the wrong shape or type, `required` outside a property or not `true`, a default
    /// or example that is not lossless JSON, a subschema deeper than [`DEFAULT_MAX_DEPTH`].
    pub fn from_json(spec: &JsonValue) -> Result<ValueSchema, Error> {
        let mut reader = Reader::new(DEFAULT_MAX_DEPTH);
        let schema = reader.tree(spec, String::from("#"), 0, None).0;
        reader.finish(schema)
    }
}

/// A schema holds its subschemas: copied, compared and freed without recursion.
impl Tree for ValueSchema {
    /// The `index`-th subschema of this node: its items, its properties' schemas in order,
    /// its branches.
    fn child(&self, index: usize) -> Option<&ValueSchema> {
        match &self.kind {
            Kind::Array(items) => items.as_deref().filter(|_| index == 0),
            Kind::Object { properties, .. } => properties.get(index).map(|p| &p.schema),
            Kind::OneOf(branches) => branches.get(index),
            _ => None,
        }
    }

    /// A copy of this node around `children` (copies of its subschemas, in order).
    fn with_children(&self, children: Vec<ValueSchema>) -> ValueSchema {
        let mut children = children.into_iter();
        let kind = match &self.kind {
            Kind::String => Kind::String,
            Kind::Number => Kind::Number,
            Kind::Integer => Kind::Integer,
            Kind::Boolean => Kind::Boolean,
            Kind::Null => Kind::Null,
            Kind::Json => Kind::Json,
            Kind::Array(_) => Kind::Array(children.next().map(Box::new)),
            Kind::Object {
                properties,
                additional_properties,
            } => Kind::Object {
                properties: properties
                    .iter()
                    .zip(children)
                    .map(|(property, schema)| PropertySpec {
                        name: property.name.clone(),
                        schema,
                        required: property.required,
                    })
                    .collect(),
                additional_properties: *additional_properties,
            },
            Kind::OneOf(_) => Kind::OneOf(children.collect()),
        };
        let copy = |value: &Option<JsonValue>| value.as_ref().map(deep_clone);
        ValueSchema {
            kind,
            description: self.description.clone(),
            title: self.title.clone(),
            enum_values: self
                .enum_values
                .as_ref()
                .map(|values| values.iter().map(deep_clone).collect()),
            constant: copy(&self.constant),
            default: copy(&self.default),
            examples: copy(&self.examples),
            misuse: self.misuse,
        }
    }

    /// Moves this node's subschemas out into `into`, leaving it without any.
    fn take_children(&mut self, into: &mut Vec<ValueSchema>) {
        match &mut self.kind {
            Kind::Array(items) => into.extend(items.take().map(|items| *items)),
            Kind::Object { properties, .. } => {
                into.extend(properties.drain(..).map(|property| property.schema));
            }
            Kind::OneOf(branches) => into.append(branches),
            _ => {}
        }
    }
}

impl Clone for ValueSchema {
    fn clone(&self) -> Self {
        crate::json::clone_tree(self)
    }
}

impl PartialEq for ValueSchema {
    fn eq(&self, other: &Self) -> bool {
        crate::json::tree_eq(self, other, ValueSchema::same_node)
    }
}

impl Drop for ValueSchema {
    fn drop(&mut self) {
        crate::json::drop_tree(self);
    }
}

/// Checks the DSL's rules of `root` and of every subschema in it (`depth`: `root`'s level),
/// each node before its subschemas, in document order, with a stack of its own.
fn check_tree(
    root: &ValueSchema,
    pointer: &mut String,
    issues: &mut Vec<SchemaIssue>,
    depth: usize,
    limit: usize,
) {
    /// A node whose subschemas are being checked: the next one's index, the node's
    /// pointer length and level.
    struct Checking<'a> {
        schema: &'a ValueSchema,
        next: usize,
        pointer: usize,
        depth: usize,
    }
    let base = pointer.len();
    let mut open = Vec::new();
    if root.check_node(pointer, issues, depth, limit) {
        open.push(Checking {
            schema: root,
            next: 0,
            pointer: pointer.len(),
            depth,
        });
    }
    while let Some(top) = open.last_mut() {
        pointer.truncate(top.pointer);
        let index = top.next;
        top.next += 1;
        let schema = top.schema;
        let depth = top.depth + 1;
        let Some(child) = schema.child(index) else {
            open.pop();
            continue;
        };
        match &schema.kind {
            Kind::Array(_) => pointer.push_str("/items"),
            Kind::Object { properties, .. } => push_property(pointer, issues, properties, index),
            // Writing to a `String` cannot fail.
            _ => {
                let _ = write!(pointer, "/oneOf/{index}");
            }
        }
        if child.check_node(pointer, issues, depth, limit) {
            open.push(Checking {
                schema: child,
                next: 0,
                pointer: pointer.len(),
                depth,
            });
        }
    }
    pointer.truncate(base);
}

/// Appends `properties/<name>` of the `index`-th property to `pointer`, reporting a name
/// declared before.
fn push_property(
    pointer: &mut String,
    issues: &mut Vec<SchemaIssue>,
    properties: &[PropertySpec],
    index: usize,
) {
    let Some(property) = properties.get(index) else {
        return;
    };
    pointer.push_str("/properties/");
    pointer.push_str(&property.name.replace('~', "~0").replace('/', "~1"));
    if properties[..index].iter().any(|p| p.name == property.name) {
        issues.push(SchemaIssue {
            pointer: pointer.clone(),
            message: format!("property {:?} is declared twice", property.name),
        });
    }
}

fn type_(out: &mut serde_json::Map<String, JsonValue>, name: &str) {
    out.insert("type".into(), JsonValue::String(name.into()));
}

/// `properties` (each property's JSON Schema from `schemas`, in order) and `required`.
fn object_members(
    out: &mut serde_json::Map<String, JsonValue>,
    properties: &[PropertySpec],
    schemas: impl Iterator<Item = JsonValue>,
) {
    let mut props = serde_json::Map::new();
    let mut required = Vec::new();
    for (property, schema) in properties.iter().zip(schemas) {
        props.insert(property.name.clone(), schema);
        if property.required {
            required.push(JsonValue::String(property.name.clone()));
        }
    }
    out.insert("properties".into(), JsonValue::Object(props));
    if !required.is_empty() {
        out.insert("required".into(), JsonValue::Array(required));
    }
}

/// The parameters of a tool: an implicit open object whose properties each say whether
/// they are required.
///
/// ```
/// use codemode::schema::{ParameterSchema, ValueSchema};
/// let params = ParameterSchema::new()
///     .required("path", ValueSchema::string().description("Absolute file path"))
///     .optional("offset", ValueSchema::integer());
/// assert_eq!(params.to_json_schema(), serde_json::json!({
///     "type": "object",
///     "properties": {
///         "path": {"type": "string", "description": "Absolute file path"},
///         "offset": {"type": "integer"}
///     },
///     "required": ["path"]
/// }));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParameterSchema {
    properties: Vec<PropertySpec>,
}

impl ParameterSchema {
    /// No parameters.
    pub fn new() -> Self {
        ParameterSchema::default()
    }

    /// Adds a required parameter.
    pub fn required(mut self, name: impl Into<String>, schema: ValueSchema) -> Self {
        self.properties.push(PropertySpec {
            name: name.into(),
            schema,
            required: true,
        });
        self
    }

    /// Adds an optional parameter.
    pub fn optional(mut self, name: impl Into<String>, schema: ValueSchema) -> Self {
        self.properties.push(PropertySpec {
            name: name.into(),
            schema,
            required: false,
        });
        self
    }

    /// The declared parameters, in order.
    pub fn properties(&self) -> &[PropertySpec] {
        &self.properties
    }

    /// The JSON Schema: an object root without `additionalProperties` (open), its
    /// properties, and the names of the required ones.
    pub fn to_json_schema(&self) -> JsonValue {
        let mut out = serde_json::Map::new();
        type_(&mut out, "object");
        let schemas = self.properties.iter().map(|p| p.schema.to_json_schema());
        object_members(&mut out, &self.properties, schemas);
        JsonValue::Object(out)
    }

    /// Compiles to the enforced subset (see [`ValueSchema::compile`]); subschemas may
    /// nest [`DEFAULT_MAX_DEPTH`] levels (the parameters are the first).
    ///
    /// # Errors
    ///
    /// As [`ParameterSchema::compile_within`] with [`DEFAULT_MAX_DEPTH`].
    pub fn compile(&self) -> Result<JsonSchema, Error> {
        self.compile_within(DEFAULT_MAX_DEPTH)
    }

    /// [`ParameterSchema::compile`] with subschemas nested at most `limit` levels below
    /// the root object (a registry's [`DepthLimit`](crate::json::DepthLimit)).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::UnsupportedSchema`] listing every issue with its pointer, as
    /// [`ValueSchema::compile_within`] for each parameter's schema (one level below the root).
    pub fn compile_within(&self, limit: usize) -> Result<JsonSchema, Error> {
        let mut issues = Vec::new();
        let mut pointer = String::from("#");
        for index in 0..self.properties.len() {
            pointer.truncate(1);
            push_property(&mut pointer, &mut issues, &self.properties, index);
            check_tree(
                &self.properties[index].schema,
                &mut pointer,
                &mut issues,
                1,
                limit,
            );
        }
        if !issues.is_empty() {
            return Err(SchemaError { issues }.into());
        }
        parse_owned(self.to_json_schema(), Dialect::Enforced, limit).map_err(Error::from)
    }

    /// Reads the spec's data form: a map from parameter name to a value schema that may
    /// carry `"required": true`.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::UnsupportedSchema`] listing every issue with its pointer: `spec` not an
    /// object, or any parameter's schema as [`ValueSchema::from_json`] refuses it.
    pub fn from_json(spec: &JsonValue) -> Result<ParameterSchema, Error> {
        let mut reader = Reader::new(DEFAULT_MAX_DEPTH);
        let mut properties = Vec::new();
        match spec {
            JsonValue::Object(map) => {
                for (name, property) in map {
                    let pointer = format!("#/{}", name.replace('~', "~0").replace('/', "~1"));
                    let (schema, required) = reader.tree(property, pointer, 1, Some(name));
                    properties.push(PropertySpec {
                        name: name.clone(),
                        schema,
                        required,
                    });
                }
            }
            other => reader.issue(
                "#",
                format!(
                    "parameters must be an object of name -> schema, got {}",
                    text(other)
                ),
            ),
        }
        reader.finish(ParameterSchema { properties })
    }
}

/// JSON text of a value in a message (compact, written without recursion).
fn text(value: &JsonValue) -> String {
    crate::json::to_text(value)
}

/// Reads the data form (see [`ValueSchema::from_json`]).
struct Reader {
    issues: Vec<SchemaIssue>,
    /// How many levels of subschemas may nest below the root.
    limit: usize,
}

/// A node being read whose subschemas come next (see [`Reader::tree`]).
struct Open<'s> {
    map: &'s serde_json::Map<String, JsonValue>,
    kind_name: Option<&'s str>,
    /// Whether the node, a property, is marked required.
    required: bool,
    /// The length of the node's pointer.
    pointer: usize,
    depth: usize,
    frame: Frame<'s>,
}

enum Frame<'s> {
    /// `oneOf`: the branches left, and those read.
    OneOf {
        branches: std::iter::Enumerate<std::slice::Iter<'s, JsonValue>>,
        nodes: Vec<ValueSchema>,
    },
    /// An array's `items`, until it is read.
    Array {
        items: Option<&'s JsonValue>,
        read: Option<ValueSchema>,
    },
    /// An object's properties left, the one being read, and the object so far.
    Object {
        members: serde_json::map::Iter<'s>,
        current: &'s str,
        object: ValueSchema,
    },
}

/// What entering a node gives: the node read (and whether it is marked required), or a
/// node whose subschemas come next.
enum Entered<'s> {
    Read(ValueSchema, bool),
    Open(Open<'s>),
}

impl Reader {
    fn new(limit: usize) -> Self {
        Reader {
            issues: Vec::new(),
            limit,
        }
    }

    fn issue(&mut self, pointer: &str, message: String) {
        self.issues.push(SchemaIssue {
            pointer: pointer.to_owned(),
            message,
        });
    }

    fn finish<T>(self, value: T) -> Result<T, Error> {
        if self.issues.is_empty() {
            Ok(value)
        } else {
            Err(Error::new(
                ErrorCode::UnsupportedSchema,
                SchemaError {
                    issues: self.issues,
                }
                .to_string(),
            ))
        }
    }

    /// Reads one value schema at `pointer`, `depth` levels below the root, with a stack of
    /// its own; `property` (the property's name) allows the `required` flag. Returns the
    /// schema and whether it was marked required.
    fn tree(
        &mut self,
        spec: &JsonValue,
        mut pointer: String,
        depth: usize,
        property: Option<&str>,
    ) -> (ValueSchema, bool) {
        let mut open: Vec<Open<'_>> = Vec::new();
        let mut finished = match self.enter(spec, &pointer, depth, property) {
            Entered::Read(schema, required) => Some((schema, required)),
            Entered::Open(node) => {
                open.push(node);
                None
            }
        };
        loop {
            let Some(top) = open.last_mut() else {
                return finished.unwrap_or_else(|| (ValueSchema::json(), false));
            };
            pointer.truncate(top.pointer);
            if let Some((schema, required)) = finished.take() {
                accept(&mut top.frame, schema, required);
            }
            match next_child(top, &mut pointer) {
                Some((child, depth, property)) => {
                    match self.enter(child, &pointer, depth, property) {
                        Entered::Read(schema, required) => finished = Some((schema, required)),
                        Entered::Open(node) => open.push(node),
                    }
                }
                None => {
                    finished = open.pop().map(|node| self.close(node, &pointer));
                }
            }
        }
    }

    /// One value schema: its keys are read one family at a time, in the order their
    /// problems are reported: unexpected keys, `required`, `oneOf` or `type` (with the keys
    /// of that type; subschemas come next, see [`Self::tree`]), `enum` and `const`, then
    /// the annotations.
    fn enter<'s>(
        &mut self,
        spec: &'s JsonValue,
        pointer: &str,
        depth: usize,
        property: Option<&str>,
    ) -> Entered<'s> {
        let placeholder = || Entered::Read(ValueSchema::json(), false);
        if depth > self.limit {
            self.issue(
                pointer,
                format!("schema nests deeper than {} levels", self.limit),
            );
            return placeholder();
        }
        let Some(map) = spec.as_object() else {
            self.issue(
                pointer,
                format!("a schema must be an object, got {}", text(spec)),
            );
            return placeholder();
        };
        let kind_name = map.get("type").and_then(JsonValue::as_str);
        self.unexpected_keys(map, kind_name, pointer, property.is_some());
        let required = self.required_flag(map, pointer, property);
        let open = |frame| {
            Entered::Open(Open {
                map,
                kind_name,
                required,
                pointer: pointer.len(),
                depth,
                frame,
            })
        };
        let schema = match map.get("oneOf") {
            Some(branches) => {
                let Some(items) = branches.as_array() else {
                    self.issue(pointer, "`oneOf` must be an array of schemas".into());
                    return placeholder();
                };
                return open(Frame::OneOf {
                    branches: items.iter().enumerate(),
                    nodes: Vec::with_capacity(items.len()),
                });
            }
            None => match kind_name {
                Some("string") => ValueSchema::string(),
                Some("number") => ValueSchema::number(),
                Some("integer") => ValueSchema::integer(),
                Some("boolean") => ValueSchema::boolean(),
                Some("null") => ValueSchema::null(),
                Some("json") => ValueSchema::json(),
                Some("array") => match map.get("items") {
                    None => ValueSchema::array_of_any(),
                    Some(items) => {
                        return open(Frame::Array {
                            items: Some(items),
                            read: None,
                        });
                    }
                },
                Some("object") => {
                    let object = ValueSchema::object(self.additional_properties(map, pointer));
                    match map.get("properties") {
                        None => object,
                        Some(JsonValue::Object(props)) => {
                            return open(Frame::Object {
                                members: props.iter(),
                                current: "",
                                object,
                            });
                        }
                        Some(other) => {
                            self.issue(
                                pointer,
                                format!("`properties` must be an object, got {}", text(other)),
                            );
                            object
                        }
                    }
                }
                Some(other) => {
                    self.issue(pointer, format!("unknown type {other:?}"));
                    return placeholder();
                }
                None => {
                    self.issue(pointer, "a schema needs `type` (or `oneOf`)".into());
                    return placeholder();
                }
            },
        };
        let schema = self.keywords(map, kind_name, schema, pointer);
        Entered::Read(schema, required)
    }

    /// A node whose subschemas are all read; `pointer` is the node's.
    fn close(&mut self, node: Open<'_>, pointer: &str) -> (ValueSchema, bool) {
        let schema = match node.frame {
            Frame::OneOf { nodes, .. } => ValueSchema::one_of(nodes),
            Frame::Array { read, .. } => match read {
                Some(items) => ValueSchema::array(items),
                None => ValueSchema::array_of_any(),
            },
            Frame::Object { object, .. } => object,
        };
        let schema = self.keywords(node.map, node.kind_name, schema, pointer);
        (schema, node.required)
    }

    /// The keys read after a node's subschemas: `enum` and `const`, the annotations, and
    /// the annotations of a json node.
    fn keywords(
        &mut self,
        map: &serde_json::Map<String, JsonValue>,
        kind_name: Option<&str>,
        mut schema: ValueSchema,
        pointer: &str,
    ) -> ValueSchema {
        self.enum_and_const(map, &mut schema, pointer);
        self.annotations(map, &mut schema, pointer);
        if kind_name == Some("json") {
            self.json_annotations(map, &mut schema, pointer);
        }
        schema
    }

    /// An object's `additionalProperties`: required, true or false.
    fn additional_properties(
        &mut self,
        map: &serde_json::Map<String, JsonValue>,
        pointer: &str,
    ) -> bool {
        match map.get("additionalProperties") {
            Some(JsonValue::Bool(flag)) => *flag,
            Some(other) => {
                self.issue(
                    pointer,
                    format!(
                        "`additionalProperties` must be true or false, got {}",
                        text(other)
                    ),
                );
                true
            }
            None => {
                self.issue(
                    pointer,
                    "object schemas declare `additionalProperties: true | false`".into(),
                );
                true
            }
        }
    }

    /// Every key the node's kind does not take (`oneOf` takes no other key; annotations and,
    /// on a property, `required` are always allowed), in key order.
    fn unexpected_keys(
        &mut self,
        map: &serde_json::Map<String, JsonValue>,
        kind_name: Option<&str>,
        pointer: &str,
        property: bool,
    ) {
        let allowed: &[&str] = match (kind_name, map.contains_key("oneOf")) {
            (_, true) => &["oneOf"],
            (Some("array"), _) => &["type", "items"],
            (Some("object"), _) => &["type", "properties", "additionalProperties"],
            (Some("json"), _) => &["type", "default", "examples"],
            _ => &["type", "enum", "const"],
        };
        for key in map.keys() {
            let known = allowed.contains(&key.as_str())
                || matches!(key.as_str(), "description" | "title")
                || (property && key == "required");
            if !known {
                self.issue(pointer, format!("unexpected key `{key}`"));
            }
        }
    }

    /// `required` (on a property only; elsewhere it is an unexpected key): `true` or
    /// absent, as the DSL's types have it. `false` — or anything else an untyped caller
    /// forges — is refused at the property's pointer, not read as "optional".
    fn required_flag(
        &mut self,
        map: &serde_json::Map<String, JsonValue>,
        pointer: &str,
        property: Option<&str>,
    ) -> bool {
        let Some(name) = property else {
            return false;
        };
        match map.get("required") {
            None => false,
            Some(JsonValue::Bool(true)) => true,
            Some(other) => {
                self.issue(
                    pointer,
                    format!(
                        "`required` of {name:?} must be true when present (an optional property leaves it out), got {}",
                        text(other)
                    ),
                );
                false
            }
        }
    }

    /// `enum` (an array) and `const`, kept as written: `compile` checks them against the
    /// node's type.
    fn enum_and_const(
        &mut self,
        map: &serde_json::Map<String, JsonValue>,
        schema: &mut ValueSchema,
        pointer: &str,
    ) {
        if let Some(values) = map.get("enum") {
            match values.as_array() {
                Some(items) => schema.enum_values = Some(items.iter().map(deep_clone).collect()),
                None => self.issue(pointer, "`enum` must be an array".into()),
            }
        }
        if let Some(value) = map.get("const") {
            schema.constant = Some(deep_clone(value));
        }
    }

    /// `description` and `title`: strings.
    fn annotations(
        &mut self,
        map: &serde_json::Map<String, JsonValue>,
        schema: &mut ValueSchema,
        pointer: &str,
    ) {
        match map.get("description") {
            None => {}
            Some(JsonValue::String(text)) => schema.description = Some(text.clone()),
            Some(other) => self.issue(
                pointer,
                format!("`description` must be a string, got {}", text(other)),
            ),
        }
        match map.get("title") {
            None => {}
            Some(JsonValue::String(text)) => schema.title = Some(text.clone()),
            Some(other) => self.issue(
                pointer,
                format!("`title` must be a string, got {}", text(other)),
            ),
        }
    }

    /// `default` and `examples` of a `json` node: lossless JSON data.
    fn json_annotations(
        &mut self,
        map: &serde_json::Map<String, JsonValue>,
        schema: &mut ValueSchema,
        pointer: &str,
    ) {
        for (keyword, slot) in [
            ("default", &mut schema.default),
            ("examples", &mut schema.examples),
        ] {
            let Some(value) = map.get(keyword) else {
                continue;
            };
            match check_lossless_within(value, self.limit) {
                Ok(()) => *slot = Some(deep_clone(value)),
                Err(err) => self.issue(
                    pointer,
                    format!("`{keyword}` must be lossless JSON data: {err}"),
                ),
            }
        }
    }
}

/// The next subschema of `node` to read, its pointer segments pushed, with its level and
/// (for a property) its name; `None` when every one is read.
fn next_child<'s>(
    node: &mut Open<'s>,
    pointer: &mut String,
) -> Option<(&'s JsonValue, usize, Option<&'s str>)> {
    let depth = node.depth + 1;
    match &mut node.frame {
        Frame::OneOf { branches, .. } => {
            let (index, branch) = branches.next()?;
            // Writing to a `String` cannot fail.
            let _ = write!(pointer, "/oneOf/{index}");
            Some((branch, depth, None))
        }
        Frame::Array { items, .. } => {
            let items = items.take()?;
            pointer.push_str("/items");
            Some((items, depth, None))
        }
        Frame::Object {
            members, current, ..
        } => {
            let (name, schema) = members.next()?;
            *current = name;
            pointer.push_str("/properties/");
            pointer.push_str(&name.replace('~', "~0").replace('/', "~1"));
            Some((schema, depth, Some(name)))
        }
    }
}

/// Takes a subschema read into the node that holds it.
fn accept(frame: &mut Frame<'_>, schema: ValueSchema, required: bool) {
    match frame {
        Frame::OneOf { nodes, .. } => nodes.push(schema),
        Frame::Array { read, .. } => *read = Some(schema),
        Frame::Object {
            current, object, ..
        } => {
            if let Kind::Object { properties, .. } = &mut object.kind {
                properties.push(PropertySpec {
                    name: (*current).to_owned(),
                    schema,
                    required,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests;
