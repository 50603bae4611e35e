//! The walker's unit tests: references, keywords, facts and limits.

use serde_json::json;

use super::facts::doc_of;
use super::walk::{MAX_LITERAL_NESTING, literal};
use super::*;

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
    let text = include_str!("../../../../fixtures/tools/sequential-thinking.tools.json");
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
