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

use super::{
    DEFAULT_MATCHES, DESCRIBE_TOOLS, DescribeRequest, MAX_DECLARATIONS, SdkPlan, SourcedTool,
    ToolIndex, plan,
};
use crate::code::CodeMode;
use crate::code::assembly::{CODE_ONLY_RULE, advertised_output};
use crate::code::mode::{PresentationMode, ScopePresentation};
use crate::code::run::run_code_description;
use crate::code::sdk::{SdkTool, render_sdk_section_within};
use crate::code::search::tokens::searchable;

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
         descriptions and parameters; `limit` of them, default {DEFAULT_MATCHES}). At most \
         {MAX_DECLARATIONS} declarations per call; an answer over its token budget shortens the largest \
         declarations and says how to read the rest. Call the tools from a `run_code` program."
    )
}

fn parameters() -> JsonValue {
    json!({
        "type": "object",
        "properties": {
            "names": {"type": "array", "items": {"type": "string"}, "description": "Exact tool names."},
            "query": {"type": "string", "description": "The task in plain words; its best matches are declared."},
            "limit": {"type": "integer", "description": format!("How many matches of `query`: an integer from 1 to {MAX_DECLARATIONS} (default {DEFAULT_MATCHES}).")}
        },
        "additionalProperties": false
    })
}

/// What the arguments accept, for every argument error.
const ACCEPTED: &str = "accepted: `names` (an array of tool names), `query` (a string: the task in plain words), \
     `limit` (an integer from 1 to 20, default 5); give `names` or `query` or both";

fn invalid(problem: String) -> Error {
    Error::new(
        ErrorCode::InvalidArgs,
        format!("invalid arguments:\n- {problem}\n({ACCEPTED})"),
    )
}

