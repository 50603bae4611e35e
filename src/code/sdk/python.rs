//! The Python spelling of the type model: `TypedDict`s, type aliases, the `Tools`
//! protocol and the `typing` names they use.
//!
//! Every object with properties becomes a `TypedDict` with a deterministic name (the
//! tool's stem, then `Args`/`Output`, then the property path), emitted before the object
//! that holds it. The section starts with `from __future__ import annotations`, so class
//! bodies and signatures may name types defined later; the few runtime-evaluated places
//! (type aliases, functional `TypedDict`s) quote expressions that name a later type.
//!
//! This module owns Python syntax only; the fixed prose and skeleton live in the
//! templates, the meaning of schema keywords in the schema walker.
//!
//! The writer recurses a few frames per level of a type, and a type nests at most a limit
//! the caller gives (deeper parts are `Any`, and the parts say the limit was reached).
//! Generated names stop growing at [`MAX_NAME_LEN`] characters (then a number tells them
//! apart), so the text of a deeply nested type grows linearly with its depth.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt::Write as _;

use super::schema_view::{AliasId, Extra, NumberLiteral, ObjectTy, Property, SdkModel, Ty};
use super::text::{
    NameLayer, is_python_attribute, is_python_class_key, pascal_case, push_docstring_text,
    push_string_literal,
};
use crate::json::JsonValue;

/// Alias chains followed when merging `allOf` members into one `TypedDict`.
const MAX_ALIAS_HOPS: usize = 8;

/// The longest name of a nested `TypedDict` before its number: a name is its parent's
/// followed by a word, and would otherwise grow with every level of nesting.
const MAX_NAME_LEN: usize = 64;

/// The rendered parts of the Python section, for the template.
pub(crate) struct PythonParts {
    /// `Any, Literal, Protocol, ...`: exactly the `typing` names used.
    pub imports: String,
    /// Whether the `JsonValue` alias is used (and so declared).
    pub json_value: bool,
    /// Type declarations, each followed by a blank line.
    pub definitions: String,
    /// The body of `class Tools(Protocol)`.
    pub methods: String,
    /// Whether the depth limit cut anything.
    pub depth_limited: bool,
}

/// The `typing` names the section may import, in the order they are listed (byte order).
#[derive(Debug, Clone, Copy)]
enum Import {
    Any,
    Awaitable,
    Callable,
    Literal,
    Never,
    NotRequired,
    Protocol,
    Required,
    TypeAlias,
    TypedDict,
}

const IMPORT_NAMES: [&str; 10] = [
    "Any",
    "Awaitable",
    "Callable",
    "Literal",
    "Never",
    "NotRequired",
    "Protocol",
    "Required",
    "TypeAlias",
    "TypedDict",
];

/// A set of [`Import`]s.
#[derive(Debug, Clone, Copy, Default)]
struct Imports(u16);

impl Imports {
    fn insert(&mut self, import: Import) {
        self.0 |= 1 << import as u16;
    }

    /// `Any, Literal, ...`: the names in the set, in byte order.
    fn text(self) -> String {
        let mut out = String::new();
        for (index, name) in IMPORT_NAMES.iter().enumerate() {
            if self.0 & (1 << index) != 0 {
                if !out.is_empty() {
                    out.push_str(", ");
                }
                out.push_str(name);
            }
        }
        out
    }
}

/// A rendered type expression.
struct Expr<'m> {
    text: Cow<'m, str>,
    /// Names a type that is declared further down.
    forward: bool,
}

impl<'m> Expr<'m> {
    fn plain(text: &'static str) -> Self {
        Expr {
            text: Cow::Borrowed(text),
            forward: false,
        }
    }
}

