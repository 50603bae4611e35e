//! Tool definitions: the model-facing schema plus everything the host keeps to itself.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde::Serialize;

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::json::{JsonValue, check_lossless_within, deep_clone};
use crate::presentation::{ToolCallView, ToolResultView};
use crate::schema::JsonSchema;

use super::{ToolExecution, ToolExecutionResult, ToolResult, ToolRunContext};

/// The longest tool name accepted (the MCP specification's limit).
pub const MAX_TOOL_NAME: usize = 128;

/// Why `name` cannot name a tool, if it cannot: the one rule every source's tools follow
/// (registered definitions, command tools, MCP tools).
pub fn tool_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("its name is empty".into());
    }
    if name.chars().count() > MAX_TOOL_NAME {
        return Some(format!(
            "its name is longer than {MAX_TOOL_NAME} characters"
        ));
    }
    if name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some(format!(
            "its name {name:?} contains whitespace or control characters"
        ));
    }
    None
}

/// What a model sees of a tool: name, description, parameters — nothing executable.
#[derive(Debug, PartialEq, Serialize)]
pub struct ToolSchema {
    /// The tool's name.
    pub name: String,
    /// What the tool does.
    pub description: String,
    /// The JSON Schema of the arguments.
    pub parameters: JsonValue,
}

/// A copy whose parameters are copied without recursion (a schema may nest deep).
impl Clone for ToolSchema {
    fn clone(&self) -> Self {
        ToolSchema {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: deep_clone(&self.parameters),
        }
    }
}

/// How a tool declares its calls may be scheduled (what `codemode tools` lists; the
/// registry's `execution_mode` decides per call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concurrency {
    /// No classifier: every call runs alone.
    Exclusive,
    /// Every well-formed call may overlap with its siblings (a read-only tool).
    Parallel,
    /// A classifier decides from the arguments.
    ByArguments,
}

/// How a definition schedules its calls: one field, so the declaration and the classifier
/// cannot disagree.
#[derive(Clone)]
pub(crate) enum Scheduling {
    /// No classifier: every call runs alone.
    Exclusive,
    /// A classifier decides per call; `declared` is what the tool says of itself.
    Classified {
        declared: Concurrency,
        classify: Arc<ClassifyFn>,
    },
}

impl Scheduling {
    fn declared(&self) -> Concurrency {
        match self {
            Scheduling::Exclusive => Concurrency::Exclusive,
            Scheduling::Classified { declared, .. } => *declared,
        }
    }

    fn classifier(&self) -> Option<&Arc<ClassifyFn>> {
        match self {
            Scheduling::Exclusive => None,
            Scheduling::Classified { classify, .. } => Some(classify),
        }
    }
}

/// The future a tool body returns.
pub type ToolFuture = BoxFuture<'static, Result<JsonValue, Error>>;

type ExecuteFn = dyn Fn(Arc<JsonValue>, ToolRunContext) -> ToolFuture + Send + Sync;
type RenderFn = dyn Fn(&JsonValue, &JsonValue) -> Vec<ContentBlock> + Send + Sync;
type MetaFn = dyn Fn(&JsonValue, &JsonValue) -> JsonValue + Send + Sync;
type FinalizeFn =
    dyn Fn(&ToolExecution, &ToolExecutionResult) -> Option<Vec<ContentBlock>> + Send + Sync;
pub(crate) type ClassifyFn = dyn Fn(&JsonValue) -> bool + Send + Sync;
type PresentCallFn = dyn Fn(&JsonValue) -> Option<ToolCallView> + Send + Sync;
type PresentResultFn = dyn Fn(&JsonValue, &ToolResult) -> Option<ToolResultView> + Send + Sync;

/// A tool's canonical output contract: the schema every successful value must satisfy, a
/// pure renderer to model-facing content, and an optional replayable presentation
/// projection.
#[derive(Clone)]
pub struct ToolOutput {
    pub(crate) schema: Arc<JsonSchema>,
    pub(crate) render: Arc<RenderFn>,
    pub(crate) presentation_meta: Option<Arc<MetaFn>>,
}

