//! The `describe_tools` tool and the per-scope plan behind it: what replaces a scope's SDK
//! in `run_code`'s description (the whole SDK, or the compact index when the SDK is over
//! `sdk_max_tokens`), computed once per tool set and kept until the scope's tools change.
//!
//! `describe_tools` is provided beside `run_code` only to scopes whose description carries
//! the index; it is called directly by the model (not from a program) and answers with the
//! declarations of the tools named or of a query's best matches, in the SDK language.

use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use serde_json::json;

use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;
use crate::registry::{Scope, WeakRegistry};
use crate::runtime::Language;
use crate::schema::JsonSchema;
use crate::tool::{ToolDefinition, ToolOutput};

use super::CodeMode;
use super::assembly::{CODE_ONLY_RULE, advertised_output};
use super::index::{
    DEFAULT_MATCHES, DESCRIBE_TOOLS, MAX_DECLARATIONS, SdkPlan, SourcedTool, ToolIndex, plan,
};
use super::mode::{PresentationMode, ScopePresentation};
use super::run_code::run_code_description;
use super::sdk::{SdkTool, render_sdk_section_within};

/// The SDK plan of one tool set, and its search index (built on the first search).
pub(crate) struct Planned {
    pub(crate) plan: SdkPlan,
    language: Language,
    tools: Vec<SourcedTool>,
    depth: crate::json::DepthLimit,
    index: OnceLock<ToolIndex>,
    /// The declarations of every tool of the set (made on the first type check).
    declarations: OnceLock<Arc<str>>,
}

impl Planned {
    /// The search index of the tool set.
    pub(crate) fn index(&self) -> &ToolIndex {
        self.index
            .get_or_init(|| ToolIndex::new(self.language, &self.tools, self.depth))
    }

    /// The SDK's declarations of every tool of the set (the code block of the whole SDK
    /// section, whatever `run_code`'s description carries), as a program is type-checked
    /// against them: with `JsonValue` as `any`. A result whose schema says nothing is a
    /// `JsonValue` in the SDK, and a program reading `result.items` from it works; checked
    /// against the union it would be refused. (Open arguments, `& Record<string,
    /// JsonValue>`, accept any extra member either way.)
    pub(crate) fn declarations(&self) -> Arc<str> {
        self.declarations
            .get_or_init(|| {
                let tools: Vec<SdkTool> = self.tools.iter().map(|t| t.tool.clone()).collect();
                let section = render_sdk_section_within(self.language, &tools, self.depth);
                Arc::from(code_block(&section).replacen(JSON_VALUE, JSON_VALUE_FOR_CHECKS, 1))
            })
            .clone()
    }
}

/// The SDK's declaration of an open JSON value, and what the type check reads instead.
const JSON_VALUE: &str = "type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };";
const JSON_VALUE_FOR_CHECKS: &str = "type JsonValue = any;";

/// The text inside the first fenced code block of an SDK section (all of it if it has none).
fn code_block(section: &str) -> &str {
    let Some(open) = section.find("```") else {
        return section;
    };
    let body = &section[open..];
    let body = body.find('\n').map_or("", |line_end| &body[line_end + 1..]);
    match body.rfind("```") {
        Some(close) => &body[..close],
        None => body,
    }
}

struct Cached {
    tools: Vec<Arc<ToolDefinition>>,
    language: Language,
    mode: PresentationMode,
    planned: Arc<Planned>,
}

/// The last plan made (scopes of one deployment usually share their tools).
#[derive(Default)]
pub(crate) struct PlanCache {
    last: Mutex<Option<Cached>>,
}

/// The SDK tools of `scope` with their sources.
fn sourced_tools(tools: &[Arc<ToolDefinition>]) -> Vec<SourcedTool> {
    tools
        .iter()
        .map(|tool| SourcedTool {
            source: tool.annotations().source.clone(),
            tool: SdkTool {
                name: tool.name().to_owned(),
                description: tool.schema().description.clone(),
                parameters: tool.schema().parameters.clone(),
                output: Some(advertised_output(tool)),
            },
        })
        .collect()
}

impl PlanCache {
    /// The plan for `scope` presenting in `mode` (`code` or `both`) with programs in
    /// `language`, under `budget` tokens for `run_code`'s whole description.
    pub(crate) fn plan(
        &self,
        scope: &Scope,
        language: Language,
        budget: Option<usize>,
    ) -> Arc<Planned> {
        let mode = scope.mode();
        let tools = scope.visible_tools();
        let mut last = self.last.lock();
        if let Some(cached) = last.as_ref()
            && cached.language == language
            && cached.mode == mode
            && cached.tools.len() == tools.len()
            && cached
                .tools
                .iter()
                .zip(&tools)
                .all(|(a, b)| Arc::ptr_eq(a, b))
        {
            return cached.planned.clone();
        }
        let mut prefix = run_code_description(language).to_owned();
        if mode == PresentationMode::Code {
            prefix.push_str("\n\n");
            prefix.push_str(CODE_ONLY_RULE);
        }
        let sourced = sourced_tools(&tools);
        let depth = scope.registry().config().value_depth;
        let planned = Arc::new(Planned {
            plan: plan(language, &sourced, depth, &prefix, budget),
            language,
            tools: sourced,
            depth,
            index: OnceLock::new(),
            declarations: OnceLock::new(),
        });
        *last = Some(Cached {
            tools,
            language,
            mode,
            planned: planned.clone(),
        });
        planned
    }
}

