//! Property tests of the SDK renderers: deterministic, order-independent, total.

use proptest::prelude::*;
use serde_json::json;

use super::{SdkTool, json_schema_to_ts, render_sdk_section, unknown_types};
use crate::json::JsonValue;
use crate::runtime::Language;

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
        for language in [Language::TypeScript, Language::Python] {
            let first = render_sdk_section(language, &tools);
            prop_assert_eq!(&first, &render_sdk_section(language, &tools));
            prop_assert_eq!(&first, &render_sdk_section(language, &permuted));
        }
    }

    #[test]
    fn a_reference_to_another_property_is_its_schema_with_the_referrer_s_doc(
        target in prop_oneof![
            Just(json!({"type": "boolean"})),
            Just(json!({"type": "integer", "minimum": 1})),
            Just(json!({"type": "string", "format": "uri", "enum": ["a", "b"]})),
            Just(json!({"type": "array", "items": {"type": "number"}})),
            Just(json!({"type": ["string", "null"], "maxLength": 3})),
            Just(json!({"type": "object", "additionalProperties": {"type": "integer"}})),
        ],
        target_doc in "[a-z]{1,8}",
        own_doc in prop::option::of("[A-Z]{1,8}"),
    ) {
        let target_doc = format!("Target doc {target_doc}.");
        let mut target = target;
        target["description"] = json!(target_doc);
        let mut referrer = json!({"$ref": "#/properties/p"});
        let own_doc = own_doc.map(|doc| format!("Own doc {doc}."));
        if let Some(doc) = &own_doc {
            referrer["description"] = json!(doc);
        }
        let schema = json!({"type": "object", "properties": {"p": target, "q": referrer}, "additionalProperties": false});
        let tool = SdkTool { name: "t".into(), description: String::new(), parameters: schema, output: None };
        let text = render_sdk_section(Language::TypeScript, std::slice::from_ref(&tool));
        let line = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("    {name}?: ")))
                .map(str::to_owned)
        };
        prop_assert!(line("q").is_some(), "{}", text);
        prop_assert_eq!(line("q"), line("p"), "{}", text);
        // No alias, and the target's description is not the referrer's documentation.
        prop_assert!(!text.contains("TPropertiesP"), "{}", text);
        let docs: Vec<&str> = text.lines().filter(|l| l.contains(&target_doc)).collect();
        prop_assert_eq!(docs.len(), 1, "{}", text);
        if let Some(doc) = own_doc {
            prop_assert!(text.contains(&format!("    /** {doc}")), "{}", text);
        }
    }

    #[test]
    fn integer_constants_render_as_integers_or_number_and_exact_python_literals(
        value in prop_oneof![
            any::<i64>().prop_map(|n| json!(n)),
            any::<u64>().prop_map(|n| json!(n)),
            (-1e18f64..1e18).prop_map(|f| json!(f.trunc())),
            prop_oneof![Just(1e300f64), Just(-4e20), Just(9007199254740992.0)].prop_map(|f| json!(f)),
        ],
    ) {
        let ts = json_schema_to_ts(&json!({"type": "integer", "const": value}));
        let exact = value.as_f64().filter(|f| f.abs() <= 9_007_199_254_740_991.0);
        match exact {
            Some(f) => {
                prop_assert!(ts.chars().all(|c| c.is_ascii_digit() || c == '-'), "{} -> {}", value, ts);
                prop_assert_eq!(ts.parse::<f64>().ok(), Some(f), "{} -> {}", value, ts);
            }
            None => prop_assert_eq!(&ts, "number", "{}", value),
        }
        let schema = json!({"type": "object", "properties": {"v": {"type": "integer", "const": value}}, "required": ["v"], "additionalProperties": false});
        let tool = SdkTool { name: "t".into(), description: String::new(), parameters: schema, output: None };
        let py = render_sdk_section(Language::Python, std::slice::from_ref(&tool));
        let field = py.lines().find_map(|l| l.strip_prefix("    v: ")).unwrap_or_default().to_owned();
        match exact {
            Some(_) => prop_assert_eq!(field, format!("Literal[{ts}]")),
            // Outside the safe range Python still spells the exact integer.
            None => {
                let digits = field
                    .strip_prefix("Literal[")
                    .and_then(|rest| rest.strip_suffix(']'))
                    .unwrap_or_default();
                let unsigned = digits.strip_prefix('-').unwrap_or(digits);
                prop_assert!(!unsigned.is_empty() && unsigned.chars().all(|c| c.is_ascii_digit()), "{} -> {}", value, field);
                if let Some(i) = value.as_i64() {
                    prop_assert_eq!(digits, i.to_string());
                } else if let Some(u) = value.as_u64() {
                    prop_assert_eq!(digits, u.to_string());
                } else {
                    let f = value.as_f64().unwrap_or_default();
                    prop_assert_eq!(digits.parse::<f64>().ok(), Some(f), "{} -> {}", value, field);
                    // Within i128 the conversion is exact: the digits are the double's own.
                    if f.abs() < 1e38 {
                        #[allow(clippy::cast_possible_truncation)]
                        let held = f as i128;
                        prop_assert_eq!(digits, held.to_string());
                    }
                }
            }
        }
    }

    #[test]
    fn python_names_with_a_leading_underscore_are_subscripts(name in "_[a-z0-9_]{0,8}") {
        let tool = SdkTool { name: name.clone(), description: String::new(), parameters: json!({}), output: None };
        let py = render_sdk_section(Language::Python, std::slice::from_ref(&tool));
        let expected = format!("    # tools[\"{name}\"](args: ");
        prop_assert!(py.contains(&expected), "{}", py);
        prop_assert!(!super::tests::tools_part(&py).contains("async def"), "{}", py);
    }

    #[test]
    fn any_json_as_a_schema_renders_without_panicking(schema in arbitrary_json()) {
        let text = json_schema_to_ts(&schema);
        prop_assert!(!text.is_empty());
        let tool = SdkTool { name: "t".into(), description: String::new(), parameters: schema.clone(), output: Some(schema) };
        for language in [Language::TypeScript, Language::Python] {
            let section = render_sdk_section(language, std::slice::from_ref(&tool));
            prop_assert!(section.contains("tools"));
        }
    }
}

