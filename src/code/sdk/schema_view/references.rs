//! `$ref`s during a walk: a target with a name of its own (the root, a definition) or one
//! the walk is inside becomes a named alias; any other is walked in place, once per
//! document, and stays in place while it is small.
//!
//! This file owns the choice between an alias and the target in place, and the facts a
//! referring node takes from its target. It must not read pointers' syntax
//! (`pointers.rs`) nor walk the target's keywords itself (`walk.rs` does).

use crate::json::JsonValue;

use super::facts::{doc_of, facts_of};
use super::keywords::{Keywords, Kw};
use super::model::{Alias, AliasId, Extra, Ty};
use super::pointers::{alias_suffix, has_own_name, local_pointer};
use super::walk::{DocumentWalker, Frame, Next, ReferenceFrame};

impl<'d> DocumentWalker<'_, 'd> {
    /// [`Frame::Reference`]: starts walking the target in place (`input` is `None`; the
    /// walk's path becomes the target's), then makes its type of the target's (the path
    /// put back).
    pub(super) fn resume_reference(
        &mut self,
        mut frame: Box<ReferenceFrame<'d>>,
        input: Option<Ty<'d>>,
        path: &mut String,
        stack: &mut Vec<Frame<'d>>,
    ) -> Next<'d> {
        match input {
            // The path ends in `/$ref`: the location of the node holding it.
            None => {
                let location = path.strip_suffix("/$ref").unwrap_or(path).to_owned();
                self.inlining.push((frame.pointer.clone(), location));
                frame.saved_path = std::mem::replace(path, frame.pointer.clone());
                frame.unknowns = self.builder.unknowns.len();
                frame.outer_too_deep = std::mem::replace(&mut self.too_deep, false);
                let (target, depth) = (frame.target, frame.depth);
                stack.push(Frame::Reference(frame));
                Next::Walk(target, depth + 1)
            }
            Some(ty) => {
                let ReferenceFrame {
                    pointer,
                    target,
                    saved_path,
                    unknowns,
                    outer_too_deep,
                    ..
                } = *frame;
                *path = saved_path;
                self.inlining.pop();
                let too_deep = std::mem::replace(&mut self.too_deep, outer_too_deep);
                Next::Ty(self.inlined_reference(pointer, target, ty, too_deep, unknowns))
            }
        }
    }

    /// A `$ref` (`path` ends in `/$ref`). A target that is a definition (`$defs`,
    /// `definitions`) or the root has a name of its own and becomes a named alias. Any
    /// other target (`#/properties/a`, as zod-to-json-schema writes for a schema used
    /// twice) is walked in place: its location names and documents another property, not
    /// the schema. Only a reference back into what is being walked (which would not end)
    /// makes such a target an alias.
    pub(super) fn reference(
        &mut self,
        reference: &JsonValue,
        path: &str,
        depth: usize,
    ) -> Next<'d> {
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
            return Next::Start(Frame::Reference(Box::new(ReferenceFrame {
                pointer,
                target,
                depth,
                saved_path: String::new(),
                unknowns: 0,
                outer_too_deep: false,
            })));
        }
        Next::Ty(Ty::Alias(self.alias(pointer, target, None)))
    }

    /// A reference's target, walked in place to `ty`: an alias instead when it was too
    /// deep where it is referred to (its unknowns since `unknowns` withdrawn: the alias
    /// walks it from the top) or when it is large (a fan of references to references
    /// would otherwise grow the text exponentially).
    pub(super) fn inlined_reference(
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
    pub(super) fn alias(
        &mut self,
        pointer: String,
        target: &'d JsonValue,
        ty: Option<Ty<'d>>,
    ) -> AliasId {
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

impl<'d> DocumentWalker<'_, 'd> {
    /// Whether walking `target` in place from the node at `location` would come back to
    /// it: `target` holds that node, or a reference being walked in place.
    pub(super) fn is_recursive(&self, target: &str, location: &str) -> bool {
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
    pub(super) fn referenced_facts(&self, map: &Keywords<'d>) -> String {
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

/// References followed to find the facts of a schema written as a `$ref` chain.
const MAX_REFERENCE_HOPS: usize = 8;
