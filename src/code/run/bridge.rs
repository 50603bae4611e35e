//! The `run_code` dispatch bridge: turns each `await tools.name(args)` of a running
//! program into a nested call of the registry's pipeline.
//!
//! Per run: the n-th binding call (counted from 1) gets the id `<run_code call id>:code:<n>`
//! and the run's token as `parent`. One ordered lane does, in submission order, each call's start (the
//! `tool/code-dispatch-start` event, pre-execute and guards); the around-dispatch stage and
//! the body overlap, up to `max_parallel_sub_calls` for calls classified parallel just
//! before they start; an exclusive call waits for every earlier call to commit, runs alone
//! and holds the barrier through its own commit; commits (post-execute, finalize, result,
//! the `tools/code-dispatch-log` waterfall and the `tool/code-dispatch` event) happen in
//! submission order. When the run settles for any reason, a run-scoped signal fires:
//! queued calls are abandoned (they go through the pipeline as `ABORTED_BEFORE_DISPATCH`,
//! no listener or body running), in-flight ones are cancelled and drained, and every call's
//! log — started or abandoned, in submission order — lands before `run_code` returns. Only
//! a call the lane started has a `tool/code-dispatch-start` event: an abandoned one is
//! logged once, by its final `tool/code-dispatch` record.
//!
//! Each call's `execute_tool` span ([`execution_span`]) opens when the program makes the
//! call, as a child of the run's span, so the spans of a run's calls start in submission
//! order whatever order they run in; its first child, `queue`, is the wait for the lane.
//!
//! This module owns the per-run bookkeeping; it drives the registry only through its
//! public staged pipeline ([`Registry::prepare`] → dispatch → commit) and lane. It must not
//! know how programs run (that is the [`crate::runtime`] seam) or how results are shown to
//! the model.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use futures::FutureExt as _;
use futures::future::BoxFuture;
use parking_lot::Mutex;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::instrument::WithSubscriber as _;
use tracing::{Dispatch, Instrument as _, Span};

use crate::content::{ContentBlock, MessageSource, UserMessage};
use crate::journal::JournalEvent;
use crate::json::{JsonValue, check_lossless_within, deep_clone};
use crate::registry::scheduler::{Admission, Lane, Ticket};
use crate::registry::{Registry, execution_span};
use crate::runtime::{BindingHost, CallAnswer, CallError};
use crate::tool::{Signal, ToolExecution, ToolExecutionInput, ToolExecutionResult};

use super::dispatch_log::{CodeDispatchLog, logged_content};
use super::record::{SubCallHooks, SubCallRecord};

/// The state of one `run_code` run's bindings.
pub(crate) struct RunBridge {
    registry: Registry,
    hooks: Arc<dyn SubCallHooks>,
    outer: Arc<ToolExecution>,
    lane: Arc<Lane>,
    /// Fires when the run settles (or the caller cancels): sub-calls are cancelled, and
    /// calls whose turn has not come are abandoned.
    run_signal: CancellationToken,
    /// Commits and logs every call — started or abandoned — in submission order.
    log_order: Arc<Sequence>,
    /// The sub-call tasks not yet finished. Counted, not kept: a run may make millions of
    /// calls, and holding each finished task until the run settles grew the heap by a
    /// task's size per call.
    tasks: TaskTracker,
    deferred: Mutex<Vec<(u64, Vec<UserMessage>, bool)>>,
    started_at: std::time::Instant,
    /// The run's span: every call's span is its child. Let go when the run settles: the
    /// bridge may outlive the run (the engine holds its binding host), and a span stays
    /// open — its ancestors too — while a handle to it lives.
    span: Mutex<Span>,
    /// The subscriber of the run's span, if one took it: the program calls from the
    /// engine's thread and the calls run as tasks, where a subscriber set only for the
    /// host's thread ([`tracing::subscriber::set_default`]) would not be seen. Used only
    /// where there is no subscriber otherwise (no global one): a scoped subscriber, while
    /// set, sends every span and event of the process through a thread-local look-up.
    dispatch: Option<Dispatch>,
    /// How many calls the program made (refused ones not counted).
    calls: AtomicU64,
}

