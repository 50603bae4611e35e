//! Property tests of the SDK renderers: deterministic, order-independent, total.

use proptest::prelude::*;
use serde_json::json;

use super::{SdkLanguage, SdkTool, json_schema_to_ts, render_sdk_section};
use crate::json::JsonValue;

/// Arbitrary JSON, biased towards schema keywords so the walker sees real structure.
fn arbitrary_json() -> impl Strategy<Value = JsonValue> {
    let key = prop_oneof![
        Just("type".to_owned()),
        Just("properties".to_owned()),
        Just("items".to_owned()),
        Just("prefixItems".to_owned()),
        Just("required".to_owned()),
        Just("enum".to_owned()),
        Just("const".to_owned()),
        Just("anyOf".to_owned()),
        Just("allOf".to_owned()),
        Just("oneOf".to_owned()),
        Just("$ref".to_owned()),
        Just("$defs".to_owned()),
        Just("additionalProperties".to_owned()),
        Just("patternProperties".to_owned()),
        Just("nullable".to_owned()),
        Just("description".to_owned()),
        "[a-z*/ \"\n]{0,6}",
    ];
    let leaf = prop_oneof![
        Just(JsonValue::Null),
        any::<bool>().prop_map(JsonValue::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|n| json!(n)),
        prop_oneof![
            Just("string"),
            Just("integer"),
            Just("number"),
            Just("object"),
            Just("array"),
            Just("null"),
            Just("boolean"),
            Just("#"),
            Just("#/$defs/a"),
            Just("#/properties/a"),
            Just("*/"),
            Just("x\ny"),
        ]
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(6, 96, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(JsonValue::Array),
            prop::collection::vec((key.clone(), inner), 0..6)
                .prop_map(|entries| JsonValue::Object(entries.into_iter().collect())),
        ]
    })
}

fn arbitrary_tool() -> impl Strategy<Value = SdkTool> {
    (
        prop_oneof![
            "[a-z_]{1,8}",
            "[a-z\\-\"\n路 ]{1,5}",
            Just("__proto__".to_owned())
        ],
        "[a-z */\n]{0,12}",
        arbitrary_json(),
        prop::option::of(arbitrary_json()),
    )
        .prop_map(|(name, description, parameters, output)| SdkTool {
            name,
            description,
            parameters,
            output,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn rendering_is_deterministic_and_ignores_input_order(
        tools in prop::collection::vec(arbitrary_tool(), 0..6),
        rotation in 0usize..6,
    ) {
        let mut permuted = tools.clone();
        permuted.reverse();
        if !permuted.is_empty() {
            let by = rotation % permuted.len();
            permuted.rotate_left(by);
        }
        for language in [SdkLanguage::TypeScript, SdkLanguage::Python] {
            let first = render_sdk_section(language, &tools);
            prop_assert_eq!(&first, &render_sdk_section(language, &tools));
            prop_assert_eq!(&first, &render_sdk_section(language, &permuted));
        }
    }

    #[test]
    fn any_json_as_a_schema_renders_without_panicking(schema in arbitrary_json()) {
        let text = json_schema_to_ts(&schema);
        prop_assert!(!text.is_empty());
        let tool = SdkTool { name: "t".into(), description: String::new(), parameters: schema.clone(), output: Some(schema) };
        for language in [SdkLanguage::TypeScript, SdkLanguage::Python] {
            let section = render_sdk_section(language, std::slice::from_ref(&tool));
            prop_assert!(section.contains("tools"));
        }
    }
}

#[test]
fn schemas_deeper_than_the_bound_end_in_unknown() {
    let mut schema = json!({"type": "string"});
    // Deeper than the walker's bound, as deep as parsed JSON text can be (serde_json stops
    // at 128 levels, and cloning or dropping deeper values recurses in serde_json itself).
    for index in 0..60 {
        schema = if index % 2 == 0 {
            json!({"anyOf": [schema, {"type": "null"}]})
        } else {
            json!({"type": "object", "properties": {"a": schema}})
        };
    }
    let tool = SdkTool {
        name: "deep".into(),
        description: String::new(),
        parameters: schema.clone(),
        output: None,
    };
    assert!(json_schema_to_ts(&schema).contains("unknown"));
    for language in [SdkLanguage::TypeScript, SdkLanguage::Python] {
        assert!(render_sdk_section(language, std::slice::from_ref(&tool)).contains("deep"));
    }
}

#[test]
fn long_reference_chains_render_without_deep_recursion() {
    let mut defs = serde_json::Map::new();
    for index in 0..5_000 {
        defs.insert(format!("d{index}"), json!({"type": "object", "properties": {"next": {"$ref": format!("#/$defs/d{}", index + 1)}}}));
    }
    defs.insert("d5000".into(), json!({"type": "string"}));
    let schema = json!({"$ref": "#/$defs/d0", "$defs": defs});
    let tool = SdkTool {
        name: "chain".into(),
        description: String::new(),
        parameters: schema,
        output: None,
    };
    for language in [SdkLanguage::TypeScript, SdkLanguage::Python] {
        assert!(render_sdk_section(language, std::slice::from_ref(&tool)).contains("ChainD4999"));
    }
}
