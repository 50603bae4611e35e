//! The wire mapping between codemode's results and MCP's, in both directions.
//!
//! - MCP → codemode ([`map_result`], for the client): the value is `structuredContent` when
//!   present; else the text of a result made only of text blocks (joined by newlines);
//!   else the content blocks as JSON (`null` for no content). `isError` fails the call
//!   with the result's text. Odd blocks become text ([`block_from_json`]).
//! - codemode → MCP ([`to_call_result`], for the server): a failure is `isError` with the
//!   model text (`Error: <message>`) and its code in `_meta`; a success carries its content
//!   (then the content of deferred contexts) and, when structured, the value. Only
//!   object-rooted output schemas are advertised ([`output_schema`]).
//!
//! This module owns the mapping; it must not call or serve anything.

use rmcp::model::{CallToolResult, JsonObject, MetaObject};
use serde_json::json;

use crate::content::{ContentBlock, EmbeddedResource};
use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;
use crate::tool::ToolExecutionResult;

/// The `_meta` key carrying a failed call's stable error code.
pub const ERROR_CODE_META: &str = "codemode/errorCode";

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

/// Maps a raw `tools/call` result (MCP JSON) to the outcome, or the call's error.
///
/// # Errors
///
/// [`ErrorCode::ToolFailed`] when the result sets `isError` (the message is its text, its
/// `structuredContent`, or its content as JSON), its `content` is not a list, it has no
/// `structuredContent` though `declares_output`, or its content cannot be written as JSON.
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

/// The MCP output schema of a tool whose advertised output schema is `schema`: MCP only
/// allows object-rooted output schemas, so anything else is not advertised.
pub fn output_schema(schema: &JsonValue) -> Option<JsonObject> {
    match schema {
        JsonValue::Object(map) if map.get("type") == Some(&json!("object")) => Some(map.clone()),
        _ => None,
    }
}

/// One of our content blocks as an MCP content block (the shapes match field for field).
fn content_block(block: &ContentBlock) -> rmcp::model::ContentBlock {
    serde_json::to_value(block)
        .ok()
        .and_then(|value| serde_json::from_value(value).ok())
        .unwrap_or_else(|| {
            rmcp::model::ContentBlock::text(crate::content::text_of(std::slice::from_ref(block)))
        })
}

/// Maps a frozen pipeline result onto an MCP tool result: a failure is `isError` with the
/// model text (`Error: <message>`) and its code in `_meta`; a success carries its content
/// (then the content of deferred contexts) and, when `structured`, the value.
pub fn to_call_result(result: &ToolExecutionResult, structured: bool) -> CallToolResult {
    if let Some(failure) = result.failure_info() {
        let mut meta = MetaObject::new();
        meta.insert(ERROR_CODE_META.to_owned(), json!(failure.code.as_str()));
        return CallToolResult::error(vec![rmcp::model::ContentBlock::text(result.model_text())])
            .with_meta(Some(meta));
    }
    let mut content: Vec<rmcp::model::ContentBlock> =
        result.content.iter().map(content_block).collect();
    for context in &result.additional_contexts {
        content.extend(context.content.iter().map(content_block));
    }
    let mut mapped = CallToolResult::success(content);
    if structured && let Some(value @ JsonValue::Object(_)) = result.value() {
        mapped.structured_content = Some(value.clone());
    }
    mapped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{MessageSource, UserMessage};

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

    #[test]
    fn a_failure_is_an_error_result_with_the_model_text_and_its_code() {
        let failed = ToolExecutionResult::failure(Error::new(
            ErrorCode::CodeRunFailed,
            "code run failed (exception): Error: x\nCaptured output:\nbefore",
        ));
        let mut mapped = serde_json::to_value(to_call_result(&failed, true)).unwrap_or_default();
        // The protocol layer strips `resultType` for pre-2026 peers.
        if let Some(map) = mapped.as_object_mut() {
            map.remove("resultType");
        }
        assert_eq!(
            mapped,
            json!({
                "content": [{"type": "text", "text": "Error: code run failed (exception): Error: x\nCaptured output:\nbefore"}],
                "isError": true,
                "_meta": {"codemode/errorCode": "CODE_RUN_FAILED"}
            })
        );
    }

    #[test]
    fn a_success_carries_its_content_then_deferred_contexts_and_the_value_when_structured() {
        let mut result = ToolExecutionResult::success(
            json!({"n": 1}),
            vec![
                ContentBlock::text("one"),
                ContentBlock::image("aGk=", "image/png"),
            ],
        );
        result.additional_contexts.push(UserMessage::new(
            MessageSource::Tool {
                name: "shot".into(),
                call_id: "c:code:1".into(),
            },
            vec![ContentBlock::image("aGk=", "image/gif")],
        ));
        let mapped = serde_json::to_value(to_call_result(&result, true)).unwrap_or_default();
        assert_eq!(mapped["content"][0], json!({"type": "text", "text": "one"}));
        assert_eq!(
            mapped["content"][1],
            json!({"type": "image", "data": "aGk=", "mimeType": "image/png"})
        );
        assert_eq!(mapped["content"][2]["mimeType"], "image/gif");
        assert_eq!(mapped["structuredContent"], json!({"n": 1}));
        assert!(mapped.get("isError").is_none_or(|e| e == false));
        let plain = serde_json::to_value(to_call_result(&result, false)).unwrap_or_default();
        assert!(plain.get("structuredContent").is_none());
    }
}