impl RunBridge {
    pub(super) fn new(
        registry: Registry,
        hooks: Arc<dyn SubCallHooks>,
        outer: Arc<ToolExecution>,
        caller: &Signal,
        span: Span,
    ) -> Arc<Self> {
        let limit = hooks.max_parallel_sub_calls();
        Arc::new(RunBridge {
            lane: Lane::new(limit),
            run_signal: caller.child_token(),
            log_order: Arc::default(),
            tasks: TaskTracker::new(),
            deferred: Mutex::new(Vec::new()),
            started_at: std::time::Instant::now(),
            dispatch: Span::with_subscriber(&span, |(_, dispatch)| dispatch.clone()),
            span: Mutex::new(span),
            calls: AtomicU64::new(0),
            registry,
            hooks,
            outer,
        })
    }

    /// The tasks the run waits for when it settles.
    pub(super) fn tasks(&self) -> TaskTracker {
        self.tasks.clone()
    }

    /// The run settled: cancel what is in flight, abandon what is queued, and wait until
    /// every call has committed and logged.
    pub(super) async fn settle(&self) {
        self.run_signal.cancel();
        self.tasks.close();
        self.tasks.wait().await;
        *self.span.lock() = Span::none();
    }

    /// How many calls the program made (each numbered, dispatched or abandoned).
    pub(super) fn sub_calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    /// Contexts deferred to after the outer result (images of successful sub-calls, and
    /// their additional contexts), in submission order, and whether a nested success
    /// concluded the turn.
    pub(super) fn deferred(&self) -> (Vec<UserMessage>, bool) {
        let mut entries = self.deferred.lock().clone();
        entries.sort_by_key(|(index, _, _)| *index);
        let concludes = entries.iter().any(|(_, _, concludes)| *concludes);
        (
            entries
                .into_iter()
                .flat_map(|(_, contexts, _)| contexts)
                .collect(),
            concludes,
        )
    }

    /// Waits for `ticket`'s turn in the lane, unless the run settles first (then the call
    /// is abandoned: `None`). An admission obtained after the run settled is given back,
    /// so every call the lane started began before the settlement, and calls' starts stay
    /// in submission order.
    async fn admission(&self, ticket: Ticket, input: &ToolExecutionInput) -> Option<Admission> {
        // Settled before this call asked: its ticket is never given back to the lane,
        // which is harmless because every later call is abandoned the same way (the lane
        // is never used again after the run settles).
        if self.run_signal.is_cancelled() {
            return None;
        }
        let registry = self.registry.clone();
        let admit = self.lane.admit(ticket, || registry.execution_mode(input));
        let wait = async {
            tokio::select! {
                biased;
                _ = self.run_signal.cancelled() => None,
                admission = admit => Some(admission),
            }
        };
        let admission = wait.instrument(tracing::info_span!("queue")).await?;
        (!self.run_signal.is_cancelled()).then_some(admission)
    }

