//! Parsing the enforced raw JSON Schema subset (and its structured-output dialect) into a
//! checked tree.

use std::collections::HashMap;

use crate::json::{
    DEFAULT_MAX_DEPTH, JsonValue, check_lossless, check_lossless_within, deep_clone, deep_eq,
    dispose,
};

use super::model::{JsonType, Node, ObjectShape, Shape};
use super::{SchemaError, SchemaIssue, Violation};

/// A raw JSON Schema checked against the enforced subset: the only way to get one is
/// [`JsonSchema::parse`], so holding one proves the schema is supported.
///
/// ```
/// use codemode::schema::JsonSchema;
/// use serde_json::json;
/// let schema = JsonSchema::parse(&json!({
///     "type": "object",
///     "properties": {"name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}},
///     "required": ["name"],
///     "additionalProperties": false
/// })).unwrap();
/// assert!(schema.is_valid(&json!({"name": "x", "tags": ["a"]})));
/// assert!(!schema.is_valid(&json!({"name": "x", "other": 1})));
///
/// let err = JsonSchema::parse(&json!({"type": ["string", "null"], "pattern": "x"})).unwrap_err();
/// assert_eq!(err.issues.len(), 2);
/// ```
///
/// Subschemas may nest [`DEFAULT_MAX_DEPTH`] levels below the root ([`JsonSchema::parse_within`]
/// takes the limit: a registry's [`DepthLimit`](crate::json::DepthLimit)). Parsing,
/// validating, copying, comparing and dropping a schema keep their own stacks on the heap,
/// so no depth of nesting reaches the thread's stack.
pub struct JsonSchema {
    pub(crate) root: Node,
    source: JsonValue,
}

impl Clone for JsonSchema {
    fn clone(&self) -> Self {
        JsonSchema {
            root: self.root.clone(),
            source: deep_clone(&self.source),
        }
    }
}

/// Two schemas are equal when their JSON is (the checked tree follows from it).
impl PartialEq for JsonSchema {
    fn eq(&self, other: &Self) -> bool {
        deep_eq(&self.source, &other.source)
    }
}

impl std::fmt::Debug for JsonSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonSchema")
            .field(
                "source",
                &format_args!("{}", crate::json::to_text(&self.source)),
            )
            .finish_non_exhaustive()
    }
}

impl Drop for JsonSchema {
    fn drop(&mut self) {
        // The checked tree frees itself level by level; the source is freed the same way.
        dispose(std::mem::take(&mut self.source));
    }
}

/// A [`JsonSchema`] whose root is `type: "object"`, for consumers that need one (structured
/// output of subagents and workflows).
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectJsonSchema(JsonSchema);

impl ObjectJsonSchema {
    /// The underlying schema.
    pub fn schema(&self) -> &JsonSchema {
        &self.0
    }
}

impl std::ops::Deref for ObjectJsonSchema {
    type Target = JsonSchema;
    fn deref(&self) -> &JsonSchema {
        &self.0
    }
}

/// Which vocabulary a parse accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// The enforced raw subset.
    Enforced,
    /// The structured-output subset: no `oneOf`, a `type` on every node.
    StructuredOutput,
}

const ANNOTATIONS: [&str; 4] = ["description", "title", "default", "examples"];

/// The issue of an `enum`/`const` (the `{}`) on a node without `type`.
const SCALAR_TYPE_NEEDED: &str =
    "`{}` requires a scalar `type` (string, number, integer, boolean or null)";

impl JsonSchema {
    /// Checks `schema` against the enforced subset (`assertSupportedJsonSchema`): any JSON
    /// root; every unsupported keyword and invalid combination is reported, with its path.
    /// Subschemas may nest [`DEFAULT_MAX_DEPTH`] levels below the root.
    ///
    /// # Errors
    ///
    /// As [`JsonSchema::parse_within`] with [`DEFAULT_MAX_DEPTH`].
    pub fn parse(schema: &JsonValue) -> Result<JsonSchema, SchemaError> {
        Self::parse_within(schema, DEFAULT_MAX_DEPTH)
    }

