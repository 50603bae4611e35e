//! `define_tool`: a tool whose arguments and output are serde types, checked against the
//! schema DSL before the body sees them and after it returns.

use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;
use crate::presentation::{ToolCallView, ToolResultView};
use crate::schema::{ParameterSchema, Typed, ValueSchema};

use super::{
    ToolDefinition, ToolExecution, ToolExecutionResult, ToolOutput, ToolResult, ToolRunContext,
};

type TypedRender<A, O> = dyn Fn(&A, &O) -> Vec<ContentBlock> + Send + Sync;
type TypedMeta<A, O> = dyn Fn(&A, &O) -> JsonValue + Send + Sync;
type TypedClassify<A> = dyn Fn(&A) -> bool + Send + Sync;
type TypedPresentCall<A> = dyn Fn(&A) -> Option<ToolCallView> + Send + Sync;
type TypedPresentResult<A> = dyn Fn(&A, &ToolResult) -> Option<ToolResultView> + Send + Sync;
type FinalizeFn =
    dyn Fn(&ToolExecution, &ToolExecutionResult) -> Option<Vec<ContentBlock>> + Send + Sync;
type TypedBody<A, O> = dyn Fn(A, ToolRunContext) -> futures::future::BoxFuture<'static, Result<O, Error>>
    + Send
    + Sync;

/// Starts a typed tool definition: arguments `A` and output `O` are serde types; the
/// parameter and output schemas are written in the DSL. Arguments are validated before the
/// body runs (`INVALID_ARGS`, every violation listed) and the returned value is serialized
/// losslessly and validated (`INVALID_TOOL_OUTPUT`). The classifier and presenters receive
/// the typed arguments; arguments that fail to decode make the call exclusive and the
/// presenters return no view.
///
/// ```
/// use codemode::schema::{ParameterSchema, ValueSchema};
/// use codemode::tool::define_tool;
/// use codemode::ContentBlock;
///
/// #[derive(serde::Deserialize)]
/// struct Args { a: f64, b: f64 }
///
/// let add = define_tool::<Args, f64>("add")
///     .description("Add two numbers.")
///     .parameters(ParameterSchema::new()
///         .required("a", ValueSchema::number())
///         .required("b", ValueSchema::number()))
///     .output(ValueSchema::number(), |_args, sum| vec![ContentBlock::text(sum.to_string())])
///     .concurrency_safe(|_| true)
///     .execute(|args, _ctx| async move { Ok(args.a + args.b) })
///     .build()
///     .unwrap();
/// assert_eq!(add.name(), "add");
/// ```
pub fn define_tool<A, O>(name: impl Into<String>) -> TypedToolBuilder<A, O>
where
    A: DeserializeOwned + Send + 'static,
    O: Serialize + DeserializeOwned + Send + 'static,
{
    TypedToolBuilder {
        name: name.into(),
        description: String::new(),
        parameters: ParameterSchema::new(),
        closed: false,
        output: None,
        meta: None,
        body: None,
        timeout_ms: None,
        classify: None,
        always_parallel: false,
        present_call: None,
        present_result: None,
        finalize: None,
        _types: PhantomData,
    }
}

/// Builder of a typed tool; see [`define_tool`].
pub struct TypedToolBuilder<A, O> {
    name: String,
    description: String,
    parameters: ParameterSchema,
    /// Whether undeclared argument keys are refused.
    closed: bool,
    output: Option<(ValueSchema, Arc<TypedRender<A, O>>)>,
    meta: Option<Arc<TypedMeta<A, O>>>,
    body: Option<Arc<TypedBody<A, O>>>,
    timeout_ms: Option<f64>,
    classify: Option<Arc<TypedClassify<A>>>,
    always_parallel: bool,
    present_call: Option<Arc<TypedPresentCall<A>>>,
    present_result: Option<Arc<TypedPresentResult<A>>>,
    finalize: Option<Arc<FinalizeFn>>,
    _types: PhantomData<fn() -> (A, O)>,
}

impl<A, O> std::fmt::Debug for TypedToolBuilder<A, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedToolBuilder")
            .field("name", &self.name)
            .field("closed", &self.closed)
            .field("has_body", &self.body.is_some())
            .field("timeout_ms", &self.timeout_ms)
            .finish_non_exhaustive()
    }
}

