//! The execute pipeline, in three typed stages a caller can interleave with its own
//! scheduling (Code Mode's bridge runs them through its ordered lane):
//! [`Registry::prepare`] (materialize, token, visibility, pre-execute, guards),
//! [`Prepared::dispatch`] (around-dispatch wrappers and the body), [`Dispatched::commit`]
//! (post-execute, cancellation, `finalize_content`, materialization, observers, session
//! events). [`Registry::execute`] is the three in a row.
//!
//! Each execution is one tracing span, `execute_tool` ([`execution_span`]), opened by
//! `prepare` and closed by `commit`, with a child span per stage that can take time:
//! `policy` (the `tools/pre-execute` waterfall, when a listener is attached), `approval`
//! (an `ask` waiting for its answer) and `dispatch` (the around-dispatch chain and the body).
//! Arguments and results are recorded only with [`RegistryConfig::trace_content`]
//! (`crate::registry::RegistryConfig`).

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::FutureExt;
use tracing::field::Empty;
use tracing::{Instrument, Span};

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::journal::JournalEvent;
use crate::json::{DepthLimit, JsonValue, check_lossless_within};
use crate::tool::{
    ApprovalAnswer, ExecutionToken, PostToolDecision, PreToolDecision, Replacement, Signal,
    ToolDefinition, ToolExecution, ToolExecutionInput, ToolExecutionResult, ToolRunContext,
    ToolStatus,
};

use super::Registry;
use super::chain::{Next, contained, panic_message};
use super::listeners::{CallListeners, DispatchExecution};

/// A call after [`Registry::prepare`]: cleared for dispatch, or already failed (then
/// dispatch does nothing and commit records the failure). A caller that drops it (or the
/// [`Dispatched`] after it) instead of committing leaves a top-level call's `tool/call`
/// without its `tool/result`, and its observers uncalled: drive every stage to the end.
#[must_use = "a prepared call does nothing until it is dispatched and committed"]
pub struct Prepared {
    registry: Registry,
    execution: Arc<ToolExecution>,
    definition: Option<Arc<ToolDefinition>>,
    listeners: CallListeners,
    failed: Option<ToolExecutionResult>,
    span: Span,
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("execution", &self.execution)
            .field("failed", &self.failed.is_some())
            .finish_non_exhaustive()
    }
}

impl Prepared {
    /// The frozen call.
    pub fn execution(&self) -> &Arc<ToolExecution> {
        &self.execution
    }

    /// Whether the call already failed (it will not be dispatched).
    pub fn is_failed(&self) -> bool {
        self.failed.is_some()
    }

    /// The call's `execute_tool` span (open until the call is committed).
    pub fn span(&self) -> &Span {
        &self.span
    }
}

/// The span of one tool execution, a child of the current span: named `execute_tool`
/// (`otel.name` = `execute_tool {name}`, as OpenTelemetry's GenAI conventions name it),
/// with `gen_ai.operation.name` = `execute_tool`, `gen_ai.tool.name`,
/// `gen_ai.tool.call.id`, and, once committed, `error.type` (the stable error code of a
/// failure) and `otel.status_code`. [`Registry::prepare`] opens one itself; a caller that
/// must open it earlier (Code Mode's bridge opens a sub-call's span when the program makes
/// the call, so its wait in the queue is inside it) passes it to [`Registry::prepare_in`].
pub fn execution_span(name: &str, call_id: &str) -> Span {
    tracing::info_span!(
        "execute_tool",
        otel.name = %format_args!("execute_tool {name}"),
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = name,
        gen_ai.tool.call.id = call_id,
        gen_ai.tool.call.arguments = Empty,
        gen_ai.tool.call.result = Empty,
        error.type = Empty,
        otel.status_code = Empty,
    )
}

/// A call after [`Prepared::dispatch`]: its candidate result, not yet committed.
#[must_use = "a dispatched call's result is final only once it is committed"]
pub struct Dispatched {
    registry: Registry,
    execution: Arc<ToolExecution>,
    definition: Option<Arc<ToolDefinition>>,
    listeners: CallListeners,
    result: ToolExecutionResult,
    /// Whether the result came from the dispatch stage (post-execute sees it) rather than
    /// from a failure before dispatch.
    dispatched: bool,
    body_invoked: bool,
    span: Span,
}