/// The name a nested `TypedDict` gets, built only when one is declared: most properties
/// need no name, so the words are kept as a chain of borrowed parts until then.
#[derive(Clone, Copy)]
enum Hint<'h> {
    /// A whole name (a tool stem, a `TypedDict`, an alias).
    Name(&'h str),
    /// Then a fixed word: `Args`, `Item`, `Value`, ...
    Word(&'h Hint<'h>, &'static str),
    /// Then the word of a property (`filter` -> `Filter`, `Field` when it has none).
    Field(&'h Hint<'h>, &'h str),
    /// Then `Option{n}`: the n-th (from 1) member of a union.
    Option(&'h Hint<'h>, usize),
}

impl Hint<'_> {
    fn write(self, out: &mut String) {
        match self {
            Hint::Name(name) => out.push_str(name),
            Hint::Word(parent, word) => {
                parent.write(out);
                out.push_str(word);
            }
            Hint::Field(parent, property) => {
                parent.write(out);
                let word = pascal_case(property);
                out.push_str(if word.is_empty() { "Field" } else { &word });
            }
            Hint::Option(parent, n) => {
                parent.write(out);
                // Writing to a `String` cannot fail.
                let _ = write!(out, "Option{n}");
            }
        }
    }
}

/// A field of a `TypedDict`: a property of the model, and whether it is required (an
/// `allOf` member may require a property another declares).
type Field<'t, 'm> = (&'t Property<'m>, bool);

/// The fields of one object.
fn own_fields<'t, 'm>(object: &'t ObjectTy<'m>) -> Vec<Field<'t, 'm>> {
    object
        .properties
        .iter()
        .map(|property| (property, property.required))
        .collect()
}

/// What the union of a `TypedDict` field adds around its type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Qualifier {
    None,
    NotRequired,
    Required,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum AliasState {
    Waiting,
    Queued,
    Emitted,
}

struct PyWriter<'m> {
    model: &'m SdkModel<'m>,
    names: NameLayer<'m>,
    /// Type declarations, each followed by a blank line.
    definitions: String,
    alias_state: Vec<AliasState>,
    /// Whether an alias's declaration is written (a reference before that is forward).
    alias_declared: Vec<bool>,
    queue: VecDeque<AliasId>,
    imports: Imports,
    json_value: bool,
    /// Scratch space for the name of a nested `TypedDict`.
    hint: String,
    /// How deep the type being written nests here, and how deep it may (in type levels,
    /// see `schema_view::type_levels`); deeper parts are `Any`.
    depth: usize,
    limit: usize,
    depth_limited: bool,
}

/// Renders the Python parts of a model; types nest at most `limit` type levels.
pub(crate) fn render<'m>(model: &'m SdkModel<'m>, limit: usize) -> PythonParts {
    let mut writer = PyWriter {
        model,
        names: NameLayer::new(&model.names),
        definitions: String::with_capacity(model.tools.len() * 1024),
        alias_state: vec![AliasState::Waiting; model.aliases.len()],
        alias_declared: vec![false; model.aliases.len()],
        queue: VecDeque::new(),
        imports: Imports::default(),
        json_value: false,
        hint: String::new(),
        depth: 0,
        limit,
        depth_limited: false,
    };
    writer.imports.insert(Import::Protocol);
    let mut methods = String::with_capacity(model.tools.len() * 128);
    let mut exotic = false;
    for tool in &model.tools {
        let stem = Hint::Name(&tool.stem);
        let args = writer.expr(&tool.args, Hint::Word(&stem, "Args"));
        let output = writer.expr(&tool.output, Hint::Word(&stem, "Output"));
        writer.drain_aliases();
        if is_python_attribute(tool.name) {
            methods.push_str("    async def ");
            methods.push_str(tool.name);
            methods.push_str("(self, args: ");
            methods.push_str(&args.text);
            methods.push_str(") -> ");
            methods.push_str(&output.text);
            methods.push_str(":\n");
            if tool.description.is_empty() {
                methods.push_str("        ...\n");
            } else {
                methods.push_str("        \"\"\"");
                push_docstring_text(&mut methods, &tool.description);
                methods.push_str("\"\"\"\n");
            }
        } else {
            exotic = true;
            methods.push_str("    # tools[");
            push_string_literal(&mut methods, tool.name);
            methods.push_str("](args: ");
            methods.push_str(&args.text);
            methods.push_str(") -> ");
            methods.push_str(&output.text);
            // The description is one line already.
            if !tool.description.is_empty() {
                methods.push_str(": ");
                methods.push_str(&tool.description);
            }
            methods.push('\n');
        }
    }
    if exotic {
        for import in [Import::Any, Import::Awaitable, Import::Callable] {
            writer.imports.insert(import);
        }
        methods.push_str(
            "    def __getitem__(self, name: str) -> Callable[[Any], Awaitable[Any]]: ...\n",
        );
    }
    if methods.is_empty() {
        methods.push_str("    ...\n");
    }
    if writer.json_value {
        writer.imports.insert(Import::TypeAlias);
    }
    PythonParts {
        imports: writer.imports.text(),
        json_value: writer.json_value,
        definitions: writer.definitions,
        methods,
        depth_limited: writer.depth_limited,
    }
}

