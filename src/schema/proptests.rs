//! Property tests: the validator agrees with an independent JSON Schema implementation
//! (the `jsonschema` crate) on generated schemas inside the subset and generated values.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::{JsonSchema, StructuredOutputSchema, ValueSchema};

const NAMES: [&str; 4] = ["a", "b", "c", "d"];

fn scalar_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..4).prop_map(|n| json!(n)),
        prop_oneof![Just(1.0f64), Just(2.5), Just(-0.5), Just(3.0)].prop_map(|f| json!(f)),
        prop_oneof![Just("x"), Just("y"), Just(""), Just("a")].prop_map(|s| json!(s)),
    ]
}

fn any_value() -> impl Strategy<Value = Value> {
    scalar_value().prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(prop::sample::select(NAMES.to_vec()), inner, 0..4)
                .prop_map(|m| {
                    Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                }),
        ]
    })
}

/// Distinct enum values of one scalar type (the subset refuses duplicates).
fn enum_of(kind: &'static str) -> BoxedStrategy<Value> {
    let pool: Vec<Value> = match kind {
        "string" => vec![json!("x"), json!("y"), json!("")],
        "integer" => vec![json!(0), json!(1), json!(-2)],
        "number" => vec![json!(1), json!(2.5), json!(-0.5)],
        "boolean" => vec![json!(true), json!(false)],
        _ => vec![json!(null)],
    };
    let len = pool.len();
    prop::sample::subsequence(pool, 1..=len)
        .prop_map(move |values| json!({"type": kind, "enum": values}))
        .boxed()
}

/// The narrowest subset type of a scalar (`const` needs one).
fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        _ => "string",
    }
}

fn leaf_schema() -> BoxedStrategy<Value> {
    let kinds = prop::sample::select(vec!["string", "number", "integer", "boolean", "null"]);
    prop_oneof![
        Just(json!({})),
        Just(json!({"description": "anything"})),
        kinds.clone().prop_map(|kind| json!({"type": kind})),
        kinds.prop_flat_map(enum_of),
        scalar_value().prop_map(|v| json!({"type": type_of(&v), "const": v})),
        prop::sample::select(vec![json!(0), json!(2), json!(-3)])
            .prop_map(|v| json!({"type": "integer", "const": v})),
        Just(json!({"type": "array"})),
        Just(json!({"type": "object"})),
    ]
    .boxed()
}

fn schema(one_of: bool) -> impl Strategy<Value = Value> {
    leaf_schema().prop_recursive(4, 32, 4, move |inner| {
        let object = (
            prop::collection::btree_map(prop::sample::select(NAMES.to_vec()), inner.clone(), 0..4),
            prop::collection::vec(any::<bool>(), 4),
            prop::option::of(any::<bool>()),
        )
            .prop_map(|(properties, required_flags, additional)| {
                let mut node = Map::new();
                node.insert("type".into(), json!("object"));
                let required: Vec<Value> = properties
                    .keys()
                    .zip(&required_flags)
                    .filter(|(_, flag)| **flag)
                    .map(|(name, _)| json!(name))
                    .collect();
                node.insert(
                    "properties".into(),
                    Value::Object(
                        properties
                            .into_iter()
                            .map(|(k, v)| (k.to_owned(), v))
                            .collect(),
                    ),
                );
                if !required.is_empty() {
                    node.insert("required".into(), Value::Array(required));
                }
                if let Some(flag) = additional {
                    node.insert("additionalProperties".into(), json!(flag));
                }
                Value::Object(node)
            });
        let array = inner
            .clone()
            .prop_map(|items| json!({"type": "array", "items": items}));
        if one_of {
            prop_oneof![
                object,
                array,
                prop::collection::vec(inner, 2..4).prop_map(|branches| json!({"oneOf": branches})),
            ]
            .boxed()
        } else {
            prop_oneof![object, array].boxed()
        }
    })
}