impl fmt::Debug for ToolOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolOutput")
            .field("schema", self.schema.as_json())
            .field("presentation_meta", &self.presentation_meta.is_some())
            .finish()
    }
}

impl ToolOutput {
    /// An output with `schema` and a renderer `render(args, value)`.
    pub fn new(
        schema: JsonSchema,
        render: impl Fn(&JsonValue, &JsonValue) -> Vec<ContentBlock> + Send + Sync + 'static,
    ) -> Self {
        ToolOutput {
            schema: Arc::new(schema),
            render: Arc::new(render),
            presentation_meta: None,
        }
    }

    /// An output with `schema`, rendered by [`render_json`]: strings as they are, other
    /// values as pretty JSON.
    pub fn json(schema: JsonSchema) -> Self {
        Self::new(schema, |_, value| render_json(value))
    }

    /// Any JSON value, rendered by [`render_json`].
    pub fn any() -> Self {
        Self::json(JsonSchema::any())
    }

    /// Adds a replayable presentation projection `meta(args, value)` (computed for
    /// top-level calls only).
    pub fn with_presentation_meta(
        mut self,
        meta: impl Fn(&JsonValue, &JsonValue) -> JsonValue + Send + Sync + 'static,
    ) -> Self {
        self.presentation_meta = Some(Arc::new(meta));
        self
    }

    /// The output schema.
    pub fn schema(&self) -> &JsonSchema {
        &self.schema
    }
}

/// The default rendering of a value: a string as it is, anything else as 2-space
/// indented JSON whose indentation stops at [`MAX_JSON_INDENT`] spaces: a container whose
/// members would be indented deeper is written compact, on one line, so the text of a deep
/// value stays linear in its size.
///
/// ```
/// use codemode::tool::render_json;
/// use codemode::ContentBlock;
/// use serde_json::json;
/// assert_eq!(render_json(&json!({"a": [1]})), vec![ContentBlock::text("{\n  \"a\": [\n    1\n  ]\n}")]);
/// let deep = json!([[[[[{"k": [1, 2]}]]]]]);
/// assert_eq!(
///     render_json(&deep),
///     vec![ContentBlock::text("[\n  [\n    [\n      [\n        [\n          {\"k\":[1,2]}\n        ]\n      ]\n    ]\n  ]\n]")]
/// );
/// ```
pub fn render_json(value: &JsonValue) -> Vec<ContentBlock> {
    let text = match value {
        JsonValue::String(text) => text.clone(),
        other => crate::json::to_pretty_text_capped(other, MAX_JSON_INDENT),
    };
    vec![ContentBlock::text(text)]
}

/// The most spaces model-facing JSON text (a tool's [`render_json`], `run_code`'s answer)
/// is indented by: deeper containers are written compact.
pub const MAX_JSON_INDENT: usize = 10;

/// A registered tool: its model-facing schema, its output contract, its body and the
/// host-only metadata (timeout, concurrency classifier, finalization, UI presenters).
/// Immutable once built; the registry stores it as a frozen snapshot.
///
/// Build one with [`ToolDefinition::builder`] (raw JSON Schemas, as MCP servers give them)
/// or [`crate::tool::define_tool`] (serde types checked against the schema DSL).
///
/// ```
/// use codemode::tool::{ToolDefinition, ToolOutput};
/// use codemode::schema::JsonSchema;
/// use serde_json::json;
///
/// let echo = ToolDefinition::builder("echo")
///     .description("Echo the text back.")
///     .parameters(json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}))
///     .output(ToolOutput::json(JsonSchema::parse(&json!({"type": "string"})).unwrap()))
///     .execute(|args, _ctx| async move { Ok(args["text"].clone()) })
///     .build()
///     .unwrap();
/// assert_eq!(echo.schema().name, "echo");
/// ```
#[derive(Clone)]
pub struct ToolDefinition {
    pub(crate) schema: ToolSchema,
    pub(crate) output: ToolOutput,
    pub(crate) execute: Arc<ExecuteFn>,
    pub(crate) finalize_content: Option<Arc<FinalizeFn>>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) scheduling: Scheduling,
    pub(crate) present_call: Option<Arc<PresentCallFn>>,
    pub(crate) present_result: Option<Arc<PresentResultFn>>,
    pub(crate) annotations: ToolAnnotations,
}