impl std::fmt::Debug for Dispatched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dispatched")
            .field("execution", &self.execution)
            .field("dispatched", &self.dispatched)
            .finish_non_exhaustive()
    }
}

impl Dispatched {
    /// The frozen call.
    pub fn execution(&self) -> &Arc<ToolExecution> {
        &self.execution
    }
}

/// Runs `future`, but once `signal` fires, waits at most `grace` for it before giving up
/// (dropping it). `None` means it was abandoned.
async fn bounded<T>(
    signal: &Signal,
    grace: Duration,
    future: impl Future<Output = T>,
) -> Option<T> {
    let cancelled = signal.cancelled();
    tokio::select! {
        biased;
        value = future => Some(value),
        _ = async { cancelled.await; tokio::time::sleep(grace).await } => None,
    }
}

fn aborted_before_dispatch(name: &str) -> Error {
    Error::new(
        ErrorCode::AbortedBeforeDispatch,
        format!("the call to `{name}` was cancelled before the tool started"),
    )
}

fn aborted(name: &str) -> Error {
    Error::new(
        ErrorCode::Aborted,
        format!("the call to `{name}` was cancelled"),
    )
}

impl Registry {
    /// Stage 1 of the pipeline: materialize and freeze the call, assign its token, resolve
    /// visibility, run `tools/pre-execute` and the guards. Records `tool/call` for a
    /// top-level call. The first failure wins, in this order: arguments that are not
    /// lossless JSON (`INVALID_ARGS`), a signal already cancelled
    /// (`ABORTED_BEFORE_DISPATCH`), visibility (`UNKNOWN_TOOL`), then the policy stages.
    pub async fn prepare(&self, input: ToolExecutionInput) -> Prepared {
        let span = execution_span(&input.name, &input.call_id);
        self.prepare_in(span, input).await
    }

    /// [`Registry::prepare`] inside `span`, the call's execution span (made by
    /// [`execution_span`]): the stages' spans are its children, and `commit` closes it.
    pub async fn prepare_in(&self, span: Span, input: ToolExecutionInput) -> Prepared {
        let work = span.clone();
        self.prepare_spanned(span, input).instrument(work).await
    }

    async fn prepare_spanned(&self, span: Span, input: ToolExecutionInput) -> Prepared {
        if self.inner.config.trace_content && !span.is_disabled() {
            span.record(
                "gen_ai.tool.call.arguments",
                input.arguments.to_string().as_str(),
            );
        }
        let depth = self.inner.config.value_depth.get();
        let lossless = check_lossless_within(&input.arguments, depth);
        let call_id = input.call_id;
        let execution = Arc::new(ToolExecution {
            root_call_id: input.root_call_id.unwrap_or_else(|| call_id.clone()),
            call_id,
            name: input.name,
            arguments: Arc::new(input.arguments),
            agent: input.agent,
            parent: input.parent,
            token: ExecutionToken::next(),
            signal: input.signal,
            progress: input.progress,
        });
        let listeners = self.call_listeners(execution.agent);
        if execution.parent.is_none() {
            self.emit(JournalEvent::ToolCall {
                call_id: execution.call_id.clone(),
                name: execution.name.clone(),
                arguments: crate::json::deep_clone(&execution.arguments),
            })
            .await;
        }

        let mut prepared = Prepared {
            registry: self.clone(),
            definition: None,
            listeners,
            failed: None,
            execution,
            span,
        };
        let failure = self.clear(&mut prepared, lossless.err()).await;
        prepared.failed = failure.map(ToolExecutionResult::failure);
        prepared
    }

