//! The TypeScript spelling of the type model: type expressions, named aliases and the
//! members of `ToolArgsMap`/`ToolOutputMap`.
//!
//! This module owns TypeScript syntax (precedence, quoting of keys, JSDoc lines). The
//! fixed prose and the skeleton of the section live in the templates; the meaning of
//! schema keywords lives in the schema walker.
//!
//! The writer recurses once or twice per level of a type, and a type nests at most a
//! limit the caller gives (deeper parts are `unknown`, and the writer says the limit was
//! reached); indentation stops growing at [`MAX_INDENT`] spaces, so the text of a deep
//! type grows linearly with its depth.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::schema_view::{
    Alias, AliasId, Extra, NumberLiteral, ObjectTy, SdkModel, ToolModel, TupleTy, Ty,
};
use super::text::{is_ts_identifier, push_jsdoc_text, push_string_literal};
use crate::json::JsonValue;

/// How tightly a rendered expression binds: decides where parentheses go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prec {
    Union,
    Intersection,
    Atom,
}

/// What an object that allows other keys adds to its type.
const OPEN_RECORD: &str = "Record<string, JsonValue>";

/// Literal values nest at most this deep in a type; deeper parts are `JsonValue`.
const MAX_LITERAL_DEPTH: usize = 16;

/// Indentation stops growing at this many spaces (16 levels of objects), so the text of
/// a deeply nested type stays linear in its depth.
const MAX_INDENT: usize = 32;

/// Alias bodies written inline (by [`json_schema_to_ts`](super::json_schema_to_ts)) stop
/// after this many nodes, so a schema whose references fan out cannot blow up the text.
const INLINE_BUDGET: usize = 20_000;

/// Writes TypeScript for a model's types, straight into one output buffer.
pub(crate) struct TsWriter<'m> {
    aliases: &'m [Alias<'m>],
    /// `Some`: aliases are written inline (the stack of aliases being inlined, to stop
    /// recursion); `None`: aliases are referred to by name.
    inlining: Option<Vec<AliasId>>,
    budget: usize,
    /// Where the members of the unions and intersections being written start and end in
    /// the buffer (a stack: each `joined` owns the entries above its base).
    parts: Vec<(usize, usize)>,
    /// How deep the type being written nests here, and how deep it may (in type levels,
    /// see `schema_view::type_levels`); deeper parts are `unknown`.
    depth: usize,
    limit: usize,
    /// Whether [`Self::limit`] cut anything.
    pub(crate) depth_limited: bool,
    /// How many times `unknown` was written (see [`repeatable`]).
    unknowns: usize,
}

