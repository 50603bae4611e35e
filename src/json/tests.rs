//! The JSON module's unit tests.

use super::*;
use serde_json::json;
use std::collections::BTreeMap;

#[test]
fn ordinary_values_are_lossless() {
    let value = json!({"a": [1, 2.5, -3, null, true, "x"], "b": {"c": {}}});
    assert_eq!(check_lossless(&value), Ok(()));
    assert_eq!(to_lossless(&value).unwrap(), value);
}

#[test]
fn unsafe_integers_are_refused_with_their_path() {
    let err = check_lossless(&json!({"list": [1, 9007199254740992u64]})).unwrap_err();
    assert_eq!(err.path.to_string(), "$.list[1]");
    assert_eq!(
        err.reason,
        LosslessReason::UnsafeInteger("9007199254740992".into())
    );
    assert!(check_lossless(&json!(-9007199254740991i64)).is_ok());
    assert!(check_lossless(&json!(-9007199254740992i64)).is_err());
    assert!(check_lossless(&json!(9007199254740991u64)).is_ok());
}

#[test]
fn non_finite_floats_are_refused_instead_of_becoming_null() {
    #[derive(Serialize)]
    struct Reading {
        label: &'static str,
        values: Vec<f64>,
    }
    let err = to_lossless(&Reading {
        label: "x",
        values: vec![1.0, f64::INFINITY],
    })
    .unwrap_err();
    assert_eq!(err.path.to_string(), "$.values[1]");
    assert!(matches!(err.reason, LosslessReason::NonFiniteNumber(_)));
    assert!(err.to_string().contains("not a finite number"));
    assert!(to_lossless(&f32::NAN).is_err());
}

#[test]
fn non_string_keys_are_refused() {
    let mut map = BTreeMap::new();
    map.insert(vec![1u8], 1);
    let err = to_lossless(&map).unwrap_err();
    assert_eq!(err.reason, LosslessReason::NonStringKey);
    // Integer keys become strings, as serde_json writes them.
    let mut ints = BTreeMap::new();
    ints.insert(7u32, "x");
    assert_eq!(to_lossless(&ints).unwrap(), json!({"7": "x"}));
}

#[test]
fn enums_serialize_and_report_paths_inside_variants() {
    #[derive(Serialize)]
    enum Shape {
        Point,
        Circle { radius: f64 },
        Pair(f64, f64),
    }
    assert_eq!(to_lossless(&Shape::Point).unwrap(), json!("Point"));
    assert_eq!(
        to_lossless(&Shape::Circle { radius: 1.0 }).unwrap(),
        json!({"Circle": {"radius": 1.0}})
    );
    let err = to_lossless(&Shape::Pair(1.0, f64::NAN)).unwrap_err();
    assert_eq!(err.path.to_string(), "$.Pair[1]");
    let err = to_lossless(&Shape::Circle {
        radius: f64::NEG_INFINITY,
    })
    .unwrap_err();
    assert_eq!(err.path.to_string(), "$.Circle.radius");
}

fn nested(depth: usize) -> JsonValue {
    let mut value = json!(0);
    for _ in 0..depth {
        value = JsonValue::Array(vec![value]);
    }
    value
}

#[test]
fn depth_is_bounded() {
    assert!(check_lossless_within(&nested(40), 40).is_ok());
    let err = check_lossless_within(&nested(41), 40).unwrap_err();
    assert_eq!(err.reason, LosslessReason::TooDeep { limit: 40 });
    assert_eq!(err.path.len(), 40);
    assert_eq!(
        err.to_string(),
        format!(
            "${}: arrays and objects nest deeper than 40 levels",
            "[0]".repeat(40)
        )
    );
}

/// Runs `f` on a thread with a small stack: a recursion per level would overflow it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn values_as_deep_as_the_default_limit_cross_without_recursion() {
    on_small_stack(|| {
        let value = nested(DEFAULT_MAX_DEPTH);
        check_lossless(&value).unwrap();
        let text = to_text(&value);
        assert_eq!(text.len(), DEFAULT_MAX_DEPTH * 2 + 1);
        let parsed = parse_lossless(&text).unwrap();
        let pretty = to_pretty_text(&parsed);
        let copy = deep_clone(&parsed);
        assert_eq!(to_text(&copy), text);
        let reparsed = parse_lossless(&pretty).unwrap();
        assert_eq!(to_text(&reparsed), text);
        let deeper = JsonValue::Array(vec![copy]);
        let err = check_lossless(&deeper).unwrap_err();
        assert_eq!(
            err.reason,
            LosslessReason::TooDeep {
                limit: DEFAULT_MAX_DEPTH
            }
        );
        let err = parse_lossless(&format!("[{text}]")).unwrap_err();
        assert_eq!(
            err.reason,
            LosslessReason::TooDeep {
                limit: DEFAULT_MAX_DEPTH
            }
        );
        for value in [value, parsed, reparsed, deeper] {
            dispose(value);
        }
    });
}

