//! What makes a JSON value one JSON-RPC 2.0 message, and the error objects that answer
//! input which is not one: shared by the stdio filter (`stdio`) and the HTTP guard
//! (`http`), so both transports reject the same input with the same codes.
//!
//! This module owns the envelope check (`jsonrpc`, `id`, `method` / `result` / `error`);
//! it must not interpret a message's method or params (rmcp and the session handler do).

use serde_json::{Value, json};

/// JSON-RPC `Parse error`: the input is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC `Invalid Request`: JSON, but not one JSON-RPC 2.0 message object.
pub(crate) const INVALID_REQUEST: i64 = -32600;

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

/// A JSON-RPC error object answering `id` with `code` and `message`.
pub(crate) fn error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

#[cfg(test)]
mod tests {
    use super::*;

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
