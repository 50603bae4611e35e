//! Pipeline extension points: the three waterfalls (pre-execute, around-dispatch,
//! post-execute), guards, result observers, and scoped extensions — values a layer above
//! the registry attaches to a scope (Code Mode's presentation declarations and log
//! listeners are such values).
//!
//! A waterfall listener receives the call and a [`Next`] continuation; calling `next.run()`
//! delegates to the rest of the chain (and finally the default), returning early
//! short-circuits. Every listener runs inside an error boundary: an `Err` or a panic
//! becomes a failed call (`LISTENER_FAILED`), never a crash of the host.

use std::any::{Any, TypeId};
use std::sync::Arc;

use crate::tool::{
    PostToolDecision, PreToolDecision, ScopeId, Signal, ToolExecution, ToolExecutionResult,
};

use futures::future::BoxFuture;

use crate::error::Error;

use super::chain::{Link, Next};

/// The rest of a `tools/pre-execute` chain; its default is [`PreToolDecision::Allow`].
pub type PreNext = Next<Arc<ToolExecution>, PreToolDecision>;
/// The rest of a `tools/execute` chain; its default is the core dispatch (the body inside
/// its error boundary, then output validation and rendering), which always yields a
/// normalized result — a failing tool or wrapper is already an error result here.
pub type DispatchNext = Next<DispatchExecution, ToolExecutionResult>;
/// The rest of a `tools/post-execute` chain; its default accepts the result unchanged.
pub type PostNext = Next<(Arc<ToolExecution>, Arc<ToolExecutionResult>), PostToolDecision>;

impl DispatchNext {
    /// Delegates `dispatch` — the same call, possibly with a substitute signal (see
    /// [`DispatchExecution::with_signal`]) — to the next wrapper, or the core dispatch.
    ///
    /// # Errors
    ///
    /// None in practice: the registry's dispatch chain recovers every wrapper's error
    /// (including a panic, as `LISTENER_FAILED`) into a failed [`ToolExecutionResult`], and
    /// the core dispatch always yields a result, so the future resolves to `Ok` — a failing
    /// tool or wrapper is an `Ok` holding an error result. The `Result` is the shape every
    /// chain shares (see [`Next::run`]).
    pub fn run_with(
        self,
        dispatch: DispatchExecution,
    ) -> BoxFuture<'static, Result<ToolExecutionResult, Error>> {
        self.continue_with(dispatch)
    }
}

pub(crate) type PreLink = Link<Arc<ToolExecution>, PreToolDecision>;
pub(crate) type AroundLink = Link<DispatchExecution, ToolExecutionResult>;
pub(crate) type PostLink = Link<(Arc<ToolExecution>, Arc<ToolExecutionResult>), PostToolDecision>;
pub(crate) type GuardFn = dyn Fn(&ToolExecution) -> Option<String> + Send + Sync;
pub(crate) type ResultFn = dyn Fn(&Arc<ToolExecution>, &Arc<ToolExecutionResult>) + Send + Sync;

/// Where a listener applies: everywhere, or to one scope and the scopes under it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reach(pub Option<ScopeId>);

/// The around-dispatch view of a call: the frozen execution plus the signal the next
/// wrapper (or the body) will see. A wrapper may substitute the signal — for example a
/// deadline — but nothing else; the registry fuses the caller's signal back in before the
/// body runs, so a substitute can never detach caller cancellation.
#[derive(Debug, Clone)]
pub struct DispatchExecution {
    execution: Arc<ToolExecution>,
    signal: Signal,
    /// Whether a wrapper substituted `signal` (else it is the caller's own).
    substituted: bool,
}

impl DispatchExecution {
    pub(crate) fn new(execution: Arc<ToolExecution>) -> Self {
        let signal = execution.signal.clone();
        DispatchExecution {
            execution,
            signal,
            substituted: false,
        }
    }

    /// The frozen call.
    pub fn execution(&self) -> &Arc<ToolExecution> {
        &self.execution
    }

