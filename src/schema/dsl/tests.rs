//! The schema DSL's unit tests.

use super::*;
use serde_json::json;

#[test]
fn every_kind_compiles_to_the_subset() {
    let schema = ValueSchema::object(false)
        .required("s", ValueSchema::string().enum_values(["a", "b"]))
        .required("n", ValueSchema::number().constant(1.5))
        .property("i", ValueSchema::integer().description("count"))
        .property("b", ValueSchema::boolean())
        .property("z", ValueSchema::null())
        .property("list", ValueSchema::array(ValueSchema::string()))
        .property("any_list", ValueSchema::array_of_any())
        .property("j", ValueSchema::json().title("anything"))
        .property(
            "either",
            ValueSchema::one_of([ValueSchema::string(), ValueSchema::null()]),
        )
        .property("open", ValueSchema::object(true));
    assert_eq!(
        schema.to_json_schema(),
        json!({
            "type": "object",
            "properties": {
                "s": {"type": "string", "enum": ["a", "b"]},
                "n": {"type": "number", "const": 1.5},
                "i": {"type": "integer", "description": "count"},
                "b": {"type": "boolean"},
                "z": {"type": "null"},
                "list": {"type": "array", "items": {"type": "string"}},
                "any_list": {"type": "array"},
                "j": {"title": "anything"},
                "either": {"oneOf": [{"type": "string"}, {"type": "null"}]},
                "open": {"type": "object", "properties": {}, "additionalProperties": true}
            },
            "required": ["s", "n"],
            "additionalProperties": false
        })
    );
    let compiled = schema.compile().unwrap();
    assert!(compiled.is_valid(&json!({"s": "a", "n": 1.5, "j": [1, {"x": null}]})));
    assert!(!compiled.is_valid(&json!({"s": "c", "n": 1.5})));
}

#[test]
fn enum_and_const_must_match_the_node_type() {
    let err = ValueSchema::integer()
        .enum_values([json!(1), json!("2")])
        .compile()
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::UnsupportedSchema);
    assert!(
        err.message()
            .contains("`enum` value \"2\" does not match the node's type integer"),
        "{err}"
    );
    let err = ValueSchema::boolean()
        .constant("yes")
        .compile()
        .unwrap_err();
    assert!(
        err.message()
            .contains("does not match the node's type boolean"),
        "{err}"
    );
    let err = ValueSchema::json().enum_values([1]).compile().unwrap_err();
    assert!(
        err.message().contains("only supported on scalar types"),
        "{err}"
    );
    let err = ValueSchema::array_of_any()
        .constant(1)
        .compile()
        .unwrap_err();
    assert!(
        err.message()
            .contains("`const` is only supported on scalar types"),
        "{err}"
    );
}

#[test]
fn one_of_needs_two_branches() {
    let err = ValueSchema::one_of([ValueSchema::string()])
        .compile()
        .unwrap_err();
    assert!(err.message().contains("at least two branches"), "{err}");
}

#[test]
fn misuse_and_duplicates_are_reported() {
    let err = ValueSchema::string()
        .property("x", ValueSchema::null())
        .compile()
        .unwrap_err();
    assert!(
        err.message()
            .contains("properties can only be added to object schemas"),
        "{err}"
    );
    let err = ParameterSchema::new()
        .required("a", ValueSchema::string())
        .optional("a", ValueSchema::null())
        .compile()
        .unwrap_err();
    assert!(
        err.message()
            .contains("#/properties/a: property \"a\" is declared twice"),
        "{err}"
    );
}

#[test]
fn parameters_are_an_open_root_with_per_property_required() {
    let params = ParameterSchema::new()
        .required("path", ValueSchema::string())
        .optional("limit", ValueSchema::integer());
    let compiled = params.compile().unwrap();
    assert!(compiled.is_valid(&json!({"path": "x", "extra": true})));
    assert!(!compiled.is_valid(&json!({"limit": 1})));
    assert_eq!(
        ParameterSchema::new().to_json_schema(),
        json!({"type": "object", "properties": {}})
    );
}

#[test]
fn the_data_form_reads_back_what_the_builder_writes() {
    let spec = json!({
        "path": {"type": "string", "required": true, "description": "Absolute file path"},
        "mode": {"type": "string", "enum": ["r", "w"]},
        "opts": {"type": "object", "additionalProperties": false, "properties": {
            "deep": {"type": "boolean", "required": true}
        }},
        "items": {"type": "array", "items": {"oneOf": [{"type": "integer"}, {"type": "null"}]}},
        "raw": {"type": "json"}
    });
    let params = ParameterSchema::from_json(&spec).unwrap();
    let expected = ParameterSchema::new()
        .required(
            "path",
            ValueSchema::string().description("Absolute file path"),
        )
        .optional("mode", ValueSchema::string().enum_values(["r", "w"]))
        .optional(
            "opts",
            ValueSchema::object(false).required("deep", ValueSchema::boolean()),
        )
        .optional(
            "items",
            ValueSchema::array(ValueSchema::one_of([
                ValueSchema::integer(),
                ValueSchema::null(),
            ])),
        )
        .optional("raw", ValueSchema::json());
    assert_eq!(params, expected);
    assert!(params.compile().is_ok());
}

