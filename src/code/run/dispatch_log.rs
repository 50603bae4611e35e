//! The `tools/code-dispatch-log` waterfall: listeners that may reshape the durable log copy
//! of each settled sub-call (for example a preview and a locator for an oversized text
//! result). Only the logged copy changes: the program already received the value, and the
//! model sees neither.
//!
//! Listeners are attached to a scope (the global layer for every run) through the
//! registry's [`Scope::extend`], and run with the registry's one chain type.

use std::future::Future;
use std::sync::Arc;

use crate::content::ContentBlock;
use crate::error::Error;
use crate::registry::{Disposer, Link, Next, Scope};
use crate::tool::{ScopeId, ToolExecution};

/// One settled sub-call about to be logged, as the `tools/code-dispatch-log` waterfall
/// sees it: the outer execution, the sub-call's identity, and the content whose durable
/// copy a listener may reshape.
#[derive(Debug, Clone)]
#[non_exhaustive]
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
pub type CodeLogNext = Next<Arc<CodeDispatchLog>, Vec<ContentBlock>>;

/// A listener as attached to a scope.
struct CodeLogListener(Arc<Link<Arc<CodeDispatchLog>, Vec<ContentBlock>>>);

/// Registration of `tools/code-dispatch-log` listeners on a scope.
pub trait ScopeDispatchLog {
    /// Adds a `tools/code-dispatch-log` listener for the sub-calls of programs run for this
    /// scope (and the scopes under it; the global layer: every run). A failing listener is
    /// contained: the original content is logged.
    fn on_code_dispatch_log<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<CodeDispatchLog>, CodeLogNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<ContentBlock>, Error>> + Send + 'static;
}

impl ScopeDispatchLog for Scope {
    fn on_code_dispatch_log<F, Fut>(&self, listener: F) -> Disposer
    where
        F: Fn(Arc<CodeDispatchLog>, CodeLogNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<ContentBlock>, Error>> + Send + 'static,
    {
        let link: Arc<Link<Arc<CodeDispatchLog>, Vec<ContentBlock>>> =
            Arc::new(move |log, next| Box::pin(listener(log, next)));
        self.extend(CodeLogListener(link))
    }
}

/// Runs the waterfall for one settled sub-call of a program run for `scope`, and returns
/// the content to log; a failing listener, or one returning invalid content, logs the
/// original content.
pub(crate) async fn logged_content(scope: &Scope, log: CodeDispatchLog) -> Vec<ContentBlock> {
    let links: Arc<[_]> = scope
        .extensions::<CodeLogListener>()
        .iter()
        .map(|listener| listener.0.clone())
        .collect();
    if links.is_empty() {
        return log.content;
    }
    let log = Arc::new(log);
    let chain = Next::new(
        "a tools/code-dispatch-log listener",
        links,
        Arc::new(|log: Arc<CodeDispatchLog>| Box::pin(async move { Ok(log.content.clone()) })),
        log.clone(),
    );
    match chain.run().await {
        Ok(content) if content.iter().all(|b| b.validate().is_ok()) => content,
        Ok(_) => {
            tracing::warn!(sub_call = %log.sub_call_id, "a tools/code-dispatch-log listener returned invalid content; logging the original");
            log.content.clone()
        }
        Err(err) => {
            tracing::warn!(sub_call = %log.sub_call_id, error = %err, "a tools/code-dispatch-log listener failed; logging the original");
            log.content.clone()
        }
    }
}