impl<'m> PyWriter<'m> {
    fn drain_aliases(&mut self) {
        while let Some(id) = self.queue.pop_front() {
            self.emit_alias(id);
        }
    }

    fn emit_alias(&mut self, id: AliasId) {
        let model = self.model;
        let Some(alias) = model.aliases.get(id) else {
            return;
        };
        if let Some(state) = self.alias_state.get_mut(id) {
            *state = AliasState::Emitted;
        }
        let fields = match &alias.ty {
            Ty::Object(object) if !object.properties.is_empty() => Some(own_fields(object)),
            Ty::Intersection(members) => self.merge_objects(members),
            _ => None,
        };
        match fields {
            Some(fields) => self.typed_dict(&alias.name, &fields, &alias.doc),
            None => {
                // The alias owns its name; objects inside it are named after it.
                let name = Hint::Name(&alias.name);
                let expr = self.expr(&alias.ty, Hint::Word(&name, "Object"));
                self.imports.insert(Import::TypeAlias);
                let out = &mut self.definitions;
                push_comment(out, &alias.doc, "");
                out.push_str(&alias.name);
                out.push_str(": TypeAlias = ");
                push_runtime_text(out, Qualifier::None, &expr);
                out.push('\n');
                // Each declaration is followed by a blank line.
                out.push('\n');
            }
        }
        if let Some(declared) = self.alias_declared.get_mut(id) {
            *declared = true;
        }
    }