/// A value shaped like `schema` (often valid, sometimes not), so that agreement is tested
/// on interesting values rather than mostly-rejected noise.
fn value_for(schema: &Value, seed: &mut dyn Iterator<Item = u8>) -> Value {
    fn pick(seed: &mut dyn Iterator<Item = u8>, n: usize) -> usize {
        seed.next().map_or(0, |b| b as usize % n.max(1))
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        // An equal number in another spelling (1 vs 1.0) must match the same way.
        let chosen = values[pick(seed, values.len())].clone();
        return match chosen.as_i64() {
            Some(n) if pick(seed, 2) == 0 => json!(n as f64),
            _ => chosen,
        };
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(branches) = schema.get("oneOf").and_then(Value::as_array) {
        let index = pick(seed, branches.len());
        return value_for(&branches[index], seed);
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => [json!("x"), json!(""), json!("a")][pick(seed, 3)].clone(),
        Some("integer") => {
            [json!(0), json!(1), json!(-2), json!(3.0), json!(2.5)][pick(seed, 5)].clone()
        }
        Some("number") => [json!(1.5), json!(2), json!(-0.5), json!(1.0)][pick(seed, 4)].clone(),
        Some("boolean") => json!(pick(seed, 2) == 0),
        Some("null") => Value::Null,
        Some("array") => {
            let len = pick(seed, 3);
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            Value::Array((0..len).map(|_| value_for(&items, seed)).collect())
        }
        Some("object") => {
            let mut out = Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (name, prop) in props {
                    if pick(seed, 4) != 0 {
                        out.insert(name.clone(), value_for(prop, seed));
                    }
                }
            }
            if pick(seed, 5) == 0 {
                out.insert("extra".into(), json!(1));
            }
            Value::Object(out)
        }
        _ => [json!("x"), json!(1), Value::Null][pick(seed, 3)].clone(),
    }
}

/// How many levels of subschemas `schema` (of the subset) nests below its root.
fn depth_of(schema: &Value) -> usize {
    children(schema)
        .iter()
        .map(|(_, child)| 1 + depth_of(child))
        .max()
        .unwrap_or(0)
}

/// A node's subschemas with their pointer segments, in document order.
fn children(schema: &Value) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        out.extend(
            props
                .iter()
                .map(|(name, child)| (format!("/properties/{name}"), child)),
        );
    }
    if let Some(items) = schema.get("items") {
        out.push(("/items".to_owned(), items));
    }
    if let Some(branches) = schema.get("oneOf").and_then(Value::as_array) {
        out.extend(
            branches
                .iter()
                .enumerate()
                .map(|(i, b)| (format!("/oneOf/{i}"), b)),
        );
    }
    out
}

/// The pointers of the nodes `depth` levels below `schema`, in document order.
fn pointers_at(schema: &Value, depth: usize, pointer: &str, out: &mut Vec<String>) {
    if depth == 0 {
        out.push(pointer.to_owned());
        return;
    }
    for (segment, child) in children(schema) {
        pointers_at(child, depth - 1, &format!("{pointer}{segment}"), out);
    }
}

/// DSL schemas, some of which break its rules (a `const` of the wrong type, a name
/// declared twice).
fn dsl_schema() -> impl Strategy<Value = ValueSchema> {
    let leaf = prop_oneof![
        Just(ValueSchema::string()),
        Just(ValueSchema::integer().constant(2)),
        Just(ValueSchema::json().default_value(json!([1, {"a": null}]))),
        Just(ValueSchema::null().description("nothing")),
        Just(ValueSchema::string().enum_values(["x", "y"]).title("T")),
        Just(ValueSchema::array_of_any()),
        Just(ValueSchema::boolean().constant("no")),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(ValueSchema::array),
            prop::collection::vec(inner.clone(), 1..4).prop_map(ValueSchema::one_of),
            (
                prop::collection::vec(
                    (prop::sample::select(NAMES.to_vec()), inner, any::<bool>()),
                    0..4
                ),
                any::<bool>(),
            )
                .prop_map(|(properties, additional)| {
                    properties.into_iter().fold(
                        ValueSchema::object(additional),
                        |object, (name, schema, required)| {
                            if required {
                                object.required(name, schema)
                            } else {
                                object.property(name, schema)
                            }
                        },
                    )
                }),
        ]
    })
}