    /// The checks of `prepare`, in order; the first failure wins.
    async fn clear(
        &self,
        prepared: &mut Prepared,
        not_lossless: Option<crate::json::NotLossless>,
    ) -> Option<Error> {
        let execution = prepared.execution.clone();
        let name = execution.name.as_str();
        let scope = self.scope_of(execution.agent);
        // Materializing the arguments comes first, as upstream: arguments that are not
        // lossless JSON are an arguments error whatever follows — also for a call already
        // cancelled, or one naming a tool it cannot see. A tool it can see still finalizes
        // the failure's content.
        if let Some(err) = not_lossless {
            if scope.admit(&execution).is_ok() {
                prepared.definition = scope.get(name);
            }
            return Some(Error::new(
                ErrorCode::InvalidArgs,
                format!("invalid arguments: not lossless JSON: {err}"),
            ));
        }
        // Then cancellation, before visibility and everything after it: a call cancelled
        // before it entered is aborted before dispatch whatever it names (even where Code
        // Mode hides it).
        if execution.signal.is_cancelled() {
            return Some(aborted_before_dispatch(name));
        }
        if let Err(err) = scope.admit(&execution) {
            return Some(err);
        }
        let Some(definition) = scope.get(name) else {
            return Some(unknown_tool(name));
        };
        prepared.definition = Some(definition);

        let grace = self.inner.config.cancel_grace;
        let chain = Next::new(
            "a tools/pre-execute listener",
            prepared.listeners.pre.clone(),
            Arc::new(|_| Box::pin(async { Ok(PreToolDecision::Allow) })),
            execution.clone(),
        );
        let waterfall = bounded(&execution.signal, grace, chain.run());
        let outcome = if prepared.listeners.pre.is_empty() {
            waterfall.await
        } else {
            waterfall.instrument(tracing::info_span!("policy")).await
        };
        let decision = match outcome {
            None => return Some(aborted_before_dispatch(name)),
            Some(Err(err)) => return Some(err),
            Some(Ok(decision)) => decision,
        };
        match decision {
            PreToolDecision::Allow => {}
            PreToolDecision::Deny { reason } => {
                let reason = if reason.trim().is_empty() {
                    "denied by policy".to_owned()
                } else {
                    reason
                };
                return Some(Error::new(
                    ErrorCode::ToolDenied,
                    format!("the call to `{name}` was denied: {reason}"),
                ));
            }
            PreToolDecision::Ask { reason } => {
                let approval = self.approve(&execution, reason);
                if let Some(err) = approval.instrument(tracing::info_span!("approval")).await {
                    return Some(err);
                }
            }
        }
        if execution.signal.is_cancelled() {
            return Some(aborted_before_dispatch(name));
        }
        for guard in prepared.listeners.guards.iter() {
            match std::panic::catch_unwind(AssertUnwindSafe(|| guard(&execution))) {
                Ok(None) => {}
                Ok(Some(reason)) => {
                    return Some(Error::new(
                        ErrorCode::GuardDenied,
                        format!("the call to `{name}` was denied by a guard: {reason}"),
                    ));
                }
                Err(panic) => {
                    return Some(Error::new(
                        ErrorCode::ListenerFailed,
                        format!(
                            "a guard failed, so the call to `{name}` was denied: {}",
                            panic_message(&panic)
                        ),
                    ));
                }
            }
        }
        None
    }

    /// Resolves an `ask`: only `allowed-once` proceeds.
    async fn approve(
        &self,
        execution: &Arc<ToolExecution>,
        reason: Option<String>,
    ) -> Option<Error> {
        let name = &execution.name;
        let why = reason
            .as_deref()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        let denied = |detail: String| Some(Error::new(ErrorCode::ApprovalDenied, detail));
        if execution.agent.is_none() {
            return denied(format!(
                "the call to `{name}` needs approval{why}, but it runs for no agent that could be asked"
            ));
        }
        let Some(service) = self.inner.approval.read().clone() else {
            return denied(format!(
                "the call to `{name}` needs approval{why}, but no approval service is available"
            ));
        };
        let request = contained("the approval service", async {
            Ok::<_, Error>(service.request(execution.clone(), reason.clone()).await)
        });
        let answer = match bounded(&execution.signal, self.inner.config.cancel_grace, request).await
        {
            None => return Some(aborted_before_dispatch(name)),
            Some(Err(err)) => {
                return denied(format!(
                    "the call to `{name}` needs approval{why}: {}",
                    err.message()
                ));
            }
            Some(Ok(answer)) => answer,
        };
        match answer {
            ApprovalAnswer::AllowedOnce => None,
            ApprovalAnswer::Rejected => denied(format!(
                "the call to `{name}` was rejected by the approver{why}"
            )),
            ApprovalAnswer::Cancelled => denied(format!(
                "the approval request for `{name}` was cancelled{why}"
            )),
            ApprovalAnswer::Unavailable => {
                // A service's own code: a panic in it is the default text.
                let instead =
                    std::panic::catch_unwind(AssertUnwindSafe(|| service.unavailable(execution)))
                        .ok()
                        .flatten()
                        .unwrap_or_else(|| "the approver is unavailable".to_owned());
                denied(format!(
                    "the call to `{name}` needs approval{why}, but {instead}"
                ))
            }
        }
    }
}

