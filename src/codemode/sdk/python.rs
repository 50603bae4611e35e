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

use std::collections::{BTreeSet, VecDeque};

use super::schema_view::{AliasId, Extra, ObjectTy, Property, SdkModel, Ty};
use super::text::{
    NameRegistry, docstring_text, is_python_attribute, is_python_class_key, one_line, pascal_case,
    string_literal,
};
use crate::json::JsonValue;

/// Alias chains followed when merging `allOf` members into one `TypedDict`.
const MAX_ALIAS_HOPS: usize = 8;

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
}

/// A rendered type expression.
struct Expr {
    text: String,
    /// Names a type that is declared further down.
    forward: bool,
}

impl Expr {
    fn plain(text: impl Into<String>) -> Self {
        Expr {
            text: text.into(),
            forward: false,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum AliasState {
    Waiting,
    Queued,
    Emitted,
}

struct PyWriter<'m> {
    model: &'m SdkModel<'m>,
    names: NameRegistry,
    definitions: Vec<String>,
    declared: BTreeSet<String>,
    alias_state: Vec<AliasState>,
    queue: VecDeque<AliasId>,
    imports: BTreeSet<&'static str>,
    json_value: bool,
}

/// Renders the Python parts of a model.
pub(crate) fn render<'m>(model: &'m SdkModel<'m>) -> PythonParts {
    let mut writer = PyWriter {
        model,
        names: model.names.clone(),
        definitions: Vec::new(),
        declared: BTreeSet::new(),
        alias_state: vec![AliasState::Waiting; model.aliases.len()],
        queue: VecDeque::new(),
        imports: BTreeSet::from(["Protocol"]),
        json_value: false,
    };
    let mut methods = String::new();
    let mut exotic = false;
    for tool in &model.tools {
        let args = writer.expr(&tool.args, &format!("{}Args", tool.stem));
        let output = writer.expr(&tool.output, &format!("{}Output", tool.stem));
        writer.drain_aliases();
        let doc = docstring_text(&tool.description);
        if is_python_attribute(&tool.name) {
            methods.push_str(&format!(
                "    async def {}(self, args: {}) -> {}:\n",
                tool.name, args.text, output.text
            ));
            if doc.is_empty() {
                methods.push_str("        ...\n");
            } else {
                methods.push_str(&format!("        \"\"\"{doc}\"\"\"\n"));
            }
        } else {
            exotic = true;
            let mut line = format!(
                "    # tools[{}](args: {}) -> {}",
                string_literal(&tool.name),
                args.text,
                output.text
            );
            let doc = one_line(&tool.description);
            if !doc.is_empty() {
                line.push_str(": ");
                line.push_str(&doc);
            }
            methods.push_str(&line);
            methods.push('\n');
        }
    }
    if exotic {
        writer.imports.extend(["Any", "Awaitable", "Callable"]);
        methods.push_str(
            "    def __getitem__(self, name: str) -> Callable[[Any], Awaitable[Any]]: ...\n",
        );
    }
    if methods.is_empty() {
        methods.push_str("    ...\n");
    }
    if writer.json_value {
        writer.imports.insert("TypeAlias");
    }
    let imports: Vec<&str> = writer.imports.iter().copied().collect();
    let mut definitions = String::new();
    for definition in &writer.definitions {
        definitions.push_str(definition);
        definitions.push('\n');
    }
    PythonParts {
        imports: imports.join(", "),
        json_value: writer.json_value,
        definitions,
        methods,
    }
}

impl<'m> PyWriter<'m> {
    fn drain_aliases(&mut self) {
        while let Some(id) = self.queue.pop_front() {
            self.emit_alias(id);
        }
    }

    fn emit_alias(&mut self, id: AliasId) {
        let Some(alias) = self.model.aliases.get(id) else {
            return;
        };
        if let Some(state) = self.alias_state.get_mut(id) {
            *state = AliasState::Emitted;
        }
        let object = match &alias.ty {
            Ty::Object(object) if !object.properties.is_empty() => Some(object.clone()),
            Ty::Intersection(members) => self.merge_objects(members),
            _ => None,
        };
        match object {
            Some(object) => self.typed_dict(alias.name.clone(), &object, &alias.doc),
            None => {
                // The alias owns its name; objects inside it are named after it.
                let expr = self.expr(&alias.ty, &format!("{}Object", alias.name));
                let mut text = comment(&alias.doc, "");
                self.imports.insert("TypeAlias");
                text.push_str(&format!(
                    "{}: TypeAlias = {}\n",
                    alias.name,
                    runtime_text(expr)
                ));
                self.declare(alias.name.clone(), text);
            }
        }
    }