impl<'m> TsWriter<'m> {
    /// A writer that refers to aliases by name (the SDK declares them); types nest at
    /// most `limit` type levels.
    pub(crate) fn named(aliases: &'m [Alias<'m>], limit: usize) -> Self {
        TsWriter {
            aliases,
            inlining: None,
            budget: usize::MAX,
            parts: Vec::new(),
            depth: 0,
            limit,
            depth_limited: false,
            unknowns: 0,
        }
    }

    /// A writer that writes aliases inline; recursive references become `unknown`.
    pub(crate) fn inline(aliases: &'m [Alias<'m>], limit: usize) -> Self {
        TsWriter {
            inlining: Some(Vec::new()),
            budget: INLINE_BUDGET,
            ..TsWriter::named(aliases, limit)
        }
    }

    /// The type expression of `ty`, for a position indented by `indent` spaces.
    pub(crate) fn expression(&mut self, ty: &Ty, indent: usize) -> String {
        let mut out = String::new();
        self.write(&mut out, ty, indent);
        out
    }

    /// Appends the type expression of `ty` to `out`; returns how tightly it binds.
    fn write(&mut self, out: &mut String, ty: &Ty, indent: usize) -> Prec {
        if self.budget == 0 || self.depth >= self.limit {
            self.depth_limited |= self.depth >= self.limit;
            self.push_unknown(out);
            return Prec::Atom;
        }
        self.budget -= 1;
        self.depth += 1;
        let prec = self.write_type(out, ty, indent);
        self.depth -= 1;
        prec
    }

    fn push_unknown(&mut self, out: &mut String) {
        self.unknowns += 1;
        out.push_str("unknown");
    }

    /// [`Self::write`] within the bounds.
    fn write_type(&mut self, out: &mut String, ty: &Ty, indent: usize) -> Prec {
        let atom = match ty {
            Ty::Unknown => {
                self.push_unknown(out);
                return Prec::Atom;
            }
            Ty::Any => "JsonValue",
            Ty::Never => "never",
            Ty::String => "string",
            Ty::Number | Ty::Integer => "number",
            Ty::Boolean => "boolean",
            Ty::Null => "null",
            Ty::Literal(value) => {
                push_literal(out, value, 0);
                return Prec::Atom;
            }
            Ty::Array(item) => {
                let start = out.len();
                let prec = self.write(out, item, indent);
                wrap_from(out, start, prec, Prec::Atom);
                out.push_str("[]");
                return Prec::Atom;
            }
            Ty::Tuple(tuple) => {
                self.tuple(out, tuple, indent);
                return Prec::Atom;
            }
            Ty::Object(object) => return self.object(out, object, indent),
            Ty::Union(members) => return self.joined(out, members, indent, " | ", Prec::Union),
            Ty::Intersection(members) => {
                return self.joined(out, members, indent, " & ", Prec::Intersection);
            }
            Ty::Alias(id) => return self.alias(out, *id, indent),
        };
        out.push_str(atom);
        Prec::Atom
    }

    fn alias(&mut self, out: &mut String, id: AliasId, indent: usize) -> Prec {
        let aliases = self.aliases;
        let Some(alias) = aliases.get(id) else {
            self.push_unknown(out);
            return Prec::Atom;
        };
        let Some(stack) = &mut self.inlining else {
            out.push_str(&alias.name);
            return Prec::Atom;
        };
        if stack.contains(&id) {
            self.push_unknown(out);
            return Prec::Atom;
        }
        stack.push(id);
        let prec = self.write(out, &alias.ty, indent);
        if let Some(stack) = &mut self.inlining {
            stack.pop();
        }
        prec
    }

    /// The members joined by `separator`; a member that reads exactly like an earlier one
    /// is left out (`integer | number` is `number`).
    fn joined(
        &mut self,
        out: &mut String,
        members: &[Ty],
        indent: usize,
        separator: &str,
        prec: Prec,
    ) -> Prec {
        let base = self.parts.len();
        let mut open = false;
        for member in members {
            let before = out.len();
            if self.parts.len() > base {
                out.push_str(separator);
            }
            let start = out.len();
            // Literals render distinctly (the walker keeps `enum` values as given), so only
            // other members are checked for duplicates.
            if let Ty::Literal(value) = member {
                push_literal(out, value, 0);
                self.parts.push((start, out.len()));
                continue;
            }
            // In an intersection, open objects share one `Record<string, JsonValue>` at the end.
            let member_prec = match member {
                Ty::Object(object)
                    if prec == Prec::Intersection
                        && object.extra == Extra::Open
                        && !object.properties.is_empty() =>
                {
                    open = true;
                    self.object_body(out, object, indent);
                    Prec::Atom
                }
                member => self.write(out, member, indent),
            };
            // Intersections inside unions get parentheses too: easier to read.
            if prec == Prec::Union && member_prec == Prec::Intersection {
                out.insert(start, '(');
                out.push(')');
            } else {
                wrap_from(out, start, member_prec, prec);
            }
            if self.is_repeated(out, base, start) {
                out.truncate(before);
            } else {
                self.parts.push((start, out.len()));
            }
        }
        if open {
            let before = out.len();
            if self.parts.len() > base {
                out.push_str(separator);
            }
            let start = out.len();
            out.push_str(OPEN_RECORD);
            if self.is_repeated(out, base, start) {
                out.truncate(before);
            } else {
                self.parts.push((start, out.len()));
            }
        }
        let count = self.parts.len() - base;
        self.parts.truncate(base);
        match count {
            0 => {
                out.push_str("never");
                Prec::Atom
            }
            1 => Prec::Atom,
            _ => prec,
        }
    }

    /// Whether the text from `start` to the end of `out` equals a part above `base`.
    fn is_repeated(&self, out: &str, base: usize, start: usize) -> bool {
        let text = &out[start..];
        self.parts[base..]
            .iter()
            .any(|&(from, to)| out.get(from..to) == Some(text))
    }

    fn tuple(&mut self, out: &mut String, tuple: &TupleTy, indent: usize) {
        out.push('[');
        for (index, item) in tuple.items.iter().enumerate() {
            if index > 0 {
                out.push_str(", ");
            }
            let start = out.len();
            let prec = self.write(out, item, indent);
            if index >= tuple.required {
                wrap_from(out, start, prec, Prec::Atom);
                out.push('?');
            }
        }
        if let Some(rest) = &tuple.rest {
            if !tuple.items.is_empty() {
                out.push_str(", ");
            }
            out.push_str("...");
            let start = out.len();
            let prec = self.write(out, rest, indent);
            wrap_from(out, start, prec, Prec::Atom);
            out.push_str("[]");
        }
        out.push(']');
    }

    fn object(&mut self, out: &mut String, object: &ObjectTy, indent: usize) -> Prec {
        let inner = indent + 2;
        if object.properties.is_empty() {
            match &object.extra {
                Extra::Closed => out.push_str("Record<string, never>"),
                Extra::Open => out.push_str(OPEN_RECORD),
                Extra::Typed(ty, doc) if doc.is_empty() => {
                    out.push_str("{ [key: string]: ");
                    self.write(out, ty, inner);
                    out.push_str(" }");
                }
                Extra::Typed(ty, doc) => {
                    out.push_str("{\n");
                    push_doc(out, inner, doc);
                    out.push_str(pad(inner));
                    out.push_str("[key: string]: ");
                    self.write(out, ty, inner);
                    out.push_str(";\n");
                    out.push_str(pad(indent));
                    out.push('}');
                }
            }
            return Prec::Atom;
        }
        self.object_body(out, object, indent);
        if object.extra == Extra::Open {
            out.push_str(" & ");
            out.push_str(OPEN_RECORD);
            Prec::Intersection
        } else {
            Prec::Atom
        }
    }

    /// `{ ... }` with the declared properties (and an index signature for typed extra
    /// keys); an open object's `& Record<string, JsonValue>` is the caller's.
    fn object_body(&mut self, out: &mut String, object: &ObjectTy, indent: usize) {
        let inner = indent + 2;
        out.push_str("{\n");
        let typed_extra = matches!(object.extra, Extra::Typed(..));
        let mut property_types = Vec::new();
        for property in &object.properties {
            push_doc(out, inner, &property.doc);
            out.push_str(pad(inner));
            push_key(out, property.name);
            out.push_str(if property.required { ": " } else { "?: " });
            let start = out.len();
            let unknowns = self.unknowns;
            self.write(out, &property.ty, inner);
            if typed_extra {
                let repeated = repeatable(&out[start..], self.unknowns > unknowns);
                self.unknowns += usize::from(repeated == "unknown");
                property_types.push(repeated);
            }
            out.push_str(";\n");
        }
        if let Extra::Typed(ty, doc) = &object.extra {
            // Declared properties must fit the index signature, so it names their types too.
            push_doc(out, inner, doc);
            out.push_str(pad(inner));
            out.push_str("[key: string]: ");
            let start = out.len();
            self.write(out, ty, inner);
            let mut members = vec![(start, out.len())];
            for text in &property_types {
                let seen = members
                    .iter()
                    .any(|&(from, to)| out.get(from..to) == Some(text.as_ref()));
                if !seen {
                    out.push_str(" | ");
                    let from = out.len();
                    out.push_str(text);
                    members.push((from, out.len()));
                }
            }
            out.push_str(";\n");
        }
        out.push_str(pad(indent));
        out.push('}');
    }
}

