//! The shared schema walker: JSON Schema as authors write it -> a small type model both
//! renderers read.
//!
//! This module owns the *meaning* of schema keywords for the SDK: `$ref` resolution (each
//! in-document target becomes one named alias, so recursive schemas terminate), `allOf`
//! as intersection, `anyOf`/`oneOf` as union, `type` arrays, `nullable`, tuples,
//! `additionalProperties`/`patternProperties`, literals, and the facts (bounds, formats,
//! defaults, examples, deprecation) that go into documentation. It is total: anything it
//! cannot read becomes [`Ty::Unknown`] and is reported with its location, never a panic.
//! The walk is bounded by the depth limit the caller gives (a subschema deeper than it is
//! `unknown`) and by a per-document work budget. It keeps its own stack of frames on the
//! heap, and the types it builds are copied, compared and dropped the same way, so no depth
//! of schema reaches the thread's stack.
//!
//! It must not produce source text: spelling belongs to the renderers.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use crate::json::JsonValue;

use super::SdkTool;
use super::text::{NameRegistry, one_line, one_line_owned, pascal_case, string_literal};

/// How deep a type of a walk within `limit` subschema levels may nest, in type levels
/// (what the renderers count): one level of subschemas adds at most four (`nullable`'s
/// union, the intersection of `allOf`/`$ref`, the union of `anyOf` or a `type` list, then
/// the object, array or tuple); the rest is slack.
pub(crate) fn type_levels(limit: usize) -> usize {
    limit.saturating_mul(4).saturating_add(16)
}

/// Subschemas walked per document (one tool's parameters or output) at most: bounds the
/// work a hostile schema can cause.
const DOCUMENT_BUDGET: usize = 50_000;

/// Index into [`SdkModel::aliases`].
pub(crate) type AliasId = usize;

/// The type of a value, as far as a schema says. A type may nest as deep as its schema:
/// it is copied, compared and dropped with a heap stack, never by recursion.
#[derive(Debug)]
pub(crate) enum Ty<'a> {
    /// The schema could not be read (malformed, or a construct no type expresses).
    Unknown,
    /// Any JSON value (no constraint).
    Any,
    /// No value at all (`false`).
    Never,
    String,
    Number,
    Integer,
    Boolean,
    Null,
    /// Exactly this JSON value (`const`, one `enum` member).
    Literal(&'a JsonValue),
    /// An array of items of one type.
    Array(Box<Ty<'a>>),
    Tuple(TupleTy<'a>),
    Object(ObjectTy<'a>),
    Union(Vec<Ty<'a>>),
    Intersection(Vec<Ty<'a>>),
    /// A named alias (a `$ref` target).
    Alias(AliasId),
}

impl<'a> Ty<'a> {
    /// Whether the type holds other types.
    fn is_container(&self) -> bool {
        matches!(
            self,
            Ty::Array(_) | Ty::Tuple(_) | Ty::Object(_) | Ty::Union(_) | Ty::Intersection(_)
        )
    }

    /// The `index`-th type this one holds: an array's item, a tuple's items then its rest,
    /// an object's property types then its extra keys' type, a union's or intersection's
    /// members.
    fn child(&self, index: usize) -> Option<&Ty<'a>> {
        match self {
            Ty::Array(item) => (index == 0).then_some(&**item),
            Ty::Tuple(tuple) => tuple
                .items
                .get(index)
                .or(tuple.rest.as_deref().filter(|_| index == tuple.items.len())),
            Ty::Object(object) => object
                .properties
                .get(index)
                .map(|property| &property.ty)
                .or(match &object.extra {
                    Extra::Typed(ty, _) if index == object.properties.len() => Some(&**ty),
                    _ => None,
                }),
            Ty::Union(members) | Ty::Intersection(members) => members.get(index),
            _ => None,
        }
    }

    /// Calls `f` on each type this one holds (in [`Self::child`]'s order).
    fn children_mut(&mut self, mut f: impl FnMut(&mut Ty<'a>)) {
        match self {
            Ty::Array(item) => f(item),
            Ty::Tuple(tuple) => {
                tuple.items.iter_mut().for_each(&mut f);
                if let Some(rest) = &mut tuple.rest {
                    f(rest);
                }
            }
            Ty::Object(object) => {
                for property in &mut object.properties {
                    f(&mut property.ty);
                }
                if let Extra::Typed(ty, _) = &mut object.extra {
                    f(ty);
                }
            }
            Ty::Union(members) | Ty::Intersection(members) => members.iter_mut().for_each(f),
            _ => {}
        }
    }

    /// A copy of this type around `children` (copies of the types it holds, in order).
    fn with_children(&self, children: Vec<Ty<'a>>) -> Ty<'a> {
        let mut children = children.into_iter();
        let mut next = || children.next().unwrap_or(Ty::Unknown);
        match self {
            Ty::Unknown => Ty::Unknown,
            Ty::Any => Ty::Any,
            Ty::Never => Ty::Never,
            Ty::String => Ty::String,
            Ty::Number => Ty::Number,
            Ty::Integer => Ty::Integer,
            Ty::Boolean => Ty::Boolean,
            Ty::Null => Ty::Null,
            Ty::Literal(value) => Ty::Literal(value),
            Ty::Alias(id) => Ty::Alias(*id),
            Ty::Array(_) => Ty::Array(Box::new(next())),
            Ty::Tuple(tuple) => Ty::Tuple(TupleTy {
                items: tuple.items.iter().map(|_| next()).collect(),
                required: tuple.required,
                rest: tuple.rest.as_ref().map(|_| Box::new(next())),
            }),
            Ty::Object(object) => Ty::Object(ObjectTy {
                properties: object
                    .properties
                    .iter()
                    .map(|property| Property {
                        name: property.name,
                        ty: next(),
                        required: property.required,
                        doc: property.doc.clone(),
                    })
                    .collect(),
                extra: match &object.extra {
                    Extra::Closed => Extra::Closed,
                    Extra::Open => Extra::Open,
                    Extra::Typed(_, doc) => Extra::Typed(Box::new(next()), doc.clone()),
                },
            }),
            Ty::Union(members) => Ty::Union(members.iter().map(|_| next()).collect()),
            Ty::Intersection(members) => Ty::Intersection(members.iter().map(|_| next()).collect()),
        }
    }

    /// Whether this type and `other` agree but for the types they hold, and hold as many.
    fn same_node(&self, other: &Ty<'a>) -> bool {
        match (self, other) {
            (Ty::Unknown, Ty::Unknown)
            | (Ty::Any, Ty::Any)
            | (Ty::Never, Ty::Never)
            | (Ty::String, Ty::String)
            | (Ty::Number, Ty::Number)
            | (Ty::Integer, Ty::Integer)
            | (Ty::Boolean, Ty::Boolean)
            | (Ty::Null, Ty::Null)
            | (Ty::Array(_), Ty::Array(_)) => true,
            // Literals nest at most MAX_LITERAL_NESTING levels.
            (Ty::Literal(a), Ty::Literal(b)) => a == b,
            (Ty::Alias(a), Ty::Alias(b)) => a == b,
            (Ty::Tuple(a), Ty::Tuple(b)) => {
                a.items.len() == b.items.len()
                    && a.required == b.required
                    && a.rest.is_some() == b.rest.is_some()
            }
            (Ty::Object(a), Ty::Object(b)) => {
                a.properties.len() == b.properties.len()
                    && a.properties.iter().zip(&b.properties).all(|(a, b)| {
                        a.name == b.name && a.required == b.required && a.doc == b.doc
                    })
                    && match (&a.extra, &b.extra) {
                        (Extra::Closed, Extra::Closed) | (Extra::Open, Extra::Open) => true,
                        (Extra::Typed(_, a), Extra::Typed(_, b)) => a == b,
                        _ => false,
                    }
            }
            (Ty::Union(a), Ty::Union(b)) | (Ty::Intersection(a), Ty::Intersection(b)) => {
                a.len() == b.len()
            }
            _ => false,
        }
    }
}

impl<'a> Clone for Ty<'a> {
    fn clone(&self) -> Self {
        if !self.is_container() {
            return self.with_children(Vec::new());
        }
        // Post-order: a type is copied once copies of the types it holds are made.
        crate::json::fold_post_order(self, Ty::child, Ty::with_children)
    }
}

impl<'a> PartialEq for Ty<'a> {
    fn eq(&self, other: &Self) -> bool {
        if !(self.is_container() && other.is_container()) {
            return self.same_node(other);
        }
        let mut pending = vec![(self, other)];
        while let Some((a, b)) = pending.pop() {
            if !a.same_node(b) {
                return false;
            }
            let mut index = 0;
            while let (Some(x), Some(y)) = (a.child(index), b.child(index)) {
                pending.push((x, y));
                index += 1;
            }
        }
        true
    }
}

impl<'a> Drop for Ty<'a> {
    fn drop(&mut self) {
        // The types this one holds that hold others are moved out before it is freed, so
        // freeing one never reaches another: a deep type is freed level by level.
        fn take_nested<'a>(ty: &mut Ty<'a>, into: &mut Vec<Ty<'a>>) {
            ty.children_mut(|child| {
                if child.is_container() {
                    into.push(std::mem::replace(child, Ty::Unknown));
                }
            });
        }
        let mut pending = Vec::new();
        take_nested(self, &mut pending);
        while let Some(mut ty) = pending.pop() {
            take_nested(&mut ty, &mut pending);
        }
    }
}

/// `prefixItems` (or draft-04 tuple `items`): positional item types.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TupleTy<'a> {
    pub items: Vec<Ty<'a>>,
    /// How many leading items must be present (`minItems`, capped at `items.len()`).
    pub required: usize,
    /// The type of items after the prefix; `None` when no more items are allowed.
    pub rest: Option<Box<Ty<'a>>>,
}

/// An object type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ObjectTy<'a> {
    /// Declared properties, in the author's order.
    pub properties: Vec<Property<'a>>,
    /// What other keys may hold.
    pub extra: Extra<'a>,
}

/// What keys other than the declared properties may hold.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Extra<'a> {
    /// No other keys (`additionalProperties: false`).
    Closed,
    /// Any other key with any JSON value (the JSON Schema default).
    Open,
    /// Other keys hold values of this type; the string documents key patterns, if any.
    Typed(Box<Ty<'a>>, String),
}

/// One declared property.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Property<'a> {
    pub name: &'a str,
    pub ty: Ty<'a>,
    pub required: bool,
    /// Documentation, already on one line (may be empty); borrowed from the schema when
    /// its description needs no change.
    pub doc: Cow<'a, str>,
}

/// A named type: the target of a `$ref`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Alias<'a> {
    /// Unique across the whole SDK.
    pub name: String,
    pub ty: Ty<'a>,
    pub doc: Cow<'a, str>,
}

/// One tool, walked.
#[derive(Debug, Clone)]
pub(crate) struct ToolModel<'a> {
    pub name: &'a str,
    /// Already on one line.
    pub description: Cow<'a, str>,
    /// Unique PascalCase stem for the tool's generated type names (`MyTool`).
    pub stem: String,
    pub args: Ty<'a>,
    pub output: Ty<'a>,
}

