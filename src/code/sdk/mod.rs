//! The SDK text of Code Mode: the `tools:sdk` prompt section that declares the visible
//! tools as a TypeScript (or Python) API for the program the model writes.
//!
//! The section is the spec's fixed instructions followed by one fenced code block. It is
//! **byte-stable**: tools are ordered by name (byte order), nothing depends on hash-map
//! order, the input order or the clock, so an unchanged tool set gives identical text and
//! a prompt prefix cache keeps working. It is **total**: any JSON is accepted as a schema;
//! what cannot be read becomes `unknown` (TypeScript) / `Any` (Python), never a panic.
//!
//! Layout: [`tool_list`](parse_tool_list) reads tool lists, `schema_view/` turns JSON
//! Schema into a small type model (shared by both languages; one file per concern, which
//! its module doc lists), `typescript` and `python`
//! spell that model, `templates` holds the fixed prose and skeleton (`sdk-templates/`,
//! rendered once and cut at the blocks, which the renderers write in place), `text` the
//! quoting and naming helpers. This module must not know about the registry,
//! prompt assembly or the engine.
//!
//! **Depth.** Schemas render fully up to a [`DepthLimit`] of subschemas (the registry's, in
//! prompt assembly; [`DepthLimit::DEFAULT`] for the functions without one); deeper parts
//! are `unknown` / `Any` and listed by [`unknown_types`]. The walker and the writers keep
//! their own stacks on the heap, and the type model is copied, compared and dropped the same
//! way, so a schema as deep as the limit renders on whatever thread calls, with no more
//! stack than a shallow one.

mod python;
mod schema_view;
mod templates;
mod text;
mod tool_list;
mod typescript;

#[cfg(test)]
mod proptests;

use crate::json::{DepthLimit, JsonValue};
use crate::runtime::Language;

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

/// The whole `tools:sdk` prompt section: the fixed instructions for `language`, then one
/// fenced code block declaring `tools`.
///
/// ```
/// use codemode::code::sdk::{render_sdk_section, SdkTool};
/// use codemode::runtime::Language;
/// use serde_json::json;
/// let tools = [SdkTool {
///     name: "get_me".into(),
///     description: "Who am I?".into(),
///     parameters: json!({"type": "object", "properties": {}, "additionalProperties": false}),
///     output: None,
/// }];
/// let text = render_sdk_section(Language::TypeScript, &tools);
/// assert!(text.starts_with("## Writing code for run_code\n"));
/// assert!(text.contains("  /** Who am I? */\n  get_me: Record<string, never>;\n"));
/// assert_eq!(text, render_sdk_section(Language::TypeScript, &tools));
/// ```
pub fn render_sdk_section(language: Language, tools: &[SdkTool]) -> String {
    render_sdk_section_within(language, tools, DepthLimit::DEFAULT)
}