    fn declare(&mut self, name: String, text: String) {
        self.declared.insert(name);
        self.definitions.push(text);
    }

    fn expr(&mut self, ty: &Ty, hint: &str) -> Expr {
        match ty {
            Ty::Unknown => {
                self.imports.insert("Any");
                Expr::plain("Any")
            }
            Ty::Any => self.json_value(),
            Ty::Never => {
                self.imports.insert("Never");
                Expr::plain("Never")
            }
            Ty::String => Expr::plain("str"),
            Ty::Number => Expr::plain("float"),
            Ty::Integer => Expr::plain("int"),
            Ty::Boolean => Expr::plain("bool"),
            Ty::Null => Expr::plain("None"),
            Ty::Literal(_) => self.union(std::slice::from_ref(ty), hint),
            Ty::Array(item) => {
                let item = self.expr(item, &format!("{hint}Item"));
                Expr {
                    text: format!("list[{}]", item.text),
                    forward: item.forward,
                }
            }
            Ty::Tuple(tuple) => {
                // JSON arrays arrive as lists, so a tuple schema is a list of its item types.
                let mut members = tuple.items.clone();
                if let Some(rest) = &tuple.rest {
                    members.push((**rest).clone());
                }
                let item = if members.is_empty() {
                    self.imports.insert("Never");
                    Expr::plain("Never")
                } else {
                    self.union(&members, &format!("{hint}Item"))
                };
                Expr {
                    text: format!("list[{}]", item.text),
                    forward: item.forward,
                }
            }
            Ty::Object(object) => self.object(object, hint),
            Ty::Union(members) => self.union(members, hint),
            Ty::Intersection(members) => match self.merge_objects(members) {
                Some(object) => self.object(&object, hint),
                None => {
                    let first = members
                        .iter()
                        .find(|m| **m != Ty::Any)
                        .cloned()
                        .unwrap_or(Ty::Any);
                    self.expr(&first, hint)
                }
            },
            Ty::Alias(id) => self.alias_ref(*id),
        }
    }

    fn json_value(&mut self) -> Expr {
        self.json_value = true;
        Expr::plain("JsonValue")
    }

    fn alias_ref(&mut self, id: AliasId) -> Expr {
        let Some(alias) = self.model.aliases.get(id) else {
            self.imports.insert("Any");
            return Expr::plain("Any");
        };
        if self.alias_state.get(id) == Some(&AliasState::Waiting) {
            self.alias_state[id] = AliasState::Queued;
            self.queue.push_back(id);
        }
        Expr {
            text: alias.name.clone(),
            forward: !self.declared.contains(&alias.name),
        }
    }

    /// A union; literal members are gathered into one `Literal[...]`.
    fn union(&mut self, members: &[Ty], hint: &str) -> Expr {
        let mut parts: Vec<String> = Vec::new();
        let mut literal_slot: Option<usize> = None;
        let mut literals: Vec<String> = Vec::new();
        let mut forward = false;
        // Objects in a union get their own TypedDict; number them only when there are several.
        let named_members = members
            .iter()
            .filter(|m| {
                matches!(m, Ty::Object(o) if !o.properties.is_empty())
                    || matches!(m, Ty::Intersection(_))
            })
            .count();
        for (index, member) in members.iter().enumerate() {
            let text = match member {
                Ty::Literal(value) => match python_literal(value) {
                    Some(text) => {
                        if !literals.contains(&text) {
                            literals.push(text);
                        }
                        if literal_slot.is_none() {
                            literal_slot = Some(parts.len());
                            parts.push(String::new());
                        }
                        continue;
                    }
                    None => self.literal_fallback(value),
                },
                member => {
                    let branch_hint = if named_members > 1 {
                        format!("{hint}Option{}", index + 1)
                    } else {
                        hint.to_owned()
                    };
                    let expr = self.expr(member, &branch_hint);
                    forward |= expr.forward;
                    expr.text
                }
            };
            if !parts.contains(&text) {
                parts.push(text);
            }
        }
        if let Some(slot) = literal_slot {
            self.imports.insert("Literal");
            parts[slot] = format!("Literal[{}]", literals.join(", "));
        }
        Expr {
            text: parts.join(" | "),
            forward,
        }
    }

    /// The Python type of a literal `Literal[...]` cannot hold.
    fn literal_fallback(&mut self, value: &JsonValue) -> String {
        match value {
            JsonValue::Null => "None".to_owned(),
            JsonValue::Number(_) => "float".to_owned(),
            JsonValue::Array(_) => format!("list[{}]", self.json_value().text),
            _ => format!("dict[str, {}]", self.json_value().text),
        }
    }