/// Every tool of an SDK, walked, in SDK order.
#[derive(Debug, Clone)]
pub(crate) struct SdkModel<'a> {
    pub tools: Vec<ToolModel<'a>>,
    pub aliases: Vec<Alias<'a>>,
    /// Type names already taken (aliases and the fixed declarations).
    pub names: NameRegistry,
    /// Where a schema degraded to `unknown`, as `"tool" args#/json/pointer`.
    pub unknowns: Vec<String>,
}

/// The SDK's tool order: by name (byte order); tools with equal names are ordered by
/// their content and only the first is kept, so the input order never matters.
pub(crate) fn canonical_order(tools: &[SdkTool]) -> Vec<&SdkTool> {
    let mut ordered: Vec<&SdkTool> = tools.iter().collect();
    // Unstable is enough: tools that compare equal have equal names and content, and only
    // the first of them is kept.
    ordered.sort_unstable_by(|a, b| {
        a.name
            .cmp(&b.name)
            .then_with(|| content_key(a).cmp(&content_key(b)))
    });
    ordered.dedup_by(|later, first| later.name == first.name);
    ordered
}

fn content_key(tool: &SdkTool) -> String {
    // Written without recursion (a schema may nest as deep as the value limit), as
    // `serde_json` writes the tuple `(description, parameters, output)`.
    let mut key = String::from("[");
    key.push_str(&serde_json::to_string(&tool.description).unwrap_or_default());
    key.push(',');
    crate::json::write_text(&tool.parameters, &mut key);
    key.push(',');
    match &tool.output {
        Some(output) => crate::json::write_text(output, &mut key),
        None => key.push_str("null"),
    }
    key.push(']');
    key
}

/// Walks every tool (in [`canonical_order`]), subschemas nested at most `limit` deep.
pub(crate) fn build_model(tools: &[SdkTool], limit: usize) -> SdkModel<'_> {
    let mut models = Vec::new();
    let mut model = walk_tools(tools, limit, |_, tool| models.push(tool));
    model.tools = models;
    model
}