/// The text of a declared property's type as its object's index signature repeats it: as
/// it is when short, else `JsonValue` (which every type the writer spells but `unknown`
/// fits), or `unknown` when the text has an `unknown` in it. Repeating long texts would
/// double the text at every level of objects with typed extra keys nested in each other.
fn repeatable(text: &str, has_unknown: bool) -> Cow<'static, str> {
    if text.len() <= MAX_REPEATED_TYPE {
        Cow::Owned(text.to_owned())
    } else if has_unknown {
        Cow::Borrowed("unknown")
    } else {
        Cow::Borrowed("JsonValue")
    }
}

/// The longest type text an index signature repeats (see [`repeatable`]).
const MAX_REPEATED_TYPE: usize = 256;

/// Puts the text from `start` to the end of `out` in parentheses when an expression that
/// binds as `prec` stands where `context` is needed.
fn wrap_from(out: &mut String, start: usize, prec: Prec, context: Prec) {
    let needs = match context {
        Prec::Atom => prec != Prec::Atom,
        Prec::Intersection => prec == Prec::Union,
        Prec::Union => false,
    };
    if needs {
        out.insert(start, '(');
        out.push(')');
    }
}

/// `indent` spaces, at most [`MAX_INDENT`].
fn pad(indent: usize) -> &'static str {
    const SPACES: &str = "                                ";
    const _: () = assert!(SPACES.len() == MAX_INDENT);
    &SPACES[..indent.min(MAX_INDENT)]
}

