//! The body of an MCP tool: one `tools/call` on the server's current session, and the
//! mapping of its result to a binding value and content blocks.
//!
//! Value: `structuredContent` when present; else the text of a result made only of text
//! blocks (joined by newlines); else the content blocks as JSON (`null` for no content).
//! `isError` fails the call with the result's text. Cancellation drops the request, which
//! sends the server `notifications/cancelled`. A session that breaks during the call fails
//! it and is replaced on the next call. This module must not register anything.

use rmcp::ServiceError;
use rmcp::model::CallToolRequestParams;

use super::connect::settle;
use super::supervise::McpServer;
use crate::content::{ContentBlock, EmbeddedResource};
use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;
use crate::tool::Signal;

/// What a successful call gives: the binding value and the model-facing content.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutcome {
    /// The value a program's `await tools.name(args)` resolves to.
    pub value: JsonValue,
    /// The result's content blocks, mapped to codemode's.
    pub content: Vec<ContentBlock>,
}

fn failed(message: String) -> Error {
    Error::new(ErrorCode::ToolFailed, message)
}

/// Calls `tool` (its name on the server) with `args`; `shown` is its registered name.
pub(crate) async fn call_tool(
    server: &McpServer,
    tool: &str,
    shown: &str,
    args: &JsonValue,
    signal: &Signal,
    declares_output: bool,
) -> Result<CallOutcome, Error> {
    let name = server.name();
    let Some(arguments) = args.as_object() else {
        return Err(Error::new(
            ErrorCode::InvalidArgs,
            format!("invalid arguments:\n- $: the arguments of `{shown}` must be an object"),
        ));
    };
    let cancelled = || {
        Error::new(
            ErrorCode::Aborted,
            format!("the call to `{shown}` was cancelled"),
        )
    };
    let session = tokio::select! {
        biased;
        () = signal.cancelled() => return Err(cancelled()),
        session = server.session() => session?,
    };
    let peer = session.peer();
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments.clone());
    // Dropping this future before it resolves (cancellation, the timeout) sends the
    // server `notifications/cancelled` for the request.
    let call = peer.call_tool(params);
    let result = tokio::select! {
        biased;
        () = signal.cancelled() => {
            return Err(Error::new(
                ErrorCode::Aborted,
                format!("the call to `{shown}` was cancelled; MCP server `{name}` was told to stop it"),
            ));
        }
        result = call => result,
    };
    match result {
        Ok(result) => {
            let raw = serde_json::to_value(&result).map_err(|err| {
                failed(format!(
                    "MCP server `{name}` answered the call to `{shown}` with an unreadable result: {err}"
                ))
            })?;
            map_result(name, shown, &raw, declares_output)
        }
        Err(ServiceError::TransportClosed | ServiceError::TransportSend(_)) => {
            let report = session.report();
            settle(&report).await;
            server.invalidate(&session).await;
            Err(failed(format!(
                "MCP server `{name}` stopped during the call to `{shown}`{}; it is restarted on the next call",
                report.describe()
            )))
        }
        Err(ServiceError::McpError(error)) => Err(failed(format!(
            "MCP server `{name}` refused the call to `{shown}`: {} (error {})",
            error.message, error.code.0
        ))),
        Err(ServiceError::UnexpectedResponse) => Err(failed(format!(
            "MCP server `{name}` answered the call to `{shown}` with a malformed result"
        ))),
        Err(other) => Err(failed(format!(
            "the call to `{shown}` on MCP server `{name}` failed: {other}"
        ))),
    }
}

/// Maps a raw `tools/call` result (MCP JSON) to the outcome, or the call's error.
pub fn map_result(
    server: &str,
    shown: &str,
    raw: &JsonValue,
    declares_output: bool,
) -> Result<CallOutcome, Error> {
    let blocks: Vec<&JsonValue> = match raw.get("content") {
        Some(JsonValue::Array(blocks)) => blocks.iter().collect(),
        None | Some(JsonValue::Null) => Vec::new(),
        Some(other) => {
            return Err(failed(format!(
                "MCP server `{server}` answered the call to `{shown}` with `content` that is not a list: {other}"
            )));
        }
    };
    let content: Vec<ContentBlock> = blocks.into_iter().map(block_from_json).collect();
    let is_error = raw
        .get("isError")
        .and_then(JsonValue::as_bool)
        .unwrap_or(false);
    let texts: Vec<&str> = content.iter().filter_map(ContentBlock::as_text).collect();
    let only_text = texts.len() == content.len();
    if is_error {
        let message = if !texts.is_empty() {
            texts.join("\n")
        } else if let Some(structured) = raw.get("structuredContent") {
            structured.to_string()
        } else if content.is_empty() {
            format!("the tool `{shown}` reported an error")
        } else {
            serde_json::to_string(&content).unwrap_or_default()
        };
        return Err(failed(message));
    }
    let value = match raw.get("structuredContent") {
        Some(structured) => structured.clone(),
        None if declares_output => {
            return Err(failed(format!(
                "MCP server `{server}` declares an output schema for `{shown}` but its result has no structuredContent"
            )));
        }
        None if content.is_empty() => JsonValue::Null,
        None if only_text => JsonValue::String(texts.join("\n")),
        None => serde_json::to_value(&content).map_err(|err| {
            failed(format!(
                "the content of `{shown}`'s result cannot be written as JSON: {err}"
            ))
        })?,
    };
    Ok(CallOutcome { value, content })
}