/// Reads `names`, `query` and `limit` as the advertised schema says (an object with no
/// other key; `names` an array of strings, folded when repeated; `query` a string; `limit`
/// an integer from 1 to `MAX_DECLARATIONS`), and one of `names` and `query` is needed.
pub(crate) fn read_arguments(args: &JsonValue) -> Result<DescribeRequest, Error> {
    let Some(object) = args.as_object() else {
        return Err(invalid(format!(
            "the arguments must be an object, got {}",
            kind(args)
        )));
    };
    let mut unknown: Vec<&str> = object
        .keys()
        .map(String::as_str)
        .filter(|key| !matches!(*key, "names" | "query" | "limit"))
        .collect();
    unknown.sort_unstable();
    if !unknown.is_empty() {
        return Err(invalid(format!(
            "unknown argument{} {}",
            if unknown.len() == 1 { "" } else { "s" },
            unknown
                .iter()
                .map(|k| format!("{k:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut names: Vec<String> = Vec::new();
    match object.get("names") {
        None | Some(JsonValue::Null) => {}
        Some(JsonValue::Array(items)) => {
            for (at, item) in items.iter().enumerate() {
                let Some(name) = item.as_str() else {
                    return Err(invalid(format!(
                        "`names[{at}]` must be a string, got {}",
                        kind(item)
                    )));
                };
                if !names.iter().any(|n| n == name) {
                    names.push(name.to_owned());
                }
            }
        }
        Some(other) => {
            return Err(invalid(format!(
                "`names` must be an array of strings, got {}",
                kind(other)
            )));
        }
    }
    let query = match object.get("query") {
        None | Some(JsonValue::Null) => None,
        Some(JsonValue::String(query)) => Some(query.clone()).filter(|q| !q.trim().is_empty()),
        Some(other) => {
            return Err(invalid(format!(
                "`query` must be a string, got {}",
                kind(other)
            )));
        }
    };
    let limit = match object.get("limit") {
        None | Some(JsonValue::Null) => DEFAULT_MATCHES,
        Some(JsonValue::Number(n)) => match n.as_u64().and_then(|l| usize::try_from(l).ok()) {
            Some(l) if (1..=MAX_DECLARATIONS).contains(&l) => l,
            _ => {
                return Err(invalid(format!(
                    "`limit` must be an integer from 1 to {MAX_DECLARATIONS}, got {n}"
                )));
            }
        },
        Some(other) => {
            return Err(invalid(format!(
                "`limit` must be an integer from 1 to {MAX_DECLARATIONS}, got {}",
                kind(other)
            )));
        }
    };
    if names.is_empty() && query.is_none() {
        return Err(invalid(
            "give `names` (tool names from the index) or a `query` (the task in plain words)"
                .to_owned(),
        ));
    }
    Ok(DescribeRequest {
        names,
        query,
        limit,
    })
}

/// A JSON value's kind and, when short, the value itself (for error messages).
fn kind(value: &JsonValue) -> String {
    let what = match value {
        JsonValue::Null => "null",
        JsonValue::Bool(_) => "a boolean",
        JsonValue::Number(_) => "a number",
        JsonValue::String(_) => "a string",
        JsonValue::Array(_) => "an array",
        JsonValue::Object(_) => "an object",
    };
    let text = value.to_string();
    if text.chars().count() <= 40 && !matches!(value, JsonValue::Null) {
        format!("{what} ({text})")
    } else {
        what.to_owned()
    }
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
                let request = read_arguments(&args)?;
                let registry = registry
                    .ok_or_else(|| Error::new(ErrorCode::ToolFailed, "the registry is gone"))?;
                let scope = registry.scope_of(agent);
                let code = CodeMode::of(&registry);
                let planned = code
                    .as_ref()
                    .and_then(|code| code.sdk_plan(&scope))
                    .ok_or_else(|| {
                        Error::new(
                            ErrorCode::ToolFailed,
                            "Code Mode is no longer installed in this registry or has no runtime",
                        )
                    })?;
                let Some(code) = code else {
                    return Err(Error::new(ErrorCode::ToolFailed, "Code Mode is gone"));
                };
                let (config, state) = code.describe_setup();
                let index = planned.index();
                let (matches, note) = match request.query.as_deref() {
                    Some(query) if searchable(query) || config.search.embedder.is_some() => {
                        let (matches, note) = index
                            .rank(query, request.limit, &config.search, &state)
                            .await;
                        (Some(matches), note)
                    }
                    _ => (None, None),
                };
                Ok(JsonValue::String(index.answer(
                    &request,
                    matches,
                    note.as_deref(),
                    config.describe_budget(),
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
        // The last declaration of the block (the program's `progress`), then the end.
        assert!(block.ends_with("Promise<void>;\n"), "{block}");
        assert!(!block.contains("```"));
        assert_eq!(code_block("no fence"), "no fence");
    }

    #[test]
    fn arguments_are_checked_against_the_advertised_schema() {
        let err = read_arguments(&json!({})).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidArgs);
        let request =
            read_arguments(&json!({"names": ["a", "b", "a"], "query": "x", "limit": 20})).unwrap();
        assert_eq!(
            request,
            DescribeRequest {
                names: vec!["a".to_owned(), "b".to_owned()],
                query: Some("x".to_owned()),
                limit: 20
            }
        );
        assert_eq!(
            read_arguments(&json!({"query": "x"})).unwrap().limit,
            DEFAULT_MATCHES
        );
        for (args, says) in [
            (
                json!({"query": "x", "limit": "3"}),
                "`limit` must be an integer from 1 to 20, got a string (\"3\")",
            ),
            (
                json!({"query": "x", "limit": 2.5}),
                "`limit` must be an integer from 1 to 20, got 2.5",
            ),
            (json!({"query": "x", "limit": -1}), "got -1"),
            (json!({"query": "x", "limit": 0}), "got 0"),
            (json!({"query": "x", "limit": 21}), "got 21"),
            (
                json!({"query": "x", "lmit": 3}),
                "unknown argument \"lmit\"",
            ),
            (
                json!({"names": "a"}),
                "`names` must be an array of strings, got a string (\"a\")",
            ),
            (
                json!({"names": [1]}),
                "`names[0]` must be a string, got a number (1)",
            ),
            (json!({"query": 3}), "`query` must be a string"),
            (json!([1]), "the arguments must be an object"),
        ] {
            let err = read_arguments(&args).unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidArgs);
            assert!(err.message().contains(says), "{args}: {}", err.message());
            assert!(
                err.message().contains("accepted: `names`"),
                "{}",
                err.message()
            );
        }
        if let Err(err) = JsonSchema::parse(&parameters()) {
            panic!("{err}");
        }
    }

    fn any_arguments() -> impl proptest::strategy::Strategy<Value = JsonValue> {
        use proptest::prelude::*;
        let scalar = prop_oneof![
            Just(JsonValue::Null),
            any::<bool>().prop_map(JsonValue::from),
            any::<i64>().prop_map(JsonValue::from),
            any::<f64>().prop_map(JsonValue::from),
            "[a-z_ ]{0,8}".prop_map(JsonValue::from),
        ];
        let value = scalar.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(JsonValue::from),
                proptest::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                    .prop_map(|m| JsonValue::Object(m.into_iter().collect())),
            ]
        });
        let key = prop_oneof![
            Just("names".to_owned()),
            Just("query".to_owned()),
            Just("limit".to_owned()),
            "[a-z]{1,6}"
        ];
        prop_oneof![
            proptest::collection::btree_map(key, value.clone(), 0..4)
                .prop_map(|m| JsonValue::Object(m.into_iter().collect())),
            value,
        ]
    }

    proptest::proptest! {
        #[test]
        fn any_json_is_read_or_refused_without_panicking(value in any_arguments()) {
            if let Ok(request) = read_arguments(&value) {
                proptest::prop_assert!((1..=MAX_DECLARATIONS).contains(&request.limit));
                proptest::prop_assert!(!request.names.is_empty() || request.query.is_some());
            }
        }
    }
}
