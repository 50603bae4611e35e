//! The TypeScript spelling of the type model: type expressions, named aliases and the
//! members of `ToolArgsMap`/`ToolOutputMap`.
//!
//! This module owns TypeScript syntax (precedence, quoting of keys, JSDoc lines). The
//! fixed prose and the skeleton of the section live in the templates; the meaning of
//! schema keywords lives in the schema walker.

use std::borrow::Cow;

use super::schema_view::{Alias, AliasId, Extra, ObjectTy, SdkModel, TupleTy, Ty};
use super::text::{is_ts_identifier, jsdoc_text, string_literal};
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

/// Alias bodies written inline (by [`json_schema_to_ts`](super::json_schema_to_ts)) stop
/// after this many nodes, so a schema whose references fan out cannot blow up the text.
const INLINE_BUDGET: usize = 20_000;

/// Writes TypeScript for a model's types.
pub(crate) struct TsWriter<'m> {
    aliases: &'m [Alias<'m>],
    /// `Some`: aliases are written inline (the stack of aliases being inlined, to stop
    /// recursion); `None`: aliases are referred to by name.
    inlining: Option<Vec<AliasId>>,
    budget: usize,
}

impl<'m> TsWriter<'m> {
    /// A writer that refers to aliases by name (the SDK declares them).
    pub(crate) fn named(aliases: &'m [Alias<'m>]) -> Self {
        TsWriter {
            aliases,
            inlining: None,
            budget: usize::MAX,
        }
    }

    /// A writer that writes aliases inline; recursive references become `unknown`.
    pub(crate) fn inline(aliases: &'m [Alias<'m>]) -> Self {
        TsWriter {
            aliases,
            inlining: Some(Vec::new()),
            budget: INLINE_BUDGET,
        }
    }

    /// The type expression of `ty`, for a position indented by `indent` spaces.
    pub(crate) fn expression(&mut self, ty: &Ty, indent: usize) -> String {
        self.render(ty, indent).0
    }

    fn render(&mut self, ty: &Ty, indent: usize) -> (String, Prec) {
        if self.budget == 0 {
            return ("unknown".to_owned(), Prec::Atom);
        }
        self.budget -= 1;
        let atom = |text: &str| (text.to_owned(), Prec::Atom);
        match ty {
            Ty::Unknown => atom("unknown"),
            Ty::Any => atom("JsonValue"),
            Ty::Never => atom("never"),
            Ty::String => atom("string"),
            Ty::Number | Ty::Integer => atom("number"),
            Ty::Boolean => atom("boolean"),
            Ty::Null => atom("null"),
            Ty::Literal(value) => (literal(value, 0), Prec::Atom),
            Ty::Array(item) => {
                let (text, prec) = self.render(item, indent);
                (format!("{}[]", wrap(text, prec, Prec::Atom)), Prec::Atom)
            }
            Ty::Tuple(tuple) => (self.tuple(tuple, indent), Prec::Atom),
            Ty::Object(object) => self.object(object, indent),
            Ty::Union(members) => self.joined(members, indent, " | ", Prec::Union),
            Ty::Intersection(members) => self.joined(members, indent, " & ", Prec::Intersection),
            Ty::Alias(id) => self.alias(*id, indent),
        }
    }

    fn alias(&mut self, id: AliasId, indent: usize) -> (String, Prec) {
        let Some(alias) = self.aliases.get(id) else {
            return ("unknown".to_owned(), Prec::Atom);
        };
        let Some(stack) = &mut self.inlining else {
            return (alias.name.clone(), Prec::Atom);
        };
        if stack.contains(&id) {
            return ("unknown".to_owned(), Prec::Atom);
        }
        stack.push(id);
        let out = self.render(&alias.ty, indent);
        if let Some(stack) = &mut self.inlining {
            stack.pop();
        }
        out
    }

    fn joined(
        &mut self,
        members: &[Ty],
        indent: usize,
        separator: &str,
        prec: Prec,
    ) -> (String, Prec) {
        let mut parts: Vec<String> = Vec::with_capacity(members.len());
        let mut open = false;
        for member in members {
            // Literals render distinctly (the walker keeps `enum` values as given), so only
            // other members are checked for duplicates (`integer | number`).
            if let Ty::Literal(value) = member {
                parts.push(literal(value, 0));
                continue;
            }
            // In an intersection, open objects share one `Record<string, JsonValue>` at the end.
            let (text, member_prec) = match member {
                Ty::Object(object)
                    if prec == Prec::Intersection
                        && object.extra == Extra::Open
                        && !object.properties.is_empty() =>
                {
                    open = true;
                    (self.object_body(object, indent), Prec::Atom)
                }
                member => self.render(member, indent),
            };
            // Intersections inside unions get parentheses too: easier to read.
            let text = if prec == Prec::Union && member_prec == Prec::Intersection {
                format!("({text})")
            } else {
                wrap(text, member_prec, prec)
            };
            if !parts.contains(&text) {
                parts.push(text);
            }
        }
        let open_record = OPEN_RECORD.to_owned();
        if open && !parts.contains(&open_record) {
            parts.push(open_record);
        }
        match parts.len() {
            0 => ("never".to_owned(), Prec::Atom),
            1 => (parts.pop().unwrap_or_default(), Prec::Atom),
            _ => (parts.join(separator), prec),
        }
    }

    fn tuple(&mut self, tuple: &TupleTy, indent: usize) -> String {
        let mut parts = Vec::with_capacity(tuple.items.len() + 1);
        for (index, item) in tuple.items.iter().enumerate() {
            let (text, prec) = self.render(item, indent);
            if index < tuple.required {
                parts.push(text);
            } else {
                parts.push(format!("{}?", wrap(text, prec, Prec::Atom)));
            }
        }
        if let Some(rest) = &tuple.rest {
            let (text, prec) = self.render(rest, indent);
            parts.push(format!("...{}[]", wrap(text, prec, Prec::Atom)));
        }
        format!("[{}]", parts.join(", "))
    }

    fn object(&mut self, object: &ObjectTy, indent: usize) -> (String, Prec) {
        let inner = indent + 2;
        if object.properties.is_empty() {
            return match &object.extra {
                Extra::Closed => ("Record<string, never>".to_owned(), Prec::Atom),
                Extra::Open => (OPEN_RECORD.to_owned(), Prec::Atom),
                Extra::Typed(ty, doc) if doc.is_empty() => {
                    let value = self.expression(ty, inner);
                    (format!("{{ [key: string]: {value} }}"), Prec::Atom)
                }
                Extra::Typed(ty, doc) => {
                    let value = self.expression(ty, inner);
                    let mut out = String::from("{\n");
                    push_doc(&mut out, inner, doc);
                    out.push_str(&format!(
                        "{}[key: string]: {value};\n{}}}",
                        pad(inner),
                        pad(indent)
                    ));
                    (out, Prec::Atom)
                }
            };
        }
        let out = self.object_body(object, indent);
        if object.extra == Extra::Open {
            (format!("{out} & {OPEN_RECORD}"), Prec::Intersection)
        } else {
            (out, Prec::Atom)
        }
    }

    /// `{ ... }` with the declared properties (and an index signature for typed extra
    /// keys); an open object's `& Record<string, JsonValue>` is the caller's.
    fn object_body(&mut self, object: &ObjectTy, indent: usize) -> String {
        let inner = indent + 2;
        let mut out = String::from("{\n");
        let typed_extra = matches!(object.extra, Extra::Typed(..));
        let mut property_types = Vec::new();
        for property in &object.properties {
            push_doc(&mut out, inner, &property.doc);
            let (text, _) = self.render(&property.ty, inner);
            out.push_str(&pad(inner));
            out.push_str(&key(property.name));
            out.push_str(if property.required { ": " } else { "?: " });
            out.push_str(&text);
            out.push_str(";\n");
            if typed_extra {
                property_types.push(text);
            }
        }
        if let Extra::Typed(ty, doc) = &object.extra {
            // Declared properties must fit the index signature, so it names their types too.
            let (text, _) = self.render(ty, inner);
            let mut members = vec![text];
            for text in property_types {
                if !members.contains(&text) {
                    members.push(text);
                }
            }
            push_doc(&mut out, inner, doc);
            out.push_str(&format!(
                "{}[key: string]: {};\n",
                pad(inner),
                members.join(" | ")
            ));
        }
        out.push_str(&pad(indent));
        out.push('}');
        out
    }
}