/// [`render_sdk_section`] with schemas rendered up to `depth` levels of subschemas (a
/// registry's [`value_depth`](crate::registry::RegistryConfig::value_depth)).
///
/// ```
/// use codemode::code::sdk::{render_sdk_section_within, SdkTool};
/// use codemode::runtime::Language;
/// use codemode::json::DepthLimit;
/// use serde_json::json;
/// let deep = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}}});
/// let tools = [SdkTool { name: "t".into(), description: String::new(), parameters: deep, output: None }];
/// let text = render_sdk_section_within(Language::TypeScript, &tools, DepthLimit::new(1)?);
/// assert!(text.contains("b?: unknown;"));
/// let text = render_sdk_section_within(Language::TypeScript, &tools, DepthLimit::DEFAULT);
/// assert!(text.contains("b?: string;"));
/// # Ok::<(), codemode::Error>(())
/// ```
pub fn render_sdk_section_within(
    language: Language,
    tools: &[SdkTool],
    depth: DepthLimit,
) -> String {
    use templates::{Piece, PythonBlock, TypeScriptBlock};
    let limit = depth.get();
    let levels = schema_view::type_levels(limit);
    match language {
        Language::TypeScript => {
            // Each tool's members are written as soon as it is walked (see
            // `schema_view::walk_tools`); the aliases, declared above them, are known
            // only at the end, so the members wait in their own buffers.
            let mut args = String::with_capacity(tools.len() * 768);
            let mut outputs = String::with_capacity(tools.len() * 128);
            let model = schema_view::walk_tools(tools, limit, |aliases, tool| {
                typescript::write_tool_members(&mut args, &mut outputs, aliases, &tool, levels);
            });
            let skeleton = templates::typescript(!model.aliases.is_empty());
            let mut out = String::with_capacity(
                templates::fixed_len(skeleton) + args.len() + outputs.len() + 1024,
            );
            for piece in skeleton {
                match piece {
                    Piece::Text(text) => out.push_str(text),
                    Piece::Block(TypeScriptBlock::Aliases) => {
                        typescript::write_alias_declarations(&mut out, &model, levels);
                    }
                    Piece::Block(TypeScriptBlock::Args) => out.push_str(&args),
                    Piece::Block(TypeScriptBlock::Outputs) => out.push_str(&outputs),
                }
            }
            out
        }
        Language::Python => {
            let model = schema_view::build_model(tools, limit);
            // The imports at the top depend on everything below, so the blocks are
            // written first and put in place after.
            let parts = python::render(&model, levels);
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
    let limit = DepthLimit::DEFAULT.get();
    let (ty, model) = schema_view::build_single(schema, limit);
    let mut writer = typescript::TsWriter::inline(&model.aliases, schema_view::type_levels(limit));
    writer.expression(&ty, 0)
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
    unknown_types_within(tools, DepthLimit::DEFAULT)
}

/// [`unknown_types`] for an SDK rendered up to `depth` levels of subschemas
/// ([`render_sdk_section_within`]).
pub fn unknown_types_within(tools: &[SdkTool], depth: DepthLimit) -> Vec<String> {
    schema_view::build_model(tools, depth.get()).unknowns
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::{Duration, Instant};

    /// A Python section from its first class to its tools, without the imports (`Any` is
    /// always imported) and the fixed declarations of `store` (whose values are `Any`).
    pub(super) fn tools_part(section: &str) -> &str {
        let start = section.find("\nclass ").unwrap_or(0);
        let section = &section[start..];
        section
            .split("\nclass StoreError")
            .next()
            .unwrap_or(section)
    }

    /// An object of `pairs`. `json!` would copy a value put in it through `Serialize`,
    /// recursively: deep schemas are built with this instead.
    fn object(pairs: Vec<(&str, JsonValue)>) -> JsonValue {
        JsonValue::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    }

    /// A closed object whose one required property `a` is `schema`.
    fn around(schema: JsonValue) -> JsonValue {
        object(vec![
            ("type", json!("object")),
            ("properties", object(vec![("a", schema)])),
            ("required", json!(["a"])),
            ("additionalProperties", json!(false)),
        ])
    }

    /// Objects nested `depth` levels (`{a: {a: ... string}}`).
    fn nested(depth: usize) -> JsonValue {
        let mut schema = json!({"type": "string"});
        for _ in 0..depth {
            schema = around(schema);
        }
        schema
    }

    fn tool(parameters: JsonValue) -> SdkTool {
        SdkTool {
            name: "deep".into(),
            description: "Nests.".into(),
            parameters,
            output: None,
        }
    }

    /// Frees a deep schema without recursion (its drop glue recurses).
    fn dispose(tools: Vec<SdkTool>) {
        for tool in tools {
            crate::json::dispose(tool.parameters);
        }
    }

    fn widest_indent(text: &str) -> usize {
        text.lines()
            .map(|line| line.len() - line.trim_start().len())
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn depth_fifty_renders_fully_in_both_languages() {
        let tools = vec![tool(nested(50))];
        assert_eq!(unknown_types(&tools), Vec::<String>::new());
        let ts = render_sdk_section(Language::TypeScript, &tools);
        assert!(!ts.contains("unknown"), "{ts}");
        assert_eq!(ts.matches("a: {").count(), 49, "{ts}");
        assert!(ts.contains("a: string;"), "{ts}");
        let py = render_sdk_section(Language::Python, &tools);
        assert!(!tools_part(&py).contains("Any"), "{py}");
        assert_eq!(py.matches("(TypedDict):").count(), 50, "{py}");
        assert!(py.contains("    a: str\n"), "{py}");
        dispose(tools);
    }

    #[test]
    fn depth_five_thousand_renders_fully_in_linear_time_and_size() {
        let depth = 5_000;
        let tools = vec![tool(nested(depth))];
        let started = Instant::now();
        assert_eq!(unknown_types(&tools), Vec::<String>::new());
        let ts = render_sdk_section(Language::TypeScript, &tools);
        let py = render_sdk_section(Language::Python, &tools);
        let elapsed = started.elapsed();
        // Generous: a loaded machine, a debug build (a release build takes some 0.1 s).
        assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
        assert!(!ts.contains("unknown"));
        assert_eq!(ts.matches("a: {").count(), depth - 1);
        assert!(ts.len() < 100 * depth, "{} bytes", ts.len());
        assert_eq!(widest_indent(&ts), 32);
        assert!(!tools_part(&py).contains("Any"));
        assert_eq!(py.matches("(TypedDict):").count(), depth);
        assert!(py.len() < 200 * depth, "{} bytes", py.len());
        let single = json_schema_to_ts(&tools[0].parameters);
        assert!(!single.contains("unknown"));
        assert!(single.len() < 100 * depth, "{} bytes", single.len());
        dispose(tools);
    }

    #[test]
    fn deeper_than_the_limit_degrades_and_says_where() {
        let depth = crate::json::DEFAULT_MAX_DEPTH + 2;
        let tools = vec![tool(nested(depth))];
        let unknowns = unknown_types(&tools);
        assert_eq!(unknowns.len(), 1, "{unknowns:?}");
        assert!(unknowns[0].starts_with("\"deep\" args#/properties/a/"));
        let ts = render_sdk_section(Language::TypeScript, &tools);
        assert_eq!(ts.matches("unknown").count(), 1);
        assert!(ts.contains("a: unknown;"));
        let py = render_sdk_section(Language::Python, &tools);
        assert!(py.contains("    a: Any\n"));
        assert!(json_schema_to_ts(&tools[0].parameters).contains("a: unknown;"));
        dispose(tools);
    }

    #[test]
    fn deep_schemas_render_on_a_small_stack() {
        // The walk and the writers keep their own stacks (the deep pass once ran on a
        // thread of its own, sized for the limit): a 256 KiB stack holds no recursion
        // 5,000 levels deep.
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let depth = 5_000;
                let tools = vec![tool(nested(depth))];
                assert!(unknown_types(&tools).is_empty());
                let ts = render_sdk_section(Language::TypeScript, &tools);
                assert_eq!(ts.matches("a: {").count(), depth - 1);
                let py = render_sdk_section(Language::Python, &tools);
                assert_eq!(py.matches("(TypedDict):").count(), depth);
                assert!(!json_schema_to_ts(&tools[0].parameters).contains("unknown"));
                // Past the limit too: the rest is `unknown`, and nothing overflows.
                let deeper = vec![tool(nested(crate::json::DEFAULT_MAX_DEPTH + 2))];
                assert!(render_sdk_section(Language::Python, &deeper).contains("    a: Any\n"));
                dispose(tools);
                dispose(deeper);
            })
            .expect("spawn")
            .join()
            .expect("rendered without overflowing");
    }

    #[test]
    fn a_chain_of_references_written_inline_stays_within_its_limits() {
        // `json_schema_to_ts` writes aliases inline: ten definitions, each 2,000 levels
        // deep and ending in a reference to the next, nest 20,000 levels deep together.
        let mut defs = serde_json::Map::new();
        for index in 0..10 {
            let mut schema = match index {
                9 => json!({"type": "string"}),
                _ => json!({"$ref": format!("#/$defs/d{}", index + 1)}),
            };
            for _ in 0..2_000 {
                schema = around(schema);
            }
            defs.insert(format!("d{index}"), schema);
        }
        let schema = object(vec![
            ("$ref", json!("#/$defs/d0")),
            ("$defs", JsonValue::Object(defs)),
        ]);
        let text = json_schema_to_ts(&schema);
        // The inline budget ends it, once.
        assert_eq!(text.matches("unknown").count(), 1);
        crate::json::dispose(schema);
    }

    #[test]
    fn deep_arrays_unions_tuples_and_intersections_render_in_linear_size() {
        // Each level of `merged` is two levels of subschemas (`allOf/0`, `properties/a`).
        let depth = 2_000;
        let mut shapes = Vec::new();
        let leaf = || json!({"type": "string"});
        let mut arrays = leaf();
        let mut unions = leaf();
        let mut tuples = leaf();
        let mut merged = leaf();
        for _ in 0..depth {
            arrays = object(vec![("type", json!("array")), ("items", arrays)]);
            unions = object(vec![
                (
                    "anyOf",
                    JsonValue::Array(vec![unions, json!({"type": "null"})]),
                ),
                ("nullable", json!(true)),
            ]);
            tuples = object(vec![
                ("type", json!("array")),
                (
                    "prefixItems",
                    JsonValue::Array(vec![tuples, json!({"type": "integer"})]),
                ),
                ("items", json!(false)),
            ]);
            let first = object(vec![
                ("type", json!("object")),
                ("properties", object(vec![("a", merged)])),
            ]);
            let second = json!({"type": "object", "properties": {"b": {"type": "string"}}});
            merged = object(vec![("allOf", JsonValue::Array(vec![first, second]))]);
        }
        shapes.extend([arrays, unions, tuples, merged]);
        let tools: Vec<SdkTool> = shapes.into_iter().map(tool).collect();
        for tool in &tools {
            let tools = std::slice::from_ref(tool);
            assert!(unknown_types(tools).is_empty());
            for language in [Language::TypeScript, Language::Python] {
                let started = Instant::now();
                let text = render_sdk_section(language, tools);
                assert!(started.elapsed() < Duration::from_secs(10));
                assert!(
                    text.len() < 400 * depth,
                    "{language:?}: {} bytes",
                    text.len()
                );
                assert!(
                    !text.contains("unknown") && !tools_part(&text).contains(": Any"),
                    "{language:?}"
                );
            }
        }
        dispose(tools);
    }
}
