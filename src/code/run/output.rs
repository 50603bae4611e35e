//! The model-facing text of a `run_code` result, byte for byte as the design gives it.
//!
//! Success: the logs joined by `\n`, then the rendered return value (a string as it is,
//! anything else as 2-space-indented JSON whose indentation stops at 10 characters: a
//! container whose members would be indented deeper is written compact, on one line);
//! nothing at all gives `(run_code completed with no output)`. Failure:
//! `code run failed (<kind>): <message>`, followed, when there are logs, by
//! `\nCaptured output:\n` and the logs.

use crate::json::JsonValue;
use crate::tool::MAX_JSON_INDENT;

/// The text of a run with no logs and no value.
pub const NO_OUTPUT: &str = "(run_code completed with no output)";

/// The text of a successful run.
///
/// ```
/// use codemode::code::output::success_text;
/// use serde_json::json;
/// assert_eq!(success_text(&["a".into(), "b".into()], Some(&json!("done"))), "a\nb\ndone");
/// assert_eq!(success_text(&[], Some(&json!({"n": [1]}))), "{\n  \"n\": [\n    1\n  ]\n}");
/// assert_eq!(success_text(&[], None), "(run_code completed with no output)");
/// ```
pub fn success_text(logs: &[String], value: Option<&JsonValue>) -> String {
    let mut parts: Vec<String> = logs.to_vec();
    if let Some(value) = value {
        parts.push(render_value(value));
    }
    if parts.is_empty() {
        NO_OUTPUT.to_owned()
    } else {
        parts.join("\n")
    }
}

/// The text of a failed run (the content of its `CODE_RUN_FAILED` error).
///
/// ```
/// use codemode::code::output::failure_text;
/// assert_eq!(failure_text("timeout", "compute budget of 60000 ms exceeded", &[]),
///            "code run failed (timeout): compute budget of 60000 ms exceeded");
/// assert_eq!(failure_text("exception", "boom", &["step 1".into()]),
///            "code run failed (exception): boom\nCaptured output:\nstep 1");
/// ```
pub fn failure_text(kind: &str, message: &str, logs: &[String]) -> String {
    let mut text = format!("code run failed ({kind}): {message}");
    if !logs.is_empty() {
        text.push_str("\nCaptured output:\n");
        text.push_str(&logs.join("\n"));
    }
    text
}

/// A returned value as text: a string as it is, anything else as indented JSON, the
/// indentation stopping at [`MAX_JSON_INDENT`] spaces (deeper containers compact, so the
/// text stays linear in the value's size; written without recursion: a value may nest as
/// deep as the limit).
pub fn render_value(value: &JsonValue) -> String {
    match value {
        JsonValue::String(text) => text.clone(),
        other => crate::json::to_pretty_text_capped(other, MAX_JSON_INDENT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shallow_values_match_two_space_pretty_json() {
        let value = json!({"a": [1, 2, {"b": null}], "c": "x", "d": {}, "e": []});
        assert_eq!(
            render_value(&value),
            serde_json::to_string_pretty(&value).unwrap()
        );
    }

    #[test]
    fn values_as_deep_as_the_limit_render_without_recursion() {
        // A 256 KiB stack: a recursion per level over 5,000 levels would overflow it.
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let mut value = json!(1);
                for _ in 0..crate::json::DEFAULT_VALUE_DEPTH {
                    value = JsonValue::Array(vec![value]);
                }
                let text = render_value(&value);
                // Five levels on indented lines, then the rest compact on one line: the
                // text is linear in the depth (an indented line per level would be quadratic).
                let inner = crate::json::DEFAULT_VALUE_DEPTH - 5;
                let expected = format!(
                    "[\n  [\n    [\n      [\n        [\n          {}1{}\n        ]\n      ]\n    ]\n  ]\n]",
                    "[".repeat(inner),
                    "]".repeat(inner)
                );
                assert!(text == expected, "{}", &text[..200]);
                assert!(text.len() < 2 * crate::json::DEFAULT_VALUE_DEPTH + 64);
                crate::json::dispose(value);
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn indentation_is_capped_at_ten_characters() {
        let value = json!([[[[[[[1]]]]]]]);
        let text = render_value(&value);
        let widest = text
            .lines()
            .map(|l| l.len() - l.trim_start().len())
            .max()
            .unwrap();
        assert_eq!(widest, 10);
        assert_eq!(
            serde_json::from_str::<JsonValue>(&text).unwrap(),
            value,
            "still valid JSON"
        );
    }

    #[test]
    fn containers_deeper_than_the_cap_are_compact_with_everything_in_them() {
        let value = json!({"a": [[[{"b": [1, {"c": "x y", "d": {}}], "e": []}], 2]]});
        assert_eq!(
            render_value(&value),
            "{\n  \"a\": [\n    [\n      [\n        {\n          \"b\": [1,{\"c\":\"x y\",\"d\":{}}],\n          \"e\": []\n        }\n      ],\n      2\n    ]\n  ]\n}"
        );
    }

    #[test]
    fn logs_come_before_the_value_and_strings_are_raw() {
        assert_eq!(success_text(&["x".into()], Some(&json!("a\nb"))), "x\na\nb");
        assert_eq!(success_text(&["only logs".into()], None), "only logs");
        assert_eq!(success_text(&[], Some(&json!(null))), "null");
        assert_eq!(success_text(&[], Some(&json!(""))), "");
    }
}
