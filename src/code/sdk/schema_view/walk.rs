//! One document's walk (a tool's parameters or output schema) into a [`Ty`]: node by node,
//! with a stack of frames on the heap, within the depth limit and the document's budget.
//!
//! This file owns what each keyword makes of a node's type (objects, arrays, tuples,
//! `type` lists, `allOf`/`anyOf`/`oneOf`, `nullable`, literals) and the unknowns it
//! reports. It must not resolve `$ref`s (`references.rs`), spell names or pointers
//! (`pointers.rs`) or write documentation (`facts.rs`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use crate::json::JsonValue;

use super::facts::doc_with;
use super::keywords::{
    ARRAY_KEYWORDS, JsonType, Keywords, Kw, OBJECT_KEYWORDS, Types, known_type, value_has_type,
};
use super::model::{AliasId, Extra, ObjectTy, Property, TupleTy, Ty, intersection, union};
use super::pointers::push_pointer_escaped;
use super::{ModelBuilder, Role};
use crate::code::sdk::text::string_literal;

/// One document's walk: where it is (the tool, the role), the aliases it made by pointer,
/// the `$ref`s it walks in place, and what is left of its budget.
pub(super) struct DocumentWalker<'b, 'd> {
    pub(super) builder: &'b mut ModelBuilder<'d>,
    pub(super) root: &'d JsonValue,
    /// The tool's name, for the locations of unknowns.
    pub(super) tool: &'b str,
    pub(super) stem: &'b str,
    pub(super) role: Role,
    /// JSON Pointer -> alias, for this document. Only looked up, never iterated.
    pub(super) by_pointer: HashMap<String, AliasId>,
    /// Aliases whose target is still to walk.
    pub(super) pending: Vec<(AliasId, String)>,
    /// The `$ref`s being walked in place, innermost last: (target pointer, pointer of the
    /// node holding the reference).
    pub(super) inlining: Vec<(String, String)>,
    /// Targets already walked in place, by pointer: a type of the target wherever it is
    /// referred to from, so each is walked once (a chain or fan of such references costs
    /// linear work, and its unknowns are reported once).
    pub(super) inlined: HashMap<String, (Ty<'d>, usize)>,
    /// Set when a node was deeper than the limit.
    pub(super) too_deep: bool,
    pub(super) budget: usize,
}

/// A node whose subschemas are being walked (see [`DocumentWalker::walk`]). Each frame
/// knows the length of its node's path, which it restores before asking for the next
/// subschema.
pub(super) enum Frame<'d> {
    /// A `nullable: true` node without `$ref`/`allOf`/`anyOf`/`oneOf`: its type or `null`.
    Nullable,
    /// A node with `$ref`, `allOf`, `anyOf` or `oneOf`: the intersection of its parts,
    /// one stage after another (boxed, as the large frames are: frames move on and off
    /// the stack at every subschema).
    Map(Box<MapFrame<'d>>),
    /// The subschemas of an `allOf` (an intersection) or an `anyOf`/`oneOf` (a union).
    Each {
        items: std::iter::Enumerate<std::slice::Iter<'d, JsonValue>>,
        depth: usize,
        path: usize,
        types: Vec<Ty<'d>>,
        union: bool,
    },
    /// A `type` list: the union of each type's member.
    Types(Box<TypesFrame<'d>>),
    /// An object's properties, then `additionalProperties`, then `patternProperties`.
    Object(Box<ObjectFrame<'d>>),
    /// An array's one `items` schema (`None` once it is asked for).
    Items {
        items: Option<&'d JsonValue>,
        depth: usize,
        path: usize,
    },
    /// A tuple's positional items, then the rest.
    Tuple(Box<TupleFrame<'d>>),
    /// A `$ref` target walked in place; the walk's path is the target's meanwhile.
    Reference(Box<ReferenceFrame<'d>>),
}

/// [`Frame::Reference`]: a `$ref` target walked in place.
pub(super) struct ReferenceFrame<'d> {
    pub(super) pointer: String,
    pub(super) target: &'d JsonValue,
    pub(super) depth: usize,
    /// The path of the node holding the reference, put back afterwards.
    pub(super) saved_path: String,
    /// How many unknowns were reported before the target's walk.
    pub(super) unknowns: usize,
    /// Whether the walk was too deep before the target's walk.
    pub(super) outer_too_deep: bool,
}

/// [`Frame::Tuple`]: a tuple's items left, and the types walked.
pub(super) struct TupleFrame<'d> {
    prefix: std::iter::Enumerate<std::slice::Iter<'d, JsonValue>>,
    prefix_keyword: &'static str,
    rest: Option<&'d JsonValue>,
    rest_keyword: &'static str,
    min_items: u64,
    depth: usize,
    path: usize,
    items: Vec<Ty<'d>>,
    /// Whether the type received next is the rest's.
    at_rest: bool,
    /// The rest's type, once known (`Some(None)`: no more items are allowed).
    rest_ty: Option<Option<Box<Ty<'d>>>>,
}

/// [`Frame::Map`].
pub(super) struct MapFrame<'d> {
    map: Keywords<'d>,
    depth: usize,
    path: usize,
    stage: MapStage,
    parts: Vec<Ty<'d>>,
    nullable: bool,
}

/// [`Frame::Types`].
pub(super) struct TypesFrame<'d> {
    map: Keywords<'d>,
    depth: usize,
    path: usize,
    types: Vec<JsonType>,
    next: usize,
    members: Vec<Ty<'d>>,
}

/// The stages of [`Frame::Map`], in order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MapStage {
    Ref,
    Core,
    AllOf,
    AnyOf,
    OneOf,
    Done,
}