#[test]
fn the_json_node_carries_default_and_examples() {
    let built = ValueSchema::json()
        .description("Any value")
        .default_value(json!({"a": 1}))
        .examples(json!([1, "two", null]));
    let expected = json!({
        "description": "Any value",
        "default": {"a": 1},
        "examples": [1, "two", null]
    });
    assert_eq!(built.to_json_schema(), expected);
    let compiled = built.compile().unwrap();
    assert!(compiled.is_valid(&json!([1, {"b": null}])));

    let read = ValueSchema::from_json(&json!({
        "type": "json", "description": "Any value", "default": {"a": 1}, "examples": [1, "two", null]
    }))
    .unwrap();
    assert_eq!(read, built);
    let params = ParameterSchema::from_json(&json!({
        "raw": {"type": "json", "required": true, "default": 0, "examples": [[]]}
    }))
    .unwrap();
    assert_eq!(
        params.to_json_schema()["properties"]["raw"],
        json!({"default": 0, "examples": [[]]})
    );

    // Annotations, but lossless JSON data.
    let err = ValueSchema::json()
        .default_value(json!(9007199254740993u64))
        .compile()
        .unwrap_err();
    assert!(
        err.message()
            .contains("#/default: `default` must be lossless JSON data"),
        "{err}"
    );
    let err = ValueSchema::from_json(&json!({"type": "json", "examples": [9007199254740993u64]}))
        .unwrap_err();
    assert!(
        err.message()
            .contains("#: `examples` must be lossless JSON data"),
        "{err}"
    );
    // Only the json node has them.
    let err = ValueSchema::from_json(&json!({"type": "string", "default": "x"})).unwrap_err();
    assert!(
        err.message().contains("#: unexpected key `default`"),
        "{err}"
    );
    let err = ValueSchema::string()
        .examples(json!(["x"]))
        .compile()
        .unwrap_err();
    assert!(
        err.message()
            .contains("#: `default` and `examples` are annotations of json nodes only"),
        "{err}"
    );
}

#[test]
fn the_data_form_reports_every_problem() {
    let err = ParameterSchema::from_json(&json!({
        "a": {"type": "object", "properties": {}},
        "b": {"type": "strin"},
        "c": {"type": "string", "minLength": 3, "required": "yes"},
        "d": {"description": "no type"},
        "e": 5
    }))
    .unwrap_err();
    assert_eq!(
        err.message(),
        "unsupported schema (6 issues):\n\
         - #/a: object schemas declare `additionalProperties: true | false`\n\
         - #/b: unknown type \"strin\"\n\
         - #/c: unexpected key `minLength`\n\
         - #/c: `required` of \"c\" must be true when present (an optional property leaves it out), got \"yes\"\n\
         - #/d: a schema needs `type` (or `oneOf`)\n\
         - #/e: a schema must be an object, got 5"
    );
    assert!(ValueSchema::from_json(&json!({"type": "string", "required": true})).is_err());
    assert!(ParameterSchema::from_json(&json!([])).is_err());
}

#[test]
fn runtime_forged_author_forms_are_refused_not_compiled_lossily() {
    // What the DSL's types forbid, arriving as data from an untyped caller: read and
    // compiled, every one is an error (upstream's list, as far as JSON can carry it).
    for spec in [
        json!({"type": "object"}),
        json!({"oneOf": [{"type": "string"}]}),
        json!({"type": "number", "enum": ["1"]}),
        json!({"type": "string", "enum": ["a"], "const": "b"}),
        json!({"type": "integer", "const": 1.5}),
        json!({"type": "array", "items": {"type": "string", "required": true}}),
        json!({"type": "array", "items": 42}),
        json!({"type": "string", "extra": true}),
        json!({"type": "string", "oneOf": [{"type": "string"}, {"type": "null"}]}),
        json!({"oneOf": "not-an-array"}),
        json!({"type": "string", "enum": "a"}),
        json!({}),
        json!(null),
    ] {
        let outcome = ValueSchema::from_json(&spec).and_then(|schema| schema.compile());
        let err = outcome.expect_err(&spec.to_string());
        assert_eq!(err.code(), ErrorCode::UnsupportedSchema, "{spec}");
    }
    for spec in [json!(null), json!({"bad": 42})] {
        let outcome = ParameterSchema::from_json(&spec).and_then(|schema| schema.compile());
        assert!(outcome.is_err(), "{spec}");
    }

    // A parameter's requiredness is `true` or absent: `required: false` is refused,
    // naming the parameter, rather than read as optional.
    let err = ParameterSchema::from_json(&json!({"value": {"type": "string", "required": false}}))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::UnsupportedSchema);
    assert_eq!(
        err.message(),
        "unsupported schema (1 issue):\n\
         - #/value: `required` of \"value\" must be true when present (an optional property leaves it out), got false"
    );
    // So is a nested object's property, and any other value.
    let err = ValueSchema::from_json(&json!({
        "type": "object", "additionalProperties": false,
        "properties": {"a/b": {"type": "integer", "required": false}, "c": {"type": "null", "required": 1}}
    }))
    .unwrap_err();
    assert!(
        err.message()
            .contains("#/properties/a~1b: `required` of \"a/b\" must be true when present"),
        "{err}"
    );
    assert!(
        err.message()
            .contains("#/properties/c: `required` of \"c\" must be true when present (an optional property leaves it out), got 1"),
        "{err}"
    );
    // `true`, and leaving it out, still read as they did.
    let params = ParameterSchema::from_json(&json!({
        "a": {"type": "string", "required": true},
        "b": {"type": "string"}
    }))
    .unwrap();
    assert_eq!(
        params,
        ParameterSchema::new()
            .required("a", ValueSchema::string())
            .optional("b", ValueSchema::string())
    );
}