impl Prepared {
    /// Stage 2: the around-dispatch chain (the timeout policy innermost) around the body.
    pub async fn dispatch(self) -> Dispatched {
        let Prepared {
            registry,
            execution,
            definition,
            listeners,
            failed,
            span,
        } = self;
        let (Some(definition), None) = (definition.clone(), failed.as_ref()) else {
            let result = failed
                .unwrap_or_else(|| ToolExecutionResult::failure(unknown_tool(&execution.name)));
            return Dispatched {
                registry,
                execution,
                definition,
                listeners,
                result,
                dispatched: false,
                body_invoked: false,
                span,
            };
        };
        if execution.signal.is_cancelled() {
            return Dispatched {
                registry,
                result: ToolExecutionResult::failure(aborted_before_dispatch(&execution.name)),
                execution,
                definition: Some(definition),
                listeners,
                dispatched: false,
                body_invoked: false,
                span,
            };
        }

        let body_invoked = Arc::new(AtomicBool::new(false));
        let base = {
            let definition = definition.clone();
            let body_invoked = body_invoked.clone();
            let grace = registry.inner.config.cancel_grace;
            let depth = registry.inner.config.value_depth;
            Arc::new(move |dispatch: DispatchExecution| {
                let definition = definition.clone();
                let body_invoked = body_invoked.clone();
                async move { Ok(run_body(definition, dispatch, body_invoked, grace, depth).await) }
                    .boxed()
            })
        };
        let mut chain: Vec<_> = listeners.around.to_vec();
        if registry.inner.config.enforce_timeouts
            && let Some(timeout) = definition.timeout()
        {
            chain.push(super::timeout::policy(timeout));
        }
        let next = Next::new(
            "a tools/execute wrapper",
            chain.into(),
            base,
            DispatchExecution::new(execution.clone()),
        )
        .recovering(|err| Ok(ToolExecutionResult::failure(err)));
        let stage = tracing::info_span!(parent: &span, "dispatch");
        let result = next
            .run()
            .instrument(stage)
            .await
            .unwrap_or_else(ToolExecutionResult::failure);
        Dispatched {
            registry,
            execution,
            definition: Some(definition),
            listeners,
            result,
            dispatched: true,
            body_invoked: body_invoked.load(Ordering::SeqCst),
            span,
        }
    }
}

impl Dispatched {
    /// Stage 3: post-execute, cancellation, `finalize_content` exactly once,
    /// materialization, observers and the `tool/result` event. Returns the frozen result.
    pub async fn commit(self) -> Arc<ToolExecutionResult> {
        let span = self.span.clone();
        let record = self.registry.inner.config.trace_content;
        let result = self.commit_spanned().instrument(span.clone()).await;
        if let Some(failure) = result.failure_info() {
            // The code only: a failure's message may quote what the call carried.
            span.in_scope(|| tracing::debug!(code = failure.code.as_str(), "the call failed"));
        }
        if !span.is_disabled() {
            if let Some(failure) = result.failure_info() {
                span.record("error.type", failure.code.as_str());
                span.record("otel.status_code", "ERROR");
            }
            if record {
                span.record("gen_ai.tool.call.result", result_text(&result).as_str());
            }
        }
        result
    }

