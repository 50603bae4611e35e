//! Validation of values against a checked schema tree: total, path-qualified, bounded.

use crate::json::{JsonPath, JsonValue, check_lossless, type_name};

use super::Violation;
use super::model::{Node, ObjectShape, Shape};

/// JSON equality with numbers compared by value (`1 == 1.0`), as JSON Schema's `enum`
/// and `const` require.
pub(crate) fn json_equal(a: &JsonValue, b: &JsonValue) -> bool {
    match (a, b) {
        (JsonValue::Number(x), JsonValue::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                x == y
            } else if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                x == y
            } else {
                x.as_f64() == y.as_f64()
            }
        }
        (JsonValue::Array(x), JsonValue::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (JsonValue::Object(x), JsonValue::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

fn short(value: &JsonValue) -> String {
    cut(crate::json::to_text(value), 60)
}

/// The longest text of one branch's reason in a `oneOf` message: a branch's first
/// violation may itself be a `oneOf` message, and a message that quoted every level in
/// full would grow with the nesting (cut with `...`).
const MAX_REASON: usize = 200;

/// Where a walk is: its violations and path. A `oneOf` branch is walked in a context of its
/// own (from `$`, stopping at its first violation).
struct Walk {
    violations: Vec<Violation>,
    path: JsonPath,
    /// When only validity matters, stop at the first violation.
    first_only: bool,
    /// How deep the value may nest (its own level is 1).
    limit: usize,
}

/// A node whose value's members (or whose `oneOf` branches) are being walked.
enum Frame<'s, 'v> {
    /// An array's elements against `items`; `pushed` says whether the current element's
    /// index is on the path.
    Array {
        node: &'s Node,
        value: &'v JsonValue,
        items: &'s Node,
        elements: std::iter::Enumerate<std::slice::Iter<'v, JsonValue>>,
        depth: usize,
        pushed: bool,
    },
    /// An object's members against its properties.
    Object {
        node: &'s Node,
        value: &'v JsonValue,
        shape: &'s ObjectShape,
        members: serde_json::map::Iter<'v>,
        depth: usize,
        pushed: bool,
    },
    /// `oneOf` (boxed: its state is larger than the others', and rarer).
    OneOf(Box<OneOf<'s, 'v>>),
}

/// [`Frame::OneOf`]: the branches left; while one is walked, `outer` holds the walk's
/// context.
struct OneOf<'s, 'v> {
    node: &'s Node,
    value: &'v JsonValue,
    branches: std::iter::Enumerate<std::slice::Iter<'s, Node>>,
    count: usize,
    depth: usize,
    current: usize,
    outer: Option<Walk>,
    matching: Vec<usize>,
    /// Each failing branch and its first violation (written out only when no branch
    /// matches).
    reasons: Vec<(usize, Violation)>,
}

/// What a frame does next.
enum Step<'s, 'v> {
    /// Walks this value against this node, at this depth, then comes back.
    Walk(&'s Node, &'v JsonValue, usize),
    /// Walks what is inside a member's value (the frame), then comes back.
    Push(Frame<'s, 'v>),
    /// The frame is done; `true` when its node's shape matched (then its `enum` and
    /// `const` are looked at).
    Done(bool),
}

impl Walk {
    fn new(first_only: bool, limit: usize) -> Self {
        Walk {
            violations: Vec::new(),
            path: JsonPath::root(),
            first_only,
            limit,
        }
    }

    fn report(&mut self, message: String) {
        self.violations.push(Violation {
            path: self.path.to_string(),
            message,
        });
    }

    fn done(&self) -> bool {
        self.first_only && !self.violations.is_empty()
    }

    /// Walks `value` against `node`, with a stack of frames of its own: no depth of
    /// schema or value reaches the thread's stack. Each value is checked for its depth and
    /// its numbers first, then against the node's shape, then (when the shape matched)
    /// against its `enum` and `const`.
    fn run(&mut self, node: &Node, value: &JsonValue, depth: usize) {
        let mut frames: Vec<Frame<'_, '_>> = Vec::new();
        let mut next = Some((node, value, depth));
        loop {
            if let Some((node, value, depth)) = next.take()
                && let Some(frame) = self.enter(node, value, depth)
            {
                frames.push(frame);
            }
            let Some(frame) = frames.last_mut() else {
                return;
            };
            match self.step(frame) {
                Step::Walk(node, value, depth) => next = Some((node, value, depth)),
                Step::Push(frame) => frames.push(frame),
                Step::Done(matched) => {
                    if let Some(frame) = frames.pop()
                        && matched
                    {
                        let (node, value) = match frame {
                            Frame::Array { node, value, .. }
                            | Frame::Object { node, value, .. } => (node, value),
                            Frame::OneOf(one_of) => (one_of.node, one_of.value),
                        };
                        self.enum_and_const(node, value);
                    }
                }
            }
        }
    }

    /// One value against one node: done at once, or the frame that walks what is inside.
    fn enter<'s, 'v>(
        &mut self,
        node: &'s Node,
        value: &'v JsonValue,
        depth: usize,
    ) -> Option<Frame<'s, 'v>> {
        if depth >= self.limit && (value.is_array() || value.is_object()) {
            self.report(format!("value nests deeper than {} levels", self.limit));
            return None;
        }
        if value.is_number() && check_lossless(value).is_err() {
            self.lossless_number(value);
            return None;
        }
        match &node.shape {
            Shape::Any => self.bounded(value, depth),
            Shape::Scalar(kind) => {
                if !kind.matches(value) {
                    self.report(format!(
                        "expected {}, got {}",
                        kind.as_str(),
                        type_name(value)
                    ));
                    return None;
                }
            }
            Shape::Array { items } => {
                let JsonValue::Array(elements) = value else {
                    self.report(format!("expected array, got {}", type_name(value)));
                    return None;
                };
                return Some(Frame::Array {
                    node,
                    value,
                    items: items.as_deref().unwrap_or(&ANY),
                    elements: elements.iter().enumerate(),
                    depth,
                    pushed: false,
                });
            }
            Shape::Object(shape) => {
                let JsonValue::Object(map) = value else {
                    self.report(format!("expected object, got {}", type_name(value)));
                    return None;
                };
                if self.required(shape, map) {
                    return Some(Frame::Object {
                        node,
                        value,
                        shape,
                        members: map.iter(),
                        depth,
                        pushed: false,
                    });
                }
            }
            Shape::OneOf(branches) => {
                return Some(Frame::OneOf(Box::new(OneOf {
                    node,
                    value,
                    branches: branches.iter().enumerate(),
                    count: branches.len(),
                    depth,
                    current: 0,
                    outer: None,
                    matching: Vec::new(),
                    reasons: Vec::new(),
                })));
            }
        }
        self.enum_and_const(node, value);
        None
    }

    /// What `frame` does next, now that what it asked for last is walked.
    fn step<'s, 'v>(&mut self, frame: &mut Frame<'s, 'v>) -> Step<'s, 'v> {
        match frame {
            // Each element against `items`; the walk stops at an element when it is done.
            Frame::Array {
                items,
                elements,
                depth,
                pushed,
                ..
            } => {
                if std::mem::take(pushed) {
                    self.path.pop();
                    if self.done() {
                        return Step::Done(false);
                    }
                }
                // An element checked at once (a scalar) is done here; one with members
                // comes back when they are.
                for (index, element) in elements.by_ref() {
                    self.path.push_index(index);
                    if let Some(inner) = self.enter(items, element, *depth + 1) {
                        *pushed = true;
                        return Step::Push(inner);
                    }
                    self.path.pop();
                    if self.done() {
                        return Step::Done(false);
                    }
                }
                Step::Done(true)
            }
            // Each member against its property, any value, or refused as not allowed.
            Frame::Object {
                shape,
                members,
                depth,
                pushed,
                ..
            } => {
                if std::mem::take(pushed) {
                    self.path.pop();
                    if self.done() {
                        return Step::Done(true);
                    }
                }
                for (key, member) in members.by_ref() {
                    self.path.push_key(key);
                    let schema = match shape.index.get(key) {
                        Some(&slot) => &shape.properties[slot].1,
                        None if !shape.additional => {
                            self.report(
                                "property is not allowed (additionalProperties is false)".into(),
                            );
                            self.path.pop();
                            if self.done() {
                                return Step::Done(true);
                            }
                            continue;
                        }
                        None => &ANY,
                    };
                    if let Some(inner) = self.enter(schema, member, *depth + 1) {
                        *pushed = true;
                        return Step::Push(inner);
                    }
                    self.path.pop();
                    if self.done() {
                        return Step::Done(true);
                    }
                }
                Step::Done(true)
            }
            // Each branch in a context of its own: it matches when its walk finds nothing,
            // else its first violation is its reason.
            Frame::OneOf(one_of) => {
                let one_of = &mut **one_of;
                if let Some(outer) = one_of.outer.take() {
                    let inner = std::mem::replace(self, outer);
                    match inner.violations.into_iter().next() {
                        None => one_of.matching.push(one_of.current),
                        Some(first) => one_of.reasons.push((one_of.current, first)),
                    }
                }
                if let Some((index, branch)) = one_of.branches.next() {
                    one_of.current = index;
                    let limit = self.limit;
                    one_of.outer = Some(std::mem::replace(self, Walk::new(true, limit)));
                    return Step::Walk(branch, one_of.value, one_of.depth);
                }
                self.one_of_verdict(one_of.count, &one_of.matching, &one_of.reasons);
                Step::Done(true)
            }
        }
    }

    /// `oneOf`: exactly one branch matches; when none does, each branch's first violation
    /// is the reason (cut at [`MAX_REASON`] characters).
    fn one_of_verdict(&mut self, count: usize, matching: &[usize], reasons: &[(usize, Violation)]) {
        match matching.len() {
            1 => {}
            0 => {
                let reasons: Vec<String> = reasons
                    .iter()
                    .map(|(index, first)| {
                        format!("branch {index}: {}", cut(first.to_string(), MAX_REASON))
                    })
                    .collect();
                self.report(format!(
                    "matches none of the {count} oneOf branches ({})",
                    reasons.join("; ")
                ));
            }
            _ => self.report(format!(
                "matches {} oneOf branches ({}); exactly one must match",
                matching.len(),
                matching
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// `required`: each missing property is reported; `false` when the walk is done.
    fn required(&mut self, shape: &ObjectShape, map: &serde_json::Map<String, JsonValue>) -> bool {
        for name in &shape.required {
            if !map.contains_key(name) {
                self.path.push_key(name);
                self.report("required property is missing".into());
                self.path.pop();
                if self.done() {
                    return false;
                }
            }
        }
        true
    }

    /// `enum` (the value is one of them) and `const` (the value is it), numbers compared by
    /// value.
    fn enum_and_const(&mut self, node: &Node, value: &JsonValue) {
        if let Some(allowed) = &node.allowed
            && !allowed.iter().any(|candidate| json_equal(candidate, value))
        {
            let list: Vec<String> = allowed.iter().map(short).collect();
            self.report(format!(
                "expected one of {}, got {}",
                list.join(", "),
                short(value)
            ));
        }
        if let Some(constant) = &node.constant
            && !json_equal(constant, value)
        {
            self.report(format!(
                "expected {}, got {}",
                short(constant),
                short(value)
            ));
        }
    }

    /// Any value is accepted, but it must still be lossless JSON: every number that is
    /// not is reported, and its nesting counts against the walk's limit (the first place
    /// too deep is reported once).
    /// Iterative: the walk keeps its own stack.
    fn bounded(&mut self, value: &JsonValue, depth: usize) {
        /// A container being walked; `pushed` says whether its current child's step is on
        /// the walk's path.
        struct Frame<'a> {
            children: Children<'a>,
            pushed: bool,
        }
        enum Children<'a> {
            Array(std::iter::Enumerate<std::slice::Iter<'a, JsonValue>>),
            Object(serde_json::map::Iter<'a>),
        }
        let limit = self.limit;
        let mut too_deep_reported = false;
        let mut frames: Vec<Frame<'_>> = Vec::new();
        let mut next = Some(value);
        loop {
            if let Some(value) = next.take() {
                let container = value.is_array() || value.is_object();
                if container && depth + frames.len() >= limit {
                    // Too deep: reported once, and never entered.
                    if !std::mem::replace(&mut too_deep_reported, true) {
                        self.report(format!("value nests deeper than {limit} levels"));
                    }
                } else {
                    match value {
                        JsonValue::Number(_) => self.lossless_number(value),
                        JsonValue::Array(items) => frames.push(Frame {
                            children: Children::Array(items.iter().enumerate()),
                            pushed: false,
                        }),
                        JsonValue::Object(map) => frames.push(Frame {
                            children: Children::Object(map.iter()),
                            pushed: false,
                        }),
                        _ => {}
                    }
                }
                if self.done() {
                    let pushed = frames.iter().filter(|frame| frame.pushed).count();
                    for _ in 0..pushed {
                        self.path.pop();
                    }
                    return;
                }
            }
            let Some(frame) = frames.last_mut() else {
                return;
            };
            if frame.pushed {
                self.path.pop();
                frame.pushed = false;
            }
            let child = match &mut frame.children {
                Children::Array(items) => items.next().map(|(index, child)| {
                    self.path.push_index(index);
                    child
                }),
                Children::Object(members) => members.next().map(|(key, child)| {
                    self.path.push_key(key);
                    child
                }),
            };
            match child {
                Some(child) => {
                    frame.pushed = true;
                    next = Some(child);
                }
                None => {
                    frames.pop();
                }
            }
        }
    }

    /// Reports a number JavaScript would change (an integer outside the safe range): no
    /// schema accepts a value that is not lossless JSON.
    fn lossless_number(&mut self, value: &JsonValue) {
        if let Err(err) = check_lossless(value) {
            self.report(format!("not lossless JSON: {}", err.reason));
        }
    }
}

/// `text`, cut to at most `max` characters (the last three `...`).
fn cut(text: String, max: usize) -> String {
    if text.chars().count() > max {
        let head: String = text.chars().take(max.saturating_sub(3)).collect();
        format!("{head}...")
    } else {
        text
    }
}

static ANY: Node = Node {
    shape: Shape::Any,
    allowed: None,
    constant: None,
};

/// Every violation of `value` against `node`, its nesting within `limit` levels.
pub(crate) fn validate(node: &Node, value: &JsonValue, limit: usize) -> Vec<Violation> {
    let mut walk = Walk::new(false, limit);
    walk.run(node, value, 0);
    walk.violations
}

/// Whether `value` satisfies `node`, its nesting within `limit` levels.
pub(crate) fn is_valid(node: &Node, value: &JsonValue, limit: usize) -> bool {
    let mut walk = Walk::new(true, limit);
    walk.run(node, value, 0);
    walk.violations.is_empty()
}

#[cfg(test)]
mod tests {
    use super::super::JsonSchema;
    use serde_json::{Value, json};

    fn check(schema: Value, value: Value) -> Vec<String> {
        JsonSchema::parse(&schema)
            .unwrap()
            .validate(&value)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn scalar_types() {
        assert!(check(json!({"type": "string"}), json!("x")).is_empty());
        assert_eq!(
            check(json!({"type": "string"}), json!(1)),
            ["$: expected string, got integer"]
        );
        assert!(check(json!({"type": "number"}), json!(1)).is_empty());
        assert!(check(json!({"type": "number"}), json!(1.5)).is_empty());
        assert!(check(json!({"type": "integer"}), json!(2)).is_empty());
        assert!(check(json!({"type": "integer"}), json!(2.0)).is_empty());
        assert_eq!(
            check(json!({"type": "integer"}), json!(2.5)),
            ["$: expected integer, got number"]
        );
        assert_eq!(
            check(json!({"type": "boolean"}), json!(0)),
            ["$: expected boolean, got integer"]
        );
        assert_eq!(
            check(json!({"type": "null"}), json!(false)),
            ["$: expected null, got boolean"]
        );
    }

    #[test]
    fn empty_schema_accepts_anything() {
        for value in [
            json!(null),
            json!([1, {"a": []}]),
            json!("x"),
            json!({"k": 1.5}),
        ] {
            assert!(check(json!({"description": "anything"}), value).is_empty());
        }
    }

    #[test]
    fn objects_list_every_violation_with_paths() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "inner": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false}
            },
            "required": ["name", "tags"],
            "additionalProperties": false
        });
        assert_eq!(
            check(
                schema,
                json!({"tags": ["a", 2, "c", false], "inner": {"m": 1}, "zzz": 0})
            ),
            [
                "$.name: required property is missing",
                "$.tags[1]: expected string, got integer",
                "$.tags[3]: expected string, got boolean",
                "$.inner.n: required property is missing",
                "$.inner.m: property is not allowed (additionalProperties is false)",
                "$.zzz: property is not allowed (additionalProperties is false)",
            ]
        );
    }

    #[test]
    fn open_objects_allow_extra_keys_and_no_defaults_apply() {
        let schema =
            json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}});
        assert!(check(schema.clone(), json!({"b": 1})).is_empty());
        assert!(check(schema, json!({})).is_empty());
    }

    #[test]
    fn enum_and_const_compare_numbers_by_value() {
        assert!(check(json!({"type": "number", "enum": [1, 2]}), json!(1.0)).is_empty());
        assert_eq!(
            check(json!({"type": "string", "enum": ["a", "b"]}), json!("c")),
            ["$: expected one of \"a\", \"b\", got \"c\""]
        );
        // (`enum`/`const` need a scalar `type`: a schema without one is refused by parse.)
        assert_eq!(
            check(json!({"type": "integer", "const": 3}), json!(4)),
            ["$: expected 3, got 4"]
        );
        assert!(check(json!({"type": "number", "const": 1}), json!(1.0)).is_empty());
        assert!(check(json!({"type": "integer", "enum": [1, 2]}), json!(2.0)).is_empty());
    }

    #[test]
    fn numbers_that_are_not_lossless_are_refused_everywhere() {
        let unsafe_int = json!(9007199254740993u64);
        let reason = "not lossless JSON: integer 9007199254740993 is outside ±9007199254740991 and would change as a JavaScript number";
        for schema in [
            json!({}),
            json!({"description": "anything"}),
            json!({"type": "number"}),
            json!({"type": "integer"}),
            json!({"oneOf": [{"type": "number"}, {"type": "string"}]}),
        ] {
            assert_eq!(
                check(schema.clone(), unsafe_int.clone()),
                [format!("$: {reason}")],
                "{schema}"
            );
        }
        assert_eq!(
            check(json!({"type": "integer"}), json!(-9007199254740993i64)),
            [
                "$: not lossless JSON: integer -9007199254740993 is outside ±9007199254740991 and would change as a JavaScript number"
            ]
        );
        // Inside values no type constrains: arrays without items, open objects, `{}`.
        assert_eq!(
            check(
                json!({"type": "object", "properties": {"a": {"type": "array"}}}),
                json!({"a": [1, unsafe_int.clone()], "b": {"c": unsafe_int.clone()}})
            ),
            [format!("$.a[1]: {reason}"), format!("$.b.c: {reason}")]
        );
        // The edges of the safe range are fine.
        for value in [
            json!(9007199254740991u64),
            json!(-9007199254740991i64),
            json!(1e300),
        ] {
            assert!(check(json!({}), value.clone()).is_empty(), "{value}");
            assert!(
                check(json!({"type": "number"}), value.clone()).is_empty(),
                "{value}"
            );
        }
        let any = JsonSchema::parse(&json!({})).unwrap();
        assert!(!any.is_valid(&json!([unsafe_int])));
    }

    #[test]
    fn one_of_needs_exactly_one_match() {
        let schema = json!({"oneOf": [{"type": "string"}, {"type": "integer"}]});
        assert!(check(schema.clone(), json!("a")).is_empty());
        assert_eq!(
            check(schema, json!(true)),
            [
                "$: matches none of the 2 oneOf branches (branch 0: $: expected string, got boolean; branch 1: $: expected integer, got boolean)"
            ]
        );
        let overlapping = json!({"oneOf": [{"type": "number"}, {"type": "integer"}]});
        assert_eq!(
            check(overlapping.clone(), json!(3)),
            ["$: matches 2 oneOf branches (0, 1); exactly one must match"]
        );
        assert!(check(overlapping, json!(3.5)).is_empty());
    }

    #[test]
    fn arrays_without_items_accept_any_items() {
        assert!(check(json!({"type": "array"}), json!([1, "a", null, {}])).is_empty());
        assert_eq!(
            check(json!({"type": "array"}), json!({})),
            ["$: expected array, got object"]
        );
    }

    /// A value nested `depth` arrays deep, never dropped (serde_json's Drop of a value
    /// this deep would itself recurse).
    fn nested_arrays(depth: usize) -> std::mem::ManuallyDrop<Value> {
        let mut value = json!(1);
        for _ in 0..depth {
            value = Value::Array(vec![value]);
        }
        std::mem::ManuallyDrop::new(value)
    }

    #[test]
    fn hostile_nesting_is_a_violation_not_a_stack_overflow() {
        let deep = nested_arrays(100_000);
        let any = JsonSchema::parse(&json!({})).unwrap();
        let found = any.validate(&deep);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains(&format!(
                "value nests deeper than {} levels",
                crate::json::DEFAULT_MAX_DEPTH
            )),
            "{found:?}"
        );
        assert!(!any.is_valid(&deep));

        let typed =
            JsonSchema::parse(&json!({"type": "array", "items": {"type": "array"}})).unwrap();
        assert_eq!(typed.validate(&deep).len(), 1);
        let one_of =
            JsonSchema::parse(&json!({"oneOf": [{"type": "array"}, {"type": "string"}]})).unwrap();
        assert_eq!(one_of.validate(&deep).len(), 1);
    }

    #[test]
    fn huge_arrays_are_validated_without_trouble() {
        let value = Value::Array(vec![json!("x"); 1_000_000]);
        assert!(
            check(
                json!({"type": "array", "items": {"type": "string"}}),
                value.clone()
            )
            .is_empty()
        );
        let mut bad = value;
        bad.as_array_mut().unwrap()[999_999] = json!(1);
        assert_eq!(
            check(json!({"type": "array", "items": {"type": "string"}}), bad),
            ["$[999999]: expected string, got integer"]
        );
    }
}
