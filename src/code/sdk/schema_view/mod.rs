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
//!
//! Its files, one concern each:
//!
//! - this file: the entry points ([`build_model`], [`walk_tools`], [`build_single`]), the
//!   SDK's tool order, and the model builder (aliases named across documents, reference
//!   cycles broken);
//! - `model.rs`: the type model the renderers read ([`Ty`], [`SdkModel`], ...), with
//!   [`union`] and [`intersection`];
//! - `walk.rs`: one document's walk, node by node, with its frames;
//! - `references.rs`: `$ref`s during the walk (a named alias or the target in place);
//! - `keywords.rs`: the keywords the walk reads of a node, and the JSON types;
//! - `pointers.rs`: JSON Pointers and the names of their targets;
//! - `facts.rs`: the documentation of a node (its description and facts).

use std::collections::HashMap;

use crate::json::JsonValue;

use super::SdkTool;
use super::text::{NameRegistry, one_line, pascal_case};
use walk::DocumentWalker;

pub(crate) use model::{
    Alias, AliasId, Extra, NumberLiteral, ObjectTy, Property, SdkModel, ToolModel, TupleTy, Ty,
};

mod facts;
mod keywords;
mod model;
mod pointers;
mod references;
#[cfg(test)]
mod tests;
mod walk;

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

/// What the walks of one SDK's (or one schema's) documents share: the aliases they
/// declared, the type names taken, the unknowns reported, and the depth limit.
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