#[test]
fn schemas_deeper_than_the_bound_end_in_unknown() {
    // Built without `json!` around the deep part (it would copy it through `Serialize`,
    // recursively), freed without recursion.
    let object = |pairs: Vec<(&str, JsonValue)>| {
        JsonValue::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    };
    let nest = |depth: usize| {
        let mut schema = json!({"type": "string"});
        for index in 0..depth {
            schema = if index % 2 == 0 {
                object(vec![(
                    "anyOf",
                    JsonValue::Array(vec![schema, json!({"type": "null"})]),
                )])
            } else {
                object(vec![
                    ("type", json!("object")),
                    ("properties", object(vec![("a", schema)])),
                ])
            };
        }
        schema
    };
    let tool = |parameters| SdkTool {
        name: "deep".into(),
        description: String::new(),
        parameters,
        output: None,
    };
    // Within the bound (once 48 levels, now the library's value depth), all of it renders.
    let within = tool(nest(60));
    assert!(!json_schema_to_ts(&within.parameters).contains("unknown"));
    assert!(unknown_types(std::slice::from_ref(&within)).is_empty());
    // Deeper than it, the rest is `unknown`.
    let deeper = tool(nest(crate::json::DEFAULT_MAX_DEPTH + 1));
    assert!(json_schema_to_ts(&deeper.parameters).contains("unknown"));
    // The deepest `anyOf` holds two members past the bound.
    assert_eq!(unknown_types(std::slice::from_ref(&deeper)).len(), 2);
    for language in [Language::TypeScript, Language::Python] {
        let text = render_sdk_section(language, std::slice::from_ref(&deeper));
        assert!(text.contains("deep"));
        assert!(
            text.contains(": unknown") || text.contains(": Any"),
            "{language:?}"
        );
    }
    crate::json::dispose(within.parameters);
    crate::json::dispose(deeper.parameters);
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
    for language in [Language::TypeScript, Language::Python] {
        assert!(render_sdk_section(language, std::slice::from_ref(&tool)).contains("ChainD4999"));
    }
}

#[test]
fn long_reference_chains_between_properties_render_in_linear_work() {
    // zod-to-json-schema style: each property is the schema of the next one.
    let mut properties = serde_json::Map::new();
    for index in 0..5_000 {
        properties.insert(
            format!("p{index}"),
            json!({"$ref": format!("#/properties/p{}", index + 1), "description": format!("p{index}")}),
        );
    }
    properties.insert("p5000".into(), json!({"type": "integer", "minimum": 0}));
    let schema = json!({"type": "object", "properties": properties});
    let tool = SdkTool {
        name: "chain".into(),
        description: String::new(),
        parameters: schema.clone(),
        output: None,
    };
    let unknowns = super::unknown_types(std::slice::from_ref(&tool));
    assert!(
        unknowns.is_empty(),
        "{} {:?}",
        unknowns.len(),
        &unknowns[..unknowns.len().min(5)]
    );
    let text = render_sdk_section(Language::TypeScript, std::slice::from_ref(&tool));
    assert!(
        text.contains("  /** p4999 (integer, minimum: 0) */\n    p4999?: number;\n"),
        "{text}"
    );
    for language in [Language::TypeScript, Language::Python] {
        assert!(render_sdk_section(language, std::slice::from_ref(&tool)).contains("p0"));
    }
    // A fan of references (each property twice the next) is walked once per target too.
    let mut fan = serde_json::Map::new();
    for index in 0..200 {
        let next = format!("#/properties/f{}", index + 1);
        fan.insert(
            format!("f{index}"),
            json!({"anyOf": [{"$ref": next}, {"type": "array", "items": {"$ref": next}}]}),
        );
    }
    fan.insert("f200".into(), json!({"type": "string"}));
    let fan = json!({"type": "object", "properties": fan});
    let tool = SdkTool {
        name: "fan".into(),
        description: String::new(),
        parameters: fan,
        output: None,
    };
    let unknowns = super::unknown_types(std::slice::from_ref(&tool));
    assert!(
        unknowns.is_empty(),
        "{} {:?}",
        unknowns.len(),
        &unknowns[..unknowns.len().min(5)]
    );
}