    /// The signal the delegate will see.
    pub fn signal(&self) -> &Signal {
        &self.signal
    }

    /// The same call with `signal` substituted for the delegate.
    pub fn with_signal(&self, signal: Signal) -> Self {
        DispatchExecution {
            execution: self.execution.clone(),
            signal,
            substituted: true,
        }
    }

    /// The signal the body sees: the delegate's, with the caller's fused back in when a
    /// wrapper substituted it (a substitute can never detach caller cancellation).
    pub(crate) fn body_signal(&self) -> Signal {
        if self.substituted {
            self.execution.signal.fuse(&self.signal)
        } else {
            self.signal.clone()
        }
    }
}

/// A value attached to a scope by a layer above the registry.
#[derive(Clone)]
pub(crate) struct Extension {
    pub type_id: TypeId,
    pub value: Arc<dyn Any + Send + Sync>,
    /// Whether adding or removing it changes what scopes see (fires `tools/change`).
    pub changes_tools: bool,
}

/// Every listener of the registry, in registration order, each with its reach.
#[derive(Default, Clone)]
pub(crate) struct Listeners {
    pub pre: Vec<(u64, Reach, Arc<PreLink>)>,
    pub around: Vec<(u64, Reach, Arc<AroundLink>)>,
    pub post: Vec<(u64, Reach, Arc<PostLink>)>,
    pub guards: Vec<(u64, Reach, Arc<GuardFn>)>,
    pub results: Vec<(u64, Reach, Arc<ResultFn>)>,
    pub extensions: Vec<(u64, Reach, Extension)>,
}

impl Listeners {
    /// Removes the listener or extension `handle`; says whether there was one, and whether
    /// it was an extension that changes what scopes see.
    pub(super) fn remove(&mut self, handle: u64) -> Option<bool> {
        let before = self.len();
        let changes_tools = self
            .extensions
            .iter()
            .any(|(h, _, e)| *h == handle && e.changes_tools);
        self.retain(|h, _| h != handle);
        (self.len() != before).then_some(changes_tools)
    }

    /// Keeps only the entries for which `keep(handle, reach)` holds.
    pub(super) fn retain(&mut self, keep: impl Fn(u64, Reach) -> bool) {
        self.pre.retain(|(h, r, _)| keep(*h, *r));
        self.around.retain(|(h, r, _)| keep(*h, *r));
        self.post.retain(|(h, r, _)| keep(*h, *r));
        self.guards.retain(|(h, r, _)| keep(*h, *r));
        self.results.retain(|(h, r, _)| keep(*h, *r));
        self.extensions.retain(|(h, r, _)| keep(*h, *r));
    }

    fn len(&self) -> usize {
        self.pre.len()
            + self.around.len()
            + self.post.len()
            + self.guards.len()
            + self.results.len()
            + self.extensions.len()
    }
}

/// The listeners that apply to one call, captured when the call starts so that a listener
/// registered mid-call does not see half of it.
#[derive(Clone)]
pub(crate) struct CallListeners {
    pub pre: Arc<[Arc<PreLink>]>,
    pub around: Arc<[Arc<AroundLink>]>,
    pub post: Arc<[Arc<PostLink>]>,
    pub guards: Arc<[Arc<GuardFn>]>,
    pub results: Arc<[Arc<ResultFn>]>,
}

impl CallListeners {
    pub(super) fn select(all: &Listeners, applies: impl Fn(Reach) -> bool) -> Self {
        fn pick<T: ?Sized>(
            list: &[(u64, Reach, Arc<T>)],
            applies: &impl Fn(Reach) -> bool,
        ) -> Arc<[Arc<T>]> {
            list.iter()
                .filter(|(_, reach, _)| applies(*reach))
                .map(|(_, _, f)| f.clone())
                .collect()
        }
        CallListeners {
            pre: pick(&all.pre, &applies),
            around: pick(&all.around, &applies),
            post: pick(&all.post, &applies),
            guards: pick(&all.guards, &applies),
            results: pick(&all.results, &applies),
        }
    }
}