impl<A, O> TypedToolBuilder<A, O>
where
    A: DeserializeOwned + Send + 'static,
    O: Serialize + DeserializeOwned + Send + 'static,
{
    /// What the tool does.
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = text.into();
        self
    }

    /// The parameters. As the spec's parameter definitions are, the object is open: keys
    /// it does not declare are allowed (and ignored by the decoder).
    pub fn parameters(mut self, parameters: ParameterSchema) -> Self {
        self.parameters = parameters;
        self.closed = false;
        self
    }

    /// The parameters, closed: a key the tool does not declare is `INVALID_ARGS` naming
    /// the key (`additionalProperties: false`), so a misspelt option is refused instead of
    /// silently ignored. The built-in tools declare theirs this way.
    pub fn closed_parameters(mut self, parameters: ParameterSchema) -> Self {
        self.parameters = parameters;
        self.closed = true;
        self
    }

    /// The output schema and the pure renderer of a value to model-facing content.
    pub fn output(
        mut self,
        schema: ValueSchema,
        render: impl Fn(&A, &O) -> Vec<ContentBlock> + Send + Sync + 'static,
    ) -> Self {
        self.output = Some((schema, Arc::new(render)));
        self
    }

    /// A replayable presentation projection of top-level results.
    pub fn presentation_meta(
        mut self,
        meta: impl Fn(&A, &O) -> JsonValue + Send + Sync + 'static,
    ) -> Self {
        self.meta = Some(Arc::new(meta));
        self
    }

    /// The body.
    pub fn execute<F, Fut>(mut self, body: F) -> Self
    where
        F: Fn(A, ToolRunContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, Error>> + Send + 'static,
    {
        self.body = Some(Arc::new(move |args, ctx| Box::pin(body(args, ctx))));
        self
    }

    /// A cooperative time budget in milliseconds.
    pub fn timeout_ms(mut self, ms: f64) -> Self {
        self.timeout_ms = Some(ms);
        self
    }

    /// The concurrency classifier (`true` = may overlap with siblings).
    pub fn concurrency_safe(
        mut self,
        classify: impl Fn(&A) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.classify = Some(Arc::new(classify));
        self
    }

    /// Every call with well-formed arguments may overlap with its siblings (a read-only
    /// tool); malformed arguments still make the call exclusive.
    pub fn always_concurrency_safe(mut self) -> Self {
        self.classify = Some(Arc::new(|_| true));
        self.always_parallel = true;
        self
    }

    /// The pending-state presenter.
    pub fn present_call(
        mut self,
        present: impl Fn(&A) -> Option<ToolCallView> + Send + Sync + 'static,
    ) -> Self {
        self.present_call = Some(Arc::new(present));
        self
    }

    /// The completed-state presenter.
    pub fn present_result(
        mut self,
        present: impl Fn(&A, &ToolResult) -> Option<ToolResultView> + Send + Sync + 'static,
    ) -> Self {
        self.present_result = Some(Arc::new(present));
        self
    }

    /// The last-mile content transform (untyped: it also sees invalid calls).
    pub fn finalize_content(
        mut self,
        finalize: impl Fn(&ToolExecution, &ToolExecutionResult) -> Option<Vec<ContentBlock>>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        self.finalize = Some(Arc::new(finalize));
        self
    }

    /// Compiles the schemas and produces the definition.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::UnsupportedSchema`] when the parameter or output schema does not compile;
    /// [`ErrorCode::InvalidDefinition`] when no output or body is set, or as
    /// [`ToolBuilder::build`](crate::tool::ToolBuilder::build) refuses the definition.
    pub fn build(self) -> Result<ToolDefinition, Error> {
        let name = self.name;
        let args_schema: Typed<A> = if self.closed {
            Typed::closed_parameters(self.parameters)?
        } else {
            Typed::parameters(self.parameters)?
        };
        let Some((output_schema, render)) = self.output else {
            return Err(Error::new(
                ErrorCode::InvalidDefinition,
                format!("tool `{name}`: an output declaration is required"),
            ));
        };
        let output_typed: Typed<O> = Typed::value(output_schema)?;
        let Some(body) = self.body else {
            return Err(Error::new(
                ErrorCode::InvalidDefinition,
                format!("tool `{name}`: an execute body is required"),
            ));
        };

        let decode_args = {
            let schema = args_schema.clone();
            move |args: &JsonValue| schema.decode_args(args)
        };
        let decode_value = {
            let schema = output_typed.clone();
            move |value: &JsonValue| schema.decode_output(value)
        };

        let mut output = ToolOutput::new(output_typed.schema().clone(), {
            let decode_args = decode_args.clone();
            let decode_value = decode_value.clone();
            move |args, value| match (decode_args(args), decode_value(value)) {
                (Ok(args), Ok(value)) => render(&args, &value),
                // Unreachable after validation; render the raw value rather than nothing.
                _ => super::render_json(value),
            }
        });
        if let Some(meta) = self.meta {
            let decode_args = decode_args.clone();
            let decode_value = decode_value.clone();
            output = output.with_presentation_meta(move |args, value| {
                match (decode_args(args), decode_value(value)) {
                    (Ok(args), Ok(value)) => meta(&args, &value),
                    _ => JsonValue::Null,
                }
            });
        }

        let mut builder = ToolDefinition::builder(name)
            .description(self.description)
            .parameters(crate::json::deep_clone(args_schema.schema().as_json()))
            .output(output)
            .execute({
                let args_schema = args_schema.clone();
                let output_typed = output_typed.clone();
                move |args: Arc<JsonValue>, ctx| {
                    let decoded = args_schema.decode_args(&args);
                    let body = body.clone();
                    let output_typed = output_typed.clone();
                    async move {
                        let value = body(decoded?, ctx).await?;
                        output_typed.encode_output(&value)
                    }
                }
            });
        if let Some(ms) = self.timeout_ms {
            builder = builder.timeout_ms(ms);
        }
        if let Some(classify) = self.classify {
            let decode_args = decode_args.clone();
            builder = builder
                .concurrency_safe(move |args| decode_args(args).is_ok_and(|args| classify(&args)));
            if self.always_parallel {
                builder = builder.declare_parallel();
            }
        }
        if let Some(present) = self.present_call {
            let decode_args = decode_args.clone();
            builder = builder
                .present_call(move |args| decode_args(args).ok().and_then(|args| present(&args)));
        }
        if let Some(present) = self.present_result {
            let decode_args = decode_args.clone();
            builder = builder.present_result(move |args, result| {
                decode_args(args)
                    .ok()
                    .and_then(|args| present(&args, result))
            });
        }
        if let Some(finalize) = self.finalize {
            builder = builder.finalize_content(move |exec, result| finalize(exec, result));
        }
        builder.build()
    }
}
