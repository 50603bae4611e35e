//! The type model: what the walk makes of a schema and both renderers read ([`Ty`], the
//! aliases, each tool's types, the whole SDK's model), the union and intersection that
//! normalize it, and how a number literal is spelled ([`NumberLiteral`]).
//!
//! This file owns the model's shape and its invariants: a [`Ty`] of any depth is copied,
//! compared and freed without recursion (through [`crate::json::Tree`]). It must not read
//! schemas (`walk.rs` does) nor produce text (the renderers do).

use std::borrow::Cow;

use crate::json::{JsonValue, Tree};

use crate::code::sdk::text::NameRegistry;

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

    /// Calls `f` on each type this one holds (in `Tree::child`'s order).
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

/// A type holds its members, items and property types: copied, compared and freed without
/// recursion.
impl<'a> Tree for Ty<'a> {
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

    /// Moves out the types this one holds that hold others (the rest are freed with it).
    fn take_children(&mut self, into: &mut Vec<Ty<'a>>) {
        self.children_mut(|child| {
            if child.is_container() {
                into.push(std::mem::replace(child, Ty::Unknown));
            }
        });
    }
}

impl<'a> Clone for Ty<'a> {
    fn clone(&self) -> Self {
        crate::json::clone_tree(self)
    }
}

impl<'a> PartialEq for Ty<'a> {
    fn eq(&self, other: &Self) -> bool {
        crate::json::tree_eq(self, other, Ty::same_node)
    }
}

impl<'a> Drop for Ty<'a> {
    fn drop(&mut self) {
        crate::json::drop_tree(self);
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