/// Host-side facts about a tool that are not part of its contract (where it came from, an
/// output schema to advertise when the enforced one is looser).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolAnnotations {
    /// Where the tool came from (`"builtin"`, `"mcp:github"`, `"command"`, ...).
    pub source: Option<String>,
    /// An output schema to show in SDKs when it says more than the enforced one (for
    /// example an MCP server's `outputSchema` outside the enforced subset).
    pub advertised_output: Option<JsonValue>,
}

impl fmt::Debug for ToolDefinition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDefinition")
            .field("name", &self.schema.name)
            .field("timeout", &self.timeout)
            .field("concurrency", &self.scheduling.declared())
            .finish_non_exhaustive()
    }
}

impl ToolDefinition {
    /// Starts a raw definition named `name`.
    pub fn builder(name: impl Into<String>) -> ToolBuilder {
        ToolBuilder {
            name: name.into(),
            description: String::new(),
            parameters: None,
            output: None,
            execute: None,
            finalize_content: None,
            timeout_ms: None,
            scheduling: Scheduling::Exclusive,
            present_call: None,
            present_result: None,
            annotations: ToolAnnotations::default(),
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.schema.name
    }

    /// The model-facing projection.
    pub fn schema(&self) -> &ToolSchema {
        &self.schema
    }

    /// The output contract.
    pub fn output(&self) -> &ToolOutput {
        &self.output
    }

    /// The declared cooperative timeout.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// Host-side annotations.
    pub fn annotations(&self) -> &ToolAnnotations {
        &self.annotations
    }

    /// Whether the tool declares a concurrency classifier.
    pub fn has_classifier(&self) -> bool {
        self.scheduling.classifier().is_some()
    }

    /// How the tool declares its calls may be scheduled.
    pub fn concurrency(&self) -> Concurrency {
        self.scheduling.declared()
    }

    /// The classifier that decides whether a call may overlap (`None`: every call runs
    /// alone).
    pub(crate) fn classifier(&self) -> Option<&Arc<ClassifyFn>> {
        self.scheduling.classifier()
    }

    /// The pending-state UI view for `args`: the tool's presenter, or `None` (fall back
    /// to a generic card). A panicking presenter also gives `None`.
    pub fn present_call(&self, args: &JsonValue) -> Option<ToolCallView> {
        let present = self.present_call.as_ref()?;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| present(args)))
            .ok()
            .flatten()
    }

    /// The completed-state UI view for `args` and the durable `result`, or `None`.
    pub fn present_result(&self, args: &JsonValue, result: &ToolResult) -> Option<ToolResultView> {
        let present = self.present_result.as_ref()?;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| present(args, result)))
            .ok()
            .flatten()
    }
}

/// Builder of a raw [`ToolDefinition`]; see [`ToolDefinition::builder`].
pub struct ToolBuilder {
    name: String,
    description: String,
    parameters: Option<JsonValue>,
    output: Option<ToolOutput>,
    execute: Option<Arc<ExecuteFn>>,
    finalize_content: Option<Arc<FinalizeFn>>,
    timeout_ms: Option<f64>,
    scheduling: Scheduling,
    present_call: Option<Arc<PresentCallFn>>,
    present_result: Option<Arc<PresentResultFn>>,
    annotations: ToolAnnotations,
}

impl std::fmt::Debug for ToolBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolBuilder")
            .field("name", &self.name)
            .field("parameters", &self.parameters)
            .field("has_execute", &self.execute.is_some())
            .field("timeout_ms", &self.timeout_ms)
            .finish_non_exhaustive()
    }
}

