//! The keywords of a schema node the walk reads ([`Kw`], read once per node into
//! [`Keywords`]) and the JSON types a `type` keyword names.
//!
//! This file owns which keywords the SDK understands and how a node's are looked up. It
//! must not decide what they mean for a type (`walk.rs`) or for documentation (`facts.rs`).

use crate::json::JsonValue;

/// A JSON Schema type keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum JsonType {
    String,
    Number,
    Integer,
    Boolean,
    Null,
    Object,
    Array,
}

/// The types a node allows (`type`, or inferred from the keywords): nearly always one.
pub(super) enum Types {
    One(JsonType),
    List(Vec<JsonType>),
}

pub(super) const OBJECT_KEYWORDS: [Kw; 4] = [
    Kw::Properties,
    Kw::AdditionalProperties,
    Kw::PatternProperties,
    Kw::Required,
];

pub(super) const ARRAY_KEYWORDS: [Kw; 2] = [Kw::Items, Kw::PrefixItems];

/// The schema keywords the walker reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kw {
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
    pub(super) fn of(key: &str) -> Option<Kw> {
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
pub(super) struct Keywords<'a> {
    values: [Option<&'a JsonValue>; KEYWORD_COUNT],
}

impl<'a> Keywords<'a> {
    pub(super) fn of(map: &'a serde_json::Map<String, JsonValue>) -> Self {
        let mut values = [None; KEYWORD_COUNT];
        for (key, value) in map {
            if let Some(keyword) = Kw::of(key) {
                values[keyword as usize] = Some(value);
            }
        }
        Keywords { values }
    }

    pub(super) fn get(&self, keyword: Kw) -> Option<&'a JsonValue> {
        self.values[keyword as usize]
    }

    pub(super) fn contains_key(&self, keyword: Kw) -> bool {
        self.values[keyword as usize].is_some()
    }
}

pub(super) fn known_type(name: &str) -> Option<JsonType> {
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

pub(super) fn value_has_type(value: &JsonValue, json_type: JsonType) -> bool {
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