    /// [`JsonSchema::parse`] with subschemas (`properties/<name>`, `items`, `oneOf/<i>`)
    /// nested at most `limit` levels below the root (a registry's
    /// [`DepthLimit`](crate::json::DepthLimit)); a deeper one is an issue naming the limit.
    /// The `default` and `examples` annotations nest at most `limit` levels too.
    ///
    /// ```
    /// use codemode::schema::JsonSchema;
    /// let list = |items| serde_json::json!({"type": "array", "items": items});
    /// let schema = list(list(list(serde_json::json!({"type": "string"}))));
    /// assert!(JsonSchema::parse_within(&schema, 3).is_ok());
    /// let err = JsonSchema::parse_within(&schema, 2).unwrap_err();
    /// assert_eq!(err.issues[0].to_string(), "#/items/items/items: schema nests deeper than 2 levels");
    /// ```
    ///
    /// # Errors
    ///
    /// A [`SchemaError`] listing every issue with its pointer: an unsupported keyword or `type`,
    /// an invalid combination or value (an `enum` value of the wrong type, ...), a subschema or
    /// annotation nested deeper than `limit`.
    pub fn parse_within(schema: &JsonValue, limit: usize) -> Result<JsonSchema, SchemaError> {
        parse_dialect(schema, Dialect::Enforced, limit)
    }

    /// The schema that accepts any JSON value (`{}`).
    pub fn any() -> JsonSchema {
        JsonSchema {
            root: Node {
                shape: Shape::Any,
                allowed: None,
                constant: None,
            },
            source: JsonValue::Object(Default::default()),
        }
    }

    /// The schema as JSON, exactly as given.
    pub fn as_json(&self) -> &JsonValue {
        &self.source
    }

    /// The root's declared type, if any.
    pub fn root_type(&self) -> Option<JsonType> {
        match &self.root.shape {
            Shape::Any | Shape::OneOf(_) => None,
            Shape::Scalar(kind) => Some(*kind),
            Shape::Array { .. } => Some(JsonType::Array),
            Shape::Object(_) => Some(JsonType::Object),
        }
    }

    /// Requires an object root (`assertObjectJsonSchema`).
    ///
    /// # Errors
    ///
    /// A [`SchemaError`] with one issue at `#` when the root's `type` is not `object`.
    pub fn assert_object(self) -> Result<ObjectJsonSchema, SchemaError> {
        if self.root_type() == Some(JsonType::Object) {
            Ok(ObjectJsonSchema(self))
        } else {
            Err(SchemaError {
                issues: vec![SchemaIssue {
                    pointer: "#".into(),
                    message: "the root must be `\"type\": \"object\"`".into(),
                }],
            })
        }
    }

    /// Every way `value` fails this schema, each with its path; empty means valid. Total:
    /// never panics, and walks the schema and the value with a stack of its own. The value may nest
    /// [`DEFAULT_MAX_DEPTH`] levels ([`JsonSchema::validate_within`] takes the limit).
    pub fn validate(&self, value: &JsonValue) -> Vec<Violation> {
        self.validate_within(value, DEFAULT_MAX_DEPTH)
    }

    /// [`JsonSchema::validate`] with the value's nesting bounded by `limit` levels (a
    /// registry's [`DepthLimit`](crate::json::DepthLimit)): deeper is one violation.
    ///
    /// ```
    /// let any = codemode::schema::JsonSchema::any();
    /// let value = serde_json::json!([[[1]]]);
    /// assert!(any.validate_within(&value, 3).is_empty());
    /// assert_eq!(any.validate_within(&value, 2)[0].to_string(), "$[0][0]: value nests deeper than 2 levels");
    /// ```
    pub fn validate_within(&self, value: &JsonValue, limit: usize) -> Vec<Violation> {
        super::validate::validate(&self.root, value, limit)
    }

    /// Whether `value` satisfies this schema (nesting within [`DEFAULT_MAX_DEPTH`]).
    pub fn is_valid(&self, value: &JsonValue) -> bool {
        self.is_valid_within(value, DEFAULT_MAX_DEPTH)
    }

    /// [`JsonSchema::is_valid`] with the value's nesting bounded by `limit` levels.
    pub fn is_valid_within(&self, value: &JsonValue, limit: usize) -> bool {
        super::validate::is_valid(&self.root, value, limit)
    }
}

