//! What makes a JSON value one JSON-RPC 2.0 message, and the error objects that answer
//! input which is not one: shared by the stdio filter (`stdio`) and the HTTP edge
//! (`http`), so both transports reject the same input with the same codes.
//!
//! This module owns the envelope check (`jsonrpc`, `id`, `method` / `result` / `error`);
//! it must not interpret a message's method or params (rmcp and the session handler do).

use serde_json::{Value, json};

/// JSON-RPC `Parse error`: the input is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC `Invalid Request`: JSON, but not one JSON-RPC 2.0 message object.
pub(crate) const INVALID_REQUEST: i64 = -32600;

/// A lone surrogate in `text`, JSON that `serde_json` refused with `err`, named with where
/// it is (its path; the line and column where `serde_json` stopped, just after it): `\ud800` with no `\udc00`–`\udfff` after it (or one of those alone) is an escape
/// JSON text may carry but Unicode text cannot hold, and `serde_json`'s own words for it
/// ("unexpected end of hex escape") do not say so. `None` when the problem is another.
pub(crate) fn lone_surrogate(text: &[u8], err: &serde_json::Error) -> Option<String> {
    let text = std::str::from_utf8(text).ok()?;
    // Deeper than serde_json reads (128) is refused for its depth before this is asked.
    let problem = crate::json::parse_within(text, 256).err()?;
    let crate::json::LosslessReason::LoneSurrogate { what, unit } = &problem.reason else {
        return None;
    };
    Some(format!(
        "a lone surrogate is not allowed: {what} at {} (near line {}, column {}) has the escape \\u{unit:04x} without its pair, which no Unicode text holds; \
         escape a character outside the Basic Multilingual Plane as a pair (\\ud83d\\ude00), or send it as UTF-8",
        problem.path,
        err.line(),
        err.column()
    ))
}

/// Why `value` is not one JSON-RPC 2.0 message: the id to answer with (the message's
/// own when it is a valid id, else null) and the reason. `None` for a message.
pub(crate) fn problem(value: &Value) -> Option<(Value, &'static str)> {
    let Some(object) = value.as_object() else {
        let reason = if value.is_array() {
            "a batch (a JSON array) is not accepted: MCP 2025-06-18 removed JSON-RPC batching"
        } else {
            "the message must be a JSON object"
        };
        return Some((Value::Null, reason));
    };
    let id = object.get("id").cloned().unwrap_or(Value::Null);
    let valid_id = matches!(id, Value::Null | Value::String(_) | Value::Number(_));
    let answer_id = if valid_id { id } else { Value::Null };
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return Some((answer_id, "`jsonrpc` must be \"2.0\""));
    }
    if !valid_id {
        return Some((answer_id, "`id` must be a string, a number or null"));
    }
    match object.get("method") {
        Some(Value::String(_)) => None,
        Some(_) => Some((answer_id, "`method` must be a string")),
        None if object.contains_key("result") || object.contains_key("error") => None,
        None => Some((
            answer_id,
            "the message has no `method` (a request or notification) and no `result` or `error` (a response)",
        )),
    }
}

/// Whether `text` is certainly one JSON-RPC 2.0 message as [`problem`] judges one, read
/// without building a value: a JSON object with `"jsonrpc": "2.0"`, an id that is a string, a
/// number or null (or none), and a string `method` (or none, with a `result` or an `error`).
/// `false` means only "look closer": a repeated key, an escape in a key, anything unusual
/// goes to the full check, which says what is wrong. Every value is read as JSON is (numbers
/// in range, strings valid), so what passes here parses as a value too.
pub(crate) fn is_message_text(text: &str) -> bool {
    use serde::Deserializer as _;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer
        .deserialize_map(ProbeVisitor)
        .and_then(|probe| deserializer.end().map(|()| probe))
        .is_ok_and(|probe| probe.is_message())
}

/// What [`is_message_text`] reads of a message object.
#[derive(Default)]
struct Probe {
    jsonrpc_2_0: bool,
    id_valid: bool,
    has_method: bool,
    has_result_or_error: bool,
}

impl Probe {
    fn is_message(&self) -> bool {
        self.jsonrpc_2_0 && self.id_valid && (self.has_method || self.has_result_or_error)
    }
}

/// Refuses (sends to the full check) a message field seen twice or of an unexpected kind.
fn look_closer<E: serde::de::Error>() -> E {
    E::custom("not certainly a message")
}

/// Reads a message object into a [`Probe`].
struct ProbeVisitor;

impl<'de> serde::de::Visitor<'de> for ProbeVisitor {
    type Value = Probe;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON-RPC message object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Probe, A::Error> {
        let mut probe = Probe {
            id_valid: true,
            ..Probe::default()
        };
        let mut seen = [false; 5];
        while let Some(key) = map.next_key::<&'de str>()? {
            let field = ["jsonrpc", "id", "method", "result", "error"]
                .iter()
                .position(|name| *name == key);
            if let Some(field) = field
                && std::mem::replace(&mut seen[field], true)
            {
                return Err(look_closer());
            }
            match field {
                Some(0) => probe.jsonrpc_2_0 = map.next_value::<&'de str>()? == "2.0",
                Some(1) => {
                    probe.id_valid = matches!(
                        map.next_value::<Value>()?,
                        Value::Null | Value::String(_) | Value::Number(_)
                    )
                }
                Some(2) => {
                    let _: &'de str = map.next_value()?;
                    probe.has_method = true;
                }
                Some(_) => {
                    map.next_value::<Skip>()?;
                    probe.has_result_or_error = true;
                }
                None => {
                    map.next_value::<Skip>()?;
                }
            }
        }
        Ok(probe)
    }
}