/// Appends `/** doc */` on its own line, if there is any documentation.
pub(crate) fn push_doc(out: &mut String, indent: usize, doc: &str) {
    if !doc.is_empty() {
        out.push_str(pad(indent));
        out.push_str("/** ");
        push_jsdoc_text(out, doc);
        out.push_str(" */\n");
    }
}

/// Appends a property key: bare when it is an identifier, else a quoted string.
pub(crate) fn push_key(out: &mut String, name: &str) {
    if is_ts_identifier(name) {
        out.push_str(name);
    } else {
        push_string_literal(out, name);
    }
}

/// Appends the TypeScript literal type of a JSON value.
fn push_literal(out: &mut String, value: &JsonValue, depth: usize) {
    if depth > MAX_LITERAL_DEPTH {
        out.push_str("JsonValue");
        return;
    }
    match value {
        JsonValue::Null => out.push_str("null"),
        JsonValue::Bool(true) => out.push_str("true"),
        JsonValue::Bool(false) => out.push_str("false"),
        // An integer is written as one (`2`, not `2.0` or `2e0`); one outside the safe
        // range is `number`, since a TypeScript literal would round it. Writing to a
        // `String` cannot fail.
        JsonValue::Number(n) => match NumberLiteral::of(n) {
            NumberLiteral::SafeInteger(i) => {
                let _ = write!(out, "{i}");
            }
            NumberLiteral::LargeInteger => out.push_str("number"),
            NumberLiteral::Fraction => {
                let _ = write!(out, "{n}");
            }
        },
        JsonValue::String(s) => push_string_literal(out, s),
        JsonValue::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                push_literal(out, item, depth + 1);
            }
            out.push(']');
        }
        JsonValue::Object(map) if map.is_empty() => out.push_str("Record<string, never>"),
        JsonValue::Object(map) => {
            out.push_str("{ ");
            for (index, (name, item)) in map.iter().enumerate() {
                if index > 0 {
                    out.push_str("; ");
                }
                push_key(out, name);
                out.push_str(": ");
                push_literal(out, item, depth + 1);
            }
            out.push_str(" }");
        }
    }
}

/// Appends the declarations between `JsonValue` and `ToolArgsMap`: one `type` per alias,
/// separated by blank lines (nothing when there are none).
/// Returns whether the depth limit (`limit` type levels) cut anything.
pub(crate) fn write_alias_declarations(out: &mut String, model: &SdkModel, limit: usize) -> bool {
    let mut writer = TsWriter::named(&model.aliases, limit);
    for (index, alias) in model.aliases.iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        push_doc(out, 0, &alias.doc);
        out.push_str("type ");
        out.push_str(&alias.name);
        out.push_str(" = ");
        writer.write(out, &alias.ty, 0);
        out.push_str(";\n");
    }
    writer.depth_limited
}