    async fn commit_spanned(self) -> Arc<ToolExecutionResult> {
        let Dispatched {
            registry,
            execution,
            definition,
            listeners,
            mut result,
            dispatched,
            body_invoked,
            span: _,
        } = self;
        let name = execution.name.clone();

        if dispatched {
            result = registry
                .post_execute(&execution, definition.as_deref(), &listeners, result)
                .await;
            if execution.signal.is_cancelled() && !result.is_error() {
                let err = if body_invoked {
                    aborted(&name)
                } else {
                    aborted_before_dispatch(&name)
                };
                result = with_contexts_of(ToolExecutionResult::failure(err), result);
            }
        }

        if let Some(definition) = &definition
            && let Some(finalize) = definition.finalize_content.clone()
        {
            match std::panic::catch_unwind(AssertUnwindSafe(|| finalize(&execution, &result))) {
                Ok(None) => {}
                Ok(Some(content)) => match validate_blocks(&content) {
                    Ok(()) => result.content = content,
                    Err(err) => {
                        result = with_contexts_of(
                            ToolExecutionResult::failure(Error::new(
                                ErrorCode::ToolFailed,
                                format!(
                                    "`{name}`'s finalize_content returned invalid content: {}",
                                    err.message()
                                ),
                            )),
                            result,
                        )
                    }
                },
                Err(panic) => {
                    result = with_contexts_of(
                        ToolExecutionResult::failure(Error::new(
                            ErrorCode::ToolFailed,
                            format!(
                                "`{name}`'s finalize_content panicked: {}",
                                panic_message(&panic)
                            ),
                        )),
                        result,
                    )
                }
            }
        }

        let depth = registry.inner.config.value_depth.get();
        let result = Arc::new(materialize(result, definition.as_deref(), depth));
        for observer in listeners.results.iter() {
            if let Err(panic) =
                std::panic::catch_unwind(AssertUnwindSafe(|| observer(&execution, &result)))
            {
                tracing::warn!(tool = %name, panic = %panic_message(&panic), "a tools/result observer panicked");
            }
        }
        if execution.parent.is_none() {
            registry
                .emit(JournalEvent::ToolResult {
                    call_id: execution.call_id.clone(),
                    name,
                    content: result.content.clone(),
                    is_error: result.is_error(),
                    error: result.failure_info().cloned(),
                    meta: result.meta.clone(),
                })
                .await;
        }
        result
    }
}

impl Registry {
    async fn post_execute(
        &self,
        execution: &Arc<ToolExecution>,
        definition: Option<&ToolDefinition>,
        listeners: &CallListeners,
        result: ToolExecutionResult,
    ) -> ToolExecutionResult {
        if listeners.post.is_empty() {
            return result;
        }
        let shared = Arc::new(result);
        let chain = Next::new(
            "a tools/post-execute listener",
            listeners.post.clone(),
            Arc::new(|_| Box::pin(async { Ok(PostToolDecision::accept()) })),
            (execution.clone(), shared.clone()),
        );
        let decision = bounded(
            &execution.signal,
            self.inner.config.cancel_grace,
            chain.run(),
        )
        .await;
        let result = Arc::try_unwrap(shared).unwrap_or_else(|shared| (*shared).clone());
        let name = &execution.name;
        match decision {
            None => with_contexts_of(ToolExecutionResult::failure(aborted(name)), result),
            Some(Err(err)) => with_contexts_of(ToolExecutionResult::failure(err), result),
            Some(Ok(PostToolDecision::Block {
                feedback,
                additional_contexts,
            })) => {
                let message = crate::content::text_of(&feedback);
                let message = if message.is_empty() {
                    format!("the result of `{name}` was blocked by policy")
                } else {
                    message
                };
                let mut blocked =
                    ToolExecutionResult::failure(Error::new(ErrorCode::ResultBlocked, message));
                if let Err(err) = validate_blocks(&feedback) {
                    return with_contexts_of(
                        ToolExecutionResult::failure(listener_failure(name, err)),
                        result,
                    );
                }
                blocked.content = feedback;
                // The blocked call's own deferred contexts go with what was blocked (a policy
                // must not leak what it blocks); only the listener's contexts are kept.
                drop(result);
                blocked.additional_contexts = additional_contexts;
                blocked
            }
            Some(Ok(PostToolDecision::Accept {
                replace,
                additional_contexts,
            })) => {
                let mut accepted = match replace {
                    None => result,
                    Some(Replacement::Content(content)) => match validate_blocks(&content) {
                        Ok(()) => ToolExecutionResult { content, ..result },
                        Err(err) => with_contexts_of(
                            ToolExecutionResult::failure(listener_failure(name, err)),
                            result,
                        ),
                    },
                    Some(Replacement::Value(value)) => match (&result.status, definition) {
                        (ToolStatus::Success { concludes_turn, .. }, Some(definition)) => {
                            let concludes_turn = *concludes_turn;
                            let contexts = result.additional_contexts.clone();
                            let depth = self.inner.config.value_depth.get();
                            let mut replaced = normalize_value(definition, execution, value, depth);
                            if let ToolStatus::Success {
                                concludes_turn: c, ..
                            } = &mut replaced.status
                            {
                                *c = concludes_turn;
                            }
                            replaced.additional_contexts = contexts;
                            replaced
                        }
                        _ => with_contexts_of(
                            ToolExecutionResult::failure(Error::new(
                                ErrorCode::ListenerFailed,
                                format!(
                                    "a tools/post-execute listener tried to replace the value of the failed call to `{name}`"
                                ),
                            )),
                            result,
                        ),
                    },
                };
                accepted.additional_contexts.extend(additional_contexts);
                accepted
            }
        }
    }
}

