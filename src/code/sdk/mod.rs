//! The SDK text of Code Mode: the `tools:sdk` prompt section that declares the visible
//! tools as a TypeScript (or Python) API for the program the model writes.
//!
//! The section is the spec's fixed instructions followed by one fenced code block. It is
//! **byte-stable**: tools are ordered by name (byte order), nothing depends on hash-map
//! order, the input order or the clock, so an unchanged tool set gives identical text and
//! a prompt prefix cache keeps working. It is **total**: any JSON is accepted as a schema;
//! what cannot be read becomes `unknown` (TypeScript) / `Any` (Python), never a panic.
//!
//! Layout: [`tool_list`](parse_tool_list) reads tool lists, `schema_view` turns JSON
//! Schema into a small type model (shared by both languages), `typescript` and `python`
//! spell that model, `templates` holds the fixed prose and skeleton (`sdk-templates/`,
//! rendered once and cut at the blocks, which the renderers write in place), `text` the
//! quoting and naming helpers. This module must not know about the registry,
//! prompt assembly or the engine.

mod python;
mod schema_view;
mod templates;
mod text;
mod tool_list;
mod typescript;

#[cfg(test)]
mod proptests;

use crate::json::JsonValue;

pub use tool_list::parse_tool_list;

/// One tool as the SDK sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct SdkTool {
    /// The tool's name: the key of `tools` (`tools.name(...)` or `tools["my-tool"](...)`).
    pub name: String,
    /// Shown as the tool's documentation (collapsed to one line).
    pub description: String,
    /// The JSON Schema of the arguments, as its author wrote it.
    pub parameters: JsonValue,
    /// The JSON Schema of the value a call resolves to; `None` means any JSON value.
    pub output: Option<JsonValue>,
}

/// The language of an SDK section: the language of the loaded code runtime (one enum for
/// both, so a runtime's language always names its renderer).
pub type SdkLanguage = crate::runtime::Language;

/// The whole `tools:sdk` prompt section: the fixed instructions for `language`, then one
/// fenced code block declaring `tools`.
///
/// ```
/// use codemode::code::sdk::{render_sdk_section, SdkLanguage, SdkTool};
/// use serde_json::json;
/// let tools = [SdkTool {
///     name: "get_me".into(),
///     description: "Who am I?".into(),
///     parameters: json!({"type": "object", "properties": {}, "additionalProperties": false}),
///     output: None,
/// }];
/// let text = render_sdk_section(SdkLanguage::TypeScript, &tools);
/// assert!(text.starts_with("## Writing code for run_code\n"));
/// assert!(text.contains("  /** Who am I? */\n  get_me: Record<string, never>;\n"));
/// assert_eq!(text, render_sdk_section(SdkLanguage::TypeScript, &tools));
/// ```
pub fn render_sdk_section(language: SdkLanguage, tools: &[SdkTool]) -> String {
    use templates::{Piece, PythonBlock, TypeScriptBlock};
    match language {
        SdkLanguage::TypeScript => {
            // Each tool's members are written as soon as it is walked (see
            // `schema_view::walk_tools`); the aliases, declared above them, are known
            // only at the end, so the members wait in their own buffers.
            let mut args = String::with_capacity(tools.len() * 768);
            let mut outputs = String::with_capacity(tools.len() * 128);
            let model = schema_view::walk_tools(tools, |aliases, tool| {
                typescript::write_tool_members(&mut args, &mut outputs, aliases, &tool);
            });
            let skeleton = templates::typescript(!model.aliases.is_empty());
            let mut out = String::with_capacity(
                templates::fixed_len(skeleton) + args.len() + outputs.len() + 1024,
            );
            for piece in skeleton {
                match piece {
                    Piece::Text(text) => out.push_str(text),
                    Piece::Block(TypeScriptBlock::Aliases) => {
                        typescript::write_alias_declarations(&mut out, &model);
                    }
                    Piece::Block(TypeScriptBlock::Args) => out.push_str(&args),
                    Piece::Block(TypeScriptBlock::Outputs) => out.push_str(&outputs),
                }
            }
            out
        }
        SdkLanguage::Python => {
            let model = schema_view::build_model(tools);
            // The imports at the top depend on everything below, so the blocks are
            // written first and put in place after.
            let parts = python::render(&model);
            let skeleton = templates::python(parts.json_value);
            let blocks = [&parts.imports, &parts.definitions, &parts.methods];
            let mut out = String::with_capacity(
                templates::fixed_len(skeleton) + blocks.iter().map(|b| b.len()).sum::<usize>(),
            );
            for piece in skeleton {
                match piece {
                    Piece::Text(text) => out.push_str(text),
                    Piece::Block(PythonBlock::Imports) => out.push_str(&parts.imports),
                    Piece::Block(PythonBlock::Definitions) => out.push_str(&parts.definitions),
                    Piece::Block(PythonBlock::Methods) => out.push_str(&parts.methods),
                }
            }
            out
        }
    }
}

/// The spec's `jsonSchemaToTs`: one schema -> one TypeScript type expression.
///
/// Total: malformed parts become `unknown`. References into the schema are written
/// inline (a recursive reference becomes `unknown`, since an expression cannot name
/// itself); the SDK section declares them as named aliases instead.
///
/// ```
/// use codemode::code::sdk::json_schema_to_ts;
/// use serde_json::json;
/// assert_eq!(json_schema_to_ts(&json!({"type": "array", "items": {"type": ["string", "null"]}})), "(string | null)[]");
/// assert_eq!(json_schema_to_ts(&json!({"enum": ["a", 1, null]})), "\"a\" | 1 | null");
/// assert_eq!(json_schema_to_ts(&json!("not a schema")), "unknown");
/// ```
pub fn json_schema_to_ts(schema: &JsonValue) -> String {
    let (ty, model) = schema_view::build_single(schema);
    typescript::TsWriter::inline(&model.aliases).expression(&ty, 0)
}

/// Where the SDK of `tools` says `unknown`: one entry per schema location that could not
/// be read (`"tool" args#/properties/x`), or a type that only refers to itself. Empty
/// when every schema rendered as a real type; hosts can check their tool sets with it.
///
/// ```
/// use codemode::code::sdk::{unknown_types, SdkTool};
/// use serde_json::json;
/// let tool = |parameters| SdkTool { name: "t".into(), description: String::new(), parameters, output: None };
/// assert!(unknown_types(&[tool(json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}}))]).is_empty());
/// assert_eq!(unknown_types(&[tool(json!({"properties": {"a": {"type": "text"}}}))]), ["\"t\" args#/properties/a/type"]);
/// ```
pub fn unknown_types(tools: &[SdkTool]) -> Vec<String> {
    schema_view::build_model(tools).unknowns
}
