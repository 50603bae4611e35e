//! Reading a tool list from JSON: an array of tool schemas, or an MCP `tools/list`
//! result (`{"tools": [...]}`).
//!
//! This module owns the accepted shapes and their error messages; it does not look inside
//! schemas (the renderers are total over any JSON Schema).

use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;

use super::SdkTool;
use super::text::string_literal;

/// Reads a tool list: a JSON array of tools, or an MCP `tools/list` result
/// (`{"tools": [...]}`). Each tool has a `name`, an optional `description`, an
/// `inputSchema` (or `parameters`; absent means any arguments) and an optional
/// `outputSchema` (or `output`). Other fields (`annotations`, `title`, ...) are ignored.
///
/// # Errors
///
/// [`ErrorCode::InvalidDefinition`], with a message naming the problem and the tool's index
/// (and name, once it is known), when
///
/// - `value` is neither an array nor an object with a `tools` array;
/// - a tool is not an object, or its `name` is missing, empty or not a string;
/// - a `description` is present and not a string, or an `inputSchema` / `parameters` /
///   `outputSchema` / `output` is present and neither an object nor a boolean;
/// - two tools have the same name.
///
/// # Examples
///
/// ```
/// use codemode::code::sdk::parse_tool_list;
/// use serde_json::json;
/// let tools = parse_tool_list(&json!({"tools": [
///     {"name": "get_me", "description": "Who am I?", "inputSchema": {"type": "object"}}
/// ]})).unwrap();
/// assert_eq!(tools[0].name, "get_me");
///
/// let err = parse_tool_list(&json!([{"name": "a"}, {"description": "no name"}])).unwrap_err();
/// assert_eq!(err.message(), "tool 1: `name` is missing (a tool needs a non-empty string name)");
/// ```
pub fn parse_tool_list(value: &JsonValue) -> Result<Vec<SdkTool>, Error> {
    let items = match value {
        JsonValue::Array(items) => items,
        JsonValue::Object(map) => match map.get("tools") {
            Some(JsonValue::Array(items)) => items,
            Some(_) => return Err(invalid("`tools` must be an array of tools")),
            None => {
                return Err(invalid(
                    "expected a JSON array of tools or an MCP tools/list result ({\"tools\": [...]}); \
                     this object has no `tools` field",
                ));
            }
        },
        other => {
            return Err(invalid(format!(
                "expected a JSON array of tools or an MCP tools/list result, got {}",
                crate::json::type_name(other)
            )));
        }
    };
    let mut tools: Vec<SdkTool> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let tool = parse_tool(index, item)?;
        if let Some(first) = tools.iter().position(|t| t.name == tool.name) {
            return Err(invalid(format!(
                "tool {index} ({}): the name is already used by tool {first}",
                string_literal(&tool.name)
            )));
        }
        tools.push(tool);
    }
    Ok(tools)
}

fn parse_tool(index: usize, item: &JsonValue) -> Result<SdkTool, Error> {
    let JsonValue::Object(map) = item else {
        return Err(invalid(format!(
            "tool {index}: expected an object, got {}",
            crate::json::type_name(item)
        )));
    };
    let name = match map.get("name") {
        Some(JsonValue::String(name)) if !name.is_empty() => name.clone(),
        Some(JsonValue::String(_)) => {
            return Err(invalid(format!("tool {index}: `name` is empty")));
        }
        Some(other) => {
            return Err(invalid(format!(
                "tool {index}: `name` must be a string, got {}",
                crate::json::type_name(other)
            )));
        }
        None => {
            return Err(invalid(format!(
                "tool {index}: `name` is missing (a tool needs a non-empty string name)"
            )));
        }
    };
    let at = || format!("tool {index} ({})", string_literal(&name));
    let description = match map.get("description") {
        None | Some(JsonValue::Null) => String::new(),
        Some(JsonValue::String(text)) => text.clone(),
        Some(other) => {
            return Err(invalid(format!(
                "{}: `description` must be a string, got {}",
                at(),
                crate::json::type_name(other)
            )));
        }
    };
    let parameters = schema_field(map, ["inputSchema", "parameters"], &at)?
        .unwrap_or_else(|| JsonValue::Object(serde_json::Map::new()));
    let output = schema_field(map, ["outputSchema", "output"], &at)?;
    Ok(SdkTool {
        name,
        description,
        parameters,
        output,
    })
}

/// The first present (non-null) field of `names`; it must be a schema (object or bool).
fn schema_field(
    map: &serde_json::Map<String, JsonValue>,
    names: [&str; 2],
    at: &dyn Fn() -> String,
) -> Result<Option<JsonValue>, Error> {
    for field in names {
        match map.get(field) {
            None | Some(JsonValue::Null) => continue,
            Some(schema @ (JsonValue::Object(_) | JsonValue::Bool(_))) => {
                // Copied without recursion: a schema may nest as deep as the value limit.
                return Ok(Some(crate::json::deep_clone(schema)));
            }
            Some(other) => {
                return Err(invalid(format!(
                    "{}: `{field}` must be a JSON Schema (an object or a boolean), got {}",
                    at(),
                    crate::json::type_name(other)
                )));
            }
        }
    }
    Ok(None)
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidDefinition, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_shapes_and_both_field_spellings_are_read() {
        let mcp = parse_tool_list(&json!({"tools": [
            {"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "string"}}
        ]}))
        .unwrap();
        let plain = parse_tool_list(&json!([
            {"name": "a", "parameters": {"type": "object"}, "output": {"type": "string"}}
        ]))
        .unwrap();
        assert_eq!(mcp, plain);
        assert_eq!(mcp[0].output, Some(json!({"type": "string"})));
        assert_eq!(mcp[0].description, "");
    }

    #[test]
    fn errors_name_the_problem_and_the_tool() {
        let cases = [
            (
                json!(3),
                "expected a JSON array of tools or an MCP tools/list result, got integer",
            ),
            (
                json!({"tool": []}),
                "expected a JSON array of tools or an MCP tools/list result ({\"tools\": [...]}); this object has no `tools` field",
            ),
            (json!({"tools": {}}), "`tools` must be an array of tools"),
            (json!(["x"]), "tool 0: expected an object, got string"),
            (json!([{"name": ""}]), "tool 0: `name` is empty"),
            (
                json!([{"name": 1}]),
                "tool 0: `name` must be a string, got integer",
            ),
            (
                json!([{"name": "a", "description": 2}]),
                "tool 0 (\"a\"): `description` must be a string, got integer",
            ),
            (
                json!([{"name": "a", "inputSchema": "x"}]),
                "tool 0 (\"a\"): `inputSchema` must be a JSON Schema (an object or a boolean), got string",
            ),
            (
                json!([{"name": "a"}, {"name": "a"}]),
                "tool 1 (\"a\"): the name is already used by tool 0",
            ),
        ];
        for (input, message) in cases {
            let err = parse_tool_list(&input).unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidDefinition);
            assert_eq!(err.message(), message);
        }
    }
}