/// What a span records as a call's result (with `trace_content`): a success's value as
/// JSON, a failure's message.
fn result_text(result: &ToolExecutionResult) -> String {
    match &result.status {
        ToolStatus::Success { value, .. } => value.to_string(),
        ToolStatus::Failure(failure) => failure.message.clone(),
    }
}

fn unknown_tool(name: &str) -> Error {
    Error::new(ErrorCode::UnknownTool, format!("unknown tool `{name}`"))
}

fn listener_failure(name: &str, err: Error) -> Error {
    Error::new(
        ErrorCode::ListenerFailed,
        format!(
            "a tools/post-execute listener returned invalid content for `{name}`: {}",
            err.message()
        ),
    )
}

fn validate_blocks(blocks: &[ContentBlock]) -> Result<(), Error> {
    blocks.iter().try_for_each(ContentBlock::validate)
}

/// `replacement`, keeping the additional contexts `previous` had collected.
fn with_contexts_of(
    mut replacement: ToolExecutionResult,
    previous: ToolExecutionResult,
) -> ToolExecutionResult {
    let mut contexts = previous.additional_contexts;
    contexts.append(&mut replacement.additional_contexts);
    replacement.additional_contexts = contexts;
    replacement
}

/// The core dispatch: the body inside its error boundary (panics and errors become error
/// results; a body that ignores cancellation is abandoned after the grace period), then
/// output normalization.
async fn run_body(
    definition: Arc<ToolDefinition>,
    dispatch: DispatchExecution,
    body_invoked: Arc<AtomicBool>,
    grace: Duration,
    depth: DepthLimit,
) -> ToolExecutionResult {
    let execution = dispatch.execution().clone();
    let name = execution.name.clone();
    // The caller's signal is fused back in: a wrapper's substitute cannot detach it. (Not
    // fused with itself when nothing was substituted: each extra source costs a forwarding
    // task wherever a single token is asked for.)
    let signal = dispatch.body_signal();
    if signal.is_cancelled() {
        return ToolExecutionResult::failure(aborted_before_dispatch(&name));
    }
    let (context, effects) = ToolRunContext::new(execution.clone(), signal.clone(), depth);
    body_invoked.store(true, Ordering::SeqCst);
    let body =
        AssertUnwindSafe((definition.execute)(execution.arguments.clone(), context)).catch_unwind();
    let outcome = bounded(&signal, grace, body).await;
    let effects = std::mem::take(&mut *effects.lock());
    let mut result = match outcome {
        None => ToolExecutionResult::failure(Error::new(
            ErrorCode::Aborted,
            format!(
                "the tool `{name}` did not stop within {} ms of cancellation and was abandoned",
                grace.as_millis()
            ),
        )),
        Some(Err(panic)) => ToolExecutionResult::failure(Error::new(
            ErrorCode::ToolFailed,
            format!("the tool `{name}` panicked: {}", panic_message(&panic)),
        )),
        Some(Ok(Err(err))) => {
            let err = if err.message().is_empty() {
                Error::new(err.code(), format!("the tool `{name}` failed"))
            } else {
                err
            };
            ToolExecutionResult::failure(err)
        }
        Some(Ok(Ok(value))) => normalize_value(&definition, &execution, value, depth.get()),
    };
    result.additional_contexts = effects.deferred;
    if effects.concludes_turn
        && let ToolStatus::Success { concludes_turn, .. } = &mut result.status
    {
        *concludes_turn = true;
    }
    result
}

