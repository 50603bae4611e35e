//! Pipeline extension points: the three waterfalls (pre-execute, around-dispatch,
//! post-execute), guards, result observers, and how a chain of listeners runs.
//!
//! A waterfall listener receives the call and a `next` continuation; calling `next.run()`
//! delegates to the rest of the chain (and finally the default), returning early
//! short-circuits. Every listener runs inside an error boundary: an `Err` or a panic
//! becomes a failed call (`LISTENER_FAILED`), never a crash of the host.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::tool::{
    PostToolDecision, PreToolDecision, ScopeId, Signal, ToolExecution, ToolExecutionResult,
};

pub(crate) type PreFn = dyn Fn(Arc<ToolExecution>, PreNext) -> BoxFuture<'static, Result<PreToolDecision, Error>>
    + Send
    + Sync;
pub(crate) type AroundFn = dyn Fn(DispatchExecution, DispatchNext) -> BoxFuture<'static, Result<ToolExecutionResult, Error>>
    + Send
    + Sync;
pub(crate) type PostFn = dyn Fn(
        Arc<ToolExecution>,
        Arc<ToolExecutionResult>,
        PostNext,
    ) -> BoxFuture<'static, Result<PostToolDecision, Error>>
    + Send
    + Sync;
pub(crate) type CodeLogFn = dyn Fn(Arc<CodeDispatchLog>, CodeLogNext) -> BoxFuture<'static, Result<Vec<ContentBlock>, Error>>
    + Send
    + Sync;
pub(crate) type GuardFn = dyn Fn(&ToolExecution) -> Option<String> + Send + Sync;
pub(crate) type ResultFn = dyn Fn(&Arc<ToolExecution>, &Arc<ToolExecutionResult>) + Send + Sync;

/// Where a listener applies: everywhere, or to one scope and the scopes under it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reach(pub Option<ScopeId>);

/// Runs a listener's future inside an error boundary: a panic becomes an error.
pub(crate) async fn contained<T>(
    what: &str,
    future: impl Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    match AssertUnwindSafe(future).catch_unwind().await {
        Ok(result) => result,
        Err(panic) => Err(Error::new(
            ErrorCode::ListenerFailed,
            format!("{what} panicked: {}", panic_message(&panic)),
        )),
    }
}

/// The text of a panic payload.
pub(crate) fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "unknown panic".to_owned()
    }
}

/// The rest of a `tools/pre-execute` chain. `run` delegates; the chain's default is
/// [`PreToolDecision::Allow`].
pub struct PreNext {
    pub(crate) chain: Arc<[Arc<PreFn>]>,
    pub(crate) index: usize,
    pub(crate) execution: Arc<ToolExecution>,
}

impl PreNext {
    /// Delegates to the next listener (or allows, at the end of the chain).
    pub fn run(self) -> BoxFuture<'static, Result<PreToolDecision, Error>> {
        Box::pin(async move {
            let Some(listener) = self.chain.get(self.index).cloned() else {
                return Ok(PreToolDecision::Allow);
            };
            let next = PreNext {
                chain: self.chain.clone(),
                index: self.index + 1,
                execution: self.execution.clone(),
            };
            contained(
                "a tools/pre-execute listener",
                listener(self.execution, next),
            )
            .await
        })
    }
}

/// The around-dispatch view of a call: the frozen execution plus the signal the next
/// wrapper (or the body) will see. A wrapper may substitute the signal — for example a
/// deadline — but nothing else; the registry fuses the caller's signal back in before the
/// body runs, so a substitute can never detach caller cancellation.
#[derive(Debug, Clone)]
pub struct DispatchExecution {
    execution: Arc<ToolExecution>,
    signal: Signal,
}

impl DispatchExecution {
    pub(crate) fn new(execution: Arc<ToolExecution>) -> Self {
        let signal = execution.signal.clone();
        DispatchExecution { execution, signal }
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
        }
    }
}

pub(crate) type DispatchBase =
    dyn Fn(DispatchExecution) -> BoxFuture<'static, ToolExecutionResult> + Send + Sync;

/// The rest of a `tools/execute` chain. `run` delegates; the chain's base is the core
/// dispatch (the body inside its error boundary, then output validation and rendering),
/// which always yields a normalized result — a thrown or failing tool is already an error
/// result here.
pub struct DispatchNext {
    pub(crate) chain: Arc<[Arc<AroundFn>]>,
    pub(crate) index: usize,
    pub(crate) base: Arc<DispatchBase>,
}

impl Clone for DispatchNext {
    fn clone(&self) -> Self {
        DispatchNext {
            chain: self.chain.clone(),
            index: self.index,
            base: self.base.clone(),
        }
    }
}

impl DispatchNext {
    /// Delegates `dispatch` to the next wrapper (or the core dispatch).
    pub fn run(self, dispatch: DispatchExecution) -> BoxFuture<'static, ToolExecutionResult> {
        Box::pin(async move {
            let Some(wrapper) = self.chain.get(self.index).cloned() else {
                return (self.base)(dispatch).await;
            };
            let next = DispatchNext {
                chain: self.chain.clone(),
                index: self.index + 1,
                base: self.base.clone(),
            };
            match contained("a tools/execute wrapper", wrapper(dispatch, next)).await {
                Ok(result) => result,
                Err(err) => ToolExecutionResult::failure(err),
            }
        })
    }
}

