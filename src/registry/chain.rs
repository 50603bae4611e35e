//! One shape for every waterfall: a chain of links, each receiving the input and the rest of
//! the chain ([`Next`]), ending in a default.
//!
//! A link delegates by calling [`Next::run`], or short-circuits by returning without it.
//! Only a chain that allows it offers a way to delegate a substitute input (the dispatch
//! chain: a wrapper may substitute the signal); everywhere else every link sees the same
//! frozen call. Every link runs inside an error
//! boundary: an `Err` or a panic becomes that link's error (`LISTENER_FAILED` for a panic),
//! which the chain's recovery may turn into a value (the dispatch chain turns it into a
//! failed result, so an outer wrapper still sees a result).
//!
//! This module owns how a chain runs; it must not know what any chain is for.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;

use crate::error::{Error, ErrorCode};

/// One link of a chain: the input and the rest of the chain.
pub type Link<I, O> = dyn Fn(I, Next<I, O>) -> BoxFuture<'static, Result<O, Error>> + Send + Sync;

/// The default at the end of a chain.
pub type End<I, O> = dyn Fn(I) -> BoxFuture<'static, Result<O, Error>> + Send + Sync;

/// The rest of a chain. Cheap to clone (a wrapper that retries calls it more than once).
pub struct Next<I, O> {
    what: &'static str,
    links: Arc<[Arc<Link<I, O>>]>,
    index: usize,
    input: I,
    end: Arc<End<I, O>>,
    recover: fn(Error) -> Result<O, Error>,
}

impl<I: Clone, O> Clone for Next<I, O> {
    fn clone(&self) -> Self {
        Next {
            what: self.what,
            links: self.links.clone(),
            index: self.index,
            input: self.input.clone(),
            end: self.end.clone(),
            recover: self.recover,
        }
    }
}

impl<I, O> std::fmt::Debug for Next<I, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Next")
            .field("chain", &self.what)
            .field("remaining", &self.links.len().saturating_sub(self.index))
            .finish_non_exhaustive()
    }
}

impl<I: Clone + Send + 'static, O: Send + 'static> Next<I, O> {
    /// The start of a chain of `links` (named `what` in failures, e.g. "a tools/pre-execute
    /// listener") over `input`, ending in `end`.
    pub fn new(
        what: &'static str,
        links: Arc<[Arc<Link<I, O>>]>,
        end: Arc<End<I, O>>,
        input: I,
    ) -> Self {
        Next {
            what,
            links,
            index: 0,
            input,
            end,
            recover: Err,
        }
    }

    /// The same chain, with a link's error turned into a value by `recover`.
    pub fn recovering(mut self, recover: fn(Error) -> Result<O, Error>) -> Self {
        self.recover = recover;
        self
    }

    /// The input the rest of the chain will see unless a link substitutes one.
    pub fn input(&self) -> &I {
        &self.input
    }

    /// Delegates to the next link (or the default, at the end of the chain).
    ///
    /// # Errors
    ///
    /// The future resolves to the first `Err` the rest of the chain produces, as produced:
    /// a later link's own error keeps its code, and a link that panics fails with
    /// [`ErrorCode::ListenerFailed`] (`"<what> panicked: ..."`); the default's error is
    /// passed through the same way. A chain built [`recovering`](Next::recovering) hands each
    /// link's error to its recovery instead, so the registry's `tools/execute` chain
    /// ([`DispatchNext`](super::DispatchNext)) never fails: an error there becomes a failed
    /// result. In the `tools/pre-execute` and `tools/post-execute` chains an `Err` fails the
    /// call with that error.
    pub fn run(self) -> BoxFuture<'static, Result<O, Error>> {
        let input = self.input.clone();
        self.continue_with(input)
    }

    /// Delegates `input` (a substitute for the one this link received) to the next link;
    /// public only where a chain allows substitutes.
    pub(crate) fn continue_with(self, input: I) -> BoxFuture<'static, Result<O, Error>> {
        Box::pin(async move {
            let Some(link) = self.links.get(self.index).cloned() else {
                return (self.end)(input).await;
            };
            let what = self.what;
            let recover = self.recover;
            let next = Next {
                index: self.index + 1,
                input: input.clone(),
                ..self
            };
            match contained(what, link(input, next)).await {
                Ok(output) => Ok(output),
                Err(err) => recover(err),
            }
        })
    }
}

/// Boxes a listener closure as a [`Link`].
pub(crate) fn link<I, O, F, Fut>(listener: F) -> Arc<Link<I, O>>
where
    F: Fn(I, Next<I, O>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, Error>> + Send + 'static,
{
    Arc::new(move |input, next| Box::pin(listener(input, next)))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn end() -> Arc<End<u32, u32>> {
        Arc::new(|input| Box::pin(async move { Ok(input * 10) }))
    }

    #[tokio::test]
    async fn links_run_in_order_and_may_substitute_or_short_circuit() {
        let add_one = link(|input: u32, next: Next<u32, u32>| next.continue_with(input + 1));
        let stop_at_big = link(|input: u32, next: Next<u32, u32>| async move {
            if input > 5 { Ok(0) } else { next.run().await }
        });
        let links: Arc<[Arc<Link<u32, u32>>]> = vec![add_one, stop_at_big].into();
        assert_eq!(
            Next::new("a link", links.clone(), end(), 1)
                .run()
                .await
                .unwrap(),
            20
        );
        assert_eq!(Next::new("a link", links, end(), 7).run().await.unwrap(), 0);
    }

    #[tokio::test]
    async fn a_panicking_link_is_contained_and_recovery_applies() {
        let panics = link(|_: u32, _: Next<u32, u32>| async { panic!("bug") });
        let links: Arc<[Arc<Link<u32, u32>>]> = vec![panics].into();
        let err = Next::new("a test link", links.clone(), end(), 1)
            .run()
            .await
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::ListenerFailed);
        assert_eq!(err.message(), "a test link panicked: bug");
        let recovered = Next::new("a test link", links, end(), 1)
            .recovering(|_| Ok(99))
            .run()
            .await;
        assert_eq!(recovered.unwrap(), 99);
    }
}