/// Checks a value (lossless and within `depth` levels, output schema), renders it, and
/// computes presentation meta for a top-level call.
fn normalize_value(
    definition: &ToolDefinition,
    execution: &ToolExecution,
    value: JsonValue,
    depth: usize,
) -> ToolExecutionResult {
    let name = &execution.name;
    if let Err(err) = check_lossless_within(&value, depth) {
        return ToolExecutionResult::failure(Error::new(
            ErrorCode::InvalidToolOutput,
            format!("invalid tool output:\n- {err}"),
        ));
    }
    if let Err(err) =
        crate::schema::validate_output_within(definition.output.schema(), &value, depth)
    {
        return ToolExecutionResult::failure(err);
    }
    let args = &execution.arguments;
    let render = definition.output.render.clone();
    let content = match std::panic::catch_unwind(AssertUnwindSafe(|| render(args, &value))) {
        Ok(content) => content,
        Err(panic) => {
            return ToolExecutionResult::failure(Error::new(
                ErrorCode::ToolFailed,
                format!(
                    "rendering the result of `{name}` panicked: {}",
                    panic_message(&panic)
                ),
            ));
        }
    };
    if let Err(err) = validate_blocks(&content) {
        return ToolExecutionResult::failure(Error::new(
            ErrorCode::ToolFailed,
            format!("`{name}` rendered invalid content: {}", err.message()),
        ));
    }
    let meta = match (&definition.output.presentation_meta, execution.parent) {
        (Some(project), None) => match std::panic::catch_unwind(AssertUnwindSafe(|| {
            project(args, &value)
        })) {
            Ok(meta) => match check_lossless_within(&meta, depth) {
                Ok(()) => Some(meta),
                Err(err) => {
                    return ToolExecutionResult::failure(Error::new(
                        ErrorCode::ToolFailed,
                        format!("the presentation meta of `{name}` is not lossless JSON: {err}"),
                    ));
                }
            },
            Err(panic) => {
                return ToolExecutionResult::failure(Error::new(
                    ErrorCode::ToolFailed,
                    format!(
                        "the presentation meta of `{name}` panicked: {}",
                        panic_message(&panic)
                    ),
                ));
            }
        },
        _ => None,
    };
    let mut result = ToolExecutionResult::success(value, content);
    result.meta = meta;
    result
}

/// The last check before a result is frozen: everything durable is lossless JSON and a
/// success's value still satisfies the output schema (a wrapper may have short-circuited
/// the body), everything within `depth` levels.
fn materialize(
    result: ToolExecutionResult,
    definition: Option<&ToolDefinition>,
    depth: usize,
) -> ToolExecutionResult {
    let problem = match (&result.status, definition) {
        (ToolStatus::Success { value, .. }, Some(definition)) => {
            check_lossless_within(value, depth)
                .map_err(|err| {
                    Error::new(
                        ErrorCode::InvalidToolOutput,
                        format!("invalid tool output:\n- {err}"),
                    )
                })
                .and_then(|()| {
                    crate::schema::validate_output_within(definition.output.schema(), value, depth)
                })
                .err()
        }
        _ => None,
    };
    let problem = problem.or_else(|| {
        result
            .meta
            .as_ref()
            .and_then(|meta| check_lossless_within(meta, depth).err())
            .map(|err| {
                Error::new(
                    ErrorCode::ToolFailed,
                    format!("presentation meta is not lossless JSON: {err}"),
                )
            })
    });
    match problem {
        Some(err) => with_contexts_of(ToolExecutionResult::failure(err), result),
        None => result,
    }
}
