//! Discovery: `tools/list` over every page, and the checks that turn each listed tool into
//! an [`McpToolSpec`] or a [`SkippedTool`] with the reason.
//!
//! The list is requested and read as raw JSON, one tool at a time, so one malformed tool
//! (a bad name, a schema that is not a JSON Schema object) is skipped alone and the rest of
//! the server's tools are still served. This module must not build tool definitions or
//! touch the registry.

use std::collections::BTreeSet;

use rmcp::model::{ClientRequest, CustomRequest};
use rmcp::service::{Peer, RoleClient};
use serde_json::json;

use crate::error::{Error, ErrorCode};
use crate::json::{JsonValue, check_lossless};

/// The most pages `tools/list` is followed for (a server that never stops paginating).
const MAX_PAGES: usize = 1000;
pub use crate::tool::{MAX_TOOL_NAME, tool_name_problem as name_problem};

/// A tool as a server lists it, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct McpToolSpec {
    /// Its name on the server.
    pub name: String,
    /// Its description (the title when there is no description).
    pub description: String,
    /// The raw input schema.
    pub input_schema: JsonValue,
    /// The raw output schema, when the server declares one.
    pub output_schema: Option<JsonValue>,
    /// The server's `readOnlyHint`.
    pub read_only: bool,
}

/// A listed tool that was not registered, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedTool {
    /// The tool's name (or its position in the list when it has no usable name).
    pub name: String,
    /// Why it was skipped.
    pub reason: String,
}

/// Lists every tool of the server (following `nextCursor`), keeping the well-formed ones.
pub(crate) async fn list_tools(
    server: &str,
    peer: &Peer<RoleClient>,
) -> Result<(Vec<McpToolSpec>, Vec<SkippedTool>), Error> {
    let failed = |message: String| {
        Error::new(
            ErrorCode::ToolFailed,
            format!("MCP server `{server}`: {message}"),
        )
    };
    let mut tools = Vec::new();
    let mut skipped = Vec::new();
    let mut names = BTreeSet::new();
    let mut cursors = BTreeSet::new();
    let mut cursor: Option<String> = None;
    let mut index = 0usize;
    for _ in 0..MAX_PAGES {
        let params = cursor.as_ref().map(|cursor| json!({ "cursor": cursor }));
        let request = ClientRequest::CustomRequest(CustomRequest::new("tools/list", params));
        let result = peer.send_request(request).await.map_err(|err| {
            failed(format!(
                "tools/list failed: {}",
                super::connect::service_problem(&err)
            ))
        })?;
        let page = serde_json::to_value(&result)
            .map_err(|err| failed(format!("tools/list answered something unreadable: {err}")))?;
        let Some(listed) = page.get("tools").and_then(JsonValue::as_array) else {
            return Err(failed(format!(
                "tools/list answered without a `tools` array: {}",
                preview(&page)
            )));
        };
        for raw in listed {
            match parse_tool(raw, index) {
                Ok(tool) if !names.insert(tool.name.clone()) => skipped.push(SkippedTool {
                    reason: "the server lists it twice; the first one is kept".into(),
                    name: tool.name,
                }),
                Ok(tool) => tools.push(tool),
                Err(skip) => skipped.push(skip),
            }
            index += 1;
        }
        match page.get("nextCursor") {
            None | Some(JsonValue::Null) => return Ok((tools, skipped)),
            Some(JsonValue::String(next)) => {
                if !cursors.insert(next.clone()) {
                    return Err(failed(format!(
                        "tools/list repeats the cursor {next:?}; the listing never ends"
                    )));
                }
                cursor = Some(next.clone());
            }
            Some(other) => {
                return Err(failed(format!(
                    "tools/list answered a `nextCursor` that is not a string: {}",
                    preview(other)
                )));
            }
        }
    }
    Err(failed(format!(
        "tools/list did not end within {MAX_PAGES} pages"
    )))
}

fn preview(value: &JsonValue) -> String {
    let text = value.to_string();
    if text.chars().count() > 200 {
        let mut cut: String = text.chars().take(200).collect();
        cut.push('…');
        cut
    } else {
        text
    }
}