/// One MCP content block as codemode's; anything that is not a valid block of a known kind
/// becomes a text block saying what it was, so one odd block never fails a result.
pub fn block_from_json(raw: &JsonValue) -> ContentBlock {
    let text = |key: &str| raw.get(key).and_then(JsonValue::as_str).map(str::to_owned);
    let block = match raw.get("type").and_then(JsonValue::as_str) {
        Some("text") => text("text").map(ContentBlock::text),
        Some(kind @ ("image" | "audio")) => match (text("data"), text("mimeType")) {
            (Some(data), Some(mime_type)) if kind == "image" => {
                Some(ContentBlock::Image { data, mime_type })
            }
            (Some(data), Some(mime_type)) => Some(ContentBlock::Audio { data, mime_type }),
            _ => None,
        },
        Some("resource_link") => match (text("uri"), text("name")) {
            (Some(uri), Some(name)) => Some(ContentBlock::ResourceLink {
                uri,
                name,
                description: text("description"),
                mime_type: text("mimeType"),
            }),
            _ => None,
        },
        Some("resource") => raw.get("resource").and_then(|resource| {
            let field = |key: &str| {
                resource
                    .get(key)
                    .and_then(JsonValue::as_str)
                    .map(str::to_owned)
            };
            Some(ContentBlock::Resource {
                resource: EmbeddedResource {
                    uri: field("uri")?,
                    mime_type: field("mimeType"),
                    text: field("text"),
                    blob: field("blob"),
                },
            })
        }),
        _ => None,
    };
    match block {
        Some(block) => match block.validate() {
            Ok(()) => block,
            Err(err) => ContentBlock::text(format!(
                "[{} content from the server was invalid: {}]",
                block.kind(),
                err.message()
            )),
        },
        None => ContentBlock::text(raw.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(raw: JsonValue) -> Result<CallOutcome, Error> {
        map_result("s", "t", &raw, false)
    }

    #[test]
    fn structured_content_is_the_value_and_content_is_kept() {
        let outcome = map(json!({
            "content": [{"type": "text", "text": "{\"a\":1}"}],
            "structuredContent": {"a": 1}
        }))
        .unwrap();
        assert_eq!(outcome.value, json!({"a": 1}));
        assert_eq!(outcome.content, vec![ContentBlock::text("{\"a\":1}")]);
    }

    #[test]
    fn text_only_results_join_their_text() {
        let outcome = map(json!({"content": [
            {"type": "text", "text": "one"},
            {"type": "text", "text": "two", "annotations": {"priority": 1}}
        ]}))
        .unwrap();
        assert_eq!(outcome.value, json!("one\ntwo"));
        assert_eq!(map(json!({"content": []})).unwrap().value, JsonValue::Null);
    }

    #[test]
    fn mixed_content_is_the_value_as_blocks() {
        let outcome = map(json!({"content": [
            {"type": "text", "text": "a picture"},
            {"type": "image", "data": "aGk=", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "file:///x", "text": "x", "mimeType": "text/plain"}}
        ]}))
        .unwrap();
        assert_eq!(
            outcome.value,
            json!([
                {"type": "text", "text": "a picture"},
                {"type": "image", "data": "aGk=", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "file:///x", "mimeType": "text/plain", "text": "x"}}
            ])
        );
        assert!(outcome.content[1].is_image());
    }

    #[test]
    fn is_error_fails_with_the_text() {
        let err =
            map(json!({"content": [{"type": "text", "text": "no such file"}], "isError": true}))
                .unwrap_err();
        assert_eq!(err.code(), ErrorCode::ToolFailed);
        assert_eq!(err.message(), "no such file");
        let err = map(json!({"content": [], "isError": true})).unwrap_err();
        assert_eq!(err.message(), "the tool `t` reported an error");
    }

    #[test]
    fn a_declared_output_schema_needs_structured_content() {
        let err = map_result(
            "s",
            "t",
            &json!({"content": [{"type": "text", "text": "x"}]}),
            true,
        )
        .unwrap_err();
        assert!(err.message().contains("no structuredContent"), "{err}");
    }

    #[test]
    fn odd_blocks_become_text() {
        assert_eq!(
            block_from_json(&json!({"type": "video", "url": "x"})),
            ContentBlock::text("{\"type\":\"video\",\"url\":\"x\"}")
        );
        let bad = block_from_json(&json!({"type": "image", "data": "!!", "mimeType": "image/png"}));
        assert_eq!(
            bad.as_text(),
            Some("[image content from the server was invalid: image content data is not base64]")
        );
        assert!(
            map(json!({"content": "text"}))
                .unwrap_err()
                .message()
                .contains("not a list")
        );
    }
}