impl ToolBuilder {
    /// What the tool does (the model reads it).
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = text.into();
        self
    }

    /// The argument schema, as given (a JSON object; raw tools validate their own input).
    pub fn parameters(mut self, schema: JsonValue) -> Self {
        self.parameters = Some(schema);
        self
    }

    /// The output contract (mandatory).
    pub fn output(mut self, output: ToolOutput) -> Self {
        self.output = Some(output);
        self
    }

    /// The body: gets the frozen arguments and the run context, returns the canonical
    /// value. It must observe `ctx.signal()`.
    pub fn execute<F, Fut>(mut self, body: F) -> Self
    where
        F: Fn(Arc<JsonValue>, ToolRunContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<JsonValue, Error>> + Send + 'static,
    {
        self.execute = Some(Arc::new(move |args, ctx| body(args, ctx).boxed()));
        self
    }

    /// A last-mile content transform run exactly once for every outcome (see the spec's
    /// `finalizeContent`); `None` keeps the content.
    pub fn finalize_content(
        mut self,
        finalize: impl Fn(&ToolExecution, &ToolExecutionResult) -> Option<Vec<ContentBlock>>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        self.finalize_content = Some(Arc::new(finalize));
        self
    }

    /// A cooperative time budget in milliseconds (positive and finite), enforced by the
    /// timeout policy.
    pub fn timeout_ms(mut self, ms: f64) -> Self {
        self.timeout_ms = Some(ms);
        self
    }

    /// A pure classifier: `true` lets the call overlap with sibling calls.
    pub fn concurrency_safe(
        mut self,
        classify: impl Fn(&JsonValue) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.scheduling = Scheduling::Classified {
            declared: Concurrency::ByArguments,
            classify: Arc::new(classify),
        };
        self
    }

    /// Declares a classified tool as `Parallel` (its classifier only refuses malformed
    /// calls); a tool without a classifier stays exclusive.
    pub(crate) fn declare_parallel(mut self) -> Self {
        if let Scheduling::Classified { declared, .. } = &mut self.scheduling {
            *declared = Concurrency::Parallel;
        }
        self
    }

    /// Every call may overlap with sibling calls (a read-only tool).
    pub fn always_concurrency_safe(mut self) -> Self {
        self.scheduling = Scheduling::Classified {
            declared: Concurrency::Parallel,
            classify: Arc::new(|_| true),
        };
        self
    }

    /// The pending-state UI presenter.
    pub fn present_call(
        mut self,
        present: impl Fn(&JsonValue) -> Option<ToolCallView> + Send + Sync + 'static,
    ) -> Self {
        self.present_call = Some(Arc::new(present));
        self
    }

    /// The completed-state UI presenter.
    pub fn present_result(
        mut self,
        present: impl Fn(&JsonValue, &ToolResult) -> Option<ToolResultView> + Send + Sync + 'static,
    ) -> Self {
        self.present_result = Some(Arc::new(present));
        self
    }

    /// Host-side annotations (source, advertised output schema).
    pub fn annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = annotations;
        self
    }

    /// Checks the definition and freezes it: a non-empty name, a JSON-object parameter
    /// schema whose numbers are lossless JSON (how deep it nests is checked where it is
    /// registered, against the registry's limit), an output, a body, a positive finite
    /// timeout.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidDefinition`] naming the tool when any of those is missing or wrong:
    /// an empty or invalid name, parameters that are not an object or not lossless JSON, no
    /// output, no body, a `timeout_ms` that is not positive and finite (at most 1e12).
    pub fn build(self) -> Result<ToolDefinition, Error> {
        let invalid = |message: String| Error::new(ErrorCode::InvalidDefinition, message);
        let name = self.name;
        if name.is_empty() {
            return Err(invalid("a tool needs a non-empty name".into()));
        }
        if let Some(problem) = tool_name_problem(&name) {
            return Err(invalid(format!(
                "tool {name:?} cannot be registered: {problem}"
            )));
        }
        let parameters = self
            .parameters
            .unwrap_or_else(|| serde_json::json!({"type": "object", "properties": {}}));
        if !parameters.is_object() {
            return Err(invalid(format!(
                "tool `{name}`: parameters must be a JSON Schema object"
            )));
        }
        // A schema nests as deep as the registry it is registered in lets it (in levels of
        // subschemas, checked there); here only its numbers are.
        if let Err(err) = check_lossless_within(&parameters, crate::schema::SCHEMA_JSON_DEPTH) {
            return Err(invalid(format!(
                "tool `{name}`: parameters are not lossless JSON: {err}"
            )));
        }
        let Some(output) = self.output else {
            return Err(invalid(format!(
                "tool `{name}`: an output declaration is required"
            )));
        };
        let Some(execute) = self.execute else {
            return Err(invalid(format!(
                "tool `{name}`: an execute body is required"
            )));
        };
        let timeout = match self.timeout_ms {
            None => None,
            Some(ms) if ms.is_finite() && ms > 0.0 && ms <= 1e12 => {
                Some(Duration::from_secs_f64(ms / 1000.0))
            }
            Some(ms) => {
                return Err(invalid(format!(
                    "tool `{name}`: timeout_ms must be a positive finite number of milliseconds, got {ms}"
                )));
            }
        };
        Ok(ToolDefinition {
            schema: ToolSchema {
                name,
                description: self.description,
                parameters,
            },
            output,
            execute,
            finalize_content: self.finalize_content,
            timeout,
            scheduling: self.scheduling,
            present_call: self.present_call,
            present_result: self.present_result,
            annotations: self.annotations,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn minimal() -> ToolBuilder {
        ToolDefinition::builder("t")
            .output(ToolOutput::any())
            .execute(|_, _| async { Ok(JsonValue::Null) })
    }

    #[test]
    fn a_minimal_definition_builds_with_an_empty_object_schema() {
        let tool = minimal().build().unwrap();
        assert_eq!(
            tool.schema().parameters,
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(tool.timeout(), None);
    }

    #[test]
    fn invalid_definitions_are_refused_with_a_reason() {
        let err = ToolDefinition::builder("")
            .output(ToolOutput::any())
            .build()
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidDefinition);
        assert!(err.message().contains("non-empty name"));
        let err = minimal().parameters(json!("string")).build().unwrap_err();
        assert!(
            err.message()
                .contains("parameters must be a JSON Schema object"),
            "{err}"
        );
        let err = minimal()
            .parameters(json!({"default": 9007199254740993u64}))
            .build()
            .unwrap_err();
        assert!(err.message().contains("not lossless"), "{err}");
        let err = ToolDefinition::builder("t")
            .execute(|_, _| async { Ok(JsonValue::Null) })
            .build()
            .unwrap_err();
        assert!(
            err.message().contains("output declaration is required"),
            "{err}"
        );
        let err = ToolDefinition::builder("t")
            .output(ToolOutput::any())
            .build()
            .unwrap_err();
        assert!(err.message().contains("execute body is required"), "{err}");
        for bad in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            let err = minimal().timeout_ms(bad).build().unwrap_err();
            assert!(
                err.message()
                    .contains("timeout_ms must be a positive finite"),
                "{err}"
            );
        }
        assert_eq!(
            minimal().timeout_ms(1500.0).build().unwrap().timeout(),
            Some(Duration::from_millis(1500))
        );
    }

    #[test]
    fn presenters_that_panic_give_no_view() {
        let tool = minimal()
            .present_call(|_| panic!("presenter bug"))
            .present_result(|_, _| panic!("presenter bug"))
            .build()
            .unwrap();
        assert_eq!(tool.present_call(&json!({})), None);
        let result = ToolResult {
            content: vec![],
            is_error: false,
            error: None,
            meta: None,
        };
        assert_eq!(tool.present_result(&json!({}), &result), None);
    }

    #[test]
    fn json_rendering_keeps_strings_raw() {
        assert_eq!(
            render_json(&json!("a\nb")),
            vec![ContentBlock::text("a\nb")]
        );
        assert_eq!(
            render_json(&json!({"a": 1})),
            vec![ContentBlock::text("{\n  \"a\": 1\n}")]
        );
    }
}