/// Appends one tool's member of `ToolArgsMap` (with the tool's description) to `args`
/// and its member of `ToolOutputMap` to `outputs`; `aliases` are those declared so far.
/// Returns whether the depth limit (`limit` type levels) cut anything.
pub(crate) fn write_tool_members(
    args: &mut String,
    outputs: &mut String,
    aliases: &[Alias],
    tool: &ToolModel,
    limit: usize,
) -> bool {
    let mut writer = TsWriter::named(aliases, limit);
    push_doc(args, 2, &tool.description);
    args.push_str("  ");
    push_key(args, tool.name);
    args.push_str(": ");
    writer.write(args, &tool.args, 2);
    args.push_str(";\n");
    outputs.push_str("  ");
    push_key(outputs, tool.name);
    outputs.push_str(": ");
    writer.write(outputs, &tool.output, 2);
    outputs.push_str(";\n");
    writer.depth_limited
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::sdk::schema_view::{SHALLOW_DEPTH, build_single, type_levels};
    use serde_json::json;

    fn ts(schema: JsonValue) -> String {
        let (ty, model) = build_single(&schema, SHALLOW_DEPTH);
        TsWriter::inline(&model.aliases, type_levels(SHALLOW_DEPTH)).expression(&ty, 0)
    }

    #[test]
    fn the_enforced_subset_maps_exactly() {
        assert_eq!(ts(json!({"type": "integer"})), "number");
        assert_eq!(
            ts(json!({"type": "string", "enum": ["a", "b"]})),
            "\"a\" | \"b\""
        );
        assert_eq!(ts(json!({"const": 3})), "3");
        assert_eq!(
            ts(
                json!({"type": "array", "items": {"oneOf": [{"type": "string"}, {"type": "null"}]}})
            ),
            "(string | null)[]"
        );
        assert_eq!(ts(json!({"type": "array"})), "JsonValue[]");
        assert_eq!(ts(json!({"type": "object"})), "Record<string, JsonValue>");
        assert_eq!(
            ts(json!({"type": "object", "additionalProperties": false})),
            "Record<string, never>"
        );
        assert_eq!(ts(json!({})), "JsonValue");
        assert_eq!(
            ts(
                json!({"type": "object", "properties": {"a": {"type": "string", "description": "x */ y"}}, "required": ["a"]})
            ),
            "{\n  /** x *\\/ y */\n  a: string;\n} & Record<string, JsonValue>"
        );
    }

    #[test]
    fn recursion_inlines_until_it_repeats() {
        let text = ts(json!({
            "$ref": "#/$defs/n",
            "$defs": {"n": {"type": "object", "additionalProperties": false, "properties": {"next": {"$ref": "#/$defs/n"}}}}
        }));
        assert_eq!(text, "{\n  next?: unknown;\n}");
    }

    #[test]
    fn contradictory_enums_are_unknown_not_never() {
        assert_eq!(ts(json!({"type": "string", "enum": [1, 2]})), "unknown");
        assert_eq!(
            ts(json!({"type": "integer", "enum": [1.5, "a"]})),
            "unknown"
        );
        assert_eq!(
            ts(json!({"type": ["boolean", "null"], "enum": ["x"]})),
            "unknown"
        );
        assert_eq!(ts(json!({"type": "string", "enum": []})), "unknown");
        assert_eq!(
            ts(
                json!({"type": "object", "properties": {"a": {"type": "boolean", "enum": [0]}}, "additionalProperties": false})
            ),
            "{\n  a?: unknown;\n}"
        );
        // Members that fit stay; `false` is still the schema of no value.
        assert_eq!(ts(json!({"type": "string", "enum": ["a", 1]})), "\"a\"");
        assert_eq!(ts(json!(false)), "never");
    }

    #[test]
    fn integer_constants_of_any_size_are_integer_literals_or_number() {
        assert_eq!(ts(json!({"const": 2.0})), "2");
        assert_eq!(ts(json!({"type": "integer", "const": -0.0})), "0");
        assert_eq!(
            ts(json!({"type": "integer", "const": 1e15})),
            "1000000000000000"
        );
        assert_eq!(
            ts(json!({"const": 9007199254740991u64})),
            "9007199254740991"
        );
        assert_eq!(
            ts(json!({"const": -9007199254740991i64})),
            "-9007199254740991"
        );
        // Outside the safe range a JavaScript number cannot hold the integer.
        assert_eq!(ts(json!({"const": 9007199254740993u64})), "number");
        assert_eq!(ts(json!({"const": u64::MAX})), "number");
        assert_eq!(ts(json!({"const": i64::MIN})), "number");
        assert_eq!(ts(json!({"type": "integer", "const": 1e300})), "number");
        assert_eq!(
            ts(json!({"const": {"n": 1e20, "m": 3.0}})),
            "{ n: number; m: 3 }"
        );
        assert_eq!(ts(json!({"type": "integer", "enum": [1.0, 2]})), "1 | 2");
        // Fractions stay as written.
        assert_eq!(ts(json!({"const": 1.5})), "1.5");
    }

    #[test]
    fn index_signatures_repeat_long_property_types_as_json_value() {
        let mut schema = json!({"type": "string"});
        for _ in 0..40 {
            schema = json!({
                "type": "object", "properties": {"a": schema}, "required": ["a"],
                "additionalProperties": {"type": "string"}
            });
        }
        let text = ts(schema);
        // Repeating each property's type in its index signature doubled the text per level.
        assert!(text.len() < 200 * 40, "{} bytes", text.len());
        assert!(
            text.contains("[key: string]: string | JsonValue;"),
            "{text}"
        );
    }

    #[test]
    fn malformed_schemas_are_unknown() {
        assert_eq!(ts(json!(3)), "unknown");
        assert_eq!(ts(json!({"type": "strin"})), "unknown");
        assert_eq!(ts(json!({"type": "object", "properties": []})), "unknown");
    }
}