impl MapStage {
    fn next(self) -> MapStage {
        match self {
            MapStage::Ref => MapStage::Core,
            MapStage::Core => MapStage::AllOf,
            MapStage::AllOf => MapStage::AnyOf,
            MapStage::AnyOf => MapStage::OneOf,
            MapStage::OneOf | MapStage::Done => MapStage::Done,
        }
    }
}

/// [`Frame::Object`]: what is walked of an object node, and what is known so far.
pub(super) struct ObjectFrame<'d> {
    map: Keywords<'d>,
    depth: usize,
    path: usize,
    required: &'d [JsonValue],
    /// The declared properties left (`None`: none declared).
    declared: Option<serde_json::map::Iter<'d>>,
    /// The property being walked: its name and keywords.
    current: Option<(&'d str, Option<Keywords<'d>>)>,
    properties: Vec<Property<'d>>,
    stage: ObjectStage,
    extra: Extra<'d>,
    /// The `patternProperties` left, and the types and patterns walked.
    patterns: Option<serde_json::map::Iter<'d>>,
    pattern_types: Vec<Ty<'d>>,
    described: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ObjectStage {
    Properties,
    /// The `additionalProperties` schema is being walked.
    Additional,
    /// `patternProperties` comes next.
    PatternsStart,
    Patterns,
}

