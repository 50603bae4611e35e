//! The `run_code` dispatch bridge: turns each `await tools.name(args)` of a running
//! program into a nested call of the registry's pipeline.
//!
//! Per run: the n-th binding call gets the id `<run_code call id>:code:<n>` and the run's
//! token as `parent`. One ordered lane does, in submission order, each call's start (the
//! `tool/code-dispatch-start` event, pre-execute and guards); the around-dispatch stage and
//! the body overlap, up to `max_parallel_sub_calls` for calls classified parallel just
//! before they start; an exclusive call waits for every earlier call to commit, runs alone
//! and holds the barrier through its own commit; commits (post-execute, finalize, result,
//! the `tools/code-dispatch-log` waterfall and the `tool/code-dispatch` event) happen in
//! submission order. When the run settles for any reason, a run-scoped signal fires:
//! queued calls are abandoned, in-flight ones are cancelled and drained, and every pending
//! log write lands before `run_code` returns.
//!
//! This module owns the per-run bookkeeping; it drives the registry only through its
//! public staged pipeline ([`Registry::prepare`] → dispatch → commit) and lane. It must not
//! know how programs run (that is the [`crate::runtime`] seam) or how results are shown to
//! the model.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use futures::FutureExt as _;
use futures::future::BoxFuture;
use parking_lot::Mutex;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::content::{ContentBlock, MessageSource, UserMessage};
use crate::json::JsonValue;
use crate::registry::scheduler::{Lane, Ticket};
use crate::registry::{ExecutionMode, Registry};
use crate::runtime::BindingHost;
use crate::session::SessionEvent;
use crate::tool::{Signal, ToolExecution, ToolExecutionInput, ToolExecutionResult};

use super::dispatch_log::{CodeDispatchLog, logged_content};
use super::layer::Layer;

/// One settled sub-call, as the bridge records it for the outer result.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SubCallRecord {
    /// The call's place in the program's submission order (`<n>` of its id).
    pub index: u64,
    /// `<parent>:code:<n>`.
    pub sub_call_id: String,
    /// The tool called.
    pub name: String,
    /// Its frozen arguments.
    pub arguments: JsonValue,
    /// Its final result.
    pub result: Arc<ToolExecutionResult>,
    /// How it was scheduled.
    pub mode: ExecutionMode,
    /// When it was submitted and settled, relative to the start of the run.
    pub submitted: std::time::Duration,
    /// When it settled.
    pub settled: std::time::Duration,
}

/// Observes each settled sub-call (the command's `--verbose` and `--trace`).
pub type SubCallObserver = Arc<dyn Fn(&SubCallRecord) + Send + Sync>;

/// The state of one `run_code` run's bindings.
pub(crate) struct RunBridge {
    registry: Registry,
    layer: Arc<Layer>,
    outer: Arc<ToolExecution>,
    lane: Arc<Lane>,
    /// Fires when the run settles (or the caller cancels): sub-calls are cancelled.
    run_signal: CancellationToken,
    /// Set when the run settled: calls not yet started are abandoned.
    closed: AtomicBool,
    next_index: AtomicU64,
    /// The sub-call tasks not yet finished. Counted, not kept: a run may make millions of
    /// calls, and holding each finished task until the run settles grew the heap by a
    /// task's size per call.
    tasks: TaskTracker,
    deferred: Mutex<Vec<(u64, Vec<UserMessage>, bool)>>,
    started_at: std::time::Instant,
}

impl RunBridge {
    pub(super) fn new(
        registry: Registry,
        layer: Arc<Layer>,
        outer: Arc<ToolExecution>,
        caller: &Signal,
    ) -> Arc<Self> {
        let limit = layer.config().max_parallel_sub_calls;
        Arc::new(RunBridge {
            lane: Lane::new(limit),
            run_signal: caller.child_token(),
            closed: AtomicBool::new(false),
            next_index: AtomicU64::new(0),
            tasks: TaskTracker::new(),
            deferred: Mutex::new(Vec::new()),
            started_at: std::time::Instant::now(),
            registry,
            layer,
            outer,
        })
    }

    /// The run settled: cancel what is in flight, abandon what is queued, and wait until
    /// every started call has committed and logged.
    pub(super) async fn settle(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.run_signal.cancel();
        self.tasks.close();
        self.tasks.wait().await;
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

    async fn sub_call(
        self: Arc<Self>,
        index: u64,
        ticket: Ticket,
        name: String,
        arguments: JsonValue,
    ) -> Result<JsonValue, String> {
        let sub_call_id = format!("{}:code:{index}", self.outer.call_id);
        let submitted = self.started_at.elapsed();
        let input = ToolExecutionInput {
            call_id: sub_call_id.clone(),
            root_call_id: Some(self.outer.root_call_id.clone()),
            name: name.clone(),
            arguments,
            agent: self.outer.agent,
            parent: Some(self.outer.token),
            signal: Signal::from(self.run_signal.clone()),
        };
        let over = || format!("run_code finished before the call to `{name}` started");
        if self.closed.load(Ordering::SeqCst) {
            return Err(over());
        }
        let registry = self.registry.clone();
        let admit = self.lane.admit(ticket, || registry.execution_mode(&input));
        let mut admission = tokio::select! {
            biased;
            _ = self.run_signal.cancelled() => return Err(over()),
            admission = admit => admission,
        };
        if self.closed.load(Ordering::SeqCst) {
            return Err(over());
        }
        let mode = admission.mode();
        let logged_arguments = input.arguments.clone();
        self.registry
            .emit(SessionEvent::CodeDispatchStart {
                parent_call_id: self.outer.call_id.clone(),
                sub_call_id: sub_call_id.clone(),
                name: name.clone(),
                arguments: logged_arguments.clone(),
            })
            .await;
        let prepared = self.registry.prepare(input).await;
        admission.started();
        let dispatched = prepared.dispatch().await;
        admission.release_slot();
        self.lane.commit_turn(&admission).await;
        let result = dispatched.commit().await;

        let content = self.log_copy(&sub_call_id, &name, &result).await;
        self.registry
            .emit(SessionEvent::CodeDispatch {
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
            settled: self.started_at.elapsed(),
        };
        self.layer.observe(self.outer.agent, &record);
        admission.finish();

        match &result.status {
            crate::tool::ToolStatus::Success { value, .. } => Ok(value.clone()),
            crate::tool::ToolStatus::Failure(failure) => Err(failure.message.clone()),
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
    fn call(&self, member: &str, args: JsonValue) -> BoxFuture<'static, Result<JsonValue, String>> {
        // Numbered and queued now, in the program's submission order; the task may start
        // later on another thread.
        let index = self.bridge.next_index.fetch_add(1, Ordering::SeqCst);
        let ticket = self.bridge.lane.ticket();
        let (reply, answer) = oneshot::channel();
        let bridge = self.bridge.clone();
        let name = member.to_owned();
        let task = async move {
            let outcome = std::panic::AssertUnwindSafe(bridge.sub_call(index, ticket, name, args))
                .catch_unwind()
                .await;
            match outcome {
                // The program may be gone; then nobody is waiting for the answer.
                Ok(outcome) => drop(reply.send(outcome)),
                Err(_) => tracing::warn!("a run_code sub-call task panicked"),
            }
        };
        drop(self.bridge.tasks.spawn_on(task, &self.runtime));
        Box::pin(async move {
            answer
                .await
                .unwrap_or_else(|_| Err("the tool call was interrupted".to_owned()))
        })
    }
}