/// Checks `schema` in `dialect`, its subschemas nested at most `limit` levels below the
/// root; the schema is kept as its source (a copy made without recursion).
pub(crate) fn parse_dialect(
    schema: &JsonValue,
    dialect: Dialect,
    limit: usize,
) -> Result<JsonSchema, SchemaError> {
    let root = check(schema, dialect, limit)?;
    Ok(JsonSchema {
        root,
        source: deep_clone(schema),
    })
}

/// [`parse_dialect`] of a schema the caller gives away: kept as the source, not copied
/// (freed level by level when it is refused).
pub(crate) fn parse_owned(
    schema: JsonValue,
    dialect: Dialect,
    limit: usize,
) -> Result<JsonSchema, SchemaError> {
    match check(&schema, dialect, limit) {
        Ok(root) => Ok(JsonSchema {
            root,
            source: schema,
        }),
        Err(err) => {
            dispose(schema);
            Err(err)
        }
    }
}

fn check(schema: &JsonValue, dialect: Dialect, limit: usize) -> Result<Node, SchemaError> {
    let mut parser = Parser {
        dialect,
        limit,
        issues: Vec::new(),
        pointer: String::from("#"),
    };
    let root = parser.tree(schema);
    if parser.issues.is_empty() {
        Ok(root)
    } else {
        Err(SchemaError {
            issues: parser.issues,
        })
    }
}

/// A schema node's keywords.
type Keywords = serde_json::Map<String, JsonValue>;

struct Parser {
    dialect: Dialect,
    /// How many levels of subschemas may nest below the root.
    limit: usize,
    issues: Vec<SchemaIssue>,
    pointer: String,
}

/// A node whose subschemas are being checked (see [`Parser::tree`]).
struct Open<'s> {
    frame: Frame<'s>,
    /// The node's level (the root's is 0).
    depth: usize,
    /// The length of the node's pointer.
    pointer: usize,
}

enum Frame<'s> {
    /// `oneOf`: the branches left, and those checked.
    OneOf {
        branches: std::iter::Enumerate<std::slice::Iter<'s, JsonValue>>,
        nodes: Vec<Node>,
    },
    /// `"type": "object"`: the properties left (`None`: no `properties` object), the one
    /// being checked, and those checked.
    Object {
        map: &'s Keywords,
        members: Option<serde_json::map::Iter<'s>>,
        current: &'s str,
        properties: Vec<(String, Node)>,
        index: HashMap<String, usize>,
    },
    /// `"type": "array"` with an `items` schema: it, until it is checked.
    Array {
        map: &'s Keywords,
        items: Option<&'s JsonValue>,
        checked: Option<Node>,
    },
}

/// What entering a node gives: the node itself, or a node whose subschemas come next.
enum Entered<'s> {
    Node(Node),
    Open(Open<'s>),
}

fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

fn describe(value: &JsonValue) -> String {
    // Written without recursion: a schema may nest as deep as its limit.
    let text = crate::json::to_text(value);
    if text.chars().count() > 40 {
        let short: String = text.chars().take(37).collect();
        format!("{short}...")
    } else {
        text
    }
}

impl Parser {
    fn issue(&mut self, message: impl Into<String>) {
        self.issues.push(SchemaIssue {
            pointer: self.pointer.clone(),
            message: message.into(),
        });
    }

    fn issue_at(&mut self, keyword: &str, message: impl Into<String>) {
        self.issues.push(SchemaIssue {
            pointer: format!("{}/{}", self.pointer, escape_pointer(keyword)),
            message: message.into(),
        });
    }

    /// Appends one pointer segment per entry of `segments`.
    fn push_segments(&mut self, segments: &[&str]) {
        for segment in segments {
            self.pointer.push('/');
            self.pointer.push_str(&escape_pointer(segment));
        }
    }

    fn any() -> Node {
        Node {
            shape: Shape::Any,
            allowed: None,
            constant: None,
        }
    }