fn wrap(text: String, prec: Prec, context: Prec) -> String {
    let needs = match context {
        Prec::Atom => prec != Prec::Atom,
        Prec::Intersection => prec == Prec::Union,
        Prec::Union => false,
    };
    if needs { format!("({text})") } else { text }
}

/// `indent` spaces (borrowed for the usual depths).
fn pad(indent: usize) -> Cow<'static, str> {
    const SPACES: &str = "                                                                ";
    match SPACES.get(..indent) {
        Some(spaces) => Cow::Borrowed(spaces),
        None => Cow::Owned(" ".repeat(indent)),
    }
}

/// Appends `/** doc */` on its own line, if there is any documentation.
pub(crate) fn push_doc(out: &mut String, indent: usize, doc: &str) {
    if !doc.is_empty() {
        out.push_str(&pad(indent));
        out.push_str("/** ");
        out.push_str(&jsdoc_text(doc));
        out.push_str(" */\n");
    }
}

/// A property key: bare when it is an identifier, else a quoted string.
pub(crate) fn key(name: &str) -> Cow<'_, str> {
    if is_ts_identifier(name) {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(string_literal(name))
    }
}

/// The TypeScript literal type of a JSON value.
fn literal(value: &JsonValue, depth: usize) -> String {
    if depth > MAX_LITERAL_DEPTH {
        return "JsonValue".to_owned();
    }
    match value {
        JsonValue::Null => "null".to_owned(),
        JsonValue::Bool(b) => b.to_string(),
        JsonValue::Number(n) => n.to_string(),
        JsonValue::String(s) => string_literal(s),
        JsonValue::Array(items) => {
            let items: Vec<String> = items.iter().map(|item| literal(item, depth + 1)).collect();
            format!("[{}]", items.join(", "))
        }
        JsonValue::Object(map) if map.is_empty() => "Record<string, never>".to_owned(),
        JsonValue::Object(map) => {
            let members: Vec<String> = map
                .iter()
                .map(|(name, item)| format!("{}: {}", key(name), literal(item, depth + 1)))
                .collect();
            format!("{{ {} }}", members.join("; "))
        }
    }
}

