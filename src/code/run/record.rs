//! What Code Mode records of each sub-call, and the hooks the bridge reports through.
//!
//! [`SubCallRecord`] is one settled binding call of a program; [`SubCallObserver`] is how a
//! host watches them. [`SubCallHooks`] is all the bridge needs from the installed layer (its
//! parallelism limit and where records go), so the bridge and `run_code` never see the layer
//! itself. This file owns those types; it must not run, schedule or present anything.

use std::sync::Arc;

use crate::json::JsonValue;
use crate::registry::ExecutionMode;
use crate::tool::{ScopeId, ToolExecutionResult};

/// One settled sub-call, as the bridge records it for the outer result.
///
/// Every binding call the program made gets one, in submission order — also the calls
/// the run abandoned because it settled before their turn came (their result is
/// `ABORTED_BEFORE_DISPATCH`, `started` and `mode` are `None`) and the ones it cancelled
/// in flight (`ABORTED`, or whatever the tool answered to the cancellation).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SubCallRecord {
    /// The call's place in the program's submission order: the `<n>` of its id, counted
    /// from 1.
    pub index: u64,
    /// `<parent>:code:<n>`.
    pub sub_call_id: String,
    /// The tool called.
    pub name: String,
    /// Its frozen arguments.
    pub arguments: JsonValue,
    /// Its final result.
    pub result: Arc<ToolExecutionResult>,
    /// How it was scheduled; `None` when the run settled before its turn came.
    pub mode: Option<ExecutionMode>,
    /// When the program made the call, relative to the start of the run.
    pub submitted: std::time::Duration,
    /// When the lane admitted it (its queue time is `started - submitted`); `None` when
    /// it never started.
    pub started: Option<std::time::Duration>,
    /// When its dispatch (the around-dispatch chain and the body) ended and it gave its
    /// parallel slot back (its run time is `dispatched - started`); `None` when it never
    /// started. From here it may wait for earlier calls to commit.
    pub dispatched: Option<std::time::Duration>,
    /// When it settled (committed, after the post-execute and result stages).
    pub settled: std::time::Duration,
}

impl SubCallRecord {
    /// How long the call waited in the lane before it started (all of its life if it
    /// never started).
    pub fn queued(&self) -> std::time::Duration {
        self.started
            .unwrap_or(self.settled)
            .saturating_sub(self.submitted)
    }

    /// How long it ran: from its start to the end of its dispatch (zero if it never
    /// started).
    pub fn ran(&self) -> std::time::Duration {
        match (self.started, self.dispatched) {
            (Some(started), Some(dispatched)) => dispatched.saturating_sub(started),
            _ => std::time::Duration::ZERO,
        }
    }
}

/// Observes each settled sub-call (the command's `--verbose` and `--trace`).
pub type SubCallObserver = Arc<dyn Fn(&SubCallRecord) + Send + Sync>;

/// What a run and its bridge need from the Code Mode layer they run under.
pub(crate) trait SubCallHooks: Send + Sync {
    /// At most this many of a run's parallel sub-calls dispatch at once.
    fn max_parallel_sub_calls(&self) -> usize;

    /// Reports one settled sub-call of a run for `agent`.
    fn observe(&self, agent: Option<ScopeId>, record: &SubCallRecord);

    /// Reports what the runtime answered for a run for `agent`.
    fn settled(&self, agent: Option<ScopeId>, outcome: &crate::runtime::CodeRunOutcome);

    /// The type check of `program` for `scope` before it runs; `None` (decided at once, with
    /// nothing allocated) when programs are not type-checked.
    fn check_program<'a>(
        &'a self,
        scope: &'a crate::registry::Scope,
        language: crate::runtime::Language,
        program: &'a str,
    ) -> Option<futures::future::BoxFuture<'a, crate::code::checks::typecheck::Verdict>>;
}