    fn expr(&mut self, ty: &Ty<'m>, hint: Hint<'_>) -> Expr<'m> {
        if self.depth >= self.limit {
            self.depth_limited = true;
            self.imports.insert(Import::Any);
            return Expr::plain("Any");
        }
        self.depth += 1;
        let expr = self.expr_within(ty, hint);
        self.depth -= 1;
        expr
    }

    /// [`Self::expr`] within the depth limit.
    fn expr_within(&mut self, ty: &Ty<'m>, hint: Hint<'_>) -> Expr<'m> {
        match ty {
            Ty::Unknown => {
                self.imports.insert(Import::Any);
                Expr::plain("Any")
            }
            Ty::Any => self.json_value(),
            Ty::Never => {
                self.imports.insert(Import::Never);
                Expr::plain("Never")
            }
            Ty::String => Expr::plain("str"),
            Ty::Number => Expr::plain("float"),
            Ty::Integer => Expr::plain("int"),
            Ty::Boolean => Expr::plain("bool"),
            Ty::Null => Expr::plain("None"),
            Ty::Literal(_) => self.union(std::slice::from_ref(ty).iter(), hint),
            Ty::Array(item) => {
                let item = self.expr(item, Hint::Word(&hint, "Item"));
                Expr {
                    text: Cow::Owned(format!("list[{}]", item.text)),
                    forward: item.forward,
                }
            }
            Ty::Tuple(tuple) => {
                // JSON arrays arrive as lists, so a tuple schema is a list of its item types
                // (borrowed: a copy of each would cost time quadratic in the depth).
                let members = tuple.items.iter().chain(tuple.rest.as_deref());
                let item = if members.clone().next().is_none() {
                    self.imports.insert(Import::Never);
                    Expr::plain("Never")
                } else {
                    self.union(members, Hint::Word(&hint, "Item"))
                };
                Expr {
                    text: Cow::Owned(format!("list[{}]", item.text)),
                    forward: item.forward,
                }
            }
            Ty::Object(object) => self.object(object, hint),
            Ty::Union(members) => self.union(members.iter(), hint),
            Ty::Intersection(members) => match self.merge_objects(members) {
                Some(fields) => self.named_dict(&fields, hint),
                None => match members.iter().find(|m| **m != Ty::Any) {
                    Some(first) => self.expr(first, hint),
                    None => self.json_value(),
                },
            },
            Ty::Alias(id) => self.alias_ref(*id),
        }
    }

    fn json_value(&mut self) -> Expr<'m> {
        self.json_value = true;
        Expr::plain("JsonValue")
    }

    fn alias_ref(&mut self, id: AliasId) -> Expr<'m> {
        let model = self.model;
        let Some(alias) = model.aliases.get(id) else {
            self.imports.insert(Import::Any);
            return Expr::plain("Any");
        };
        if self.alias_state.get(id) == Some(&AliasState::Waiting) {
            self.alias_state[id] = AliasState::Queued;
            self.queue.push_back(id);
        }
        Expr {
            text: Cow::Borrowed(&alias.name),
            forward: self.alias_declared.get(id) != Some(&true),
        }
    }

    /// A union; literal members are gathered into one `Literal[...]`.
    fn union<'t>(
        &mut self,
        members: impl Iterator<Item = &'t Ty<'m>> + Clone,
        hint: Hint<'_>,
    ) -> Expr<'m>
    where
        'm: 't,
    {
        let mut parts: Vec<Cow<'m, str>> = Vec::new();
        let mut literal_slot: Option<usize> = None;
        // `Literal[` and the distinct literal members so far, with where each one is.
        let mut literals = String::new();
        let mut literal_spans: Vec<(usize, usize)> = Vec::new();
        let mut forward = false;
        // Objects in a union get their own TypedDict; number them only when there are several.
        let named_members = members
            .clone()
            .filter(|m| {
                matches!(m, Ty::Object(o) if !o.properties.is_empty())
                    || matches!(m, Ty::Intersection(_))
            })
            .count();
        for (index, member) in members.enumerate() {
            let text = match member {
                Ty::Literal(value) if is_python_literal(value) => {
                    if literal_slot.is_none() {
                        literal_slot = Some(parts.len());
                        parts.push(Cow::Borrowed(""));
                        literals.push_str("Literal[");
                    }
                    let before = literals.len();
                    if !literal_spans.is_empty() {
                        literals.push_str(", ");
                    }
                    let start = literals.len();
                    push_python_literal(&mut literals, value);
                    let text = &literals[start..];
                    let repeated = literal_spans
                        .iter()
                        .any(|&(from, to)| literals.get(from..to) == Some(text));
                    if repeated {
                        literals.truncate(before);
                    } else {
                        literal_spans.push((start, literals.len()));
                    }
                    continue;
                }
                Ty::Literal(value) => self.literal_fallback(value),
                member => {
                    let expr = if named_members > 1 {
                        self.expr(member, Hint::Option(&hint, index + 1))
                    } else {
                        self.expr(member, hint)
                    };
                    forward |= expr.forward;
                    expr.text
                }
            };
            if !parts.contains(&text) {
                parts.push(text);
            }
        }
        if let Some(slot) = literal_slot {
            self.imports.insert(Import::Literal);
            literals.push(']');
            if let Some(part) = parts.get_mut(slot) {
                *part = Cow::Owned(literals);
            }
        }
        let text = match parts.len() {
            1 => parts.pop().unwrap_or_default(),
            _ => Cow::Owned(parts.join(" | ")),
        };
        Expr { text, forward }
    }

    /// The Python type of a literal `Literal[...]` cannot hold.
    fn literal_fallback(&mut self, value: &JsonValue) -> Cow<'m, str> {
        Cow::Borrowed(match value {
            JsonValue::Null => "None",
            // Every integer is a literal: only a fraction reaches here.
            JsonValue::Number(_) => "float",
            JsonValue::Array(_) => {
                self.json_value = true;
                "list[JsonValue]"
            }
            _ => {
                self.json_value = true;
                "dict[str, JsonValue]"
            }
        })
    }

    fn object(&mut self, object: &ObjectTy<'m>, hint: Hint<'_>) -> Expr<'m> {
        if object.properties.is_empty() {
            return match &object.extra {
                Extra::Closed => {
                    self.imports.insert(Import::Never);
                    Expr::plain("dict[str, Never]")
                }
                Extra::Open => {
                    self.json_value = true;
                    Expr::plain("dict[str, JsonValue]")
                }
                Extra::Typed(ty, _) => {
                    let value = self.expr(ty, Hint::Word(&hint, "Value"));
                    Expr {
                        text: Cow::Owned(format!("dict[str, {}]", value.text)),
                        forward: value.forward,
                    }
                }
            };
        }
        self.named_dict(&own_fields(object), hint)
    }

    /// A `TypedDict` of `fields` (not empty), named after `hint`.
    fn named_dict(&mut self, fields: &[Field<'_, 'm>], hint: Hint<'_>) -> Expr<'m> {
        let mut base = std::mem::take(&mut self.hint);
        base.clear();
        hint.write(&mut base);
        if base.len() > MAX_NAME_LEN {
            let mut end = MAX_NAME_LEN;
            while !base.is_char_boundary(end) {
                end -= 1;
            }
            base.truncate(end);
        }
        let name = self.names.claim(&base);
        self.hint = base;
        self.typed_dict(&name, fields, "");
        Expr {
            text: Cow::Owned(name),
            forward: false,
        }
    }

    /// Declares a `TypedDict` (nested ones first), class syntax when every key allows it.
    fn typed_dict(&mut self, name: &str, properties: &[Field<'_, 'm>], doc: &str) {
        self.imports.insert(Import::TypedDict);
        let required = properties.iter().filter(|(_, required)| *required).count();
        let optional = properties.len() - required;
        // Mark the minority: `total=False` when most keys are optional.
        let total = optional <= required;
        let mut fields = Vec::with_capacity(properties.len());
        for &(property, required) in properties {
            let expr = self.expr(&property.ty, Hint::Field(&Hint::Name(name), property.name));
            let qualifier = match (total, required) {
                (true, false) => {
                    self.imports.insert(Import::NotRequired);
                    Qualifier::NotRequired
                }
                (false, true) => {
                    self.imports.insert(Import::Required);
                    Qualifier::Required
                }
                _ => Qualifier::None,
            };
            fields.push((qualifier, expr));
        }
        let total_arg = if total { "" } else { ", total=False" };
        let class_syntax = properties
            .iter()
            .all(|(property, _)| is_python_class_key(property.name));
        let out = &mut self.definitions;
        if class_syntax {
            out.push_str("class ");
            out.push_str(name);
            out.push_str("(TypedDict");
            out.push_str(total_arg);
            out.push_str("):\n");
            if !doc.is_empty() {
                out.push_str("    \"\"\"");
                push_docstring_text(out, doc);
                out.push_str("\"\"\"\n");
            }
            for ((property, _), (qualifier, expr)) in properties.iter().zip(&fields) {
                push_comment(out, &property.doc, "    ");
                out.push_str("    ");
                out.push_str(property.name);
                out.push_str(": ");
                push_qualified(out, *qualifier, &expr.text);
                out.push('\n');
            }
        } else {
            push_comment(out, doc, "");
            out.push_str(name);
            out.push_str(" = TypedDict(");
            push_string_literal(out, name);
            out.push_str(", {\n");
            for ((property, _), (qualifier, expr)) in properties.iter().zip(&fields) {
                push_comment(out, &property.doc, "    ");
                out.push_str("    ");
                push_string_literal(out, property.name);
                out.push_str(": ");
                push_runtime_text(out, *qualifier, expr);
                out.push_str(",\n");
            }
            out.push('}');
            out.push_str(total_arg);
            out.push_str(")\n");
        }
        // Each declaration is followed by a blank line.
        out.push('\n');
    }

    /// `allOf` for Python: the properties of every object member (following aliases),
    /// merged (borrowed: a copy of each would cost time quadratic in the depth); `None`
    /// when no member is an object with properties.
    fn merge_objects<'t>(&self, members: &'t [Ty<'m>]) -> Option<Vec<Field<'t, 'm>>>
    where
        'm: 't,
    {
        let mut merged: Vec<Field<'t, 'm>> = Vec::new();
        for member in members {
            let Some(object) = self.as_object(member) else {
                continue;
            };
            for property in &object.properties {
                match merged.iter_mut().find(|(p, _)| p.name == property.name) {
                    Some((_, required)) => *required |= property.required,
                    None => merged.push((property, property.required)),
                }
            }
        }
        (!merged.is_empty()).then_some(merged)
    }

    fn as_object<'t>(&self, ty: &'t Ty<'m>) -> Option<&'t ObjectTy<'m>>
    where
        'm: 't,
    {
        let mut current = ty;
        for _ in 0..MAX_ALIAS_HOPS {
            match current {
                Ty::Object(object) => return Some(object),
                Ty::Alias(id) => current = &self.model.aliases.get(*id)?.ty,
                _ => return None,
            }
        }
        None
    }
}

/// Appends a `# doc` line, indented; nothing when there is no documentation. Model
/// documentation is one line already.
fn push_comment(out: &mut String, doc: &str, indent: &str) {
    if !doc.is_empty() {
        out.push_str(indent);
        out.push_str("# ");
        out.push_str(doc);
        out.push('\n');
    }
}

/// Appends `text` inside its qualifier (`NotRequired[...]`, `Required[...]`).
fn push_qualified(out: &mut String, qualifier: Qualifier, text: &str) {
    let (open, close) = match qualifier {
        Qualifier::None => ("", ""),
        Qualifier::NotRequired => ("NotRequired[", "]"),
        Qualifier::Required => ("Required[", "]"),
    };
    out.push_str(open);
    out.push_str(text);
    out.push_str(close);
}

/// Appends an expression (in its qualifier) in a place Python evaluates at import time:
/// quoted whole when it names a type declared further down.
fn push_runtime_text(out: &mut String, qualifier: Qualifier, expr: &Expr) {
    if expr.forward {
        // A string literal of a concatenation is the concatenation of the escaped parts.
        let mut text = String::with_capacity(expr.text.len() + 16);
        push_qualified(&mut text, qualifier, &expr.text);
        push_string_literal(out, &text);
    } else {
        push_qualified(out, qualifier, &expr.text);
    }
}

/// Whether `Literal[...]` can hold a JSON scalar: strings, booleans and integers of any
/// size, however spelled (Python integers are exact, so one beyond ±(2^53 - 1) or written
/// with an exponent is still a literal); not fractions, not `null`.
fn is_python_literal(value: &JsonValue) -> bool {
    match value {
        JsonValue::String(_) | JsonValue::Bool(_) => true,
        JsonValue::Number(n) => NumberLiteral::of(n) != NumberLiteral::Fraction,
        _ => false,
    }
}

/// The exact decimal digits of an integral JSON number: an `i64` or `u64` as it is, a
/// double with no fraction (`1e21`, `2^60` beyond the safe range) as the integer it holds
/// exactly — not its shortest spelling, which pads with zeros past 17 digits and so can
/// name a different integer (`1152921504606846976`, not `...847000`).
fn push_exact_integer(out: &mut String, n: &serde_json::Number) {
    // Writing to a `String` cannot fail.
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(f) = n.as_f64() {
        // Fixed precision is exact in Rust's float formatting: no fraction, every digit.
        let _ = write!(out, "{f:.0}");
    }
}

/// Appends the `Literal[...]` member for a JSON scalar that [`is_python_literal`].
fn push_python_literal(out: &mut String, value: &JsonValue) {
    match value {
        JsonValue::String(s) => push_string_literal(out, s),
        JsonValue::Bool(true) => out.push_str("True"),
        JsonValue::Bool(false) => out.push_str("False"),
        JsonValue::Number(n) => match NumberLiteral::of(n) {
            // Writing to a `String` cannot fail.
            NumberLiteral::SafeInteger(i) => {
                let _ = write!(out, "{i}");
            }
            NumberLiteral::LargeInteger => push_exact_integer(out, n),
            NumberLiteral::Fraction => {}
        },
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::sdk::{SdkLanguage, SdkTool, render_sdk_section};
    use serde_json::json;

    fn tool(name: &str, parameters: JsonValue) -> SdkTool {
        SdkTool {
            name: name.into(),
            description: String::new(),
            parameters,
            output: None,
        }
    }

    /// The Python type of a required property whose schema is `schema`.
    fn py(schema: JsonValue) -> String {
        let parameters = json!({
            "type": "object", "properties": {"v": schema}, "required": ["v"], "additionalProperties": false
        });
        let text = render_sdk_section(SdkLanguage::Python, &[tool("t", parameters)]);
        text.lines()
            .find_map(|line| line.strip_prefix("    v: "))
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("no field in\n{text}"))
    }

    #[test]
    fn contradictory_enums_are_any_not_never() {
        assert_eq!(py(json!({"type": "string", "enum": [1, 2]})), "Any");
        assert_eq!(py(json!({"type": "integer", "enum": [1.5]})), "Any");
        assert_eq!(py(json!({"type": "string", "enum": []})), "Any");
        assert_eq!(
            py(json!({"type": "string", "enum": ["a", 1]})),
            "Literal[\"a\"]"
        );
    }

    #[test]
    fn integer_constants_of_any_size_are_literals_with_their_exact_digits() {
        assert_eq!(py(json!({"const": 2})), "Literal[2]");
        assert_eq!(py(json!({"type": "integer", "const": 2.0})), "Literal[2]");
        assert_eq!(
            py(json!({"type": "integer", "const": 1e15})),
            "Literal[1000000000000000]"
        );
        assert_eq!(
            py(json!({"type": "integer", "const": 9007199254740991u64})),
            "Literal[9007199254740991]"
        );
        // Beyond ±(2^53 - 1) Python integers are still exact: the digits are the value.
        assert_eq!(
            py(json!({"const": 9007199254740993u64})),
            "Literal[9007199254740993]"
        );
        assert_eq!(
            py(json!({"const": u64::MAX})),
            "Literal[18446744073709551615]"
        );
        assert_eq!(
            py(json!({"const": i64::MIN})),
            "Literal[-9223372036854775808]"
        );
        // A double holding 2^60 is that integer, not its shortest spelling padded with
        // zeros (`1152921504606847000`, a different integer).
        let two_to_the_sixty = 2f64.powi(60);
        assert_eq!(
            py(json!({"type": "integer", "const": two_to_the_sixty})),
            "Literal[1152921504606846976]"
        );
        assert_eq!(
            py(json!({"type": "integer", "enum": [two_to_the_sixty, -two_to_the_sixty]})),
            "Literal[1152921504606846976, -1152921504606846976]"
        );
        // Written with an exponent: the digits, keyed off the value, whatever the type.
        assert_eq!(
            py(json!({"type": "integer", "const": 1e21})),
            "Literal[1000000000000000000000]"
        );
        assert_eq!(
            py(json!({"type": "number", "const": 1e21})),
            "Literal[1000000000000000000000]"
        );
        // 1e300 is the double's exact value (what Python's `int(1e300)` gives).
        assert_eq!(
            py(json!({"type": "integer", "const": 1e300})),
            format!(
                "Literal[{}]",
                "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160"
            )
        );
        assert_eq!(
            py(json!({"type": "integer", "enum": [1.0, 2, 3.0]})),
            "Literal[1, 2, 3]"
        );
        assert_eq!(
            py(json!({"type": "number", "enum": [1, 1e21, 1000000000000000000000.0]})),
            "Literal[1, 1000000000000000000000]"
        );
        // Fractions are floats.
        assert_eq!(py(json!({"const": 1.5})), "float");
    }

    #[test]
    fn text_with_exponents_and_big_integers_renders_exact_python_literals() {
        // As a tool list's text gives them (numbers read as written).
        let parameters = crate::json::parse_within(
            r#"{"type": "object", "properties": {
                "a": {"type": "integer", "const": 1e21},
                "b": {"type": "integer", "enum": [9007199254740993, -9007199254740993, 1E+20]}
            }, "required": ["a", "b"], "additionalProperties": false}"#,
            64,
        )
        .unwrap();
        let text = render_sdk_section(SdkLanguage::Python, &[tool("t", parameters.clone())]);
        assert!(
            text.contains("    a: Literal[1000000000000000000000]\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "    b: Literal[9007199254740993, -9007199254740993, 100000000000000000000]\n"
            ),
            "{text}"
        );
        // The TypeScript SDK keeps its safe spelling: a literal there would round.
        let ts = render_sdk_section(SdkLanguage::TypeScript, &[tool("t", parameters)]);
        assert!(ts.contains("a: number;"), "{ts}");
        assert!(ts.contains("b: number | number | number;"), "{ts}");
    }

    #[test]
    fn every_name_starting_with_an_underscore_is_reached_by_subscript() {
        let empty = json!({"type": "object", "additionalProperties": false});
        let tools: Vec<SdkTool> = ["_private", "_", "__x", "_x_", "get_me"]
            .into_iter()
            .map(|name| tool(name, empty.clone()))
            .collect();
        let text = render_sdk_section(SdkLanguage::Python, &tools);
        assert!(
            text.contains("    async def get_me(self, args: dict[str, Never]) -> JsonValue:"),
            "{text}"
        );
        for name in ["_private", "_", "__x", "_x_"] {
            assert!(
                text.contains(&format!(
                    "    # tools[\"{name}\"](args: dict[str, Never]) -> JsonValue\n"
                )),
                "{name}: {text}"
            );
            assert!(!text.contains(&format!("def {name}(")), "{name}: {text}");
        }
    }

    #[test]
    fn imports_are_listed_in_byte_order() {
        let mut sorted = IMPORT_NAMES;
        sorted.sort_unstable();
        assert_eq!(sorted, IMPORT_NAMES);
        let mut imports = Imports::default();
        for import in [Import::TypedDict, Import::Any, Import::Protocol] {
            imports.insert(import);
        }
        assert_eq!(imports.text(), "Any, Protocol, TypedDict");
    }
}