/// Checks one listed tool. `index` names a tool that has no usable name.
///
/// # Errors
///
/// A [`SkippedTool`] (named `#<index>` while the tool has no usable name) when the entry is
/// not an object, has no string `name` or an invalid one, a `description` or `title` that is
/// not a string, no `inputSchema`, or an `inputSchema` / `outputSchema` that is not an object
/// schema (a `type` other than `object`, `properties` not an object, `required` not names).
pub fn parse_tool(raw: &JsonValue, index: usize) -> Result<McpToolSpec, SkippedTool> {
    let unnamed = || format!("#{index}");
    let Some(object) = raw.as_object() else {
        return Err(SkippedTool {
            name: unnamed(),
            reason: format!("a tool must be a JSON object, got {}", preview(raw)),
        });
    };
    let name = match object.get("name") {
        Some(JsonValue::String(name)) => name.clone(),
        Some(other) => {
            return Err(SkippedTool {
                name: unnamed(),
                reason: format!("its name is not a string: {}", preview(other)),
            });
        }
        None => {
            return Err(SkippedTool {
                name: unnamed(),
                reason: "it has no name".into(),
            });
        }
    };
    let skip = |reason: String| SkippedTool {
        name: name.clone(),
        reason,
    };
    if let Some(reason) = name_problem(&name) {
        return Err(SkippedTool {
            name: if name.is_empty() {
                unnamed()
            } else {
                name.clone()
            },
            reason,
        });
    }
    let text = |key: &str| -> Result<Option<String>, SkippedTool> {
        match object.get(key) {
            None | Some(JsonValue::Null) => Ok(None),
            Some(JsonValue::String(text)) => Ok(Some(text.clone())),
            Some(other) => Err(skip(format!(
                "its `{key}` is not a string: {}",
                preview(other)
            ))),
        }
    };
    let description = text("description")?;
    let title = text("title")?;
    let description = description.or(title).unwrap_or_default();
    let input_schema = match object.get("inputSchema") {
        Some(schema) => schema.clone(),
        None => return Err(skip("it has no `inputSchema`".into())),
    };
    schema_problem(&input_schema)
        .map_or(Ok(()), |why| Err(skip(format!("its inputSchema {why}"))))?;
    let output_schema = match object.get("outputSchema") {
        None | Some(JsonValue::Null) => None,
        Some(schema) => {
            schema_problem(schema)
                .map_or(Ok(()), |why| Err(skip(format!("its outputSchema {why}"))))?;
            Some(schema.clone())
        }
    };
    let read_only = object
        .get("annotations")
        .and_then(|annotations| annotations.get("readOnlyHint"))
        .and_then(JsonValue::as_bool)
        .unwrap_or(false);
    Ok(McpToolSpec {
        name,
        description,
        input_schema,
        output_schema,
        read_only,
    })
}

/// Why `schema` is not a usable object schema, if it is not.
fn schema_problem(schema: &JsonValue) -> Option<String> {
    let Some(object) = schema.as_object() else {
        return Some(format!("is not a JSON Schema object: {}", preview(schema)));
    };
    match object.get("type") {
        None => {}
        Some(JsonValue::String(kind)) if kind == "object" => {}
        Some(other) => {
            return Some(format!(
                "must describe an object (`\"type\": \"object\"`), got `type` {}",
                preview(other)
            ));
        }
    }
    if let Some(properties) = object.get("properties")
        && !properties.is_object()
    {
        return Some("has `properties` that is not an object".into());
    }
    if let Some(required) = object.get("required") {
        let names = required
            .as_array()
            .is_some_and(|items| items.iter().all(JsonValue::is_string));
        if !names {
            return Some("has `required` that is not a list of names".into());
        }
    }
    if let Err(err) = check_lossless(schema) {
        return Some(format!("is not lossless JSON: {err}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_tools_are_read_with_their_hints() {
        let tool = parse_tool(
            &json!({
                "name": "read",
                "title": "Read",
                "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
                "outputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
                "annotations": {"readOnlyHint": true}
            }),
            0,
        )
        .unwrap();
        assert_eq!(tool.name, "read");
        assert_eq!(tool.description, "Read");
        assert!(tool.read_only);
        assert!(tool.output_schema.is_some());
        let plain = parse_tool(&json!({"name": "w", "description": "Write.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "yes"}}), 1).unwrap();
        assert!(!plain.read_only);
        assert_eq!(plain.description, "Write.");
    }

    #[test]
    fn malformed_tools_are_skipped_with_a_reason() {
        let reason = |raw: JsonValue| parse_tool(&raw, 7).unwrap_err();
        assert_eq!(
            reason(json!({"inputSchema": {"type": "object"}})),
            SkippedTool {
                name: "#7".into(),
                reason: "it has no name".into()
            }
        );
        assert!(
            reason(json!({"name": "a b", "inputSchema": {"type": "object"}}))
                .reason
                .contains("whitespace")
        );
        assert_eq!(
            reason(json!({"name": "", "inputSchema": {"type": "object"}})).name,
            "#7"
        );
        let bad = reason(json!({"name": "s", "inputSchema": "string"}));
        assert_eq!(bad.name, "s");
        assert!(
            bad.reason
                .starts_with("its inputSchema is not a JSON Schema object"),
            "{}",
            bad.reason
        );
        assert!(
            reason(json!({"name": "t", "inputSchema": {"type": "array"}}))
                .reason
                .contains("must describe an object")
        );
        assert!(
            reason(json!({"name": "r", "inputSchema": {"type": "object", "required": "x"}}))
                .reason
                .contains("`required`")
        );
        assert!(
            reason(json!({"name": "o", "inputSchema": {"type": "object"}, "outputSchema": 3}))
                .reason
                .starts_with("its outputSchema")
        );
        assert!(
            reason(json!({"name": "d", "description": 5, "inputSchema": {"type": "object"}}))
                .reason
                .contains("`description` is not a string")
        );
        assert!(
            reason(json!({"name": "n"}))
                .reason
                .contains("no `inputSchema`")
        );
        let long = "x".repeat(MAX_TOOL_NAME + 1);
        assert!(
            reason(json!({"name": long, "inputSchema": {"type": "object"}}))
                .reason
                .contains("longer than")
        );
    }
}