/// What the walk does next.
pub(super) enum Next<'d> {
    /// Walks this node at this depth, at the path as it is now.
    Walk(&'d JsonValue, usize),
    /// Starts this frame.
    Start(Frame<'d>),
    /// This type is ready for the frame on top.
    Ty(Ty<'d>),
}

impl<'d> DocumentWalker<'_, 'd> {
    pub(super) fn unknown(&mut self, path: &str) -> Ty<'d> {
        let location = format!(
            "{} {}#{}",
            string_literal(self.tool),
            self.role.label(),
            path
        );
        self.builder.unknowns.push(location);
        Ty::Unknown
    }

    /// `unknown`, reported at `path` followed by `suffix`.
    pub(super) fn unknown_at(&mut self, path: &mut String, suffix: &str) -> Ty<'d> {
        let len = path.len();
        path.push_str(suffix);
        let ty = self.unknown(path);
        path.truncate(len);
        ty
    }

    /// The type of `node`, walked with a stack of its own: no depth of subschemas reaches
    /// the thread's stack. The nodes are walked, and their unknowns reported, in the
    /// order of the schema's keywords as the walker reads them.
    pub(super) fn walk(&mut self, node: &'d JsonValue, path: &mut String, depth: usize) -> Ty<'d> {
        let mut stack: Vec<Frame<'d>> = Vec::new();
        let mut next = Next::Walk(node, depth);
        loop {
            next = match next {
                Next::Walk(node, depth) => self.enter(node, None, path, depth, &mut stack),
                Next::Start(frame) => self.resume(frame, None, path, &mut stack),
                Next::Ty(ty) => match stack.pop() {
                    Some(frame) => self.resume(frame, Some(ty), path, &mut stack),
                    None => return ty,
                },
            };
        }
    }

    /// One node: the depth limit and the budget first, then what its JSON is.
    pub(super) fn enter(
        &mut self,
        node: &'d JsonValue,
        keywords: Option<&Keywords<'d>>,
        path: &mut String,
        depth: usize,
        stack: &mut Vec<Frame<'d>>,
    ) -> Next<'d> {
        if depth > self.builder.limit || self.budget == 0 {
            if depth > self.builder.limit {
                self.too_deep = true;
            }
            return Next::Ty(self.unknown(path));
        }
        self.budget -= 1;
        match node {
            JsonValue::Bool(true) => Next::Ty(Ty::Any),
            JsonValue::Bool(false) => Next::Ty(Ty::Never),
            JsonValue::Object(object) => {
                let read;
                let map = match keywords {
                    Some(map) => map,
                    None => {
                        read = Keywords::of(object);
                        &read
                    }
                };
                let nullable = map.get(Kw::Nullable) == Some(&JsonValue::Bool(true));
                let combined = [Kw::Ref, Kw::AllOf, Kw::AnyOf, Kw::OneOf];
                if !combined.iter().any(|keyword| map.contains_key(*keyword)) {
                    // The common case: one plain node, no intersection to build.
                    if nullable {
                        stack.push(Frame::Nullable);
                    }
                    return self.core(map, path, depth);
                }
                Next::Start(Frame::Map(Box::new(MapFrame {
                    map: *map,
                    depth,
                    path: path.len(),
                    stage: MapStage::Ref,
                    parts: Vec::new(),
                    nullable,
                })))
            }
            _ => Next::Ty(self.unknown(path)),
        }
    }

    /// Resumes `frame` with the type it asked for (`None`: it starts): it asks for the
    /// next subschema (and is pushed back), or gives its own type.
    pub(super) fn resume(
        &mut self,
        frame: Frame<'d>,
        input: Option<Ty<'d>>,
        path: &mut String,
        stack: &mut Vec<Frame<'d>>,
    ) -> Next<'d> {
        match frame {
            Frame::Nullable => Next::Ty(union(vec![input.unwrap_or(Ty::Unknown), Ty::Null])),
            Frame::Map(frame) => self.resume_map(frame, input, path, stack),
            Frame::Each {
                mut items,
                depth,
                path: len,
                mut types,
                union: is_union,
            } => {
                types.extend(input);
                path.truncate(len);
                match items.next() {
                    Some((index, item)) => {
                        // Writing to a `String` cannot fail.
                        let _ = write!(path, "/{index}");
                        stack.push(Frame::Each {
                            items,
                            depth,
                            path: len,
                            types,
                            union: is_union,
                        });
                        Next::Walk(item, depth + 1)
                    }
                    None if is_union => Next::Ty(union(types)),
                    None => Next::Ty(Ty::Intersection(types)),
                }
            }
            Frame::Types(mut frame) => {
                frame.members.extend(input);
                while let Some(&json_type) = frame.types.get(frame.next) {
                    frame.next += 1;
                    path.truncate(frame.path);
                    match self.type_member(json_type, &frame.map, path, frame.depth) {
                        Next::Ty(ty) => frame.members.push(ty),
                        started => {
                            stack.push(Frame::Types(frame));
                            return started;
                        }
                    }
                }
                Next::Ty(union(frame.members))
            }
            Frame::Object(object) => self.resume_object(object, input, path, stack),
            Frame::Items {
                items,
                depth,
                path: len,
            } => match (items, input) {
                (Some(items), _) => {
                    path.push_str("/items");
                    stack.push(Frame::Items {
                        items: None,
                        depth,
                        path: len,
                    });
                    Next::Walk(items, depth + 1)
                }
                (None, ty) => {
                    path.truncate(len);
                    Next::Ty(Ty::Array(Box::new(ty.unwrap_or(Ty::Unknown))))
                }
            },
            Frame::Tuple(tuple) => self.resume_tuple(tuple, input, path, stack),
            Frame::Reference(frame) => self.resume_reference(frame, input, path, stack),
        }
    }

    /// `allOf` (an intersection) or `anyOf`/`oneOf` (a union): a non-empty array of
    /// subschemas, else `unknown` (`path` ends in the keyword).
    pub(super) fn each(
        &mut self,
        items: &'d JsonValue,
        path: &str,
        depth: usize,
        union: bool,
    ) -> Next<'d> {
        match items {
            JsonValue::Array(items) if !items.is_empty() => Next::Start(Frame::Each {
                items: items.iter().enumerate(),
                depth,
                path: path.len(),
                types: Vec::with_capacity(items.len()),
                union,
            }),
            _ => Next::Ty(self.unknown(path)),
        }
    }

    /// `type`, `const`, `enum` and the type-specific keywords of one node.
    pub(super) fn core(&mut self, map: &Keywords<'d>, path: &mut String, depth: usize) -> Next<'d> {
        if let Some(value) = map.get(Kw::Const) {
            return Next::Ty(literal(value));
        }
        let types = match map.get(Kw::Type) {
            None => {
                let object = OBJECT_KEYWORDS.iter().any(|k| map.contains_key(*k));
                let array = ARRAY_KEYWORDS.iter().any(|k| map.contains_key(*k));
                Some(match (object, array) {
                    (false, false) => Types::List(Vec::new()),
                    (true, false) => Types::One(JsonType::Object),
                    (false, true) => Types::One(JsonType::Array),
                    (true, true) => Types::List(vec![JsonType::Object, JsonType::Array]),
                })
            }
            Some(JsonValue::String(name)) => known_type(name).map(Types::One),
            Some(JsonValue::Array(names)) if !names.is_empty() => names
                .iter()
                .map(|name| name.as_str().and_then(known_type))
                .collect::<Option<Vec<_>>>()
                .map(|mut names| {
                    // Repeats next to each other count once (as they always have).
                    names.dedup();
                    Types::List(names)
                }),
            Some(_) => None,
        };
        let Some(types) = types else {
            return Next::Ty(self.unknown_at(path, "/type"));
        };
        let listed: &[JsonType] = match &types {
            Types::One(name) => std::slice::from_ref(name),
            Types::List(names) => names,
        };
        if let Some(values) = map.get(Kw::Enum) {
            let JsonValue::Array(values) = values else {
                return Next::Ty(self.unknown_at(path, "/enum"));
            };
            // Literals only: what `union` of them gives (literals are kept as listed).
            let mut members: Vec<Ty<'d>> = values
                .iter()
                .filter(|value| {
                    listed.is_empty() || listed.iter().any(|t| value_has_type(value, *t))
                })
                .map(literal)
                .collect();
            if members.iter().any(|member| matches!(member, Ty::Any)) {
                return Next::Ty(Ty::Any);
            }
            return Next::Ty(match members.len() {
                // No listed value has the node's type (or none is listed): a contradiction
                // in the schema, not a type of no value, so it is `unknown` like anything
                // else the schema does not say (`never` would make the tool uncallable).
                0 => self.unknown_at(path, "/enum"),
                1 => members.pop().unwrap_or(Ty::Unknown),
                _ => Ty::Union(members),
            });
        }
        match types {
            Types::List(names) if names.is_empty() => Next::Ty(Ty::Any),
            // One type is that type (it is never a union, `any` or `never`, which is all
            // `union` would change).
            Types::One(name) => self.type_member(name, map, path, depth),
            Types::List(names) if names.len() == 1 => self.type_member(names[0], map, path, depth),
            Types::List(names) => Next::Start(Frame::Types(Box::new(TypesFrame {
                map: *map,
                depth,
                path: path.len(),
                types: names,
                next: 0,
                members: Vec::new(),
            }))),
        }
    }

    pub(super) fn type_member(
        &mut self,
        json_type: JsonType,
        map: &Keywords<'d>,
        path: &mut String,
        depth: usize,
    ) -> Next<'d> {
        Next::Ty(match json_type {
            JsonType::String => Ty::String,
            JsonType::Number => Ty::Number,
            JsonType::Integer => Ty::Integer,
            JsonType::Boolean => Ty::Boolean,
            JsonType::Null => Ty::Null,
            JsonType::Object => return self.object(map, path, depth),
            JsonType::Array => return self.array(map, path, depth),
        })
    }

    /// An object node: its properties (each documented), its `additionalProperties` and
    /// `patternProperties`, walked by [`Self::resume_object`].
    pub(super) fn object(
        &mut self,
        map: &Keywords<'d>,
        path: &mut String,
        depth: usize,
    ) -> Next<'d> {
        let required: &'d [JsonValue] = match map.get(Kw::Required) {
            Some(JsonValue::Array(names)) => names,
            _ => &[],
        };
        let (declared, count) = match map.get(Kw::Properties) {
            None => (None, 0),
            Some(JsonValue::Object(declared)) => (Some(declared.iter()), declared.len()),
            Some(_) => return Next::Ty(self.unknown_at(path, "/properties")),
        };
        let mut properties = Vec::new();
        properties.reserve_exact(count);
        Next::Start(Frame::Object(Box::new(ObjectFrame {
            map: *map,
            depth,
            path: path.len(),
            required,
            declared,
            current: None,
            properties,
            stage: ObjectStage::Properties,
            extra: Extra::Open,
            patterns: None,
            pattern_types: Vec::new(),
            described: Vec::new(),
        })))
    }

    /// [`Frame::Map`]: its stages in order (`$ref`, the node's own keywords, `allOf`,
    /// `anyOf`, `oneOf`), the intersection of their types at the end.
    fn resume_map(
        &mut self,
        mut frame: Box<MapFrame<'d>>,
        input: Option<Ty<'d>>,
        path: &mut String,
        stack: &mut Vec<Frame<'d>>,
    ) -> Next<'d> {
        frame.parts.extend(input);
        loop {
            path.truncate(frame.path);
            let current = frame.stage;
            frame.stage = current.next();
            let (map, depth) = (&frame.map, frame.depth);
            let next = match current {
                MapStage::Ref => map.get(Kw::Ref).map(|reference| {
                    path.push_str("/$ref");
                    self.reference(reference, path, depth)
                }),
                MapStage::Core => Some(self.core(map, path, depth)),
                MapStage::AllOf => map.get(Kw::AllOf).map(|all| {
                    path.push_str("/allOf");
                    self.each(all, path, depth, false)
                }),
                MapStage::AnyOf | MapStage::OneOf => {
                    let (keyword, suffix) = if current == MapStage::AnyOf {
                        (Kw::AnyOf, "/anyOf")
                    } else {
                        (Kw::OneOf, "/oneOf")
                    };
                    map.get(keyword).map(|branches| {
                        path.push_str(suffix);
                        self.each(branches, path, depth, true)
                    })
                }
                MapStage::Done => {
                    let MapFrame {
                        parts, nullable, ..
                    } = *frame;
                    let ty = intersection(parts);
                    return Next::Ty(if nullable {
                        union(vec![ty, Ty::Null])
                    } else {
                        ty
                    });
                }
            };
            match next {
                None => {}
                Some(Next::Ty(ty)) => frame.parts.push(ty),
                Some(next) => {
                    stack.push(Frame::Map(frame));
                    return next;
                }
            }
        }
    }

    /// [`Frame::Tuple`]: the positional items, then the rest.
    fn resume_tuple(
        &mut self,
        mut tuple: Box<TupleFrame<'d>>,
        input: Option<Ty<'d>>,
        path: &mut String,
        stack: &mut Vec<Frame<'d>>,
    ) -> Next<'d> {
        if let Some(ty) = input {
            if tuple.at_rest {
                tuple.rest_ty = Some(Some(Box::new(ty)));
            } else {
                tuple.items.push(ty);
            }
        }
        path.truncate(tuple.path);
        if tuple.rest_ty.is_none() {
            let depth = tuple.depth + 1;
            if let Some((index, item)) = tuple.prefix.next() {
                path.push_str(tuple.prefix_keyword);
                // Writing to a `String` cannot fail.
                let _ = write!(path, "/{index}");
                stack.push(Frame::Tuple(tuple));
                return Next::Walk(item, depth);
            }
            match tuple.rest {
                None | Some(JsonValue::Bool(true)) => {
                    tuple.rest_ty = Some(Some(Box::new(Ty::Any)));
                }
                Some(JsonValue::Bool(false)) => tuple.rest_ty = Some(None),
                Some(schema) => {
                    path.push_str(tuple.rest_keyword);
                    tuple.at_rest = true;
                    stack.push(Frame::Tuple(tuple));
                    return Next::Walk(schema, depth);
                }
            }
        }
        let TupleFrame {
            items,
            min_items,
            rest_ty,
            ..
        } = *tuple;
        let required = usize::try_from(min_items)
            .unwrap_or(usize::MAX)
            .min(items.len());
        Next::Ty(Ty::Tuple(TupleTy {
            items,
            required,
            rest: rest_ty.flatten(),
        }))
    }

    pub(super) fn resume_object(
        &mut self,
        mut object: Box<ObjectFrame<'d>>,
        input: Option<Ty<'d>>,
        path: &mut String,
        stack: &mut Vec<Frame<'d>>,
    ) -> Next<'d> {
        let mut input = input;
        loop {
            path.truncate(object.path);
            if let Some(ty) = input.take() {
                self.object_input(&mut object, ty);
            }
            if object.stage == ObjectStage::Properties {
                if let Some((name, schema)) = object.declared.as_mut().and_then(Iterator::next) {
                    let keywords = schema.as_object().map(Keywords::of);
                    path.push_str("/properties/");
                    push_pointer_escaped(path, name);
                    let depth = object.depth + 1;
                    // The property's keywords are read once: for its walk and its doc. A
                    // property whose type is known at once (most are) is taken here, without
                    // a round through the stack; else this frame goes below what its walk
                    // pushed.
                    let below = stack.len();
                    match self.enter(schema, keywords.as_ref(), path, depth, stack) {
                        Next::Ty(ty) if stack.len() == below => {
                            self.add_property(&mut object, name, keywords.as_ref(), ty);
                            continue;
                        }
                        next => {
                            object.current = Some((name, keywords));
                            stack.insert(below, Frame::Object(object));
                            return next;
                        }
                    }
                }
                let required = object.required;
                for name in required.iter().filter_map(JsonValue::as_str) {
                    if !object.properties.iter().any(|p| p.name == name) {
                        object.properties.push(Property {
                            name,
                            ty: Ty::Any,
                            required: true,
                            doc: Cow::Borrowed(""),
                        });
                    }
                }
                object.stage = ObjectStage::PatternsStart;
                match object.map.get(Kw::AdditionalProperties) {
                    None | Some(JsonValue::Bool(true)) => {
                        object.extra = if object.map.get(Kw::UnevaluatedProperties)
                            == Some(&JsonValue::Bool(false))
                        {
                            Extra::Closed
                        } else {
                            Extra::Open
                        };
                    }
                    Some(JsonValue::Bool(false)) => object.extra = Extra::Closed,
                    Some(schema) => {
                        path.push_str("/additionalProperties");
                        object.stage = ObjectStage::Additional;
                        let depth = object.depth + 1;
                        stack.push(Frame::Object(object));
                        return Next::Walk(schema, depth);
                    }
                }
            }
            if object.stage == ObjectStage::PatternsStart {
                object.stage = ObjectStage::Patterns;
                match object.map.get(Kw::PatternProperties) {
                    None => {}
                    Some(JsonValue::Object(patterns)) => object.patterns = Some(patterns.iter()),
                    Some(_) => return Next::Ty(self.unknown_at(path, "/patternProperties")),
                }
            }
            if let Some((pattern, schema)) = object.patterns.as_mut().and_then(Iterator::next) {
                path.push_str("/patternProperties/");
                push_pointer_escaped(path, pattern);
                object.described.push(format!("/{pattern}/"));
                let depth = object.depth + 1;
                stack.push(Frame::Object(object));
                return Next::Walk(schema, depth);
            }
            return Next::Ty(finish_object(*object));
        }
    }

    /// The type an object's frame asked for: a property's, `additionalProperties`'s or a
    /// pattern's, by the frame's stage.
    fn object_input(&mut self, object: &mut ObjectFrame<'d>, ty: Ty<'d>) {
        match object.stage {
            ObjectStage::Properties => {
                if let Some((name, keywords)) = object.current.take() {
                    self.add_property(object, name, keywords.as_ref(), ty);
                }
            }
            ObjectStage::Additional => {
                object.extra = match ty {
                    Ty::Any => Extra::Open,
                    ty => Extra::Typed(Box::new(ty), String::new()),
                };
                object.stage = ObjectStage::PatternsStart;
            }
            ObjectStage::PatternsStart | ObjectStage::Patterns => {
                object.pattern_types.push(ty);
            }
        }
    }

    /// A declared property walked to `ty`, documented from its keywords (and the facts of
    /// the schema it refers to).
    pub(super) fn add_property(
        &self,
        object: &mut ObjectFrame<'d>,
        name: &'d str,
        keywords: Option<&Keywords<'d>>,
        ty: Ty<'d>,
    ) {
        let doc = match keywords {
            Some(keywords) => doc_with(keywords, &self.referenced_facts(keywords)),
            None => Cow::Borrowed(""),
        };
        let required = object.required.iter().any(|n| n.as_str() == Some(name));
        object.properties.push(Property {
            name,
            ty,
            required,
            doc,
        });
    }

    /// An array node: `items` (one schema), or a tuple (`prefixItems`, or draft 4's
    /// array `items`) with the rest.
    pub(super) fn array(
        &mut self,
        map: &Keywords<'d>,
        path: &mut String,
        depth: usize,
    ) -> Next<'d> {
        let (prefix, prefix_keyword, rest, rest_keyword) =
            if let Some(prefix) = map.get(Kw::PrefixItems) {
                (prefix, "/prefixItems", map.get(Kw::Items), "/items")
            } else {
                match map.get(Kw::Items) {
                    None | Some(JsonValue::Bool(true)) => {
                        return Next::Ty(Ty::Array(Box::new(Ty::Any)));
                    }
                    Some(JsonValue::Bool(false)) => {
                        return Next::Ty(Ty::Tuple(TupleTy {
                            items: Vec::new(),
                            required: 0,
                            rest: None,
                        }));
                    }
                    // Draft 4 tuples: `items` is an array, `additionalItems` the rest.
                    Some(prefix @ JsonValue::Array(_)) => (
                        prefix,
                        "/items",
                        map.get(Kw::AdditionalItems),
                        "/additionalItems",
                    ),
                    Some(items) => {
                        return Next::Start(Frame::Items {
                            items: Some(items),
                            depth,
                            path: path.len(),
                        });
                    }
                }
            };
        let min_items = map
            .get(Kw::MinItems)
            .and_then(JsonValue::as_u64)
            .unwrap_or(0);
        let JsonValue::Array(prefix) = prefix else {
            return Next::Ty(self.unknown_at(path, prefix_keyword));
        };
        Next::Start(Frame::Tuple(Box::new(TupleFrame {
            prefix: prefix.iter().enumerate(),
            prefix_keyword,
            rest,
            rest_keyword,
            min_items,
            depth,
            path: path.len(),
            items: Vec::with_capacity(prefix.len()),
            at_rest: false,
            rest_ty: None,
        })))
    }
}