fn description(language: Language) -> String {
    let lang = match language {
        Language::TypeScript => "TypeScript",
        Language::Python => "Python",
    };
    format!(
        "Read the full {lang} declarations of tools from the index in `run_code`'s description. `names`: exact \
         tool names; `query`: what you want to do, in plain words (its best matches, ranked over tool names, \
         descriptions and parameter names; `limit` of them, default {DEFAULT_MATCHES}). At most \
         {MAX_DECLARATIONS} declarations per call. Call the tools from a `run_code` program."
    )
}

fn parameters() -> JsonValue {
    json!({
        "type": "object",
        "properties": {
            "names": {"type": "array", "items": {"type": "string"}, "description": "Exact tool names."},
            "query": {"type": "string", "description": "The task in plain words; its best matches are declared."},
            "limit": {"type": "integer", "description": format!("How many matches of `query` (default {DEFAULT_MATCHES}, at most {MAX_DECLARATIONS}).")}
        },
        "additionalProperties": false
    })
}

/// Reads `names`, `query` and `limit`; one of `names` and `query` is needed.
fn read_arguments(args: &JsonValue) -> Result<(Vec<String>, Option<String>, usize), Error> {
    let names: Vec<String> = args
        .get("names")
        .and_then(JsonValue::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let query = args
        .get("query")
        .and_then(JsonValue::as_str)
        .filter(|q| !q.trim().is_empty())
        .map(str::to_owned);
    let limit = args
        .get("limit")
        .and_then(JsonValue::as_u64)
        .map_or(DEFAULT_MATCHES, |l| {
            usize::try_from(l).unwrap_or(MAX_DECLARATIONS)
        })
        .clamp(1, MAX_DECLARATIONS);
    if names.is_empty() && query.is_none() {
        return Err(Error::new(
            ErrorCode::InvalidArgs,
            "invalid arguments:\n- give `names` (tool names from the index) or a `query` (the task in plain words)",
        ));
    }
    Ok((names, query, limit))
}

/// Builds the `describe_tools` definition for programs in `language`.
pub(crate) fn definition(
    registry: WeakRegistry,
    language: Language,
) -> Result<ToolDefinition, Error> {
    let output =
        JsonSchema::parse(&json!({"type": "string"})).unwrap_or_else(|_| JsonSchema::any());
    ToolDefinition::builder(DESCRIBE_TOOLS)
        .description(description(language))
        .parameters(parameters())
        .output(ToolOutput::json(output))
        .always_concurrency_safe()
        .execute(move |args, ctx| {
            let registry = registry.upgrade();
            let agent = ctx.execution().agent;
            async move {
                let (names, query, limit) = read_arguments(&args)?;
                let registry = registry
                    .ok_or_else(|| Error::new(ErrorCode::ToolFailed, "the registry is gone"))?;
                let scope = registry.scope_of(agent);
                let planned = CodeMode::of(&registry)
                    .and_then(|code| code.sdk_plan(&scope))
                    .ok_or_else(|| {
                        Error::new(
                            ErrorCode::ToolFailed,
                            "Code Mode is no longer installed in this registry or has no runtime",
                        )
                    })?;
                Ok(JsonValue::String(planned.index().describe(
                    &names,
                    query.as_deref(),
                    limit,
                )))
            }
        })
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_declarations_are_the_code_block_with_json_values_open() {
        let tools = [SdkTool {
            name: "fetch".into(),
            description: "Fetch.".into(),
            parameters: json!({"type": "object", "properties": {"url": {"type": "string"}}}),
            output: None,
        }];
        let section = render_sdk_section_within(
            Language::TypeScript,
            &tools,
            crate::json::DepthLimit::DEFAULT,
        );
        assert!(section.contains(JSON_VALUE), "the SDK still declares it so");
        let block = code_block(&section);
        assert!(block.starts_with("type JsonValue"), "{block}");
        assert!(block.ends_with("};\n"), "{block}");
        assert!(!block.contains("```"));
        assert_eq!(code_block("no fence"), "no fence");
    }

    #[test]
    fn arguments_need_names_or_a_query() {
        let err = read_arguments(&json!({})).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidArgs);
        let (names, query, limit) =
            read_arguments(&json!({"names": ["a"], "query": "x", "limit": 99})).unwrap();
        assert_eq!(
            (names, query, limit),
            (vec!["a".to_owned()], Some("x".to_owned()), 20)
        );
        if let Err(err) = JsonSchema::parse(&parameters()) {
            panic!("{err}");
        }
    }
}
