//! The TypeScript spelling of the type model: type expressions, named aliases and the
//! members of `ToolArgsMap`/`ToolOutputMap`.
//!
//! This module owns TypeScript syntax (precedence, quoting of keys, JSDoc lines). The
//! fixed prose and the skeleton of the section live in the templates; the meaning of
//! schema keywords lives in the schema walker.
//!
//! The writer keeps its own stack of frames on the heap, so no depth of type reaches the
//! thread's stack; a type nests at most a limit the caller gives (deeper parts are
//! `unknown`); indentation stops growing at [`MAX_INDENT`] spaces, so the text of a deep
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

/// Writes TypeScript for a model's types, straight into one output buffer, with a stack
/// of frames of its own (no depth of type reaches the thread's stack).
pub(crate) struct TsWriter<'m> {
    aliases: &'m [Alias<'m>],
    /// `Some`: aliases are written inline (the stack of aliases being inlined, to stop
    /// recursion); `None`: aliases are referred to by name.
    inlining: Option<Vec<AliasId>>,
    budget: usize,
    /// Where the members of the unions and intersections being written start and end in
    /// the buffer (a stack: each union or intersection owns the entries above its base).
    parts: Vec<(usize, usize)>,
    /// How deep the type being written nests here, and how deep it may (in type levels,
    /// see `schema_view::type_levels`); deeper parts are `unknown`.
    depth: usize,
    limit: usize,
    /// How many times `unknown` was written (see [`repeatable`]).
    unknowns: usize,
}

/// A type being written whose parts are written next.
enum Frame<'t> {
    /// A type counted against the depth: leaving it leaves a level.
    Level,
    /// An alias written inline: leaving it takes it off the inlining stack.
    Inlined,
    /// An array's item type, written from `start`; then `[]`.
    Array { start: usize },
    /// A tuple's items (`next`: the one after the one being written), then its rest.
    Tuple {
        tuple: &'t TupleTy<'t>,
        indent: usize,
        next: usize,
        start: usize,
        at_rest: bool,
    },
    /// The members of a union or an intersection.
    Joined(Joined<'t>),
    /// An object's braces, properties and index signature.
    Body(Body<'t>),
    /// The index signature of an object without properties, then `suffix`.
    Close { suffix: Suffix },
}

/// What closes an object without properties whose other keys are typed.
#[derive(Clone, Copy)]
enum Suffix {
    /// `{ [key: string]: T }`
    Inline,
    /// The documented form, ending at `indent`.
    Block { indent: usize },
}

/// [`Frame::Joined`].
struct Joined<'t> {
    members: &'t [Ty<'t>],
    indent: usize,
    separator: &'static str,
    prec: Prec,
    /// Where this union's parts start in [`TsWriter::parts`].
    base: usize,
    next: usize,
    /// Whether an open object was written as its body alone (the shared
    /// `Record<string, JsonValue>` comes last).
    open: bool,
    /// Where the member being written starts, with its separator and without.
    before: usize,
    start: usize,
}

/// [`Frame::Body`].
struct Body<'t> {
    object: &'t ObjectTy<'t>,
    indent: usize,
    next: usize,
    /// Where the property type being written starts, and the unknowns before it.
    start: usize,
    unknowns: usize,
    property_types: Vec<Cow<'static, str>>,
    /// Whether the index signature's type is being written.
    at_index: bool,
    /// Whether the body stands in an intersection (its `& Record<...>` is the
    /// intersection's), rather than alone.
    in_intersection: bool,
}