/// An object's type once its frame has walked everything: the properties, and what other
/// keys may hold (`additionalProperties` narrowed by the patterns' types).
fn finish_object(object: ObjectFrame<'_>) -> Ty<'_> {
    let ObjectFrame {
        properties,
        extra,
        pattern_types,
        described,
        ..
    } = object;
    let mut types = pattern_types;
    let extra = if types.is_empty() {
        extra
    } else {
        let doc = format!("keys matching {}", described.join(", "));
        match extra {
            // Other keys may hold anything: the patterns narrow nothing a type can say.
            Extra::Open => Extra::Open,
            Extra::Closed => Extra::Typed(Box::new(union(types)), doc),
            Extra::Typed(other, _) => {
                types.push(*other);
                Extra::Typed(Box::new(union(types)), doc)
            }
        }
    };
    Ty::Object(ObjectTy { properties, extra })
}

/// The deepest `const` or `enum` value that is a literal type; a deeper one is any value.
/// Types are compared (to remove duplicates) with `serde_json`'s equality for literals,
/// which recurses once per level of the value.
pub(super) const MAX_LITERAL_NESTING: usize = 64;

/// The literal type of `value` (see [`MAX_LITERAL_NESTING`]).
pub(super) fn literal(value: &JsonValue) -> Ty<'_> {
    if nests_deeper(value, MAX_LITERAL_NESTING) {
        Ty::Any
    } else {
        Ty::Literal(value)
    }
}

/// Whether `value` nests arrays and objects more than `limit` levels (its own is 1).
/// Iterative; no allocation for a scalar.
fn nests_deeper(value: &JsonValue, limit: usize) -> bool {
    if !matches!(value, JsonValue::Array(_) | JsonValue::Object(_)) {
        return false;
    }
    let mut pending = vec![(value, 1usize)];
    while let Some((value, level)) = pending.pop() {
        if level > limit {
            return true;
        }
        let container =
            |child: &&JsonValue| matches!(child, JsonValue::Array(_) | JsonValue::Object(_));
        match value {
            JsonValue::Array(items) => {
                pending.extend(items.iter().filter(container).map(|item| (item, level + 1)));
            }
            JsonValue::Object(map) => {
                pending.extend(map.values().filter(container).map(|item| (item, level + 1)));
            }
            _ => {}
        }
    }
    false
}