fn reference_is_valid(schema: &Value, value: &Value) -> bool {
    match jsonschema::validator_for(schema) {
        Ok(validator) => validator.is_valid(value),
        Err(err) => panic!("the reference implementation refused a subset schema {schema}: {err}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn the_depth_limit_refuses_exactly_the_nodes_past_it(schema in schema(true), cut in 0usize..5) {
        let depth = depth_of(&schema);
        let parsed = JsonSchema::parse_within(&schema, depth);
        prop_assert!(parsed.is_ok(), "{} within {}: {:?}", schema, depth, parsed.err());
        if cut < depth {
            let err = JsonSchema::parse_within(&schema, cut).unwrap_err();
            let mut expected = Vec::new();
            pointers_at(&schema, cut + 1, "#", &mut expected);
            let expected: Vec<String> = expected
                .into_iter()
                .map(|pointer| format!("{pointer}: schema nests deeper than {cut} levels"))
                .collect();
            let found: Vec<String> = err.issues.iter().map(ToString::to_string).collect();
            prop_assert_eq!(found, expected, "{}", schema);
        }
    }

    #[test]
    fn dsl_schemas_copy_compare_and_compile_as_their_json(schema in dsl_schema(), cut in 0usize..5) {
        let copy = schema.clone();
        prop_assert!(copy == schema);
        let json = schema.to_json_schema();
        prop_assert_eq!(&copy.to_json_schema(), &json);
        let compiled = schema.compile();
        if let Ok(compiled) = &compiled {
            let parsed = JsonSchema::parse(&json).unwrap_or_else(|err| panic!("{json}: {err}"));
            prop_assert!(*compiled == parsed);
        }
        // Within its own depth it compiles as it does by default (its annotations, data,
        // nest two levels at most: the limit applies to them too); past a lower limit it
        // is refused, naming the limit.
        let depth = depth_of(&json);
        prop_assert_eq!(schema.compile_within(depth.max(2)).is_ok(), compiled.is_ok());
        if cut < depth {
            let err = schema.compile_within(cut).unwrap_err();
            let limit = format!("schema nests deeper than {cut} levels");
            prop_assert!(err.message().contains(&limit), "{}", err);
        }
    }

    #[test]
    fn enforced_subset_agrees_with_the_reference(
        schema in schema(true),
        arbitrary in any_value(),
        seed in prop::collection::vec(any::<u8>(), 64),
    ) {
        let parsed = JsonSchema::parse(&schema)
            .unwrap_or_else(|err| panic!("generated schema {schema} refused: {err}"));
        let shaped = value_for(&schema, &mut seed.into_iter());
        for value in [arbitrary, shaped] {
            let expected = reference_is_valid(&schema, &value);
            prop_assert_eq!(parsed.is_valid(&value), expected, "schema {} value {}", schema, value);
            prop_assert_eq!(parsed.validate(&value).is_empty(), expected, "schema {} value {}", schema, value);
        }
    }

    #[test]
    fn structured_output_subset_agrees_with_the_reference(
        properties in prop::collection::btree_map(prop::sample::select(NAMES.to_vec()), schema(false), 0..4),
        seed in prop::collection::vec(any::<u8>(), 64),
        arbitrary in any_value(),
    ) {
        let root = json!({"type": "object", "properties": properties});
        // The structured subset needs `type` on every node; keep the generated trees that
        // have one everywhere.
        prop_assume!(StructuredOutputSchema::parse(&root).is_ok());
        let parsed = StructuredOutputSchema::parse(&root).unwrap();
        let shaped = value_for(&root, &mut seed.into_iter());
        for value in [arbitrary, shaped] {
            prop_assert_eq!(parsed.validate(&value).is_empty(), reference_is_valid(&root, &value));
        }
    }

    #[test]
    fn const_must_be_one_of_enum_and_both_need_a_type(
        schema in prop::sample::select(vec!["string", "number", "integer", "boolean", "null"])
            .prop_flat_map(enum_of),
        constant in scalar_value(),
    ) {
        let values = schema["enum"].as_array().cloned().unwrap_or_default();
        let member = values.iter().any(|v| super::validate::json_equal(v, &constant));
        let mut with_const = schema.clone();
        with_const["const"] = constant.clone();
        let parsed = JsonSchema::parse(&with_const);
        prop_assert_eq!(parsed.is_ok(), member, "{} -> {:?}", with_const, parsed.err());
        if let Ok(parsed) = parsed {
            // The node accepts exactly the constant.
            prop_assert!(parsed.is_valid(&constant));
        }

        let mut untyped = with_const;
        if let Some(map) = untyped.as_object_mut() {
            map.remove("type");
        }
        let err = JsonSchema::parse(&untyped).err();
        let message = err.map(|e| e.to_string()).unwrap_or_default();
        prop_assert!(message.contains("#/enum: `enum` requires a scalar `type`"), "{}", message);
        prop_assert!(message.contains("#/const: `const` requires a scalar `type`"), "{}", message);
    }

    #[test]
    fn numbers_that_are_not_lossless_are_never_valid(
        schema in schema(true),
        arbitrary in any_value(),
        magnitude in 9_007_199_254_740_992u64..=u64::MAX,
        negative in any::<bool>(),
    ) {
        let number = if negative {
            i64::try_from(magnitude).map_or_else(|_| json!(magnitude), |n| json!(-n))
        } else {
            json!(magnitude)
        };
        let parsed = JsonSchema::parse(&schema).unwrap_or_else(|err| panic!("{schema}: {err}"));
        prop_assert!(!parsed.is_valid(&number), "{} accepted {}", schema, number);
        prop_assert!(!parsed.validate(&number).is_empty());
        for open in [json!({}), json!({"type": "array"}), json!({"type": "array", "items": {}})] {
            let parsed = JsonSchema::parse(&open).unwrap_or_else(|err| panic!("{open}: {err}"));
            let value = json!([arbitrary.clone(), number.clone()]);
            let found = parsed.validate(&value);
            prop_assert!(found.iter().any(|v| v.path == "$[1]" && v.message.starts_with("not lossless JSON")), "{:?}", found);
            prop_assert!(!parsed.is_valid(&value));
        }
    }

    #[test]
    fn the_json_node_keeps_any_lossless_default_and_examples(
        default in prop::option::of(any_value()),
        examples in prop::option::of(any_value()),
        value in any_value(),
    ) {
        let mut spec = json!({"type": "json"});
        let mut expected = json!({});
        for (keyword, annotation) in [("default", &default), ("examples", &examples)] {
            if let Some(annotation) = annotation {
                spec[keyword] = annotation.clone();
                expected[keyword] = annotation.clone();
            }
        }
        let read = ValueSchema::from_json(&spec).unwrap_or_else(|err| panic!("{spec}: {err}"));
        prop_assert_eq!(read.to_json_schema(), expected);
        let compiled = read.compile().unwrap_or_else(|err| panic!("{spec}: {err}"));
        // Annotations constrain nothing.
        prop_assert!(compiled.is_valid(&value));
    }

    #[test]
    fn parse_and_validate_never_panic_on_arbitrary_json(schema in any_value(), value in any_value()) {
        if let Ok(parsed) = JsonSchema::parse(&schema) {
            let _ = parsed.validate(&value);
        }
        let _ = StructuredOutputSchema::parse(&schema);
    }
}