/// What the writer does next.
enum Next<'t> {
    /// Writes this type at this indentation.
    Write(&'t Ty<'t>, usize),
    /// Starts this frame.
    Start(Frame<'t>),
    /// The type on top is written, binding this tightly.
    Done(Prec),
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
    pub(crate) fn expression<'t>(&mut self, ty: &'t Ty<'t>, indent: usize) -> String
    where
        'm: 't,
    {
        let mut out = String::new();
        self.write(&mut out, ty, indent);
        out
    }

    /// Appends the type expression of `ty` to `out`; returns how tightly it binds.
    fn write<'t>(&mut self, out: &mut String, ty: &'t Ty<'t>, indent: usize) -> Prec
    where
        'm: 't,
    {
        let mut stack: Vec<Frame<'t>> = Vec::new();
        let mut next = Next::Write(ty, indent);
        loop {
            next = match next {
                Next::Write(ty, indent) => self.enter(out, ty, indent, &mut stack),
                Next::Start(frame) => self.resume(out, frame, None, &mut stack),
                Next::Done(prec) => match stack.pop() {
                    Some(frame) => self.resume(out, frame, Some(prec), &mut stack),
                    None => return prec,
                },
            };
        }
    }

    fn push_unknown(&mut self, out: &mut String) {
        self.unknowns += 1;
        out.push_str("unknown");
    }

    /// One type: `unknown` past the bounds, else one level deeper, its text or the frame
    /// that writes its parts.
    fn enter<'t>(
        &mut self,
        out: &mut String,
        ty: &'t Ty<'t>,
        indent: usize,
        stack: &mut Vec<Frame<'t>>,
    ) -> Next<'t>
    where
        'm: 't,
    {
        if self.budget == 0 || self.depth >= self.limit {
            self.push_unknown(out);
            return Next::Done(Prec::Atom);
        }
        self.budget -= 1;
        let atom = match ty {
            Ty::Unknown => {
                self.push_unknown(out);
                return Next::Done(Prec::Atom);
            }
            Ty::Any => "JsonValue",
            Ty::Never => "never",
            Ty::String => "string",
            Ty::Number | Ty::Integer => "number",
            Ty::Boolean => "boolean",
            Ty::Null => "null",
            Ty::Literal(value) => {
                push_literal(out, value, 0);
                return Next::Done(Prec::Atom);
            }
            _ => {
                self.depth += 1;
                stack.push(Frame::Level);
                return self.compound(out, ty, indent, stack);
            }
        };
        out.push_str(atom);
        Next::Done(Prec::Atom)
    }

    /// A type of parts (or an alias), one level deeper.
    fn compound<'t>(
        &mut self,
        out: &mut String,
        ty: &'t Ty<'t>,
        indent: usize,
        stack: &mut Vec<Frame<'t>>,
    ) -> Next<'t>
    where
        'm: 't,
    {
        match ty {
            Ty::Array(item) => {
                stack.push(Frame::Array { start: out.len() });
                Next::Write(item, indent)
            }
            Ty::Tuple(tuple) => {
                out.push('[');
                Next::Start(Frame::Tuple {
                    tuple,
                    indent,
                    next: 0,
                    start: out.len(),
                    at_rest: false,
                })
            }
            Ty::Object(object) => self.object(out, object, indent, stack),
            Ty::Union(members) => self.joined(members, indent, " | ", Prec::Union),
            Ty::Intersection(members) => self.joined(members, indent, " & ", Prec::Intersection),
            Ty::Alias(id) => self.alias(out, *id, indent, stack),
            // Written by `enter`.
            _ => {
                self.push_unknown(out);
                Next::Done(Prec::Atom)
            }
        }
    }

    fn alias<'t>(
        &mut self,
        out: &mut String,
        id: AliasId,
        indent: usize,
        stack: &mut Vec<Frame<'t>>,
    ) -> Next<'t>
    where
        'm: 't,
    {
        let aliases: &'t [Alias<'t>] = self.aliases;
        let Some(alias) = aliases.get(id) else {
            self.push_unknown(out);
            return Next::Done(Prec::Atom);
        };
        let Some(inlining) = &mut self.inlining else {
            out.push_str(&alias.name);
            return Next::Done(Prec::Atom);
        };
        if inlining.contains(&id) {
            self.push_unknown(out);
            return Next::Done(Prec::Atom);
        }
        inlining.push(id);
        stack.push(Frame::Inlined);
        Next::Write(&alias.ty, indent)
    }

    /// The members joined by `separator`; a member that reads exactly like an earlier one
    /// is left out (`integer | number` is `number`).
    fn joined<'t>(
        &mut self,
        members: &'t [Ty<'t>],
        indent: usize,
        separator: &'static str,
        prec: Prec,
    ) -> Next<'t> {
        Next::Start(Frame::Joined(Joined {
            members,
            indent,
            separator,
            prec,
            base: self.parts.len(),
            next: 0,
            open: false,
            before: 0,
            start: 0,
        }))
    }

    /// Resumes `frame` now that what it asked for is written (binding as `input`; `None`:
    /// it starts).
    fn resume<'t>(
        &mut self,
        out: &mut String,
        frame: Frame<'t>,
        input: Option<Prec>,
        stack: &mut Vec<Frame<'t>>,
    ) -> Next<'t>
    where
        'm: 't,
    {
        let written = input.unwrap_or(Prec::Atom);
        match frame {
            Frame::Level => {
                self.depth -= 1;
                Next::Done(written)
            }
            Frame::Inlined => {
                if let Some(inlining) = &mut self.inlining {
                    inlining.pop();
                }
                Next::Done(written)
            }
            Frame::Array { start } => {
                wrap_from(out, start, written, Prec::Atom);
                out.push_str("[]");
                Next::Done(Prec::Atom)
            }
            Frame::Tuple {
                tuple,
                indent,
                next,
                start,
                at_rest,
            } => {
                if input.is_some() {
                    if at_rest {
                        wrap_from(out, start, written, Prec::Atom);
                        out.push_str("[]");
                        out.push(']');
                        return Next::Done(Prec::Atom);
                    }
                    if next > tuple.required {
                        wrap_from(out, start, written, Prec::Atom);
                        out.push('?');
                    }
                }
                if let Some(item) = tuple.items.get(next) {
                    if next > 0 {
                        out.push_str(", ");
                    }
                    stack.push(Frame::Tuple {
                        tuple,
                        indent,
                        next: next + 1,
                        start: out.len(),
                        at_rest: false,
                    });
                    return Next::Write(item, indent);
                }
                if let Some(rest) = &tuple.rest {
                    if !tuple.items.is_empty() {
                        out.push_str(", ");
                    }
                    out.push_str("...");
                    stack.push(Frame::Tuple {
                        tuple,
                        indent,
                        next,
                        start: out.len(),
                        at_rest: true,
                    });
                    return Next::Write(rest, indent);
                }
                out.push(']');
                Next::Done(Prec::Atom)
            }
            Frame::Joined(joined) => self.resume_joined(out, joined, input, stack),
            Frame::Body(body) => self.resume_body(out, body, input, stack),
            Frame::Close { suffix } => {
                match suffix {
                    Suffix::Inline => out.push_str(" }"),
                    Suffix::Block { indent } => {
                        out.push_str(";\n");
                        out.push_str(pad(indent));
                        out.push('}');
                    }
                }
                Next::Done(Prec::Atom)
            }
        }
    }

    fn resume_joined<'t>(
        &mut self,
        out: &mut String,
        mut joined: Joined<'t>,
        input: Option<Prec>,
        stack: &mut Vec<Frame<'t>>,
    ) -> Next<'t>
    where
        'm: 't,
    {
        if let Some(member_prec) = input {
            self.member_written(out, &joined, member_prec);
        }
        while let Some(member) = joined.members.get(joined.next) {
            joined.next += 1;
            joined.before = out.len();
            if self.parts.len() > joined.base {
                out.push_str(joined.separator);
            }
            let start = out.len();
            joined.start = start;
            // Literals render distinctly (the walker keeps `enum` values as given), so only
            // other members are checked for duplicates.
            if let Ty::Literal(value) = member {
                push_literal(out, value, 0);
                self.parts.push((start, out.len()));
                continue;
            }
            // In an intersection, open objects share one `Record<string, JsonValue>` at the end.
            let indent = joined.indent;
            match member {
                Ty::Object(object)
                    if joined.prec == Prec::Intersection
                        && object.extra == Extra::Open
                        && !object.properties.is_empty() =>
                {
                    joined.open = true;
                    stack.push(Frame::Joined(joined));
                    return Next::Start(Frame::Body(body(object, indent, true)));
                }
                member => {
                    let below = stack.len();
                    match self.enter(out, member, indent, stack) {
                        Next::Done(prec) if stack.len() == below => {
                            self.member_written(out, &joined, prec);
                        }
                        next => {
                            stack.insert(below, Frame::Joined(joined));
                            return next;
                        }
                    }
                }
            }
        }
        let base = joined.base;
        if joined.open {
            let before = out.len();
            if self.parts.len() > base {
                out.push_str(joined.separator);
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
        Next::Done(match count {
            0 => {
                out.push_str("never");
                Prec::Atom
            }
            1 => Prec::Atom,
            _ => joined.prec,
        })
    }

    /// A member of a union or intersection is written (binding as `member_prec`): in
    /// parentheses where it needs them, and left out when it repeats an earlier one.
    fn member_written(&mut self, out: &mut String, joined: &Joined<'_>, member_prec: Prec) {
        let start = joined.start;
        // Intersections inside unions get parentheses too: easier to read.
        if joined.prec == Prec::Union && member_prec == Prec::Intersection {
            out.insert(start, '(');
            out.push(')');
        } else {
            wrap_from(out, start, member_prec, joined.prec);
        }
        if self.is_repeated(out, joined.base, start) {
            out.truncate(joined.before);
        } else {
            self.parts.push((start, out.len()));
        }
    }

    /// Whether the text from `start` to the end of `out` equals a part above `base`.
    fn is_repeated(&self, out: &str, base: usize, start: usize) -> bool {
        let text = &out[start..];
        self.parts[base..]
            .iter()
            .any(|&(from, to)| out.get(from..to) == Some(text))
    }

    fn object<'t>(
        &mut self,
        out: &mut String,
        object: &'t ObjectTy<'t>,
        indent: usize,
        stack: &mut Vec<Frame<'t>>,
    ) -> Next<'t> {
        let inner = indent + 2;
        if object.properties.is_empty() {
            match &object.extra {
                Extra::Closed => out.push_str("Record<string, never>"),
                Extra::Open => out.push_str(OPEN_RECORD),
                Extra::Typed(ty, doc) if doc.is_empty() => {
                    out.push_str("{ [key: string]: ");
                    stack.push(Frame::Close {
                        suffix: Suffix::Inline,
                    });
                    return Next::Write(ty, inner);
                }
                Extra::Typed(ty, doc) => {
                    out.push_str("{\n");
                    push_doc(out, inner, doc);
                    out.push_str(pad(inner));
                    out.push_str("[key: string]: ");
                    stack.push(Frame::Close {
                        suffix: Suffix::Block { indent },
                    });
                    return Next::Write(ty, inner);
                }
            }
            return Next::Done(Prec::Atom);
        }
        Next::Start(Frame::Body(body(object, indent, false)))
    }

    /// `{ ... }` with the declared properties (and an index signature for typed extra
    /// keys); an open object's `& Record<string, JsonValue>` follows unless the object
    /// stands in an intersection (which writes one for all).
    fn resume_body<'t>(
        &mut self,
        out: &mut String,
        mut body: Body<'t>,
        input: Option<Prec>,
        stack: &mut Vec<Frame<'t>>,
    ) -> Next<'t>
    where
        'm: 't,
    {
        let object = body.object;
        let inner = body.indent + 2;
        let mut input = input;
        if input.is_none() {
            out.push_str("{\n");
        }
        loop {
            match input.take() {
                None => {}
                Some(_) if body.at_index => {
                    // Declared properties must fit the index signature, so it names their
                    // types too.
                    let mut members = vec![(body.start, out.len())];
                    for text in &body.property_types {
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
                    return self.close_body(out, &body);
                }
                Some(_) => {
                    if matches!(object.extra, Extra::Typed(..)) {
                        let repeated =
                            repeatable(&out[body.start..], self.unknowns > body.unknowns);
                        self.unknowns += usize::from(repeated == "unknown");
                        body.property_types.push(repeated);
                    }
                    out.push_str(";\n");
                }
            }
            if let Some(property) = object.properties.get(body.next) {
                body.next += 1;
                push_doc(out, inner, &property.doc);
                out.push_str(pad(inner));
                push_key(out, property.name);
                out.push_str(if property.required { ": " } else { "?: " });
                body.start = out.len();
                body.unknowns = self.unknowns;
                // A type written at once (most are) is taken here, without a round through
                // the stack; else this frame goes below what its writing pushed.
                let below = stack.len();
                match self.enter(out, &property.ty, inner, stack) {
                    Next::Done(prec) if stack.len() == below => {
                        input = Some(prec);
                        continue;
                    }
                    next => {
                        stack.insert(below, Frame::Body(body));
                        return next;
                    }
                }
            }
            if let Extra::Typed(ty, doc) = &object.extra {
                push_doc(out, inner, doc);
                out.push_str(pad(inner));
                out.push_str("[key: string]: ");
                body.start = out.len();
                body.at_index = true;
                stack.push(Frame::Body(body));
                return Next::Write(ty, inner);
            }
            return self.close_body(out, &body);
        }
    }

    fn close_body<'t>(&mut self, out: &mut String, body: &Body<'t>) -> Next<'t> {
        out.push_str(pad(body.indent));
        out.push('}');
        if !body.in_intersection && body.object.extra == Extra::Open {
            out.push_str(" & ");
            out.push_str(OPEN_RECORD);
            Next::Done(Prec::Intersection)
        } else {
            Next::Done(Prec::Atom)
        }
    }
}

/// The frame of an object's body, before it starts.
fn body<'t>(object: &'t ObjectTy<'t>, indent: usize, in_intersection: bool) -> Body<'t> {
    Body {
        object,
        indent,
        next: 0,
        start: 0,
        unknowns: 0,
        property_types: Vec::new(),
        at_index: false,
        in_intersection,
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
/// separated by blank lines (nothing when there are none); types nest at most `limit`
/// type levels.
pub(crate) fn write_alias_declarations(out: &mut String, model: &SdkModel, limit: usize) {
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
}

/// Appends one tool's member of `ToolArgsMap` (with the tool's description) to `args`
/// and its member of `ToolOutputMap` to `outputs`; `aliases` are those declared so far.
/// Types nest at most `limit` type levels.
pub(crate) fn write_tool_members(
    args: &mut String,
    outputs: &mut String,
    aliases: &[Alias],
    tool: &ToolModel,
    limit: usize,
) {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::sdk::schema_view::{build_single, type_levels};
    use serde_json::json;

    fn ts(schema: JsonValue) -> String {
        let (ty, model) = build_single(&schema, 64);
        TsWriter::inline(&model.aliases, type_levels(64)).expression(&ty, 0)
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