#[test]
fn negative_zero_and_lone_surrogates_are_refused_with_their_path() {
    let err = check_lossless(&json!({"z": [-0.0]})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "$.z[0]: -0 is not JSON (JSON text would make it 0; use 0)"
    );
    assert!(check_lossless(&json!({"z": 0.0})).is_ok());
    for text in ["-0", "-0.0", "-0e5", "[1, -0.0]"] {
        let err = parse_lossless(text).unwrap_err();
        assert_eq!(err.reason, LosslessReason::NegativeZero, "{text}");
    }
    assert_eq!(parse_lossless("0.0").unwrap(), json!(0.0));
    let err = parse_lossless(r#"{"a": {"s": "x\ud800y"}}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "$.a.s: a string with a lone surrogate (U+D800) is not UTF-8 text"
    );
    let err = parse_lossless(r#"{"k\udc00": 1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "$: a key with a lone surrogate (U+DC00) is not UTF-8 text"
    );
    assert_eq!(
        parse_lossless(r#""\ud83d\ude00""#).unwrap(),
        json!("\u{1f600}")
    );
}

#[test]
fn syntax_errors_name_the_path_line_and_column() {
    let err = parse_lossless("{\"a\": [1,\n 2 x]}").unwrap_err();
    assert_eq!(err.path.to_string(), "$.a[2]");
    assert!(err.to_string().contains("at line 2 column 4"), "{err}");
    for bad in [
        "",
        "[",
        "[1,]",
        "{\"a\" 1}",
        "01",
        "1.",
        "1e",
        "\"\\x\"",
        "nul",
        "[1] 2",
        "\"\t\"",
    ] {
        assert!(parse_lossless(bad).is_err(), "{bad:?}");
    }
    let err = parse_lossless("9007199254740993").unwrap_err();
    assert!(matches!(err.reason, LosslessReason::UnsafeInteger(_)));
    let err = parse_lossless("1e400").unwrap_err();
    assert!(matches!(err.reason, LosslessReason::NonFiniteNumber(_)));
}

#[test]
fn deep_serialize_values_are_refused_without_recursing_forever() {
    #[derive(Serialize)]
    struct Node {
        next: Option<Box<Node>>,
    }
    let mut node = Node { next: None };
    for _ in 0..(MAX_DEPTH + 5) {
        node = Node {
            next: Some(Box::new(node)),
        };
    }
    let err = to_lossless(&node).unwrap_err();
    assert_eq!(err.reason, LosslessReason::TooDeep { limit: MAX_DEPTH });
}

#[test]
fn hostile_text_of_100_000_levels_is_an_error_not_a_crash() {
    let text = "[".repeat(100_000) + &"]".repeat(100_000);
    let err = parse_lossless(&text).unwrap_err();
    assert!(
        matches!(err.reason, LosslessReason::TooDeep { .. }),
        "{err}"
    );
}

#[test]
fn long_paths_are_shown_by_their_ends() {
    let mut path = JsonPath::root();
    for index in 0..5_000 {
        path.push_index(index % 10);
    }
    let text = path.to_string();
    assert!(text.starts_with("$[0][1][2]"), "{text}");
    assert!(text.contains("...(4900 steps)..."), "{text}");
    assert!(text.ends_with("[7][8][9]"), "{text}");
    assert!(text.len() < 400);
}

#[test]
fn paths_quote_keys_that_are_not_identifiers() {
    let path = JsonPath::root().key("a b").key("c").index(0).key("\"q\"");
    assert_eq!(path.to_string(), r#"$["a b"].c[0]["\"q\""]"#);
    assert_eq!(JsonPath::root().to_string(), "$");
}

#[test]
fn type_names_distinguish_integers() {
    assert_eq!(type_name(&json!(1)), "integer");
    assert_eq!(type_name(&json!(1.5)), "number");
    assert_eq!(type_name(&json!(null)), "null");
}