/// The rest of a `tools/post-execute` chain; the default accepts unchanged.
pub struct PostNext {
    pub(crate) chain: Arc<[Arc<PostFn>]>,
    pub(crate) index: usize,
    pub(crate) execution: Arc<ToolExecution>,
    pub(crate) result: Arc<ToolExecutionResult>,
}

impl PostNext {
    /// Delegates to the next listener (or accepts, at the end of the chain).
    pub fn run(self) -> BoxFuture<'static, Result<PostToolDecision, Error>> {
        Box::pin(async move {
            let Some(listener) = self.chain.get(self.index).cloned() else {
                return Ok(PostToolDecision::accept());
            };
            let next = PostNext {
                chain: self.chain.clone(),
                index: self.index + 1,
                execution: self.execution.clone(),
                result: self.result.clone(),
            };
            contained(
                "a tools/post-execute listener",
                listener(self.execution, self.result, next),
            )
            .await
        })
    }
}

/// One settled `run_code` sub-call about to be logged, as the `tools/code-dispatch-log`
/// waterfall sees it: the outer execution, the sub-call's identity, and the content whose
/// durable copy a listener may reshape (for example, a preview and a locator for an
/// oversized text result). Only the logged copy changes: the program already received the
/// value, and the model sees neither.
#[derive(Debug, Clone)]
pub struct CodeDispatchLog {
    /// The outer `run_code` execution.
    pub execution: Arc<ToolExecution>,
    /// The calling agent.
    pub agent: Option<ScopeId>,
    /// `<parent>:code:<n>`.
    pub sub_call_id: String,
    /// The tool called.
    pub name: String,
    /// Whether the sub-call failed.
    pub is_error: bool,
    /// The sub-call's complete model-facing content.
    pub content: Vec<ContentBlock>,
}

/// The rest of a `tools/code-dispatch-log` chain; the default keeps the content.
pub struct CodeLogNext {
    pub(crate) chain: Arc<[Arc<CodeLogFn>]>,
    pub(crate) index: usize,
    pub(crate) log: Arc<CodeDispatchLog>,
}

impl CodeLogNext {
    /// Delegates to the next listener (or keeps the content, at the end of the chain).
    pub fn run(self) -> BoxFuture<'static, Result<Vec<ContentBlock>, Error>> {
        Box::pin(async move {
            let Some(listener) = self.chain.get(self.index).cloned() else {
                return Ok(self.log.content.clone());
            };
            let next = CodeLogNext {
                chain: self.chain.clone(),
                index: self.index + 1,
                log: self.log.clone(),
            };
            contained(
                "a tools/code-dispatch-log listener",
                listener(self.log, next),
            )
            .await
        })
    }
}

/// Every listener of the registry, in registration order, each with its reach.
#[derive(Default, Clone)]
pub(crate) struct Listeners {
    pub pre: Vec<(u64, Reach, Arc<PreFn>)>,
    pub around: Vec<(u64, Reach, Arc<AroundFn>)>,
    pub post: Vec<(u64, Reach, Arc<PostFn>)>,
    pub guards: Vec<(u64, Reach, Arc<GuardFn>)>,
    pub results: Vec<(u64, Reach, Arc<ResultFn>)>,
    pub code_log: Vec<(u64, Reach, Arc<CodeLogFn>)>,
}

impl Listeners {
    pub fn remove(&mut self, handle: u64) -> bool {
        let before = self.len();
        self.pre.retain(|(h, _, _)| *h != handle);
        self.around.retain(|(h, _, _)| *h != handle);
        self.post.retain(|(h, _, _)| *h != handle);
        self.guards.retain(|(h, _, _)| *h != handle);
        self.results.retain(|(h, _, _)| *h != handle);
        self.code_log.retain(|(h, _, _)| *h != handle);
        self.len() != before
    }

    fn len(&self) -> usize {
        self.pre.len()
            + self.around.len()
            + self.post.len()
            + self.guards.len()
            + self.results.len()
            + self.code_log.len()
    }
}

/// The listeners that apply to one call, captured when the call starts so that a listener
/// registered mid-call does not see half of it.
#[derive(Clone)]
pub(crate) struct CallListeners {
    pub pre: Arc<[Arc<PreFn>]>,
    pub around: Arc<[Arc<AroundFn>]>,
    pub post: Arc<[Arc<PostFn>]>,
    pub guards: Arc<[Arc<GuardFn>]>,
    pub results: Arc<[Arc<ResultFn>]>,
    pub code_log: Arc<[Arc<CodeLogFn>]>,
}

impl CallListeners {
    pub fn select(all: &Listeners, applies: impl Fn(Reach) -> bool) -> Self {
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
            code_log: pick(&all.code_log, &applies),
        }
    }
}