    fn object(&mut self, object: &ObjectTy, hint: &str) -> Expr {
        if object.properties.is_empty() {
            return match &object.extra {
                Extra::Closed => {
                    self.imports.insert("Never");
                    Expr::plain("dict[str, Never]")
                }
                Extra::Open => Expr::plain(format!("dict[str, {}]", self.json_value().text)),
                Extra::Typed(ty, _) => {
                    let value = self.expr(ty, &format!("{hint}Value"));
                    Expr {
                        text: format!("dict[str, {}]", value.text),
                        forward: value.forward,
                    }
                }
            };
        }
        let name = self.names.claim(hint);
        self.typed_dict(name.clone(), object, "");
        Expr::plain(name)
    }

    /// Declares a `TypedDict` (nested ones first), class syntax when every key allows it.
    fn typed_dict(&mut self, name: String, object: &ObjectTy, doc: &str) {
        self.imports.insert("TypedDict");
        let required = object.properties.iter().filter(|p| p.required).count();
        let optional = object.properties.len() - required;
        // Mark the minority: `total=False` when most keys are optional.
        let total = optional <= required;
        let mut fields = Vec::new();
        for property in &object.properties {
            let field_hint = format!("{name}{}", field_word(property));
            let expr = self.expr(&property.ty, &field_hint);
            let text = match (total, property.required) {
                (true, false) => {
                    self.imports.insert("NotRequired");
                    format!("NotRequired[{}]", expr.text)
                }
                (false, true) => {
                    self.imports.insert("Required");
                    format!("Required[{}]", expr.text)
                }
                _ => expr.text,
            };
            fields.push((
                property,
                Expr {
                    text,
                    forward: expr.forward,
                },
            ));
        }
        let total_arg = if total { "" } else { ", total=False" };
        let class_syntax = object
            .properties
            .iter()
            .all(|p| is_python_class_key(p.name));
        let mut text = String::new();
        if class_syntax {
            text.push_str(&format!("class {name}(TypedDict{total_arg}):\n"));
            let doc = docstring_text(doc);
            if !doc.is_empty() {
                text.push_str(&format!("    \"\"\"{doc}\"\"\"\n"));
            }
            for (property, expr) in fields {
                text.push_str(&comment(&property.doc, "    "));
                text.push_str(&format!("    {}: {}\n", property.name, expr.text));
            }
        } else {
            text.push_str(&comment(doc, ""));
            text.push_str(&format!(
                "{name} = TypedDict({}, {{\n",
                string_literal(&name)
            ));
            for (property, expr) in fields {
                text.push_str(&comment(&property.doc, "    "));
                text.push_str(&format!(
                    "    {}: {},\n",
                    string_literal(property.name),
                    runtime_text(expr)
                ));
            }
            text.push_str(&format!("}}{total_arg})\n"));
        }
        self.declare(name, text);
    }

    /// `allOf` for Python: the properties of every object member (following aliases),
    /// merged; `None` when no member is an object.
    fn merge_objects(&self, members: &[Ty<'m>]) -> Option<ObjectTy<'m>> {
        let mut merged: Option<ObjectTy> = None;
        for member in members {
            let Some(object) = self.as_object(member) else {
                continue;
            };
            let target = merged.get_or_insert_with(|| ObjectTy {
                properties: Vec::new(),
                extra: Extra::Open,
            });
            for property in &object.properties {
                match target
                    .properties
                    .iter_mut()
                    .find(|p| p.name == property.name)
                {
                    Some(existing) => existing.required |= property.required,
                    None => target.properties.push(property.clone()),
                }
            }
            if target.extra == Extra::Open {
                target.extra = object.extra.clone();
            }
        }
        merged.filter(|object| !object.properties.is_empty())
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

/// The word a property adds to nested type names (`filter` -> `Filter`).
fn field_word(property: &Property) -> String {
    let word = pascal_case(property.name);
    if word.is_empty() {
        "Field".to_owned()
    } else {
        word
    }
}

/// `# doc` lines (one), indented; empty when there is no documentation.
fn comment(doc: &str, indent: &str) -> String {
    let text = one_line(doc);
    if text.is_empty() {
        String::new()
    } else {
        format!("{indent}# {text}\n")
    }
}

/// An expression in a place Python evaluates at import time: quoted whole when it names
/// a type declared further down.
fn runtime_text(expr: Expr) -> String {
    if expr.forward {
        string_literal(&expr.text)
    } else {
        expr.text
    }
}

/// The `Literal[...]` member for a JSON scalar, when Python allows one (not floats).
fn python_literal(value: &JsonValue) -> Option<String> {
    match value {
        JsonValue::String(s) => Some(string_literal(s)),
        JsonValue::Bool(true) => Some("True".to_owned()),
        JsonValue::Bool(false) => Some("False".to_owned()),
        JsonValue::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}
