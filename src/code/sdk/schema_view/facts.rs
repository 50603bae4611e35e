//! The documentation of a schema node: its description, then the facts (bounds, formats,
//! defaults, examples, deprecation) that go into the SDK's comments.
//!
//! This file owns which facts are stated and how they read. It must not decide types (the
//! walk does) nor comment syntax (the renderers do).

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::json::JsonValue;

use super::keywords::{Keywords, Kw};
use crate::code::sdk::text::{one_line, one_line_owned};

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
pub(super) fn doc_with<'a>(map: &Keywords<'a>, more: &str) -> Cow<'a, str> {
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
pub(super) fn facts_of(map: &Keywords<'_>, facts: &mut String, with_items: bool) {
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