/// Any JSON value, read in full (numbers checked as a value's are) and kept nowhere.
struct Skip;

impl<'de> serde::Deserialize<'de> for Skip {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> serde::de::Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_str<E>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_unit<E>(self) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
    }
}

/// A JSON-RPC error object answering `id` with `code` and `message`.
pub(crate) fn error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// An HTTP response with `status` and the JSON `body`.
pub(crate) fn json_response(
    status: axum::http::StatusCode,
    body: &Value,
) -> axum::response::Response {
    let mut response = axum::response::Response::new(axum::body::Body::from(body.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    response
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Texts near the shape of a message: each envelope field absent, right or wrong, then
    /// other fields (the envelope's keys among them, so a key may repeat) of every kind.
    fn near_messages() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just(json!(null)),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(|f| {
                serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
            }),
            prop::sample::select(vec!["2.0", "1.0", "tools/list", "", "é\\"]).prop_map(Value::from),
        ];
        let value = leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
                prop::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        });
        let some = |texts: &[&'static str]| {
            let mut choices: Vec<Option<&'static str>> = vec![None];
            choices.extend(texts.iter().copied().map(Some));
            prop::sample::select(choices)
        };
        let key =
            prop::sample::select(vec!["jsonrpc", "id", "method", "result", "error", "params"]);
        (
            some(&[r#""2.0""#, r#""2.0""#, r#""2.0""#, r#""1.0""#, "2", "null"]),
            some(&["1", r#""a""#, "null", "{}", "[1]", "1.5", "true", "1e400"]),
            some(&[r#""tools/list""#, r#""tools/list""#, "5", "null", "{}"]),
            some(&["result", "error"]),
            prop::collection::vec((key, value), 0..3),
            "[ a]{0,2}",
        )
            .prop_map(|(jsonrpc, id, method, outcome, extra, tail)| {
                let mut fields = Vec::new();
                if let Some(jsonrpc) = jsonrpc {
                    fields.push(format!(r#""jsonrpc":{jsonrpc}"#));
                }
                if let Some(id) = id {
                    fields.push(format!(r#""id":{id}"#));
                }
                if let Some(method) = method {
                    fields.push(format!(r#""method":{method}"#));
                }
                if let Some(outcome) = outcome {
                    fields.push(format!(r#""{outcome}":{{}}"#));
                }
                // Written by hand: a repeated key stays repeated, as a client could send it.
                fields.extend(extra.iter().map(|(key, value)| format!("{key:?}:{value}")));
                format!("{{{}}}{tail}", fields.join(","))
            })
    }

    proptest! {
        #[test]
        fn what_the_quick_check_passes_the_full_check_passes(text in near_messages()) {
            if is_message_text(&text) {
                let value: Value = serde_json::from_str(&text).expect("it parses");
                prop_assert_eq!(problem(&value), None, "{}", text);
            }
        }
    }

    #[test]
    fn the_quick_check_passes_messages_and_leaves_the_rest_to_the_full_check() {
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,2.5,"s",null,true]}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":"a","result":{}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"no"}}"#,
        ] {
            assert!(is_message_text(text), "{text}");
        }
        for text in [
            "",
            "[]",
            "not json",
            r#"{"jsonrpc":"1.0","id":1,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":5}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","method":"y"}"#,
            // Out of a double's range: a value's parse refuses it, so must this.
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":1e400}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x"} trailing"#,
        ] {
            assert!(!is_message_text(text), "{text}");
        }
    }

    #[test]
    fn messages_pass_and_everything_else_says_why() {
        for message in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": "a", "result": {}}),
            json!({"jsonrpc": "2.0", "id": 2, "error": {"code": 1, "message": "no"}}),
        ] {
            assert_eq!(problem(&message), None, "{message}");
        }
        let batch = problem(&json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]));
        assert!(batch.is_some_and(|(id, why)| id.is_null() && why.contains("batching")));
        let version = problem(&json!({"jsonrpc": "1.0", "id": 3, "method": "ping"}));
        assert_eq!(version, Some((json!(3), "`jsonrpc` must be \"2.0\"")));
        let bad_id = problem(&json!({"jsonrpc": "2.0", "id": {}, "method": "x"}));
        assert!(bad_id.is_some_and(|(id, _)| id.is_null()));
        let no_method = problem(&json!({"jsonrpc": "2.0", "id": 7, "params": {}}));
        assert!(no_method.is_some_and(|(id, why)| id == 7 && why.contains("no `method`")));
        assert!(problem(&json!({"jsonrpc": "2.0", "id": 1, "method": 5})).is_some());
        assert!(problem(&json!("ping")).is_some());
    }
}