/// Walks every tool (in [`canonical_order`]) and hands each to `visit` as soon as it is
/// walked, with the aliases declared so far (every alias the tool refers to is among them,
/// named; an alias's type may still change until the walk ends). A renderer writes the
/// tool while its schema is still in the processor's cache: rendering in a second pass
/// read every schema from memory twice, which cost a fifth of the time of an SDK.
///
/// Returns everything but the tools (`tools` is empty): the aliases with their final
/// types, the names taken and the unknowns.
pub(crate) fn walk_tools<'a>(
    tools: &'a [SdkTool],
    limit: usize,
    mut visit: impl FnMut(&[Alias<'a>], ToolModel<'a>),
) -> SdkModel<'a> {
    let mut builder = ModelBuilder::new(limit);
    let mut stems = NameRegistry::empty();
    for tool in canonical_order(tools) {
        let stem_base = pascal_case(&tool.name);
        let stem = stems.claim(if stem_base.is_empty() {
            "Tool"
        } else {
            &stem_base
        });
        let args = builder.walk_document(&tool.name, &stem, Role::Args, &tool.parameters);
        let output = match &tool.output {
            Some(schema) => builder.walk_document(&tool.name, &stem, Role::Output, schema),
            None => Ty::Any,
        };
        let model = ToolModel {
            name: &tool.name,
            description: one_line(&tool.description),
            stem,
            args,
            output,
        };
        visit(&builder.aliases, model);
    }
    builder.break_unguarded_cycles();
    SdkModel {
        tools: Vec::new(),
        aliases: builder.aliases,
        names: builder.names,
        unknowns: builder.unknowns,
    }
}

/// Walks one schema on its own (for `json_schema_to_ts`): aliases are named after `Schema`.
pub(crate) fn build_single(schema: &JsonValue, limit: usize) -> (Ty<'_>, SdkModel<'_>) {
    let mut builder = ModelBuilder::new(limit);
    let ty = builder.walk_document("schema", "Schema", Role::Schema, schema);
    builder.break_unguarded_cycles();
    let model = SdkModel {
        tools: Vec::new(),
        aliases: builder.aliases,
        names: builder.names,
        unknowns: builder.unknowns,
    };
    (ty, model)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Args,
    Output,
    Schema,
}

impl Role {
    fn label(self) -> &'static str {
        match self {
            Role::Args => "args",
            Role::Output => "output",
            Role::Schema => "schema",
        }
    }

    fn root_alias(self) -> &'static str {
        match self {
            Role::Args => "Args",
            Role::Output => "Output",
            Role::Schema => "Root",
        }
    }
}

struct ModelBuilder<'a> {
    aliases: Vec<Alias<'a>>,
    names: NameRegistry,
    unknowns: Vec<String>,
    /// The deepest nesting of subschemas walked; deeper ones become `unknown`.
    limit: usize,
}

impl<'a> ModelBuilder<'a> {
    fn new(limit: usize) -> Self {
        ModelBuilder {
            aliases: Vec::new(),
            names: NameRegistry::default(),
            unknowns: Vec::new(),
            limit,
        }
    }

    fn walk_document(&mut self, tool: &str, stem: &str, role: Role, root: &'a JsonValue) -> Ty<'a> {
        let mut walker = DocumentWalker {
            builder: self,
            root,
            tool,
            stem,
            role,
            by_pointer: HashMap::new(),
            pending: Vec::new(),
            inlining: Vec::new(),
            inlined: HashMap::new(),
            too_deep: false,
            budget: DOCUMENT_BUDGET,
        };
        let mut path = String::new();
        let mut ty = walker.walk(root, &mut path, 0);
        // Alias targets are walked one after another, never nested, so a long chain of
        // references cannot deepen the Rust stack.
        while let Some((id, pointer)) = walker.pending.pop() {
            let target = walker.root.pointer(&pointer).unwrap_or(&JsonValue::Null);
            let mut path = pointer.clone();
            let ty = walker.walk(target, &mut path, 0);
            if let Some(alias) = walker.builder.aliases.get_mut(id) {
                alias.ty = ty;
            }
        }
        // A document that refers to its own root (`"$ref": "#"`) is that alias: naming it
        // once beats declaring the same shape twice.
        if let Some(&id) = walker.by_pointer.get("") {
            ty = Ty::Alias(id);
        }
        ty
    }

    /// A type alias that is, through unions and intersections only, itself (`type A = A`,
    /// `type A = B | string; type B = A`) names no type: such references become `unknown`.
    /// References through objects, arrays and tuples are fine and stay.
    fn break_unguarded_cycles(&mut self) {
        loop {
            let Some((from, to)) = self.find_unguarded_back_edge() else {
                return;
            };
            if let Some(alias) = self.aliases.get_mut(from) {
                replace_unguarded_ref(&mut alias.ty, to);
                let name = alias.name.clone();
                self.unknowns.push(format!("type {name}: refers to itself"));
            }
        }
    }

    fn find_unguarded_back_edge(&self) -> Option<(AliasId, AliasId)> {
        // Iterative depth-first search (the graph may be long), colours: 0 new, 1 on the
        // path, 2 done.
        let edges: Vec<Vec<AliasId>> = self
            .aliases
            .iter()
            .map(|alias| {
                let mut out = Vec::new();
                unguarded_refs(&alias.ty, &mut out);
                out
            })
            .collect();
        let mut colour = vec![0u8; self.aliases.len()];
        for start in 0..self.aliases.len() {
            if colour[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            colour[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some(&target) = edges[node].get(*next) {
                    *next += 1;
                    match colour.get(target) {
                        Some(1) => return Some((node, target)),
                        Some(0) => {
                            colour[target] = 1;
                            stack.push((target, 0));
                        }
                        _ => {}
                    }
                } else {
                    colour[node] = 2;
                    stack.pop();
                }
            }
        }
        None
    }
}

/// The aliases `ty` refers to through unions and intersections only, in order.
fn unguarded_refs(ty: &Ty<'_>, out: &mut Vec<AliasId>) {
    let mut pending = vec![ty];
    while let Some(ty) = pending.pop() {
        match ty {
            Ty::Alias(id) => out.push(*id),
            Ty::Union(members) | Ty::Intersection(members) => pending.extend(members.iter().rev()),
            _ => {}
        }
    }
}

fn replace_unguarded_ref(ty: &mut Ty<'_>, target: AliasId) {
    let mut pending = vec![ty];
    while let Some(ty) = pending.pop() {
        match ty {
            Ty::Alias(id) if *id == target => *ty = Ty::Unknown,
            Ty::Union(members) | Ty::Intersection(members) => pending.extend(members.iter_mut()),
            _ => {}
        }
    }
}

struct DocumentWalker<'b, 'd> {
    builder: &'b mut ModelBuilder<'d>,
    root: &'d JsonValue,
    /// The tool's name, for the locations of unknowns.
    tool: &'b str,
    stem: &'b str,
    role: Role,
    /// JSON Pointer -> alias, for this document. Only looked up, never iterated.
    by_pointer: HashMap<String, AliasId>,
    /// Aliases whose target is still to walk.
    pending: Vec<(AliasId, String)>,
    /// The `$ref`s being walked in place, innermost last: (target pointer, pointer of the
    /// node holding the reference).
    inlining: Vec<(String, String)>,
    /// Targets already walked in place, by pointer: a type of the target wherever it is
    /// referred to from, so each is walked once (a chain or fan of such references costs
    /// linear work, and its unknowns are reported once).
    inlined: HashMap<String, (Ty<'d>, usize)>,
    /// Set when a node was deeper than the limit.
    too_deep: bool,
    budget: usize,
}

/// A JSON Schema type keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JsonType {
    String,
    Number,
    Integer,
    Boolean,
    Null,
    Object,
    Array,
}

/// The types a node allows (`type`, or inferred from the keywords): nearly always one.
enum Types {
    One(JsonType),
    List(Vec<JsonType>),
}

const OBJECT_KEYWORDS: [Kw; 4] = [
    Kw::Properties,
    Kw::AdditionalProperties,
    Kw::PatternProperties,
    Kw::Required,
];

const ARRAY_KEYWORDS: [Kw; 2] = [Kw::Items, Kw::PrefixItems];

/// The schema keywords the walker reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kw {
    Ref,
    AllOf,
    AnyOf,
    OneOf,
    Nullable,
    Const,
    Type,
    Enum,
    Required,
    Properties,
    AdditionalProperties,
    UnevaluatedProperties,
    PatternProperties,
    PrefixItems,
    Items,
    AdditionalItems,
    MinItems,
    MaxItems,
    Description,
    Title,
    Deprecated,
    Format,
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf,
    MinLength,
    MaxLength,
    MinProperties,
    MaxProperties,
    Pattern,
    UniqueItems,
    Default,
    Examples,
    Example,
}

const KEYWORD_COUNT: usize = Kw::Example as usize + 1;

impl Kw {
    /// A `match` on string literals compiles to length checks and fixed-size compares,
    /// which beat a binary search over the names (profiled: this runs for every key of
    /// every schema node).
    fn of(key: &str) -> Option<Kw> {
        Some(match key {
            "$ref" => Kw::Ref,
            "additionalItems" => Kw::AdditionalItems,
            "additionalProperties" => Kw::AdditionalProperties,
            "allOf" => Kw::AllOf,
            "anyOf" => Kw::AnyOf,
            "const" => Kw::Const,
            "default" => Kw::Default,
            "deprecated" => Kw::Deprecated,
            "description" => Kw::Description,
            "enum" => Kw::Enum,
            "example" => Kw::Example,
            "examples" => Kw::Examples,
            "exclusiveMaximum" => Kw::ExclusiveMaximum,
            "exclusiveMinimum" => Kw::ExclusiveMinimum,
            "format" => Kw::Format,
            "items" => Kw::Items,
            "maxItems" => Kw::MaxItems,
            "maxLength" => Kw::MaxLength,
            "maxProperties" => Kw::MaxProperties,
            "maximum" => Kw::Maximum,
            "minItems" => Kw::MinItems,
            "minLength" => Kw::MinLength,
            "minProperties" => Kw::MinProperties,
            "minimum" => Kw::Minimum,
            "multipleOf" => Kw::MultipleOf,
            "nullable" => Kw::Nullable,
            "oneOf" => Kw::OneOf,
            "pattern" => Kw::Pattern,
            "patternProperties" => Kw::PatternProperties,
            "prefixItems" => Kw::PrefixItems,
            "properties" => Kw::Properties,
            "required" => Kw::Required,
            "title" => Kw::Title,
            "type" => Kw::Type,
            "unevaluatedProperties" => Kw::UnevaluatedProperties,
            "uniqueItems" => Kw::UniqueItems,
            _ => return None,
        })
    }
}

/// The keywords of one schema node, read in one pass over its entries: the walker asks
/// about some thirty keywords per node, and looking each up in `serde_json`'s ordered map
/// (SipHash) dominated the time to render an SDK.
#[derive(Clone, Copy)]
struct Keywords<'a> {
    values: [Option<&'a JsonValue>; KEYWORD_COUNT],
}

impl<'a> Keywords<'a> {
    fn of(map: &'a serde_json::Map<String, JsonValue>) -> Self {
        let mut values = [None; KEYWORD_COUNT];
        for (key, value) in map {
            if let Some(keyword) = Kw::of(key) {
                values[keyword as usize] = Some(value);
            }
        }
        Keywords { values }
    }