    async fn sub_call(
        self: Arc<Self>,
        ticket: Ticket,
        log_turn: LogTurn,
        call: Call,
    ) -> CallAnswer {
        let Call {
            name,
            sub_call_id,
            arguments,
            submitted,
            span,
        } = call;
        let index = log_turn.index;
        let input = ToolExecutionInput {
            call_id: sub_call_id.clone(),
            root_call_id: Some(self.outer.root_call_id.clone()),
            name: name.clone(),
            arguments,
            agent: self.outer.agent,
            parent: Some(self.outer.token),
            signal: Signal::from(self.run_signal.clone()),
            // The run reports its own progress; its tools' reports are not the caller's.
            progress: None,
        };
        let logged_arguments = deep_clone(&input.arguments);
        let mut admission = self.admission(ticket, &input).await;
        let mode = admission.as_ref().map(Admission::mode);
        if admission.is_none() {
            // Abandoned: it never started, so it has no start event; its abort is committed
            // and logged once, as its final record, when its turn comes.
            log_turn.wait().await;
        } else {
            self.registry
                .emit(JournalEvent::CodeDispatchStart {
                    parent_call_id: self.outer.call_id.clone(),
                    sub_call_id: sub_call_id.clone(),
                    name: name.clone(),
                    arguments: deep_clone(&logged_arguments),
                })
                .await;
        }
        let started = admission.as_ref().map(|_| self.started_at.elapsed());
        // With the run's signal cancelled, an abandoned call comes back from the pipeline
        // as ABORTED_BEFORE_DISPATCH without running a listener or the body.
        let prepared = self.registry.prepare_in(span, input).await;
        if let Some(admission) = admission.as_mut() {
            admission.started();
        }
        let dispatched = prepared.dispatch().await;
        let dispatched_at = admission.as_ref().map(|_| self.started_at.elapsed());
        if let Some(admission) = admission.as_mut() {
            admission.release_slot();
            log_turn.wait().await;
        }
        let result = dispatched.commit().await;

        let content = self.log_copy(&sub_call_id, &name, &result).await;
        self.registry
            .emit(JournalEvent::CodeDispatch {
                parent_call_id: self.outer.call_id.clone(),
                sub_call_id: sub_call_id.clone(),
                name: name.clone(),
                is_error: result.is_error(),
                content,
            })
            .await;
        self.defer(index, &sub_call_id, &name, &result);
        let record = SubCallRecord {
            index,
            sub_call_id,
            name,
            arguments: logged_arguments,
            result: result.clone(),
            mode,
            submitted,
            started,
            dispatched: dispatched_at,
            settled: self.started_at.elapsed(),
        };
        self.hooks.observe(self.outer.agent, &record);
        drop(admission);
        drop(log_turn);

        match &result.status {
            crate::tool::ToolStatus::Success { value, .. } => Ok(deep_clone(value)),
            crate::tool::ToolStatus::Failure(failure) => {
                Err(CallError::new(failure.code, failure.message.clone()))
            }
        }
    }

    /// The durable copy of a sub-call's content, after the `tools/code-dispatch-log`
    /// waterfall (a failing listener logs the original content).
    async fn log_copy(
        &self,
        sub_call_id: &str,
        name: &str,
        result: &ToolExecutionResult,
    ) -> Vec<ContentBlock> {
        let log = CodeDispatchLog {
            execution: self.outer.clone(),
            agent: self.outer.agent,
            sub_call_id: sub_call_id.to_owned(),
            name: name.to_owned(),
            is_error: result.is_error(),
            content: result.content.clone(),
        };
        logged_content(&self.registry.scope_of(self.outer.agent), log).await
    }

    fn defer(&self, index: u64, sub_call_id: &str, name: &str, result: &ToolExecutionResult) {
        let mut contexts = Vec::new();
        if !result.is_error() {
            let images: Vec<ContentBlock> = result
                .content
                .iter()
                .filter(|b| b.is_image())
                .cloned()
                .collect();
            if !images.is_empty() {
                contexts.push(UserMessage::new(
                    MessageSource::tool(name, sub_call_id),
                    images,
                ));
            }
        }
        contexts.extend(result.additional_contexts.iter().cloned());
        if !contexts.is_empty() || result.concludes_turn() {
            self.deferred
                .lock()
                .push((index, contexts, result.concludes_turn()));
        }
    }
}

/// One call as the program made it.
struct Call {
    name: String,
    sub_call_id: String,
    arguments: JsonValue,
    /// When the program made it, since the run started.
    submitted: std::time::Duration,
    /// Its `execute_tool` span, opened then.
    span: Span,
}

/// Turns in submission order: the call with index `n` (counted from 1) may log when every
/// call before it has logged. Each call's turn ends when its [`LogTurn`] is dropped —
/// also when its task panics — so one lost call never stalls the ones after it.
#[derive(Default)]
struct Sequence {
    state: Mutex<SequenceState>,
}

#[derive(Default)]
struct SequenceState {
    /// The calls that have finished their turn.
    done: std::collections::BTreeSet<u64>,
    /// Every call up to this one has finished its turn.
    through: u64,
    /// The task waiting for its turn, by index (each index waits once).
    waiting: std::collections::BTreeMap<u64, std::task::Waker>,
}

/// One call's place in the [`Sequence`]; made when the call is numbered and moved into its
/// task, so the turn ends even if the task is dropped before it first runs.
struct LogTurn {
    sequence: Arc<Sequence>,
    index: u64,
}

impl LogTurn {
    fn new(sequence: &Arc<Sequence>, index: u64) -> LogTurn {
        LogTurn {
            sequence: sequence.clone(),
            index,
        }
    }

