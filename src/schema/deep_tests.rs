//! Deep schemas through the public API: a raw `oneOf` nested 5,000 levels and the same
//! union written with the DSL are parsed, compiled, validated, copied, compared and dropped
//! on a thread whose stack could not hold one frame per level.

use serde_json::{Map, Value, json};

use super::{JsonSchema, ParameterSchema, ValueSchema};
use crate::json::{DEFAULT_MAX_DEPTH, dispose};

const LEVELS: usize = 5_000;

/// A stack far too small for 5,000 levels of recursion (a debug build's frames are
/// hundreds of bytes each).
const SMALL_STACK: usize = 256 << 10;

fn on_small_stack(work: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(work)
        .expect("spawn")
        .join()
        .expect("the work ran without overflowing its stack");
}

/// `{"oneOf": [inner, {"type": "integer", "const": level}]}`, `levels` deep around a
/// string: any string, and each integer from 0 to `levels - 1`, match exactly one branch
/// at every level. Built without `json!` around the deep part (it would copy it through
/// `Serialize`, recursively).
fn raw_union(levels: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for level in 0..levels {
        let mut node = Map::new();
        node.insert(
            "oneOf".into(),
            Value::Array(vec![schema, json!({"type": "integer", "const": level})]),
        );
        schema = Value::Object(node);
    }
    schema
}

/// The parameters `{v: <the union>}`, `v` required.
fn raw_parameters(levels: usize) -> Value {
    let mut properties = Map::new();
    properties.insert("v".into(), raw_union(levels));
    let mut root = Map::new();
    root.insert("type".into(), json!("object"));
    root.insert("properties".into(), Value::Object(properties));
    root.insert("required".into(), json!(["v"]));
    Value::Object(root)
}

/// The same union written with the DSL.
fn dsl_union(levels: usize) -> ValueSchema {
    let mut schema = ValueSchema::string();
    for level in 0..levels {
        schema = ValueSchema::one_of([schema, ValueSchema::integer().constant(level)]);
    }
    schema
}

/// The DSL's data form of it (`ValueSchema::from_json` reads it).
fn dsl_data_form(levels: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for level in 0..levels {
        let mut node = Map::new();
        node.insert(
            "oneOf".into(),
            Value::Array(vec![schema, json!({"type": "integer", "const": level})]),
        );
        schema = Value::Object(node);
    }
    if let Some(node) = schema.as_object_mut() {
        node.insert("required".into(), json!(true));
    }
    let mut form = Map::new();
    form.insert("v".into(), schema);
    Value::Object(form)
}

/// What validating the values of a 5,000-level union says: strings and the listed
/// integers pass; a boolean and an unlisted integer fail at `$.v`, every level's
/// branches failing.
fn assert_verdicts(schema: &JsonSchema) {
    for valid in [json!({"v": "x"}), json!({"v": 0}), json!({"v": 4_321})] {
        assert!(schema.is_valid(&valid), "{valid}");
        assert_eq!(schema.validate(&valid), Vec::new(), "{valid}");
    }
    for invalid in [json!({"v": true}), json!({"v": LEVELS}), json!({})] {
        assert!(!schema.is_valid(&invalid), "{invalid}");
        let found = schema.validate(&invalid);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].path, "$.v");
        if invalid.get("v").is_some() {
            let message = &found[0].message;
            assert!(
                message.starts_with(
                    "matches none of the 2 oneOf branches (branch 0: $: matches none of the 2 oneOf branches (branch 0: $: "
                ),
                "{message}"
            );
            // Each branch's reason is cut, so the text does not grow with the depth.
            assert!(message.len() < 600, "{} bytes", message.len());
            assert!(message.ends_with(", got boolean)") || message.ends_with(", got 5000)"));
        } else {
            assert_eq!(found[0].message, "required property is missing");
        }
    }
}

#[test]
fn a_five_thousand_level_raw_one_of_is_parsed_and_validated_without_recursion() {
    on_small_stack(|| {
        let raw = raw_parameters(LEVELS);
        let schema = JsonSchema::parse(&raw).expect("within the default limit");
        assert_verdicts(&schema);
        // Copies and comparisons walk their own stacks too.
        let copy = schema.clone();
        assert!(copy == schema);
        assert_verdicts(&copy);
        drop(copy);
        drop(schema);
        dispose(raw);
    });
}

#[test]
fn a_five_thousand_level_dsl_union_is_compiled_and_validated_without_recursion() {
    on_small_stack(|| {
        let params = ParameterSchema::new().required("v", dsl_union(LEVELS));
        // It compiles to exactly the raw schema.
        let raw = raw_parameters(LEVELS);
        let json = params.to_json_schema();
        assert!(crate::json::deep_eq(&json, &raw));
        dispose(json);
        let compiled = params.compile().expect("within the default limit");
        assert_verdicts(&compiled);
        assert!(compiled == JsonSchema::parse(&raw).expect("raw"));
        // The data form reads back to the same schema; copies compare equal.
        let form = dsl_data_form(LEVELS);
        let read = ParameterSchema::from_json(&form).expect("the data form");
        assert!(read == params);
        let copy = params.clone();
        assert!(copy == read);
        let value = dsl_union(LEVELS);
        assert_verdicts(
            &ParameterSchema::new()
                .required("v", value.clone())
                .compile()
                .expect("compile"),
        );
        drop((copy, read, params, compiled, value));
        dispose(form);
        dispose(raw);
    });
}

#[test]
fn deeper_than_the_limit_is_refused_naming_it() {
    on_small_stack(|| {
        let raw = raw_parameters(LEVELS);
        let err = JsonSchema::parse_within(&raw, 300).expect_err("300 levels at most");
        // At the first nodes past the limit (`v` is level 1, each `oneOf` adds one): both
        // branches of the union at level 300, each reported once, and nothing below them.
        let union = format!("#/properties/v{}", "/oneOf/0".repeat(299));
        let issues: Vec<String> = err.issues.iter().map(ToString::to_string).collect();
        assert_eq!(
            issues,
            [
                format!("{union}/oneOf/0: schema nests deeper than 300 levels"),
                format!("{union}/oneOf/1: schema nests deeper than 300 levels"),
            ]
        );
        let err = ParameterSchema::new()
            .required("v", dsl_union(LEVELS))
            .compile_within(300)
            .expect_err("300 levels at most");
        assert_eq!(
            err.message(),
            format!(
                "unsupported schema (2 issues):\n- {}\n- {}",
                issues[0], issues[1]
            )
        );
        // The default limit is the library's value depth: a schema of that many levels
        // below its root is accepted, one more is refused.
        let at_limit = raw_union(DEFAULT_MAX_DEPTH);
        assert!(JsonSchema::parse(&at_limit).is_ok());
        let past = raw_union(DEFAULT_MAX_DEPTH + 1);
        let err = JsonSchema::parse(&past).expect_err("one level too deep");
        assert_eq!(
            err.issues[0].message,
            format!("schema nests deeper than {DEFAULT_MAX_DEPTH} levels")
        );
        for value in [raw, at_limit, past] {
            dispose(value);
        }
    });
}

#[test]
fn dropping_deep_trees_takes_no_stack() {
    on_small_stack(|| {
        // Far deeper than any limit: built, then freed, never walked.
        let mut schema = ValueSchema::string();
        for _ in 0..100_000 {
            schema = ValueSchema::array(schema);
        }
        drop(schema);
        let mut params = ParameterSchema::new();
        let mut object = ValueSchema::null();
        for _ in 0..100_000 {
            object = ValueSchema::object(false).required("a", object);
        }
        params = params.optional("a", object);
        drop(params);
    });
}