    /// The checked tree of `root`, walked with a stack of its own: a node's subschemas are
    /// checked where their issues belong in the node's (after the properties come
    /// `required`, `additionalProperties`, then `enum` and `const`), and no depth of
    /// nesting reaches the thread's stack.
    fn tree(&mut self, root: &JsonValue) -> Node {
        let mut open: Vec<Open<'_>> = Vec::new();
        let mut finished = match self.enter(root, 0) {
            Entered::Node(node) => Some(node),
            Entered::Open(node) => {
                open.push(node);
                None
            }
        };
        loop {
            let Some(top) = open.last_mut() else {
                return finished.unwrap_or_else(Self::any);
            };
            self.pointer.truncate(top.pointer);
            if let Some(node) = finished.take() {
                accept(&mut top.frame, node);
            }
            match self.next_child(top) {
                Some((child, depth)) => match self.enter(child, depth) {
                    Entered::Node(node) => finished = Some(node),
                    Entered::Open(node) => open.push(node),
                },
                None => {
                    finished = open.pop().map(|node| self.finish(node.frame));
                }
            }
        }
    }

    /// The next subschema of `node` to check, its pointer segments pushed; `None` when
    /// every one is checked.
    fn next_child<'s>(&mut self, node: &mut Open<'s>) -> Option<(&'s JsonValue, usize)> {
        let depth = node.depth + 1;
        match &mut node.frame {
            Frame::OneOf { branches, .. } => {
                let (index, branch) = branches.next()?;
                self.push_segments(&["oneOf", &index.to_string()]);
                Some((branch, depth))
            }
            Frame::Object {
                members, current, ..
            } => {
                let (name, schema) = members.as_mut()?.next()?;
                *current = name;
                self.push_segments(&["properties", name]);
                Some((schema, depth))
            }
            Frame::Array { items, .. } => {
                let items = items.take()?;
                self.push_segments(&["items"]);
                Some((items, depth))
            }
        }
    }

    /// A node whose subschemas are all checked; the pointer is the node's.
    fn finish(&mut self, frame: Frame<'_>) -> Node {
        match frame {
            Frame::OneOf { nodes, .. } => Node {
                shape: Shape::OneOf(nodes),
                allowed: None,
                constant: None,
            },
            Frame::Object {
                map,
                properties,
                index,
                ..
            } => {
                let required = self.required(map, &index);
                let additional = self.additional_properties(map);
                let shape = Shape::Object(ObjectShape {
                    properties,
                    index,
                    required,
                    additional,
                });
                let (allowed, constant) = self.enum_and_const(map, Some(JsonType::Object));
                Node {
                    shape,
                    allowed,
                    constant,
                }
            }
            Frame::Array { map, checked, .. } => {
                let shape = Shape::Array {
                    items: checked.map(Box::new),
                };
                let (allowed, constant) = self.enum_and_const(map, Some(JsonType::Array));
                Node {
                    shape,
                    allowed,
                    constant,
                }
            }
        }
    }

    /// One schema node, checked one keyword family at a time in the order its issues are
    /// reported: unsupported keywords, annotations, `type`, `oneOf` (which stands alone), the
    /// keywords that need a type, the shape that type gives (an object's or array's
    /// subschemas come next, see [`Self::tree`]), then `enum` and `const`.
    fn enter<'s>(&mut self, schema: &'s JsonValue, depth: usize) -> Entered<'s> {
        if depth > self.limit {
            self.issue(format!("schema nests deeper than {} levels", self.limit));
            return Entered::Node(Self::any());
        }
        let Some(map) = schema.as_object() else {
            self.not_an_object(schema);
            return Entered::Node(Self::any());
        };
        self.unsupported_keywords(map);
        self.annotations(map);
        let declared = self.declared_type(map);
        let pointer = self.pointer.len();
        let open = |frame| {
            Entered::Open(Open {
                frame,
                depth,
                pointer,
            })
        };
        if self.dialect != Dialect::StructuredOutput
            && let Some(branches) = map.get("oneOf")
        {
            self.one_of_alone(map);
            return match self.one_of_branches(branches) {
                Some(items) => open(Frame::OneOf {
                    branches: items.iter().enumerate(),
                    nodes: Vec::with_capacity(items.len()),
                }),
                None => Entered::Node(Node {
                    shape: Shape::OneOf(Vec::new()),
                    allowed: None,
                    constant: None,
                }),
            };
        }
        self.keywords_need_their_type(map, declared);
        let shape = match declared {
            None => Shape::Any,
            Some(JsonType::Object) => {
                return open(Frame::Object {
                    map,
                    members: self.properties(map),
                    current: "",
                    properties: Vec::new(),
                    index: HashMap::new(),
                });
            }
            Some(JsonType::Array) => match self.items(map) {
                Some(items) => {
                    return open(Frame::Array {
                        map,
                        items: Some(items),
                        checked: None,
                    });
                }
                None => Shape::Array { items: None },
            },
            Some(kind) => Shape::Scalar(kind),
        };
        let (allowed, constant) = self.enum_and_const(map, declared);
        Entered::Node(Node {
            shape,
            allowed,
            constant,
        })
    }

    /// A schema that is not an object; a boolean schema is told to use `{}`.
    fn not_an_object(&mut self, schema: &JsonValue) {
        let what = match schema {
            JsonValue::Bool(_) => "boolean schemas are not supported; use {} for any value",
            _ => "a schema must be a JSON object",
        };
        self.issue(format!("{what} (got {})", describe(schema)));
    }

    /// Every keyword outside the dialect's vocabulary, each at its own path, in key order
    /// (`oneOf` is outside the structured-output dialect's).
    fn unsupported_keywords(&mut self, map: &Keywords) {
        let structured = self.dialect == Dialect::StructuredOutput;
        for key in map.keys() {
            let known = matches!(
                key.as_str(),
                "type"
                    | "properties"
                    | "required"
                    | "additionalProperties"
                    | "items"
                    | "enum"
                    | "const"
            ) || ANNOTATIONS.contains(&key.as_str())
                || (key == "oneOf" && !structured);
            if !known {
                self.issue_at(key, format!("unsupported keyword `{key}`"));
            }
        }
    }

    /// Annotations: `description` and `title` are strings, `default` and `examples` are
    /// lossless JSON data.
    fn annotations(&mut self, map: &Keywords) {
        for key in ["description", "title"] {
            if let Some(value) = map.get(key)
                && !value.is_string()
            {
                self.issue_at(
                    key,
                    format!("`{key}` must be a string, got {}", describe(value)),
                );
            }
        }
        for key in ["default", "examples"] {
            if let Some(value) = map.get(key)
                && let Err(err) = check_lossless_within(value, self.limit)
            {
                self.issue_at(key, format!("`{key}` must be lossless JSON data: {err}"));
            }
        }
    }

    /// `type`: one known type name, never an array of them. The structured-output dialect
    /// requires it on every node without `oneOf`.
    fn declared_type(&mut self, map: &Keywords) -> Option<JsonType> {
        let structured = self.dialect == Dialect::StructuredOutput;
        let declared = match map.get("type") {
            None => None,
            Some(JsonValue::String(text)) => match JsonType::parse(text) {
                Some(kind) => Some(kind),
                None => {
                    self.issue_at("type", format!("unknown type {text:?}"));
                    None
                }
            },
            Some(JsonValue::Array(_)) => {
                let hint = if structured { "" } else { "; use oneOf" };
                self.issue_at("type", format!("type arrays are not supported{hint}"));
                None
            }
            Some(other) => {
                self.issue_at(
                    "type",
                    format!("`type` must be a string, got {}", describe(other)),
                );
                None
            }
        };
        if structured && !map.contains_key("type") && !map.contains_key("oneOf") {
            self.issue("every node of a structured-output schema declares `type`");
        }
        declared
    }

    /// `oneOf` (enforced dialect only) stands alone on its node but for annotations.
    fn one_of_alone(&mut self, map: &Keywords) {
        let others: Vec<&str> = map
            .keys()
            .map(String::as_str)
            .filter(|key| *key != "oneOf" && !ANNOTATIONS.contains(key))
            .collect();
        if !others.is_empty() {
            self.issue(format!(
                "`oneOf` cannot be combined with {}; put constraints inside the branches",
                others
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }

    /// The branches of a `oneOf`: an array of at least two schemas, each checked at
    /// `oneOf/<i>`; `None` when it is not an array.
    fn one_of_branches<'s>(&mut self, branches: &'s JsonValue) -> Option<&'s [JsonValue]> {
        let JsonValue::Array(items) = branches else {
            self.issue_at(
                "oneOf",
                format!(
                    "`oneOf` must be an array of schemas, got {}",
                    describe(branches)
                ),
            );
            return None;
        };
        if items.len() < 2 {
            self.issue_at(
                "oneOf",
                format!("`oneOf` needs at least two branches, got {}", items.len()),
            );
        }
        Some(items)
    }

    /// The object keywords require `"type": "object"` and `items` requires `"type": "array"`
    /// on the same node.
    fn keywords_need_their_type(&mut self, map: &Keywords, declared: Option<JsonType>) {
        for (key, kind) in [
            ("properties", JsonType::Object),
            ("required", JsonType::Object),
            ("additionalProperties", JsonType::Object),
            ("items", JsonType::Array),
        ] {
            if map.contains_key(key) && declared != Some(kind) {
                self.issue_at(
                    key,
                    format!("`{key}` requires `\"type\": \"{}\"`", kind.as_str()),
                );
            }
        }
    }

    /// `items`: one schema for every element, checked at `items`; tuple `items` (an
    /// array) are not supported.
    fn items<'s>(&mut self, map: &'s Keywords) -> Option<&'s JsonValue> {
        match map.get("items") {
            None => None,
            Some(JsonValue::Array(_)) => {
                self.issue_at(
                    "items",
                    "tuple `items` (an array of schemas) is not supported",
                );
                None
            }
            Some(items) => Some(items),
        }
    }

    /// `enum` and `const`: scalar values of the node's scalar type, `enum` before `const`,
    /// then whether the `const` is one of the `enum`.
    fn enum_and_const(
        &mut self,
        map: &Keywords,
        declared: Option<JsonType>,
    ) -> (Option<Vec<JsonValue>>, Option<JsonValue>) {
        let scalar_type = match declared {
            Some(kind) if kind.is_scalar() => Some(Some(kind)),
            None => Some(None),
            Some(_) => None,
        };
        // `enum` and `const` constrain a scalar node: without `type` the node would be
        // the unconstrained `{}` and its values would say nothing a type could check.
        let untyped = !map.contains_key("type");
        let allowed = map.get("enum").and_then(|values| {
            if untyped {
                self.issue_at("enum", SCALAR_TYPE_NEEDED.replace("{}", "enum"));
            }
            self.enumeration(values, scalar_type, declared)
        });
        let constant = map
            .get("const")
            .and_then(|value| self.constant(value, scalar_type, untyped));
        if let (Some(values), Some(value)) = (&allowed, &constant)
            && !values
                .iter()
                .any(|member| super::validate::json_equal(member, value))
        {
            self.issue_at(
                "const",
                format!("`const` value {} is not one of `enum`", describe(value)),
            );
        }
        (allowed, constant)
    }

    /// `const`: only on a scalar node (`scalar_type` is `None` on an object or array), with a
    /// `type`, and a scalar value of that type.
    fn constant(
        &mut self,
        value: &JsonValue,
        scalar_type: Option<Option<JsonType>>,
        untyped: bool,
    ) -> Option<JsonValue> {
        let Some(scalar_type) = scalar_type else {
            self.issue_at("const", "`const` is only supported on scalar types");
            return None;
        };
        if untyped {
            self.issue_at("const", SCALAR_TYPE_NEEDED.replace("{}", "const"));
        }
        self.scalar_of(value, scalar_type, "const")
            .then(|| value.clone())
    }

    /// One `enum` or `const` value: a lossless scalar of the node's type, if it has one.
    fn scalar_of(&mut self, value: &JsonValue, kind: Option<JsonType>, keyword: &str) -> bool {
        if value.is_array() || value.is_object() {
            self.issue_at(
                keyword,
                format!(
                    "`{keyword}` values must be scalars, got {}",
                    describe(value)
                ),
            );
            return false;
        }
        if let Err(err) = check_lossless(value) {
            self.issue_at(
                keyword,
                format!("`{keyword}` value is not lossless JSON: {err}"),
            );
            return false;
        }
        if let Some(kind) = kind
            && !kind.matches(value)
        {
            self.issue_at(
                keyword,
                format!(
                    "`{keyword}` value {} does not match the node's type {}",
                    describe(value),
                    kind.as_str()
                ),
            );
            return false;
        }
        true
    }

    /// `enum`: only on a scalar node, a non-empty array of distinct scalar values.
    fn enumeration(
        &mut self,
        values: &JsonValue,
        scalar_type: Option<Option<JsonType>>,
        declared: Option<JsonType>,
    ) -> Option<Vec<JsonValue>> {
        let Some(scalar_type) = scalar_type else {
            self.issue_at(
                "enum",
                format!(
                    "`enum` is only supported on scalar types, not {}",
                    declared.map_or("?", JsonType::as_str)
                ),
            );
            return None;
        };
        let JsonValue::Array(items) = values else {
            self.issue_at(
                "enum",
                format!("`enum` must be an array, got {}", describe(values)),
            );
            return None;
        };
        if items.is_empty() {
            self.issue_at("enum", "`enum` needs at least one value");
            return None;
        }
        let mut ok = true;
        for (index, item) in items.iter().enumerate() {
            ok &= self.scalar_of(item, scalar_type, "enum");
            if items[..index]
                .iter()
                .any(|earlier| super::validate::json_equal(earlier, item))
            {
                self.issue_at("enum", format!("`enum` lists {} twice", describe(item)));
                ok = false;
            }
        }
        ok.then(|| items.clone())
    }

    /// `properties`: an object of schemas, each checked at `properties/<name>` and kept
    /// in declaration order with an index by name; `None` without one.
    fn properties<'s>(&mut self, map: &'s Keywords) -> Option<serde_json::map::Iter<'s>> {
        match map.get("properties") {
            None => None,
            Some(JsonValue::Object(props)) => Some(props.iter()),
            Some(other) => {
                self.issue_at(
                    "properties",
                    format!("`properties` must be an object, got {}", describe(other)),
                );
                None
            }
        }
    }

    /// `required`: an array of declared property names, each listed once.
    fn required(&mut self, map: &Keywords, index: &HashMap<String, usize>) -> Vec<String> {
        let mut required: Vec<String> = Vec::new();
        match map.get("required") {
            None => {}
            Some(JsonValue::Array(names)) => {
                for name in names {
                    match name {
                        JsonValue::String(name) => {
                            if required.contains(name) {
                                self.issue_at(
                                    "required",
                                    format!("`required` lists {name:?} twice"),
                                );
                            } else if !index.contains_key(name) {
                                self.issue_at(
                                    "required",
                                    format!(
                                        "required property {name:?} is not declared in `properties`"
                                    ),
                                );
                            } else {
                                required.push(name.clone());
                            }
                        }
                        other => self.issue_at(
                            "required",
                            format!(
                                "`required` must list property names, got {}",
                                describe(other)
                            ),
                        ),
                    }
                }
            }
            Some(other) => {
                self.issue_at(
                    "required",
                    format!(
                        "`required` must be an array of names, got {}",
                        describe(other)
                    ),
                );
            }
        }
        required
    }

    /// `additionalProperties`: `true` (also when absent) or `false`, never a schema.
    fn additional_properties(&mut self, map: &Keywords) -> bool {
        match map.get("additionalProperties") {
            None => true,
            Some(JsonValue::Bool(flag)) => *flag,
            Some(JsonValue::Object(_)) => {
                self.issue_at(
                    "additionalProperties",
                    "`additionalProperties` must be true or false (schemas are not supported)",
                );
                true
            }
            Some(other) => {
                self.issue_at(
                    "additionalProperties",
                    format!(
                        "`additionalProperties` must be true or false, got {}",
                        describe(other)
                    ),
                );
                true
            }
        }
    }
}

/// Takes a checked subschema into the node that holds it.
fn accept(frame: &mut Frame<'_>, node: Node) {
    match frame {
        Frame::OneOf { nodes, .. } => nodes.push(node),
        Frame::Object {
            current,
            properties,
            index,
            ..
        } => {
            index.insert((*current).to_owned(), properties.len());
            properties.push(((*current).to_owned(), node));
        }
        Frame::Array { checked, .. } => *checked = Some(node),
    }
}

#[cfg(test)]
mod tests;
