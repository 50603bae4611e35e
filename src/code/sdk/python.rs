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
//! The writer keeps its own stack of frames on the heap, so no depth of type reaches the
//! thread's stack; a type nests at most a limit the caller gives (deeper parts are `Any`).
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
    /// The import lines of exactly the names used: `from typing import Any, Literal,
    /// Protocol, ...`, then `from typing_extensions import ...` for those Python 3.10's
    /// `typing` lacks (`Never`, `NotRequired`, `Required`), so the SDK type-checks for every
    /// Python the package supports.
    pub imports: String,
    /// Whether the `JsonValue` alias is used (and so declared).
    pub json_value: bool,
    /// Type declarations, each followed by a blank line.
    pub definitions: String,
    /// The body of `class Tools(Protocol)`.
    pub methods: String,
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

/// The names Python 3.10's `typing` lacks (added in 3.11): imported from
/// `typing_extensions`, which every type checker knows.
const EXTENSIONS: [&str; 3] = ["Never", "NotRequired", "Required"];

/// A set of [`Import`]s.
#[derive(Debug, Clone, Copy, Default)]
struct Imports(u16);

impl Imports {
    fn insert(&mut self, import: Import) {
        self.0 |= 1 << import as u16;
    }

    /// `from typing import Any, Literal, ...`: the names in the set, in byte order, and a
    /// `typing_extensions` line for those of [`EXTENSIONS`] (when any is used).
    fn text(self) -> String {
        let mut out = String::new();
        for (module, extension) in [("typing", false), ("typing_extensions", true)] {
            let mut first = true;
            for (index, name) in IMPORT_NAMES.iter().enumerate() {
                if self.0 & (1 << index) == 0 || EXTENSIONS.contains(name) != extension {
                    continue;
                }
                if first {
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str("from ");
                    out.push_str(module);
                    out.push_str(" import ");
                    first = false;
                } else {
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

/// Index into [`PyWriter::hints`].
type HintId = usize;

/// The name a nested `TypedDict` gets, built only when one is declared: most properties
/// need no name, so the words are kept as a chain (each part after its parent's) until
/// then.
struct HintNode<'m> {
    parent: Option<HintId>,
    part: HintPart<'m>,
}

enum HintPart<'m> {
    /// A whole name (a tool stem, a `TypedDict`, an alias).
    Name(Cow<'m, str>),
    /// A fixed word: `Args`, `Item`, `Value`, ...
    Word(&'static str),
    /// The word of a property (`filter` -> `Filter`, `Field` when it has none).
    Field(&'m str),
    /// `Option{n}`: the n-th (from 1) member of a union.
    Option(usize),
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
    /// The names of the types being written (see [`HintNode`]); a stack: each frame owns
    /// the nodes it adds.
    hints: Vec<HintNode<'m>>,
    /// Scratch space for the name of a nested `TypedDict`.
    hint: String,
    /// How deep the type being written nests here, and how deep it may (in type levels,
    /// see `schema_view::type_levels`); deeper parts are `Any`.
    depth: usize,
    limit: usize,
}

/// A type being written whose parts are written next.
enum Frame<'m> {
    /// A type counted against the depth: leaving it leaves a level.
    Level,
    /// `list[...]` of the item's expression; the hints from `mark` on are the item's.
    List {
        mark: usize,
    },
    /// `dict[str, ...]` of the values' expression.
    Dict {
        mark: usize,
    },
    Union(Box<UnionFrame<'m>>),
    TypedDict(Box<DictFrame<'m>>),
}

/// [`Frame::Union`]: a union's members (a tuple's items then its rest), literal members
/// gathered into one `Literal[...]`.
struct UnionFrame<'m> {
    members: &'m [Ty<'m>],
    rest: Option<&'m Ty<'m>>,
    next: usize,
    hint: HintId,
    /// Whether objects get numbered names (there are several).
    numbered: bool,
    parts: Vec<Cow<'m, str>>,
    literal_slot: Option<usize>,
    /// `Literal[` and the distinct literal members so far, with where each one is.
    literals: String,
    literal_spans: Vec<(usize, usize)>,
    forward: bool,
    mark: usize,
}

/// [`Frame::TypedDict`]: a `TypedDict` whose fields' types are written one after another,
/// then its declaration (after those of the types nested in it).
struct DictFrame<'m> {
    name: String,
    properties: Vec<Field<'m, 'm>>,
    doc: &'m str,
    total: bool,
    next: usize,
    fields: Vec<(Qualifier, Expr<'m>)>,
    /// The hint the fields are named after, the hints before it, and before the field
    /// being written.
    name_hint: HintId,
    mark: usize,
    field_mark: usize,
}

/// What the writer does next.
enum Next<'m> {
    /// Writes this type, named after this hint.
    Expr(&'m Ty<'m>, HintId),
    /// Starts this frame.
    Start(Frame<'m>),
    /// The type on top is written.
    Done(Expr<'m>),
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
        hints: Vec::new(),
        hint: String::new(),
        depth: 0,
        limit,
    };
    writer.imports.insert(Import::Protocol);
    // `ToolCallError.code`.
    writer.imports.insert(Import::Literal);
    // The values of `store`.
    writer.imports.insert(Import::Any);
    let mut methods = String::with_capacity(model.tools.len() * 128);
    let mut exotic = false;
    for tool in &model.tools {
        let stem = writer.hint_node(None, HintPart::Name(Cow::Borrowed(&tool.stem)));
        let args = writer.hint_node(Some(stem), HintPart::Word("Args"));
        let args = writer.run(Next::Expr(&tool.args, args));
        let output = writer.hint_node(Some(stem), HintPart::Word("Output"));
        let output = writer.run(Next::Expr(&tool.output, output));
        writer.hints.truncate(stem);
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
            Some(fields) => {
                let dict = self.dict_frame(alias.name.clone(), fields, &alias.doc);
                self.run(Next::Start(Frame::TypedDict(Box::new(dict))));
            }
            None => {
                // The alias owns its name; objects inside it are named after it.
                let name = self.hint_node(None, HintPart::Name(Cow::Borrowed(&alias.name)));
                let hint = self.hint_node(Some(name), HintPart::Word("Object"));
                let expr = self.run(Next::Expr(&alias.ty, hint));
                self.hints.truncate(name);
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

    /// Adds a hint: `part` after `parent`'s.
    fn hint_node(&mut self, parent: Option<HintId>, part: HintPart<'m>) -> HintId {
        self.hints.push(HintNode { parent, part });
        self.hints.len() - 1
    }

    /// Appends the name `hint` stands for.
    fn write_hint(&self, hint: HintId, out: &mut String) {
        let mut chain = Vec::new();
        let mut current = Some(hint);
        while let Some(index) = current {
            let Some(node) = self.hints.get(index) else {
                break;
            };
            chain.push(index);
            current = node.parent;
        }
        for &index in chain.iter().rev() {
            match &self.hints[index].part {
                HintPart::Name(name) => out.push_str(name),
                HintPart::Word(word) => out.push_str(word),
                HintPart::Field(property) => {
                    let word = pascal_case(property);
                    out.push_str(if word.is_empty() { "Field" } else { &word });
                }
                // Writing to a `String` cannot fail.
                HintPart::Option(n) => {
                    let _ = write!(out, "Option{n}");
                }
            }
        }
    }

    /// Writes what `next` asks for, with a stack of frames of its own: no depth of type
    /// reaches the thread's stack.
    fn run(&mut self, mut next: Next<'m>) -> Expr<'m> {
        let mut stack: Vec<Frame<'m>> = Vec::new();
        loop {
            next = match next {
                Next::Expr(ty, hint) => self.enter(ty, hint, &mut stack),
                Next::Start(frame) => self.resume(frame, None, &mut stack),
                Next::Done(expr) => match stack.pop() {
                    Some(frame) => self.resume(frame, Some(expr), &mut stack),
                    None => return expr,
                },
            };
        }
    }

    /// One type: `Any` past the depth limit, else its expression, or (one level deeper)
    /// the frame that writes its parts.
    fn enter(&mut self, ty: &'m Ty<'m>, hint: HintId, stack: &mut Vec<Frame<'m>>) -> Next<'m> {
        if self.depth >= self.limit {
            self.imports.insert(Import::Any);
            return Next::Done(Expr::plain("Any"));
        }
        Next::Done(match ty {
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
            Ty::Alias(id) => self.alias_ref(*id),
            _ => {
                self.depth += 1;
                stack.push(Frame::Level);
                return self.compound(ty, hint, stack);
            }
        })
    }

    /// A type of parts.
    fn compound(&mut self, ty: &'m Ty<'m>, hint: HintId, stack: &mut Vec<Frame<'m>>) -> Next<'m> {
        match ty {
            Ty::Literal(_) => Next::Start(self.union(std::slice::from_ref(ty), None, hint)),
            Ty::Array(item) => {
                let mark = self.hints.len();
                let item_hint = self.hint_node(Some(hint), HintPart::Word("Item"));
                stack.push(Frame::List { mark });
                Next::Expr(item, item_hint)
            }
            Ty::Tuple(tuple) => {
                // JSON arrays arrive as lists, so a tuple schema is a list of its item types
                // (borrowed: a copy of each would cost time quadratic in the depth).
                if tuple.items.is_empty() && tuple.rest.is_none() {
                    self.imports.insert(Import::Never);
                    return Next::Done(Expr::plain("list[Never]"));
                }
                let mark = self.hints.len();
                let item_hint = self.hint_node(Some(hint), HintPart::Word("Item"));
                stack.push(Frame::List { mark });
                Next::Start(self.union(&tuple.items, tuple.rest.as_deref(), item_hint))
            }
            Ty::Object(object) => self.object(object, hint, stack),
            Ty::Union(members) => Next::Start(self.union(members, None, hint)),
            Ty::Intersection(members) => match self.merge_objects(members) {
                Some(fields) => self.named_dict(fields, hint),
                None => match members.iter().find(|m| **m != Ty::Any) {
                    Some(first) => Next::Expr(first, hint),
                    None => Next::Done(self.json_value()),
                },
            },
            // Written by `enter`.
            _ => {
                self.imports.insert(Import::Any);
                Next::Done(Expr::plain("Any"))
            }
        }
    }

    /// Resumes `frame` now that what it asked for is written (`None`: it starts).
    fn resume(
        &mut self,
        frame: Frame<'m>,
        input: Option<Expr<'m>>,
        stack: &mut Vec<Frame<'m>>,
    ) -> Next<'m> {
        match frame {
            Frame::Level => {
                self.depth -= 1;
                Next::Done(input.unwrap_or_else(|| Expr::plain("Any")))
            }
            Frame::List { mark } => self.around(mark, input, "list["),
            Frame::Dict { mark } => self.around(mark, input, "dict[str, "),
            Frame::Union(union) => self.resume_union(union, input, stack),
            Frame::TypedDict(dict) => self.resume_dict(dict, input, stack),
        }
    }

    /// `open` + the expression written + `]`; the hints from `mark` on were its.
    fn around(&mut self, mark: usize, input: Option<Expr<'m>>, open: &str) -> Next<'m> {
        self.hints.truncate(mark);
        let inner = input.unwrap_or_else(|| Expr::plain("Any"));
        Next::Done(Expr {
            text: Cow::Owned(format!("{open}{}]", inner.text)),
            forward: inner.forward,
        })
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

    /// The frame of a union of `members` (then `rest`), named after `hint`.
    fn union(&self, members: &'m [Ty<'m>], rest: Option<&'m Ty<'m>>, hint: HintId) -> Frame<'m> {
        // Objects in a union get their own TypedDict; number them only when there are several.
        let named_members = members
            .iter()
            .chain(rest)
            .filter(|m| {
                matches!(m, Ty::Object(o) if !o.properties.is_empty())
                    || matches!(m, Ty::Intersection(_))
            })
            .count();
        Frame::Union(Box::new(UnionFrame {
            members,
            rest,
            next: 0,
            hint,
            numbered: named_members > 1,
            parts: Vec::new(),
            literal_slot: None,
            literals: String::new(),
            literal_spans: Vec::new(),
            forward: false,
            mark: self.hints.len(),
        }))
    }

    fn resume_union(
        &mut self,
        mut union: Box<UnionFrame<'m>>,
        input: Option<Expr<'m>>,
        stack: &mut Vec<Frame<'m>>,
    ) -> Next<'m> {
        if let Some(expr) = input {
            self.hints.truncate(union.mark);
            union.forward |= expr.forward;
            if !union.parts.contains(&expr.text) {
                union.parts.push(expr.text);
            }
        }
        loop {
            let index = union.next;
            let member = match union.members.get(index) {
                Some(member) => member,
                None if index == union.members.len() => match union.rest {
                    Some(rest) => rest,
                    None => break,
                },
                None => break,
            };
            union.next += 1;
            let text = match member {
                Ty::Literal(value) if is_python_literal(value) => {
                    let union = &mut *union;
                    if union.literal_slot.is_none() {
                        union.literal_slot = Some(union.parts.len());
                        union.parts.push(Cow::Borrowed(""));
                        union.literals.push_str("Literal[");
                    }
                    let before = union.literals.len();
                    if !union.literal_spans.is_empty() {
                        union.literals.push_str(", ");
                    }
                    let start = union.literals.len();
                    push_python_literal(&mut union.literals, value);
                    let text = &union.literals[start..];
                    let repeated = union
                        .literal_spans
                        .iter()
                        .any(|&(from, to)| union.literals.get(from..to) == Some(text));
                    if repeated {
                        union.literals.truncate(before);
                    } else {
                        union.literal_spans.push((start, union.literals.len()));
                    }
                    continue;
                }
                Ty::Literal(value) => self.literal_fallback(value),
                member => {
                    union.mark = self.hints.len();
                    let hint = if union.numbered {
                        self.hint_node(Some(union.hint), HintPart::Option(index + 1))
                    } else {
                        union.hint
                    };
                    let below = stack.len();
                    match self.enter(member, hint, stack) {
                        Next::Done(expr) if stack.len() == below => {
                            self.hints.truncate(union.mark);
                            union.forward |= expr.forward;
                            expr.text
                        }
                        next => {
                            stack.insert(below, Frame::Union(union));
                            return next;
                        }
                    }
                }
            };
            if !union.parts.contains(&text) {
                union.parts.push(text);
            }
        }
        let UnionFrame {
            mut parts,
            literal_slot,
            mut literals,
            forward,
            ..
        } = *union;
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
        Next::Done(Expr { text, forward })
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

    fn object(
        &mut self,
        object: &'m ObjectTy<'m>,
        hint: HintId,
        stack: &mut Vec<Frame<'m>>,
    ) -> Next<'m> {
        if object.properties.is_empty() {
            return match &object.extra {
                Extra::Closed => {
                    self.imports.insert(Import::Never);
                    Next::Done(Expr::plain("dict[str, Never]"))
                }
                Extra::Open => {
                    self.json_value = true;
                    Next::Done(Expr::plain("dict[str, JsonValue]"))
                }
                Extra::Typed(ty, _) => {
                    let mark = self.hints.len();
                    let value = self.hint_node(Some(hint), HintPart::Word("Value"));
                    stack.push(Frame::Dict { mark });
                    Next::Expr(ty, value)
                }
            };
        }
        self.named_dict(own_fields(object), hint)
    }

    /// A `TypedDict` of `fields` (not empty), named after `hint`.
    fn named_dict(&mut self, fields: Vec<Field<'m, 'm>>, hint: HintId) -> Next<'m> {
        let mut base = std::mem::take(&mut self.hint);
        base.clear();
        self.write_hint(hint, &mut base);
        if base.len() > MAX_NAME_LEN {
            let mut end = MAX_NAME_LEN;
            while !base.is_char_boundary(end) {
                end -= 1;
            }
            base.truncate(end);
        }
        let name = self.names.claim(&base);
        self.hint = base;
        let dict = self.dict_frame(name, fields, "");
        Next::Start(Frame::TypedDict(Box::new(dict)))
    }

    /// The frame of a `TypedDict` named `name` of `properties`.
    fn dict_frame(
        &mut self,
        name: String,
        properties: Vec<Field<'m, 'm>>,
        doc: &'m str,
    ) -> DictFrame<'m> {
        self.imports.insert(Import::TypedDict);
        let required = properties.iter().filter(|(_, required)| *required).count();
        let optional = properties.len() - required;
        let mark = self.hints.len();
        let name_hint = self.hint_node(None, HintPart::Name(Cow::Owned(name.clone())));
        DictFrame {
            name,
            // Mark the minority: `total=False` when most keys are optional.
            total: optional <= required,
            fields: Vec::with_capacity(properties.len()),
            properties,
            doc,
            next: 0,
            name_hint,
            mark,
            field_mark: mark,
        }
    }

    /// Each field's type, then the declaration ([`Self::declare_dict`]).
    fn resume_dict(
        &mut self,
        mut dict: Box<DictFrame<'m>>,
        input: Option<Expr<'m>>,
        stack: &mut Vec<Frame<'m>>,
    ) -> Next<'m> {
        let mut input = input;
        loop {
            if let Some(expr) = input.take() {
                self.hints.truncate(dict.field_mark);
                let required = dict
                    .next
                    .checked_sub(1)
                    .and_then(|index| dict.properties.get(index))
                    .is_some_and(|(_, required)| *required);
                let qualifier = match (dict.total, required) {
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
                dict.fields.push((qualifier, expr));
            }
            if let Some(&(property, _)) = dict.properties.get(dict.next) {
                dict.next += 1;
                dict.field_mark = self.hints.len();
                let hint = self.hint_node(Some(dict.name_hint), HintPart::Field(property.name));
                // A type written at once (most are) is taken here, without a round through the
                // stack; else this frame goes below what its writing pushed.
                let below = stack.len();
                match self.enter(&property.ty, hint, stack) {
                    Next::Done(expr) if stack.len() == below => {
                        input = Some(expr);
                        continue;
                    }
                    next => {
                        stack.insert(below, Frame::TypedDict(dict));
                        return next;
                    }
                }
            }
            break;
        }
        self.hints.truncate(dict.mark);
        Next::Done(self.declare_dict(*dict))
    }

    /// Writes the declaration of a `TypedDict` whose fields are all typed (class syntax
    /// when every key allows it), followed by a blank line; the expression names it.
    fn declare_dict(&mut self, dict: DictFrame<'m>) -> Expr<'m> {
        let DictFrame {
            name,
            properties,
            doc,
            total,
            fields,
            ..
        } = dict;
        let total_arg = if total { "" } else { ", total=False" };
        let class_syntax = properties
            .iter()
            .all(|(property, _)| is_python_class_key(property.name));
        let out = &mut self.definitions;
        if class_syntax {
            out.push_str("class ");
            out.push_str(&name);
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
            out.push_str(&name);
            out.push_str(" = TypedDict(");
            push_string_literal(out, &name);
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
        Expr {
            text: Cow::Owned(name),
            forward: false,
        }
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
    use crate::code::sdk::{SdkTool, render_sdk_section};
    use crate::runtime::Language;
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
        let text = render_sdk_section(Language::Python, &[tool("t", parameters)]);
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
        let text = render_sdk_section(Language::Python, &[tool("t", parameters.clone())]);
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
        let ts = render_sdk_section(Language::TypeScript, &[tool("t", parameters)]);
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
        let text = render_sdk_section(Language::Python, &tools);
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
        assert_eq!(
            imports.text(),
            "from typing import Any, Protocol, TypedDict"
        );
        imports.insert(Import::NotRequired);
        imports.insert(Import::Never);
        assert_eq!(
            imports.text(),
            "from typing import Any, Protocol, TypedDict\nfrom typing_extensions import Never, NotRequired"
        );
    }
}