/// The declarations between `JsonValue` and `ToolArgsMap`: one `type` per alias,
/// separated by blank lines (empty when there are none).
pub(crate) fn alias_declarations(model: &SdkModel) -> String {
    let mut writer = TsWriter::named(&model.aliases);
    let mut out = String::new();
    for alias in &model.aliases {
        if !out.is_empty() {
            out.push('\n');
        }
        push_doc(&mut out, 0, &alias.doc);
        let body = writer.expression(&alias.ty, 0);
        out.push_str(&format!("type {} = {body};\n", alias.name));
    }
    out
}

/// The members of `ToolArgsMap` (with each tool's description) and of `ToolOutputMap`.
pub(crate) fn tool_maps(model: &SdkModel) -> (String, String) {
    let mut writer = TsWriter::named(&model.aliases);
    // Sized up front: growing a megabyte string by doubling showed in the profile.
    let mut args = String::with_capacity(model.tools.len() * 1024);
    let mut outputs = String::with_capacity(model.tools.len() * 64);
    for tool in &model.tools {
        let name = key(&tool.name);
        push_doc(&mut args, 2, &tool.description);
        for (out, ty) in [(&mut args, &tool.args), (&mut outputs, &tool.output)] {
            out.push_str("  ");
            out.push_str(&name);
            out.push_str(": ");
            out.push_str(&writer.expression(ty, 2));
            out.push_str(";\n");
        }
    }
    (args, outputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codemode::sdk::schema_view::build_single;
    use serde_json::json;

    fn ts(schema: JsonValue) -> String {
        let (ty, model) = build_single(&schema);
        TsWriter::inline(&model.aliases).expression(&ty, 0)
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
    fn malformed_schemas_are_unknown() {
        assert_eq!(ts(json!(3)), "unknown");
        assert_eq!(ts(json!({"type": "strin"})), "unknown");
        assert_eq!(ts(json!({"type": "object", "properties": []})), "unknown");
    }
}