    /// Waits until every earlier call has finished its turn.
    async fn wait(&self) {
        std::future::poll_fn(|cx| {
            let mut state = self.sequence.state.lock();
            if state.through + 1 >= self.index {
                state.waiting.remove(&self.index);
                return std::task::Poll::Ready(());
            }
            state.waiting.insert(self.index, cx.waker().clone());
            std::task::Poll::Pending
        })
        .await;
    }
}

impl Drop for LogTurn {
    fn drop(&mut self) {
        let mut guard = self.sequence.state.lock();
        let state = &mut *guard;
        state.waiting.remove(&self.index);
        state.done.insert(self.index);
        let before = state.through;
        while state.done.remove(&(state.through + 1)) {
            state.through += 1;
        }
        let next = state.through + 1;
        if state.through != before
            && let Some(waker) = state.waiting.remove(&next)
        {
            waker.wake();
        }
    }
}

/// The binding host of one run: every call is numbered when the program makes it, then
/// runs as a task on the host runtime so the run can drain it after it settles.
///
/// The future `call` returns is polled on the engine thread and counts as the program's
/// compute time (the seam's contract): it only awaits the task's oneshot answer, so the
/// pipeline's work never runs there.
pub(crate) struct BridgeHost {
    pub bridge: Arc<RunBridge>,
    pub runtime: tokio::runtime::Handle,
}

impl BindingHost for BridgeHost {
    fn call(&self, member: &str, args: JsonValue) -> BoxFuture<'static, CallAnswer> {
        // A value JSON cannot carry is refused here, before it is numbered: it dispatches
        // nothing and logs nothing (the engines refuse it earlier; this holds for any host).
        let depth = self.bridge.registry.config().value_depth.get();
        if let Err(err) = check_lossless_within(&args, depth) {
            let error =
                CallError::invalid_args(format!("the arguments are not lossless JSON: {err}"));
            return Box::pin(async move { Err(error) });
        }
        // Numbered and queued now, in the program's submission order; the task may start
        // later on another thread.
        let ticket = self.bridge.lane.ticket();
        // Whatever happens to the call's task, the next call's log turn comes.
        let log_turn = LogTurn::new(&self.bridge.log_order, ticket.index() + 1);
        let submitted = self.bridge.started_at.elapsed();
        self.bridge.calls.fetch_add(1, Ordering::Relaxed);
        let sub_call_id = format!("{}:code:{}", self.bridge.outer.call_id, log_turn.index);
        let open = || {
            self.bridge
                .span
                .lock()
                .in_scope(|| execution_span(member, &sub_call_id))
        };
        let scoped = self.bridge.dispatch.as_ref().filter(|_| {
            tracing::dispatcher::get_default(|current| {
                current.is::<tracing::subscriber::NoSubscriber>()
            })
        });
        let span = match scoped {
            Some(dispatch) => tracing::dispatcher::with_default(dispatch, open),
            None => open(),
        };
        let (reply, answer) = oneshot::channel();
        let bridge = self.bridge.clone();
        let name = member.to_owned();
        let work = span.clone();
        let task = async move {
            let call = Call {
                name,
                sub_call_id,
                arguments: args,
                submitted,
                span,
            };
            let call = bridge.sub_call(ticket, log_turn, call);
            let outcome = std::panic::AssertUnwindSafe(call).catch_unwind().await;
            match outcome {
                // The program may be gone; then nobody is waiting for the answer.
                Ok(outcome) => drop(reply.send(outcome)),
                Err(_) => tracing::warn!("a run_code sub-call task panicked"),
            }
        }
        .instrument(work);
        match scoped.cloned() {
            Some(dispatch) => {
                let task = task.with_subscriber(dispatch);
                drop(self.bridge.tasks.spawn_on(task, &self.runtime));
            }
            None => drop(self.bridge.tasks.spawn_on(task, &self.runtime)),
        }
        Box::pin(async move {
            answer
                .await
                .unwrap_or_else(|_| Err(CallError::host("the tool call was interrupted")))
        })
    }

    fn unknown_member(&self, name: &str, members: &[String]) -> Option<String> {
        Some(crate::code::checks::static_check::suggestion(
            crate::code::TOOLS,
            name,
            members,
        ))
    }
}