    fn get(&self, keyword: Kw) -> Option<&'a JsonValue> {
        self.values[keyword as usize]
    }

    fn contains_key(&self, keyword: Kw) -> bool {
        self.values[keyword as usize].is_some()
    }
}

/// A node whose subschemas are being walked (see [`DocumentWalker::walk`]). Each frame
/// knows the length of its node's path, which it restores before asking for the next
/// subschema.
enum Frame<'d> {
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
    Reference {
        pointer: String,
        target: &'d JsonValue,
        depth: usize,
        /// The path of the node holding the reference, put back afterwards.
        saved_path: String,
        unknowns: usize,
        outer_too_deep: bool,
    },
}

/// [`Frame::Tuple`]: a tuple's items left, and the types walked.
struct TupleFrame<'d> {
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
struct MapFrame<'d> {
    map: Keywords<'d>,
    depth: usize,
    path: usize,
    stage: MapStage,
    parts: Vec<Ty<'d>>,
    nullable: bool,
}

/// [`Frame::Types`].
struct TypesFrame<'d> {
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
struct ObjectFrame<'d> {
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
enum Next<'d> {
    /// Walks this node at this depth, at the path as it is now.
    Walk(&'d JsonValue, usize),
    /// Starts this frame.
    Start(Frame<'d>),
    /// This type is ready for the frame on top.
    Ty(Ty<'d>),
}

impl<'d> DocumentWalker<'_, 'd> {
    fn unknown(&mut self, path: &str) -> Ty<'d> {
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
    fn unknown_at(&mut self, path: &mut String, suffix: &str) -> Ty<'d> {
        let len = path.len();
        path.push_str(suffix);
        let ty = self.unknown(path);
        path.truncate(len);
        ty
    }

    /// The type of `node`, walked with a stack of its own: no depth of subschemas reaches
    /// the thread's stack. The nodes are walked, and their unknowns reported, in the
    /// order of the schema's keywords as the walker reads them.
    fn walk(&mut self, node: &'d JsonValue, path: &mut String, depth: usize) -> Ty<'d> {
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
    fn enter(
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
    fn resume(
        &mut self,
        frame: Frame<'d>,
        input: Option<Ty<'d>>,
        path: &mut String,
        stack: &mut Vec<Frame<'d>>,
    ) -> Next<'d> {
        match frame {
            Frame::Nullable => Next::Ty(union(vec![input.unwrap_or(Ty::Unknown), Ty::Null])),
            Frame::Map(mut frame) => {
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
            Frame::Tuple(mut tuple) => {
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
            Frame::Reference {
                pointer,
                target,
                depth,
                saved_path,
                unknowns,
                outer_too_deep,
            } => match input {
                // The path ends in `/$ref`: the location of the node holding it.
                None => {
                    let location = path.strip_suffix("/$ref").unwrap_or(path).to_owned();
                    self.inlining.push((pointer.clone(), location));
                    let saved_path = std::mem::replace(path, pointer.clone());
                    let unknowns = self.builder.unknowns.len();
                    let outer_too_deep = std::mem::replace(&mut self.too_deep, false);
                    stack.push(Frame::Reference {
                        pointer,
                        target,
                        depth,
                        saved_path,
                        unknowns,
                        outer_too_deep,
                    });
                    Next::Walk(target, depth + 1)
                }
                Some(ty) => {
                    *path = saved_path;
                    self.inlining.pop();
                    let too_deep = std::mem::replace(&mut self.too_deep, outer_too_deep);
                    Next::Ty(self.inlined_reference(pointer, target, ty, too_deep, unknowns))
                }
            },
        }
    }

    /// `allOf` (an intersection) or `anyOf`/`oneOf` (a union): a non-empty array of
    /// subschemas, else `unknown` (`path` ends in the keyword).
    fn each(&mut self, items: &'d JsonValue, path: &str, depth: usize, union: bool) -> Next<'d> {
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
    fn core(&mut self, map: &Keywords<'d>, path: &mut String, depth: usize) -> Next<'d> {
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

    fn type_member(
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
    fn object(&mut self, map: &Keywords<'d>, path: &mut String, depth: usize) -> Next<'d> {
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

    fn resume_object(
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
                match object.stage {
                    ObjectStage::Properties => {
                        if let Some((name, keywords)) = object.current.take() {
                            self.add_property(&mut object, name, keywords.as_ref(), ty);
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
            let ObjectFrame {
                properties,
                extra,
                pattern_types,
                described,
                ..
            } = *object;
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
            return Next::Ty(Ty::Object(ObjectTy { properties, extra }));
        }
    }

    /// A declared property walked to `ty`, documented from its keywords (and the facts of
    /// the schema it refers to).
    fn add_property(
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
    fn array(&mut self, map: &Keywords<'d>, path: &mut String, depth: usize) -> Next<'d> {
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

    /// A `$ref` (`path` ends in `/$ref`). A target that is a definition (`$defs`,
    /// `definitions`) or the root has a name of its own and becomes a named alias. Any
    /// other target (`#/properties/a`, as zod-to-json-schema writes for a schema used
    /// twice) is walked in place: its location names and documents another property, not
    /// the schema. Only a reference back into what is being walked (which would not end)
    /// makes such a target an alias.
    fn reference(&mut self, reference: &JsonValue, path: &str, depth: usize) -> Next<'d> {
        let Some(pointer) = reference.as_str().and_then(local_pointer) else {
            return Next::Ty(self.unknown(path));
        };
        if let Some(&id) = self.by_pointer.get(&pointer) {
            return Next::Ty(Ty::Alias(id));
        }
        if let Some((ty, size)) = self.inlined.get(&pointer) {
            // Every copy counts against the document's budget, so references cannot
            // multiply the text; past it, the target is named once instead.
            if *size <= self.budget {
                self.budget -= *size;
                return Next::Ty(ty.clone());
            }
            let ty = ty.clone();
            return Next::Ty(match self.root.pointer(&pointer) {
                Some(target) => Ty::Alias(self.alias(pointer, target, Some(ty))),
                None => self.unknown(path),
            });
        }
        let Some(target) = self.root.pointer(&pointer) else {
            return Next::Ty(self.unknown(path));
        };
        let location = path.strip_suffix("/$ref").unwrap_or(path);
        let room = depth < self.builder.limit;
        // Inlining nests at most MAX_INLINE_NESTING references deep, whatever the depth
        // limit: a long flat chain of references (cheap to send) is named past that, so
        // the recursion check stays a short scan.
        if !has_own_name(&pointer)
            && room
            && self.inlining.len() < MAX_INLINE_NESTING
            && !self.is_recursive(&pointer, location)
        {
            return Next::Start(Frame::Reference {
                pointer,
                target,
                depth,
                saved_path: String::new(),
                unknowns: 0,
                outer_too_deep: false,
            });
        }
        Next::Ty(Ty::Alias(self.alias(pointer, target, None)))
    }

    /// A reference's target, walked in place to `ty`: an alias instead when it was too
    /// deep where it is referred to (its unknowns since `unknowns` withdrawn: the alias
    /// walks it from the top) or when it is large (a fan of references to references
    /// would otherwise grow the text exponentially).
    fn inlined_reference(
        &mut self,
        pointer: String,
        target: &'d JsonValue,
        ty: Ty<'d>,
        too_deep: bool,
        unknowns: usize,
    ) -> Ty<'d> {
        if too_deep {
            self.builder.unknowns.truncate(unknowns);
            return Ty::Alias(self.alias(pointer, target, None));
        }
        let size = ty_size(&ty, MAX_INLINE_NODES);
        if size > MAX_INLINE_NODES {
            return Ty::Alias(self.alias(pointer, target, Some(ty)));
        }
        self.inlined.insert(pointer, (ty.clone(), size));
        ty
    }

    /// Declares the alias of the target at `pointer`: with its type when it is known,
    /// else its target is walked later (see [`ModelBuilder::walk_document`]).
    fn alias(&mut self, pointer: String, target: &'d JsonValue, ty: Option<Ty<'d>>) -> AliasId {
        let suffix = alias_suffix(&pointer, self.role);
        let name = self
            .builder
            .names
            .claim(&format!("{}{}", self.stem, suffix));
        let id = self.builder.aliases.len();
        let pending = ty.is_none();
        self.builder.aliases.push(Alias {
            name,
            ty: ty.unwrap_or(Ty::Unknown),
            doc: doc_of(target),
        });
        self.by_pointer.insert(pointer.clone(), id);
        if pending {
            self.pending.push((id, pointer));
        }
        id
    }
}

/// The deepest `const` or `enum` value that is a literal type; a deeper one is any value.
/// Types are compared (to remove duplicates) with `serde_json`'s equality for literals,
/// which recurses once per level of the value.
const MAX_LITERAL_NESTING: usize = 64;

/// The literal type of `value` (see [`MAX_LITERAL_NESTING`]).
fn literal(value: &JsonValue) -> Ty<'_> {
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

/// The most nodes of a type written in place of a `$ref` (see
/// [`DocumentWalker::reference`]); a larger target becomes a named alias.
const MAX_INLINE_NODES: usize = 256;

/// How many references may be walked in place inside one another (see `reference`).
const MAX_INLINE_NESTING: usize = 64;

/// How many nodes `ty` has, counting at most `cap + 1` (no recursion).
fn ty_size(ty: &Ty<'_>, cap: usize) -> usize {
    let mut count = 0;
    let mut stack = vec![ty];
    while let Some(ty) = stack.pop() {
        count += 1;
        if count > cap {
            break;
        }
        match ty {
            Ty::Array(item) => stack.push(item),
            Ty::Tuple(tuple) => {
                stack.extend(tuple.items.iter());
                stack.extend(tuple.rest.as_deref());
            }
            Ty::Object(object) => {
                stack.extend(object.properties.iter().map(|p| &p.ty));
                if let Extra::Typed(extra, _) = &object.extra {
                    stack.push(extra);
                }
            }
            Ty::Union(members) | Ty::Intersection(members) => stack.extend(members.iter()),
            _ => {}
        }
    }
    count
}

/// What a JSON number literal is, for the renderers: an integer both languages spell
/// exactly, an integer outside JavaScript's safe range (`±(2^53 - 1)`, which no lossless
/// value reaches and a TypeScript literal would round), or a number with a fraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberLiteral {
    SafeInteger(i64),
    LargeInteger,
    Fraction,
}

impl NumberLiteral {
    pub(crate) fn of(n: &serde_json::Number) -> NumberLiteral {
        let safe = crate::json::MAX_SAFE_INTEGER;
        if let Some(i) = n.as_i64() {
            if i.unsigned_abs() <= safe {
                NumberLiteral::SafeInteger(i)
            } else {
                NumberLiteral::LargeInteger
            }
        } else if n.is_u64() {
            // Not an `i64`, so above `i64::MAX`: far outside the safe range.
            NumberLiteral::LargeInteger
        } else {
            match n.as_f64() {
                Some(f) if f.is_finite() && f.fract() == 0.0 => {
                    // `safe` is below 2^53, so the conversions are exact.
                    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
                    if f.abs() <= safe as f64 {
                        NumberLiteral::SafeInteger(f as i64)
                    } else {
                        NumberLiteral::LargeInteger
                    }
                }
                _ => NumberLiteral::Fraction,
            }
        }
    }
}

impl<'d> DocumentWalker<'_, 'd> {
    /// Whether walking `target` in place from the node at `location` would come back to
    /// it: `target` holds that node, or a reference being walked in place.
    fn is_recursive(&self, target: &str, location: &str) -> bool {
        let within = |inner: &str| {
            inner
                .strip_prefix(target)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        within(location)
            || self
                .inlining
                .iter()
                .any(|(other, at)| other == target || within(at))
    }

    /// The facts (bounds, formats, ...) of the schema a node refers to when the reference
    /// is walked in place (see [`Self::reference`]): they belong to the schema, so the
    /// referring property states them; the target's description does not.
    fn referenced_facts(&self, map: &Keywords<'d>) -> String {
        let mut facts = String::new();
        let mut reference = map.get(Kw::Ref);
        for _ in 0..MAX_REFERENCE_HOPS {
            let Some(pointer) = reference
                .and_then(JsonValue::as_str)
                .and_then(local_pointer)
            else {
                break;
            };
            if has_own_name(&pointer) {
                break;
            }
            let Some(target) = self.root.pointer(&pointer).and_then(JsonValue::as_object) else {
                break;
            };
            let keywords = Keywords::of(target);
            facts_of(&keywords, &mut facts, true);
            if !facts.is_empty() {
                break;
            }
            reference = keywords.get(Kw::Ref);
        }
        facts
    }
}

/// References followed to find the facts of a schema written as a `$ref` chain.
const MAX_REFERENCE_HOPS: usize = 8;

/// Whether the schema at `pointer` has a name of its own: the root, or an entry of
/// `$defs`/`definitions`.
fn has_own_name(pointer: &str) -> bool {
    pointer.is_empty() || definition_name(pointer).is_some()
}

/// `Name` for `/$defs/Name` and `/definitions/Name` (unescaped).
fn definition_name(pointer: &str) -> Option<String> {
    let mut segments = pointer.split('/').skip(1);
    match (segments.next(), segments.next(), segments.next()) {
        (Some("$defs" | "definitions"), Some(name), None) => Some(pointer_unescape(name)),
        _ => None,
    }
}

fn known_type(name: &str) -> Option<JsonType> {
    Some(match name {
        "string" => JsonType::String,
        "number" => JsonType::Number,
        "integer" => JsonType::Integer,
        "boolean" => JsonType::Boolean,
        "null" => JsonType::Null,
        "object" => JsonType::Object,
        "array" => JsonType::Array,
        _ => return None,
    })
}

fn value_has_type(value: &JsonValue, json_type: JsonType) -> bool {
    match (json_type, value) {
        (JsonType::String, JsonValue::String(_))
        | (JsonType::Number, JsonValue::Number(_))
        | (JsonType::Boolean, JsonValue::Bool(_))
        | (JsonType::Null, JsonValue::Null)
        | (JsonType::Object, JsonValue::Object(_))
        | (JsonType::Array, JsonValue::Array(_)) => true,
        (JsonType::Integer, JsonValue::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// `#`, `#/a/b` (percent-decoded) -> a JSON Pointer into the same document. External
/// references and anchors have no target here.
fn local_pointer(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return None;
    }
    percent_decode(fragment)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = text.get(index + 1..index + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Appends `segment` as one JSON Pointer segment (`~` -> `~0`, `/` -> `~1`).
fn push_pointer_escaped(out: &mut String, segment: &str) {
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

fn pointer_unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// The part of an alias name after the tool stem: the definition's name for `$defs`/
/// `definitions` entries, `Args`/`Output` for the document root, else the pointer's words.
fn alias_suffix(pointer: &str, role: Role) -> String {
    if pointer.is_empty() {
        return role.root_alias().to_owned();
    }
    let words = match definition_name(pointer) {
        Some(name) => pascal_case(&name),
        None => {
            let segments: Vec<String> = pointer.split('/').skip(1).map(pointer_unescape).collect();
            pascal_case(&segments.join(" "))
        }
    };
    if words.is_empty() {
        "Def".to_owned()
    } else {
        words
    }
}

/// Flattens nested unions, drops `never`, absorbs into `any`, removes duplicates.
pub(crate) fn union<'a>(members: Vec<Ty<'a>>) -> Ty<'a> {
    /// Adds one member; `true` when it is `any` (which absorbs the union).
    fn add<'a>(flat: &mut Vec<Ty<'a>>, part: Ty<'a>) -> bool {
        match part {
            Ty::Never => {}
            Ty::Any => return true,
            // `enum` values are distinct by the spec; comparing every pair of a long
            // enum was a hot spot, so literals are not deduplicated.
            part @ Ty::Literal(_) => flat.push(part),
            part if flat.contains(&part) => {}
            part => flat.push(part),
        }
        false
    }
    let mut flat: Vec<Ty> = Vec::with_capacity(members.len());
    for mut member in members {
        let any = match &mut member {
            Ty::Union(parts) => std::mem::take(parts)
                .into_iter()
                .any(|part| add(&mut flat, part)),
            _ => add(&mut flat, member),
        };
        if any {
            return Ty::Any;
        }
    }
    match flat.len() {
        0 => Ty::Never,
        1 => flat.pop().unwrap_or(Ty::Never),
        _ => Ty::Union(flat),
    }
}

/// Flattens nested intersections, drops `any` (and `unknown`, which adds nothing to
/// other members), collapses into `never`, removes duplicates.
pub(crate) fn intersection<'a>(members: Vec<Ty<'a>>) -> Ty<'a> {
    /// Adds one member; `true` when it is `never` (which the intersection collapses into).
    fn add<'a>(flat: &mut Vec<Ty<'a>>, saw_unknown: &mut bool, part: Ty<'a>) -> bool {
        match part {
            Ty::Any => {}
            Ty::Unknown => *saw_unknown = true,
            Ty::Never => return true,
            part if flat.contains(&part) => {}
            part => flat.push(part),
        }
        false
    }
    let mut flat: Vec<Ty> = Vec::with_capacity(members.len());
    let mut saw_unknown = false;
    for mut member in members {
        let never = match &mut member {
            Ty::Intersection(parts) => std::mem::take(parts)
                .into_iter()
                .any(|part| add(&mut flat, &mut saw_unknown, part)),
            _ => add(&mut flat, &mut saw_unknown, member),
        };
        if never {
            return Ty::Never;
        }
    }
    match flat.len() {
        0 if saw_unknown => Ty::Unknown,
        0 => Ty::Any,
        1 => flat.pop().unwrap_or(Ty::Any),
        _ => Ty::Intersection(flat),
    }
}

/// Longest JSON text of a default or example the documentation quotes; longer values
/// are left out to keep the SDK compact.
const MAX_QUOTED_VALUE: usize = 80;

/// The one-line documentation of a schema node: `@deprecated`, the description (or
/// title), then facts a type cannot carry: `integer`, format, bounds, default, examples.
pub(crate) fn doc_of(node: &JsonValue) -> Cow<'_, str> {
    match node.as_object().map(Keywords::of) {
        Some(keywords) => doc_from(&keywords),
        None => Cow::Borrowed(""),
    }
}

/// [`doc_of`] for a node whose keywords are already read. Borrows the description when
/// it is the whole documentation and already one line (the common case).
fn doc_from<'a>(map: &Keywords<'a>) -> Cow<'a, str> {
    doc_with(map, "")
}

/// [`doc_from`], with `more` facts (those of a referenced schema) after the node's own.
fn doc_with<'a>(map: &Keywords<'a>, more: &str) -> Cow<'a, str> {
    let mut facts = String::new();
    facts_of(map, &mut facts, true);
    if !more.is_empty() && facts != more {
        push_fact(&mut facts, format_args!("{more}"));
    }
    let text = map
        .get(Kw::Description)
        .or_else(|| map.get(Kw::Title))
        .and_then(JsonValue::as_str)
        .unwrap_or_default();
    let deprecated = map.get(Kw::Deprecated) == Some(&JsonValue::Bool(true));
    if facts.is_empty() && !deprecated {
        return one_line(text);
    }
    let mut doc = String::with_capacity(text.len() + facts.len() + 16);
    if deprecated {
        doc.push_str("@deprecated");
    }
    if !text.is_empty() {
        if !doc.is_empty() {
            doc.push(' ');
        }
        doc.push_str(text);
    }
    if !facts.is_empty() {
        if doc.is_empty() {
            doc = facts;
        } else if text.is_empty() {
            doc.push(' ');
            doc.push_str(&facts);
        } else {
            doc.push_str(" (");
            doc.push_str(&facts);
            doc.push(')');
        }
    }
    Cow::Owned(one_line_owned(doc))
}

/// Appends `fact` to a `, `-separated list.
fn push_fact(facts: &mut String, fact: std::fmt::Arguments<'_>) {
    if !facts.is_empty() {
        facts.push_str(", ");
    }
    // Writing to a `String` cannot fail.
    let _ = facts.write_fmt(fact);
}

/// Appends the facts of a node to `facts` (a `, `-separated list).
fn facts_of(map: &Keywords<'_>, facts: &mut String, with_items: bool) {
    let is_integer = match map.get(Kw::Type) {
        Some(JsonValue::String(t)) => t == "integer",
        Some(JsonValue::Array(ts)) => ts.iter().any(|t| t == "integer"),
        _ => false,
    };
    if is_integer && !map.contains_key(Kw::Enum) && !map.contains_key(Kw::Const) {
        push_fact(facts, format_args!("integer"));
    }
    if let Some(format) = map.get(Kw::Format).and_then(JsonValue::as_str) {
        push_fact(facts, format_args!("format: {}", one_line(format)));
    }
    // Draft 4: `exclusiveMinimum: true` makes `minimum` exclusive, so the bound is stated
    // once, as exclusive, where `exclusiveMinimum` comes.
    let exclusive_bound = |flag: Kw, bound: Kw| match (map.get(flag), map.get(bound)) {
        (Some(JsonValue::Bool(true)), Some(JsonValue::Number(n))) => Some(n),
        _ => None,
    };
    let exclusive_minimum = exclusive_bound(Kw::ExclusiveMinimum, Kw::Minimum);
    let exclusive_maximum = exclusive_bound(Kw::ExclusiveMaximum, Kw::Maximum);
    for (keyword, label) in [
        (Kw::Minimum, "minimum"),
        (Kw::Maximum, "maximum"),
        (Kw::ExclusiveMinimum, "exclusive minimum"),
        (Kw::ExclusiveMaximum, "exclusive maximum"),
        (Kw::MultipleOf, "multiple of"),
        (Kw::MinLength, "min length"),
        (Kw::MaxLength, "max length"),
        (Kw::MinItems, "min items"),
        (Kw::MaxItems, "max items"),
        (Kw::MinProperties, "min properties"),
        (Kw::MaxProperties, "max properties"),
    ] {
        let number = match (keyword, map.get(keyword)) {
            (Kw::Minimum, _) if exclusive_minimum.is_some() => None,
            (Kw::Maximum, _) if exclusive_maximum.is_some() => None,
            (_, Some(JsonValue::Number(n))) => Some(n),
            (Kw::ExclusiveMinimum, Some(JsonValue::Bool(true))) => exclusive_minimum,
            (Kw::ExclusiveMaximum, Some(JsonValue::Bool(true))) => exclusive_maximum,
            _ => None,
        };
        if let Some(n) = number {
            push_fact(facts, format_args!("{label}: {n}"));
        }
    }
    if let Some(pattern) = map.get(Kw::Pattern).and_then(JsonValue::as_str) {
        push_fact(facts, format_args!("pattern: {}", one_line(pattern)));
    }
    if map.get(Kw::UniqueItems) == Some(&JsonValue::Bool(true)) {
        push_fact(facts, format_args!("unique items"));
    }
    if let Some(value) = map.get(Kw::Default).and_then(quoted_value) {
        push_fact(facts, format_args!("default: {value}"));
    }
    let mut examples = String::new();
    match (map.get(Kw::Examples), map.get(Kw::Example)) {
        (Some(JsonValue::Array(values)), _) => {
            for value in values.iter().take(3).filter_map(quoted_value) {
                push_fact(&mut examples, format_args!("{value}"));
            }
        }
        (None, Some(value)) => {
            if let Some(value) = quoted_value(value) {
                examples = value;
            }
        }
        _ => {}
    }
    if !examples.is_empty() {
        push_fact(facts, format_args!("examples: {examples}"));
    }
    if with_items && let Some(JsonValue::Object(items)) = map.get(Kw::Items) {
        let mut item_facts = String::new();
        facts_of(&Keywords::of(items), &mut item_facts, false);
        if !item_facts.is_empty() {
            push_fact(facts, format_args!("each item: {item_facts}"));
        }
    }
}

fn quoted_value(value: &JsonValue) -> Option<String> {
    // Written without recursion: a default may nest as deep as the value limit.
    let text = crate::json::to_text(value);
    (text.len() <= MAX_QUOTED_VALUE).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The depth limit of these tests' walks.
    const TEST_DEPTH: usize = 64;

    #[test]
    fn recursive_references_become_one_alias() {
        let schema = json!({
            "$ref": "#/$defs/node",
            "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}
        });
        let (ty, model) = build_single(&schema, TEST_DEPTH);
        assert_eq!(ty, Ty::Alias(0));
        assert_eq!(model.aliases.len(), 1);
        assert_eq!(model.aliases[0].name, "SchemaNode");
        assert!(model.unknowns.is_empty());
    }

    #[test]
    fn self_referential_unions_become_unknown_and_are_reported() {
        let schema = json!({
            "$ref": "#/$defs/a",
            "$defs": {"a": {"anyOf": [{"$ref": "#/$defs/b"}, {"type": "string"}]}, "b": {"$ref": "#/$defs/a"}}
        });
        let (_, model) = build_single(&schema, TEST_DEPTH);
        assert_eq!(model.unknowns.len(), 1, "{:?}", model.unknowns);
    }

    #[test]
    fn malformed_nodes_are_reported_with_their_pointer() {
        let schema = json!({"type": "object", "properties": {"a": 3, "b": {"type": "strin"}}});
        let (_, model) = build_single(&schema, TEST_DEPTH);
        assert_eq!(
            model.unknowns,
            vec![
                "\"schema\" schema#/properties/a".to_owned(),
                "\"schema\" schema#/properties/b/type".to_owned()
            ]
        );
    }

    /// What `@modelcontextprotocol/server-sequential-thinking` publishes: zod-to-json-schema
    /// writes the later uses of one shared boolean schema as `$ref`s to its first use.
    fn sequential_thinking() -> JsonValue {
        let text = include_str!("../../../fixtures/tools/sequential-thinking.tools.json");
        let list: JsonValue = serde_json::from_str(text).unwrap();
        list["tools"][0]["inputSchema"].clone()
    }

    #[test]
    fn references_to_other_properties_take_no_name_or_doc_of_theirs() {
        let schema = sequential_thinking();
        let (ty, model) = build_single(&schema, TEST_DEPTH);
        // No alias named after (or documented as) `nextThoughtNeeded`.
        assert!(model.aliases.is_empty(), "{:?}", model.aliases);
        assert!(model.unknowns.is_empty(), "{:?}", model.unknowns);
        let Ty::Object(object) = &ty else {
            panic!("{ty:?}")
        };
        let property = |name: &str| {
            object
                .properties
                .iter()
                .find(|p| p.name == name)
                .unwrap_or_else(|| panic!("{name}"))
        };
        for (name, doc) in [
            ("isRevision", "Whether this revises previous thinking"),
            ("needsMoreThoughts", "If more thoughts are needed"),
            (
                "nextThoughtNeeded",
                "Whether another thought step is needed",
            ),
        ] {
            assert_eq!(property(name).ty, Ty::Boolean, "{name}");
            assert_eq!(property(name).doc, doc, "{name}");
        }
    }

    #[test]
    fn a_reference_into_properties_documents_the_facts_of_its_target_only() {
        let schema = json!({"type": "object", "properties": {
            "count": {"type": "integer", "minimum": 1, "description": "How many"},
            "again": {"$ref": "#/properties/count", "description": "How many more"},
            "bare": {"$ref": "#/properties/count"},
            "list": {"type": "array", "items": {"type": "string", "format": "uri", "description": "A link"}},
            "links": {"type": "array", "items": {"$ref": "#/properties/list/items"}}
        }});
        let (ty, model) = build_single(&schema, TEST_DEPTH);
        assert!(model.aliases.is_empty(), "{:?}", model.aliases);
        let Ty::Object(object) = &ty else {
            panic!("{ty:?}")
        };
        let docs: Vec<(&str, &str)> = object
            .properties
            .iter()
            .map(|p| (p.name, p.doc.as_ref()))
            .collect();
        assert_eq!(
            docs,
            vec![
                ("count", "How many (integer, minimum: 1)"),
                ("again", "How many more (integer, minimum: 1)"),
                ("bare", "integer, minimum: 1"),
                ("list", "each item: format: uri"),
                ("links", ""),
            ]
        );
        assert_eq!(object.properties[4].ty, Ty::Array(Box::new(Ty::String)));
    }

    #[test]
    fn recursive_references_into_properties_stay_named_aliases() {
        // The reference sits inside its own target: it must stay a name, or it would not end.
        let schema = json!({"type": "object", "properties": {
            "tree": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/properties/tree"}}
            }},
            // Two properties that refer to each other.
            "a": {"type": "array", "items": {"$ref": "#/properties/b"}},
            "b": {"type": "array", "items": {"$ref": "#/properties/a"}}
        }});
        let (_, model) = build_single(&schema, TEST_DEPTH);
        let names: Vec<&str> = model.aliases.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["SchemaPropertiesTree", "SchemaPropertiesA"]);
        assert!(model.unknowns.is_empty(), "{:?}", model.unknowns);
    }

    #[test]
    fn contradictory_enums_are_reported_unknowns() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string", "enum": [1]},
            "b": {"type": "integer", "enum": []},
            "c": {"type": "string", "enum": ["x", 2]}
        }});
        let (_, model) = build_single(&schema, TEST_DEPTH);
        assert_eq!(
            model.unknowns,
            vec![
                "\"schema\" schema#/properties/a/enum".to_owned(),
                "\"schema\" schema#/properties/b/enum".to_owned()
            ]
        );
    }

    #[test]
    fn deep_schemas_stop_at_the_depth_bound() {
        let mut schema = json!({"type": "string"});
        for _ in 0..500 {
            schema = json!({"type": "array", "items": schema});
        }
        let (_, model) = build_single(&schema, TEST_DEPTH);
        assert_eq!(model.unknowns.len(), 1);
    }

    #[test]
    fn deeply_nested_constants_are_any_value() {
        let mut value = json!(1);
        for _ in 0..MAX_LITERAL_NESTING {
            value = json!([value]);
        }
        assert_eq!(literal(&value), Ty::Literal(&value));
        let deeper = json!([value]);
        assert_eq!(literal(&deeper), Ty::Any);
        let schema = json!({"enum": [1, deeper]});
        assert_eq!(build_single(&schema, TEST_DEPTH).0, Ty::Any);
    }

    #[test]
    fn docs_carry_bounds_formats_defaults_and_deprecation() {
        let bounded = json!({
            "type": "integer", "description": "Page\nsize", "minimum": 1, "maximum": 100,
            "default": 30, "deprecated": true
        });
        assert_eq!(
            doc_of(&bounded),
            "@deprecated Page size (integer, minimum: 1, maximum: 100, default: 30)"
        );
        let formatted = json!({"type": "array", "items": {"type": "string", "format": "uri"}});
        assert_eq!(doc_of(&formatted), "each item: format: uri");
    }
}
