//! The subset checker's unit tests.

use super::*;
use serde_json::json;

fn issues(schema: JsonValue) -> Vec<String> {
    match JsonSchema::parse(&schema) {
        Ok(_) => Vec::new(),
        Err(err) => err.issues.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn every_supported_keyword_is_accepted() {
    let schema = json!({
        "type": "object",
        "title": "T",
        "description": "D",
        "default": {"a": 1},
        "examples": [{"a": 2}],
        "properties": {
            "a": {"type": "integer", "enum": [1, 2, 3]},
            "b": {"type": "string", "const": "x"},
            "c": {"type": "array", "items": {"type": "boolean"}},
            "d": {"oneOf": [{"type": "null"}, {"type": "number"}], "description": "either"},
            "e": {},
            "f": {"type": "object", "additionalProperties": false},
            "g": {"type": "boolean", "enum": [true]},
            "h": {"type": "integer", "enum": [1, 2], "const": 2}
        },
        "required": ["a", "b"],
        "additionalProperties": true
    });
    assert_eq!(issues(schema), Vec::<String>::new());
}

#[test]
fn any_json_root_is_accepted() {
    for root in [
        json!({}),
        json!({"type": "string"}),
        json!({"type": "array"}),
        json!({"type": "null"}),
    ] {
        assert!(JsonSchema::parse(&root).is_ok(), "{root}");
    }
}

#[test]
fn unsupported_keywords_are_rejected_at_their_paths() {
    assert_eq!(
        issues(
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^x", "minLength": 1}}})
        ),
        vec![
            "#/properties/a/pattern: unsupported keyword `pattern`",
            "#/properties/a/minLength: unsupported keyword `minLength`"
        ]
    );
    assert_eq!(
        issues(json!({"$ref": "#/$defs/x"})),
        vec!["#/$ref: unsupported keyword `$ref`"]
    );
    assert_eq!(
        issues(json!({"anyOf": []})),
        vec!["#/anyOf: unsupported keyword `anyOf`"]
    );
}

#[test]
fn every_issue_is_reported_at_once() {
    let found = issues(json!({
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"]},
            "b": {"type": "array", "items": [{"type": "string"}]},
            "c": {"type": "strin"},
            "d": true
        },
        "required": ["a", "zzz", "a"],
        "additionalProperties": {"type": "string"}
    }));
    assert_eq!(
        found,
        vec![
            "#/properties/a/type: type arrays are not supported; use oneOf",
            "#/properties/b/items: tuple `items` (an array of schemas) is not supported",
            "#/properties/c/type: unknown type \"strin\"",
            "#/properties/d: boolean schemas are not supported; use {} for any value (got true)",
            "#/required: required property \"zzz\" is not declared in `properties`",
            "#/required: `required` lists \"a\" twice",
            "#/additionalProperties: `additionalProperties` must be true or false (schemas are not supported)",
        ]
    );
}

#[test]
fn object_and_array_keywords_need_their_type() {
    assert_eq!(
        issues(
            json!({"properties": {}, "required": [], "additionalProperties": false, "items": {}})
        ),
        vec![
            "#/properties: `properties` requires `\"type\": \"object\"`",
            "#/required: `required` requires `\"type\": \"object\"`",
            "#/additionalProperties: `additionalProperties` requires `\"type\": \"object\"`",
            "#/items: `items` requires `\"type\": \"array\"`",
        ]
    );
    assert_eq!(
        issues(json!({"type": "string", "items": {"type": "string"}})),
        vec!["#/items: `items` requires `\"type\": \"array\"`"]
    );
}

#[test]
fn one_of_needs_two_branches_and_stands_alone() {
    assert_eq!(
        issues(json!({"oneOf": [{"type": "string"}]})),
        vec!["#/oneOf: `oneOf` needs at least two branches, got 1"]
    );
    assert_eq!(
        issues(json!({"oneOf": [{"type": "string"}, {"type": "null"}], "type": "string"})),
        vec!["#: `oneOf` cannot be combined with `type`; put constraints inside the branches"]
    );
    assert_eq!(
        issues(json!({"oneOf": {"type": "string"}})),
        vec!["#/oneOf: `oneOf` must be an array of schemas, got {\"type\":\"string\"}"]
    );
    assert_eq!(
        issues(json!({"oneOf": [{"type": "string"}, {"type": "x"}]})),
        vec!["#/oneOf/1/type: unknown type \"x\""]
    );
}

#[test]
fn enum_and_const_are_scalar_and_match_the_type() {
    assert_eq!(
        issues(json!({"type": "string", "enum": ["a", 1]})),
        vec!["#/enum: `enum` value 1 does not match the node's type string"]
    );
    assert_eq!(
        issues(json!({"type": "integer", "enum": [1, 1.5]})),
        vec!["#/enum: `enum` value 1.5 does not match the node's type integer"]
    );
    assert_eq!(
        issues(json!({"type": "integer", "const": 2.0})),
        Vec::<String>::new()
    );
    assert_eq!(
        issues(json!({"type": "boolean", "const": "true"})),
        vec!["#/const: `const` value \"true\" does not match the node's type boolean"]
    );
    assert_eq!(
        issues(json!({"type": "object", "enum": [{}]})),
        vec!["#/enum: `enum` is only supported on scalar types, not object"]
    );
    assert_eq!(
        issues(json!({"type": "string", "enum": [[1]]})),
        vec!["#/enum: `enum` values must be scalars, got [1]"]
    );
    assert_eq!(
        issues(json!({"enum": [[1]]})),
        vec![
            "#/enum: `enum` requires a scalar `type` (string, number, integer, boolean or null)",
            "#/enum: `enum` values must be scalars, got [1]"
        ]
    );
    assert_eq!(
        issues(json!({"type": "string", "enum": []})),
        vec!["#/enum: `enum` needs at least one value"]
    );
    assert_eq!(
        issues(json!({"type": "number", "enum": [1, 1.0]})),
        vec!["#/enum: `enum` lists 1.0 twice"]
    );
    assert_eq!(
        issues(json!({"type": "array", "const": [1]})),
        vec!["#/const: `const` is only supported on scalar types"]
    );
}

#[test]
fn enum_and_const_need_a_scalar_type_and_agree() {
    let needs = |keyword: &str| {
        format!(
            "#/{keyword}: `{keyword}` requires a scalar `type` (string, number, integer, boolean or null)"
        )
    };
    assert_eq!(issues(json!({"enum": ["a", "b"]})), vec![needs("enum")]);
    assert_eq!(issues(json!({"const": 3})), vec![needs("const")]);
    assert_eq!(
        issues(json!({"description": "x", "const": null})),
        vec![needs("const")]
    );
    assert_eq!(
        issues(json!({"type": "string", "enum": ["a", "b"], "const": "c"})),
        vec!["#/const: `const` value \"c\" is not one of `enum`"]
    );
    // Numbers compare by value, as validation does.
    assert_eq!(
        issues(json!({"type": "number", "enum": [1, 2], "const": 2.0})),
        Vec::<String>::new()
    );
    assert_eq!(
        issues(json!({"enum": ["a"], "const": "b"})),
        vec![
            needs("enum"),
            needs("const"),
            "#/const: `const` value \"b\" is not one of `enum`".to_owned()
        ]
    );
    // Inside `oneOf` branches too.
    assert_eq!(
        issues(json!({"oneOf": [{"const": "a"}, {"type": "string", "const": "b"}]})),
        vec![format!(
            "#/oneOf/0/const: `const` requires a scalar `type` (string, number, integer, boolean or null)"
        )]
    );
}

/// The enforced subset's rules at once, as the spec states them: every violation is
/// reported, six here (before `enum`/`const` were checked for a type and for agreeing,
/// three of them went unreported).
#[test]
fn the_combined_case_reports_all_six_issues() {
    let found = issues(json!({
        "type": "object",
        "properties": {
            "mode": {"enum": ["fast", "slow"], "description": "no type"},
            "level": {"type": "integer", "enum": [1, 2, 3], "const": 4},
            "flag": {"const": true},
            "name": {"type": ["string", "null"]},
            "size": {"type": "integer", "minimum": 1}
        },
        "required": ["mode", "missing"]
    }));
    assert_eq!(
        found,
        vec![
            "#/properties/mode/enum: `enum` requires a scalar `type` (string, number, integer, boolean or null)",
            "#/properties/level/const: `const` value 4 is not one of `enum`",
            "#/properties/flag/const: `const` requires a scalar `type` (string, number, integer, boolean or null)",
            "#/properties/name/type: type arrays are not supported; use oneOf",
            "#/properties/size/minimum: unsupported keyword `minimum`",
            "#/required: required property \"missing\" is not declared in `properties`",
        ]
    );
}

#[test]
fn annotations_must_be_data() {
    assert_eq!(
        issues(json!({"description": 3, "title": null, "default": 9007199254740993u64})),
        vec![
            "#/description: `description` must be a string, got 3",
            "#/title: `title` must be a string, got null",
            "#/default: `default` must be lossless JSON data: $: integer 9007199254740993 is outside ±9007199254740991 and would change as a JavaScript number",
        ]
    );
}

#[test]
fn non_object_schemas_are_rejected() {
    assert_eq!(
        issues(json!("string")),
        vec!["#: a schema must be a JSON object (got \"string\")"]
    );
    assert_eq!(
        issues(json!({"type": "object", "properties": []})),
        vec!["#/properties: `properties` must be an object, got []"]
    );
}

#[test]
fn pointers_escape_slashes_and_tildes() {
    assert_eq!(
        issues(json!({"type": "object", "properties": {"a/b~c": {"x": 1}}})),
        vec!["#/properties/a~1b~0c/x: unsupported keyword `x`"]
    );
}

#[test]
fn object_root_assertion() {
    let object = JsonSchema::parse(&json!({"type": "object"})).unwrap();
    assert!(object.assert_object().is_ok());
    let err = JsonSchema::parse(&json!({"type": "array"}))
        .unwrap()
        .assert_object()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unsupported schema (1 issue):\n- #: the root must be `\"type\": \"object\"`"
    );
    assert!(JsonSchema::any().assert_object().is_err());
}

#[test]
fn schemas_deeper_than_the_limit_are_refused_without_overflowing() {
    // 100,000 levels of `items` (the limit is the default value depth), built without recursion (built without json!, which would
    // clone recursively; serde_json's Drop of a value this deep would recurse, so it is
    // leaked on purpose via ManuallyDrop).
    let mut schema = json!({"type": "string"});
    for _ in 0..100_000 {
        let mut node = serde_json::Map::new();
        node.insert("type".into(), json!("array"));
        node.insert("items".into(), schema);
        schema = JsonValue::Object(node);
    }
    let schema = std::mem::ManuallyDrop::new(schema);
    let err = JsonSchema::parse(&schema).unwrap_err();
    assert_eq!(err.issues.len(), 1);
    assert_eq!(
        err.issues[0].message,
        format!("schema nests deeper than {DEFAULT_MAX_DEPTH} levels")
    );
}
